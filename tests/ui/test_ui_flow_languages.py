"""The game flow's words go out in the reader's language: refusals, buttons, board messages,
challenges and the picker are built from catalog messages and rendered in the language given.

No real catalog is needed: a pseudo-language ``xx`` wraps every translated message in ``⟦…⟧``,
so a word left in English (never looked up in the catalog) shows up as unwrapped.
"""

from __future__ import annotations

from typing import Any

import discord
import pytest
from support.pseudo_language import use_pseudo_language
from test_bot_ui import ALICE, BOB, view_of

from bot.enums import ChallengeStatus, ColorChoice
from bot.errors import IllegalMoveError, NotFoundError
from bot.i18n import _, verbatim
from bot.results import ChallengeView
from bot.ui.buttons import Buttons
from bot.ui.embeds import challenge_embed, game_embed, turn_line
from bot.ui.move_options import piece_options
from bot.ui.permissions import check_room
from bot.ui.wording import sentence, user_error
from rules import Game, find_variant


@pytest.fixture(autouse=True)
def pseudo(monkeypatch: pytest.MonkeyPatch) -> None:
    use_pseudo_language(monkeypatch)


def test_a_refusal_is_a_sentence_in_the_users_language() -> None:
    error = NotFoundError(_("there is no game running in this channel"))
    assert user_error(error) == (
        "There is no game running in this channel. Start one with `/challenge`."
    )
    assert user_error(error, "xx") == (
        # The command it names is the one the reader's client shows (its localized name).
        "⟦there is no game running in this channel⟧. ⟦Start one with `/⟦challenge⟧`.⟧"
    )
    illegal = user_error(IllegalMoveError(_("that is far too long to be a move")), "xx")
    assert illegal.endswith("⟦Type `/⟦move⟧` and pick from the suggestions, or see `/⟦moves⟧`.⟧")


def test_sentence_capitalises_and_ends_the_rendered_words() -> None:
    assert sentence("déjà joué") == "Déjà joué."
    assert sentence("уже сыграно!") == "Уже сыграно!"


def looks(view: discord.ui.View) -> list[tuple[str, str]]:
    """Each button's label and custom id."""
    return [(item.item.label, item.item.custom_id) for item in view.children]  # type: ignore[attr-defined]


def test_buttons_are_labelled_in_the_messages_language_with_the_same_ids() -> None:
    buttons = Buttons()
    english = looks(buttons.game(42, running=True, abortable=True, rematch=False))
    other = looks(buttons.game(42, running=True, abortable=True, rematch=False, code="xx"))
    assert [label for label, _ in english] == ["Arrows", "Move list", "More", "Abort"]
    assert [label for label, _ in other] == ["⟦Arrows⟧", "⟦Move list⟧", "⟦More⟧", "⟦Abort⟧"]
    assert [ids for _, ids in english] == [ids for _, ids in other]
    assert [label for label, _ in looks(buttons.challenge(7, "xx"))] == [
        "⟦Accept⟧",
        "⟦Decline⟧",
        "⟦Cancel⟧",
    ]


def test_the_board_message_is_written_in_the_servers_language() -> None:
    view = view_of(Game(find_variant("english")))
    embed = game_embed(view, "", "board.png", "xx")
    assert embed.footer.text is not None and embed.footer.text.startswith("⟦Game #42 · ")
    assert embed.description is not None
    assert embed.description.startswith("⟦⟦**Bob** (White)⟧ v ⟦**Alice** (Black)⟧⟧")
    assert turn_line(view, "xx") == "⟦<@1> to move, due <t:1800000000:R>.⟧"


def test_a_challenge_is_written_in_the_servers_language() -> None:
    challenge = ChallengeView(
        id=7,
        guild_id=10,
        channel_id=100,
        challenger=ALICE,
        opponent=BOB,
        variant="english",
        variant_title=verbatim("English draughts"),
        color=ColorChoice.WHITE,
        move_time=86400,
        thread=False,
        level=None,
        status=ChallengeStatus.OPEN,
        game_id=None,
        expires_at=1_800_000_000.0,
    )
    embed = challenge_embed(challenge, code="xx")
    assert embed.title == "⟦Challenge: English draughts⟧"
    assert [f.name for f in embed.fields] == ["⟦Colours⟧", "⟦Time per move⟧", "⟦Expires⟧"]
    assert embed.fields[0].value == "⟦Alice plays White⟧"


def test_the_pickers_options_are_in_the_players_language() -> None:
    game = Game(find_variant("english"))
    variant = find_variant("english")
    options = piece_options(game.legal_moves(), variant, "numeric", "xx")
    assert options and all(o.description.startswith("⟦") for o in options)
    assert piece_options(game.legal_moves(), variant, "numeric")[0].description == "2 moves"


class Room:
    """An interaction in a channel where the bot may only view and send."""

    channel: Any = None
    app_permissions = discord.Permissions(view_channel=True, send_messages=True)


def test_a_missing_permission_is_refused_in_the_users_language() -> None:
    with pytest.raises(Exception) as refused:
        check_room(Room())  # type: ignore[arg-type]
    text = user_error(refused.value, "xx")  # type: ignore[arg-type]
    assert text.startswith("⟦I cannot hold a game here: I lack the ")
    assert "⟦Embed Links⟧" in text and "⟦Attach Files⟧" in text
    assert str(refused.value) == (
        "I cannot hold a game here: I lack the Embed Links and Attach Files permissions in this "
        "channel (a moderator can grant them)"
    )
