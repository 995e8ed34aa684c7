"""Variants as data.

A :class:`Variant` is a frozen value that answers every question the one move generator
(:mod:`rules.movegen`) and the game record (:mod:`rules.game`) ask: board size, who starts, how men
and kings move and capture, which captures may be chosen, when a man is crowned, and the draw
rules. No code anywhere tests a variant's *name*; adding a variant means adding a definition here
and its tests.  The kinds of rule it is made of live in :mod:`rules.rule_kinds` and are
re-exported here.

The rules each definition encodes are those of ``shared/RULES.md``; ``docs/rules/<key>.md`` states
them as implemented.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from .geometry import Numbering
from .rule_kinds import (
    Color,
    Crowning,
    EndgameRule,
    Goal,
    Material,
    NoProgressRule,
    Notation,
    Precedence,
    Progress,
    Variant,
    one_piece_each,
)

__all__ = [
    "ANTIDRAUGHTS",
    "BRAZILIAN",
    "BREAKTHROUGH",
    "CANADIAN",
    "CZECH",
    "DAME",
    "ENGLISH",
    "FRISIAN",
    "FRYSK",
    "INTERNATIONAL",
    "ITALIAN",
    "POOL",
    "PORTUGUESE",
    "RUSSIAN",
    "SPANISH",
    "THAI",
    "VARIANTS",
    "Color",
    "Crowning",
    "EndgameRule",
    "Goal",
    "Material",
    "NoProgressRule",
    "Notation",
    "Numbering",
    "Precedence",
    "Progress",
    "Variant",
    "find_variant",
    "variant_for_game_type",
]


def _kings_only(kings: int, men: int) -> Callable[[Material], bool]:
    return lambda m: m[0] == kings and m[1] == men and m[2] == 1 and m[3] == 0


def _any_of(*tests: Callable[[Material], bool]) -> Callable[[Material], bool]:
    return lambda m: any(t(m) for t in tests)


_POINTS = ("1-0", "1/2-1/2", "0-1")
_MAJORITY = (Precedence.MOST_PIECES,)

ENGLISH = Variant(
    key="english",
    title="English draughts / American checkers",
    aliases=("checkers", "american"),
    size=8,
    men_rows=3,
    first=Color.BLACK,
    men_capture_backward=False,
    flying_kings=False,
    capture_precedence=(),
    crowning=Crowning.ENDS_MOVE,
    game_type=21,
    pdn_variant=None,
    results=_POINTS,
    no_progress=NoProgressRule(
        40,
        man_moves=True,
        crownings=True,
        description="40 moves each without a man move or capture",
    ),
    draw_offer_count=40,
)

DAME = Variant(
    key="dame",
    title="German Dame (Brettspielnetz rules)",
    aliases=("german",),
    size=8,
    men_rows=3,
    first=Color.BLACK,
    men_capture_backward=False,
    flying_kings=False,
    capture_precedence=(),
    crowning=Crowning.ENDS_MOVE,
    game_type=21,
    pdn_variant="dame",
    results=_POINTS,
    no_progress=NoProgressRule(
        25, man_moves=False, crownings=True, description="25 moves each without capture or crowning"
    ),
)

POOL = Variant(
    key="pool",
    title="American pool checkers",
    aliases=("pool-checkers",),
    size=8,
    men_rows=3,
    first=Color.BLACK,
    men_capture_backward=True,
    flying_kings=True,
    capture_precedence=(),
    crowning=Crowning.AT_END,
    game_type=23,
    pdn_variant=None,
    results=_POINTS,
    no_progress=NoProgressRule(
        25,
        man_moves=True,
        crownings=True,
        description="25 moves each without a man move or capture",
    ),
    endgames=(
        EndgameRule(
            "three kings against one king not won in 13 moves",
            label="3-kings-v-1 count",
            moves=13,
            counted="strong",
            strong=_kings_only(3, 0),
        ),
    ),
)

_FMJD_ENDGAMES = (
    EndgameRule(
        "16-move endgame rule",
        label="16-move endgame count",
        moves=16,
        counted="each",
        strong=_any_of(_kings_only(3, 0), _kings_only(2, 1), _kings_only(1, 2)),
    ),
    EndgameRule(
        "5-move endgame rule",
        label="5-move endgame count",
        moves=5,
        counted="each",
        strong=_any_of(_kings_only(2, 0), _kings_only(1, 1), _kings_only(1, 0)),
    ),
)
_FMJD_NO_PROGRESS = NoProgressRule(
    25, man_moves=True, crownings=True, description="25 moves each with only king moves"
)

INTERNATIONAL = Variant(
    key="international",
    title="International draughts",
    aliases=("polish", "fmjd", "10x10"),
    size=10,
    men_rows=4,
    first=Color.WHITE,
    men_capture_backward=True,
    flying_kings=True,
    capture_precedence=_MAJORITY,
    crowning=Crowning.AT_END,
    game_type=20,
    pdn_variant=None,
    results=("2-0", "1-1", "0-2"),
    no_progress=_FMJD_NO_PROGRESS,
    endgames=_FMJD_ENDGAMES,
)

BRAZILIAN = Variant(
    key="brazilian",
    title="Brazilian draughts",
    aliases=(),
    size=8,
    men_rows=3,
    first=Color.WHITE,
    men_capture_backward=True,
    flying_kings=True,
    capture_precedence=_MAJORITY,
    crowning=Crowning.AT_END,
    game_type=26,
    pdn_variant=None,
    results=_POINTS,
    no_progress=_FMJD_NO_PROGRESS,
    endgames=_FMJD_ENDGAMES,
    notation=Notation.ALGEBRAIC,
)


CANADIAN = replace(
    INTERNATIONAL,
    key="canadian",
    title="Canadian draughts",
    aliases=("canadian-checkers", "12x12"),
    size=12,
    men_rows=5,
    game_type=27,
)
"""International draughts on a 12x12 board with thirty men each on the first five rows, a
playing square in each player's left-hand corner: men taking backwards too, flying kings, the most
pieces, crowning where the move ends, the FMJD's draws (the rules of "le jeu canadien", which
every source states as International's on the larger board)."""


def _russian_lone_king(m: Material) -> bool:
    return m[0] >= 3 and m[1] == 0 and m[2] == 1 and m[3] == 0


def _russian_small_endgame(low: int, high: int) -> Callable[[Material], bool]:
    """Both sides have kings and the pieces on the board number ``low``..``high``."""
    return lambda m: m[0] > 0 and m[2] > 0 and low <= m[0] + m[1] + m[2] + m[3] <= high


RUSSIAN = Variant(
    key="russian",
    title="Russian draughts",
    aliases=("shashki",),
    size=8,
    men_rows=3,
    first=Color.WHITE,
    men_capture_backward=True,
    flying_kings=True,
    capture_precedence=(),
    crowning=Crowning.CONTINUES_AS_KING,
    game_type=25,
    pdn_variant=None,
    results=_POINTS,
    no_progress=NoProgressRule(
        15, man_moves=True, crownings=True, description="15 moves each with only king moves"
    ),
    endgames=(
        EndgameRule(
            "three kings against one king not won in 15 moves",
            label="3-kings-v-1 count",
            moves=15,
            counted="strong",
            strong=_russian_lone_king,
        ),
        EndgameRule(
            "2-3 piece endgame with kings: 5 moves without capture or crowning",
            label="5-move endgame count",
            moves=5,
            counted="each",
            strong=_russian_small_endgame(2, 3),
            crowning_restarts=True,
        ),
        EndgameRule(
            "4-5 piece endgame with kings: 30 moves without capture or crowning",
            label="30-move endgame count",
            moves=30,
            counted="each",
            strong=_russian_small_endgame(4, 5),
            crowning_restarts=True,
        ),
        EndgameRule(
            "6-7 piece endgame with kings: 60 moves without capture or crowning",
            label="60-move endgame count",
            moves=60,
            counted="each",
            strong=_russian_small_endgame(6, 7),
            crowning_restarts=True,
        ),
    ),
    notation=Notation.ALGEBRAIC,
)

ITALIAN = Variant(
    key="italian",
    title="Italian draughts",
    aliases=("dama-italiana",),
    size=8,
    men_rows=3,
    first=Color.WHITE,
    men_capture_backward=False,
    flying_kings=False,
    capture_precedence=(
        Precedence.MOST_PIECES,
        Precedence.WITH_KING,
        Precedence.MOST_KINGS,
        Precedence.KINGS_FIRST,
    ),
    crowning=Crowning.ENDS_MOVE,
    game_type=22,
    pdn_variant=None,
    results=_POINTS,
    no_progress=NoProgressRule(
        40,
        man_moves=True,
        crownings=True,
        description="40 moves each without a man move or capture",
    ),
    men_capture_kings=False,
    mirrored=True,
)

CZECH = Variant(
    key="czech",
    title="Czech draughts",
    aliases=("ceska-dama",),
    size=8,
    men_rows=3,
    first=Color.WHITE,
    men_capture_backward=False,
    flying_kings=True,
    capture_precedence=(Precedence.WITH_KING,),
    crowning=Crowning.AT_END,
    game_type=29,
    pdn_variant=None,
    results=_POINTS,
    no_progress=None,
    notation=Notation.ALGEBRAIC,
)

_IBERIAN_NO_PROGRESS = NoProgressRule(
    20, man_moves=True, crownings=True, description="20 moves each with only king moves"
)

SPANISH = Variant(
    key="spanish",
    title="Spanish draughts",
    aliases=("damas",),
    size=8,
    men_rows=3,
    first=Color.WHITE,
    men_capture_backward=False,
    flying_kings=True,
    capture_precedence=(Precedence.MOST_PIECES, Precedence.MOST_KINGS),
    crowning=Crowning.ENDS_MOVE,
    game_type=24,
    pdn_variant=None,
    results=_POINTS,
    no_progress=_IBERIAN_NO_PROGRESS,
    mirrored=True,
    numbering=Numbering.BOTTOM_RIGHT,
)
"""Flying kings, men that move and take forwards only, the most pieces then the most kings, on
the board placed with a playing square at each player's right and counted from White's."""

PORTUGUESE = replace(
    SPANISH,
    key="portuguese",
    title="Portuguese draughts",
    aliases=("damas-classicas",),
    game_type=28,
)
"""The Portuguese federation's classic draughts: Spanish rules, its own GameType."""

THAI = Variant(
    key="thai",
    title="Thai draughts (Makhos)",
    aliases=("makhos", "mak-hot"),
    size=8,
    men_rows=2,
    first=Color.BLACK,
    men_capture_backward=False,
    flying_kings=True,
    capture_precedence=(),
    crowning=Crowning.ENDS_MOVE,
    game_type=31,
    pdn_variant=None,
    results=_POINTS,
    no_progress=None,
    king_stops_behind=True,
    captures_removed_at_once=True,
    numbering=Numbering.BOTTOM_RIGHT,
)
"""Eight men each on the two nearest rows, men that move and take forwards only, flying kings
that land just beyond the piece they take, captured pieces removed at once, any capture; Black
first and the squares numbered from Black's side, as PDN's GameType 31 has it."""


TURKISH = Variant(
    key="turkish",
    title="Turkish draughts (Dama)",
    aliases=("dama", "turkish-dama"),
    size=8,
    men_rows=2,
    first=Color.WHITE,
    men_capture_backward=False,
    flying_kings=True,
    capture_precedence=_MAJORITY,
    crowning=Crowning.AT_END,
    game_type=30,
    pdn_variant=None,
    results=_POINTS,
    no_progress=None,
    endgames=(
        EndgameRule(
            "one piece each",
            label="one-piece-each count",
            moves=0,
            counted="each",
            strong=one_piece_each,
        ),
    ),
    captures_removed_at_once=True,
    king_turns_back=False,
    orthogonal=True,
    empty_rows=1,
    notation=Notation.ALGEBRAIC,
)
"""Every square played, along rows and columns: sixteen men each on the second and third rows,
men that step and take forwards and sideways, kings that fly like rooks, captured pieces removed
at once, no turning back within a capture, the most pieces; a man crowns where its move ends."""

FRISIAN = Variant(
    key="frisian",
    title="Frisian draughts",
    aliases=("frysk-spul", "fries"),
    size=10,
    men_rows=4,
    first=Color.WHITE,
    men_capture_backward=True,
    flying_kings=True,
    capture_precedence=(Precedence.MOST_VALUE, Precedence.WITH_KING),
    crowning=Crowning.AT_END,
    game_type=40,
    pdn_variant=None,
    results=("2-0", "1-1", "0-2"),
    no_progress=None,
    endgames=(
        EndgameRule(
            "two kings against one king not won in 7 moves",
            label="2-kings-v-1 count",
            moves=7,
            counted="each",
            strong=_kings_only(2, 0),
        ),
        EndgameRule(
            "one king each not won in 2 moves",
            label="1-king-each count",
            moves=2,
            counted="each",
            strong=_kings_only(1, 0),
        ),
    ),
    repetitions=0,
    captures_in_eight_directions=True,
    king_move_limit=3,
)
"""International's board and men, whose men and kings also capture along rows and columns; the
most value must be taken, a king worth a little less than two men, and at equal value a king
must take; while a side has men, one king makes at most three moves in a row without capturing.
Two kings against one draw after 7 moves each, one king each after 2; no repetition draw
(lidraughts, which the 2011 rules of the Frisian federation and dctl agree with)."""

FRYSK = replace(
    FRISIAN,
    key="frysk",
    title="Frysk!",
    aliases=("frysk!",),
    men_rows=1,
    game_type=97,
)
"""Frisian rules with five men each on the back row (lidraughts, its own GameType 97)."""

ANTIDRAUGHTS = replace(
    INTERNATIONAL,
    key="antidraughts",
    title="Antidraughts",
    aliases=("anti", "giveaway"),
    game_type=98,
    no_progress=None,
    endgames=(),
    goal=Goal.GIVE_AWAY,
)
"""International's board, men, kings and captures; the one left without pieces or moves wins
(lidraughts), and no move count draws."""

BREAKTHROUGH = replace(
    INTERNATIONAL,
    key="breakthrough",
    title="Breakthrough draughts",
    aliases=(),
    game_type=96,
    no_progress=None,
    endgames=(),
    goal=Goal.FIRST_KING,
)
"""International's board, men, kings and captures; the first king wins (lidraughts)."""

VARIANTS: dict[str, Variant] = {
    v.key: v
    for v in (
        ENGLISH,
        DAME,
        POOL,
        INTERNATIONAL,
        CANADIAN,
        BRAZILIAN,
        RUSSIAN,
        ITALIAN,
        SPANISH,
        PORTUGUESE,
        CZECH,
        THAI,
        TURKISH,
        FRISIAN,
        FRYSK,
        ANTIDRAUGHTS,
        BREAKTHROUGH,
    )
}
"""Every playable variant by key, in the order they are offered to users."""

_BY_NAME: dict[str, Variant] = {}
for _v in VARIANTS.values():
    for _name in (_v.key, *_v.aliases):
        _BY_NAME[_name] = _v


def find_variant(name: str) -> Variant:
    """The variant called ``name`` (key or alias, any case); ``ValueError`` lists the keys."""
    try:
        return _BY_NAME[name.strip().lower()]
    except KeyError:
        raise ValueError(f"unknown variant {name!r}; choose one of {', '.join(VARIANTS)}") from None


def variant_for_game_type(game_type: int, pdn_variant: str | None = None) -> Variant:
    """The variant of a PDN ``GameType`` number, refined by our ``[Variant]`` tag when present."""
    if pdn_variant:
        return find_variant(pdn_variant)
    for v in VARIANTS.values():
        if v.game_type == game_type and v.pdn_variant is None:
            return v
    raise ValueError(f"unsupported PDN GameType {game_type}")
