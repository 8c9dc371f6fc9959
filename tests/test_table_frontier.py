"""The frontier of any topology (frontier.py's table path) against the square grid's."""

from __future__ import annotations

from hypothesis import given, settings

from exactmines.analysis.frontier import build_frontier, split_forced
from exactmines.position import Position
from exactmines.topology import make_topology
from tests.strategies import positions

#: The square grid's neighbourhood written as offsets: the general path on the same graph.
KING = tuple((dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc)


def as_offsets(position: Position) -> Position:
    topology = make_topology("offsets", position.width, position.height, offsets=KING)
    return Position(position.width, position.height, position.mines, position.rows, topology)


@settings(max_examples=300, deadline=None)
@given(positions(max_side=6, max_covered=20, allow_lies=True))
def test_the_general_path_cuts_the_square_grid_as_the_square_path_does(position):
    square, general = build_frontier(position), build_frontier(as_offsets(position))
    assert general == square
    assert [c.constraints for c in general.components] == \
        [c.constraints for c in square.components]
    assert general.components[0].forced is None if general.components else True


def test_a_torus_without_numbers_on_the_wrap_cuts_as_the_square_grid():
    rows = ("HHHHH", "H111H", "H1H1H", "H111H", "HHHHH")
    square = Position(5, 5, 3, rows)
    torus = Position(5, 5, 3, rows, make_topology("torus", 5, 5))
    assert build_frontier(torus) == build_frontier(square)
    assert split_forced(torus) is None


def test_a_number_across_the_wrap_counts_the_far_side():
    rows = ("1HH", "HHH", "HHH")
    frontier = build_frontier(Position(3, 3, None, rows, make_topology("torus", 3, 3)))
    assert frontier.box_cells == (((((0, 1), (0, 2), (1, 0), (1, 1), (1, 2), (2, 0), (2, 1),
                                     (2, 2)),),))
    assert frontier.outside == ()


def test_contradictions_name_the_cell_in_the_topology_words():
    cube = make_topology("cube", 2, 4, layers=2)
    frontier = build_frontier(Position(2, 4, None, ("0F", "HH", "HH", "HH"), cube))
    assert frontier.contradiction == ("the 0 at layer 0, row 0, col 0 has 1 flag and 6 "
                                      "covered cells around it")
