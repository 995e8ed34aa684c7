"""End to end, what a server builds up around its games (issue 7): ratings after a rated game
(``/stats``, ``/leaderboard``), ``/history``, ``/pdn`` and ``/replay`` of finished games by id,
takebacks (between people and against the computer), ACF ballot openings, two-game matches, and
the moderators' ``/settings`` (default variant and time, game channels, thread policy).

The real bot process runs against the fake Discord (``tests/support/e2e_harness.py``), one launch
per scenario group; positions and records are checked by replaying the moves with :mod:`rules`.
"""

from __future__ import annotations

import copy
import io
import re
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
    STEP_TIMEOUT,
    Launch,
    Sent,
    Users,
    board_buttons,
    board_text,
    channel,
    channel_posts,
    content_of,
    custom_ids,
    due_in,
    embed_of,
    field,
    first_answer,
    footer_parts,
    game_id_of,
    headline_of,
    is_ephemeral,
    last_move_of,
    moves_of,
    players_line,
    players_text,
    png_of,
    post_number,
    seat,
    seats_of,
    status_of,
    to_move_in,
    user,
)
from support.fake_discord import FakeDiscord, RecordedRequest

from rules import Game, find_variant, read_game
from rules.ballots import ACF_BALLOTS, CROSSBOARD

pytestmark = pytest.mark.e2e

ENGLISH = "English draughts / American checkers"
INTERNATIONAL = "International draughts"
NAMES = {ALICE: "Alice", BOB: "Bob", CAROL: "Carol"}
MESSAGE, DEFERRED_MESSAGE, DEFERRED_UPDATE, UPDATE = 4, 5, 6, 7
RELATIVE_TIME = r"<t:\d+:R>"
MANAGE_GUILD = 1 << 5


# -- helpers -------------------------------------------------------------------------------------


def mention(user_id: str) -> str:
    return f"<@{user_id}>"


def english() -> Game:
    return Game(find_variant("english"))


async def refusal(sent: Sent) -> str:
    """The private answer to ``sent`` (a refusal: no buttons, nothing public)."""
    answer = await sent.callback()
    assert answer.json["type"] == MESSAGE, answer.json
    assert is_ephemeral(answer), answer.json
    assert not custom_ids(answer), answer.json
    return content_of(answer)


async def refused(users: Users, name: str, player: str, where: str, **options: Any) -> str:
    return await refusal(await users.command(name, player, where, **options))


async def private_embed(
    users: Users, name: str, player: str, where: str, **options: Any
) -> dict[str, Any]:
    """A command answered with a private embed: the embed."""
    answer = await (await users.command(name, player, where, **options)).callback()
    assert answer.json["type"] == MESSAGE and is_ephemeral(answer), answer.json
    return embed_of(answer)


async def open_challenge(
    users: Users, challenger: str, opponent: str, where: str, **options: Any
) -> tuple[int, RecordedRequest, dict[str, Any]]:
    """A public challenge between people: its id, the bot's answer and the message (a copy
    taken before anyone presses a button)."""
    sent = await users.command("challenge", challenger, where, opponent=user(opponent), **options)
    answer = await sent.callback()
    assert answer.json["type"] == MESSAGE and not is_ephemeral(answer), answer.json
    ids = custom_ids(answer)
    (accept,) = [i for i in ids if i.startswith("challenge:accept:")]
    challenge_id = int(accept.rsplit(":", 1)[1])
    return challenge_id, answer, copy.deepcopy(sent.message())


async def accept(
    users: Users, challenge_id: int, message: dict[str, Any], opponent: str
) -> RecordedRequest:
    """Accept in place (no thread): the challenge is updated and the first board follows."""
    press = await users.press(f"challenge:accept:{challenge_id}", message, opponent)
    update = await press.callback()
    assert update.json["type"] == UPDATE, update.json
    assert field(embed_of(update), "Status").startswith("Accepted: game #")
    board = await press.followup(0)
    assert not is_ephemeral(board)
    return board


async def cancel(users: Users, challenge_id: int, message: dict[str, Any], challenger: str) -> None:
    press = await users.press(f"challenge:cancel:{challenge_id}", message, challenger)
    update = await press.callback()
    assert update.json["type"] == UPDATE, update.json
    assert field(embed_of(update), "Status") == "Cancelled by the challenger"


async def human_game(
    users: Users, white: str, black: str, where: str = GENERAL, **options: Any
) -> tuple[int, RecordedRequest]:
    """``white`` challenges ``black`` (English unless told), accepted at once: the game id and
    the first board."""
    options.setdefault("variant", "english")
    challenge_id, _, message = await open_challenge(
        users, white, black, where, color="white", **options
    )
    board = await accept(users, challenge_id, message, black)
    return game_id_of(embed_of(board)), board


async def move(users: Users, player: str, where: str, text: str) -> RecordedRequest:
    """A successful ``/move`` between people: the public board."""
    answer = await (await users.command("move", player, where, move=text)).callback()
    assert answer.json["type"] == MESSAGE and not is_ephemeral(answer), answer.json
    return answer


async def resign(users: Users, player: str, where: str, game_id: int) -> Sent:
    """``/resign`` and its confirmation button: the press (its follow-ups are the end board,
    the replay, and a match's next game)."""
    asked = await users.command("resign", player, where)
    confirm = await asked.callback()
    assert custom_ids(confirm) == [f"resign:{game_id}"], confirm.json
    pressed = await users.press(f"resign:{game_id}", asked.message(), player)
    update = await pressed.callback()
    assert update.json["type"] == UPDATE, update.json
    assert content_of(update) == f"You resigned game #{game_id}."
    return pressed


async def deferred_answer(sent: Sent) -> RecordedRequest:
    """A "thinking" response (type 5) filled in by editing it: the edit."""
    assert (await sent.callback()).json["type"] == DEFERRED_MESSAGE
    return await first_answer(sent)


async def pdn_game(
    users: Users, player: str, where: str, **options: Any
) -> tuple[dict[str, str], Game]:
    """``/pdn``: the record's tags and game, read back by the rules."""
    answer = await (await users.command("pdn", player, where, **options)).callback()
    assert answer.json["type"] == MESSAGE and is_ephemeral(answer), answer.json
    (name,) = answer.files
    read = read_game(answer.files[name])
    return dict(read.tags), read.game


def plies(game: Game) -> list[str]:
    return [m.pdn() for m in game.moves]


def gif_frames(request: RecordedRequest, name: str) -> int:
    assert name in request.files, list(request.files)
    image = Image.open(io.BytesIO(request.files[name]))
    image.load()
    assert image.format == "GIF"
    return int(getattr(image, "n_frames", 1))


def board_ply(request: RecordedRequest, game_id: int) -> int:
    """The ply a board message shows, from its PNG's name (``game-ID-PLY.png``)."""
    (name,) = [n for n in request.files if n.endswith(".png")]
    match = re.fullmatch(rf"game-{game_id}-(\d+)\.png", name)
    assert match, name
    png_of(request)
    return int(match[1])


def ballot_of_label(label: str) -> tuple[str, ...]:
    """The moves of the ballot an "Opening" field names, checked against the ACF list (and
    to be one of the cross-board openings, the only ones drawn)."""
    match = re.fullmatch(r"ACF #(\d+)(?: [^:]+)?: (\S+ \S+ \S+)", label)
    assert match, label
    ballot = ACF_BALLOTS[int(match[1]) - 1]
    assert ballot.label == label
    assert ballot in CROSSBOARD
    return ballot.moves


# -- ratings, records, history, replays ------------------------------------------------------------


async def test_rated_game_then_stats_leaderboard_history_pdn_and_replay(
    launch: Launch, fake: FakeDiscord
) -> None:
    _, users = await launch()

    # Game 1: Bob (White) v Alice (Black), rated; Alice resigns after four moves.
    game_id, board = await human_game(users, BOB, ALICE, GENERAL)
    assert footer_parts(embed_of(board)) == (game_id, ENGLISH, "rated")
    assert players_line(embed_of(board)) == players_text(
        seat("Bob", "1500?"), seat("Alice", "1500?")
    )
    local = english()
    for player, text in ((ALICE, "11-15"), (BOB, "23-19"), (ALICE, "8-11"), (BOB, "22-17")):
        await move(users, player, GENERAL, text)
        local.play(text)
    pressed = await resign(users, ALICE, GENERAL, game_id)
    final = await pressed.followup(0)
    embed = embed_of(final)
    assert headline_of(embed) == ("Alice resigned. Ratings: Bob 1662? (+162), Alice 1338? (-162).")
    assert footer_parts(embed) == (game_id, ENGLISH, "rated")
    assert custom_ids(final) == [
        f"board:moves:{game_id}",
        f"rematch:{game_id}",
        f"analyse:{game_id}",
    ]
    # The replay follows (awaited: a stop while it is still being sent logs a traceback).
    assert gif_frames(await pressed.followup(1), f"game-{game_id}.gif") == len(plies(local)) + 1

    # Game 2: Carol v Bob in #draughts, aborted by a moderator: no result, no rating.
    aborted_id, _ = await human_game(users, CAROL, BOB, DRAUGHTS)
    answer = await (await users.command("abort", ALICE, DRAUGHTS)).callback()
    embed = embed_of(answer)
    assert headline_of(embed) == f"Game #{aborted_id} (Carol v Bob) was aborted by a moderator."
    assert status_of(embed) == "Aborted: no result"
    assert footer_parts(embed) == (aborted_id, ENGLISH, "aborted, unrated")

    # /stats: yours by default, anyone's with `user`; private.
    stats = await private_embed(users, "stats", ALICE, OFFTOPIC)
    assert stats["title"] == f"Alice: {ENGLISH}, Correspondence"
    assert field(stats, "Rating") == "**1338?** (provisional)"
    deviation = re.fullmatch(r"±(\d+)", field(stats, "Deviation"))
    assert deviation and 0 < int(deviation[1]) < 350  # one game made it less uncertain
    assert field(stats, "Rank") == "2 of 2"
    assert field(stats, "Record (W/D/L)") == "0 / 0 / 1"
    assert field(stats, "Streak") == "1 loss"
    (recent,) = field(stats, "Recent games").split("\n")
    assert recent.startswith(
        f"**#{game_id}** · L · {mention(BOB)} v {mention(ALICE)} · {ENGLISH} · Correspondence · "
    )
    assert "· **1-0** (" in recent and "· rated (-162) · " in recent
    assert re.search(RELATIVE_TIME + "$", recent), recent

    stats = await private_embed(users, "stats", CAROL, OFFTOPIC, user=user(BOB))
    assert stats["title"] == f"Bob: {ENGLISH}, Correspondence"
    assert field(stats, "Rating") == "**1662?** (provisional)"
    assert field(stats, "Rank") == "1 of 2"
    assert field(stats, "Record (W/D/L)") == "1 / 0 / 0"
    assert field(stats, "Streak") == "1 win"
    assert f"**#{game_id}** · W · " in field(stats, "Recent games")
    assert "rated (+162)" in field(stats, "Recent games")

    # Carol played only the aborted game: unrated, an empty record.
    stats = await private_embed(users, "stats", CAROL, GENERAL)
    assert field(stats, "Rating") == "unrated: no rated games yet"
    assert field(stats, "Record (W/D/L)") == "0 / 0 / 0"
    assert [f["name"] for f in stats["fields"] if f["name"] in ("Rank", "Streak")] == []
    # Another variant has its own (empty) ladder.
    stats = await private_embed(users, "stats", BOB, GENERAL, variant="international")
    assert stats["title"] == f"Bob: {INTERNATIONAL}, Correspondence"
    assert field(stats, "Rating") == "unrated: no rated games yet"

    # /leaderboard: Bob above Alice; "You" says where the asker stands.
    ladder = await private_embed(users, "leaderboard", ALICE, GENERAL)
    assert ladder["title"] == f"Leaderboard: {ENGLISH}, Correspondence"
    assert ladder["description"].split("\n") == [
        f"**1.** {mention(BOB)} · **1662?** · 1 game",
        f"**2.** {mention(ALICE)} · **1338?** · 1 game",
    ]
    assert field(ladder, "You") == "rank 2 of 2 · **1338?**"
    ladder = await private_embed(users, "leaderboard", BOB, OFFTOPIC)
    assert field(ladder, "You") == "rank 1 of 2 · **1662?**"
    ladder = await private_embed(users, "leaderboard", CAROL, GENERAL)
    assert field(ladder, "You") == "unrated in this variant"
    ladder = await private_embed(users, "leaderboard", CAROL, GENERAL, variant="russian")
    assert ladder["title"] == "Leaderboard: Russian draughts, Correspondence"
    assert ladder["description"] == "No rated games in this variant yet."

    # /history: the server's ended games, newest first; or one player's.
    history = await private_embed(users, "history", CAROL, OFFTOPIC)
    assert history["title"] == "Recent games on this server"
    lines = history["description"].split("\n")
    assert [line.split(" · ")[0] for line in lines] == [f"**#{aborted_id}**", f"**#{game_id}**"]
    assert lines[0].startswith(f"**#{aborted_id}** · {mention(CAROL)} v {mention(BOB)} · ")
    assert " · aborted · " in lines[0] and "rated" not in lines[0]
    assert lines[1].startswith(
        f"**#{game_id}** · {mention(BOB)} v {mention(ALICE)} · {ENGLISH} · Correspondence · "
    )
    assert " · **1-0** (" in lines[1] and re.search(RELATIVE_TIME + "$", lines[1])
    assert " · rated · " in lines[1]
    history = await private_embed(users, "history", BOB, GENERAL, user=user(ALICE))
    assert history["title"] == "Recent games of Alice"
    assert [line.split(" · ")[0] for line in history["description"].split("\n")] == [
        f"**#{game_id}**"
    ]

    # /pdn of the finished game by id, from another channel.
    tags, record = await pdn_game(users, CAROL, OFFTOPIC, game=game_id)
    assert plies(record) == plies(local)
    assert record.position == local.position
    assert record.result() == "1-0" and tags["Result"] == "1-0"
    assert tags["White"] == "Bob" and tags["Black"] == "Alice"

    # /replay by id from another channel, by a spectator: deferred for Carol alone, then the
    # GIF (one frame a ply), only for her.
    sent = await users.command("replay", CAROL, OFFTOPIC, game=game_id)
    assert is_ephemeral(await sent.callback())
    replay = await deferred_answer(sent)
    assert content_of(replay) == (
        f"Replay of game #{game_id} (Bob v Alice).\nOnly you see this replay: replays of games "
        "you do not play in are private, to keep the channel quiet."
    )
    assert gif_frames(replay, f"game-{game_id}.gif") == len(plies(local)) + 1
    # Without an id, by a player: the channel's last game (game 1 in #general), for everyone.
    sent = await users.command("replay", BOB, GENERAL)
    assert not is_ephemeral(await sent.callback())
    replay = await deferred_answer(sent)
    assert content_of(replay) == f"Replay of game #{game_id} (Bob v Alice)."
    # An unknown id: a private refusal, nothing posted.
    assert await refused(users, "replay", CAROL, OFFTOPIC, game=game_id + 40) == (
        f"There is no game #{game_id + 40} on this server."
    )
    assert channel_posts(fake, OFFTOPIC) == []


# -- takebacks -----------------------------------------------------------------------------------


async def test_takebacks_between_people_and_against_the_computer(
    launch: Launch, fake: FakeDiscord
) -> None:
    _, users = await launch()
    game_id, _ = await human_game(users, ALICE, BOB, GENERAL)  # Alice White, Bob Black
    local = english()
    for player, text in ((BOB, "11-15"), (ALICE, "24-20")):
        await move(users, player, GENERAL, text)
        local.play(text)

    # Alice asks to take back 24-20 (Bob's turn: one ply); the request is public, for Bob.
    asked = await users.command("takeback", ALICE, GENERAL)
    request = await asked.callback()
    assert request.json["type"] == MESSAGE and not is_ephemeral(request)
    assert content_of(request) == (
        f"{mention(BOB)} Alice asks to take back their last move. Bob, accept or decline?"
    )
    # The buttons name the game and the ply of the request (2), tying them to this request.
    first = f"{game_id}:2"
    assert custom_ids(request) == [f"takeback:accept:{first}", f"takeback:decline:{first}"]
    offer = copy.deepcopy(asked.message())
    board = await (await users.command("board", CAROL, GENERAL)).callback()
    assert status_of(embed_of(board)) == "Takeback asked by Alice"

    # Only Bob may answer: Carol is not playing, Alice cannot grant her own request.
    for action in ("accept", "decline"):
        outsider = await users.press(f"takeback:{action}:{first}", offer, CAROL)
        assert await refusal(outsider) == "You are not playing in this game (Alice v Bob)."
    own = await users.press(f"takeback:accept:{first}", offer, ALICE)
    assert await refusal(own) == "There is no takeback request for you to answer."
    assert await refused(users, "takeback", ALICE, GENERAL) == (
        "Alice's takeback request is waiting for an answer."
    )
    assert custom_ids(fake.messages[offer["id"]]) == custom_ids(request)

    # Bob declines: the request message says so and loses its buttons.
    declined = await users.press(f"takeback:decline:{first}", offer, BOB)
    update = await declined.callback()
    assert update.json["type"] == UPDATE, update.json
    assert content_of(update) == "Bob declined Alice's takeback request."
    assert custom_ids(update) == []
    stale = await users.press(f"takeback:accept:{first}", offer, BOB)
    assert await refusal(stale) == "There is no takeback request for you to answer."
    # Not again in the same position.
    assert await refused(users, "takeback", ALICE, GENERAL) == (
        "A takeback was already declined in this position; play on, or ask after the next move."
    )
    board = await (await users.command("board", CAROL, GENERAL)).callback()
    assert status_of(embed_of(board)) is None  # nothing pending any more
    assert "Takeback" not in embed_of(board)["description"]

    # After Bob's next move Alice may not ask again yet: one request every five moves.
    await move(users, BOB, GENERAL, "8-11")
    local.play("8-11")
    assert await refused(users, "takeback", ALICE, GENERAL) == (
        "You asked for a takeback recently; you can ask again from move 7."
    )
    # Alice plays; Bob asks (his move and her reply); Alice allows it.
    await move(users, ALICE, GENERAL, "28-24")
    local.play("28-24")
    asked = await users.command("takeback", BOB, GENERAL)
    request = await asked.callback()
    assert content_of(request) == (
        f"{mention(ALICE)} Bob asks to take back their last move and the reply. "
        "Alice, accept or decline?"
    )
    assert custom_ids(request) == [f"takeback:accept:{game_id}:4", f"takeback:decline:{game_id}:4"]
    # The first request's old Accept (a client still showing it) cannot grant this one.
    old = await users.press(f"takeback:accept:{first}", offer, BOB)
    assert await refusal(old) == "There is no takeback request for you to answer."
    allowed = await users.press(f"takeback:accept:{game_id}:4", asked.message(), ALICE)
    update = await allowed.callback()
    assert update.json["type"] == UPDATE, update.json
    assert content_of(update) == ("Alice accepted: Bob took back their last move and the reply.")
    assert custom_ids(update) == []
    local.take_back(2)
    board = await allowed.followup(0)
    embed = embed_of(board)
    assert board_ply(board, game_id) == local.ply == 2
    assert moves_of(embed) == "1. 11-15 24-20" and last_move_of(embed) == "24-20"
    assert to_move_in(board) == BOB
    assert content_of(board) == f"{mention(BOB)} to move, due <t:{due_in(board)}:R>."
    _, record = await pdn_game(users, CAROL, OFFTOPIC, game=game_id)
    assert plies(record) == plies(local) == ["11-15", "24-20"]
    assert record.position == local.position
    assert record.position.fen() == local.position.fen()

    # The game goes on from there with another move.
    board = await move(users, BOB, GENERAL, "8-11")
    local.play("8-11")
    assert board_ply(board, game_id) == 3
    _, record = await pdn_game(users, BOB, GENERAL)
    assert plies(record) == ["11-15", "24-20", "8-11"]
    assert "28-24" not in plies(record)
    # /replay of a running game shows it so far.
    replay = await deferred_answer(await users.command("replay", ALICE, GENERAL))
    assert content_of(replay) == f"Replay of game #{game_id} (Alice v Bob) so far."
    assert gif_frames(replay, f"game-{game_id}.gif") == 4

    # Against the computer a takeback is immediate: Carol's move and the reply go back.
    me = str(fake.bot_user["id"])
    sent = await users.command(
        "challenge", CAROL, OFFTOPIC, opponent=user(me), variant="english", color="black", level=1
    )
    start = await sent.callback()
    computer_game = game_id_of(embed_of(start))
    assert board_ply(start, computer_game) == 0
    assert await refused(users, "takeback", CAROL, OFFTOPIC) == (
        "You have no move of your own to take back yet."
    )
    answer = await (await users.command("move", CAROL, OFFTOPIC, move="11-15")).callback()
    assert headline_of(embed_of(answer)) == "Carol played 11-15."
    assert board_ply(answer, computer_game) == 1
    posted = await post_number(users, OFFTOPIC, 0)  # the computer's reply
    reply = re.fullmatch(r"DraughtsBot played (\S+)\.", headline_of(embed_of(posted)) or "")
    assert reply, embed_of(posted)["description"]
    assert board_ply(posted, computer_game) == 2
    taken = await (await users.command("takeback", CAROL, OFFTOPIC)).callback()
    assert taken.json["type"] == MESSAGE and not is_ephemeral(taken), taken.json
    # Granted at once: no request buttons, only the board's own (Carol has no move left,
    # so the game may be aborted again).
    assert custom_ids(taken) == board_buttons(
        computer_game, running=True, abortable=True, ply=0, hint=True
    )
    embed = embed_of(taken)
    assert headline_of(embed) == "Carol took back their last move and the reply."
    assert board_ply(taken, computer_game) == 0
    assert moves_of(embed) is None  # no move left
    assert to_move_in(taken) == CAROL
    _, record = await pdn_game(users, CAROL, OFFTOPIC)
    assert plies(record) == []
    assert record.position == english().position
    # Bob's game in #general was not touched by any of it.
    _, record = await pdn_game(users, BOB, GENERAL)
    assert plies(record) == ["11-15", "24-20", "8-11"]


# -- ballots and matches -------------------------------------------------------------------------


async def test_ballot_openings_and_a_two_game_match(launch: Launch, fake: FakeDiscord) -> None:
    _, users = await launch()

    # A ballot exists only for English draughts.
    text = await refused(
        users,
        "challenge",
        ALICE,
        GENERAL,
        opponent=user(BOB),
        variant="international",
        opening="ballot",
    )
    assert "English" in text and text.startswith("Ballot openings exist for English draughts")

    # An English ballot: the challenge names the opening; the game starts after it, at move 2
    # with White to move.
    challenge_id, answer, message = await open_challenge(
        users, ALICE, BOB, GENERAL, variant="english", color="white", opening="ballot"
    )
    label = field(embed_of(answer), "Opening")
    assert label.startswith("ACF #")
    ballot = ballot_of_label(label)
    board = await accept(users, challenge_id, message, BOB)
    embed = embed_of(board)
    game_id = game_id_of(embed)
    assert board_ply(board, game_id) == 3
    assert moves_of(embed) == f"1. {ballot[0]} {ballot[1]} 2. {ballot[2]}"  # move 2
    assert to_move_in(board) == ALICE  # White
    assert board_text(embed).opening == label
    assert last_move_of(embed) == ballot[2]
    assert footer_parts(embed) == (game_id, ENGLISH, "rated")
    assert f"from the ballot {label}" in (headline_of(embed) or "")
    # The balloted moves are nobody's to take back.
    for player in (ALICE, BOB):
        assert await refused(users, "takeback", player, GENERAL) == (
            "You have no move of your own to take back yet."
        )
    _, record = await pdn_game(users, CAROL, GENERAL)
    assert tuple(plies(record)) == ballot
    # The ballot's moves are nobody's: Alice may still abort (unrated).
    aborted = await (await users.command("abort", ALICE, GENERAL)).callback()
    assert headline_of(embed_of(aborted)) == (
        f"Game #{game_id} (Alice v Bob) was aborted by Alice before both players had moved: "
        "no result."
    )
    assert status_of(embed_of(aborted)) == "Aborted: no result"

    # A two-game match (with a ballot): Alice White in game 1, Bob White in game 2.
    challenge_id, answer, message = await open_challenge(
        users, ALICE, BOB, GENERAL, variant="english", color="white", opening="ballot", match=True
    )
    embed = embed_of(answer)
    assert embed["description"] == (
        f"{mention(ALICE)} challenges {mention(BOB)} to a two-game match of {ENGLISH}."
    )
    assert field(embed, "Match") == "two games, same opening, colours swapped"
    label = field(embed, "Opening")
    ballot = ballot_of_label(label)
    board = await accept(users, challenge_id, message, BOB)
    embed = embed_of(board)
    first = game_id_of(embed)
    assert footer_parts(embed) == (first, ENGLISH, "rated, match game 1 of 2")
    assert seats_of(embed) == ("Alice", "Bob")
    assert board_text(embed).opening == label
    assert board_ply(board, first) == 3

    # A move each (the ballot's are nobody's; a game has a result only once both have moved),
    # then Alice resigns game 1: no Rematch under it; game 2 follows in the same channel.
    for player in (ALICE, BOB):
        choices = await users.autocomplete("move", player, GENERAL, "move", move="")
        await move(users, player, GENERAL, choices[0]["value"])
    pressed = await resign(users, ALICE, GENERAL, first)
    end = await pressed.followup(0)
    embed = embed_of(end)
    assert game_id_of(embed) == first
    assert headline_of(embed) == (
        "Alice resigned. Ratings: Alice 1338? (-162), Bob 1662? (+162). "
        "Match game 2 follows, colours swapped."
    )
    assert status_of(embed) == "**0-1**: Bob wins (White resigned)"
    assert custom_ids(end) == [f"board:moves:{first}", f"analyse:{first}"]  # no Rematch mid-match
    replay = await pressed.followup(1)
    assert gif_frames(replay, f"game-{first}.gif") == 6
    second_board = await pressed.followup(2)
    assert not is_ephemeral(second_board)
    embed = embed_of(second_board)
    second = game_id_of(embed)
    assert second == first + 1
    # Colours swapped, and the ratings game 1 left.
    assert players_line(embed) == players_text(seat("Bob", "1662?"), seat("Alice", "1338?"))
    assert footer_parts(embed) == (second, ENGLISH, "rated, match game 2 of 2")
    assert board_text(embed).opening == label  # the same ballot
    assert to_move_in(second_board) == BOB
    assert board_ply(second_board, second) == 3
    assert content_of(second_board) == f"{mention(BOB)} to move, due <t:{due_in(second_board)}:R>."
    assert headline_of(embed) == f"Match game 2 of 2, from the ballot {label}."
    _, record = await pdn_game(users, CAROL, OFFTOPIC, game=second)
    assert tuple(plies(record)) == ballot

    # Game 2 is drawn by agreement: the match goes to Bob, 1½–½ (game 1's White first).
    bobs = record.legal_moves()[0].pdn()
    await move(users, BOB, GENERAL, bobs)
    choices = await users.autocomplete("move", ALICE, GENERAL, "move", move="")
    await move(users, ALICE, GENERAL, choices[0]["value"])  # a draw once both have moved
    offered = await users.command("draw", ALICE, GENERAL, action="offer")
    assert custom_ids(await offered.callback()) == [
        f"draw:accept:{second}",
        f"draw:decline:{second}",
    ]
    agreed = await users.press(f"draw:accept:{second}", offered.message(), BOB)
    update = await agreed.callback()
    assert update.json["type"] == UPDATE, update.json
    text = content_of(update)
    assert re.fullmatch(
        r"Bob accepted the draw\. Ratings: Bob \d+\? \([+-]\d+\), "
        r"Alice \d+\? \([+-]\d+\)\. Match won by Bob: Alice ½–1½ Bob\.",
        text,
    ), text
    end = await agreed.followup(0)
    embed = embed_of(end)
    assert game_id_of(embed) == second
    assert footer_parts(embed) == (second, ENGLISH, "rated, match game 2 of 2")
    assert status_of(embed) == "**1/2-1/2**: draw (draw by agreement)"
    assert headline_of(embed) == text
    assert custom_ids(end) == [f"board:moves:{second}", f"rematch:{second}", f"analyse:{second}"]
    assert gif_frames(await agreed.followup(1), f"game-{second}.gif") == 6

    # The history lists the match games as such.
    history = await private_embed(users, "history", CAROL, OFFTOPIC)
    lines = history["description"].split("\n")
    assert lines[0].startswith(f"**#{second}** ") and "match game 2" in lines[0]
    assert lines[1].startswith(f"**#{first}** ") and "match game 1" in lines[1]
    stats = await private_embed(users, "stats", BOB, OFFTOPIC)
    assert field(stats, "Record (W/D/L)") == "1 / 1 / 0"
    assert field(stats, "Streak") == "1 draw"


# -- server settings -----------------------------------------------------------------------------


async def test_server_settings(launch: Launch, fake: FakeDiscord) -> None:
    _, users = await launch()
    (sync,) = fake.find_requests("PUT", r"/applications/\d+/guilds/\d+/commands")
    (command,) = [c for c in sync.json if c["name"] == "settings"]
    assert int(command["default_member_permissions"]) == MANAGE_GUILD
    channel_option = next(o for o in command["options"] if o["name"] == "allow_channel")
    assert channel_option["type"] == 7

    # Anyone may look; the defaults.
    shown = await private_embed(users, "settings", BOB, GENERAL)
    assert shown["title"] == "Server settings"
    assert field(shown, "Default variant") == ENGLISH
    assert field(shown, "Default time per move") == "1 day"
    assert field(shown, "Threads") == "when the challenger asks (or the channel is busy)"
    assert field(shown, "Game channels") == "every channel"

    # Only moderators change them.
    forbidden = "Only moderators (Manage Server) can change the settings."
    assert await refused(users, "settings", BOB, GENERAL, variant="international") == forbidden
    assert await refused(users, "settings", BOB, GENERAL, all_channels=True) == forbidden
    assert await refused(users, "settings", BOB, GENERAL, allow_channel=channel(DRAUGHTS)) == (
        forbidden
    )
    changed = await private_embed(
        users, "settings", ALICE, GENERAL, variant="international", move_time=3600
    )
    assert changed["title"] == "Server settings updated"
    assert field(changed, "Default variant") == INTERNATIONAL
    assert field(changed, "Default time per move") == "1 hour"
    assert field(changed, "Game channels") == "every channel"

    # A challenge without variant or time takes the server's.
    challenge_id, answer, message = await open_challenge(users, BOB, CAROL, GENERAL)
    embed = embed_of(answer)
    assert embed["title"] == f"Challenge: {INTERNATIONAL}"
    assert field(embed, "Time per move") == "1 hour"
    await cancel(users, challenge_id, message, BOB)
    # So do /stats and /leaderboard.
    assert (await private_embed(users, "stats", BOB, GENERAL))[
        "title"
    ] == f"Bob: {INTERNATIONAL}, Correspondence"
    ladder = await private_embed(users, "leaderboard", BOB, GENERAL)
    assert ladder["title"] == f"Leaderboard: {INTERNATIONAL}, Correspondence"

    # Game channels: only #draughts.
    changed = await private_embed(
        users, "settings", ALICE, GENERAL, allow_channel=channel(DRAUGHTS)
    )
    assert field(changed, "Game channels") == f"<#{DRAUGHTS}>"
    assert await refused(users, "challenge", BOB, GENERAL, opponent=user(CAROL)) == (
        f"Games on this server are played in <#{DRAUGHTS}>."
    )
    challenge_id, _, message = await open_challenge(users, BOB, CAROL, DRAUGHTS)
    await cancel(users, challenge_id, message, BOB)
    changed = await private_embed(
        users, "settings", ALICE, GENERAL, allow_channel=channel(OFFTOPIC)
    )
    assert set(field(changed, "Game channels").split(", ")) == {f"<#{DRAUGHTS}>", f"<#{OFFTOPIC}>"}
    changed = await private_embed(
        users, "settings", ALICE, GENERAL, disallow_channel=channel(DRAUGHTS)
    )
    assert field(changed, "Game channels") == f"<#{OFFTOPIC}>"
    assert await refused(users, "challenge", BOB, DRAUGHTS, opponent=user(CAROL)) == (
        f"Games on this server are played in <#{OFFTOPIC}>."
    )
    changed = await private_embed(users, "settings", ALICE, OFFTOPIC, all_channels=True)
    assert field(changed, "Game channels") == "every channel"
    assert field(changed, "Default variant") == INTERNATIONAL  # the rest is kept

    # Threads never: a thread is refused, and so is a second game in a busy channel.
    changed = await private_embed(users, "settings", ALICE, GENERAL, threads="never")
    assert field(changed, "Threads") == "never; games are played in the channel"
    assert (
        await refused(users, "challenge", BOB, GENERAL, opponent=user(CAROL), thread=True)
        == "This server plays games in the channel itself, without threads."
    )
    game_id, _ = await human_game(users, BOB, CAROL, GENERAL, variant="english")
    assert fake.threads == {}
    assert await refused(users, "challenge", ALICE, GENERAL, opponent=user(CAROL)) == (
        "A game is already running here, and this server plays without threads: wait for it to end."
    )

    # Threads always: accepting a challenge between people opens a thread on the challenge.
    changed = await private_embed(users, "settings", ALICE, GENERAL, threads="always")
    assert field(changed, "Threads") == "every game gets its own thread"
    challenge_id, answer, message = await open_challenge(users, CAROL, ALICE, DRAUGHTS)
    assert field(embed_of(answer), "Where") == "in a new thread"
    accepted = await users.press(f"challenge:accept:{challenge_id}", message, ALICE)
    assert (await accepted.callback()).json["type"] == DEFERRED_UPDATE
    created = await users.bot.alive(
        fake.wait_for_request(
            "POST", rf"/channels/{DRAUGHTS}/messages/{message['id']}/threads", timeout=STEP_TIMEOUT
        )
    )
    assert created.json["name"] == "Carol v Alice"
    thread = str(message["id"])
    edit = await accepted.original_edit()
    assert field(embed_of(edit), "Status").endswith(f"in <#{thread}>")
    posts = await users.bot.alive(
        fake.wait_until(lambda: channel_posts(fake, thread), timeout=STEP_TIMEOUT)
    )
    embed = embed_of(posts[0])
    assert footer_parts(embed)[1] == INTERNATIONAL
    assert game_id_of(embed) == game_id + 1
    assert channel_posts(fake, DRAUGHTS) == []

    shown = await private_embed(users, "settings", CAROL, OFFTOPIC)
    assert shown["title"] == "Server settings"
    assert [field(shown, n) for n in ("Default variant", "Default time per move")] == [
        INTERNATIONAL,
        "1 hour",
    ]
    assert field(shown, "Threads") == "every game gets its own thread"


async def test_a_stop_right_after_a_game_ends_still_posts_its_replay(launch: Launch) -> None:
    """SIGTERM while the end of a game is still being posted: the bot waits for the
    interaction (its replay GIF) before closing the connection, so nothing is cut off and no
    traceback is logged."""
    bot, users = await launch()
    game_id, _ = await human_game(users, BOB, ALICE, GENERAL)
    local = english()
    for player, text in ((ALICE, "11-15"), (BOB, "23-19")):
        await move(users, player, GENERAL, text)
        local.play(text)
    pressed = await resign(users, ALICE, GENERAL, game_id)
    await pressed.followup(0)  # the end board; the replay is still being drawn or sent
    assert await bot.stop() == 0, bot.log()
    log = bot.log()
    assert "Traceback" not in log and "Session is closed" not in log, log
    assert gif_frames(await pressed.followup(1), f"game-{game_id}.gif") == len(plies(local)) + 1
