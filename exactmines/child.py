"""Work that cannot be interrupted, run in a child process that can be ended.

A solver call in C (Ganak) never returns to Python until it is done, so a time limit cannot
be checked inside it; :func:`run_in_child` runs such work in a process of its own and ends
that process when the budget runs out (SIGTERM, then SIGKILL), when this process is
interrupted (Ctrl-C, or SIGTERM turned into an exception), or when it dies (on Linux the
child is killed with its parent). The child's memory is bounded (``RLIMIT_AS``) and its
output silenced.

A child is a fresh interpreter (``python -m exactmines.child``) that serves one request at a
time over a pipe, not a fork: a fork of a threaded process (a web server, a Dask client)
copies its locks in whatever state they are in, and multiprocessing's spawn and forkserver
re-run the caller's main script, which fails when it came from standard input and runs
again a script without a ``__main__`` guard. A child that answered in time is kept for the
next request (starting one costs about 0.3 s of imports); one that ran out of time is
killed, and the next request starts another.

The same child runs code that may take its whole process down: ms_toollib's replay readers
stop their process on a damaged file (the library is built with ``panic = "abort"``). A
child that ends without an answer is a :class:`~exactmines.errors.ChildDied` naming the
work and how it ended (``killed by SIGABRT``, ``exit code 3``); the caller, which knows what
the child was reading, turns it into its own error.

The command line's local workers (:mod:`exactmines.runner`) follow the same rules: they
start with :func:`worker_start` and are given :data:`TERM_GRACE` between SIGTERM and
SIGKILL. The web server's pool (``ui/web/workers.py``) differs on purpose: it kills a
request's worker at once when its time is up (a response is due), recycles workers by
memory, and starts them from a fork server; CONTRIBUTING ("Processes") has the table.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import importlib
import os
import pickle
import select
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from typing import IO, Any, TypeVar

from exactmines.budget import UNLIMITED, Budget
from exactmines.errors import ChildDied, OutOfTime, TooLarge

__all__ = ["run_in_child", "worker_start", "MEMORY", "TERM_GRACE"]

#: Bytes of address space a child may map (``RLIMIT_AS``): past it its allocations fail
#: and the work ends with an error, instead of the machine swapping.
MEMORY = 4 << 30
#: Seconds a process its parent ends has between SIGTERM and SIGKILL: a child here, a
#: local worker of :mod:`exactmines.runner` (one rule for both).
TERM_GRACE = 0.5
#: ``PR_SET_PDEATHSIG`` of ``<linux/prctl.h>``: the signal a process gets when its parent dies.
_PR_SET_PDEATHSIG = 1
#: Whether workers ask for it (Linux only; off in a test of the runner's watchdog alone).
PARENT_DEATH_SIGNAL = sys.platform.startswith("linux")
#: Seconds between two looks at a request's ``cancel`` event while its answer is awaited.
_CANCEL_POLL = 0.02
#: Idle children kept for later requests.
_IDLE = 2

T = TypeVar("T")


class _Child:
    """One child interpreter and its two pipes (requests in, answers out)."""

    def __init__(self, memory: int) -> None:
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
        self.memory = memory
        # Started by one thread that lives as long as this process: Linux sends the
        # parent-death signal when the *thread* that started a child ends, so a child
        # started by a passing thread died with it, and was not there for the next request
        # (it cost an intermediate zini board 0.3 s of imports, each board).
        self.process = _spawner().submit(
            subprocess.Popen,
            # -P: the working folder is not put first on the child's path, so an
            # ``exactmines`` folder there (another version's checkout) is not imported
            # instead of this process's own (its path is the child's PYTHONPATH).
            [sys.executable, "-P", "-m", "exactmines.child", str(memory), str(os.getpid())],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            # A group of its own: Ctrl-C at a terminal reaches the parent alone, and ending
            # the group ends whatever the child started.
            env=env, start_new_session=True).result()
        assert self.process.stdin is not None and self.process.stdout is not None
        self.requests: IO[bytes] = self.process.stdin
        self.answers: IO[bytes] = self.process.stdout

    def ask(self, request: tuple[Any, ...], budget: Budget, doing: str,
            cancel: threading.Event | None = None) -> tuple[bool, Any]:
        """Send ``request``; the answer, or :class:`OutOfTime` once ``budget`` runs out or
        ``cancel`` is set (the caller then ends the child). Sending is bounded too: a
        large request fills the pipe until the child, perhaps still starting, reads it."""
        data = _framed(request)
        fd = self.requests.fileno()
        os.set_blocking(fd, False)
        sent = 0
        while sent < len(data):
            self._wait(fd, budget, doing, writing=True, cancel=cancel)
            try:
                sent += os.write(fd, data[sent:sent + (1 << 20)])
            except BlockingIOError:
                continue
        self._wait(self.answers.fileno(), budget, doing, writing=False, cancel=cancel)
        return _read(self.answers)  # type: ignore[return-value]

    @staticmethod
    def _wait(fd: int, budget: Budget, doing: str, *, writing: bool,
              cancel: threading.Event | None = None) -> None:
        """Until ``fd`` is ready, or :class:`OutOfTime` once ``budget`` runs out or
        ``cancel`` is set (looked at every :data:`_CANCEL_POLL` seconds)."""
        while True:
            wait = budget.remaining() if budget.limited else None
            if wait == 0:
                raise OutOfTime(f"time limit reached while {doing}")
            if cancel is not None:
                if cancel.is_set():
                    raise OutOfTime(f"{doing} was no longer needed")
                wait = _CANCEL_POLL if wait is None else min(wait, _CANCEL_POLL)
            ready = select.select([], [fd], [], wait) if writing else \
                select.select([fd], [], [], wait)
            if ready[1 if writing else 0]:
                return

    def end(self) -> None:
        """End the child and every process it started (its process group: a solver it
        runs, such as CBC): SIGTERM, then SIGKILL."""
        process = self.process
        if process.poll() is None:
            _signal_group(process.pid, signal.SIGTERM)
            try:
                process.wait(TERM_GRACE)
            except subprocess.TimeoutExpired:
                _signal_group(process.pid, signal.SIGKILL)
                process.wait()
        self.requests.close()
        self.answers.close()


def _signal_group(leader: int, signum: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):  # the group has ended
        os.killpg(leader, signum)


_idle: list[_Child] = []
_idle_lock = threading.Lock()
_spawning: concurrent.futures.ThreadPoolExecutor | None = None
_spawn_lock = threading.Lock()


def _spawner() -> concurrent.futures.ThreadPoolExecutor:
    """The one thread that starts every child (see :class:`_Child`), kept waiting for work
    until this process exits."""
    global _spawning
    with _spawn_lock:
        if _spawning is None:
            _spawning = concurrent.futures.ThreadPoolExecutor(
                1, thread_name_prefix="exactmines-spawn")
        return _spawning


def _forget_spawner() -> None:
    """In a forked copy of this process: the spawner's thread was not copied."""
    global _spawning, _spawn_lock
    _spawning, _spawn_lock = None, threading.Lock()


os.register_at_fork(after_in_child=_forget_spawner)


def run_in_child(work: Callable[..., T], args: tuple[Any, ...], budget: Budget, *,
                 doing: str, memory: int = MEMORY, cancel: threading.Event | None = None) -> T:
    """``work(*args, budget)`` in a child process, ended when ``budget`` runs out, or when
    ``cancel`` (set from another thread) is set: the answer is no longer needed.

    ``work`` must be a module-level function (it is sent by name) and ``args`` picklable;
    the child gets the seconds that remain as its own budget. Costs a pickle of ``args``
    and of the result, and, when no idle child is waiting, a child's start.

    Raises
    ------
    OutOfTime
        When the budget runs out first (``doing`` says what was stopped), or ``cancel``
        was set.
    TooLarge
        When the work ran out of its memory cap of ``memory`` bytes (in Python: a solver
        that crashes on it is a :class:`~exactmines.errors.ChildDied`).
    ChildDied
        When the child ended without an answer (a crash, an abort inside a library): a
        :class:`~exactmines.errors.SolverError`, the message naming ``doing`` and the
        signal or exit code. An exception raised by ``work`` is raised here as it was.
    """
    budget.check(doing)
    child = None
    with _idle_lock:
        while _idle and child is None:
            candidate = _idle.pop()
            if candidate.memory == memory and candidate.process.poll() is None:
                child = candidate
            else:
                candidate.end()
    if child is None:
        child = _Child(memory)
    seconds = budget.remaining() if budget.limited else None
    request = (work.__module__, work.__qualname__, args, seconds)
    answered = False
    try:
        try:
            ok, payload = child.ask(request, budget, doing, cancel)
        except (EOFError, BrokenPipeError, pickle.UnpicklingError):
            ending = _ending(child.process.wait())
            raise ChildDied(f"the process {doing} ended without an answer ({ending}; its "
                            f"memory is capped at {memory >> 20} MB)") from None
        answered = True
    finally:
        if answered:
            with _idle_lock:
                if len(_idle) < _IDLE:
                    _idle.append(child)
                    child = None
        if child is not None:
            child.end()
    if not ok:
        raise payload
    return payload  # type: ignore[no-any-return]


def _ending(code: int) -> str:
    """How a child ended, from its return code: ``"killed by SIGABRT"``, ``"exit code 3"``."""
    if code >= 0:
        return f"exit code {code}"
    try:
        return f"killed by {signal.Signals(-code).name}"
    except ValueError:
        return f"killed by signal {-code}"


def _framed(value: object) -> bytes:
    """``value`` pickled, after its length in 8 bytes."""
    data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    return len(data).to_bytes(8, "little") + data


def _write(stream: IO[bytes], value: object) -> None:
    stream.write(_framed(value))
    stream.flush()


def _read(stream: IO[bytes]) -> object:
    head = stream.read(8)
    if len(head) < 8:
        raise EOFError
    size = int.from_bytes(head, "little")
    data = stream.read(size)
    if len(data) < size:
        raise EOFError
    return pickle.loads(data)  # noqa: S301 - our own child's answer


def worker_start(parent: int) -> None:  # pragma: no cover - runs in a worker
    """The start of a worker process whose parent is the process ``parent``, the one rule
    of this module's children and :mod:`exactmines.runner`'s local workers: the parent
    alone handles Ctrl-C and SIGTERM (it ends its workers itself; a worker that raised
    KeyboardInterrupt would only report it), and on Linux the worker dies with its parent,
    even a parent killed outright (:data:`PARENT_DEATH_SIGNAL`)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if PARENT_DEATH_SIGNAL:
        import ctypes

        # No prctl in this C library: the parent's own clean-up (and the runner's watchdog)
        # remain.
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:  # the parent died before the line above
        os._exit(1)


def _serve(memory: int, parent: int) -> None:  # pragma: no cover - runs in the child
    """The child's loop: bounded, silent, ended by its parent alone."""
    worker_start(parent)
    try:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    except (ImportError, ValueError, OSError):
        pass  # no such limit here: the parent's clock still holds
    requests = os.fdopen(os.dup(0), "rb")
    answers = os.fdopen(os.dup(1), "wb")
    quiet = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):  # a solver that prints must not write into the answers
        os.dup2(quiet, fd)
    while True:
        try:
            request: tuple[str, str, tuple[Any, ...], float | None] = _read(  # type: ignore[assignment]
                requests)
        except EOFError:
            return  # the parent closed the pipe: done
        module, name, args, seconds = request
        budget = UNLIMITED if seconds is None else Budget(time.monotonic() + seconds)
        try:
            work = getattr(importlib.import_module(module), name)
            answer: tuple[bool, object] = (True, work(*args, budget))
        except MemoryError:
            answer = (False, TooLarge(f"out of memory (capped at {memory >> 20} MB)"))
        except Exception as exc:  # noqa: BLE001 - sent to the parent and raised there
            answer = (False, exc)
        _write(answers, answer)


if __name__ == "__main__":  # pragma: no cover - the child
    _serve(int(sys.argv[1]), int(sys.argv[2]))
