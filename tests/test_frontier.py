"""Boxes and components: the geometry-free view the backends get."""

from __future__ import annotations

from itertools import pairwise

import networkx as nx
from hypothesis import given
from hypothesis import strategies as st
from strategies import positions

from exactmines import analyze
from exactmines.analysis.backends.dp import _propagate
from exactmines.analysis.frontier import (
    Component,
    _bits,
    box_graph,
    build_frontier,
    group_rules,
)
from exactmines.io.formats import position_from_text


def test_boxes_group_cells_under_the_same_numbers():
    position = position_from_text("5x2x3\nHHHHH\n1HHH1\n")
    frontier = build_frontier(position)
    assert len(frontier.components) == 2
    cells = frontier.box_cells
    # The left 1 touches (0,0) (0,1) (1,1): one box of three cells.
    assert cells[0] == (((0, 0), (0, 1), (1, 1)),)
    assert frontier.components[0].sizes == (3,)
    assert frontier.components[0].constraints[0].mines == 1
    assert frontier.outside == ((0, 2), (1, 2))
    assert frontier.mines_left == 3


def test_components_are_linked_through_shared_numbers():
    # Both 1s see (0,1) and (1,1): one box of two shared cells links them.
    frontier = build_frontier(position_from_text("3x2x1\nHHH\n1H1\n"))
    assert len(frontier.components) == 1
    component = frontier.components[0]
    assert frontier.box_cells[0] == (((0, 0),), ((0, 1), (1, 1)), ((0, 2),))
    assert component.sizes == (1, 2, 1)
    assert [(c.boxes, c.mines) for c in component.constraints] == [((0, 1), 1), ((1, 2), 1)]
    # Two separate 1s with nothing in common stay apart.
    assert len(build_frontier(position_from_text("4x2x2\nHHHH\n1HH1\n")).components) == 2


def test_flags_reduce_the_number_and_the_count():
    position = position_from_text("3x2x2\n1FH\nHHH\n")
    frontier = build_frontier(position)
    assert frontier.mines_left == 1
    assert [c.mines for comp in frontier.components for c in comp.constraints] == [0]


def test_contradictions_on_their_face():
    assert build_frontier(position_from_text("3x1x2\nF1F\n")).contradiction
    assert build_frontier(position_from_text("3x2x1\n3HH\n0HH\n")).contradiction
    assert build_frontier(position_from_text("2x1x0\n1H\n")).contradiction is None


@given(positions(max_covered=14))
def test_partition_is_exact_and_deterministic(position):
    frontier = build_frontier(position)
    seen = [cell for boxes in frontier.box_cells for box in boxes for cell in box]
    seen += list(frontier.outside)
    assert sorted(seen) == position.covered
    assert len(seen) == len(set(seen))
    firsts = [boxes[0][0] for boxes in frontier.box_cells]
    assert firsts == sorted(firsts)
    for component, boxes in zip(frontier.components, frontier.box_cells, strict=True):
        assert component.sizes == tuple(len(b) for b in boxes)
        for rule in component.constraints:
            assert rule.boxes == tuple(sorted(set(rule.boxes)))
    assert build_frontier(position) == frontier


@given(positions(max_side=7, max_covered=30))
def test_components_are_the_connected_components_of_the_cells(position):
    # Oracle from the grid alone: covered cells next to a number, joined when some number
    # touches both; networkx's components, as sets of cells, are the frontier's components
    # (found by a union-find), and each component's box graph is connected.
    def near(r, c):
        return {(r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)
                if (dr or dc) and 0 <= r + dr < position.height and 0 <= c + dc < position.width}

    numbers = [(r, c) for r, row in enumerate(position.rows) for c, ch in enumerate(row)
               if ch.isdigit()]
    covered = set(position.covered)
    graph = nx.Graph()
    for q in numbers:
        cells = sorted(near(*q) & covered)
        graph.add_nodes_from(cells)
        graph.add_edges_from(pairwise(cells))
    expected = sorted(sorted(nodes) for nodes in nx.connected_components(graph))
    frontier = build_frontier(position)
    found = [sorted(cell for box in boxes for cell in box) for boxes in frontier.box_cells]
    assert found == expected
    boxes = box_graph(frontier)
    assert boxes.number_of_nodes() == sum(len(c.sizes) for c in frontier.components)
    assert nx.number_connected_components(boxes) == len(frontier.components)


@given(st.lists(st.tuples(st.integers(1, (1 << 12) - 1), st.integers(0, 3)), max_size=12))
def test_group_rules_matches_connected_components(rules):
    # Oracle: rules are nodes, linked when their cells meet; networkx's components.
    graph = nx.Graph()
    graph.add_nodes_from(set(rules))
    graph.add_edges_from((a, b) for a in set(rules) for b in set(rules)
                         if a != b and a[0] & b[0])
    expected = {tuple(sorted(nodes)) for nodes in nx.connected_components(graph)}
    groups = group_rules(rules)
    assert {members for _, members in groups} == expected
    for cells, members in groups:
        union = 0
        for free, _ in members:
            union |= free
        assert cells == union
    everything = 0
    for cells, _ in groups:
        assert not cells & everything  # components share no cell
        everything |= cells


@given(positions(max_side=7, max_covered=30, allow_lies=True))
def test_forced_boxes_are_what_the_rules_force_on_their_own(position):
    # The frontier's whole-board propagation against the DP's own, box by box; on a
    # contradiction there is no hint and the DP finds it itself.
    frontier = build_frontier(position)
    for component in frontier.components:
        propagated = _propagate(component)
        if component.forced is None:
            continue
        assert propagated is not None, position
        assert list(component.forced) == propagated[0], position
    assert all(c.forced is None for c in frontier.components) or all(
        _propagate(c) is not None for c in frontier.components)


def test_forced_is_not_part_of_a_component():
    frontier = build_frontier(position_from_text("4x3x2\nHHHH\n1H2H\nHHHH\n"))
    component = frontier.components[0]
    assert component.forced is not None
    bare = Component(component.sizes, component.constraints)
    assert bare == component and hash(bare) == hash(component) and bare.forced is None


def test_a_contradiction_met_while_propagating_leaves_no_forced_boxes():
    # Each number is possible on its face, but the 0 clears both covered cells, and the 1
    # then needs a mine among none: no hint, and the count finds no layout.
    frontier = build_frontier(position_from_text("2x2\n1H\n0H\n"))
    assert frontier.contradiction is None
    assert [c.forced for c in frontier.components] == [None]
    assert analyze(position_from_text("2x2\n1H\n0H\n")).consistent is False


#: Masks both sparse (a few bits in thousands: read from the runs of zeros) and dense (one
#: pass over every place).
masks = st.one_of(st.integers(0, 2**700),
                  st.sets(st.integers(0, 3000), max_size=40).map(
                      lambda bits: sum(1 << b for b in bits)))


@given(masks)
def test_bits_are_the_set_bits_ascending(mask):
    assert _bits(mask) == [i for i in range(mask.bit_length()) if mask >> i & 1]
