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

DATA = Path(__file__).parent / "data"
SURVEY = ["survey", "--width", "30", "--height", "16", "--mines", "99", "--boards", "6000",
          "--start", "safe", "--at", "0,0", "--seed", "1", "--workers", "2", "--quiet"]
PLAY = ["play", "--width", "16", "--height", "16", "--mines", "40", "--games", "2000",
        "--start", "safe", "--at", "0,0", "--seed", "1", "--workers", "2", "--quiet"]


def rows_in(out: Path) -> list[int]:
    """Ids of the complete rows of a results file (its first line is the meta line)."""
    if not out.exists():
        return []
    lines = out.read_text().split("\n")[:-1]
    return [json.loads(line)["id"] for line in lines[1:]]


def start_and_stop(args: list[str], out: Path, signum: int) -> tuple[int, str]:
    """Run ``exactmines ARGS --out OUT``, send ``signum`` once two workers run and rows are
    written; check that no child process outlives the command. The exit code and stderr."""
    command = subprocess.Popen([sys.executable, "-m", "exactmines", *args, "--out", str(out)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    parent = psutil.Process(command.pid)
    children: dict[int, psutil.Process] = {}
    deadline = time.monotonic() + 60
    try:
        while True:
            for child in parent.children(recursive=True):
                children[child.pid] = child
            if len(children) >= 2 and rows_in(out):
                break
            if command.poll() is not None:
                pytest.fail(f"the run ended before the signal: {command.stderr.read()}")
            if time.monotonic() > deadline:
                pytest.fail("no worker processes or rows within 60 s")
            time.sleep(0.02)
        command.send_signal(signum)
        _, err = command.communicate(timeout=30)
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
    assert 0 < len(kept) < 6000 and len(set(kept)) == len(kept)
    if signum == signal.SIGTERM:  # resuming once is enough: the file is the same kind
        finish(SURVEY, out)
        assert sorted(rows_in(out)) == list(range(6000))


def test_play_stopped_by_sigterm_leaves_no_worker(tmp_path):
    out = tmp_path / "play.jsonl"
    code, err = start_and_stop(PLAY, out, signal.SIGTERM)
    assert code == 128 + signal.SIGTERM and err.count("\n") == 1 and "interrupted" in err
    kept = rows_in(out)
    assert 0 < len(kept) < 2000 and len(set(kept)) == len(kept)


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
