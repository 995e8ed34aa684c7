"""Embeds for what a server has played: ``/stats``, ``/leaderboard``, ``/history`` and
``/settings``.

Players are shown as mentions (Discord renders each viewer's own name for them, and the replies
allow no pings), ratings as the service shows them (``1500?`` while provisional).
"""

from __future__ import annotations

import discord

from rules.variants import find_variant

from ..enums import Orientation
from ..markdown import shown
from ..results import GameSummary, Leaderboard, Stats
from ..service.settings import ServerSettings
from ..words import duration, plural
from .embeds import CHALLENGE, FINISHED, mention, relative_time
from .limits import EMBED_DESCRIPTION, FIELD_VALUE, fit_embed, listing

STREAK_WORDS = {"W": ("win", "wins"), "D": ("draw", "draws"), "L": ("loss", "losses")}


def _change(value: float | None) -> str:
    return "" if value is None else f" ({value:+.0f})"


def summary_line(game: GameSummary, *, about_player: bool = False) -> str:
    """``#12 · Alice v Bob · English draughts · 1-0 (Bob resigned) · rated (+12) · 2 hours ago``"""
    if game.result is None:
        result = "aborted"
    else:
        result = f"**{game.result}** ({game.termination})" if game.termination else game.result
    parts = [
        f"**#{game.id}**",
        f"{mention(game.white)} v {mention(game.black)}",
        game.variant_title,
        result,
    ]
    if game.match_game is not None:
        parts.append(f"match game {game.match_game}")
    if game.rated:
        parts.append("rated" + (_change(game.rating_change) if about_player else ""))
    if about_player and game.outcome is not None:
        parts.insert(1, game.outcome)
    parts.append(relative_time(game.ended_at))
    return " · ".join(parts)


def stats_embed(stats: Stats) -> discord.Embed:
    embed = discord.Embed(
        title=f"{shown(stats.player.name)}: {stats.variant_title}",
        description=f"Ratings and record of {mention(stats.player)} on this server.",
        colour=CHALLENGE,
    )
    if stats.rating is None:
        embed.add_field(name="Rating", value="unrated: no rated games yet", inline=False)
    else:
        provisional = " (provisional)" if stats.rating.shown.endswith("?") else ""
        embed.add_field(name="Rating", value=f"**{stats.rating.shown}**{provisional}")
        embed.add_field(name="Deviation", value=f"±{stats.rating.deviation:.0f}")
        if stats.rank is not None:
            embed.add_field(name="Rank", value=f"{stats.rank[0]} of {stats.rank[1]}")
    embed.add_field(name="Record (W/D/L)", value=f"{stats.wins} / {stats.draws} / {stats.losses}")
    if stats.streak is not None:
        letter, run = stats.streak
        one, many = STREAK_WORDS[letter]
        embed.add_field(name="Streak", value=f"{run} {one if run == 1 else many}")
    recent = listing([summary_line(g, about_player=True) for g in stats.recent], FIELD_VALUE)
    embed.add_field(name="Recent games", value=recent or "none yet", inline=False)
    return fit_embed(embed)


def leaderboard_embed(board: Leaderboard) -> discord.Embed:
    lines = [
        f"**{rank}.** {mention(line.player)} · **{line.shown}** · {plural(line.games, 'game')}"
        for rank, line in enumerate(board.top, start=1)
    ]
    embed = discord.Embed(
        title=f"Leaderboard: {board.variant_title}",
        description=listing(lines, EMBED_DESCRIPTION) or "No rated games in this variant yet.",
        colour=FINISHED,
    )
    if board.mine is not None and board.my_line is not None:
        rank, total = board.mine
        embed.add_field(
            name="You", value=f"rank {rank} of {total} · **{board.my_line.shown}**", inline=False
        )
    else:
        embed.add_field(name="You", value="unrated in this variant", inline=False)
    embed.set_footer(text="Glicko-2; ? marks a provisional rating")
    return fit_embed(embed)


def history_embed(games: tuple[GameSummary, ...], whose: str | None) -> discord.Embed:
    """``/history``; ``whose`` is the display name of the player asked about (escaped here)."""
    title = f"Recent games of {shown(whose)}" if whose else "Recent games on this server"
    lines = [summary_line(g) for g in games]
    embed = discord.Embed(
        title=title,
        description=listing(lines, EMBED_DESCRIPTION) or "No finished games yet.",
        colour=CHALLENGE,
    )
    embed.set_footer(text="/pdn game:ID for the record, /replay game:ID for the animation")
    return fit_embed(embed)


def settings_embed(settings: ServerSettings, changed: bool) -> discord.Embed:
    threads = {
        "optional": "when the challenger asks (or the channel is busy)",
        "always": "every game gets its own thread",
        "never": "never; games are played in the channel",
    }[settings.threads]
    channels = (
        listing(
            [f"<#{c}>" for c in settings.channels],
            FIELD_VALUE,
            sep=", ",
            more=lambda n: f"and {n} more",
        )
        or "every channel"
    )
    embed = discord.Embed(
        title="Server settings" + (" updated" if changed else ""), colour=CHALLENGE
    )
    embed.add_field(name="Default variant", value=find_variant(settings.variant).title)
    embed.add_field(name="Default time per move", value=duration(settings.move_time))
    embed.add_field(name="Threads", value=threads, inline=False)
    embed.add_field(name="Game channels", value=channels, inline=False)
    bottom = "White" if settings.orientation == Orientation.WHITE else "Black"
    embed.add_field(name="Public board", value=f"{bottom} at the bottom, {settings.theme} theme")
    return fit_embed(embed)
