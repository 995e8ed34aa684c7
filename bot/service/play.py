"""Moves: playing one, and the legal moves a player may choose from.

A move is read once, under the game's lock, in the position the player saw (``expected_ply``).
Against the computer the move is answered at once and the computer is woken to think off the
lock (:mod:`bot.service.computer_replies`); its reply is claimed for the move's caller to show
next.
"""

from __future__ import annotations

from rules.notation import MoveError, normalize, parse_move
from rules.variants import Color

from ..errors import ConflictError, IllegalMoveError, NotYourTurnError
from ..markdown import shown
from ..results import Action, ActionResult, GameView, MoveChoice, MovePlayed
from ..store import Store
from .computer_replies import ComputerReplies
from .endings import Endings
from .live import Live, LiveGames, apply_rules, color_of
from .views import after_move_text, game_view, player

MAX_CHOICES = 25
"""Discord shows at most 25 autocomplete choices."""


class Play:
    def __init__(
        self,
        store: Store,
        live: LiveGames,
        replies: ComputerReplies,
        endings: Endings,
    ) -> None:
        self.store = store
        self.live = live
        self.replies = replies
        self.endings = endings

    async def move(
        self,
        user_id: int,
        text: str,
        *,
        channel_id: int | None = None,
        game_id: int | None = None,
        expected_ply: int | None = None,
    ) -> ActionResult:
        """Play ``text`` for ``user_id`` in the running game of the channel (or ``game_id``).

        ``expected_ply`` is the position the player saw; if the game has moved on since, the
        move is refused rather than read in a position they did not see.
        """
        gid = await self.live.resolve(channel_id, game_id)
        async with self.live.lock(gid):
            live = await self.live.load(gid)
            color = await self._mover(live, user_id, expected_ply)
            game = live.game
            try:
                move = parse_move(game.position, text, game.legal_moves())
            except MoveError as exc:
                await self.live.ensure_fresh(live)
                raise IllegalMoveError(str(exc)) from None
            apply_rules(lambda: game.play(move))
            mover = player(live.row, color)
            played = MovePlayed(game.ply, move.pdn(), mover, False)
            event = await self.live.save(live, user_id=user_id, moved=True, announce=Action.MOVED)
            if live.row.computer_id is not None and not game.is_over:
                self.replies.wake(gid, claim=True)
        view = game_view(live.row, game)
        text_out = f"{shown(mover.name)} played {move.pdn()}. {after_move_text(view)}"
        return await self.endings.board_result(Action.MOVED, text_out, view, (played,), event=event)

    async def _mover(self, live: Live, user_id: int, expected_ply: int | None) -> Color:
        """The colour of ``user_id`` if they may move now (a player, on turn, in the position
        they saw)."""
        color = color_of(live, user_id)
        game = live.game
        if expected_ply is not None and expected_ply != game.ply:
            await self.live.ensure_fresh(live)
            raise ConflictError()
        if game.turn is not color:
            await self.live.ensure_fresh(live)
            raise NotYourTurnError(f"it is {shown(player(live.row, game.turn).name)}'s turn")
        return color

    async def legal_moves(
        self, channel_id: int, user_id: int, prefix: str = ""
    ) -> list[MoveChoice]:
        """Autocomplete for the player to move: their legal moves matching ``prefix`` (captures
        first, at most 25); anyone else gets nothing."""
        row = await self.store.running_game_in(channel_id)
        if row is None:
            return []
        async with self.live.lock(row.id):
            live = await self.live.load_quietly(row.id)
            if live is None:
                return []
            game = live.game
            if player(live.row, game.turn).id != user_id or game.is_over:
                return []
            moves = sorted(game.legal_moves(), key=lambda m: (not m.is_capture, m.path))
        wanted = normalize(prefix[:40]).replace(" ", "").replace(":", "x")
        choices = []
        for m in moves:
            full, short = m.pdn(), m.short()
            if wanted and not (full.startswith(wanted) or short.startswith(wanted)):
                continue
            name = full if short == full else f"{short} ({full})"
            choices.append(MoveChoice(name, full))
            if len(choices) == MAX_CHOICES:
                break
        return choices

    async def move_list(self, channel_id: int) -> tuple[GameView, list[str]]:
        """The running game of the channel and every legal move of the side to move, captures
        first (``/moves``: anyone may look)."""
        gid = await self.live.resolve(channel_id, None)
        async with self.live.lock(gid):
            live = await self.live.load(gid)
            moves = sorted(live.game.legal_moves(), key=lambda m: (not m.is_capture, m.path))
            return game_view(live.row, live.game), [m.pdn() for m in moves]
