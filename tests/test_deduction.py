"""The shared rules layer against brute force over every layout of a few cells."""

from __future__ import annotations

from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactmines.deduction import NODES, box_search, boxes, component, extremes, group, pair, single
from exactmines.errors import BudgetExceeded, TooLarge


def layouts(rules: list[tuple[int, int]], cells: int) -> list[int]:
    """Every mine set over the rules' cells (of the first ``cells`` bits) satisfying
    ``rules``; shares no code with the layer."""
    covered = 0
    for free, _ in rules:
        covered |= free
    out = []
    for bits in product((0, 1), repeat=cells):
        mask = sum(b << i for i, b in enumerate(bits))
        if mask & ~covered:
            continue
        if all((mask & free).bit_count() == need for free, need in rules):
            out.append(mask)
    return out


def proved(rules: list[tuple[int, int]], cells: int) -> tuple[int, int]:
    """(cells clear in every layout, cells mined in every layout) over the rules' cells."""
    found = layouts(rules, cells)
    covered = 0
    for free, _ in rules:
        covered |= free
    safe, mines = covered, covered
    for mask in found:
        safe &= ~mask
        mines &= mask
    return safe, mines


rule = st.tuples(st.integers(1, 2**8 - 1), st.integers(0, 8)).filter(
    lambda r: r[1] <= r[0].bit_count())


@given(rule)
def test_single_is_what_brute_force_proves_from_one_rule(r):
    assert single(*r) == proved([r], 8)


@st.composite
def consistent_rules(draw: st.DrawFn) -> tuple[tuple[int, int], tuple[int, int]]:
    """Two rules over 8 cells read off one hidden layout (as a board's numbers are), so
    never contradictory: there is something to prove."""
    hidden = draw(st.integers(0, 2**8 - 1))
    a, b = (draw(st.integers(1, 2**8 - 1)) for _ in range(2))
    return (a, (a & hidden).bit_count()), (b, (b & hidden).bit_count())


@given(consistent_rules())
def test_pair_is_sound_and_finds_the_one_two_patterns(rules):
    a, b = rules
    safe, mines = pair(a[0], a[1], b[0], b[1])
    true_safe, true_mines = proved([a, b], 8)
    assert safe & ~true_safe == 0 and mines & ~true_mines == 0
    assert safe & mines == 0
    if not a[0] & b[0]:
        assert (safe, mines) == (0, 0)


def test_pair_examples():
    # 1 over cells {0,1}, 2 over {0,1,2}: cell 2 is a mine (in either order).
    assert pair(0b011, 1, 0b111, 2) == (0, 0b100)
    assert pair(0b111, 2, 0b011, 1) == (0, 0b100)
    # 1 over {0,1}, 1 over {0,1,2}: cell 2 is safe.
    assert pair(0b011, 1, 0b111, 1) == (0b100, 0)
    # 1-2-1 halves: 1 over {0,1}, 2 over {1,2,3} (not enough on its own side): nothing.
    assert pair(0b0011, 1, 0b1110, 2) == (0, 0)
    # 1 over {0,1,2}, 2 over {2,3,4}: the far cells {3,4} are mines, {0,1} safe.
    assert pair(0b00111, 1, 0b11100, 3) == (0b00011, 0b11000)


rules_lists = st.lists(rule, min_size=1, max_size=5)


@settings(max_examples=150)
@given(rules_lists)
def test_extremes_is_brute_force_folded_by_mine_number(rules):
    by_k: dict[int, list[int]] = {}
    for mask in layouts(rules, 8):
        entry = by_k.setdefault(mask.bit_count(), [0, -1])
        entry[0] |= mask
        entry[1] &= mask
    assert extremes(rules, None) == {k: (some, every) for k, (some, every)
                                     in sorted(by_k.items())}


@settings(max_examples=100)
@given(rules_lists)
def test_box_search_weights_count_every_layout(rules):
    masks, of_rule, _ = boxes(rules)
    counted: dict[int, int] = {}

    def leaf(chosen: list[int], weight: int, k: int) -> None:
        counted[k] = counted.get(k, 0) + weight

    box_search([m.bit_count() for m in masks], of_rule, [n for _, n in rules], None, leaf)
    truth: dict[int, int] = {}
    for mask in layouts(rules, 8):
        truth[mask.bit_count()] = truth.get(mask.bit_count(), 0) + 1
    assert counted == truth


def test_boxes_split_cells_by_the_rules_and_the_probe():
    found = boxes([(0b0111, 1), (0b1110, 2)], probe=0b1001)
    assert found.masks == (0b0001, 0b0110, 0b1000)
    assert found.of_rule == ((0, 1), (1, 2))
    assert found.inside == (0, 2)
    made, masks = component([(0b0111, 1), (0b1110, 2)])
    assert masks == (0b0001, 0b0110, 0b1000)
    assert made.sizes == (1, 2, 1)
    assert [(c.boxes, c.mines) for c in made.constraints] == [((0, 1), 1), ((1, 2), 2)]


def test_the_search_stops_at_its_budget():
    # 12 independent 1-1 pairs over cells x, y, z (x+y = 1, y+z = 1): 2**12 solutions,
    # more than NODES search nodes.
    rules = [r for j in range(12) for r in ((0b011 << (3 * j), 1), (0b110 << (3 * j), 1))]
    masks, of_rule, _ = boxes(rules)
    assert len(masks) == 36
    with pytest.raises(TooLarge, match=f"more than {NODES} search nodes"):
        box_search([1] * 36, of_rule, [1] * 24, NODES, lambda *_: None)
    with pytest.raises(BudgetExceeded):
        extremes(rules)
    assert sorted(extremes(rules, None)) == list(range(12, 25))


@given(st.lists(st.lists(st.integers(0, 12), max_size=4), max_size=8))
def test_group_joins_exactly_the_rules_that_share_cells(cells):
    groups = group(cells)
    assert sorted(j for g in groups for j in g) == list(range(len(cells)))
    assert [g[0] for g in groups] == sorted(g[0] for g in groups)
    where = {j: n for n, g in enumerate(groups) for j in g}
    for a in range(len(cells)):
        for b in range(len(cells)):
            if set(cells[a]) & set(cells[b]):
                assert where[a] == where[b]
    # Each group is connected: grow from its first rule through shared cells.
    for g in groups:
        reached, todo = {g[0]}, [g[0]]
        while todo:
            a = todo.pop()
            for b in g:
                if b not in reached and set(cells[a]) & set(cells[b]):
                    reached.add(b)
                    todo.append(b)
        assert reached == set(g)
