"""The guilds the fake serves (:class:`Guild`, and :func:`guild_on_shard` for one on a chosen
shard, with ids of its own), Discord's shard formula (:func:`shard_of`) and user objects."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


def shard_of(guild_id: str | int, shard_count: int) -> int:
    """The shard that gets a guild's events: ``(guild_id >> 22) % shard_count`` (Discord's
    formula)."""
    return (int(guild_id) >> 22) % shard_count


@dataclass
class Guild:
    """A guild the fake serves, with fixed ids so tests can refer to them. The defaults are the
    fake's primary guild (``FakeDiscord().guild``); :func:`guild_on_shard` makes others, each
    with ids of its own."""

    id: str = "1100000000000000001"
    name: str = "Fake Guild"
    owner_id: str = "1100000000000000101"
    locale: str = "en-US"
    """The server's language (its community locale), sent as every interaction's
    ``guild_locale`` and as the guild's ``preferred_locale``."""
    channels: dict[str, str] = field(
        default_factory=lambda: {
            "1100000000000000201": "general",
            "1100000000000000202": "draughts",
            "1100000000000000203": "off-topic",
        }
    )
    # user id -> username; the bot user is added by FakeDiscord.
    users: dict[str, str] = field(
        default_factory=lambda: {
            "1100000000000000101": "alice",
            "1100000000000000102": "bob",
            "1100000000000000103": "carol",
        }
    )
    extra_role_id: str = "1100000000000000301"
    # Users whose interactions carry every permission (moderators); others get MEMBER_PERMISSIONS.
    moderators: set[str] = field(default_factory=lambda: {"1100000000000000101"})

    def shard(self, shard_count: int) -> int:
        """The shard that gets this guild's events when the bot runs ``shard_count`` shards."""
        return shard_of(self.id, shard_count)

    def channel_id(self, name: str) -> str:
        """The id of the channel with this name (e.g. ``"general"``)."""
        for channel_id, channel_name in self.channels.items():
            if channel_name == name:
                return channel_id
        raise KeyError(f"guild {self.id} has no channel {name!r}: {self.channels}")

    def user_id(self, name: str) -> str:
        """The id of the member with this username."""
        for user_id, username in self.users.items():
            if username == name:
                return user_id
        raise KeyError(f"guild {self.id} has no member {name!r}: {self.users}")


# Ids of the guilds guild_on_shard() makes: snowflakes of a moment (early 2024) that neither the
# primary guild's fixed ids (2023) nor the fake's own snowflakes (now) use.
_SHARDED_GUILD_EPOCH = 1_200_000_000_000_000_000 >> 22
_MAX_SHARD_COUNT = 1023  # the shard count is kept in bits 12..21 of the ids
_MEMBER_NAMES = ("alice", "bob", "carol")


def guild_on_shard(
    shard: int,
    shard_count: int,
    index: int = 0,
    *,
    users: dict[str, str] | None = None,
    moderators: set[str] | None = None,
    name: str | None = None,
    locale: str = "en-US",
) -> Guild:
    """A guild whose events go to shard ``shard`` of ``shard_count`` (``(int(id) >> 22) %
    shard_count == shard``); ``index`` tells apart several guilds on the same shard.

    Its ids are all its own, never those of another ``(shard, shard_count, index)`` nor of the
    primary guild: the guild id is ``(t << 22) | (shard_count << 12)`` with ``t`` (the
    snowflake's timestamp) ``≡ shard (mod shard_count)`` in early 2024; its channels
    ``general``, ``draughts``, ``off-topic`` are the guild id ``| 0x201``, ``| 0x202``,
    ``| 0x203``, its Admin role ``| 0x301``. Its members are ``users`` (user id -> username;
    pass ids of another guild, e.g. the primary guild's Alice, to put the same person in both, as
    on Discord), by default three of its own: ``| 0x101``, ``| 0x102``, ``| 0x103``, named
    ``alice.S.I``, ``bob.S.I``, ``carol.S.I`` (``S`` the shard, ``I`` the index). The owner is
    the first member, and the only moderator unless ``moderators`` says otherwise."""
    if not 1 <= shard_count <= _MAX_SHARD_COUNT:
        raise ValueError(f"shard_count must be 1..{_MAX_SHARD_COUNT}, not {shard_count}")
    if not 0 <= shard < shard_count:
        raise ValueError(f"shard must be 0..{shard_count - 1}, not {shard}")
    if index < 0:
        raise ValueError(f"index must be at least 0, not {index}")
    base = -(-_SHARDED_GUILD_EPOCH // shard_count) * shard_count  # a multiple of the count
    t = base + index * shard_count + shard
    guild_id = (t << 22) | (shard_count << 12)

    def sub(low: int) -> str:
        return str(guild_id | low)

    if users is None:
        users = {sub(0x101 + n): f"{who}.{shard}.{index}" for n, who in enumerate(_MEMBER_NAMES)}
    if not users:
        raise ValueError("a guild needs at least one member (its owner)")
    owner = next(iter(users))
    guild = Guild(
        id=str(guild_id),
        name=name or f"Fake Guild {shard}/{shard_count} #{index}",
        owner_id=owner,
        locale=locale,
        channels={sub(0x201): "general", sub(0x202): "draughts", sub(0x203): "off-topic"},
        users=dict(users),
        extra_role_id=sub(0x301),
        moderators=set(moderators) if moderators is not None else {owner},
    )
    assert guild.shard(shard_count) == shard
    return guild


def check_distinct_ids(guilds: list[Guild], bot_id: str) -> None:
    """Guild, channel and role ids are Discord snowflakes: no two things share one (a user may
    be in several guilds, but is no guild, channel or role)."""
    seen: dict[str, str] = {bot_id: "the bot"}
    for guild in guilds:
        things = [(guild.id, f"guild {guild.id}"), (guild.extra_role_id, f"role of {guild.id}")]
        things += [(cid, f"channel {cid} of guild {guild.id}") for cid in guild.channels]
        for thing_id, what in things:
            if thing_id in seen:
                raise ValueError(f"id {thing_id} is both {seen[thing_id]} and {what}")
            seen[thing_id] = what
    for guild in guilds:
        for user_id in guild.users:
            if user_id in seen:
                raise ValueError(f"user id {user_id} of guild {guild.id} is {seen[user_id]}")


def user_object(user_id: str, username: str, *, bot: bool = False) -> dict[str, Any]:
    return {
        "id": user_id,
        "username": username,
        "discriminator": "0",
        "global_name": None if bot else username.capitalize(),
        "avatar": None,
        "bot": bot,
        "system": False,
        "public_flags": 0,
        "flags": 0,
    }
