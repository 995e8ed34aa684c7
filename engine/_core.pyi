"""Types of the native core, the C extension built from ``engine/core/`` (see engine/native.py;
``engine._core_wide``, its 128-bit build for 12x12, has the same names: engine/_core_wide.pyi).

Positions are four bitboards seen from the side to move (own men, own kings, their men, their
kings, in the layout of :mod:`rules.geometry`), the side (0 White, 1 Black) and, where the rules
limit a king's moves in a row, the kings' runs (:func:`engine.native.runs_code`; 0, the default,
elsewhere); moves are ``rules``' raw moves ``(from_bit, to_bit, captured, crowns)``.
"""

from collections.abc import Sequence
from typing import Final

ENDS_MOVE: Final[int]
AT_END: Final[int]
CONTINUES_AS_KING: Final[int]
MAX_SIZE: Final[int]
MAX_BITS: Final[int]
PREFER_MOST_PIECES: Final[int]
PREFER_WITH_KING: Final[int]
PREFER_MOST_KINGS: Final[int]
PREFER_KINGS_FIRST: Final[int]
PREFER_MOST_VALUE: Final[int]
MAN_VALUE: Final[int]
KING_VALUE: Final[int]
MAX_KING_RUN: Final[int]
GOAL_STANDARD: Final[int]
GOAL_GIVE_AWAY: Final[int]
GOAL_FIRST_KING: Final[int]
EGDB_WIN_SCORE: Final[int]
EGDB_MAX_PIECES: Final[int]
EGDB_DISTANCE_LIMIT: Final[int]

class Rules:
    """The rules of one variant as the core reads them (build it with
    :func:`engine.native.core_rules`)."""

    def __new__(
        cls,
        size: int,
        men_capture_backward: bool,
        flying_kings: bool,
        precedence: Sequence[int],
        crowning: int,
        *,
        men_capture_kings: bool = True,
        goal: int = ...,
        mirrored: bool = False,
        king_stops_behind: bool = False,
        captures_removed_at_once: bool = False,
        orthogonal: bool = False,
        king_turns_back: bool = True,
        lone_pieces_draw: bool = False,
        captures_in_eight_directions: bool = False,
        king_move_limit: int = 0,
    ) -> Rules: ...
    @property
    def size(self) -> int: ...
    @property
    def squares(self) -> int: ...
    @property
    def valid(self) -> int: ...
    @property
    def top_row(self) -> int: ...
    @property
    def bottom_row(self) -> int: ...
    @property
    def men_capture_backward(self) -> bool: ...
    @property
    def flying_kings(self) -> bool: ...
    @property
    def men_capture_kings(self) -> bool: ...
    @property
    def precedence(self) -> tuple[int, ...]: ...
    @property
    def goal(self) -> int: ...
    @property
    def mirrored(self) -> bool: ...
    @property
    def majority_only(self) -> bool: ...
    @property
    def king_stops_behind(self) -> bool: ...
    @property
    def captures_removed_at_once(self) -> bool: ...
    @property
    def orthogonal(self) -> bool: ...
    @property
    def king_turns_back(self) -> bool: ...
    @property
    def lone_pieces_draw(self) -> bool: ...
    @property
    def captures_in_eight_directions(self) -> bool: ...
    @property
    def king_move_limit(self) -> int: ...
    @property
    def crowning(self) -> int: ...
    def legal_moves(
        self,
        own_men: int,
        own_kings: int,
        opp_men: int,
        opp_kings: int,
        side: int,
        runs: int = 0,
        /,
    ) -> list[tuple[int, int, int, bool]]: ...
    def count(
        self,
        own_men: int,
        own_kings: int,
        opp_men: int,
        opp_kings: int,
        side: int,
        runs: int = 0,
        /,
    ) -> int: ...
    def make(self, *state_and_move: int | tuple[int, int, int, bool]) -> tuple[int, ...]:
        """make(own_men, own_kings, opp_men, opp_kings, side, [runs,] move, /): the position
        after a legal move, seen from the new side to move, with its runs where the rules limit
        a king's moves in a row (six items; five elsewhere)."""
    def perft(self, *state_and_depth: int, distinct: bool = False) -> int:
        """perft(own_men, own_kings, opp_men, opp_kings, side, [runs,] depth, /, *,
        distinct=False): one leaf per landing path, or with ``distinct`` the capture routes of
        the same origin, destination and captured pieces counted once at every ply."""

class Searcher:
    """The search in C on one :class:`Rules` (build it with
    :func:`engine.native_search.native_searcher`); its table lives as long as it does."""

    def __new__(
        cls,
        rules: Rules,
        men_rows: int,
        hash_mb: int,
        quiet_limit: int,
        man_moves_progress: bool,
        crownings_progress: bool,
        zobrist: list[tuple[int, ...]],
        black: int,
        *,
        runs: list[tuple[int, ...]] | None = None,
    ) -> Searcher: ...
    def search(
        self, *state_and_limits: int | float | tuple[int, ...]
    ) -> tuple[
        tuple[int, int, int, bool] | None,
        int,
        int,
        int,
        float,
        list[tuple[int, int, int, bool]],
        list[tuple[int, int, int, float, tuple[int, int, int, bool]]],
    ]:
        """search(own_men, own_kings, opp_men, opp_kings, side, [runs,] quiet, past, max_depth,
        seconds, node_limit, exact, /) -> (move or None, score, depth, nodes, seconds, pv,
        iterations)."""
    def root_scores(
        self, *state_and_depth: int | tuple[int, ...]
    ) -> list[tuple[int, tuple[int, int, int, bool]]]:
        """root_scores(own_men, own_kings, opp_men, opp_kings, side, [runs,] quiet, past, depth,
        /) -> [(score, move), ...]."""
    def evaluate(
        self,
        own_men: int,
        own_kings: int,
        opp_men: int,
        opp_kings: int,
        side: int,
        runs: int = 0,
        /,
    ) -> int: ...
    def key(
        self,
        own_men: int,
        own_kings: int,
        opp_men: int,
        opp_kings: int,
        side: int,
        runs: int = 0,
        /,
    ) -> int: ...
    def clear(self) -> None: ...
    def endgame_wanted(self) -> int: ...
    def endgame(self) -> EndgameTable | None: ...
    def set_distance_limit(self, indices: int, /) -> None: ...
    def set_endgame(self, table: EndgameTable | None, /) -> None:
        """Probe these endgame databases in timed searches from the next search on (None:
        none); ValueError when the table is for other rules or has no values yet."""
    def set_selectivity(self, rules: int, /) -> None:
        """The selectivity rules searches that are not exact use from the next search on (bits:
        engine.native_search's SELECT_* constants; all by default)."""
    def load_weights(self, data: bytes, /) -> None:
        """The learned evaluation's weights (a weight file, see engine/learned.py); ValueError
        when they are not for this searcher's board or the file is corrupt."""
    def use_learned(self, flag: bool, /) -> bool:
        """Evaluate with the learned weights (if loaded) or the classic evaluation; returns
        whether the learned one is now in use."""

# The learned evaluation (engine/core/patterns.c, learned_module.c): its features as the tests
# see them, and the trainer tools/train_eval.py drives.
LEARNED_VERSION: Final[int]
LEARNED_UNIT: Final[int]
LEARNED_SAMPLE_SIZE: Final[int]
"""Bytes of one training sample (engine.training.SAMPLE: boards as 64-bit halves), the same in
both builds."""

def learned_layout(rules: Rules, men_rows: int, /) -> tuple[int, int, int, int, int]: ...
def learned_features(
    rules: Rules,
    men_rows: int,
    own_men: int,
    own_kings: int,
    opp_men: int,
    opp_kings: int,
    side: int,
    runs: int = 0,
    /,
) -> tuple[int, tuple[int, ...], tuple[int, ...], tuple[int, ...]]: ...
def learned_loss(
    rules: Rules, men_rows: int, samples: bytes, weights: bytearray, scale: float, /
) -> float: ...
def learned_train(
    rules: Rules,
    men_rows: int,
    samples: bytes,
    weights: bytearray,
    m: bytearray,
    v: bytearray,
    step: int,
    epochs: int,
    batch: int,
    lr: float,
    l2: float,
    scale: float,
    seed: int,
    /,
) -> tuple[float, int]: ...
def learned_check(rules: Rules, men_rows: int, data: bytes, /) -> None: ...

class EndgameTable:
    """Win/loss/draw of every position of up to ``max_pieces`` pieces under one :class:`Rules`
    (engine/core/egdb.c; built, stored and loaded by :mod:`engine.endgame`).  ``probe`` answers
    0 (not in the table), 1 (the side to move wins), 2 (it loses) or 3 (a draw)."""

    def __new__(cls, rules: Rules, max_pieces: int) -> EndgameTable: ...
    @property
    def max_pieces(self) -> int: ...
    @property
    def nbytes(self) -> int: ...
    @property
    def ready(self) -> bool: ...
    def build(self) -> None: ...
    def tobytes(self) -> bytes: ...
    def load(self, data: bytes | memoryview, dtcs: list[int], /) -> None: ...
    def slices(self) -> list[tuple[int, int, int, int, int, int, bool]]: ...
    def set_policy(self, counted: list[bool], quiet_limit: int, /) -> None: ...
    def trusted(self, slice: int, quiet: int, quiet_limit: int, /) -> bool: ...
    def probe(
        self,
        own_men: int,
        own_kings: int,
        opp_men: int,
        opp_kings: int,
        side: int,
        runs: int = 0,
        /,
    ) -> int: ...
    def locate(
        self,
        own_men: int,
        own_kings: int,
        opp_men: int,
        opp_kings: int,
        side: int,
        runs: int = 0,
        /,
    ) -> tuple[int, int] | None: ...
    def position(self, slice: int, index: int, /) -> tuple[int, int, int, int, int] | None: ...
    def compute_distances(self, slice: int, /) -> bool: ...
    def keep_distances(self) -> bool: ...
    def has_distances(self, slice: int, /) -> bool: ...
    def distance(
        self,
        own_men: int,
        own_kings: int,
        opp_men: int,
        opp_kings: int,
        side: int,
        runs: int = 0,
        /,
    ) -> int | None: ...
