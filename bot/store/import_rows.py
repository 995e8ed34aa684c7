"""The rows of imported games (schema v16), kept apart from :mod:`bot.store.rows` as the
tournaments' are: the store keeps a game a player imported for the buttons that show it."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class NewImport:
    """A game read from a player's PDN file, about to be kept."""

    guild_id: int | None
    channel_id: int
    user_id: int
    created_at: float
    number: int
    """Its place in the file, from 1."""
    variant: str
    plies: int
    record: str
    """The game as the bot writes PDN (:func:`rules.pdn.write_game`)."""
    tags: str
    """The file's tags for the game, as a JSON object."""


@dataclass(frozen=True)
class ImportRow:
    """A kept import: :class:`NewImport`'s fields after its id."""

    id: int
    guild_id: int | None
    channel_id: int
    user_id: int
    created_at: float
    number: int
    variant: str
    plies: int
    record: str
    tags: str
