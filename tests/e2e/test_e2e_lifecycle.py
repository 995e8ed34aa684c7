"""End to end, the bot's life: games against the computer, a crash (SIGKILL) and restart with the
old buttons still working, reminders and a loss on time, challenge expiry, a clean SIGTERM,
global command sync, a missing thread permission, and the token read from ``.env``.

Each test runs the real bot process (``python -m bot``'s ``main``) against the fake Discord of
``tests/support/fake_discord.py`` through ``tests/support/e2e_harness.py``; the moves the bot
reports are replayed with :mod:`rules` to check they are legal and that the bot's record (``/pdn``)
agrees.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import re
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from support.discord_launcher import GUARD_MARKER
from support.e2e_harness import (
    ALICE,
    BOB,
    CAROL,
    DRAUGHTS,
    GENERAL,
    OFFTOPIC,
    STEP_TIMEOUT,
    BotProcess,
    Launch,
    Users,
    channel_posts,
    content_of,
    custom_ids,
    db_rows,
    due_in,
    embed_of,
    field,
    first_answer,
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
    post_number,
    seat,
    seats_of,
    status_of,
    to_move_in,
    user,
)
from support.fake_discord import ALL_PERMISSIONS, FakeDiscord, RecordedRequest

from rules import Game, find_variant, read_game

pytestmark = pytest.mark.e2e

CREATE_PUBLIC_THREADS = 1 << 35
SCHEDULED_TIMEOUT = 20.0
"""Upper bound for scheduler posts (reminders, timeouts, expiry) that are due within seconds."""


# -- helpers -----------------------------------------------------------------------------------


def computer(fake: FakeDiscord) -> str:
    return str(fake.bot_user["id"])


def english() -> Game:
    return Game(find_variant("english"))


async def open_challenge(
    users: Users, challenger: str, opponent: str, channel: str, **options: Any
) -> tuple[int, dict[str, Any]]:
    """``/challenge`` between two people: the challenge id and the challenge message."""
    options.setdefault("variant", "english")
    sent = await users.command("challenge", challenger, channel, opponent=user(opponent), **options)
    answer = await sent.callback()
    assert answer.json["type"] == 4 and not is_ephemeral(answer), answer.json
    ids = custom_ids(answer)
    accept = [i for i in ids if i.startswith("challenge:accept:")]
    assert len(accept) == 1, ids
    challenge_id = int(accept[0].rsplit(":", 1)[1])
    assert set(ids) == {f"challenge:{a}:{challenge_id}" for a in ("accept", "decline", "cancel")}
    return challenge_id, sent.message()


async def accept(
    users: Users, challenge_id: int, message: dict[str, Any], opponent: str
) -> RecordedRequest:
    """Press Accept: the challenge message is updated, and the board is posted (a follow-up)."""
    press = await users.press(f"challenge:accept:{challenge_id}", message, opponent)
    update = await press.callback()
    assert update.json["type"] == 7, update.json
    assert field(embed_of(update), "Status").startswith("Accepted: game #")
    assert custom_ids(update) == []
    return await press.followup()


async def human_game(
    users: Users, challenger: str, opponent: str, channel: str, **options: Any
) -> tuple[int, RecordedRequest]:
    """A challenge accepted at once: the game id and its first board message."""
    challenge_id, message = await open_challenge(users, challenger, opponent, channel, **options)
    board = await accept(users, challenge_id, message, opponent)
    return game_id_of(embed_of(board)), board


async def human_move(users: Users, player: str, channel: str, move: str) -> RecordedRequest:
    """``/move`` in a game between people: answered publicly with the board."""
    sent = await users.command("move", player, channel, move=move)
    answer = await sent.callback()
    assert answer.json["type"] == 4 and not is_ephemeral(answer), answer.json
    headline = headline_of(embed_of(answer))
    assert headline is not None and headline.split(" played ")[1].startswith(move + ".")
    assert last_move_of(embed_of(answer)) == move
    png_of(answer)
    return answer


async def pdn_record(users: Users, player: str, channel: str, **options: Any) -> tuple[str, Game]:
    """``/pdn``: the file's name and the game it holds, read (and so checked) by the rules."""
    sent = await users.command("pdn", player, channel, **options)
    answer = await sent.callback()
    assert is_ephemeral(answer), answer.json
    (name,) = answer.files
    return name, read_game(answer.files[name]).game


def plies(game: Game) -> list[str]:
    return [m.pdn() for m in game.moves]


# -- games against the computer ----------------------------------------------------------------


async def test_computer_opens_when_it_has_the_first_move(launch: Launch, fake: FakeDiscord) -> None:
    """English: Black moves first, so a challenger playing White sees the game start at once,
    the computer to move, and the computer's opening as the next post in the channel."""
    _, users = await launch()
    sent = await users.command(
        "challenge",
        ALICE,
        GENERAL,
        opponent=user(computer(fake)),
        variant="english",
        color="white",
        level=4,
    )
    start = await sent.callback()
    assert start.json["type"] == 4  # at once: nobody waits for the computer's search
    embed = embed_of(start)
    assert players_line(embed) == players_text(seat("Alice"), seat("DraughtsBot", level=4))
    assert footer_parts(embed) == (
        game_id_of(embed),
        "English draughts / American checkers",
        "casual",
    )
    assert headline_of(embed) == "New game."
    assert moves_of(embed) is None
    # The computer is to move: named, without a deadline, and never pinged.
    assert to_move_in(start) == computer(fake) and due_in(start) is None
    assert content_of(start) == f"<@{computer(fake)}> to move."
    assert pinged(start) == [ALICE]
    png_of(start)
    board = await post_number(users, GENERAL, 0)
    embed = embed_of(board)
    match = re.fullmatch(r"DraughtsBot played (\S+)\.", headline_of(embed) or "")
    assert match, embed["description"]
    local = english()
    local.play(match[1])  # a legal opening move
    assert moves_of(embed) == f"1. {match[1]}"
    assert to_move_in(board) == ALICE
    assert content_of(board) == f"<@{ALICE}> to move, due <t:{due_in(board)}:R>."
    assert pinged(board) == [ALICE]
    png_of(board)
    assert len(channel_posts(fake, GENERAL)) == 1  # shown once
    _, record = await pdn_record(users, ALICE, GENERAL)
    assert plies(record) == plies(local)


async def test_game_against_the_computer(launch: Launch, fake: FakeDiscord) -> None:
    bot, users = await launch()
    me = computer(fake)
    sent = await users.command(
        "challenge", ALICE, GENERAL, opponent=user(me), variant="english", color="black", level=2
    )
    start = await sent.callback()
    assert start.json["type"] == 4
    embed = embed_of(start)
    game_id = game_id_of(embed)
    assert players_line(embed) == players_text(seat("DraughtsBot", level=2), seat("Alice"))
    assert moves_of(embed) is None  # no move yet
    assert to_move_in(start) == ALICE
    image = png_of(start)
    assert image.width >= 200 and image.height >= 200
    assert embed["image"]["url"] == f"attachment://{next(iter(start.files))}"
    assert content_of(start) == f"<@{ALICE}> to move, due <t:{due_in(start)}:R>."
    assert pinged(start) == [ALICE]

    local = english()
    for turn in range(3):
        choices = await users.autocomplete("move", ALICE, GENERAL, "move", move="")
        assert {c["value"] for c in choices} == {m.pdn() for m in local.legal_moves()}
        mine = local.legal_moves()[turn % len(local.legal_moves())].pdn()
        sent = await users.command("move", ALICE, GENERAL, move=mine)
        answer = await sent.callback()
        assert answer.json["type"] == 4  # answered at once; the computer thinks afterwards
        assert headline_of(embed_of(answer)) == f"Alice played {mine}."
        # Nobody to ping: the computer moves next.
        assert content_of(answer) == f"<@{me}> to move." and pinged(answer) == []
        png_of(answer)
        local.play(mine)
        reply = await post_number(users, GENERAL, turn)
        embed = embed_of(reply)
        match = re.fullmatch(r"DraughtsBot played (\S+)\.", headline_of(embed) or "")
        assert match, embed["description"]
        local.play(match[1])  # the computer's reply is legal in the position it was made
        assert moves_of(embed) == numbered(plies(local))  # so the move number too
        assert last_move_of(embed) == match[1]
        assert game_id_of(embed) == game_id
        assert to_move_in(reply) == ALICE and pinged(reply) == [ALICE]
        png_of(reply)

    name, record = await pdn_record(users, ALICE, GENERAL)
    assert name == f"draughts-game-{game_id}.pdn"
    assert plies(record) == plies(local) and len(plies(local)) == 6
    assert record.position == local.position

    # A second game against the computer in the same (busy) channel opens a thread.
    sent = await users.command(
        "challenge", BOB, GENERAL, opponent=user(me), variant="english", color="black"
    )
    assert (await sent.callback()).json["type"] == 5
    opened = await bot.alive(fake.wait_for_request("POST", rf"/channels/{GENERAL}/threads"))
    assert opened.json["name"] == "Bob v DraughtsBot"
    (thread_id,) = [t for t, th in fake.threads.items() if th["parent_id"] == GENERAL]
    answer = await first_answer(sent)
    second = game_id + 1
    assert content_of(answer) == f"Game #{second} against me started in <#{thread_id}>."
    assert not answer.files
    (board,) = channel_posts(fake, thread_id)
    embed = embed_of(board)
    assert game_id_of(embed) == second
    assert players_line(embed) == players_text(seat("DraughtsBot", level=3), seat("Bob"))
    assert to_move_in(board) == BOB
    png_of(board)
    # The first game is untouched and still the channel's game.
    _, again = await pdn_record(users, ALICE, GENERAL)
    assert plies(again) == plies(local)


# -- crash and restart -------------------------------------------------------------------------


async def test_buttons_and_games_survive_a_kill_and_restart(
    launch: Launch, fake: FakeDiscord
) -> None:
    bot, users = await launch()
    # Game 1 in #general: Alice (White) v Bob (Black, moves first); a move each (a draw is
    # offered once both have moved), then Alice offers a draw.
    first, _ = await human_game(users, ALICE, BOB, GENERAL, color="white")
    local = english()
    opening = local.legal_moves()[2].pdn()
    await human_move(users, BOB, GENERAL, opening)
    local.play(opening)
    answer = local.legal_moves()[0].pdn()
    await human_move(users, ALICE, GENERAL, answer)
    local.play(answer)
    draw = await users.command("draw", ALICE, GENERAL, action="offer")
    offer = await draw.callback()
    assert content_of(offer) == f"<@{BOB}> Alice offers a draw. Bob, accept or decline?"
    assert custom_ids(offer) == [f"draw:accept:{first}", f"draw:decline:{first}"]
    decline_here = draw.message()
    # Game 2 in #off-topic: Carol v Bob, Carol offers a draw.
    second, _ = await human_game(users, CAROL, BOB, OFFTOPIC, color="black")
    other = english()
    for player in (CAROL, BOB):
        played = other.legal_moves()[0].pdn()
        await human_move(users, player, OFFTOPIC, played)
        other.play(played)
    draw = await users.command("draw", CAROL, OFFTOPIC, action="offer")
    assert custom_ids(await draw.callback()) == [f"draw:accept:{second}", f"draw:decline:{second}"]
    accept_here = draw.message()
    # An open challenge in #draughts: Carol challenges Alice.
    challenge_id, challenge_message = await open_challenge(users, CAROL, ALICE, DRAUGHTS)

    bot.kill()
    await bot.start()
    assert bot.log().count("ready to serve") == 2

    # The old Decline button of game 1.
    press = await users.press(f"draw:decline:{first}", decline_here, BOB)
    update = await press.callback()
    assert update.json["type"] == 7
    assert content_of(update).startswith("Bob declined the draw.")
    assert custom_ids(update) == []
    # Game 1 goes on at the right move.
    reply = local.legal_moves()[0].pdn()
    answered = await human_move(users, BOB, GENERAL, reply)
    local.play(reply)
    embed = embed_of(answered)
    assert headline_of(embed) == f"Bob played {reply}."
    assert local.move_number == 2
    assert moves_of(embed) == f"1. {opening} {answer} 2. {reply}" == numbered(plies(local))
    assert to_move_in(answered) == ALICE
    assert game_id_of(embed) == first
    _, record = await pdn_record(users, BOB, GENERAL)
    assert plies(record) == plies(local)

    # The old Accept button of game 2 ends it in a draw.
    press = await users.press(f"draw:accept:{second}", accept_here, BOB)
    update = await press.callback()
    assert update.json["type"] == 7
    assert content_of(update) == (
        "Bob accepted the draw. Ratings: Bob 1500? (+0), Carol 1500? (+0)."
    )
    assert custom_ids(update) == []
    final = await press.followup(0)
    embed = embed_of(final)
    assert game_id_of(embed) == second
    assert status_of(embed) == "**1/2-1/2**: draw (draw by agreement)"
    assert custom_ids(final) == [f"board:moves:{second}", f"rematch:{second}", f"analyse:{second}"]
    assert read_game(final.files[f"draughts-game-{second}.pdn"]).game.result() == "1/2-1/2"
    replay = await press.followup(1)
    assert replay.files[f"game-{second}.gif"].startswith(b"GIF8")

    # The old challenge's Accept button starts game 3 in #draughts.
    board = await accept(users, challenge_id, challenge_message, ALICE)
    embed = embed_of(board)
    assert game_id_of(embed) == second + 1
    assert set(seats_of(embed)) == {"Alice", "Carol"}
    assert to_move_in(board) in (ALICE, CAROL)


# -- time ---------------------------------------------------------------------------------------


REMINDER = (
    r"<@(?P<id>\d+)>, it is your move in game #(?P<game>\d+): half of your time has passed; "
    r"the game is lost on time <t:(?P<due>\d+):R>\."
)
"""The half-time reminder posted in the channel (no last warning with a move time under
two minutes: the reminder is the warning then)."""


def scheduler_posts(fake: FakeDiscord, channel: str, game_id: int) -> dict[str, Any]:
    """What the scheduler posted about ``game_id`` in ``channel`` (moves answered by ``/move``
    are interaction answers, not posts): ``reminders``, the ``final`` board (or None), the
    ``replay`` (or None), each as ``(index among the channel's posts, request)``."""
    found: dict[str, Any] = {"reminders": [], "final": None, "replay": None}
    for i, post in enumerate(channel_posts(fake, channel)):
        if re.fullmatch(REMINDER, content_of(post)):
            found["reminders"].append((i, post))
        elif f"game-{game_id}.gif" in post.files:
            found["replay"] = (i, post)
        elif any(
            footer_of(e).startswith(f"Game #{game_id} · ") for e in post.json.get("embeds") or []
        ):
            found["final"] = (i, post)
    return found


async def test_reminder_then_loss_on_time(launch: Launch, fake: FakeDiscord) -> None:
    """Both players have moved, then Alice lets her time run out: a reminder at half time, and
    the game is lost on time (rated, with a replay)."""
    # 5 minutes per move, scaled by 0.02: 6 seconds, a reminder after 3.
    bot, users = await launch(MOVE_TIME_SCALE="0.02", SCHEDULER_INTERVAL_SECONDS="0.2")
    challenge_id, message = await open_challenge(
        users, ALICE, BOB, GENERAL, color="black", move_time=300
    )
    assert field(message["embeds"][0], "Time per move") == "6 seconds"
    game_id = game_id_of(embed_of(await accept(users, challenge_id, message, BOB)))
    # Each side makes a move (well within its time), so the game can no longer be aborted.
    await human_move(users, ALICE, GENERAL, "11-15")
    last = await human_move(users, BOB, GENERAL, "23-19")
    assert to_move_in(last) == ALICE
    deadline = due_in(last)
    assert deadline is not None

    await bot.alive(
        fake.wait_until(
            lambda: scheduler_posts(fake, GENERAL, game_id)["replay"], timeout=SCHEDULED_TIMEOUT
        )
    )
    posts = scheduler_posts(fake, GENERAL, game_id)
    ((r, reminder),) = posts["reminders"]
    f, final = posts["final"]
    g, replay = posts["replay"]
    assert r < f < g
    matched = re.fullmatch(REMINDER, content_of(reminder))
    assert matched and matched["id"] == ALICE and int(matched["game"]) == game_id
    assert abs(int(matched["due"]) - deadline) <= 1  # the deadline the board showed
    assert reminder.json["allowed_mentions"]["users"] == [int(ALICE)]

    embed = final.json["embeds"][0]
    assert headline_of(embed) is not None
    assert (headline_of(embed) or "").startswith("Alice ran out of time. Ratings: ")
    result = status_of(embed) or ""
    assert result.startswith("**1-0**: Bob wins (") and "time" in result, result
    assert footer_parts(embed)[2] == "rated"
    assert to_move_in(final) is None
    assert content_of(final) == f"<@{BOB}> <@{ALICE}>"
    assert custom_ids(final) == [
        f"board:moves:{game_id}",
        f"rematch:{game_id}",
        f"analyse:{game_id}",
    ]
    assert sorted(final.json["allowed_mentions"]["users"]) == sorted([int(ALICE), int(BOB)])
    png_of(final)
    record = read_game(final.files[f"draughts-game-{game_id}.pdn"])
    assert record.game.result() == "1-0" and plies(record.game) == ["11-15", "23-19"]
    assert replay.files[f"game-{game_id}.gif"].startswith(b"GIF8")
    assert content_of(replay).startswith(f"Replay of game #{game_id}.")
    # The game is over: nobody is reminded or timed out again.
    games = await (await users.command("games", BOB, GENERAL)).callback()
    assert content_of(games).startswith("No games are running")
    stats = await (await users.command("stats", BOB, GENERAL)).callback()
    assert field(embed_of(stats), "Record (W/D/L)") == "1 / 0 / 0"


async def test_a_player_who_never_moves_gets_the_game_aborted(
    launch: Launch, fake: FakeDiscord
) -> None:
    """Alice moves, Bob never does: when his time runs out the game is aborted (no result,
    unrated), not won by Alice; he is reminded first, and no replay follows."""
    # 5 minutes per move, scaled by 0.01: 3 seconds, a reminder after 1.5.
    bot, users = await launch(MOVE_TIME_SCALE="0.01", SCHEDULER_INTERVAL_SECONDS="0.2")
    challenge_id, message = await open_challenge(
        users, ALICE, BOB, GENERAL, color="black", move_time=300
    )
    assert field(message["embeds"][0], "Time per move") == "3 seconds"
    game_id = game_id_of(embed_of(await accept(users, challenge_id, message, BOB)))
    await human_move(users, ALICE, GENERAL, "11-15")

    await bot.alive(
        fake.wait_until(
            lambda: scheduler_posts(fake, GENERAL, game_id)["final"], timeout=SCHEDULED_TIMEOUT
        )
    )
    posts = scheduler_posts(fake, GENERAL, game_id)
    ((r, reminder),) = posts["reminders"]
    f, final = posts["final"]
    assert r < f
    matched = re.fullmatch(REMINDER, content_of(reminder))
    assert matched and matched["id"] == BOB and int(matched["game"]) == game_id

    embed = final.json["embeds"][0]
    assert headline_of(embed) == (
        f"Game #{game_id} (Bob v Alice) was aborted: Bob never moved. No result."
    )
    assert status_of(embed) == "Aborted: no result"
    assert footer_parts(embed)[2] == "aborted, unrated"
    assert moves_of(embed) == "1. 11-15"
    assert to_move_in(final) is None
    assert custom_ids(final) == [f"board:moves:{game_id}"]  # no Rematch after an abort
    png_of(final)
    record = read_game(final.files[f"draughts-game-{game_id}.pdn"])
    assert plies(record.game) == ["11-15"] and record.game.result() == "*"
    # No replay for an aborted game (given time to come, had it been posted).
    await bot.alive(asyncio.sleep(1.0))
    assert scheduler_posts(fake, GENERAL, game_id)["replay"] is None
    games = await (await users.command("games", BOB, GENERAL)).callback()
    assert content_of(games).startswith("No games are running")
    # Unrated: neither player has a rating from it.
    for player in (ALICE, BOB):
        stats = await (await users.command("stats", player, GENERAL)).callback()
        assert field(embed_of(stats), "Rating") == "unrated: no rated games yet"


async def test_challenge_expires_and_loses_its_buttons(launch: Launch, fake: FakeDiscord) -> None:
    # Open for its move time (1 day by default) but at most the cap, here a second.
    bot, users = await launch(
        CHALLENGE_EXPIRY_SECONDS="1",
        CHALLENGE_EXPIRY_CAP_SECONDS="1",
        SCHEDULER_INTERVAL_SECONDS="0.2",
    )
    challenge_id, message = await open_challenge(users, ALICE, BOB, GENERAL)
    mid = message["id"]
    # What Bob's client shows: the message with its buttons (the fake's copy gets edited).
    seen_by_bob = copy.deepcopy(message)
    edit = await bot.alive(
        fake.wait_for_request(
            "PATCH", rf"/channels/{GENERAL}/messages/{mid}", timeout=SCHEDULED_TIMEOUT
        )
    )
    embed = embed_of(edit)
    assert field(embed, "Status") == "Expired without an answer"
    assert edit.json["components"] == []
    assert fake.messages[mid]["components"] == []
    assert embed["footer"]["text"] == f"Challenge #{challenge_id}"

    # Bob presses Accept just as the challenge expires: the press arrives after the expiry.
    press = await users.press(f"challenge:accept:{challenge_id}", seen_by_bob, BOB)
    refusal = await press.callback()
    assert refusal.json["type"] == 4 and is_ephemeral(refusal)
    assert "no longer open" in content_of(refusal)
    assert fake.find_requests("POST", rf"/webhooks/{fake.application_id}/{press.token}") == []
    # No game was started, and Alice may challenge again.
    games = await (await users.command("games", ALICE, GENERAL)).callback()
    assert content_of(games).startswith("No games are running")
    again, _ = await open_challenge(users, ALICE, BOB, GENERAL)
    assert again == challenge_id + 1


# -- stopping -----------------------------------------------------------------------------------


async def test_sigterm_when_idle_stops_cleanly_with_everything_saved(
    launch: Launch, fake: FakeDiscord
) -> None:
    bot, users = await launch()
    first, _ = await human_game(users, ALICE, BOB, GENERAL, color="white")
    local = english()
    for player in (BOB, ALICE, BOB):
        move = local.legal_moves()[-1].pdn()
        await human_move(users, player, GENERAL, move)
        local.play(move)
    sent = await users.command(
        "challenge",
        CAROL,
        DRAUGHTS,
        opponent=user(computer(fake)),
        variant="english",
        color="black",
    )
    answer = await sent.callback()
    second = game_id_of(embed_of(answer))
    sent = await users.command("move", CAROL, DRAUGHTS, move="11-15")
    assert (await sent.callback()).json["type"] == 4
    vs_computer = re.fullmatch(
        r"DraughtsBot played (\S+)\.",
        headline_of(embed_of(await post_number(users, DRAUGHTS, 0))) or "",
    )
    assert vs_computer

    assert await bot.stop() == 0
    log = bot.log()
    assert "stop signal received" in log
    assert re.search(r" stopped$", log, re.MULTILINE), log
    assert "Traceback" not in log

    games = db_rows(
        bot.database,
        "SELECT id, status, ply, white_id, black_id, computer_id FROM games ORDER BY id",
    )
    assert games == [
        (first, "running", 3, int(ALICE), int(BOB), None),
        (second, "running", 2, int(computer(fake)), int(CAROL), int(computer(fake))),
    ]
    moves = {
        gid: [
            row[0]
            for row in db_rows(
                bot.database, "SELECT pdn FROM moves WHERE game_id = ? ORDER BY ply", (gid,)
            )
        ]
        for gid in (first, second)
    }
    assert moves[first] == plies(local)
    assert moves[second] == ["11-15", vs_computer[1]]
    if bot.database_url is None:  # the SQLite file: sound, and checkpointed on close
        with contextlib.closing(sqlite3.connect(bot.database_file)) as db:
            assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        wal = Path(f"{bot.database_file}-wal")
        assert not wal.exists() or wal.stat().st_size == 0


# -- start-up variants --------------------------------------------------------------------------


class GlobalCommandsBot(BotProcess):
    """The bot without DEV_GUILD_ID: it syncs its commands globally, so that is what start-up
    waits for."""

    def _command_syncs(self) -> list[RecordedRequest]:
        path = f"/applications/{self.fake.application_id}/commands"
        return [r for r in self.fake.requests if r.method == "PUT" and r.path == path]


class DotenvTokenBot(BotProcess):
    """The bot with no DISCORD_TOKEN in its environment (it must read the one in ``.env``)."""

    def env(self) -> dict[str, str]:
        env = super().env()
        del env["DISCORD_TOKEN"]
        return env


@contextlib.asynccontextmanager
async def running(bot: BotProcess) -> AsyncIterator[Users]:
    """Start a bot the ``launch`` fixture does not know, with the same checks at the end."""
    try:
        await bot.start()
        yield Users(bot.fake, bot)
    finally:
        if bot.proc is not None and bot.proc.poll() is None:
            assert await bot.stop() == 0, bot.log()
    log = bot.log()
    assert GUARD_MARKER not in log, log
    assert "Traceback" not in log, log
    assert bot.fake.unknown_requests == [], bot.fake.unknown_requests


async def test_commands_are_synced_globally_without_dev_guild(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    bot = GlobalCommandsBot(fake, tmp_path, DEV_GUILD_ID="")
    async with running(bot) as users:
        (sync,) = fake.find_requests("PUT", rf"/applications/{fake.application_id}/commands")
        names = {c["name"] for c in sync.json}
        assert names == {
            "challenge",
            "move",
            "board",
            "moves",
            "draw",
            "resign",
            "takeback",
            "abort",
            "pdn",
            "replay",
            "history",
            "games",
            "stats",
            "leaderboard",
            "settings",
            "prefs",
            "rules",
            "help",
            "lobby",
            "tournament",
            "analyse",
        }  # every command of DESIGN's table, issue 28's lobby, 29's tournaments, 30's analyse
        assert fake.find_requests("PUT", r"/applications/\d+/guilds/\d+/commands") == []
        assert "synced 22 commands globally" in bot.log()
        # A global command's interaction (no guild_id in its data) is answered.
        sent = await users.command("help", BOB, GENERAL)
        assert "guild_id" not in sent.payload["data"]
        answer = await sent.callback()
        assert is_ephemeral(answer) and embed_of(answer)["title"] == "How to play"


async def test_token_from_dotenv_is_used_and_never_printed(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    secret = "MTIzNDU2.secret-token-value"
    (tmp_path / ".env").write_text(f"DISCORD_TOKEN={secret}\n")
    bot = DotenvTokenBot(fake, tmp_path)
    assert "DISCORD_TOKEN" not in bot.env()
    async with running(bot) as users:
        authorizations = {
            request.path: value
            for request in fake.requests
            for name, value in request.headers.items()
            if name.lower() == "authorization"
        }
        assert authorizations["/users/@me"] == f"Bot {secret}"
        assert set(authorizations.values()) == {f"Bot {secret}"}
        identify = [p for p in fake.gateway_received if p.get("op") == 2]
        assert [p["d"]["token"] for p in identify] == [secret]
        answer = await (await users.command("help", ALICE, GENERAL)).callback()
        assert is_ephemeral(answer)
    assert secret not in bot.log()
    assert "token='***'" in bot.log()


async def test_a_quoted_token_with_a_comment_from_an_env_file_is_sent_bare(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """``docker run --env-file .env`` (and podman's) hands the line's value over literally: the
    bot must still log in with the token, not with its quotes and comment."""
    secret = "MTIzNDU2.quoted-token-value"
    bot = BotProcess(fake, tmp_path, DISCORD_TOKEN=f'"{secret}" # the production bot')
    async with running(bot) as users:
        authorizations = {
            value
            for request in fake.requests
            for name, value in request.headers.items()
            if name.lower() == "authorization"
        }
        assert authorizations == {f"Bot {secret}"}
        identify = [p for p in fake.gateway_received if p.get("op") == 2]
        assert [p["d"]["token"] for p in identify] == [secret]
        answer = await (await users.command("help", ALICE, GENERAL)).callback()
        assert is_ephemeral(answer)
    assert secret not in bot.log()


# -- permissions --------------------------------------------------------------------------------


async def test_accepting_in_a_busy_channel_without_thread_permission(
    launch: Launch, fake: FakeDiscord
) -> None:
    bot, users = await launch()
    await human_game(users, ALICE, BOB, GENERAL)
    challenge_id, message = await open_challenge(users, CAROL, BOB, GENERAL)
    fake.app_permissions = str(int(ALL_PERMISSIONS) & ~CREATE_PUBLIC_THREADS)

    press = await users.press(f"challenge:accept:{challenge_id}", message, BOB)
    refusal = await press.callback()
    assert refusal.json["type"] == 4 and is_ephemeral(refusal), refusal.json
    assert "Create Public Threads" in content_of(refusal)
    assert "already running" in content_of(refusal)
    # Nothing changed: no thread, the challenge message keeps its buttons, the challenge is open.
    assert fake.threads == {}
    assert fake.find_requests("PATCH", rf"/channels/{GENERAL}/messages/{message['id']}") == []
    assert len(custom_ids(fake.messages[message["id"]])) == 3
    games = await (await users.command("games", CAROL, GENERAL)).callback()
    assert embed_of(games)["title"] == "Running games (1)"

    # With the permission back, the same button opens the game in a thread on the challenge.
    fake.app_permissions = ALL_PERMISSIONS
    press = await users.press(f"challenge:accept:{challenge_id}", message, BOB)
    assert (await press.callback()).json["type"] == 6
    opened = await bot.alive(
        fake.wait_for_request("POST", rf"/channels/{GENERAL}/messages/{message['id']}/threads")
    )
    assert opened.json["name"] == "Carol v Bob"
    thread_id = message["id"]  # a thread started from a message has the message's id
    board = await bot.alive(
        fake.wait_until(lambda: channel_posts(fake, thread_id), timeout=STEP_TIMEOUT)
    )
    assert set(seats_of(embed_of(board[0]))) == {"Carol", "Bob"}
    edit = await press.original_edit()
    assert field(embed_of(edit), "Status").endswith(f"in <#{thread_id}>")

    # Without the permission, a new challenge in the busy channel is refused at once.
    fake.app_permissions = str(int(ALL_PERMISSIONS) & ~CREATE_PUBLIC_THREADS)
    sent = await users.command("challenge", CAROL, GENERAL, opponent=user(ALICE), variant="pool")
    refusal = await sent.callback()
    assert refusal.json["type"] == 4 and is_ephemeral(refusal), refusal.json
    assert "Create Public Threads" in content_of(refusal)
