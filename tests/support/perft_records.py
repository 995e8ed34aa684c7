"""The perft records the repository keeps (``tests/support/perft/*.perft``): read by the rules'
perft tests and by the native core's, which must reach the same counts."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

PERFT_DIR = Path(__file__).parent / "perft"


@dataclass
class PerftRecord:
    id: str
    variant: str = ""
    fen: str = ""
    counts: dict[int, int] = field(default_factory=dict)


def read_perft_file(path: Path) -> list[PerftRecord]:
    """Records of a ``.perft`` file: ``id``, ``variant``, ``fen`` and ``perft D N`` lines."""
    records: list[PerftRecord] = []
    for number, raw in enumerate(path.read_text().splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        key, _, value = line.partition(" ")
        value = value.strip()
        if key == "id":
            records.append(PerftRecord(value))
        elif not records:
            raise ValueError(f"{path.name}:{number}: {key!r} before the first id")
        elif key == "variant":
            records[-1].variant = value
        elif key == "fen":
            records[-1].fen = value
        elif key == "perft":
            depth, count = value.split()
            records[-1].counts[int(depth)] = int(count)
        else:
            raise ValueError(f"{path.name}:{number}: unknown key {key!r}")
    return records
