"""The game record: start position, moves, draw offers, the draw rules, and how it ended.

:class:`Game` applies every automatic rule of the variant after each move, in this order (the first
that applies ends the game): the side to move has no pieces, or no legal move (it loses); the
position occurred for the third time (``Variant.repetitions``, where the variant has that draw);
an endgame count ran out (``Variant.endgames``); the no-progress count ran out
(``Variant.no_progress``); the decliner of a draw offer completed the moves of the 40-move count
(``Variant.draw_offer_count``, english) without a decisive advantage.  Resignation, timeout,
abort and takebacks (:meth:`Game.take_back`) come from outside (the service).

The counts are kept per ply so they are always known exactly and survive a round trip through
:meth:`Game.to_dict`: the record is its start position, its moves, the pending draw offer, the
running 40-move count and the outcome.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .fen import parse_fen
from .messages import N_, Message, MessageError, N_n, counted, message
from .move import Move
from .notation import MoveNotLegalError, moves_message, parse_move, side_name, square_name
from .outcome import Outcome, Termination
from .position import Position
from .variants import Color, EndgameRule, Goal, Variant, find_variant


class GameError(MessageError):
    """An action the game refuses (it is over, there is no draw offer to answer...); see
    :mod:`rules.messages` for its words in other languages."""


class GameEndedError(GameError):
    """The game has ended; nothing more can be played or offered."""


class DrawOfferError(GameError):
    """A draw offer that cannot be made, accepted or declined now."""


class TakebackCountError(GameError):
    """A takeback of no moves, or of more moves than have been played."""


@dataclass(frozen=True)
class AdvantageCount:
    """The 40-move count: ``side`` declined a draw when ``start_ply`` moves had been played."""

    side: Color
    start_ply: int


class Game:
    """A game in progress or finished.  Not thread-safe; one owner at a time."""

    def __init__(self, variant: Variant, start: Position | None = None) -> None:
        if start is None:
            start = Position.start(variant)
        elif start.variant is not variant:
            raise ValueError("the start position belongs to another variant")
        self.variant = variant
        self.start = start
        self.moves: list[Move] = []
        self.positions: list[Position] = [start]
        self.draw_offer: Color | None = None
        """The side whose draw offer is waiting for an answer."""
        self.advantage_count: AdvantageCount | None = None
        self.outcome: Outcome | None = None
        self._seen: Counter[Position] = Counter({start: 1})
        # Per position: plies since the last progress (no-progress rule) and, per endgame rule,
        # the index of the position where its count started (None while it does not apply).
        self._quiet: list[int] = [0]
        self._endgame_starts: list[tuple[int | None, ...]] = [
            tuple(0 if self._endgame_holds(rule, start) else None for rule in variant.endgames)
        ]
        self._legal: list[Move] | None = None
        self.outcome = self._position_outcome()

    # -- state ----------------------------------------------------------------------------------

    @property
    def position(self) -> Position:
        return self.positions[-1]

    @property
    def turn(self) -> Color:
        return self.position.turn

    @property
    def ply(self) -> int:
        """Moves played so far (by both sides)."""
        return len(self.moves)

    @property
    def move_number(self) -> int:
        """Full-move number of the move to be played next, counted from the start position as
        PDN numbers them (``1. 11-15 23-19 2. ...``: a move and its reply share a number)."""
        return self.ply // 2 + 1

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    def legal_moves(self) -> list[Move]:
        """Legal moves of the side to move (none once the game is over)."""
        if self.outcome is not None:
            return []
        if self._legal is None:
            self._legal = self.position.legal_moves()
        return self._legal

    def result(self) -> str:
        """PDN result: ``*`` while the game goes on."""
        return "*" if self.outcome is None else self.outcome.result(self.variant)

    # -- moves ----------------------------------------------------------------------------------

    def play(self, move: Move | str) -> Move:
        """Play ``move`` (a :class:`Move` or text in any accepted form) for the side to move and
        apply the draw rules.  Raises :class:`GameEndedError` or a
        :class:`~rules.notation.MoveError`; the game is unchanged when anything is raised."""
        self._require_ongoing()
        legal = self.legal_moves()
        if isinstance(move, str):
            move = parse_move(self.position, move, legal)
        elif move in legal:
            move = legal[legal.index(move)]  # this position's own instance (its crowning flag)
        else:
            raise MoveNotLegalError(
                message(
                    N_("{move} is not a legal move; legal moves: {moves}"),
                    move=str(move),
                    moves=moves_message(legal),
                ),
                legal,
            )
        mover = self.turn
        if self.draw_offer is mover.other:
            # Playing on instead of answering an offer declines it.
            self._decline(mover)
        self._push(move)
        self.outcome = self._position_outcome() or self._draw_outcome()
        return move

    def _push(self, move: Move) -> None:
        before = self.position
        after = before.play(move)
        rule = self.variant.progress
        man_move = bool(before.men_of(before.turn) & move.from_bit)
        progress = (
            move.is_capture or (rule.man_moves and man_move) or (rule.crownings and move.crowns)
        )
        self._quiet.append(0 if progress else self._quiet[-1] + 1)
        index = len(self.positions)
        starts: list[int | None] = []
        for rule_, previous in zip(self.variant.endgames, self._endgame_starts[-1], strict=True):
            if not self._endgame_holds(rule_, after):
                starts.append(None)
            elif previous is None or move.is_capture or (rule_.crowning_restarts and move.crowns):
                starts.append(index)
            else:
                starts.append(previous)
        self._endgame_starts.append(tuple(starts))
        self.moves.append(move)
        self.positions.append(after)
        self._seen[after] += 1
        self._legal = None

    def take_back(self, plies: int = 1) -> list[Move]:
        """Take back the last ``plies`` moves (both sides' moves count) and return them in the
        order they were played.

        Players may agree to take moves back; the game then goes on from the earlier position as
        if the moves had never been played.  The repetition counts, the no-progress count and the
        endgame counts are restored exactly as they were in that position (the record keeps them
        per ply), so the draw rules judge the rest of the game as they would have without the
        taken-back moves.  A pending draw offer is withdrawn: it was about the position being
        taken back.  The 40-move count of a declined offer (english) is kept if the offer was
        declined in the position returned to or before it, and dropped if it was declined later.
        A count that had already ended (the decliner showed a decisive advantage) is not revived:
        like :meth:`to_dict`, the record does not remember it.  The earlier position is not over
        (the game went on from it), so the game stays ongoing.

        Raises :class:`GameEndedError` once the game is over (a result stands) and
        :class:`TakebackCountError` unless ``1 <= plies <= ply``; the game is unchanged when
        anything is raised.

        >>> game = Game(find_variant("english"))
        >>> [str(game.play(m)) for m in ("11-15", "23-19", "8-11")]
        ['11-15', '23-19', '8-11']
        >>> [str(m) for m in game.take_back(2)]
        ['23-19', '8-11']
        >>> game.ply, game.turn.label
        (1, 'white')
        """
        self._require_ongoing()
        if not 1 <= plies <= self.ply:
            if plies < 1:
                raise TakebackCountError(
                    counted(
                        N_n(
                            "cannot take back {count} move: at least one is needed",
                            "cannot take back {count} moves: at least one is needed",
                        ),
                        plies,
                    )
                )
            if self.ply == 0:
                raise TakebackCountError(message(N_("there is no move to take back")))
            played = counted(
                N_n("only {count} has been played", "only {count} have been played"), self.ply
            )
            raise TakebackCountError(
                counted(
                    N_n(
                        "cannot take back {count} move: {played}",
                        "cannot take back {count} moves: {played}",
                    ),
                    plies,
                    played=played,
                )
            )
        keep = self.ply - plies
        taken = self.moves[keep:]
        for pos in self.positions[keep + 1 :]:
            self._seen[pos] -= 1
            if self._seen[pos] <= 0:
                del self._seen[pos]
        del self.moves[keep:]
        del self.positions[keep + 1 :]
        del self._quiet[keep + 1 :]
        del self._endgame_starts[keep + 1 :]
        self._legal = None
        self.draw_offer = None
        count = self.advantage_count
        if count is not None and count.start_ply > keep:
            self.advantage_count = None
        return taken

    @staticmethod
    def _endgame_holds(rule: EndgameRule, pos: Position) -> bool:
        return bool(
            rule.strong(pos.material(Color.WHITE)) or rule.strong(pos.material(Color.BLACK))
        )

    # -- rules ----------------------------------------------------------------------------------

    def _position_outcome(self) -> Outcome | None:
        pos = self.position
        goal = self.variant.goal
        if goal is Goal.FIRST_KING:
            # The side that just moved crowned; a set-up position with kings is over as well,
            # won by the side that has one (the one that moved last, should both).
            for side in (pos.turn.other, pos.turn):
                if pos.kings_of(side):
                    return Outcome(Termination.CROWNED_FIRST, side)
        # Giving away, the side left without pieces or moves has reached its goal.
        winner = pos.turn if goal is Goal.GIVE_AWAY else pos.turn.other
        if not pos.pieces_of(pos.turn):
            return Outcome(Termination.NO_PIECES, winner)
        if not self.legal_moves():
            return Outcome(Termination.NO_MOVES, winner)
        return None

    def _draw_outcome(self) -> Outcome | None:
        variant = self.variant
        if variant.repetitions and self._seen[self.position] >= variant.repetitions:
            return Outcome(Termination.THREEFOLD_REPETITION, None)
        for rule, left in self._endgame_counts():
            if left <= 0:
                return Outcome(Termination.ENDGAME_COUNT, None, rule.description)
        quiet_left = self.no_progress_left()
        if variant.no_progress is not None and quiet_left is not None and quiet_left <= 0:
            return Outcome(Termination.NO_PROGRESS, None, variant.no_progress.description)
        count = self.advantage_count
        if count is not None and self.advantage_moves_left() == 0:
            if self.has_decisive_advantage(count.side):
                self.advantage_count = None  # shown: the game goes on, a new offer may restart it
            else:
                return Outcome(Termination.NO_DECISIVE_ADVANTAGE, None)
        return None

    def has_decisive_advantage(self, side: Color) -> bool:
        """More pieces than the opponent, or as many and more kings (seeds 000/001)."""
        kings, men, their_kings, their_men = self.position.material(side)
        if kings + men != their_kings + their_men:
            return kings + men > their_kings + their_men
        return kings > their_kings

    def _moves_by(self, side: Color, since_ply: int) -> int:
        """Moves ``side`` has played after the first ``since_ply`` moves."""
        plies = self.ply - since_ply
        first_mover = self.positions[since_ply].turn
        return (plies + 1) // 2 if first_mover is side else plies // 2

    def quiet_plies(self) -> int:
        """Plies since the last capture or other progress move (what the no-progress rule
        counts; the engine needs it to see that draw coming)."""
        return self._quiet[-1]

    def no_progress_counting(self) -> bool:
        """Whether the no-progress count is running in this position, by the rules' state and
        not by the last move: where every man move is progress, only kings can make moves that
        count, so it runs while a king is on the board; where only captures (and crownings)
        are, it always runs.  Status lines show the count exactly then, so it does not come and
        go from one move to the next.  Never where the variant has no such count."""
        rule = self.variant.no_progress
        if rule is None:
            return False
        if not rule.man_moves:
            return True
        pos = self.position
        return bool(pos.white_kings | pos.black_kings)

    def no_progress_left(self) -> int | None:
        """Moves (each) left before the no-progress draw; None where the variant has no such
        count."""
        rule = self.variant.no_progress
        if rule is None:
            return None
        return rule.moves - self._quiet[-1] // 2

    def _endgame_counts(self) -> list[tuple[EndgameRule, int]]:
        """``(rule, moves left)`` for every endgame count that is running."""
        out = []
        for rule, start in zip(self.variant.endgames, self._endgame_starts[-1], strict=True):
            if start is None:
                continue
            if rule.counted == "each":
                made = (self.ply - start) // 2
            else:
                pos = self.position
                strong = Color.WHITE if rule.strong(pos.material(Color.WHITE)) else Color.BLACK
                made = self._moves_by(strong, start)
            out.append((rule, rule.moves - made))
        return out

    def advantage_moves_left(self) -> int | None:
        """The decliner's moves left in the 40-move count, or None when no count runs."""
        count = self.advantage_count
        limit = self.variant.draw_offer_count
        if count is None or limit is None:
            return None
        return max(0, limit - self._moves_by(count.side, count.start_ply))

    def repetitions(self) -> int:
        """How many times the current position has occurred (with the same side to move)."""
        return self._seen[self.position]

    # -- draw offers, resignation, outside events -----------------------------------------------

    def offer_draw(self, side: Color) -> None:
        """``side`` offers a draw; if the opponent's offer is pending, this accepts it."""
        self._require_ongoing()
        if self.draw_offer is side:
            raise DrawOfferError(
                message(
                    N_("White has already offered a draw")
                    if side is Color.WHITE
                    else N_("Black has already offered a draw")
                )
            )
        if self.draw_offer is side.other:
            self.accept_draw(side)
            return
        self.draw_offer = side

    def accept_draw(self, side: Color) -> None:
        """``side`` accepts the opponent's pending offer: the game is drawn by agreement."""
        self._require_ongoing()
        if self.draw_offer is not side.other:
            raise DrawOfferError(
                message(
                    N_("there is no draw offer for White to accept")
                    if side is Color.WHITE
                    else N_("there is no draw offer for Black to accept")
                )
            )
        self.draw_offer = None
        self.outcome = Outcome(Termination.AGREEMENT, None)

    def decline_draw(self, side: Color) -> None:
        """``side`` declines the opponent's pending offer (starting the 40-move count where the
        variant has one and none is running)."""
        self._require_ongoing()
        if self.draw_offer is not side.other:
            raise DrawOfferError(
                message(
                    N_("there is no draw offer for White to decline")
                    if side is Color.WHITE
                    else N_("there is no draw offer for Black to decline")
                )
            )
        self._decline(side)

    def _decline(self, side: Color) -> None:
        self.draw_offer = None
        if self.variant.draw_offer_count is not None and self.advantage_count is None:
            self.advantage_count = AdvantageCount(side, self.ply)

    def resign(self, side: Color) -> None:
        self._require_ongoing()
        self.draw_offer = None
        self.outcome = Outcome(Termination.RESIGNATION, side.other, f"{side_name(side)} resigned")

    def timeout(self, side: Color) -> None:
        """``side`` let its time run out and loses."""
        self._require_ongoing()
        self.draw_offer = None
        self.outcome = Outcome(
            Termination.TIMEOUT, side.other, f"{side_name(side)} ran out of time"
        )

    def abort(self) -> None:
        """End the game with no result."""
        self._require_ongoing()
        self.draw_offer = None
        self.outcome = Outcome(Termination.ABORTED, None)

    def _require_ongoing(self) -> None:
        if self.outcome is not None:
            raise GameEndedError(_over(self.outcome, self.variant))

    # -- presentation ---------------------------------------------------------------------------

    def status_parts(self, names: Mapping[Color, str] | None = None) -> list[str]:
        """The running counts and the pending offer, each as a short phrase; with ``names``
        the offer names its player (``Draw offered by Alice``)."""
        parts = []
        if self.draw_offer is not None:
            if names is None:
                parts.append(f"draw offered by {self.draw_offer.label}")
            else:
                parts.append(f"Draw offered by {names[self.draw_offer]}")
        left = self.advantage_moves_left()
        if left is not None:
            parts.append(f"{self.variant.draw_offer_count}-move count: {left} left")
        for rule, moves_left in self._endgame_counts():
            parts.append(f"{rule.label}: {moves_left} left")
        counting, quiet_left = self.variant.no_progress, self.no_progress_left()
        if counting is not None and quiet_left is not None and self.no_progress_counting():
            parts.append(f"{counting.label}: {quiet_left} left")
        seen = self.repetitions()
        if seen > 1 and self.variant.repetitions:
            parts.append(f"position repeated ({seen} of {self.variant.repetitions})")
        frozen = self.position.frozen_king
        if frozen:
            # The king of the side to move that may only capture (frisian's limit on a king's
            # moves in a row): a player should see why it offers no step.
            (square,) = self.position.squares(frozen)
            side = self.position.turn.label.capitalize()
            limit = self.variant.king_move_limit
            parts.append(
                f"{side}'s king on {square_name(square, self.variant)} has made {limit} moves"
                " in a row"
            )
        return parts

    def status_line(self, names: Mapping[Color, str] | None = None) -> str:
        """``ongoing`` with the running counts, or the result and the termination in words."""
        if self.outcome is not None:
            return self.outcome.summary(self.variant)
        return "; ".join(["ongoing", *self.status_parts(names)])

    def copy(self) -> Game:
        """An independent copy, cheaper than a round trip through :meth:`to_dict` (which replays
        every move): a search can read it while the original game goes on changing."""
        twin = Game.__new__(Game)
        twin.variant = self.variant
        twin.start = self.start
        twin.moves = list(self.moves)
        twin.positions = list(self.positions)
        twin.draw_offer = self.draw_offer
        twin.advantage_count = self.advantage_count
        twin.outcome = self.outcome
        twin._seen = Counter(self._seen)
        twin._quiet = list(self._quiet)
        twin._endgame_starts = list(self._endgame_starts)
        twin._legal = None if self._legal is None else list(self._legal)
        return twin

    # -- serialisation --------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """Everything needed to rebuild the game, as JSON-compatible values."""
        count = self.advantage_count
        outcome = self.outcome
        return {
            "variant": self.variant.key,
            "start": self.start.fen(),
            "moves": [m.pdn() for m in self.moves],
            "draw_offer": None if self.draw_offer is None else self.draw_offer.label,
            "advantage_count": None
            if count is None
            else {"side": count.side.label, "start_ply": count.start_ply},
            "outcome": None
            if outcome is None
            else {
                "termination": outcome.termination.value,
                "winner": None if outcome.winner is None else outcome.winner.label,
                "detail": outcome.detail,
            },
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Game:
        """The game :meth:`to_dict` described.  Raises ``ValueError`` (with the reason) for data
        that does not describe a legal game."""
        try:
            variant = find_variant(str(data["variant"]))
            game = cls(variant, parse_fen(str(data["start"]), variant))
            game.outcome = None
            for text in data["moves"]:
                move = parse_move(game.position, str(text), game.legal_moves())
                game._push(move)
            game.draw_offer = _color(data.get("draw_offer"))
            count = data.get("advantage_count")
            if count is not None:
                start_ply = int(count["start_ply"])
                if not 0 <= start_ply <= game.ply:
                    raise ValueError(f"40-move count starts after the last move ({start_ply})")
                side = _color(count["side"])
                if side is None:
                    raise ValueError("40-move count without a side")
                game.advantage_count = AdvantageCount(side, start_ply)
            stored = data.get("outcome")
            if stored is None:
                game.outcome = game._position_outcome()
            else:
                game.outcome = Outcome(
                    Termination(stored["termination"]),
                    _color(stored.get("winner")),
                    str(stored.get("detail") or ""),
                )
            return game
        except (KeyError, TypeError) as exc:
            raise ValueError(f"not a stored game: missing or malformed {exc}") from exc


_OVER = {
    Termination.NO_PIECES: N_("the game is over ({result} no pieces left)"),
    Termination.NO_MOVES: N_("the game is over ({result} no legal moves)"),
    Termination.CROWNED_FIRST: N_("the game is over ({result} crowned first)"),
    Termination.RESIGNATION: N_("the game is over ({result} resignation)"),
    Termination.AGREEMENT: N_("the game is over ({result} draw by agreement)"),
    Termination.THREEFOLD_REPETITION: N_("the game is over ({result} threefold repetition)"),
    Termination.NO_PROGRESS: N_("the game is over ({result} no progress)"),
    Termination.ENDGAME_COUNT: N_("the game is over ({result} endgame count)"),
    Termination.NO_DECISIVE_ADVANTAGE: N_(
        "the game is over ({result} 40-move rule: no decisive advantage shown)"
    ),
    Termination.TIMEOUT: N_("the game is over ({result} timeout)"),
    Termination.ABORTED: N_("the game is over ({result} aborted)"),
}
"""``the game is over (...)`` for an outcome in its plain words (no detail)."""
_OVER_DETAIL = {
    "White resigned": N_("the game is over ({result} White resigned)"),
    "Black resigned": N_("the game is over ({result} Black resigned)"),
    "White ran out of time": N_("the game is over ({result} White ran out of time)"),
    "Black ran out of time": N_("the game is over ({result} Black ran out of time)"),
}
"""The same for the details :class:`Game` itself writes (a variant's count rule has its own
words, which are shown as they are)."""


def _over(outcome: Outcome, variant: Variant) -> Message | str:
    """``the game is over (1-0 White resigned)``."""
    template = _OVER_DETAIL.get(outcome.detail) if outcome.detail else _OVER[outcome.termination]
    if template is None:
        return f"the game is over ({outcome.summary(variant)})"
    return message(template, result=outcome.result(variant))


def _color(label: object) -> Color | None:
    if label is None:
        return None
    if label == "white":
        return Color.WHITE
    if label == "black":
        return Color.BLACK
    raise ValueError(f"not a side: {label!r}")
