"""What a tournament's messages say: its announcement, its pairings, its lines in lists.

The announcement is one message kept current (players joined, when it starts as a Discord
timestamp every client shows in its reader's time zone, format, time control, rating range,
status): it is edited on every join, leave, start, pause and end, so the channel reads the
event's state in one place.  Each pairing has a message of its own, which its game's thread
hangs off; its text names the round and board, so it is found again after a crash among the
bot's posts (:mod:`bot.ui.arrivals` finds a post by its text).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

import discord
from discord import app_commands

from ..enums import TournamentStatus
from ..i18n import Text, _, _n, as_text, duration, render
from ..markdown import shown
from ..results import PairingView, TournamentView
from ..tournaments.model import Format
from .embeds import rating_range_words, relative_time, time_control_words
from .limits import CHOICE_NAME, CHOICES, EMBED_DESCRIPTION, FIELD_VALUE, fit_embed, label, listing
from .standings_sheet import score

OPEN_COLOUR: Final = discord.Colour(0x3B82F6)
RUNNING_COLOUR: Final = discord.Colour(0x16A34A)
OVER_COLOUR: Final = discord.Colour(0x8A8F98)

FORMAT_TITLES: Final[dict[Format, Text]] = {
    Format.SWISS: _("Swiss"),
    Format.ROUND_ROBIN: _("Round robin"),
    Format.ARENA: _("Arena"),
}
STATUS_WORDS: Final[dict[TournamentStatus, Text]] = {
    TournamentStatus.OPEN: _("Taking entries"),
    TournamentStatus.RUNNING: _("Running"),
    TournamentStatus.PAUSED: _("Paused by a moderator"),
    TournamentStatus.FINISHED: _("Finished"),
    TournamentStatus.CANCELLED: _("Cancelled"),
}
MAX_NAMED_PLAYERS: Final = 40
"""Players named in the announcement; the rest are counted."""
LEADERS: Final = 5
"""Lines of the announcement's leader board (the whole table is a tap away: Standings)."""


def format_words(view: TournamentView) -> Text:
    """``Swiss, 5 rounds``, ``Round robin, double``, ``Arena, 1 hour``."""
    title = FORMAT_TITLES[view.format]
    if view.format is Format.SWISS and view.rounds is not None:
        return _n("{format}, {count} round", "{format}, {count} rounds", view.rounds, format=title)
    if view.format is Format.ROUND_ROBIN and view.double:
        return _("{format}, twice (colours swapped)", format=title)
    if view.format is Format.ARENA and view.duration is not None:
        return _("{format}, {time}", format=title, time=duration(view.duration))
    return title


def status_line(view: TournamentView) -> Text:
    """The status, with the round being played and when it starts or started."""
    words = STATUS_WORDS[view.status]
    if view.status is TournamentStatus.OPEN and view.starts_at is not None:
        return _("{status}: starts {when}", status=words, when=_full_time(view.starts_at))
    if view.status is TournamentStatus.OPEN:
        return _("{status}: starts when a moderator starts it", status=words)
    if view.status in (TournamentStatus.RUNNING, TournamentStatus.PAUSED) and view.round:
        if view.format is Format.ARENA and view.ends_at is not None:
            return _("{status}: ends {when}", status=words, when=relative_time(view.ends_at))
        if view.format is Format.ARENA:
            return words
        total = view.rounds if view.rounds is not None else view.table.rounds
        if total:
            return _(
                "{status}: round {round} of {total}", status=words, round=view.round, total=total
            )
        return _("{status}: round {round}", status=words, round=view.round)
    return words


def control_words(view: TournamentView) -> tuple[Text, Text]:
    """The heading and words of the event's time control (``Clock``, ``3+2 (Blitz)``)."""
    return time_control_words(view.move_time, view.clock)


def mention(user_id: int) -> str:
    return f"<@{user_id}>"


def _full_time(timestamp: float) -> str:
    """A Discord timestamp shown in each reader's time zone, and how far away it is."""
    return f"<t:{int(timestamp)}:f> ({relative_time(timestamp)})"


def announcement_embed(view: TournamentView, code: str) -> discord.Embed:
    """The announcement: the event's terms, its status and who has joined."""
    colour = {
        TournamentStatus.OPEN: OPEN_COLOUR,
        TournamentStatus.RUNNING: RUNNING_COLOUR,
        TournamentStatus.PAUSED: RUNNING_COLOUR,
    }.get(view.status, OVER_COLOUR)
    embed = discord.Embed(
        title=render(_("Tournament: {name}", name=view.name), code)[:256],
        description=render(status_line(view), code),
        colour=colour,
    )

    def field(name: Text, value: Text | str, inline: bool = True) -> None:
        embed.add_field(
            name=render(name, code), value=render(as_text(value), code)[:FIELD_VALUE], inline=inline
        )

    field(_("Format"), format_words(view))
    if view.format is Format.SWISS and view.bye_points != 1:
        field(_("Bye"), _("scores {points}", points=score(view.bye_points, code)))
    field(_("Variant"), view.variant_title)
    field(*control_words(view))
    field(_("Rated"), _("yes") if view.rated else _("no"))
    rating_range = rating_range_words(view)
    if rating_range is not None:
        field(_("Who may join"), rating_range)
    if view.max_players is not None:
        field(_("Places"), _("{count} at most", count=view.max_players))
    no_show = _("a game not begun within {time} is lost", time=duration(view.forfeit_after))
    field(_("No-shows"), no_show)
    if view.berserk:
        field(_("Berserk"), _("allowed: half your clock for an extra point on a win"))
    leaders = leaders_words(view, code)
    if leaders:
        field(_("Leaders"), leaders, inline=False)
    field(
        _("Players ({count})", count=len(view.players)),
        players_words(view, code),
        inline=False,
    )
    embed.set_footer(text=render(_("Tournament #{id}", id=view.id), code))
    return fit_embed(embed)


def leaders_words(view: TournamentView, code: str) -> str:
    """The top of the table once a game has counted, so the announcement, edited at every
    round (and at every wave of an arena), is the event's live leader board: ``1. Ann 6 🔥``
    (the flame: an arena player whose next win or draw counts double)."""
    started = view.status is not TournamentStatus.OPEN
    if not started or not any(row.games or row.points for row in view.table.rows):
        return ""
    lines = [
        f"{row.rank}. {shown(row.entrant.name)} · **{score(row.points, code)}**"
        + (" 🔥" if row.on_fire else "")
        for row in view.table.rows[:LEADERS]
    ]
    return "\n".join(lines)


def players_words(view: TournamentView, code: str) -> str:
    """Who has joined, best seed first, as many as fit a field; ``nobody yet`` before anyone."""
    if not view.players:
        return render(_("nobody yet: press Join"), code)
    ranked = sorted(view.players, key=lambda p: (-p.rating, p.number))
    names = [shown(p.name) + (f" ({round(p.rating)})" if not p.withdrawn else " ✗") for p in ranked]
    return listing(names, FIELD_VALUE, most=MAX_NAMED_PLAYERS, code=code, sep=", ")


def pairing_content(view: TournamentView, pairing: PairingView, code: str) -> str:
    """A pairing's own message, which pings both players and which the game's thread hangs
    off: ``Round 2, board 3: @Ann (White) v @Bob (Black) · pairing #17`` (the number
    ``/tournament fix`` takes); a bye says so."""
    if pairing.black is None:
        text = _(
            "Round {round}: {player} has a bye and scores {points}.",
            round=pairing.round,
            player=mention(pairing.white.id),
            points=score(pairing.white_points if pairing.white_points is not None else 1.0, code),
        )
    elif view.format is Format.ARENA:
        text = _(
            "Pairing #{id}: {white} (White) v {black} (Black): your game is in the thread below.",
            id=pairing.id,
            white=mention(pairing.white.id),
            black=mention(pairing.black.id),
        )
    else:
        text = _(
            "Round {round}, board {board}: {white} (White) v {black} (Black) · pairing #{id}",
            id=pairing.id,
            round=pairing.round,
            board=pairing.board,
            white=mention(pairing.white.id),
            black=mention(pairing.black.id),
        )
    return render(text, code)


def thread_title(view: TournamentView, pairing: PairingView, code: str) -> str:
    """A pairing's game thread: ``R2 B3: Ann v Bob`` (the event's name is the channel's)."""
    assert pairing.black is not None
    return render(
        _(
            "R{round} B{board}: {white} v {black}",
            round=pairing.round,
            board=pairing.board,
            white=pairing.white.name,
            black=pairing.black.name,
        ),
        code,
    )


def listing_line(view: TournamentView, code: str) -> str:
    """One event in ``/tournament list``: ``**#3** Friday blitz · Swiss, 5 rounds · 3+2 ·
    12 players · Running: round 2 of 5``."""
    control = (
        _("{time} a move", time=duration(view.move_time))
        if view.clock is None
        else control_words(view)[1]
    )
    line = _n(
        "**#{id}** {name} · {format} · {control} · {count} player · {status}",
        "**#{id}** {name} · {format} · {control} · {count} players · {status}",
        len(view.players),
        id=view.id,
        name=shown(view.name),
        format=format_words(view),
        control=control,
        status=status_line(view),
    )
    return render(line, code)


def listing_embed(views: list[TournamentView], code: str) -> discord.Embed:
    """``/tournament list``: this server's events still to come or being played."""
    return _events(
        [listing_line(v, code) for v in views],
        _("Tournaments ({count})", count=len(views)),
        _("No tournaments here now. A moderator creates one with `/tournament create`."),
        code,
    )


def _events(lines: list[str], title: Text, empty: Text, code: str) -> discord.Embed:
    """A list of events as an embed: as many lines as fit, or ``empty`` when there are none."""
    description = listing(lines, EMBED_DESCRIPTION, code=code) if lines else render(empty, code)
    return fit_embed(discord.Embed(title=render(title, code), description=description))


def winner_words(view: TournamentView) -> Text:
    """The winner of a finished event (shared first places named together)."""
    first = [row.entrant.name for row in view.table.rows if row.rank == 1]
    if not first:
        return _("no games were played")
    return _("won by {names}", names=", ".join(shown(name) for name in first))


def event_line(view: TournamentView, code: str) -> str:
    """One finished event on the ``/history`` event page: ``**#3** Friday blitz · Swiss,
    5 rounds · 12 players · won by Ann``."""
    line = _n(
        "**#{id}** {name} · {format} · {count} player · {winner}",
        "**#{id}** {name} · {format} · {count} players · {winner}",
        len(view.players),
        id=view.id,
        name=shown(view.name),
        format=format_words(view),
        winner=winner_words(view),
    )
    return render(line, code)


def events_embed(views: list[TournamentView], code: str) -> discord.Embed:
    """``/history tournaments:True``: the server's finished events, newest first."""
    return _events(
        [event_line(v, code) for v in views],
        _("Finished tournaments ({count})", count=len(views)),
        _("No tournament has finished on this server yet."),
        code,
    )


def tournament_choice(view: TournamentView) -> tuple[str, int]:
    """An event as an autocomplete suggestion: ``#3 Friday blitz``."""
    return f"#{view.id} {view.name}", view.id


def pairing_choice(pairing: PairingView, code: str) -> tuple[str, int]:
    """A pairing as an autocomplete suggestion: ``#17 R2 B3: Ann v Bob``."""
    if pairing.black is None:
        name = render(
            _(
                "#{id} R{round}: {player} (bye)",
                id=pairing.id,
                round=pairing.round,
                player=pairing.white.name,
            ),
            code,
        )
        return name, pairing.id
    words = _(
        "#{id} R{round} B{board}: {white} v {black}",
        id=pairing.id,
        round=pairing.round,
        board=pairing.board,
        white=pairing.white.name,
        black=pairing.black.name,
    )
    return render(words, code), pairing.id


def number_choices(
    offered: Iterable[tuple[str, int]], current: str
) -> list[app_commands.Choice[int]]:
    """Integer suggestions whose name holds what is typed (every one while nothing is), as
    Discord takes them: at most 25, names of 1-100 characters."""
    typed = current.strip().lower().lstrip("#")
    out: list[app_commands.Choice[int]] = []
    for name, value in offered:
        if typed and typed not in name.lower():
            continue
        out.append(app_commands.Choice(name=label(name, CHOICE_NAME), value=value))
        if len(out) == CHOICES:
            break
    return out
