"""End to end, the commands that look things up or end a game from outside: ``/abort`` (the players
until both have moved, moderators any time), ``/board``, ``/moves``, ``/pdn``, ``/games``,
``/rules``, ``/help``, and the answer every game command gives in a channel without a game.

The real bot process runs against the fake Discord (``tests/support/e2e_harness.py``); what the bot
shows is checked against :mod:`rules` (legal moves, PDN records, variant facts).
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from support.e2e_harness import (
    ALICE,
    BOB,
    CAROL,
    GENERAL,
    OFFTOPIC,
    Launch,
    Users,
    board_buttons,
    board_text,
    content_of,
    custom_ids,
    due_in,
    embed_of,
    field,
    footer_parts,
    game_id_of,
    headline_of,
    is_ephemeral,
    pinged,
    players_line,
    players_text,
    png_of,
    poll,
    seat,
    status_of,
    to_move_in,
    user,
    white_at_bottom,
)
from support.fake_discord import FakeDiscord, RecordedRequest
from test_e2e_faults import game_row

from bot.ui.rules_texts import rules_summary
from rules import VARIANTS, Game, find_variant, read_game

pytestmark = pytest.mark.e2e

NO_GAME_HERE = "There is no game running in this channel. Start one with `/challenge`."


async def human_game(users: Users, challenger: str, opponent: str, channel: str) -> int:
    """A challenge (English, the challenger plays White) accepted at once; the game id."""
    sent = await users.command(
        "challenge", challenger, channel, opponent=user(opponent), variant="english", color="white"
    )
    answer = await sent.callback()
    (accept,) = [i for i in custom_ids(answer) if i.startswith("challenge:accept:")]
    press = await users.press(accept, sent.message(), opponent)
    assert (await press.callback()).json["type"] == 7
    board = await press.followup()
    return game_id_of(embed_of(board))


async def ask(
    users: Users, name: str, player: str, channel: str, **options: Any
) -> RecordedRequest:
    """A command answered at once (no deferral): its response."""
    return await (await users.command(name, player, channel, **options)).callback()


async def private(users: Users, name: str, player: str, channel: str, **options: Any) -> str:
    """A command answered privately with text: the text."""
    answer = await ask(users, name, player, channel, **options)
    assert answer.json["type"] == 4 and is_ephemeral(answer), answer.json
    return content_of(answer)


ENGLISH = "English draughts / American checkers"
OUTSIDER_ABORT = "Only the players (before both have moved) or moderators can abort a game."
TOO_LATE = (
    "Both players have moved, so the game can no longer be aborted: resign or offer a draw instead."
)


async def test_abort_by_a_moderator_any_time(launch: Launch, fake: FakeDiscord) -> None:
    _, users = await launch()
    (sync,) = fake.find_requests("PUT", r"/applications/\d+/guilds/\d+/commands")
    (abort,) = [c for c in sync.json if c["name"] == "abort"]
    # Anyone may use it (the bot decides who may abort what), not only Manage Messages.
    assert abort.get("default_member_permissions") is None

    # Alice (a moderator) plays White against Bob; both make a move.
    game_id = await human_game(users, ALICE, BOB, GENERAL)
    for player, move in ((BOB, "11-15"), (ALICE, "22-18")):
        moved = await ask(users, "move", player, GENERAL, move=move)
        assert moved.json["type"] == 4

    # Now neither an outsider nor a player who is not a moderator may abort it.
    assert await private(users, "abort", CAROL, GENERAL) == OUTSIDER_ABORT
    assert await private(users, "abort", BOB, GENERAL) == TOO_LATE
    games = await ask(users, "games", CAROL, GENERAL)
    assert embed_of(games)["title"] == "Running games (1)"

    # A moderator still may.
    answer = await ask(users, "abort", ALICE, GENERAL)
    assert answer.json["type"] == 4 and not is_ephemeral(answer)
    embed = embed_of(answer)
    assert headline_of(embed) == f"Game #{game_id} (Alice v Bob) was aborted by a moderator."
    assert status_of(embed) == "Aborted: no result"
    assert footer_parts(embed) == (game_id, ENGLISH, "aborted, unrated")
    assert game_id_of(embed) == game_id
    assert custom_ids(answer) == [f"board:moves:{game_id}"]  # no Rematch after an abort
    assert to_move_in(answer) is None
    png_of(answer)
    record = read_game(answer.files[f"draughts-game-{game_id}.pdn"]).game
    assert [m.pdn() for m in record.moves] == ["11-15", "22-18"]
    assert set(re.findall(r"<@(\d+)>", content_of(answer))) == {ALICE, BOB}

    # The channel is free again; its last game's record is still there.
    assert await private(users, "board", ALICE, GENERAL) == NO_GAME_HERE
    pdn = await ask(users, "pdn", BOB, GENERAL)
    assert is_ephemeral(pdn) and list(pdn.files) == [f"draughts-game-{game_id}.pdn"]
    assert await private(users, "games", ALICE, GENERAL) == (
        "No games are running in this server. Start one with `/challenge`."
    )
    assert not any(name.endswith(".gif") for r in fake.requests for name in r.files)


async def test_abort_by_a_player_before_both_have_moved(launch: Launch, fake: FakeDiscord) -> None:
    _, users = await launch()
    # Carol (White) v Bob (Black), neither a moderator; Bob moves, Carol has not yet.
    game_id = await human_game(users, CAROL, BOB, GENERAL)
    board = await ask(users, "move", BOB, GENERAL, move="11-15")
    assert board.json["type"] == 4
    # The board still offers Abort: not both players have moved.
    assert custom_ids(board) == board_buttons(game_id, running=True, abortable=True, ply=1)
    # Bob presses it on the newest board: the game ends with no result.
    message = fake.message_of(board)
    assert message is not None
    pressed = await users.press(f"board:abort:{game_id}", message, BOB)
    answer = await pressed.callback()
    assert answer.json["type"] == 4 and not is_ephemeral(answer), answer.json
    embed = embed_of(answer)
    assert headline_of(embed) == (
        f"Game #{game_id} (Carol v Bob) was aborted by Bob before both players had moved: "
        "no result."
    )
    assert status_of(embed) == "Aborted: no result"
    assert footer_parts(embed) == (game_id, ENGLISH, "aborted, unrated")
    assert custom_ids(answer) == [f"board:moves:{game_id}"]
    record = read_game(answer.files[f"draughts-game-{game_id}.pdn"]).game
    assert [m.pdn() for m in record.moves] == ["11-15"] and record.result() == "*"
    assert await private(users, "abort", BOB, GENERAL) == NO_GAME_HERE

    # A second game: Carol may abort with the command too, before her first move.
    game_id = await human_game(users, CAROL, BOB, GENERAL)
    answer = await ask(users, "abort", CAROL, GENERAL)
    assert answer.json["type"] == 4 and not is_ephemeral(answer)
    assert headline_of(embed_of(answer)) == (
        f"Game #{game_id} (Carol v Bob) was aborted by Carol before both players had moved: "
        "no result."
    )
    # Neither game counted: no ratings.
    for player in (BOB, CAROL):
        stats = await ask(users, "stats", player, GENERAL)
        assert field(embed_of(stats), "Rating") == "unrated: no rated games yet"


async def test_board_moves_pdn_and_games(launch: Launch, fake: FakeDiscord) -> None:
    bot, users = await launch()
    game_id = await human_game(users, ALICE, BOB, GENERAL)
    local = Game(find_variant("english"))
    # the board's message is recorded just after it is posted: /board asks for it
    await bot.alive(poll(lambda: game_row(bot.database, game_id)["board_message_id"], 10))

    # /board by a spectator while the board is in view (just posted): only Carol sees it.
    spectator = await ask(users, "board", CAROL, GENERAL)
    assert spectator.json["type"] == 4 and is_ephemeral(spectator)
    assert content_of(spectator).startswith("Only you see this board: ")
    # A player's /board: public, with White at the bottom (the game's one orientation, whoever
    # is to move: Black here); flip shows the other side.
    board = await ask(users, "board", BOB, GENERAL)
    assert board.json["type"] == 4 and not is_ephemeral(board)
    assert png_of(spectator).tobytes() == png_of(board).tobytes()
    embed = embed_of(board)
    assert game_id_of(embed) == game_id
    assert players_line(embed) == players_text(seat("Alice", "1500?"), seat("Bob", "1500?"))
    shown = board_text(embed)
    assert shown.headline is None and shown.moves is None and shown.status is None
    # It says whose turn it is (move 1: Bob), but showing the board pings nobody.
    assert to_move_in(board) == BOB
    assert content_of(board) == f"<@{BOB}> to move, due <t:{due_in(board)}:R>."
    assert pinged(board) == []
    assert white_at_bottom(board)
    flipped = await ask(users, "board", ALICE, GENERAL, flip=True)
    normal, other = png_of(board), png_of(flipped)
    assert normal.size == other.size
    assert normal.tobytes() != other.tobytes()
    assert not white_at_bottom(flipped)
    assert normal.tobytes() == png_of(await ask(users, "board", BOB, GENERAL)).tobytes()

    # text: a private diagram for screen readers, White at the bottom too.
    text = await private(users, "board", CAROL, GENERAL, text=True)
    assert text.startswith(f"Game #{game_id}, Alice (White) v Bob (Black)"), text
    diagram = text.split("```")[1]
    rows = [line for line in diagram.split("\n") if re.match(r"[1-8] ", line)]
    assert [line[0] for line in rows] == list("87654321")
    assert "b" in rows[0] and "w" not in rows[0] and "w" in rows[-1] and "b" not in rows[-1]
    assert "Black to move." in diagram

    # /moves: private, anyone may look, exactly the legal moves.
    text = await private(users, "moves", CAROL, GENERAL)
    legal = {m.pdn() for m in local.legal_moves()}
    assert text.startswith(f"Bob (Black) has {len(legal)} legal moves: ")
    assert set(re.findall(r"`([^`]+)`", text)) == legal

    # After a capture is available, /moves lists only captures and says they are compulsory.
    for player, move in ((BOB, "11-15"), (ALICE, "22-18")):
        answer = await ask(users, "move", player, GENERAL, move=move)
        assert answer.json["type"] == 4, answer.json
        local.play(move)
        # The board keeps White at the bottom whoever is to move.
        assert white_at_bottom(answer)
    text = await private(users, "moves", ALICE, GENERAL)
    legal = {m.pdn() for m in local.legal_moves()}
    assert legal and all("x" in m for m in legal)
    assert "(capturing is compulsory)" in text
    assert set(re.findall(r"`([^`]+)`", text)) == legal

    # /pdn: the channel's game, by id from elsewhere, an unknown id.
    for channel, options in ((GENERAL, {}), (OFFTOPIC, {"game": game_id})):
        answer = await ask(users, "pdn", CAROL, channel, **options)
        assert answer.json["type"] == 4 and is_ephemeral(answer)
        assert content_of(answer) == f"The record of draughts-game-{game_id}."
        read = read_game(answer.files[f"draughts-game-{game_id}.pdn"])
        assert [m.pdn() for m in read.game.moves] == [m.pdn() for m in local.moves]
        assert read.tags["White"] == "Alice" and read.tags["Black"] == "Bob"
        assert read.game.result() == "*"
    unknown = await ask(users, "pdn", CAROL, GENERAL, game=game_id + 99)
    assert is_ephemeral(unknown) and not unknown.files
    assert content_of(unknown) == f"There is no game #{game_id + 99} on this server."

    # /games: private list of the running games.
    games = await ask(users, "games", CAROL, OFFTOPIC)
    assert is_ephemeral(games)
    embed = embed_of(games)
    assert embed["title"] == "Running games (1)"
    line = embed["description"]
    assert line.startswith(f"**#{game_id}** Alice v Bob · English draughts / American checkers")
    assert f"<#{GENERAL}>" in line and "move 2, Bob to move" in line
    assert re.search(r"\(due <t:\d+:R>\)$", line), line


async def test_rules_of_every_variant(launch: Launch) -> None:
    _, users = await launch()
    assert set(VARIANTS) == {
        *("english", "dame", "pool", "international", "canadian", "brazilian", "russian"),
        *("italian", "spanish", "portuguese", "czech", "thai", "turkish"),
        *("frisian", "frysk"),
        *("antidraughts", "breakthrough"),
    }
    for key, variant in VARIANTS.items():
        answer = await ask(users, "rules", BOB, GENERAL, variant=key)
        assert answer.json["type"] == 4 and is_ephemeral(answer), answer.json
        embed = embed_of(answer)
        title, lines = rules_summary(key)
        assert embed["title"] == str(title) == variant.title
        assert embed["description"] == "\n".join(f"• {line}" for line in lines)
        text = embed["description"]
        assert f"{variant.size}x{variant.size} board" in text
        assert ("Kings fly" in text) == variant.flying_kings
        assert "Capturing is compulsory" in text
        assert "Notation" in embed["footer"]["text"]


async def test_help(launch: Launch) -> None:
    _, users = await launch()
    answer = await ask(users, "help", CAROL, OFFTOPIC)
    assert answer.json["type"] == 4 and is_ephemeral(answer)
    embed = embed_of(answer)
    assert embed["title"] == "How to play"
    for command in ("/challenge", "/move", "/board", "/moves", "/draw", "/resign", "/pdn"):
        assert command in embed["description"], command


async def test_game_commands_where_there_is_no_game(launch: Launch, fake: FakeDiscord) -> None:
    _, users = await launch()
    await human_game(users, ALICE, BOB, GENERAL)  # a game elsewhere changes nothing here
    assert await private(users, "move", ALICE, OFFTOPIC, move="11-15") == NO_GAME_HERE
    assert await private(users, "board", ALICE, OFFTOPIC) == NO_GAME_HERE
    assert await private(users, "board", ALICE, OFFTOPIC, flip=True) == NO_GAME_HERE
    assert await private(users, "moves", BOB, OFFTOPIC) == NO_GAME_HERE
    assert await private(users, "resign", BOB, OFFTOPIC) == NO_GAME_HERE
    for action in ("offer", "accept", "decline"):
        assert await private(users, "draw", BOB, OFFTOPIC, action=action) == NO_GAME_HERE
    assert await private(users, "abort", ALICE, OFFTOPIC) == NO_GAME_HERE
    assert await private(users, "pdn", CAROL, OFFTOPIC) == (
        "There is no game in this channel. Start one with `/challenge`."
    )
    assert await private(users, "move", CAROL, OFFTOPIC, move="11-15") == NO_GAME_HERE
    # Nothing was posted for anyone to see.
    assert not any(
        r.method == "POST" and r.path.startswith(f"/channels/{OFFTOPIC}/") for r in fake.requests
    )
