"""``/import``: a game in PDN (an attached file or pasted text) replayed for the channel,
analysed, or played on from any of its positions.

Who sees what, as a player expects: the game itself, with its replay GIF, is shown to the
channel (it is what the player came to show), under the same quiet-channel limits as
``/replay`` (held back, it is shown to the player alone with when a public one may go); what
only the importer acts on is private: the list of a file's games to pick from, what the reader
repaired, every refusal, the panel of positions to play from and the analysis.  An attachment's
size is checked from Discord's attachment fields before it is downloaded.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from rules.pdn_import import MAX_BYTES, MAX_GAMES

from ..i18n import Text, _, _n, _p, join, render, verbatim
from ..markdown import shown
from ..results import ChallengeTerms, ImportListing, ImportView, Player
from ..service import GameService
from ..words import variant_title
from .analysis_message import analysis_message
from .buttons import view_of
from .challenges import Challenges
from .cooldowns import Post
from .import_buttons import PLIES_PER_PAGE, ImportAction, ImportKit
from .limits import fit
from .media import BoardRequest
from .presenter import Presenter, parent_of, player_of
from .replies import Outgoing, Reply, Upload

TEXT_LIMIT = 6000
"""Discord's longest string option: a short game pasted whole fits."""
NOTES_SHOWN = 5
"""Repairs listed to the importer (the rest counted)."""
REFUSALS_SHOWN = 3
OPTION_TEXT = 100
"""Discord's longest select option label and description."""


def names(view: ImportView) -> tuple[Text, Text]:
    """The players as the file names them (``?`` when it does not), shown as text."""
    return verbatim(shown(view.white or "?")), verbatim(shown(view.black or "?"))


def card(view: ImportView) -> Text:
    """What the game's message says: who played, the variant, the result and the length, and
    the event and date when the file gives them."""
    white, black = names(view)
    head = _n(
        "Imported game #{id}: {white} v {black} ({variant}), {result} after {count} ply.",
        "Imported game #{id}: {white} v {black} ({variant}), {result} after {count} plies.",
        view.plies,
        id=view.id,
        white=white,
        black=black,
        variant=variant_title(view.variant),
        result=result_words(view),
    )
    where = " · ".join(shown(part) for part in (view.event, view.date) if part)
    if not where:
        return head
    return join((head, verbatim(where)), "\n")


def result_words(view: ImportView) -> Text:
    """The game's result as the file gives it (``2-0``), or that it has none."""
    return _("no result") if view.result == "*" else verbatim(view.result)


def replay_alt_text(view: ImportView, code: str) -> str:
    """The GIF's alt text: the names as written (a screen reader reads no Markdown)."""
    white, black = verbatim(view.white or "?"), verbatim(view.black or "?")
    alt = _(
        "Animated replay of imported game #{id}, {white} (White) v {black} (Black), {result}.",
        id=view.id,
        white=white,
        black=black,
        result=result_words(view),
    )
    return render(alt, code)


def listing_text(listing: ImportListing) -> Text:
    """The private answer to a file of several games: how many, which are listed, and why the
    unreadable ones listed with them were left out."""
    shown_count = len(listing.games)
    head = _n(
        "The file holds {count} game; {listed} can be imported here. Pick one to show:",
        "The file holds {count} games; {listed} can be imported here. Pick one to show:",
        listing.total,
        listed=shown_count,
    )
    lines: list[Text] = [head]
    if listing.total > shown_count + len(listing.refused):
        lines.append(
            _(
                "Only the first games are listed: import the file again with the number of the "
                "game you want (at most {most}).",
                most=MAX_GAMES,
            )
        )
    lines += [bullet(reason) for reason in listing.refused[:REFUSALS_SHOWN]]
    return join(lines, "\n")


def notes_text(view: ImportView) -> Text:
    """What the reader repaired in the importer's game, each naming where."""
    lines: list[Text] = [_("The file was not quite PDN; this is how it was read:")]
    lines += [bullet(note) for note in view.notes[:NOTES_SHOWN]]
    if len(view.notes) > NOTES_SHOWN:
        lines.append(_n("…and {count} more.", "…and {count} more.", len(view.notes) - NOTES_SHOWN))
    return join(lines, "\n")


def bullet(line: Text) -> Text:
    return join((verbatim("• "), line), "")


def page_of(ply: int) -> int:
    """The page of the ply menu listing the position after ``ply`` plies (the last position of
    a page is also the first of the next)."""
    return max(0, ply - 1) // PLIES_PER_PAGE


class Imports(commands.Cog):
    """``/import`` and the answers to an imported game's buttons and menus."""

    def __init__(
        self, service: GameService, presenter: Presenter, kit: ImportKit, challenges: Challenges
    ) -> None:
        self.service = service
        self.presenter = presenter
        self.kit = kit
        self.challenges = challenges
        """Starts the games played on from an imported position, as ``/challenge`` does."""

    @app_commands.command(name="import", description="Replay, analyse or play on from a PDN game")
    @app_commands.describe(
        file="A PDN file (at most 1 MB)",
        text="Or the PDN pasted as text",
        game="Which game of the file (its number; default: a list to pick from)",
    )
    @app_commands.guild_only()
    async def import_pdn(
        self,
        interaction: discord.Interaction,
        file: discord.Attachment | None = None,
        text: app_commands.Range[str, 1, TEXT_LIMIT] | None = None,
        game: app_commands.Range[int, 1, MAX_GAMES] | None = None,
    ) -> None:
        async def work(reply: Reply) -> None:
            if (file is None) == (text is None):
                await reply.private(
                    _("Attach a PDN file, or paste the game's PDN as text: one of the two.")
                )
                return
            data: bytes | str
            if file is not None:
                if file.size > MAX_BYTES:
                    await reply.private(
                        _(
                            "The file is {size} bytes; at most {most} bytes can be imported.",
                            size=f"{file.size:,}",
                            most=f"{MAX_BYTES:,}",
                        )
                    )
                    return
                data = await file.read()
            else:
                assert text is not None
                data = text
            assert interaction.channel_id is not None
            listing = await self.service.imports.read(
                guild_id=interaction.guild_id,
                channel_id=interaction.channel_id,
                user_id=interaction.user.id,
                data=data,
                game=game,
            )
            if len(listing.games) == 1:
                await self._show(interaction, reply, listing.games[0], notes=True)
                if listing.refused:
                    refused = [bullet(reason) for reason in listing.refused[:REFUSALS_SHOWN]]
                    await reply.private(join([_("Not imported:"), *refused], "\n"))
            else:
                await self._list(reply, listing)

        await self.presenter.run(interaction, work)

    async def _list(self, reply: Reply, listing: ImportListing) -> None:
        options = [
            discord.SelectOption(
                label=fit(f"{v.number}. {v.white or '?'} v {v.black or '?'}", OPTION_TEXT),
                description=fit(
                    " · ".join(p for p in (v.event, v.date, v.result, f"{v.plies}") if p),
                    OPTION_TEXT,
                ),
                value=str(v.id),
            )
            for v in listing.games
        ]
        menu = self.kit.select(
            "pick",
            listing.games[0].id,
            0,
            options,
            render(_("Choose a game"), reply.language),
        )
        await reply.private(listing_text(listing), view_of(menu))

    async def _show(
        self, interaction: discord.Interaction, reply: Reply, view: ImportView, *, notes: bool
    ) -> None:
        """The game with its replay GIF for the channel (or the user alone, when replays were
        just posted there), with its buttons; what the reader repaired, to the user alone."""
        actions = [ImportAction.REPLAY, ImportAction.ANALYSE, ImportAction.PLAY]
        await self._replay(interaction, reply, view, card(view), actions)
        if notes and view.notes:
            await reply.private(notes_text(view))

    async def _replay(
        self,
        interaction: discord.Interaction,
        reply: Reply,
        view: ImportView,
        caption: Text,
        actions: list[ImportAction],
    ) -> None:
        """The GIF with ``caption`` and the buttons of ``actions`` for the channel, or for the
        user alone when replays were just posted there or the game is someone else's import
        (as ``/replay`` keeps spectators' replays private)."""
        assert interaction.channel_id is not None
        held: Text | None
        if interaction.user.id != view.user_id:
            held = _(
                "Only you see this replay: replays of games someone else imported are private, "
                "to keep the channel quiet."
            )
        else:
            held = self.presenter.cooldowns.held_back(
                Post.REPLAY, interaction.user.id, interaction.channel_id
            )
        await reply.think(private=held is not None)  # a long game takes a moment to draw
        code = (
            reply.language
            if held is not None
            else await self.presenter.languages.public(interaction.guild_id)
        )
        drawn = await self.presenter.media.replay(view.record, flip=False, code=code)
        words = render(caption, code)
        if drawn.note:
            words += f" {render(verbatim(drawn.note), code)}"
        if held is not None:
            words += f"\n{render(held, code)}"
        buttons = [self.kit.button(action, view.id, code=code) for action in actions]
        out = Outgoing(
            content=words,
            files=[Upload(f"import-{view.id}.gif", drawn.data, replay_alt_text(view, code))],
            view=view_of(*buttons) if buttons else None,
        )
        if held is None:
            await reply.public(out)
        else:
            await reply.private_out(out)

    # -- the buttons and menus ----------------------------------------------------------------

    async def answer_import(
        self,
        interaction: discord.Interaction,
        action: ImportAction,
        import_id: int,
        argument: int | None,
    ) -> None:
        async def work(reply: Reply) -> None:
            guild = interaction.guild_id
            if action in (ImportAction.OPEN, ImportAction.COMPUTER):
                assert argument is not None
                computer = action is ImportAction.COMPUTER
                await self._play_from(interaction, reply, import_id, argument, computer=computer)
                return
            view = await self.service.imports.view(import_id, guild)
            if action is ImportAction.REPLAY:
                white, black = names(view)
                caption = _(
                    "Replay of imported game #{id} ({white} v {black}).",
                    id=view.id,
                    white=white,
                    black=black,
                )
                await self._replay(interaction, reply, view, caption, [])
            elif action is ImportAction.ANALYSE:
                await reply.think(private=True)  # the engine takes a while
                analysis = await self.service.imports.analyse(import_id, guild, interaction.user.id)
                theme = (await self.service.server_settings(guild)).theme
                await reply.private_out(await analysis_message(analysis, reply.language, theme))
            else:
                page = page_of(view.plies) if argument is None else argument
                await reply.private_out(position_panel(self.kit, view, page, reply.language))

        await self.presenter.run(interaction, work)

    async def _play_from(
        self,
        interaction: discord.Interaction,
        reply: Reply,
        import_id: int,
        ply: int,
        *,
        computer: bool,
    ) -> None:
        """A game from the position after ``ply`` plies, the player on the side to move there:
        against me at once (``computer``), or an open challenge anyone here may accept, as
        ``/challenge position:`` makes them (unrated)."""
        start = await self.service.imports.start(import_id, interaction.guild_id, ply)
        me = self.challenges.connection.user
        assert me is not None and interaction.channel_id is not None
        terms = ChallengeTerms(
            channel_id=interaction.channel_id,
            challenger=player_of(interaction.user),
            opponent=Player(me.id, me.display_name) if computer else None,
            variant=start.variant,
            color=start.color,
            start_fen=start.fen,
            parent_id=parent_of(interaction),
        )
        await self.challenges.issue(interaction, reply, terms)

    async def chose_ply(self, interaction: discord.Interaction, import_id: int, value: str) -> None:
        async def work(reply: Reply) -> None:
            if not value.isdigit():
                await reply.private(_("Choose a position from the menu."))
                return
            ply = int(value)
            guild = interaction.guild_id
            view = await self.service.imports.view(import_id, guild)
            variant, fen = await self.service.imports.position(import_id, guild, ply)
            previous = (
                None
                if ply == 0
                else (await self.service.imports.position(import_id, guild, ply - 1))[1]
            )
            code = reply.language
            drawn = await self.presenter.media.board(
                BoardRequest(
                    variant=variant,
                    fen=fen,
                    previous_fen=previous,
                    last_move=None if ply == 0 else view.moves[ply - 1].split()[-1],
                    flip=False,
                    move_number=ply // 2 + 1,
                    ending="",
                    language=code,
                )
            )
            text = _(
                "Imported game #{id} at {position} (FEN {fen}).",
                id=view.id,
                position=position_label(view, ply, code),
                fen=verbatim(f"`{fen}`"),
            )
            play = [
                self.kit.button(action, view.id, ply, code)
                for action in (ImportAction.OPEN, ImportAction.COMPUTER)
            ]
            await reply.private_out(
                Outgoing(
                    content=render(text, code),
                    files=[Upload(f"import-{view.id}-{ply}.png", drawn.png, drawn.alt)],
                    view=view_of(*play),
                )
            )

        await self.presenter.run(interaction, work)

    async def picked_game(self, interaction: discord.Interaction, value: str) -> None:
        async def work(reply: Reply) -> None:
            if not value.isdigit():
                await reply.private(_("Choose a game from the menu."))
                return
            view = await self.service.imports.view(int(value), interaction.guild_id)
            await self._show(interaction, reply, view, notes=False)

        await self.presenter.run(interaction, work)


def position_panel(kit: ImportKit, view: ImportView, page: int, code: str) -> Outgoing:
    """The private panel of positions to play from: a menu of one page of them (the start
    is ply 0), and the pages before and after."""
    last_page = page_of(view.plies)
    page = min(max(page, 0), last_page)
    first = page * PLIES_PER_PAGE
    plies = range(first, min(first + PLIES_PER_PAGE, view.plies) + 1)
    options = [
        discord.SelectOption(
            label=fit(position_label(view, ply, code), OPTION_TEXT), value=str(ply)
        )
        for ply in plies
    ]
    items: list[discord.ui.Item[Any]] = [
        kit.select("ply", view.id, page, options, render(_("Position after…"), code))
    ]
    if page > 0:
        items.append(
            kit.button(
                ImportAction.PAGE,
                view.id,
                page - 1,
                code,
                render(_p("button", "Earlier"), code),
            )
        )
    if page < last_page:
        items.append(
            kit.button(
                ImportAction.PAGE, view.id, page + 1, code, render(_p("button", "Later"), code)
            )
        )
    text = _(
        "Imported game #{id}: choose the position to play on from.",
        id=view.id,
    )
    return Outgoing(content=render(text, code), view=view_of(*items))


def position_label(view: ImportView, ply: int, code: str) -> str:
    """A position of the game as a menu lists it: the start, or the move it follows (the
    final position marked)."""
    if ply == 0:
        return render(_("Start"), code)
    label = view.moves[ply - 1]
    if ply == view.plies:
        return render(_("{move} (final position)", move=verbatim(label)), code)
    return label
