"""Reading and writing .mine and x/o text; every malformed input is one precise line."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from exactmines.errors import InputError
from exactmines.io.formats import (
    board_from_text,
    board_to_mine,
    parse_mine_text,
    position_from_text,
    position_to_mine,
)
from exactmines.position import Board, Position
from exactmines.ui.cli import main

BAD = {
    "wrong row length": ("3x2x1\nHHH\nHH\n", "3:3:", "row 2 has 2 cells, expected 3"),
    "missing row": ("3x3x1\nHHH\nHHH\n", "4:1:", "missing row 3"),
    "unknown character": ("3x2x1\nHHH\nHXH\n", "3:2:", "unknown character 'X'"),
    "missing header": ("HHH\nHHH\n", "1:1:", "bad header"),
    "bad header": ("3by3\nHHH\n", "1:1:", "bad header"),
    "zero size": ("0x3x0\n", "1:1:", "at least 1"),
    "negative mines": ("3x1x-2\nHHH\n", "1:5:", "negative"),
    "too many mines": ("3x1x4\nHHH\n", "1:5:", "4 mines but only 3 unrevealed"),
    "digit 9": ("3x3x1\nHHH\nH9H\nHHH\n", "3:2:", "9 is not a Minesweeper number"),
    "number too large": ("3x1x1\n4HH\n", "2:1:", "number 4 but the cell has only 1 neighbour"),
    "corner 4": ("2x2x3\n4H\nHH\n", "2:1:", "only 3 neighbours"),
    "more flags than mines": ("3x1x1\nFFH\n", "1:5:", "2 cells are flagged"),
    "empty file": ("", "1:1:", "empty file"),
    "only comments": ("# nothing\n\n", "1:1:", "empty file"),
    "huge header no rows": ("10000x10000x5\n", "2:1:", "missing row 1"),
    "too large": ("100000x100000x5\n", "1:1:", "larger than"),
    "extra row": ("2x1x0\nHH\nHH\n", "3:1:", "extra line"),
    "indented header, too many": ("# c\n  12x1x13\nHHHHHHHHHHHH\n", "2:8:", "13 mines"),
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_malformed_mine_text_names_line_and_column(name, tmp_path, capsys):
    text, place, message = BAD[name]
    path = tmp_path / "bad.mine"
    path.write_text(text)
    assert main(["analyze", str(path), "--format", "json"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1, captured.err
    assert lines[0].startswith(f"exactmines: error: {path}:{place}")
    assert re.fullmatch(r"\d+:\d+:", place), "every place names a line and a column"
    assert message in lines[0]


@pytest.mark.parametrize("data,place,message", [
    (b"\xff\xfe\x00garbage", "1:1:", "not UTF-8"),
    (b"3x1x1\nH\x00H\n", "2:2:", "NUL"),
    (bytes(range(256)) * 4, "2:118:", "not UTF-8"),  # 0x80 follows the \n at byte 10
], ids=["bom-then-garbage", "nul", "every-byte"])
def test_binary_input_is_refused(tmp_path, capsys, data, place, message):
    path = tmp_path / "bin.mine"
    path.write_bytes(data)
    assert main(["analyze", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"exactmines: error: {path}:{place}")
    assert message in err and err.count("\n") == 1


def test_no_traceback_from_the_real_command(tmp_path):
    path = tmp_path / "bad.mine"
    path.write_text("3x3x1\nHHH\nH9H\nHHH\n")
    run = subprocess.run([sys.executable, "-m", "exactmines", "analyze", str(path)],
                         capture_output=True, text=True)
    assert run.returncode == 2
    assert run.stdout == ""
    assert run.stderr.strip() == f"exactmines: error: {path}:3:2: 9 is not a Minesweeper number"


def test_one_bad_file_among_many_prints_nothing(tmp_path, capsys):
    good = tmp_path / "good.mine"
    good.write_text("2x1x1\n1H\n")
    bad = tmp_path / "bad.mine"
    bad.write_text("2x1x1\n1\n")
    assert main(["analyze", str(good), str(bad), "--format", "jsonl"]) == 2
    assert capsys.readouterr().out == ""


def test_missing_file_and_directory(tmp_path, capsys):
    assert main(["analyze", str(tmp_path / "nope.mine")]) == 2
    assert "no such file" in capsys.readouterr().err
    assert main(["analyze", str(tmp_path)]) == 2
    assert "directory" in capsys.readouterr().err


def test_comments_crlf_trailing_spaces_and_marks():
    text = "# a comment\r\n# another\r\n4x2x3  \r\nHM1F \r\n?H10\r\n\r\n"
    grid = parse_mine_text(text)
    assert (grid.width, grid.height, grid.mines) == (4, 2, 3)
    position = position_from_text(text)
    assert position.rows == ("HH1F", "HH10")
    assert position.mines == 3 and position.mines_left == 2


def test_unknown_count_header():
    position = position_from_text("3x1\n1HH\n")
    assert position.mines is None and position.mines_left is None


def test_position_round_trip():
    position = Position(4, 2, 3, ("H1F0", "HHH1"))
    assert position_from_text(position_to_mine(position, ["made by a test"])) == position
    unknown = Position(2, 1, None, ("1H",))
    assert position_from_text(position_to_mine(unknown)) == unknown


def test_board_round_trip_and_checked_numbers():
    board = Board(3, 2, frozenset({(0, 0), (1, 2)}))
    text = board_to_mine(board, revealed=[(0, 1), (1, 0)])
    assert board_from_text(text) == board
    with pytest.raises(InputError, match=r":2:2: shows 1 but its neighbours hold 2"):
        board_from_text("3x2x2\nM1H\nHHM\n")
    with pytest.raises(InputError, match=r"b\.mine:2:5: a board must mark every mine"):
        board_from_text("# c\n3x2x3\nMHH\nHHM\n", "b.mine")


def test_xo_board_text():
    board = board_from_text("x o o\no x o\n\n- - -\n")
    assert (board.width, board.height) == (3, 2)
    assert board.mine_cells == {(0, 0), (1, 1)}
    with pytest.raises(InputError, match="row has 2 cells, expected 3"):
        board_from_text("xoo\nxo\n")
