"""Board images with Pillow: a PNG per position and an animated GIF per game.

Built on ``rules`` only; knows nothing of Discord, SQLite or asyncio. Not implemented yet.
"""
