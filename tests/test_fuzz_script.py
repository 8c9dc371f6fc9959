"""scripts/fuzz.py on a handful of inputs, so that the full fuzz cannot rot: it runs command
lines and requests to a real server, counts exit and status codes, keeps a hang with its
input and replays it, and an interrupted run keeps what it found."""

from __future__ import annotations

import base64
import importlib.util
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "fuzz.py"


def fuzz(*args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True,
                          timeout=timeout)


def test_a_handful_of_inputs_through_the_command_line_and_the_server(tmp_path):
    # Seed 2's first six: analyze, survey resuming a fuzzed results file, and two
    # requests.
    done = fuzz("--inputs", "6", "--seed", "2", "--out", str(tmp_path), "--progress", "0")
    assert done.returncode == 0, done.stdout + done.stderr[-3000:]
    assert "fuzz: 6 of 6 inputs (seed 2)" in done.stdout
    assert "4 command lines, 2 API requests" in done.stdout
    assert "command lines, exit codes: exit" in done.stdout
    assert "API requests, HTTP status codes: HTTP" in done.stdout
    for kind in ("traceback", "hang", "crash", "left", "5xx", "stderr", "accepted", "late",
                 "held"):
        assert f"\n{kind}: 0\n" in done.stdout
    assert "fuzz: 6/6 inputs, 0 findings" in done.stderr  # the progress line
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["done"] == 6 and summary["server_starts"] == 1
    assert sum(summary["exit_codes"].values()) == 4
    assert sum(summary["http_status"].values()) == 2
    assert set(summary["groups"]) >= {"analyze", "survey", "POST /api/analyze"}
    assert not (tmp_path / "findings").exists()


def test_a_hang_is_kept_with_its_input_and_replays(tmp_path):
    # No command starts within 10 ms: each is a hang, killed with its process group.
    done = fuzz("--inputs", "2", "--seed", "4", "--only", "cli", "--timeout", "0.01",
                "--out", str(tmp_path))
    assert done.returncode == 1
    assert "command lines, exit codes: hang x2" in done.stdout and "\nhang: 2\n" in done.stdout
    found = sorted((tmp_path / "findings").iterdir())
    assert [folder.name for folder in found] == ["00000-hang", "00001-hang"]
    first = found[0]
    record = json.loads((first / "case.json").read_text())
    assert record["label"] == "hang" and record["case"]["args"][0] == "analyze"
    assert (first / "replay.sh").read_text().splitlines()[1].startswith("exactmines analyze ")
    case = record["case"]
    assert case["source"] == "file"
    assert (first / f"input-{case['name']}").read_bytes() == base64.b64decode(case["data"])
    replayed = fuzz("--replay", str(first))
    assert replayed.stdout.startswith(f"{first}: was hang (hang); now exit ")


def test_an_interrupted_run_keeps_what_it_found(tmp_path):
    from test_signals import DEFAULT_SIGNALS

    # Started with Ctrl-C as a shell leaves it (a child inherits an ignored SIGINT from the
    # test run, and then runs to its end).
    script = ("import runpy; sys.argv = sys.argv[1:]; "
              "runpy.run_path(sys.argv[0], run_name='__main__')")
    process = subprocess.Popen([sys.executable, "-c", DEFAULT_SIGNALS + script, str(SCRIPT),
                                "--inputs", "100000", "--only", "cli", "--timeout", "0.01",
                                "--out", str(tmp_path)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    findings = tmp_path / "findings"
    deadline = time.monotonic() + 300
    while not (findings.exists() and len(os.listdir(findings)) >= 3):
        assert time.monotonic() < deadline and process.poll() is None
        time.sleep(0.1)
    process.send_signal(signal.SIGINT)
    out, _ = process.communicate(timeout=120)
    assert process.returncode == 130
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["interrupted"] and summary["done"] >= 3
    kept = sorted(str(folder) for folder in findings.iterdir())
    assert sorted(summary["findings"]["hang"]) == kept
    assert "of 100000 inputs (seed 0)" in out and "(interrupted)" in out


def test_what_counts_as_a_traceback_and_as_a_one_line_body():
    spec = importlib.util.spec_from_file_location("fuzz_script", SCRIPT)
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    sys.modules["fuzz_script"] = script
    spec.loader.exec_module(script)
    assert script.looks_like_traceback("x\nTraceback (most recent call last):\n  ...")
    assert script.looks_like_traceback('  File "/a/b.py", line 3, in f\n')
    assert not script.looks_like_traceback("exactmines: error: a.mine:1:1: bad File\n")
    assert script.one_line_body(b'{"error": "internal error: ValueError: x"}')
    assert not script.one_line_body(b'{"error": "a\\nb"}')
    assert not script.one_line_body(b"Internal Server Error\nTraceback (most recent...)\n")
    assert script.one_line_body(b"Internal Server Error")


def test_what_every_reader_must_refuse():
    sys.path.insert(0, str(SCRIPT.parent.parent / "tests"))
    from fuzzing import must_refuse

    rows = "HHH\nHHH\nHHH\n"
    for header in ("9x9x10 knight torus", "3x3x 1", "3x3x\u0661", "\uff13x3x1", "3 x3"):
        assert must_refuse((header + "\n" + rows).encode(), "a.mine"), header
    assert must_refuse(("[" * 100_000 + "]" * 100_000).encode(), "g.json")
    for fine in ("3x3x1\n" + rows, "3x3x1 torus\n" + rows, "xo\nox\n", "# c\n3x3\n" + rows):
        assert not must_refuse(fine.encode(), "a.mine"), fine
    assert not must_refuse(b"\x03\x03\x00\x01\x00\x00", "c.mbf")
