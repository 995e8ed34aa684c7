"""Process pools for CPU-bound work (engine searches, GIF replays) that die with the bot and heal
when one of their workers dies.

Three things a bare :class:`~concurrent.futures.ProcessPoolExecutor` gets wrong for a bot that
runs for months:

- **Orphans.**  A worker blocks reading its task queue, and it holds that queue's write end
  itself, so it never sees the bot go: after a ``kill -9`` (or an OOM kill) of the bot the worker
  lives on, and with it the forkserver and the resource tracker, which exit only once every
  holder of their pipes is gone.  Each worker here is handed the read end of a *lifeline* pipe
  whose only write end stays in the bot; a thread in the worker waits on it and ends the process
  the moment it reads end-of-file, which the kernel delivers however the bot died.  The
  forkserver and the tracker then follow by themselves.  (``prctl(PR_SET_PDEATHSIG)`` would not
  do: a forkserver worker's parent is the forkserver, not the bot.)
- **A broken pool stays broken.**  When one worker dies, the executor fails every pending job
  with :class:`~concurrent.futures.process.BrokenProcessPool` and refuses all later ones.
  :meth:`WorkerPool.run` replaces a broken executor with a fresh one and tries the job again, a
  bounded number of times, then raises :class:`WorkerCrashed` for the caller to handle.
- **Slow shutdowns.**  Waiting for a running search would hold a shutdown up for the whole think
  time; :meth:`WorkerPool.close` cuts the lifeline, so the workers exit at once.
- **Workers that cannot start.**  Where the system refuses new processes or what they need
  (``/dev/shm`` or the temporary folder not writable, no processes left), starting the pool
  raises at every job.  :meth:`WorkerPool.run` raises :class:`WorkersUnavailable` instead, logs
  the cause in one line the first time, tries again only after a growing pause
  (:data:`RETRY_FIRST_SECONDS` doubling up to :data:`RETRY_MAX_SECONDS`; jobs meanwhile fail at
  once, quietly), and logs one line when the workers start again.  :attr:`WorkerPool.unavailable`
  says why meanwhile, for the health check.

What the pools run must be module-level functions taking and returning plain (picklable) data.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.connection import Connection
from typing import Any, TypeVar, TypeVarTuple, cast

from .logging_setup import setup_worker_logging

log = logging.getLogger(__name__)

T = TypeVar("T")
Ts = TypeVarTuple("Ts")

DEFAULT_RETRIES = 2
"""How many times a job whose worker died is tried again on a fresh pool.  A worker killed by
the OOM killer or a stray signal is gone for good after one rebuild; a job that kills its worker
every time (a position or a game that crashes the process) must not loop forever."""
CLOSE_JOIN_SECONDS = 1.0
"""How long :meth:`WorkerPool.close` waits for the workers after cutting their lifeline before
it kills them outright."""
RETRY_FIRST_SECONDS = 2.0
"""The pause after the workers first failed to start, before a job tries to start them again."""
RETRY_MAX_SECONDS = 60.0
"""The longest pause between two tries to start workers that keep failing to."""


class WorkersUnavailable(RuntimeError):
    """The worker processes cannot start (the cause is chained, and in the message)."""


class WorkerCrashed(RuntimeError):
    """The worker process died under the job on every try (fresh pools included)."""


class PoolClosed(RuntimeError):
    """The pool was closed (the bot is shutting down) before or while the job ran."""


def cpu_count() -> int:
    """The CPUs this process may run on (its affinity mask, not the machine's total: a
    container limited to two cores must not start eight searches)."""
    counter = getattr(os, "process_cpu_count", None)  # Python 3.13+
    if counter is not None:
        return int(counter() or 1)
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def default_workers(cpus: int | None = None) -> int:
    """Worker processes for a machine with ``cpus`` CPUs (this process's share if None): one
    CPU is left to the event loop, which must keep answering the gateway, but there are always
    at least two, so two games' searches never queue one behind the other (a search runs for a
    fixed time, so on a small machine two searches share the CPU rather than wait; measured in
    ``bench/engine_load.py``)."""
    if cpus is None:
        cpus = cpu_count()
    return max(2, cpus - 1)


def _start_method() -> str:
    # forkserver: a clean child, not a fork of a process with a running event loop and open
    # sockets; spawn where there is no forkserver.
    return "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"


def _start_worker(lifeline: Connection, log_level: int) -> None:
    """Pool initializer, run in each worker: log as the bot does (at its level), and hold the
    lifeline."""
    setup_worker_logging(log_level)
    _hold_lifeline(lifeline)


def _hold_lifeline(lifeline: Connection) -> None:
    """End the worker process as soon as the bot's end of the lifeline is closed (the bot closed
    the pool, or died)."""

    def watch() -> None:
        with contextlib.suppress(EOFError, OSError):
            lifeline.recv_bytes()  # the bot never writes: this returns only by EOF
        os._exit(0)

    threading.Thread(target=watch, name="lifeline", daemon=True).start()


class _Generation:
    """One executor and the lifeline its workers hold."""

    def __init__(self, name: str, workers: int) -> None:
        self.lifeline, self.held = multiprocessing.Pipe(duplex=False)
        # ``self.lifeline`` is the read end the workers get; ``self.held`` the write end only
        # this process has (os.pipe descriptors are not inherited by other children).
        try:
            self.executor = concurrent.futures.ProcessPoolExecutor(
                workers,
                mp_context=multiprocessing.get_context(_start_method()),
                initializer=_start_worker,
                # The bot's level as it is now (set up before any pool starts).
                initargs=(self.lifeline, logging.getLogger().getEffectiveLevel()),
            )
        except BaseException:  # no semaphores (``/dev/shm``): tried again later, without a leak
            self.lifeline.close()
            self.held.close()
            raise
        self.name = name

    def pids(self) -> list[int]:
        processes = self.executor._processes  # no public way to list them
        return sorted(processes) if processes else []

    def retire(self, join: float) -> None:
        """Stop this generation: workers exit (killed if they linger ``join`` seconds), queued
        jobs fail, and the executor's own thread is joined.

        A worker cut off while it sends its result (a replay is hundreds of kilobytes, more
        than a pipe holds) leaves half a message in the result pipe, and the executor's thread
        waits for the rest for ever: this process holds a write end of that pipe too, so no
        end-of-file comes.  The interpreter joins that thread on its way out, so the bot
        stopped but never exited.  Closing this process's write end once the workers are gone
        gives the thread its end-of-file; it fails what was running and ends."""
        executor = self.executor
        with executor._shutdown_lock:  # a submit spawning a worker finishes first
            processes = list((executor._processes or {}).values())
            # (typeshed calls the thread a _ThreadWakeup, and the queue has no _writer there)
            manager = cast("threading.Thread | None", executor._executor_manager_thread)
            results: Any = executor._result_queue
        executor.shutdown(wait=False, cancel_futures=True)
        self.held.close()  # the workers' lifeline: they exit now, mid-job or idle
        for process in processes:
            process.join(join)
            if process.exitcode is None:
                log.warning("%s worker %s ignored its lifeline; killing it", self.name, process.pid)
                process.kill()
                process.join(join)
        if results is not None:
            results._writer.close()
        if manager is not None:
            manager.join(join)
            if manager.is_alive():
                log.warning("the %s pool's thread did not end; leaving it", self.name)
        self.lifeline.close()


class WorkerPool:
    """A self-healing process pool of ``workers`` processes, named ``name`` in the log.

    Workers start on first use.  Safe to use from one event loop; :meth:`close` may be called
    from any thread (the bot closes it in a worker thread so the loop stays free)."""

    def __init__(self, name: str, workers: int, retries: int = DEFAULT_RETRIES) -> None:
        if workers < 1:
            raise ValueError(f"a pool needs at least one worker, not {workers}")
        self.name = name
        self.workers = workers
        self.retries = retries
        self.unavailable: str | None = None
        """Why the workers cannot start, while they cannot (None: they can, or have not tried)."""
        self._retry_at = 0.0
        self._pause = RETRY_FIRST_SECONDS
        self._lock = threading.Lock()
        self._generation: _Generation | None = None
        self._closed = False

    def _current(self) -> _Generation:
        with self._lock:
            if self._closed:
                raise PoolClosed(f"the {self.name} pool is closed")
            if self._generation is None:
                if self.unavailable is not None and time.monotonic() < self._retry_at:
                    raise self._still_unavailable()
                try:
                    self._generation = _Generation(self.name, self.workers)
                except Exception as exc:
                    raise self._cannot_start(exc) from exc
            return self._generation

    def _cannot_start(self, cause: Exception) -> WorkersUnavailable:
        """Note that the workers failed to start (call with :attr:`_lock` held): one log line
        the first time, then a pause before the next try, twice as long as the last."""
        if self.unavailable is None:
            self._pause = RETRY_FIRST_SECONDS
            log.error(
                "the %s worker processes cannot start: %s: %s; trying again in the background",
                self.name,
                type(cause).__name__,
                cause,
            )
        else:
            self._pause = min(self._pause * 2, RETRY_MAX_SECONDS)
        self.unavailable = f"{type(cause).__name__}: {cause}"
        self._retry_at = time.monotonic() + self._pause
        return self._still_unavailable()

    def _still_unavailable(self) -> WorkersUnavailable:
        return WorkersUnavailable(f"the {self.name} workers cannot start: {self.unavailable}")

    def _started(self) -> None:
        """A job reached the workers: if they had failed to start, say they are back."""
        with self._lock:
            back, self.unavailable = self.unavailable is not None, None
        if back:
            log.info("the %s worker processes started again", self.name)

    def _start_failed(self, generation: _Generation, cause: Exception) -> WorkersUnavailable:
        """The executor could not start its workers for a job: drop it, and note why."""
        self._discard(generation)
        with self._lock:
            return self._cannot_start(cause)

    def _discard(self, broken: _Generation) -> None:
        """Drop ``broken`` if it is still the current generation (several jobs may fail with
        it at once; only the first replaces it)."""
        with self._lock:
            if self._generation is not broken:
                return
            self._generation = None
        # A broken executor has already terminated its workers; this reaps them and closes
        # the descriptors (off the loop: the joins may take a moment).
        threading.Thread(
            target=broken.retire, args=(CLOSE_JOIN_SECONDS,), name=f"{self.name}-retire"
        ).start()

    async def run(self, fn: Callable[[*Ts], T], *args: *Ts) -> T:
        """``fn(*args)`` in a worker process.  If the worker dies (the pool breaks), a fresh
        pool runs it again, up to :attr:`retries` times; then :class:`WorkerCrashed`.  Workers
        that cannot start: :class:`WorkersUnavailable`.  Other exceptions of ``fn`` propagate
        unchanged."""
        loop = asyncio.get_running_loop()
        for attempt in range(self.retries + 1):
            generation = self._current()
            try:
                try:
                    waiting = loop.run_in_executor(generation.executor, fn, *args)
                except RuntimeError:
                    # submit() refused: the executor is broken, or close() retired it meanwhile
                    if self._closed:
                        raise PoolClosed(f"the {self.name} pool is closed") from None
                    raise
                except Exception as exc:  # submit() starts the workers: the system refused
                    raise self._start_failed(generation, exc) from exc
                self._started()
                return await waiting
            except BrokenProcessPool:
                if self._closed:
                    raise PoolClosed(f"the {self.name} pool closed while the job ran") from None
                log.warning(
                    "a %s worker died running %s (try %d of %d); starting a fresh pool",
                    self.name,
                    getattr(fn, "__name__", fn),
                    attempt + 1,
                    self.retries + 1,
                )
                self._discard(generation)
            except asyncio.CancelledError:
                # close() cancels the jobs still queued; a cancellation of the caller's own
                # task is passed on as it is.
                task = asyncio.current_task()
                if self._closed and task is not None and not task.cancelling():
                    raise PoolClosed(f"the {self.name} pool closed before the job ran") from None
                raise
        raise WorkerCrashed(
            f"the {self.name} worker died {self.retries + 1} times running "
            f"{getattr(fn, '__name__', fn)}"
        )

    @property
    def problem(self) -> str | None:
        """The operator's line while the workers cannot start (for the health check)."""
        cause = self.unavailable
        return None if cause is None else f"the {self.name} worker processes cannot start ({cause})"

    def pids(self) -> list[int]:
        """The process ids of the running workers (for operators and tests)."""
        with self._lock:
            generation = self._generation
        return generation.pids() if generation is not None else []

    def close(self) -> None:
        """Stop the workers now, running jobs included (their callers get :class:`PoolClosed`).
        Returns within about :data:`CLOSE_JOIN_SECONDS`; later calls do nothing."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            generation, self._generation = self._generation, None
        if generation is not None:
            generation.retire(CLOSE_JOIN_SECONDS)
