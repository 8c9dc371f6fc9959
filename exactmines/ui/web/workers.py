"""The web server's work, off the event loop, in worker processes that can be ended.

A job is a plain function of picklable arguments returning a picklable value (the server's
jobs, :mod:`exactmines.ui.web.bodies`, return the response body as JSON bytes). It runs in a
worker process started from a clean interpreter -- the ``forkserver`` context where the
platform has it (a fork of a server process that imported the jobs once, so a new worker
costs milliseconds), else ``spawn`` -- never by ``fork`` of the threaded server itself.

:class:`WorkerPool` promises:

- **a job never outlives its time**: one still running ``seconds`` after it started is
  ended with its process (SIGKILL: a solver in C cannot be asked) and :class:`Overtime` is
  raised; the process is replaced at once, so the pool never shrinks and a caller can run a
  cheap fallback on the new worker (``fallback=``) without queueing again;
- **busy is said at once**: at most ``workers`` processes run jobs and ``queue`` more
  callers wait; past that :meth:`WorkerPool.run` raises :class:`Busy` with the seconds
  until the first running job must end (a ``Retry-After``);
- **memory comes back**: a worker is replaced after ``jobs`` jobs or when its resident
  memory passes ``memory`` bytes after a job, and workers beyond ``warm`` that stay idle
  ``idle`` seconds end;
- **memory is bounded**: a worker whose resident memory passes ``memory_limit`` bytes while
  it runs a job (looked at every :data:`MEMORY_POLL` seconds) is ended like one past its
  time (:class:`OverMemory`, an :class:`Overtime`: the ``fallback`` runs on its
  replacement);
- **nothing is left behind**: :meth:`WorkerPool.close` (or :meth:`WorkerPool.stop_soon`,
  safe from a signal handler) ends every worker, waiting callers get :class:`ShuttingDown`,
  and a worker whose server dies (even by SIGKILL) ends with it on its own.

Everything here runs on the event loop's thread except the blocking pipe and process calls,
which run in a small thread pool (threads blocked on a pipe hold no lock): the loop itself
never waits on a worker.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import math
import multiprocessing
import os
import signal
import sys
import threading
import time
import weakref
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from typing import Any, TypeVar

from exactmines.errors import ExactminesError, WorkerLost

__all__ = ["PoolLimits", "WorkerPool", "Busy", "Overtime", "OverMemory", "ShuttingDown",
           "JobCrashed",
           "process_rss", "give_back_large_blocks"]

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class PoolLimits:
    """How many worker processes, and when one is replaced (counts, seconds, bytes)."""

    #: Most processes running jobs at once.
    workers: int = 8
    #: Processes kept alive while idle (started with the pool).
    warm: int = 2
    #: Callers that may wait for a worker when all are busy; the next gets :class:`Busy`.
    queue: int = 8
    #: Seconds an idle worker beyond ``warm`` lives before it ends.
    idle: float = 5.0
    #: Jobs a worker runs before it is replaced (a bound on anything a job leaves behind).
    jobs: int = 200
    #: Resident memory (bytes) past which a worker is replaced after its job (a fresh one
    #: holds about 50 MB; Python keeps what a big job's objects took).
    memory: int = 128 * 2**20
    #: Resident memory (bytes) a worker may reach while it runs a job: past it, the job is
    #: ended with its process, as one past its time.
    memory_limit: int = 1024 * 2**20

    def __post_init__(self) -> None:
        if not 1 <= self.warm <= self.workers or self.queue < 0 or self.jobs < 1:
            raise ValueError(f"impossible pool limits: {self}")


class Busy(Exception):
    """Every worker is busy and the queue is full; ``retry_after``: whole seconds until the
    first running job must have ended."""

    def __init__(self, retry_after: int) -> None:
        super().__init__(f"busy: every worker is taken and the queue is full; try again in "
                         f"{retry_after} s")
        self.retry_after = retry_after


class Overtime(Exception):
    """A job was still running at its time and was ended with its process."""


class OverMemory(Overtime):
    """A job's worker passed the pool's ``memory_limit`` and was ended with it."""


#: Seconds between two looks at a running worker's memory.
MEMORY_POLL = 0.1


class ShuttingDown(Exception):
    """The pool is closing (the server is stopping): no job is started or finished."""


class JobCrashed(Exception):
    """A job raised something other than an :class:`~exactmines.errors.ExactminesError`
    (a bug): its type and message, in one line, as the worker saw them."""


# -- the worker process -------------------------------------------------------------------


def process_rss(pid: int | None = None) -> int | None:
    """Resident memory of process ``pid`` (this one by default) in bytes; ``None`` where
    the system does not tell (read from ``/proc``, Linux)."""
    try:
        with open(f"/proc/{pid or 'self'}/statm", "rb") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return None


def _own_rss() -> int:
    rss = process_rss()
    if rss is not None:
        return rss
    import resource  # not on Windows; there the peak is all we have

    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak if sys.platform == "darwin" else peak * 1024


def give_back_large_blocks() -> None:
    """Make this process give freed large blocks back to the system (glibc only; elsewhere
    nothing to do).

    glibc serves a large allocation (128 KiB and more) by its own ``mmap`` and returns it
    when freed, but each time one is freed it raises that threshold to the block's size (up
    to 32 MiB): after one 100 MB answer had passed through, the answers after it came from
    the heap, which is not given back. The server grew from 51 to 152 MB over three
    large boards and stayed there; with the threshold fixed it stays at 51 MB. Fixing it
    (``mallopt(M_MMAP_THRESHOLD, 128 KiB)``, the default value) stops that adjustment.
    """
    if not sys.platform.startswith("linux"):
        return
    import ctypes
    import ctypes.util

    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        mallopt = libc.mallopt
    except (OSError, AttributeError):  # not glibc (musl has no mallopt)
        return
    m_mmap_threshold = -3
    mallopt(m_mmap_threshold, 128 * 1024)


def _heap_trimmer() -> Callable[[], Any] | None:
    """glibc's ``malloc_trim(0)`` (None elsewhere): gives the free memory at the top and in
    the middle of the heap back to the system. A solver's many small blocks (a SAT engine's
    clauses over a large component) are freed into the heap, which then stays as large as
    at its peak; trimmed after each job, a worker's memory comes back near its start."""
    if not sys.platform.startswith("linux"):
        return None
    import ctypes
    import ctypes.util

    try:
        trim = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").malloc_trim
    except (OSError, AttributeError):  # not glibc
        return None
    return lambda: trim(0)


def _watch_server() -> None:
    """End this worker when its server is gone, even killed without a chance to end it.
    The server holds the other end of multiprocessing's parent sentinel (the parent
    process is no sign: a fork server's children keep it alive)."""
    parent = multiprocessing.parent_process()
    if parent is None:
        return
    try:
        wait([parent.sentinel])
    finally:
        os._exit(1)


def _work(conn: Connection) -> None:
    """A worker's life: run ``(job, args)`` after ``(job, args)``, answering each with
    ``((True, value) | (False, error), resident bytes)``, until the pipe closes."""
    # Ctrl-C reaches the whole process group: the server ends its workers itself.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_watch_server, daemon=True).start()
    give_back_large_blocks()
    trim = _heap_trimmer()
    while True:
        try:
            job, args = conn.recv()
        except (EOFError, OSError):
            return
        try:
            outcome: tuple[bool, Any] = (True, job(*args))
        except ExactminesError as exc:
            outcome = (False, exc)
        except Exception as exc:  # a bug: said in one line, never a traceback to a client
            outcome = (False, JobCrashed(" ".join(f"{type(exc).__name__}: {exc}".split())))
        try:
            conn.send((outcome, _own_rss()))
        except (EOFError, OSError):
            return
        except Exception as exc:  # the value would not pickle: a bug of the job
            conn.send(((False, JobCrashed(f"unpicklable result: {exc}")), _own_rss()))
        del outcome, job, args  # before waiting: the next job starts from a clean slate
        if trim is not None:
            trim()


# -- the pool -----------------------------------------------------------------------------


def _context() -> Any:
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")


class _Worker:
    """One worker process, seen from the server."""

    __slots__ = ("process", "conn", "jobs", "idle_since", "ends_at", "alive", "_reaping")

    def __init__(self, process: Any, conn: Connection) -> None:
        self.process = process
        self.conn = conn
        self.jobs = 0
        self.idle_since = time.monotonic()
        self.ends_at = 0.0  # monotonic time its running job must have ended by
        self.alive = True
        self._reaping = threading.Lock()

    def end(self) -> None:
        """Kill the process now (SIGKILL: a solver in C cannot be asked); does not wait."""
        self.alive = False
        with contextlib.suppress(OSError, ValueError, AttributeError):  # gone, or not started
            self.process.kill()

    def reap(self) -> None:
        """Wait for the ended process and close its pipe (blocking: call from a thread).
        Once: the pool's close may reap a worker that a replacement is reaping too, and
        two threads closing one pipe close its descriptor twice (the second may by then
        be another file's)."""
        with self._reaping:
            with contextlib.suppress(OSError, ValueError, AssertionError):
                self.process.join(5)
            self.conn.close()


def _exchange(conn: Connection, job: Callable[..., Any], args: tuple[Any, ...]) -> Any:
    conn.send((job, args))
    return conn.recv()


class WorkerPool:
    """Worker processes for jobs with a time each; see the module docstring.

    Bound to the event loop it is first used on (or :meth:`start`-ed on); after
    :meth:`close` it refuses work until started again.
    """

    def __init__(self, limits: PoolLimits | None = None,
                 preload: tuple[str, ...] = ()) -> None:
        self.limits = limits or PoolLimits()
        self._preload = list(preload)
        self._state = "new"
        self._loop: asyncio.AbstractEventLoop | None = None
        self._threads: ThreadPoolExecutor | None = None
        self._idle: list[_Worker] = []
        self._busy: set[_Worker] = set()
        self._live = 0  # processes running or being started: the slots taken
        self._waiters: deque[asyncio.Future[_Worker]] = deque()
        self._retiring: set[_Worker] = set()  # ended, not yet reaped
        self._reaper: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self.replaced = 0  # workers ended at their time, or past their jobs or memory
        # A server that exits without closing the pool leaves no worker behind (atexit
        # runs this before multiprocessing's own handler, which would wait for them).
        atexit.register(_kill_all, weakref.ref(self))

    # -- life ---------------------------------------------------------------------------

    async def start(self) -> None:
        """Bind to the running loop and start the warm workers."""
        if self._state == "running":
            return
        self._loop = asyncio.get_running_loop()
        self._threads = ThreadPoolExecutor(max_workers=2 * self.limits.workers + 2,
                                           thread_name_prefix="exactmines-pool")
        self._state = "running"
        self._reaper = self._loop.create_task(self._reap())
        missing = self.limits.warm - self._live
        self._live += missing
        await asyncio.gather(*(self._add_idle() for _ in range(missing)))

    def stop_soon(self) -> None:
        """Start :meth:`close` on the pool's loop; safe from a signal handler or a thread."""
        loop = self._loop
        if loop is not None and self._state == "running" and not loop.is_closed():
            loop.call_soon_threadsafe(lambda: self._spawn_task(self.close()))

    async def close(self) -> None:
        """End every worker now; waiting and running callers get :class:`ShuttingDown`."""
        if self._state != "running":
            return
        self._state = "closed"
        if self._reaper is not None:
            self._reaper.cancel()
        while self._waiters:
            waiter = self._waiters.popleft()
            if not waiter.done():
                waiter.set_exception(ShuttingDown())
        workers = [*self._idle, *self._busy, *self._retiring]
        self._idle.clear()
        self._retiring.clear()
        for worker in workers:
            worker.end()  # at once: the requests they run are answered now
        await asyncio.gather(*(self._blocking(w.reap) for w in workers))
        # Workers being started finish starting and end themselves (_new_worker).
        others = [t for t in self._tasks if t is not asyncio.current_task()]
        await asyncio.gather(*others, return_exceptions=True)
        self._live = 0
        assert self._threads is not None
        self._threads.shutdown(wait=False)

    # -- running jobs ---------------------------------------------------------------------

    async def run(self, job: Callable[..., T], args: tuple[Any, ...], *, seconds: float,
                  fallback: tuple[Callable[..., T], tuple[Any, ...], float] | None = None
                  ) -> T:
        """``job(*args)`` in a worker, ended after ``seconds``.

        Raises :class:`Busy` at once when no worker is free and the queue is full; the
        job's own :class:`~exactmines.errors.ExactminesError` as it raised it;
        :class:`JobCrashed` for anything else it raised; :class:`Overtime` when it ran out
        of time and there is no ``fallback`` ``(job, args, seconds)`` to run instead on
        the worker that replaces it; :class:`~exactmines.errors.WorkerLost` when the
        worker died of something else; :class:`ShuttingDown` when the pool closes.
        """
        if self._state == "new":
            await self.start()
        worker = await self._acquire()
        try:
            try:
                return await self._call(worker, job, args, seconds)
            except Overtime:
                if fallback is None:
                    # Killed now, replaced in the background (by _release): the caller,
                    # which may have an answer of its own to give, does not wait for a
                    # new process to start.
                    worker.end()
                    raise
                worker = await self._replace(worker)
            job, args, seconds = fallback
            try:
                return await self._call(worker, job, args, seconds)
            except Overtime:
                worker = await self._replace(worker)
                raise
        finally:
            self._release(worker)

    async def _call(self, worker: _Worker, job: Callable[..., T], args: tuple[Any, ...],
                    seconds: float) -> T:
        assert self._loop is not None and self._threads is not None
        worker.ends_at = time.monotonic() + seconds
        exchange = self._loop.run_in_executor(self._threads, _exchange, worker.conn, job, args)
        try:
            (ok, value), rss = await self._watched(worker, exchange, seconds)
        except (EOFError, OSError):
            worker.alive = False
            if self._state != "running":
                raise ShuttingDown() from None
            raise WorkerLost("a worker process died (killed, or out of memory)") from None
        except asyncio.CancelledError:
            worker.alive = False  # the caller went away: its job is nobody's now
            raise
        worker.jobs += 1
        if rss > self.limits.memory or worker.jobs >= self.limits.jobs or not ok and (
                isinstance(value, JobCrashed) and "MemoryError" in str(value)):
            worker.alive = False  # its memory goes back to the system with it
        if ok:
            return value  # type: ignore[no-any-return]
        raise value

    async def _watched(self, worker: _Worker, exchange: asyncio.Future[Any],
                       seconds: float) -> Any:
        """``exchange``'s result, or :class:`Overtime` after ``seconds``, or
        :class:`OverMemory` as soon as the worker's memory passes ``memory_limit`` (the
        exchange's thread ends when the caller ends the worker)."""
        assert self._loop is not None
        deadline = self._loop.time() + seconds
        pid = worker.process.pid
        try:
            while True:
                remaining = deadline - self._loop.time()
                if remaining <= 0:
                    raise Overtime(f"not finished within {seconds:g} s")
                done, _ = await asyncio.wait({exchange}, timeout=min(remaining, MEMORY_POLL))
                if done:
                    return exchange.result()
                rss = process_rss(pid) if pid else None
                if rss is not None and rss > self.limits.memory_limit:
                    raise OverMemory(f"past the worker's memory limit of "
                                     f"{self.limits.memory_limit // 2**20} MB")
        finally:
            # Given up (past its time or memory, or the caller gone): the exchange's end,
            # an EOFError once the worker is killed, is nobody's (asyncio would log it).
            if not exchange.done():
                exchange.cancel()

    # -- slots ----------------------------------------------------------------------------

    async def _acquire(self) -> _Worker:
        if self._state != "running":
            raise ShuttingDown()
        while self._idle:
            worker = self._idle.pop()  # the most recently used: the others may retire
            if worker.alive and worker.process.is_alive():
                self._busy.add(worker)
                self._keep_one_spare()
                return worker
            self._live -= 1
            self._retire(worker)
        if self._live < self.limits.workers:
            self._live += 1
            try:
                worker = await self._new_worker()
            except BaseException:
                self._live -= 1
                raise
            self._busy.add(worker)
            self._keep_one_spare()
            return worker
        if len(self._waiters) >= self.limits.queue:
            raise Busy(self.retry_after())
        assert self._loop is not None
        waiter: asyncio.Future[_Worker] = self._loop.create_future()
        self._waiters.append(waiter)
        try:
            return await waiter
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled() and waiter.exception() is None:
                self._release(waiter.result())  # handed over just as the caller left
            elif waiter in self._waiters:
                self._waiters.remove(waiter)
            raise

    def _release(self, worker: _Worker) -> None:
        """Give ``worker``'s slot back: to a waiting caller, to the idle list, or -- when
        the worker is dead or due for replacement -- to a new process."""
        self._busy.discard(worker)
        if self._state != "running":
            if worker.alive:
                worker.end()
            return
        if not worker.alive:
            self.replaced += 1
            self._retire(worker)
            if self._waiters:  # the slot passes to a new process for the next caller
                self._spawn_task(self._serve_waiter())
            else:
                self._live -= 1
                if self._live < self.limits.warm:
                    self._live += 1
                    self._spawn_task(self._add_idle())
            return
        worker.idle_since = time.monotonic()
        while self._waiters:
            waiter = self._waiters.popleft()
            if not waiter.done():
                self._busy.add(worker)
                waiter.set_result(worker)
                return
        self._idle.append(worker)

    def _keep_one_spare(self) -> None:
        """With the last idle worker taken, start the next before it is asked for: a
        request arriving while every other worker is busy finds one ready, without paying
        a process start."""
        if not self._idle and self._live < self.limits.workers:
            self._live += 1
            self._spawn_task(self._add_idle())

    async def _serve_waiter(self) -> None:
        """A new process in a freed slot, for the first waiting caller."""
        try:
            worker = await self._new_worker()
        except Exception as exc:
            self._live -= 1
            if self._waiters:  # nobody else would wake it
                waiter = self._waiters.popleft()
                if not waiter.done():
                    waiter.set_exception(WorkerLost(f"cannot start a worker process: {exc}"))
            return
        self._release(worker)

    async def _add_idle(self) -> None:
        """A new process for the idle list (the warm ones)."""
        try:
            worker = await self._new_worker()
        except Exception:
            self._live -= 1  # the next caller starts one, or says why it cannot
            return
        self._release(worker)

    async def _replace(self, worker: _Worker) -> _Worker:
        """End ``worker`` and start another in its slot (the count does not change). When
        no process can be started, the caller releases the dead worker's slot."""
        worker.end()
        await self._blocking(worker.reap)
        new = await self._new_worker()
        self._busy.discard(worker)
        self._busy.add(new)
        self.replaced += 1
        return new

    def _retire(self, worker: _Worker) -> None:
        """End ``worker`` now and reap it in the background (its slot is the caller's)."""
        worker.end()
        self._retiring.add(worker)

        async def reap() -> None:
            await self._blocking(worker.reap)
            self._retiring.discard(worker)

        self._spawn_task(reap())

    async def _new_worker(self) -> _Worker:
        if self._state != "running":
            raise ShuttingDown()
        worker = await self._blocking(self._start_process)
        if self._state != "running":
            worker.end()
            raise ShuttingDown()
        return worker

    def _start_process(self) -> _Worker:
        context = _context()
        if self._preload and context.get_start_method() == "forkserver":
            # Read when the fork server starts (once per process): the jobs' imports
            # are then paid once, not by every worker.
            context.set_forkserver_preload(self._preload)
        mine, theirs = context.Pipe()
        # Not a daemon: an engine may start processes of its own (a daemon may not).
        process = context.Process(target=_work, args=(theirs,), name="exactmines-worker")
        process.start()
        theirs.close()
        return _Worker(process, mine)

    async def _reap(self) -> None:
        """Every so often: end idle workers beyond ``warm`` idle for ``idle`` seconds."""
        while True:
            await asyncio.sleep(min(1.0, self.limits.idle / 2))
            now = time.monotonic()
            for worker in sorted(self._idle, key=lambda w: w.idle_since):
                if self._live <= self.limits.warm:
                    break
                if now - worker.idle_since >= self.limits.idle:
                    self._idle.remove(worker)
                    self._live -= 1
                    self._retire(worker)

    # -- helpers --------------------------------------------------------------------------

    async def _blocking(self, call: Callable[[], T]) -> T:
        assert self._loop is not None
        return await self._loop.run_in_executor(self._threads, call)

    def _spawn_task(self, coroutine: Any) -> None:
        assert self._loop is not None
        task = self._loop.create_task(coroutine)
        self._tasks.add(task)  # a reference until done (the loop keeps only a weak one)
        task.add_done_callback(self._tasks.discard)

    def retry_after(self) -> int:
        """Whole seconds until the first running job must have ended (at least 1)."""
        now = time.monotonic()
        ends = [w.ends_at - now for w in self._busy]
        return max(1, math.ceil(min(ends, default=1.0)))

    def status(self) -> dict[str, Any]:
        """What ``/api/health`` shows: processes alive, running a job, callers waiting,
        workers replaced so far, and the resident memory of this process and its workers
        (bytes; ``None`` where the system does not tell)."""
        workers = [*self._idle, *self._busy]
        sizes = [process_rss(w.process.pid) for w in workers if w.alive]
        own = process_rss()
        memory = None if own is None or None in sizes else own + sum(s or 0 for s in sizes)
        return {"workers": len(workers), "busy": len(self._busy), "waiting": len(self._waiters),
                "replaced": self.replaced, "rss": memory}

    def pids(self) -> list[int]:
        """The worker processes' ids (for tests and benchmarks that watch them)."""
        return [w.process.pid for w in (*self._idle, *self._busy) if w.process.pid]


def _kill_all(pool_ref: weakref.ref[WorkerPool]) -> None:
    pool = pool_ref()
    if pool is None:
        return
    for worker in [*pool._idle, *pool._busy, *pool._retiring]:
        worker.end()
