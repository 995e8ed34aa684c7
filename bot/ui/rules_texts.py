"""The words of ``/rules``: a variant's summary, sentence by sentence, and its notation note.

Every sentence is chosen from the variant's rule data (:mod:`rules.variants`), the same fields
the move generator reads, so the summary cannot disagree with the game; a new kind of rule adds a
branch here and its words to the catalogs.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeAlias

from rules.geometry import Numbering
from rules.variants import (
    VARIANTS,
    Crowning,
    EndgameRule,
    Goal,
    NoProgressRule,
    Precedence,
    Variant,
    find_variant,
)

from ..i18n import Text, _, _n, clauses, join, verbatim
from ..words import variant_title

DrawRule: TypeAlias = NoProgressRule | EndgameRule
"""A rule that ends a game drawn by counting moves."""


def _board_sentence(v: Variant) -> Text:
    squares = v.geometry.squares
    per_side = v.men_rows * v.geometry.half
    if v.orthogonal:
        return _n(
            "{size}x{size} board, played on all {squares} squares; {count} man each on the "
            "second and third rows. White moves first.",
            "{size}x{size} board, played on all {squares} squares; {count} men each on the "
            "second and third rows. White moves first.",
            per_side,
            size=v.size,
            squares=squares,
        )
    if v.men_rows == 1:  # frysk: the back row only
        return _n(
            "{size}x{size} board, played on the {squares} dark squares; {count} man each, on "
            "the back row. White moves first.",
            "{size}x{size} board, played on the {squares} dark squares; {count} men each, on "
            "the back row. White moves first.",
            per_side,
            size=v.size,
            squares=squares,
        )
    # On a diagonal board the men fill each player's nearest rows (no variant leaves one empty).
    if v.first.label == "white":
        return _n(
            "{size}x{size} board, played on the {squares} dark squares; {count} man each, on the "
            "first {rows} rows. White moves first.",
            "{size}x{size} board, played on the {squares} dark squares; {count} men each, on the "
            "first {rows} rows. White moves first.",
            per_side,
            size=v.size,
            squares=squares,
            rows=v.men_rows,
        )
    return _n(
        "{size}x{size} board, played on the {squares} dark squares; {count} man each, on the "
        "first {rows} rows. Black moves first.",
        "{size}x{size} board, played on the {squares} dark squares; {count} men each, on the "
        "first {rows} rows. Black moves first.",
        per_side,
        size=v.size,
        squares=squares,
        rows=v.men_rows,
    )


def _men_sentence(v: Variant) -> Text:
    if v.orthogonal:
        return _("Men step one square forwards or sideways, never diagonally or backwards.")
    return _("Men step one square diagonally forwards.")


def _capture_sentence(v: Variant) -> Text:
    if v.orthogonal:
        return _(
            "Capturing is compulsory; you must take the sequence that captures the most pieces, "
            "kings and men counting alike. Men capture forwards and sideways."
        )
    if v.capture_precedence == (Precedence.MOST_VALUE, Precedence.WITH_KING):
        return _(
            "Capturing is compulsory; you must take the most value, a king counting a little "
            "less than two men (a king outweighs a man and two kings outweigh three men, but two "
            "men outweigh a king), and at equal value capture with a king rather than a man. Men "
            "capture forwards and backwards."
        )
    if v.capture_precedence == tuple(Precedence):
        return _(
            "Capturing is compulsory; you must take the most pieces, then (if equal) capture with "
            "a king rather than a man, take the most kings, and take the kings as early as "
            "possible. Men capture forwards only and cannot take kings."
        )
    if v.capture_precedence == (Precedence.WITH_KING,):
        return _(
            "Capturing is compulsory; when a king can capture, a king must. Otherwise you may "
            "choose any capture sequence. Men capture forwards only."
        )
    most = Precedence.MOST_PIECES in v.capture_precedence
    if v.capture_precedence == (Precedence.MOST_PIECES, Precedence.MOST_KINGS):
        return _(
            "Capturing is compulsory; you must take the most pieces and, among sequences that take "
            "as many, the most kings. Men capture forwards only."
        )
    if most and v.men_capture_backward:
        return _(
            "Capturing is compulsory; you must take the sequence that captures the most pieces. "
            "Men capture forwards and backwards."
        )
    if most:
        return _(
            "Capturing is compulsory; you must take the sequence that captures the most pieces. "
            "Men capture forwards only."
        )
    if v.men_capture_backward:
        return _(
            "Capturing is compulsory; you may choose any capture sequence. "
            "Men capture forwards and backwards."
        )
    return _(
        "Capturing is compulsory; you may choose any capture sequence. Men capture forwards only."
    )


def _king_sentence(v: Variant) -> Text:
    if v.flying_kings and v.king_stops_behind:
        return _(
            "Kings fly, but a capturing king lands on the square just beyond the piece it takes."
        )
    if v.flying_kings and v.orthogonal:
        return _("Kings fly like rooks: they move and capture along whole rows and columns.")
    if v.flying_kings:
        return _("Kings fly: they move and capture along whole diagonals.")
    return _("Kings step one square in any diagonal direction.")


def _eight_way_sentence(v: Variant) -> Text | None:
    if not v.captures_in_eight_directions:
        return None
    return _(
        "Men and kings also capture along rows and columns: a man jumps the next playing square "
        "of its row or column (two squares away) to the one just beyond it, and a king flies "
        "along them as along diagonals."
    )


def _king_limit_sentence(v: Variant) -> Text | None:
    if not v.king_move_limit:
        return None
    return _n(
        "While a side has men, one king may make at most {count} move in a row without "
        "capturing; then that king may only capture until another of its side's pieces has moved.",
        "While a side has men, one king may make at most {count} moves in a row without "
        "capturing; then that king may only capture until another of its side's pieces has moved.",
        v.king_move_limit,
    )


def _removal_sentence(v: Variant) -> Text | None:
    if v.captures_removed_at_once and not v.king_turns_back:
        return _(
            "Each captured piece leaves the board at once, so the capturing piece may cross its "
            "square again, but a capture may never turn straight back the way it came."
        )
    if v.captures_removed_at_once:
        return _(
            "Each captured piece leaves the board at once, so the capturing piece may cross its "
            "square again."
        )
    return None


def _crowning_sentence(v: Variant) -> Text:
    if v.crowning is Crowning.ENDS_MOVE:
        return _("A man reaching the far row is crowned and the move ends there.")
    if v.crowning is Crowning.AT_END:
        return _("A man is crowned only if its move ends on the far row.")
    return _("A man reaching the far row mid-capture is crowned and captures on as a king.")


def _goal_sentence(v: Variant) -> Text:
    if v.goal is Goal.GIVE_AWAY:
        return _(
            "The goal is reversed: you win when you cannot move (no pieces left or all blocked)."
        )
    if v.goal is Goal.FIRST_KING:
        return _(
            "The first player to crown a man wins at once. You also lose when you cannot move."
        )
    return _("You lose when you cannot move (no pieces or all blocked).")


def _without_man_move(moves: int) -> Text:
    return _n(
        "after {count} move each without a man move or capture",
        "after {count} moves each without a man move or capture",
        moves,
    )


def _without_capture_or_crowning(moves: int) -> Text:
    return _n(
        "after {count} move each without capture or crowning",
        "after {count} moves each without capture or crowning",
        moves,
    )


def _only_king_moves(moves: int) -> Text:
    return _n(
        "after {count} move each with only king moves",
        "after {count} moves each with only king moves",
        moves,
    )


def _three_kings(moves: int) -> Text:
    return _n(
        "after three kings against one king not won in {count} move",
        "after three kings against one king not won in {count} moves",
        moves,
    )


def _fmjd_three_pieces(moves: int) -> Text:
    # Translators: the name of the rule, then what it says.
    return _n(
        "the {count}-move endgame rule: when one side has three kings, two kings and a man, or a "
        "king and two men against a lone king, the game is drawn unless it is won within {count} "
        "move each",
        "the {count}-move endgame rule: when one side has three kings, two kings and a man, or a "
        "king and two men against a lone king, the game is drawn unless it is won within {count} "
        "moves each",
        moves,
    )


def _fmjd_two_pieces(moves: int) -> Text:
    # Translators: the name of the rule, then what it says.
    return _n(
        "the {count}-move endgame rule: with two kings, a king and a man, or one king against a "
        "lone king, the game is drawn after {count} move each",
        "the {count}-move endgame rule: with two kings, a king and a man, or one king against a "
        "lone king, the game is drawn after {count} moves each",
        moves,
    )


def _small_endgame(low: int, high: int) -> Callable[[int], Text]:
    def clause(moves: int) -> Text:
        return _n(
            "after {low}-{high} piece endgame with kings: {count} move without capture or crowning",
            "after {low}-{high} piece endgame with kings: {count} moves without capture or "
            "crowning",
            moves,
            low=low,
            high=high,
        )

    return clause


def _one_piece_each(_moves: int) -> Text:
    return _("as soon as each player has only one piece left")


def _two_kings_against_one(moves: int) -> Text:
    return _n(
        "with two kings against one king, after {count} move each",
        "with two kings against one king, after {count} moves each",
        moves,
    )


def _one_king_each(moves: int) -> Text:
    return _n(
        "with one king each, after {count} move each",
        "with one king each, after {count} moves each",
        moves,
    )


_ENGLISH, _DAME, _POOL = VARIANTS["english"], VARIANTS["dame"], VARIANTS["pool"]
_FMJD, _RUSSIAN, _SPANISH = VARIANTS["international"], VARIANTS["russian"], VARIANTS["spanish"]


def _counted(variant: Variant) -> NoProgressRule:
    """The no-progress rule of a variant that has one."""
    if variant.no_progress is None:
        raise ValueError(f"{variant.key} has no no-progress rule")
    return variant.no_progress


DRAW_CLAUSES: dict[DrawRule, Callable[[int], Text]] = {
    _counted(_ENGLISH): _without_man_move,
    _counted(_POOL): _without_man_move,
    _counted(_DAME): _without_capture_or_crowning,
    _counted(_FMJD): _only_king_moves,
    _counted(_RUSSIAN): _only_king_moves,
    _counted(_SPANISH): _only_king_moves,
    _POOL.endgames[0]: _three_kings,
    _RUSSIAN.endgames[0]: _three_kings,
    _FMJD.endgames[0]: _fmjd_three_pieces,
    _FMJD.endgames[1]: _fmjd_two_pieces,
    _RUSSIAN.endgames[1]: _small_endgame(2, 3),
    _RUSSIAN.endgames[2]: _small_endgame(4, 5),
    _RUSSIAN.endgames[3]: _small_endgame(6, 7),
    VARIANTS["turkish"].endgames[0]: _one_piece_each,
    VARIANTS["frisian"].endgames[0]: _two_kings_against_one,
    VARIANTS["frisian"].endgames[1]: _one_king_each,
}
"""How ``/rules`` says each draw rule of :mod:`rules.variants` (the rule's number of moves fills
``{count}``; the English reads ``after`` and the rule's description, except that endgame rules
known by a name that does not say what they are, ``16-move endgame rule``, are explained)."""


def draw_clause(rule: DrawRule) -> Text:
    """``after 40 moves each without a man move or capture``: one of the ways a game is drawn."""
    clause = DRAW_CLAUSES.get(rule)
    if clause is None:  # a rule added to rules.variants and not (yet) worded here
        return _("after {rule}", rule=verbatim(rule.description))
    return clause(rule.moves)


def _repetition(n: int) -> Text:
    if n == 2:
        return _("twofold repetition")
    if n == 3:
        return _("threefold repetition")
    if n == 4:
        return _("fourfold repetition")
    return _("{times}-fold repetition", times=n)


def _draw_sentence(v: Variant) -> Text:
    rules = [draw_clause(rule) for rule in (v.no_progress, *v.endgames) if rule is not None]
    if not v.repetitions:
        # Translators: {rules} are the variant's draw rules, separated by semicolons.
        drawn = _(
            "Drawn by agreement, {rules}. There is no draw by repetition.",
            rules=clauses(rules),
        )
    elif rules:
        # Translators: {repetition} is e.g. "threefold repetition"; {rules} the variant's other
        # draw rules, separated by semicolons.
        drawn = _(
            "Drawn by agreement, by {repetition} (the same position with the same player to "
            "move), {rules}.",
            repetition=_repetition(v.repetitions),
            rules=clauses(rules),
        )
    else:
        # Translators: {repetition} is e.g. "threefold repetition".
        drawn = _(
            "Drawn by agreement or by {repetition} (the same position with the same player to "
            "move); there is no move-count draw.",
            repetition=_repetition(v.repetitions),
        )
    offer = None
    if v.draw_offer_count is not None:
        offer = _n(
            "A player who declines a draw offer has {count} move to show a decisive advantage, "
            "or the game is drawn.",
            "A player who declines a draw offer has {count} moves to show a decisive advantage, "
            "or the game is drawn.",
            v.draw_offer_count,
        )
    return join([drawn, offer])


def rules_summary(variant: str) -> tuple[Text, list[Text]]:
    """``(title, sentences)`` summarising a variant for ``/rules`` (built from the same data the
    move generator reads, so it cannot disagree with the game)."""
    v = find_variant(variant)
    lines = [
        _board_sentence(v),
        _men_sentence(v),
        _capture_sentence(v),
        _king_sentence(v),
        _eight_way_sentence(v),
        _king_limit_sentence(v),
        _removal_sentence(v),
        _crowning_sentence(v),
        _goal_sentence(v),
        _draw_sentence(v),
    ]
    return variant_title(v), [line for line in lines if line is not None]


def notation_note(variant: str) -> Text:
    """How moves are written in ``variant`` (the footer of ``/rules``)."""
    v = find_variant(variant)
    if v.orthogonal:
        return _(
            "Notation: squares are named by file and rank (a1 bottom left, as on the board "
            "image); d3-d4 is a step, d4xd6 a capture. Numbers (PDN, 1 to 64 from a8) work too."
        )
    if v.notation == "algebraic":
        return _(
            "Notation: squares are named by file and rank (a1 bottom left, as on the board "
            "image); c3-d4 is a step, c3:e5 a capture. Numbers (PDN) work too."
        )
    if v.numbering is Numbering.BOTTOM_RIGHT:
        g = v.geometry
        return _(
            "Notation: squares are numbered on the board image from White's side, 1 in White's "
            "near right corner ({square}); 9-13 is a step, 13x22 a capture.",
            square=verbatim(g.names[g.square_by_number[1]]),
        )
    return _("Notation: squares are numbered on the board image; 11-15 is a step, 22x15 a capture.")
