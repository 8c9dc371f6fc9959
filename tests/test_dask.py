"""The Dask path against a real LocalCluster (2 worker processes, 1 thread each) started here.

One cluster for the module: starting one costs about a second (more on a loaded machine).
"""

from __future__ import annotations

import importlib
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from functools import partial
from pathlib import Path

import pytest
from dask.distributed import LocalCluster
from golden import normalised

from exactmines.errors import InputError
from exactmines.runner import read_rows, run_batch
from exactmines.ui.cli import main
from exactmines.words import plural

DATA = Path(__file__).parent / "data"
GOLDEN = sorted(DATA.glob("*.mine"))


@pytest.fixture(scope="module")
def scheduler():
    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                           dashboard_address=None)
    try:
        yield cluster.scheduler_address
    finally:
        cluster.close()


def square_with_pid(chunk):
    """Test work: runs in the worker processes (importable there: same sys.path)."""
    return [{"id": t["id"], "value": t["x"] * t["x"], "pid": os.getpid()} for t in chunk]


def offset_square(offset, chunk):
    return [{"id": t["id"], "value": offset + t["x"] * t["x"]} for t in chunk]


def fail_on_seven(chunk):
    if any(t["id"] == 7 for t in chunk):
        raise ValueError("seven")
    return square_with_pid(chunk)


TASKS = [{"id": i, "x": i} for i in range(40)]


def test_rows_come_back_in_task_order_from_two_worker_processes(scheduler):
    rows = run_batch(TASKS, square_with_pid, scheduler=scheduler, chunk_size=2,
                     progress=False)
    assert [r["value"] for r in rows] == [i * i for i in range(40)]
    pids = {r["pid"] for r in rows}
    assert os.getpid() not in pids and len(pids) == 2  # the work really ran on the cluster


def test_work_bound_to_its_settings_with_partial_runs_on_the_cluster(scheduler):
    # survey and play send partial(check_boards, meta): the workers check must name the
    # function inside the partial (a partial has no __qualname__).
    rows = run_batch(TASKS[:6], partial(offset_square, 100), scheduler=scheduler,
                     chunk_size=2, progress=False)
    assert [r["value"] for r in rows] == [100 + i * i for i in range(6)]


def test_dask_run_streams_and_resumes(scheduler, tmp_path):
    out = tmp_path / "rows.jsonl"
    # An earlier run finished ids 0-9 (marked with value -1) before it was interrupted.
    out.write_text(json.dumps({"meta": {"n": 40}}) + "\n"
                   + "".join(json.dumps({"id": i, "value": -1}) + "\n" for i in range(10))
                   + '{"id": 10, "va')
    rows = run_batch(TASKS, square_with_pid, out=out, meta={"n": 40}, resume=True,
                     scheduler=scheduler, chunk_size=4, progress=False)
    assert [r["value"] for r in rows] == [-1] * 10 + [i * i for i in range(10, 40)]
    meta, written = read_rows(out)
    assert meta == {"n": 40} and sorted(r["id"] for r in written) == list(range(40))


def test_a_failing_chunk_stops_the_run_and_keeps_the_finished_rows(scheduler, tmp_path):
    out = tmp_path / "rows.jsonl"
    with pytest.raises(ValueError, match="seven"):
        run_batch(TASKS, fail_on_seven, out=out, meta={}, scheduler=scheduler, chunk_size=1,
                  progress=False)
    _, written = read_rows(out)
    assert 7 not in {r["id"] for r in written}
    assert all(r["value"] == r["id"] ** 2 for r in written)


def test_nothing_left_to_do_needs_no_cluster(tmp_path):
    out = tmp_path / "rows.jsonl"
    run_batch(TASKS[:3], square_with_pid, out=out, meta={}, progress=False)
    # Resuming a finished run does not even try the (unreachable) scheduler.
    rows = run_batch(TASKS[:3], square_with_pid, out=out, meta={}, resume=True,
                     scheduler="tcp://127.0.0.1:1", progress=False)
    assert [r["value"] for r in rows] == [0, 1, 4]


def test_workers_that_cannot_load_the_work_are_refused_not_waited_for(scheduler, tmp_path,
                                                                       monkeypatch):
    # A module the client can import and the (already running) workers cannot: without the
    # check, the worker fails to unpickle the task inside Dask and the run hangs.
    (tmp_path / "only_on_the_client.py").write_text(
        "def work(chunk):\n    return [{'id': t['id']} for t in chunk]\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    module = importlib.import_module("only_on_the_client")
    with pytest.raises(InputError, match=r"2 of 2 Dask workers cannot load "
                                         r"only_on_the_client:work"):
        run_batch(TASKS, module.work, scheduler=scheduler, progress=False)


def closed_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_unreachable_or_malformed_scheduler_is_one_clear_line(capsys, tmp_path):
    address = f"tcp://127.0.0.1:{closed_port()}"
    with pytest.raises(InputError, match="cannot reach the Dask scheduler"):
        run_batch(TASKS, square_with_pid, scheduler=address, progress=False)
    code = main(["batch", str(DATA), "--out", str(tmp_path / "r.jsonl"), "--scheduler",
                 "127.0.0.1"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "expected tcp://HOST:PORT" in err


def test_batch_command_on_the_cluster_matches_the_golden_answers(scheduler, tmp_path,
                                                                   capsys):
    folder = tmp_path / "positions"
    folder.mkdir()
    for path in GOLDEN:
        shutil.copy(path, folder / path.name)
    out = tmp_path / "results.jsonl"
    code = main(["batch", str(folder), "--out", str(out), "--scheduler", scheduler,
                 "--chunk-size", "2", "--format", "json"])
    assert code == 0
    assert json.loads(capsys.readouterr().out)["files"] == len(GOLDEN)
    _, rows = read_rows(out)
    assert len(rows) == len(GOLDEN)
    for row in rows:
        expected = json.loads((DATA / Path(row["file"]).name).with_suffix(".json").read_text())
        assert normalised({k: v for k, v in row.items() if k != "id"}) == expected


def cli_json(capsys, *args):
    code = main([str(a) for a in args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


SURVEY = ["survey", "--width", 8, "--height", 8, "--mines", 10, "--boards", 600,
          "--start", "safe", "--at", "0,0", "--seed", 3, "--quiet", "--format", "json"]
PLAY = ["play", "--width", 8, "--height", 8, "--mines", 10, "--games", 24, "--start", "safe",
        "--at", "0,0", "--seed", 5, "--quiet", "--format", "json"]


def without_time(rows, *keys):
    return sorted(({k: v for k, v in r.items() if k not in keys} for r in rows),
                  key=lambda r: r["id"])


def test_survey_command_on_the_cluster_matches_a_local_run(scheduler, tmp_path, capsys):
    code, text, _ = cli_json(capsys, *SURVEY, "--out", tmp_path / "local.jsonl")
    assert code == 0
    local = json.loads(text)
    code, text, err = cli_json(capsys, *SURVEY, "--out", tmp_path / "dask.jsonl",
                               "--scheduler", scheduler)
    assert code == 0 and err == ""
    remote = json.loads(text)
    assert {k: v for k, v in remote.items() if k not in ("seconds", "out")} == \
        {k: v for k, v in local.items() if k not in ("seconds", "out")}
    assert ids_exactly_once(tmp_path / "dask.jsonl", 600)
    assert without_time(read_rows(tmp_path / "dask.jsonl")[1]) == \
        without_time(read_rows(tmp_path / "local.jsonl")[1])


def test_play_command_on_the_cluster_matches_a_local_run(scheduler, tmp_path, capsys):
    code, text, _ = cli_json(capsys, *PLAY, "--out", tmp_path / "local.jsonl")
    assert code == 0
    local = json.loads(text)
    code, text, err = cli_json(capsys, *PLAY, "--out", tmp_path / "dask.jsonl",
                               "--scheduler", scheduler)
    assert code == 0 and err == ""
    remote = json.loads(text)
    assert remote["games"] == 24
    assert (remote["wins"], remote["guesses_per_game"]) == \
        (local["wins"], local["guesses_per_game"])
    assert without_time(read_rows(tmp_path / "dask.jsonl")[1], "cpu_ms") == \
        without_time(read_rows(tmp_path / "local.jsonl")[1], "cpu_ms")


def test_replay_command_on_the_cluster_matches_a_local_run(scheduler, tmp_path, capsys):
    # Each replay is read in a child process of the Dask worker (ms_toollib aborts on a
    # damaged file): that file is one error row, the others are judged as locally.
    replays = DATA / "replays" / "public"
    code, _, _ = cli_json(capsys, "replay", replays, "--out", tmp_path / "local.jsonl", "-q",
                          "--workers", 1)
    assert code == 2
    code, text, err = cli_json(capsys, "replay", replays, "--out", tmp_path / "dask.jsonl",
                               "--scheduler", scheduler, "--format", "json")
    assert code == 2 and err.count("exactmines: error:") == 2
    assert json.loads(text)["errors"] == 1
    assert without_time(read_rows(tmp_path / "dask.jsonl")[1], "seconds") == \
        without_time(read_rows(tmp_path / "local.jsonl")[1], "seconds")


def check_boards_killing_its_worker(marker, victim, meta, chunk):
    """survey's work, except that the worker running board ``victim`` dies (SIGKILL): once
    when ``marker`` names a file to create, every time when it is None."""
    from exactmines.solvability.survey import check_boards

    if any(t["id"] == victim for t in chunk) and (marker is None or not os.path.exists(marker)):
        if marker is not None:
            Path(marker).touch()
        os.kill(os.getpid(), signal.SIGKILL)
    return check_boards(meta, chunk)


def ids_exactly_once(path, count):
    lines = Path(path).read_text().splitlines()
    ids = [json.loads(line)["id"] for line in lines[1:]]
    return sorted(ids) == list(range(count))


def test_a_worker_killed_once_is_recovered_every_board_once(scheduler, tmp_path, capsys,
                                                           monkeypatch):
    import exactmines.solvability.survey as survey

    code, _, _ = cli_json(capsys, *SURVEY, "--out", tmp_path / "local.jsonl")
    assert code == 0
    monkeypatch.setattr(survey, "check_boards",
                        partial(check_boards_killing_its_worker, str(tmp_path / "killed"), 250))
    out = tmp_path / "dask.jsonl"
    code, text, err = cli_json(capsys, *SURVEY, "--out", out, "--scheduler", scheduler)
    assert (tmp_path / "killed").exists()  # a worker really died mid-run
    assert code == 0 and err == "" and json.loads(text)["boards"] == 600
    assert ids_exactly_once(out, 600)
    assert without_time(read_rows(out)[1]) == without_time(read_rows(tmp_path / "local.jsonl")[1])


def test_a_chunk_that_kills_every_worker_fails_in_one_line_and_resume_completes(
        scheduler, tmp_path, capsys, monkeypatch):
    import exactmines.solvability.survey as survey

    out = tmp_path / "dask.jsonl"
    with monkeypatch.context() as patch:
        patch.setattr(survey, "check_boards",
                      partial(check_boards_killing_its_worker, None, 250))
        code, text, err = cli_json(capsys, *SURVEY, "--out", out, "--scheduler", scheduler)
    assert code == 1 and text == "" and err.count("\n") == 1
    # The chunk holding board 250 kills its worker; Dask may give up first on another chunk
    # that was on the same worker each time it died, so the line names some chunk.
    assert re.search(r"Dask workers died each time they ran tasks \d+-\d+", err)
    assert f"finished rows are kept in {out}" in err
    _, kept = read_rows(out)
    assert 250 not in {r["id"] for r in kept}
    code, text, err = cli_json(capsys, *SURVEY, "--out", out, "--scheduler", scheduler,
                               "--resume")
    assert code == 0 and err == "" and json.loads(text)["boards"] == 600
    assert ids_exactly_once(out, 600)
    code, _, _ = cli_json(capsys, *SURVEY, "--out", tmp_path / "local.jsonl")
    assert without_time(read_rows(out)[1]) == without_time(read_rows(tmp_path / "local.jsonl")[1])


@pytest.fixture
def lone_scheduler():
    """A scheduler with no worker of its own, for workers started without a nanny."""
    cluster = LocalCluster(n_workers=0, processes=True, dashboard_address=None)
    try:
        yield cluster.scheduler_address
    finally:
        cluster.close()


def start_workers(scheduler: str, count: int) -> list[subprocess.Popen]:
    """``count`` Dask workers without a nanny (a killed one stays dead), each one thread,
    importing this test module like the cluster's own workers; returns once they joined."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(Path(__file__).parent), str(Path(__file__).parent.parent),
         os.environ.get("PYTHONPATH", "")]))
    workers = [subprocess.Popen([sys.executable, "-m", "dask", "worker", scheduler,
                                 "--no-nanny", "--nthreads", "1", "--no-dashboard"],
                                env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
               for _ in range(count)]
    from dask.distributed import Client

    with Client(scheduler, set_as_default=False) as client:
        client.wait_for_workers(count, timeout=60)
    return workers


def test_a_cluster_whose_every_worker_died_is_one_line_after_a_bounded_wait(
        lone_scheduler, tmp_path, capsys, monkeypatch):
    import exactmines.runner as runner
    import exactmines.solvability.survey as survey

    workers = start_workers(lone_scheduler, 2)
    try:
        # The chunk holding board 250 kills each worker that runs it; without a nanny none
        # comes back, and Dask's allowed failures (3) are not used up: the task waits for a
        # worker that never comes.
        monkeypatch.setattr(survey, "check_boards",
                            partial(check_boards_killing_its_worker, None, 250))
        monkeypatch.setattr(runner, "DASK_NO_WORKER_WAIT", 3.0)
        out = tmp_path / "dask.jsonl"
        started = time.monotonic()
        code, text, err = cli_json(capsys, *SURVEY, "--out", out, "--scheduler",
                                   lone_scheduler)
        assert time.monotonic() - started < 60
        assert code == 1 and text == "" and err.count("\n") == 1
        assert f"the Dask cluster at {lone_scheduler} has had no worker" in err
        assert "for 3 s, with" in err and f"finished rows are kept in {out}" in err
        assert all(w.wait(timeout=30) == -signal.SIGKILL for w in workers)
        _, kept = read_rows(out)
        assert 250 not in {r["id"] for r in kept}
    finally:
        for worker in workers:
            worker.kill()
            worker.wait()


#: Run in a process of its own by the test below: the batch command, whose first write of
#: rows (after the meta line) stops the Dask client's loop for 4 s (it fetches nothing), lets
#: the workers finish the other chunks meanwhile, then kills every worker: those chunks'
#: results are lost with them before they are fetched.
_LOSE_COMPUTED_RESULTS = """
import os, signal, sys, time
import exactmines.runner as runner
from exactmines.ui.cli import main

scheduler, out, data, *pids = sys.argv[1:]
runner.DASK_NO_WORKER_WAIT = 2.0
clients = []
dask_client = runner._dask_client
runner._dask_client = lambda address: clients.append(dask_client(address)) or clients[-1]
append = runner._Results.append

def append_then_kill(self, text):
    append(self, text)
    if pids and not text.startswith('{"meta"'):
        clients[0].loop.add_callback(time.sleep, 4)
        time.sleep(3)
        for pid in pids:
            os.kill(int(pid), signal.SIGKILL)
        pids.clear()

runner._Results.append = append_then_kill
sys.exit(main(["batch", data, "--out", out, "--scheduler", scheduler, "--chunk-size", "1",
               "-q"]))
"""


def test_results_lost_with_every_worker_end_the_run_in_one_line_without_a_traceback(
        lone_scheduler, tmp_path):
    positions = tmp_path / "positions"
    positions.mkdir()
    for i in range(200):
        shutil.copy(DATA / "reference-9x9.mine", positions / f"p{i}.mine")
    workers = start_workers(lone_scheduler, 2)
    try:
        out = tmp_path / "batch.jsonl"
        done = subprocess.run(
            [sys.executable, "-c", _LOSE_COMPUTED_RESULTS, lone_scheduler, str(out),
             str(positions), *(str(w.pid) for w in workers)],
            capture_output=True, text=True, timeout=120,
            env=dict(os.environ, PYTHONPATH=os.pathsep.join(
                [str(Path(__file__).parent.parent), os.environ.get("PYTHONPATH", "")])))
        kept = read_rows(out)[1]
        assert done.returncode == 1 and done.stdout == "", done.stderr
        assert done.stderr == (f"exactmines: error: the Dask cluster at {lone_scheduler} has "
                               f"had no worker (or no scheduler) for 2 s, with "
                               f"{plural(200 - len(kept), 'task')} left; the finished rows "
                               f"are kept in "
                               f"{out} and a resumed run does the rest\n")
        assert 1 <= len(kept) < 200
    finally:
        for worker in workers:
            worker.kill()
            worker.wait()
