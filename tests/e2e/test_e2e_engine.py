"""The engine in the running bot: games against the computer at every level, and a computer
move interrupted by a crash is made after the restart."""

from __future__ import annotations

import asyncio
import os
import re
import time
from pathlib import Path

import pytest
from support.e2e_harness import (
    ALICE,
    BOB,
    GENERAL,
    Launch,
    RecordedRequest,
    Sent,
    channel_posts,
    content_of,
    db_rows,
    embed_of,
    game_id_of,
    headline_of,
    moves_of,
    numbered,
    players_line,
    players_text,
    png_of,
    poll,
    post_number,
    seat,
    to_move_in,
    user,
)
from support.fake_discord import FakeDiscord
from support.procs import command_line, descendants, environment

from rules import Game, find_variant, read_game

pytestmark = pytest.mark.e2e

MOVED = re.compile(r"Alice played (\S+)\.")
REPLY = re.compile(r"DraughtsBot played (\S+)\.")


async def filled_in(sent: Sent) -> RecordedRequest:
    """The deferred answer, once the bot has filled it in."""
    assert (await sent.callback()).json["type"] == 5
    return await sent.original_edit()


async def answered_at_once(sent: Sent) -> RecordedRequest:
    """The answer as the interaction's own message, not waiting for the computer's search (its
    move is the channel's next post): sent as the first response, or, when a busy machine took
    longer than the presenter's 1.5 s to build it, filled into the acknowledgement the watchdog
    sent (a search of level 1 would take longer still, and the board would show its move)."""
    answer = await sent.callback()
    if answer.json["type"] == 5:
        return await sent.original_edit()
    assert answer.json["type"] == 4, answer.json
    return answer


def headline(request: RecordedRequest) -> str:
    """The headline of a board message ("" when it has none)."""
    return headline_of(embed_of(request)) or ""


def stored_plies(database: Path | str, game_id: int) -> int:
    return int(db_rows(database, "SELECT count(*) FROM moves WHERE game_id = ?", (game_id,))[0][0])


async def test_every_level_plays_legal_moves(launch: Launch, fake: FakeDiscord) -> None:
    _, users = await launch()
    me = str(fake.bot_user["id"])
    seen_threads: set[str] = set()
    for level in range(1, 7):
        # Alice plays White, so the computer (Black) opens; from level 2 on the channel is busy
        # and each game gets its own thread.
        sent = await users.command(
            "challenge",
            ALICE,
            GENERAL,
            opponent=user(me),
            variant="english",
            color="white",
            level=level,
        )
        if level == 1:
            start, channel, posted = await answered_at_once(sent), GENERAL, 0
        else:
            await filled_in(sent)  # "started in <thread>", after opening the thread
            (channel,) = [t for t in fake.threads if t not in seen_threads]
            start, posted = await post_number(users, channel, 0), 1
        seen_threads = set(fake.threads)
        embed = embed_of(start)
        assert players_line(embed) == players_text(seat("Alice"), seat("DraughtsBot", level=level))
        assert headline(start) == "New game.", embed["description"]
        assert to_move_in(start) == me
        png_of(start)
        # The computer's opening follows as its own post.
        opening = await post_number(users, channel, posted)
        played = REPLY.fullmatch(headline(opening))
        assert played, embed_of(opening)["description"]
        local = Game(find_variant("english"))
        local.play(played[1])

        mine = local.legal_moves()[0].pdn()
        answer = await answered_at_once(await users.command("move", ALICE, channel, move=mine))
        moved = MOVED.fullmatch(headline(answer))
        assert moved and moved[1] == mine, embed_of(answer)["description"]
        local.play(mine)
        reply = await post_number(users, channel, posted + 1)
        played = REPLY.fullmatch(headline(reply))
        assert played, embed_of(reply)["description"]
        local.play(played[1])  # legal where it was played, or this raises
        # The recent moves, numbered: so the move number too.
        assert moves_of(embed_of(reply)) == numbered([m.pdn() for m in local.moves])
        assert to_move_in(reply) == ALICE
        assert game_id_of(embed_of(reply)) == level


async def test_nothing_waits_for_a_long_search(launch: Launch, fake: FakeDiscord) -> None:
    """The computer thinks 5 s: the move is answered at once, and ``/board`` and ``/moves``
    are answered while it thinks (the fake refuses any first answer after Discord's 3 s, so a
    wait for the search would fail here); the reply follows as its own post."""
    bot, users = await launch(ENGINE_MOVE_TIME_SECONDS="5")
    me = str(fake.bot_user["id"])
    sent = await users.command(
        "challenge", ALICE, GENERAL, opponent=user(me), variant="english", color="black", level=6
    )
    game_id = game_id_of(embed_of(await answered_at_once(sent)))
    await answered_at_once(await users.command("move", ALICE, GENERAL, move="11-15"))
    board = await answered_at_once(await users.command("board", ALICE, GENERAL))
    assert to_move_in(board) == me  # the computer is to move
    assert content_of(board) == f"<@{me}> to move."  # no deadline for the computer
    png_of(board)
    listed = await answered_at_once(await users.command("moves", BOB, GENERAL))
    assert "DraughtsBot (White) has" in content_of(listed) and "`22-18`" in content_of(listed)
    assert stored_plies(bot.database, game_id) == 1  # still thinking
    reply = await post_number(users, GENERAL, 0, timeout=30)
    assert REPLY.fullmatch(headline(reply)), embed_of(reply)["description"]
    assert stored_plies(bot.database, game_id) == 2


async def test_a_computer_move_cut_off_by_a_crash_is_made_after_the_restart(
    launch: Launch, fake: FakeDiscord
) -> None:
    # The computer thinks long (level 6, 5 s) so the crash lands while it is thinking.
    bot, users = await launch(ENGINE_MOVE_TIME_SECONDS="5")
    me = str(fake.bot_user["id"])
    sent = await users.command(
        "challenge",
        ALICE,
        GENERAL,
        opponent=user(me),
        variant="english",
        color="black",
        level=6,
    )
    game_id = game_id_of(embed_of(await answered_at_once(sent)))
    await answered_at_once(await users.command("move", ALICE, GENERAL, move="11-15"))
    deadline = time.monotonic() + 15
    while stored_plies(bot.database, game_id) < 1:  # Alice's move is stored before the reply
        assert time.monotonic() < deadline, bot.log()
        await asyncio.sleep(0.05)
    bot.kill()
    assert stored_plies(bot.database, game_id) == 1

    bot.settings["ENGINE_MOVE_TIME_SECONDS"] = "0.2"
    await bot.start()
    post = await bot.alive(fake.wait_until(lambda: channel_posts(fake, GENERAL), timeout=20))
    embed = embed_of(post[0])
    assert REPLY.fullmatch(headline(post[0])), embed["description"]
    assert game_id_of(embed) == game_id
    assert stored_plies(bot.database, game_id) == 2
    pdn = await users.command("pdn", ALICE, GENERAL)
    record = read_game((await pdn.callback()).files[f"draughts-game-{game_id}.pdn"]).game
    assert [m.pdn() for m in record.moves[:1]] == ["11-15"] and len(record.moves) == 2


async def test_the_workers_know_no_secret_and_the_files_are_the_bots_alone(
    launch: Launch, fake: FakeDiscord
) -> None:
    """The engine's worker processes (and their forkserver) need neither the token nor the
    database URL, so their environments hold neither; what the bot writes (the database, its
    journal, the heartbeat) only its own user can read."""
    bot, users = await launch()
    me = str(fake.bot_user["id"])
    sent = await users.command(
        "challenge", ALICE, GENERAL, opponent=user(me), variant="english", color="black", level=1
    )
    await answered_at_once(sent)
    await answered_at_once(await users.command("move", ALICE, GENERAL, move="11-15"))
    reply = await post_number(users, GENERAL, 0, timeout=30)  # the engine's workers are up
    assert REPLY.fullmatch(headline(reply))
    assert bot.proc is not None
    below = descendants(bot.proc.pid)
    workers = [p for p in below if "multiprocessing" in command_line(p)]
    assert len(workers) >= 2, {p: command_line(p) for p in below}  # a forkserver, a worker...
    for pid in below:
        seen = environment(pid)
        assert seen, command_line(pid)
        assert not {"DISCORD_TOKEN", "DATABASE_URL"} & set(seen), (command_line(pid), seen)
        assert not any("test-token" in value for value in seen.values())
    written = [bot.heartbeat]
    if bot.database_url is None:
        written += [bot.database_file, Path(f"{bot.database_file}-wal")]
    await bot.alive(poll(lambda: all(p.exists() for p in written), timeout=10))
    modes = {p.name: oct(p.stat().st_mode & 0o777) for p in written}
    assert modes == dict.fromkeys(modes, oct(0o600))


def thread_policies(pids: list[int]) -> list[tuple[int, int]]:
    """(scheduling policy, nice) of every thread of ``pids`` (``/proc/PID/task/TID/stat``)."""
    found = []
    for pid in pids:
        for task in Path(f"/proc/{pid}/task").glob("*"):
            try:
                fields = (task / "stat").read_text().rpartition(")")[2].split()
            except OSError:
                continue  # the thread ended
            found.append((int(fields[38]), int(fields[16])))  # policy, nice (fields 41, 19)
    return found


@pytest.mark.sqlite_only(
    reason="the build, its log lines and its priority are the engine workers', whatever the store"
)
async def test_the_endgame_tables_build_is_logged_and_yields_the_cpu(
    launch: Launch, fake: FakeDiscord, tmp_path: Path
) -> None:
    """The first computer game of a variant builds its tables in a worker: the settings line
    shows where and how large, the worker logs the start and the end of the build, and the
    build's thread runs at the idle priority so the gateway keeps up (issue 27, item 9).  Tables
    of 4 pieces (``ENGINE_ENDGAME_PIECES``, handed to the workers) keep the build to seconds;
    Russian's default of 5 would take a minute and a half."""
    folder = tmp_path / "endgame"
    bot, users = await launch(ENGINE_ENDGAME_DIR=str(folder), ENGINE_ENDGAME_PIECES="4")
    assert f"engine_endgame_dir={folder!r}" in bot.log()
    assert "engine_endgame_pieces=4" in bot.log()
    me = str(fake.bot_user["id"])
    # White opens in Russian, so the computer plays White and searches at once.
    sent = await users.command(
        "challenge", ALICE, GENERAL, opponent=user(me), variant="russian", color="black", level=1
    )
    await answered_at_once(sent)
    await bot.alive(poll(lambda: "building the russian endgame table" in bot.log(), timeout=60))
    assert f"building the russian endgame table (4 pieces) into {folder}/" in bot.log()
    assert bot.proc is not None
    workers = [p for p in descendants(bot.proc.pid) if "multiprocessing" in command_line(p)]
    idle = os.SCHED_IDLE
    # Caught while building (a few seconds at the least), at the idle priority.
    await bot.alive(
        poll(lambda: any(policy == idle for policy, _ in thread_policies(workers)), timeout=10)
    )
    # At the idle priority the build only runs on a core no one else wants: 4 s of work on an
    # idle machine, but CI's two test workers can keep both cores busy for minutes (120 s ran
    # out once, the same build taking 4.1 s alone before and after that run's change).
    await bot.alive(poll(lambda: "built the russian endgame table in" in bot.log(), timeout=360))
    assert [p.name for p in folder.glob("egdb-*.bin")] == ["egdb-8x8bf-c2-4.bin"]
