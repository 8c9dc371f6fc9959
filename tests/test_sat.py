"""SAT engine specifics: the sorting network that bounds the total, its size, and the auto
engine's fall-back to SAT enumeration on components too wide for the DP. Agreement with
brute force on random positions is in the shared property tests (``backend`` fixture)."""

from __future__ import annotations

import json
from itertools import product
from math import log2
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pysat.solvers import Solver

from exactmines import analyze, read_position
from exactmines.analysis.backends import get_backend
from exactmines.analysis.backends.auto import AutoBackend
from exactmines.analysis.backends.dp import DPBackend
from exactmines.analysis.backends.sat import _Session, sorting_network
from exactmines.analysis.frontier import Component, Constraint

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("n", range(1, 10))
def test_sorting_network_sorts_every_input(n):
    with Solver(name="cd153") as solver:
        outputs, clauses, _ = sorting_network(list(range(1, n + 1)), n + 1)
        solver.append_formula(clauses)
        assert len(outputs) == n
        for bits in product((False, True), repeat=n):
            assumptions = [v if bit else -v for v, bit in zip(range(1, n + 1), bits,
                                                               strict=True)]
            assert solver.solve(assumptions=assumptions)
            model = solver.get_model()
            assert model is not None
            got = [model[abs(o) - 1] > 0 for o in outputs]
            assert got == [i < sum(bits) for i in range(n)]


@pytest.mark.parametrize("n", range(1, 8))
def test_sorting_network_works_backwards(n):
    """Fixing outputs constrains the inputs: 'at least i' and 'at most i' are both sound."""
    with Solver(name="cd153") as solver:
        outputs, clauses, _ = sorting_network(list(range(1, n + 1)), n + 1)
        solver.append_formula(clauses)
        for k in range(n + 1):
            exact = ([outputs[k - 1]] if k else []) + ([-outputs[k]] if k < n else [])
            seen = set()
            while solver.solve(assumptions=exact):
                model = solver.get_model()
                assert model is not None
                bits = tuple(model[v - 1] > 0 for v in range(1, n + 1))
                assert sum(bits) == k
                seen.add(bits)
                solver.add_clause([-v if bit else v for v, bit in zip(range(1, n + 1), bits,
                                                                      strict=True)])
            assert len(seen) == len([b for b in product((0, 1), repeat=n) if sum(b) == k])


def test_counter_is_near_linear_in_cells():
    """n log^2 n / 4 comparators of 6 clauses: what keeps an 8,847-cell component in
    hundreds of megabytes (an incremental totalizer over it took 15 GB)."""
    n = 4096
    _, network, _ = sorting_network(list(range(1, n + 1)), n + 1)
    clauses = len(network)
    assert clauses <= 6 * n * log2(n) ** 2 / 4
    assert clauses < n * n / 16  # a totalizer has n^2 / 4 at its root alone


def test_unbounded_questions_build_no_counter():
    component = Component((3, 2), (Constraint((0, 1), 2),))
    with _Session(component) as session:
        assert session.between(0, component.cells) == []
        assert session._sorted is None


@st.composite
def components(draw: st.DrawFn) -> Component:
    sizes = draw(st.lists(st.integers(1, 3), min_size=1, max_size=6))
    n = len(sizes)
    rules = draw(st.lists(st.sets(st.integers(0, n - 1), min_size=1), min_size=1,
                          max_size=4))
    covered = set().union(*rules)
    rules += [{b} for b in range(n) if b not in covered]
    return Component(tuple(sizes), tuple(
        Constraint(tuple(sorted(r)), draw(st.integers(0, sum(sizes[b] for b in r))))
        for r in rules))


@given(component=components(), data=st.data())
def test_deduce_under_a_bound_matches_brute_force(component, data):
    # Allowed sets drawn from the numbers the component can hold, so that a bound really
    # removes layouts: arbitrary sets are mostly empty or allow everything, and then the
    # bounded second pass of deduce is never needed.
    numbers = sorted(get_backend("brute").count(component).mine_numbers())
    allowed = frozenset(data.draw(st.sets(st.sampled_from(numbers)))) if numbers \
        else frozenset()
    assert get_backend("sat").deduce(component, allowed) == \
        get_backend("brute").deduce(component, allowed)


def test_deduce_needs_the_bounded_pass():
    # Unbounded, boxes 1 and 4 can each be mined or clear; with 8 mines box 1 is clear and
    # box 4 a mine. Skipping deduce's bounded second pass missed that.
    component = Component((3, 3, 3, 1, 1, 1), (Constraint((0, 1, 2, 3, 5), 7),
                                               Constraint((1, 4), 1)))
    expected = get_backend("brute").deduce(component, frozenset({8}))
    assert expected != get_backend("brute").deduce(component, frozenset({7, 8}))
    assert get_backend("sat").deduce(component, frozenset({8})) == expected


@given(component=components(), data=st.data())
def test_bounded_questions_match_counts(component, data):
    counts = get_backend("brute").count(component)
    sat = get_backend("sat")
    assert sat.mine_numbers(component) == counts.mine_numbers()
    allowed = frozenset(data.draw(st.sets(st.integers(0, component.cells))))
    expected = get_backend("brute").deduce(component, allowed)
    assert sat.deduce(component, allowed) == expected


def test_auto_counts_a_component_too_wide_for_dp_by_enumeration():
    """A compiled formula: one wide component with two layouts. With a tiny DP table cap,
    auto must still count it exactly (SAT enumeration), not fall back to verdicts."""
    path = ROOT / "instances" / "sat-3sat-v5-c21-seed2-000.mine"
    truth = json.loads(path.with_suffix(".json").read_text())
    engine = AutoBackend(counter=DPBackend(max_states=64, max_kept=64), model_counter=None)
    result = analyze(read_position(path), backend=engine, time_limit=60)
    assert result.probabilities_computed
    assert result.layouts == truth["model_count"] == 2
    plain = analyze(read_position(path), backend="sat")
    assert result.cells == plain.cells
