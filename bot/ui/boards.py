"""The board message: one per ply, compact, with the buttons that play the game by tapping.

A channel following a game sees one message per move: whose turn (the message's one mention, so
only that player is pinged) and the deadline, the players with their ratings, what just
happened, the last few moves, a status line only when something is pending, and the board drawn
from one side for the whole game.  Only the newest board of a game keeps its buttons: when a new
one is posted, the previous one's are taken off, so nobody taps Move on an old position (and if
that edit is lost, the old buttons still answer for the current position or say it changed).
A running game's board carries its move menu (every legal move when they fit one select menu,
so a move is two taps; else the pieces), then Arrows (the private picker), Move list and More
(the player's actions, :mod:`bot.ui.board_actions`), and in a game against the computer Hint
(:mod:`bot.ui.hints`).
"""

from __future__ import annotations

import logging
import time
from typing import Any

import discord

from ..enums import GameStatus
from ..i18n import Text, _, render
from ..results import GameView, Publishing
from ..service import GameService
from .buttons import Buttons
from .cooldowns import board_in_view
from .embeds import game_embed, turn_line
from .languages import Languages
from .media import Media, board_request
from .move_options import board_menu
from .replies import Outgoing, Upload

log = logging.getLogger(__name__)


def pings(user_ids: tuple[int, ...]) -> str:
    """Mentions of ``user_ids``, space-separated (they ping only if the message allows it)."""
    return " ".join(f"<@{uid}>" for uid in user_ids)


def alt_text(view: GameView, position: str, code: str = "en") -> str:
    """The board image's alt text: which game and who plays which side, then the position in
    words (``position``, from :func:`render.describe`).  Plain text, not Markdown: a screen
    reader reads it as written."""
    words = _(
        "Game #{id}, {white} (White) v {black} (Black). {position}",
        id=view.id,
        white=view.white.name,
        black=view.black.name,
        position=position,
    )
    return render(words, code)


def replay_alt(
    game_id: int, white: str, black: str, ending: Text | str | None, code: str = "en"
) -> str:
    """The replay GIF's alt text (``ending``: the result in words, None while the game runs)."""
    if ending:
        words = _(
            "Animated replay of game #{id}, {white} (White) v {black} (Black): {ending}.",
            id=game_id,
            white=white,
            black=black,
            ending=ending,
        )
    else:
        words = _(
            "Animated replay of game #{id}, {white} (White) v {black} (Black), so far.",
            id=game_id,
            white=white,
            black=black,
        )
    return render(words, code)


def message_id(sent: object) -> int | None:
    """The id of a message just sent, whichever way it was sent."""
    if isinstance(sent, discord.Message):
        return sent.id
    return sent if isinstance(sent, int) else None


class Boards:
    """Builds board messages and keeps only the newest one's buttons."""

    def __init__(
        self,
        service: GameService,
        media: Media,
        buttons: Buttons,
        connection: Any,
        languages: Languages,
    ) -> None:
        self.service = service
        self.media = media
        self.buttons = buttons
        self.connection = connection
        self.languages = languages

    async def message(
        self,
        view: GameView,
        headline: Text | str,
        mentions: tuple[int, ...],
        flip: bool | None = None,
        publishing: Publishing | None = None,
        code: str | None = None,
    ) -> Outgoing:
        """The board message of ``view`` in the server's theme and language (``code``: a
        reader's own, for a board only they see), from the game's side unless ``flip`` says;
        a finished game adds its PDN.  ``publishing`` carries the theme and record read with
        the action; without it (``/board``) they are read here."""
        if publishing is None:
            theme = (await self.service.server_settings(view.guild_id)).theme
            publishing = Publishing(theme)
        if code is None:
            code = await self.languages.public(view.guild_id)
        request = board_request(view, flip, theme=publishing.theme, code=code)
        drawn = await self.media.board(request)
        image = f"game-{view.id}-{view.ply}.png"
        out = Outgoing(
            embed=game_embed(view, headline, image, code),
            files=[Upload(image, drawn.png, alt_text(view, drawn.alt, code))],
            mentions=mentions,
            part=f"board-{view.id}",
        )
        if view.running:
            out.content = turn_line(view, code)
            out.view = self.buttons.game(
                view.id,
                running=True,
                abortable=view.abortable,
                rematch=False,
                code=code,
                menu=board_menu(view, code),
                hint=view.hints_offered,
            )
        else:
            out.content = pings(mentions) or None
            name, text = publishing.record or await self.service.pdn(game_id=view.id)
            out.files.append(Upload(name, text.encode()))
            rematch = view.status == GameStatus.FINISHED and view.match_game != 1
            analyse = view.status == GameStatus.FINISHED and view.ply > 0
            out.view = self.buttons.game(
                view.id,
                running=False,
                abortable=False,
                rematch=rematch,
                code=code,
                analyse=analyse,
            )
        return out

    async def posted(self, view: GameView, sent: object) -> None:
        """``sent``, shown outside an announcement (``/board``), is now the game's board
        message: the previous one loses its buttons."""
        new = message_id(sent)
        if new is None:
            return
        try:
            previous = await self.service.board_posted(view.id, new)
        except Exception:  # bookkeeping only: the old buttons still answer correctly
            log.exception("the board message of game %s was not recorded", view.id)
            return
        if previous is not None and previous != new:
            await self.strip(view, previous)

    async def offer_shown(self, view: GameView, sent: object) -> None:
        """``sent`` is the message of ``view``'s draw offer, with its Accept / Decline buttons:
        remembered, so they go once the offer is over (at once if it already is)."""
        new = message_id(sent)
        if new is None:
            return
        try:
            pending = await self.service.offer_posted(view.id, new)
        except Exception:  # bookkeeping only: a press on it is still refused clearly
            log.exception("the draw offer message of game %s was not recorded", view.id)
            return
        if not pending:
            await self.strip(view, new)

    async def offer_answered(self, view: GameView, pressed: int | None) -> None:
        """The draw offer of ``view`` was declined outside an announcement (its own button, or
        the More panel): the offer's message loses its buttons, unless it is ``pressed``, the
        message the answer already rewrote."""
        try:
            offer = await self.service.offer_over(view.id)
        except Exception:
            log.exception("the draw offer message of game %s was not cleared", view.id)
            return
        if offer is not None and offer != pressed:
            await self.strip(view, offer)

    async def in_view(self, view: GameView) -> bool:
        """Whether ``view``'s board message is still in front of everyone
        (:func:`~bot.ui.cooldowns.board_in_view`): recent, or else the channel's latest
        message, asked of Discord (the bot receives no message events)."""
        board = view.board_message_id
        now = time.time()
        if board is None:
            return False
        if board_in_view(board, None, now):  # recent: no need to ask Discord
            return True
        channel = self.connection.get_partial_messageable(view.channel_id, guild_id=view.guild_id)
        try:
            latest = [message.id async for message in channel.history(limit=1)]
        except discord.HTTPException as exc:  # no history to read: post as asked
            log.info("the latest message of channel %s is unknown: %s", view.channel_id, exc)
            return False
        return board_in_view(board, latest[0] if latest else None, now)

    async def strip(self, view: GameView, previous: int) -> None:
        """Take the buttons off ``previous``, a board message of ``view``'s game that a newer
        one replaced."""
        channel = self.connection.get_partial_messageable(view.channel_id, guild_id=view.guild_id)
        try:
            await channel.get_partial_message(previous).edit(view=None)
        except discord.HTTPException as exc:  # deleted meanwhile, or no longer ours to edit
            log.info("the buttons of game %s's old board stay: %s", view.id, exc)
