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

WHITE_DISC = "\N{MEDIUM WHITE CIRCLE}"
BLACK_DISC = "\N{MEDIUM BLACK CIRCLE}"

WHITE_TO_MOVE = discord.Colour(0xE8E2D0)
BLACK_TO_MOVE = discord.Colour(0x2B2B2B)
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
    """The status line of a running game: pending offer, running counts, deadline.  The
    service's ``status_parts`` are Markdown already (names escaped there); the names added here
    are escaped here."""
    parts = list(view.status_parts)
    if view.takeback_offer is not None:
        parts.insert(0, f"Takeback asked by {shown(view.player(view.takeback_offer).name)}")
    if view.deadline is not None and view.to_move is not None:
        parts.append(f"{shown(view.to_move.name)} must move {relative_time(view.deadline)}")
    return fit(" · ".join(parts), FIELD_VALUE) if parts else "—"


def _player_line(view: GameView, player: Player) -> str:
    if player.id == view.computer_id:
        return f"{mention(player)} (computer, level {view.computer_level})"
    return mention(player)


def game_embed(view: GameView, headline: str, image: str | None) -> discord.Embed:
    """The board message: ``headline`` says what just happened (Markdown, names already
    escaped: the service's sentence), ``image`` is the attachment name of the board PNG (None:
    no image).  Names are escaped and every part sized here, so any view fits one message."""
    if view.running:
        colour = WHITE_TO_MOVE if view.turn == Side.WHITE else BLACK_TO_MOVE
    else:
        colour = FINISHED
    embed = discord.Embed(
        title=f"{shown(view.white.name)} v {shown(view.black.name)}",
        description=fit(headline, EMBED_DESCRIPTION),
        colour=colour,
    )
    embed.add_field(name=f"{WHITE_DISC} White", value=_player_line(view, view.white))
    embed.add_field(name=f"{BLACK_DISC} Black", value=_player_line(view, view.black))
    embed.add_field(name="Variant", value=view.variant_title)
    kind = "Rated" if view.rated else "Casual"
    if view.status == GameStatus.ABORTED:
        kind = "Aborted, unrated"
    if view.match_game is not None:
        kind += f" · match game {view.match_game} of 2"
    embed.add_field(name="Game", value=kind)
    embed.add_field(name="Move", value=str(view.move_number))
    embed.add_field(name="Last move", value=f"`{view.last_move}`" if view.last_move else "—")
    if view.running:
        assert view.to_move is not None
        embed.add_field(name="To move", value=mention(view.to_move))
        embed.add_field(name="Status", value=status_words(view), inline=False)
    else:
        embed.add_field(name="Result", value=result_words(view), inline=False)
    if view.opening_label is not None:
        embed.add_field(name="Opening", value=view.opening_label, inline=False)
    if image is not None:
        embed.set_image(url=f"attachment://{image}")
    embed.set_footer(text=f"Game #{view.id}")
    return fit_embed(embed)


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
