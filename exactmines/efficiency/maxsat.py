"""The fewest clicks of a part as a MaxSAT problem, solved by PySAT's RC2, with the order of
the chords enforced by clauses added while solving.

The variables and hard clauses are the 0/1 programme's of
:mod:`exactmines.efficiency.model` (a left click per opening and isolated number, a flag
per mine, a chord per number; every unit revealed, a chord's mines flagged and its number
revealed, the order rows of the smallest groups), each click a soft clause "not clicked"
of weight 1. RC2 finds an assignment of fewest clicks by unsatisfiable cores: its cost
only grows, and is at every moment a proved lower bound.

Order. The assignment is played (:func:`~exactmines.efficiency.model._play`); if cells stay
covered, a clause is added for each group of covered numbers the chosen chords cannot
reach from outside (the covered numbers joined, and for each covered number the numbers
whose chosen chords would reveal it, followed back): "a left click in the group or a chord
beside it from outside". Every real sequence satisfies them (the first cell of the group
it reveals is revealed so), so the bound stays proved; the assignment that plays through
is optimal. Cutting at every covered number, not only at each joined group, is what makes
it fast: a beginner board is proved in a few rounds instead of tens.

A heuristic sequence is the answer until the solver finds one as short; each round the
played part of the assignment is finished greedily, which can give a better one. The time
limit interrupts the SAT solver (from a timer thread): what was proved is kept.
"""

from __future__ import annotations

import math
import threading
from typing import Any

from exactmines.budget import Budget
from exactmines.efficiency.layout import Click, Layout
from exactmines.efficiency.model import Part, PartAnswer, _entries, _groups, _play, _revealers

__all__ = ["solve_part_maxsat"]

#: The SAT solver RC2 runs on (Glucose 3: it can be interrupted).
_SOLVER = "g3"


class _Stopped(Exception):
    """The time limit was reached inside RC2."""


def _rc2(formula: Any) -> Any:
    from pysat.examples.rc2 import RC2

    class TimedRC2(RC2):  # type: ignore[misc]
        """RC2 whose every SAT call can be interrupted, raising :class:`_Stopped`; a call
        that RC2 itself limits (core minimisation's conflict budget) still answers
        ``None`` as RC2 expects."""

        expired = False

        def _call_oracle(self, assumptions: Any = (), expect_interrupt: bool = False) -> Any:
            if self.expired:
                raise _Stopped
            result = self.oracle.solve_limited(assumptions=list(assumptions),
                                               expect_interrupt=True)
            if result is None and self.expired:
                raise _Stopped
            return result

    return TimedRC2(formula, solver=_SOLVER, adapt=True, exhaust=True, minz=True)


class _Alarm:
    """Interrupts ``rc2`` when ``seconds`` have passed, and again every 50 ms until
    stopped (an interrupt that lands between two SAT calls is not lost)."""

    def __init__(self, rc2: Any, seconds: float) -> None:
        self.rc2, self.done = rc2, threading.Event()
        self.thread = threading.Thread(target=self._run, args=(seconds,), daemon=True)
        self.thread.start()

    def _run(self, seconds: float) -> None:
        if self.done.wait(seconds if math.isfinite(seconds) else None):
            return
        self.rc2.expired = True
        while True:
            self.rc2.oracle.interrupt()
            if self.done.wait(0.05):
                return

    def stop(self) -> None:
        self.done.set()
        self.thread.join()


def solve_part_maxsat(layout: Layout, part: Part, start: int | None, budget: Budget,
                      incumbent: list[Click] | None = None) -> PartAnswer:
    """The fewest clicks that reveal the part's cells, proved unless ``budget`` runs out
    (then the best clicks found, and the best bound proved). ``incumbent``: clicks known to
    reveal the part, the answer when nothing shorter is found."""
    from pysat.formula import WCNF

    from exactmines.efficiency.greedy import greedy

    in_part = set(part.numbered)
    isolated = [v for v in part.numbered if not layout.borders_of[v]]
    start_here = start if start is not None and (
        start in in_part or layout.opening_of[start] in part.openings) else None
    top = 0

    def var() -> int:
        nonlocal top
        top += 1
        return top

    L = {k: var() for k in part.openings}
    lefts = set(isolated) | ({start_here} if start_here in in_part else set())
    left = {v: var() for v in sorted(lefts)}
    mines = sorted({i for d in part.numbered for i in layout.neighbours[d] if layout.mine[i]})
    flag = {m: var() for m in mines}
    chord = {d: var() for d in part.numbered
             if any(not layout.mine[i] for i in layout.neighbours[d])}
    formula = WCNF()
    for k in part.openings:
        formula.append([L[k]] + [chord[d] for d in layout.openings[k][1] if d in chord])
    for v in isolated:
        formula.append([left[v]] + [chord[e] for e in layout.neighbours[v] if e in chord])
    for d, x in chord.items():
        formula.extend([-x, flag[i]] for i in layout.neighbours[d] if layout.mine[i])
        formula.append([-x] + [c for c, _ in _revealers(layout, d, L, left, chord)])
    small: set[frozenset[int]] = set()
    for v in part.numbered:
        small.update(frozenset((v, w)) for w in layout.neighbours[v] if w in in_part)
    groups = [sorted(g) for g in small] + [list(layout.openings[k][1]) for k in part.openings]
    for group in sorted(groups):
        formula.append([c for c, _ in _entries(layout, group, L, left, chord)])
    if start_here is not None:
        formula.append([left[start_here] if start_here in left
                        else L[layout.opening_of[start_here]]])
    for x in range(1, top + 1):
        formula.append([-x], weight=1)

    best = greedy(layout, start_here, part=part)
    if incumbent is not None and len(incumbent) < len(best):
        best = incumbent
    lower, cuts, solves = 1, 0, 0
    if len(best) <= lower:
        return PartAnswer(best, lower, True)
    rc2 = _rc2(formula)
    alarm = _Alarm(rc2, budget.remaining())
    try:
        while not budget.expired():
            model = rc2.compute()
            solves += 1
            if model is None:
                raise RuntimeError("the click programme has no solution")
            lower = max(lower, rc2.cost)
            chosen = {x for x in model if x > 0}
            roots: list[Click] = [] if start_here is None else [("left", start_here)]
            roots += [("left", layout.openings[k][0][0]) for k, x in L.items()
                      if x in chosen and (start_here is None
                                          or layout.opening_of[start_here] != k)]
            roots += [("left", v) for v, x in left.items() if x in chosen and v != start_here]
            chords = [d for d, x in chord.items() if x in chosen]
            played, state = _play(layout, roots, chords)
            covered = [v for v in part.numbered if not state.revealed[v]]
            if not covered:
                if len(played) < len(best):
                    best = played
                break
            for finished in (_repaired(layout, roots, chords, part),
                             greedy(layout, None, prefix=tuple(played), part=part)):
                if len(finished) < len(best):
                    best = finished
            if len(best) <= lower:
                break
            for group in _unreached(layout, covered, set(chords), state):
                rc2.add_clause([c for c, _ in _entries(layout, group, L, left, chord)])
                cuts += 1
    except _Stopped:
        lower = max(lower, rc2.cost)
    finally:
        alarm.stop()
        rc2.delete()
    return PartAnswer(best, lower, len(best) <= lower, cuts, solves)


def _repaired(layout: Layout, roots: list[Click], chords: list[int],
              part: Part) -> list[Click]:
    """The assignment made playable: while numbers stay covered, a left click on a covered
    number of a chosen chord (the first, in each group of covered numbers), the chords
    played again; flags no played chord needs are left out."""
    roots = list(roots)
    waiting = set(chords)
    while True:
        played, state = _play(layout, roots, chords)
        covered = [v for v in part.numbered if not state.revealed[v]]
        if not covered:
            break
        for group in _groups(layout, covered, state):
            d = min((v for v in group if v in waiting), default=group[0])
            roots.append(("left", d))
    needed = {i for kind, d in played if kind == "chord"
              for i in layout.neighbours[d] if layout.mine[i]}
    return [c for c in played if c[0] != "flag" or c[1] in needed]


def _unreached(layout: Layout, covered: list[int], chords: set[int],
               state: Any) -> list[list[int]]:
    """Groups of covered numbers that nothing chosen reveals from outside: each joined
    group (:func:`~exactmines.efficiency.model._groups`), and for each covered number the
    covered numbers whose chosen chords would reveal it (beside it, or on the border of an
    opening it borders), followed back."""
    waiting = chords & set(covered)
    found = {tuple(sorted(g)) for g in _groups(layout, covered, state)}
    for v in covered:
        group, stack = {v}, [v]
        while stack:
            a = stack.pop()
            before = [d for d in layout.neighbours[a] if d in waiting]
            for k in layout.borders_of[a]:
                before += [d for d in layout.openings[k][1] if d in waiting]
            for d in before:
                if d not in group:
                    group.add(d)
                    stack.append(d)
        found.add(tuple(sorted(group)))
    return [list(g) for g in sorted(found)]
