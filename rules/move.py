"""A move: the landing path of one piece and what it captures.

A move is identified by its full landing path (``27x18x11``): two capture sequences are the same
move exactly when they visit the same squares in the same order.  (The path also fixes the captured
pieces, since every jump segment holds exactly one enemy piece.)  ``str(move)`` is its PDN text,
in the variant's numbering (:class:`rules.geometry.Numbering`): the squares of ``path`` are the
board's, the numbers in the text are the ones the variant's players write.
The bit fields let :meth:`rules.position.Position.play` apply it without any square lookups.
"""

from __future__ import annotations


class Move:
    """One legal move of a particular position.  Immutable by convention; compare by path."""

    __slots__ = ("capture_mask", "captured", "crowns", "from_bit", "numbers", "path", "to_bit")

    path: tuple[int, ...]
    """Squares (the board's numbering, :mod:`rules.geometry`): start, then every landing square."""
    captured: tuple[int, ...]
    """Squares of the captured pieces in the order they were jumped (empty for a step)."""
    crowns: bool
    """Whether a man becomes a king with this move."""
    from_bit: int
    to_bit: int
    capture_mask: int
    """Internal bitboards of origin, destination and captured pieces (see :mod:`rules.geometry`)."""
    numbers: tuple[int, ...]
    """The number written for each square (:attr:`rules.geometry.Geometry.numbers`)."""

    def __init__(
        self,
        path: tuple[int, ...],
        captured: tuple[int, ...],
        crowns: bool,
        from_bit: int,
        to_bit: int,
        capture_mask: int,
        numbers: tuple[int, ...],
    ) -> None:
        self.path = path
        self.captured = captured
        self.crowns = crowns
        self.from_bit = from_bit
        self.to_bit = to_bit
        self.capture_mask = capture_mask
        self.numbers = numbers

    @property
    def start(self) -> int:
        return self.path[0]

    @property
    def end(self) -> int:
        return self.path[-1]

    @property
    def is_capture(self) -> bool:
        return bool(self.captured)

    @property
    def numbered_path(self) -> tuple[int, ...]:
        """The path in the variant's numbers: moves sorted by it are listed as their texts read."""
        numbers = self.numbers
        return tuple([numbers[s] for s in self.path])

    def pdn(self) -> str:
        """PDN text with the full landing path: ``11-15``, ``22x15``, ``27x18x11``."""
        numbers = self.numbers
        return ("x" if self.captured else "-").join([str(numbers[s]) for s in self.path])

    def short(self) -> str:
        """Origin and destination only (``27x11``): what people usually type."""
        numbers = self.numbers
        sign = "x" if self.captured else "-"
        return f"{numbers[self.path[0]]}{sign}{numbers[self.path[-1]]}"

    def algebraic(self, names: tuple[str, ...]) -> str:
        """The move in coordinates, e.g. ``c3-d4`` or ``c3xe5xg7``, given the geometry's names."""
        return ("x" if self.captured else "-").join(names[s] for s in self.path)

    def __str__(self) -> str:
        return self.pdn()

    def __repr__(self) -> str:
        return f"Move({self.pdn()!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Move):
            return NotImplemented
        return self.path == other.path and self.captured == other.captured

    def __hash__(self) -> int:
        return hash(self.path)
