"""The worker pools of bot/workers.py, with real processes: they die with the bot (kill -9 of a
real process that uses them), heal when a worker is killed, run jobs side by side, and close at
once even in the middle of a job, and say once why when they cannot start (a read-only
``/dev/shm``), until they can."""

from __future__ import annotations

import asyncio
import io
import os
import random
import select
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from PIL import Image
from support import worker_probes
from support.procs import alive, command_line, descendants, wait_gone

from bot.ui.media import Media
from bot.workers import PoolClosed, WorkerCrashed, WorkerPool, default_workers
from rules import Game, find_variant, read_game
from rules.pdn import write_game

TESTS = Path(__file__).parent.parent
GONE_WITHIN = 10.0
"""Seconds the processes of a killed bot get to exit (the issue: "within a few seconds")."""

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux /proc")


# -- dying with the bot -----------------------------------------------------------------------


def test_kill_9_of_the_bot_takes_every_worker_process_with_it() -> None:
    host = subprocess.Popen(
        [sys.executable, str(TESTS / "support" / "worker_host.py")],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=TESTS.parent,
    )
    below: dict[int, int] = {}
    try:
        assert host.stdout is not None
        ready, _, _ = select.select([host.stdout], [], [], 120)
        line = host.stdout.readline() if ready else "(nothing in 120 s)"
        if line != "READY\n":
            host.kill()
            pytest.fail(f"the stand-in bot did not get ready: {line!r}\n{host.communicate()[1]}")
        below = descendants(host.pid)
        roles = {pid: command_line(pid) for pid in below}
        forkservers = [p for p, cmd in roles.items() if "multiprocessing.forkserver" in cmd]
        (forkserver,) = [p for p in forkservers if below[p] == host.pid]
        workers = [p for p, parent in below.items() if parent == forkserver]
        trackers = [p for p, cmd in roles.items() if "multiprocessing.resource_tracker" in cmd]
        # What the bot leaves behind when it dies: two engine workers and the replay renderer
        # (children of the forkserver), the forkserver and the resource tracker.
        assert len(workers) == 3 and len(trackers) == 1, roles

        host.kill()
        host.wait(10)
        survivors = wait_gone(below, GONE_WITHIN)
        assert survivors == set(), {p: roles[p] for p in survivors}
    finally:
        if host.poll() is None:
            host.kill()
            host.wait(10)
        for pid in below:  # never leave a failed run's processes behind
            if alive(pid):
                os.kill(pid, signal.SIGKILL)


# -- healing ----------------------------------------------------------------------------------


@pytest.fixture
async def pool() -> AsyncIterator[WorkerPool]:
    pool = WorkerPool("test", 2)
    try:
        yield pool
    finally:
        pids = pool.pids()
        await asyncio.to_thread(pool.close)
        assert wait_gone(pids, GONE_WITHIN) == set()


async def test_a_worker_killed_while_idle_is_replaced(pool: WorkerPool) -> None:
    first = await pool.run(worker_probes.pid)
    os.kill(first, signal.SIGKILL)
    assert wait_gone([first], GONE_WITHIN) == set()
    second = await pool.run(worker_probes.pid)
    assert second != first and alive(second)
    assert await pool.run(worker_probes.pid) in pool.pids()


async def test_a_job_whose_worker_dies_runs_again_on_a_fresh_pool(
    pool: WorkerPool, tmp_path: Path
) -> None:
    marker = tmp_path / "died"
    survivor = await pool.run(worker_probes.die_once, str(marker))
    assert marker.exists()  # the first try did die
    assert alive(survivor)
    assert await pool.run(worker_probes.pid) in pool.pids()


async def running_jobs(pool: WorkerPool, folder: Path, count: int) -> list[asyncio.Future[int]]:
    """``count`` jobs, each running in its own worker by the time this returns."""
    jobs = []
    for n in range(count):
        marker = folder / f"job{n}"
        jobs.append(asyncio.ensure_future(pool.run(worker_probes.running, str(marker), 1.0)))
        while not marker.exists():
            await asyncio.sleep(0.01)
    return jobs


async def test_jobs_beside_the_dying_one_are_retried_too(pool: WorkerPool, tmp_path: Path) -> None:
    # A worker is killed while both run a job: the executor fails both, the pool reruns both.
    jobs = await running_jobs(pool, tmp_path, 2)
    first = set(pool.pids())
    assert len(first) == 2
    os.kill(min(first), signal.SIGKILL)
    pids = await asyncio.gather(*jobs)
    assert set(pids).isdisjoint(first)  # both ran again, in workers of the fresh pool
    assert set(pids) <= set(pool.pids())


async def test_a_job_that_kills_every_worker_gives_a_clear_error(pool: WorkerPool) -> None:
    with pytest.raises(WorkerCrashed, match="test worker died 3 times running die"):
        await pool.run(worker_probes.die)
    # ...and the pool still works afterwards.
    assert await pool.run(worker_probes.pid) in pool.pids()


async def test_errors_of_the_job_itself_are_not_retried(pool: WorkerPool) -> None:
    with pytest.raises(ValueError, match="bad position"):
        await pool.run(worker_probes.fail, "bad position")
    assert len(pool.pids()) == 1  # the worker that raised is still the one


# -- side by side -----------------------------------------------------------------------------


async def test_jobs_run_side_by_side_in_different_workers(pool: WorkerPool, tmp_path: Path) -> None:
    # Each job waits (up to 30 s) for the other to be running: in turn, neither would see it.
    results = await asyncio.gather(
        *(pool.run(worker_probes.rendezvous, str(tmp_path), 2, 30.0) for _ in range(2))
    )
    assert [met for _, met in results] == [True, True]
    assert len({pid for pid, _ in results}) == 2


def test_pool_size_leaves_one_cpu_to_the_event_loop() -> None:
    assert [default_workers(n) for n in (1, 2, 3, 8, 64)] == [2, 2, 2, 7, 63]
    assert default_workers() == max(2, len(os.sched_getaffinity(0)) - 1)
    with pytest.raises(ValueError):
        WorkerPool("none", 0)


# -- closing ----------------------------------------------------------------------------------


async def test_close_stops_a_running_job_at_once_and_is_idempotent() -> None:
    pool = WorkerPool("test", 1)
    job = asyncio.ensure_future(pool.run(worker_probes.stamp, 60.0))
    while not pool.pids():
        await asyncio.sleep(0.01)
    await asyncio.sleep(0.3)
    assert not job.done()
    (worker,) = pool.pids()
    began = time.monotonic()
    await asyncio.to_thread(pool.close)
    # "A shutdown must not wait for a running search longer than a second or so": generous.
    assert time.monotonic() - began < 5.0
    assert not alive(worker)
    with pytest.raises(PoolClosed):
        await job
    await asyncio.to_thread(pool.close)
    with pytest.raises(PoolClosed):
        await pool.run(worker_probes.pid)


CUT_OFF_HOST = """
import asyncio, contextlib, os, sys, time
from pathlib import Path
from bot.workers import PoolClosed, WorkerPool
from support import worker_probes

async def main(marker):
    pool = WorkerPool("test", 1)
    job = asyncio.ensure_future(pool.run(worker_probes.cut_off_mid_result, marker))
    while not Path(marker).exists():
        await asyncio.sleep(0.01)
    await asyncio.to_thread(pool.close)
    with contextlib.suppress(PoolClosed):
        await job
    print("closed", flush=True)

asyncio.run(main(sys.argv[1]))
"""


def test_a_worker_cut_off_while_it_sends_its_result_does_not_hold_the_exit(
    tmp_path: Path,
) -> None:
    """Closing the pool while a worker is halfway through sending a big result (a replay)
    left the executor's thread waiting for the rest, and the interpreter waiting for that
    thread at exit: the bot logged "stopped" and never exited (the SIGTERM test's hang)."""
    host = subprocess.Popen(
        [sys.executable, "-c", CUT_OFF_HOST, str(tmp_path / "sending")],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=TESTS.parent,
        env={**os.environ, "PYTHONPATH": os.pathsep.join([str(TESTS.parent), str(TESTS)])},
    )
    try:
        out, err = host.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        host.kill()
        out, err = host.communicate()
        pytest.fail(f"the process did not exit after closing its pool:\n{out}{err}")
    assert (host.returncode, out) == (0, "closed\n"), err


# -- the replay renderer ----------------------------------------------------------------------


def long_game() -> str:
    """A long international game (random moves, fixed seed) as PDN: a replay that renders for a
    while (about 0.4 s here)."""
    rng = random.Random(16)
    game = Game(find_variant("international"))
    while not game.is_over:
        game.play(rng.choice(game.legal_moves()))
    return write_game(game, {"White": "Alice", "Black": "Bob"})


async def test_a_replay_whose_renderer_is_killed_is_made_again() -> None:
    media = Media()
    try:
        short = Game(find_variant("english"))
        short.play("11-15")
        await media.replay(write_game(short, {}))  # the renderer is up and warm
        (renderer,) = media.replays.pids()
        pdn = long_game()
        replay = asyncio.ensure_future(media.replay(pdn))
        await asyncio.sleep(0.05)
        assert not replay.done()
        os.kill(renderer, signal.SIGKILL)  # mid-render
        frames = Image.open(io.BytesIO((await replay).data)).n_frames
        assert frames == len(read_game(pdn).game.moves) + 1
        (fresh,) = media.replays.pids()
        assert fresh != renderer and not alive(renderer)
        # Later replays work too, and an idle renderer killed is replaced as well.
        os.kill(fresh, signal.SIGKILL)
        assert wait_gone([fresh], GONE_WITHIN) == set()
        assert (
            Image.open(io.BytesIO((await media.replay(write_game(short, {}))).data)).n_frames == 2
        )
    finally:
        await asyncio.to_thread(media.close)


# -- workers that cannot start --------------------------------------------------------------

READ_ONLY_SHM = "mount -t tmpfs -o ro tmpfs /dev/shm"
"""Run in a mount namespace of its own: multiprocessing's semaphores cannot be made there."""
NO_SHM_HOST = textwrap.dedent(
    """
    import asyncio, logging, os, subprocess, time
    from bot.workers import WorkerPool, WorkersUnavailable

    async def main() -> None:
        pool = WorkerPool("engine", 1)
        for _ in range(5):  # the first try, then quiet failures until the pause is over
            try:
                await pool.run(os.getpid)
            except WorkersUnavailable:
                print("unavailable:", pool.problem, flush=True)
        subprocess.run(["mount", "-o", "remount,rw", "/dev/shm"], check=True)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                print("ran in", await pool.run(os.getpid), "problem:", pool.problem, flush=True)
                break
            except WorkersUnavailable:
                await asyncio.sleep(0.2)
        pool.close()

    if __name__ == "__main__":
        logging.basicConfig(level=logging.INFO, format="%(levelname)s %(message)s")
        asyncio.run(main())
    """
)


def can_mount_privately() -> bool:
    if shutil.which("unshare") is None:
        return False
    probe = ["unshare", "-rm", "sh", "-c", READ_ONLY_SHM]
    return subprocess.run(probe, capture_output=True, timeout=30).returncode == 0


@pytest.mark.skipif(not can_mount_privately(), reason="needs unshare -rm (mount namespaces)")
def test_workers_that_cannot_start_are_reported_once_then_start_when_they_can(
    tmp_path: Path,
) -> None:
    """A read-only ``/dev/shm`` (as in some containers): the pool says why once, in one line,
    fails the jobs meanwhile without trying every time, and starts when it can again."""
    host = tmp_path / "no_shm_host.py"
    host.write_text(NO_SHM_HOST)
    done = subprocess.run(
        ["unshare", "-rm", "sh", "-c", f'{READ_ONLY_SHM} && exec "$0" "$1"', sys.executable, host],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=TESTS.parent,
        env={**os.environ, "PYTHONPATH": str(TESTS.parent)},
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    cause = "OSError: [Errno 30] Read-only file system"
    assert lines[:5] == [f"unavailable: the engine worker processes cannot start ({cause})"] * 5
    assert lines[5].startswith("ran in ") and lines[5].endswith(" problem: None"), lines
    assert done.stderr.splitlines() == [
        f"ERROR the engine worker processes cannot start: {cause}; trying again in the background",
        "INFO the engine worker processes started again",
    ]


NO_SHM_COMPUTER = textwrap.dedent(
    """
    import asyncio, os
    from bot.engine_player import EngineComputer
    from bot.service.computer import ComputerUnavailable
    from rules import Game, find_variant

    async def main() -> None:
        computer = EngineComputer(movetime=0.05, workers=1)
        game = Game(find_variant("english"))
        asks = {
            "background": lambda: computer.background(os.getpid),
            "hint": lambda: computer.hint(game),
            "background again": lambda: computer.background(os.getpid),
        }
        for name, ask in asks.items():
            try:
                print(name, "ran:", await ask(), flush=True)
            except ComputerUnavailable as exc:
                print(name, "unavailable:", exc, flush=True)
        computer.close()

    asyncio.run(main())
    """
)


@pytest.mark.skipif(not can_mount_privately(), reason="needs unshare -rm (mount namespaces)")
def test_background_jobs_and_hints_say_the_computer_is_unavailable(tmp_path: Path) -> None:
    """While the engine's workers cannot start, a background job and a hint raise the service's
    ComputerUnavailable (as a reply does), and the lane is not left held by the failure."""
    host = tmp_path / "no_shm_computer.py"
    host.write_text(NO_SHM_COMPUTER)
    done = subprocess.run(
        ["unshare", "-rm", "sh", "-c", f'{READ_ONLY_SHM} && exec "$0" "$1"', sys.executable, host],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=TESTS.parent,
        env={**os.environ, "PYTHONPATH": str(TESTS.parent)},
    )
    assert done.returncode == 0, done.stderr
    cause = "the engine workers cannot start: OSError: [Errno 30] Read-only file system"
    assert done.stdout.splitlines() == [
        f"{name} unavailable: {cause}" for name in ("background", "hint", "background again")
    ]
