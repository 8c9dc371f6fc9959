"""The fewest clicks of a part as a MaxSAT problem, solved by PySAT's RC2, with the order of
the chords in the clauses.

The click variables are the 0/1 programme's of :mod:`exactmines.efficiency.model` (a left
click per opening and isolated number, a flag per mine, a chord per number), each click a
soft clause "not clicked" of weight 1; the hard clauses say that every opening and
isolated number is revealed and that a chord's mines are flagged. RC2 finds an assignment
of fewest clicks by unsatisfiable cores: its cost only grows, and is at every moment a
proved lower bound.

Order. A chord needs its number revealed before it. The units (the openings, and the
numbers whose chord may be chosen) are the vertices of a graph, and an arc says what can
reveal a unit first: a chord on a number reveals its neighbouring numbers and the openings
of its neighbouring zeros, an opening reveals its border. Each opening needs a left click
on it or a chosen arc into it, each chosen chord's number a left click on it or a chosen
arc into it, an arc out of a number needs its chord, and the chosen arcs have no circle
(:func:`~exactmines.efficiency.acyclic.acyclic`). A real sequence satisfies the clauses
(choose, for each unit, what revealed it first: each arc goes forward in time), and an
assignment that satisfies them plays through (follow the arcs back: every unit is reached
from a left click), so RC2's optimum is the fewest clicks, proved, in one search.

A heuristic sequence is the answer until the solver finds one as short. The time limit
stops the SAT solver (interrupted from a timer thread, or CaDiCaL between slices of a
call): what was proved is kept.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable
from typing import Any, cast

from exactmines.budget import Budget
from exactmines.efficiency.acyclic import acyclic
from exactmines.efficiency.layout import Click, Clicks, Layout
from exactmines.efficiency.model import Part, PartAnswer, _play
from exactmines.slices import Slices

__all__ = ["solve_part_maxsat", "Report", "dominated"]

#: Told the search's progress: ``report(best=clicks, lower=bound)``, either left out when
#: unchanged (:class:`~exactmines.efficiency.killable.Progress`).
Report = Callable[..., None]

#: The share of a part's time for the proof before the neighbourhood search takes over, on
#: one core (on two, the proof and the search run side by side:
#: :mod:`~exactmines.efficiency.killable`). Of the intermediate boards proved within 10 s,
#: 98 % were proved within 5 s.
_PROOF = 0.7

#: Parts with more numbers than this (expert boards; the largest part of the 1,000 seeded
#: intermediate boards of the benchmark has 177) give the proof :data:`_PROOF_LARGE` of
#: their time instead, on one core.
LARGE = 250

#: The proof's share on a part of more than :data:`LARGE` numbers. With 0.7, the search
#: then had 3 s of 10 and 2 of 109 expert boards got a click more than ms_toollib's best
#: heuristic (none of 229 when it had 7 s); with 0.5, the proofs lost are those between
#: 5 and 7 s, 4 % of the boards.
_PROOF_LARGE = 0.5

#: Seconds at most for one square of the neighbourhood search.
_WINDOW = 0.5

#: The SAT solver RC2 runs on for a square of the neighbourhood search and for the proof's
#: first :data:`_QUICK` seconds: Glucose 3, which can be interrupted, and whose calls cost
#: about half of CaDiCaL's (a square, an easy proof, makes many short ones).
_SOLVER = "g3"

#: The SAT solver of the proof after its first :data:`_QUICK` seconds: CaDiCaL 1.9.5. On the
#: largest part of expert boards 0 to 39 of the benchmark (the proof alone, 10 s each, two
#: runs at a time), its bounds at 10 s were 54 clicks higher in all than Glucose 3's, and
#: it proved 18 boards against 16.
_PROOF_SOLVER = "cd195"

#: Seconds of the proof on Glucose 3 before it starts again on CaDiCaL
#: (:meth:`_Problem.search`): the proof alone of intermediate boards 0 to 59 took a median
#: 0.16 s on Glucose 3 and 0.31 s on CaDiCaL, which proved more of them within 10 s (59
#: against 57). Of 1,000 intermediate boards, 83.2 % were proved within 1 s on Glucose 3,
#: 80.9 % on CaDiCaL, 80.6 % with 0.3 s on Glucose 3 first (the boards between 0.4 and 1 s
#: proved again from the start), 82.9 % with a second.
_QUICK = 1.0

#: Seconds of a slice of a call of CaDiCaL, which cannot be interrupted
#: (:class:`~exactmines.slices.Slices`): the time limit is checked between slices. Fixed
#: slices of 1,500 and 10,000 conflicts proved as much on expert boards, but 10,000 took up
#: to 0.8 s, and 2,000 took 0.15 s alone and twice that with the machine's cores shared
#: (an expert board of the benchmark answered 0.023 s after its limit).
_SLICE_SECONDS = 0.05

#: RC2's conflict budget for each call of its core minimisation (RC2's own figure).
_MINZ = 1_000


class _Stopped(Exception):
    """The time limit was reached inside RC2."""


def _rc2(formula: Any, solver: str = _SOLVER) -> Any:
    from pysat.examples.rc2 import RC2
    from pysat.solvers import SolverNames

    class TimedRC2(RC2):  # type: ignore[misc]
        """RC2 whose every SAT call stops at the time limit, raising :class:`_Stopped`: a
        solver that can be interrupted is, from the :class:`_Alarm`'s thread; CaDiCaL,
        which cannot, is called in slices of about :data:`_SLICE_SECONDS`. A call that RC2
        itself limits (core minimisation's conflict budget) still answers ``None`` as RC2
        expects."""

        expired = False
        #: Called with RC2's cost each time it grows (a proved bound, between SAT calls).
        on_cost: Any = None
        reported = 0
        #: A cost that ends the search (that of a sequence known: it is then proved).
        enough = math.inf
        interruptible = solver not in SolverNames.cadical195
        slices = Slices(_SLICE_SECONDS)  # one per search: the class is made for each
        #: The conflict budget of each call while RC2 minimises a core (0: none).
        limit = 0

        def _call_oracle(self, assumptions: Any = (), expect_interrupt: bool = False) -> Any:
            if self.on_cost is not None and self.cost > self.reported:
                self.reported = self.cost
                self.on_cost(self.cost)
            if self.expired or self.cost >= self.enough:
                raise _Stopped
            if self.interruptible:
                result = self.oracle.solve_limited(assumptions=list(assumptions),
                                                   expect_interrupt=True)
            elif self.limit:
                # CaDiCaL's budget holds for one call only: RC2's given again at each.
                self.oracle.conf_budget(self.limit)
                result = self.oracle.solve_limited(assumptions=list(assumptions))
            else:
                result = self.slices.solve(self.oracle, assumptions, lambda: self.expired)
            if result is None and self.expired:
                raise _Stopped
            return result

        def minimize_core(self) -> None:
            self.limit = _MINZ
            try:
                super().minimize_core()
            finally:
                self.limit = 0

        def add_hard(self, clause: list[int]) -> None:
            """A hard clause of the formula's own positive variables, added to the SAT
            solver directly (RC2's ``add_clause`` maps each literal in Python, a third of
            the search's time on intermediate boards)."""
            e2i = self.vmap.e2i
            self.oracle.add_clause([e2i[x] if x in e2i else self._map_extlit(x)
                                    for x in clause])

    return TimedRC2(formula, solver=solver, adapt=True, exhaust=True, minz=True)


class _Alarm:
    """Interrupts ``rc2`` when ``seconds`` have passed, and again every 50 ms until
    stopped (an interrupt that lands between two SAT calls is not lost); a solver that
    cannot be interrupted is only told (it looks between slices of a call)."""

    def __init__(self, rc2: Any, seconds: float) -> None:
        self.rc2, self.done = rc2, threading.Event()
        self.thread = threading.Thread(target=self._run, args=(seconds,), daemon=True)
        self.thread.start()

    def _run(self, seconds: float) -> None:
        if self.done.wait(seconds if math.isfinite(seconds) else None):
            return
        self.rc2.expired = True
        while self.rc2.interruptible:
            self.rc2.oracle.interrupt()
            if self.done.wait(0.05):
                return

    def stop(self) -> None:
        self.done.set()
        self.thread.join()


class _Problem:
    """A part's variables and hard clauses (see the module), and the search for an
    assignment of fewest clicks."""

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

        self.L = {k: var(("L", k)) for k in part.openings}
        lefts = set(isolated) | ({self.start} if self.start in in_part else set())
        self.left = {v: var(("l", v)) for v in sorted(lefts)}
        mines = sorted({i for d in part.numbered for i in layout.neighbours[d]
                        if layout.mine[i]})
        self.flag = {m: var(("f", m)) for m in mines}
        self.chord = chord = {d: var(("c", d)) for d in part.numbered
                              if any(not layout.mine[i] for i in layout.neighbours[d])}
        self.dominated = [d for d in chord if dominated(layout, d)]
        self.formula = WCNF()
        self.formula.hard, self.formula.nv = self._hard()

    def _hard(self, fixed: dict[int, bool] | None = None) -> tuple[list[list[int]], int]:
        """The hard clauses (the module's), and the number of variables they use.

        ``fixed``: click variables held at a value (a square of the neighbourhood search),
        put in: a clause a held value satisfies is left out and a literal it falsifies is
        dropped; an arc out of a number whose chord is held off, or into a unit held
        left-clicked, is never made. The clauses then allow exactly the click values
        that the full clauses allow with those held (an arc out of a held-off chord is
        false anyway, and a unit held left-clicked is revealed by its click: what else
        revealed it need not be said), and they are a few times fewer: building a
        solver with all of them was most of a square's time."""
        layout, part = self.layout, self.part
        L, left, flag, chord = self.L, self.left, self.flag, self.chord
        value = fixed or {}
        clauses: list[list[int]] = []

        def add(clause: list[int]) -> None:
            kept = []
            for x in clause:
                held = value.get(abs(x))
                if held is None:
                    kept.append(x)
                elif held == (x > 0):
                    return
            clauses.append(kept)

        def held_on(x: int) -> bool:
            return value.get(x) is True

        isolated = [v for v in part.numbered if not layout.borders_of[v]]
        # A chord that reveals no more than one left click would is never needed (see
        # :func:`dominated`): held off, which the SAT solver propagates at once.
        clauses.extend([-chord[d]] for d in self.dominated if chord[d] not in value)
        held_off = set(self.dominated)
        live = {d: x for d, x in chord.items()
                if d not in held_off and value.get(x) is not False}
        for v in isolated:
            add([left[v]] + [chord[e] for e in layout.neighbours[v] if e in live])
        for d, x in live.items():
            for i in layout.neighbours[d]:
                if layout.mine[i]:
                    add([-x, flag[i]])
        # The order: what first reveals each opening and each chosen chord's number, an arc
        # of a graph (the module) whose chosen arcs have no circle.
        top = len(self.keys)

        def new_var() -> int:
            nonlocal top
            top += 1
            return top

        arcs: dict[tuple[Any, Any], int] = {}

        def arc(tail: tuple[str, int], head: tuple[str, int]) -> int:
            if (tail, head) not in arcs:
                arcs[(tail, head)] = new_var()
            return arcs[(tail, head)]

        for k in part.openings:
            if not held_on(L[k]):
                add([L[k]] + [arc(("n", d), ("k", k)) for d in layout.openings[k][1]
                              if d in live])
        for d, x in live.items():
            if d in left and held_on(left[d]):
                continue
            first = [left[d]] if d in left else []
            first += [arc(("k", k), ("n", d)) for k in layout.borders_of[d]]
            # A chord beside ``d`` that reveals an opening on whose border ``d`` is reveals
            # ``d`` through that opening's arcs.
            first += [arc(("n", e), ("n", d)) for e in layout.neighbours[d] if e in live
                      and not set(layout.borders_of[e]) & set(layout.borders_of[d])]
            add([-x] + first)
        for (tail, _), a in arcs.items():
            if tail[0] == "n":
                add([-a, live[tail[1]]])
        clauses.extend(acyclic(arcs, new_var))
        if self.start is not None:
            add([left[self.start] if self.start in left
                 else L[layout.opening_of[self.start]]])
        return clauses, top

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

    def play(self, chosen: set[int]) -> list[Click]:
        """The sequence of the click variables ``chosen`` (a model of the hard clauses): the
        imposed first click, the left clicks, then each chord as soon as its number is
        revealed, its flags just before it.

        Raises
        ------
        RuntimeError
            When it leaves a number of the part covered (a model never does: see the
            module).
        """
        layout, start_here = self.layout, self.start
        roots: list[Click] = [] if start_here is None else [("left", start_here)]
        roots += [("left", layout.openings[k][0][0]) for k, x in self.L.items()
                  if x in chosen and (start_here is None
                                      or layout.opening_of[start_here] != k)]
        roots += [("left", v) for v, x in self.left.items() if x in chosen and v != start_here]
        played, state = _play(layout, roots, [d for d, x in self.chord.items() if x in chosen])
        if any(not state.revealed[v] for v in self.part.numbered):
            raise RuntimeError("an assignment of the order clauses does not play through")
        return played

    def search(self, best: list[Click], budget: Budget, fixed: dict[int, bool] | None = None,
               report: Report | None = None) -> PartAnswer:
        """RC2's assignment of fewest clicks, played, unless ``budget`` runs out first (then
        the proved bound), or RC2's bound reaches ``best``'s length (then ``best`` is
        proved). ``fixed``: click variables held at a value (a neighbourhood search: the
        square's optimum is taken even when no shorter, and the bound says nothing of the
        part). ``report``: told each shorter sequence and each higher bound as they are
        found."""
        from pysat.formula import WCNF

        # The hard clauses shared, not copied (RC2 reads them; a deep copy was three
        # quarters of the neighbourhood search's time on expert boards), or made for the
        # values held.
        formula = WCNF()
        if fixed is None:
            formula.hard, formula.nv = list(self.formula.hard), self.formula.nv
        else:
            formula.hard, formula.nv = self._hard(fixed)
        for x in range(1, len(self.keys) + 1):
            if fixed is None or x not in fixed:
                formula.append([-x], weight=1)
        if len(best) <= 1:
            return PartAnswer(best, 1, True)
        if fixed is not None:
            return self._run(formula, best, budget, fixed, None, _SOLVER)
        # The proof: Glucose 3 first, whose calls cost less (it proves most intermediate
        # parts within a fraction of a second), then CaDiCaL from the start, whose bound
        # climbs faster on a hard part.
        quick = self._run(formula, best, budget.at_most(_QUICK), None, report, _SOLVER)
        if quick.optimal or budget.expired():
            return quick
        proof = self._run(formula, quick.clicks, budget, None, report, _PROOF_SOLVER)
        lower = max(quick.lower_bound, proof.lower_bound)
        return PartAnswer(proof.clicks, lower, len(proof.clicks) <= lower, solves=2)

    def _run(self, formula: Any, best: list[Click], budget: Budget,
             fixed: dict[int, bool] | None, report: Report | None, solver: str) -> PartAnswer:
        """One RC2 search of :meth:`search`, on ``solver``."""
        lower = 1
        rc2 = _rc2(formula, solver)
        if fixed is None:
            rc2.enough = len(best)
            if report is not None:
                rc2.on_cost = lambda cost: report(lower=cost)
        alarm = _Alarm(rc2, budget.remaining())
        try:
            model = rc2.compute()
            if model is None:
                if fixed is not None:  # pragma: no cover - the incumbent satisfies it
                    return PartAnswer(best, lower, False, solves=1)
                raise RuntimeError("the click programme has no solution")
            lower = max(lower, rc2.cost)
            chosen = {x for x in model if 0 < x <= len(self.keys)}
            if fixed is not None:
                chosen = {x for x in chosen if x not in fixed} | {
                    x for x, on in fixed.items() if on}
            played = self.play(chosen)
            if len(played) < len(best) or (fixed is not None and len(played) == len(best)):
                best = played
            if report is not None and fixed is None:
                report(best, lower)
        except _Stopped:
            lower = max(lower, rc2.cost)
        finally:
            alarm.stop()
            rc2.delete()
        return PartAnswer(best, lower, fixed is None and len(best) <= lower, solves=1)

    def improve(self, best: list[Click], budget: Budget, seed: int = 0,
                report: Report | None = None, squares: int | None = None,
                until: Callable[[int], bool] | None = None) -> list[Click]:
        """A neighbourhood search from ``best``: every click outside a square of the board
        held as it is, the clicks inside solved exactly (:meth:`search`), the square moved
        at random, until ``budget`` runs out, after ``squares`` squares, or once ``until``
        (given the best sequence's clicks, between squares) says so. A square's optimum
        replaces the sequence when no longer (a move sideways: from one 56-click sequence
        of intermediate board 32 only such moves led to 55). Never longer than ``best``;
        ``report`` is told each shorter sequence."""
        import random

        layout, rng = self.layout, random.Random(seed)
        width, height = layout.board.width, layout.board.height
        # The variables of each cell: an opening's at each of its zeros, else a click's at
        # its own cell.
        at: dict[int, list[int]] = {}
        for x, (kind, i) in enumerate(self.keys, start=1):
            for z in layout.openings[i][0] if kind == "L" else (i,):
                at.setdefault(z, []).append(x)
        cells = list(self.part.numbered)
        done = 0
        while not budget.expired() and (squares is None or done < squares) and (
                until is None or not until(len(best))):
            done += 1
            cr, cc = divmod(rng.choice(cells), width)
            radius = rng.choice((2, 3, 3, 4))
            best = self.undominated(best)
            chosen = self.variables(best)
            inside = {x for r in range(max(cr - radius, 0), min(cr + radius + 1, height))
                      for c in range(max(cc - radius, 0), min(cc + radius + 1, width))
                      for x in at.get(r * width + c, ())}
            fixed = {x: x in chosen for x in range(1, len(self.keys) + 1) if x not in inside}
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
    reveal the part, the answer when nothing shorter is found. A part not proved within
    :data:`_PROOF` of its time (:data:`_PROOF_LARGE` for more than :data:`LARGE`
    numbers) spends the rest on a neighbourhood search from the best sequence
    (:meth:`_Problem.improve`). The proof stops as soon as its bound meets the best
    sequence known. ``report``: told each shorter sequence and higher
    bound as they are found (what is kept when the search is ended from outside)."""
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
    share = _PROOF_LARGE if len(part.numbered) > LARGE else _PROOF
    answer = problem.search(best, budget.share(share), report=report)
    if answer.optimal or budget.expired():
        return answer
    # Not proved in time: the rest of the time to look for a shorter sequence.
    better = problem.improve(answer.clicks, budget, seed=1, report=report)
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
