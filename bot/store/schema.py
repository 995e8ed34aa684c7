"""The schema both SQL backends build, written once with a few words left to each dialect.

:data:`SCHEMA_V8` is the whole schema at version 8 (the version PostgreSQL's history starts at,
see :mod:`bot.store.postgres_schema`): a new PostgreSQL database and a new SQLite file are both
created from it, so their tables, columns, checks and indexes are the same by construction.
SQLite files made before it exist at every version from 1: :mod:`bot.store.sqlite_schema` keeps
the history that upgrades them in place, which ends at the same tables.

:data:`LATER_MIGRATIONS` are the changes after version 8, each written once here and applied by
both backends in order; a released migration is never edited, a change is a new one.

What a dialect fills in (:class:`Words`): an id key, the outbox's ever-growing sequence, a
Discord snowflake (64 bits), a time (an 8-byte float), a flag and its "off", and SQLite's
``WITHOUT ROWID`` for tables keyed by their own columns.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass


@dataclass(frozen=True)
class Words:
    """How one dialect writes the schema's types and table options."""

    id: str
    """A table's own generated integer key."""
    sequence: str
    """A generated key that never reuses a value, even after deletes (the outbox's order)."""
    snowflake: str
    time: str
    flag: str
    off: str
    without_rowid: str
    """After a table keyed by its own columns: stored in key order where the dialect can."""


VERSION_WHOLE = 8
"""The version :data:`SCHEMA_V8` stands for."""

SCHEMA_V8 = """CREATE TABLE games (
    id                   {id},
    guild_id             {snowflake},
    channel_id           {snowflake} NOT NULL,
    white_id             {snowflake} NOT NULL,
    white_name           TEXT    NOT NULL,
    black_id             {snowflake} NOT NULL,
    black_name           TEXT    NOT NULL,
    computer_id          {snowflake},
    computer_level       INTEGER,
    variant              TEXT    NOT NULL,
    start_fen            TEXT    NOT NULL,
    opening              TEXT    NOT NULL DEFAULT '',
    status               TEXT    NOT NULL DEFAULT 'running'
                         CHECK (status IN ('running', 'finished', 'aborted')),
    result               TEXT,
    termination          TEXT,
    termination_detail   TEXT    NOT NULL DEFAULT '',
    winner               TEXT    CHECK (winner IN ('white', 'black')),
    ply                  INTEGER NOT NULL DEFAULT 0,
    fen                  TEXT    NOT NULL,
    move_time            INTEGER NOT NULL CHECK (move_time > 0),
    deadline             {time},
    remind_at            {time},
    draw_offer           TEXT    CHECK (draw_offer IN ('white', 'black')),
    advantage_side       TEXT    CHECK (advantage_side IN ('white', 'black')),
    advantage_start_ply  INTEGER,
    version              INTEGER NOT NULL DEFAULT 0,
    created_at           {time} NOT NULL,
    updated_at           {time} NOT NULL,
    rated                {flag} NOT NULL DEFAULT {off},
    white_rating         {time},
    white_rating_change  {time},
    black_rating         {time},
    black_rating_change  {time},
    match_id             {snowflake} REFERENCES games (id),
    takeback_offer       TEXT    CHECK (takeback_offer IN ('white', 'black')),
    takeback_refused_ply INTEGER,
    flip                 {flag} NOT NULL DEFAULT {off},
    white_rating_shown   TEXT,
    black_rating_shown   TEXT,
    board_message_id     {snowflake},
    warn_at              {time}
);
CREATE UNIQUE INDEX games_one_running_per_channel ON games (channel_id) WHERE status = 'running';
CREATE INDEX games_by_guild ON games (guild_id, status);
CREATE INDEX games_deadline ON games (deadline) WHERE status = 'running';
CREATE INDEX games_remind_at ON games (remind_at) WHERE status = 'running';
CREATE INDEX games_warn_at ON games (warn_at) WHERE status = 'running';
CREATE INDEX games_finished_in_channel ON games (channel_id, updated_at) WHERE status <> 'running';
CREATE INDEX games_finished_by_guild ON games (guild_id, updated_at) WHERE status <> 'running';
CREATE INDEX games_of_match ON games (match_id) WHERE match_id IS NOT NULL;
CREATE INDEX games_by_white ON games (guild_id, white_id, updated_at) WHERE status <> 'running';
CREATE INDEX games_by_black ON games (guild_id, black_id, updated_at) WHERE status <> 'running';

CREATE TABLE challenges (
    id              {id},
    guild_id        {snowflake},
    channel_id      {snowflake} NOT NULL,
    challenger_id   {snowflake} NOT NULL,
    challenger_name TEXT    NOT NULL,
    opponent_id     {snowflake} NOT NULL,
    opponent_name   TEXT    NOT NULL,
    variant         TEXT    NOT NULL,
    color           TEXT    NOT NULL CHECK (color IN ('random', 'white', 'black')),
    move_time       INTEGER NOT NULL CHECK (move_time > 0),
    thread          {flag} NOT NULL DEFAULT {off},
    opening         TEXT    NOT NULL DEFAULT '',
    level           INTEGER,
    status          TEXT    NOT NULL DEFAULT 'open'
                    CHECK (status IN ('open', 'accepted', 'declined', 'cancelled', 'expired')),
    game_id         {snowflake} REFERENCES games (id),
    created_at      {time} NOT NULL,
    expires_at      {time} NOT NULL,
    updated_at      {time} NOT NULL,
    message_id      {snowflake},
    match_play      {flag} NOT NULL DEFAULT {off}
);
CREATE UNIQUE INDEX challenges_one_open ON challenges (challenger_id, channel_id)
    WHERE status = 'open';
CREATE INDEX challenges_expiry ON challenges (expires_at) WHERE status = 'open';

CREATE TABLE moves (
    game_id   {snowflake} NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    ply       INTEGER NOT NULL CHECK (ply >= 1),
    pdn       TEXT    NOT NULL,
    fen_after TEXT    NOT NULL,
    user_id   {snowflake} NOT NULL,
    played_at {time} NOT NULL,
    PRIMARY KEY (game_id, ply)
){without_rowid};

CREATE TABLE taken_back_moves (
    game_id       {snowflake} NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    ply           INTEGER NOT NULL,
    pdn           TEXT    NOT NULL,
    fen_after     TEXT    NOT NULL,
    user_id       {snowflake} NOT NULL,
    played_at     {time} NOT NULL,
    taken_back_at {time} NOT NULL
);
CREATE INDEX taken_back_by_game ON taken_back_moves (game_id);

CREATE TABLE ratings (
    guild_id      {snowflake} NOT NULL,
    user_id       {snowflake} NOT NULL,
    variant       TEXT    NOT NULL,
    rating        {time} NOT NULL DEFAULT 1500,
    deviation     {time} NOT NULL DEFAULT 350,
    volatility    {time} NOT NULL DEFAULT 0.06,
    games         INTEGER NOT NULL DEFAULT 0,
    updated_at    {time} NOT NULL,
    name          TEXT    NOT NULL DEFAULT '',
    wins          INTEGER NOT NULL DEFAULT 0,
    draws         INTEGER NOT NULL DEFAULT 0,
    losses        INTEGER NOT NULL DEFAULT 0,
    streak        TEXT    CHECK (streak IN ('W', 'D', 'L')),
    streak_length INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (guild_id, user_id, variant)
){without_rowid};

CREATE TABLE guild_settings (
    guild_id     {snowflake} PRIMARY KEY,
    variant      TEXT,
    move_time    INTEGER CHECK (move_time > 0),
    threads      TEXT    NOT NULL DEFAULT 'optional'
                 CHECK (threads IN ('optional', 'always', 'never')),
    updated_at   {time} NOT NULL,
    orientation  TEXT    NOT NULL DEFAULT 'white',
    theme        TEXT    NOT NULL DEFAULT '',
    language     TEXT    NOT NULL DEFAULT '',
    guild_locale TEXT    NOT NULL DEFAULT ''
);

CREATE TABLE guild_channels (
    guild_id   {snowflake} NOT NULL,
    channel_id {snowflake} NOT NULL,
    PRIMARY KEY (guild_id, channel_id)
){without_rowid};

CREATE TABLE outbox (
    seq             {sequence},
    id              TEXT    NOT NULL UNIQUE,
    kind            TEXT    NOT NULL,
    guild_id        {snowflake},
    channel_id      {snowflake} NOT NULL,
    game_id         {snowflake},
    challenge_id    {snowflake},
    created_at      {time} NOT NULL,
    payload         TEXT,
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at {time} NOT NULL DEFAULT 0,
    delivered_at    {time},
    answer_token    TEXT,
    answer_at       {time}
);
CREATE INDEX outbox_pending ON outbox (seq) WHERE delivered_at IS NULL;

CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
){without_rowid};

CREATE TABLE user_prefs (
    user_id      {snowflake} PRIMARY KEY,
    theme        TEXT    NOT NULL DEFAULT '',
    notation     TEXT    NOT NULL DEFAULT '',
    dm_turn      {flag} NOT NULL DEFAULT {off},
    last_warning {flag} NOT NULL DEFAULT {off},
    updated_at   {time} NOT NULL,
    locale       TEXT    NOT NULL DEFAULT ''
);
"""
"""Version 8, whole (what each version added and why: :mod:`bot.store.sqlite_schema`)."""

LATER_MIGRATIONS: tuple[tuple[int, str], ...] = ()
"""(version, SQL with the :class:`Words` fields in braces) after version 8, in order: none yet."""


def render(sql: str, words: Words) -> str:
    """``sql`` in one dialect: each ``{word}`` replaced by that dialect's :class:`Words`."""
    return sql.format(**asdict(words))


def statements(sql: str) -> list[str]:
    """The statements of a script, one by one (the schema holds no ``;`` inside a statement)."""
    return [s.strip() for s in sql.split(";") if s.strip()]
