"""Jobs for the worker-pool tests, in a module of their own so the pools' worker processes can
import them by name (a function of a test module would drag the test module in)."""

from __future__ import annotations

import os
import signal
import struct
import sys
import time
from pathlib import Path


def stamp(seconds: float) -> tuple[int, float, float]:
    """Occupy a worker for ``seconds``; which worker it was, and when it started and ended
    (``time.monotonic`` is one clock for every process of the machine on Linux)."""
    start = time.monotonic()
    time.sleep(seconds)
    return os.getpid(), start, time.monotonic()


def rendezvous(folder: str, count: int, timeout: float) -> tuple[int, bool]:
    """Sign in ``folder`` and wait until ``count`` jobs have (at most ``timeout`` seconds): which
    worker it was, and whether all ``count`` jobs were running at the same time."""
    Path(folder, str(os.getpid())).touch()
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if len(list(Path(folder).iterdir())) >= count:
            return os.getpid(), True
        time.sleep(0.01)
    return os.getpid(), False


def running(marker: str, seconds: float) -> int:
    """Leave ``marker`` (with the worker's pid) once running, then occupy the worker."""
    Path(marker).write_text(str(os.getpid()))
    time.sleep(seconds)
    return os.getpid()


def pid() -> int:
    return os.getpid()


def die() -> int:
    """Kill the worker running it, as the OOM killer would."""
    os.kill(os.getpid(), signal.SIGKILL)
    raise AssertionError("unreachable")


def die_once(marker: str) -> int:
    """Kill the worker the first time (leaving ``marker`` behind); return the pid afterwards."""
    path = Path(marker)
    if not path.exists():
        path.write_text("died")
        die()
    return os.getpid()


def fail(message: str) -> int:
    raise ValueError(message)


def cut_off_mid_result(marker: str) -> int:
    """Start sending a result and stop halfway, as a worker cut off by the pool's close while
    it sends a big result (a replay) does: the length of a megabyte, a kilobyte of it, then
    wait (``marker`` says the half message is in the pipe).  The pipe is the executor's
    result queue, the ``result_queue`` argument of the worker's loop up the stack."""
    frame = sys._getframe(1)
    while frame.f_code.co_name != "_process_worker":
        assert frame.f_back is not None, "not running in a ProcessPoolExecutor worker"
        frame = frame.f_back
    writer = frame.f_locals["result_queue"]._writer
    os.write(writer.fileno(), struct.pack("!i", 1 << 20) + bytes(1024))
    Path(marker).write_text(str(os.getpid()))
    time.sleep(60.0)
    return os.getpid()


def held(folder: str, name: str, timeout: float) -> tuple[str, int, int]:
    """A job that runs until the test lets it go: it leaves ``started-<name>`` in ``folder``,
    waits for ``go-<name>`` (at most ``timeout`` seconds) and returns its name, how many held
    jobs had started before it, and how many of them were still running when it began."""
    before = len(list(Path(folder).glob("started-*")))
    others = len(list(Path(folder).glob("running-*")))
    running_marker = Path(folder, f"running-{name}")
    running_marker.touch()
    Path(folder, f"started-{name}").touch()
    deadline = time.monotonic() + timeout
    while not Path(folder, f"go-{name}").exists() and time.monotonic() < deadline:
        time.sleep(0.01)
    running_marker.unlink()
    return name, before, others
