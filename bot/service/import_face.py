"""``GameService.imports``: imported games, the one face the Discord layer's ``/import`` and the
buttons of an imported game call, handed to the rooms doing the work (:mod:`bot.service.imports`
for reading and keeping, :mod:`bot.service.analyses` for the analysis).  A face of its own keeps
the game service's face from growing, and is reached as a property, so the Discord layer still
uses methods only.
"""

from __future__ import annotations

from ..analysis_results import AnalysisView
from ..i18n import _
from ..import_results import ImportListing, ImportStart, ImportView
from .analyses import Analyses
from .imports import Imports


class ImportFace:
    """Imported games; refusals raise :class:`~bot.errors.ServiceError` (nothing changed)."""

    def __init__(self, imports: Imports, analyses: Analyses) -> None:
        self._imports = imports
        self._analyses = analyses

    async def read(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        user_id: int,
        data: bytes | str,
        game: int | None = None,
    ) -> ImportListing:
        """Read a PDN file (or pasted text) and keep its importable games, the first ones or
        game number ``game`` (:meth:`Imports.read`)."""
        return await self._imports.read(
            guild_id=guild_id, channel_id=channel_id, user_id=user_id, data=data, game=game
        )

    async def view(self, import_id: int, guild_id: int | None) -> ImportView:
        """An imported game of this server, as its message shows it."""
        return await self._imports.view(import_id, guild_id)

    async def position(self, import_id: int, guild_id: int | None, ply: int) -> tuple[str, str]:
        """The variant and FEN after ``ply`` plies of the imported game (0: its start)."""
        return await self._imports.position(import_id, guild_id, ply)

    async def start(self, import_id: int, guild_id: int | None, ply: int) -> ImportStart:
        """What a game from the position after ``ply`` plies of the imported game starts with
        (the position, the side to move there): a challenge's terms."""
        return await self._imports.start(import_id, guild_id, ply)

    async def analyse(self, import_id: int, guild_id: int | None, user_id: int) -> AnalysisView:
        """The engine's analysis of an imported game (``import:<id>``): stored, or computed now
        through the background lane (:meth:`Analyses.analyse`)."""
        row, game = await self._imports.game(import_id, guild_id)
        view = await self._imports.view(import_id, guild_id)
        return await self._analyses.analyse(
            f"import:{row.id}",
            game,
            guild_id=row.guild_id,
            user_id=user_id,
            white=view.white or "?",
            black=view.black or "?",
            title=_("Imported game #{id}", id=row.id),
            file_stem=f"draughts-import-{row.id}-analysis",
            tags={"White": view.white or "?", "Black": view.black or "?"},
        )
