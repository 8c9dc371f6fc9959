"""``analyze(position)``: exact probabilities, verdicts and layout counts for a position.

The stages, each a function below:

1. ``build_frontier``: numbers -> boxes -> independent components;
2. ``_count``: each component's layouts by mine number, from the backend, within the time
   limit (a component that runs out is left uncounted);
3. with every component counted, ``combine``: exact fractions under the total count;
4. otherwise ``_deduce``: exact safe/mine verdicts from the backend's feasibility tests,
   using which mine numbers each component can take under the total count (probabilities
   are then reported as not computed, never guessed). This stage has its own time limit
   (the same allowance again); an engine stopped by it leaves the cells it did not prove
   "unknown", and says so in the notes and ``verdicts_complete``.
"""

from __future__ import annotations

import time
from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import compress, repeat, starmap
from operator import add
from typing import Literal

from exactmines.analysis.backends import (
    Backend,
    ComponentCounts,
    Deductions,
    deductions_from_counts,
    get_backend,
)
from exactmines.analysis.combine import (
    allowed_mine_numbers,
    combine,
    combine_without_count,
    feasible_sums,
    fits,
)
from exactmines.analysis.frontier import Frontier, build_frontier
from exactmines.errors import BudgetExceeded
from exactmines.position import COVERED, Cell, Position

__all__ = ["Verdict", "CellAnalysis", "Analysis", "analyze"]

Verdict = Literal["safe", "mine", "unknown"]


@dataclass(frozen=True, slots=True)
class CellAnalysis:
    """One covered, unflagged cell: its exact mine probability and what is certain."""

    row: int
    col: int
    probability: Fraction | None
    verdict: Verdict

    @property
    def cell(self) -> Cell:
        return (self.row, self.col)


def _cell_key(cell: CellAnalysis) -> Cell:
    return (cell.row, cell.col)


@dataclass(frozen=True)
class Analysis:
    """Everything exactmines knows about a position.

    Attributes
    ----------
    position:
        What was analysed.
    backend:
        Name of the engine that counted.
    consistent:
        Some layout satisfies every number (and the total count, when known); ``None`` when
        that was not decided within the time limit.
    layouts:
        Consistent layouts (SPEC §2); ``None`` when some component was not counted.
    cells:
        Every covered, unflagged cell, row-major.
    probabilities_computed:
        ``False`` when a component's layouts could not be counted in time: the verdicts are
        still exact, the probabilities of the affected cells are ``None``.
    verdicts_complete:
        ``False`` when the verdicts too ran out of time: every "safe" and "mine" is still
        proved, but some cells reported "unknown" may be safe or mines.
    components, frontier_cells, largest_component:
        Shape of the problem.
    notes:
        Plain-language remarks (why inconsistent, what was not computed).
    seconds:
        Wall time of the analysis.
    """

    position: Position
    backend: str
    consistent: bool | None
    layouts: int | None
    cells: tuple[CellAnalysis, ...]
    probabilities_computed: bool
    components: int
    frontier_cells: int
    largest_component: int
    notes: tuple[str, ...] = field(default=())
    seconds: float = 0.0
    verdicts_complete: bool = True

    @property
    def unique(self) -> bool:
        """Consistent, and every covered cell is certainly safe or certainly a mine."""
        return self.consistent is True and all(c.verdict != "unknown" for c in self.cells)

    @property
    def safe(self) -> list[Cell]:
        return [c.cell for c in self.cells if c.verdict == "safe"]

    @property
    def mines(self) -> list[Cell]:
        return [c.cell for c in self.cells if c.verdict == "mine"]

    def cell(self, row: int, col: int) -> CellAnalysis:
        """The covered cell at ``(row, col)``; O(log n): ``cells`` is row-major."""
        i = bisect_left(self.cells, (row, col), key=_cell_key)
        if i < len(self.cells) and _cell_key(self.cells[i]) == (row, col):
            return self.cells[i]
        raise KeyError(f"({row}, {col}) is not a covered cell of the position")


def analyze(position: Position, *, backend: str | Backend = "auto",
            time_limit: float | None = None) -> Analysis:
    """Exact analysis of ``position``.

    Parameters
    ----------
    position:
        The position; its ``mines`` (total, flags included) may be ``None``.
    backend:
        A name from :func:`exactmines.analysis.backends.backend_names` or a backend object.
    time_limit:
        Seconds allowed for counting layouts. Components not counted in time still get exact
        verdicts, but no probabilities; proving those verdicts gets the same allowance again
        (no limit when ``time_limit`` is 0: verdicts only), past which unproved cells are
        "unknown" and ``verdicts_complete`` is ``False``.

    Notes
    -----
    Cost is dominated by counting the largest component; combining is a product tree over
    the components' mine-count polynomials.
    """
    started = time.perf_counter()
    engine = get_backend(backend) if isinstance(backend, str) else backend
    frontier = build_frontier(position)
    shape = dict(
        components=len(frontier.components),
        frontier_cells=frontier.frontier_cells,
        largest_component=max((c.cells for c in frontier.components), default=0),
    )

    def finish(consistent: bool | None, layouts: int | None, values: Values, computed: bool,
               notes: list[str], rest: tuple[Fraction | None, Verdict] = _UNKNOWN,
               complete: bool = True) -> Analysis:
        # ``rest``: the value of the cells off the frontier (the default of every cell).
        return Analysis(position, engine.name, consistent, layouts,
                        _cells(position, values, rest), computed,
                        notes=tuple(notes), seconds=time.perf_counter() - started,
                        verdicts_complete=complete, **shape)

    if frontier.contradiction:
        return finish(False, 0, [], True, [f"inconsistent: {frontier.contradiction}"])
    deadline = None if time_limit is None else time.monotonic() + time_limit
    counts, reasons = _count(frontier, engine, deadline)
    if any(c is not None and c.total == 0 for c in counts):
        return finish(False, 0, [], True, ["inconsistent: the numbers cannot all be satisfied"])
    if all(c is not None for c in counts):
        return _from_counts(frontier, [c for c in counts if c is not None], finish)
    verdict_deadline = time.monotonic() + time_limit if time_limit else None
    return _deduce(frontier, engine, counts, reasons, verdict_deadline, finish)


#: What the cells get: groups of cells, each with its (probability, verdict); cells in no
#: group get the ``rest`` value of :func:`_cells`.
Values = list[tuple[Sequence[Cell], tuple[Fraction | None, Verdict]]]

_UNKNOWN: tuple[Fraction | None, Verdict] = (None, "unknown")
#: Byte ``i`` of a position's rows, joined: 1 where the cell is covered (unflagged), else 0.
_COVERED_BYTE = bytes(int(i == ord(COVERED)) for i in range(256))


def _cells(position: Position, values: Values,
           rest: tuple[Fraction | None, Verdict] = _UNKNOWN) -> tuple[CellAnalysis, ...]:
    """Every covered cell, row-major, with its value (``rest`` for cells in no group).

    A flat table by cell index instead of a dict of cells: a 10**6-cell board has hundreds
    of thousands of covered cells, and this is the one place that touches each of them.
    The cells off the frontier (most of a big board) are the table's default, not a group,
    and the covered cells are found and paired with their values by C-speed iteration:
    the Python work per cell is the :class:`CellAnalysis` itself.
    """
    width = position.width
    table = [rest] * (width * position.height)
    for cells, value in values:
        for r, c in cells:
            table[r * width + c] = value
    flags = "".join(position.rows).encode("latin-1", "replace").translate(_COVERED_BYTE)
    covered = list(compress(range(len(flags)), flags))
    places = map(divmod, covered, repeat(width))  # (row, col)
    return tuple(starmap(CellAnalysis, map(add, places, map(table.__getitem__, covered))))


def _count(frontier: Frontier, engine: Backend,
           deadline: float | None) -> tuple[list[ComponentCounts | None], list[str]]:
    """Counts per component, ``None`` for those not counted, and why they were not."""
    counts: list[ComponentCounts | None] = []
    reasons: list[str] = []
    for component in frontier.components:
        try:
            counts.append(engine.count(component, deadline=deadline))
            reasons.append("")
        except BudgetExceeded as exc:
            counts.append(None)
            reasons.append(str(exc))
    return counts, reasons


def _verdict(p: Fraction) -> Verdict:
    return "safe" if p == 0 else "mine" if p == 1 else "unknown"


def _from_counts(frontier: Frontier, counts: list[ComponentCounts], finish):  # type: ignore[no-untyped-def]
    sizes = [c.sizes for c in frontier.components]
    if frontier.mines_left is None:
        combined = combine_without_count(counts, sizes)
    else:
        combined = combine(counts, sizes, len(frontier.outside), frontier.mines_left)
    if combined.layouts == 0:
        return finish(False, 0, [], True,
                      ["inconsistent: no layout fits the numbers and the mine count"])
    values: Values = []
    for boxes, probabilities in zip(frontier.box_cells, combined.box_probability, strict=True):
        for cells, p in zip(boxes, probabilities, strict=True):
            assert p is not None
            values.append((cells, (p, _verdict(p))))
    p_out = combined.outside_probability
    return finish(True, combined.layouts, values, True, [],
                  (p_out, "unknown" if p_out is None else _verdict(p_out)))


def _deduce(frontier: Frontier, engine: Backend, counts: list[ComponentCounts | None],
            reasons: list[str], deadline: float | None, finish):  # type: ignore[no-untyped-def]
    """Exact verdicts when some component could not be counted.

    Past ``deadline`` nothing is guessed: a component whose possible mine numbers were not
    all found takes every number (a superset: verdicts from it can only be weaker, and
    consistency is then undecided unless even the superset is impossible), and a cell the
    engine did not prove is "unknown"."""
    components = frontier.components
    notes = [f"component {i + 1} ({comp.cells} cells): layouts not counted "
             f"({reason}); probabilities were not computed"
             for i, (c, comp, reason) in enumerate(zip(counts, components, reasons, strict=True))
             if c is None]
    numbers: list[frozenset[int]] = []
    decided = True  # every component's possible mine numbers are known exactly
    for i, (c, comp) in enumerate(zip(counts, components, strict=True)):
        if c is not None:
            numbers.append(c.mine_numbers())
            continue
        try:
            numbers.append(engine.mine_numbers(comp, deadline=deadline))
        except BudgetExceeded as exc:
            decided = False
            numbers.append(frozenset(range(comp.cells + 1)))
            notes.append(f"component {i + 1}: its possible numbers of mines were not all "
                         f"found ({exc}); consistency is not decided")
    if any(not n for n in numbers):
        return finish(False, 0, [], True, ["inconsistent: the numbers cannot all be satisfied"])
    left, outside = frontier.mines_left, len(frontier.outside)
    if left is None:
        allowed = numbers
    else:
        allowed = allowed_mine_numbers(numbers, outside, left)
        if any(not a for a in allowed):
            return finish(False, 0, [], True,
                          ["inconsistent: no layout fits the numbers and the mine count"])
    values: Values = []
    complete = decided
    for i, (comp, c, ok) in enumerate(zip(components, counts, allowed, strict=True)):
        facts: Deductions = (deductions_from_counts(comp, c, ok) if c is not None
                             else engine.deduce(comp, ok, deadline=deadline))
        if not facts.complete:
            complete = False
            notes.append(f"component {i + 1}: verdicts not all proved within the time limit; "
                         "its cells not proved safe or mines are reported unknown")
        # Without a total, counted components keep exact probabilities: they are independent.
        exact = None
        if left is None and c is not None:
            exact = combine_without_count([c], [comp.sizes]).box_probability[0]
        for b, cells in enumerate(frontier.box_cells[i]):
            verdict: Verdict = ("safe" if not facts.can_mine[b]
                                else "mine" if not facts.can_clear[b] else "unknown")
            values.append((cells, (exact[b] if exact else None, verdict)))
    rest = _UNKNOWN
    if left is not None and outside:
        total = feasible_sums(allowed)
        can_mine = fits(total, left - outside, left - 1)
        can_clear = fits(total, left - outside + 1, left)
        rest = (None, "safe" if not can_mine else "mine" if not can_clear else "unknown")
    return finish(True if decided else None, None, values, False, notes, rest, complete)
