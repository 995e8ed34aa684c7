"""Games that tests and benchmarks replay (no test framework imported, so ``bench/`` can use
them too)."""

from __future__ import annotations

HELPMATE = (
    "12-16",
    "23-18",
    "16-20",
    "21-17",
    "9-14",
    "18x9",
    "5x14x21",
    "22-17",
    "10-15",
    "25-22",
    "8-12",
    "30-25",
    "21x30",
    "29-25",
    "30x21x14",
    "22-17",
    "14x21",
    "27-23",
    "20x27",
    "31x24",
    "21-25",
    "26-22",
    "25x18x27x20",
    "32-27",
    "4-8",
    "27-24",
    "20x27",
    "28-24",
    "27x20",
)
"""A short English game that ends with White out of pieces, found by a search that plays White's
men into Black's captures: 29 plies, multi-jumps and a capture chosen among several included."""
