"""What a tournament is made of, as the pairing, the standings and their pictures see it.

Plain values only: who entered (:class:`Entrant`), who plays whom in a round (:class:`Pairing`),
how each pairing ended (:class:`Result`), and the table they add up to (:class:`Table`).  The
service reads them from the store and hands them in; the pairing (:mod:`.swiss`, :mod:`.berger`,
:mod:`.arena`) and the standings (:mod:`.standings`) answer with more of them.  Nothing here knows
Discord, a database or a clock: the same values in give the same values out, which is what lets
a crash between rounds be mended by simply asking again.

Players are named by their Discord user id everywhere (``int``); colours are ``"white"`` and
``"black"`` as in :class:`bot.enums.Side`'s values, kept as strings here so this package builds on
nothing of the project.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum


class Format(Enum):
    """How a tournament pairs its players."""

    SWISS = "swiss"
    """A set number of rounds, each player meeting others on the same score (FIDE Dutch)."""
    ROUND_ROBIN = "round_robin"
    """Everyone meets everyone (Berger tables), once or twice with the colours swapped."""
    ARENA = "arena"
    """A fixed time; whoever finishes a game is paired again at once (lidraughts' arenas)."""


class Tiebreak(Enum):
    """What separates players on the same points, in the order a format applies them."""

    BUCHHOLZ = "buchholz"
    """The sum of the opponents' points."""
    MEDIAN_BUCHHOLZ = "median_buchholz"
    """Buchholz without the opponents' highest and lowest (FIDE's "median Buchholz")."""
    SONNEBORN_BERGER = "sonneborn_berger"
    """The points of the opponents one beat, plus half of those one drew."""
    HEAD_TO_HEAD = "head_to_head"
    """The points the tied players scored against each other (when all of them met)."""
    WINS = "wins"
    """The number of games won (over the board, forfeits not counted)."""
    PERFORMANCE = "performance"
    """The arena's tiebreak: the performance rating over its games."""


class CellKind(Enum):
    """What one round was for one player, as a crosstable shows it."""

    GAME = "game"
    """A game played (or being played: then ``score`` is None)."""
    BYE = "bye"
    """No opponent this round: the bye's points."""
    FORFEIT_WIN = "forfeit_win"
    """The opponent did not show up."""
    FORFEIT_LOSS = "forfeit_loss"
    """Did not show up."""
    ABSENT = "absent"
    """Not paired: joined later, withdrew, or dropped."""


@dataclass(frozen=True)
class Entrant:
    """One player of a tournament."""

    id: int
    """The Discord user id."""
    name: str
    """The display name when they joined (user text: shown escaped, never as Markdown)."""
    rating: float
    """Their rating in the tournament's variant and pool when they joined: the seeding."""
    number: int
    """The pairing number, 1 for the top seed (rating, then who joined first); fixed at the
    start, late entries numbered after everyone else."""
    withdrawn: bool = False
    """Left or dropped: no longer paired, their played games still count."""
    joined_round: int = 1
    """The first round they can be paired in (a late entry's)."""


@dataclass(frozen=True)
class Pairing:
    """Who plays whom on one board of a round; ``black`` None is a bye for ``white``."""

    round: int
    board: int
    """1 for the top board (the highest scores)."""
    white: int
    black: int | None


@dataclass(frozen=True)
class Result:
    """How one pairing ended, as the standings count it.  A round's pairings without a result
    yet are simply not among the results."""

    round: int
    """The round (Swiss, round robin) or, in an arena, the pairing's sequence number."""
    white: int
    black: int | None
    """None: a bye (``white_points`` is the bye's value)."""
    white_points: float
    """1, 0.5 or 0 (a bye: the format's bye value)."""
    black_points: float
    forfeit: bool = False
    """Decided without a game (a no-show): counts for the points, but as no game played, so
    it spends no colour and the two may still meet later (FIDE C.04.1 counts games played)."""
    white_berserk: bool = False
    """An arena player who gave up half their clock for an extra point on a win."""
    black_berserk: bool = False
    moves: int = 0
    """Plies played (an arena's berserk bonus needs at least 7 of one's own moves)."""


@dataclass(frozen=True)
class Cell:
    """One round of one player's line in the crosstable."""

    round: int
    kind: CellKind
    opponent: int | None = None
    """The opponent's user id (None for a bye or an absence)."""
    colour: str | None = None
    """``"white"`` or ``"black"`` in a game or forfeit, None otherwise."""
    score: float | None = None
    """Points from this round; None while the game runs (or for an absence)."""
    arena_points: int | None = None
    """Arena: the arena points this game earned, streak and berserk included (what the arena's
    standings picture shows per game); None outside arenas."""
    doubled: bool = False
    """Arena: the game was played on fire, so its points counted double."""
    berserk: bool = False
    """Arena: this player berserked in this game."""


@dataclass(frozen=True)
class Standing:
    """One line of the table."""

    rank: int
    """1 for the leader; equal for players the tiebreaks cannot separate."""
    entrant: Entrant
    points: float
    """Swiss and round robin: game points; arena: arena points (streaks and berserk included)."""
    tiebreaks: tuple[float, ...]
    """The values of :attr:`Table.tiebreaks`, in that order."""
    cells: tuple[Cell, ...]
    """Swiss and round robin: one per round so far; arena: one per game, in order."""
    games: int
    """Games played over the board."""
    performance: int | None = None
    """The performance rating over the games played (None before any)."""
    on_fire: bool = False
    """Arena: two wins in a row, so the next win or draw counts double."""


@dataclass(frozen=True)
class Table:
    """The standings of a tournament after the results so far."""

    format: Format
    tiebreaks: tuple[Tiebreak, ...]
    rows: tuple[Standing, ...] = field(default=())
    rounds_played: int = 0
    """Rounds whose every result is in (an arena: games finished)."""
    rounds: int | None = None
    """Rounds planned (None for an arena)."""
