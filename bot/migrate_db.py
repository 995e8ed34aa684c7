"""``python -m bot migrate-db``: the SQLite database copied into PostgreSQL, every game checked
by the service's own replay (:func:`bot.service.records.replay_problem`).

The copy itself is the store's (:mod:`bot.store.migrate`); this module only joins it to the
rules, which the store must not know.
"""

from __future__ import annotations

from pathlib import Path

from .service.records import replay_problem
from .store.migrate import copy_to_postgres


async def migrate_to_postgres(source: Path, dsn: str) -> list[str]:
    """Copy and verify; the lines that report it.  :class:`~bot.store.StoreError` with the reason
    when nothing was kept."""
    migrated = await copy_to_postgres(source, dsn, replay_problem)
    return migrated.lines(source, dsn)
