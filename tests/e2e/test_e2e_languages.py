"""Languages end to end: a German player (Alice) and a Dutch player (Bob) play in a French
server, and a player whose client is English (Carol) looks on.  Each sees private answers in
their own client's language, everyone sees the public board, its image and its status in the
server's language, direct messages come in the receiver's last language, the commands are synced
with every language's names, and ``/rules`` and ``/help`` answer in each reader's language.

Expected texts are the catalogs' own messages rendered in the language expected (so a wrong
language, or English left over, fails), and each is also checked to differ from the English.
"""

from __future__ import annotations

from typing import Any

import pytest
from PIL import ImageChops
from support.e2e_harness import (
    ALICE,
    BOB,
    CAROL,
    GENERAL,
    Sent,
    Users,
    board_alt_text,
    content_of,
    custom_ids,
    dm_number,
    embed_of,
    footer_of,
    headline_of,
    is_ephemeral,
    png_of,
    select_options,
    user,
)
from support.fake_discord import FakeDiscord, RecordedRequest

from bot.i18n import Text, _, _p, render
from bot.ui.info import help_embed, rules_embed
from bot.ui.render_words import render_words
from bot.ui.texts import help_paragraphs
from bot.words import variant_title

pytestmark = pytest.mark.e2e

SERVER, ALICES, BOBS = "fr", "de", "nl"
DISCORD_LOCALES = {
    "de": "de",
    "nl": "nl",
    "fr": "fr",
    "pl": "pl",
    "ru": "ru",
    "uk": "uk",
    "pt_BR": "pt-BR",
}
"""Each catalog, and the Discord locale it serves."""
MESSAGE, DEFERRED, UPDATE = 4, 5, 7


def said(text: Text, code: str) -> str:
    """``text`` in ``code``, checked to be a translation (not the English)."""
    words = render(text, code)
    assert words != render(text, "en"), (code, words)
    return words


async def private(sent: Sent) -> RecordedRequest:
    callback = await sent.callback()
    assert is_ephemeral(callback), callback.json
    return callback


async def public(sent: Sent) -> RecordedRequest:
    """The bot's public answer to ``sent``: its first response or, when the machine was slow and
    the bot deferred first (as Discord asks within 3 s), the edit that fills the deferral in."""
    callback = await sent.callback()
    assert not is_ephemeral(callback), callback.json
    if callback.json["type"] == DEFERRED:
        return await sent.original_edit()
    assert callback.json["type"] in (MESSAGE, UPDATE), callback.json
    return callback


def check_french_board(request: RecordedRequest, game_id: int) -> dict[str, Any]:
    """A public board: its footer, its turn line and its image's alt text are French."""
    embed = embed_of(request)
    title = render(variant_title("english"), SERVER)
    assert footer_of(embed) == said(
        _("Game #{id} · {variant} · {kind}", id=game_id, variant=title, kind=_("rated")), SERVER
    )
    words = render_words(SERVER)
    alt = board_alt_text(request)
    assert words.board.format(title=title, size=8) in alt, alt
    assert "White" not in alt and "Black" not in alt, alt
    return embed


async def synced_commands(users: Users, fake: FakeDiscord) -> list[dict[str, Any]]:
    def found() -> list[dict[str, Any]] | None:
        return next(iter(fake.commands.values()), None) or None

    commands: list[dict[str, Any]] = await users.bot.alive(fake.wait_until(found, timeout=20))
    return commands


async def test_a_german_and_a_dutch_player_in_a_french_server(
    launch: Any, fake: FakeDiscord
) -> None:
    fake.guild.locale = SERVER
    _bot, users = await launch()
    users.locales.update({ALICE: "de", BOB: "nl", CAROL: "en-US"})

    # The commands were synced with every language's names and descriptions.
    commands = await synced_commands(users, fake)
    for command in commands:
        for code, locale in DISCORD_LOCALES.items():
            shown = command["name_localizations"].get(locale, command["name"])
            assert shown == render(_p("command name", command["name"]), code)
        assert set(command["description_localizations"]) >= set(DISCORD_LOCALES.values())
        for option in command.get("options", []):
            assert set(option["description_localizations"]) >= set(DISCORD_LOCALES.values())
    challenge_names = next(c for c in commands if c["name"] == "challenge")["name_localizations"]
    assert challenge_names["de"] == render(_p("command name", "challenge"), "de") != "challenge"

    # Alice challenges Bob: the challenge is public, in French.
    sent = await users.command(
        "challenge", ALICE, GENERAL, opponent=user(BOB), variant="english", color="black"
    )
    posted = await public(sent)
    assert content_of(posted) == said(
        _("{opponent}, you have been challenged!", opponent=f"<@{BOB}>"), SERVER
    )
    title = render(variant_title("english"), SERVER)
    assert embed_of(posted)["title"] == said(_("Challenge: {variant}", variant=title), SERVER)
    labels = [c["label"] for row in posted.json["data"]["components"] for c in row["components"]]
    assert labels[0] == said(_p("button", "Accept"), SERVER)

    # Carol (English client) may not accept: she is told privately, in English.
    refused = await private(await users.press("challenge:accept:1", sent.message(), CAROL))
    assert content_of(refused) == "Only Bob can accept this challenge."

    # Bob accepts: the game starts with a French board.
    accepted = await users.press("challenge:accept:1", sent.message(), BOB)
    await accepted.callback()
    board = await accepted.followup(0)
    embed = check_french_board(board, 1)
    assert headline_of(embed) == said(_("New game."), SERVER)

    # Alice's illegal move is refused privately in German, naming the German command.
    wrong = content_of(await private(await users.command("move", ALICE, GENERAL, move="11-12")))
    assert wrong.endswith(
        said(_("Type `/move` and pick from the suggestions, or see `/moves`."), ALICES)
    )
    assert "/" + render(_p("command name", "move"), ALICES) in wrong

    # Bob asks for direct messages on his turn (answered in Dutch).
    prefs = await private(await users.command("prefs", BOB, GENERAL, dm_turn=True))
    assert embed_of(prefs)["title"] == said(_("Your preferences updated"), BOBS)

    # Alice moves: the public board is French; Bob's direct message is Dutch.
    moved = await public(await users.command("move", ALICE, GENERAL, move="11-15"))
    embed = check_french_board(moved, 1)
    assert headline_of(embed) == said(
        _("{name} played {move}.", name="Alice", move="11-15"), SERVER
    )
    dm = await dm_number(users, BOB, 0)
    assert content_of(dm).startswith(
        said(
            _(
                "Your move in game #{id} ({white} v {black}): {name} played {move}.",
                id=1,
                white="Bob",
                black="Alice",
                name="Alice",
                move="11-15",
            ),
            BOBS,
        )
    )

    # Bob moves by tapping: the picker speaks Dutch, the board that follows is French.
    message = fake.message_of(moved)
    assert message is not None
    opened = await users.press("board:move:1", message, BOB)
    await private(opened)
    picker = opened.message()
    for value in ("23", "23-19"):
        (select,) = [c for c in custom_ids(picker) if c.startswith("pick:")]
        menu = next(
            c for row in picker["components"] for c in row["components"] if c["custom_id"] == select
        )
        assert menu["placeholder"] == said(
            _("Pick a piece") if value == "23" else _("Pick a move from {square}", square="23"),
            BOBS,
        )
        assert value in {o["value"] for o in select_options(picker, select)}
        chosen = await users.select(select, picker, BOB, [value])
        answered = await chosen.callback()
        assert answered.json["type"] == UPDATE
        picker = fake.messages[picker["id"]]
    assert answered.json["data"]["content"] == said(_("You played `{move}`.", move="23-19"), BOBS)
    check_french_board(await chosen.followup(0), 1)

    # The image's status strip is French: the same board for an English server differs from
    # it below the board only.
    french_board = await public(await users.command("board", ALICE, GENERAL))
    fake.guild.locale = "en-US"
    english_board = await public(await users.command("board", BOB, GENERAL))
    french, english = png_of(french_board), png_of(english_board)
    fake.guild.locale = SERVER
    assert english.size == french.size
    box = ImageChops.difference(english.convert("RGB"), french.convert("RGB")).getbbox()
    assert box is not None, "the French and the English board are the same picture"
    assert box[1] >= english.width, box  # the board itself is the same; the strip is not

    # Alice resigns: asked and confirmed in German, announced in French.
    asking = await users.command("resign", ALICE, GENERAL)
    ask = await private(asking)
    assert content_of(ask) == said(
        _("Resign game #{id} against {name}? This cannot be undone.", id=1, name="Bob"), ALICES
    )
    confirm = await users.press("resign:1", asking.message(), ALICE)
    done = await confirm.callback()
    assert done.json["data"]["content"] == said(_("You resigned game #{id}.", id=1), ALICES)
    ended = await confirm.followup(0)
    assert not is_ephemeral(ended)
    resigned = said(_("{name} resigned.", name="Alice"), SERVER)
    assert resigned in embed_of(ended)["description"]


async def test_rules_help_and_settings_answer_in_the_readers_language(
    launch: Any, fake: FakeDiscord
) -> None:
    """``/rules`` and ``/help`` in every language's client (English for a client without a
    catalog); moderators choose the server's language with ``/settings``, which then wins
    over Discord's server language."""
    fake.guild.locale = SERVER
    _bot, users = await launch()
    for locale, code in [
        ("de", "de"),
        ("nl", "nl"),
        ("fr", "fr"),
        ("pl", "pl"),
        ("ru", "ru"),
        ("uk", "uk"),
        ("pt-BR", "pt_BR"),
        ("en-GB", "en"),
        ("es-ES", "en"),
    ]:
        users.locales[CAROL] = locale
        for variant in ("english", "international", "russian"):
            answer = embed_of(
                await private(await users.command("rules", CAROL, GENERAL, variant=variant))
            )
            assert answer == rules_embed(variant, code).to_dict()
            if code != "en":
                assert answer != rules_embed(variant, "en").to_dict()
        helped = embed_of(await private(await users.command("help", CAROL, GENERAL)))
        assert helped == help_embed(code).to_dict()
        assert render(help_paragraphs()[0], code) in helped["description"]

    # Alice (a moderator, German client) makes the server's public language Polish.
    users.locales[ALICE] = "de"
    changed = await private(await users.command("settings", ALICE, GENERAL, language="pl"))
    assert embed_of(changed)["title"] == said(_("Server settings updated"), ALICES)
    sent = await users.command(
        "challenge", ALICE, GENERAL, opponent=user(BOB), variant="english", color="black"
    )
    posted = await public(sent)
    assert content_of(posted) == said(
        _("{opponent}, you have been challenged!", opponent=f"<@{BOB}>"), "pl"
    )
    # Back to Discord's server language: French again.
    await private(await users.command("settings", ALICE, GENERAL, language="discord"))
    cancelled = await public(await users.press("challenge:cancel:1", sent.message(), ALICE))
    assert embed_of(cancelled)["title"] == said(
        _("Challenge: {variant}", variant=render(variant_title("english"), SERVER)), SERVER
    )


async def test_what_no_interaction_asked_for_is_in_the_servers_stored_language(
    launch: Any, fake: FakeDiscord
) -> None:
    """A reminder and a loss on time come from the scheduler, after a restart, with no
    interaction to give a locale: they are written in the server's language as last seen."""
    fake.guild.locale = SERVER
    # 5 minutes per move, scaled by 0.04: 12 seconds, a reminder after 6.
    bot, users = await launch(MOVE_TIME_SCALE="0.04", SCHEDULER_INTERVAL_SECONDS="0.2")
    users.locales.update({ALICE: "de", BOB: "nl"})
    sent = await users.command(
        "challenge",
        ALICE,
        GENERAL,
        opponent=user(BOB),
        variant="english",
        color="black",
        move_time=300,
    )
    await public(sent)
    accepted = await users.press("challenge:accept:1", sent.message(), BOB)
    await accepted.callback()
    await public(await users.command("move", ALICE, GENERAL, move="11-15"))
    await public(await users.command("move", BOB, GENERAL, move="23-19"))
    assert await bot.stop() == 0
    fake.guild.locale = "en-US"  # nobody interacts again: the stored French must be used
    await bot.start()

    def posted(prefix: str) -> RecordedRequest | None:
        return next(
            (
                post
                for post in fake.requests
                if post.method == "POST"
                and post.path == f"/channels/{GENERAL}/messages"
                and content_of(post).startswith(prefix)
            ),
            None,
        )

    def reminder_opening(code: str) -> str:
        """The reminder's words up to its deadline (a timestamp Discord shows each reader)."""
        reminder = _(
            "{player}, it is your move in game #{id}: half of your time has passed; "
            "the game is lost on time {deadline}.",
            player=f"<@{ALICE}>",
            id=1,
            deadline="\0",
        )
        return render(reminder, code).split("\0")[0]

    reminder = reminder_opening(SERVER)
    assert reminder != reminder_opening("en")
    await bot.alive(fake.wait_until(lambda: posted(reminder), timeout=30))
    replay = said(_("Replay of game #{id}.", id=1), SERVER)
    posted_replay = await bot.alive(fake.wait_until(lambda: posted(replay), timeout=30))
    assert posted_replay is not None and "game-1.gif" in posted_replay.files
