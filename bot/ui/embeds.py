"""Embeds built from the service's plain views.

Every board message looks the same whatever caused it (a move, a draw, a timeout), so players
learn one layout: players with colours, variant, move number, last move, whose turn, a status
line, the board image, and ``Game #id`` in the footer.
"""

from __future__ import annotations

from typing import Protocol

import discord

from ..enums import ChallengeStatus, ColorChoice, GameStatus, Side
from ..i18n import Text, _, _n, as_text, duration, render, verbatim
from ..markdown import shown
from ..results import ChallengeView, GameView, Player, TimeControl
from ..words import POOL_TITLES
from .limits import EMBED_DESCRIPTION, FIELD_VALUE, fit, fit_embed, listing

WHITE_TO_MOVE = discord.Colour(0xD8C49A)
BLACK_TO_MOVE = discord.Colour(0x7A4E2D)
"""The embed's bar says whose turn it is; both stand out on Discord's dark and light themes
(a near-black bar vanished on the dark one)."""
FINISHED = discord.Colour(0xC9A227)
CHALLENGE = discord.Colour(0x3B82F6)
CLOSED = discord.Colour(0x8A8F98)

CHALLENGE_STATES: dict[ChallengeStatus, Text] = {
    ChallengeStatus.ACCEPTED: _("Accepted"),
    ChallengeStatus.DECLINED: _("Declined"),
    ChallengeStatus.CANCELLED: _("Cancelled by the challenger"),
    ChallengeStatus.EXPIRED: _("Expired without an answer"),
}


MAX_LISTED_GAMES = 20
"""``/games`` lists at most this many (fewer when their lines fill the embed) and counts the
rest."""

EN = "en"
"""Every builder takes the language ``code`` of the message it builds; English by default."""


def mention(player: Player) -> str:
    return f"<@{player.id}>"


def relative_time(timestamp: float) -> str:
    """A Discord timestamp that every client shows in its own words ("in 5 hours")."""
    return f"<t:{int(timestamp)}:R>"


def status_words(view: GameView, code: str = EN) -> str:
    """What stands between moves, only when something does: a takeback asked, a draw offered,
    a running count (the service's ``status_parts`` are Markdown already, names escaped there);
    empty otherwise."""
    parts = [render(as_text(part), code) for part in view.status_parts]
    if view.takeback_offer is not None:
        name = shown(view.player(view.takeback_offer).name)
        parts.insert(0, render(_("Takeback asked by {name}", name=name), code))
    return fit(" · ".join(parts), FIELD_VALUE) if parts else ""


def turn_line(view: GameView, code: str = EN) -> str:
    """Whose turn it is, with the game's one mention, and the deadline: ``<@2> to move, due in
    5 hours``.  The message's content, so the player to move is pinged (an embed never
    pings); empty once the game is over."""
    if not view.running or view.to_move is None:
        return ""
    player = mention(view.to_move)
    if view.clock is not None and view.clock.flag_at is not None:
        flag = relative_time(view.clock.flag_at)
        return render(_("{player} to move, flag falls {flag}.", player=player, flag=flag), code)
    if view.deadline is not None:
        deadline = relative_time(view.deadline)
        return render(
            _("{player} to move, due {deadline}.", player=player, deadline=deadline), code
        )
    return render(_("{player} to move.", player=player), code)


def clock_time(seconds: float) -> str:
    """``2:58``, ``1:02:30``; tenths under ten seconds (``0:07.4``), when every one counts."""
    seconds = max(0.0, seconds)
    if seconds < 10:
        return f"0:{seconds:04.1f}"
    whole = int(seconds)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def clock_line(view: GameView, code: str = EN) -> str:
    """``Clock 3+2 (Blitz): White 2:58 · Black 3:00``: each side's time as its turn started
    (the side to move's runs down in the content's countdown), low time in bold and said;
    empty for a game with a time per move."""
    clock = view.clock
    if clock is None:
        return ""
    times: dict[Side, Text | str] = {}
    for side in (Side.WHITE, Side.BLACK):
        shown_time = clock_time(clock.left(side))
        times[side] = _("**{time} (low)**", time=shown_time) if clock.low is side else shown_time
    line = _(
        "Clock {control} ({pool}): White {white} · Black {black}",
        control=clock.control.label,
        pool=POOL_TITLES[clock.control.pool],
        white=times[Side.WHITE],
        black=times[Side.BLACK],
    )
    return render(line, code)


def _seat(view: GameView, side: Side) -> Text:
    name = shown(view.player(side).name)
    rating = view.white_rating if side == Side.WHITE else view.black_rating
    white = side == Side.WHITE
    if view.player(side).id == view.computer_id:
        level = view.computer_level or 0
        if white:
            return _("**{name}** (White, computer level {level})", name=name, level=level)
        return _("**{name}** (Black, computer level {level})", name=name, level=level)
    if rating:
        if white:
            return _("**{name}** (White, {rating})", name=name, rating=rating)
        return _("**{name}** (Black, {rating})", name=name, rating=rating)
    return _("**{name}** (White)", name=name) if white else _("**{name}** (Black)", name=name)


def players_line(view: GameView, code: str = EN) -> str:
    """``**Alice** (White, 1523) v **Bob** (Black, 1500?)``: both players with their colours
    and ratings, in words (coloured discs vanish on Discord's dark theme, and a screen reader
    reads them out as "medium black circle")."""
    white, black = _seat(view, Side.WHITE), _seat(view, Side.BLACK)
    return render(_("{white} v {black}", white=white, black=black), code)


def game_kind(view: GameView, code: str = EN) -> str:
    """``rated``, ``casual``, ``aborted, unrated``; a match game says which."""
    return render(_kind(view), code)


def _kind(view: GameView) -> Text:
    kind = _("rated") if view.rated else _("casual")
    if view.status == GameStatus.ABORTED:
        kind = _("aborted, unrated")
    if view.match_game is not None:
        kind = _("{kind}, match game {number} of 2", kind=kind, number=view.match_game)
    return kind


def game_embed(
    view: GameView, headline: Text | str, image: str | None, code: str = EN
) -> discord.Embed:
    """The board message, kept short for a phone: the players, what just happened
    (``headline``, the service's sentence: Markdown, names escaped), the last few moves, a
    status line only when there is one (or the result), the board image, and the game id,
    variant and kind in the footer.  Whose turn it is goes in the message's content
    (:func:`turn_line`).  Every part is sized here, so any view fits one message."""
    if view.running:
        colour = WHITE_TO_MOVE if view.turn == Side.WHITE else BLACK_TO_MOVE
    else:
        colour = FINISHED
    lines = [players_line(view, code)]
    clocks = clock_line(view, code)
    if clocks:
        lines.append(clocks)
    said = render(as_text(headline), code)
    if said:
        lines.append(said)
    if view.recent_moves:
        lines.append(f"`{view.recent_moves}`")
    if view.running:
        status = status_words(view, code)
        if status:
            lines.append(status)
    else:
        lines.append(result_words(view, code))
    if view.opening_label is not None and view.ply <= OPENING_SHOWN_PLIES:
        opening = as_text(view.opening_label)
        lines.append(render(_("Opening: {opening}", opening=opening), code))
    if view.start_fen is not None and view.ply <= OPENING_SHOWN_PLIES:
        lines.append(render(_("Started from `{fen}`", fen=view.start_fen), code))
    if view.hints:
        lines.append(render(_n("{count} hint taken", "{count} hints taken", view.hints), code))
    embed = discord.Embed(description=fit("\n".join(lines), EMBED_DESCRIPTION), colour=colour)
    if image is not None:
        embed.set_image(url=f"attachment://{image}")
    footer = _(
        "Game #{id} · {variant} · {kind}",
        id=view.id,
        variant=as_text(view.variant_title),
        kind=_kind(view),
    )
    embed.set_footer(text=render(footer, code))
    return fit_embed(embed)


OPENING_SHOWN_PLIES = 12
"""The ballot an English game started from is named on its boards for this long."""


def result_words(view: GameView, code: str = EN) -> str:
    """``1-0: alice wins (bob resigned)`` / ``1/2-1/2: draw (threefold repetition)``."""
    if view.status == GameStatus.ABORTED:
        return render(_("Aborted: no result"), code)
    result = view.result or ""
    how = as_text(view.termination or "")
    if view.winner is not None:
        words = _(
            "**{result}**: {name} wins ({termination})",
            result=result,
            name=shown(view.winner.name),
            termination=how,
        )
    else:
        words = _("**{result}**: draw ({termination})", result=result, termination=how)
    return render(words, code)


def _challenge_state(challenge: ChallengeView, game_channel: int | None) -> Text:
    if challenge.status == ChallengeStatus.ACCEPTED and challenge.game_id is not None:
        if game_channel is not None and game_channel != challenge.channel_id:
            return _(
                "Accepted: game #{id} in {channel}",
                id=challenge.game_id,
                channel=f"<#{game_channel}>",
            )
        return _("Accepted: game #{id}", id=challenge.game_id)
    return CHALLENGE_STATES.get(challenge.status, verbatim(str(challenge.status)))


def challenge_call(challenge: ChallengeView) -> Text:
    """The words above a new challenge: its opponent called (and pinged), or the channel told
    that anyone may accept it."""
    if challenge.opponent is None:
        return _("Open challenge: anyone here may accept it.")
    return _("{opponent}, you have been challenged!", opponent=mention(challenge.opponent))


def _challenge_words(challenge: ChallengeView, variant: Text) -> Text:
    """Who challenges whom to what (anyone, an open challenge not yet accepted)."""
    challenger = mention(challenge.challenger)
    if challenge.opponent is None:
        if challenge.match:
            return _(
                "{challenger} offers a two-game match of {variant}: anyone here may accept.",
                challenger=challenger,
                variant=variant,
            )
        return _(
            "{challenger} offers a game of {variant}: anyone here may accept.",
            challenger=challenger,
            variant=variant,
        )
    who = {"challenger": challenger, "opponent": mention(challenge.opponent)}
    if challenge.match:
        return _(
            "{challenger} challenges {opponent} to a two-game match of {variant}.",
            **who,
            variant=variant,
        )
    return _("{challenger} challenges {opponent} to a game of {variant}.", **who, variant=variant)


class RatingRange(Protocol):
    """What has a rating range: an open challenge, a tournament's entry limits."""

    @property
    def min_rating(self) -> int | None: ...

    @property
    def max_rating(self) -> int | None: ...


def rating_range_words(limits: RatingRange) -> Text | None:
    """Who may accept an open challenge, or enter a tournament, by rating (``1400 to 1700``,
    ``1400 or more``, ``up to 1700``); None without a range."""
    low, high = limits.min_rating, limits.max_rating
    if low is not None and high is not None:
        return _("rated {low} to {high}", low=low, high=high)
    if low is not None:
        return _("rated {low} or more", low=low)
    if high is not None:
        return _("rated up to {high}", high=high)
    return None


def time_control_words(move_time: int | None, clock: TimeControl | None) -> tuple[Text, Text]:
    """The heading and words of a time control: ``Clock``, ``3+2 (Blitz)``, or ``Time per
    move``, ``1 day``."""
    if clock is None:
        return _("Time per move"), duration(move_time or 0)
    pool = POOL_TITLES[clock.pool]
    return _("Clock"), _("{control} ({pool})", control=clock.label, pool=pool)


def challenge_embed(
    challenge: ChallengeView, game_channel: int | None = None, code: str = EN
) -> discord.Embed:
    """The challenge message; after it is answered it keeps the terms and says what happened
    (and where the game is, when ``game_channel`` is known)."""
    is_open = challenge.status == ChallengeStatus.OPEN
    variant = as_text(challenge.variant_title)
    what = _challenge_words(challenge, variant)
    embed = discord.Embed(
        title=render(_("Challenge: {variant}", variant=variant), code),
        description=render(what, code),
        colour=CHALLENGE if is_open else CLOSED,
    )
    name = shown(challenge.challenger.name)
    if challenge.color == ColorChoice.WHITE:
        colours = _("{name} plays White", name=name)
    elif challenge.color == ColorChoice.BLACK:
        colours = _("{name} plays Black", name=name)
    else:
        colours = _("random colours")

    def field(name: Text, value: Text | str, inline: bool = True) -> None:
        embed.add_field(name=render(name, code), value=render(as_text(value), code), inline=inline)

    field(_("Colours"), colours)
    field(*time_control_words(challenge.move_time, challenge.clock))
    if challenge.thread:
        field(_("Where"), _("in a new thread"))
    if challenge.opening_label is not None:
        field(_("Opening"), challenge.opening_label, inline=False)
    if challenge.start_fen is not None:
        field(_("Start position (unrated)"), f"`{challenge.start_fen}`", inline=False)
    if challenge.match:
        field(_("Match"), _("two games, same opening, colours swapped"), inline=False)
    rating_range = rating_range_words(challenge)
    if rating_range is not None:
        field(_("Rating range"), rating_range)
    if is_open:
        field(_("Expires"), relative_time(challenge.expires_at), inline=False)
    else:
        field(_("Status"), _challenge_state(challenge, game_channel), inline=False)
    embed.set_footer(text=render(_("Challenge #{id}", id=challenge.id), code))
    return fit_embed(embed)


def game_line(view: GameView, code: str = EN) -> str:
    """One running game in ``/games``: ``**#7** Alice v Bob · English draughts · #channel ·
    move 12, Bob to move (due in 5 hours)``."""
    line = _(
        "**#{id}** {white} v {black} · {variant} · {channel} · move {number}",
        id=view.id,
        white=shown(view.white.name),
        black=shown(view.black.name),
        variant=as_text(view.variant_title),
        channel=f"<#{view.channel_id}>",
        number=view.move_number,
    )
    if view.to_move is not None:
        line = _("{line}, {name} to move", line=line, name=shown(view.to_move.name))
    if view.deadline is not None:
        line = _("{line} (due {deadline})", line=line, deadline=relative_time(view.deadline))
    return render(line, code)


def games_embed(views: list[GameView], code: str = EN) -> discord.Embed:
    """``/games``: as many running games as fit, and how many more there are."""
    lines = [game_line(v, code) for v in views]
    description = listing(lines, EMBED_DESCRIPTION, most=MAX_LISTED_GAMES, code=code)
    title = render(_("Running games ({count})", count=len(views)), code)
    embed = discord.Embed(title=title, description=description)
    return fit_embed(embed)
