"""The Discord client: start-up order, command sync, background work and shutdown.

Start-up (``setup_hook``, after login and before the gateway connects, so before any interaction
can arrive): open the database (migrating it), put the gate that leaves the interactions of
another process's shards to it (:mod:`bot.ui.shard_gate`), build the command groups around it,
register the persistent buttons, start the scheduler (whose first check lets the computer move
where it was its turn).  Everything a command group or a button needs is handed to it here, as
discord.py's ``advanced_startup.py`` hands its pool to the bot: nothing reaches back into the
client.  Two background tasks start with it: the command sync (:mod:`bot.ui.command_sync`, once
the gateway is ready, only when the commands changed, never able to stop the bot) and the
heartbeat file that ``python -m bot healthcheck`` reads (:mod:`bot.health`).
Shutdown: stop the background tasks and the scheduler, let the game actions in flight finish their
transactions, close the database, then the connection to Discord, each in bounded time, so the
process exits within :data:`STOP_SECONDS` of SIGTERM whatever Discord or the database does: a stop
while Discord is unreachable must not wait for a reconnect, nor one while the database hangs for
its answer (Docker kills after ten seconds).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Coroutine
from typing import Any

import discord
from discord.ext import commands

from .. import health
from ..config import Settings
from ..engine_player import EngineComputer
from ..scheduler import Scheduler
from ..service import GameService, StoreUnavailable
from .analysis import Analysis
from .board_actions import BoardActions
from .buttons import Buttons
from .challenges import Challenges
from .command_sync import CommandSync
from .hints import Hints
from .import_buttons import ImportKit
from .imports import Imports
from .info import Info
from .languages import Languages
from .lobby import Lobby, LobbyKit
from .media import Media
from .offers import Offers
from .picker import Picker
from .picker_items import PickerKit
from .play import Play
from .prefs import Prefs
from .presenter import Presenter
from .shard_gate import InteractionGate
from .social import Social
from .tournament_buttons import TournamentKit
from .tournament_delivery import TournamentPosts
from .tournaments import Tournaments
from .translator import CatalogTranslator
from .validation import CheckedTree

log = logging.getLogger(__name__)

SHUTDOWN_GRACE_SECONDS = 3.0
"""How long a shutdown waits for interactions still posting (a replay GIF takes about a second to
draw); with the rest of the shutdown well inside the ten seconds Docker and systemd allow before
they kill the process."""
DISCONNECT_SECONDS = 1.5
"""How long a shutdown waits for Discord to acknowledge the gateway's close (it may be
unreachable: then there is nothing to close politely)."""
DATABASE_CLOSE_SECONDS = 1.5
"""How long a shutdown waits for the last writes and the database's close; past it the
connections are dropped (a hung database rolls back what it was writing)."""
ABANDONED_SECONDS = 0.5
"""How long a shutdown that dropped the database's connections waits for the interactions that
were waiting on it: they fail at once, and tell their players to try again."""
BACKGROUND_STOP_SECONDS = 0.5
"""How long a shutdown waits for a background task (the scheduler's check, the heartbeat's
database ping) to end once cancelled."""
STOP_SECONDS = 10
"""What the operator is promised (docs/OPERATIONS.md): the process exits within this many
seconds of SIGTERM.  The waits above add up to nine at most (the scheduler and the background
tasks, the interactions, the database, the interactions again, Discord)."""
PING_SECONDS = 2.0
"""How long the heartbeat waits for the database to answer ``SELECT 1`` before it reports the
bot unhealthy."""

INVITE_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    create_public_threads=True,
    embed_links=True,
    attach_files=True,
    read_message_history=True,
)
"""What the bot needs in a channel: see its games, post boards (embeds with images) and records,
and open a thread when the channel already has a game."""

# The bot never joins voice channels: no warnings about voice libraries at every start.
discord.VoiceClient.warn_nacl = False
discord.VoiceClient.warn_dave = False


def intents() -> discord.Intents:
    """Only the guilds intent: channels and threads for posting.  Slash commands and buttons
    arrive as interactions whatever the intents, and no privileged intent is needed."""
    return discord.Intents(guilds=True)


class DraughtsBot(commands.Bot):
    """The bot process's one client: one connection for every server (no shard is configured);
    :class:`ShardedDraughtsBot` is the same for some shards."""

    def __init__(self, settings: Settings, **client_options: Any) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            help_command=None,
            intents=intents(),
            allowed_mentions=discord.AllowedMentions.none(),
            tree_cls=CheckedTree,  # every command's options checked again (validation.py)
            **client_options,
        )
        self.settings = settings
        self.shards_up: set[int] = set()
        """The shards whose gateway connection is up (the unsharded client's is shard 0)."""
        self.media = Media()
        self.closing = False
        self._service: GameService | None = None
        self._presenter: Presenter | None = None
        self._scheduler: Scheduler | None = None
        self._background: list[asyncio.Task[None]] = []
        self.computer: EngineComputer | None = None
        self.heartbeat_file = settings.heartbeat_file
        self.gateway_up = False
        self._gateway_changed = asyncio.Event()
        self._database_down = False

    def invite_url(self) -> str:
        """The link that adds the bot to a server with the permissions and scopes it needs."""
        return discord.utils.oauth_url(
            self.application_id or 0,
            permissions=INVITE_PERMISSIONS,
            scopes=("bot", "applications.commands"),
        )

    async def setup_hook(self) -> None:
        assert self.user is not None
        self.computer = EngineComputer(
            self.settings.engine_move_time, workers=self.settings.engine_workers
        )
        service = await GameService.open(
            self.settings.database,
            bot_user_id=self.user.id,
            bot_name=self.user.display_name,
            challenge_expiry=self.settings.challenge_expiry,
            challenge_expiry_cap=self.settings.challenge_expiry_cap,
            computer=self.computer,
            shards=self.settings.shards,
        )
        if self.closing:  # stopped while the database was opening: close() did not see it
            await service.close()
            return
        self._service = service
        # Interactions of a shard another process holds are its to answer (a rolling restart).
        InteractionGate(service, self._connection.parsers).install()
        await self.tree.set_translator(CatalogTranslator())  # commands in every catalog language
        presenter = await self.add_commands(service)
        self._presenter = presenter
        service.on_background = presenter.delivery.on_event  # the computer's replies nobody claimed
        service.hear_by(lambda: self.gateway_up)  # no flag falls while players are unheard
        # The scheduler's first check, at once, makes the computer's moves that were pending
        # when the bot stopped (in the background: a start-up never waits for the engine).
        self._scheduler = Scheduler(
            service,
            presenter.delivery.on_event,
            self.settings.scheduler_interval,
            deliver_owed=presenter.delivery.deliver_owed,
            hearing=lambda: self.gateway_up,
        )
        self._scheduler.start()
        invite = self.invite_url()
        log.info("invite the bot to a server with %s", invite)
        if self.settings.shards.global_work:  # the commands are the whole bot's: one process
            guild_id = self.settings.dev_guild_id
            if guild_id is not None:
                self.tree.copy_global_to(guild=discord.Object(guild_id))
            sync = CommandSync(
                self,
                service,
                guild_id,
                first_retry=self.settings.sync_retry,
                invite_url=invite,
            )
            self._in_background(sync.run(), "command-sync")
        self._in_background(self._heartbeat(), "heartbeat")
        self._listen_to_gateway()
        log.info(
            "ready to serve %s (database %s)",
            self.settings.shards,
            self.settings.database_shown,
        )

    def _in_background(self, work: Coroutine[Any, Any, None], name: str) -> None:
        task = asyncio.create_task(work, name=name)
        task.add_done_callback(_report_crash)
        self._background.append(task)

    def _listen_to_gateway(self) -> None:
        """Keep :attr:`gateway_up`: players can reach this process when its connection is up
        (ready with its servers, or resumed)."""
        for event, up in (("on_ready", True), ("on_resumed", True), ("on_disconnect", False)):
            self.add_listener(self._gateway_listener(up), event)

    def _gateway_listener(self, up: bool) -> Callable[[], Coroutine[Any, Any, None]]:
        async def listener() -> None:
            self._shard_changed(0, up)

        return listener

    def _shard_changed(self, shard_id: int, up: bool) -> None:
        (self.shards_up.add if up else self.shards_up.discard)(shard_id)
        self.gateway_up = self.settings.shards.ids <= self.shards_up
        self._gateway_changed.set()  # beat at once on (re)connecting

    async def _heartbeat(self) -> None:
        """Write the heartbeat file while the bot is alive: connected to the gateway, its
        scheduler running; with the problems that keep it from doing its job (:meth:`_problems`).
        A missed beat, or a beat with a problem, is what the health check notices."""
        while True:
            scheduler = self._scheduler
            if self.gateway_up and scheduler is not None and scheduler.running:
                problems = await self._problems()
                try:
                    await asyncio.to_thread(health.beat, self.heartbeat_file, None, problems)
                except OSError as exc:
                    log.warning("cannot write the heartbeat %s: %s", self.heartbeat_file, exc)
            self._gateway_changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(
                    self._gateway_changed.wait(), self.settings.heartbeat_interval
                )

    async def _problems(self) -> list[str]:
        """What keeps the bot from serving players now, one line each: a database that does not
        answer within :data:`PING_SECONDS` (said in the log once when it starts and once when
        it ends), worker processes that cannot start (the computer's searches, the replays)."""
        problems: list[str] = []
        if self._service is not None:
            try:
                await self._service.database_answers(PING_SECONDS)
            except StoreUnavailable as exc:
                problems.append(f"database: {exc}")
        database_down = bool(problems)
        if database_down != self._database_down:
            if database_down:
                log.warning("healthcheck: unhealthy, %s", problems[0])
            else:
                log.info("healthcheck: the database answers again")
            self._database_down = database_down
        pools = [self.media.replays] + ([] if self.computer is None else [self.computer.pool])
        problems += [problem for pool in pools if (problem := pool.problem) is not None]
        return problems

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
            languages=Languages(service),
            closing=lambda: self.closing,
            move_time_scale=self.settings.move_time_scale,
        )
        challenges = Challenges(service, presenter, buttons, self)
        offers = Offers(service, presenter, buttons)
        picker_kit = PickerKit()
        picker = Picker(service, presenter, picker_kit)
        lobby_kit = LobbyKit()
        lobby = Lobby(service, presenter, challenges, lobby_kit, self)
        actions = BoardActions(service, presenter, buttons, offers)
        tournament_kit = TournamentKit()
        delivery = presenter.delivery
        posts = TournamentPosts(service, self, tournament_kit, presenter.languages, delivery)
        delivery.tournaments = posts.post  # the outbox's tournament announcements
        tournaments = Tournaments(service, presenter, tournament_kit, posts)
        analysis = Analysis(service, presenter)
        import_kit = ImportKit()
        imports = Imports(service, presenter, import_kit, challenges)
        for cog in (
            challenges,
            lobby,
            Play(service, presenter),
            offers,
            Info(service, presenter),
            Social(service, presenter, tournament_kit),
            Prefs(service, presenter),
            tournaments,
            analysis,
            imports,
        ):
            await self.add_cog(cog)
        self.add_dynamic_items(
            *buttons.answered_by(
                challenges=challenges,
                offers=offers,
                board=picker,
                actions=actions,
                analyses=analysis,
                hints=Hints(service, presenter),
            ),
            *picker_kit.answered_by(picker),
            *lobby_kit.answered_by(lobby),
            *tournament_kit.answered_by(tournaments),
            *import_kit.answered_by(imports),
        )
        return presenter

    def dispatch(self, event_name: str, /, *args: Any, **kwargs: Any) -> None:
        """Events of a client whose close has finished are dropped: discord.py's wait before
        ``on_ready`` (2 s after the last server arrives) is not cancelled by ``close()``, so a
        stop within those seconds had it dispatch ``ready`` to a client with no event loop left,
        and log a traceback on the way out."""
        if self.loop is discord.utils.MISSING:
            return
        super().dispatch(event_name, *args, **kwargs)

    async def close(self) -> None:
        if self.closing:
            return await super().close()
        self.closing = True
        log.info("shutting down")
        for task in self._background:
            task.cancel()
        if self._background:
            await asyncio.wait(self._background, timeout=BACKGROUND_STOP_SECONDS)
        await asyncio.to_thread(health.clear, self.heartbeat_file)
        if self._scheduler is not None and not await _within(
            BACKGROUND_STOP_SECONDS, self._scheduler.stop()
        ):
            log.warning("the scheduler did not stop within %g s", BACKGROUND_STOP_SECONDS)
        if self._service is not None:  # searches stop; interactions waiting on them go on
            await self._service.stop_thinking()
        if self._presenter is not None:
            await self._presenter.drain(SHUTDOWN_GRACE_SECONDS)
        service = self._service
        if service is not None and not await _within(DATABASE_CLOSE_SECONDS, service.close()):
            log.warning(
                "the database did not close within %g s; dropping its connections",
                DATABASE_CLOSE_SECONDS,
            )
            service.abandon()
            if self._presenter is not None:
                await self._presenter.drain(ABANDONED_SECONDS)
        # Closing the gateway politely waits for Discord's answer; unreachable, it never comes.
        # Closing the HTTP session drops that connection too, and the close completes (it is not
        # cancelled: discord.py awaits the same close again on the way out).
        closing = asyncio.ensure_future(super().close())
        done, _ = await asyncio.wait({closing}, timeout=DISCONNECT_SECONDS)
        if not done:
            log.info("Discord did not answer the disconnect; dropping the connection")
            await self.http.close()
            await asyncio.wait({closing}, timeout=DISCONNECT_SECONDS)
        await asyncio.to_thread(self.media.close)
        if self.computer is not None:
            await asyncio.to_thread(self.computer.close)
        log.info("stopped")


async def _within(seconds: float, closing: Coroutine[Any, Any, None]) -> bool:
    """Run ``closing`` for at most ``seconds``; whether it finished (else it was cancelled)."""
    try:
        async with asyncio.timeout(seconds):
            await closing
    except TimeoutError:
        return False
    return True


def _report_crash(task: asyncio.Task[None]) -> None:
    """A background task that died of a bug says so (it would otherwise vanish silently)."""
    if not task.cancelled() and (error := task.exception()) is not None:
        log.error("background task %s failed", task.get_name(), exc_info=error)


class ShardedDraughtsBot(DraughtsBot, commands.AutoShardedBot):
    """The bot for the shards ``SHARD_IDS`` of ``SHARD_COUNT`` (all of them without
    ``SHARD_IDS``), each on its own gateway connection.  Players can reach this process only
    while every one of its shards is connected: the scheduler pauses for all of its servers
    otherwise, and the silence is given back to their clocks (:mod:`bot.service.downtime`)."""

    def __init__(self, settings: Settings) -> None:
        shards = settings.shards
        super().__init__(settings, shard_count=shards.count, shard_ids=sorted(shards.ids))

    def _listen_to_gateway(self) -> None:
        for event, up in (
            ("on_shard_ready", True),
            ("on_shard_resumed", True),
            ("on_shard_disconnect", False),
        ):
            self.add_listener(self._shard_listener(up), event)

    def _shard_listener(self, up: bool) -> Callable[[int], Coroutine[Any, Any, None]]:
        async def listener(shard_id: int) -> None:
            self._shard_changed(shard_id, up)

        return listener


def make_bot(settings: Settings) -> DraughtsBot:
    """The client the settings ask for: sharded when ``SHARD_COUNT`` is set."""
    if settings.shard_count is None:
        return DraughtsBot(settings)
    return ShardedDraughtsBot(settings)
