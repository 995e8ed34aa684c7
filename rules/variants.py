"""Variants as data.

A :class:`Variant` is a frozen value that answers every question the one move generator
(:mod:`rules.movegen`) and the game record (:mod:`rules.game`) ask: board size, who starts, how men
and kings move and capture, which captures may be chosen, when a man is crowned, and the draw
rules. No code anywhere tests a variant's *name*; adding a variant means adding a definition here
and its tests.

The rules each definition encodes are those of ``shared/RULES.md``; ``docs/rules/<key>.md`` states
them as implemented.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from enum import Enum, IntEnum, StrEnum
from functools import cached_property
from typing import NamedTuple

from .geometry import Geometry, Numbering, geometry


class Color(IntEnum):
    """The two sides.  White starts at the bottom (high square numbers) and moves up."""

    WHITE = 0
    BLACK = 1

    @property
    def other(self) -> Color:
        return Color.BLACK if self is Color.WHITE else Color.WHITE

    @property
    def label(self) -> str:
        """Lower-case English name, as used in status lines."""
        return "white" if self is Color.WHITE else "black"

    @property
    def letter(self) -> str:
        """``W`` or ``B``, as in FEN."""
        return "W" if self is Color.WHITE else "B"


class Notation(StrEnum):
    """How moves are written for players: PDN square numbers (``11-15``, ``27x18x11``) or the
    board's coordinates (``c3-d4``, ``c3xe5xg7``; ``a1`` is White's near-left corner).  Input
    accepts both whatever the convention (:func:`rules.notation.parse_move`); this only chooses
    what is shown."""

    NUMERIC = "numeric"
    ALGEBRAIC = "algebraic"


class Precedence(Enum):
    """One criterion by which a capture must be chosen among the available ones.  A variant
    lists its criteria in order (:attr:`Variant.capture_precedence`): the sequences kept are the
    best by the first, among those the best by the second, and so on; sequences equal on every
    criterion may all be chosen.  No criterion at all is a free choice (english, russian)."""

    MOST_PIECES = "most pieces"
    """Take the most pieces, kings and men counting the same (international, italian)."""
    WITH_KING = "with a king"
    """Capture with a king rather than a man when both can (italian, czech)."""
    MOST_KINGS = "most kings"
    """Take the most kings (italian; spanish and portuguese "quality")."""
    KINGS_FIRST = "kings first"
    """Take the kings as early in the sequence as possible: of two sequences, the one whose
    first king comes sooner, and so on (italian)."""


class Goal(Enum):
    """What wins the game."""

    STANDARD = "standard"
    """The side to move with no piece or no legal move has lost."""
    GIVE_AWAY = "give away"
    """The reverse: the side to move with no piece or no legal move has won (antidraughts)."""
    FIRST_KING = "first king"
    """The first side to crown a man wins at once; otherwise as :attr:`STANDARD`
    (breakthrough)."""


class Crowning(Enum):
    """When a man that reaches the far row becomes a king."""

    ENDS_MOVE = "ends move"
    """Crowned on arrival; the move ends there even if a king could jump on (english, dame)."""
    AT_END = "at end"
    """Crowned only if the move ends on the far row; passing through it mid-capture is not enough.
    """
    CONTINUES_AS_KING = "continues as king"
    """Crowned on arrival, even mid-capture, and the capture goes on with king moves (russian)."""


class Progress(NamedTuple):
    """What resets the quiet-ply count and where it draws, as the game and the searches read
    it: every variant's, with or without a no-progress rule (:attr:`Variant.progress`)."""

    plies: int
    """The draw after this many quiet plies; 0 where the variant has no such rule."""
    man_moves: bool
    """Whether a man's move is progress (always without a rule: positions before an
    irreversible move cannot repeat, and the engines' repetition window starts there)."""
    crownings: bool


Material = tuple[int, int, int, int]
"""``(own kings, own men, opponent kings, opponent men)`` as seen by one side."""


@dataclass(frozen=True)
class NoProgressRule:
    """Draw after ``moves`` moves by each player without progress.

    Captures always count as progress; ``man_moves`` says whether any move of an uncrowned man does
    too, ``crownings`` whether (only) a man reaching the far row does.
    """

    moves: int
    man_moves: bool
    crownings: bool
    description: str
    """Words for the termination, e.g. ``"40 moves each without a man move or capture"``."""
    label: str = "no-progress count"
    """Name of the running count in status lines (``no-progress count: 12 left``)."""

    @property
    def plies(self) -> int:
        """The limit in plies (both players' moves), as the engines count it."""
        return 2 * self.moves


@dataclass(frozen=True)
class EndgameRule:
    """Draw when a given endgame is not won within a number of moves.

    The count starts at the first position in which ``strong`` holds for one side's material (the
    "stronger" side) and runs while it keeps holding; a capture restarts it, and so does a crowning
    when ``crowning_restarts``.  ``counted`` chooses whose moves are counted: ``"each"`` (the game
    is drawn once both players have made ``moves`` moves) or ``"strong"`` (once the stronger side
    has).
    """

    description: str
    label: str
    """Name of the running count in status lines."""
    moves: int
    counted: str
    strong: Callable[[Material], bool] = field(compare=False)
    crowning_restarts: bool = False


@dataclass(frozen=True, eq=False)
class Variant:
    """One game's rules.  Identity is by object: there is one instance per variant."""

    key: str
    title: str
    aliases: tuple[str, ...]
    size: int
    men_rows: int
    first: Color
    men_capture_backward: bool
    flying_kings: bool
    capture_precedence: tuple[Precedence, ...]
    """How a capture must be chosen among the available ones, criteria in order (empty: any)."""
    crowning: Crowning
    game_type: int
    """PDN GameType number (the FMJD list; lidraughts's own 96 and 98 for its variants that list has
    none for)."""
    pdn_variant: str | None
    """Value of an extra ``[Variant]`` PDN tag where ``game_type`` alone is not enough to tell."""
    results: tuple[str, str, str]
    """PDN result strings for a White win, a draw and a Black win."""
    no_progress: NoProgressRule | None
    """The draw after a number of moves without progress; None where the variant has none
    (antidraughts and breakthrough on lidraughts, czech by its federation's rules)."""
    endgames: tuple[EndgameRule, ...] = ()
    draw_offer_count: int | None = None
    """Moves the decliner of a draw offer has to show a decisive advantage (english), or None."""
    repetitions: int = 3
    men_capture_kings: bool = True
    """Whether a man may capture a king (not in italian: only a king takes a king)."""
    king_stops_behind: bool = False
    """Whether a flying king's capture lands on the square just beyond the piece it takes (thai),
    rather than on any empty square beyond it."""
    captures_removed_at_once: bool = False
    """Whether each captured piece leaves the board as it is jumped (thai), so that the capturing
    piece may cross or land on its square later in the move; otherwise the captured pieces stay
    until the move ends, as a barrier."""
    goal: Goal = Goal.STANDARD
    mirrored: bool = False
    """Whether White's near-left corner (a1) is not a playing square (italian, spanish and
    portuguese: the board is placed with a playing square on each player's right)."""
    numbering: Numbering = Numbering.TOP_LEFT
    """Which square is number 1 in the variant's PDN (spanish and portuguese count from White's
    near-right corner); moves, FEN and the board's plates are written in it."""
    notation: Notation = Notation.NUMERIC
    """How the variant's players write moves: coordinates for Russian and Brazilian draughts (as
    their books and federations do), PDN numbers elsewhere."""

    @cached_property
    def geometry(self) -> Geometry:
        return geometry(self.size, self.mirrored, self.numbering)

    @cached_property
    def progress(self) -> Progress:
        """The no-progress rule as counts (see :class:`Progress`)."""
        rule = self.no_progress
        if rule is None:
            return Progress(0, man_moves=True, crownings=True)
        return Progress(rule.plies, rule.man_moves, rule.crownings)

    @cached_property
    def start_fen(self) -> str:
        g = self.geometry
        per_side = self.men_rows * g.half

        def numbers(squares: range) -> str:
            return ",".join(str(n) for n in sorted(g.numbers[s] for s in squares))

        black = numbers(range(1, per_side + 1))
        white = numbers(range(g.squares - per_side + 1, g.squares + 1))
        return f"{self.first.letter}:W{white}:B{black}"

    def result(self, winner: Color | None) -> str:
        """The PDN result string for ``winner`` (None: a draw)."""
        if winner is None:
            return self.results[1]
        return self.results[0] if winner is Color.WHITE else self.results[2]

    def __repr__(self) -> str:
        return f"<Variant {self.key}>"


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
        BRAZILIAN,
        RUSSIAN,
        ITALIAN,
        SPANISH,
        PORTUGUESE,
        CZECH,
        THAI,
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
