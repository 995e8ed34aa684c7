"""The storage boundary: the :class:`Store` protocol, its rows and errors, and :func:`open_store`.

Importing this package loads no database driver; :func:`open_store` picks and imports the
implementation when a database is actually opened.
"""

from __future__ import annotations

from pathlib import Path

from .addresses import POSTGRES_SCHEMES, is_postgres_url, redact_url
from .errors import (
    ChallengeClosed,
    ChallengeOpen,
    ChannelBusy,
    SchemaTooNewError,
    StaleVersion,
    StoreError,
    StoreUnavailable,
    WriteRefused,
)
from .import_rows import ImportRow, NewImport
from .protocol import Store
from .rows import (
    AnalysisRow,
    ChallengeRow,
    EventAnswer,
    EventRow,
    FollowUp,
    GameChanges,
    GameRow,
    LadderChange,
    MoveRow,
    NewChallenge,
    NewEvent,
    NewGame,
    NewMove,
    PrefsChanges,
    PrefsRow,
    RatedGame,
    Rater,
    RatingRow,
    SettingsChanges,
    SettingsRow,
    TakenBackMove,
)
from .shards import EVERY_SHARD, Shards, shard_of
from .tournament_rows import (
    NewPairing,
    NewTournament,
    PairingChanges,
    PairingRow,
    PlayerChanges,
    TournamentChanges,
    TournamentPlayerRow,
    TournamentRow,
    TournamentState,
    TournamentStep,
    TournamentUpdate,
    TournamentWrites,
)


async def open_store(location: str | Path) -> Store:
    """Open (creating and migrating as needed) the database at ``location``: a
    ``postgresql://`` (or ``postgres://``) URL for a PostgreSQL server, else a SQLite file path.
    Only the chosen implementation's driver is imported."""
    if isinstance(location, str) and is_postgres_url(location):
        from .postgres import PostgresStore

        return await PostgresStore.open(location)
    from .sqlite import SqliteStore

    return await SqliteStore.open(location)


__all__ = [
    "EVERY_SHARD",
    "POSTGRES_SCHEMES",
    "AnalysisRow",
    "ChallengeClosed",
    "ChallengeOpen",
    "ChallengeRow",
    "ChannelBusy",
    "EventAnswer",
    "EventRow",
    "FollowUp",
    "GameChanges",
    "GameRow",
    "ImportRow",
    "LadderChange",
    "MoveRow",
    "NewChallenge",
    "NewEvent",
    "NewGame",
    "NewImport",
    "NewMove",
    "NewPairing",
    "NewTournament",
    "PairingChanges",
    "PairingRow",
    "PlayerChanges",
    "PrefsChanges",
    "PrefsRow",
    "RatedGame",
    "Rater",
    "RatingRow",
    "SchemaTooNewError",
    "SettingsChanges",
    "SettingsRow",
    "Shards",
    "StaleVersion",
    "Store",
    "StoreError",
    "StoreUnavailable",
    "TakenBackMove",
    "TournamentChanges",
    "TournamentPlayerRow",
    "TournamentRow",
    "TournamentState",
    "TournamentStep",
    "TournamentUpdate",
    "TournamentWrites",
    "WriteRefused",
    "is_postgres_url",
    "open_store",
    "redact_url",
    "shard_of",
]
