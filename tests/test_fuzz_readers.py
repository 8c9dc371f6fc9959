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

import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from strategies import boards

from exactmines.errors import InputError
from exactmines.io import registry
from exactmines.io.formats import board_to_mbf, board_to_mine, board_to_xo
from exactmines.io.urls import board_from_jsm_url, board_to_jsm_url
from exactmines.ui.cli import main

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
