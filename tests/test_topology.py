"""Topologies: neighbour tables, dilation, masks, and the position model on them."""

from __future__ import annotations

import json
import pickle
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactmines.position import Board, Position
from exactmines.topology import (
    GRID_KINDS,
    KINDS,
    KNIGHT,
    SHAPES,
    Topology,
    char_number,
    graph_topology,
    make_topology,
    named_topology,
    neighbour_table,
    number_char,
    parse_topology_word,
    square,
)


def grid(kind: str, width: int, height: int) -> Topology:
    if kind == "cube":
        return make_topology("cube", width, height * 3, layers=3)
    if kind == "offsets":
        return make_topology("offsets", width, height, offsets=((0, 2), (0, -2), (2, 0),
                                                                (-2, 0)))
    return make_topology(kind, width, height)


@pytest.mark.parametrize("kind", GRID_KINDS)
def test_every_grid_table_is_symmetric_without_loops(kind):
    topology = grid(kind, 6, 5)
    table = topology.neighbour_table
    assert len(table) == topology.cells
    for i, around in enumerate(table):
        assert i not in around
        assert list(around) == sorted(set(around))
        for n in around:
            assert i in table[n]


@pytest.mark.parametrize(("kind", "interior"), [("square", 8), ("torus", 8), ("cylinder", 8),
                                                ("hex", 6), ("triangle", 12), ("knight", 8)])
def test_an_interior_cell_has_the_documented_number_of_neighbours(kind, interior):
    topology = make_topology(kind, 9, 9)
    assert topology.degree(4 * 9 + 4) == interior
    assert topology.max_degree == interior


def test_cube_cells_have_26_neighbours_inside_and_7_at_a_corner():
    cube = make_topology("cube", 3, 9, layers=3)
    assert cube.degree(1 * 9 + 1 * 3 + 1) == 26  # layer 1, row 1, col 1
    assert cube.degree(0) == 7
    assert cube.cell_text((4, 2)) == "layer 1, row 1, col 2"


def test_every_torus_cell_has_8_neighbours_and_the_wrap_joins_opposite_sides():
    torus = make_topology("torus", 5, 4)
    assert all(len(around) == 8 for around in torus.neighbour_table)
    assert (3, 4) in torus.neighbours((0, 0))
    assert (0, 0) in torus.neighbours((3, 4))


def test_a_cylinder_wraps_its_columns_and_not_its_rows():
    cylinder = make_topology("cylinder", 5, 4)
    assert cylinder.neighbours((1, 0)) == [(0, 0), (0, 1), (0, 4), (1, 1), (1, 4), (2, 0),
                                           (2, 1), (2, 4)]
    assert cylinder.neighbours((0, 4)) == [(0, 0), (0, 3), (1, 0), (1, 3), (1, 4)]
    assert (3, 2) not in cylinder.neighbours((0, 2))  # the top and bottom rows are edges
    assert named_topology("cylinder", 5, 4) == cylinder and cylinder.word == "cylinder"
    assert cylinder.shape.wraps == (False, True)


def test_every_kind_is_one_shape_and_the_tests_draw_every_kind():
    from strategies import KINDS as DRAWN

    assert KINDS == tuple(SHAPES) == DRAWN
    for word, shape in SHAPES.items():
        assert shape.word == word and shape.title.startswith(f"{word}: ")
        assert shape.cell in ("square", "hex", "triangle", "cube", "node")
        assert bool(shape.steps) != (word in ("cube", "knight", "offsets", "graph"))
        if shape.page:  # what the page's drawers and its neighbour function know
            assert shape.cell in ("square", "hex") and shape.parity in ("none", "row")


def test_the_node_tests_read_the_servers_list_of_page_topologies():
    from exactmines.ui.web.games import PAGE_KINDS, page_topologies

    kept = json.loads((Path(__file__).parent / "js" / "topologies.json").read_text())
    # (Written again: python -c "import json; from exactmines.ui.web.games import
    # page_topologies as p; print('[\n' + ',\n'.join(' ' + json.dumps(e) for e in p())
    # + '\n]')" > tests/js/topologies.json)
    assert kept == page_topologies(), "tests/js/topologies.json is not the server's list"
    assert [entry["word"] for entry in kept] == list(PAGE_KINDS)
    for entry in kept:  # the page's neighbours (topology.js) are the table's
        topology = named_topology(entry["word"], 5, 4)
        for i in range(topology.cells):
            r, c = divmod(i, 5)
            found = set()
            for dr, dc in entry["steps"][r % 2]:
                rr, cc = r + dr, c + dc
                rr = rr % 4 if entry["wraps"][0] else rr
                cc = cc % 5 if entry["wraps"][1] else cc
                if 0 <= rr < 4 and 0 <= cc < 5 and (rr, cc) != (r, c):
                    found.add(rr * 5 + cc)
            assert found == set(topology.neighbour_table[i]), (entry["word"], i)


def test_hex_neighbours_are_odd_r_offset_coordinates():
    hexes = make_topology("hex", 5, 5)
    # Even row 2: the rows above and below at columns c - 1 and c.
    assert hexes.neighbours((2, 2)) == [(1, 1), (1, 2), (2, 1), (2, 3), (3, 1), (3, 2)]
    # Odd row 1: at columns c and c + 1.
    assert hexes.neighbours((1, 2)) == [(0, 2), (0, 3), (1, 1), (1, 3), (2, 2), (2, 3)]


def test_triangle_neighbours_share_an_edge_or_a_corner():
    triangles = make_topology("triangle", 7, 5)
    up = triangles.neighbours((2, 2))  # 2 + 2 even: points up
    assert up == [(1, 1), (1, 2), (1, 3), (2, 0), (2, 1), (2, 3), (2, 4),
                  (3, 0), (3, 1), (3, 2), (3, 3), (3, 4)]
    down = triangles.neighbours((2, 3))
    assert down == [(1, 1), (1, 2), (1, 3), (1, 4), (1, 5), (2, 1), (2, 2), (2, 4), (2, 5),
                    (3, 2), (3, 3), (3, 4)]


def test_knight_moves():
    knight = make_topology("knight", 8, 8)
    assert knight.offsets == tuple(sorted(KNIGHT))
    assert knight.neighbours((0, 0)) == [(1, 2), (2, 1)]


@pytest.mark.parametrize("kind", GRID_KINDS)
@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_dilate_adds_exactly_the_neighbours(kind, data):
    topology = grid(kind, data.draw(st.integers(1, 6)), data.draw(st.integers(1, 5)))
    mask = data.draw(st.integers(0, (1 << topology.cells) - 1))
    expected = mask
    for i, around in enumerate(topology.masks()):
        if mask >> i & 1:
            expected |= around
    assert topology.dilate(mask) == expected
    assert all(topology.mask_of(i) == m for i, m in enumerate(topology.masks()))


def test_the_square_topology_is_the_square_grid_helpers():
    topology = square(7, 4)
    assert topology is square(7, 4)
    assert topology.neighbour_table == neighbour_table(7, 4)
    assert [topology.degree(i) for i in range(28)] == [len(a) for a in neighbour_table(7, 4)]
    assert topology.max_degree == 8
    assert square(1, 1).max_degree == 0
    assert square(2, 1).max_degree == 1


def test_positions_and_boards_default_to_the_square_grid_and_keep_theirs():
    position = Position(3, 2, 1, ("1H1", "HHH"))
    assert position.topology == square(3, 2)
    torus = make_topology("torus", 3, 2)
    on_torus = Position(3, 2, 1, ("1H1", "HHH"), torus)
    assert on_torus != position
    assert on_torus.with_mines(None).topology == torus
    assert pickle.loads(pickle.dumps(on_torus)) == on_torus
    board = Board(3, 2, frozenset({(1, 1)}), torus)
    assert board.position({(0, 0)}).topology == torus
    with pytest.raises(ValueError, match="topology"):
        Position(3, 2, 1, ("1H1", "HHH"), make_topology("torus", 2, 3))


def test_board_numbers_count_the_topology_neighbours():
    mines = frozenset({(0, 0)})
    assert Board(4, 4, mines).numbers()[15] == 0
    assert Board(4, 4, mines, make_topology("torus", 4, 4)).numbers()[15] == 1
    triangles = make_topology("triangle", 6, 3)
    board = Board(6, 3, frozenset(triangles.neighbours((1, 2))), triangles)
    assert board.number((1, 2)) == 12
    assert board.position({(1, 2)}).rows[1][2] == "c"


def test_numbers_above_nine_are_letters():
    assert [number_char(n) for n in (0, 9, 10, 12, 26, 35)] == ["0", "9", "a", "c", "q", "z"]
    assert all(char_number(number_char(n)) == n for n in range(200))
    position = Position(2, 1, None, ("cH",), graph_topology(["a", "b"], [(0, 1)]))
    assert position.number((0, 0)) == 12 and position.number((0, 1)) is None


def test_topology_words():
    assert parse_topology_word("torus") == ("torus", ())
    assert parse_topology_word("offsets:0,1;0,-1") == ("offsets", ((0, -1), (0, 1)))
    for bad, message in [("donut", "unknown topology"), ("offsets:0,1", "symmetric"),
                         ("offsets:0,0", "itself"), ("offsets:1;2", "bad offsets")]:
        with pytest.raises(ValueError, match=message):
            parse_topology_word(bad)
    assert make_topology("offsets", 3, 3, offsets=((0, 1), (0, -1))).word == "offsets:0,-1;0,1"


def test_graph_topology_checks_its_edges():
    topology = graph_topology(["x", "y", "z"], [(0, 1), (1, 1), (1, 0)])
    assert topology.neighbour_table == ((1,), (0,), ())
    assert topology.cell_text((0, 2)) == "node 'z'"
    with pytest.raises(ValueError, match="not there"):
        graph_topology(["x"], [(0, 3)])
    with pytest.raises(ValueError, match="at least one node"):
        graph_topology([], [])
