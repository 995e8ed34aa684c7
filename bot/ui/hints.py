"""The board's Hint button: the computer's move for the player to move, shown privately as an
arrow on their side of the board.

Offered on the boards of running games against the computer (never rated); pressed anywhere
else, or off turn, the service refuses it and the refusal is private.  The answer is deferred
at once (privately: the engine thinks up to half its move time in its worker pool) and then
filled in with the picture, in the player's language and board theme.  Every hint is counted in
the game's record; the answer says how many this one makes.
"""

from __future__ import annotations

import discord

from ..enums import Side
from ..i18n import Text, _, _n, join, render
from ..results import GameView, Hint
from ..service import GameService
from .languages import interaction_language
from .media import board_request
from .picker import PICKER_WIDTH, picker_alt
from .presenter import Presenter
from .replies import Outgoing, Reply, Upload
from .validation import checked_id


def hint_words(view: GameView, hint: Hint) -> Text:
    """What the hint says: the move, and how many hints the game has had."""
    return _n(
        "Hint for game #{id}: the computer would play **{move}** (the arrow). {count} hint "
        "taken in this game; the record says so.",
        "Hint for game #{id}: the computer would play **{move}** (the arrow). {count} hints "
        "taken in this game; the record says so.",
        hint.hints,
        id=view.id,
        move=hint.shown,
    )


def hint_alt(view: GameView, hint: Hint, position: str) -> Text:
    """The hint picture's alt text: the player's side of the board in words, then the arrow."""
    seen = picker_alt(view.id, view.turn == Side.WHITE, position, "", False)
    return join((seen, _("The arrow shows the hint, {move}.", move=hint.shown)))


class Hints:
    """Answers the Hint button."""

    def __init__(self, service: GameService, presenter: Presenter) -> None:
        self.service = service
        self.presenter = presenter

    async def give_hint(self, interaction: discord.Interaction, game_id: int) -> None:
        async def work(reply: Reply) -> None:
            checked_id(game_id, "game")
            await reply.think(private=True)
            view, hint = await self.service.hints.hint(interaction.user.id, game_id)
            code = interaction_language(interaction)
            prefs = await self.service.readers.prefs(interaction.user.id)
            server = await self.service.server_settings(interaction.guild_id)
            request = board_request(
                view,
                flip=view.turn == Side.BLACK,
                theme=str(prefs.theme or server.theme),
                arrows=(hint.path,),
                width=PICKER_WIDTH,
                code=code,
            )
            drawn = await self.presenter.media.board(request)
            picture = Upload(
                f"hint-{view.id}-{view.ply}.png",
                drawn.png,
                render(hint_alt(view, hint, drawn.alt), code),
            )
            await reply.private_out(
                Outgoing(content=render(hint_words(view, hint), code), files=[picture])
            )

        await self.presenter.run(interaction, work)
