"""Run a discord.py client against the fake Discord API of ``tests/support/fake_discord/``.

Usage::

    python tests/support/discord_launcher.py PORT MODULE:FACTORY [--token TOKEN]
    python tests/support/discord_launcher.py PORT MODULE:MAIN --main

It first installs a network guard (any connection to, datagram to or DNS lookup of a
non-loopback address raises, after printing ``FAKE-DISCORD NETWORK GUARD`` to stderr), then
applies the two overrides that point discord.py at the fake (and, with
``FAKE_MULTIPROCESSING_DIR``, :func:`point_multiprocessing_at`)::

    discord.http.Route.BASE = "http://127.0.0.1:PORT/api/v10"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL("ws://127.0.0.1:PORT/gateway")

(a non-sharded client never asks ``GET /gateway/bot``; it goes to the hard-coded gateway, and
back there after an invalid session), imports ``MODULE`` and calls ``FACTORY()``. If that returns
a :class:`discord.Client`, the launcher starts it with the token; if it returns an awaitable
(e.g. the bot's own ``main()`` coroutine, which reads its token itself), it awaits it. SIGTERM and
SIGINT close the client cleanly (exit status 0). With ``--main``, ``MAIN()`` is an entry point
that runs its own event loop and signal handling (``bot.__main__:main``, reading its settings from
the environment): the launcher calls it and exits with its return value.  Nothing here changes
the bot's code.

Warm starts::

    python tests/support/discord_launcher.py --serve MODULE [MODULE ...]

installs the guard, imports the MODULEs (discord.py, the bot) once and then waits for requests,
one JSON line each on stdin (``{"argv": [...], "env": {...}, "cwd": ..., "log": ...}``): each is
served by a fork that takes that working directory, environment and log (as stdout and stderr)
and runs :func:`main` with ``argv``, exactly as a fresh launcher would from that point.  What a
fresh start spends importing (about a second of CPU per bot, most of an end-to-end test's) is
then spent once per test process.  Replies go to stdout, one JSON line each: ``{"started": PID}``
per request, in order, and ``{"exited": PID, "returncode": CODE}`` (negative: killed by that
signal, as :attr:`subprocess.Popen.returncode`) when a fork ends.  On end of input (the test
process is gone) the forks still running are killed and the server exits.
``tests/support/warm_launcher.py`` is the tests' side of it.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import faulthandler
import importlib
import inspect
import ipaddress
import json
import os
import selectors
import signal
import sys
import threading
from pathlib import Path
from typing import Any

GUARD_MARKER = "FAKE-DISCORD NETWORK GUARD"
_LOOPBACK_NAMES = {"localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback"}
_guard_installed = False
_guard_active = False


class NetworkGuardError(RuntimeError):
    """A guarded process tried to reach the network beyond loopback."""


def _is_loopback_host(host: Any) -> bool:
    if host is None:
        return True
    if isinstance(host, bytes | bytearray):
        host = bytes(host).decode("ascii", "replace")
    if not isinstance(host, str):
        return False
    host = host.strip("[]").split("%", 1)[0]
    if host == "" or host.lower() in _LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _is_loopback_address(address: Any) -> bool:
    if isinstance(address, str | bytes | bytearray):  # AF_UNIX path (or abstract socket)
        return True
    if isinstance(address, tuple) and address:
        return _is_loopback_host(address[0])
    return False


def _audit(event: str, args: tuple[Any, ...]) -> None:
    if not _guard_active:
        return
    what: str | None = None
    if event == "socket.connect" or event == "socket.sendto":
        if not _is_loopback_address(args[1]):
            what = f"{event} to {args[1]!r}"
    elif event == "socket.getaddrinfo":
        if not _is_loopback_host(args[0]):
            what = f"DNS lookup (getaddrinfo) of {args[0]!r}"
    elif event in ("socket.gethostbyname", "socket.gethostbyaddr") and not _is_loopback_host(
        args[0]
    ):
        what = f"DNS lookup ({event}) of {args[0]!r}"
    if what is not None:
        message = f"{GUARD_MARKER}: blocked {what} (pid {os.getpid()})"
        print(message, file=sys.stderr, flush=True)
        raise NetworkGuardError(message)


def install_network_guard() -> None:
    """Make non-loopback connections and DNS lookups raise in this process (idempotent).

    It is an audit hook (so it also sees C-level calls) and cannot be removed; use
    :func:`set_network_guard` to switch it off again, e.g. at the end of a test."""
    global _guard_installed
    if not _guard_installed:
        sys.addaudithook(_audit)
        _guard_installed = True
    set_network_guard(True)


def set_network_guard(active: bool) -> None:
    global _guard_active
    _guard_active = active


def point_discord_at(port: int) -> None:
    """The two overrides; they must run before the client is created."""
    import discord.gateway
    import discord.http
    import yarl

    discord.http.Route.BASE = f"http://127.0.0.1:{port}/api/v10"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(f"ws://127.0.0.1:{port}/gateway")


async def _run(factory: Any, token: str) -> None:
    import discord

    loop = asyncio.get_running_loop()
    main = asyncio.current_task()
    assert main is not None
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, main.cancel)
    made = factory()
    if inspect.isawaitable(made):
        made = await made
    if isinstance(made, discord.Client):
        async with made:
            await made.start(token)


def point_multiprocessing_at(folder: str) -> None:
    """Make ``folder`` the one where :mod:`multiprocessing` makes its sockets (the forkserver's
    among them) instead of a fresh folder in the temporary one.  A test names a folder that does
    not exist yet (``FAKE_MULTIPROCESSING_DIR``): the bot's worker processes then cannot start,
    as when the temporary folder or ``/dev/shm`` is not writable, until the test creates it."""
    from multiprocessing import process

    process.current_process()._config["tempdir"] = folder  # util.get_temp_dir()'s cache


def put_project_on_path() -> None:
    """Make the project's packages (``bot``, ``rules``...) and the tests' ``support`` package
    importable, as pytest's ``pythonpath`` does for the tests themselves."""
    tests = Path(__file__).resolve().parent.parent
    for path in (str(tests), str(tests.parent)):  # the project root ends up first
        if path not in sys.path:
            sys.path.insert(0, path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("port", type=int)
    parser.add_argument("factory", help="MODULE:CALLABLE returning a discord.Client or awaitable")
    parser.add_argument("--token", default=os.environ.get("FAKE_DISCORD_TOKEN", "test-token"))
    parser.add_argument("--main", action="store_true", help="call MAIN() and exit with its code")
    args = parser.parse_args(argv)

    faulthandler.enable()  # a bot stuck on its way out shows where, on SIGABRT (the harness)
    signal.signal(signal.SIGUSR1, _print_tasks)  # and what its event loop waits for
    install_network_guard()
    put_project_on_path()
    point_discord_at(args.port)
    if os.environ.get("FAKE_MULTIPROCESSING_DIR"):
        point_multiprocessing_at(os.environ["FAKE_MULTIPROCESSING_DIR"])

    module_name, _, attr = args.factory.partition(":")
    factory = getattr(importlib.import_module(module_name), attr or "main")
    if args.main:
        sys.argv = [module_name]  # the entry point parses its own (empty) command line
        return int(factory())

    import discord.utils

    discord.utils.setup_logging()
    try:
        asyncio.run(_run(factory, args.token))
    except asyncio.CancelledError:
        pass
    except KeyboardInterrupt:
        pass
    return 0


def _print_tasks(signum: int, frame: Any) -> None:
    """SIGUSR1: every asyncio task of the running loop, with where it waits, on stderr (the
    bot's log).  The harness sends it to a bot that does not stop, before SIGABRT, since
    faulthandler shows threads but not what the coroutines of the event loop await."""
    try:
        loop = asyncio.get_running_loop()  # the handler runs in the loop's thread
    except RuntimeError:
        print("SIGUSR1: no event loop running", file=sys.stderr, flush=True)
        return
    tasks = asyncio.all_tasks(loop)
    print(f"SIGUSR1: {len(tasks)} asyncio task(s)", file=sys.stderr, flush=True)
    for task in tasks:
        task.print_stack(limit=12, file=sys.stderr)
    sys.stderr.flush()


def _fork_for(request: dict[str, Any]) -> int:
    """Fork; in the fork, take on ``request``'s working directory, log and environment (as a
    process spawned with them would have) and return 0; in the server, return the fork's pid."""
    pid = os.fork()
    if pid:
        return pid
    os.chdir(request["cwd"])
    log = os.open(request["log"], os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    null = os.open(os.devnull, os.O_RDONLY)
    for fd, target in ((null, 0), (log, 1), (log, 2)):
        os.dup2(fd, target)
    os.close(log)
    os.close(null)
    os.environ.clear()
    os.environ.update(request["env"])
    return 0


def compile_catalogs() -> None:
    """Compile every language's catalog once, as each bot does the first time it needs it
    (``bot.i18n.catalogs.translations``, cached per process): every bot needs them all at its
    start, for the translated slash commands it syncs, and parsing the ``.po`` files was half a
    forked bot's CPU (0.3 s of about 0.6 for a bot started, asked for ``/help`` and stopped).
    The files are the same for every bot of the run; a bot changing or reading them again is
    not something any test asks for."""
    from bot.i18n import catalogs

    for code in catalogs.available():
        catalogs.translations(code)


def serve(preload: list[str]) -> list[str] | None:
    """The warm-start server (see the module's docstring).  Returns, in a fork, the launcher
    arguments that fork is to run; in the server itself, None once its input has ended."""
    install_network_guard()
    put_project_on_path()
    for module in preload:
        importlib.import_module(module)
    compile_catalogs()
    # A fork copies only the thread that forked: a thread started by an import would be missing
    # in every bot, and a lock it held would stay locked there.
    assert threading.active_count() == 1, threading.enumerate()
    replies = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(os.open(os.devnull, os.O_WRONLY), 1)  # nothing printed by mistake reaches the pipe
    selector = selectors.DefaultSelector()
    selector.register(0, selectors.EVENT_READ)
    forks: dict[int, int] = {}  # pidfd -> pid
    pending = b""
    while True:
        for key, _ in selector.select():
            if key.fd in forks:
                pid = forks.pop(key.fd)
                selector.unregister(key.fd)
                os.close(key.fd)
                _, status = os.waitpid(pid, 0)
                code = os.waitstatus_to_exitcode(status)
                replies.write(json.dumps({"exited": pid, "returncode": code}) + "\n")
                continue
            data = os.read(0, 1 << 16)
            if not data:
                for pid in forks.values():
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(pid, signal.SIGKILL)
                return None
            pending += data
            while b"\n" in pending:
                line, pending = pending.split(b"\n", 1)
                request = json.loads(line)
                pid = _fork_for(request)
                if pid == 0:
                    selector.close()
                    for pidfd in forks:
                        os.close(pidfd)
                    replies.close()
                    return [str(arg) for arg in request["argv"]]
                pidfd = os.pidfd_open(pid)
                forks[pidfd] = pid
                selector.register(pidfd, selectors.EVENT_READ)
                replies.write(json.dumps({"started": pid}) + "\n")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--serve"]:
        launch = serve(sys.argv[2:])
        sys.exit(0 if launch is None else main(launch))
    sys.exit(main())
