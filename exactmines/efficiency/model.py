"""The fewest clicks as a 0/1 programme, solved by HiGHS, with the order of the chords
enforced by cuts added while solving.

Choices (one 0/1 variable each), on a board whose every mine is known:

- ``L[k]``: left-click opening ``k`` (on any of its zeros);
- ``l[v]``: left-click the isolated number ``v`` (and the first click, when it is a number
  on an opening's border);
- ``f[m]``: flag mine ``m``;
- ``c[d]``: chord on number ``d``.

Rows: every opening is revealed, by its click or a chord on its border
(``L[k] + sum c[d] >= 1``); every isolated number is revealed, by its click or a chord beside
it (``l[v] + sum c[e] >= 1``); a chord has its mines flagged (``c[d] <= f[m]``). Minimise the
clicks, ``sum L + l + f + c``.

Order. A solution is played: the left clicks, then every chosen chord whose number is
revealed, its flags just before it, until none is left. If the board is then clear, the
clicks are a sequence of the programme's optimal length: optimal. If not, the cells still
covered fall into groups (numbers joined when beside each other, an opening with its
border); for each group ``S`` a cut says that something outside ``S`` must reveal a cell of
``S`` first: a left click in ``S`` or a chord beside ``S`` on a number not in ``S``
(``sum >= 1``). Every real sequence obeys it (the first cell of ``S`` it reveals is revealed
so), so each programme solved on the way is a relaxation of the real problem, and its bound
is a proved lower bound. The loop ends when a solution plays through.

Given at once, since the loop would add most of them one solve at a time: a chord's number
is revealed before it, by a left click on it or its opening, or a chord beside it or on
that opening's border (``c[d] <= sum``); and the cuts of the smallest groups, two numbers
side by side and each opening's border. Of eight beginner boards, five were
proved within three seconds with them, one without (on a loaded machine).

Why these choices lose nothing: a left click on a number of an opening's border can be
moved to the opening (it reveals more at the same moment); a zero is first revealed by a
left click or a chord beside it (that chord's number is on its border); an isolated number
by a left click or a chord beside it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from exactmines.budget import Budget
from exactmines.efficiency.layout import Click, Layout
from exactmines.errors import SolverError

__all__ = ["Part", "PartAnswer", "parts", "solve_part"]

#: HiGHS's integrality tolerance: a column above it is taken as 1.
_HALF = 0.5
_INF = math.inf


@dataclass(frozen=True)
class Part:
    """Cells whose clicks interact with each other only (see :func:`parts`)."""

    openings: tuple[int, ...]
    numbered: tuple[int, ...]


@dataclass
class PartAnswer:
    """The best clicks found for a part, and a proved lower bound on their number."""

    clicks: list[Click]
    lower_bound: int
    optimal: bool
    cuts: int = 0
    solves: int = 0
    extra: dict[str, Any] = field(default_factory=dict)


def parts(layout: Layout) -> list[Part]:
    """The board's independent parts: numbers joined when beside each other, beside the
    same mine, or on the border of the same opening. No choice of one part changes what
    another needs, so the fewest clicks is the sum over parts."""
    size = len(layout.numbers)
    parent = list(range(size + len(layout.openings)))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def join(a: int, b: int) -> None:
        parent[find(a)] = find(b)

    for d in layout.numbered:
        for i in layout.neighbours[d]:
            if layout.mine[i] or layout.numbers[i]:
                join(d, i)
        for k in layout.borders_of[d]:
            join(d, size + k)
    groups: dict[int, tuple[list[int], list[int]]] = {}
    for k in range(len(layout.openings)):
        groups.setdefault(find(size + k), ([], []))[0].append(k)
    for d in layout.numbered:
        groups.setdefault(find(d), ([], []))[1].append(d)
    found = [Part(tuple(o), tuple(n)) for o, n in groups.values()]
    return sorted(found, key=lambda p: len(p.openings) + len(p.numbered))


def solver_name() -> str:
    """The solver the programmes are given to: ``"HiGHS"`` when highspy is installed, else
    ``"CBC"`` (shipped with PuLP)."""
    try:
        import highspy  # noqa: F401
    except ImportError:
        return "CBC"
    return "HiGHS"


class _Programme:
    """The part's programme in HiGHS, rows added in place."""

    name = "HiGHS"

    def __init__(self) -> None:
        from exactmines.analysis.backends.milp import _highspy, _quiet_highs

        highspy = _highspy()
        self.highspy = highspy
        self.h = _quiet_highs(highspy)
        self.h.setOptionValue("mip_rel_gap", 0.0)
        # No "threads" option: HiGHS keeps one scheduler per process, and a run asking for
        # another thread count than the one it started with (the analysis' MILP engine
        # starts it with the default) fails at once with no status.
        self.h.setOptionValue("parallel", "off")
        self.costs: list[float] = []

    def column(self, cost: int, low: int = 0) -> int:
        self.costs.append(float(cost))
        return len(self.costs) - 1

    def build(self) -> None:
        import numpy as np

        n = len(self.costs)
        self.h.addVars(n, np.zeros(n), np.ones(n))
        self.h.changeColsIntegrality(n, np.arange(n, dtype=np.int32),
                                     np.full(n, self.highspy.HighsVarType.kInteger.value,
                                             dtype=np.uint8))
        self.h.changeColsCost(n, np.arange(n, dtype=np.int32), np.array(self.costs))

    def row(self, terms: Sequence[tuple[int, int]], low: float, high: float) -> None:
        import numpy as np

        self.h.addRow(low, high, len(terms), np.array([t[0] for t in terms], dtype=np.int32),
                      np.array([float(t[1]) for t in terms]))

    def fix(self, column: int) -> None:
        self.h.changeColBounds(column, 1.0, 1.0)

    def solve(self, seconds: float, start: list[float] | None = None,
              ) -> tuple[str, list[float] | None, int]:
        """("optimal" | "stopped", solution or None, proved lower bound). ``start``: a
        feasible solution to begin from (its cost bounds the search)."""
        if start is not None:
            solution = self.highspy.HighsSolution()
            solution.col_value = start
            solution.value_valid = True
            self.h.setSolution(solution)
        from exactmines.analysis.backends.milp import run_highs  # (with PuLP: when asked)

        if run_highs(self.h, max(seconds, 0.001)) == self.highspy.HighsStatus.kError:
            raise SolverError("HiGHS could not run the click programme")
        status = self.h.getModelStatus()
        kinds = self.highspy.HighsModelStatus
        info = self.h.getInfo()
        if status == kinds.kOptimal:
            # The programme's optimum is its lower bound: the solution's cost, counted here.
            x = list(self.h.getSolution().col_value)
            return "optimal", x, sum(int(c) for c, v in zip(self.costs, x, strict=True)
                                     if v > _HALF)
        if status == kinds.kInfeasible:
            raise RuntimeError("the click programme has no solution")
        bound = info.mip_dual_bound
        proved = math.ceil(bound - 1e-6) if math.isfinite(bound) else 0
        has = info.primal_solution_status == 2  # kSolutionStatusFeasible
        return "stopped", list(self.h.getSolution().col_value) if has else None, proved


class _PulpProgramme:
    """The same programme for CBC through PuLP (when highspy is missing): rebuilt at each
    solve, since PuLP keeps no solver between calls. A solve stopped by the time limit
    proves no bound of its own (PuLP does not report CBC's)."""

    name = "CBC"

    def __init__(self) -> None:
        self.costs: list[int] = []
        self.rows: list[tuple[list[tuple[int, int]], float, float]] = []
        self.fixed: set[int] = set()

    def column(self, cost: int, low: int = 0) -> int:
        self.costs.append(cost)
        return len(self.costs) - 1

    def build(self) -> None:
        pass

    def row(self, terms: Sequence[tuple[int, int]], low: float, high: float) -> None:
        self.rows.append((list(terms), low, high))

    def fix(self, column: int) -> None:
        self.fixed.add(column)

    def solve(self, seconds: float, start: list[float] | None = None,
              ) -> tuple[str, list[float] | None, int]:
        import warnings

        import pulp

        problem = pulp.LpProblem("clicks", pulp.LpMinimize)
        x = [problem.add_variable(f"x{j}", 1 if j in self.fixed else 0, 1, pulp.LpBinary)
             for j in range(len(self.costs))]
        problem += pulp.lpSum(c * v for c, v in zip(self.costs, x, strict=True))
        for terms, low, high in self.rows:
            expression = pulp.lpSum(a * x[j] for j, a in terms)
            if math.isfinite(low):
                problem += expression >= low
            if math.isfinite(high):
                problem += expression <= high
        if start is not None:
            for v, value in zip(x, start, strict=True):
                v.setInitialValue(round(value))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)  # PuLP 3.x's notice about 4.0
            bundled = getattr(pulp, "PULP_CBC_CMD", None)
            solver = (bundled or pulp.COIN_CMD)(msg=False, gapRel=0,
                                                timeLimit=max(seconds, 0.01),
                                                warmStart=start is not None)
        if not solver.available():
            raise SolverError("exactmines zini needs highspy, or the CBC solver that ships "
                              "with PuLP: pip install highspy")
        problem.solve(solver)
        values = [v.varValue for v in x]
        has = all(value is not None for value in values)
        if problem.status == pulp.LpStatusOptimal and problem.sol_status == 1 and has:
            return "optimal", values, sum(c for c, v in zip(self.costs, values, strict=True)
                                          if v > _HALF)
        if problem.status == pulp.LpStatusInfeasible:
            raise RuntimeError("the click programme has no solution")
        return "stopped", values if has and problem.sol_status == 2 else None, 0


def _programme() -> _Programme | _PulpProgramme:
    return _Programme() if solver_name() == "HiGHS" else _PulpProgramme()


def solve_part(layout: Layout, part: Part, start: int | None, budget: Budget,
               incumbent: list[Click] | None = None) -> PartAnswer:
    """The fewest clicks that reveal the part's cells, proved unless ``budget`` runs out
    (then the best clicks found, and the best bound proved). ``incumbent``: clicks known
    to reveal the part (a heuristic's, cut to the part), the answer when nothing shorter
    is found, and the solver's first solution."""
    from exactmines.efficiency.greedy import greedy

    prog = _programme()
    in_part = set(part.numbered)
    isolated = [v for v in part.numbered if not layout.borders_of[v]]
    start_here = start if start is not None and (
        start in in_part or layout.opening_of[start] in part.openings) else None
    L = {k: prog.column(1) for k in part.openings}
    lefts = set(isolated) | ({start_here} if start_here in in_part else set())
    left = {v: prog.column(1) for v in sorted(lefts)}
    mines = sorted({i for d in part.numbered for i in layout.neighbours[d] if layout.mine[i]})
    flag = {m: prog.column(1) for m in mines}
    chord = {d: prog.column(1) for d in part.numbered
             if any(not layout.mine[i] for i in layout.neighbours[d])}
    prog.build()
    for k in part.openings:
        prog.row([(L[k], 1)] + [(chord[d], 1) for d in layout.openings[k][1] if d in chord],
                 1, _INF)
    for v in isolated:
        prog.row([(left[v], 1)] + [(chord[e], 1) for e in layout.neighbours[v] if e in chord],
                 1, _INF)
    for d, col in chord.items():
        for i in layout.neighbours[d]:
            if layout.mine[i]:
                prog.row([(col, 1), (flag[i], -1)], -_INF, 0)
    for d, col in chord.items():
        prog.row([(col, -1)] + _revealers(layout, d, L, left, chord), 0, _INF)
    # The order cuts below (see the module) for the smallest groups, given at once: two
    # numbers side by side, and an opening's border.
    small: set[frozenset[int]] = set()
    for v in part.numbered:
        near = [w for w in layout.neighbours[v] if w in in_part]
        small.update(frozenset((v, w)) for w in near)
    for group in sorted(sorted(g) for g in small):
        prog.row(_entries(layout, group, L, left, chord), 1, _INF)
    for k in part.openings:
        prog.row(_entries(layout, list(layout.openings[k][1]), L, left, chord), 1, _INF)
    if start_here is not None:
        prog.fix(left[start_here] if start_here in left else L[layout.opening_of[start_here]])

    best: list[Click] = greedy(layout, start_here, part=part)
    if incumbent is not None and len(incumbent) < len(best):
        best = incumbent
    # A part is revealed first by a left click of its own (no click elsewhere reaches it).
    lower, cuts, solves = 1, 0, 0
    while True:
        seed = _columns(layout, best, len(prog.costs), L, left, flag, chord)
        status, x, bound = prog.solve(budget.remaining(), seed)
        solves += 1
        lower = max(lower, bound)
        if x is None:
            break
        roots: list[Click] = [] if start_here is None else [("left", start_here)]
        roots += [("left", layout.openings[k][0][0]) for k, col in L.items()
                  if x[col] > _HALF and (start_here is None
                                         or layout.opening_of[start_here] != k)]
        roots += [("left", v) for v, col in left.items() if x[col] > _HALF and v != start_here]
        chords = [d for d, col in chord.items() if x[col] > _HALF]
        played, state = _play(layout, roots, chords)
        covered = [v for v in part.numbered if not state.revealed[v]]
        if not covered:
            if best is None or len(played) < len(best):
                best = played
            if status == "optimal":
                return PartAnswer(best, lower, len(best) <= lower, cuts, solves)
            break
        finished = greedy(layout, None, prefix=tuple(played), part=part)
        if best is None or len(finished) < len(best):
            best = finished
        for group in _groups(layout, covered, state):
            prog.row(_entries(layout, group, L, left, chord), 1, _INF)
            cuts += 1
        if budget.expired() or status != "optimal" or len(best) <= lower:
            break
    if best is None:
        best = greedy(layout, start_here, part=part)
    return PartAnswer(best, lower, len(best) <= lower, cuts, solves)


def _revealers(layout: Layout, d: int, L: dict[int, int], left: dict[int, int],
               chord: dict[int, int]) -> list[tuple[int, int]]:
    """The columns of what can reveal the number ``d`` (a chord on it needs it revealed
    first): a left click on it or on an opening whose border holds it, a chord beside it
    or on that opening's border, never a chord on ``d`` itself."""
    columns = {left[d]} if d in left else set()
    for k in layout.borders_of[d]:
        columns.add(L[k])
        columns.update(chord[e] for e in layout.openings[k][1] if e in chord and e != d)
    columns.update(chord[e] for e in layout.neighbours[d] if e in chord)
    return [(c, 1) for c in sorted(columns)]


def _columns(layout: Layout, clicks: list[Click], size: int, L: dict[int, int],
             left: dict[int, int], flag: dict[int, int], chord: dict[int, int],
             ) -> list[float]:
    """The programme's solution for a sequence that reveals the part: each click on its
    column, a left click on a number of an opening's border moved to that opening (it
    reveals no less, as early). Every cut holds for it, as for any real sequence."""
    x = [0.0] * size
    for kind, i in clicks:
        if kind == "flag":
            x[flag[i]] = 1.0
        elif kind == "chord":
            x[chord[i]] = 1.0
        elif i in left:
            x[left[i]] = 1.0
        elif layout.opening_of[i] >= 0:
            x[L[layout.opening_of[i]]] = 1.0
        else:
            x[L[layout.borders_of[i][0]]] = 1.0
    return x


def _play(layout: Layout, roots: list[Click], chords: list[int]) -> tuple[list[Click], Any]:
    """The roots, then each chord as soon as its number is revealed (its flags just before
    it): the clicks made and the state they leave."""
    from exactmines.efficiency.layout import Clicks

    state = Clicks(layout)
    played: list[Click] = []
    for click in roots:
        if state.play(click):
            played.append(click)
    waiting = list(chords)
    progress = True
    while waiting and progress:
        progress = False
        for d in list(waiting):
            if state.revealed[d]:
                waiting.remove(d)
                progress = True
                for i in layout.neighbours[d]:
                    if layout.mine[i] and not state.flagged[i]:
                        state.play(("flag", i))
                        played.append(("flag", i))
                if state.play(("chord", d)):
                    played.append(("chord", d))
    return played, state


def _groups(layout: Layout, covered: list[int], state: Any) -> list[list[int]]:
    """The covered numbers in groups: joined when beside each other or on the border of the
    same (covered) opening. Each group starts with the number it was grown from."""
    todo = set(covered)
    found = []
    while todo:
        seed = todo.pop()
        group = reach(layout, seed, todo)
        todo -= group
        found.append([seed] + sorted(group - {seed}))
    return found


def reach(layout: Layout, start: int, within: set[int]) -> set[int]:
    """``start`` and the cells of ``within`` joined to it, step by step: beside each other,
    or on the border of the same opening."""
    group, stack = {start}, [start]
    while stack:
        v = stack.pop()
        near = [i for i in layout.neighbours[v] if i in within]
        for k in layout.borders_of[v]:
            near += [i for i in layout.openings[k][1] if i in within]
        for i in near:
            if i not in group:
                group.add(i)
                stack.append(i)
    return group


def _entries(layout: Layout, group: list[int], L: dict[int, int], left: dict[int, int],
             chord: dict[int, int]) -> list[tuple[int, int]]:
    """The columns of what can reveal a cell of ``group`` first, from outside it: a left
    click on it or its openings, a chord on a number beside it (or on the border of its
    openings) not in it."""
    members = set(group)
    columns: set[int] = set()
    for v in group:
        if v in left:
            columns.add(left[v])
        for k in layout.borders_of[v]:
            columns.add(L[k])
            columns.update(chord[e] for e in layout.openings[k][1]
                           if e in chord and e not in members)
        columns.update(chord[e] for e in layout.neighbours[v]
                       if e in chord and e not in members)
    return [(c, 1) for c in sorted(columns)]
