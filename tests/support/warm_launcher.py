"""The tests' side of the launcher's warm starts (``discord_launcher.py --serve``): bot processes
forked from one server that has already imported discord.py and the bot.

Why: an end-to-end test starts a real bot process, and a fresh Python spends about a second of
CPU importing discord.py, aiohttp, Pillow and the bot before it runs a line of it: most of what
the end-to-end suite costs.  A fork of a process that has imported them starts where a fresh one
would be after its imports, and from there runs the same code (``discord_launcher.main``, then the
bot's ``main``) in its own process, with its own working directory, environment and log.

:func:`spawn` returns a :class:`ForkedProcess`, which answers what the harness asks of a
:class:`subprocess.Popen` (``pid``, ``poll``, ``wait``, ``send_signal``, ``terminate``,
``kill``, ``returncode``).  One server per test process, started at the first spawn and ended
with the process (its input closes: it kills what is left and exits).  Only the bot's own
launch goes through it (``BotProcess``); tests about the launcher itself run it fresh.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import IO, Any

SUPPORT = Path(__file__).resolve().parent

PRELOAD = (
    "discord",
    "aiohttp",
    "asyncpg",
    "bot.__main__",
    "bot.logging_setup",
    "bot.ui.client",
    "bot.store.sqlite",
    "bot.store.sqlite_guard",
    "bot.store.postgres",
)
"""What the server imports once: everything a bot imports on its way to logging in (the server
also compiles the languages' catalogs once: ``discord_launcher.compile_catalogs``)."""


class ForkedProcess:
    """A bot forked by the server: a real process of its own (signals go to it through a pidfd,
    so never to a later process that reused its pid); its exit status comes from the server,
    its parent."""

    def __init__(self, server: WarmServer, pid: int) -> None:
        self.pid = pid
        self.returncode: int | None = None
        self._server = server
        self._pidfd: int | None = None
        with contextlib.suppress(ProcessLookupError):  # already exited and reaped
            self._pidfd = os.pidfd_open(pid)

    def poll(self) -> int | None:
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        with self._server.changed:
            if not self._server.changed.wait_for(lambda: self.returncode is not None, timeout):
                raise subprocess.TimeoutExpired(f"bot {self.pid}", timeout or 0.0)
        assert self.returncode is not None
        return self.returncode

    def send_signal(self, sig: int) -> None:
        with self._server.changed:
            if self._pidfd is not None:
                with contextlib.suppress(ProcessLookupError):  # exited, not yet reported
                    signal.pidfd_send_signal(self._pidfd, sig)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)

    def _exited(self, returncode: int) -> None:
        """The server reported the exit (called holding ``changed``)."""
        self.returncode = returncode
        if self._pidfd is not None:
            os.close(self._pidfd)
            self._pidfd = None


class WarmServer:
    """The running ``discord_launcher.py --serve`` and a thread reading its replies."""

    def __init__(self) -> None:
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.proc = subprocess.Popen(
            [sys.executable, str(SUPPORT / "discord_launcher.py"), "--serve", *PRELOAD],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=env,
        )
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.requests: IO[bytes] = self.proc.stdin
        self.changed = threading.Condition()
        self.started: list[int] = []
        self.forks: dict[int, ForkedProcess] = {}
        self.exits: dict[int, int] = {}  # reported before the fork was registered
        self.dead = False
        self._lock = threading.Lock()
        threading.Thread(
            target=self._read, args=(self.proc.stdout,), name="warm-launcher", daemon=True
        ).start()

    def _read(self, replies: IO[bytes]) -> None:
        for line in replies:
            reply: dict[str, Any] = json.loads(line)
            with self.changed:
                if "started" in reply:
                    self.started.append(int(reply["started"]))
                else:
                    pid, code = int(reply["exited"]), int(reply["returncode"])
                    fork = self.forks.pop(pid, None)
                    if fork is None:
                        self.exits[pid] = code
                    else:
                        fork._exited(code)
                self.changed.notify_all()
        with self.changed:  # the server is gone: so are its forks (it killed them)
            self.dead = True
            self.changed.notify_all()

    def spawn(self, argv: list[str], env: dict[str, str], cwd: Path, log: Path) -> ForkedProcess:
        request = {"argv": argv, "env": env, "cwd": str(cwd), "log": str(log)}
        with self._lock, self.changed:
            self.requests.write(json.dumps(request).encode() + b"\n")
            self.requests.flush()
            if not self.changed.wait_for(lambda: self.started or self.dead, timeout=60):
                raise RuntimeError("the warm launcher did not answer in 60 s")
            if self.dead:
                raise RuntimeError(f"the warm launcher exited with {self.proc.wait()}")
            pid = self.started.pop(0)
            fork = ForkedProcess(self, pid)
            if pid in self.exits:
                fork._exited(self.exits.pop(pid))
            else:
                self.forks[pid] = fork
            return fork

    def close(self) -> None:
        self.requests.close()
        self.proc.wait(30)


_server: WarmServer | None = None


def spawn(argv: list[str], env: dict[str, str], cwd: Path, log: Path) -> ForkedProcess:
    """Run ``discord_launcher.py ARGV`` in a fork of this process's warm server, in ``cwd`` with
    ``env``, appending its output to ``log``."""
    global _server
    if _server is None or _server.dead:
        _server = WarmServer()
        atexit.register(_server.close)
    return _server.spawn(argv, env, cwd, log)
