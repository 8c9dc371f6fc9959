"""Work in a child process that may die: a library that aborts the whole process on bad
input (ms_toollib's readers are built with ``panic = "abort"``), or a call that cannot be
interrupted and must stop when its time budget runs out.

:func:`run_in_child` forks, runs the work in the child and brings its result (or the
exception it raised) back pickled through a pipe; a child that dies without an answer is a
:class:`~exactmines.errors.ChildDied`, a child still working at the deadline is killed and
the caller gets :class:`~exactmines.errors.OutOfTime`. Knows nothing of Minesweeper.
"""

from __future__ import annotations

import contextlib
import faulthandler
import os
import pickle
import select
import signal
import sys
from collections.abc import Callable
from typing import TypeVar

from exactmines.budget import UNLIMITED, Budget
from exactmines.errors import ChildDied, OutOfTime

__all__ = ["run_in_child", "FORKS"]

T = TypeVar("T")

#: Whether this platform can fork; without it :func:`run_in_child` runs the work in this
#: process (a crash of the work then ends this process too).
FORKS = hasattr(os, "fork")


def run_in_child(work: Callable[[], T], *, what: str, budget: Budget = UNLIMITED) -> T:
    """``work()`` in a forked child; its value, or the exception it raised, comes back here.

    Parameters
    ----------
    work:
        What to run; its result and exceptions must pickle.
    what:
        A few words for the messages (``"reading the replay"``).
    budget:
        When it runs out the child is killed and :class:`OutOfTime` raised (the default:
        no limit).

    Raises
    ------
    ChildDied
        The child ended without an answer (killed by a signal, an abort inside a library);
        the message names ``what`` and the signal or exit status.

    Notes
    -----
    Cost: a fork (a few milliseconds; the child shares this process's memory copy-on-write)
    plus pickling the result. The child ignores Ctrl-C (the parent handles it and kills the
    child), dies with its parent on Linux, and writes nothing to the terminal: its standard
    output and error go to ``/dev/null``.
    """
    if not FORKS:
        return work()
    if budget.expired():
        raise OutOfTime(f"time limit reached before {what}")
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child (coverage does not follow it)
        status = 1
        try:
            os.close(read_end)
            signal.signal(signal.SIGINT, signal.SIG_IGN)
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            if sys.platform.startswith("linux"):
                import ctypes

                ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
            quiet = os.open(os.devnull, os.O_WRONLY)
            os.dup2(quiet, 1)
            os.dup2(quiet, 2)
            # An abort would have faulthandler (on under pytest, -X faulthandler) print a
            # traceback to the file it was given, the parent's terminal.
            faulthandler.disable()
            try:
                result: tuple[bool, object] = (True, work())
            except Exception as exc:  # noqa: BLE001 - sent to the parent and raised there
                result = (False, exc)
            data = memoryview(pickle.dumps(result, protocol=pickle.HIGHEST_PROTOCOL))
            while data:
                data = data[os.write(write_end, data):]
            status = 0
        finally:
            os._exit(status)
    os.close(write_end)
    chunks: list[bytes] = []
    finished = False
    try:
        while True:
            if budget.limited:
                left = budget.remaining()
                if left <= 0 or not select.select([read_end], [], [], left)[0]:
                    raise OutOfTime(f"time limit reached while {what}")
            chunk = os.read(read_end, 1 << 20)
            if not chunk:
                break
            chunks.append(chunk)
        finished = True
    finally:
        os.close(read_end)
        if not finished:
            with contextlib.suppress(ProcessLookupError):  # already gone
                os.kill(pid, signal.SIGKILL)
        _, status = os.waitpid(pid, 0)
    if not chunks:
        raise ChildDied(f"the process {what} ended without an answer ({_ending(status)})")
    ok, payload = pickle.loads(b"".join(chunks))
    if not ok:
        raise payload  # type: ignore[misc]
    return payload  # type: ignore[no-any-return]


def _ending(status: int) -> str:
    """How a child ended, from its wait status: ``"killed by SIGABRT"``, ``"exit status 1"``."""
    if os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        try:
            return f"killed by {signal.Signals(number).name}"
        except ValueError:
            return f"killed by signal {number}"
    return f"exit status {os.WEXITSTATUS(status)}"
