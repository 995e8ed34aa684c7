"""The store's analyses (schema v15), written once for every SQL backend as
:mod:`bot.store.sql_store` is, and mixed into its :class:`SqlStore`.

An analysis is written once per subject and never changed: the first writer wins
(``ON CONFLICT DO NOTHING``), so two processes that computed the same one at once keep one row.
"""

from __future__ import annotations

from dataclasses import astuple, fields

from .mapping import DECODE, select_from
from .rows import AnalysisRow
from .shield import shielded_write
from .sql_part import SqlPart
from .sql_writes import insert_into

ANALYSES = select_from(AnalysisRow, "analyses")
INSERT_ANALYSIS = insert_into(
    "analyses", [f.name for f in fields(AnalysisRow)], " ON CONFLICT (subject) DO NOTHING"
)


class SqlAnalyses(SqlPart):
    """The analysis methods of :class:`~bot.store.protocol.Store` (mixed into
    :class:`~bot.store.sql_store.SqlStore`, whose helpers they use)."""

    async def analysis(self, subject: str) -> AnalysisRow | None:
        row = await self._fetch_one(ANALYSES + " WHERE subject = ?", (subject,))
        return None if row is None else DECODE[AnalysisRow](row)

    @shielded_write
    async def save_analysis(self, analysis: AnalysisRow) -> bool:
        async with self._transaction() as db:
            return await db.execute(INSERT_ANALYSIS, astuple(analysis)) == 1
