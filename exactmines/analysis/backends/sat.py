"""PySAT engine: clues as cardinality clauses, counts by projected model enumeration,
verdicts by assumption-based tests.

Encoding. Each box of ``n`` cells gets ``n`` variables with the symmetry-breaking chain
``x[i+1] -> x[i]``, so a box holding ``j`` mines has exactly one model (its first ``j``
variables true) and a model *is* a box-count vector; its weight is prod C(n, j). A clue
"exactly t of these m cells" (m <= 8) is written without auxiliary variables: every
(t+1)-subset is not all mines, every (m-t+1)-subset is not all clear. Small, and unit
propagation on it is complete.

Counting blocks each model on the box counts only (never on auxiliaries: PySAT's
``enum_models`` would block whole models and repeat layouts). Totals of mines are
constrained through a sorting network over the cells (built only when a question bounds
the total), whose outputs are switched on by assumptions, so one solver answers every
question; its size is O(n log^2 n), where a totalizer's is O(n^2).

Time limits. Every step stops when the budget runs out: the encoding and the sorting
network (built in Python, checked every few thousand clauses, and handed to the solver in
chunks, never held whole), and every solve. PySAT cannot interrupt CaDiCaL
(``interrupt()`` is not implemented for it), so a solve under a limit runs in *slices*
(:class:`~exactmines.slices.Slices`): ``solve_limited`` with a conflict budget, the clock
read between slices. A slice keeps what the solver learnt, so slicing costs little
(measured on a compiled 34,216-cell formula: the same CPU time as one solve, within
noise); the slice's conflicts adapt so that a slice lasts about :data:`_SLICE_SECONDS`.
What cannot be sliced is the solver's own set-up inside the first slice (about 0.15 s on
that formula). Variable elimination, which no budget of the solver's bounds, is switched
off.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations
from math import comb

from pysat.card import CardEnc, EncType
from pysat.formula import IDPool
from pysat.solvers import Solver

from exactmines.analysis.backends import (
    ComponentCounts,
    Deductions,
    LayoutTally,
    PartlyProved,
    mine_number_runs,
)
from exactmines.analysis.frontier import Component
from exactmines.budget import UNLIMITED, Budget
from exactmines.errors import OutOfTime
from exactmines.slices import Slices

__all__ = ["SatBackend", "encode", "rule_clauses", "sorting_network", "DIRECT_CLAUSES"]

# CaDiCaL 1.5.3: as fast as minisat on play positions, 100x faster on compiled formulas
# (2 s against 321 s on a 194,361-cell one). Models are read before any clause is added.
_SOLVER = "cd153"
#: Seconds a slice of a solve under a limit should last: the clock is read between slices.
_SLICE_SECONDS = 0.02
#: Conflicts of the first slice, and the range the adaptation keeps them in.
_SLICE_CONFLICTS = 1000
_SLICE_RANGE = (1, 1 << 20)
#: Clauses built between two looks at the clock, and handed to the solver at once.
_CHUNK = 1 << 14


#: A rule is written as subsets (no auxiliary variable) while that takes at most this many
#: clauses; a longer one (a number with many neighbours, on a cube or a graph) as a
#: totalizer, whose auxiliaries its cells determine.
DIRECT_CLAUSES = 512


def rule_clauses(cells: list[int], mines: int, pool: IDPool) -> list[list[int]]:
    """Clauses for "exactly ``mines`` of ``cells`` hold a mine": every ``mines + 1`` cells
    not all mines and every ``len(cells) - mines + 1`` not all clear while that is at most
    :data:`DIRECT_CLAUSES` clauses (a number with up to 8 neighbours always is), else a
    totalizer with new variables from ``pool``. An impossible count is the empty clause."""
    m = len(cells)
    if mines < 0 or mines > m:
        return [[]]
    if comb(m, mines + 1) + comb(m, m - mines + 1) <= DIRECT_CLAUSES:
        clauses = [[-v for v in subset] for subset in combinations(cells, mines + 1)]
        clauses.extend(list(subset) for subset in combinations(cells, m - mines + 1))
        return clauses
    return CardEnc.equals(lits=cells, bound=mines, vpool=pool,
                          encoding=EncType.totalizer).clauses


def encode(component: Component,
           budget: Budget = UNLIMITED) -> tuple[list[list[int]], list[list[int]], int]:
    """Variables per box (``1..cells``), the clauses of the component, as plain int lists,
    and the highest variable used (auxiliaries of long rules above the cells). The budget
    is checked every few thousand clauses."""
    box_vars: list[list[int]] = []
    top = 0
    clauses: list[list[int]] = []
    for size in component.sizes:
        box_vars.append(list(range(top + 1, top + size + 1)))
        top += size
        chain = box_vars[-1]
        clauses.extend([-chain[i + 1], chain[i]] for i in range(size - 1))
    pool = IDPool(start_from=top + 1)
    checked = len(clauses)
    for rule in component.constraints:
        clauses.extend(rule_clauses([v for b in rule.boxes for v in box_vars[b]], rule.mines,
                                    pool))
        if len(clauses) - checked > _CHUNK:
            budget.check("encoding the component")
            checked = len(clauses)
    return box_vars, clauses, max(top, pool.top)


class _Session:
    """One solver over one component, with a sorting network for the total mine number
    when a question needs one. Everything it does stops when ``budget`` runs out."""

    def __init__(self, component: Component, budget: Budget = UNLIMITED) -> None:
        self.component = component
        self.budget = budget
        self.box_vars, clauses, self.top = encode(component, budget)
        self.cells = [v for chain in self.box_vars for v in chain]
        self.solver = Solver(name=_SOLVER)
        # Bounded variable elimination is bounded by no budget of the solver's, and the
        # blocking clauses of a count (a literal per box) make its resolvents huge: on the
        # compiled 20-variable formula of 2,382 models one round took 212 s inside a slice
        # of 1000 conflicts, and 9 models were found in 213 s; without it all 2,382 in 30 s,
        # no slice above 0.24 s. (A count of 15 models costs a third more: 1.14 s, not 0.86.)
        self.solver.configure({"elim": 0})
        self._sorted: list[int] | None = None
        try:
            # PySAT adds a clause at a time from Python: 0.6 s for a 92,616-cell component.
            for start in range(0, len(clauses), _CHUNK):
                budget.check("encoding the component")
                self.solver.append_formula(clauses[start:start + _CHUNK])
        except OutOfTime:
            self.solver.delete()
            raise
        self._slices = Slices(_SLICE_SECONDS, _SLICE_CONFLICTS, _SLICE_RANGE)

    def __enter__(self) -> _Session:
        return self

    def __exit__(self, *exc: object) -> None:
        self.solver.delete()

    def solve(self, assumptions: list[int] | None = None, doing: str = "solving") -> bool:
        """Is there a model under ``assumptions``? Without a limit, one solve; with one,
        slices of a few thousand conflicts with the clock read between them.

        Raises
        ------
        OutOfTime
            When the budget has run out before an answer.
        """
        assumptions = assumptions or []
        if not self.budget.limited:
            return bool(self.solver.solve(assumptions=assumptions))

        def stop() -> bool:
            self.budget.check(doing)
            return False

        found = self._slices.solve(self.solver, assumptions, stop)
        assert found is not None  # stop() raises instead
        return found

    def box_counts(self) -> list[int]:
        model = self.solver.get_model()
        assert model is not None
        return [sum(model[v - 1] > 0 for v in chain) for chain in self.box_vars]

    def between(self, low: int, high: int) -> list[int]:
        """Assumptions that hold the number of mines in ``[low, high]`` (none when the
        interval is every number: no counter is built for that). The first bounded
        question builds the sorting network: n log^2 n / 4 comparators, 12 million
        clauses and 8 s of Python on a 34,216-cell component, so it is built in chunks
        under the budget."""
        n = len(self.cells)
        assumptions = []
        if low > 0 or high < n:
            if self._sorted is None:
                outputs = list(self.cells)
                # New variables above the cells and the long rules' auxiliaries.
                for chunk in _network_chunks(outputs, self.top + 1):
                    self.solver.append_formula(chunk)
                    self.budget.check("building the counter of mines")
                self._sorted = outputs
                # A conflict in the bigger formula can cost a thousand times more: the
                # slices start again from the smallest.
                self._slices.restart()
            # _sorted[i] is true exactly when at least i + 1 cells hold mines.
            if low > 0:
                assumptions.append(self._sorted[low - 1])
            if high < n:
                assumptions.append(-self._sorted[high])
        return assumptions


def _network_chunks(wires: list[int], top: int) -> Iterator[list[list[int]]]:
    """Batcher's odd-even merge sort over ``wires`` (Knuth's form, any length), its
    comparators encoded in both directions with new variables from ``top`` on, in lists of
    about :data:`_CHUNK` clauses. ``wires`` becomes the outputs, true ones first. A
    comparator is 6 clauses and 2 new variables."""
    n = len(wires)
    clauses: list[list[int]] = []
    p = 1
    while p < n:
        k = p
        while k >= 1:
            j = k % p
            while j <= n - 1 - k:
                for i in range(min(k - 1, n - j - k - 1) + 1):
                    a, b = i + j, i + j + k
                    if a // (2 * p) == b // (2 * p):
                        x, y = wires[a], wires[b]
                        high, low = top, top + 1
                        top += 2
                        # high = x or y, low = x and y.
                        clauses += ([-x, high], [-y, high], [-high, x, y],
                                    [-x, -y, low], [-low, x], [-low, y])
                        wires[a], wires[b] = high, low
                if len(clauses) >= _CHUNK:
                    yield clauses
                    clauses = []
                j += 2 * k
            k //= 2
        p *= 2
    yield clauses


def sorting_network(inputs: list[int], top: int,
                    budget: Budget = UNLIMITED) -> tuple[list[int], list[list[int]], int]:
    """Batcher's odd-even merge sort over ``inputs`` with new variables from ``top`` on:
    the outputs (true ones first), the clauses, and the next free variable. Used by the SAT
    and Ganak engines.

    ``n log^2 n / 4`` comparators of 6 clauses each: a totalizer over ``n`` cells has
    ``n^2 / 4`` clauses at its root alone (15 GB at n = 8847, where this takes 2.3 million
    clauses). The budget is checked every few thousand clauses.
    """
    wires = list(inputs)
    clauses: list[list[int]] = []
    for chunk in _network_chunks(wires, top):
        clauses += chunk
        budget.check("building the counter of mines")
    return wires, clauses, top + len(clauses) // 3


class SatBackend:
    """Exact counts and verdicts with a SAT solver (PySAT, CaDiCaL 1.5.3)."""

    name = "sat"

    def count(self, component: Component, *, budget: Budget = UNLIMITED) -> ComponentCounts:
        budget.check()
        tally = LayoutTally(component)
        with _Session(component, budget) as session:
            while session.solve(doing="counting layouts"):
                counts = session.box_counts()
                tally.add(counts)
                block = _blocking_clause(session.box_vars, counts)
                if not block:
                    break
                session.solver.add_clause(block)
        return tally.result()

    def mine_numbers(self, component: Component, *,
                     budget: Budget = UNLIMITED) -> frozenset[int]:
        """Every feasible number, with two solves per number found plus one: a model in
        ``[low, high]`` with ``k`` mines splits the interval at ``k``."""
        doing = "finding the possible numbers of mines"
        budget.check(doing)
        found: set[int] = set()
        with _Session(component, budget) as session:
            todo = [(0, component.cells)]
            while todo:
                low, high = todo.pop()
                if low > high:
                    continue
                if not session.solve(session.between(low, high), doing):
                    continue
                k = sum(session.box_counts())
                found.add(k)
                todo += [(low, k - 1), (k + 1, high)]
        return frozenset(found)

    def deduce(self, component: Component, allowed: frozenset[int], *,
               budget: Budget = UNLIMITED) -> Deductions:
        """Two passes. Without a bound on the total first (no counter: fast), recording
        every model and, when its mine number is allowed, what it shows about the allowed
        layouts; then, under the bound, only the boxes the first pass left open. A box no
        layout can mine is safe under any bound, so the slow bounded solves are few, often
        none.

        When the budget runs out, what is proved stands: a fact the first pass found
        impossible in every layout, or one the finished second pass did not find; every
        other open fact is possible: :class:`~exactmines.analysis.counts.PartlyProved`
        carries those facts (``complete=False``). The order of the solves is fixed, so a
        larger budget proves everything a smaller one did."""
        sizes = component.sizes
        n = len(sizes)
        free_mine, free_clear = [False] * n, [False] * n
        can_mine, can_clear = [False] * n, [False] * n
        # Facts the first pass proved impossible in every layout (allowed or not).
        never_mine, never_clear = [False] * n, [False] * n
        doing = "proving safe cells and mines"
        try:
            budget.check(doing)
            with _Session(component, budget) as session:

                def solve(assumptions: list[int]) -> bool:
                    return session.solve(assumptions, doing)

                def record() -> None:
                    counts = session.box_counts()
                    inside = sum(counts) in allowed
                    for b, j in enumerate(counts):
                        free_mine[b] = free_mine[b] or j > 0
                        free_clear[b] = free_clear[b] or j < sizes[b]
                        if inside:
                            can_mine[b] = can_mine[b] or j > 0
                            can_clear[b] = can_clear[b] or j < sizes[b]

                if not solve([]):
                    return Deductions((False,) * n, (False,) * n)
                record()
                for b, chain in enumerate(session.box_vars):
                    if not free_mine[b]:
                        if solve([chain[0]]):
                            record()
                        else:
                            never_mine[b] = True
                    if not free_clear[b]:
                        if solve([-chain[-1]]):
                            record()
                        else:
                            never_clear[b] = True
                for low, high in mine_number_runs(allowed, component.cells):
                    open_boxes = [b for b in range(n) if (free_mine[b] and not can_mine[b])
                                  or (free_clear[b] and not can_clear[b])]
                    if not open_boxes:
                        break
                    bounds = session.between(low, high)
                    if not bounds:
                        break  # every number allowed: the first pass was the answer
                    if not solve(bounds):
                        continue
                    record()
                    for b in open_boxes:
                        chain = session.box_vars[b]
                        if free_mine[b] and not can_mine[b] and solve([*bounds, chain[0]]):
                            record()
                        if free_clear[b] and not can_clear[b] and solve([*bounds, -chain[-1]]):
                            record()
        except OutOfTime as exc:
            raise PartlyProved(str(exc), Deductions(
                tuple(m or not never for m, never in zip(can_mine, never_mine, strict=True)),
                tuple(c or not never for c, never in zip(can_clear, never_clear, strict=True)),
                complete=False)) from None
        return Deductions(tuple(can_mine), tuple(can_clear))

    def layouts_up_to(self, component: Component, limit: int,
                      allowed: frozenset[int] | None = None, *,
                      budget: Budget = UNLIMITED) -> tuple[int, frozenset[int]]:
        """Layouts (with a mine number in ``allowed``), counted only up to ``limit``, and
        the mine numbers of the layouts seen.

        ``layouts_up_to(c, 2)[0] == 1`` answers "exactly one layout?" with two solves: a
        model, then a blocking clause over its box counts.
        """
        doing = "looking for layouts"
        budget.check(doing)  # before the encoding
        found = 0
        seen: set[int] = set()
        runs = ([(0, component.cells)] if allowed is None
                else mine_number_runs(allowed, component.cells))
        with _Session(component, budget) as session:
            for low, high in runs:
                # No bound, no counter: the network is big on a big component.
                unbounded = low == 0 and high == component.cells
                bounds = [] if unbounded else session.between(low, high)
                while found < limit:
                    if not session.solve(bounds, doing):
                        break
                    counts = session.box_counts()
                    seen.add(sum(counts))
                    weight = 1
                    for size, j in zip(component.sizes, counts, strict=True):
                        weight *= comb(size, j)
                    found += weight
                    block = _blocking_clause(session.box_vars, counts)
                    if not block:
                        break
                    session.solver.add_clause(block)
        return min(found, limit), frozenset(seen)


def _blocking_clause(box_vars: list[list[int]], counts: list[int]) -> list[int]:
    """"Some box does not hold exactly its count": the chain encoding makes "box b holds
    j" the same as "variable j+1 off and variable j on", so this blocks one model."""
    block = []
    for chain, j in zip(box_vars, counts, strict=True):
        if j < len(chain):
            block.append(chain[j])
        if j > 0:
            block.append(-chain[j - 1])
    return block

