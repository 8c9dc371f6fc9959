"""MBF, x/o text, .mine round trips and JSMinesweeper links: good files and bad ones."""

from __future__ import annotations

import struct

import pytest
from hypothesis import given
from hypothesis import strategies as st

from exactmines.errors import InputError
from exactmines.io.files import read_board, read_position, write_board, write_position
from exactmines.io.formats import (
    board_from_mbf,
    board_from_text,
    board_from_xo,
    board_to_mbf,
    board_to_mine,
    board_to_xo,
    position_from_text,
    position_to_mine,
)
from exactmines.io.urls import board_from_jsm_url, board_to_jsm_url, looks_like_jsm_url
from exactmines.position import Board, Position
from exactmines.ui.cli import main


@st.composite
def boards(draw, max_side=12):
    width = draw(st.integers(1, max_side))
    height = draw(st.integers(1, max_side))
    cells = [(r, c) for r in range(height) for c in range(width)]
    mines = draw(st.sets(st.sampled_from(cells), max_size=len(cells)))
    return Board(width, height, frozenset(mines))


@st.composite
def positions(draw):
    """A position seen on a random board: some safe cells revealed, some mines flagged."""
    board = draw(boards(max_side=8))
    cells = [(r, c) for r in range(board.height) for c in range(board.width)]
    revealed = draw(st.sets(st.sampled_from([c for c in cells if c not in board.mine_cells]
                                            or [None])))
    flagged = draw(st.sets(st.sampled_from(sorted(board.mine_cells) or [None])))
    known = draw(st.booleans())
    return board.position(revealed - {None}, flagged - {None}, count_known=known)


# --- MBF -------------------------------------------------------------------------------

def test_mbf_bytes_are_the_documented_layout():
    board = Board(30, 16, frozenset({(0, 1), (15, 29)}))
    data = board_to_mbf(board)
    # u8 width, u8 height, u16 big-endian count, then (x, y) = (col, row) per mine.
    assert data == bytes([30, 16, 0, 2, 1, 0, 29, 15])
    assert board_from_mbf(data) == board


def test_mbf_count_uses_both_bytes():
    cells = [(r, c) for r in range(20) for c in range(20)][:300]
    data = board_to_mbf(Board(20, 20, frozenset(cells)))
    assert data[2:4] == struct.pack(">H", 300) == bytes([1, 44])
    assert board_from_mbf(data).mines == 300


@given(boards())
def test_mbf_round_trip(board):
    assert board_from_mbf(board_to_mbf(board)) == board


@pytest.mark.parametrize(("data", "message"), [
    (b"", "too short"),
    (bytes([9, 9, 0]), "too short"),
    (bytes([0, 9, 0, 0]), "at least 1x1"),
    (bytes([9, 0, 0, 0]), "at least 1x1"),
    (bytes([9, 9, 0, 2, 1, 1]), "says 2 mines"),
    (bytes([9, 9, 0, 1, 1, 1, 2, 2]), "says 1 mine"),
    (bytes([9, 9, 0, 1, 9, 0]), "off the 9x9 board"),
    (bytes([9, 9, 0, 1, 0, 9]), "off the 9x9 board"),
    (bytes([9, 9, 0, 2, 3, 4, 3, 4]), "listed twice"),
])
def test_malformed_mbf_is_refused_with_the_reason(data, message):
    with pytest.raises(InputError, match=message) as caught:
        board_from_mbf(data, "bad.mbf")
    assert str(caught.value).startswith("bad.mbf: ")


def test_mbf_refuses_boards_it_cannot_hold():
    with pytest.raises(ValueError, match="255x255"):
        board_to_mbf(Board(256, 1, frozenset()))


def test_mbf_files_by_extension(tmp_path):
    board = Board(5, 4, frozenset({(1, 1), (3, 4)}))
    write_board(tmp_path / "b.mbf", board)
    assert (tmp_path / "b.mbf").read_bytes() == board_to_mbf(board)
    assert read_board(tmp_path / "b.mbf") == board
    (tmp_path / "short.mbf").write_bytes(b"\x05")
    with pytest.raises(InputError, match=r"short\.mbf: MBF file too short"):
        read_board(tmp_path / "short.mbf")


# --- x/o board text --------------------------------------------------------------------

def test_xo_text_ignores_other_characters():
    text = "x o o\n o x o \n\n# o o x\n"
    assert board_from_xo(text) == Board(3, 3, frozenset({(0, 0), (1, 1), (2, 2)}))


@given(boards())
def test_xo_round_trip(board):
    text = board_to_xo(board)
    assert text.count("\n") == board.height and text.count("x") == board.mines
    assert board_from_xo(text) == board
    assert board_from_text(text) == board  # no .mine header: read as x/o


def test_xo_rows_of_different_lengths_name_the_line():
    with pytest.raises(InputError, match=r"b\.txt:3:3: row has 2 cells, expected 3"):
        board_from_xo("xox\nooo\nxo\n", "b.txt")
    with pytest.raises(InputError, match=r"b\.txt:2:7: row has 4 cells, expected 3"):
        board_from_xo("x o x\no o o o\n", "b.txt")


def test_xo_without_any_cell_is_refused():
    with pytest.raises(InputError, match="no board"):
        board_from_xo("123\n\nHHH\n", "b.txt")


# --- .mine round trips -----------------------------------------------------------------

@given(boards())
def test_board_mine_text_round_trip(board):
    assert board_from_text(board_to_mine(board, comments=["made by a test"])) == board


@given(positions())
def test_position_mine_text_round_trip(position):
    text = position_to_mine(position, comments=["one", "two"])
    assert text.startswith("# one\n# two\n")
    assert position_from_text(text) == position


def test_board_with_revealed_numbers_reads_back_as_the_same_board_and_position():
    board = Board(4, 3, frozenset({(0, 0), (2, 3)}))
    text = board_to_mine(board, revealed=[(1, 1), (0, 3)])
    assert text.splitlines() == ["4x3x2", "MHH0", "H1HH", "HHHM"]
    assert board_from_text(text) == board
    position = position_from_text(text)
    assert position.rows == ("HHH0", "H1HH", "HHHH") and position.mines == 2


def test_position_files_round_trip(tmp_path):
    position = Position(3, 2, None, ("1F1", "HHH"))
    write_position(tmp_path / "p.mine", position, comments=("note",))
    assert (tmp_path / "p.mine").read_text() == "# note\n3x2\n1F1\nHHH\n"
    assert read_position(tmp_path / "p.mine") == position


def test_unwritable_targets_are_input_errors_not_tracebacks(tmp_path, capsys):
    position = Position(1, 1, None, ("H",))
    with pytest.raises(InputError, match="is a directory"):
        write_position(tmp_path, position)
    (tmp_path / "file").write_text("")
    with pytest.raises(InputError, match="is a file, not a folder"):
        write_position(tmp_path / "file" / "p.mine", position)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"]  # no temporary left
    # The system's reason, in words (root writes anywhere: a name too long still fails).
    with pytest.raises(InputError, match=r"\.mine: cannot write: File name too long$"):
        write_position(tmp_path / ("p" * 300 + ".mine"), position)
    board = tmp_path / "b.mine"
    board.write_text("3x3x2\nMHH\nHHH\nHHM\n")
    assert main(["solvable", str(board), "--at", "1,1", "--stuck", str(tmp_path)]) == 2
    captured = capsys.readouterr()
    assert captured.err == f"exactmines: error: {tmp_path}: is a directory, expected a file " \
                           "name to write\n"


def test_mine_board_whose_numbers_disagree_with_its_mines_is_refused():
    with pytest.raises(InputError, match=r"b\.mine:3:2: shows 2"):
        board_from_text("3x2x1\nM1H\nH2H\n", "b.mine")


# --- JSMinesweeper links ---------------------------------------------------------------

def test_link_decoded_by_hand():
    # 3x2: b = "32"; cells 0-4 -> bits 01000 = 8, cell 5 -> bit 10000 = 16 = "g".
    board = board_from_jsm_url("https://example.org/index.html?b=32&m=8g")
    assert board == Board(3, 2, frozenset({(0, 1), (1, 2)}))
    assert board_to_jsm_url(board, page="p") == "p?b=32&m=8g"


def test_standard_descriptors_and_padded_sizes():
    expert = Board(30, 16, frozenset(divmod(i, 30) for i in range(99)))
    url = board_to_jsm_url(expert)
    assert "?b=3&m=" in url and board_from_jsm_url(url) == expert
    # 30x16 with another count is not "3": the size is spelled out.
    assert "?b=3016&" in board_to_jsm_url(Board(30, 16, frozenset({(0, 0)})))
    assert "?b=0916&" in board_to_jsm_url(Board(9, 16, frozenset()))
    # JSMinesweeper's own writer pads the height only to the width's digits: "916" is 9x16.
    assert board_from_jsm_url("?b=916&m=" + "0" * 29).width == 9
    assert board_from_jsm_url("?b=916&m=" + "0" * 29).height == 16
    beginner = board_from_jsm_url("?b=1&m=" + "v" * 2 + "0" * 15)
    assert (beginner.width, beginner.height, beginner.mines) == (9, 9, 10)


def test_a_link_that_is_no_url_is_still_read(tmp_path, capsys):
    # A bracket not closed in the host is "Invalid IPv6 URL" to urllib: a traceback in every
    # reader of links, files included.
    url = "http://[example.org/index.html?b=32&m=8g"
    assert looks_like_jsm_url(url)
    assert board_from_jsm_url(url) == Board(3, 2, frozenset({(0, 1), (1, 2)}))
    path = tmp_path / "link.txt"
    path.write_text("http://[x/?b=32&m=8")
    assert main(["convert", str(path)]) == 2
    assert capsys.readouterr().err == (f"exactmines: error: {path}: m= has 1 digit but a 3x2 "
                                       "board needs 2 (five cells a digit)\n")


def test_link_in_a_fragment_and_upper_case_digits():
    url = "https://llamasweeper.com/#/game/zini-explorer?b=32&m=8G"
    assert looks_like_jsm_url(url)
    assert board_from_jsm_url(url) == Board(3, 2, frozenset({(0, 1), (1, 2)}))


@given(boards(max_side=40))
def test_link_round_trip(board):
    assert board_from_jsm_url(board_to_jsm_url(board)) == board


@pytest.mark.parametrize(("url", "message"), [
    ("https://example.org/?m=8g", "no b= parameter"),
    ("?b=32", "no m= parameter"),
    ("?b=4&m=0", "board descriptor"),
    ("?b=3x2&m=8g", "board descriptor"),
    ("?b=0002&m=0", "each side"),
    ("?b=32&m=8", "needs 2"),
    ("?b=32&m=8g0", "needs 2"),
    ("?b=32&m=8w", "not a base-32 digit"),
    ("?b=32&m=81", "past the last cell"),
    ("A://[", "no b= or m= parameter"),  # these two were urllib's ValueError, a traceback
    ("http://[x/?b=32&m=8", "needs 2"),
])
def test_malformed_links_say_what_is_wrong(url, message):
    assert not looks_like_jsm_url("plain.mine")
    with pytest.raises(InputError, match=message):
        board_from_jsm_url(url)
