"""The kinds of rule a variant is made of, and the :class:`Variant` value that holds them.

Each enum or small dataclass here is one dimension along which draughts games differ (who moves
first, how captures are chosen, what wins, when a man is crowned, the draw counts); a
:class:`Variant` picks one value of each.  The variants themselves are defined in
:mod:`rules.variants`, which re-exports everything here: import from there.  A new *kind* of rule
(a new precedence criterion, goal or capture flag) is added here, then read by
:mod:`rules.movegen`, :mod:`rules.game` and the C core (docs/ARCHITECTURE.md, "A variant").
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
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
    MOST_VALUE = "most value"
    """Take the most value, a king worth a little less than two men: ``n`` kings outweigh
    ``2n - 1`` men and ``2n`` men outweigh ``n`` kings (frisian; lidraughts counts a man 100
    and a king 199, as :data:`KING_VALUE` and :data:`MAN_VALUE` do here)."""


MAN_VALUE = 100
KING_VALUE = 199
"""The worth of a man and of a king taken, for :attr:`Precedence.MOST_VALUE` (exact for captures
of fewer than a hundred kings, more than any board holds)."""


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


def one_piece_each(m: Material) -> bool:
    """Whether each side has exactly one piece: the material of turkish's immediate draw, the one
    such draw the engines know (:attr:`Variant.lone_pieces_draw`)."""
    return m[0] + m[1] == 1 and m[2] + m[3] == 1


@dataclass(frozen=True)
class EndgameRule:
    """Draw when a given endgame is not won within a number of moves.

    The count starts at the first position in which ``strong`` holds for one side's material (the
    "stronger" side) and runs while it keeps holding (with ``moves`` 0 the game is drawn as soon
    as it holds: turkish's one piece each); a capture restarts it, and so does a crowning
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
    """How many times the same position ends the game in a draw; 0 where no repetition draws
    (frisian on lidraughts)."""
    men_capture_kings: bool = True
    """Whether a man may capture a king (not in italian: only a king takes a king)."""
    king_stops_behind: bool = False
    """Whether a flying king's capture lands on the square just beyond the piece it takes (thai),
    rather than on any empty square beyond it."""
    captures_removed_at_once: bool = False
    """Whether each captured piece leaves the board as it is jumped (thai), so that the capturing
    piece may cross or land on its square later in the move; otherwise the captured pieces stay
    until the move ends, as a barrier."""
    king_turns_back: bool = True
    """Whether a capturing flying king may turn 180 degrees between two jumps (not in turkish,
    where captured pieces leave the board at once and the way back would be open)."""
    orthogonal: bool = False
    """Whether the game is played on every square, along rows and columns, men stepping forwards
    and sideways (turkish) rather than diagonally on the dark squares."""
    captures_in_eight_directions: bool = False
    """Whether men and kings also capture along the board's other lines (frisian: along rows and
    columns, over the next playing square, :data:`rules.geometry.CROSS_DIRECTIONS`); they still
    move only along their own."""
    king_move_limit: int = 0
    """While a side has men, the most non-capturing moves in a row one king may make (frisian:
    3; then that king may only capture until another piece has moved); 0: no limit.  The run is
    part of the position (:attr:`rules.position.Position.king_runs`)."""
    empty_rows: int = 0
    """Rows left empty behind each side's men at the start (turkish leaves its back rows free)."""
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
        return geometry(self.size, self.mirrored, self.numbering, self.orthogonal)

    @cached_property
    def progress(self) -> Progress:
        """The no-progress rule as counts (see :class:`Progress`)."""
        rule = self.no_progress
        if rule is None:
            return Progress(0, man_moves=True, crownings=True)
        return Progress(rule.plies, rule.man_moves, rule.crownings)

    @cached_property
    def lone_pieces_draw(self) -> bool:
        """Whether one piece against one is drawn at once (turkish): an endgame count of no
        moves that holds for every one-against-one material.  The engines read this (their
        searches and endgame tables know that one immediate draw; ``engine/native.py`` refuses
        any other)."""
        ones: tuple[Material, ...] = ((1, 0, 1, 0), (1, 0, 0, 1), (0, 1, 1, 0), (0, 1, 0, 1))
        return any(rule.moves == 0 and all(map(rule.strong, ones)) for rule in self.endgames)

    @cached_property
    def family(self) -> str:
        """The variants that share their tactics, by name: the engine keeps a set of learned
        weights and the bot a puzzle rating per family.  ``short-8``, ``flying-8``,
        ``flying-10`` (``stopping`` for flying kings that land just beyond what they take), with
        ``-mirrored`` after it on a board whose a1 is not playable and the goal in front where
        it is not the standard one (``give-away-flying-10``: the standard goal's weights and
        puzzles would play such a game backwards), and ``eight-way-`` where pieces also capture
        along the board's other lines (frisian's tactics are not international's)."""
        kings = "short"
        if self.flying_kings:
            kings = "stopping" if self.king_stops_behind else "flying"
        name = f"{kings}-{self.size}"
        if self.orthogonal:
            name = f"orthogonal-{name}"
        if self.captures_in_eight_directions:
            name = f"eight-way-{name}"
        if self.mirrored:
            name = f"{name}-mirrored"
        if self.goal is not Goal.STANDARD:
            name = f"{self.goal.value.replace(' ', '-')}-{name}"
        return name

    @cached_property
    def start_squares(self) -> tuple[range, range]:
        """The squares of White's and Black's men at the start: ``men_rows`` rows each, after
        ``empty_rows`` free rows at the player's own edge."""
        g = self.geometry
        gap = self.empty_rows * g.half
        per_side = self.men_rows * g.half
        black = range(gap + 1, gap + per_side + 1)
        white = range(g.squares - gap - per_side + 1, g.squares - gap + 1)
        return white, black

    @cached_property
    def start_fen(self) -> str:
        g = self.geometry

        def numbers(squares: range) -> str:
            return ",".join(str(n) for n in sorted(g.numbers[s] for s in squares))

        white, black = self.start_squares
        return f"{self.first.letter}:W{numbers(white)}:B{numbers(black)}"

    def result(self, winner: Color | None) -> str:
        """The PDN result string for ``winner`` (None: a draw)."""
        if winner is None:
            return self.results[1]
        return self.results[0] if winner is Color.WHITE else self.results[2]

    def __repr__(self) -> str:
        return f"<Variant {self.key}>"
