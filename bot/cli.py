"""The command line: ``python -m bot`` runs the bot; ``backup``, ``restore``, ``healthcheck`` and
``migrate-db`` are the operator's tools; ``--help`` documents the settings and ``--version`` the
release.

Everything that can be checked without Discord is checked before logging in (settings, the token,
the database file, the single-bot lock, or with ``DATABASE_URL`` a first connection to the
PostgreSQL server, which also brings its schema up to date), so a mistake ends in one line saying
what to do and an exit code, never a traceback from inside a running client.  Exit codes: 0 done
(or stopped by a signal), 1 failed (the message says why), 2 missing token or bad setting.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib.metadata
import logging
import os
import signal
import sys
from collections.abc import Sequence
from pathlib import Path

from dotenv import load_dotenv

from . import health
from .config import DEFAULT_DATABASE_PATH, Settings, SettingsError
from .container import NO_TOKEN_IN_CONTAINER, in_container, is_main_process, wait_for_stop
from .store import StoreError

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_NO_TOKEN = 2
EXIT_BAD_SETTINGS = 2

PRIVATE_UMASK = 0o077
"""Files the bot and its commands create are its user's alone (0600, folders 0700)."""
SECRET_VARIABLES = ("DISCORD_TOKEN", "DATABASE_URL")
"""Read once at start, then taken out of the environment (:func:`hide_secrets_from_children`)."""

log = logging.getLogger("bot")

SETTINGS_HELP = f"""\
commands (without one, the bot runs):
  backup PATH     write a verified copy of the database to PATH (a file, or a folder for a dated
                  name); uses SQLite's online backup, so it is safe while the bot runs
                  (SQLite only: with DATABASE_URL, back up with pg_dump)
  restore BACKUP  replace the database with a verified copy of BACKUP, keeping the old files as
                  <database>.before-restore-<time>; refused while a bot runs on the database
                  (SQLite only: with DATABASE_URL, restore with pg_restore)
  healthcheck     exit 0 if the running bot wrote its heartbeat (HEARTBEAT_PATH) in the last
                  60 seconds (--max-age) with no problem in it (such as a database that does
                  not answer), else 1 with the reason; for Docker's HEALTHCHECK
  migrate-db --to postgresql://...
                  copy the SQLite database (DATABASE_PATH) into an empty PostgreSQL database in
                  one transaction and verify it (counts per table, a replay of every game,
                  ratings); --to defaults to DATABASE_URL. Stop the bot first

settings (environment variables, or lines NAME=value in ./.env; the environment wins):
  DISCORD_TOKEN   the bot's token (required to run the bot)
  DATABASE_PATH   SQLite database file (default: {DEFAULT_DATABASE_PATH}); one bot per file
                  (a second one refuses to start). A missing file is a new database; an existing
                  empty (0-byte) or damaged file stops the bot with a message: restore a backup.
                  Before a schema upgrade the bot copies the file to <database>.v<N>-<time>.bak
  DATABASE_URL    postgresql://user:password@host:port/database (or postgres://...): keep the
                  games on a PostgreSQL server instead of the SQLite file, for several bot
                  processes; the schema is created or upgraded at start. The password is never
                  logged. Unset (the default): SQLite
  HEARTBEAT_PATH  the heartbeat file healthcheck reads (default: <database>-alive beside the
                  SQLite file; with DATABASE_URL, "heartbeat" in DATABASE_PATH's folder, so
                  ./data/heartbeat). Give each bot process on one machine its own
  SHARD_COUNT     the bot's number of shards (Discord requires sharding from 2,500 servers);
                  unset: one connection without shards
  SHARD_IDS       the shards this process connects for, e.g. 0-1 or 0,2 (default: all of
                  SHARD_COUNT). Processes for the other shards share the database, which must
                  be PostgreSQL; each runs its own servers' timeouts, reminders, computer moves
                  and announcements (docs/OPERATIONS.md, "Several processes")
  DEV_GUILD_ID    optional server id: slash commands are synced there instantly, for development
                  (without it they are synced globally, which Discord may take a while to show)
  LOG_LEVEL       logging level, e.g. DEBUG, INFO, WARNING (default: INFO); interaction tokens,
                  DISCORD_TOKEN and the database password are never logged
  ENGINE_MOVE_TIME_SECONDS
                  how long the computer thinks per move at level 6 (default: 2)
  ENGINE_WORKERS  engine processes, each thinking for one game at a time (default: one per
                  CPU but one, at least two; with several bot processes on one machine, give
                  each its share of the CPUs)
  ENGINE_ENDGAME_DIR
                  where the engine's endgame databases are kept (default:
                  ~/.cache/draughts-bot/endgame); built at first use in the background, about a
                  minute of CPU and 38 MB for English; "off" turns them off
  ENGINE_ENDGAME_PIECES
                  the most pieces in those databases (default: 5 on 8x8 boards, 4 on
                  10x10; 6 on 8x8 is 679 MB and half an hour of CPU, 5 on 10x10 413 MB)

for tests and demos:
  CHALLENGE_EXPIRY_SECONDS    how long a challenge stays open at least (default: 900)
  CHALLENGE_EXPIRY_CAP_SECONDS
                              a challenge stays open as long as its time per move, up to
                              this (default: 86400)
  SCHEDULER_INTERVAL_SECONDS  how often reminders and timeouts are checked (default: 5)
  MOVE_TIME_SCALE             factor applied to every move time and clock (default: 1;
                              0.001 makes "1 day" 86 seconds)
  HEARTBEAT_SECONDS           how often the heartbeat file is written (default: 15)
  COMMAND_SYNC_RETRY_SECONDS  first wait before retrying a failed command sync (default: 10;
                              it doubles up to 30 minutes)

See .env.example for a template and docs/OPERATIONS.md for deploying, backups and restores.
"""

NO_TOKEN_MESSAGE = """\
error: DISCORD_TOKEN is not set.
Get a token from the Discord developer portal (https://discord.com/developers/applications):
open your application -> Bot -> Reset Token, copy it, and put it in a file named .env
in the current directory as:

    DISCORD_TOKEN=your-token-here

(or export DISCORD_TOKEN in the environment). See .env.example and `python -m bot --help`.
"""


def package_version() -> str:
    try:
        return importlib.metadata.version("draughts-bot")
    except importlib.metadata.PackageNotFoundError:  # run from a source tree never installed
        return "unknown (not installed)"


def build_parser() -> argparse.ArgumentParser:
    """The argument parser; with no command it runs the bot, and its help documents the
    settings."""
    parser = argparse.ArgumentParser(
        prog="python -m bot",
        description="Run the draughts Discord bot, or one of the operator's commands below.",
        epilog=SETTINGS_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"draughts-bot {package_version()}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", title="commands")
    backup = commands.add_parser(
        "backup", help="write a verified copy of the database (safe while the bot runs)"
    )
    backup.add_argument(
        "path", help="the backup file, or a folder to put it in (made if missing: end it with /)"
    )
    restore = commands.add_parser(
        "restore", help="replace the database with a backup (the bot must be stopped)"
    )
    restore.add_argument("backup", type=Path, help="a file written by `python -m bot backup`")
    check = commands.add_parser("healthcheck", help="exit 0 if the running bot is healthy")
    check.add_argument(
        "--max-age",
        type=float,
        default=health.DEFAULT_MAX_AGE,
        help="seconds after which the heartbeat is stale (default: %(default)s)",
    )
    migrate = commands.add_parser(
        "migrate-db",
        help="copy the SQLite database into PostgreSQL and verify the copy",
        description="Copy the SQLite database (DATABASE_PATH) into an empty PostgreSQL database "
        "in one transaction, verified before it commits: an interrupted or refused copy leaves "
        "the target empty, so running it again resumes. Stop the bot first.",
    )
    migrate.add_argument(
        "--to",
        metavar="URL",
        help="the target, postgresql://user:password@host/database (default: DATABASE_URL)",
    )
    catalogs = commands.add_parser(
        "catalogs", help="translators: update the language catalogs, add a language, check them"
    )
    catalogs.add_argument("action", choices=("update", "init", "check"))
    catalogs.add_argument("language", nargs="?", help="with init: the new language (es, pt_BR)")
    return parser


def catalogs_command(action: str, language: str | None) -> int:
    """``update``: every catalog in line with the code; ``init LANG``: a new language's catalog;
    ``check``: list what each catalog lacks (exit 1 if anything)."""
    from .i18n.catalogs import catalog_path
    from .ui import catalog_tool

    source = asyncio.run(catalog_tool.template())
    if action == "init":
        if not language:
            return _fail("say which language: python -m bot catalogs init es")
        try:
            path = catalog_tool.init_catalog(language, source)
        except (ValueError, FileExistsError) as exc:
            return _fail(str(exc))
        print(f"created {path}: translate it, then run the tests")
        return 0
    if action == "update":
        changed = catalog_tool.update_catalogs(source)
        for code in changed:
            print(f"updated {catalog_path(code)}")
        if not changed:
            print("every catalog is up to date")
        return 0
    found = [
        problem for code in available_codes() for problem in catalog_tool.problems(source, code)
    ]
    for problem in found:
        print(problem)
    print(f"{len(source)} messages; {len(found)} problems")
    return 1 if found else 0


def available_codes() -> list[str]:
    from .i18n import SOURCE, available

    return [code for code in available() if code != SOURCE]


def _fail(message: str) -> int:
    sys.stderr.write(f"error: {message}\n")
    return EXIT_FAILED


def _not_on_postgres(settings: Settings, command: str, tool: str) -> int | None:
    """The refusal of a SQLite-file command when the games live on PostgreSQL, else None."""
    if not settings.database_url:
        return None
    return _fail(
        f"{command} copies SQLite files, but DATABASE_URL is set, so the games are on the "
        f"PostgreSQL server {settings.database_shown}: use {tool} there "
        "(see docs/OPERATIONS.md)"
    )


def backup_command(settings: Settings, requested: str) -> int:
    from .store.sqlite_backup import backup_target, copy_database

    refused = _not_on_postgres(settings, "backup", "pg_dump")
    if refused is not None:
        return refused

    target = backup_target(requested, settings.database_path)
    try:
        snapshot = copy_database(settings.database_path, target)
    except StoreError as exc:
        return _fail(str(exc))
    source = settings.database_path
    print(f"wrote a verified backup of {source} to {target} ({snapshot.describe()})")
    return EXIT_OK


def restore_command(settings: Settings, backup: Path) -> int:
    from .store.sqlite_backup import restore

    refused = _not_on_postgres(settings, "restore", "pg_restore (or psql for a plain dump)")
    if refused is not None:
        return refused
    try:
        restored = restore(backup, settings.database_path)
    except StoreError as exc:
        return _fail(f"{exc}; nothing was changed")
    kept = f"; the old files are kept as {', '.join(map(str, restored.kept))}"
    print(
        f"restored {settings.database_path} from {backup} ({restored.snapshot.describe()})"
        + (kept if restored.kept else "")
    )
    return EXIT_OK


def healthcheck_command(settings: Settings, max_age: float) -> int:
    result = health.check(settings.heartbeat_file, max_age)
    (sys.stdout if result.healthy else sys.stderr).write(result.reason + "\n")
    return EXIT_OK if result.healthy else EXIT_FAILED


async def run(settings: Settings) -> None:
    """Run the bot until Discord closes the connection for good or a stop signal arrives."""
    from .ui.client import make_bot  # discord.py is imported only when the bot really runs

    bot = make_bot(settings)
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    async with bot:
        running = asyncio.create_task(bot.start(settings.token), name="discord-client")
        stopping = asyncio.create_task(stop.wait(), name="stop-signal")
        done, _ = await asyncio.wait({running, stopping}, return_when=asyncio.FIRST_COMPLETED)
        if stopping in done:
            log.info("stop signal received")
            await bot.close()
            # The client may be asleep before a reconnect (Discord unreachable): nothing is left
            # for it to do, so it is not waited for.
            running.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await running
        else:
            stopping.cancel()
            running.result()


def _open_database(settings: Settings) -> contextlib.AbstractContextManager[object]:
    """Check the database and take its lock (held until the process ends), or raise
    :class:`StoreError` with the line to show."""
    from .store.sqlite_guard import DatabaseLock, check_database, check_folder, is_file_database

    if settings.database_url:  # a server: no file to check, and several processes may share it
        return contextlib.nullcontext()
    path = settings.database_path
    if not is_file_database(path):
        return contextlib.nullcontext()
    check_folder(path)
    lock = DatabaseLock.acquire(path)
    try:
        state = check_database(path)
    except BaseException:
        lock.release()
        raise
    if state.exists:
        log.info("database %s checked (schema version %d)", path, state.schema_version)
    else:
        log.info("no database at %s yet: starting a new one", path)
    return lock


async def _check_server(settings: Settings) -> None:
    """Connect to the PostgreSQL server once before logging in to Discord (bringing the schema up
    to date), so an unreachable server or a refused password ends in one line; also make the
    heartbeat's folder."""
    from .store import open_store

    store = await open_store(str(settings.database))
    await store.close()
    log.info("database %s reachable, schema up to date", settings.database_shown)
    folder = settings.heartbeat_file.parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        log.warning("cannot make the heartbeat's folder %s: %s", folder, exc.strerror or exc)


def migrate_command(settings: Settings, target: str | None) -> int:
    from .migrate_db import migrate_to_postgres
    from .store.addresses import redact_url

    url = target or settings.database_url
    if not url:
        return _fail("say where to copy to: migrate-db --to postgresql://user:password@host/db")
    if not url.startswith(("postgresql://", "postgres://")):
        return _fail(f"--to must be a postgresql:// URL, not {redact_url(url)}")
    try:
        report = asyncio.run(migrate_to_postgres(settings.database_path, url))
    except StoreError as exc:
        return _fail(str(exc))
    for line in report:
        print(line)
    return EXIT_OK


def run_bot(settings: Settings) -> int:
    """Check what can be checked offline, then run the bot; the exit code."""
    from .logging_setup import setup_logging

    setup_logging(settings.log_level, secrets=settings.secrets())
    log.info("starting draughts-bot %s with %r", package_version(), settings)
    try:
        database = _open_database(settings)
        if settings.database_url:
            asyncio.run(_check_server(settings))
    except StoreError as exc:
        log.error("%s", exc)
        return EXIT_FAILED

    import aiohttp
    import discord

    with database:
        try:
            asyncio.run(run(settings))
        except discord.LoginFailure:
            log.error("Discord refused DISCORD_TOKEN: reset the token in the developer portal")
            return EXIT_FAILED
        except discord.PrivilegedIntentsRequired:
            log.error("Discord refused the intents; this bot needs no privileged intents")
            return EXIT_FAILED
        except StoreError as exc:
            log.error("%s", exc)
            return EXIT_FAILED
        except (aiohttp.ClientConnectionError, discord.DiscordServerError) as exc:
            log.error(
                "cannot log in to Discord (%s); check the network and https://discordstatus.com",
                " ".join(str(exc).split()) or type(exc).__name__,
            )
            return EXIT_FAILED
        except KeyboardInterrupt:
            pass
    return EXIT_OK


def main(argv: Sequence[str] | None = None) -> int:
    """Run the bot (or a command) and return the process exit code (an int rather than
    ``sys.exit``, so the console script and the tests can both use it)."""
    args = build_parser().parse_args(argv)
    if args.command == "catalogs":  # needs no settings: a translator's tool
        return catalogs_command(args.action, args.language)
    # The database, its journal, backups and the heartbeat hold players' games and ids: only
    # the bot's own user reads them (0600, folders 0700).
    os.umask(PRIVATE_UMASK)
    # Only the .env of the working directory: searching parent directories could silently pick up
    # an unrelated project's secrets. Existing environment variables take precedence.
    load_dotenv(Path.cwd() / ".env", override=False)
    running_bot = args.command is None
    try:
        settings = Settings.from_env()
    except SettingsError as exc:
        sys.stderr.write(f"error: {exc}\nSee `python -m bot --help`.\n")
        return refuse_to_start(EXIT_BAD_SETTINGS, running_bot)
    if args.command == "backup":
        return backup_command(settings, args.path)
    if args.command == "restore":
        return restore_command(settings, args.backup)
    if args.command == "healthcheck":
        return healthcheck_command(settings, args.max_age)
    if args.command == "migrate-db":
        return migrate_command(settings, args.to)
    if settings.database_url is None and not settings.shards.everything:
        sys.stderr.write(
            f"error: SHARD_IDS={','.join(map(str, sorted(settings.shards.ids)))} runs some of "
            "the bot's shards in this process, and the others need processes of their own "
            "sharing the database: that needs PostgreSQL (DATABASE_URL). A SQLite file serves "
            "one process: leave SHARD_IDS unset to run every shard here.\n"
        )
        return refuse_to_start(EXIT_BAD_SETTINGS, running_bot)
    if not settings.token:
        sys.stderr.write(NO_TOKEN_IN_CONTAINER if in_container() else NO_TOKEN_MESSAGE)
        return refuse_to_start(EXIT_NO_TOKEN, running_bot)
    hide_secrets_from_children()
    hand_settings_to_children(settings)
    return run_bot(settings)


def refuse_to_start(code: int, running_bot: bool) -> int:
    """``code`` for a start refused by a setting; in a container the bot first waits to be
    stopped (:mod:`bot.container`: a restart policy would repeat the start for ever).  The
    operator's commands (backup, healthcheck...) exit at once everywhere."""
    if running_bot and in_container() and is_main_process():
        wait_for_stop()
    return code


def hand_settings_to_children(settings: Settings) -> None:
    """Give the engine workers, which read ``ENGINE_ENDGAME_DIR`` and ``ENGINE_ENDGAME_PIECES``
    from the environment they inherit, what the settings line shows: the values as the bot read
    them (unquoted, see :func:`bot.config.env_value`), not as ``docker run --env-file`` passed
    them."""
    from engine.endgame import ENV, OFF, PIECES_ENV

    folder = settings.engine_endgame_dir
    os.environ[ENV] = OFF if folder is None else str(folder)
    if settings.engine_endgame_pieces is None:
        os.environ.pop(PIECES_ENV, None)
    else:
        os.environ[PIECES_ENV] = str(settings.engine_endgame_pieces)


def hide_secrets_from_children() -> None:
    """Take the token and the database URL out of the environment once they are read: the
    processes the bot starts (the engine and replay workers, their forkserver) need neither,
    and a process's environment can be read for as long as it runs (``/proc/PID/environ``,
    ``ps e``).  ``PGPASSWORD`` stays: the driver reads it at every new connection."""
    for name in SECRET_VARIABLES:
        os.environ.pop(name, None)
