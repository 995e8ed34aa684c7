"""Types of the native core, the C extension built from ``engine/core/`` (see engine/native.py).

Positions are four bitboards seen from the side to move (own men, own kings, their men, their
kings, in the layout of :mod:`rules.geometry`) and the side (0 White, 1 Black); moves are
``rules``' raw moves ``(from_bit, to_bit, captured, crowns)``.
"""

from typing import Final

ENDS_MOVE: Final[int]
AT_END: Final[int]
CONTINUES_AS_KING: Final[int]
MAX_SIZE: Final[int]

class Rules:
    """The rules of one variant as the core reads them (build it with
    :func:`engine.native.core_rules`)."""

    def __new__(
        cls,
        size: int,
        men_capture_backward: bool,
        flying_kings: bool,
        majority: bool,
        crowning: int,
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
    def majority(self) -> bool: ...
    @property
    def crowning(self) -> int: ...
    def legal_moves(
        self, own_men: int, own_kings: int, opp_men: int, opp_kings: int, side: int, /
    ) -> list[tuple[int, int, int, bool]]: ...
    def count(
        self, own_men: int, own_kings: int, opp_men: int, opp_kings: int, side: int, /
    ) -> int: ...
    def make(
        self,
        own_men: int,
        own_kings: int,
        opp_men: int,
        opp_kings: int,
        side: int,
        move: tuple[int, int, int, bool],
        /,
    ) -> tuple[int, int, int, int, int]: ...
    def perft(
        self, own_men: int, own_kings: int, opp_men: int, opp_kings: int, side: int, depth: int, /
    ) -> int: ...

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
    ) -> Searcher: ...
    def search(
        self,
        own_men: int,
        own_kings: int,
        opp_men: int,
        opp_kings: int,
        side: int,
        quiet: int,
        past: tuple[int, ...],
        max_depth: int,
        seconds: float,
        node_limit: int,
        exact: bool,
        /,
    ) -> tuple[
        tuple[int, int, int, bool] | None,
        int,
        int,
        int,
        float,
        list[tuple[int, int, int, bool]],
        list[tuple[int, int, int, float, tuple[int, int, int, bool]]],
    ]: ...
    def root_scores(
        self,
        own_men: int,
        own_kings: int,
        opp_men: int,
        opp_kings: int,
        side: int,
        quiet: int,
        past: tuple[int, ...],
        depth: int,
        /,
    ) -> list[tuple[int, tuple[int, int, int, bool]]]: ...
    def evaluate(
        self, own_men: int, own_kings: int, opp_men: int, opp_kings: int, side: int, /
    ) -> int: ...
    def key(
        self, own_men: int, own_kings: int, opp_men: int, opp_kings: int, side: int, /
    ) -> int: ...
    def clear(self) -> None: ...
