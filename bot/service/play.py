"""Moves: playing one, and the legal moves a player may choose from.

A move is read once, under the game's lock, in the position the player saw (``ply``, or the older
``expected_ply``).  Against the computer the move is answered at once and the computer is woken to
think off the lock (:mod:`bot.service.computer_replies`); its reply is claimed for the move's
caller to show next.  Moves are read in either notation and shown in the variant's own.

Tapping a move on a phone is two steps: :meth:`Play.picker` lists the legal moves of the board the
player pressed Move on (a read: the game's lock is held only to look), and :meth:`Play.move` plays
the one chosen with ``game_id`` and ``ply``, refused with :class:`~bot.errors.StaleError` when the
game has moved on since that board was shown.
"""

from __future__ import annotations

from rules.move import Move
from rules.notation import MoveError, normalize, parse_move, show_move
from rules.variants import Color, Notation

from ..errors import (
    ConflictError,
    IllegalMoveError,
    NotAPlayerError,
    NotFoundError,
    NotYourTurnError,
    StaleError,
)
from ..i18n import _, from_rules
from ..markdown import shown
from ..results import Action, ActionResult, GameView, MoveChoice, MovePlayed
from ..store import Store
from .computer_replies import ComputerReplies
from .endings import Endings
from .live import Live, LiveGames, apply_rules, color_of
from .views import game_view, player

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
        ply: int | None = None,
    ) -> ActionResult:
        """Play ``text`` for ``user_id`` in the running game of the channel, or in ``game_id``
        (which must then be played in ``channel_id`` when that is given too).

        ``ply`` is the position the player saw (the board they tapped Move on): if the game has
        moved on since, the move is refused with :class:`StaleError` rather than read in a
        position they did not see.  ``expected_ply`` does the same with the older refusal,
        :class:`ConflictError` ("the position changed, try again").
        """
        gid = await self.live.resolve(channel_id, game_id)
        async with self.live.lock(gid):
            live = await self.live.load(gid)
            if game_id is not None and channel_id is not None:
                _in_channel(live, channel_id)
            color = await self._mover(live, user_id, expected_ply, ply)
            game = live.game
            variant = game.variant
            try:
                move = parse_move(
                    game.position, text, game.legal_moves(), notation=variant.notation
                )
            except MoveError as exc:
                await self.live.ensure_fresh(live)
                raise IllegalMoveError(from_rules(exc)) from None
            apply_rules(lambda: game.play(move))
            mover = player(live.row, color)
            named = show_move(move, variant)
            played = MovePlayed(game.ply, move.pdn(), mover, False, named)
            event = await self.live.save(live, user_id=user_id, moved=True, announce=Action.MOVED)
            if live.row.computer_id is not None and not game.is_over:
                self.replies.wake(gid, claim=True)
        view = game_view(live.row, game)
        text_out = _("{name} played {move}.", name=shown(mover.name), move=named)
        return await self.endings.board_result(
            Action.MOVED, text_out, view, (played,), event=event, actor=user_id
        )

    async def _mover(
        self, live: Live, user_id: int, expected_ply: int | None, ply: int | None = None
    ) -> Color:
        """The colour of ``user_id`` if they may move now (a player, on turn, in the position
        they saw)."""
        color = color_of(live, user_id)
        game = live.game
        if expected_ply is not None and expected_ply != game.ply:
            await self.live.ensure_fresh(live)
            raise ConflictError()
        if ply is not None and ply != game.ply:
            await self.live.ensure_fresh(live)
            raise StaleError()
        if game.turn is not color:
            await self.live.ensure_fresh(live)
            raise NotYourTurnError(
                _("it is {name}'s turn", name=shown(player(live.row, game.turn).name))
            )
        return color

    async def picker(
        self, game_id: int, user_id: int, ply: int | None
    ) -> tuple[GameView, list[Move]]:
        """The game and the legal moves of its player to move, for the picker they are using at
        ``ply`` (None: the current position, for a picker being opened), captures first, then by
        path.  Refused, with nothing changed, when the
        game does not exist or is over, ``user_id`` does not play in it, the game has moved on
        since that board (:class:`StaleError`), or it is not their turn.  A read: the game's
        lock is held only while the game is looked at, never while the player chooses."""
        async with self.live.lock(game_id):
            live = await self.live.load(game_id)
            row, game = live.row, live.game
            if user_id not in (row.white_id, row.black_id):
                raise NotAPlayerError(_("only the players of game #{id} can move", id=game_id))
            if ply is not None and ply != game.ply:  # a picker shown before the game moved on
                await self.live.ensure_fresh(live)
                raise StaleError()
            if player(row, game.turn).id != user_id:
                await self.live.ensure_fresh(live)
                raise NotYourTurnError(
                    _("it is {name}'s turn", name=shown(player(row, game.turn).name))
                )
            moves = sorted(game.legal_moves(), key=lambda m: (not m.is_capture, m.path))
            return game_view(row, game), moves

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
            variant = game.variant
        wanted = normalize(prefix[:40]).replace(" ", "").replace(":", "x")
        choices = []
        for m in moves:
            full, short = m.pdn(), m.short()
            forms = {full, short, show_move(full, variant), show_move(short, variant)}
            if wanted and not any(form.startswith(wanted) for form in forms):
                continue
            label = full if short == full else f"{short} ({full})"
            choices.append(MoveChoice(show_move(label, variant), full))
            if len(choices) == MAX_CHOICES:
                break
        return choices

    async def move_list(
        self, channel_id: int, notation: Notation | None = None
    ) -> tuple[GameView, list[str]]:
        """The running game of the channel and every legal move of the side to move, captures
        first, in ``notation`` (the variant's own when None: ``/moves``, anyone may look, each
        in their own notation)."""
        gid = await self.live.resolve(channel_id, None)
        async with self.live.lock(gid):
            live = await self.live.load(gid)
            game = live.game
            moves = sorted(game.legal_moves(), key=lambda m: (not m.is_capture, m.path))
            shown_moves = [show_move(m, game.variant, notation) for m in moves]
            return game_view(live.row, game), shown_moves


def _in_channel(live: Live, channel_id: int) -> None:
    """Refuse a game named by id from a channel it is not played in."""
    if live.row.channel_id != channel_id:
        raise NotFoundError(_("game #{id} is not played in this channel", id=live.row.id))
