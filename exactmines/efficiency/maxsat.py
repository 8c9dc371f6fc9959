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
from collections.abc import Callable
from typing import Any, cast

from exactmines.budget import Budget
from exactmines.efficiency.layout import Click, Clicks, Layout
from exactmines.efficiency.model import (
    Part,
    PartAnswer,
    _groups,
    _play,
    _revealers,
    reach,
)
from exactmines.topology import indices_of

__all__ = ["solve_part_maxsat", "Report", "dominated"]

#: Told the search's progress: ``report(best=clicks, lower=bound)``, either left out when
#: unchanged (:class:`~exactmines.efficiency.killable.Progress`).
Report = Callable[..., None]

#: Parts with more numbers than this are searched for shorter sequences before the proof
#: (the largest part of 200 seeded intermediate boards had 174 numbers, the smallest
#: expert board's largest part 281).
LARGE = 250

#: The share of a part's time for the proof before the neighbourhood search takes over
#: (parts of at most :data:`LARGE` numbers). At 0.8, and at 0.7, the search's seconds of
#: 10 did not find one intermediate board's best sequence (55 clicks; the proof's 56, the
#: heuristics' 57) on a loaded machine, where it got a third of a core: from the proof's
#: sequence it takes about 80 squares, a second of processor time.
_PROOF = 0.6

#: The share of a large part's time (more than :data:`LARGE` numbers) for the neighbourhood
#: search before the proof. At a half, 2 of 29 expert boards came out a click above
#: cal_rzini on a machine loaded past 13 (a board got 2 to 3 s of processor time in 10).
_SEARCH = 0.7

#: Seconds at most for one square of the neighbourhood search.
_WINDOW = 0.5

#: The unplayable assignments of the search are finished greedily once in this many
#: rounds (each is also repaired, which is cheaper and most often as good).
_GREEDY_EVERY = 8

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
        #: Called with RC2's cost each time it grows (a proved bound, between SAT calls).
        on_cost: Any = None
        reported = 0

        def _call_oracle(self, assumptions: Any = (), expect_interrupt: bool = False) -> Any:
            if self.on_cost is not None and self.cost > self.reported:
                self.reported = self.cost
                self.on_cost(self.cost)
            if self.expired:
                raise _Stopped
            result = self.oracle.solve_limited(assumptions=list(assumptions),
                                               expect_interrupt=True)
            if result is None and self.expired:
                raise _Stopped
            return result

        def add_hard(self, clause: list[int]) -> None:
            """A hard clause of the formula's own positive variables, added to the SAT
            solver directly (RC2's ``add_clause`` maps each literal in Python, a third of
            the search's time on intermediate boards)."""
            e2i = self.vmap.e2i
            self.oracle.add_clause([e2i[x] if x in e2i else self._map_extlit(x)
                                    for x in clause])

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


class _Problem:
    """A part's variables and hard clauses (see the module), and the search for an
    assignment of fewest clicks that plays through."""

    def __init__(self, layout: Layout, part: Part, start: int | None) -> None:
        from pysat.formula import WCNF

        self.layout, self.part = layout, part
        in_part = set(part.numbered)
        isolated = [v for v in part.numbered if not layout.borders_of[v]]
        self.start = start if start is not None and (
            start in in_part or layout.opening_of[start] in part.openings) else None
        self.keys: list[tuple[str, int]] = []

        def var(key: tuple[str, int]) -> int:
            self.keys.append(key)
            return len(self.keys)

        self.L = L = {k: var(("L", k)) for k in part.openings}
        lefts = set(isolated) | ({self.start} if self.start in in_part else set())
        self.left = left = {v: var(("l", v)) for v in sorted(lefts)}
        mines = sorted({i for d in part.numbered for i in layout.neighbours[d]
                        if layout.mine[i]})
        self.flag = flag = {m: var(("f", m)) for m in mines}
        self.chord = chord = {d: var(("c", d)) for d in part.numbered
                              if any(not layout.mine[i] for i in layout.neighbours[d])}
        self.formula = formula = WCNF()
        # A chord that reveals no more than one left click would is never needed (see
        # :func:`dominated`): held off, which the SAT solver propagates at once.
        self.dominated = [d for d in chord if dominated(layout, d)]
        formula.extend([-chord[d]] for d in self.dominated)
        for k in part.openings:
            formula.append([L[k]] + [chord[d] for d in layout.openings[k][1] if d in chord])
        for v in isolated:
            formula.append([left[v]] + [chord[e] for e in layout.neighbours[v] if e in chord])
        for d, x in chord.items():
            formula.extend([-x, flag[i]] for i in layout.neighbours[d] if layout.mine[i])
            formula.append([-x] + [c for c, _ in _revealers(layout, d, L, left, chord)])
        # For each number, the variables of what can reveal it first. A chord's variable
        # is there only for the chord's own number, so a group's entries are the union of
        # its members' sets less its members' chords (:meth:`entries`).
        self._into: dict[int, frozenset[int]] = {}
        for v in part.numbered:
            found = {left[v]} if v in left else set()
            for k in layout.borders_of[v]:
                found.add(L[k])
                found.update(chord[e] for e in layout.openings[k][1] if e in chord)
            found.update(chord[e] for e in layout.neighbours[v] if e in chord)
            self._into[v] = frozenset(found)
        self.near = _near(layout, part.numbered)
        small: set[frozenset[int]] = set()
        for v in part.numbered:
            small.update(frozenset((v, w)) for w in layout.neighbours[v] if w in in_part)
        groups = ([sorted(g) for g in small]
                  + [list(layout.openings[k][1]) for k in part.openings])
        for group in sorted(groups):
            formula.append(self.entries(tuple(group)))
        if self.start is not None:
            formula.append([left[self.start] if self.start in left
                            else L[layout.opening_of[self.start]]])

    def entries(self, group: tuple[int, ...]) -> list[int]:
        """The variables of what can reveal a number of ``group`` first, from outside it
        (:func:`~exactmines.efficiency.model._entries`' columns), from each number's set
        made once."""
        into, chord = self._into, self.chord
        found = set().union(*(into[v] for v in group))
        found.difference_update([chord[e] for e in group if e in chord])
        return sorted(found)

    def undominated(self, clicks: list[Click]) -> list[Click]:
        """``clicks`` (which reveal the part) with each :func:`dominated` chord replaced by
        the left click that reveals as much, made first (after the imposed first click),
        the clicks that then change nothing and the flags no chord needs left out: no
        longer, and a sequence the formula allows (its held-off chords are not in it)."""
        layout, gone = self.layout, set(self.dominated)
        if not any(kind == "chord" and i in gone for kind, i in clicks):
            return clicks
        first = [c for c in clicks[:1] if self.start is not None and c == ("left", self.start)]
        lefts: list[Click] = [("left", cast(int, _replacement(layout, i))) for kind, i in clicks
                              if kind == "chord" and i in gone]
        rest = [c for c in clicks[len(first):] if c[0] != "chord" or c[1] not in gone]
        state = Clicks(layout)
        kept = [c for c in first + lefts + rest if state.play(c)]
        needed = {i for kind, d in kept if kind == "chord"
                  for i in layout.neighbours[d] if layout.mine[i]}
        return [c for c in kept if c[0] != "flag" or c[1] in needed]

    def variables(self, clicks: list[Click]) -> set[int]:
        """The variables a sequence that reveals the part sets: each click's own, a left
        click on a number of an opening's border taken as that opening's (it reveals it,
        and no less)."""
        layout, chosen = self.layout, set()
        for kind, i in clicks:
            if kind == "flag":
                chosen.add(self.flag[i])
            elif kind == "chord":
                chosen.add(self.chord[i])
            elif i in self.left:
                chosen.add(self.left[i])
            elif layout.opening_of[i] >= 0:
                chosen.add(self.L[layout.opening_of[i]])
            else:
                chosen.add(self.L[layout.borders_of[i][0]])
        return chosen

    def search(self, best: list[Click], budget: Budget, fixed: dict[int, bool] | None = None,
               report: Report | None = None) -> PartAnswer:
        """The proof loop: RC2's assignments of fewest clicks, each played, its unplayable
        groups cut, until one plays through or ``budget`` runs out. ``fixed``: variables
        held at a value (a neighbourhood search; the bound then says nothing of the part).
        ``report``: told each shorter sequence and each higher bound as they are found.
        """
        from exactmines.efficiency.greedy import greedy

        layout, part, start_here = self.layout, self.part, self.start
        formula = self.formula.copy()
        for x in range(1, len(self.keys) + 1):
            if fixed is not None and x in fixed:
                formula.append([x if fixed[x] else -x])
            else:
                formula.append([-x], weight=1)
        lower, cuts, solves = 1, 0, 0
        if len(best) <= lower:
            return PartAnswer(best, lower, True)
        rc2 = _rc2(formula)
        if report is not None and fixed is None:
            rc2.on_cost = lambda cost: report(lower=cost)
        alarm = _Alarm(rc2, budget.remaining())
        try:
            while not budget.expired():
                model = rc2.compute()
                solves += 1
                if model is None:
                    if fixed is not None:  # pragma: no cover - the incumbent satisfies it
                        break
                    raise RuntimeError("the click programme has no solution")
                lower = max(lower, rc2.cost)
                chosen = {x for x in model if x > 0}
                roots: list[Click] = [] if start_here is None else [("left", start_here)]
                roots += [("left", layout.openings[k][0][0]) for k, x in self.L.items()
                          if x in chosen and (start_here is None
                                              or layout.opening_of[start_here] != k)]
                roots += [("left", v) for v, x in self.left.items()
                          if x in chosen and v != start_here]
                chords = [d for d, x in self.chord.items() if x in chosen]
                played, state = _play(layout, roots, chords)
                covered = [v for v in part.numbered if not state.revealed[v]]
                if not covered:
                    # In a square (``fixed``), the square's optimum even when no shorter.
                    if len(played) < len(best) or (fixed is not None
                                                   and len(played) == len(best)):
                        best = played
                    if report is not None and fixed is None:
                        report(best, lower)
                    break
                tries = [_repaired(layout, roots, chords, part)]
                if solves % _GREEDY_EVERY == 1:
                    tries.append(greedy(layout, None, prefix=tuple(played), part=part))
                for finished in tries:
                    if len(finished) < len(best):
                        best = finished
                if report is not None:
                    report(best, None if fixed is not None else lower)
                if fixed is None and len(best) <= lower:
                    break
                for group in _unreached(layout, covered, set(chords), state, self.near):
                    rc2.add_hard(self.entries(group))
                    cuts += 1
        except _Stopped:
            lower = max(lower, rc2.cost)
        finally:
            alarm.stop()
            rc2.delete()
        return PartAnswer(best, lower, fixed is None and len(best) <= lower, cuts, solves)

    def improve(self, best: list[Click], budget: Budget, seed: int = 0,
                report: Report | None = None, windows: int | None = None) -> list[Click]:
        """A neighbourhood search from ``best``: every click outside a square of the board
        held as it is, the clicks inside solved exactly (:meth:`search`), the square moved
        at random, until ``budget`` runs out (or after ``windows`` squares). A square's
        optimum replaces the sequence when no longer (a move sideways: from one 56-click
        sequence of intermediate board 32 only such moves led to 55). Never longer than
        ``best``; ``report`` is told each shorter sequence."""
        import random

        layout, rng = self.layout, random.Random(seed)
        width = layout.board.width
        # The cells of each variable: an opening's zeros, else its own cell.
        where = [layout.openings[i][0] if kind == "L" else (i,) for kind, i in self.keys]
        cells = list(self.part.numbered)
        done = 0
        while not budget.expired() and (windows is None or done < windows):
            done += 1
            cr, cc = divmod(rng.choice(cells), width)
            radius = rng.choice((2, 3, 3, 4))
            best = self.undominated(best)
            chosen = self.variables(best)
            fixed = {x: x in chosen for x, at in enumerate(where, start=1)
                     if not any(max(abs(z // width - cr), abs(z % width - cc)) <= radius
                                for z in at)}
            window = Budget.seconds(max(min(_WINDOW, budget.remaining()), 0.001))
            found = self.search(best, window, fixed)
            if len(found.clicks) < len(best) and report is not None:
                report(found.clicks)
            best = found.clicks
        return best


def solve_part_maxsat(layout: Layout, part: Part, start: int | None, budget: Budget,
                      incumbent: list[Click] | None = None,
                      report: Report | None = None) -> PartAnswer:
    """The fewest clicks that reveal the part's cells, proved unless ``budget`` runs out
    (then the best clicks found, and the best bound proved). ``incumbent``: clicks known to
    reveal the part, the answer when nothing shorter is found. A part too large to be
    proved in time (more than :data:`LARGE` numbers: expert boards) first spends
    :data:`_SEARCH` of its time on a neighbourhood search from the incumbent
    (:meth:`_Problem.improve`); another
    part not proved within :data:`_PROOF` of its time spends the rest on that search.
    ``report``: told each shorter sequence and higher bound as they are found (what is
    kept when the search is ended from outside)."""
    from exactmines.efficiency.greedy import greedy

    problem = _Problem(layout, part, start)
    best = greedy(layout, problem.start, part=part)
    if incumbent is not None and len(incumbent) < len(best):
        best = incumbent
    best = problem.undominated(best)
    if report is not None:
        report(best, 1)
    if not budget.limited:
        return problem.search(best, budget, report=report)
    if len(part.numbered) > LARGE:
        best = problem.improve(best, budget.share(_SEARCH), report=report)
        return problem.search(best, budget, report=report)
    answer = problem.search(best, budget.share(_PROOF), report=report)
    if answer.optimal or budget.expired():
        return answer
    # Not proved in time: the rest of the time to look for a shorter sequence.
    better = problem.improve(answer.clicks, budget, report=report)
    return PartAnswer(better, answer.lower_bound, len(better) <= answer.lower_bound,
                      answer.cuts, answer.solves)


def dominated(layout: Layout, d: int) -> bool:
    """Whether a chord on ``d`` reveals nothing that one left click would not reveal as
    well: its safe neighbours all lie in one opening or on its border (a click on
    that opening reveals them all), or they are one isolated number (a click on it).

    Such a chord is never needed: in a sequence with it, the left click replaces it at the
    start (one click for one, and at least one flag of the chord's may go), or the chord
    goes when that cell was revealed before it (it reveals nothing then). Everything is
    revealed no later than before, so every later click is still allowed (a left click on
    a cell now revealed goes too): no longer, and clear."""
    return _replacement(layout, d) is not None


def _replacement(layout: Layout, d: int) -> int | None:
    """The cell whose left click reveals all that a chord on ``d`` does, when one does
    (:func:`dominated`): a zero of the one opening its safe neighbours lie in or border,
    or the one isolated number; else ``None``."""
    zeros: set[int] = set()
    numbers: list[int] = []
    for i in layout.neighbours[d]:
        if layout.mine[i]:
            continue
        if layout.numbers[i]:
            numbers.append(i)
        else:
            zeros.add(layout.opening_of[i])
    if len(zeros) > 1:
        return None
    if not zeros and len(numbers) == 1 and not layout.borders_of[numbers[0]]:
        return numbers[0]
    candidates = zeros if zeros else set(layout.borders_of[numbers[0]]) if numbers else set()
    shared = [k for k in candidates if all(k in layout.borders_of[n] for n in numbers)]
    return layout.openings[min(shared)][0][0] if shared else None


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


def _unreached(layout: Layout, covered: list[int], chords: set[int], state: Any,
               near: dict[int, int] | None = None) -> list[tuple[int, ...]]:
    """Groups of covered numbers that nothing chosen reveals from outside: each joined
    group (:func:`~exactmines.efficiency.model._groups`), and for each covered number the
    covered numbers whose chosen chords would reveal it (beside it, or on the border of an
    opening it borders), followed back. ``near``: each number's joined numbers as a set of
    bits (:func:`_near`), made once per part, else worked out from the layout."""
    if near is None:
        waiting = chords & set(covered)
        found = {tuple(sorted(g)) for g in _groups(layout, covered, state)}
        for v in covered:
            found.add(tuple(sorted(reach(layout, v, waiting))))
        return sorted(found)
    todo = 0
    for v in covered:
        todo |= 1 << v
    pending = 0
    for d in chords:
        pending |= 1 << d
    pending &= todo
    masks = set()
    while todo:
        low = todo & -todo
        group = _reach(near, low.bit_length() - 1, todo)
        todo &= ~group
        masks.add(group)
    for v in covered:
        masks.add(_reach(near, v, pending))
    return sorted(tuple(indices_of(m)) for m in masks)


def _near(layout: Layout, numbered: tuple[int, ...]) -> dict[int, int]:
    """For each number, the numbers :func:`~exactmines.efficiency.model.reach` joins to
    it in one step (beside it, or on the border of an opening it borders), as the bits
    of an integer (bit ``i`` for cell ``i``): the search's groups are grown by integer
    operations, a sixth of its time on intermediate boards as sets."""
    near = {}
    for v in numbered:
        joined = {i for i in layout.neighbours[v] if layout.numbers[i] and not layout.mine[i]}
        for k in layout.borders_of[v]:
            joined.update(layout.openings[k][1])
        joined.discard(v)
        near[v] = sum(1 << i for i in joined)
    return near


def _reach(near: dict[int, int], start: int, within: int) -> int:
    """:func:`~exactmines.efficiency.model.reach` by the bits of :func:`_near`: ``start``
    and the cells of ``within`` (bits) joined to it, as bits."""
    group, stack = 1 << start, [start]
    while stack:
        new = near[stack.pop()] & within & ~group
        group |= new
        while new:
            low = new & -new
            stack.append(low.bit_length() - 1)
            new ^= low
    return group
