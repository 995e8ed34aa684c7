"""``/tournament``: creating an event, its standings, this server's events, and the moderators'
actions; and the answers to the announcement's buttons.

A moderator (Manage Server, as for ``/settings``) creates an event in a text channel; from then
on its announcement there is where everything happens: players join and leave by its buttons,
anyone gets the standings from it, and a moderator's **Manage** opens a private panel (Start
now, Pause, Resume, Cancel), so running an event needs no typing after the creation.  The
commands do the same for those who type, plus dropping a player and fixing a result (with the
reason, shown to everyone).  Every check runs before anything is written: a refusal is private.
What a change announces is posted in the event's channel by the delivery
(:mod:`bot.ui.tournament_delivery`), exactly once.
"""

from __future__ import annotations

import time

import discord
from discord import app_commands
from discord.ext import commands

from ..enums import TournamentStatus
from ..errors import ForbiddenError, NotFoundError, TournamentError
from ..i18n import _, _n
from ..markdown import shown
from ..results import (
    MAX_RATING,
    MIN_RATING,
    ActionResult,
    AnswerBy,
    TimeControl,
    TournamentSpec,
    TournamentView,
)
from ..service import GameService
from ..tournaments.model import Format
from .choices import (
    FIXED_POINTS,
    MAX_CLOCK_TEXT,
    MAX_GAME_ID,
    ByeOption,
    FixedResultOption,
    FormatOption,
    MoveTimeOption,
    VariantOption,
    clock_choices,
)
from .cooldowns import Post
from .limits import CONTENT
from .presenter import Presenter, player_of
from .replies import Reply, Upload
from .social import is_moderator
from .threads import thread_home
from .tournament_buttons import MODERATOR_ACTIONS, TournamentAction, TournamentKit
from .tournament_delivery import TournamentPosts, is_over, standings_post
from .tournament_embeds import (
    FORMAT_TITLES,
    listing_embed,
    number_choices,
    pairing_choice,
    tournament_choice,
)
from .tournament_terms import (
    MAX_START_TEXT,
    check_format_options,
    check_rating_range,
    start_choices,
    start_time,
)
from .validation import checked_id
from .wording import say

TournamentId = app_commands.Range[int, 1, MAX_GAME_ID]
"""A tournament's number (its footer and ``/tournament list`` show it)."""


def moderator_only(interaction: discord.Interaction) -> None:
    """Refuse, privately, anyone who may not manage the server."""
    if not is_moderator(interaction):
        raise ForbiddenError(_("only moderators (Manage Server) can do that to a tournament"))


class Tournaments(commands.Cog):
    """Tournaments: created by moderators, joined by buttons, run by the bot."""

    tournament = app_commands.Group(
        name="tournament",
        description="Tournaments in this server: create, standings, list, moderators' actions",
        guild_only=True,
        allowed_contexts=app_commands.AppCommandContext(guild=True),
    )

    def __init__(
        self,
        service: GameService,
        presenter: Presenter,
        kit: TournamentKit,
        posts: TournamentPosts,
    ) -> None:
        self.service = service
        self.presenter = presenter
        self.kit = kit
        self.posts = posts

    # -- creating ----------------------------------------------------------------------------

    @tournament.command(name="create", description="Create a tournament here (moderators)")
    @app_commands.describe(
        format="Swiss (set rounds), round robin (everyone meets everyone) or arena (set time)",
        name="The tournament's name (default: its format and the date)",
        variant="Which draughts variant (default: the server's)",
        move_time="Time for each move, for a correspondence event (default: the server's)",
        clock="A clock for live games: minutes + seconds added per move, like 3+2",
        rated="Whether the games count for ratings (default: yes)",
        rounds="Swiss: how many rounds (default: enough for the number of players)",
        double="Round robin: everyone meets everyone twice, colours swapped (default: no)",
        duration="Arena: how long it lasts, in minutes",
        start="When it starts: minutes from now (15, 2h) or a UTC time (21:30); default: by hand",
        min_rating="The lowest rating that may join",
        max_rating="The highest rating that may join",
        max_players="How many may join at most",
        forfeit_wait="Minutes a player may take to make a first move before losing by forfeit",
        berserk="Arena with a clock: players may halve their clock for an extra point on a win",
        bye="Swiss: what a bye scores (default: 1 point)",
    )
    async def create(
        self,
        interaction: discord.Interaction,
        format: FormatOption,
        name: app_commands.Range[str, 1, 80] | None = None,
        variant: VariantOption | None = None,
        move_time: MoveTimeOption | None = None,
        clock: app_commands.Range[str, 1, MAX_CLOCK_TEXT] | None = None,
        rated: bool = True,
        rounds: app_commands.Range[int, 1, 30] | None = None,
        double: bool | None = None,
        duration: app_commands.Range[int, 5, 10080] | None = None,
        start: app_commands.Range[str, 1, MAX_START_TEXT] | None = None,
        min_rating: app_commands.Range[int, MIN_RATING, MAX_RATING] | None = None,
        max_rating: app_commands.Range[int, MIN_RATING, MAX_RATING] | None = None,
        max_players: app_commands.Range[int, 2, 1000] | None = None,
        forfeit_wait: app_commands.Range[int, 1, 10080] | None = None,
        berserk: bool | None = None,
        bye: ByeOption | None = None,
    ) -> None:
        async def work(reply: Reply) -> None:
            moderator_only(interaction)
            kind = Format(format)
            if clock is not None and move_time is not None:
                raise TournamentError(_("choose a clock or a time per move, not both"))
            control = None if clock is None else TimeControl.parse(clock)
            check_format_options(
                kind,
                rounds=rounds,
                double=double,
                duration_minutes=duration,
                berserk=berserk,
                clocked=control is not None,
                bye=bye,
            )
            check_rating_range(min_rating, max_rating)
            thread_home(interaction, busy=False)  # its games' threads hang off this channel
            now = time.time()
            scale = self.presenter.move_time_scale
            at = None if start is None else start_time(start, now, scale)
            server = await self.service.server_settings(interaction.guild_id)
            code = await self.presenter.languages.public(interaction.guild_id)
            scaled = None if control is None else control.scaled(scale)
            spec = TournamentSpec(
                name=name or say(FORMAT_TITLES[kind], code),
                format=kind,
                variant=variant or server.variant,
                move_time=None
                if scaled is not None
                else self.presenter.seconds(move_time or server.move_time),
                clock=scaled,
                rated=rated,
                rounds=rounds,
                double=bool(double),
                duration=None if duration is None else duration * 60 * scale,
                starts_at=at,
                min_rating=min_rating,
                max_rating=max_rating,
                max_players=max_players,
                forfeit_after=None if forfeit_wait is None else forfeit_wait * 60 * scale,
                berserk=bool(berserk),
                bye_points=1.0 if bye is None else float(bye),
            )
            assert interaction.channel_id is not None and interaction.guild_id is not None
            result = await self.service.tournaments.create(
                interaction.guild_id,
                interaction.channel_id,
                player_of(interaction.user),
                spec,
                now,
                is_moderator=True,
            )
            answer = AnswerBy(interaction.id, interaction.channel_id, interaction.token)
            delivery = self.presenter.delivery
            async with delivery.handing(result, answer=answer) as posted:
                await self.posts.announce(posted.counting(reply.public), result, code)

        await self.presenter.run(interaction, work)

    @create.autocomplete("clock")
    async def clock_suggestions(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return clock_choices(current, self.presenter.languages.private(interaction))

    @create.autocomplete("start")
    async def start_suggestions(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        code = self.presenter.languages.private(interaction)
        return start_choices(current, time.time(), code)

    # -- looking -----------------------------------------------------------------------------

    @tournament.command(name="standings", description="A tournament's standings")
    @app_commands.describe(tournament="Which one (default: this server's current one)")
    async def standings(
        self, interaction: discord.Interaction, tournament: TournamentId | None = None
    ) -> None:
        async def work(reply: Reply) -> None:
            view = await self._chosen(interaction, tournament)
            await self._show_standings(reply, interaction, view)

        await self.presenter.run(interaction, work)

    async def _show_standings(
        self, reply: Reply, interaction: discord.Interaction, view: TournamentView
    ) -> None:
        """The standings: posted for everyone when a player of the event asks (within the
        quiet channel's limits), otherwise shown to the one who asked."""
        playing = any(p.id == interaction.user.id for p in view.players)
        held = None
        if playing and interaction.channel_id is not None:
            held = self.presenter.cooldowns.held_back(
                Post.STANDINGS, interaction.user.id, interaction.channel_id
            )
        if not playing or held is not None:
            out = await standings_post(view, reply.language, viewer=interaction.user.id)
            if held is not None:  # the note, and the text version if both fit one message
                note = reply.words(held)
                both = f"{note}\n{out.content}"
                out.content = both if len(both) <= CONTENT else note
            await reply.private_out(out)
            return
        code = await self.presenter.languages.public(interaction.guild_id)
        await reply.public(await standings_post(view, code, viewer=interaction.user.id))

    @tournament.command(name="list", description="This server's tournaments (only you see it)")
    async def list_(self, interaction: discord.Interaction) -> None:
        async def work(reply: Reply) -> None:
            views = await self._listing(interaction)
            await reply.private_embed(listing_embed(views, reply.language))

        await self.presenter.run(interaction, work)

    # -- the moderators' actions ------------------------------------------------------------

    @tournament.command(name="start", description="Start a tournament now (moderators)")
    @app_commands.describe(tournament="Which one (default: this server's current one)")
    async def start_(
        self, interaction: discord.Interaction, tournament: TournamentId | None = None
    ) -> None:
        await self._moderate(interaction, TournamentAction.START, tournament)

    @tournament.command(name="pause", description="Pause a tournament: no new round (moderators)")
    @app_commands.describe(tournament="Which one (default: this server's current one)")
    async def pause(
        self, interaction: discord.Interaction, tournament: TournamentId | None = None
    ) -> None:
        await self._moderate(interaction, TournamentAction.PAUSE, tournament)

    @tournament.command(name="resume", description="Resume a paused tournament (moderators)")
    @app_commands.describe(tournament="Which one (default: this server's current one)")
    async def resume(
        self, interaction: discord.Interaction, tournament: TournamentId | None = None
    ) -> None:
        await self._moderate(interaction, TournamentAction.RESUME, tournament)

    @tournament.command(name="cancel", description="Cancel a tournament (moderators)")
    @app_commands.describe(tournament="Which one (default: this server's current one)")
    async def cancel(
        self, interaction: discord.Interaction, tournament: TournamentId | None = None
    ) -> None:
        await self._moderate(interaction, TournamentAction.CANCEL, tournament)

    @tournament.command(name="drop", description="Take a player out of a tournament (moderators)")
    @app_commands.describe(
        user="Who to take out (their games so far still count)",
        tournament="Which one (default: this server's current one)",
    )
    async def drop(
        self,
        interaction: discord.Interaction,
        user: discord.User,
        tournament: TournamentId | None = None,
    ) -> None:
        async def work(reply: Reply) -> None:
            moderator_only(interaction)
            view = await self._chosen(interaction, tournament)
            results = await self.service.tournaments.drop(
                view.id, interaction.user.id, user.id, is_moderator=True
            )
            await self._announce(reply, results)

        await self.presenter.run(interaction, work)

    @tournament.command(
        name="fix", description="Set a pairing's result, with a reason (moderators)"
    )
    @app_commands.describe(
        pairing="Which pairing (its number, as the list offers them)",
        result="The result to record",
        reason="Why (shown to everyone with the result)",
        tournament="Which one (default: this server's current one)",
    )
    async def fix(
        self,
        interaction: discord.Interaction,
        pairing: app_commands.Range[int, 1, MAX_GAME_ID],
        result: FixedResultOption,
        reason: app_commands.Range[str, 3, 200],
        tournament: TournamentId | None = None,
    ) -> None:
        async def work(reply: Reply) -> None:
            moderator_only(interaction)
            view = await self._chosen(interaction, tournament)
            white, black = FIXED_POINTS[result]
            results = await self.service.tournaments.fix_result(
                view.id, interaction.user.id, pairing, white, black, reason, is_moderator=True
            )
            await self._announce(reply, results)

        await self.presenter.run(interaction, work)

    @fix.autocomplete("pairing")
    async def pairing_suggestions(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        views = await self._listing(interaction)
        code = self.presenter.languages.private(interaction)
        found = [pairing_choice(p, code) for v in views for p in v.pairings]
        return number_choices(found, current)

    @start_.autocomplete("tournament")
    @pause.autocomplete("tournament")
    @resume.autocomplete("tournament")
    @cancel.autocomplete("tournament")
    @drop.autocomplete("tournament")
    @fix.autocomplete("tournament")
    @standings.autocomplete("tournament")
    async def tournament_suggestions(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        views = await self._listing(interaction)
        return number_choices([tournament_choice(v) for v in views], current)

    async def _listing(self, interaction: discord.Interaction) -> list[TournamentView]:
        """This server's events still to come or running."""
        assert interaction.guild_id is not None
        return await self.service.tournaments.listing(interaction.guild_id, finished=False)

    async def _chosen(
        self, interaction: discord.Interaction, tournament: int | None
    ) -> TournamentView:
        """The tournament named, which must be this server's; or, named none, the server's one
        event still to come or running (a refusal when there are several, or none)."""
        if tournament is not None:
            view = await self.service.tournaments.view(checked_id(tournament, "tournament"))
            if view.guild_id != interaction.guild_id:
                raise NotFoundError(_("there is no tournament #{id} on this server", id=tournament))
            return view
        views = await self._listing(interaction)
        if not views:
            raise NotFoundError(_("there is no tournament on this server now"))
        if len(views) > 1:
            raise NotFoundError(
                _n(
                    "this server has {count} tournament: say which one",
                    "this server has {count} tournaments: say which one",
                    len(views),
                )
            )
        return views[0]

    async def _moderate(
        self, interaction: discord.Interaction, action: TournamentAction, tournament: int | None
    ) -> None:
        async def work(reply: Reply) -> None:
            moderator_only(interaction)
            view = await self._chosen(interaction, tournament)
            await self._run_action(reply, interaction, action, view.id)

        await self.presenter.run(interaction, work)

    async def _run_action(
        self,
        reply: Reply,
        interaction: discord.Interaction,
        action: TournamentAction,
        tournament_id: int,
    ) -> None:
        """Start, pause, resume or cancel, by command or button; the news goes to the channel."""
        moderator, faces = interaction.user.id, self.service.tournaments
        results: list[ActionResult]
        match action:
            case TournamentAction.START:
                results = await faces.start_now(tournament_id, moderator, is_moderator=True)
            case TournamentAction.PAUSE:
                results = [await faces.pause(tournament_id, moderator, is_moderator=True)]
            case TournamentAction.RESUME:
                results = await faces.resume(tournament_id, moderator, is_moderator=True)
            case _:
                results = [await faces.cancel(tournament_id, moderator, is_moderator=True)]
        await self._announce(reply, results)

    async def _announce(self, reply: Reply, results: list[ActionResult]) -> None:
        """Tell the moderator privately, and post what changed in the event's channel."""
        await reply.think(private=True)
        for result in results:
            await self.presenter.delivery.on_event(result)
        said = [say(r.text, reply.language) for r in results] or [reply.words(_("Done."))]
        await reply.private("\n".join(said))

    # -- the buttons -------------------------------------------------------------------------

    async def answer_tournament(
        self, interaction: discord.Interaction, action: TournamentAction, tournament_id: int
    ) -> None:
        async def work(reply: Reply) -> None:
            checked_id(tournament_id, "tournament")
            if action in MODERATOR_ACTIONS:
                moderator_only(interaction)
            view = await self.service.tournaments.view(tournament_id)
            if view.guild_id != interaction.guild_id:
                raise NotFoundError(_("there is no such tournament"))
            match action:
                case TournamentAction.JOIN | TournamentAction.LEAVE:
                    await self._join_or_leave(reply, interaction, action, tournament_id)
                case TournamentAction.STANDINGS:
                    await self._show_standings(reply, interaction, view)
                case TournamentAction.MANAGE:
                    if is_over(view):
                        raise TournamentError(_("{name} is over", name=shown(view.name)))
                    panel = self.kit.panel(
                        view.id,
                        started=view.status is not TournamentStatus.OPEN,
                        paused=view.status is TournamentStatus.PAUSED,
                        code=reply.language,
                    )
                    words = _("Tournament #{id}: what should happen?", id=view.id)
                    await reply.private(words, view=panel)
                case TournamentAction.BERSERK:
                    await self._berserk(reply, interaction)
                case TournamentAction.PDN:
                    pdn = await self.service.tournaments.pdn(view.id)
                    upload = Upload(f"tournament-{view.id}.pdn", pdn.encode())
                    await reply.private_file(_("All games of {name}.", name=view.name), upload)
                case _:
                    await self._run_action(reply, interaction, action, tournament_id)

        await self.presenter.run(interaction, work)

    async def _berserk(self, reply: Reply, interaction: discord.Interaction) -> None:
        """An arena player halves their clock from their pairing's message (the message is the
        game's thread: its id is the game's channel); the news goes to the thread."""
        message = interaction.message
        if message is None:
            raise NotFoundError(_("there is no such game"))
        result = await self.service.tournaments.berserk(interaction.user.id, channel_id=message.id)
        await reply.think(private=True)
        await self.presenter.delivery.on_event(result)
        await reply.private(result.text)

    async def _join_or_leave(
        self,
        reply: Reply,
        interaction: discord.Interaction,
        action: TournamentAction,
        tournament_id: int,
    ) -> None:
        """Join or leave from the announcement: the announcement itself shows the new list
        (this press's answer edits it), and the player is told privately."""
        if action is TournamentAction.JOIN:
            result = await self.service.tournaments.join(tournament_id, player_of(interaction.user))
        else:
            result = await self.service.tournaments.leave(tournament_id, interaction.user.id)
        view = result.tournament
        assert view is not None
        code = await self.presenter.languages.public(view.guild_id)
        async with self.presenter.delivery.handing(result):
            out = self.posts.announcement(view, code)
            if interaction.message is not None and interaction.message.id == view.message_id:
                await reply.update(embed=out.embed, view=out.view)
            else:
                await self.posts.refresh(view, code)
        await reply.private(result.text)
