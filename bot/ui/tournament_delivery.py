"""Delivering a tournament's announcements in its channel, each exactly once.

Every change of an event (created, joined, started, a round paired, paused, a result fixed,
finished...) is an outbox entry written with it (:mod:`bot.service.outbox`); the delivery
(:mod:`bot.ui.delivery`) hands the entries of tournaments here, with a ``send`` that posts in the
event's channel, each message with its nonce and, after a crash, found again among the bot's
posts by its text instead of being posted twice.  What each one shows:

- the announcement, one message edited on every change (joined, started, paused, finished);
- a round's pairings: a line, the standings so far, and a message per pairing which its game's
  thread hangs off (Discord gives that thread the message's id and refuses a second one with
  160004, so a crash between the thread and the game finds the thread again), the game opened
  in it (``open_game``: exactly once per pairing) and its first board posted there;
- the end: the final standings and the event's PDN file.

A round is delivered only once every game of it is open: when one cannot be (Discord or the
database refused), the entry stays owed and the rest is done by the next attempt.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord

from ..enums import TournamentStatus
from ..i18n import _, render
from ..results import Action, ActionResult, TournamentView
from ..service import GameService
from ..tournaments.model import Format
from .arrivals import post_marker
from .boards import message_id, pings
from .delivery import Connection, Delivery
from .languages import Languages
from .limits import THREAD_NAME, label
from .posted import PostedLater, Send, ShownInPart
from .replies import Outgoing, Upload
from .standings_sheet import Event, draw_standings
from .threads import THREAD_ARCHIVE_MINUTES
from .tournament_buttons import TournamentAction, TournamentKit
from .tournament_embeds import announcement_embed, pairing_content, thread_title
from .wording import say

log = logging.getLogger(__name__)

THREAD_EXISTS = 160004
"""Discord's code for a second thread on the same message."""


class TournamentPosts:
    """One per client: what a tournament's announcements post (see the module's doc)."""

    def __init__(
        self,
        service: GameService,
        connection: Connection,
        kit: TournamentKit,
        languages: Languages,
        delivery: Delivery,
    ) -> None:
        self.service = service
        self.connection = connection
        self.kit = kit
        self.languages = languages
        self.delivery = delivery
        self._shown: dict[tuple[int, str], int] = {}
        """This process's posts of a round (its line, its standings, each pairing's message) by
        event and part: a round announced again (the tick does, when its games are not all
        open after two minutes, perhaps while the first announcement is still being posted)
        reuses them rather than posting them twice."""
        self._rounds: dict[int, asyncio.Lock] = {}
        """One round's posting at a time per event."""

    def announcement(self, view: TournamentView, code: str, text: str = "") -> Outgoing:
        """The announcement message with its buttons (Join/Leave while entries are taken)."""
        return Outgoing(
            content=text or None,
            embed=announcement_embed(view, code),
            view=self.kit.announcement(view.id, open_=view.open, code=code, over=is_over(view)),
            part=f"tournament-{view.id}",
        )

    async def post(self, result: ActionResult, send: Send) -> None:
        """Show ``result`` (a tournament's announcement) through ``send``, in its channel."""
        view = result.tournament
        assert view is not None
        code = await self.languages.public(view.guild_id)
        if result.action is Action.TOURNAMENT_CREATED:
            await self.announce(send, result, code)
            return
        await self.refresh(view, code)
        sentence = f"{pings(result.mentions)} {say(result.text, code)}".strip()
        if result.action is Action.TOURNAMENT_JOINED:
            return  # the announcement's list of players is the news
        if result.action is Action.ROUND_PAIRED:
            await self.pairings(send, result, view, code)
            return
        await send(Outgoing(content=sentence, mentions=result.mentions, part="news"))
        if result.action is Action.TOURNAMENT_FINISHED:
            await self.final(send, view, code)
        if is_over(view):  # no round of it is announced again
            self._shown = {key: sent for key, sent in self._shown.items() if key[0] != view.id}
            self._rounds.pop(view.id, None)

    async def announce(self, send: Send, result: ActionResult, code: str) -> None:
        """Post the new event's announcement and remember its message (edited from then on)."""
        view = result.tournament
        assert view is not None
        sent = message_id(await send(self.announcement(view, code, say(result.text, code))))
        if sent is not None:
            await self.service.tournaments.set_message(view.id, sent)

    async def refresh(self, view: TournamentView, code: str) -> None:
        """Bring the announcement up to date (players, status, buttons).  Editing is the same
        whatever the number of times, so a repeated announcement does no harm; a deleted
        message is left deleted.  Once entries close, the creation's sentence above the embed
        ("... open for entries") goes: the embed's status line says where the event stands."""
        if view.message_id is None:
            return
        channel = self.connection.get_partial_messageable(view.channel_id, guild_id=view.guild_id)
        out = self.announcement(view, code)
        message = channel.get_partial_message(view.message_id)
        try:
            if view.status is TournamentStatus.OPEN:
                await message.edit(embed=out.embed, view=out.view)
            else:
                await message.edit(content=None, embed=out.embed, view=out.view)
        except discord.HTTPException as exc:
            log.info("the announcement of tournament %s was not updated: %s", view.id, exc)

    async def pairings(
        self, send: Send, result: ActionResult, view: TournamentView, code: str
    ) -> None:
        """A round's news and standings, then each pairing's message, thread and game."""
        async with self._rounds.setdefault(view.id, asyncio.Lock()):
            await self._pairings(send, result, view, code)

    async def _pairings(
        self, send: Send, result: ActionResult, view: TournamentView, code: str
    ) -> None:
        arena = view.format is Format.ARENA
        if not arena:  # an arena's wave: its pairings say it all
            news = Outgoing(content=say(result.text, code), part=f"news-r{view.round}")
            await self._once(view, send, news)  # the pairings below ping the players
        if view.round > 1 and not arena:
            table = await standings_post(view, code, label=f"r{view.round}")
            await self._once(view, send, table)
        for pairing in view.pairings:
            if pairing.game_id is not None:
                continue
            berserk = view.berserk and pairing.black is not None
            out = Outgoing(
                content=pairing_content(view, pairing, code),
                mentions=tuple(p.id for p in (pairing.white, pairing.black) if p is not None),
                view=self.kit.view(view.id, [TournamentAction.BERSERK], code) if berserk else None,
                part=f"pairing-{pairing.id}",
            )
            sent = await self._once(view, send, out)
            if pairing.black is None or sent is None:
                continue  # a bye: nothing to play
            try:
                await self.open_game(view, pairing.id, sent, thread_title(view, pairing, code))
            except Exception as exc:  # the round stays owed: the next attempt goes on from here
                raise ShownInPart(result) from exc

    async def _once(self, view: TournamentView, send: Send, out: Outgoing) -> int | None:
        """Post ``out`` unless this process posted that part of the event already: its id."""
        key = (view.id, out.part)
        if key not in self._shown:
            sent = message_id(await send(out))
            if sent is None:
                return None
            self._shown[key] = sent
        return self._shown[key]

    async def open_game(
        self, view: TournamentView, pairing_id: int, message: int, name: str
    ) -> None:
        """The pairing's thread off its ``message`` (the one already there after a crash: it
        has the message's id), its game opened there and the first board posted."""
        thread_id = await start_thread(self.connection.http, view.channel_id, message, name)
        started = await self.service.tournaments.open_game(pairing_id, thread_id)
        if started is None:  # opened before a crash: its first board is owed, or was posted
            return
        send = self.delivery.channel_sender(thread_id, view.guild_id, started.event)
        try:
            await self.delivery.publish(send, started, answer=post_marker(started))
        except PostedLater as exc:  # the game is open; its first board is owed, posted later
            log.warning("the first board of pairing %s is owed: %s", pairing_id, exc)

    async def final(self, send: Send, view: TournamentView, code: str) -> None:
        """The final standings and the event's PDN file."""
        await send(await standings_post(view, code, final=True, label="final"))
        pdn = await self.service.tournaments.pdn(view.id)
        caption = render(_("All games of {name} in one PDN file.", name=view.name), code)
        upload = Upload(f"tournament-{view.id}.pdn", pdn.encode())
        await send(Outgoing(content=caption, files=[upload], part="pdn"))


MAX_PAGES = 10
"""Pictures of the standings in one message (Discord's most attachments): 160 players."""


async def standings_post(
    view: TournamentView,
    code: str,
    *,
    final: bool = False,
    label: str = "now",
    viewer: int | None = None,
) -> Outgoing:
    """The standings as a message: the picture (a page per 16 players, each with its alt text)
    and the text version, drawn off the event loop.  ``label`` names the files
    (``standings-3-r2-1.png``: event 3, before round 2, page 1), so a repost after a crash is
    found by them; ``viewer``: the player whose line the picture marks."""
    event = Event(view.name, view.variant, final)
    drawn = await asyncio.to_thread(draw_standings, view.table, event, code, viewer=viewer)
    pages = list(zip(drawn.pages, drawn.alts, strict=True))[:MAX_PAGES]
    files = [
        Upload(f"standings-{view.id}-{label}-{n}.png", png, alt)
        for n, (png, alt) in enumerate(pages, 1)
    ]
    return Outgoing(content=drawn.text, files=files, part=f"standings-{label}")


def is_over(view: TournamentView) -> bool:
    """Finished or cancelled: nothing is left to manage."""
    return view.status in (TournamentStatus.FINISHED, TournamentStatus.CANCELLED)


async def start_thread(http: Any, channel_id: int, message: int, name: str) -> int:
    """Open the public thread hanging off ``message`` and return its id, which is the
    message's: when Discord says the message has one already (160004, a repeat after a crash),
    that one is the thread."""
    try:
        thread = await http.start_thread_with_message(
            channel_id,
            message,
            name=label(name, THREAD_NAME),
            auto_archive_duration=THREAD_ARCHIVE_MINUTES,
        )
    except discord.HTTPException as exc:
        if exc.code == THREAD_EXISTS:
            return message
        raise
    return int(thread["id"])
