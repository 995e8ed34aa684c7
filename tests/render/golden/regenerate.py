"""Regenerate the golden board images: ``python tests/render/golden/regenerate.py``.

Run it deliberately, after a change to the renderer or to ``tests/support/render_cases.py`` that is
meant to change the pictures; then look at the new images (``git diff`` shows them as changed
binaries) before committing them.  ``tests/render/test_render_golden.py`` compares fresh renders
against these.
"""

from __future__ import annotations

import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parent.parent.parent
ROOT = TESTS.parent
for entry in (str(ROOT), str(TESTS)):
    if entry not in sys.path:
        sys.path.insert(0, entry)


def main() -> int:
    from support.render_cases import CASES, GOLDEN_DIR, GOLDEN_WIDTH, render_case

    GOLDEN_DIR.mkdir(exist_ok=True)
    for case in CASES:
        data = render_case(case)
        old = case.golden.read_bytes() if case.golden.exists() else None
        case.golden.write_bytes(data)
        state = "new" if old is None else "unchanged" if old == data else "changed"
        print(
            f"wrote {case.golden.relative_to(ROOT)} ({len(data):,} bytes, {state}): "
            f"{case.variant} {case.theme} {case.move}"
            f"{' flipped' if case.flip else ''} at {GOLDEN_WIDTH} px"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
