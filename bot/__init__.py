"""Everything that talks to Discord or SQLite.

Planned contents: ``store`` (aiosqlite schema, migrations, queries), ``service`` (game lifecycle
without Discord types, so every command's behaviour is testable without Discord), the thin
discord.py layer (app commands, views, embeds), ``config`` and the ``__main__`` entry point.
Only ``__main__`` exists so far; the rest is built in later issues.
"""
