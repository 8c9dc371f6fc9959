"""Work in a child process that can be ended: answers, errors, the time limit, Ctrl-C, the
memory cap and the death of the parent. The functions below run in the child (it imports
this module by name)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import psutil
import pytest

from exactmines.budget import UNLIMITED, Budget
from exactmines.child import run_in_child
from exactmines.errors import ChildDied, OutOfTime, SolverError, TooLarge


def add(a: int, b: int, budget: Budget) -> tuple[int, bool]:
    return a + b, budget.limited


def sleep(seconds: float, budget: Budget) -> int:
    time.sleep(seconds)
    return os.getpid()


def pid(budget: Budget) -> int:
    return os.getpid()


def too_large(budget: Budget) -> None:
    raise TooLarge("too large (test)")


def crash(budget: Budget) -> None:
    os._exit(3)


def abort(budget: Budget) -> None:
    os.abort()  # what ms_toollib does on a damaged replay: end the whole process


def hog(budget: Budget) -> int:
    return len(bytearray(1 << 30))


def chatter(budget: Budget) -> str:
    print("noise on stdout")
    os.write(1, b"noise on fd 1\n")
    os.write(2, b"noise on fd 2\n")
    return "quiet"


def children() -> set[int]:
    return {child.pid for child in psutil.Process().children()}


def test_answers_come_back_and_the_child_is_kept():
    assert run_in_child(add, (2, 3), UNLIMITED, doing="adding") == (5, False)
    assert run_in_child(add, (2, 3), Budget.seconds(60), doing="adding") == (5, True)
    first = run_in_child(pid, (), UNLIMITED, doing="asking")
    assert run_in_child(pid, (), UNLIMITED, doing="asking") == first != os.getpid()


def test_a_child_started_by_a_thread_that_ended_serves_the_next_request():
    # Linux sends a child the parent-death signal when the thread that started it ends:
    # children are started by one long-lived thread, so this one is still there.
    from exactmines import child

    with child._idle_lock:  # no idle child: the thread below must start one
        while child._idle:
            child._idle.pop().end()
    answers = []
    thread = threading.Thread(target=lambda: answers.append(
        run_in_child(pid, (), UNLIMITED, doing="asking")))
    thread.start()
    thread.join()
    time.sleep(0.2)  # the signal, were it sent, has arrived
    assert run_in_child(pid, (), UNLIMITED, doing="asking") == answers[0]


def where(budget: Budget) -> str:
    import exactmines

    return exactmines.__file__


def test_the_child_runs_this_process_exactmines_not_one_in_the_working_folder(
        tmp_path, monkeypatch):
    # ``python -m`` puts the working folder first on the path: from a checkout of another
    # version, the child ran that version's code beside this one's.
    import exactmines
    from exactmines import child

    (tmp_path / "exactmines").mkdir()
    (tmp_path / "exactmines" / "__init__.py").write_text("raise ImportError('not this one')\n")
    monkeypatch.chdir(tmp_path)
    with child._idle_lock:  # a child started here, in this folder
        while child._idle:
            child._idle.pop().end()
    try:
        assert run_in_child(where, (), UNLIMITED, doing="asking") == exactmines.__file__
    finally:
        with child._idle_lock:
            while child._idle:
                child._idle.pop().end()


def test_errors_come_back_as_they_were(capfd):
    with pytest.raises(TooLarge, match="too large"):
        run_in_child(too_large, (), Budget.seconds(60), doing="failing")
    with pytest.raises(SolverError, match="ended without an answer .exit code 3"):
        run_in_child(crash, (), UNLIMITED, doing="crashing")
    with pytest.raises(TooLarge, match="out of memory"):
        run_in_child(hog, (), UNLIMITED, doing="hogging", memory=512 << 20)
    assert run_in_child(chatter, (), UNLIMITED, doing="talking") == "quiet"
    captured = capfd.readouterr()
    assert captured.out == "" and captured.err == ""


def test_a_child_that_dies_is_an_error_naming_the_work_and_the_signal(capfd):
    with pytest.raises(ChildDied, match="^the process reading x ended without an answer "
                                        r"\(killed by SIGABRT; "):
        run_in_child(abort, (), UNLIMITED, doing="reading x")
    with pytest.raises(ChildDied, match=r"\(exit code 3; "):
        run_in_child(crash, (), Budget.seconds(60), doing="crashing")
    assert run_in_child(add, (1, 1), UNLIMITED, doing="adding") == (2, False)  # a new child
    captured = capfd.readouterr()  # an abort writes nothing here
    assert captured.out == "" and captured.err == ""


def test_the_child_is_ended_when_the_budget_runs_out():
    before = children()
    started = time.monotonic()
    with pytest.raises(OutOfTime, match="^time limit reached while sleeping$"):
        run_in_child(sleep, (60,), Budget.seconds(0.5), doing="sleeping")
    assert time.monotonic() - started < 0.5 + 10  # generous: a loaded machine
    assert children() <= before
    with pytest.raises(OutOfTime):  # nothing is started on a spent budget
        run_in_child(sleep, (60,), Budget(0.0), doing="sleeping")
    assert children() <= before


def test_ctrl_c_ends_the_child():
    before = children()
    # Ctrl-C as a terminal gives it: Python's own handler, and the signal to the main thread
    # (os.kill may hand it to the timer's thread, which leaves the main one waiting).
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    timer = threading.Timer(1.0, signal.pthread_kill,
                            (threading.main_thread().ident, signal.SIGINT))
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            run_in_child(sleep, (60,), UNLIMITED, doing="sleeping")
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, previous)
    assert children() <= before


def test_the_child_dies_with_its_parent(tmp_path):
    # A parent killed outright (SIGKILL: no finally block runs) takes its child along.
    script = tmp_path / "parent.py"
    script.write_text(textwrap.dedent(f"""
        import sys
        sys.path.insert(0, {str(Path(__file__).parent)!r})
        from exactmines.budget import UNLIMITED
        from exactmines.child import run_in_child
        import test_child
        run_in_child(test_child.sleep, (120,), UNLIMITED, doing="sleeping")
    """))
    parent = subprocess.Popen([sys.executable, str(script)],
                              env=dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path)))
    try:
        deadline = time.monotonic() + 60
        while not psutil.Process(parent.pid).children() and time.monotonic() < deadline:
            time.sleep(0.1)
        (child,) = psutil.Process(parent.pid).children()
    finally:
        parent.kill()
        parent.wait()
    gone, _ = psutil.wait_procs([child], timeout=10)
    assert gone
