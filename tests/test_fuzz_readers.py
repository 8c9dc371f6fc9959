"""Fuzz every reader (``.mine``, x/o text, MBF, JSMinesweeper links, CNF, results files) and
the web API with hypothesis: the small form of ``scripts/fuzz.py``, on the inputs of
``fuzzing.py`` (edited valid files of every format, numbers of up to 6,000 digits, huge
grids, nested JSON, bytes that are not UTF-8), read from files, FIFOs, devices and standard
input.

* In the library, a reader either returns a value or raises :class:`InputError` (the only
  error type that may escape, the one the web API turns into HTTP 400), whatever it reads
  from: a FIFO or standard input reads as the file would, and an input without end is
  refused at the size cap.
* On the command line, ``analyze`` and ``convert`` end with exit 0, 3 (inconsistent) or 2; on
  2 there is one line on stderr naming the file and nothing is written.
* The web API (FastAPI's test client) answers every request, nested JSON and 5,000-digit
  numbers included, without a 500 or a traceback.
"""

from __future__ import annotations

import io
import json
import os
import resource
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from fuzzing import any_file, api_request, edited
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from strategies import boards

from exactmines.errors import InputError
from exactmines.generate.hardness import parse_dimacs
from exactmines.io import files, registry
from exactmines.io.urls import JSM_PAGE, board_from_jsm_url, board_to_jsm_url
from exactmines.ui.cli import main
from exactmines.ui.web.app import create_app


@given(any_file())
def test_readers_return_or_raise_input_error(file):
    data, name = file
    for read in (registry.read_board, registry.read_position, registry.first_click):
        try:
            read(data, name or "<fuzz>", name)
            event(f"{read.__name__}: read")
        except InputError as error:
            event(f"{read.__name__}: InputError")
            assert "\n" not in str(error)


@given(st.one_of(st.text(max_size=200),
                 boards(max_side=8, max_cells=40).map(board_to_jsm_url).flatmap(edited)))
def test_link_reader_returns_or_raises_input_error(text):
    try:
        board_from_jsm_url(text)
    except InputError as error:
        assert "\n" not in str(error)


@pytest.mark.parametrize("command", ["analyze", "convert"])
@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(file=any_file())
def test_cli_reader_errors_are_one_line_and_write_nothing(command, file, capsys):
    data, name = file
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / (name or "input")
        path.write_bytes(data)
        target = Path(folder) / "out.mine"
        args = (["analyze", str(path), "--time-limit", "1", "--format", "json"]
                if command == "analyze" else ["convert", str(path), str(target)])
        code = main(args)
        err = capsys.readouterr().err
        event(f"exit {code}")
        assert code in (0, 2, 3)
        if code == 2:
            assert err.startswith("exactmines: error: ") and err.count("\n") == 1
            assert str(path) in err
            assert not target.exists()
        else:
            assert err == ""


# -- numbers longer than Python converts (4,300 digits) ----------------------------------

HUGE = "1" * 5000
ROWS = "HHHHHHHHH\n" * 9
#: Text with a 5,000-digit number where each reader reads a number.
HUGE_NUMBERS = {
    "width": f"{HUGE}x9x10\n{ROWS}",
    "height": f"9x{HUGE}\n{ROWS}",
    "mines": f"9x9x{HUGE}\n{ROWS}",
    "negative mines": f"9x9x-{HUGE}\n{ROWS}",
    "link width": f"{JSM_PAGE}?b={HUGE}{HUGE}&m=0",
    "link height": f"{JSM_PAGE}?b=09{HUGE}&m=0",
}


@pytest.mark.parametrize("where", HUGE_NUMBERS)
def test_a_5000_digit_number_is_one_input_error_in_every_reader(where):
    data = HUGE_NUMBERS[where].encode()
    for read in (registry.read_board, registry.read_position):
        with pytest.raises(InputError) as error:
            read(data, "big.mine", "big.mine")
        assert "\n" not in str(error.value) and len(str(error.value)) < 200
    for kind in registry.FORMATS.values():  # x/o text reads the x of a header as mines
        try:
            kind.decode(data, "big")
        except InputError as error:
            assert "\n" not in str(error) and len(str(error)) < 200
    if "link" not in where:
        with pytest.raises(InputError, match=r"^big.mine:1:\d+: the .* has 5000 digits"):
            registry.read_position(data, "big.mine")


def test_a_5000_digit_first_click_names_no_click():
    text = f"# first click {HUGE},1\n# solvable from 1,{HUGE}\n3x1x0\n000\n".encode()
    assert registry.first_click(text, "c.mine", "c.mine") is None
    assert registry.first_click(b"# first click 0,2\n3x1x0\n000\n", "c") == (0, 2)


@pytest.mark.parametrize("text", [f"p cnf 3 {HUGE}\n1 0\n", f"p cnf {HUGE} 1\n1 0\n",
                                  f"p cnf 3 1\n1 -{HUGE} 0\n"])
def test_a_5000_digit_number_in_a_cnf_is_an_input_error(text):
    with pytest.raises(InputError, match="5000 digits"):
        parse_dimacs(text, "big.cnf")


@pytest.mark.parametrize("command", ["analyze", "solvable", "convert"])
@pytest.mark.parametrize("where", ["width", "mines"])
def test_a_5000_digit_header_on_the_command_line_is_exit_2_in_one_line(tmp_path, capsys,
                                                                      command, where):
    path = tmp_path / "big.mine"
    path.write_text(HUGE_NUMBERS[where])
    args = {"analyze": [str(path)], "solvable": [str(path), "--at", "0,0"],
            "convert": [str(path), str(tmp_path / "out.mbf")]}[command]
    assert main([command, *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"exactmines: error: {path}:1:") and err.count("\n") == 1
    assert "5000 digits" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["big.mine"]


def test_a_5000_digit_number_in_a_results_file_is_exit_2_on_resume(tmp_path, capsys):
    out = tmp_path / "r.jsonl"
    position = Path(__file__).parent.parent / "instances" / "reference-9x9.mine"
    meta = {"command": "batch", "backend": "auto", "time_limit": 30.0}
    for row in (f'{{"id": {HUGE}}}', "[" * 100_000 + "]" * 100_000):
        out.write_text(json.dumps({"meta": meta}) + "\n" + row + "\n")
        assert main(["batch", str(position), "--out", str(out), "--resume", "--quiet"]) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"exactmines: error: {out}:2: not a JSON line")
        assert err.count("\n") == 1


@pytest.mark.parametrize("where", ["width", "mines"])
def test_a_5000_digit_header_through_the_api_is_400(where):
    text = HUGE_NUMBERS[where]
    with TestClient(create_app(), base_url="http://localhost",
                    raise_server_exceptions=False) as client:
        for path, body in (("/api/analyze", {"text": text}), ("/api/import", {"text": text}),
                           ("/api/export", {"text": text, "to": "mbf"}),
                           ("/api/games", {"board": text})):
            answer = client.post(path, json=body)
            assert answer.status_code == 400, (path, answer.text)
            assert "5000 digits" in answer.json()["error"]
        answer = client.post("/api/analyze", content=text,
                             headers={"content-type": "text/plain"})
        assert answer.status_code == 400 and "5000 digits" in answer.json()["error"]
        grid = client.post("/api/analyze", json={"grid": ["HHH"], "mines": 10 ** 30})
        assert grid.status_code == 400 and grid.json()["error"].startswith("mines")


# -- inputs without an end: devices, FIFOs, standard input --------------------------------

REFERENCE = Path(__file__).parent.parent / "instances" / "reference-9x9.mine"


def run_cli(*args: str, fifo_wait: float | None = None, memory: int | None = None,
            timeout: float = 60, **options) -> subprocess.CompletedProcess[str]:
    """``exactmines ARGS`` in a subprocess (killed past ``timeout``: a hang fails the test),
    with :data:`files.FIFO_WAIT` set to ``fifo_wait`` and the address space capped at
    ``memory`` bytes when given."""
    code = ("import sys; import exactmines.io.files as files; "
            + ("" if fifo_wait is None else f"files.FIFO_WAIT = {fifo_wait}; ")
            + "from exactmines.ui.cli import main; sys.exit(main(sys.argv[1:]))")

    def limit() -> None:
        if memory is not None:
            resource.setrlimit(resource.RLIMIT_AS, (memory, memory))

    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                          timeout=timeout, preexec_fn=limit, **options)


def one_line_error(done: subprocess.CompletedProcess[str], source: str) -> str:
    assert done.returncode == 2, done.stderr[-2000:]
    assert done.stderr.startswith(f"exactmines: error: {source}")
    assert done.stderr.count("\n") == 1 and done.stdout == ""
    return done.stderr


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
@pytest.mark.parametrize("command", ["analyze", "solvable", "convert"])
def test_a_device_without_end_is_refused_at_the_cap_in_bounded_memory(command, device):
    if not Path(device).exists():
        pytest.skip(f"no {device}")
    args = [device, "--at", "0,0"] if command == "solvable" else [device]
    err = one_line_error(run_cli(command, *args, memory=1 << 30), device)
    assert "more than the 200,000,000 bytes accepted" in err


def test_standard_input_without_end_is_refused_at_the_cap():
    with open("/dev/zero", "rb") as zeros:
        done = run_cli("analyze", "-", stdin=zeros, memory=1 << 30)
    assert "more than the 200,000,000 bytes accepted" in one_line_error(done, "<stdin>")


@pytest.fixture
def fifo(tmp_path):
    path = tmp_path / "position.fifo"
    os.mkfifo(path)
    return path


def test_a_fifo_nobody_writes_to_is_refused_after_the_wait(fifo):
    started = time.monotonic()
    done = run_cli("analyze", str(fifo), fifo_wait=0.5, timeout=20)
    assert "nothing was written to it for 0.5 s" in one_line_error(done, str(fifo))
    assert time.monotonic() - started < 30


def test_a_fifo_whose_writer_says_nothing_is_refused_after_the_wait(fifo):
    process = subprocess.Popen([sys.executable, "-c", "import exactmines.io.files as f, "
                                "exactmines.ui.cli as c, sys; f.FIFO_WAIT = 0.5; "
                                f"sys.exit(c.main(['convert', {str(fifo)!r}]))"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    with open(fifo, "wb"):  # a writer that opens the FIFO and never writes
        try:
            _, err = process.communicate(timeout=20)
        finally:
            process.kill()
    assert process.returncode == 2 and "nothing was written to it for 0.5 s" in err


def test_a_fifo_is_read_once_its_writer_comes(fifo):
    def write() -> None:
        time.sleep(0.3)
        with open(fifo, "wb") as writer:
            for line in REFERENCE.read_bytes().splitlines(keepends=True):
                writer.write(line)
                writer.flush()
                time.sleep(0.01)

    writer = threading.Thread(target=write)
    writer.start()
    done = run_cli("analyze", str(fifo), "--format", "json", fifo_wait=10)
    writer.join()
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["layouts"] == "1031"


def _read_or_error(read, *args) -> object:
    """What a reader gives: its value, or its InputError's message (the place aside)."""
    try:
        return read(*args)
    except InputError as error:
        assert "\n" not in str(error)
        return ("InputError", error.message, error.line, error.column)


@settings(max_examples=30, deadline=None)
@given(file=any_file(), how=st.sampled_from(["fifo", "fifo, slow writer", "fifo, no writer",
                                             "stdin"]))
def test_a_fifo_or_standard_input_reads_as_the_file_would(file, how):
    data, name = file
    with tempfile.TemporaryDirectory() as folder, pytest.MonkeyPatch.context() as patch:
        path = Path(folder) / (name or "input")
        path.write_bytes(data)
        expected = _read_or_error(files.read_board, path)
        if how == "stdin":
            patch.setattr(sys, "stdin", type("Stdin", (), {"buffer": io.BytesIO(data)}))
            found = _read_or_error(files.read_board, "-")
            # Standard input has no name to say "binary MBF": it reads as a file without one.
            unnamed = Path(folder) / "unnamed"
            unnamed.write_bytes(data)
            assert found == _read_or_error(files.read_board, unnamed)
            return
        fifo = Path(folder) / f"fifo-{name}"
        os.mkfifo(fifo)
        patch.setattr(files, "FIFO_WAIT", 0.2 if how == "fifo, no writer" else 10.0)
        writer = None
        if how != "fifo, no writer":
            def write() -> None:
                with open(fifo, "wb") as handle:
                    for start in range(0, len(data), 4096 if how == "fifo" else 97):
                        handle.write(data[start:start + (4096 if how == "fifo" else 97)])
                        handle.flush()

            writer = threading.Thread(target=write)
            writer.start()
        found = _read_or_error(files.read_board, fifo)
        if writer is None:
            assert isinstance(found, tuple) and "nothing was written" in found[1]
        else:
            writer.join()
            assert found == expected


# -- the web API through FastAPI's test client ------------------------------------------

@pytest.fixture(scope="module")
def api():
    with TestClient(create_app(), base_url="http://localhost",
                    raise_server_exceptions=False) as client:
        game = client.post("/api/games", json={"seed": 1}).json()["id"]
        yield client, game


@settings(max_examples=80, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(request=api_request())
def test_the_api_answers_every_request_without_a_500(api, request):
    client, game = api
    method, path, body, kind = request
    answer = client.request(method, path.replace("GAME", game), content=body,
                            headers={"content-type": kind})
    event(f"{path.replace('GAME', '{id}')}: {answer.status_code}")
    assert answer.status_code != 500, answer.text[:500]
    assert "Traceback" not in answer.text
    document = answer.json()
    if answer.status_code >= 400 and "error" in document:
        assert "\n" not in document["error"]
