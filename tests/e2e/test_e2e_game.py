"""End-to-end games: the real bot process against the fake Discord
(``tests/support/e2e_harness.py``).

Each test starts its own bot on a fresh database and plays what users would do — challenge,
accept, move (with autocomplete), offer and answer draws, resign, rematch — and checks what they
would see: public or private answers, the edited messages, the board embeds and the attachments
(board PNGs, the PDN record read back with :func:`rules.read_game`, the animated GIF replay).
"""

from __future__ import annotations

import asyncio
import copy
import io
import re
import time
from typing import Any

import pytest
from PIL import Image
from support.e2e_harness import (
    ALICE,
    BOB,
    CAROL,
    DRAUGHTS,
    GENERAL,
    OFFTOPIC,
    Sent,
    Users,
    board_alt_text,
    board_buttons,
    buttons_taken_off,
    channel_posts,
    content_of,
    custom_ids,
    due_in,
    embed_of,
    field,
    footer_of,
    footer_parts,
    game_id_of,
    headline_of,
    is_ephemeral,
    last_move_of,
    moves_of,
    numbered,
    pinged,
    players_line,
    players_text,
    png_of,
    seat,
    status_of,
    to_move_in,
    user,
)
from support.fake_discord import FakeDiscord, RecordedRequest

from rules import Game, Termination, find_variant, read_game

pytestmark = pytest.mark.e2e

ENGLISH_TITLE = "English draughts / American checkers"
BOARD_WIDTH = 640  # render.board.DEFAULT_WIDTH
NO_GAME = "There is no game running in this channel. Start one with `/challenge`."
MOVE_HINT = "Type `/move` and pick from the suggestions, or see `/moves`."
NAMES = {ALICE: "Alice", BOB: "Bob", CAROL: "Carol"}

# Callback types.
MESSAGE, DEFERRED_UPDATE, UPDATE = 4, 6, 7


# -- helpers -------------------------------------------------------------------------------------


def mention(user_id: str) -> str:
    return f"<@{user_id}>"


async def refusal(sent: Sent) -> str:
    """The private (ephemeral) answer the bot gave to ``sent``, which changed nothing."""
    callback = await sent.callback()
    assert callback.json["type"] == MESSAGE, callback.json
    assert is_ephemeral(callback), callback.json
    assert not custom_ids(callback), callback.json
    return content_of(callback)


def check_board(
    request: RecordedRequest,
    *,
    game_id: int,
    white: str,
    black: str,
    moves: list[str],
    to_move: str | None,
    kind: str = "rated",
    ratings: tuple[str, str] = ("1500?", "1500?"),
) -> dict[str, Any]:
    """A board message after ``moves``: the players with their colours and ratings, the recent
    moves (so the move number), whose turn it is (the content's one mention, allowed to ping),
    the footer (game, variant, kind), the buttons of a running game, and a real PNG named after
    the game and ply that the embed shows, with alt text naming the game and its players.
    Returns the embed."""
    embed = embed_of(request)
    ply = len(moves)
    assert "title" not in embed and not embed.get("fields"), embed
    assert game_id_of(embed) == game_id
    assert footer_of(embed) == f"Game #{game_id} · {ENGLISH_TITLE} · {kind}"
    assert footer_parts(embed) == (game_id, ENGLISH_TITLE, kind)
    assert players_line(embed) == players_text(
        seat(NAMES[white], ratings[0]), seat(NAMES[black], ratings[1])
    )
    assert moves_of(embed) == (numbered(moves) if moves else None)
    name = f"game-{game_id}-{ply}.png"
    assert embed["image"]["url"] == f"attachment://{name}"
    assert name in request.files, list(request.files)
    assert board_alt_text(request).startswith(
        f"Game #{game_id}, {NAMES[white]} (White) v {NAMES[black]} (Black). "
    )
    image = png_of(request)
    assert image.width == BOARD_WIDTH
    assert BOARD_WIDTH <= image.height <= BOARD_WIDTH * 5 // 4  # the board and a status line
    if to_move is not None:
        assert to_move_in(request) == to_move
        assert due_in(request) is not None
        assert content_of(request) == f"{mention(to_move)} to move, due <t:{due_in(request)}:R>."
        assert to_move in pinged(request)
        assert custom_ids(request) == board_buttons(
            game_id, running=True, abortable=ply < 2, ply=ply
        )
    else:
        assert to_move_in(request) is None
        assert custom_ids(request)[:1] == [f"board:moves:{game_id}"]
        assert not any(i.startswith(("board:move:", "board:abort:")) for i in custom_ids(request))
        assert status_of(embed) is not None  # the result
    return embed


async def challenge(
    users: Users,
    challenger: str,
    opponent: str,
    channel: str = GENERAL,
    *,
    challenge_id: int,
    **options: Any,
) -> tuple[Sent, dict[str, Any]]:
    """``/challenge`` (English, challenger plays Black unless told) and the public challenge
    message with its three buttons; returns the interaction and the message object."""
    options.setdefault("color", "black")
    sent = await users.command(
        "challenge", challenger, channel, opponent=user(opponent), variant="english", **options
    )
    callback = await sent.callback()
    assert callback.json["type"] == MESSAGE, callback.json
    assert not is_ephemeral(callback), content_of(callback)
    assert content_of(callback) == f"{mention(opponent)}, you have been challenged!"
    embed = embed_of(callback)
    assert embed["title"] == f"Challenge: {ENGLISH_TITLE}"
    assert embed["footer"]["text"] == f"Challenge #{challenge_id}"
    if "move_time" not in options:
        # Open as long as a move may take (a day by default), up to the cap (a day).
        assert field(embed, "Time per move") == "1 day"
        expires = re.fullmatch(r"<t:(\d+):R>", field(embed, "Expires"))
        assert expires, field(embed, "Expires")
        assert 86400 - 120 < int(expires[1]) - time.time() <= 86400 + 5
    assert custom_ids(callback) == [
        f"challenge:accept:{challenge_id}",
        f"challenge:decline:{challenge_id}",
        f"challenge:cancel:{challenge_id}",
    ]
    return sent, sent.message()


async def start_game(
    users: Users,
    challenger: str,
    opponent: str,
    channel: str = GENERAL,
    *,
    challenge_id: int,
    game_id: int,
) -> RecordedRequest:
    """Challenger (Black, so first to move) v opponent (White), accepted in the channel; the
    first board message."""
    _, message = await challenge(users, challenger, opponent, channel, challenge_id=challenge_id)
    accepted = await users.press(f"challenge:accept:{challenge_id}", message, opponent)
    edit = await accepted.callback()
    assert edit.json["type"] == UPDATE, edit.json
    assert field(embed_of(edit), "Status") == f"Accepted: game #{game_id}"
    assert custom_ids(edit) == []
    board = await accepted.followup(0)
    assert not is_ephemeral(board)
    embed = check_board(
        board, game_id=game_id, white=opponent, black=challenger, moves=[], to_move=challenger
    )
    assert headline_of(embed) == "New game."  # the players and variant are on the board
    assert status_of(embed) is None  # nothing pending
    # The game's start pings both players; the content names only the one to move.
    assert sorted(pinged(board)) == sorted([challenger, opponent])
    return board


async def move(users: Users, player: str, text: str, channel: str = GENERAL) -> RecordedRequest:
    """A successful ``/move``: the public board message."""
    sent = await users.command("move", player, channel, move=text)
    callback = await sent.callback()
    assert callback.json["type"] == MESSAGE, callback.json
    assert not is_ephemeral(callback), content_of(callback)
    return callback


def pdns(game: Game) -> list[str]:
    """The moves of ``game`` so far, in PDN."""
    return [m.pdn() for m in game.moves]


def legal(game: Game, prefix: str = "") -> list[str]:
    """The full PDN of the legal moves starting with ``prefix``, captures first."""
    moves = sorted(game.legal_moves(), key=lambda m: (not m.is_capture, m.path))
    return [m.pdn() for m in moves if m.pdn().startswith(prefix)]


def followup_message(fake: FakeDiscord, sent: Sent, index: int) -> dict[str, Any]:
    """The message object of the ``index``-th follow-up of ``sent`` (already awaited)."""
    original = fake.original_responses.get(sent.token)
    made = [
        m
        for m in fake.messages.values()
        if m.get("interaction_metadata", {}).get("id") == sent.payload["id"] and m["id"] != original
    ]
    return made[index]


def gif_of(request: RecordedRequest, name: str) -> Image.Image:
    assert name in request.files, list(request.files)
    image = Image.open(io.BytesIO(request.files[name]))
    image.load()
    assert image.format == "GIF"
    return image


# -- tests ---------------------------------------------------------------------------------------


async def test_full_game_from_challenge_to_resignation(launch: Any, fake: FakeDiscord) -> None:
    _, users = await launch()
    rules_game = Game(find_variant("english"))

    # Alice (Black) challenges Bob (White); Bob accepts; Alice moves first.
    first_board = await start_game(users, ALICE, BOB, challenge_id=1, game_id=1)

    # Autocomplete: the player to move gets their legal moves matching what they typed, as
    # full PDN; anyone else gets nothing.
    choices = await users.autocomplete("move", ALICE, GENERAL, "move", move="1")
    assert [c["value"] for c in choices] == legal(rules_game, "1")
    assert {c["value"] for c in choices} == {"10-14", "10-15", "11-15", "11-16", "12-16"}
    all_choices = await users.autocomplete("move", ALICE, GENERAL, "move", move="")
    assert [c["value"] for c in all_choices] == legal(rules_game)
    assert await users.autocomplete("move", BOB, GENERAL, "move", move="") == []
    assert await users.autocomplete("move", CAROL, GENERAL, "move", move="1") == []

    board = await move(users, ALICE, "11-15")
    rules_game.play("11-15")
    embed = check_board(
        board, game_id=1, white=BOB, black=ALICE, moves=pdns(rules_game), to_move=BOB
    )
    assert headline_of(embed) == "Alice played 11-15."
    assert moves_of(embed) == "1. 11-15" and last_move_of(embed) == "11-15"
    assert pinged(board) == [BOB]  # only the player to move
    # The first board lost its buttons: only the newest board of a game can be tapped.
    first_message = users.fake.message_of(first_board)
    assert first_message is not None
    await buttons_taken_off(users, GENERAL, first_message["id"])

    # Wrong turn and an illegal move: private answers, nothing changes.
    wrong_turn = await users.command("move", ALICE, GENERAL, move="15-19")
    assert await refusal(wrong_turn) == "It is Bob's turn."
    illegal = await users.command("move", BOB, GENERAL, move="22-15")
    text = await refusal(illegal)
    assert text.endswith(MOVE_HINT), text
    assert await users.autocomplete("move", ALICE, GENERAL, "move", move="") == []

    board = await move(users, BOB, "22-18")
    rules_game.play("22-18")
    embed = check_board(
        board, game_id=1, white=BOB, black=ALICE, moves=pdns(rules_game), to_move=ALICE
    )
    assert headline_of(embed) == "Bob played 22-18."
    assert moves_of(embed) == "1. 11-15 22-18"
    # Both players have moved: no Abort any more.
    assert custom_ids(board) == board_buttons(1, running=True, abortable=False, ply=2)

    # A capture is compulsory: autocomplete offers only captures, and a step is refused.
    choices = await users.autocomplete("move", ALICE, GENERAL, "move", move="")
    assert [c["value"] for c in choices] == legal(rules_game) == ["15x22"]
    not_capturing = await users.command("move", ALICE, GENERAL, move="9-14")
    assert (await refusal(not_capturing)).endswith(MOVE_HINT)
    board = await move(users, ALICE, "15x22")
    rules_game.play("15x22")
    embed = check_board(
        board, game_id=1, white=BOB, black=ALICE, moves=pdns(rules_game), to_move=BOB
    )
    assert moves_of(embed) == "1. 11-15 22-18 2. 15x22"  # move 2

    choices = await users.autocomplete("move", BOB, GENERAL, "move", move="2")
    assert [c["value"] for c in choices] == legal(rules_game, "2") == ["25x18", "26x17"]
    assert all("x" in c["value"] for c in choices)
    board = await move(users, BOB, "25x18")
    rules_game.play("25x18")
    embed = check_board(
        board, game_id=1, white=BOB, black=ALICE, moves=pdns(rules_game), to_move=ALICE
    )
    assert last_move_of(embed) == "25x18"

    # Alice offers a draw; Bob declines with the button, which starts the 40-move count.
    offer = await users.command("draw", ALICE, GENERAL, action="offer")
    offered = await offer.callback()
    assert offered.json["type"] == MESSAGE and not is_ephemeral(offered)
    assert content_of(offered) == f"{mention(BOB)} Alice offers a draw. Bob, accept or decline?"
    assert custom_ids(offered) == ["draw:accept:1", "draw:decline:1"]
    declined = await users.press("draw:decline:1", offer.message(), BOB)
    edit = await declined.callback()
    assert edit.json["type"] == UPDATE, edit.json
    assert "Bob declined the draw." in content_of(edit)
    assert "(40-move count: 40 left)" in content_of(edit)
    assert custom_ids(edit) == []
    assert fake.messages[offer.message()["id"]]["components"] == []

    board = await move(users, ALICE, "8-11")
    rules_game.play("8-11")
    embed = check_board(
        board, game_id=1, white=BOB, black=ALICE, moves=pdns(rules_game), to_move=BOB
    )
    assert status_of(embed) == "40-move count: 40 left"
    board = await move(users, BOB, "29-25")
    rules_game.play("29-25")
    embed = check_board(
        board, game_id=1, white=BOB, black=ALICE, moves=pdns(rules_game), to_move=ALICE
    )
    assert status_of(embed) == "40-move count: 39 left"
    # The last three full moves (here all of them), numbered.
    assert moves_of(embed) == "1. 11-15 22-18 2. 15x22 25x18 3. 8-11 29-25"

    # Alice resigns: a private confirmation first, then the public result.
    resign = await users.command("resign", ALICE, GENERAL)
    confirm = await resign.callback()
    assert confirm.json["type"] == MESSAGE and is_ephemeral(confirm)
    assert content_of(confirm) == "Resign game #1 against Bob? This cannot be undone."
    assert custom_ids(confirm) == ["resign:1"]
    pressed = await users.press("resign:1", resign.message(), ALICE)
    edit = await pressed.callback()
    assert edit.json["type"] == UPDATE, edit.json
    assert content_of(edit) == "You resigned game #1."
    assert custom_ids(edit) == []

    final = await pressed.followup(0)
    assert not is_ephemeral(final)
    embed = check_board(
        final, game_id=1, white=BOB, black=ALICE, moves=pdns(rules_game), to_move=None
    )
    # A rated game: both start at 1500?/350, so the changes are equal and opposite.
    assert headline_of(embed) == ("Alice resigned. Ratings: Bob 1662? (+162), Alice 1338? (-162).")
    # The result replaces the status line: nobody is to move, no count is pending.
    assert status_of(embed) == "**1-0**: Bob wins (Black resigned)"
    assert "40-move count" not in embed["description"]
    assert content_of(final) == f"{mention(BOB)} {mention(ALICE)}"
    assert sorted(pinged(final)) == sorted([ALICE, BOB])
    assert custom_ids(final) == ["board:moves:1", "rematch:1", "analyse:1"]
    assert sorted(final.files) == ["draughts-game-1.pdn", "game-1-6.png"]

    record = read_game(final.files["draughts-game-1.pdn"])
    played = ["11-15", "22-18", "15x22", "25x18", "8-11", "29-25"]
    assert [m.pdn() for m in record.game.moves] == played
    assert record.game.result() == "1-0"
    assert record.game.outcome is not None
    assert record.game.outcome.termination is Termination.RESIGNATION
    assert record.tags["White"] == "Bob" and record.tags["Black"] == "Alice"
    assert record.tags["Result"] == "1-0"

    replay = await pressed.followup(1)
    assert content_of(replay).startswith("Replay of game #1.")
    assert list(replay.files) == ["game-1.gif"]
    gif = gif_of(replay, "game-1.gif")
    assert gif.is_animated
    assert gif.n_frames == len(played) + 1

    # The game is over: moves in the channel are refused.
    late = await users.command("move", BOB, GENERAL, move="18-14")
    assert await refusal(late) == NO_GAME


async def test_outsiders_are_refused_privately(launch: Any, fake: FakeDiscord) -> None:
    _, users = await launch()
    _, message = await challenge(users, ALICE, BOB, challenge_id=1)
    buttons = message["components"]

    for action, text in (
        ("accept", "Only Bob can accept this challenge."),
        ("decline", "Only Bob can decline this challenge."),
        ("cancel", "Only Alice can cancel this challenge."),
    ):
        pressed = await users.press(f"challenge:{action}:1", message, CAROL)
        assert await refusal(pressed) == text
    # Each side may only use its own buttons.
    assert await refusal(await users.press("challenge:cancel:1", message, BOB)) == (
        "Only Alice can cancel this challenge."
    )
    assert await refusal(await users.press("challenge:accept:1", message, ALICE)) == (
        "Only Bob can accept this challenge."
    )
    # The challenge message is untouched and still open.
    assert fake.messages[message["id"]]["components"] == buttons
    assert fake.find_requests("PATCH") == []

    accepted = await users.press("challenge:accept:1", message, BOB)
    assert (await accepted.callback()).json["type"] == UPDATE
    board = await accepted.followup(0)
    check_board(board, game_id=1, white=BOB, black=ALICE, moves=[], to_move=ALICE)

    not_playing = "You are not playing in this game (Bob v Alice)."
    assert await refusal(await users.command("move", CAROL, GENERAL, move="11-15")) == not_playing
    assert await refusal(await users.command("draw", CAROL, GENERAL, action="offer")) == not_playing
    assert await refusal(await users.command("resign", CAROL, GENERAL)) == not_playing
    assert await users.autocomplete("move", CAROL, GENERAL, "move", move="") == []

    # A draw offer (once both have moved) can be answered only by the opponent.
    await move(users, ALICE, "11-15")
    await move(users, BOB, "22-18")
    offer = await users.command("draw", ALICE, GENERAL, action="offer")
    assert custom_ids(await offer.callback()) == ["draw:accept:1", "draw:decline:1"]
    offer_message = offer.message()
    for action in ("accept", "decline"):
        pressed = await users.press(f"draw:{action}:1", offer_message, CAROL)
        assert await refusal(pressed) == not_playing
        own = await users.press(f"draw:{action}:1", offer_message, ALICE)
        assert f"no draw offer for Black to {action}" in await refusal(own)
    assert fake.messages[offer_message["id"]]["components"] == offer_message["components"]

    # Nothing the outsider did changed the game: Alice's move is move 2, the offer still stands.
    board = await move(users, ALICE, "15x22")
    played = ["11-15", "22-18", "15x22"]
    embed = check_board(board, game_id=1, white=BOB, black=ALICE, moves=played, to_move=BOB)
    assert headline_of(embed) == "Alice played 15x22."
    assert status_of(embed) == "Draw offered by Alice"


async def test_two_games_in_two_channels(launch: Any, fake: FakeDiscord) -> None:
    _, users = await launch()
    # Game 1 in #general: Alice (Black) v Bob (White).  Game 2 in #draughts: Carol (Black) v
    # Alice (White), so Alice plays in both and her moves go to the channel's own game.
    await start_game(users, ALICE, BOB, GENERAL, challenge_id=1, game_id=1)
    await start_game(users, CAROL, ALICE, DRAUGHTS, challenge_id=2, game_id=2)
    board = await move(users, CAROL, "9-13", DRAUGHTS)
    check_board(board, game_id=2, white=ALICE, black=CAROL, moves=["9-13"], to_move=ALICE)
    assert last_move_of(embed_of(board)) == "9-13"
    so_far: dict[int, list[str]] = {1: [], 2: ["9-13"]}

    steps = [
        (GENERAL, ALICE, "11-15", 1, (BOB, ALICE), 1, BOB),
        (DRAUGHTS, ALICE, "22-18", 2, (ALICE, CAROL), 2, CAROL),
        (GENERAL, BOB, "23-19", 1, (BOB, ALICE), 2, ALICE),
        (DRAUGHTS, CAROL, "11-15", 2, (ALICE, CAROL), 3, ALICE),
        (GENERAL, ALICE, "8-11", 1, (BOB, ALICE), 3, BOB),
        (DRAUGHTS, ALICE, "18x11", 2, (ALICE, CAROL), 4, CAROL),
    ]
    for channel, player, text, game_id, (white, black), ply, next_player in steps:
        board = await move(users, player, text, channel)
        so_far[game_id].append(text)
        assert len(so_far[game_id]) == ply
        embed = check_board(
            board,
            game_id=game_id,
            white=white,
            black=black,
            moves=so_far[game_id],
            to_move=next_player,
        )
        assert headline_of(embed) == (f"{NAMES[player]} played {text}.")
        assert last_move_of(embed) == text

    # Autocomplete follows the channel too: in #draughts it is Carol's turn, in #general Bob's.
    general = await users.autocomplete("move", BOB, GENERAL, "move", move="")
    draughts = await users.autocomplete("move", CAROL, DRAUGHTS, "move", move="")
    assert general and draughts
    assert await users.autocomplete("move", BOB, DRAUGHTS, "move", move="") == []
    assert await users.autocomplete("move", ALICE, GENERAL, "move", move="") == []
    assert [c["value"] for c in draughts] == ["7x16", "8x15"]  # Carol must recapture

    # Alice cannot move in #general while it is Bob's turn there, and there is no game in
    # #off-topic.
    assert await refusal(await users.command("move", ALICE, GENERAL, move="9-13")) == (
        "It is Bob's turn."
    )
    assert await refusal(await users.command("move", ALICE, OFFTOPIC, move="9-13")) == NO_GAME


async def test_game_in_a_thread(launch: Any, fake: FakeDiscord) -> None:
    """A game in its own thread; it ends on time (5 minutes a move, scaled to 3 s), and the
    scheduler's result and replay are followed by the thread archived, once."""
    _, users = await launch(MOVE_TIME_SCALE="0.01", SCHEDULER_INTERVAL_SECONDS="0.2")
    sent, message = await challenge(users, ALICE, BOB, challenge_id=1, thread=True, move_time=300)
    assert field(embed_of(await sent.callback()), "Where") == "in a new thread"

    accepted = await users.press("challenge:accept:1", message, BOB)
    assert (await accepted.callback()).json["type"] == DEFERRED_UPDATE
    created = await users.bot.alive(
        fake.wait_for_request("POST", rf"/channels/{GENERAL}/messages/{message['id']}/threads")
    )
    thread = str(message["id"])  # a thread started from a message has its id
    assert created.json["name"] == "Alice v Bob"
    assert thread in fake.threads

    edit = await accepted.original_edit()
    assert field(embed_of(edit), "Status") == f"Accepted: game #1 in <#{thread}>"
    assert custom_ids(edit) == []

    posts = await users.bot.alive(fake.wait_until(lambda: channel_posts(fake, thread)))
    check_board(posts[0], game_id=1, white=BOB, black=ALICE, moves=[], to_move=ALICE)
    assert channel_posts(fake, GENERAL) == []

    # The game lives in the thread: moves there work, the parent channel has no game.
    assert await refusal(await users.command("move", ALICE, GENERAL, move="11-15")) == NO_GAME
    choices = await users.autocomplete("move", ALICE, thread, "move", move="11")
    assert [c["value"] for c in choices] == ["11-15", "11-16"]
    board = await move(users, ALICE, "11-15", thread)
    check_board(board, game_id=1, white=BOB, black=ALICE, moves=["11-15"], to_move=BOB)
    assert await refusal(await users.command("move", ALICE, thread, move="15-19")) == (
        "It is Bob's turn."
    )
    board = await move(users, BOB, "22-18", thread)
    check_board(board, game_id=1, white=BOB, black=ALICE, moves=["11-15", "22-18"], to_move=ALICE)

    # Alice lets her time run out: the scheduler posts the result and the replay in the
    # thread, and then archives it (the bot opened it, so it may), exactly once.
    archived = await users.bot.alive(
        fake.wait_for_request("PATCH", rf"/channels/{thread}", timeout=20)
    )
    assert archived.json == {"archived": True}
    assert fake.threads[thread]["thread_metadata"]["archived"] is True
    posts = channel_posts(fake, thread)
    replay = next(p for p in posts if "game-1.gif" in p.files)
    final = next(p for p in posts if "ran out of time" in str(p.json))
    order = fake.requests.index
    assert order(final) < order(replay) < order(archived)
    assert "ran out of time" not in str([p.json for p in channel_posts(fake, GENERAL)])
    await asyncio.sleep(0.6)  # several scheduler ticks: nothing archives it again
    assert len(fake.find_requests("PATCH", rf"/channels/{thread}")) == 1


async def test_second_game_in_a_busy_channel_opens_a_thread(launch: Any, fake: FakeDiscord) -> None:
    _, users = await launch()
    await start_game(users, ALICE, BOB, DRAUGHTS, challenge_id=1, game_id=1)

    # Carol challenges Alice in the same channel; accepting opens a thread for game 2.
    _, message = await challenge(users, CAROL, ALICE, DRAUGHTS, challenge_id=2)
    accepted = await users.press("challenge:accept:2", message, ALICE)
    assert (await accepted.callback()).json["type"] == DEFERRED_UPDATE
    await users.bot.alive(
        fake.wait_for_request("POST", rf"/channels/{DRAUGHTS}/messages/{message['id']}/threads")
    )
    thread = str(message["id"])
    edit = await accepted.original_edit()
    assert field(embed_of(edit), "Status") == f"Accepted: game #2 in <#{thread}>"
    assert custom_ids(edit) == []
    posts = await users.bot.alive(fake.wait_until(lambda: channel_posts(fake, thread)))
    check_board(posts[0], game_id=2, white=ALICE, black=CAROL, moves=[], to_move=CAROL)

    # Each place keeps its own game.
    board = await move(users, CAROL, "9-13", thread)
    check_board(board, game_id=2, white=ALICE, black=CAROL, moves=["9-13"], to_move=ALICE)
    board = await move(users, ALICE, "11-15", DRAUGHTS)
    check_board(board, game_id=1, white=BOB, black=ALICE, moves=["11-15"], to_move=BOB)
    board = await move(users, ALICE, "22-18", thread)
    check_board(board, game_id=2, white=ALICE, black=CAROL, moves=["9-13", "22-18"], to_move=CAROL)


async def test_decline_and_cancel_close_the_challenge(launch: Any, fake: FakeDiscord) -> None:
    _, users = await launch()

    # Bob declines: the message says so and loses its buttons; Alice is told.
    _, message = await challenge(users, ALICE, BOB, challenge_id=1)
    # A client that has not caught up with the edit still shows (and sends) the buttons.
    as_seen = copy.deepcopy(message)
    declined = await users.press("challenge:decline:1", message, BOB)
    edit = await declined.callback()
    assert edit.json["type"] == UPDATE, edit.json
    assert field(embed_of(edit), "Status") == "Declined"
    assert custom_ids(edit) == []
    assert custom_ids(fake.messages[message["id"]]) == []
    notice = await declined.followup(0)
    assert not is_ephemeral(notice)
    assert content_of(notice) == f"{mention(ALICE)} Bob declined the challenge."

    # Stale buttons of the declined challenge: a private "no longer open".
    stale = await users.press("challenge:accept:1", as_seen, BOB)
    assert await refusal(stale) == "That challenge is no longer open (declined)."
    stale = await users.press("challenge:cancel:1", as_seen, ALICE)
    assert await refusal(stale) == "That challenge is no longer open (declined)."

    # Alice challenges again and cancels.
    _, message = await challenge(users, ALICE, BOB, challenge_id=2)
    as_seen = copy.deepcopy(message)
    cancelled = await users.press("challenge:cancel:2", message, ALICE)
    edit = await cancelled.callback()
    assert edit.json["type"] == UPDATE, edit.json
    assert field(embed_of(edit), "Status") == "Cancelled by the challenger"
    assert custom_ids(edit) == []
    assert custom_ids(fake.messages[message["id"]]) == []
    stale = await users.press("challenge:accept:2", as_seen, BOB)
    assert await refusal(stale) == "That challenge is no longer open (cancelled)."

    # No game was started by any of it.
    assert await refusal(await users.command("move", ALICE, GENERAL, move="11-15")) == NO_GAME


async def test_draw_by_agreement_and_rematch(launch: Any, fake: FakeDiscord) -> None:
    _, users = await launch()
    await start_game(users, ALICE, BOB, challenge_id=1, game_id=1)
    await move(users, ALICE, "11-15")
    await move(users, BOB, "22-18")  # a draw can be offered once both have moved

    # Bob offers, Alice accepts with the button: the game is drawn.
    offer = await users.command("draw", BOB, GENERAL, action="offer")
    offered = await offer.callback()
    assert content_of(offered) == f"{mention(ALICE)} Bob offers a draw. Alice, accept or decline?"
    accepted = await users.press("draw:accept:1", offer.message(), ALICE)
    edit = await accepted.callback()
    assert edit.json["type"] == UPDATE, edit.json
    assert content_of(edit) == (
        "Alice accepted the draw. Ratings: Bob 1500? (+0), Alice 1500? (+0)."
    )
    assert custom_ids(edit) == []

    final = await accepted.followup(0)
    played = ["11-15", "22-18"]
    embed = check_board(final, game_id=1, white=BOB, black=ALICE, moves=played, to_move=None)
    assert status_of(embed) == "**1/2-1/2**: draw (draw by agreement)"
    assert custom_ids(final) == ["board:moves:1", "rematch:1", "analyse:1"]
    record = read_game(final.files["draughts-game-1.pdn"])
    assert record.tags["Result"] == "1/2-1/2"
    assert record.game.result() == "1/2-1/2"
    assert record.game.outcome is not None and record.game.outcome.winner is None
    assert record.game.outcome.termination is Termination.AGREEMENT
    assert [m.pdn() for m in record.game.moves] == played
    replay = await accepted.followup(1)
    gif = gif_of(replay, "game-1.gif")
    assert gif.n_frames == 3
    final_message = followup_message(fake, accepted, 0)
    assert custom_ids(final_message) == ["board:moves:1", "rematch:1", "analyse:1"]

    # Rematch: Alice (Black in game 1) asks; the challenge has the colours swapped.
    asked = await users.press("rematch:1", final_message, ALICE)
    rematch = await asked.callback()
    assert rematch.json["type"] == MESSAGE and not is_ephemeral(rematch)
    assert content_of(rematch) == f"{mention(BOB)}, you have been challenged!"
    challenge_embed = embed_of(rematch)
    assert field(challenge_embed, "Colours") == "Alice plays White"
    assert challenge_embed["footer"]["text"] == "Challenge #2"
    assert custom_ids(rematch) == [
        "challenge:accept:2",
        "challenge:decline:2",
        "challenge:cancel:2",
    ]

    # Bob presses Rematch too: that accepts, and game 2 starts with the colours swapped.
    as_seen_before = copy.deepcopy(asked.message())
    answered = await users.press("rematch:1", final_message, BOB)
    board = await answered.callback()
    assert board.json["type"] == MESSAGE and not is_ephemeral(board)
    check_board(board, game_id=2, white=ALICE, black=BOB, moves=[], to_move=BOB)

    # The rematch challenge's message is closed (its buttons gone), and a press on a screen
    # that still shows them is refused.
    edit = await fake.wait_for_request(
        "PATCH", rf"/channels/{GENERAL}/messages/{as_seen_before['id']}", timeout=15
    )
    assert field(embed_of(edit), "Status") == "Accepted: game #2"
    assert custom_ids(asked.message()) == []
    stale = await users.press("challenge:accept:2", as_seen_before, BOB)
    assert await refusal(stale) == "That challenge is no longer open (accepted)."
    board = await move(users, BOB, "11-15")
    check_board(board, game_id=2, white=ALICE, black=BOB, moves=["11-15"], to_move=ALICE)


async def test_russian_moves_are_shown_in_algebraic_notation(
    launch: Any, fake: FakeDiscord
) -> None:
    """Russian (and Brazilian) draughts write moves on coordinates, in the headline and the
    recent moves alike; White moves first there."""
    _, users = await launch()
    sent = await users.command(
        "challenge", ALICE, GENERAL, opponent=user(BOB), variant="russian", color="white"
    )
    assert (await sent.callback()).json["type"] == MESSAGE
    accepted = await users.press("challenge:accept:1", sent.message(), BOB)
    assert (await accepted.callback()).json["type"] == UPDATE
    board = await accepted.followup(0)
    embed = embed_of(board)
    assert footer_parts(embed) == (1, "Russian draughts", "rated")
    assert players_line(embed) == players_text(seat("Alice", "1500?"), seat("Bob", "1500?"))
    assert to_move_in(board) == ALICE

    board = await move(users, ALICE, "c3-d4")
    embed = embed_of(board)
    assert headline_of(embed) == "Alice played c3-d4."
    assert moves_of(embed) == "1. c3-d4"
    board = await move(users, BOB, "f6-g5")
    embed = embed_of(board)
    assert headline_of(embed) == "Bob played f6-g5."
    assert moves_of(embed) == "1. c3-d4 f6-g5"
    assert to_move_in(board) == ALICE
    assert board_alt_text(board).startswith("Game #1, Alice (White) v Bob (Black). ")

    # /board text:True is written for its reader: Carol reads German and asked for
    # coordinates, Bob for PDN numbers (each with /prefs), in English.
    users.locales[CAROL] = "de"
    await (await users.command("prefs", CAROL, GENERAL, notation="algebraic")).callback()
    text = await users.command("board", CAROL, GENERAL, text=True)
    diagram = content_of(await text.callback())
    assert diagram.startswith("Partie #1, Alice (Weiß) gegen Bob (Schwarz), letzter Zug f6-g5:")
    assert "Weiß ist am Zug." in diagram and "White" not in diagram
    pieces = " ".join(diagram.split())
    assert "Weiße Steine (12): a1, c1, e1, g1, b2, d2, f2, h2, a3, e3, g3, d4." in pieces
    await (await users.command("prefs", BOB, GENERAL, notation="numeric")).callback()
    numbers = content_of(await (await users.command("board", BOB, GENERAL, text=True)).callback())
    assert "White men (12): 18, 21, 23 to 32." in numbers and "1–4" in numbers
