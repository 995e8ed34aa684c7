"""What a part of the SQL store (the tournament, analysis, import and puzzle methods, each in a
module of its own) uses of :class:`~bot.store.sql_store.SqlStore`, which mixes the parts in:
declared once here, for the type checker only, so each part is checked against the helpers it
calls without repeating their signatures."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager
from typing import TYPE_CHECKING, Any

from .dialect import Params, Transaction
from .shield import Orphans


class SqlPart:
    """A part of :class:`~bot.store.sql_store.SqlStore`; its helpers are the store's own."""

    orphans: Orphans
    if TYPE_CHECKING:

        def _transaction(self) -> AbstractAsyncContextManager[Transaction]: ...

        async def _fetch_one(self, sql: str, params: Params = ()) -> Sequence[Any] | None: ...

        async def _fetch_all(self, sql: str, params: Params = ()) -> list[Sequence[Any]]: ...
