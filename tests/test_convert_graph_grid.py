"""A grid converted to a graph converts back: a graph whose nodes are named ``r,c`` and
joined exactly as a grid's cells is that grid; any other graph is refused in one line when
the target has rows (.mine, .mbf, x/o text)."""

from __future__ import annotations

import json

import pytest

from exactmines.io.files import read_board
from exactmines.io.graphs import grid_of_graph
from exactmines.position import Board
from exactmines.topology import make_topology
from exactmines.ui.cli import main

MINES = frozenset({(0, 0), (1, 3), (3, 2), (2, 4)})


@pytest.mark.parametrize("shape", ["square", "torus", "cylinder", "hex"])
def test_a_grid_written_as_a_graph_converts_back(tmp_path, capsys, shape):
    board = Board(5, 4, MINES, make_topology(shape, 5, 4))
    header = "5x4x4" + ("" if shape == "square" else f" {shape}")
    rows = ["".join("M" if (r, c) in MINES else "H" for c in range(5)) for r in range(4)]
    start = tmp_path / "board.mine"
    start.write_text("\n".join([header, *rows]) + "\n")
    assert read_board(start) == board
    assert main(["convert", str(start), str(tmp_path / "board.json")]) == 0
    assert main(["convert", str(tmp_path / "board.json"), str(tmp_path / "back.mine")]) == 0
    assert read_board(tmp_path / "back.mine") == board
    if shape == "square":  # the rows of MBF and x/o text too
        assert main(["convert", str(tmp_path / "board.json"), str(tmp_path / "b.mbf")]) == 0
        assert read_board(tmp_path / "b.mbf") == board
    capsys.readouterr()


def test_a_graph_that_only_looks_like_a_grid_is_refused_in_one_line(tmp_path, capsys):
    start = tmp_path / "board.mine"
    start.write_text("3x3x1\nMHH\nHHH\nHHH\n")
    assert main(["convert", str(start), str(tmp_path / "g.json")]) == 0
    graph = json.loads((tmp_path / "g.json").read_text())
    graph["edges"] = graph["edges"][1:]  # one edge fewer: no grid's
    (tmp_path / "g.json").write_text(json.dumps(graph))
    assert grid_of_graph(read_board(tmp_path / "g.json")) is None
    capsys.readouterr()
    assert main(["convert", str(tmp_path / "g.json"), str(tmp_path / "back.mine")]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and not (tmp_path / "back.mine").exists()
    assert "a graph that is not a grid" in err and "save it as .json" in err


def test_a_graph_with_other_names_is_no_grid(tmp_path):
    g = {"directed": False, "multigraph": False, "graph": {"mines": 1},
         "nodes": [{"id": "a", "state": "M"}, {"id": "b", "state": "H"}],
         "edges": [{"source": "a", "target": "b"}]}
    (tmp_path / "p.json").write_text(json.dumps(g))
    assert grid_of_graph(read_board(tmp_path / "p.json")) is None
