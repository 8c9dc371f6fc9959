"""The DP counter: exact against brute force, the oracle and SAT, on random components and on
the position families that make fronts wide (lattices of clicks, sparse reveals); and the
fall-back of ``auto`` when counting is infeasible."""

from __future__ import annotations

import json
import random
import time
from math import comb, prod
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_analysis import assert_matches_oracle

from exactmines import analyze
from exactmines.analysis.backends import VerdictsOnly, dp, get_backend
from exactmines.analysis.backends.auto import AutoBackend
from exactmines.analysis.backends.brute import BruteForceBackend
from exactmines.analysis.backends.dp import DPBackend, count_component, forward_states, sweep_order
from exactmines.analysis.backends.sat import SatBackend
from exactmines.analysis.frontier import Component, Constraint, build_frontier
from exactmines.budget import UNLIMITED, Budget
from exactmines.errors import OutOfTime, TooLarge
from exactmines.game import Game, random_board
from exactmines.position import Board, Position
from exactmines.ui.cli import main


@st.composite
def components(draw: st.DrawFn, max_boxes: int = 7, max_cells: int = 12) -> Component:
    """Boxes of 1-3 cells and rules over them, now and then one that cannot be met."""
    sizes = draw(st.lists(st.integers(1, 3), min_size=1, max_size=max_boxes))
    while sum(sizes) > max_cells:
        sizes.pop()
    rules = []
    for _ in range(draw(st.integers(0, 7))):
        boxes = tuple(sorted(draw(st.sets(st.integers(0, len(sizes) - 1), min_size=1,
                                          max_size=min(4, len(sizes))))))
        room = sum(sizes[b] for b in boxes)
        rules.append(Constraint(boxes, draw(st.integers(-1, room + 1))))
    return Component(tuple(sizes), tuple(rules))


@pytest.mark.parametrize(("small", "carried_boxes", "carried_states", "enumerated"),
                         [(dp._SMALL, dp._CARRIED_BOXES, dp._CARRIED_STATES,
                           dp._ENUMERATED_NODES),
                          (dp._SMALL, dp._CARRIED_BOXES, dp._CARRIED_STATES, 3),
                          (dp._SMALL, dp._CARRIED_BOXES, dp._CARRIED_STATES, 0),
                          (dp._SMALL, dp._CARRIED_BOXES, 1, 0), (dp._SMALL, 0, 1, 0),
                          (0, 0, 1, 0)])
@given(component=components())
def test_counts_equal_brute_force(small, carried_boxes, carried_states, enumerated,
                                  component):
    # Every path: tiny parts enumerated; the same giving up past 3 search nodes (then the
    # sweeps); small parts carrying their sums in one sweep; the same giving up past one
    # state (then two sweeps); two sweeps from the start; small=0 sends every component
    # through all three sweeps (the path of big components).
    saved = dp._SMALL, dp._CARRIED_BOXES, dp._CARRIED_STATES, dp._ENUMERATED_NODES
    dp._SMALL, dp._CARRIED_BOXES, dp._CARRIED_STATES, dp._ENUMERATED_NODES = \
        small, carried_boxes, carried_states, enumerated
    try:
        assert count_component(component) == BruteForceBackend().count(component)
    finally:
        dp._SMALL, dp._CARRIED_BOXES, dp._CARRIED_STATES, dp._ENUMERATED_NODES = saved


@given(components(max_boxes=6, max_cells=10), st.randoms(use_true_random=False))
def test_counts_do_not_depend_on_box_numbering(component, rng):
    # Renumbering the boxes changes the sweep order and the slots; the counts must follow.
    n = len(component.sizes)
    perm = list(range(n))
    rng.shuffle(perm)  # new index of old box b is perm[b]
    inverse = sorted(range(n), key=lambda b: perm[b])
    shuffled = Component(tuple(component.sizes[b] for b in inverse),
                         tuple(Constraint(tuple(sorted(perm[b] for b in r.boxes)), r.mines)
                               for r in component.constraints))
    a, b = count_component(component), count_component(shuffled)
    assert a.layouts == b.layouts
    assert all(a.box_mines[k][old] == b.box_mines[k][perm[old]]
               for k in range(len(a.layouts)) for old in range(n))


def test_sweep_order_is_a_permutation():
    component = Component((1, 2, 1, 1), (Constraint((0, 1), 1), Constraint((2,), 1)))
    assert sorted(sweep_order(component)) == [0, 1, 2, 3]
    assert sweep_order(Component((), ())) == []


def test_a_long_chain_stays_narrow():
    # 1-2-1 rules along a chain of 2000 boxes: a good sweep keeps two rules open at a time.
    n = 2000
    component = Component((1,) * n, tuple(Constraint((i, i + 1, i + 2), 1)
                                          for i in range(n - 2)))
    assert max(forward_states(component)) <= 4
    counts = count_component(component)
    # Exactly one mine in every 3 consecutive cells: the layouts are the 3 shifts of 100100...
    assert counts.total == 3


def test_forced_boxes_and_parts():
    # A 0 clears its box, a full rule fills its box; the two 1s left are independent parts.
    rules = (Constraint((0,), 0), Constraint((1,), 2), Constraint((0, 2), 1),
             Constraint((1, 3), 3), Constraint((3, 4), 1))
    component = Component((1, 2, 2, 1, 1), rules)
    assert count_component(component) == BruteForceBackend().count(component)


# --- position families -------------------------------------------------------------------

def lattice(board: Board, step: int = 2) -> Position:
    """Click every safe cell of the lattice (step-th rows and columns), zeros flooding."""
    game = Game(board)
    for r in range(0, board.height, step):
        for c in range(0, board.width, step):
            if (r, c) not in board.mine_cells and not game.is_revealed((r, c)):
                game.reveal((r, c))
    return game.position()


@st.composite
def lattice_positions(draw: st.DrawFn, max_side: int = 6) -> Position:
    width = draw(st.integers(2, max_side))
    height = draw(st.integers(2, max_side))
    mines = draw(st.integers(0, width * height // 3))
    board = random_board(width, height, mines, random.Random(draw(st.integers(0, 2**32))))
    position = lattice(board)
    return position if draw(st.booleans()) else position.with_mines(None)


@st.composite
def sparse_positions(draw: st.DrawFn, max_side: int = 7) -> Position:
    width = draw(st.integers(2, max_side))
    height = draw(st.integers(2, max_side))
    rng = random.Random(draw(st.integers(0, 2**32)))
    board = random_board(width, height, draw(st.integers(0, width * height // 4)), rng)
    safe = [(r, c) for r in range(height) for c in range(width)
            if (r, c) not in board.mine_cells]
    revealed = rng.sample(safe, draw(st.integers(0, len(safe))))
    return board.position(frozenset(revealed), count_known=draw(st.booleans()))


def oracle_is_quick(position: Position) -> bool:
    covered = sum(row.count("H") for row in position.rows)
    if position.mines is None:
        return covered <= 14
    return comb(covered, position.mines) <= 4000


def assert_same_as_sat(position: Position, backend: str) -> None:
    """Whole analyses agree exactly, and so do the counts of every component."""
    ours, sat = analyze(position, backend=backend), analyze(position, backend="sat")
    assert (ours.consistent, ours.layouts) == (sat.consistent, sat.layouts)
    assert [(c.cell, c.probability, c.verdict) for c in ours.cells] == \
        [(c.cell, c.probability, c.verdict) for c in sat.cells]
    for component in build_frontier(position).components:
        assert get_backend(backend).count(component) == get_backend("sat").count(component)


@pytest.mark.parametrize("backend", ["dp", "auto"])
@given(position=lattice_positions())
def test_lattice_positions(backend, position):
    if oracle_is_quick(position):
        assert_matches_oracle(position, backend)
    else:
        assert_same_as_sat(position, backend)


@pytest.mark.parametrize("backend", ["dp", "auto"])
@given(position=sparse_positions())
def test_sparse_reveal_positions(backend, position):
    if oracle_is_quick(position):
        assert_matches_oracle(position, backend)
    else:
        assert_same_as_sat(position, backend)


@pytest.mark.parametrize("width,height,mines", [(9, 7, 12), (12, 8, 18), (16, 10, 30)])
@pytest.mark.parametrize("seed", range(4))
def test_wider_lattice_fronts_against_sat(width, height, mines, seed):
    # Fronts of 20-75 cells, with few enough layouts for SAT to enumerate them.
    board = random_board(width, height, mines, random.Random(seed))
    assert_same_as_sat(lattice(board), "dp")
    if width * height > 100:
        return  # sparse fronts that wide have too many layouts for SAT to enumerate
    sparse = Board(width, height, board.mine_cells).position(frozenset(
        random.Random(seed).sample(sorted(set(_cells(width, height)) - board.mine_cells),
                                   width * height // 4)))
    assert_same_as_sat(sparse, "dp")


def _cells(width: int, height: int) -> list[tuple[int, int]]:
    return [(r, c) for r in range(height) for c in range(width)]


# --- when counting is infeasible ---------------------------------------------------------

class _NoEnumeration(SatBackend):
    """SAT that refuses to enumerate: what auto meets on a component with too many layouts."""

    def count(self, component, *, budget=UNLIMITED):
        raise TooLarge("too many layouts to enumerate (test)")


def test_auto_counts_by_enumeration_when_too_wide():
    # No table may hold a state: SAT enumeration counts what the DP cannot.
    engine = AutoBackend(counter=DPBackend(max_states=0), model_counter=None)
    for seed in range(8):
        position = lattice(random_board(5, 5, 5, random.Random(seed)))
        result = assert_matches_oracle(position, engine)
        assert result.probabilities_computed


def test_auto_falls_back_to_exact_verdicts_when_nothing_can_count():
    engine = AutoBackend(counter=DPBackend(max_states=0), decider=_NoEnumeration(),
                         model_counter=None)
    fell_back = 0
    for seed in range(8):
        position = lattice(random_board(5, 5, 5, random.Random(seed)))
        result = assert_matches_oracle(position, engine)
        if any("too many layouts" in note for note in result.notes):
            assert not result.probabilities_computed
            fell_back += 1
    assert fell_back


@given(position=lattice_positions(max_side=5))
def test_auto_without_counts_keeps_verdicts_exact(position):
    if oracle_is_quick(position):
        # (Probabilities too when nothing is left to count once the forced cells are set.)
        assert_matches_oracle(position, VerdictsOnly(get_backend("auto")))


def test_deduce_and_mine_numbers_come_from_counts():
    engine = get_backend("auto")
    component = Component((1, 1, 2), (Constraint((0, 1), 1), Constraint((1, 2), 2)))
    counts = count_component(component)
    assert engine.mine_numbers(component) == counts.mine_numbers() == frozenset({2, 3})
    assert engine.deduce(component, frozenset({2})) == get_backend("sat").deduce(
        component, frozenset({2}))


def test_too_wide_is_not_out_of_time():
    # One family of budget exceptions, two kinds: a table past its cap is TooLarge (another
    # method may answer), a spent budget is OutOfTime.
    component = Component((1, 1, 2), (Constraint((0, 1), 1), Constraint((1, 2), 2)))
    with pytest.raises(TooLarge, match="too wide"):
        DPBackend(max_states=0).count(component)
    with pytest.raises(OutOfTime, match="time limit"):
        DPBackend().count(component, budget=Budget(0.0))


def test_each_request_gets_its_own_engine():
    # What an engine learns (here: a component auto could not count) stays with its caller.
    component = Component((1, 1, 2), (Constraint((0, 1), 1), Constraint((1, 2), 2)))
    first, second = get_backend("auto"), get_backend("auto")
    assert first is not second and get_backend("milp") is not get_backend("milp")
    stuck = AutoBackend(counter=DPBackend(max_states=0), decider=_NoEnumeration(),
                        model_counter=None)
    with pytest.raises(TooLarge):
        stuck.count(component)
    assert component in stuck._uncounted
    assert not first._uncounted and not second._uncounted
    assert first.count(component) == second.count(component) == count_component(component)


def test_many_parts_multiply_exactly():
    # 300 disjoint "1 of 3" rules: 3**300 layouts, all with 300 mines; each cell is a mine in
    # a third of them.
    rows = 300
    rules = tuple(Constraint((3 * i, 3 * i + 1, 3 * i + 2), 1) for i in range(rows))
    counts = count_component(Component((1,) * (3 * rows), rules))
    assert counts.mine_numbers() == frozenset({rows})
    assert counts.layouts[rows] == counts.total == prod([3] * rows)
    assert set(counts.box_mines[rows]) == {3 ** (rows - 1)}


def test_a_component_without_boxes_has_one_empty_layout():
    # The player's look-ahead can hand over a part whose cells were all settled.
    empty = Component(sizes=(), constraints=())
    counts = count_component(empty)
    assert counts.layouts == (1,) and counts.box_mines == ((),)


def test_a_component_too_wide_is_not_computed_on_time(capsys):
    # The DP cannot count a compiled formula: the analysis says "not computed" (exit 0), on
    # time, where it took 5.8 s on a 1 s limit and ended with an error as if the input were
    # bad.
    path = Path(__file__).resolve().parents[1] / "instances" / "sat-3sat-v20-c85-seed1-000.mine"
    started = time.monotonic()
    code = main(["analyze", str(path), "--backend", "dp", "--time-limit", "1",
                 "--format", "json"])
    assert time.monotonic() - started < 1.0 + 15.0
    document = json.loads(capsys.readouterr().out)
    assert code == 0 and document["layouts"] is None and document["consistent"] is None
    assert not document["probabilities_computed"] and not document["verdicts_complete"]
    assert any("not counted" in note for note in document["notes"])


@pytest.mark.parametrize("rules", [(), ((0,), 1), ((0,), 2), ((0,), 5), ((0,), 1, (0,), 1),
                                   ((0,), 1, (0,), 2)])
def test_a_single_box_equals_brute_force(rules):
    # One box (the commonest part of a split position): counted in closed form.
    pairs = [(rules[i], rules[i + 1]) for i in range(0, len(rules), 2)]
    component = Component((4,), tuple(Constraint(b, n) for b, n in pairs))
    assert count_component(component) == BruteForceBackend().count(component)


@pytest.mark.parametrize("sizes, rules", [
    ((2,), (((0,), 1),)),
    ((2, 3), (((0, 1), 2),)),
    ((1, 2, 2), (((0, 1), 1), ((1, 2), 2))),
], ids=["one box", "two boxes", "three boxes"])
@pytest.mark.parametrize("asked", [0, 1])
def test_a_rule_over_no_box_says_nothing_or_rules_out_every_layout(backend, sizes, rules,
                                                                   asked):
    # The player's look-ahead counts a probe as one more rule, over no box when the probe
    # misses the component; DP's one-box path took its 0 for a second need of the box and
    # counted no layout (a value of a revealed cell missed from the look-ahead).
    from exactmines.analysis.backends import get_backend
    from exactmines.analysis.frontier import Component, Constraint

    plain = Component(sizes, tuple(Constraint(b, n) for b, n in rules))
    probed = Component(sizes, (*plain.constraints, Constraint((), asked)))
    truth = get_backend("brute").count(plain)
    got = get_backend(backend).count(probed)
    if asked:
        assert not any(got.layouts)
    else:
        assert got.layouts == truth.layouts and got.box_mines == truth.box_mines
