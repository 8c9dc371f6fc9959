"""Ganak engine specifics: the steps before Ganak (classes of cells, the mine-number
encodings, the linear algebra), silence, time limits, the missing package, and the auto
engine's use of it on compiled SAT instances too wide for the DP. Agreement with brute force
on random positions is in the shared property tests (``backend`` fixture)."""

from __future__ import annotations

import random
import sys
import time
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from pysat.solvers import Solver

from exactmines import analyze, read_position
from exactmines.analysis.backends import ganak as ganak_engine
from exactmines.analysis.backends import get_backend
from exactmines.analysis.backends.auto import AutoBackend
from exactmines.analysis.backends.dp import DPBackend, count_component
from exactmines.analysis.backends.ganak import (
    GanakBackend,
    _Elimination,
    _exactly,
    _fewer_inputs,
)
from exactmines.analysis.backends.sat import SatBackend
from exactmines.analysis.frontier import Component, Constraint, build_frontier
from exactmines.budget import UNLIMITED, Budget
from exactmines.errors import BackendUnavailable, OutOfTime, TooLarge
from exactmines.generate.hardness import CNF, compile_cnf, count_models, random_ksat

ROOT = Path(__file__).resolve().parents[1]


@st.composite
def components(draw: st.DrawFn) -> Component:
    """Random boxes and rules, lies included (small: every Ganak call costs milliseconds)."""
    sizes = draw(st.lists(st.integers(1, 3), min_size=1, max_size=5))
    rules = []
    for _ in range(draw(st.integers(1, 5))):
        boxes = draw(st.sets(st.integers(0, len(sizes) - 1), min_size=1))
        cells = sum(sizes[b] for b in boxes)
        rules.append(Constraint(tuple(sorted(boxes)), draw(st.integers(0, cells))))
    return Component(tuple(sizes), tuple(rules))


@settings(max_examples=40)
@given(component=components())
def test_counts_equal_the_dp_counts(component):
    assert ganak_engine.count_component(component) == count_component(component)


def test_long_rules_and_many_mine_numbers():
    # Rules over 12 and 16 cells take the totalizer; 9 numbers of mines, counted each with
    # a sorting network (too many subsets for clauses alone).
    component = Component((4, 4, 4, 4), (Constraint((0, 1, 2), 6), Constraint((1, 2, 3), 7),
                                         Constraint((0, 1, 2, 3), 9)))
    counts = ganak_engine.count_component(component)
    assert counts == count_component(component)
    assert counts.total > 0
    loose = Component((6, 6), (Constraint((0,), 3),))  # box 1 is free: 7 numbers
    assert ganak_engine.count_component(loose) == count_component(loose)
    free = Component((12,), (Constraint((0,), 6),))
    assert ganak_engine.count_component(free) == count_component(free)


@pytest.mark.parametrize("m", [3, 7, 14])
def test_exactly_counts_every_way(m):
    """The mine-number encodings Ganak gets, subsets or sorting network, repeated literals
    counted once per place: checked by enumerating every assignment."""
    inputs = [1 + i % 3 for i in range(m)]  # variables 1..3, repeated
    for j in range(m + 1):
        clauses = _exactly(inputs, j, 3)
        extra = max((abs(lit) for clause in clauses for lit in clause), default=3)
        with Solver(name="cd153", bootstrap_with=clauses) as solver:
            for bits in range(8):
                values = [bool(bits >> i & 1) for i in range(3)]
                true = sum(values[v - 1] for v in inputs)
                assumptions = [v if values[v - 1] else -v for v in (1, 2, 3)]
                assert solver.solve(assumptions=assumptions) == (true == j), (j, values)
        assert extra == 3 or m == 14  # auxiliaries only for the long one


def test_elimination_solves_exactly():
    # m1 + m2 = L, m2 + m3 = L, m1 + m2 + m3 = k L: with L = 6 and k = 2, m2 = 0.
    elimination = _Elimination()
    elimination.add({1: 1, 2: 1}, 1, 0)
    elimination.add({2: 1, 3: 1}, 1, 0)
    elimination.add({1: 1, 2: 1, 3: 1}, 0, 1)
    assert len(elimination.rows) == 3  # full rank: nothing left to count
    assert elimination.solve({}, 6, 2) == {1: 6, 2: 0, 3: 6}
    dependent = _Elimination()
    dependent.add({1: 1, 2: 1}, 1, 0)
    dependent.add({1: 2, 2: 2}, 2, 0)
    assert len(dependent.rows) == 1
    (pivot,) = dependent.rows
    other = 3 - pivot
    assert dependent.solve({other: 4}, 10, 1) == {pivot: 6}
    assert dependent.rows[pivot][0][other] == Fraction(1)


def test_compiled_formula_collapses_to_few_ganak_calls(monkeypatch):
    """A compiled formula's wire cells fall into a few classes and the rules fix most of
    them: thousands of cells, hundreds of layouts, a few dozen Ganak calls."""
    cnf = random_ksat(10, 10, random.Random(1))
    position = compile_cnf(cnf).position
    (component,) = build_frontier(position).components
    calls = []
    real = ganak_engine._ganak
    monkeypatch.setattr(ganak_engine, "_ganak", lambda *a: calls.append(a) or real(*a))
    counts = ganak_engine.count_component(component)
    assert counts.total == count_models(cnf) == 252
    assert len(calls) < 40 and component.cells > 1000
    assert counts.mine_numbers() == {position.mines - sum(r.count("F") for r in position.rows)}


@pytest.mark.parametrize("one_call", [True, False])
def test_every_number_of_mines_in_one_call(monkeypatch, one_call):
    """Several numbers of mines on a small component: one Ganak call gives the layouts of
    every number (the digits of one count), one more per free class, and the counts are the
    DP's; past GATED_VARIABLES, one call per number and class, the same counts."""
    component = Component((3, 2, 6), (Constraint((0, 1), 2), Constraint((1,), 1)))
    expected = count_component(component)
    assert len(expected.mine_numbers()) == 7
    if not one_call:
        monkeypatch.setattr(ganak_engine, "GATED_VARIABLES", 0)
    calls = []
    real = ganak_engine._ganak
    monkeypatch.setattr(ganak_engine, "_ganak", lambda *a: calls.append(a) or real(*a))
    assert ganak_engine.count_component(component) == expected
    numbers = len(expected.mine_numbers())
    if one_call:
        assert len(calls) < numbers
    else:
        assert len(calls) >= numbers


@st.composite
def rule_systems(draw: st.DrawFn) -> tuple[int, list[tuple[dict[int, int], int]], list[int]]:
    """Variables ``1..n``, rules "sum row[c] x_c = alpha" with small integer coefficients
    (as a class appears in a rule: once per cell, minus for a cell opposite it), and the
    mine-count literals (a literal may repeat)."""
    n = draw(st.integers(1, 6))
    rules = []
    for _ in range(draw(st.integers(0, 4))):
        row = draw(st.dictionaries(st.integers(1, n), st.integers(-2, 2), min_size=1))
        rules.append((row, draw(st.integers(-2, 4))))
    inputs = draw(st.lists(st.integers(1, n).flatmap(lambda v: st.sampled_from([v, -v])),
                           max_size=8))
    return n, rules, inputs


@settings(max_examples=200)
@given(system=rule_systems(), offset=st.integers(0, 5))
# One where the search after the elimination shortens the sum (its constant moves).
@example(system=(5, [({2: 1, 3: -1, 5: 2}, 1)], [2, -1, -3, -3, 3, 4, 3]), offset=0)
def test_fewer_inputs_count_the_same_mines_in_every_layout(system, offset):
    """``mines = base + reduced literals true`` wherever every rule holds, checked on every
    assignment; never more literals than given."""
    n, rules, inputs = system
    base, few = _fewer_inputs(rules, inputs, offset)
    assert len(few) <= len(inputs)
    for bits in range(1 << n):
        x = {v: bits >> (v - 1) & 1 for v in range(1, n + 1)}
        if all(sum(a * x[c] for c, a in row.items()) == alpha for row, alpha in rules):
            given_true = sum(x[lit] if lit > 0 else 1 - x[-lit] for lit in inputs)
            few_true = sum(x[lit] if lit > 0 else 1 - x[-lit] for lit in few)
            assert offset + given_true == base + few_true, (x, base, few)


def test_ganak_sees_the_number_of_mines_in_the_inputs_the_rules_leave(monkeypatch):
    """Two rules "1 of 3" sharing the middle cell: every layout has 2 - x2 mines, so Ganak
    is given one input (its gated variables) for the two numbers of mines, not five."""
    component = Component((1, 1, 1, 1, 1), (Constraint((0, 1, 2), 1),
                                            Constraint((2, 3, 4), 1)))
    seen = []
    real = ganak_engine._by_number
    monkeypatch.setattr(ganak_engine, "_by_number",
                        lambda *a: seen.append(a[2]) or real(*a))
    counts = ganak_engine.count_component(component)
    assert counts == count_component(component)
    assert counts.mine_numbers() == {1, 2}
    assert [len(inputs) for inputs in seen] == [1]


@pytest.mark.parametrize("one_call", [True, False])
def test_no_ganak_call_starts_once_the_budget_has_run_out(monkeypatch, one_call):
    """The clock is the test's: it passes the deadline during the first Ganak call, and
    the count stops there with OutOfTime (by number in one call, or one call per number)
    instead of starting the next call. (In a child process the call itself is ended.)"""
    component = Component((3, 2, 6), (Constraint((0, 1), 2), Constraint((1,), 1)))
    if not one_call:
        monkeypatch.setattr(ganak_engine, "GATED_VARIABLES", 0)
    now = [0.0]

    class Clock:
        @staticmethod
        def monotonic():
            return now[0]

    monkeypatch.setattr("exactmines.budget.time", Clock)
    calls = []
    real = ganak_engine._ganak

    def late(*a):
        calls.append(a)
        now[0] = 10.0  # the call took the rest of the budget
        return real(*a)

    monkeypatch.setattr(ganak_engine, "_ganak", late)
    with pytest.raises(OutOfTime):
        ganak_engine.count_component(component, Budget(5.0))
    assert len(calls) == 1
    now[0] = 0.0
    calls.clear()
    monkeypatch.setattr(ganak_engine, "_ganak", lambda *a: calls.append(a) or real(*a))
    assert ganak_engine.count_component(component, Budget(5.0)) == count_component(component)
    assert len(calls) > 1  # the same count, given the time, needs more than one call


def test_nothing_printed_even_on_inconsistent_components(capfd):
    # Ganak prints a line when its input is unsatisfiable: it is never given one, and with
    # a time limit its process writes to /dev/null.
    lies = Component((1, 1), (Constraint((0, 1), 1), Constraint((0,), 1), Constraint((1,), 1)))
    narrow = Component((2, 2, 2), (Constraint((0, 1), 2), Constraint((1, 2), 2),
                                   Constraint((0, 1, 2), 2)))
    # With no mine in box 0, "2 mines, one of them in box 0" is unsatisfiable.
    loose = Component((2, 2, 2), (Constraint((0,), 0),))
    for budget in (UNLIMITED, Budget.seconds(60)):
        engine = GanakBackend()
        assert engine.count(lies, budget=budget).total == 0
        for component in (narrow, loose):
            assert engine.count(component, budget=budget) == count_component(component)
    captured = capfd.readouterr()
    assert captured.out == "" and captured.err == ""


def test_the_end_of_the_budget_stops_the_counting_process():
    path = ROOT / "instances" / "sat-3sat-v20-c85-seed1-000.mine"
    (component,) = build_frontier(read_position(path)).components
    engine = GanakBackend()
    with pytest.raises(OutOfTime):
        engine.count(component, budget=Budget(0.0))
    start = time.monotonic()
    with pytest.raises(OutOfTime, match="Ganak"):
        engine.count(component, budget=Budget(start + 0.5))
    # Stopped rather than left to count for minutes (how soon: scripts/bench_limits.py).
    assert time.monotonic() - start < 0.5 + 15
    # The verdict questions run out as the count does: OutOfTime.
    with pytest.raises(OutOfTime):
        engine.deduce(component, frozenset(range(component.cells + 1)),
                      budget=Budget.seconds(0.2))


def test_counts_are_kept_for_the_next_question(monkeypatch):
    component = Component((1, 1, 2), (Constraint((0, 1), 1), Constraint((1, 2), 2)))
    engine = GanakBackend()
    counts = engine.count(component)
    monkeypatch.setattr(ganak_engine, "run_in_child", None)  # asked again: TypeError
    assert engine.mine_numbers(component) == counts.mine_numbers() == frozenset({2, 3})
    assert engine.deduce(component, frozenset({2})) == SatBackend().deduce(
        component, frozenset({2}))


def test_missing_pyganak_is_reported(monkeypatch):
    monkeypatch.setitem(sys.modules, "pyganak", None)  # import pyganak -> ImportError
    monkeypatch.delitem(sys.modules, "exactmines.analysis.backends.ganak", raising=False)
    with pytest.raises(BackendUnavailable,
                       match="^backend 'ganak' needs the package 'pyganak': "
                             "pip install pyganak$"):
        get_backend("ganak")


class _NoEnumeration(SatBackend):
    """SAT that refuses to enumerate: whatever auto counts, Ganak counted."""

    def count(self, component, *, budget=UNLIMITED):
        raise TooLarge("too many layouts to enumerate (test)")


def test_auto_counts_millions_of_layouts_with_ganak_where_dp_is_too_wide():
    """A compiled formula with 3,211,264 models (22 variables, 2 clauses). With the DP's
    tables capped and SAT enumeration refused, auto still gives every probability exactly,
    through Ganak: the same cells as the DP uncapped, the model count as layouts, and each
    variable's cell a mine in exactly the share of models where the variable is true."""
    cnf = random_ksat(22, 2, random.Random(1))
    instance = compile_cnf(cnf)
    capped = DPBackend(max_states=16, max_kept=16)
    with pytest.raises(TooLarge):
        for component in build_frontier(instance.position).components:
            capped.count(component)
    engine = AutoBackend(counter=capped, decider=_NoEnumeration())
    result = analyze(instance.position, backend=engine, time_limit=120)
    assert result.probabilities_computed
    models = count_models(cnf)
    assert result.layouts == models == 3_211_264
    assert result.cells == analyze(instance.position, backend="dp").cells
    for k, cell in enumerate(instance.variable_cells[:4]):
        true = count_models(CNF(cnf.variables, (*cnf.clauses, (k + 1,))))
        assert result.cell(*cell).probability == Fraction(true, models)
    # Without Ganak the same engine has no count to give.
    without = AutoBackend(counter=capped, decider=_NoEnumeration(), model_counter=None)
    with pytest.raises(TooLarge):
        for component in build_frontier(instance.position).components:
            without.count(component, budget=Budget.seconds(60))


def test_auto_skips_ganak_when_it_is_not_installed(monkeypatch):
    monkeypatch.setattr("exactmines.analysis.backends.auto._ganak_if_installed", lambda: None)
    assert AutoBackend().model_counter is None
    assert isinstance(AutoBackend(model_counter="ganak").model_counter, GanakBackend)
