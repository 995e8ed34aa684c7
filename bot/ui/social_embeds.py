"""Embeds for what a server has played: ``/stats``, ``/leaderboard``, ``/history`` and
``/settings``, each in the language ``code`` of its reader.

Players are shown as mentions (Discord renders each viewer's own name for them, and the replies
allow no pings), ratings as the service shows them (``1500?`` while provisional).
"""

from __future__ import annotations

from collections.abc import Callable

import discord

from ..enums import Orientation, ThreadMode
from ..i18n import Text, _, _n, _p, as_text, duration, language_name, render, verbatim
from ..markdown import shown
from ..results import GameSummary, Leaderboard, ServerSettings, Stats
from ..words import POOL_TITLES, variant_title
from .embeds import CHALLENGE, FINISHED, mention, relative_time
from .limits import EMBED_DESCRIPTION, FIELD_VALUE, fit_embed, listing
from .texts import theme_word

STREAK_WORDS: dict[str, Callable[[int], Text]] = {
    "W": lambda n: _n("{count} win", "{count} wins", n),
    "D": lambda n: _n("{count} draw", "{count} draws", n),
    "L": lambda n: _n("{count} loss", "{count} losses", n),
}
"""A run of the same result (the service's ``W``, ``D`` or ``L``) in words."""

OUTCOME_LETTERS: dict[str, Text] = {
    # Translators: the one-letter abbreviations of a win, a draw and a loss (as in "W/D/L").
    "W": _p("result letter", "W"),
    "D": _p("result letter", "D"),
    "L": _p("result letter", "L"),
}

THREAD_WORDS: dict[ThreadMode, Text] = {
    ThreadMode.OPTIONAL: _("when the challenger asks (or the channel is busy)"),
    ThreadMode.ALWAYS: _("every game gets its own thread"),
    ThreadMode.NEVER: _("never; games are played in the channel"),
}


def _players(game: GameSummary) -> Text:
    return _("{white} v {black}", white=mention(game.white), black=mention(game.black))


def _rated(game: GameSummary, about_player: bool) -> Text:
    if about_player and game.rating_change is not None:
        return _("rated ({change})", change=f"{game.rating_change:+.0f}")
    return _("rated")


def summary_line(game: GameSummary, code: str, *, about_player: bool = False) -> str:
    """``#12 · Alice v Bob · English draughts · Blitz · 1-0 (Bob resigned) · rated (+12) · 2
    hours ago`` in the language ``code``."""
    if game.result is None:
        result = render(_p("game result", "aborted"), code)
    elif game.termination:
        result = f"**{game.result}** ({render(as_text(game.termination), code)})"
    else:
        result = game.result
    parts = [
        f"**#{game.id}**",
        render(_players(game), code),
        render(as_text(game.variant_title), code),
        render(POOL_TITLES[game.pool], code),
        result,
    ]
    if game.match_game is not None:
        parts.append(render(_("match game {number}", number=game.match_game), code))
    if game.rated:
        parts.append(render(_rated(game, about_player), code))
    if about_player and game.outcome is not None:
        letter = OUTCOME_LETTERS.get(game.outcome) or verbatim(game.outcome)
        parts.insert(1, render(letter, code))
    parts.append(relative_time(game.ended_at))
    return " · ".join(parts)


def stats_embed(stats: Stats, code: str) -> discord.Embed:
    def say(text: Text) -> str:
        return render(text, code)

    player = verbatim(shown(stats.player.name))
    embed = discord.Embed(
        # Translators: a player's name, then the variant and time class their ratings are in.
        title=say(
            _(
                "{player}: {variant}, {pool}",
                player=player,
                variant=as_text(stats.variant_title),
                pool=POOL_TITLES[stats.pool],
            )
        ),
        description=say(
            _("Ratings and record of {player} on this server.", player=mention(stats.player))
        ),
        colour=CHALLENGE,
    )
    rating = say(_("Rating"))
    if stats.rating is None:
        embed.add_field(name=rating, value=say(_("unrated: no rated games yet")), inline=False)
    else:
        shown_rating = stats.rating.shown
        if shown_rating.endswith("?"):
            value = say(_("**{rating}** (provisional)", rating=shown_rating))
        else:
            value = f"**{shown_rating}**"
        embed.add_field(name=rating, value=value)
        embed.add_field(name=say(_("Deviation")), value=f"±{stats.rating.deviation:.0f}")
        if stats.rank is not None:
            rank, total = stats.rank
            embed.add_field(
                name=say(_("Rank")), value=say(_("{rank} of {total}", rank=rank, total=total))
            )
    embed.add_field(
        name=say(_("Record (W/D/L)")), value=f"{stats.wins} / {stats.draws} / {stats.losses}"
    )
    if stats.streak is not None:
        letter, run = stats.streak
        streak = (
            STREAK_WORDS[letter](run) if letter in STREAK_WORDS else verbatim(f"{run} {letter}")
        )
        embed.add_field(name=say(_("Streak")), value=say(streak))
    recent = listing(
        [summary_line(g, code, about_player=True) for g in stats.recent], FIELD_VALUE, code=code
    )
    embed.add_field(name=say(_("Recent games")), value=recent or say(_("none yet")), inline=False)
    return fit_embed(embed)


def leaderboard_embed(board: Leaderboard, code: str) -> discord.Embed:
    def say(text: Text) -> str:
        return render(text, code)

    lines = [
        f"**{rank}.** {mention(line.player)} · **{line.shown}** · "
        + say(_n("{count} game", "{count} games", line.games))
        for rank, line in enumerate(board.top, start=1)
    ]
    embed = discord.Embed(
        title=say(
            _(
                "Leaderboard: {variant}, {pool}",
                variant=as_text(board.variant_title),
                pool=POOL_TITLES[board.pool],
            )
        ),
        description=listing(lines, EMBED_DESCRIPTION, code=code)
        or say(_("No rated games in this variant yet.")),
        colour=FINISHED,
    )
    you = say(_p("leaderboard", "You"))
    if board.mine is not None and board.my_line is not None:
        rank, total = board.mine
        place = say(_("rank {rank} of {total}", rank=rank, total=total))
        embed.add_field(name=you, value=f"{place} · **{board.my_line.shown}**", inline=False)
    else:
        embed.add_field(name=you, value=say(_("unrated in this variant")), inline=False)
    embed.set_footer(text=say(_("Glicko-2; ? marks a provisional rating")))
    return fit_embed(embed)


def history_embed(games: tuple[GameSummary, ...], whose: str | None, code: str) -> discord.Embed:
    """``/history``; ``whose`` is the display name of the player asked about (escaped here)."""
    if whose:
        title = _("Recent games of {player}", player=verbatim(shown(whose)))
    else:
        title = _("Recent games on this server")
    lines = [summary_line(g, code) for g in games]
    embed = discord.Embed(
        title=render(title, code),
        description=listing(lines, EMBED_DESCRIPTION, code=code)
        or render(_("No finished games yet."), code),
        colour=CHALLENGE,
    )
    footer = _("/pdn game:ID for the record, /replay game:ID for the animation")
    embed.set_footer(text=render(footer, code))
    return fit_embed(embed)


def settings_embed(
    settings: ServerSettings, changed: bool, code: str, language: str | None = None
) -> discord.Embed:
    """``/settings``: the server's settings, in the asking moderator's language; ``language``
    is the server's chosen language for public messages (None: Discord's server language)."""

    def say(text: Text) -> str:
        return render(text, code)

    def more(n: int) -> str:
        return say(_n("and {count} more", "and {count} more", n))

    threads = THREAD_WORDS.get(settings.threads) or verbatim(str(settings.threads))
    channels = listing(
        [f"<#{c}>" for c in settings.channels], FIELD_VALUE, sep=", ", more=more
    ) or say(_("every channel"))
    title = _("Server settings updated") if changed else _("Server settings")
    embed = discord.Embed(title=say(title), colour=CHALLENGE)
    embed.add_field(name=say(_("Default variant")), value=say(variant_title(settings.variant)))
    embed.add_field(name=say(_("Default time per move")), value=say(duration(settings.move_time)))
    embed.add_field(name=say(_("Threads")), value=say(threads), inline=False)
    embed.add_field(name=say(_("Game channels")), value=channels, inline=False)
    theme = theme_word(settings.theme)
    if settings.orientation == Orientation.WHITE:
        board = _("White at the bottom, {theme} theme", theme=theme)
    else:
        board = _("Black at the bottom, {theme} theme", theme=theme)
    embed.add_field(name=say(_("Public board")), value=say(board))
    if language is None:
        public = say(_("the server's language in Discord"))
    else:
        public = language_name(language)
    embed.add_field(name=say(_("Language of public messages")), value=public)
    return fit_embed(embed)
