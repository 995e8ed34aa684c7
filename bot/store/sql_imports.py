"""The store's queries of imported games (schema v16), written once for every SQL backend as
:mod:`bot.store.sql_store` is, and mixed into its :class:`SqlStore`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import fields

from .import_rows import ImportRow, NewImport
from .shield import shielded_write
from .sql_part import SqlPart
from .sql_writes import insert_into

NEW_IMPORT_FIELDS = tuple(f.name for f in fields(NewImport))
INSERT_IMPORT = insert_into("imports", NEW_IMPORT_FIELDS)
IMPORTS = f"SELECT {', '.join(f.name for f in fields(ImportRow))} FROM imports"


class SqlImports(SqlPart):
    """The import methods of :class:`~bot.store.protocol.Store` (mixed into
    :class:`~bot.store.sql_store.SqlStore`, whose helpers they use)."""

    @shielded_write
    async def add_imports(self, imports: Sequence[NewImport]) -> list[int]:
        async with self._transaction() as db:
            return [
                await db.insert(INSERT_IMPORT, tuple(getattr(new, n) for n in NEW_IMPORT_FIELDS))
                for new in imports
            ]

    async def imported(self, import_id: int) -> ImportRow | None:
        row = await self._fetch_one(IMPORTS + " WHERE id = ?", (import_id,))
        return None if row is None else ImportRow(*row)  # no enums or flags to restore
