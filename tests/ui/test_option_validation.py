"""Every option of every slash command is checked again by the bot (issue 13).

Discord's client keeps to a command's declared bounds, lengths and choices; the interaction
Discord forwards is not checked against them, so a forged or stale one can carry anything (a
game id of 2**63 raised OverflowError in SQLite; a negative time per move, text with control
characters, a user or channel that was never picked).  The bot's command tree
(:class:`bot.ui.validation.CheckedTree`) compares each interaction with the command's own
declaration before the command runs, and refuses privately with nothing changed.

The first part drives :func:`~bot.ui.validation.check_options` with the bot's real commands (as
the client builds them) and every kind of wrong value for every declared option; the second sends
forged interactions through the real discord.py client in the bot process, against the fake
Discord, and checks the private refusals and that nothing changed.
"""

from __future__ import annotations

import asyncio
import copy
from collections.abc import AsyncIterator
from typing import Any

import discord
import pytest
from discord import app_commands
from support.e2e_harness import (
    ALICE,
    BOB,
    DRAUGHTS,
    GENERAL,
    Launch,
    Sent,
    Users,
    content_of,
    custom_ids,
    embed_of,
    field,
    is_ephemeral,
    moves_of,
    to_move_in,
    user,
)
from support.fake_discord import FakeDiscord, user_object

from bot.config import Settings
from bot.errors import NotFoundError
from bot.service import GameService
from bot.ui.client import DraughtsBot
from bot.ui.validation import (
    DISCORD_INTEGER_MAX,
    ID_MAX,
    CheckedTree,
    OptionError,
    check_options,
    checked_id,
)

Command = app_commands.Command[Any, ..., Any]
OptionType = discord.AppCommandOptionType
USER_ID = "1100000000000000101"
CHANNEL_ID = "1100000000000000201"
ATTACHMENT_ID = "1100000000000000301"


@pytest.fixture
async def bot(service: GameService) -> AsyncIterator[DraughtsBot]:
    """The client with its commands added exactly as at start-up (no connection needed)."""
    client = DraughtsBot(Settings())
    await client.add_commands(service)
    try:
        yield client
    finally:
        await asyncio.to_thread(client.media.close)


def commands_of(bot: DraughtsBot) -> list[Command]:
    """Every command, a group's subcommands included (``/tournament create``)."""
    found = [c for c in bot.tree.walk_commands() if isinstance(c, app_commands.Command)]
    groups = [c for c in bot.tree.get_commands() if isinstance(c, app_commands.Group)]
    assert groups and all(any(c.parent is g for c in found) for g in groups)
    plain = [c for c in bot.tree.get_commands() if isinstance(c, app_commands.Command)]
    assert len(plain) + len(groups) == len(bot.tree.get_commands())  # no context menus
    return found


def resolved_for(options: list[dict[str, Any]]) -> dict[str, Any]:
    """What Discord resolves for the id options among ``options`` (a user, a text channel, an
    attachment)."""
    resolved: dict[str, Any] = {"users": {}, "members": {}, "channels": {}}
    for option in options:
        if option["type"] == OptionType.user.value:
            resolved["users"][option["value"]] = {"id": option["value"], "username": "someone"}
        elif option["type"] == OptionType.channel.value:
            resolved["channels"][option["value"]] = {"id": option["value"], "type": 0}
        elif option["type"] == OptionType.attachment.value:
            resolved.setdefault("attachments", {})[option["value"]] = {
                "id": option["value"],
                "filename": "game.pdn",
                "size": 100,
                "url": "https://cdn.discordapp.com/attachments/1/2/game.pdn",
                "proxy_url": "https://media.discordapp.net/attachments/1/2/game.pdn",
            }
    return resolved


def valid_value(param: app_commands.Parameter) -> Any:
    """A value Discord's client could send for ``param``."""
    if param.choices:
        return param.choices[-1].value
    match param.type:
        case OptionType.integer:
            return int(param.max_value if param.max_value is not None else 1)
        case OptionType.string:
            return "11-15"
        case OptionType.boolean:
            return True
        case OptionType.user:
            return USER_ID
        case OptionType.channel:
            return CHANNEL_ID
        case OptionType.attachment:
            return ATTACHMENT_ID
    raise AssertionError(f"no valid value known for {param.type}")


def option(param: app_commands.Parameter, value: Any) -> dict[str, Any]:
    return {"name": param.display_name, "type": param.type.value, "value": value}


def with_required(command: Command, **values: Any) -> list[dict[str, Any]]:
    """The command's required options with valid values, then ``values`` (raw option values by
    name) in place of or besides them."""
    options = [
        option(p, valid_value(p))
        for p in command.parameters
        if p.required and p.display_name not in values
    ]
    by_name = {p.display_name: p for p in command.parameters}
    options += [option(by_name[name], value) for name, value in values.items()]
    return options


def refusal(command: Command, options: list[dict[str, Any]], **kwargs: Any) -> str:
    with pytest.raises(OptionError) as refused:
        check_options(command, options, resolved_for(options), guild=None, **kwargs)
    return str(refused.value.reason)


def params_of(bot: DraughtsBot, *types: OptionType) -> list[tuple[Command, app_commands.Parameter]]:
    found = [(c, p) for c in commands_of(bot) for p in c.parameters if p.type in types]
    assert found, types
    return found


# -- the declaration, checked in process ---------------------------------------------------------


async def test_every_command_goes_through_the_checking_tree(bot: DraughtsBot) -> None:
    assert isinstance(bot.tree, CheckedTree)
    assert commands_of(bot)


async def test_valid_values_of_every_option_pass(bot: DraughtsBot) -> None:
    for command in commands_of(bot):
        every = {p.display_name: valid_value(p) for p in command.parameters}
        options = with_required(command, **every)
        check_options(command, options, resolved_for(options), guild=None)
        required = with_required(command)
        check_options(command, required, resolved_for(required), guild=None)


async def test_integer_options_out_of_range_or_of_another_type(bot: DraughtsBot) -> None:
    for command, param in params_of(bot, OptionType.integer):
        name = param.display_name
        wrong: list[Any] = [2**63, -(2**63), DISCORD_INTEGER_MAX + 1, -1, 0, True, "5", 1.5, None]
        if param.max_value is not None:
            wrong.append(int(param.max_value) + 1)
        if param.min_value is not None:
            wrong.append(int(param.min_value) - 1)
        for value in wrong:
            said = refusal(command, with_required(command, **{name: value}))
            assert said.startswith(f"`{name}` must be"), (command.name, value, said)


async def test_the_declared_bounds_are_named(bot: DraughtsBot) -> None:
    challenge = bot.tree.get_command("challenge")
    pdn = bot.tree.get_command("pdn")
    assert isinstance(challenge, app_commands.Command) and isinstance(pdn, app_commands.Command)
    assert refusal(challenge, with_required(challenge, level=7)) == (
        "`level` must be a whole number from 1 to 6"
    )
    assert refusal(pdn, [{"name": "game", "type": 4, "value": 2**63}]) == (
        f"`game` must be a whole number from 1 to {DISCORD_INTEGER_MAX}"
    )


async def test_choices_must_be_listed_ones(bot: DraughtsBot) -> None:
    """Every option with choices (variant, colour, time per move, opening, draw action,
    threads, orientation, theme, notation, language, time class) refuses an unlisted value of
    the right type: a negative time per move, say."""
    chosen = [(c, p) for c in commands_of(bot) for p in c.parameters if p.choices]
    assert {p.display_name for _, p in chosen} == {
        "variant",
        "color",
        "move_time",
        "opening",
        "action",
        "threads",
        "orientation",
        "theme",
        "notation",
        "language",
        "pool",
        "format",
        "result",
        "bye",
    }
    for command, param in chosen:
        unlisted: list[Any] = (
            [-3600, 1, 2**40] if param.type is OptionType.integer else ["checkers", "RANDOM", ""]
        )
        for value in unlisted:
            said = refusal(command, with_required(command, **{param.display_name: value}))
            assert said == f"`{param.display_name}` must be one of the choices listed for it", said


async def test_string_options_length_type_and_odd_characters(bot: DraughtsBot) -> None:
    move = bot.tree.get_command("move")
    assert isinstance(move, app_commands.Command)
    assert refusal(move, with_required(move, move="1" * 101)) == (
        "`move` must be text of 1 to 100 characters"
    )
    assert refusal(move, with_required(move, move="")).startswith("`move` must be text")
    assert refusal(move, with_required(move, move=1115)).startswith("`move` must be text")
    for odd in ("11-15\x00", "11\u202e-15", "1\u200b1-15", "11-15\ud800", "\ue000"):
        assert refusal(move, with_required(move, move=odd)) == (
            "`move` contains a character I do not accept (a control or invisible one)"
        ), odd
    for command, param in params_of(bot, OptionType.string):
        said = refusal(command, with_required(command, **{param.display_name: ["x"]}))
        assert said.startswith(f"`{param.display_name}` must be"), said


async def test_boolean_options_take_only_booleans(bot: DraughtsBot) -> None:
    for command, param in params_of(bot, OptionType.boolean):
        for value in ("true", 1, 0, None):
            said = refusal(command, with_required(command, **{param.display_name: value}))
            assert said == f"`{param.display_name}` must be true or false", said


async def test_user_and_channel_options_must_be_resolved_ids(bot: DraughtsBot) -> None:
    for command, param in params_of(bot, OptionType.user, OptionType.channel):
        name = param.display_name
        for value in ("not-a-number", str(2**64), "0", 1100000000000000101, "١٢٣"):
            said = refusal(command, with_required(command, **{name: value}))
            assert said.startswith(f"`{name}` must be a"), (command.name, value, said)
        # A real-looking id that Discord did not resolve (typed by hand, never picked).
        options = with_required(command, **{name: valid_value(param)})
        with pytest.raises(OptionError, match=f"`{name}` must be a"):
            check_options(command, options, {}, guild=None)
    settings = bot.tree.get_command("settings")
    assert isinstance(settings, app_commands.Command)
    voice = with_required(settings, allow_channel=CHANNEL_ID)
    resolved = {"channels": {CHANNEL_ID: {"id": CHANNEL_ID, "type": 2}}}  # a voice channel
    with pytest.raises(OptionError, match="`allow_channel` must be a channel of this server"):
        check_options(settings, voice, resolved, guild=None)


async def test_unknown_repeated_missing_and_mistyped_options(bot: DraughtsBot) -> None:
    move = bot.tree.get_command("move")
    help_ = bot.tree.get_command("help")
    challenge = bot.tree.get_command("challenge")
    assert isinstance(move, app_commands.Command) and isinstance(help_, app_commands.Command)
    assert isinstance(challenge, app_commands.Command)
    extra = {"name": "page", "type": 4, "value": 2}
    assert refusal(help_, [extra]) == (
        "`/help` has no option `page` (your Discord app may show an old version of it)"
    )
    twice = with_required(move) * 2
    assert refusal(move, twice) == "`move` was given twice"
    assert refusal(move, []) == "`move` is required"
    # Issue 28: /challenge without an opponent is an open challenge, so nothing is required.
    check_options(challenge, [], {}, guild=None)
    # The value fits, but it claims another type than the one declared.
    retyped = [{"name": "move", "type": OptionType.integer.value, "value": "11-15"}]
    assert refusal(move, retyped).startswith("`move` must be text")
    with pytest.raises(OptionError, match="that command arrived malformed"):
        check_options(move, ["move"], {}, guild=None)


async def test_autocomplete_checks_the_focused_option_only_for_its_type(
    bot: DraughtsBot,
) -> None:
    """What is being typed may be empty or partial, and later options may still be missing;
    the options already given are checked as usual."""
    move = bot.tree.get_command("move")
    challenge = bot.tree.get_command("challenge")
    assert isinstance(move, app_commands.Command) and isinstance(challenge, app_commands.Command)
    typing = [{"name": "move", "type": 3, "value": "", "focused": True}]
    check_options(move, typing, {}, guild=None, autocomplete=True)
    typing[0]["value"] = {"not": "text"}
    assert refusal(move, typing, autocomplete=True).startswith("`move` must be text")
    given = [{"name": "level", "type": 4, "value": 99}]
    assert refusal(challenge, given, autocomplete=True).startswith("`level` must be")


def test_button_ids_beyond_a_database_row_are_not_found() -> None:
    """Button custom ids carry up to 19 digits, which can exceed a signed 64-bit row id."""
    assert checked_id(ID_MAX, "game") == ID_MAX
    for value in (ID_MAX + 1, 9_999_999_999_999_999_999, 0):
        with pytest.raises(NotFoundError, match="there is no such game"):
            checked_id(value, "game")


# -- forged interactions through the real client ---------------------------------------------


async def forged(
    users: Users,
    name: str,
    options: list[dict[str, Any]],
    *,
    user_id: str = ALICE,
    channel: str = GENERAL,
    resolved: dict[str, Any] | None = None,
) -> Sent:
    """A slash command as a modified client could send it: any option values, built by the
    fake itself (not through the harness, which types values the way Discord's client does)."""
    payload = users.fake.command_interaction(
        name, options, user_id=user_id, channel_id=channel, resolved=resolved
    )
    await users.fake.send_interaction(payload)
    return Sent(users, payload)


async def private_answer(sent: Sent) -> str:
    """The bot's private answer (a message only the user sees, no buttons)."""
    callback = await sent.callback()
    assert callback.json["type"] == 4, callback.json
    assert is_ephemeral(callback), callback.json
    assert not custom_ids(callback), callback.json
    return content_of(callback)


def integer(name: str, value: Any) -> dict[str, Any]:
    return {"name": name, "type": 4, "value": value}


def string(name: str, value: Any) -> dict[str, Any]:
    return {"name": name, "type": 3, "value": value}


def user_option(name: str, value: Any) -> dict[str, Any]:
    return {"name": name, "type": 6, "value": value}


def boolean(name: str, value: Any) -> dict[str, Any]:
    return {"name": name, "type": 5, "value": value}


@pytest.mark.e2e
async def test_e2e_forged_options_are_refused_privately(launch: Launch, fake: FakeDiscord) -> None:
    """Each command with options gets out-of-range and forged values: a private refusal that
    names the option, no traceback in the bot's log (checked by the ``launch`` fixture), and
    nothing changed (checked after, by the commands that would show it)."""
    _, users = await launch()
    bob = users.options(opponent=user(BOB))[1]
    opponent = user_option("opponent", BOB)
    whole = f"must be a whole number from 1 to {DISCORD_INTEGER_MAX}."
    cases: list[tuple[str, list[dict[str, Any]], dict[str, Any] | None, str]] = [
        ("pdn", [integer("game", 2**63)], None, f"`game` {whole}"),
        ("pdn", [integer("game", -1)], None, f"`game` {whole}"),
        ("replay", [integer("game", 2**53)], None, f"`game` {whole}"),
        ("replay", [integer("game", "12")], None, f"`game` {whole}"),
        (
            "challenge",
            [opponent, integer("move_time", -3600)],
            bob,
            "`move_time` must be one of the choices listed for it.",
        ),
        (
            "challenge",
            [opponent, integer("level", 0)],
            bob,
            "`level` must be a whole number from 1 to 6.",
        ),
        (
            "challenge",
            [opponent, string("variant", "checkers")],
            bob,
            "`variant` must be one of the choices listed for it.",
        ),
        (
            "challenge",
            [opponent, string("color", "purple")],
            bob,
            "`color` must be one of the choices listed for it.",
        ),
        (
            "challenge",
            [opponent, string("opening", "ballot\u200b")],
            bob,
            "`opening` must be one of the choices listed for it.",
        ),
        ("challenge", [opponent, boolean("match", "yes")], bob, "`match` must be true or false."),
        (
            "challenge",
            [user_option("opponent", "1100000000000000999")],
            None,
            "`opponent` must be a user picked from the list.",
        ),
        (  # an open challenge (no opponent) with a rating range out of bounds
            "challenge",
            [integer("min_rating", 99)],
            None,
            "`min_rating` must be a whole number from 100 to 4000.",
        ),
        (
            "move",
            [string("move", "11-15" * 30)],
            None,
            "`move` must be text of 1 to 100 characters.",
        ),
        (
            "move",
            [string("move", "11\u202e-15")],
            None,
            "`move` contains a character I do not accept (a control or invisible one).",
        ),
        ("board", [boolean("flip", 1)], None, "`flip` must be true or false."),
        ("board", [boolean("text", "yes")], None, "`text` must be true or false."),
        (
            "draw",
            [string("action", "force")],
            None,
            "`action` must be one of the choices listed for it.",
        ),
        (
            "rules",
            [string("variant", "x" * 7000)],
            None,
            "`variant` must be one of the choices listed for it.",
        ),
        (
            "stats",
            [string("variant", "chess")],
            None,
            "`variant` must be one of the choices listed for it.",
        ),
        (
            "leaderboard",
            [string("variant", 7)],
            None,
            "`variant` must be one of the choices listed for it.",
        ),
        (
            "history",
            [user_option("user", "@everyone")],
            None,
            "`user` must be a user picked from the list.",
        ),
        (
            "settings",
            [integer("move_time", -60)],
            None,
            "`move_time` must be one of the choices listed for it.",
        ),
        (
            "settings",
            [string("threads", "sometimes")],
            None,
            "`threads` must be one of the choices listed for it.",
        ),
        (
            "settings",
            [{"name": "allow_channel", "type": 7, "value": "1100000000000000999"}],
            {"channels": {"1100000000000000999": {"id": "1100000000000000999", "type": 0}}},
            "`allow_channel` must be a channel of this server picked from the list.",
        ),
        (
            "games",
            [integer("page", 2**63)],
            None,
            "`/games` has no option `page` (your Discord app may show an old version of it).",
        ),
        (
            "moves",
            [string("player", "Alice")],
            None,
            "`/moves` has no option `player` (your Discord app may show an old version of it).",
        ),
        (
            "help",
            [boolean("all", True)],
            None,
            "`/help` has no option `all` (your Discord app may show an old version of it).",
        ),
    ]
    for name, options, resolved, expected in cases:
        sent = await forged(users, name, options, resolved=resolved)
        assert await private_answer(sent) == expected, (name, options)

    # A command the bot does not (or no longer) have.
    sent = await forged(users, "teleport", [])
    assert await private_answer(sent) == (
        "I do not know that command (any more); your Discord app may show an old list."
    )

    # Nothing changed: no challenge was made (the next one is #1), the settings are the
    # defaults, and no game exists.
    settings = await users.command("settings", ALICE, GENERAL)
    shown = embed_of(await settings.callback())
    assert field(shown, "Default time per move") == "1 day"
    assert field(shown, "Threads") == "when the challenger asks (or the channel is busy)"
    assert field(shown, "Game channels") == "every channel"
    made = await users.command("challenge", ALICE, GENERAL, opponent=user(BOB), variant="english")
    assert embed_of(await made.callback())["footer"]["text"] == "Challenge #1"


@pytest.mark.e2e
async def test_e2e_forged_values_in_a_running_game_change_nothing(
    launch: Launch, fake: FakeDiscord
) -> None:
    """In a running game: a forged move, draw action and board flip are refused, and the
    game stands where it was; button ids beyond what a database row can hold are not found."""
    bot, users = await launch()
    sent = await users.command(
        "challenge", ALICE, DRAUGHTS, opponent=user(BOB), variant="english", color="black"
    )
    await sent.callback()
    accepted = await users.press("challenge:accept:1", sent.message(), BOB)
    assert (await accepted.callback()).json["type"] == 7

    for options in (
        [string("move", "11-15\x00")],
        [string("move", "")],
        [integer("move", 1115)],
    ):
        answer = await private_answer(await forged(users, "move", options, channel=DRAUGHTS))
        assert answer.startswith("`move`"), answer
    answer = await private_answer(
        await forged(users, "draw", [string("action", "accept ")], channel=DRAUGHTS)
    )
    assert answer == "`action` must be one of the choices listed for it."

    # Buttons whose ids were typed by hand, beyond a signed 64-bit row id (on a message that
    # shows them, as discord.py answers only buttons the pressed message has).
    for custom_id in (
        "rematch:9999999999999999999",
        "draw:accept:9999999999999999999",
        "resign:9223372036854775808",
        "takeback:accept:9999999999999999999:1",
        "challenge:accept:9999999999999999999",
    ):
        said = await private_answer(await forged_press(users, sent.message(), custom_id))
        assert said.startswith("There is no such "), (custom_id, said)
    # The board's buttons (Move, Moves, Abort), forged for a game that does not exist: a
    # private "no such game", nothing else.
    for custom_id in ("board:move:123456", "board:moves:123456", "board:abort:123456"):
        said = await private_answer(await forged_press(users, sent.message(), custom_id))
        assert said == "There is no game #123456.", (custom_id, said)

    # The game is untouched: Alice (Black) is still to play the first move, and can.
    board = await (await users.command("board", BOB, DRAUGHTS)).callback()
    assert moves_of(embed_of(board)) is None  # move 1, nothing played yet
    assert to_move_in(board) == ALICE
    moved = await users.command("move", ALICE, DRAUGHTS, move="11-15")
    callback = await moved.callback()
    assert not is_ephemeral(callback)
    assert moves_of(embed_of(callback)) == "1. 11-15"
    assert "OverflowError" not in bot.log()


async def forged_press(users: Users, message: dict[str, Any], custom_id: str) -> Sent:
    """Alice presses a button ``custom_id`` typed by hand, on a copy of ``message`` that shows
    it (discord.py answers only buttons the pressed message has)."""
    shown = copy.deepcopy(message)
    button = {"type": 2, "style": 1, "label": "Forged", "custom_id": custom_id}
    shown["components"] = [{"type": 1, "components": [button]}]
    return await users.press(custom_id, shown, ALICE, forged=True)


@pytest.mark.e2e
async def test_e2e_board_button_ids_beyond_a_database_row_are_not_found(
    launch: Launch, fake: FakeDiscord
) -> None:
    """As for the other buttons: an id beyond a signed 64-bit row id is no such game.  And the
    picker's page buttons and menus, forged onto a public message, are refused privately and
    leave that message as it was (a picker step redraws the message it is on, and pickers are
    always private)."""
    bot, users = await launch()
    sent = await users.command(
        "challenge", ALICE, GENERAL, opponent=user(BOB), variant="english", color="black"
    )
    await sent.callback()
    for custom_id in (
        "board:move:9999999999999999999",
        "board:moves:9999999999999999999",
        "board:abort:9223372036854775808",
    ):
        said = await private_answer(await forged_press(users, sent.message(), custom_id))
        assert said == "There is no such game.", (custom_id, said)
    before = copy.deepcopy(sent.message())
    for custom_id in ("pickgo:123456:0:0:0", "pickgo:9999999999999999999:0:0:1"):
        said = await private_answer(await forged_press(users, sent.message(), custom_id))
        assert said == "That menu is not one I showed you; use the menu on the board.", said
    shown = copy.deepcopy(sent.message())
    menu = {
        "type": 3,
        "custom_id": "pick:9999999999999999999:0:0:0",
        "options": [{"label": "11", "value": "11"}],
    }
    shown["components"] = [{"type": 1, "components": [menu]}]
    picked = await users.select(menu["custom_id"], shown, ALICE, ["11"], forged=True)
    said = await private_answer(picked)
    assert said == "That menu is not one I showed you; use the menu on the board.", said
    assert sent.message() == before  # the challenge kept its text and buttons
    assert "OverflowError" not in bot.log()


@pytest.mark.e2e
async def test_e2e_users_that_make_no_sense_are_refused(launch: Launch, fake: FakeDiscord) -> None:
    """What the declaration cannot say: yourself as an opponent, another bot as an opponent,
    a bot's rating, another bot's games.  The bot's own games (against the computer) can be
    listed."""
    _, users = await launch()
    robot_id = "1100000000000000777"
    robot_resolved = {"users": {robot_id: user_object(robot_id, "Robot", bot=True)}}
    me = fake.bot_user["id"]

    said = await private_answer(
        await users.command("challenge", ALICE, GENERAL, opponent=user(ALICE))
    )
    assert said == "You cannot challenge yourself."
    said = await private_answer(
        await forged(
            users, "challenge", [user_option("opponent", robot_id)], resolved=robot_resolved
        )
    )
    assert said == "Robot is a bot; to play the computer, challenge me."
    said = await private_answer(await users.command("stats", ALICE, GENERAL, user=user(me)))
    assert said == "DraughtsBot is a bot: bots have no rating."
    said = await private_answer(
        await forged(users, "history", [user_option("user", robot_id)], resolved=robot_resolved)
    )
    assert said == "Robot is a bot and plays no games here."
    mine = await (await users.command("history", ALICE, GENERAL, user=user(me))).callback()
    assert is_ephemeral(mine) and embed_of(mine)["title"], mine.json
