"""End-to-end: playing on a phone, by taps alone, through the fake Discord.

A whole game played with the Move button and the private picker (both players, a capture chosen
among several), paging in a position with more than 25 pieces that can move, stale pickers
(after the opponent moved and after a restart), spectators pressing Move, one public message per
ply with one orientation and alt text, preferences (theme, notation, a DM on one's turn), aborts
before both players have moved, and a correspondence challenge that stays open.
"""

from __future__ import annotations

import asyncio
import copy
import io
from pathlib import Path
from typing import Any

import pytest
from PIL import Image
from support.e2e_harness import (
    ALICE,
    BOB,
    CAROL,
    GENERAL,
    Sent,
    Users,
    attachments_of,
    components_of,
    content_of,
    custom_ids,
    db_run,
    dm_number,
    embed_of,
    images_without_alt_text,
    is_ephemeral,
    select_options,
    user,
)
from support.fake_discord import FakeDiscord, RecordedRequest
from support.sample_games import HELPMATE

from render import THEMES, render_png, square_centre
from rules import Game, find_variant
from rules.fen import parse_fen

pytestmark = pytest.mark.e2e

MESSAGE, UPDATE = 4, 7


# -- tapping -------------------------------------------------------------------------------------


def picker_select(message: dict[str, Any]) -> str:
    """The custom id of the picker's select menu (``pick:game:ply:origin:page``)."""
    (select,) = [c for c in custom_ids(message) if c.startswith("pick:")]
    return select


def current(fake: FakeDiscord, message: dict[str, Any]) -> dict[str, Any]:
    """The message as it is now (after the bot's edits)."""
    return fake.messages[message["id"]]


async def open_picker(
    users: Users, board: dict[str, Any], player: str, game_id: int
) -> tuple[Sent, dict[str, Any]]:
    """``player`` presses Move under ``board``: the private picker they get."""
    sent = await users.press(f"board:move:{game_id}", board, player)
    callback = await sent.callback()
    assert callback.json["type"] == MESSAGE, callback.json
    assert is_ephemeral(callback), content_of(callback)
    return sent, sent.message()


async def choose(
    users: Users, picker: dict[str, Any], player: str, value: str
) -> tuple[Sent, RecordedRequest]:
    """Pick ``value`` in the picker's menu, turning pages (Next) until it is listed."""
    fake = users.fake
    while value not in [o["value"] for o in select_options(picker, picker_select(picker))]:
        nexts = [c for c in custom_ids(picker) if c.startswith("pickgo:")]
        forward = [c for c in nexts if _page(c) > _page(picker_select(picker))]
        assert forward, f"{value} is on no page: {custom_ids(picker)}"
        turned = await users.press(forward[0], picker, player)
        assert (await turned.callback()).json["type"] == UPDATE
        picker = current(fake, picker)
    sent = await users.select(picker_select(picker), picker, player, [value])
    callback = await sent.callback()
    return sent, callback


def _page(custom_id: str) -> int:
    return int(custom_id.rsplit(":", 1)[1])


async def tap_move(
    users: Users, board: dict[str, Any], player: str, move: str, game_id: int
) -> tuple[RecordedRequest, dict[str, Any], list[dict[str, Any]]]:
    """Play ``move`` (full PDN) by taps: Move, the piece (unless only one can move), the move.
    Returns the public board that follows, its message, and the options the move menu had."""
    fake = users.fake
    _, picker = await open_picker(users, board, player, game_id)
    if picker_select(picker).split(":")[3] == "0":  # the pieces first
        sent, callback = await choose(users, picker, player, move.replace("x", "-").split("-")[0])
        assert callback.json["type"] == UPDATE, callback.json
        picker = current(fake, picker)
    origin = picker_select(picker).split(":")[3]
    assert origin == move.replace("x", "-").split("-")[0], picker_select(picker)
    offered = select_options(picker, picker_select(picker))
    sent, callback = await choose(users, picker, player, move)
    assert callback.json["type"] == UPDATE, callback.json
    closed = current(fake, picker)
    assert components_of(closed) == [] and "You played" in closed["content"], closed
    public = await sent.followup(0)
    assert not is_ephemeral(public), content_of(public)
    message = fake.message_of(public)
    assert message is not None
    return public, message, offered


async def lose_buttons(users: Users, message: dict[str, Any]) -> None:
    """Wait until the bot has taken the buttons off ``message`` (it does so right after posting
    the next board)."""
    fake = users.fake

    def gone() -> bool | None:
        return components_of(current(fake, message)) == [] or None

    await users.bot.alive(fake.wait_until(gone, timeout=10))


def rank_margin(request: RecordedRequest) -> bytes:
    """The pixels of the board image's left margin, where the rank numbers are: they differ
    between the two orientations and nowhere else."""
    (png,) = [u for u in attachments_of(request) if u.filename.endswith(".png")]
    image = Image.open(io.BytesIO(png.data)).convert("RGB")
    return image.crop((0, 0, 18, image.width)).tobytes()


async def start(
    users: Users, challenger: str, opponent: str, *, game_id: int, **options: Any
) -> tuple[RecordedRequest, dict[str, Any]]:
    """A challenge (the challenger plays Black) accepted by a press; the first board."""
    options.setdefault("color", "black")
    options.setdefault("variant", "english")
    sent = await users.command("challenge", challenger, GENERAL, opponent=user(opponent), **options)
    await sent.callback()
    accepted = await users.press(f"challenge:accept:{game_id}", sent.message(), opponent)
    await accepted.callback()
    board = await accepted.followup(0)
    message = users.fake.message_of(board)
    assert message is not None
    return board, message


async def private_line(sent: Sent) -> str:
    callback = await sent.callback()
    assert is_ephemeral(callback), callback.json
    assert custom_ids(callback) == []
    return content_of(callback)


# -- tests ---------------------------------------------------------------------------------------


async def test_a_whole_game_played_by_taps_alone(launch: Any, fake: FakeDiscord) -> None:
    _, users = await launch()
    board, message = await start(users, ALICE, BOB, game_id=1)
    assert custom_ids(message) == [
        "play:1:0",
        "board:move:1",
        "board:moves:1",
        "board:more:1",
        "board:abort:1",
    ]
    boards = [board]
    rules_game = Game(find_variant("english"))
    several_paths = 0
    for move in HELPMATE:
        player = ALICE if rules_game.turn.name == "BLACK" else BOB
        previous = message
        board, message, offered = await tap_move(users, message, player, move, 1)
        rules_game.play(move)
        boards.append(board)
        captures = [o for o in offered if "x" in o["value"]]
        several_paths += len(captures) > 1
        # The old board loses its buttons; the new one has them while the game runs.
        await lose_buttons(users, previous)
        if rules_game.outcome is None:
            ply = len(rules_game.moves)
            assert custom_ids(message)[:3] == [f"play:1:{ply}", "board:move:1", "board:moves:1"]
    assert several_paths > 0  # a capture was chosen among several in its menu
    assert rules_game.outcome is not None
    final = embed_of(boards[-1])
    assert "wins" in final["description"].split("\n")[-1]
    assert "board:move:1" not in custom_ids(message)
    # One public board per ply, every one with alt text, all from the same side.
    plies = [
        int(u.filename.split("-")[2].split(".")[0])
        for b in boards
        for u in attachments_of(b)
        if u.filename.endswith(".png")
    ]
    assert plies == list(range(len(HELPMATE) + 1))
    for b in boards:
        (png,) = [u for u in attachments_of(b) if u.filename.endswith(".png")]
        assert png.description and "Game #1" in png.description
    margins = {rank_margin(b) for b in boards}
    assert len(margins) == 1
    position = parse_fen(rules_game.position.fen(), find_variant("english"))
    flipped = Image.open(io.BytesIO(render_png(position, flip=True))).convert("RGB")
    assert flipped.crop((0, 0, 18, flipped.width)).tobytes() not in margins  # the check can fail
    assert images_without_alt_text(fake) == []
    # No other image was shown in the channel: the pickers were private.
    public = []
    for request in fake.requests:
        shown = fake.message_of(request) if request.files else None
        if shown is not None and not int(shown.get("flags") or 0) & 64:
            public.append(request)
    assert [r for r in public if any(n.endswith(".png") for n in r.files)] == boards


async def test_moves_button_shows_the_game_so_far_privately(launch: Any) -> None:
    _, users = await launch()
    _, message = await start(users, ALICE, BOB, game_id=1)
    _, message, _ = await tap_move(users, message, ALICE, "11-15", 1)
    _, message, _ = await tap_move(users, message, BOB, "23-19", 1)
    said = await private_line(await users.press("board:moves:1", message, CAROL))
    assert "Game #1" in said and "1. 11-15 23-19" in said


async def test_stale_pickers_spectators_and_a_restart(launch: Any, fake: FakeDiscord) -> None:
    bot, users = await launch()
    _, board = await start(users, ALICE, BOB, game_id=1)
    _, first = await open_picker(users, board, ALICE, 1)
    _, second = await open_picker(users, board, ALICE, 1)
    # Carol watches: Move is not for her; Bob waits his turn.
    said = await private_line(await users.press("board:move:1", board, CAROL))
    assert said == "Only the players of game #1 can move."
    said = await private_line(await users.press("board:move:1", board, BOB))
    assert said == "It is Alice's turn."
    # Alice plays with the first picker; the second now shows a position that is gone.
    sent, callback = await choose(users, first, ALICE, "11")
    _, callback = await choose(users, current(fake, first), ALICE, "11-15")
    assert callback.json["type"] == UPDATE
    _, callback = await choose(users, second, ALICE, "9")
    assert callback.json["type"] == UPDATE
    stale = current(fake, second)
    assert stale["content"] == (
        "This board is out of date (a move was played or taken back since): use the newest board."
    )
    assert components_of(stale) == []
    # Bob opens a picker, the bot restarts, and the picker still plays.
    await lose_buttons(users, board)  # taken off right after the next board is posted
    latest = [m for m in fake.messages.values() if "board:move:1" in custom_ids(m)]
    assert len(latest) == 1  # only the newest board keeps its buttons
    _, bobs = await open_picker(users, latest[0], BOB, 1)
    assert await bot.stop() == 0, bot.log()
    _, users = await launch()
    _, callback = await choose(users, bobs, BOB, "22")
    assert callback.json["type"] == UPDATE
    sent, callback = await choose(users, current(fake, bobs), BOB, "22-18")
    assert callback.json["type"] == UPDATE
    public = await sent.followup(0)
    assert "Bob played 22-18." in embed_of(public)["description"]


async def test_two_taps_a_move_from_the_boards_own_menu(launch: Any, fake: FakeDiscord) -> None:
    """The board's move menu: the mover picks and the move is played (open the menu, pick:
    two taps); a spectator and the player waiting are told privately in one line; a menu left
    on an older board (a client that has not seen the edit) is refused, and changes nothing."""
    _, users = await launch()
    _, board = await start(users, ALICE, BOB, game_id=1)
    stale_copy = copy.deepcopy(board)
    options = select_options(board, "play:1:0")
    assert [o["value"] for o in options] == [
        "9-13",
        "9-14",
        "10-14",
        "10-15",
        "11-15",
        "11-16",
        "12-16",
    ]
    assert await private_line(await users.select("play:1:0", board, CAROL, ["11-15"])) == (
        "You are not playing in this game (Bob v Alice)."
    )
    assert await private_line(await users.select("play:1:0", board, BOB, ["11-15"])) == (
        "It is Alice's turn."
    )
    sent = await users.select("play:1:0", board, ALICE, ["11-15"])
    callback = await sent.callback()
    assert callback.json["type"] == MESSAGE and not is_ephemeral(callback)
    assert "Alice played 11-15." in embed_of(callback)["description"]
    after = fake.message_of(callback)
    assert after is not None and "play:1:1" in custom_ids(after)
    await lose_buttons(users, board)
    # Bob answers from the new board's menu; Alice's old menu is refused privately.
    sent = await users.select("play:1:1", after, BOB, ["23-19"])
    answered = await sent.callback()
    assert "Bob played 23-19." in embed_of(answered)["description"]
    newest = fake.message_of(answered)
    assert newest is not None
    said = await private_line(await users.select("play:1:0", stale_copy, ALICE, ["9-13"]))
    assert said == (
        "This board is out of date (a move was played or taken back since): use the newest board."
    )
    moves = await private_line(await users.press("board:moves:1", newest, CAROL))
    assert "1. 11-15 23-19" in moves and "9-13" not in moves


CROWD = [r * 5 + c + 1 for r in (1, 3, 4, 6, 7, 9) for c in range(5)]
"""Thirty squares of a 10x10 board (six of its ten rows) from which kings all have a move."""


def international_crowd() -> str:
    """An International position (White to move, no captures) where 30 White kings can move:
    more pieces than one menu holds."""
    variant = find_variant("international")
    white = [f"K{s}" for s in CROWD]
    fen = f"W:W{','.join(white)}:B1,2,3"
    position = parse_fen(fen, variant)
    game = Game(variant, start=position)
    origins = {m.path[0] for m in game.legal_moves()}
    assert len(origins) > 25 and not any(m.is_capture for m in game.legal_moves())
    return position.fen()


async def test_a_position_with_more_than_25_pieces_is_paged(
    launch: Any, fake: FakeDiscord, tmp_path: Path
) -> None:
    bot, users = await launch()
    await start(users, ALICE, BOB, game_id=1, variant="international")
    assert await bot.stop() == 0, bot.log()
    # Set the game up from a position no opening reaches (the database is the bot's own file).
    fen = international_crowd()
    db_run(bot.database, "UPDATE games SET start_fen = ?, fen = ? WHERE id = 1", (fen, fen))
    _, users = await launch()
    board = await users.command("board", BOB, GENERAL)
    message = fake.message_of(await board.callback())
    assert message is not None
    _, picker = await open_picker(users, message, BOB, 1)
    first_page = select_options(picker, picker_select(picker))
    assert len(first_page) == 25
    assert "page 1 of 2" in picker["content"]
    last = max(int(o["value"]) for o in first_page)
    move = next(
        m
        for m in Game(
            find_variant("international"), start=parse_fen(fen, find_variant("international"))
        ).legal_moves()
        if m.path[0] > last
    )
    sent, callback = await choose(users, picker, BOB, str(move.path[0]))  # on page 2
    assert callback.json["type"] == UPDATE
    picker = current(fake, picker)
    sent, callback = await choose(users, picker, BOB, move.pdn())
    public = await sent.followup(0)
    assert f"Bob played {move.pdn()}." in embed_of(public)["description"]


async def test_too_many_moves_for_the_board_menu_go_piece_then_move(
    launch: Any, fake: FakeDiscord
) -> None:
    """28 moves do not fit the board's menu: it lists the pieces (a piece with one move stands
    for it); a piece opens its moves privately, drawn as arrows, and the move is played."""
    bot, users = await launch()
    await start(users, ALICE, BOB, game_id=1, variant="international")
    assert await bot.stop() == 0, bot.log()
    fen = "W:WK46,K28,K35,36:B1,2,3"  # Bob (White) to move: 16 + 8 + 3 + 1 moves
    db_run(bot.database, "UPDATE games SET start_fen = ?, fen = ? WHERE id = 1", (fen, fen))
    _, users = await launch()
    board = fake.message_of(await (await users.command("board", BOB, GENERAL)).callback())
    assert board is not None
    assert [o["value"] for o in select_options(board, "play:1:0")] == ["28", "35", "36-31", "46"]
    picked = await users.select("play:1:0", board, BOB, ["28"])
    callback = await picked.callback()
    assert is_ephemeral(callback) and callback.json["type"] == MESSAGE
    picker = picked.message()
    assert picker_select(picker) == "pick:1:0:28:0" and len(attachments_of(callback)) == 1
    sent, callback = await choose(users, picker, BOB, "28-17")
    assert callback.json["type"] == UPDATE
    assert "Bob played 28-17." in embed_of(await sent.followup(0))["description"]


async def test_prefs_change_the_picker_and_bring_a_dm(launch: Any, fake: FakeDiscord) -> None:
    _, users = await launch()
    prefs = await users.command(
        "prefs", ALICE, GENERAL, theme="contrast", notation="algebraic", dm_turn=True
    )
    answer = embed_of(await prefs.callback())
    assert answer["title"] == "Your preferences updated"
    _, board = await start(users, BOB, ALICE, game_id=1, color="black")  # Bob moves first
    _, board, _ = await tap_move(users, board, BOB, "11-15", 1)
    dm = await dm_number(users, ALICE, 0)
    assert "Your move in game #1" in content_of(dm)
    assert "https://discord.com/channels/" in content_of(dm)
    _, picker = await open_picker(users, board, ALICE, 1)
    labels = [o["label"] for o in select_options(picker, picker_select(picker))]
    assert all(label[0] in "abcdefgh" for label in labels), labels  # algebraic squares
    # Her picker is drawn in her theme and from her side (White at the bottom); the public
    # board keeps the server's theme.
    (png,) = [u for u in picker.get("attachments", []) if u["filename"].endswith(".png")]
    assert png["description"]
    request = next(r for r in fake.requests if r.message_id == picker["id"] and r.files)
    image = Image.open(io.BytesIO(next(iter(request.files.values())))).convert("RGB")
    light = square_centre(8, image.width, 1, False)
    contrast = THEMES["contrast"]
    x, y = light[0] + image.width // 16, light[1]  # the light square beside square 1
    seen = image.getpixel((x, y))
    assert max(abs(a - b) for a, b in zip(seen, contrast.light_square, strict=True)) <= 4
    assert max(abs(a - b) for a, b in zip(seen, THEMES["wood"].light_square, strict=True)) > 20
    # Bob did not ask for DMs.
    assert fake.dms_to(BOB) == []


async def test_abort_before_both_have_moved(launch: Any, fake: FakeDiscord) -> None:
    _, users = await launch()
    _, board = await start(users, ALICE, BOB, game_id=1)
    sent = await users.press("board:abort:1", board, BOB)
    callback = await sent.callback()
    assert not is_ephemeral(callback)
    embed = embed_of(callback)
    assert "aborted by Bob before both players had moved" in embed["description"]
    assert "aborted, unrated" in embed["footer"]["text"]
    # Once both have moved, the button is gone and the command says why.
    _, board = await start(users, ALICE, BOB, game_id=2)
    _, board, _ = await tap_move(users, board, ALICE, "11-15", 2)
    assert "board:abort:2" in custom_ids(board)  # Bob has not moved yet
    _, board, _ = await tap_move(users, board, BOB, "23-19", 2)
    assert "board:abort:2" not in custom_ids(board)
    said = await private_line(await users.command("abort", BOB, GENERAL))  # not a moderator
    assert said.startswith("Both players have moved, so the game can no longer be aborted")


async def test_a_correspondence_challenge_stays_open(launch: Any) -> None:
    _, users = await launch(CHALLENGE_EXPIRY_SECONDS="1", SCHEDULER_INTERVAL_SECONDS="0.2")
    sent = await users.command(
        "challenge", ALICE, GENERAL, opponent=user(BOB), variant="english", move_time=86400
    )
    await sent.callback()
    message = sent.message()
    await asyncio.sleep(2)  # past the 1-second minimum: a day-long challenge is still open
    accepted = await users.press("challenge:accept:1", message, BOB)
    assert (await accepted.callback()).json["type"] == UPDATE


async def test_russian_is_picked_and_confirmed_in_coordinates(
    launch: Any, fake: FakeDiscord
) -> None:
    _, users = await launch()
    _, board = await start(users, ALICE, BOB, game_id=1, variant="russian")  # Bob is White
    _, picker = await open_picker(users, board, BOB, 1)
    labels = [o["label"] for o in select_options(picker, picker_select(picker))]
    assert "c3" in labels and "22" not in labels, labels
    _, message, offered = await tap_move(users, board, BOB, "22-18", 1)
    assert [o["label"] for o in offered] == ["c3-b4", "c3-d4"]
    closed = [m for m in fake.ephemeral_messages(BOB) if "You played" in (m.get("content") or "")]
    assert [m["content"] for m in closed] == ["You played `c3-d4`."]
    assert "Bob played c3-d4." in (embed_of_message(message)["description"])


def embed_of_message(message: dict[str, Any]) -> dict[str, Any]:
    (embed,) = message["embeds"]
    return dict(embed)


async def test_draw_takeback_and_resign_from_the_board(launch: Any, fake: FakeDiscord) -> None:
    """More on the board: a private panel for a player (a spectator is refused in one line), a
    draw offered from it whose buttons go once a move answered it (an old copy's press then
    says so plainly), a takeback asked and allowed from the panels, and resigning confirmed."""
    _, users = await launch()
    _, board = await start(users, ALICE, BOB, game_id=1)
    board = fake.message_of(
        await (await users.select("play:1:0", board, ALICE, ["11-15"])).callback()
    )
    assert board is not None
    board = fake.message_of(
        await (await users.select("play:1:1", board, BOB, ["23-19"])).callback()
    )
    assert board is not None
    said = await private_line(await users.press("board:more:1", board, CAROL))
    assert said == "Only the players of game #1 can use this."
    # Bob, waiting for Alice, offers a draw from his panel.
    more = await users.press("board:more:1", board, BOB)
    assert is_ephemeral(await more.callback())
    panel = more.message()
    assert custom_ids(panel) == ["act:draw:1", "act:takeback:1", "act:resign:1"]
    offered = await users.press("act:draw:1", panel, BOB)
    assert (await offered.callback()).json["type"] == UPDATE
    offer = fake.message_of(await offered.followup(0))
    assert offer is not None and custom_ids(offer) == ["draw:accept:1", "draw:decline:1"]
    old_offer = copy.deepcopy(offer)
    # Alice's panel answers it; she plays on instead, which declines it: its buttons go.
    more = await users.press("board:more:1", board, ALICE)
    await more.callback()
    assert custom_ids(more.message())[:2] == ["draw:accept:1", "draw:decline:1"]
    board = fake.message_of(
        await (await users.select("play:1:2", board, ALICE, ["8-11"])).callback()
    )
    assert board is not None
    await lose_buttons(users, offer)
    pressed = await users.press("draw:accept:1", old_offer, ALICE)
    assert (await pressed.callback()).json["data"]["components"] == []  # none left to press
    said = await pressed.followup(0)
    assert is_ephemeral(said) and content_of(said).startswith("This draw offer is over")
    # Bob asks to take his move back; Alice allows it from her panel.
    more = await users.press("board:more:1", board, BOB)
    await more.callback()
    asked = await users.press("act:takeback:1", more.message(), BOB)
    await asked.callback()
    request = fake.message_of(await asked.followup(0))
    assert request is not None and custom_ids(request) == [
        "takeback:accept:1:3",
        "takeback:decline:1:3",
    ]
    more = await users.press("board:more:1", board, ALICE)
    await more.callback()
    allowed = await users.press("takeback:accept:1:3", more.message(), ALICE)
    assert (await allowed.callback()).json["type"] == UPDATE
    taken = await allowed.followup(0)
    assert "took back" in embed_of(taken)["description"]
    board = fake.message_of(taken)
    assert board is not None and "play:1:1" in custom_ids(board)  # Bob to move again
    # Resigning asks once more, privately, then ends the game for everyone.
    more = await users.press("board:more:1", board, BOB)
    await more.callback()
    asking = await users.press("act:resign:1", more.message(), BOB)
    assert (await asking.callback()).json["type"] == UPDATE
    assert custom_ids(more.message()) == ["resign:1"]
    assert "This cannot be undone" in fake.messages[more.message()["id"]]["content"]
    resigned = await users.press("resign:1", more.message(), BOB)
    await resigned.callback()
    final = await resigned.followup(0)
    assert "Bob resigned" in embed_of(final)["description"]


async def test_a_draw_offers_buttons_go_when_it_ends(launch: Any, fake: FakeDiscord) -> None:
    """By command alone: an offer declined by ``/draw decline`` loses its buttons, also when
    the bot restarted after posting it; a second one loses them when a move answers it."""
    bot, users = await launch()
    await start(users, ALICE, BOB, game_id=1)
    await (await users.command("move", ALICE, GENERAL, move="11-15")).callback()
    await (await users.command("move", BOB, GENERAL, move="23-19")).callback()  # both moved
    offered = await users.command("draw", BOB, GENERAL, action="offer")
    await offered.callback()
    offer = offered.message()
    assert custom_ids(offer) == ["draw:accept:1", "draw:decline:1"]
    assert await bot.stop() == 0, bot.log()
    _, users = await launch()
    await (await users.command("draw", ALICE, GENERAL, action="decline")).callback()
    await lose_buttons(users, offer)
    await (await users.command("move", ALICE, GENERAL, move="8-11")).callback()
    offered = await users.command("draw", ALICE, GENERAL, action="offer")  # Bob's pause runs
    await offered.callback()
    second = offered.message()
    assert custom_ids(second) == ["draw:accept:1", "draw:decline:1"]
    await (await users.command("move", BOB, GENERAL, move="22-17")).callback()
    await lose_buttons(users, second)
    assert custom_ids(current(fake, offer)) == []  # taken off once, and it stays so
