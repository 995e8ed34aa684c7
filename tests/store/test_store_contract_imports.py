"""The storage contract of schema v16 (imported games), run against every implementation like
``test_store_contract.py``: imports read back as written, a file's games kept together with
ids in order and never reused.  Protocol methods only.
"""

from __future__ import annotations

import json

from support.store_backends import T0

from bot.store import ImportRow, NewImport, Store

RECORD = '[Event "Club"]\n[Result "1-0"]\n[GameType "21"]\n\n1. 11-15 23-19 1-0\n'


def new_import(number: int = 1, **changes: object) -> NewImport:
    values: dict[str, object] = {
        "guild_id": 10,
        "channel_id": 20,
        "user_id": 30,
        "created_at": T0,
        "number": number,
        "variant": "english",
        "plies": 2,
        "record": RECORD,
        "tags": json.dumps({"Event": "Club", "White": "Zoë"}),
    }
    values.update(changes)
    return NewImport(**values)  # type: ignore[arg-type]


async def test_an_import_reads_back_as_written(store: Store) -> None:
    (import_id,) = await store.add_imports([new_import(guild_id=None)])
    assert await store.imported(import_id) == ImportRow(
        import_id,
        None,
        20,
        30,
        T0,
        1,
        "english",
        2,
        RECORD,
        '{"Event": "Club", "White": "Zo\\u00eb"}',
    )
    assert await store.imported(import_id + 1) is None


async def test_a_files_games_are_kept_together_with_ids_in_order(store: Store) -> None:
    ids = await store.add_imports([new_import(n) for n in (3, 1, 7)])
    assert len(set(ids)) == 3 and ids == sorted(ids)
    rows = [await store.imported(i) for i in ids]
    assert [row.number for row in rows if row is not None] == [3, 1, 7]
    assert await store.add_imports([]) == []


async def test_import_ids_are_never_used_again(store: Store) -> None:
    first = await store.add_imports([new_import()])
    second = await store.add_imports([new_import(2)])
    assert second[0] > first[0]
