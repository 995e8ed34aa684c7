"""Processes as Linux's ``/proc`` shows them: which are alive, which descend from which, what they
run.  For the tests that check what a bot leaves running, and what its processes can see."""

from __future__ import annotations

import time
from collections.abc import Iterable
from pathlib import Path


def stat_fields(pid: int) -> list[str] | None:
    """The fields of /proc/PID/stat after the command name (state first), or None if gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return None
    return text[text.rindex(")") + 2 :].split()


def alive(pid: int) -> bool:
    """Running (a zombie only waits for its parent to read its status: it is gone)."""
    fields = stat_fields(pid)
    return fields is not None and fields[0] not in ("Z", "X")


def children_of(pids: Iterable[int]) -> dict[int, int]:
    """Every live process whose parent is in ``pids``, with that parent."""
    wanted = set(pids)
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        fields = stat_fields(int(entry.name))
        if fields is not None and int(fields[1]) in wanted and fields[0] not in ("Z", "X"):
            found[int(entry.name)] = int(fields[1])
    return found


def descendants(root: int) -> dict[int, int]:
    """Every live process below ``root``, with its parent."""
    found: dict[int, int] = {}
    level = {root}
    while level:
        below = {p: parent for p, parent in children_of(level).items() if p not in found}
        found.update(below)
        level = set(below)
    return found


def command_line(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except (FileNotFoundError, ProcessLookupError):
        return ""


def wait_gone(pids: Iterable[int], timeout: float) -> set[int]:
    """Wait until none of ``pids`` runs; those still running after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    left = set(pids)
    while left and time.monotonic() < deadline:
        left = {p for p in left if alive(p)}
        time.sleep(0.05)
    return {p for p in left if alive(p)}


def environment(pid: int) -> dict[str, str]:
    """The environment a process was started with (``/proc/PID/environ``); empty if gone."""
    try:
        raw = Path(f"/proc/{pid}/environ").read_bytes()
    except (FileNotFoundError, ProcessLookupError, PermissionError):
        return {}
    pairs = (entry.decode(errors="replace").partition("=") for entry in raw.split(b"\0") if entry)
    return {name: value for name, _, value in pairs}
