"""Syncing the slash commands with Discord: only when they changed, never in the way of start-up.

Why: a bulk overwrite of the commands on every start costs a rate-limited request, and when it
failed (a 503, a 400) inside ``setup_hook`` the bot did not start at all.  Discord keeps the
commands it was last given, so a bot whose sync fails can still serve them.  So the sync runs in a
background task beside the gateway connection (nothing waits for it).  It is skipped when the
fingerprint of the exact payload discord.py would send (with the application and the target:
global or the development server) equals the one stored after the last successful sync.  A
failure is logged in one line and retried later with a capped, jittered exponential backoff.  A
429 is waited out by discord.py inside this task, so it delays nothing else.  A 403 "Missing
Access" on the development server means the bot is not in it: retrying cannot help, so it says
what to do and stops.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import random
from typing import Any

import aiohttp
import discord
from discord import app_commands
from discord.ext import commands

from ..service import GameService

log = logging.getLogger(__name__)

MAX_RETRY_SECONDS = 30 * 60.0
MISSING_ACCESS = 50001


def _one_line(text: str) -> str:
    return " ".join(text.split())


class CommandSync:
    """One bot's command sync: :meth:`run` in a background task."""

    def __init__(
        self,
        client: commands.Bot,
        service: GameService,
        guild_id: int | None,
        *,
        first_retry: float,
        invite_url: str,
    ) -> None:
        self.client = client
        self.service = service
        self.guild = discord.Object(guild_id) if guild_id is not None else None
        self.first_retry = first_retry
        self.invite_url = invite_url
        self.attempts = 0

    @property
    def target(self) -> str:
        return "global" if self.guild is None else f"guild:{self.guild.id}"

    @property
    def meta_key(self) -> str:
        return f"commands-fingerprint:{self.target}"

    async def payload(self) -> list[dict[str, Any]]:
        """The JSON discord.py's ``tree.sync`` sends for this target, built the same way."""
        tree = self.client.tree
        translator = tree.translator
        commands_ = tree.get_commands(guild=self.guild)
        if translator is not None:
            return [await command.get_translated_payload(tree, translator) for command in commands_]
        return [command.to_dict(tree) for command in commands_]

    async def fingerprint(self) -> str:
        document = {
            "application_id": self.client.application_id,
            "target": self.target,
            "commands": await self.payload(),
        }
        encoded = json.dumps(document, sort_keys=True, separators=(",", ":"), default=str)
        return hashlib.sha256(encoded.encode()).hexdigest()

    async def sync_if_changed(self) -> bool:
        """Sync unless the stored fingerprint matches; True if a sync was made."""
        fingerprint = await self.fingerprint()
        if await self.service.commands_synced(self.meta_key) == fingerprint:
            log.info(
                "commands unchanged since the last sync (%s); not syncing them again", self.target
            )
            return False
        self.attempts += 1
        synced = await self.client.tree.sync(guild=self.guild)
        await self.service.set_commands_synced(self.meta_key, fingerprint)
        if self.guild is not None:
            log.info("synced %d commands to the development server %s", len(synced), self.guild.id)
        else:
            log.info("synced %d commands globally (may take a while to appear)", len(synced))
        return True

    async def run(self) -> None:
        """Sync (if needed) until it succeeds or cannot: in the background, from the end of
        ``setup_hook`` (after login, so the application id is known)."""
        delay = self.first_retry
        while True:
            try:
                await self.sync_if_changed()
                return
            except discord.Forbidden as exc:
                if exc.code == MISSING_ACCESS and self.guild is not None:
                    log.error(
                        "cannot sync the commands to the development server %s: the bot is not "
                        "in that server (Discord: 403 Missing Access). Invite it there with %s, "
                        "or unset DEV_GUILD_ID to sync them globally",
                        self.guild.id,
                        self.invite_url,
                    )
                    return
                reason = _one_line(str(exc))
            except app_commands.CommandSyncFailure as exc:
                reason = "Discord refused the commands: " + _one_line(str(exc))
            except discord.HTTPException as exc:
                reason = _one_line(str(exc))
            except (TimeoutError, OSError, aiohttp.ClientError) as exc:
                reason = f"Discord unreachable: {_one_line(str(exc)) or type(exc).__name__}"
            wait = delay * random.uniform(0.8, 1.2)
            log.warning(
                "could not sync the commands (%s): %s; the commands Discord already has keep "
                "working; retrying in %.0f s",
                self.target,
                reason,
                wait,
            )
            await asyncio.sleep(wait)
            delay = min(delay * 2, MAX_RETRY_SECONDS)
