"""Per-server settings that moderators change with ``/settings``.

They shape challenges rather than games: a game keeps the terms it started with, so changing a
default never alters a game in progress (the board's orientation too is fixed on the game when
it starts; only the board theme follows a change at once, in every public image).  A server that
never used ``/settings`` behaves as the defaults below say (English, a day per move, threads
when players ask, every channel, White at the bottom, the wood theme).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace

from rules.variants import find_variant

from ..enums import BoardTheme, Orientation, ThreadMode, member_or
from ..errors import ChallengeError, ForbiddenError
from ..i18n import _, _n, from_rules
from ..results import ServerSettings
from ..store import SettingsChanges, Store

DEFAULT_VARIANT = "english"
DEFAULT_MOVE_TIME = 24 * 3600
MAX_GAME_CHANNELS = 25


DEFAULTS = ServerSettings(None, DEFAULT_VARIANT, DEFAULT_MOVE_TIME, ThreadMode.OPTIONAL, ())


class SettingsBook:
    """Reads and changes server settings (moderators only for changes)."""

    def __init__(self, store: Store, clock: Callable[[], float]) -> None:
        self.store = store
        self.clock = clock
        self._themes: dict[int, BoardTheme] = {}
        """Each server's board theme, as read or last changed here (see :meth:`theme`)."""

    async def get(self, guild_id: int | None) -> ServerSettings:
        if guild_id is None:
            return DEFAULTS
        row = await self.store.settings(guild_id)
        channels = tuple(await self.store.game_channels(guild_id))
        if row is None:
            return replace(DEFAULTS, guild_id=guild_id, channels=channels)
        variant = row.variant or DEFAULT_VARIANT
        try:
            find_variant(variant)
        except ValueError:
            variant = DEFAULT_VARIANT  # a damaged row must not block challenges
        return ServerSettings(
            guild_id,
            variant,
            row.move_time or DEFAULT_MOVE_TIME,
            row.threads,
            channels,
            member_or(Orientation, row.orientation, Orientation.WHITE),
            member_or(BoardTheme, row.theme, BoardTheme.WOOD),
        )

    async def theme(self, guild_id: int | None) -> BoardTheme:
        """The theme of the server's public boards: what every board posted needs, read once
        per server and kept, so a move costs no read for it.  The process that posts a server's
        boards is the one that serves its ``/settings`` (its shard's), which forgets the theme
        when it changes it (:meth:`change`) and whenever a shard comes to it
        (:meth:`forget_all`: another process may have changed it meanwhile)."""
        if guild_id is None:
            return BoardTheme.WOOD
        theme = self._themes.get(guild_id)
        if theme is None:
            row = await self.store.settings(guild_id)
            theme = (
                BoardTheme.WOOD
                if row is None
                else member_or(BoardTheme, row.theme, BoardTheme.WOOD)
            )
            self._themes[guild_id] = theme
        return theme

    def forget_all(self) -> None:
        """Read every server's theme again (a shard came to this process)."""
        self._themes.clear()

    async def change(
        self,
        guild_id: int | None,
        *,
        is_moderator: bool,
        variant: str | None = None,
        move_time: int | None = None,
        threads: ThreadMode | str | None = None,
        allow: Iterable[int] = (),
        disallow: Iterable[int] = (),
        all_channels: bool = False,
        orientation: Orientation | str | None = None,
        theme: BoardTheme | str | None = None,
    ) -> ServerSettings:
        """Apply the given changes together and return the new settings."""
        if guild_id is None:
            raise ChallengeError(_("settings belong to a server"))
        if not is_moderator:
            raise ForbiddenError(_("only moderators (Manage Server) can change the settings"))
        changes: SettingsChanges = {}
        if variant is not None:
            try:
                changes["variant"] = find_variant(variant).key
            except ValueError as exc:
                raise ChallengeError(from_rules(exc)) from None
        if move_time is not None:
            if move_time <= 0:
                raise ChallengeError(_("the time per move must be positive"))
            changes["move_time"] = move_time
        if threads is not None:
            try:
                changes["threads"] = ThreadMode(threads)
            except ValueError:
                raise ChallengeError(
                    _("threads must be one of {choices}", choices=", ".join(ThreadMode))
                ) from None
        if orientation is not None:
            try:
                changes["orientation"] = Orientation(orientation).value
            except ValueError:
                raise ChallengeError(
                    _("the orientation must be one of {choices}", choices=", ".join(Orientation))
                ) from None
        if theme is not None:
            try:
                changes["theme"] = BoardTheme(theme).value
            except ValueError:
                raise ChallengeError(
                    _("the theme must be one of {choices}", choices=", ".join(BoardTheme))
                ) from None
        allow, disallow = tuple(allow), tuple(disallow)
        if set(allow) & set(disallow):
            raise ChallengeError(_("a channel cannot be both allowed and disallowed"))
        current = () if all_channels else await self.store.game_channels(guild_id)
        if len(set(current) | set(allow)) > MAX_GAME_CHANNELS:
            raise ChallengeError(
                _n(
                    "at most {count} game channel",
                    "at most {count} game channels",
                    MAX_GAME_CHANNELS,
                )
            )
        await self.store.save_settings(
            guild_id,
            changes,
            allow=allow,
            disallow=disallow,
            all_channels=all_channels,
            when=self.clock(),
        )
        self._themes.pop(guild_id, None)
        return await self.get(guild_id)
