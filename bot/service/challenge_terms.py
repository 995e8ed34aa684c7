"""The terms of a challenge, checked before anything is written: the colour, an open
challenge's rating range, the opening's moves and the position a game starts from.

A position of one's own (``/challenge position:<FEN>``, or a ply of an imported game) must be a
position of the challenge's variant (:func:`rules.fen.parse_fen`: squares on its board, no man on
its crowning row), with pieces of both sides and a move for the side to move; the variant's own
start position is simply the variant's start.  Such a game is a lesson or a training position,
not a contest from the start: it is never rated (:func:`~bot.service.records.new_game_row`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rules.fen import FenError, parse_fen
from rules.game import Game, GameError
from rules.notation import MoveError
from rules.variants import Color, Variant

from ..enums import ColorChoice
from ..errors import ChallengeError
from ..i18n import _, from_rules
from ..results import MAX_RATING, MIN_RATING, Player, TimeControl
from ..words import variant_title


@dataclass(frozen=True)
class Terms:
    """A checked challenge, with the defaults filled in."""

    channel_id: int
    challenger: Player
    opponent: Player | None
    """None: an open challenge."""
    variant: Variant
    color: ColorChoice
    move_time: int
    clock: TimeControl | None
    thread: bool
    opening: tuple[str, ...]
    match: bool
    level: int | None
    thread_id: int | None
    min_rating: int | None
    max_rating: int | None
    start_fen: str | None
    """The position the game starts from, as the rules write it (None: the variant's start)."""


def checked_color(value: ColorChoice | str) -> ColorChoice:
    try:
        return ColorChoice(value)
    except ValueError:
        choices = ", ".join(ColorChoice)
        raise ChallengeError(_("colour must be one of {choices}", choices=choices)) from None


def check_range(opponent: Player | None, low: int | None, high: int | None) -> None:
    """A rating range belongs to an open challenge and runs upwards within the ratings' scale."""
    if low is None and high is None:
        return
    if opponent is not None:
        raise ChallengeError(
            _("a rating range is for open challenges: leave out the opponent to set one")
        )
    for bound in (low, high):
        if bound is not None and not MIN_RATING <= bound <= MAX_RATING:
            raise ChallengeError(
                _(
                    "a rating limit must be between {least} and {most}",
                    least=MIN_RATING,
                    most=MAX_RATING,
                )
            )
    if low is not None and high is not None and low > high:
        raise ChallengeError(_("the lowest rating must not be above the highest"))


def checked_opening(variant: Variant, opening: Sequence[str]) -> tuple[str, ...]:
    """The opening's moves in PDN, or a refusal naming the first that cannot be played."""
    game = Game(variant)
    moves = []
    for text in opening:
        try:
            moves.append(game.play(text).pdn())
        except (MoveError, GameError) as exc:
            raise ChallengeError(
                _(
                    "the opening move {move} is not playable: {reason}",
                    move=repr(text),
                    reason=from_rules(exc),
                )
            ) from None
    if game.is_over:
        raise ChallengeError(_("the opening ends the game"))
    return tuple(moves)


def checked_start(variant: Variant, fen: str | None) -> str | None:
    """The position ``fen`` as the rules write it, or None for the variant's own start (none
    given, or that very position); refused, saying why, when it is no playable position of
    ``variant``."""
    if fen is None or not fen.strip():
        return None
    try:
        position = parse_fen(fen, variant)
    except FenError as exc:
        raise ChallengeError(
            _(
                "that position does not fit {variant}: {reason}",
                variant=variant_title(variant),
                reason=from_rules(exc),
            )
        ) from None
    if not (position.pieces_of(Color.WHITE) and position.pieces_of(Color.BLACK)):
        raise ChallengeError(_("that position needs pieces of both sides"))
    if not Game(variant, position).legal_moves():
        raise ChallengeError(
            _("in that position the side to move has no move: the game would be over")
        )
    written = position.fen()
    return None if written == Game(variant).start.fen() else written
