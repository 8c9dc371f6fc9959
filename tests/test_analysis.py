"""Every backend against the oracle, closed forms and published answers, exactly."""

from __future__ import annotations

from fractions import Fraction
from math import comb
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from oracle import truth
from strategies import positions

from exactmines import analyze, read_position
from exactmines.analysis.backends import Backend, VerdictsOnly, get_backend, mine_number_runs
from exactmines.analysis.frontier import BUILDING, Component, Constraint
from exactmines.budget import UNLIMITED, Budget
from exactmines.errors import OutOfTime
from exactmines.position import Position
from exactmines.solvability.check import is_unique

ROOT = Path(__file__).resolve().parents[1]


def assert_matches_oracle(position: Position, backend: str | Backend,
                          time_limit: float | None = None):
    result = analyze(position, backend=backend, time_limit=time_limit)
    expected = truth(position)
    assert result.consistent == expected.consistent, position
    if not expected.consistent:
        assert result.layouts == 0, position
        return result
    assert [c.cell for c in result.cells] == sorted(expected.probability)
    for cell in result.cells:
        assert cell.verdict == expected.verdict[cell.cell], (position, cell)
        if result.probabilities_computed:
            assert cell.probability == expected.probability[cell.cell], (position, cell)
        else:
            assert result.layouts is None
    if result.probabilities_computed:
        assert result.layouts == expected.layouts
        assert result.unique == all(v != "unknown" for v in expected.verdict.values())
    return result


@given(position=positions())
def test_backend_matches_brute_force_oracle(backend, position):
    assert_matches_oracle(position, backend)


@given(position=positions(allow_lies=True))
def test_inconsistent_positions_are_answers_not_crashes(backend, position):
    assert_matches_oracle(position, backend)


@given(position=positions(count_known=True))
def test_verdicts_stay_exact_when_counting_is_cut_short(position):
    # No count at all: the SAT fall-back must still give exactly the oracle's verdicts,
    # using the total mine count.
    result = assert_matches_oracle(position, VerdictsOnly(get_backend("sat")))
    if result.consistent and result.frontier_cells:
        assert not result.probabilities_computed


@given(position=positions(count_known=True, allow_lies=True))
def test_verdicts_get_the_time_left_when_counting_runs_out(position):
    # Counting runs out at once; the verdicts then have the rest of a generous limit, so
    # they are complete and the oracle's, inconsistent positions included (0 layouts).
    real = Budget.check

    def counting_runs_out(budget, doing="counting layouts"):
        if doing == "counting layouts":
            raise OutOfTime("out of time while counting (test)")
        real(budget, doing)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Budget, "check", counting_runs_out)
        result = assert_matches_oracle(position, "sat", time_limit=60.0)
    assert result.verdicts_complete
    if result.consistent and result.frontier_cells:
        assert not result.probabilities_computed


def test_verdicts_out_of_time_are_noted_in_one_line_naming_the_components():
    # Two components (cells 0, 2 and 4, 6): out of time for every proof, one note names
    # both, counted from 1 (a 300x300 position gave one note per component, 61 of them).
    def out_of_time(budget, doing="counting layouts"):
        if doing != BUILDING:  # the frontier is built: the proofs run out
            raise OutOfTime(f"out of time while {doing} (test)")

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Budget, "check", out_of_time)
        result = analyze(Position(7, 1, 2, ("H1HHH1H",)), backend="sat", time_limit=1.0)
    assert not result.verdicts_complete
    assert [n.split(":")[0] for n in result.notes if "verdicts not all proved" in n] == [
        "2 components (1, 2; 2 cells each)"]
    assert [n.split(":")[0] for n in result.notes if "layouts not counted" in n] == [
        "2 components (1, 2; 2 cells each)"]


class _BigRunsOut:
    """``engine`` whose counting of the largest component of ``position`` uses up the time:
    it and every count asked after it run out (as a real budget would)."""

    def __init__(self, engine: Backend, largest: int) -> None:
        self.engine, self.name, self.largest, self.spent = engine, "fake", largest, False

    def count(self, component, *, budget=UNLIMITED):
        if self.spent or component.cells == self.largest:
            self.spent = True
            raise OutOfTime("time limit reached while counting layouts (test)")
        return self.engine.count(component, budget=budget)

    def __getattr__(self, name):
        return getattr(self.engine, name)


def test_a_big_component_out_of_time_leaves_the_small_ones_counted():
    # Two rows: a component of 9 cells (left), one of 5 (right); the big one first on the
    # board. Counting it spends the time: the small one, counted first, keeps its count, so
    # its certain cells are proved from it. In the board's order it went uncounted too.
    position = Position(9, 2, 3, ("HHHHHHH1H", "H1H11HHHH"))
    from exactmines.analysis.frontier import build_frontier

    sizes = sorted(c.cells for c in build_frontier(position).components)
    assert len(sizes) == 2 and sizes[0] < sizes[1]
    engine = _BigRunsOut(get_backend("dp"), sizes[1])
    result = analyze(position, backend=engine, time_limit=60.0)
    assert not result.probabilities_computed
    not_counted = [n for n in result.notes if "layouts not counted" in n]
    assert len(not_counted) == 1 and f"({sizes[1]} cells)" in not_counted[0]


class _StopAfter:
    """Stands in for ``Budget.check``: counting always runs out, and the
    verdicts run out at their ``stop``-th check, wherever that falls."""

    def __init__(self, stop: int) -> None:
        self.stop = stop

    def __call__(self, budget, doing="counting layouts"):
        if doing == BUILDING:
            return
        if self.stop == 0 or doing == "counting layouts":
            raise OutOfTime(f"out of time while {doing} (test)")
        self.stop -= 1


@given(position=positions(count_known=True), stop=st.integers(0, 25))
def test_verdicts_stopped_at_any_point_claim_nothing_unproved(position, stop):
    # Every safe/mine reported is the oracle's; "consistent" is the oracle's or undecided;
    # and "complete" verdicts are exactly the oracle's.
    with pytest.MonkeyPatch.context() as patch:
        stop_after = _StopAfter(stop)
        patch.setattr(Budget, "check", lambda budget, doing="counting layouts":
                      stop_after(budget, doing))
        result = analyze(position, backend="sat", time_limit=1.0)
    expected = truth(position)
    assert expected.consistent  # drawn from a hidden layout
    assert result.consistent in (True, None), position
    for cell in result.cells:
        if result.verdicts_complete:
            assert cell.verdict == expected.verdict[cell.cell], (position, cell)
        else:
            assert cell.verdict in ("unknown", expected.verdict[cell.cell]), (position, cell)
    if result.consistent is None:
        assert result.unique is None and not result.verdicts_complete
        assert any("consistency is not decided" in note for note in result.notes)


@pytest.mark.parametrize("width,height,mines", [(1, 1, 0), (1, 1, 1), (3, 3, 4), (9, 9, 10),
                                                (30, 16, 99), (100, 100, 2000)])
def test_all_covered_board_closed_form(backend, width, height, mines):
    position = Position(width, height, mines, tuple("H" * width for _ in range(height)))
    result = analyze(position, backend=backend)
    assert result.layouts == comb(width * height, mines)
    assert {c.probability for c in result.cells} == {Fraction(mines, width * height)}


def test_unknown_count_leaves_off_frontier_undefined(backend):
    position = Position(3, 1, None, ("1HH",))
    result = analyze(position, backend=backend)
    assert result.layouts == 1
    assert [(c.probability, c.verdict) for c in result.cells] == [(1, "mine"), (None, "unknown")]


def test_published_9x9_example(backend):
    # REFERENCE.md: 1031 layouts, off-frontier P(mine) ~ 0.0436.
    result = analyze(read_position(ROOT / "instances" / "reference-9x9.mine"), backend=backend)
    assert result.layouts == 1031
    assert result.cell(8, 8).probability == Fraction(45, 1031)
    assert abs(float(result.cell(8, 8).probability) - 0.0436) < 5e-5
    assert all(result.cell(*c.cell) is c for c in result.cells)
    for cell in [(2, 0), (3, 3), (4, 4), (8, 9), (9, 0)]:  # opened (3), off the board (2)
        with pytest.raises(KeyError, match="not a covered cell"):
            result.cell(*cell)


def test_minesweepr_readme_example(backend):
    # minesweepr README: rules 1{A,B} 2{A,B,C} 3{B,C,D} 2{C,D,E} 2{D,E,F,G,H} 1{G,H,I} 1{H,I},
    # 85 covered cells, 10 mines: F = I = off-frontier = 6/77, H = 71/77. Geometry-free: the
    # component is built by hand, as a backend sees it.
    from exactmines.analysis.combine import combine

    names = "ABCDEFGHI"
    rules = [("AB", 1), ("ABC", 2), ("BCD", 3), ("CDE", 2), ("DEFGH", 2), ("GHI", 1), ("HI", 1)]
    component = Component((1,) * 9, tuple(Constraint(tuple(names.index(x) for x in cells), k)
                                          for cells, k in rules))
    counts = get_backend(backend).count(component)
    combined = combine([counts], [component.sizes], outside=85 - 9, mines_left=10)
    p = dict(zip(names, combined.box_probability[0], strict=True))
    assert p["F"] == p["I"] == combined.outside_probability == Fraction(6, 77)
    assert p["H"] == Fraction(71, 77)


def test_count_needs_the_total_to_decide():
    # The 0 clears its neighbours; the one mine left must be on the cell it does not touch.
    position = Position(4, 1, 1, ("H0HH",))
    assert [c.verdict for c in analyze(position).cells] == ["safe", "safe", "mine"]
    assert not analyze(Position(3, 1, 1, ("H0H",))).consistent
    position = Position(4, 1, 2, ("H1HH",))
    result = analyze(position)
    assert [c.verdict for c in result.cells] == ["unknown", "unknown", "mine"]


@given(st.integers(1, 6), st.integers(1, 6), st.data())
def test_all_covered_with_flags(width, height, data):
    cells = width * height
    flags = data.draw(st.integers(0, cells))
    mines = data.draw(st.integers(flags, cells))
    flat = "F" * flags + "H" * (cells - flags)
    rows = tuple(flat[r * width:(r + 1) * width] for r in range(height))
    result = analyze(Position(width, height, mines, rows))
    assert result.layouts == comb(cells - flags, mines - flags)


@given(st.frozensets(st.integers(-2, 14)), st.integers(0, 12))
def test_total_runs_are_maximal(allowed, top):
    # SAT and MILP encode one pair of bounds per run (MILP adds a selector binary per run):
    # runs that could merge would be extra clauses, rows and binaries.
    runs = mine_number_runs(allowed, top)
    assert [k for low, high in runs for k in range(low, high + 1)] == sorted(
        k for k in allowed if 0 <= k <= top)
    assert all(low <= high for low, high in runs)
    assert all(a[1] + 1 < b[0] for a, b in zip(runs, runs[1:], strict=False))


# -- layouts up to a limit, on every engine -------------------------------------------------


@st.composite
def small_components(draw: st.DrawFn) -> Component:
    sizes = draw(st.lists(st.integers(1, 3), min_size=1, max_size=6))
    n = len(sizes)
    rules = draw(st.lists(st.sets(st.integers(0, n - 1), min_size=1), min_size=1, max_size=4))
    covered = set().union(*rules)
    rules += [{b} for b in range(n) if b not in covered]
    return Component(tuple(sizes), tuple(
        Constraint(tuple(sorted(r)), draw(st.integers(0, sum(sizes[b] for b in r))))
        for r in rules))


@given(component=small_components(), limit=st.integers(1, 4), data=st.data())
def test_layouts_up_to_stops_at_the_limit(backend, component, limit, data):
    # Capped at the limit, exact below it; the mine numbers met are true ones, and all of
    # them when every layout was met.
    counts = get_backend("brute").count(component)
    allowed = data.draw(st.none() | st.frozensets(st.integers(0, component.cells)))
    numbers = {k for k, n in enumerate(counts.layouts) if n and (allowed is None or k in allowed)}
    total = sum(counts.layouts[k] for k in numbers)
    found, seen = get_backend(backend).layouts_up_to(component, limit, allowed)
    assert found == min(total, limit)
    assert seen <= numbers and bool(seen) == bool(total)
    if total < limit:
        assert seen == numbers


@given(position=positions(allow_lies=True))
def test_is_unique_on_every_engine(backend, position):
    answer = is_unique(position, backend=backend)
    expected = truth(position)
    assert answer.consistent == expected.consistent
    assert answer.unique == (expected.consistent and
                             all(v != "unknown" for v in expected.verdict.values()))


def test_layouts_up_to_stops_at_the_end_of_its_budget(backend):
    component = Component((3, 3, 3), (Constraint((0, 1), 2), Constraint((1, 2), 3)))
    with pytest.raises(OutOfTime):
        get_backend(backend).layouts_up_to(component, 2, budget=Budget(0.0))
