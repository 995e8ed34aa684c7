"""Posting the daily puzzle in its channel, exactly once, with a thread for the answers.

The service writes each day's post with its outbox entry (:mod:`bot.service.puzzle_daily`);
the delivery (:mod:`bot.ui.delivery`) hands those entries here with a ``send`` that posts in
the chosen channel, each message with its nonce and, after a crash, found again among the
bot's posts by its text and file name instead of being posted twice.  The thread hangs off the
post (Discord gives it the post's id and refuses a second one with 160004, so a repeat after a
crash finds it again, as a tournament pairing's thread is found:
:func:`bot.ui.tournament_delivery.start_thread`).
"""

from __future__ import annotations

from ..i18n import _, render
from ..results import ActionResult
from ..service import GameService
from .boards import message_id
from .delivery import Connection
from .languages import Languages
from .media import Media
from .posted import Send
from .puzzle_board import daily_message
from .puzzle_items import PuzzleKit
from .tournament_delivery import start_thread


class DailyPosts:
    """One per client: what a daily puzzle's announcement posts."""

    def __init__(
        self,
        service: GameService,
        connection: Connection,
        kit: PuzzleKit,
        languages: Languages,
        media: Media,
    ) -> None:
        self.service = service
        self.connection = connection
        self.kit = kit
        self.languages = languages
        self.media = media

    async def post(self, result: ActionResult, send: Send) -> None:
        """Show ``result`` (a daily puzzle) through ``send``, then open its thread."""
        daily = result.puzzle
        assert daily is not None
        code = await self.languages.public(daily.guild_id)
        theme = (await self.service.server_settings(daily.guild_id)).theme
        out = await daily_message(
            daily, result.text, self.media, self.kit, theme=str(theme), code=code
        )
        sent = message_id(await send(out))
        if sent is not None:
            name = render(_("Puzzle of the day {day}: answers", day=daily.day), code)
            await start_thread(self.connection.http, daily.channel_id, sent, name)
