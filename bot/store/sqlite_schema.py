"""The SQLite schema: its history, and the shared schema in SQLite's words.

The schema is versioned with ``PRAGMA user_version``.  A new file is created whole from the
schema both backends share (:mod:`bot.store.schema`, at version 8, then its later migrations).
A file made by an older bot is upgraded in place by :data:`MIGRATIONS`, the history from
version 1 that ends at the same tables, then by the shared later migrations; each is applied in
its own transaction (:func:`migrations_after`).  A migration is never edited once released; a
change is a new one, in :mod:`bot.store.schema`.
"""

from __future__ import annotations

from . import schema
from .schema import render, statements

SCHEMA_V1 = """
CREATE TABLE challenges (
    id              INTEGER PRIMARY KEY,
    guild_id        INTEGER,
    channel_id      INTEGER NOT NULL,
    challenger_id   INTEGER NOT NULL,
    challenger_name TEXT    NOT NULL,
    opponent_id     INTEGER NOT NULL,
    opponent_name   TEXT    NOT NULL,
    variant         TEXT    NOT NULL,
    color           TEXT    NOT NULL CHECK (color IN ('random', 'white', 'black')),
    move_time       INTEGER NOT NULL CHECK (move_time > 0),
    thread          INTEGER NOT NULL DEFAULT 0,
    opening         TEXT    NOT NULL DEFAULT '',
    level           INTEGER,
    status          TEXT    NOT NULL DEFAULT 'open'
                    CHECK (status IN ('open', 'accepted', 'declined', 'cancelled', 'expired')),
    game_id         INTEGER REFERENCES games (id),
    created_at      REAL    NOT NULL,
    expires_at      REAL    NOT NULL,
    updated_at      REAL    NOT NULL
);
CREATE UNIQUE INDEX challenges_one_open ON challenges (challenger_id, channel_id)
    WHERE status = 'open';

CREATE TABLE games (
    id                  INTEGER PRIMARY KEY,
    guild_id            INTEGER,
    channel_id          INTEGER NOT NULL,
    white_id            INTEGER NOT NULL,
    white_name          TEXT    NOT NULL,
    black_id            INTEGER NOT NULL,
    black_name          TEXT    NOT NULL,
    computer_id         INTEGER,
    computer_level      INTEGER,
    variant             TEXT    NOT NULL,
    start_fen           TEXT    NOT NULL,
    opening             TEXT    NOT NULL DEFAULT '',
    status              TEXT    NOT NULL DEFAULT 'running'
                        CHECK (status IN ('running', 'finished', 'aborted')),
    result              TEXT,
    termination         TEXT,
    termination_detail  TEXT    NOT NULL DEFAULT '',
    winner              TEXT    CHECK (winner IN ('white', 'black')),
    ply                 INTEGER NOT NULL DEFAULT 0,
    fen                 TEXT    NOT NULL,
    move_time           INTEGER NOT NULL CHECK (move_time > 0),
    deadline            REAL,
    remind_at           REAL,
    draw_offer          TEXT    CHECK (draw_offer IN ('white', 'black')),
    advantage_side      TEXT    CHECK (advantage_side IN ('white', 'black')),
    advantage_start_ply INTEGER,
    version             INTEGER NOT NULL DEFAULT 0,
    created_at          REAL    NOT NULL,
    updated_at          REAL    NOT NULL
);
CREATE UNIQUE INDEX games_one_running_per_channel ON games (channel_id) WHERE status = 'running';
CREATE INDEX games_by_guild ON games (guild_id, status);

CREATE TABLE moves (
    game_id   INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    ply       INTEGER NOT NULL CHECK (ply >= 1),
    pdn       TEXT    NOT NULL,
    fen_after TEXT    NOT NULL,
    user_id   INTEGER NOT NULL,
    played_at REAL    NOT NULL,
    PRIMARY KEY (game_id, ply)
) WITHOUT ROWID;
"""

SCHEMA_V2 = """
CREATE INDEX games_deadline ON games (deadline) WHERE status = 'running';
CREATE INDEX games_remind_at ON games (remind_at) WHERE status = 'running';
CREATE INDEX games_finished_in_channel ON games (channel_id, updated_at) WHERE status != 'running';
CREATE INDEX challenges_expiry ON challenges (expires_at) WHERE status = 'open';

CREATE TABLE ratings (
    guild_id   INTEGER NOT NULL,
    user_id    INTEGER NOT NULL,
    variant    TEXT    NOT NULL,
    rating     REAL    NOT NULL DEFAULT 1500,
    deviation  REAL    NOT NULL DEFAULT 350,
    volatility REAL    NOT NULL DEFAULT 0.06,
    games      INTEGER NOT NULL DEFAULT 0,
    updated_at REAL    NOT NULL,
    PRIMARY KEY (guild_id, user_id, variant)
) WITHOUT ROWID;
"""

SCHEMA_V3 = """
ALTER TABLE challenges ADD COLUMN message_id INTEGER;
"""
"""v3: the id of the message that shows a challenge, so its buttons can be taken away when it
expires or is answered."""

SCHEMA_V4 = """
ALTER TABLE challenges ADD COLUMN match_play INTEGER NOT NULL DEFAULT 0;

ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN white_rating REAL;
ALTER TABLE games ADD COLUMN white_rating_change REAL;
ALTER TABLE games ADD COLUMN black_rating REAL;
ALTER TABLE games ADD COLUMN black_rating_change REAL;
ALTER TABLE games ADD COLUMN match_id INTEGER REFERENCES games (id);
ALTER TABLE games ADD COLUMN takeback_offer TEXT CHECK (takeback_offer IN ('white', 'black'));
ALTER TABLE games ADD COLUMN takeback_refused_ply INTEGER;

CREATE INDEX games_finished_by_guild ON games (guild_id, updated_at) WHERE status != 'running';
CREATE INDEX games_of_match ON games (match_id) WHERE match_id IS NOT NULL;
CREATE INDEX games_by_white ON games (guild_id, white_id, updated_at) WHERE status != 'running';
CREATE INDEX games_by_black ON games (guild_id, black_id, updated_at) WHERE status != 'running';

ALTER TABLE ratings ADD COLUMN name TEXT NOT NULL DEFAULT '';
ALTER TABLE ratings ADD COLUMN wins INTEGER NOT NULL DEFAULT 0;
ALTER TABLE ratings ADD COLUMN draws INTEGER NOT NULL DEFAULT 0;
ALTER TABLE ratings ADD COLUMN losses INTEGER NOT NULL DEFAULT 0;
ALTER TABLE ratings ADD COLUMN streak TEXT CHECK (streak IN ('W', 'D', 'L'));
ALTER TABLE ratings ADD COLUMN streak_length INTEGER NOT NULL DEFAULT 0;

CREATE TABLE taken_back_moves (
    game_id       INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    ply           INTEGER NOT NULL,
    pdn           TEXT    NOT NULL,
    fen_after     TEXT    NOT NULL,
    user_id       INTEGER NOT NULL,
    played_at     REAL    NOT NULL,
    taken_back_at REAL    NOT NULL
);
CREATE INDEX taken_back_by_game ON taken_back_moves (game_id);

CREATE TABLE guild_settings (
    guild_id   INTEGER PRIMARY KEY,
    variant    TEXT,
    move_time  INTEGER CHECK (move_time > 0),
    threads    TEXT    NOT NULL DEFAULT 'optional'
               CHECK (threads IN ('optional', 'always', 'never')),
    updated_at REAL    NOT NULL
);

CREATE TABLE guild_channels (
    guild_id   INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    PRIMARY KEY (guild_id, channel_id)
) WITHOUT ROWID;
"""
"""v4 (social play): matches (``match_id`` is the id of the match's first game, so a match needs
no table of its own); ratings written with the finished game, with the player's name, record and
streak, so ``/stats`` and ``/leaderboard`` read one row per player; takeback requests and the
archive of taken-back moves (a takeback moves rows there rather than losing them); server
settings."""

SCHEMA_V5 = """
CREATE TABLE outbox (
    seq             INTEGER PRIMARY KEY AUTOINCREMENT,
    id              TEXT    NOT NULL UNIQUE,
    kind            TEXT    NOT NULL,
    guild_id        INTEGER,
    channel_id      INTEGER NOT NULL,
    game_id         INTEGER,
    challenge_id    INTEGER,
    created_at      REAL    NOT NULL,
    payload         TEXT,
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at REAL    NOT NULL DEFAULT 0,
    delivered_at    REAL
);
CREATE INDEX outbox_pending ON outbox (seq) WHERE delivered_at IS NULL;

CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
) WITHOUT ROWID;
"""
"""v5 (field-ready): the outbox of announcements players must see, each written in the same
transaction as the change it announces and marked once delivered (``payload`` holds the message
when a first delivery failed; ``seq`` orders a game's announcements); and a small key/value table
for what the process keeps between runs (the synced commands' fingerprint, when it was last
alive)."""

SCHEMA_V6 = """
ALTER TABLE outbox ADD COLUMN answer_token TEXT;
ALTER TABLE outbox ADD COLUMN answer_at REAL;
"""
"""v6: the interaction token of the answer an announcement is being delivered by, while it is
(cleared once delivered or failed), so a process that died with the answer in flight can be
followed by one that asks Discord whether the answer arrived instead of posting it again."""

SCHEMA_V7 = """
ALTER TABLE games ADD COLUMN flip INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN white_rating_shown TEXT;
ALTER TABLE games ADD COLUMN black_rating_shown TEXT;
ALTER TABLE games ADD COLUMN board_message_id INTEGER;
ALTER TABLE games ADD COLUMN warn_at REAL;
CREATE INDEX games_warn_at ON games (warn_at) WHERE status = 'running';

ALTER TABLE guild_settings ADD COLUMN orientation TEXT NOT NULL DEFAULT 'white';
ALTER TABLE guild_settings ADD COLUMN theme TEXT NOT NULL DEFAULT '';

CREATE TABLE user_prefs (
    user_id      INTEGER PRIMARY KEY,
    theme        TEXT    NOT NULL DEFAULT '',
    notation     TEXT    NOT NULL DEFAULT '',
    dm_turn      INTEGER NOT NULL DEFAULT 0,
    last_warning INTEGER NOT NULL DEFAULT 0,
    updated_at   REAL    NOT NULL
);
"""
"""v7 (play on a phone): per game, the board's orientation fixed at its start (``flip``: Black
at the bottom), both players' ratings as shown when it started, the last public board message
(whose buttons go when the next one is posted) and the time of the last warning before the
deadline; per server, the board orientation and theme; and each user's preferences (board theme,
notation, direct messages on their turn and for the last warning).  The new words carry no
``CHECK``: the service reads an unknown one as the default, so a theme or notation added later
needs no table rebuild."""

SCHEMA_V8 = """
ALTER TABLE guild_settings ADD COLUMN language TEXT NOT NULL DEFAULT '';
ALTER TABLE guild_settings ADD COLUMN guild_locale TEXT NOT NULL DEFAULT '';
ALTER TABLE user_prefs ADD COLUMN locale TEXT NOT NULL DEFAULT '';
"""
"""v8 (languages): per server, the language chosen for public messages and the Discord locale
last seen for it; per user, the Discord locale last seen (direct messages are written in it).
Plain words without ``CHECK``: a catalog added later needs no table rebuild, and an unknown
code reads as English."""

MIGRATIONS: tuple[tuple[int, str], ...] = (
    (1, SCHEMA_V1),
    (2, SCHEMA_V2),
    (3, SCHEMA_V3),
    (4, SCHEMA_V4),
    (5, SCHEMA_V5),
    (6, SCHEMA_V6),
    (7, SCHEMA_V7),
    (8, SCHEMA_V8),
    *((number, render(sql, "sqlite")) for number, sql in schema.LATER_MIGRATIONS),
)
"""(version, SQL) in order: SQLite's own history up to version 8, then the shared later
migrations; the database's ``user_version`` is the last one applied."""
SCHEMA_VERSION = MIGRATIONS[-1][0]


def migrations_after(version: int) -> list[tuple[int, list[str]]]:
    """The migrations a file at ``version`` needs, in order, each as (the version it reaches,
    its statements): a new file (version 0) is created whole at the shared schema's version."""
    steps = []
    if version == 0:
        steps.append((schema.VERSION_WHOLE, render(schema.SCHEMA_V8, "sqlite")))
        version = schema.VERSION_WHOLE
    steps += [(number, sql) for number, sql in MIGRATIONS if number > version]
    return [(number, statements(sql)) for number, sql in steps]
