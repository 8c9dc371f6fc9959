"""A long run stopped by SIGINT or SIGTERM: every worker process ends with the command, the
command says so in one line, and the results file it leaves resumes to the full run.

Each test starts the real command in a subprocess with two worker processes, waits until
the workers run and a first chunk of rows is in the file, then sends the signal to the
command alone (as ``kill`` does; Ctrl-C would reach the workers too).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from exactmines.generate.positions import midgame_positions

DATA = Path(__file__).parent / "data"
# Runs long enough (about 9 s and 40 s unloaded) that the signal, sent once the first rows
# are written, always finds them running, however slowly this process gets to send it on
# a loaded machine: 6,000 boards (1.8 s) were sometimes all done first, and the run ended 0.
SURVEY = ["survey", "--width", "30", "--height", "16", "--mines", "99", "--boards", "30000",
          "--start", "safe", "--at", "0,0", "--seed", "1", "--workers", "2", "--quiet"]
PLAY = ["play", "--width", "16", "--height", "16", "--mines", "40", "--games", "20000",
        "--start", "safe", "--at", "0,0", "--seed", "1", "--workers", "2", "--quiet"]


def rows_in(out: Path) -> list[int]:
    """Ids of the complete rows of a results file (its first line is the meta line)."""
    if not out.exists():
        return []
    lines = out.read_text().split("\n")[:-1]
    return [json.loads(line)["id"] for line in lines[1:]]


#: What a shell gives the command it starts: Ctrl-C and SIGTERM neither ignored nor
#: blocked. A child inherits both from this process, at the instant it is started, and a
#: library in another thread of the test run (glibc's ``system()`` ignores SIGINT while its
#: command runs) could hand it SIGINT ignored: the run then ignored the signal and ended 0
#: (seen only in full runs on a loaded machine).
DEFAULT_SIGNALS = ("import signal, sys; "
                   "signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM}); "
                   "signal.signal(signal.SIGINT, signal.default_int_handler); "
                   "signal.signal(signal.SIGTERM, signal.SIG_DFL); ")


def exactmines(*args: str, death_signal: bool = True) -> list[str]:
    """The command line of ``exactmines ARGS`` (with the signals as a shell leaves them);
    without ``death_signal`` its workers do not ask Linux for a parent-death signal, so only
    the watchdog ends them."""
    switch = "" if death_signal else ("import exactmines.child as c; "
                                      "c.PARENT_DEATH_SIGNAL = False; ")
    return [sys.executable, "-c", DEFAULT_SIGNALS + switch + "from exactmines.ui.cli import "
            "main; sys.exit(main(sys.argv[1:]))", *args]


def _signal_state(pid: int) -> str:
    """The SIGINT/SIGTERM lines of a process's status (ignored, blocked), for a message."""
    try:
        with open(f"/proc/{pid}/status") as status:
            return " ".join(line.split()[0] + line.split()[1] for line in status
                            if line.startswith(("SigIgn", "SigBlk")))
    except OSError:
        return "gone"


def start_and_stop(args: list[str], out: Path, signum: int, death_signal: bool = True,
                   rows: int = 1) -> tuple[int, str]:
    """Run ``exactmines ARGS --out OUT``, send ``signum`` once two workers run and ``rows``
    rows are written; check that no child process outlives the command (by more than a
    second after SIGKILL, which leaves the workers to end themselves). The exit code and
    stderr."""
    command = subprocess.Popen(exactmines(*args, "--out", str(out), death_signal=death_signal),
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    parent = psutil.Process(command.pid)
    children: dict[int, psutil.Process] = {}
    deadline = time.monotonic() + 60
    try:
        while True:
            for child in parent.children(recursive=True):
                children[child.pid] = child
            if len(children) >= 2 and len(rows_in(out)) >= rows:
                break
            if command.poll() is not None:
                pytest.fail(f"the run ended before the signal: {command.stderr.read()}")
            if time.monotonic() > deadline:
                pytest.fail("no worker processes or rows within 60 s")
            time.sleep(0.02)
        state = _signal_state(command.pid)
        command.send_signal(signum)
        _, err = command.communicate(timeout=30)
        if command.returncode == 0:
            pytest.fail(f"the run ignored signal {signum} and ran to its end ({state}): {err}")
        if signum == signal.SIGKILL:
            time.sleep(1)
    finally:
        if command.poll() is None:
            command.kill()
            command.wait()
        alive = [c for c in children.values() if _running(c)]
        for child in alive:  # a failing run must not leave them to the next test either
            child.kill()
    assert alive == [], f"worker processes {[c.pid for c in alive]} outlived the command"
    return command.returncode, err


def _running(process: psutil.Process) -> bool:
    try:
        return process.is_running() and process.status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def finish(args: list[str], out: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "exactmines", *args, "--out", str(out),
                           "--resume"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_survey_stopped_by_a_signal_leaves_no_worker_and_resumes_to_every_board(tmp_path,
                                                                               signum):
    out = tmp_path / "survey.jsonl"
    code, err = start_and_stop(SURVEY, out, signum)
    assert code == 128 + signum
    assert err == (f"exactmines: interrupted; finished boards are kept in {out}, --resume "
                   "continues\n")
    kept = rows_in(out)
    assert 0 < len(kept) < 30000 and len(set(kept)) == len(kept)
    if signum == signal.SIGTERM:  # resuming once is enough: the file is the same kind
        finish(SURVEY, out)
        assert sorted(rows_in(out)) == list(range(30000))


def test_play_stopped_by_sigterm_leaves_no_worker(tmp_path):
    out = tmp_path / "play.jsonl"
    code, err = start_and_stop(PLAY, out, signal.SIGTERM)
    assert code == 128 + signal.SIGTERM and err.count("\n") == 1 and "interrupted" in err
    kept = rows_in(out)
    assert 0 < len(kept) < 20000 and len(set(kept)) == len(kept)


def test_batch_stopped_by_sigterm_leaves_no_worker_and_resumes(tmp_path):
    folder = tmp_path / "positions"
    folder.mkdir()
    for copy in range(150):
        for path in DATA.glob("*.mine"):
            shutil.copy(path, folder / f"{path.stem}-{copy}.mine")
    args = ["batch", str(folder), "--workers", "2", "--chunk-size", "8", "--quiet"]
    out = tmp_path / "batch.jsonl"
    code, err = start_and_stop(args, out, signal.SIGTERM)
    assert code == 128 + signal.SIGTERM and err.count("\n") == 1 and "interrupted" in err
    finish(args, out)
    assert len(rows_in(out)) == 750 and len(set(rows_in(out))) == 750
    assert sorted(os.listdir(tmp_path)) == ["batch.jsonl", "positions"]  # no temporary left


def big_positions(folder: Path, count: int) -> None:
    """``count`` 100x100 mid-game positions (ten, copied): each row of results is ~800 kB,
    so a worker stopped by a signal is often in the middle of sending one."""
    folder.mkdir()
    made = midgame_positions(100, 100, 1500, 1, 10, progress=0.3)
    for index in range(count):
        (folder / f"position-{index:03d}.mine").write_text(made[index % 10].text)


def test_sigterm_while_workers_send_big_rows_exits_143_every_time(tmp_path):
    # ProcessPoolExecutor waited for ever for the rest of a message cut short by a stopped
    # worker (5 hangs in 15 runs); each run here must end with 143 in seconds.
    big_positions(tmp_path / "positions", 60)
    args = ["batch", str(tmp_path / "positions"), "--workers", "2", "--chunk-size", "2",
            "--quiet"]
    for trial in range(6):
        out = tmp_path / f"batch-{trial}.jsonl"
        code, err = start_and_stop(args, out, signal.SIGTERM, rows=2 + 3 * trial)
        assert code == 128 + signal.SIGTERM, err
        assert err.count("\n") == 1 and "interrupted" in err
        assert out.read_text().endswith("\n")


@pytest.mark.parametrize("death_signal", [True, False], ids=["death-signal", "watchdog"])
@pytest.mark.parametrize("command", ["survey", "batch"])
def test_workers_end_when_their_parent_is_killed(tmp_path, command, death_signal):
    if command == "survey":
        args = SURVEY
    else:
        big_positions(tmp_path / "positions", 200)
        args = ["batch", str(tmp_path / "positions"), "--workers", "2", "--chunk-size", "2",
                "--quiet"]
    for trial in range(3):
        code, _ = start_and_stop(args, tmp_path / f"{trial}.jsonl", signal.SIGKILL,
                                 death_signal)
        assert code == -signal.SIGKILL
