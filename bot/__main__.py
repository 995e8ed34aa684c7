"""Entry point: ``python -m bot`` or the ``draughts-bot`` console script.

Loads settings from the environment or ``.env``, documents them in ``--help``, fails with a clear,
actionable message instead of a traceback, logs through discord.py's logging setup (the token is
never printed), and shuts down gracefully on SIGTERM or Ctrl-C: the game actions in flight finish
their transactions and the database is closed before the process exits.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal
import sys
from collections.abc import Sequence
from pathlib import Path

from dotenv import load_dotenv

from .config import DEFAULT_DATABASE_PATH, Settings, SettingsError

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_NO_TOKEN = 2
EXIT_BAD_SETTINGS = 2

log = logging.getLogger("bot")

SETTINGS_HELP = f"""\
settings (environment variables, or lines NAME=value in ./.env; the environment wins):
  DISCORD_TOKEN   the bot's token (required)
  DATABASE_PATH   SQLite database file (default: {DEFAULT_DATABASE_PATH})
  DEV_GUILD_ID    optional server id: slash commands are synced there instantly, for development
                  (without it they are synced globally, which Discord may take a while to show)
  LOG_LEVEL       logging level, e.g. DEBUG, INFO, WARNING (default: INFO)
  ENGINE_MOVE_TIME_SECONDS
                  how long the computer thinks per move at level 6 (default: 2)

for tests and demos:
  CHALLENGE_EXPIRY_SECONDS    how long a challenge stays open (default: 900)
  SCHEDULER_INTERVAL_SECONDS  how often reminders and timeouts are checked (default: 5)
  MOVE_TIME_SCALE             factor applied to every move time (default: 1; 0.001 makes
                              "1 day" 86 seconds)

See .env.example for a template.
"""

NO_TOKEN_MESSAGE = """\
error: DISCORD_TOKEN is not set.
Get a token from the Discord developer portal (https://discord.com/developers/applications):
open your application -> Bot -> Reset Token, copy it, and put it in a file named .env
in the current directory as:

    DISCORD_TOKEN=your-token-here

(or export DISCORD_TOKEN in the environment). See .env.example and `python -m bot --help`.
"""


def build_parser() -> argparse.ArgumentParser:
    """The argument parser; it takes no options and exists to document the settings."""
    return argparse.ArgumentParser(
        prog="python -m bot",
        description="Run the draughts Discord bot.",
        epilog=SETTINGS_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )


async def run(settings: Settings) -> None:
    """Run the bot until Discord closes the connection for good or a stop signal arrives."""
    from .ui.client import DraughtsBot  # discord.py is imported only when the bot really runs

    bot = DraughtsBot(settings)
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
            with contextlib.suppress(asyncio.CancelledError):
                await running
        else:
            stopping.cancel()
        running.result()


def main(argv: Sequence[str] | None = None) -> int:
    """Run the bot and return the process exit code (an int rather than ``sys.exit``, so the
    console script and the tests can both use it)."""
    build_parser().parse_args(argv)
    # Only the .env of the working directory: searching parent directories could silently pick up
    # an unrelated project's secrets. Existing environment variables take precedence.
    load_dotenv(Path.cwd() / ".env", override=False)
    try:
        settings = Settings.from_env()
    except SettingsError as exc:
        sys.stderr.write(f"error: {exc}\nSee `python -m bot --help`.\n")
        return EXIT_BAD_SETTINGS
    if not settings.token:
        sys.stderr.write(NO_TOKEN_MESSAGE)
        return EXIT_NO_TOKEN

    import discord

    discord.utils.setup_logging(level=getattr(logging, settings.log_level), root=True)
    log.info("starting with %r", settings)
    try:
        asyncio.run(run(settings))
    except discord.LoginFailure:
        log.error("Discord refused the token in DISCORD_TOKEN; reset it in the developer portal")
        return EXIT_FAILED
    except discord.PrivilegedIntentsRequired:
        log.error("Discord refused the intents; this bot needs no privileged intents")
        return EXIT_FAILED
    except Exception as exc:
        from .store import StoreError

        if isinstance(exc, StoreError):
            log.error("%s", exc)
            return EXIT_FAILED
        raise
    except KeyboardInterrupt:
        pass
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
