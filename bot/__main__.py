"""Entry point: ``python -m bot`` or the ``draughts-bot`` console script.

The Discord layer is built in a later issue. Until then this entry point already does the parts that
must not change later: it loads settings from the environment or ``.env``, documents them in
``--help``, and fails with a clear, actionable message instead of a traceback.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from dotenv import load_dotenv

DEFAULT_DATABASE_PATH = "./data/draughts.db"

EXIT_NO_TOKEN = 2
EXIT_NOT_AVAILABLE = 3

SETTINGS_HELP = f"""\
settings (environment variables, or lines NAME=value in ./.env; the environment wins):
  DISCORD_TOKEN   the bot's token (required)
  DATABASE_PATH   SQLite database file (default: {DEFAULT_DATABASE_PATH})
  DEV_GUILD_ID    optional server id: slash commands are synced there instantly, for development
  LOG_LEVEL       logging level, e.g. DEBUG, INFO, WARNING (default: INFO)

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

NOT_AVAILABLE_MESSAGE = """\
error: the Discord layer is not available in this version (it is built in a later milestone);
this release contains the rules engine only (`python -m rules`, see README.md).
"""


def build_parser() -> argparse.ArgumentParser:
    """Build the argument parser; it takes no options yet and exists to document the settings."""
    return argparse.ArgumentParser(
        prog="python -m bot",
        description="Run the draughts Discord bot.",
        epilog=SETTINGS_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Run the bot and return the process exit code.

    Returns an int rather than calling ``sys.exit`` so the console script wrapper and tests can
    both use it. The token is only checked for presence and is never printed.
    """
    build_parser().parse_args(argv)
    # Only the .env of the working directory: searching parent directories could silently pick up
    # an unrelated project's secrets. Existing environment variables take precedence.
    load_dotenv(Path.cwd() / ".env", override=False)

    token = os.environ.get("DISCORD_TOKEN", "").strip()
    if not token:
        sys.stderr.write(NO_TOKEN_MESSAGE)
        return EXIT_NO_TOKEN

    sys.stderr.write(NOT_AVAILABLE_MESSAGE)
    return EXIT_NOT_AVAILABLE


if __name__ == "__main__":
    sys.exit(main())
