"""The chance that any of several cells holds a mine, against the brute-force oracle."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from oracle import chance_any, truth
from strategies import positions

from exactmines.analysis.frontier import Component, Constraint
from exactmines.analysis.joint import any_mine, clear_component
from exactmines.errors import InputError
from exactmines.io.formats import position_from_text


@given(data=st.data(), position=positions(max_covered=12, allow_lies=True))
def test_any_mine_is_the_share_of_layouts_with_a_mine_among_the_cells(backend, data, position):
    covered = position.covered
    assume(covered)
    cells = data.draw(st.sets(st.sampled_from(covered), min_size=1, max_size=4))
    assert any_mine(position, cells, backend=backend) == chance_any(position, cells)


@given(position=positions(max_covered=12, count_known=True))
def test_one_cell_is_its_own_probability(position):
    assume(position.covered)
    expected = truth(position)
    for cell in position.covered:
        assert any_mine(position, [cell]) == expected.probability[cell]


def test_a_chord_is_not_the_sum_of_its_cells():
    # Two mines among five covered cells: each cell 2/5, but two cells together hide a mine
    # in 1 - C(3, 2) / C(5, 2) = 7/10 of the layouts, not 4/5.
    open_row = position_from_text("5x1x2\nHHHHH\n", "t")
    assert any_mine(open_row, [(0, 0)]) == Fraction(2, 5)
    assert any_mine(open_row, [(0, 0), (0, 4)]) == Fraction(7, 10)
    # A 1 between two covered cells: one of them is the mine, so both together are certain.
    position = position_from_text("3x1x1\nH1H\n", "t")
    assert any_mine(position, [(0, 0), (0, 2)]) == 1
    assert any_mine(position, [(0, 2)]) == Fraction(1, 2)


def test_undefined_without_layouts_or_off_the_frontier_without_a_count():
    assert any_mine(position_from_text("3x1x2\nH1H\n", "t"), [(0, 0)]) is None
    assert any_mine(position_from_text("4x1\nH1HH\n", "t"), [(0, 3)]) is None
    assert any_mine(position_from_text("4x1\nH1HH\n", "t"), [(0, 2)]) == Fraction(1, 2)


def test_only_covered_cells_can_be_asked_about():
    with pytest.raises(InputError, match="row 0, col 1 is not a covered"):
        any_mine(position_from_text("3x1x1\nH1F\n", "t"), [(0, 1)])
    with pytest.raises(InputError, match="row 0, col 2 is not a covered"):
        any_mine(position_from_text("3x1x1\nH1F\n", "t"), [(0, 2)])


def test_clear_component_splits_the_boxes_and_adds_a_rule_of_no_mines():
    component = Component((2, 1), (Constraint((0, 1), 1),))
    cells = (((0, 0), (0, 1)), ((1, 0),))
    split, sizes = clear_component(component, cells, frozenset({(0, 1), (1, 0)}))
    assert sizes == (1, 1, 1)
    assert split.constraints == (Constraint((0, 1, 2), 1), Constraint((1, 2), 0))
