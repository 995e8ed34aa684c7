"""The rules' words as catalog text: variant titles, how a game ended, and its running counts.

:mod:`rules` speaks English only (its titles, termination words and status phrases are data to
it, and the termination words are stored with each finished game).  Players see them in their own
language, so the service says them again here as catalog messages, written to read exactly like
the rules' English (``str()`` of each equals it; the tests check that for every variant).  Words
the rules may give that are not listed here are shown as they are.
"""

from __future__ import annotations

from collections.abc import Mapping

from rules.game import Game
from rules.notation import square_name
from rules.outcome import Outcome
from rules.position import Position
from rules.variants import Color, Variant, find_variant

from .enums import ChallengeStatus, GameStatus, TimePool
from .i18n import Text, _, _n, _p, clauses, join, verbatim

VARIANT_TITLES: Mapping[str, Text] = {
    "english": _p("variant", "English draughts / American checkers"),
    "dame": _p("variant", "German Dame (Brettspielnetz rules)"),
    "pool": _p("variant", "American pool checkers"),
    "international": _p("variant", "International draughts"),
    "canadian": _p("variant", "Canadian draughts"),
    "brazilian": _p("variant", "Brazilian draughts"),
    "russian": _p("variant", "Russian draughts"),
    "italian": _p("variant", "Italian draughts"),
    "spanish": _p("variant", "Spanish draughts"),
    "portuguese": _p("variant", "Portuguese draughts"),
    "czech": _p("variant", "Czech draughts"),
    "thai": _p("variant", "Thai draughts (Makhos)"),
    "turkish": _p("variant", "Turkish draughts (Dama)"),
    "frisian": _p("variant", "Frisian draughts"),
    "frysk": _p("variant", "Frysk!"),
    "antidraughts": _p("variant", "Antidraughts"),
    "breakthrough": _p("variant", "Breakthrough draughts"),
}


POOL_TITLES: Mapping[TimePool, Text] = {
    TimePool.BULLET: _p("time class", "Bullet"),
    TimePool.BLITZ: _p("time class", "Blitz"),
    TimePool.RAPID: _p("time class", "Rapid"),
    TimePool.CLASSICAL: _p("time class", "Classical"),
    TimePool.CORRESPONDENCE: _p("time class", "Correspondence"),
}
"""The rating pools' names (lichess's time classes), as rating lines and ladders name them."""


def variant_title(variant: Variant | str) -> Text:
    """The variant's title (``English draughts / American checkers``) in the reader's words."""
    found = variant if isinstance(variant, Variant) else find_variant(variant)
    return VARIANT_TITLES.get(found.key) or verbatim(found.title)


def _by_english(*texts: Text) -> dict[str, Text]:
    return {text.msgid: text for text in texts}


NEVER_MOVED: Mapping[Color, Text] = {
    Color.WHITE: _p("termination", "aborted: White never moved"),
    Color.BLACK: _p("termination", "aborted: Black never moved"),
}
"""How a game ended that was aborted because the player to move never moved (stored with the
game as its English, ``msgid``, like every termination detail)."""

TERMINATIONS: Mapping[str, Text] = _by_english(
    # The rules' words for each termination (rules.outcome).
    _p("termination", "no pieces left"),
    _p("termination", "no legal moves"),
    _p("termination", "crowned first"),
    _p("termination", "resignation"),
    _p("termination", "draw by agreement"),
    _p("termination", "threefold repetition"),
    _p("termination", "no progress"),
    _p("termination", "endgame count"),
    _p("termination", "40-move rule: no decisive advantage shown"),
    _p("termination", "timeout"),
    _p("termination", "aborted"),
    # Who resigned, ran out of time or never moved (rules.game, and the service's timeouts).
    _p("termination", "White resigned"),
    _p("termination", "Black resigned"),
    _p("termination", "White ran out of time"),
    _p("termination", "Black ran out of time"),
    *NEVER_MOVED.values(),
    # The variants' draw rules (rules.variants: NoProgressRule and EndgameRule descriptions).
    _p("termination", "40 moves each without a man move or capture"),
    _p("termination", "25 moves each without capture or crowning"),
    _p("termination", "25 moves each without a man move or capture"),
    _p("termination", "25 moves each with only king moves"),
    _p("termination", "15 moves each with only king moves"),
    _p("termination", "20 moves each with only king moves"),
    _p("termination", "three kings against one king not won in 13 moves"),
    _p("termination", "three kings against one king not won in 15 moves"),
    _p("termination", "16-move endgame rule"),
    _p("termination", "5-move endgame rule"),
    _p("termination", "2-3 piece endgame with kings: 5 moves without capture or crowning"),
    _p("termination", "4-5 piece endgame with kings: 30 moves without capture or crowning"),
    _p("termination", "6-7 piece endgame with kings: 60 moves without capture or crowning"),
    _p("termination", "one piece each"),
    _p("termination", "two kings against one king not won in 7 moves"),
    _p("termination", "one king each not won in 2 moves"),
)

_COUNT_LABELS = _by_english(
    # The names of the running counts in status lines (rules.variants labels).
    _p("count", "no-progress count"),
    _p("count", "3-kings-v-1 count"),
    _p("count", "16-move endgame count"),
    _p("count", "5-move endgame count"),
    _p("count", "30-move endgame count"),
    _p("count", "60-move endgame count"),
    _p("count", "one-piece-each count"),
    _p("count", "2-kings-v-1 count"),
    _p("count", "1-king-each count"),
)

CHALLENGE_STATUS: Mapping[ChallengeStatus, Text] = {
    ChallengeStatus.OPEN: _p("challenge status", "open"),
    ChallengeStatus.ACCEPTED: _p("challenge status", "accepted"),
    ChallengeStatus.DECLINED: _p("challenge status", "declined"),
    ChallengeStatus.CANCELLED: _p("challenge status", "cancelled"),
    ChallengeStatus.EXPIRED: _p("challenge status", "expired"),
}


def ending_words(status: GameStatus, result: str | None, winner: str | None) -> Text:
    """How a game ended in a few words, for the final board's strip, its alt text and a
    replay's: who won (``Alice wins, 1-0``), ``Draw, 1/2-1/2`` or ``Aborted, no result``; never
    a bare result code (an aborted game's stored result is ``*``).  ``winner``: the winner's
    name (Markdown-free: the strip is an image), None for a draw."""
    if status is GameStatus.ABORTED or not result or result == "*":
        return _p("game ending", "Aborted, no result")
    if winner is None:
        return _p("game ending", "Draw, {result}", result=result)
    return _p("game ending", "{name} wins, {result}", name=verbatim(winner), result=result)


def termination_words(words: str) -> Text:
    """How a game ended, from the rules' (or the store's) English words (``threefold
    repetition``, ``White resigned``); words not listed are shown as they are."""
    return TERMINATIONS.get(words) or verbatim(words)


def outcome_words(outcome: Outcome) -> Text:
    """:attr:`rules.outcome.Outcome.words` as catalog text."""
    return termination_words(outcome.words)


def _count_label(label: str) -> Text:
    return _COUNT_LABELS.get(label) or verbatim(label)


def _left(label: Text, left: int) -> Text:
    return _n("{rule}: {count} left", "{rule}: {count} left", left, rule=label)


def status_parts(game: Game, names: Mapping[Color, str]) -> tuple[Text, ...]:
    """:meth:`rules.game.Game.status_parts` (with names) as catalog text, part for part: the
    pending draw offer, the running counts and a king of the side to move that has used up its
    moves in a row (:func:`frozen_king_words`)."""
    parts = []
    if game.draw_offer is not None:
        parts.append(_("Draw offered by {name}", name=names[game.draw_offer]))
    left = game.advantage_moves_left()
    limit = game.variant.draw_offer_count
    if left is not None and limit is not None:
        parts.append(_left(_p("count", "{moves}-move count", moves=limit), left))
    for rule, moves_left in game._endgame_counts():
        parts.append(_left(_count_label(rule.label), moves_left))
    counting, quiet_left = game.variant.no_progress, game.no_progress_left()
    if counting is not None and quiet_left is not None and game.no_progress_counting():
        parts.append(_left(_count_label(counting.label), quiet_left))
    seen = game.repetitions()
    if seen > 1 and game.variant.repetitions:  # none where repeating draws nothing (frisian)
        parts.append(
            _("position repeated ({seen} of {limit})", seen=seen, limit=game.variant.repetitions)
        )
    if game.position.frozen_king:
        parts.append(frozen_king_words(game.position))
    return tuple(parts)


def frozen_king_words(position: Position) -> Text:
    """``White's king on 28 has made 3 moves in a row``: the king of the side to move that may
    only capture until another of its side's pieces has moved (frisian's limit on king moves)."""
    (square,) = position.squares(position.frozen_king)
    where = square_name(square, position.variant)
    limit = position.variant.king_move_limit
    if position.turn is Color.WHITE:
        return _n(
            "White's king on {square} has made {count} move in a row",
            "White's king on {square} has made {count} moves in a row",
            limit,
            square=where,
        )
    return _n(
        "Black's king on {square} has made {count} move in a row",
        "Black's king on {square} has made {count} moves in a row",
        limit,
        square=where,
    )


def status_line(game: Game, names: Mapping[Color, str]) -> Text:
    """:meth:`rules.game.Game.status_line` as catalog text: ``ongoing`` with the running
    counts, or the result and how the game ended."""
    outcome = game.outcome
    if outcome is not None:
        return join((verbatim(outcome.result(game.variant)), outcome_words(outcome)))
    return clauses((_p("status", "ongoing"), *status_parts(game, names)))
