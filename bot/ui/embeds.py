"""Embeds built from the service's plain views.

Every board message looks the same whatever caused it (a move, a draw, a timeout), so players
learn one layout: players with colours, variant, move number, last move, whose turn, a status
line, the board image, and ``Game #id`` in the footer.
"""

from __future__ import annotations

import discord

from ..enums import ChallengeStatus, ColorChoice, GameStatus, Side
from ..markdown import shown
from ..results import ChallengeView, GameView, Player
from ..words import duration
from .limits import EMBED_DESCRIPTION, FIELD_VALUE, fit, fit_embed, listing
from .texts import color_word

WHITE_TO_MOVE = discord.Colour(0xD8C49A)
BLACK_TO_MOVE = discord.Colour(0x7A4E2D)
"""The embed's bar says whose turn it is; both stand out on Discord's dark and light themes
(a near-black bar vanished on the dark one)."""
FINISHED = discord.Colour(0xC9A227)
CHALLENGE = discord.Colour(0x3B82F6)
CLOSED = discord.Colour(0x8A8F98)

CHALLENGE_STATES = {
    ChallengeStatus.ACCEPTED: "Accepted",
    ChallengeStatus.DECLINED: "Declined",
    ChallengeStatus.CANCELLED: "Cancelled by the challenger",
    ChallengeStatus.EXPIRED: "Expired without an answer",
}


MAX_LISTED_GAMES = 20
"""``/games`` lists at most this many (fewer when their lines fill the embed) and counts the
rest."""


def mention(player: Player) -> str:
    return f"<@{player.id}>"


def relative_time(timestamp: float) -> str:
    """A Discord timestamp that every client shows in its own words ("in 5 hours")."""
    return f"<t:{int(timestamp)}:R>"


def status_words(view: GameView) -> str:
    """What stands between moves, only when something does: a takeback asked, a draw offered,
    a running count (the service's ``status_parts`` are Markdown already, names escaped there);
    empty otherwise."""
    parts = list(view.status_parts)
    if view.takeback_offer is not None:
        parts.insert(0, f"Takeback asked by {shown(view.player(view.takeback_offer).name)}")
    return fit(" · ".join(parts), FIELD_VALUE) if parts else ""


def turn_line(view: GameView) -> str:
    """Whose turn it is, with the game's one mention, and the deadline: ``<@2> to move, due in
    5 hours``.  The message's content, so the player to move is pinged (an embed never
    pings); empty once the game is over."""
    if not view.running or view.to_move is None:
        return ""
    line = f"{mention(view.to_move)} to move"
    if view.deadline is not None:
        line += f", due {relative_time(view.deadline)}"
    return line + "."


def _seat(view: GameView, side: Side) -> str:
    player = view.player(side)
    colour = "White" if side == Side.WHITE else "Black"
    rating = view.white_rating if side == Side.WHITE else view.black_rating
    if player.id == view.computer_id:
        colour += f", computer level {view.computer_level}"
    elif rating:
        colour += f", {rating}"
    return f"**{shown(player.name)}** ({colour})"


def players_line(view: GameView) -> str:
    """``**Alice** (White, 1523) v **Bob** (Black, 1500?)``: both players with their colours
    and ratings, in words (coloured discs vanish on Discord's dark theme, and a screen reader
    reads them out as "medium black circle")."""
    return f"{_seat(view, Side.WHITE)} v {_seat(view, Side.BLACK)}"


def game_kind(view: GameView) -> str:
    """``rated``, ``casual``, ``aborted, unrated``; a match game says which."""
    kind = "rated" if view.rated else "casual"
    if view.status == GameStatus.ABORTED:
        kind = "aborted, unrated"
    if view.match_game is not None:
        kind += f", match game {view.match_game} of 2"
    return kind


def game_embed(view: GameView, headline: str, image: str | None) -> discord.Embed:
    """The board message, kept short for a phone: the players, what just happened
    (``headline``, the service's sentence: Markdown, names escaped), the last few moves, a
    status line only when there is one (or the result), the board image, and the game id,
    variant and kind in the footer.  Whose turn it is goes in the message's content
    (:func:`turn_line`).  Every part is sized here, so any view fits one message."""
    if view.running:
        colour = WHITE_TO_MOVE if view.turn == Side.WHITE else BLACK_TO_MOVE
    else:
        colour = FINISHED
    lines = [players_line(view)]
    if headline:
        lines.append(headline)
    if view.recent_moves:
        lines.append(f"`{view.recent_moves}`")
    if view.running:
        status = status_words(view)
        if status:
            lines.append(status)
    else:
        lines.append(result_words(view))
    if view.opening_label is not None and view.ply <= OPENING_SHOWN_PLIES:
        lines.append(f"Opening: {view.opening_label}")
    embed = discord.Embed(description=fit("\n".join(lines), EMBED_DESCRIPTION), colour=colour)
    if image is not None:
        embed.set_image(url=f"attachment://{image}")
    embed.set_footer(text=f"Game #{view.id} · {view.variant_title} · {game_kind(view)}")
    return fit_embed(embed)


OPENING_SHOWN_PLIES = 12
"""The ballot an English game started from is named on its boards for this long."""


def result_words(view: GameView) -> str:
    """``1-0: alice wins (bob resigned)`` / ``1/2-1/2: draw (threefold repetition)``."""
    if view.status == GameStatus.ABORTED:
        return "Aborted: no result"
    who = f"{shown(view.winner.name)} wins" if view.winner is not None else "draw"
    return f"**{view.result}**: {who} ({view.termination})"


def challenge_embed(challenge: ChallengeView, game_channel: int | None = None) -> discord.Embed:
    """The challenge message; after it is answered it keeps the terms and says what happened
    (and where the game is, when ``game_channel`` is known)."""
    is_open = challenge.status == ChallengeStatus.OPEN
    what = "a two-game match" if challenge.match else "a game"
    embed = discord.Embed(
        title=f"Challenge: {challenge.variant_title}",
        description=(
            f"{mention(challenge.challenger)} challenges {mention(challenge.opponent)} "
            f"to {what} of {challenge.variant_title}."
        ),
        colour=CHALLENGE if is_open else CLOSED,
    )
    if challenge.color == ColorChoice.RANDOM:
        colours = "random colours"
    else:
        colours = f"{shown(challenge.challenger.name)} plays {color_word(challenge.color)}"
    embed.add_field(name="Colours", value=colours)
    embed.add_field(name="Time per move", value=duration(challenge.move_time))
    if challenge.thread:
        embed.add_field(name="Where", value="in a new thread")
    if challenge.opening_label is not None:
        embed.add_field(name="Opening", value=challenge.opening_label, inline=False)
    if challenge.match:
        embed.add_field(
            name="Match", value="two games, same opening, colours swapped", inline=False
        )
    if is_open:
        embed.add_field(name="Expires", value=relative_time(challenge.expires_at), inline=False)
    else:
        state = CHALLENGE_STATES.get(challenge.status, challenge.status)
        if challenge.status == ChallengeStatus.ACCEPTED and challenge.game_id is not None:
            state = f"Accepted: game #{challenge.game_id}"
            if game_channel is not None and game_channel != challenge.channel_id:
                state += f" in <#{game_channel}>"
        embed.add_field(name="Status", value=state, inline=False)
    embed.set_footer(text=f"Challenge #{challenge.id}")
    return fit_embed(embed)


def game_line(view: GameView) -> str:
    """One running game in ``/games``: ``**#7** Alice v Bob · English draughts · #channel ·
    move 12, Bob to move (due in 5 hours)``."""
    line = (
        f"**#{view.id}** {shown(view.white.name)} v {shown(view.black.name)} · "
        f"{view.variant_title} · <#{view.channel_id}> · move {view.move_number}"
    )
    if view.to_move is not None:
        line += f", {shown(view.to_move.name)} to move"
    if view.deadline is not None:
        line += f" (due {relative_time(view.deadline)})"
    return line


def games_embed(views: list[GameView]) -> discord.Embed:
    """``/games``: as many running games as fit, and how many more there are."""
    lines = [game_line(v) for v in views]
    description = listing(lines, EMBED_DESCRIPTION, most=MAX_LISTED_GAMES)
    embed = discord.Embed(title=f"Running games ({len(views)})", description=description)
    return fit_embed(embed)
