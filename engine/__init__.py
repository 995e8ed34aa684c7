"""The computer opponent: search and evaluation on top of ``rules`` only.

Knows nothing of Discord, SQLite or asyncio. Not implemented yet.
"""
