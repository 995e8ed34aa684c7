"""Imported games: a player's PDN file read (:func:`rules.pdn_import.read_import`, in a thread:
a large file is a second of work), its importable games kept in the store for the buttons of
the message showing them, and read back for those buttons.

A file may hold many games: at most :data:`~bot.import_results.LISTED` are read and kept at once
(the first ones, or the one the player names by its number), so the player picks one from a
list and no upload writes more than a few rows.  Nothing is kept when nothing can be imported:
the refusal says why and where (game, line, move), in the reader's language.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable

from rules.game import Game
from rules.messages import Message, MessageError
from rules.notation import show_move
from rules.pdn import move_label, read_game, write_game
from rules.pdn_import import ImportedGame, ImportRefused, read_import
from rules.variants import Color

from ..enums import ColorChoice
from ..errors import NotFoundError, ServiceError
from ..i18n import Text, _, _n, from_rules
from ..import_results import LISTED, ImportListing, ImportStart, ImportView
from ..store import ImportRow, NewImport, Store


class ImportFileError(ServiceError):
    """The file, or the game asked for, cannot be imported; the reason says what and where."""


def said(note: Message) -> Text:
    """A rules message (a refusal or a note) as catalog text."""
    return from_rules(MessageError(note))


class Imports:
    """Reading, keeping and reading back imported games."""

    def __init__(self, store: Store, clock: Callable[[], float]) -> None:
        self.store = store
        self._clock = clock

    async def read(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        user_id: int,
        data: bytes | str,
        game: int | None = None,
    ) -> ImportListing:
        """The file's games from the first (or game number ``game`` alone), read and the
        importable ones kept; :class:`ImportFileError` when none can be."""
        first, count = (1, LISTED) if game is None else (game, 1)
        try:
            file = await asyncio.to_thread(read_import, data, first=first, count=count)
        except ImportRefused as refused:
            raise ImportFileError(from_rules(refused)) from None
        if game is not None and game > file.total:
            raise ImportFileError(
                _n(
                    "the file holds {count} game: there is no game {number}",
                    "the file holds {count} games: there is no game {number}",
                    file.total,
                    number=game,
                )
            )
        reasons = tuple(said(g.refusal) for g in file.games if g.refusal is not None)
        readable = [g for g in file.games if g.game is not None]
        if not readable:
            if not file.games:
                raise ImportFileError(
                    _('no game found: PDN has tags like [Event "..."] and moves like 1. 11-15')
                )
            if len(reasons) == 1:
                raise ImportFileError(_("the game cannot be imported: {reason}", reason=reasons[0]))
            raise ImportFileError(
                _n(
                    "none of the {count} game can be imported; the first: {reason}",
                    "none of the {count} games can be imported; the first: {reason}",
                    len(reasons),
                    reason=reasons[0],
                )
            )
        now = self._clock()
        kept = [self._kept(g, guild_id, channel_id, user_id, now) for g in readable]
        ids = await self.store.add_imports([new for new, _game in kept])
        views = tuple(
            _view(import_id, new, game_read.game, game_read.notes)
            for import_id, (new, game_read) in zip(ids, kept, strict=True)
            if game_read.game is not None
        )
        return ImportListing(views, reasons, file.total, first)

    @staticmethod
    def _kept(
        read: ImportedGame, guild_id: int | None, channel_id: int, user_id: int, now: float
    ) -> tuple[NewImport, ImportedGame]:
        assert read.game is not None
        tags = dict(read.tags)
        new = NewImport(
            guild_id=guild_id,
            channel_id=channel_id,
            user_id=user_id,
            created_at=now,
            number=read.number,
            variant=read.game.variant.key,
            plies=len(read.game.moves),
            record=write_game(read.game, tags),
            tags=json.dumps(tags),
        )
        return new, read

    async def row(self, import_id: int, guild_id: int | None) -> ImportRow:
        """The kept import, if it was made in this server; :class:`NotFoundError` otherwise."""
        row = await self.store.imported(import_id)
        if row is None or row.guild_id != guild_id:
            raise NotFoundError(_("no imported game #{id} here", id=import_id))
        return row

    async def game(self, import_id: int, guild_id: int | None) -> tuple[ImportRow, Game]:
        """The kept import and its game, replayed."""
        row = await self.row(import_id, guild_id)
        return row, read_game(row.record).game

    async def view(self, import_id: int, guild_id: int | None) -> ImportView:
        row, game = await self.game(import_id, guild_id)
        return _view(row.id, row, game, ())

    async def _at(self, import_id: int, guild_id: int | None, ply: int) -> tuple[ImportRow, Game]:
        """The kept import and its game, refused for a ply the game does not have."""
        row, game = await self.game(import_id, guild_id)
        if not 0 <= ply <= len(game.moves):
            raise ImportFileError(
                _(
                    "imported game #{id} has {plies} plies: choose one from 0 to {plies}",
                    id=import_id,
                    plies=len(game.moves),
                )
            )
        return row, game

    async def position(self, import_id: int, guild_id: int | None, ply: int) -> tuple[str, str]:
        """The variant and the FEN of the position after ``ply`` plies of the import (0: its
        start)."""
        row, game = await self._at(import_id, guild_id, ply)
        return row.variant, game.positions[ply].fen()

    async def start(self, import_id: int, guild_id: int | None, ply: int) -> ImportStart:
        """What a game from the position after ``ply`` plies starts with; refused for a
        position where the game is over."""
        row, game = await self._at(import_id, guild_id, ply)
        position = game.positions[ply]
        if not position.legal_moves():
            raise ImportFileError(_("the game is over in this position: choose an earlier one"))
        color = ColorChoice.WHITE if position.turn is Color.WHITE else ColorChoice.BLACK
        return ImportStart(row.variant, position.fen(), color)


def _tag(tags: dict[str, str], name: str) -> str:
    value = tags.get(name, "").strip()
    return "" if value in ("?", "-") or set(value) <= {"?", "."} else value


def _view(
    import_id: int, new: NewImport | ImportRow, game: Game, notes: tuple[Message, ...]
) -> ImportView:
    """What the message of an import shows (``new``: as kept, or about to be)."""
    tags: dict[str, str] = json.loads(new.tags)
    return ImportView(
        id=import_id,
        user_id=new.user_id,
        number=new.number,
        variant=new.variant,
        white=_tag(tags, "White"),
        black=_tag(tags, "Black"),
        event=_tag(tags, "Event"),
        date=_tag(tags, "Date"),
        result=game.result(),
        plies=len(game.moves),
        moves=tuple(
            f"{move_label(ply, game.start)} {show_move(move, game.variant)}"
            for ply, move in enumerate(game.moves)
        ),
        record=new.record,
        notes=tuple(said(note) for note in notes),
    )
