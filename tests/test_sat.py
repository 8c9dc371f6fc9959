"""SAT engine specifics: the sorting network that bounds the total, its size, and the auto
engine's fall-back to SAT enumeration on components too wide for the DP. Agreement with
brute force on random positions is in the shared property tests (``backend`` fixture)."""

from __future__ import annotations

import json
import time
from itertools import product
from math import log2
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pysat.solvers import Solver

from exactmines import analyze, read_position, slices
from exactmines.analysis.backends import PartlyProved, get_backend
from exactmines.analysis.backends import sat as sat_engine
from exactmines.analysis.backends.auto import AutoBackend
from exactmines.analysis.backends.dp import DPBackend
from exactmines.analysis.backends.sat import _Session, sorting_network
from exactmines.analysis.frontier import Component, Constraint, build_frontier
from exactmines.budget import Budget
from exactmines.errors import OutOfTime
from exactmines.generate.hardness import compile_cnf, random_ksat
from exactmines.generate.positions import instance_rng

ROOT = Path(__file__).resolve().parents[1]
#: Seconds allowed past a limit (the suite runs on a loaded machine).
MARGIN = 15.0


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


@pytest.fixture(scope="module")
def v30() -> Component:
    """The issue's compiled formula (generate sat --variables 30 --clauses 60 --seed 3): one
    34,216-cell component with 113,738 layouts, every cell free (safe in some layout, a mine
    in another), and a sorting network over it of 12 million clauses."""
    cnf = random_ksat(30, 60, instance_rng("sat", 3, 0))
    (component,) = build_frontier(compile_cnf(cnf).position).components
    return component


def test_every_question_stops_when_the_budget_runs_out(v30):
    # Each ran for minutes before (the encoding, the network and every solve unbounded).
    sat = get_backend("sat")
    everything = frozenset(range(v30.cells + 1))
    for question in (lambda b: sat.count(v30, budget=b),
                     lambda b: sat.mine_numbers(v30, budget=b),
                     lambda b: sat.layouts_up_to(v30, 200_000, budget=b)):
        started = time.monotonic()
        with pytest.raises(OutOfTime):
            question(Budget.seconds(1.0))
        assert time.monotonic() - started < 1.0 + MARGIN
    started = time.monotonic()
    with pytest.raises(PartlyProved) as raised:
        sat.deduce(v30, everything, budget=Budget.seconds(1.0))
    facts = raised.value.facts
    assert time.monotonic() - started < 1.0 + MARGIN
    # Nothing proved that is not so: every box can hold a mine and be clear.
    assert all(facts.can_mine) and all(facts.can_clear)


def test_a_sliced_solve_gives_the_same_answers():
    # Slices of one conflict each, on a formula that needs 3,000: the same verdicts. (The
    # decisions of a slice are not bounded here: a model needs more decisions in a row than
    # a slice of one conflict allows, and each solve starts its decisions again.)
    path = ROOT / "instances" / "sat-3sat-v10-c43-seed1-000.mine"
    (component,) = build_frontier(read_position(path)).components
    allowed = frozenset(range(component.cells + 1))
    plain = get_backend("sat").deduce(component, allowed)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(sat_engine, "_SLICE_CONFLICTS", 1)
        patch.setattr(sat_engine, "_SLICE_RANGE", (1, 1))
        patch.setattr(slices, "_DECISIONS_PER_CONFLICT", 1 << 30)
        assert get_backend("sat").deduce(component, allowed, budget=Budget.seconds(600)) == plain
