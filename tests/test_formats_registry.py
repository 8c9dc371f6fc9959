"""The format registry: one entry per board format, used by every reader and writer."""

from __future__ import annotations

import base64
import json
import os
import stat
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given
from test_formats_extra import boards

from exactmines.errors import InputError, ParameterError
from exactmines.io import registry
from exactmines.io.files import read_board, read_position, write_atomic, write_board
from exactmines.io.formats import MBF_MAX_MINES, MBF_MAX_SIDE, board_to_mbf
from exactmines.io.graphs import GRAPH_SUFFIXES
from exactmines.position import Board
from exactmines.ui.cli import main
from exactmines.ui.web.inputs import EXPORT_KINDS, exported, imported_text

ROOT = Path(__file__).parent.parent
NOGUESS = ROOT / "instances" / "noguess-9x9x10-seed1-000.mine"


@given(boards())
def test_every_format_reads_back_what_it_writes_and_is_recognised(board):
    for kind in registry.FORMATS.values():
        data = kind.encode_board(board, "test")
        raw = data if isinstance(data, bytes) else data.encode()
        name = f"b{kind.suffix}" if kind.binary or kind.name == "edges" else ""
        found, content = registry.detect(raw, "test", name)
        assert found is kind
        back = found.decode(content, "test")
        if kind.name in GRAPH_SUFFIXES:  # the board's graph: its cells are nodes "r,c"
            assert back.topology.neighbour_table == board.topology.neighbour_table
            assert back.topology.labels == tuple(f"{r},{c}" for r in range(board.height)
                                                 for c in range(board.width))
            assert {(r * board.width + c) for r, c in board.mine_cells} == \
                {c for _, c in back.mine_cells}
        else:
            assert back == board
        assert registry.read_board(raw, "test", name) == back


def test_the_web_page_offers_exactly_the_registered_formats():
    assert {name: kind.suffix for name, kind in registry.FORMATS.items()} == EXPORT_KINDS
    board = Board(4, 3, frozenset({(0, 0), (2, 3)}))
    text = registry.FORMATS["mine"].encode_board(board, "t")
    for name, kind in registry.FORMATS.items():
        data, encoding = exported(text, name)
        assert (encoding == "base64") == kind.binary
        raw = base64.b64decode(data) if kind.binary else data.encode()
        if name in GRAPH_SUFFIXES:  # a graph has no rows: the page cannot show it
            with pytest.raises(InputError, match="not graphs"):
                imported_text(f"b{kind.suffix}", raw)
            continue
        back, found = imported_text(f"b{kind.suffix}" if kind.binary else "", raw)
        assert found == name and registry.read_board(back.encode(), "t") == board


def test_the_mbf_limit_is_one_limit_everywhere(tmp_path, capsys):
    wide = Board(MBF_MAX_SIDE + 1, 1, frozenset({(0, 0)}))
    assert registry.FORMATS["mbf"].limits.refusal(wide) == f"each side at most {MBF_MAX_SIDE}"
    with pytest.raises(ValueError, match=f"{MBF_MAX_SIDE}x{MBF_MAX_SIDE}"):
        board_to_mbf(wide)
    edge = Board(MBF_MAX_SIDE, MBF_MAX_SIDE, frozenset())
    assert registry.FORMATS["mbf"].limits.refusal(edge) is None
    assert registry.FORMATS["mbf"].limits.mines == MBF_MAX_MINES
    # The same refusal from the library writer, the command line and the web page.
    with pytest.raises(InputError, match="does not fit MBF .each side at most 255.: save"):
        write_board(tmp_path / "w.mbf", wide)
    registry.FORMATS["mine"].encode_board(wide, "t")
    source = tmp_path / "wide.mine"
    write_board(source, wide)
    assert main(["convert", str(source), str(tmp_path / "wide.mbf")]) == 2
    assert "does not fit MBF (each side at most 255)" in capsys.readouterr().err
    with pytest.raises(InputError, match="does not fit MBF"):
        exported(source.read_text(), "mbf")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["wide.mine"]


def test_writing_an_unknown_suffix_names_the_parameter():
    with pytest.raises(ParameterError, match=r"^target b\.png: the file name must end in "
                                             r"\.mine, \.mbf, \.txt, \.json, \.graphml or "
                                             r"\.edges$"):
        registry.format_for_writing("b.png", "target")
    assert registry.format_of_name("B.MBF") is registry.FORMATS["mbf"]


def test_analyze_reads_an_mbf_board_as_the_position_before_the_first_click(tmp_path, capsys):
    board = Board(5, 4, frozenset({(0, 0), (1, 3), (3, 4)}))
    write_board(tmp_path / "b.mbf", board)
    position = read_position(tmp_path / "b.mbf")
    assert position.rows == ("HHHHH",) * 4 and position.mines == 3
    assert main(["analyze", str(tmp_path / "b.mbf"), "--format", "json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert {Fraction(c["probability"]) for c in answer["cells"]} == {Fraction(3, 20)}
    assert answer["layouts"] == "1140"  # C(20, 3)


def test_binary_data_under_a_text_name_points_to_the_binary_format(tmp_path):
    board = Board(5, 4, frozenset({(0, 0)}))
    (tmp_path / "b.mine").write_bytes(board_to_mbf(board))
    with pytest.raises(InputError, match=r"b\.mine:1:3: binary data .* must be named \.mbf"):
        read_position(tmp_path / "b.mine")


def test_dash_reads_standard_input(tmp_path):
    text = NOGUESS.read_text()
    run = subprocess.run([sys.executable, "-m", "exactmines", "analyze", "-", "--format",
                          "json"], input=text, capture_output=True, text=True, check=False,
                         cwd=ROOT)
    assert run.returncode == 0, run.stderr
    answer = json.loads(run.stdout)
    assert answer["file"] == "-" and answer["width"] == 9
    bad = subprocess.run([sys.executable, "-m", "exactmines", "analyze", "-"],
                         input="2x1x0\nHX\n", capture_output=True, text=True, check=False)
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr.startswith("exactmines: error: <stdin>:2:2: unknown character 'X'")


def test_read_board_from_standard_input(monkeypatch):
    class Stdin:
        buffer = __import__("io").BytesIO(NOGUESS.read_bytes())

    monkeypatch.setattr(sys, "stdin", Stdin)
    assert read_board("-") == read_board(NOGUESS)


@pytest.mark.parametrize("mask", [0o022, 0o077, 0o002])
def test_written_files_get_the_mode_of_a_plain_open(tmp_path, mask):
    old = os.umask(mask)
    try:
        write_atomic(tmp_path / "a.mine", "1x1x0\n0\n")
        with open(tmp_path / "b.mine", "w") as handle:
            handle.write("1x1x0\n0\n")
    finally:
        os.umask(old)
    mode = stat.S_IMODE((tmp_path / "a.mine").stat().st_mode)
    assert mode == stat.S_IMODE((tmp_path / "b.mine").stat().st_mode) == 0o666 & ~mask


def test_a_board_exactly_at_a_limit_fits_and_one_more_does_not():
    from exactmines.io.formats import MAX_CELLS, MBF_MAX_SIDE
    from exactmines.io.registry import FORMATS, Limits

    side = 10_000
    assert side * side == MAX_CELLS
    for name in ("mine", "xo"):
        limits = FORMATS[name].limits
        assert limits.refusal(Board(side, side, frozenset())) is None
        assert limits.refusal(Board(side, side + 1, frozenset())) is not None
    mbf = FORMATS["mbf"].limits
    assert mbf.refusal(Board(MBF_MAX_SIDE, MBF_MAX_SIDE, frozenset())) is None
    assert mbf.refusal(Board(MBF_MAX_SIDE + 1, 1, frozenset())) is not None
    # MBF's mine limit (65,535) is more than its largest board holds; the rule is tested
    # on a limit of its own.
    small = Limits(mines=2)
    two, three = frozenset({(0, 0), (0, 1)}), frozenset({(0, 0), (0, 1), (0, 2)})
    assert small.refusal(Board(3, 1, two)) is None
    assert small.refusal(Board(3, 1, three)) == "at most 2 mines"
