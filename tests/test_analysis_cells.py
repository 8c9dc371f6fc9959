"""The cells of an analysis: made on first read, the same answers as a tuple of cells."""

from __future__ import annotations

import pickle
from fractions import Fraction

from hypothesis import given, settings
from strategies import positions

from exactmines import analyze
from exactmines.analysis.analyze import CellAnalysis, Cells
from exactmines.analysis.backends import get_backend
from exactmines.analysis.combine import combine, combine_ratios
from exactmines.analysis.frontier import build_frontier
from exactmines.io.formats import position_from_text


@settings(max_examples=150)
@given(positions(max_side=6, max_covered=16, allow_lies=True))
def test_cells_read_from_the_boxes_agree_with_the_cell_objects(position):
    result = analyze(position)
    cells = tuple(result.cells)  # the objects, made here
    assert all(isinstance(c, CellAnalysis) for c in cells)
    assert [c.cell for c in cells] == position.covered
    assert len(result.cells) == len(cells)
    fresh = analyze(position)  # nothing read yet: answered from the boxes
    assert fresh.safe == [c.cell for c in cells if c.verdict == "safe"]
    assert fresh.mines == [c.cell for c in cells if c.verdict == "mine"]
    assert fresh.unique == (result.consistent is True
                            and all(c.verdict != "unknown" for c in cells))
    assert fresh.cells == cells == result.cells
    assert hash(fresh.cells) == hash(cells)
    for c in cells:
        assert result.cell(c.row, c.col) is c
        assert c.probability is None or type(c.probability) is Fraction
        assert c.probability is None or c.verdict == (
            "safe" if c.probability == 0 else "mine" if c.probability == 1 else "unknown")


def test_cells_pickle_and_compare_as_tuples():
    result = analyze(position_from_text("4x3x3\nHHHH\n1221\nHHHH\n"))
    back = pickle.loads(pickle.dumps(result))
    assert back == result
    assert isinstance(back.cells, Cells)
    assert list(back.cells) == list(result.cells)
    assert result.cells[1:3] == tuple(result.cells)[1:3]
    assert result.cells != tuple(result.cells)[1:]
    assert len(result.cells) == 8 and result.cells[-1].cell == (2, 3)


def test_the_outside_cells_take_the_outside_value():
    # A lone 0 settles nothing off the frontier: every other cell has the outside value,
    # and with as many mines as cells off the frontier they are all mines.
    result = analyze(position_from_text("3x3x5\n0HH\nHHH\nHHH\n"))
    assert result.mines == [(0, 2), (1, 2), (2, 0), (2, 1), (2, 2)]
    assert result.safe == [(0, 1), (1, 0), (1, 1)]
    assert result.unique


def test_ratios_are_the_fractions_of_combine():
    position = position_from_text("6x3x4\nHHHHHH\nH121HH\nHHHHHH\n")
    frontier = build_frontier(position)
    counts = [get_backend("dp").count(c) for c in frontier.components]
    sizes = [c.sizes for c in frontier.components]
    args = (counts, sizes, len(frontier.outside), frontier.mines_left)
    ratios, combined = combine_ratios(*args), combine(*args)
    assert ratios.layouts == combined.layouts
    assert [[Fraction(*r) for r in box] for box in ratios.box] == \
        [list(box) for box in combined.box_probability]
    assert Fraction(*ratios.outside) == combined.outside_probability
