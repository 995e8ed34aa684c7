"""The Discord client: start-up order, command sync, background work and shutdown.

Start-up (``setup_hook``, after login and before the gateway connects, so before any interaction
can arrive): open the database (migrating it), build the command groups around it, register the
persistent buttons, sync the commands, start the scheduler (whose first check lets the computer
move where it was its turn).  Everything a command group or a button needs is handed to it here,
as discord.py's ``advanced_startup.py`` hands its pool to the bot: nothing reaches back into the
client.
Shutdown: stop the scheduler, let the game actions in flight finish their transactions, close the
database, then the connection to Discord.
"""

from __future__ import annotations

import asyncio
import logging

import discord
from discord.ext import commands

from ..config import Settings
from ..engine_player import EngineComputer
from ..scheduler import Scheduler
from ..service import GameService
from .buttons import Buttons
from .challenges import Challenges
from .info import Info
from .media import Media
from .offers import Offers
from .play import Play
from .presenter import Presenter
from .social import Social

log = logging.getLogger(__name__)

SHUTDOWN_GRACE_SECONDS = 5.0
"""How long a shutdown waits for interactions still posting (a replay GIF takes about a second to
draw); well inside the ten seconds Docker and systemd allow before they kill the process."""

# The bot never joins voice channels: no warnings about voice libraries at every start.
discord.VoiceClient.warn_nacl = False
discord.VoiceClient.warn_dave = False


def intents() -> discord.Intents:
    """Only the guilds intent: channels and threads for posting.  Slash commands and buttons
    arrive as interactions whatever the intents, and no privileged intent is needed."""
    return discord.Intents(guilds=True)


class DraughtsBot(commands.Bot):
    """The bot process's one client."""

    def __init__(self, settings: Settings) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            help_command=None,
            intents=intents(),
            allowed_mentions=discord.AllowedMentions.none(),
        )
        self.settings = settings
        self.media = Media()
        self.closing = False
        self._service: GameService | None = None
        self._presenter: Presenter | None = None
        self._scheduler: Scheduler | None = None
        self.computer: EngineComputer | None = None

    async def setup_hook(self) -> None:
        assert self.user is not None
        self.computer = EngineComputer(self.settings.engine_move_time)
        service = await GameService.open(
            self.settings.database_path,
            bot_user_id=self.user.id,
            bot_name=self.user.display_name,
            challenge_expiry=self.settings.challenge_expiry,
            computer=self.computer,
        )
        self._service = service
        presenter = await self.add_commands(service)
        self._presenter = presenter
        await self._sync_commands()
        # The scheduler's first check, at once, makes the computer's moves that were pending
        # when the bot stopped (in the background: a start-up never waits for the engine).
        self._scheduler = Scheduler(service, presenter.on_event, self.settings.scheduler_interval)
        self._scheduler.start()
        log.info("ready to serve (database %s)", self.settings.database_path)

    async def add_commands(self, service: GameService) -> Presenter:
        """Add the command groups, in the order Discord lists them, and register the buttons
        whose presses they answer; the presenter they share (it also posts the scheduler's
        events).  Needs no connection, so the commands' payload can be read without one."""
        buttons = Buttons()
        presenter = Presenter(
            service,
            self.media,
            self,
            buttons,
            closing=lambda: self.closing,
            move_time_scale=self.settings.move_time_scale,
        )
        challenges = Challenges(service, presenter, buttons, self)
        offers = Offers(service, presenter, buttons)
        for cog in (
            challenges,
            Play(service, presenter),
            offers,
            Info(service, presenter),
            Social(service, presenter),
        ):
            await self.add_cog(cog)
        self.add_dynamic_items(*buttons.answered_by(challenges=challenges, offers=offers))
        return presenter

    async def _sync_commands(self) -> None:
        guild_id = self.settings.dev_guild_id
        if guild_id is not None:
            guild = discord.Object(guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d commands to the development server %s", len(synced), guild_id)
        else:
            synced = await self.tree.sync()
            log.info("synced %d commands globally (may take a while to appear)", len(synced))

    async def close(self) -> None:
        if self.closing:
            return await super().close()
        self.closing = True
        log.info("shutting down")
        if self._scheduler is not None:
            await self._scheduler.stop()
        if self._presenter is not None:
            await self._presenter.drain(SHUTDOWN_GRACE_SECONDS)
        if self._service is not None:
            await self._service.close()
        await super().close()
        await asyncio.to_thread(self.media.close)
        if self.computer is not None:
            await asyncio.to_thread(self.computer.close)
        log.info("stopped")
