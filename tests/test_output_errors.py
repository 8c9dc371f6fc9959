"""Output errors are not input errors: a full disk, a closed pipe and a write refused in the
middle of a run are reported as what they are (exit 1, never 2, which means bad input), in
one line, and the results file holds whole rows only (valid JSON lines as it is), so
--resume finishes it.

Each case runs the real command in a subprocess: the failures happen at the descriptor level.
"""

from __future__ import annotations

import json
import os
import resource
import signal
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from exactmines.generate.positions import midgame_positions
from exactmines.io import files
from exactmines.ui.cli import main

ROOT = Path(__file__).parent.parent
REFERENCE = ROOT / "instances" / "reference-9x9.mine"
SURVEY = ["survey", "--width", "9", "--height", "9", "--mines", "10", "--boards", "60",
          "--start", "safe", "--at", "0,0", "--seed", "3", "--quiet"]

pytestmark = pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")


def _exactmines(*args: str, timeout: float = 120, **kwargs) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "exactmines", *args], text=True,
                          stderr=subprocess.PIPE, timeout=timeout, **kwargs)


def _one_line(err: str) -> None:
    assert err.startswith("exactmines: error: ") and err.count("\n") == 1, err
    assert "Traceback" not in err


def test_stdout_on_a_full_disk_is_an_output_error():
    with open("/dev/full", "w") as full:
        done = _exactmines("analyze", str(REFERENCE), "--format", "json", stdout=full)
    assert done.returncode == 1
    _one_line(done.stderr)
    assert "standard output" in done.stderr and "No space left" in done.stderr


def test_a_closed_pipe_ends_quietly():
    # Enough output to fill the pipe (about 3 kB a row) after the reader has gone.
    args = ["analyze", *[str(REFERENCE)] * 200, "--format", "jsonl"]
    process = subprocess.Popen([sys.executable, "-m", "exactmines", *args], text=True,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdout is not None and process.stderr is not None
    assert process.stdout.read(8) == '{"file":'
    process.stdout.close()
    err = process.stderr.read()
    assert process.wait(timeout=120) == 1
    assert err == ""


def test_a_results_file_on_a_full_disk_is_an_output_error():
    done = _exactmines(*SURVEY, "--out", "/dev/full", stdout=subprocess.PIPE)
    assert done.returncode == 1
    _one_line(done.stderr)
    assert "/dev/full" in done.stderr and "resumed run" in done.stderr


def _limit_file_size() -> None:
    # A write past 3 kB fails with EFBIG, as on a disk that fills up during the run.
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (3000, 3000))


def test_a_write_refused_mid_run_keeps_the_rows_and_resume_completes(tmp_path):
    out = tmp_path / "survey.jsonl"
    done = _exactmines(*SURVEY, "--out", str(out), stdout=subprocess.PIPE,
                       preexec_fn=_limit_file_size)
    assert done.returncode == 1
    _one_line(done.stderr)
    assert "cannot write" in done.stderr
    text = out.read_text()
    assert text.endswith("\n")  # whole rows only: no torn last line to drop
    complete = [json.loads(line) for line in text.splitlines()]
    assert "meta" in complete[0] and 0 < len(complete) - 1 < 60

    resumed = _exactmines(*SURVEY, "--out", str(out), "--resume", stdout=subprocess.PIPE)
    assert resumed.returncode == 0, resumed.stderr
    rows = [json.loads(line) for line in out.read_text().splitlines()[1:]]
    assert sorted(row["id"] for row in rows) == list(range(60))


def test_a_write_refused_while_workers_run_ends_in_one_line_every_time(tmp_path):
    # Big rows (100x100 positions, ~800 kB each) on two workers: the refused write stops the
    # run while a worker is sending, which once left the command waiting for ever.
    folder = tmp_path / "positions"
    folder.mkdir()
    made = midgame_positions(100, 100, 1500, 1, 10, progress=0.3)
    for index in range(40):
        (folder / f"position-{index:03d}.mine").write_text(made[index % 10].text)
    args = ["batch", str(folder), "--workers", "2", "--chunk-size", "2", "--quiet"]

    def limit_to_3_mb() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (3_000_000, 3_000_000))

    for trial in range(5):
        out = tmp_path / f"batch-{trial}.jsonl"
        done = _exactmines(*args, "--out", str(out), stdout=subprocess.PIPE,
                           preexec_fn=limit_to_3_mb, timeout=60)
        assert done.returncode == 1
        _one_line(done.stderr)
        assert "File too large" in done.stderr
        text = out.read_text()
        assert text.endswith("\n") and 0 < len(text.splitlines()) - 1 < 40
        assert all(json.loads(line) for line in text.splitlines())
    resumed = _exactmines(*args, "--out", str(out), "--resume", stdout=subprocess.PIPE)
    assert resumed.returncode == 0, resumed.stderr
    assert len(out.read_text().splitlines()) == 41


NOGUESS = ROOT / "instances" / "noguess-9x9x10-seed1-000.mine"


@pytest.mark.parametrize("command", [
    ["convert", str(REFERENCE), "{missing}/board.mbf"],
    ["export", str(REFERENCE), "--to", "cnf", "--out", "{missing}/reference.cnf"],
    ["analyze", str(REFERENCE), "--image", "{missing}/reference.png"],
    ["solvable", str(NOGUESS), "--at", "0,0", "--stuck", "{missing}/stuck.mine"],
    [*SURVEY, "--out", "{missing}/survey.jsonl"],
    [*SURVEY, "--plot", "{missing}/survey.png"],
    ["batch", str(REFERENCE), "--out", "{missing}/batch.jsonl"],
], ids=["convert", "export", "image", "stuck", "survey", "plot", "batch"])
def test_a_missing_folder_is_a_usage_error_and_is_not_made(tmp_path, capsys, command):
    missing = tmp_path / "no" / "such"
    args = [arg.format(missing=missing) for arg in command]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"exactmines: error: {missing}/") and err.count("\n") == 1
    assert f"cannot write: the folder '{missing}' does not exist" in err
    assert list(tmp_path.iterdir()) == []


def test_generate_makes_the_folder_its_out_names(tmp_path, capsys):
    out = tmp_path / "new" / "instances"
    assert main(["generate", "position", "--width", "9", "--height", "9", "--mines", "10",
                 "--seed", "1", "--out", str(out)]) == 0
    assert sorted(p.suffix for p in out.iterdir()) == [".json", ".mine"]


# -- a name that is not a regular file: written into, never replaced -----------------------


def _drain(fifo: Path, got: list[bytes]) -> threading.Thread:
    def read() -> None:
        with open(fifo, "rb") as reader:
            got.append(reader.read())

    thread = threading.Thread(target=read, daemon=True)
    thread.start()
    return thread


def test_a_fifo_written_to_stays_a_fifo_and_its_reader_gets_the_file(tmp_path, capsys):
    # write_atomic renamed a temporary file over it: a FIFO (or, as root, /dev/null) became
    # a regular file.
    expected = tmp_path / "board.mine"
    assert main(["convert", str(NOGUESS), str(expected)]) == 0
    fifo = tmp_path / "fifo.mine"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = _drain(fifo, got)
    assert main(["convert", str(NOGUESS), str(fifo)]) == 0
    reader.join(10)
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert got == [expected.read_bytes()]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["board.mine", "fifo.mine"]


def test_a_fifo_nobody_reads_is_given_up_after_the_wait(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(files, "FIFO_WAIT", 0.3)
    fifo = tmp_path / "fifo.mine"
    os.mkfifo(fifo)
    assert main(["convert", str(NOGUESS), str(fifo)]) == 2
    err = capsys.readouterr().err
    assert err == (f"exactmines: error: {fifo}: cannot write: a FIFO, and nothing opened it "
                   "to read for 0.3 s\n")
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_a_symbolic_link_written_to_stays_a_link_to_the_new_file(tmp_path, capsys):
    (tmp_path / "boards").mkdir()
    real = tmp_path / "boards" / "board.mine"
    real.write_text("old")
    link = tmp_path / "board.mine"
    link.symlink_to(Path("boards") / "board.mine")
    assert main(["convert", str(NOGUESS), str(link)]) == 0
    assert link.is_symlink() and "\n9x9x10\n" in real.read_text()
    assert sorted(p.name for p in (tmp_path / "boards").iterdir()) == ["board.mine"]
