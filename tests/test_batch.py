"""The batch runner: order, streaming, resume, refusal to clobber, processes."""

from __future__ import annotations

import errno
import json
import os
import signal
import threading
import time

import pytest

from exactmines import runner
from exactmines.errors import InputError, ParameterError, WorkerLost
from exactmines.runner import read_rows, run_batch
from exactmines.stats import rate_summary, wilson_interval


def square(chunk):
    return [{"id": t["id"], "value": t["x"] * t["x"]} for t in chunk]


CALLS: list[int] = []


def counting_square(chunk):
    CALLS.extend(t["id"] for t in chunk)
    return square(chunk)


def failing_after_two(chunk):
    if chunk[0]["id"] >= 2:
        raise KeyboardInterrupt
    return square(chunk)


def dying_on_five(chunk):
    """The worker process running task 5 dies as a killed or out-of-memory one does."""
    if any(t["id"] == 5 for t in chunk):
        os.kill(os.getpid(), signal.SIGKILL)
    return square(chunk)


def raising_on_three(chunk):
    if any(t["id"] == 3 for t in chunk):
        raise ValueError("task three")
    return square(chunk)


class Unpicklable(Exception):
    """Pickled neither by its args (not what ``__init__`` takes) nor with its attributes (a
    lock), the way ``distributed`` makes exceptions pickle once imported."""

    def __init__(self, what: str, why: str) -> None:
        super().__init__(f"{what}: {why}")
        self.lock = threading.Lock()


def refusing_on_three(chunk):
    if any(t["id"] == 3 for t in chunk):
        raise ParameterError("x", 3, "three is not taken")
    return square(chunk)


def unpicklable_on_three(chunk):
    if any(t["id"] == 3 for t in chunk):
        raise Unpicklable("three", "not taken")
    return square(chunk)


TASKS = [{"id": i, "x": i} for i in range(10)]


@pytest.mark.parametrize("workers", [1, 2])
def test_rows_come_back_in_task_order(workers):
    rows = run_batch(TASKS, square, workers=workers, chunk_size=3, progress=False)
    assert [r["value"] for r in rows] == [i * i for i in range(10)]


def test_interrupted_run_keeps_finished_rows_and_resumes(tmp_path):
    out = tmp_path / "rows.jsonl"
    with pytest.raises(KeyboardInterrupt):
        run_batch(TASKS, failing_after_two, out=out, meta={"n": 10}, chunk_size=1,
                  progress=False)
    meta, rows = read_rows(out)
    assert meta == {"n": 10} and [r["id"] for r in rows] == [0, 1]
    with out.open("a") as handle:  # a torn last line, as a kill mid-write leaves
        handle.write('{"id": 2, "val')
    CALLS.clear()
    rows = run_batch(TASKS, counting_square, out=out, meta={"n": 10}, resume=True,
                     chunk_size=4, progress=False)
    assert list(range(2, 10)) == CALLS
    assert [r["value"] for r in rows] == [i * i for i in range(10)]
    lines = out.read_text().splitlines()
    assert len(lines) == 11 and all(json.loads(line) for line in lines)


def test_resumed_run_says_how_many_tasks_it_ran_and_for_how_long(tmp_path):
    out = tmp_path / "rows.jsonl"
    started = time.perf_counter()
    first = run_batch(TASKS[:4], square, out=out, meta={}, progress=False)
    assert first.ran == 4 and 0 < first.seconds <= time.perf_counter() - started
    rows = run_batch(TASKS, square, out=out, meta={}, resume=True, chunk_size=4, progress=False)
    assert rows.ran == 6 and len(rows) == 10  # a speed is rows.seconds / rows.ran
    done = run_batch(TASKS, square, out=out, meta={}, resume=True, progress=False)
    assert done.ran == 0 and done == rows


def test_a_dead_worker_process_stops_the_run_and_resume_completes_it(tmp_path):
    out = tmp_path / "rows.jsonl"
    with pytest.raises(WorkerLost, match=r"^a worker process died \(killed, or out of memory\); "
                                         r"the finished rows are kept in .*rows.jsonl and a "
                                         r"resumed run does the rest$"):
        run_batch(TASKS, dying_on_five, out=out, meta={}, workers=2, chunk_size=2,
                  progress=False)
    _, kept = read_rows(out)
    assert all(r["value"] == r["id"] ** 2 for r in kept) and 5 not in {r["id"] for r in kept}
    rows = run_batch(TASKS, square, out=out, meta={}, resume=True, workers=2, chunk_size=2,
                     progress=False)
    assert [r["value"] for r in rows] == [i * i for i in range(10)]
    ids = [json.loads(line)["id"] for line in out.read_text().splitlines()[1:]]
    assert sorted(ids) == list(range(10))  # every row exactly once


def test_existing_file_is_not_clobbered_and_other_runs_are_refused(tmp_path):
    out = tmp_path / "rows.jsonl"
    run_batch(TASKS[:3], square, out=out, meta={"n": 3}, progress=False)
    with pytest.raises(InputError, match="^resume: not given, but the results file"):
        run_batch(TASKS[:3], square, out=out, meta={"n": 3}, progress=False)
    with pytest.raises(InputError, match="other settings"):
        run_batch(TASKS[:3], square, out=out, meta={"n": 4}, resume=True, progress=False)


def test_malformed_results_file_names_the_line(tmp_path):
    out = tmp_path / "rows.jsonl"
    out.write_text('{"meta": {}}\nnot json\n{"id": 1}\n')
    with pytest.raises(InputError, match=r"rows.jsonl:2:"):
        read_rows(out)


def test_wilson_interval_contains_the_estimate_and_narrows():
    low, high = wilson_interval(40, 100)
    assert low < 0.4 < high
    low2, high2 = wilson_interval(4000, 10000)
    assert high2 - low2 < high - low
    assert wilson_interval(0, 10)[0] == 0.0 and wilson_interval(10, 10)[1] == 1.0
    assert rate_summary(1, 3)["fraction"] == "1/3"


def test_survey_speed_after_resume_counts_only_the_boards_checked_now(tmp_path, capsys):
    # The speed was the resumed part's time divided by every board of the file.
    from exactmines.ui.cli import main

    out = tmp_path / "survey.jsonl"
    args = ["survey", "--width", "8", "--height", "8", "--mines", "10", "--start", "safe",
            "--at", "0,0", "--seed", "2", "--quiet", "--out", str(out)]
    assert main([*args, "--boards", "100"]) == 0
    first = capsys.readouterr().out.splitlines()[-1]
    assert first.endswith("ms per board")  # nothing read back: no note
    assert main([*args, "--boards", "400", "--resume"]) == 0
    speed = capsys.readouterr().out.splitlines()[-1]
    assert speed.endswith(f"ms per board (the 300 checked now; 100 read from {out})")
    assert main([*args, "--boards", "400", "--resume", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["checked"] == 0


def test_an_exception_in_a_worker_is_raised_here_with_where_it_came_from():
    with pytest.raises(ValueError, match="^task three$") as raised:
        run_batch(TASKS, raising_on_three, workers=2, chunk_size=2, progress=False)
    assert "raising_on_three" in str(raised.value.__cause__)  # the worker's traceback
    with pytest.raises(ParameterError, match="^x 3: three is not taken$") as refused:
        run_batch(TASKS, refusing_on_three, workers=2, chunk_size=2, progress=False)
    assert refused.value.parameter == "x"
    with pytest.raises(RuntimeError, match="^Unpicklable: three: not taken$"):
        run_batch(TASKS, unpicklable_on_three, workers=2, chunk_size=2, progress=False)


def test_a_write_cut_short_leaves_whole_lines_only(tmp_path, monkeypatch):
    out = tmp_path / "rows.jsonl"
    results, _ = runner._open_output(out, {"n": 1}, resume=False)
    results.append('{"id": 0}\n')
    write = os.write
    calls = []

    def refused_half_way(fd, data):
        # As at a file size limit: the write that reaches it takes what fits, the next fails.
        calls.append(len(data))
        if len(calls) == 1:
            return write(fd, bytes(data[:len(data) // 2]))
        raise OSError(errno.EFBIG, "File too large")

    monkeypatch.setattr(runner.os, "write", refused_half_way)
    with pytest.raises(OSError):
        results.append('{"id": 1}\n{"id": 2}\n{"id": 3}\n')
    monkeypatch.undo()
    results.append('{"id": 4}\n')  # the next rows follow the last whole line
    results.close()
    assert out.read_text() == '{"meta": {"n": 1}}\n{"id": 0}\n{"id": 1}\n{"id": 4}\n'


def test_a_signal_just_after_a_whole_write_keeps_its_rows(tmp_path, monkeypatch):
    # SIGTERM's handler raised after the write had made it but before it was counted: the
    # chunk was taken back as torn, and a run stopped as its first rows appeared kept none
    # ("finished boards are kept", and the file held its meta line only).
    out = tmp_path / "rows.jsonl"
    results, _ = runner._open_output(out, {"n": 1}, resume=False)
    write = os.write

    def written_then_interrupted(fd, data):
        write(fd, data)
        raise KeyboardInterrupt  # as the handler does, before the count is stored

    monkeypatch.setattr(runner.os, "write", written_then_interrupted)
    with pytest.raises(KeyboardInterrupt):
        results.append('{"id": 0}\n{"id": 1}\n')
    monkeypatch.undo()
    results.append('{"id": 2}\n')
    results.close()
    assert out.read_text() == '{"meta": {"n": 1}}\n{"id": 0}\n{"id": 1}\n{"id": 2}\n'


#: Rows a resumed run cannot use, and what the one line says about each.
UNUSABLE_ROWS = [
    ({"id": [0]}, 'row whose "id" is not a whole number or a string'),
    ({"id": {"a": 1}}, 'row whose "id" is not a whole number or a string'),
    ({"id": True}, 'row whose "id" is not a whole number or a string'),
]


def _resume_with(tmp_path, capsys, command, row, message):
    """``command`` (ending in ``--out FILE --resume``) on a results file whose first row is
    ``row``: exit 2, one line naming the file and the line."""
    from exactmines.ui.cli import main

    out = tmp_path / "out.jsonl"
    assert main(command + ["--out", str(out), "--quiet"]) == 0
    meta, *_ = out.read_text().splitlines()
    out.write_text(f"{meta}\n{json.dumps(row)}\n")
    capsys.readouterr()
    assert main(command + ["--out", str(out), "--quiet", "--resume"]) == 2
    err = capsys.readouterr().err
    assert err == f"exactmines: error: {out}:2: {message}\n"


SURVEY = ["survey", "--width", "5", "--height", "5", "--mines", "5", "--boards", "3",
          "--start", "safe", "--at", "0,0", "--seed", "1"]
PLAY = ["play", "--width", "5", "--height", "5", "--mines", "3", "--games", "2",
        "--start", "safe", "--at", "0,0", "--seed", "1"]


@pytest.mark.parametrize(("row", "message"), UNUSABLE_ROWS + [
    ({"id": 0}, 'row without "solvable"'),
    ({"id": 0, "solvable": 1, "at": None}, 'row whose "solvable" is not true or false'),
    ({"id": 0, "solvable": True, "at": "0,0"}, 'row whose "at" is not a list or null'),
])
def test_a_survey_refuses_a_row_it_cannot_resume_from_in_one_line(tmp_path, capsys, row,
                                                                   message):
    # A KeyError or TypeError traceback before, exit 1 (found by scripts/fuzz.py).
    _resume_with(tmp_path, capsys, SURVEY, row, message)


@pytest.mark.parametrize(("row", "message"), UNUSABLE_ROWS + [
    ({"id": 0}, 'row without "won"'),
    ({"id": 0, "won": True, "guesses": 1.5, "endgame": 0, "cpu_ms": 1},
     'row whose "guesses" is not a whole number'),
    ({"id": 0, "won": True, "guesses": 1, "endgame": 0, "cpu_ms": "1"},
     'row whose "cpu_ms" is not a number'),
    ({"id": 0, "won": True, "guesses": 1, "endgame": 0, "cpu_ms": 1, "risk": 0.5},
     'row whose "risk" is not an object'),
    ({"id": 0, "won": True, "guesses": 1, "endgame": 0, "cpu_ms": 1,
      "risk": {"endgame": "x"}}, 'row with a "risk" whose "endgame" is not a number'),
])
def test_play_refuses_a_row_it_cannot_resume_from_in_one_line(tmp_path, capsys, row, message):
    _resume_with(tmp_path, capsys, PLAY, row, message)


@pytest.mark.parametrize(("row", "message"), UNUSABLE_ROWS + [
    ({"id": "x.mine"}, 'row without "consistent"'),
    ({"id": "x.mine", "consistent": True, "unique": "yes", "probabilities_computed": True,
      "seconds": 0.1}, 'row whose "unique" is not true or false or null'),
    ({"id": "x.mine", "error": 3}, 'row whose "error" is not a string'),
])
def test_batch_refuses_a_row_it_cannot_resume_from_in_one_line(tmp_path, capsys, row, message):
    from pathlib import Path

    position = Path(__file__).parent.parent / "instances" / "reference-9x9.mine"
    _resume_with(tmp_path, capsys, ["batch", str(position), "--workers", "1"], row, message)


def test_a_results_file_that_is_not_utf8_is_one_line_naming_the_line(tmp_path, capsys):
    # A UnicodeDecodeError traceback before, exit 1 (found by scripts/fuzz.py).
    from exactmines.ui.cli import main

    out = tmp_path / "out.jsonl"
    assert main([*SURVEY, "--out", str(out), "--quiet"]) == 0
    meta = out.read_bytes().splitlines()[0]
    out.write_bytes(meta + b'\n{"id": 0, "note": "\xff"}\n')
    capsys.readouterr()
    assert main([*SURVEY, "--out", str(out), "--quiet", "--resume"]) == 2
    assert capsys.readouterr().err == f"exactmines: error: {out}:2: not UTF-8 text\n"
    with pytest.raises(InputError, match=r":2: not UTF-8 text$"):
        read_rows(out)
