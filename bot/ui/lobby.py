"""``/lobby``: the server's open challenges, listed privately with an Accept button each.

Named ``/lobby`` rather than ``/games``: ``/games`` already lists the games being played, and a
lobby is where players wait to be picked up, the word lidraughts and chess servers use for it.

The list is a page of :data:`PAGE_SIZE` challenges (oldest first) with Previous / Next when
there are more; its buttons are persistent like every other (``lobby:accept:<challenge>``,
``lobby:page:<page>``), so a list shown before a restart still answers, and the service decides
whether an entry is still open: a stale one is refused privately, naming why.  Accepting from
the lobby starts the game in the challenge's own channel (or a thread hanging off it), takes the
buttons off the challenge's message, and tells the accepter where the game is.
"""

from __future__ import annotations

import re
from enum import StrEnum
from typing import Any, ClassVar, Protocol

import discord
from discord import app_commands
from discord.ext import commands

from ..errors import ChallengeError, ThreadRequired
from ..i18n import Text, _, _p, as_text, duration, render
from ..markdown import shown
from ..results import ChallengeView
from ..service import GameService
from .arrivals import post_marker
from .buttons import ID, bound
from .challenges import Challenges
from .delivery import Connection
from .embeds import rating_range_words, relative_time
from .limits import EMBED_DESCRIPTION, fit_embed, listing
from .presenter import Presenter
from .replies import Outgoing, Reply
from .threads import open_thread, thread_home_in, thread_name
from .validation import checked_id

PAGE_SIZE = 5
"""Challenges per page: one Accept button each fits one row, readable on a phone."""


class LobbyAction(StrEnum):
    ACCEPT = "accept"
    PAGE = "page"


class LobbyAnswers(Protocol):
    """What the lobby's buttons call."""

    async def answer_lobby(
        self, interaction: discord.Interaction, action: LobbyAction, number: int
    ) -> None: ...


class LobbyButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=rf"lobby:(?P<action>accept|page):{ID}",
):
    """Accept the challenge ``number``, or show page ``number`` of the lobby."""

    kit: ClassVar[LobbyKit]  # set by bound

    def __init__(self, action: LobbyAction, number: int, label: str = "") -> None:
        style = (
            discord.ButtonStyle.success
            if action is LobbyAction.ACCEPT
            else discord.ButtonStyle.secondary
        )
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=label or str(number), style=style, custom_id=f"lobby:{action}:{number}"
        )
        super().__init__(button)
        self.action, self.number = action, number

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> LobbyButton:
        return cls(LobbyAction(match["action"]), int(match["id"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await self.kit.answers.answer_lobby(interaction, self.action, self.number)


class LobbyKit:
    """The lobby's button class of one client, bound to whoever answers it."""

    def __init__(self) -> None:
        self.button = bound(LobbyButton, self)
        self._answers: LobbyAnswers | None = None

    @property
    def answers(self) -> LobbyAnswers:
        if self._answers is None:
            raise RuntimeError("the lobby was used before its answers were registered")
        return self._answers

    def answered_by(self, answers: LobbyAnswers) -> tuple[type[discord.ui.DynamicItem[Any]], ...]:
        """Hand presses to ``answers``; the classes for ``Client.add_dynamic_items``."""
        self._answers = answers
        return (self.button,)


def lobby_line(challenge: ChallengeView, code: str) -> str:
    """One open challenge: ``**#12** Alice · English draughts · 1 day a move · #general ·
    rated 1400 to 1700 · expires in 5 hours``."""
    line: Text = _(
        "**#{id}** {challenger} · {variant} · {time} a move · {channel}",
        id=challenge.id,
        challenger=shown(challenge.challenger.name),
        variant=as_text(challenge.variant_title),
        time=duration(challenge.move_time),
        channel=f"<#{challenge.channel_id}>",
    )
    if challenge.match:
        line = _("{line} · two-game match", line=line)
    if challenge.start_fen is not None:
        line = _("{line} · from a position, unrated", line=line)
    rating_range = rating_range_words(challenge)
    if rating_range is not None:
        line = _("{line} · {range}", line=line, range=rating_range)
    line = _("{line} · expires {time}", line=line, time=relative_time(challenge.expires_at))
    return render(line, code)


def lobby_page(
    kit: LobbyKit, challenges: list[ChallengeView], page: int, code: str
) -> tuple[discord.Embed, discord.ui.View]:
    """Page ``page`` (from 0; past the end: the last) of the open challenges, with an Accept
    button per challenge and Previous / Next between pages."""
    pages = max(1, -(-len(challenges) // PAGE_SIZE))
    page = min(max(page, 0), pages - 1)
    shown_here = challenges[page * PAGE_SIZE : (page + 1) * PAGE_SIZE]
    if challenges:
        description = listing(
            [lobby_line(c, code) for c in shown_here], EMBED_DESCRIPTION, code=code
        )
    else:
        description = render(
            _("No open challenges. Post one with `/challenge` and no opponent."), code
        )
    embed = discord.Embed(
        title=render(_("Open challenges ({count})", count=len(challenges)), code),
        description=description,
    )
    if pages > 1:
        embed.set_footer(text=render(_("Page {page} of {pages}", page=page + 1, pages=pages), code))
    view = discord.ui.View(timeout=None)
    for challenge in shown_here:
        label = render(_p("button", "Accept #{id}", id=challenge.id), code)
        view.add_item(kit.button(LobbyAction.ACCEPT, challenge.id, label))
    if page > 0:
        label = render(_p("button", "Previous"), code)
        view.add_item(kit.button(LobbyAction.PAGE, page - 1, label))
    if page < pages - 1:
        label = render(_p("button", "Next"), code)
        view.add_item(kit.button(LobbyAction.PAGE, page + 1, label))
    return fit_embed(embed), view


class Lobby(commands.Cog):
    """Open challenges, found and accepted from anywhere in the server."""

    def __init__(
        self,
        service: GameService,
        presenter: Presenter,
        challenges: Challenges,
        kit: LobbyKit,
        connection: Connection,
    ) -> None:
        self.service = service
        self.presenter = presenter
        self.challenges = challenges
        self.kit = kit
        self.connection = connection

    @app_commands.command(
        name="lobby", description="Open challenges in this server, to accept (only you see it)"
    )
    @app_commands.guild_only()
    async def lobby(self, interaction: discord.Interaction) -> None:
        async def work(reply: Reply) -> None:
            listed = await self.service.open_challenges(interaction.guild_id)
            embed, view = lobby_page(self.kit, listed, 0, reply.language)
            await reply.private_out(Outgoing(embed=embed, view=view))

        await self.presenter.run(interaction, work)

    async def answer_lobby(
        self, interaction: discord.Interaction, action: LobbyAction, number: int
    ) -> None:
        async def work(reply: Reply) -> None:
            if action is LobbyAction.PAGE:
                listed = await self.service.open_challenges(interaction.guild_id)
                embed, view = lobby_page(self.kit, listed, number, reply.language)
                await reply.update(embed=embed, view=view)
                return
            challenge_id = checked_id(number, "challenge")
            async with self.challenges.accepting(challenge_id):
                await self._accept(reply, interaction, challenge_id)

        await self.presenter.run(interaction, work)

    @staticmethod
    def _thread_home(challenge: ChallengeView, home: object) -> discord.TextChannel:
        """The challenge's channel, where its game's thread will hang off, or a refusal: not
        a text channel the bot knows, or one it may not open threads in."""
        me = home.guild.me if isinstance(home, discord.TextChannel) else None
        if not isinstance(home, discord.TextChannel) or me is None:
            raise ChallengeError(
                _(
                    "this game needs a thread of its own: accept it from its message in {channel}",
                    channel=f"<#{challenge.channel_id}>",
                )
            )
        return thread_home_in(home, home.permissions_for(me), busy=not challenge.thread)

    async def _accept(
        self, reply: Reply, interaction: discord.Interaction, challenge_id: int
    ) -> None:
        """Start the game of ``challenge_id`` where the challenge was posted (the press may
        come from any channel), in a thread off it when one is needed."""
        user, name = interaction.user.id, interaction.user.display_name
        challenge = await self.service.challenge_view(challenge_id)
        home = self.connection.get_channel(challenge.channel_id)
        if await self.service.needs_thread(challenge_id):
            home = self._thread_home(challenge, home)  # refused now, privately, if none
        try:
            result = await self.service.accept(challenge_id, user, name=name)
            place = challenge.channel_id
        except ThreadRequired:  # the channel got a game meanwhile
            room_home = self._thread_home(challenge, home)
            await reply.hold()
            code = await self.presenter.languages.public(challenge.guild_id)
            start = (
                None
                if challenge.message_id is None
                else room_home.get_partial_message(challenge.message_id)
            )
            room = await open_thread(room_home, thread_name(challenge, name, code), start)
            result = await self.service.accept(challenge_id, user, name=name, thread_id=room.id)
            place = room.id
        delivery = self.presenter.delivery
        await delivery.show_closed(await self.service.challenge_view(challenge_id))
        send = delivery.channel_sender(place, challenge.guild_id, result.event)
        await delivery.publish(send, result, answer=post_marker(result))
        assert result.game is not None
        started = _("Game #{id} started in {channel}.", id=result.game.id, channel=f"<#{place}>")
        await reply.update(content=reply.words(started), embed=None, view=None)
