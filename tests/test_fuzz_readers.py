"""Fuzz every reader (``.mine``, x/o text, MBF, JSMinesweeper links) with hypothesis.

Inputs are random bytes and text, and valid files of each format with random edits (a
character changed, inserted or deleted; a line dropped or doubled; the data cut short), so
most examples get past the first check and reach the deeper ones.

* In the library, a reader either returns a value or raises :class:`InputError` (the only
  error type that may escape, the one the web API turns into HTTP 400).
* On the command line, ``analyze`` and ``convert`` end with exit 0, 3 (inconsistent) or 2; on
  2 there is one line on stderr naming the file and nothing is written.

The web API's own fuzz (text, uploads) is in ``test_web_api.py``.
"""

from __future__ import annotations

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
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from strategies import boards

from exactmines.errors import InputError
from exactmines.generate.hardness import parse_dimacs
from exactmines.io import registry
from exactmines.io.formats import board_to_mbf, board_to_mine, board_to_xo
from exactmines.io.urls import JSM_PAGE, board_from_jsm_url, board_to_jsm_url
from exactmines.ui.cli import main
from exactmines.ui.web.app import create_app

ROOT = Path(__file__).parent.parent
SEEDS = [(ROOT / "instances" / name).read_text() for name in (
    "reference-9x9.mine", "position-9x9x10-seed1-000.mine", "noguess-9x9x10-seed1-000.mine")]


@st.composite
def edited(draw: st.DrawFn, text: str) -> str:
    """``text`` with a few random edits."""
    for _ in range(draw(st.integers(1, 4))):
        lines = text.split("\n")
        kind = draw(st.sampled_from(["change", "insert", "delete", "drop", "double", "cut"]))
        at = draw(st.integers(0, max(0, len(text) - 1)))
        char = draw(st.sampled_from(list("0123456789HFM?xo.*# \t\r\nx-=&b")))
        if kind == "change" and text:
            text = text[:at] + char + text[at + 1:]
        elif kind == "insert":
            text = text[:at] + char + text[at:]
        elif kind == "delete":
            text = text[:at] + text[at + 1:]
        elif kind == "drop" and len(lines) > 1:
            line = draw(st.integers(0, len(lines) - 1))
            text = "\n".join(lines[:line] + lines[line + 1:])
        elif kind == "double":
            line = draw(st.integers(0, len(lines) - 1))
            text = "\n".join(lines[:line + 1] + lines[line:])
        else:
            text = text[:at]
    return text


@st.composite
def any_file(draw: st.DrawFn) -> tuple[bytes, str]:
    """Bytes and a file name: random data, or an edited valid file of any format."""
    name = draw(st.sampled_from(["a.mine", "b.txt", "c.mbf", "d"]))
    source = draw(st.sampled_from(["random bytes", "random text", "seed", "board"]))
    if source == "random bytes":
        return draw(st.binary(max_size=300)), name
    if source == "random text":
        return draw(st.text(max_size=300)).encode(), name
    if source == "seed":
        return draw(edited(draw(st.sampled_from(SEEDS)))).encode(), name
    board = draw(boards(max_side=8, max_cells=40))
    kind = draw(st.sampled_from(["mine", "xo", "link", "mbf"]))
    if kind == "mbf":
        data = bytearray(board_to_mbf(board))
        for _ in range(draw(st.integers(0, 3))):
            if data:
                data[draw(st.integers(0, len(data) - 1))] = draw(st.integers(0, 255))
        return bytes(data[:draw(st.integers(0, len(data)))]), name
    text = {"mine": board_to_mine, "xo": board_to_xo, "link": board_to_jsm_url}[kind](board)
    return draw(edited(text)).encode(), name


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
