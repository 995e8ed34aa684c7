"""Tap to move: the board's move menu, and the private picker the board's Arrows button opens.

On a phone, typing ``/move 22-17`` means matching a number to a small picture.  The board's own
move menu plays a move in two taps (:meth:`Picker.board_picked`); the Arrows button (its id is
still ``board:move``) instead shows the player to move, privately, their own side of the board
and a menu of the pieces that can move (captures first), then a menu of the chosen piece's moves
drawn as arrows along their paths; picking a move plays it exactly as ``/move`` would and the
public board follows.  A menu holds at most 25 options (Discord's limit), so longer lists are
paged.  Everything the picker needs is in its custom ids (:mod:`bot.ui.picker_items`), so it
survives a restart, and the ply it carries makes a picker shown before the position changed say
so instead of playing into a different position.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import discord

from rules.move import Move
from rules.notation import square_name
from rules.variants import find_variant

from ..enums import Side
from ..errors import ServiceError, StaleError
from ..i18n import Arg, Text, _, _p, join, render
from ..markdown import shown
from ..results import GameView
from ..service import GameService
from .buttons import view_of
from .languages import interaction_language
from .media import board_request
from .move_options import move_options, page_of, piece_options
from .picker_items import PIECES, PickerKit
from .presenter import Presenter
from .replies import Outgoing, Reply, Upload
from .texts import moves_message
from .validation import checked_id
from .wording import user_error

log = logging.getLogger(__name__)

Staging = Callable[[Reply], Awaitable[Outgoing]]
"""One step of the picker: the message that replaces the picker's."""

PICKER_WIDTH = 480
"""The picker's board is only ever seen on the player's own screen, at a phone's ~330 px: a
smaller image than the public one (640) saves half its bytes at every tap, and the renderer
sizes its square numbers from the width, so they still read (>= 8 px at 330 px)."""
MAX_ARROWS = 12
"""The first step draws every legal move as an arrow, up to this many (more would hide the
board): at a glance, which pieces can move and where."""


OUT_OF_DATE = _(
    "this board is out of date (a move was played or taken back since): use the newest board"
)
"""The refusal of a pick on a board the game has moved on from."""


def arrows_of(moves: Sequence[Move]) -> tuple[tuple[int, ...], ...]:
    """The arrows of ``moves``: each along its whole path (a multi-jump bends at each landing
    square, where a straight arrow would cross pieces it never takes), each drawn once."""
    return tuple(sorted({tuple(m.path) for m in moves}))


def out_of_date(error: ServiceError) -> ServiceError:
    """``error``, worded for a menu shown on a position the game has moved on from."""
    return StaleError(OUT_OF_DATE) if isinstance(error, StaleError) else error


class Picker:
    """Answers the board's move menu and buttons (Arrows, Move list, Abort) and the picker's
    menus and pages."""

    def __init__(self, service: GameService, presenter: Presenter, kit: PickerKit) -> None:
        self.service = service
        self.presenter = presenter
        self.kit = kit

    # -- the board's buttons ----------------------------------------------------------------

    async def open_picker(self, interaction: discord.Interaction, game_id: int) -> None:
        async def work(reply: Reply) -> None:
            # Arrows opens the picker on the current position, whichever board it is on.
            view, moves = await self.service.picker(
                checked_id(game_id, "game"), interaction.user.id, None
            )
            await reply.private_out(await self._stage(view, moves, interaction, PIECES, 0))

        await self.presenter.run(interaction, work)

    async def show_moves(self, interaction: discord.Interaction, game_id: int) -> None:
        async def work(reply: Reply) -> None:
            view, text = await self.service.game_moves(
                checked_id(game_id, "game"), user_id=interaction.user.id
            )
            players: dict[str, Arg] = {
                "id": view.id,
                "white": shown(view.white.name),
                "black": shown(view.black.name),
            }
            if not text:
                await reply.private(_("Game #{id}, {white} v {black}: no moves yet.", **players))
                return
            head = _("Game #{id}, {white} v {black}", **players)
            await reply.private(moves_message(head, text, reply.language))

        await self.presenter.run(interaction, work)

    async def abort_game(self, interaction: discord.Interaction, game_id: int) -> None:
        async def work(reply: Reply) -> None:
            view = await self.service.game_view(checked_id(game_id, "game"))
            perms = interaction.permissions
            result = await self.service.abort(
                interaction.user.id,
                is_moderator=perms.manage_messages or perms.administrator,
                channel_id=view.channel_id,
                game_id=game_id,
            )
            await self.presenter.answer(reply, result)

        await self.presenter.run(interaction, work)

    # -- the board's own menu ----------------------------------------------------------------

    async def board_picked(
        self, interaction: discord.Interaction, game_id: int, ply: int, value: str
    ) -> None:
        """A pick in the move menu on a board: a move is played at once, exactly as ``/move``
        (guarded by the ply the board shows, so a stale board is refused); a piece opens its
        moves privately, drawn as arrows (the picker's second step)."""

        async def work(reply: Reply) -> None:
            checked_id(game_id, "game")
            user = interaction.user.id
            try:
                if value.isdigit():
                    view, moves = await self.service.picker(game_id, user, ply)
                    origin = int(value) if len(value) <= 3 else -1
                    if not any(m.path[0] == origin for m in moves):
                        await reply.private(_("That piece cannot move; pick one from the list."))
                        return
                    stage = await self._stage(view, moves, interaction, origin, 0, back=True)
                    await reply.private_out(stage)
                    return
                result = await self.service.move(
                    user, value, channel_id=interaction.channel_id, game_id=game_id, ply=ply
                )
            except StaleError:
                raise StaleError(OUT_OF_DATE) from None
            await self.presenter.answer(reply, result)

        await self.presenter.run(interaction, work)

    # -- the picker's menus -------------------------------------------------------------------

    async def picked(
        self, interaction: discord.Interaction, game_id: int, ply: int, origin: int, value: str
    ) -> None:
        if not await self._on_a_picker(interaction):
            return
        if origin == PIECES:
            await self._in_place(interaction, self._piece_picked(interaction, game_id, ply, value))
            return

        async def play(reply: Reply) -> None:
            checked_id(game_id, "game")
            try:
                result = await self.service.move(
                    interaction.user.id,
                    value,
                    channel_id=interaction.channel_id,
                    game_id=game_id,
                    ply=ply,
                )
            except ServiceError as error:
                refusal = user_error(out_of_date(error), reply.language)
                await reply.update(content=refusal, view=None, attachments=[])
                return
            played = result.moves[0].shown or result.moves[0].pdn if result.moves else value
            try:
                said = _("You played `{move}`.", move=played)
                await reply.update(content=said, view=None, attachments=[])
            except discord.HTTPException as exc:  # the move stands; the board still follows
                log.info("the picker of game %s was not closed: %s", game_id, exc)
            await self.presenter.answer(reply, result)

        await self.presenter.run(interaction, play)

    async def turn_page(
        self, interaction: discord.Interaction, game_id: int, ply: int, origin: int, page: int
    ) -> None:
        async def shown_page(reply: Reply) -> Outgoing:
            view, moves = await self.service.picker(
                checked_id(game_id, "game"), interaction.user.id, ply
            )
            return await self._stage(view, moves, interaction, origin, page, back=True)

        if await self._on_a_picker(interaction):
            await self._in_place(interaction, shown_page)

    async def _on_a_picker(self, interaction: discord.Interaction) -> bool:
        """Whether the pressed menu or button is on a picker (which is always private).  The
        picker's steps redraw the message they are on; a forged id on a public message must
        not rewrite it, so it is refused privately instead."""
        message = interaction.message
        if message is not None and message.flags.ephemeral:
            return True

        async def refuse(reply: Reply) -> None:
            await reply.private(_("That menu is not one I showed you; use the menu on the board."))

        await self.presenter.run(interaction, refuse)
        return False

    def _piece_picked(
        self, interaction: discord.Interaction, game_id: int, ply: int, value: str
    ) -> Staging:
        async def staging(reply: Reply) -> Outgoing:
            view, moves = await self.service.picker(
                checked_id(game_id, "game"), interaction.user.id, ply
            )
            origin = int(value) if value.isdigit() and len(value) <= 3 else -1
            if origin <= 0 or not any(m.path[0] == origin for m in moves):
                raise _Refused(_("That piece cannot move; pick one from the list."))
            return await self._stage(view, moves, interaction, origin, 0, back=True)

        return staging

    async def _in_place(self, interaction: discord.Interaction, staging: Staging) -> None:
        """Run a picker step that redraws the picker message; a refusal (the position changed,
        not your turn any more) replaces the picker with the reason."""

        async def work(reply: Reply) -> None:
            try:
                out = await staging(reply)
            except ServiceError as error:
                refusal = user_error(out_of_date(error), reply.language)
                await reply.update(content=refusal, view=None, attachments=[])
                return
            except _Refused as refused:
                await reply.private(refused.text)
                return
            await reply.update(
                content=out.content,
                attachments=[upload.file() for upload in out.files],
                view=out.view,
            )

        await self.presenter.run(interaction, work)

    # -- drawing a step -------------------------------------------------------------------------

    async def _stage(
        self,
        view: GameView,
        moves: Sequence[Move],
        interaction: discord.Interaction,
        origin: int,
        page: int,
        *,
        back: bool = False,
    ) -> Outgoing:
        """The picker at one step, in the player's own language: their side of the board, what
        to pick, and the menu with its page and back buttons."""
        code = interaction_language(interaction)
        prefs = await self.service.readers.prefs(interaction.user.id)
        server = await self.service.server_settings(interaction.guild_id)
        notation = str(prefs.notation or view.notation)
        variant = find_variant(view.variant)
        pieces = piece_options(moves, variant, notation, code)
        if origin == PIECES and len(pieces) == 1:
            origin, back = int(pieces[0].value), False  # one piece can move: straight to it
        own = [m for m in moves if m.path[0] == origin]
        white = view.turn == Side.WHITE
        if white:
            head = _("**Your move** (White) in game #{id}", id=view.id)
        else:
            head = _("**Your move** (Black) in game #{id}", id=view.id)
        if origin == PIECES:
            options, page, pages = page_of(pieces, page)
            text = _("{head}: pick a piece.", head=head)
            placeholder = _("Pick a piece")
            every = arrows_of(moves)
            arrows = every if len(every) <= MAX_ARROWS else ()
            where = ""
        else:
            options, page, pages = page_of(move_options(own, variant, notation, code), page)
            where = square_name(origin, variant, notation)
            text = _("{head}: where does the piece on {square} go?", head=head, square=where)
            placeholder = _("Pick a move from {square}", square=where)
            arrows = arrows_of(own)
        if pages > 1:
            text = _("{text} (page {page} of {pages})", text=text, page=page + 1, pages=pages)
        request = board_request(
            view,
            flip=view.turn == Side.BLACK,
            theme=str(prefs.theme or server.theme),
            arrows=arrows,
            notation=notation,
            width=PICKER_WIDTH,
            code=code,
        )
        drawn = await self.presenter.media.board(request)
        select = self.kit.select(
            view.id,
            view.ply,
            origin,
            page,
            [
                discord.SelectOption(
                    label=o.label, value=o.value, description=o.description or None
                )
                for o in options
            ],
            render(placeholder, code),
        )
        items: list[discord.ui.Item[Any]] = [select]

        def go(to_origin: int, to_page: int, label: Text) -> None:
            items.append(self.kit.page(view.id, view.ply, to_origin, to_page, render(label, code)))

        if page > 0:
            go(origin, page - 1, _p("button", "Previous"))
        if page < pages - 1:
            go(origin, page + 1, _p("button", "Next"))
        if back and origin != PIECES:
            go(PIECES, 0, _p("button", "Back to pieces"))
        return Outgoing(
            content=render(text, code),
            files=[
                Upload(
                    f"pick-{view.id}-{view.ply}.png",
                    drawn.png,
                    render(picker_alt(view.id, white, drawn.alt, where, bool(arrows)), code),
                )
            ],
            view=view_of(*items),
        )


def picker_alt(game_id: int, white: bool, position: str, where: str, arrows: bool) -> Text:
    """The picker board's alt text: whose side it shows, the position in words (``position``)
    and what its arrows are (``where``: the piece whose moves they show, or every move)."""
    if white:
        seen = _(
            "Game #{id}, your move as White, seen from your side. {position}",
            id=game_id,
            position=position,
        )
    else:
        seen = _(
            "Game #{id}, your move as Black, seen from your side. {position}",
            id=game_id,
            position=position,
        )
    if not arrows:
        return seen
    if where:
        return join((seen, _("Arrows show where the piece on {square} can go.", square=where)))
    return join((seen, _("Arrows show every move you can make.")))


class _Refused(Exception):
    """A choice the picker never offered (a forged or stale value): told privately."""

    def __init__(self, text: Text) -> None:
        super().__init__(str(text))
        self.text = text
