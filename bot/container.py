"""The bot inside a container (Docker, podman): a setting that stops the start, said for the
container's user and not repeated for ever.

A missing token or a bad setting ends the start with exit code 2, which systemd's unit does not
restart (``RestartPreventExitStatus=2``).  Docker's and Compose's restart policies cannot leave
out an exit code: under ``restart: unless-stopped`` the bot was started again and again (Docker
backs off to one start a minute), each time with the same message.  So in a container the bot
says what is wrong once and then waits until the container is stopped (``docker ps`` shows it
unhealthy: no heartbeat), and only then exits 2.  And the advice names the file a container reads
its settings from, the ``.env`` on the host given to Compose's ``env_file`` or to ``--env-file``,
not "the current directory", which is the image's empty ``/app``.
"""

from __future__ import annotations

import os
import signal
import sys
import time
from collections.abc import Mapping
from pathlib import Path

MARKERS = (Path("/.dockerenv"), Path("/run/.containerenv"))
"""Files container engines put in every container: Docker's and podman's."""
STOP_POLL_SECONDS = 0.5

NO_TOKEN_IN_CONTAINER = """\
error: DISCORD_TOKEN is not set in this container.
Get a token from the Discord developer portal (https://discord.com/developers/applications):
open your application -> Bot -> Reset Token, copy it, and put it on the host, in the .env file
the container is started with (beside docker-compose.yml for Compose, or the file given to
docker run --env-file / podman run --env-file), as:

    DISCORD_TOKEN=your-token-here

then create the container again: docker compose up -d (or docker rm, then docker run again).
"""

WAITING = """\
This container now waits until it is stopped (docker compose down, docker stop), so that its
restart policy does not start it again every minute with the same error; it exits 2 when stopped.
"""


def in_container(env: Mapping[str, str] | None = None, markers: tuple[Path, ...] = MARKERS) -> bool:
    """Whether this process runs in a container: podman (and systemd-nspawn, LXC) set
    ``container`` in its environment; Docker and podman put a marker file at the root."""
    env = os.environ if env is None else env
    return bool(env.get("container", "").strip()) or any(m.exists() for m in markers)


def is_main_process() -> bool:
    """Whether this is the container's own process: PID 1, or the child of the small init that
    ``--init`` and Compose's ``init: true`` put first.  A bot started by something else in a
    container (a test run in a CI container, a shell) exits as it would anywhere."""
    return os.getpid() == 1 or os.getppid() == 1


def wait_for_stop() -> None:
    """Say why, then sleep until SIGTERM or SIGINT (``docker stop``, Ctrl-C).  Handlers are
    installed, not just the signals blocked: as PID 1 (no ``--init``) a signal without a handler
    is dropped by the kernel."""
    sys.stderr.write(WAITING)
    sys.stderr.flush()
    stopped: list[int] = []

    def stop(signum: int, _frame: object) -> None:
        stopped.append(signum)

    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, stop)
    while not stopped:  # a short sleep, not signal.pause(): a signal between the check and
        time.sleep(STOP_POLL_SECONDS)  # the pause would be waited past
