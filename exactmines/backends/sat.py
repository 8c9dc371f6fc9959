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
constrained through two incremental totalizers (over the cells and over their negations),
whose outputs are switched on by assumptions, so one solver answers every question.
"""

from __future__ import annotations

from itertools import combinations
from math import comb

from pysat.card import ITotalizer
from pysat.solvers import Solver

from ..frontier import Component
from . import ComponentCounts, Deductions, check_deadline

__all__ = ["SatBackend", "encode"]

_SOLVER = "m22"  # minisat 2.2: fast assumptions; CaDiCaL aborts on add-after-solve reads.


def encode(component: Component) -> tuple[list[list[int]], list[list[int]]]:
    """Variables per box and the clauses of the component, as plain int lists."""
    box_vars: list[list[int]] = []
    top = 0
    clauses: list[list[int]] = []
    for size in component.sizes:
        box_vars.append(list(range(top + 1, top + size + 1)))
        top += size
        chain = box_vars[-1]
        clauses.extend([-chain[i + 1], chain[i]] for i in range(size - 1))
    for rule in component.constraints:
        cells = [v for b in rule.boxes for v in box_vars[b]]
        t = rule.mines
        if t < 0 or t > len(cells):
            clauses.append([])
            continue
        clauses.extend([-v for v in subset] for subset in combinations(cells, t + 1))
        clauses.extend(list(subset) for subset in combinations(cells, len(cells) - t + 1))
    return box_vars, clauses


class _Session:
    """One solver over one component, with totalizers for the total mine number."""

    def __init__(self, component: Component) -> None:
        self.component = component
        self.box_vars, clauses = encode(component)
        self.cells = [v for chain in self.box_vars for v in chain]
        self.solver = Solver(name=_SOLVER, bootstrap_with=clauses)
        self._totals: tuple[ITotalizer, ITotalizer] | None = None

    def __enter__(self) -> _Session:
        return self

    def __exit__(self, *exc: object) -> None:
        self.solver.delete()
        if self._totals is not None:
            for tot in self._totals:
                tot.delete()

    def box_counts(self) -> list[int]:
        model = self.solver.get_model()
        assert model is not None
        return [sum(model[v - 1] > 0 for v in chain) for chain in self.box_vars]

    def between(self, low: int, high: int) -> list[int]:
        """Assumptions that hold the number of mines in ``[low, high]``."""
        n = len(self.cells)
        if self._totals is None:
            upper = ITotalizer(lits=self.cells, ubound=n, top_id=n)
            lower = ITotalizer(lits=[-v for v in self.cells], ubound=n, top_id=upper.top_id)
            for tot in (upper, lower):
                for clause in tot.cnf.clauses:
                    self.solver.add_clause(clause)
            self._totals = (upper, lower)
        upper, lower = self._totals
        # rhs[i] is implied by "at least i+1 true": forbidding it caps the count at i.
        assumptions = []
        if high < n:
            assumptions.append(-upper.rhs[high])
        if low > 0:
            assumptions.append(-lower.rhs[n - low])
        return assumptions


class SatBackend:
    """Exact counts and verdicts with a SAT solver (PySAT, minisat 2.2)."""

    name = "sat"

    def count(self, component: Component, *, deadline: float | None = None) -> ComponentCounts:
        check_deadline(deadline)
        sizes = component.sizes
        n = component.cells
        layouts = [0] * (n + 1)
        box_mines = [[0] * len(sizes) for _ in range(n + 1)]
        with _Session(component) as session:
            solver = session.solver
            step = 0
            while solver.solve():
                counts = session.box_counts()
                weight = 1
                for size, j in zip(sizes, counts):
                    weight *= comb(size, j)
                k = sum(counts)
                layouts[k] += weight
                row = box_mines[k]
                for b, j in enumerate(counts):
                    row[b] += weight * j
                block = _blocking_clause(session.box_vars, counts)
                if not block:
                    break
                solver.add_clause(block)
                step += 1
                if step & 0xFF == 0:
                    check_deadline(deadline)
        return ComponentCounts(tuple(layouts), tuple(tuple(r) for r in box_mines))

    def mine_numbers(self, component: Component) -> frozenset[int]:
        found: set[int] = set()
        with _Session(component) as session:
            if not session.solver.solve():
                return frozenset()
            found.add(sum(session.box_counts()))
            for k in range(component.cells + 1):
                if k not in found and session.solver.solve(
                        assumptions=session.between(k, k)):
                    found.add(k)
        return frozenset(found)

    def deduce(self, component: Component, allowed: frozenset[int]) -> Deductions:
        sizes = component.sizes
        can_mine = [False] * len(sizes)
        can_clear = [False] * len(sizes)
        with _Session(component) as session:
            solver = session.solver

            def record() -> None:
                for b, j in enumerate(session.box_counts()):
                    can_mine[b] = can_mine[b] or j > 0
                    can_clear[b] = can_clear[b] or j < sizes[b]

            for low, high in _intervals(allowed, component.cells):
                bounds = session.between(low, high)
                if not solver.solve(assumptions=bounds):
                    continue
                record()
                # Each model settles many boxes at once; test only what is still open.
                for b, chain in enumerate(session.box_vars):
                    if not can_mine[b] and solver.solve(assumptions=[*bounds, chain[0]]):
                        record()
                    if not can_clear[b] and solver.solve(assumptions=[*bounds, -chain[-1]]):
                        record()
        return Deductions(tuple(can_mine), tuple(can_clear))

    def layouts_up_to(self, component: Component, limit: int,
                      allowed: frozenset[int] | None = None) -> tuple[int, frozenset[int]]:
        """Layouts (with a mine number in ``allowed``), counted only up to ``limit``, and
        the mine numbers of the layouts seen.

        ``layouts_up_to(c, 2)[0] == 1`` answers "exactly one layout?" with two solves: a
        model, then a blocking clause over its box counts.
        """
        found = 0
        seen: set[int] = set()
        runs = [(0, component.cells)] if allowed is None else _intervals(allowed,
                                                                          component.cells)
        with _Session(component) as session:
            for low, high in runs:
                # No bound, no totalizer: it has O(cells^2) clauses on a big component.
                unbounded = low == 0 and high == component.cells
                bounds = [] if unbounded else session.between(low, high)
                while found < limit and session.solver.solve(assumptions=bounds):
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


def _intervals(allowed: frozenset[int], top: int) -> list[tuple[int, int]]:
    """``allowed`` (clipped to 0..top) as maximal runs of consecutive numbers."""
    runs: list[tuple[int, int]] = []
    for k in sorted(k for k in allowed if 0 <= k <= top):
        if runs and runs[-1][1] == k - 1:
            runs[-1] = (runs[-1][0], k)
        else:
            runs.append((k, k))
    return runs
