"""MILP engine: each component as a 0/1 integer programme, solved by HiGHS or CBC.

Model. Box ``b`` of ``n`` cells is an integer count ``0 <= x_b <= n`` written in the *order*
(unary) encoding: binaries ``y[b][i]`` meaning "box ``b`` holds more than ``i`` mines", with
``y[b][i+1] <= y[b][i]``, so ``x_b = sum_i y[b][i]`` and each count is exactly one 0/1 vector.
Every clue is one equality row ``sum over its boxes of x_b = mines``. The encoding is chosen
over one general-integer variable per box because of the no-good cuts counting needs: "not
this box-count vector ``v``" is ``OR_b x_b != v_b``, and ``x_b != j`` is the single linear
term ``y[b][j] + (1 - y[b][j-1]) >= 1`` (terms at the bounds dropped). So a cut is one row
over the projected variables with no auxiliaries, whereas general integers would need two
indicator binaries per box per cut. The chain rows are totally unimodular per box, so the
relaxation is no weaker than with integers. Counting weights each vector by prod C(n, j),
exactly as the SAT engine does.

Questions, and the solves they take:

``count``
    enumerate the box-count vectors, one solve each plus a final infeasible one, cutting
    every vector found with its no-good row;
``mine_numbers``
    minimise the number of mines, then again above each number found: one solve per
    feasible number plus one;
``deduce``
    repeatedly maximise the number of still-open facts ("box ``b`` can hold a mine", "box
    ``b`` can have a clear cell") a single layout settles, until the optimum is 0: that
    optimum is the proof the remaining facts are impossible (typically 3-7 solves). Stopped
    at the end of its budget before that proof, it proves nothing impossible: every cell is reported
    unknown (``complete=False``);
``layouts_up_to``
    the vectors of ``count`` under the allowed totals, stopping once the limit is reached:
    one solve per vector found.

Solvers. HiGHS through ``highspy`` (in-process, the model kept and changed in place) when it
is installed, else the CBC bundled with PuLP (a process per solve). HiGHS is driven
directly, not through ``pulp.HiGHS``: that wrapper rebuilds the whole model on every solve
(2.5x slower here) and reports HiGHS's time-limit and interrupt statuses as "Optimal".
Every solve's status is mapped explicitly (:func:`highs_outcome`, :func:`cbc_outcome`): only
a proven optimum or proven infeasibility is an answer, a time-out is
:class:`~exactmines.errors.OutOfTime`, anything else a
:class:`~exactmines.errors.SolverError`. Every point a solver returns is rounded and checked
against the rows exactly before it is used.

Traps avoided (REFERENCE.md): CBC with a warm start on a maximisation returns the start as
"Optimal", so nothing here warm-starts or maximises (maximising is minimising the negation);
a PuLP problem once solved with an all-zero objective raises on every later solve, so CBC is
never given one ("any feasible point" is asked as "minimise a free binary"). Found here: PuLP
writes a column that is in no row and not in the objective as a bound alone, and CBC rejects
the file ("Current model not valid", a ``PulpSolverError``); every column here is in a row.
"""

from __future__ import annotations

import functools
import time
import warnings
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from math import comb, isfinite, prod
from typing import Any, Literal, Protocol

import pulp

from exactmines.analysis.backends import (
    ComponentCounts,
    Deductions,
    LayoutTally,
    PartlyProved,
    mine_number_runs,
)
from exactmines.analysis.frontier import Component, Constraint
from exactmines.budget import UNLIMITED, Budget
from exactmines.child import run_in_child
from exactmines.errors import BackendUnavailable, OutOfTime, SolverError

__all__ = [
    "MilpBackend",
    "HighsMilpBackend",
    "CbcMilpBackend",
    "highs_outcome",
    "cbc_outcome",
]

Outcome = Literal["optimal", "infeasible"]
_INF = float("inf")
#: A rounded solution value further than this from 0 or 1 is a solver fault, not a layout.
_INTEGRALITY = 1e-6
#: The model's build looks at the clock once every this many + 1 rules.
_CLOCK_MASK = (1 << 11) - 1


@dataclass(frozen=True, slots=True)
class _Row:
    """``low <= sum(coef * column) <= high``; ``None`` is an open side."""

    columns: tuple[int, ...]
    coefs: tuple[int, ...]
    low: int | None
    high: int | None

    def holds(self, point: Sequence[int]) -> bool:
        activity = sum(a * point[c] for c, a in zip(self.columns, self.coefs, strict=True))
        return ((self.low is None or activity >= self.low)
                and (self.high is None or activity <= self.high))


class _Driver(Protocol):
    """One solver holding one growing model of binary columns (minimisation only; an empty
    objective asks for any feasible point)."""

    def add_columns(self, count: int) -> None: ...

    def add_row(self, row: _Row) -> None: ...

    def solve(self, objective: dict[int, int],
              time_limit: float | None) -> list[float] | None: ...

    def close(self) -> None: ...


# ---------------------------------------------------------------------------- status maps

def highs_outcome(run_status: Any, model_status: Any, *, time_limit: float | None) -> Outcome:
    """What one HiGHS solve proved, from ``Highs.run()``'s and ``getModelStatus()``'s values.

    Only ``kOptimal`` (with run status not ``kError``) is a solution and only ``kInfeasible``
    or ``kUnboundedOrInfeasible`` (every column is bounded, so it cannot be unbounded) is
    infeasibility. ``kTimeLimit`` raises :class:`OutOfTime`; every other status
    (interrupts, other limits, errors, statuses added in later releases) raises
    :class:`SolverError`.
    """
    highspy = _highspy()
    kinds = highspy.HighsModelStatus
    if run_status == highspy.HighsStatus.kError:
        raise SolverError(f"HiGHS failed (run status {run_status.name}, "
                          f"model status {model_status.name})")
    if model_status == kinds.kOptimal:
        return "optimal"
    if model_status in (kinds.kInfeasible, kinds.kUnboundedOrInfeasible):
        return "infeasible"
    if model_status == kinds.kTimeLimit:
        raise OutOfTime(f"HiGHS stopped at its time limit of {time_limit} s")
    raise SolverError(f"HiGHS stopped without a proven answer: {model_status.name}")


def cbc_outcome(status: int, solution_status: int, *, time_limit: float | None) -> Outcome:
    """What one PuLP/CBC solve proved, from ``LpProblem.status`` and ``.sol_status``.

    PuLP reports a run stopped on time *with* an incumbent as status ``Optimal`` and solution
    status ``IntegerFeasible``; only status and solution status both ``Optimal`` is an
    answer. ``Infeasible`` (CBC's "Infeasible" and "Integer infeasible") is infeasibility. A
    run stopped early (``Not Solved`` or ``IntegerFeasible``) is :class:`OutOfTime`
    when a time limit was set (CBC is given no other limit) and :class:`SolverError` when
    not; ``Unbounded`` and ``Undefined`` are :class:`SolverError`.
    """
    if status == pulp.LpStatusOptimal and solution_status == pulp.LpSolutionOptimal:
        return "optimal"
    if status == pulp.LpStatusInfeasible:
        return "infeasible"
    stopped = (status == pulp.LpStatusNotSolved
               or (status == pulp.LpStatusOptimal
                   and solution_status == pulp.LpSolutionIntegerFeasible))
    if stopped and time_limit is not None:
        raise OutOfTime(f"CBC stopped at its time limit of {time_limit:.3g} s")
    raise SolverError(f"CBC stopped without a proven answer: status "
                      f"{pulp.LpStatus.get(status, status)}, solution "
                      f"{pulp.LpSolution.get(solution_status, solution_status)}")


# ---------------------------------------------------------------------------- drivers

def _highspy() -> Any:
    try:
        import highspy
    except ImportError:
        raise BackendUnavailable("backend 'milp-highs' needs the package 'highspy': "
                                 "pip install highspy") from None
    return highspy


@functools.cache
def _quiet_highs_class(highspy: Any) -> Any:
    """A ``highspy.Highs`` that prints nothing: highspy's constructor installs its callbacks
    through ``enableCallbacks``, and HiGHS prints its banner on stdout at that moment unless
    ``output_flag`` is already off, so it is turned off first."""

    class QuietHighs(highspy.Highs):  # type: ignore[misc,name-defined]
        def enableCallbacks(self) -> None:
            self.setOptionValue("output_flag", False)
            super().enableCallbacks()

    return QuietHighs


def _quiet_highs(highspy: Any) -> Any:
    return _quiet_highs_class(highspy)()


def run_highs(h: Any, time_limit: float | None) -> Any:
    """``h.run()`` within ``time_limit`` seconds (``None``: none), its run status returned.

    HiGHS's presolve can reduce a model to nothing and hand back a point that breaks one of
    its rows ("untransformed violations": highspy 1.16 on one clue of 2 over 6 cells), and
    then reports a solve error: such a model is solved again without presolve, in what is
    left of the time limit."""
    highspy = _highspy()
    started = time.monotonic()
    h.setOptionValue("time_limit", _INF if time_limit is None else max(time_limit, 0.0))
    run_status = h.run()
    if (run_status == highspy.HighsStatus.kError
            and h.getModelStatus() == highspy.HighsModelStatus.kSolveError):
        if time_limit is not None:
            h.setOptionValue("time_limit",
                             max(time_limit - (time.monotonic() - started), 0.0))
        h.clearSolver()
        h.setOptionValue("presolve", "off")
        try:
            run_status = h.run()
        finally:
            h.setOptionValue("presolve", "choose")
    return run_status


class _HighsDriver:
    """HiGHS in-process; rows and costs changed in place between solves."""

    def __init__(self) -> None:
        self._highspy = highspy = _highspy()
        self._h = _quiet_highs(highspy)
        # Zero relative gap: "optimal" must mean optimal (objectives here are integers, so
        # the default absolute gap of 1e-6 is already exact).
        self._h.setOptionValue("mip_rel_gap", 0.0)
        self._columns = 0

    def add_columns(self, count: int) -> None:
        import numpy as np

        self._h.addVars(count, np.zeros(count), np.ones(count))
        index = np.arange(self._columns, self._columns + count, dtype=np.int32)
        kind = np.full(count, self._highspy.HighsVarType.kInteger.value, dtype=np.uint8)
        self._h.changeColsIntegrality(count, index, kind)
        self._columns += count

    def add_row(self, row: _Row) -> None:
        import numpy as np

        self._h.addRow(-_INF if row.low is None else float(row.low),
                       _INF if row.high is None else float(row.high), len(row.columns),
                       np.array(row.columns, dtype=np.int32),
                       np.array(row.coefs, dtype=np.float64))

    def solve(self, objective: dict[int, int], time_limit: float | None) -> list[float] | None:
        import numpy as np

        cost = np.zeros(self._columns)
        for column, coef in objective.items():
            cost[column] = coef
        self._h.changeColsCost(self._columns, np.arange(self._columns, dtype=np.int32), cost)
        run_status = run_highs(self._h, time_limit)
        outcome = highs_outcome(run_status, self._h.getModelStatus(), time_limit=time_limit)
        if outcome == "infeasible":
            return None
        return list(self._h.getSolution().col_value)

    def close(self) -> None:
        self._h.clear()


def _cbc_solver() -> Any:
    """PuLP's bundled CBC: ``PULP_CBC_CMD`` (PuLP 4 drops it for ``COIN_CMD``, a CBC on the
    path)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # PuLP 3.x's notice about 4.0
        bundled = getattr(pulp, "PULP_CBC_CMD", None)
        solver = (bundled or pulp.COIN_CMD)(msg=False, gapRel=0)
    if not solver.available():
        raise BackendUnavailable("backend 'milp-cbc' needs the CBC solver that ships with "
                                 "PuLP: pip install 'pulp<4' (or pulp[cbc] with PuLP 4)")
    return solver


#: Seconds by which CBC may stop before its time limit and still be taken at its word.
_CBC_CLOCK_SLACK = 0.05


class _CbcDriver:
    """A PuLP problem re-solved by CBC; each solve writes an MPS file and runs a process."""

    def __init__(self) -> None:
        self._solver = _cbc_solver()
        self._problem = pulp.LpProblem("component", pulp.LpMinimize)
        self._columns: list[pulp.LpVariable] = []
        self._rows = 0
        # "Any feasible point" as "minimise a free binary": optimal (0) at the first feasible
        # point, like an empty objective, without PuLP's all-zero-objective trap. PuLP writes
        # a column with no row and no cost as a bound alone, which CBC rejects ("Current model
        # not valid"): hence the trivial row.
        self._anything = self._problem.add_variable("feasible", 0, 1, pulp.LpBinary)
        self._problem += self._anything >= 0, "feasible"

    def add_columns(self, count: int) -> None:
        start = len(self._columns)
        self._columns += [self._problem.add_variable(f"y{i}", 0, 1, pulp.LpBinary)
                          for i in range(start, start + count)]

    def add_row(self, row: _Row) -> None:
        expression = pulp.LpAffineExpression(
            [(self._columns[c], a) for c, a in zip(row.columns, row.coefs, strict=True)])
        sides = ([expression == row.low] if row.low is not None and row.low == row.high else
                 [expression >= row.low] * (row.low is not None)
                 + [expression <= row.high] * (row.high is not None))
        for side in sides:
            self._problem += side, f"r{self._rows}"
            self._rows += 1

    def solve(self, objective: dict[int, int], time_limit: float | None) -> list[float] | None:
        terms = [(self._columns[c], a) for c, a in objective.items() if a]
        self._problem.setObjective(pulp.LpAffineExpression(terms or [(self._anything, 1)]))
        self._solver.timeLimit = time_limit
        started = time.monotonic()
        try:
            self._problem.solve(self._solver)
        except pulp.PulpSolverError as exc:
            raise SolverError(f"CBC failed: {exc}") from None
        try:
            outcome = cbc_outcome(self._problem.status, self._problem.sol_status,
                                  time_limit=time_limit)
        except OutOfTime:
            assert time_limit is not None
            if time.monotonic() - started < 0.9 * time_limit - _CBC_CLOCK_SLACK:
                # Stopped early, so not by its time limit: a failure, not a time-out. CBC
                # reads its own clock coarsely: at a limit of hundredths of a second it
                # stops a little before it (0.0213 s of 0.0238 in a CI run), so a short
                # limit is read as the time-out it almost surely was.
                raise SolverError(f"CBC stopped without a proven answer after "
                                  f"{time.monotonic() - started:.3g} s of its "
                                  f"{time_limit:.3g}") from None
            raise
        if outcome == "infeasible":
            # Seen once on a loaded machine (not reproduced since): a count apparently ended
            # one layout short, its last solve called "infeasible" at the time limit; CBC
            # has been reported to call a time-out infeasible. An infeasibility that comes as
            # late as the limit is not taken as a proof.
            if time_limit is not None and time.monotonic() - started >= 0.9 * time_limit:
                raise OutOfTime(f"CBC answered 'infeasible' at its time limit of "
                                        f"{time_limit:.3g} s: not taken as a proof")
            return None
        return [_INF if v.varValue is None else v.varValue for v in self._columns]

    def close(self) -> None:
        pass


# ---------------------------------------------------------------------------- the model

class _Model:
    """One component's MILP on one driver, plus the exact check of every returned point."""

    def __init__(self, component: Component, driver: _Driver,
                 budget: Budget = UNLIMITED) -> None:
        """Build the model; the budget is checked every few thousand rows (a 34,216-cell
        component has 60,000 rows: seconds of Python)."""
        self.component = component
        self.driver = driver
        self.solves = 0
        self.box_columns: list[list[int]] = []
        self._rows: list[_Row] = []
        columns = 0
        for size in component.sizes:
            self.box_columns.append(list(range(columns, columns + size)))
            columns += size
        self.cells = list(range(columns))
        self._columns = columns
        driver.add_columns(columns)
        for chain in self.box_columns:
            for i in range(len(chain) - 1):
                self.add_row(_Row((chain[i + 1], chain[i]), (1, -1), None, 0))
        for i, rule in enumerate(component.constraints):
            if not i & _CLOCK_MASK:
                budget.check("building the model")
            cells = tuple(c for b in rule.boxes for c in self.box_columns[b])
            self.add_row(_Row(cells, (1,) * len(cells), rule.mines, rule.mines))

    def __enter__(self) -> _Model:
        return self

    def __exit__(self, *exc: object) -> None:
        self.driver.close()

    def add_row(self, row: _Row, *, check: bool = True) -> None:
        """Add ``row``; ``check=False`` leaves it out of the exact check of solutions (the
        no-good cuts, whose check is the caller's set of seen vectors)."""
        self.driver.add_row(row)
        if check:
            self._rows.append(row)

    def add_binaries(self, count: int) -> list[int]:
        self.driver.add_columns(count)
        self._columns += count
        return list(range(self._columns - count, self._columns))

    def hold_total(self, allowed: frozenset[int]) -> bool:
        """Rows that keep the number of mines in ``allowed``; ``False`` if it is empty."""
        runs = mine_number_runs(allowed, len(self.cells))
        if not runs:
            return False
        ones = (1,) * len(self.cells)
        if len(runs) == 1:
            low, high = runs[0]
            if (low, high) != (0, len(self.cells)):
                self.add_row(_Row(tuple(self.cells), ones, low, high))
            return True
        # Gaps: one selector binary per run, exactly one on, the total within its run.
        chosen = self.add_binaries(len(runs))
        self.add_row(_Row(tuple(chosen), (1,) * len(runs), 1, 1))
        self.add_row(_Row((*self.cells, *chosen), (*ones, *(-low for low, _ in runs)), 0, None))
        self.add_row(_Row((*self.cells, *chosen), (*ones, *(-high for _, high in runs)),
                          None, 0))
        return True

    def solve(self, objective: dict[int, int], budget: Budget = UNLIMITED) -> list[int] | None:
        """A proven-optimal point (minimising ``objective``; any feasible point when it is
        empty), or ``None`` when there is none."""
        time_limit = None
        if budget.limited:
            time_limit = budget.remaining()
            if time_limit <= 0:
                raise OutOfTime("time limit reached before a solve")
        self.solves += 1
        values = self.driver.solve(objective, time_limit)
        if values is None:
            return None
        point = [round(v) if isfinite(v) and abs(v - round(v)) <= _INTEGRALITY else -1
                 for v in values]
        if len(point) != self._columns or any(v not in (0, 1) for v in point):
            raise SolverError(f"the solver returned a non-binary point: {values}")
        for row in self._rows:
            if not row.holds(point):
                raise SolverError(f"the solver returned a point that violates {row}")
        return point

    def box_counts(self, point: Sequence[int]) -> list[int]:
        return [sum(point[c] for c in chain) for chain in self.box_columns]

    def total(self) -> dict[int, int]:
        """The objective "number of mines"."""
        return dict.fromkeys(self.cells, 1)


# ---------------------------------------------------------------------------- the backend

class MilpBackend:
    """Exact counts and verdicts from a MILP solver; subclasses pick the solver.

    ``solves`` counts the solver calls made so far (for benchmarks and tests). With
    ``in_child`` (CBC) every question runs in a child process ended when the budget runs
    out (:func:`~exactmines.child.run_in_child`), the solver's processes with it: PuLP
    writes a model file before each CBC run, seconds of Python on a big component, which
    no time limit of the solver's reaches.
    """

    name = "milp"
    in_child = False

    def __init__(self) -> None:
        self.solves = 0

    def _driver(self) -> _Driver:
        raise NotImplementedError

    def _model(self, component: Component, budget: Budget) -> _Model:
        return _Model(component, self._driver(), budget)

    def _asked(self, question: str, component: Component, args: tuple[Any, ...],
               budget: Budget) -> Any:
        """``question`` answered in a child process (see ``in_child``)."""
        rules = tuple((rule.boxes, rule.mines) for rule in component.constraints)
        answer, solves = run_in_child(
            _answer_in_child, (type(self).__name__, question, component.sizes, rules, args),
            budget, doing=_DOING[question])
        self.solves += solves
        return answer

    def count(self, component: Component, *, budget: Budget = UNLIMITED) -> ComponentCounts:
        budget.check()
        if self.in_child:
            return self._asked("count", component, (), budget)  # type: ignore[no-any-return]
        tally = LayoutTally(component)
        model = None
        try:
            with self._model(component, budget) as model:
                for counts in _vectors(model, budget):
                    tally.add(counts)
        finally:
            self.solves += 0 if model is None else model.solves
        return tally.result()

    def layouts_up_to(self, component: Component, limit: int,
                      allowed: frozenset[int] | None = None, *,
                      budget: Budget = UNLIMITED) -> tuple[int, frozenset[int]]:
        """The vectors of ``count`` (the total held in ``allowed``), enumerated only until
        ``limit`` layouts are found: "exactly one layout?" is two solves."""
        budget.check(_DOING["layouts_up_to"])  # before the build
        if self.in_child:
            return self._asked(  # type: ignore[no-any-return]
                "layouts_up_to", component, (limit, allowed), budget)
        found = 0
        numbers: set[int] = set()
        model = None
        try:
            with self._model(component, budget) as model:
                if allowed is not None and not model.hold_total(allowed):
                    return 0, frozenset()
                vectors = _vectors(model, budget)
                while found < limit and (counts := next(vectors, None)) is not None:
                    numbers.add(sum(counts))
                    found += prod(comb(size, j)
                                  for size, j in zip(component.sizes, counts, strict=True))
        finally:
            self.solves += 0 if model is None else model.solves
        return min(found, limit), frozenset(numbers)

    def mine_numbers(self, component: Component, *,
                     budget: Budget = UNLIMITED) -> frozenset[int]:
        budget.check(_DOING["mine_numbers"])  # before the build
        if self.in_child:
            return self._asked("mine_numbers", component, (), budget)  # type: ignore[no-any-return]
        found: set[int] = set()
        model = None
        try:
            with self._model(component, budget) as model:
                objective = model.total()
                ones = (1,) * len(model.cells)
                while (point := model.solve(objective, budget)) is not None:
                    k = sum(point[c] for c in model.cells)
                    found.add(k)
                    if k == len(model.cells):
                        break
                    model.add_row(_Row(tuple(model.cells), ones, k + 1, None))
        finally:
            self.solves += 0 if model is None else model.solves
        return frozenset(found)

    def deduce(self, component: Component, allowed: frozenset[int], *,
               budget: Budget = UNLIMITED) -> Deductions:
        """Past the budget, :class:`~exactmines.analysis.counts.PartlyProved` with every
        fact possible (``complete=False``): only the final optimum of 0 proves a fact
        impossible."""
        sizes = component.sizes
        if budget.expired():  # not worth building
            raise PartlyProved(f"time limit reached while {_DOING['deduce']}",
                               Deductions.unsettled(len(sizes)))
        can_mine = [False] * len(sizes)
        can_clear = [False] * len(sizes)
        model = None
        try:
            if self.in_child:
                return self._asked(  # type: ignore[no-any-return]
                    "deduce", component, (allowed,), budget)
            with self._model(component, budget) as model:
                if model.hold_total(allowed):
                    _settle(model, can_mine, can_clear, budget)
        except PartlyProved:
            raise
        except OutOfTime as exc:
            raise PartlyProved(str(exc), Deductions.unsettled(len(sizes))) from None
        finally:
            self.solves += 0 if model is None else model.solves
        return Deductions(tuple(can_mine), tuple(can_clear))


#: What each question is doing, for the message when its time runs out.
_DOING = {"count": "counting layouts", "layouts_up_to": "looking for layouts",
          "mine_numbers": "finding the possible numbers of mines",
          "deduce": "proving safe cells and mines"}


def _answer_in_child(engine: str, question: str, sizes: tuple[int, ...],
                     rules: tuple[tuple[tuple[int, ...], int], ...], args: tuple[Any, ...],
                     budget: Budget) -> tuple[Any, int]:
    """In a child process: ``question`` of a new ``engine`` (a class of this module) on the
    component sent as plain tuples, and the solves it took."""
    backend: MilpBackend = globals()[engine]()
    backend.in_child = False
    component = Component(sizes, tuple(Constraint(b, m) for b, m in rules))
    answer = getattr(backend, question)(component, *args, budget=budget)
    return answer, backend.solves


def _vectors(model: _Model, budget: Budget) -> Iterator[tuple[int, ...]]:
    """Every box-count vector of ``model``'s layouts, each cut off by its no-good row once
    found. Any point not cut off yet will do: a feasibility problem per vector, so the
    solver stops at its first solution instead of proving an optimum."""
    seen: set[tuple[int, ...]] = set()
    while (point := model.solve({}, budget)) is not None:
        counts = tuple(model.box_counts(point))
        if counts in seen:
            raise SolverError(f"the solver returned the cut vector {counts} again")
        seen.add(counts)
        yield counts
        model.add_row(_no_good(model.box_columns, counts), check=False)


def _no_good(box_columns: list[list[int]], counts: Sequence[int]) -> _Row:
    """The row "the box counts are not ``counts``": some box has a (j+1)-th mine or lacks its
    j-th (the chain rows make that the whole story)."""
    columns: list[int] = []
    coefs: list[int] = []
    low = 1
    for chain, j in zip(box_columns, counts, strict=True):
        if j < len(chain):
            columns.append(chain[j])
            coefs.append(1)
        if j > 0:
            columns.append(chain[j - 1])
            coefs.append(-1)
            low -= 1
    return _Row(tuple(columns), tuple(coefs), low, None)


def _settle(model: _Model, can_mine: list[bool], can_clear: list[bool],
            budget: Budget) -> None:
    """Fill ``can_mine``/``can_clear`` by maximising the open facts one layout settles.

    The number a layout settles is ``sum over open "can mine" facts of y[b][0]`` plus ``sum
    over open "can clear" facts of (1 - y[b][n-1])``; it is minimised negated. An optimum of
    0 proves that no allowed layout settles any open fact: they are all impossible. (Every
    layout settles a fact of every box, as a count ``j`` has ``j > 0`` or ``j < n``; so after
    the first solve no one-cell box is open both ways, the one case whose terms cancel.)
    """
    point = model.solve({}, budget)  # any layout will do while every fact is open
    if point is None:
        return
    while True:
        settled = 0
        counts = model.box_counts(point)
        for b, (j, chain) in enumerate(zip(counts, model.box_columns, strict=True)):
            if j > 0 and not can_mine[b]:
                can_mine[b] = True
                settled += 1
            if j < len(chain) and not can_clear[b]:
                can_clear[b] = True
                settled += 1
        open_facts = can_mine.count(False) + can_clear.count(False)
        if not settled or not open_facts:
            return
        objective: dict[int, int] = {}
        for b, chain in enumerate(model.box_columns):
            if not can_mine[b]:
                objective[chain[0]] = objective.get(chain[0], 0) - 1
            if not can_clear[b]:
                objective[chain[-1]] = objective.get(chain[-1], 0) + 1
        point = model.solve({c: a for c, a in objective.items() if a}, budget)
        if point is None:
            raise SolverError("the solver called a model infeasible that it had solved")


class HighsMilpBackend(MilpBackend):
    """The MILP engine on HiGHS (``highspy``), in-process."""

    name = "milp-highs"

    def __init__(self) -> None:
        super().__init__()
        _highspy()  # BackendUnavailable now, not at the first solve

    def _driver(self) -> _Driver:
        return _HighsDriver()


class CbcMilpBackend(MilpBackend):
    """The MILP engine on the CBC that ships with PuLP (one process per solve), each
    question in a child process."""

    name = "milp-cbc"
    in_child = True

    def __init__(self) -> None:
        super().__init__()
        _cbc_solver()  # BackendUnavailable now, not at the first solve

    def _driver(self) -> _Driver:
        return _CbcDriver()
