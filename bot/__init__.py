"""Everything that talks to Discord or a database, in rooms of one job each.

``store`` is the storage protocol and its SQLite implementation; ``service`` is every game action
without Discord types or SQL; ``ui`` is the discord.py layer; ``scheduler``, ``engine_player``,
``config`` and ``__main__`` run the bot.  Dependencies point one way, ``ui -> service -> store``
(see docs/ARCHITECTURE.md).
"""
