"""The storage contract of schema v15 (post-game analyses), run against every implementation
like ``test_store_contract.py``: an analysis reads back as written, once per subject (the first
one kept, also when two are written at once).  Protocol methods only."""

from __future__ import annotations

import asyncio

from support.store_backends import T0

from bot.store import AnalysisRow, Store


def analysis_row(subject: str, text: str = '{"scores": [0]}') -> AnalysisRow:
    return AnalysisRow(subject, 10, "english", text, T0)


async def test_an_analysis_reads_back_as_written(store: Store) -> None:
    assert await store.analysis("game:1") is None
    assert await store.save_analysis(analysis_row("game:1", '{"é": "ü"}')) is True
    assert await store.analysis("game:1") == analysis_row("game:1", '{"é": "ü"}')
    assert await store.analysis("import:1") is None
    imported = AnalysisRow("import:1", None, "international", "{}", T0 + 1)
    assert await store.save_analysis(imported) is True
    assert await store.analysis("import:1") == imported


async def test_the_first_analysis_of_a_subject_is_kept(store: Store) -> None:
    assert await store.save_analysis(analysis_row("game:7", "first")) is True
    assert await store.save_analysis(analysis_row("game:7", "second")) is False
    row = await store.analysis("game:7")
    assert row is not None and row.analysis == "first"


async def test_two_analyses_written_at_once_keep_one(store: Store) -> None:
    kept = await asyncio.gather(
        *(store.save_analysis(analysis_row("game:9", f"copy {n}")) for n in range(4))
    )
    assert sorted(kept) == [False, False, False, True]
    row = await store.analysis("game:9")
    assert row is not None and row.analysis == f"copy {kept.index(True)}"
