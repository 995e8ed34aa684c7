"""Outgoing messages, and how one interaction answers: publicly, privately, or by editing.

Discord allows one initial response per interaction, then follow-ups; a deferred "thinking"
response must be filled in by editing it.  :class:`Reply` hides that bookkeeping, so the flows say
*what* to show (``public``, ``private``, ``update``) and never which endpoint that needs.  Every
text goes out within Discord's 2,000 characters (:func:`bot.ui.limits.fit`): builders size their
own lists, and this is the guard for sentences passed on from the service.
"""

from __future__ import annotations

import asyncio
import io
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import discord

from ..i18n import Text
from .languages import interaction_language
from .limits import CONTENT, fit, fit_embed
from .wording import say

NO_MENTIONS = discord.AllowedMentions.none()

ALT_TEXT = 1024
"""Discord's limit on an attachment's description (its alt text)."""


class Upload(NamedTuple):
    """A file to attach: its name, its bytes, and for an image the alt text a screen reader
    says instead of it (every image the bot posts has one)."""

    name: str
    data: bytes
    description: str = ""

    def file(self) -> discord.File:
        """A fresh :class:`discord.File` (one can be read only once)."""
        description = fit(self.description, ALT_TEXT) if self.description else None
        return discord.File(io.BytesIO(self.data), filename=self.name, description=description)


@dataclass
class Outgoing:
    """A message to send: text, one embed, files as bytes (a :class:`discord.File` can be read
    only once, so it is made afresh for each send) and buttons."""

    content: str | None = None
    embed: discord.Embed | None = None
    files: list[Upload] = field(default_factory=list)
    view: discord.ui.View | None = None
    mentions: tuple[int, ...] = ()
    part: str = ""
    """What this message is within an announcement (``board-<game>``, ``replay-<game>``): a
    repost of the same part gets the same nonce, another part never does."""

    def shape(self) -> tuple[str, tuple[str, ...]]:
        """What identifies this message among the bot's posts in a channel, as Discord gives
        them back: its text as sent and its files' names (a board's name holds its game and
        ply, a record's its game)."""
        content = fit(self.content, CONTENT) if self.content else ""
        return content, tuple(sorted(upload.name for upload in self.files))

    def allowed_mentions(self) -> discord.AllowedMentions:
        """Only the users this message is meant to ping: names typed by users (which may read
        ``@everyone``) never ping anyone."""
        return discord.AllowedMentions(
            everyone=False,
            roles=False,
            users=[discord.Object(uid) for uid in self.mentions],
            replied_user=False,
        )

    def discord_files(self) -> list[discord.File]:
        return [upload.file() for upload in self.files]

    def send_kwargs(self) -> dict[str, Any]:
        kwargs: dict[str, Any] = {"allowed_mentions": self.allowed_mentions()}
        if self.content:
            kwargs["content"] = fit(self.content, CONTENT)
        if self.embed is not None:
            kwargs["embed"] = fit_embed(self.embed)
        if self.files:
            kwargs["files"] = self.discord_files()
        if self.view is not None:
            kwargs["view"] = self.view
        return kwargs


def shape_of(message: Any) -> tuple[str, tuple[str, ...]]:
    """:meth:`Outgoing.shape` of a message as Discord gives it back (its JSON)."""
    files = tuple(sorted(str(a.get("filename")) for a in message.get("attachments") or []))
    return str(message.get("content") or ""), files


class Reply:
    """The answers of one interaction.  What only the user sees (:meth:`private`, and
    :class:`Text` given to :meth:`update`) is written in the user's own language
    (:attr:`language`)."""

    def __init__(self, interaction: discord.Interaction) -> None:
        self.interaction = interaction
        self._first = asyncio.Lock()
        """Held while the initial response is being sent: the work and the watchdog that
        defers a slow one (:meth:`acknowledge`) never both send one."""
        self._thinking = False
        """A deferred "thinking" message is waiting to be filled in."""
        self._thinking_privately = False
        """That message is the user's alone (:meth:`think` ``private``)."""
        self.locales_kept = False
        """The interaction's locales went to the service with the announcement it answered
        with, so they need not be stored on their own."""

    @property
    def language(self) -> str:
        """The catalog of the user's Discord client: what a private answer is written in."""
        return interaction_language(self.interaction)

    def words(self, text: Text | str) -> str:
        """``text`` in the user's own language."""
        return say(text, self.language)

    @property
    def done(self) -> bool:
        return self.interaction.response.is_done()

    @property
    def answers_in_original(self) -> bool:
        """Whether the next public message is the interaction's own message (its first answer,
        or the filling in of its "thinking…"), which Discord can be asked about later."""
        return not self.done or (self._thinking and not self._thinking_privately)

    async def think(self, private: bool = False) -> None:
        """Show "thinking…" while something slow runs: publicly (only after every check
        passed, so an error never follows a public thinking message), or to the user alone
        when the answer will be private (``private``)."""
        async with self._first:
            if not self.done:
                await self.interaction.response.defer(thinking=True, ephemeral=private)
                self._thinking = True
                self._thinking_privately = private

    async def hold(self) -> None:
        """Acknowledge a button press without changing anything yet."""
        async with self._first:
            if not self.done:
                await self.interaction.response.defer()

    async def acknowledge(self) -> None:
        """Meet Discord's 3-second window for work still running: a button press is held (its
        message edited or followed up later), anything else shows "thinking…", which the answer
        fills in (a private answer replaces it).  Nothing if the work has answered already, or
        for an autocomplete (which has no deferred form)."""
        kind = self.interaction.type
        if kind is discord.InteractionType.autocomplete:
            return
        if kind is discord.InteractionType.component:
            await self.hold()
        else:
            await self.think()

    async def public(self, out: Outgoing) -> int | None:
        """Send ``out`` for everyone in the channel; the new message's id when known."""
        i = self.interaction
        async with self._first:
            if not self.done:
                response = await i.response.send_message(**out.send_kwargs())
                return response.message_id
        if self._thinking and self._thinking_privately:
            # a private "thinking…" cannot turn public: it goes, the answer follows it
            self._thinking = False
            await i.delete_original_response()
        if self._thinking:
            self._thinking = False
            kwargs = out.send_kwargs()
            files = kwargs.pop("files", [])
            edited = await i.edit_original_response(
                content=kwargs.pop("content", None), attachments=files, **kwargs
            )
            return edited.id
        sent = await i.followup.send(wait=True, **out.send_kwargs())
        return sent.id

    async def private(self, text: Text | str, view: discord.ui.View | None = None) -> None:
        """A message only the user sees (errors, lists, confirmations), in their language."""
        content = fit(self.words(text), CONTENT)
        if view is None:
            await self._private(content=content)
        else:
            await self._private(content=content, view=view)

    async def private_out(self, out: Outgoing) -> None:
        """``out`` (text, files, buttons) for the user alone."""
        kwargs = out.send_kwargs()
        kwargs.pop("allowed_mentions", None)
        await self._private(**kwargs)

    async def private_file(self, text: Text | str, upload: Upload) -> None:
        await self._private(content=fit(self.words(text), CONTENT), file=upload.file())

    async def private_embed(self, embed: discord.Embed) -> None:
        await self._private(embed=fit_embed(embed))

    async def _private(self, **message: Any) -> None:
        i = self.interaction
        async with self._first:
            if not self.done:
                await i.response.send_message(ephemeral=True, **message)
                return
        if self._thinking:
            self._thinking = False
            if self._thinking_privately:  # the user's own "thinking…" becomes the answer
                files = message.pop("files", [])
                if "file" in message:
                    files.append(message.pop("file"))
                await i.edit_original_response(attachments=files, **message)
                return
            # Nothing public may stay behind a private answer.
            await i.delete_original_response()
        await i.followup.send(ephemeral=True, **message)

    async def update(self, **changes: Any) -> None:
        """Edit the message whose button was pressed (a :class:`Text` content in the user's
        language: give a public message's words already rendered)."""
        if isinstance(changes.get("content"), Text):
            changes["content"] = self.words(changes["content"])
        if isinstance(changes.get("content"), str):
            changes["content"] = fit(changes["content"], CONTENT)
        if isinstance(changes.get("embed"), discord.Embed):
            changes["embed"] = fit_embed(changes["embed"])
        async with self._first:
            if not self.done:
                await self.interaction.response.edit_message(**changes)
                return
        await self.interaction.edit_original_response(**changes)
