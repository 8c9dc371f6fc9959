"""Ganak engine: exact projected model counting (``pyganak``) on a CNF of the component.

Encoding. One variable per *cell* (the cells of a box are separate variables, so a model
count is a layout count: the binomial weights come for free). A rule "exactly ``t`` of these
``m`` cells" is written without auxiliaries when that is small (every ``(t+1)``-subset not
all mines, every ``(m-t+1)``-subset not all clear: a clue's rule, ``m <= 8``), else with
:mod:`pysat.card`'s totalizer; auxiliaries are never counted, the count is projected onto
the cells.

A Ganak call costs from milliseconds to a second of preprocessing, growing with its
variables (measured: 2 ms on 3 variables, 0.2 s on a chain of 50), and a layout count says
nothing about single cells, so the questions are cut down before Ganak sees any:

1. *Sweep* (SAT, CaDiCaL through PySAT): cells that are equal, or opposite, in every layout
   fall into one class, and cells with the same value in every layout are constants. Classes
   are guessed from a few models and each one is proved with one solve (under an activation
   literal, "some literal of the class true and some false"); a model that refutes a class
   splits every class it tells apart. A compiled SAT formula's thousands of wire cells
   collapse to a few classes per variable.
2. *Reduced formula*: every cell replaced by its class's literal, over one variable per
   class (projected count: unchanged).
3. *Mine numbers*: the number of mines is a constant plus a weighted sum of class literals
   (each class: cells equal to it minus cells opposite it). When no weight is left, every
   layout has the same number; else a sorting network over the weighted literals gives "at
   least ``i``" outputs, the possible numbers are found by SAT (a model with ``k`` mines in
   ``[low, high]`` splits the interval at ``k``), and a count for one number fixes two
   outputs.
4. *Linear algebra*: summed over the layouts with ``k`` mines, every rule says that its cells
   hold ``t`` mines per layout, and all cells hold ``k``: one linear equation over the
   classes' mine counts per rule. Exact Gauss-Jordan elimination leaves a few *free* classes;
   only they are counted, the others follow.

Ganak is then called ``|numbers| x (1 + free classes)`` times, each on a small formula, and
only on satisfiable ones (a SAT check first): Ganak prints a line on an unsatisfiable input.
With several numbers on a small component (:data:`GATED_VARIABLES`) one call counts every
number at once: each input gets ``bits`` fresh variables, counted too, true only where the
input is, so that a layout with ``j`` inputs true counts ``2**(bits*j)`` times and the
layouts by number are the digits of one count (``bits``: the plain count's length, which
bounds every digit; the digits must add up to it): ``2 + free classes`` calls (on a 30x16
sparse board's two largest components, 22 calls instead of 101). Each input costs Ganak
``bits`` variables, so the number of mines is first written in as few inputs as the rules
allow: every rule holds in every layout, so their Gauss-Jordan form (then a greedy search
over the multiples of its rows) turns "offset plus the inputs true" into a constant plus a
shorter sum (:func:`_fewer_inputs`; that board's 72-cell component: 53 inputs, 8 left).

Time limits. A Ganak call cannot be interrupted, so the whole count runs in a child process
(:func:`~exactmines.child.run_in_child`: a fresh interpreter, its memory capped, its
output silenced) that is ended when the budget runs out (:class:`~exactmines.errors.OutOfTime`),
or when this process is interrupted; with no limit too, so that Ctrl-C or SIGTERM always
ends it. ``mine_numbers`` and ``deduce`` are read off the counts (kept for the last few
components, so analysing a component asks Ganak once).
"""

from __future__ import annotations

import random
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from fractions import Fraction
from itertools import combinations, pairwise
from math import comb

import pyganak
from pysat.formula import IDPool
from pysat.solvers import Solver

from exactmines.analysis.backends import (
    ComponentCounts,
    CountingBackend,
)
from exactmines.analysis.backends.sat import DIRECT_CLAUSES, rule_clauses, sorting_network
from exactmines.analysis.frontier import Component, Constraint
from exactmines.budget import UNLIMITED, Budget
from exactmines.child import run_in_child
from exactmines.errors import SolverError
from exactmines.words import plural

__all__ = ["GanakBackend", "encode_cells"]

_SOLVER = "cd153"
#: Models drawn with random phases before the sweep (more split classes sooner; each costs
#: one solve and a pass over the cells).
_RANDOM_MODELS = 8
#: A component with several possible numbers of mines is counted by number in one call
#: (:func:`_by_number`) when its inputs (after :func:`_fewer_inputs`) times its cells (a
#: bound on the fresh variables: the count has at most ``cells + 1`` bits) are at most
#: this; past it, one call per number with a cardinality constraint. The
#: fresh variables cost Ganak time: a 72-cell component of a sparse 30x16 board (53 inputs,
#: 25 bits) counts 2.5x faster in one call, a compiled 3-SAT formula of 4,056 cells (one
#: number of mines, thousands of inputs) 4x slower.
GATED_VARIABLES = 5_000
#: Components whose counts are kept (count, then deduce, then mine_numbers on the same one).
_KEPT = 32
#: Rounds of shortening the number of mines' sum by the rules (:func:`_fewer_inputs`).
_SHORTER_ROUNDS = 64


def encode_cells(component: Component) -> tuple[list[list[int]], list[list[int]], int]:
    """Cell variables per box (``1..cells``, box by box), the clauses of the component's
    rules, and the highest variable used (auxiliaries of long rules above ``cells``)."""
    box_vars: list[list[int]] = []
    top = 0
    for size in component.sizes:
        box_vars.append(list(range(top + 1, top + size + 1)))
        top += size
    pool = IDPool(start_from=top + 1)
    clauses: list[list[int]] = []
    for rule in component.constraints:
        clauses.extend(rule_clauses([v for b in rule.boxes for v in box_vars[b]], rule.mines,
                                    pool))
    return box_vars, clauses, max(top, pool.top)


# ---------------------------------------------------------------------------------------
# Sweep: classes of cells equal or opposite in every layout


class _Sweep:
    """Cell classes of a satisfiable formula, proved with a SAT solver.

    ``value[v]`` for a constant cell ``v`` (0 or 1); else ``rep[v]``: the literal of its
    class's representative variable that equals ``v`` in every layout.
    """

    def __init__(self, solver: Solver, cells: int, top: int) -> None:
        self.solver = solver
        self.cells = cells
        self.top = top
        self.sig = [0] * (cells + 1)  # bit i: the cell's value in model i
        self.models = 0
        self.value: dict[int, int] = {}
        self.rep: dict[int, int] = {}

    def _add_model(self) -> None:
        model = self.solver.get_model()
        if model is None:  # pragma: no cover - only after a satisfiable solve
            raise SolverError("the SAT solver gave no model after a satisfiable solve")
        bit = 1 << self.models
        sig = self.sig
        for v in range(1, min(self.cells, len(model)) + 1):  # a variable in no clause: 0
            if model[v - 1] > 0:
                sig[v] |= bit
        self.models += 1

    def _fresh(self) -> int:
        self.top += 1
        return self.top

    def run(self, budget: Budget) -> None:
        solver = self.solver
        self._add_model()
        rng = random.Random(self.cells)
        for _ in range(min(_RANDOM_MODELS, self.cells)):
            solver.set_phases([v if rng.random() < 0.5 else -v
                               for v in range(1, self.cells + 1)])
            if solver.solve():
                self._add_model()
        solver.set_phases([])
        # Literals normalised to be false in model 0.
        todo = [[v if not self.sig[v] & 1 else -v for v in range(1, self.cells + 1)]]
        if not self.cells:
            todo = []
        while todo:
            budget.check("sorting cells into classes")
            group = todo.pop()
            parts = self._split(group)
            if len(parts) > 1:
                todo.extend(parts)
                continue
            if self._lit_sig(group[0]) == 0:
                # False in every model so far: constant false unless some model sets one.
                act = self._fresh()
                solver.add_clause([-act, *group])
                found = self._solve(act)
                if not found:
                    for lit in group:
                        self.value[abs(lit)] = 0 if lit > 0 else 1
                    continue
                todo.append(group)
                continue
            if len(group) > 1:
                act = self._fresh()
                solver.add_clause([-act, *group])
                solver.add_clause([-act, *(-lit for lit in group)])
                if self._solve(act):
                    todo.append(group)
                    continue
            head = group[0]
            for lit in group:
                self.rep[abs(lit)] = abs(head) if (lit > 0) == (head > 0) else -abs(head)

    def _solve(self, act: int) -> bool:
        """Solve under the activation literal ``act``, keep the model, retire ``act``
        (CaDiCaL forgets the model once a clause is added: it is read first)."""
        found = bool(self.solver.solve(assumptions=[act]))
        if found:
            self._add_model()
        self.solver.add_clause([-act])
        return found

    def _lit_sig(self, lit: int) -> int:
        sig = self.sig[abs(lit)]
        return sig if lit > 0 else sig ^ ((1 << self.models) - 1)

    def _split(self, group: list[int]) -> list[list[int]]:
        parts: dict[int, list[int]] = {}
        for lit in group:
            parts.setdefault(self._lit_sig(lit), []).append(lit)
        return list(parts.values())


# ---------------------------------------------------------------------------------------
# Exact linear algebra over the classes' mine counts


class _Elimination:
    """Gauss-Jordan over the rationals, one row at a time, sparse.

    A row is ``sum_c a_c m_c = alpha L + beta k L`` (``L``: layouts with ``k`` mines). Kept
    rows each have a pivot column (coefficient 1) that no other kept row contains.
    """

    def __init__(self) -> None:
        self.rows: dict[int, tuple[dict[int, Fraction], Fraction, Fraction]] = {}
        self.holding: dict[int, set[int]] = {}  # column -> pivots of the rows holding it

    def add(self, row: dict[int, int], alpha: int, beta: int) -> None:
        coef: dict[int, Fraction] = {c: Fraction(a) for c, a in row.items() if a}
        a, b = Fraction(alpha), Fraction(beta)
        for col in [c for c in coef if c in self.rows]:
            factor = coef.pop(col)
            prow, pa, pb = self.rows[col]
            for c, v in prow.items():
                if c != col:
                    new = coef.get(c, 0) - factor * v
                    if new:
                        coef[c] = new
                    else:
                        coef.pop(c, None)
            a -= factor * pa
            b -= factor * pb
        if not coef:
            return  # dependent (or, when the sides differ, true only where L = 0)
        pivot = min(coef, key=lambda c: (len(self.holding.get(c, ())), c))
        scale = coef[pivot]
        coef = {c: v / scale for c, v in coef.items()}
        a, b = a / scale, b / scale
        # Clear the pivot from every kept row.
        for other in list(self.holding.get(pivot, ())):
            orow, oa, ob = self.rows[other]
            factor = orow.pop(pivot)
            for c, v in coef.items():
                if c == pivot:
                    continue
                new = orow.get(c, 0) - factor * v
                if new:
                    if c not in orow:
                        self.holding.setdefault(c, set()).add(other)
                    orow[c] = new
                elif c in orow:
                    del orow[c]
                    self.holding[c].discard(other)
            self.rows[other] = (orow, oa - factor * a, ob - factor * b)
        self.holding.pop(pivot, None)
        for c in coef:
            if c != pivot:
                self.holding.setdefault(c, set()).add(pivot)
        self.rows[pivot] = (coef, a, b)

    def solve(self, free: dict[int, int], layouts: int, k: int) -> dict[int, int]:
        """Every pivot's value from the free columns' values (exact integers)."""
        out: dict[int, int] = {}
        for pivot, (coef, a, b) in self.rows.items():
            value = a * layouts + b * k * layouts
            for c, v in coef.items():
                if c != pivot:
                    value -= v * free[c]
            if value.denominator != 1 or value < 0 or value > layouts:
                raise SolverError(f"a class's layout count came out as {value}, not a whole "
                                  f"number between 0 and {layouts}")
            out[pivot] = int(value)
        return out


# ---------------------------------------------------------------------------------------
# Counting


def _sorting_network(inputs: list[int], top: int) -> tuple[list[int], list[list[int]], int]:
    """:func:`~exactmines.analysis.backends.sat.sorting_network` with ``top`` the highest
    variable used so far (here and in the result)."""
    outputs, clauses, free = sorting_network(inputs, top + 1)
    return outputs, clauses, free - 1


def _exactly(inputs: list[int], j: int, top: int) -> list[list[int]]:
    """Clauses for "exactly ``j`` of ``inputs`` true" (a literal may repeat: it counts once
    per place), as subsets when few, else as a sorting network over variables above
    ``top``. Every variable Ganak sees costs it time: the network is the last resort."""
    m = len(inputs)
    if comb(m, j + 1) + comb(m, m - j + 1) <= DIRECT_CLAUSES:
        clauses = [sorted({-x for x in subset}) for subset in combinations(inputs, j + 1)]
        clauses += [sorted(set(subset)) for subset in combinations(inputs, m - j + 1)]
        return clauses
    outputs, clauses, _ = _sorting_network(inputs, top)
    if j > 0:
        clauses.append([outputs[j - 1]])
    if j < m:
        clauses.append([-outputs[j]])
    return clauses


def _class_row(cells_of: Iterable[int], mines: int, value: dict[int, int],
               rep: dict[int, int]) -> tuple[dict[int, int], int]:
    """"``mines`` of ``cells_of``" over the classes: ``(row, alpha)`` with ``sum row[c] x_c
    = alpha`` (a constant cell moves to ``alpha``; a cell opposite its class ``c`` is
    ``1 - x_c``)."""
    row: dict[int, int] = {}
    alpha = mines
    for v in cells_of:
        if v in value:
            alpha -= value[v]
        else:
            r = rep[v]
            if r > 0:
                row[r] = row.get(r, 0) + 1
            else:
                row[-r] = row.get(-r, 0) - 1
                alpha -= 1
    return row, alpha


def _fewer_inputs(rules: list[tuple[dict[int, int], int]], inputs: list[int], offset: int,
                  budget: Budget = UNLIMITED) -> tuple[int, list[int]]:
    """The number of mines, ``offset`` plus the literals of ``inputs`` true, in fewer
    literals: every rule (``sum row[c] x_c = alpha``) holds in every layout, so the rules'
    Gauss-Jordan form turns the sum into a constant plus a sum over the columns without a
    pivot (a 72-cell component of a sparse 30x16 board: 53 inputs, 9 left). Each input
    costs Ganak its gated variables (:func:`_by_number`), or its place in a cardinality
    encoding. Returns ``(base, literals)``: ``mines = base + literals true`` in every
    layout; ``offset, inputs`` themselves when the reduction is no shorter or has a
    fractional coefficient."""
    elimination = _Elimination()
    for row, alpha in rules:
        if any(row.values()):
            elimination.add(row, alpha, 0)
    coef: dict[int, Fraction] = {}
    const = Fraction(offset)
    for x in inputs:  # a negative literal -c is 1 - x_c
        coef[abs(x)] = coef.get(abs(x), Fraction(0)) + (1 if x > 0 else -1)
        const += x < 0
    for col in [c for c in coef if c in elimination.rows]:
        factor = coef.pop(col)
        prow, shift, _ = elimination.rows[col]  # x_col = shift - sum of the others
        const += factor * shift
        for c, v in prow.items():
            if c != col:
                coef[c] = coef.get(c, Fraction(0)) - factor * v
    coef = {c: a for c, a in coef.items() if a}
    # Then, while it shortens the sum, add a rule's row times the multiple that clears one
    # of the sum's columns (the row's pivot comes in): the pivots the elimination chose
    # are one choice among many.
    weight = _weight(coef)
    for _ in range(_SHORTER_ROUNDS):
        budget.check("writing the number of mines in few inputs")
        better: tuple[tuple[int, Fraction], int, Fraction] | None = None
        for c in coef:
            for pivot in elimination.holding.get(c, ()):
                prow = elimination.rows[pivot][0]
                mu = -coef[c] / prow[c]
                fractions, total = weight
                for d, v in prow.items():  # only the row's columns change
                    was = coef.get(d, Fraction(0))
                    now = was + mu * v
                    fractions += (now.denominator != 1) - (was.denominator != 1)
                    total += abs(now) - abs(was)
                if (fractions, total) < (weight if better is None else better[0]):
                    better = ((fractions, total), pivot, mu)
        if better is None:
            break
        weight, pivot, mu = better
        prow, shift, _ = elimination.rows[pivot]
        const -= mu * shift
        for d, v in prow.items():
            value = coef.get(d, Fraction(0)) + mu * v
            if value:
                coef[d] = value
            else:
                coef.pop(d, None)
    few: list[int] = []
    for c, a in sorted(coef.items()):
        if a.denominator != 1:
            return offset, inputs
        if a < 0:  # a x_c = a + |a| (1 - x_c)
            const += a
        few.extend([c if a > 0 else -c] * abs(int(a)))
    if len(few) >= len(inputs) or const.denominator != 1:
        return offset, inputs
    return int(const), few


def _weight(coef: dict[int, Fraction]) -> tuple[int, Fraction]:
    """How costly a sum is as Ganak's inputs: fractional coefficients first (unusable),
    then the inputs it takes."""
    return (sum(a.denominator != 1 for a in coef.values()),
            sum((abs(a) for a in coef.values()), Fraction(0)))


def _by_number(formula: list[list[int]], classes: list[int], inputs: list[int],
               free: list[int], top: int, solver: Solver, budget: Budget
               ) -> tuple[list[int], dict[int, list[int]]]:
    """The layouts with ``j`` inputs true for every ``j`` at once, and the same for each
    free class true, in ``2 + len(free)`` Ganak calls (see the module notes): each input
    gets ``bits`` fresh variables, counted too, that may be true only where the input is,
    so a layout with ``j`` inputs true is counted ``2**(bits * j)`` times and the layouts
    with ``j`` are digit ``j`` of the count in base ``2**bits``; ``bits`` is the length of
    the plain count, which bounds every digit."""
    plain = _ganak(formula, classes, [])
    bits = plain.bit_length()
    digit = (1 << bits) - 1
    gated = list(formula)
    sampling = list(classes)
    for i, x in enumerate(inputs):
        for z in range(top + 1 + i * bits, top + 1 + (i + 1) * bits):
            gated.append([-z, x])
            sampling.append(z)

    def digits(units: list[int]) -> list[int]:
        weighted = _ganak(gated, sampling, units)
        if weighted >> (bits * (len(inputs) + 1)):
            raise SolverError("Ganak's count by number of mines has a digit too many")
        return [(weighted >> (bits * j)) & digit for j in range(len(inputs) + 1)]

    budget.check()
    totals = digits([])
    if sum(totals) != plain:
        raise SolverError(f"Ganak counted {plural(plain, 'layout')}, and {sum(totals)} "
                          "summed by number of mines")
    of_class: dict[int, list[int]] = {}
    for r in free:
        budget.check()
        of_class[r] = digits([r]) if solver.solve(assumptions=[r]) else [0] * len(totals)
    return totals, of_class


def _ganak(clauses: Iterable[Sequence[int]], sampling: list[int], units: list[int]) -> int:
    """Models of ``clauses`` and ``units`` projected onto ``sampling`` (satisfiable input)."""
    if not sampling:
        return 1
    counter = pyganak.Counter(verbose=0, seed=0)
    counter.add_clauses(clauses)
    for unit in units:
        counter.add_clause([unit])
    counter.set_sampling_set(sampling)
    return int(counter.count())


def count_component(component: Component, budget: Budget = UNLIMITED) -> ComponentCounts:
    """Exact counts of one component (see the module notes for the steps)."""
    sizes = component.sizes
    cells = component.cells
    boxes = len(sizes)
    zero_row = (0,) * boxes
    nothing = ComponentCounts((0,) * (cells + 1), (zero_row,) * (cells + 1))
    box_vars, clauses, top = encode_cells(component)
    if any(not clause for clause in clauses):
        return nothing
    budget.check()
    with Solver(name=_SOLVER, bootstrap_with=clauses) as solver:
        if not solver.solve():
            return nothing
        sweep = _Sweep(solver, cells, top)
        sweep.run(budget)
        value, rep = sweep.value, sweep.rep
        top = sweep.top

        # The reduced formula: class literals for cells, constants dropped.
        def literal(lit: int) -> int | bool:
            var = abs(lit)
            if var > cells:
                return lit
            if var in value:
                return bool(value[var]) == (lit > 0)
            return rep[var] if lit > 0 else -rep[var]

        reduced: set[tuple[int, ...]] = set()
        for clause in clauses:
            lits: set[int] = set()
            for lit in clause:
                new = literal(lit)
                if new is True or (not isinstance(new, bool) and -new in lits):
                    break
                if new is not False:
                    lits.add(new)
            else:
                if not lits:
                    raise SolverError("a satisfiable component reduced to an empty clause")
                reduced.add(tuple(sorted(lits)))
        classes = sorted({abs(r) for r in rep.values()})

        # Mines = offset + true network inputs.
        same = dict.fromkeys(classes, 0)
        opposite = dict.fromkeys(classes, 0)
        offset = sum(value.values())
        for r in rep.values():
            if r > 0:
                same[r] += 1
            else:
                opposite[-r] += 1
        inputs: list[int] = []
        for r in classes:
            d = same[r] - opposite[r]
            offset += min(same[r], opposite[r])
            inputs.extend([r if d > 0 else -r] * abs(d))
        outputs: list[int] = []
        if inputs:
            outputs, network, top = _sorting_network(inputs, top)
            solver.append_formula(network)

        def bounds(low: int, high: int) -> list[int]:
            """Assumptions: between ``low`` and ``high`` network inputs true."""
            out = []
            if low > 0:
                out.append(outputs[low - 1])
            if high < len(inputs):
                out.append(-outputs[high])
            return out

        numbers: list[int] = []
        todo = [(0, len(inputs))]
        while todo:
            low, high = todo.pop()
            if low > high:
                continue
            budget.check("finding the possible numbers of mines")
            if not solver.solve(assumptions=bounds(low, high)):
                continue
            model = solver.get_model()
            true = {lit for lit in model if lit > 0}
            j = sum(x in true if x > 0 else -x not in true for x in inputs)
            numbers.append(j)
            todo += [(low, j - 1), (j + 1, high)]

        # One equation per distinct rule, and the total.
        elimination = _Elimination()
        seen: set[tuple[tuple[tuple[int, int], ...], int, int]] = set()

        def equation(cells_of: Iterable[int], times: int, per_layout: int) -> None:
            row, alpha = _class_row(cells_of, per_layout, value, rep)
            key = (tuple(sorted((c, a) for c, a in row.items() if a)), alpha, times)
            if key[0] and key not in seen:
                seen.add(key)
                elimination.add(row, alpha, times)

        def difference(c: int, d: int) -> None:
            row: dict[int, int] = {}
            alpha = 0
            for v, sign in ((c, 1), (d, -1)):
                if v in value:
                    alpha -= sign * value[v]
                elif rep[v] > 0:
                    row[rep[v]] = row.get(rep[v], 0) + sign
                else:
                    row[-rep[v]] = row.get(-rep[v], 0) - sign
                    alpha -= sign
            if any(row.values()):
                elimination.add(row, alpha, 0)

        equation(range(1, cells + 1), 1, 0)
        for rule in component.constraints:
            equation((v for b in rule.boxes for v in box_vars[b]), 0, rule.mines)
        # The cells of a box are interchangeable (swapping two maps layouts to layouts), so
        # each is a mine in as many layouts as the next: m_c - m_d = 0.
        for chain in box_vars:
            for c, d in pairwise(chain):
                difference(c, d)
        free = [r for r in classes if r not in elimination.rows]

        # Each possible number's layouts, and each free class's among them. Ganak sees the
        # number of mines as few inputs as the rules allow (``mines = base + few true``).
        counted: dict[int, tuple[int, dict[int, int]]] = {}
        formula = [list(c) for c in reduced]
        base, few = offset, inputs
        if len(numbers) > 1:
            rules = [_class_row((v for b in rule.boxes for v in box_vars[b]), rule.mines,
                                value, rep) for rule in component.constraints]
            base, few = _fewer_inputs(rules, inputs, offset, budget)
            if any(not 0 <= offset + j - base <= len(few) for j in numbers):
                raise SolverError("a number of mines SAT found lies outside the rules' "
                                  "reduced count")
        if len(numbers) > 1 and len(few) * cells <= GATED_VARIABLES:
            budget.check()
            totals, of_class = _by_number(formula, classes, few, free, top, solver, budget)
            wanted = {offset + j - base for j in numbers}
            if any(n for i, n in enumerate(totals) if i not in wanted):
                raise SolverError("Ganak counted layouts with a number of mines SAT found "
                                  "impossible")
            for j in numbers:
                i = offset + j - base
                counted[j] = (totals[i], {r: of_class[r][i] for r in free})
        for j in sorted(numbers):
            if j in counted:
                continue
            units = bounds(j, j)  # for the SAT checks: Ganak gets its own encoding
            exact = (formula + _exactly(few, offset + j - base, top) if len(numbers) > 1
                     else formula)
            budget.check()
            total = _ganak(exact, classes, [])
            known: dict[int, int] = {}
            for r in free:
                budget.check()
                known[r] = (_ganak(exact, classes, [r])
                            if solver.solve(assumptions=[*units, r]) else 0)
            counted[j] = (total, known)

        layouts = [0] * (cells + 1)
        rows: list[tuple[int, ...]] = [zero_row] * (cells + 1)
        for j in sorted(numbers):
            k = offset + j
            total, known = counted[j]
            known.update(elimination.solve(known, total, k))
            layouts[k] = total
            mines = []
            for chain in box_vars:
                m = 0
                for v in chain:
                    if v in value:
                        m += total * value[v]
                    else:
                        r = rep[v]
                        m += known[r] if r > 0 else total - known[-r]
                mines.append(m)
            rows[k] = tuple(mines)
        return ComponentCounts(tuple(layouts), tuple(rows))


def _count_plain(sizes: tuple[int, ...], rules: tuple[tuple[tuple[int, ...], int], ...],
                 budget: Budget) -> ComponentCounts:
    """:func:`count_component` of a component sent as plain tuples: what a child process
    is given (a third of the pickling time of the dataclasses on a 92,616-cell one)."""
    return count_component(Component(sizes, tuple(Constraint(b, m) for b, m in rules)), budget)


class GanakBackend(CountingBackend):
    """Exact counts by projected model counting with Ganak (``pip install pyganak``)."""

    name = "ganak"

    def __init__(self) -> None:
        super().__init__()
        self._kept: OrderedDict[Component, ComponentCounts] = OrderedDict()

    def count(self, component: Component, *, budget: Budget = UNLIMITED) -> ComponentCounts:
        kept = self._kept.get(component)
        if kept is not None:
            self._kept.move_to_end(component)
            return kept
        budget.check()
        rules = tuple((rule.boxes, rule.mines) for rule in component.constraints)
        counts = run_in_child(_count_plain, (component.sizes, rules), budget,
                              doing="counting layouts with Ganak")
        self._kept[component] = counts
        if len(self._kept) > _KEPT:
            self._kept.popitem(last=False)
        return counts
