"""``analyze(position)``: exact probabilities, verdicts and layout counts for a position.

The stages, each a function below:

1. ``build_frontier``: numbers -> boxes -> independent components;
2. ``_count``: each component's layouts by mine number, from the backend, within
   :data:`~exactmines.budget.COUNT_SHARE` of the budget (a component that runs out is left
   uncounted);
3. with every component counted, ``combine``: exact fractions under the total count;
4. otherwise ``_deduce``: exact safe/mine verdicts from the backend's feasibility tests,
   using which mine numbers each component can take under the total count (probabilities
   are then reported as not computed, never guessed), within the rest of the budget; an
   engine stopped by it leaves the cells it did not prove "unknown", and says so in the
   notes and ``verdicts_complete``.

One budget covers the whole analysis: a time limit of 1 s returns in about 1 s, whatever
the stages found.
"""

from __future__ import annotations

import time
from bisect import bisect_left
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import chain, compress, repeat, starmap
from operator import add
from typing import Any, overload

from exactmines.analysis.backends import (
    Backend,
    ComponentCounts,
    Deductions,
    PartlyProved,
    deductions_from_counts,
    get_backend,
)
from exactmines.analysis.cache import CountCache
from exactmines.analysis.combine import (
    Ratios,
    allowed_mine_numbers,
    combine_ratios,
    combine_ratios_without_count,
    feasible_sums,
    fits,
)
from exactmines.analysis.counting import count_components
from exactmines.analysis.frontier import Frontier, build_frontier, split_forced
from exactmines.analysis.tables import (
    Pair,
    Tables,
    Value,
    Verdict,
    box_tables,
    box_values,
    cell_tables,
    covered_indices,
    forced_values,
    verdict,
)
from exactmines.budget import COUNT_SHARE, NUMBERS_SHARE, Budget
from exactmines.errors import BudgetExceeded
from exactmines.position import COVERED, Cell, Position
from exactmines.words import plural

__all__ = ["Verdict", "CellAnalysis", "Analysis", "analyze", "not_computed", "COUNT_SHARE"]

#: What the stages after counting say they were doing when the time limit came
#: (:meth:`~exactmines.budget.Budget.check`): combining the components' counts into
#: probabilities, and proving the safe cells and mines.
COMBINING = "combining the counts"
PROVING = "proving the verdicts"

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
        Consistent layouts (docs/contract.md §2); ``None`` when some component was not counted.
    cells:
        Every covered, unflagged cell, row-major: a read-only sequence (:class:`Cells`,
        equal to the tuple of the same cells) whose cell objects and fractions are made
        when first read; ``cells.probabilities()`` gives every cell's probability at once,
        in the same order, without the cell objects.
    probabilities_computed:
        ``False`` when a component's layouts could not be counted in time: the verdicts are
        still exact, the probabilities of the affected cells are ``None``.
    verdicts_complete:
        ``False`` when the verdicts too ran out of time: every "safe" and "mine" is still
        proved, but some cells reported "unknown" may be safe or mines.
    components, frontier_cells, largest_component:
        Shape of the problem; ``None`` when the frontier was not built within the time
        limit (:func:`not_computed`).
    notes:
        Plain-language remarks (why inconsistent, what was not computed).
    seconds:
        Wall time of the analysis.
    dp_width, dp_plan:
        When the DP engine swept a part of some component (:class:`~exactmines.analysis.
        backends.ComponentCounts`): the widest of its tables (rules open at a cut of a
        sweep, or a tree decomposition's largest bag less one) and how (``"sweep"`` or
        ``"tree"``); ``None`` otherwise (every part enumerated or forced, another engine, or
        the square grid's part-by-part path).
    """

    position: Position
    backend: str
    consistent: bool | None
    layouts: int | None
    cells: Cells
    probabilities_computed: bool
    components: int | None
    frontier_cells: int | None
    largest_component: int | None
    notes: tuple[str, ...] = field(default=())
    seconds: float = 0.0
    verdicts_complete: bool = True
    dp_width: int | None = None
    dp_plan: str | None = None

    @property
    def unique(self) -> bool | None:
        """Exactly one layout: consistent, and every covered cell certainly safe or
        certainly a mine. ``None`` when the time limit came before that was decided: never a
        claim that was not proved either way.

        ``False`` is proved: by no layout at all, by a count of more than one, or by a cell
        left unknown once the verdicts were complete (such a cell is a mine in some layout
        and safe in another). Without a mine count the cells off the frontier are never
        determined, so a position with any is not unique.
        """
        if self.consistent is None:
            return None
        if self.consistent is False:
            return False
        if not self.cells.any_with("unknown"):
            return True
        if self.verdicts_complete:
            return False
        if self.layouts is not None and self.layouts > 1:
            return False
        return None

    @property
    def safe(self) -> list[Cell]:
        """The cells proved safe, row-major."""
        return self.cells.with_verdict("safe")

    @property
    def mines(self) -> list[Cell]:
        """The cells proved mines, row-major."""
        return self.cells.with_verdict("mine")

    def cell(self, row: int, col: int) -> CellAnalysis:
        """The covered cell at ``(row, col)``; O(log n): ``cells`` is row-major."""
        i = bisect_left(self.cells, (row, col), key=_cell_key)
        if i < len(self.cells) and _cell_key(self.cells[i]) == (row, col):
            return self.cells[i]
        raise KeyError(f"({row}, {col}) is not a covered cell of the position")


#: What the cells get: groups of cells, each with its value; cells in no group get the
#: ``rest`` value.
Values = list[tuple[Sequence[Cell], Value]]

_UNKNOWN: Value = (None, "unknown")


class Cells(Sequence[CellAnalysis]):
    """Every covered, unflagged cell of an analysed position, row-major, with its value.

    A read-only sequence equal to the tuple of its :class:`CellAnalysis` (and hashed as
    that tuple). The analysis leaves its answers here as it found them, per box, as ratios
    of integers; the cell objects and their fractions are made on first use. An expert
    mid-game position has about 300 covered cells and 80 boxes: making every object and
    fraction at once cost more than the whole count. ``with_verdict`` and ``any_with``
    (and so ``Analysis.safe``, ``mines`` and ``unique``) read the boxes, not the cells;
    :meth:`probabilities` reads every cell's probability without making the cell objects.
    """

    __slots__ = ("_position", "_boxes", "_values", "_rest", "_all", "_table")

    def __init__(self, position: Position, values: Values, rest: Value = _UNKNOWN) -> None:
        self._position = position
        self._boxes: tuple[Sequence[Sequence[Sequence[Cell]]], Ratios, int, int] | None = None
        self._values: Values | None = values
        self._rest = rest
        self._all: tuple[CellAnalysis, ...] | None = None
        self._table: Tables | None = None

    @classmethod
    def of_boxes(cls, position: Position, box_cells: Sequence[Sequence[Sequence[Cell]]],
                 ratios: Ratios, forced_mines: int = 0, forced_safe: int = 0) -> Cells:
        """The cells of a position whose components (or parts) were all counted: box ``b``
        of component ``c`` holds the cells ``box_cells[c][b]``, each a mine with
        probability ``ratios.box[c][b]``; the cells of ``forced_mines`` and
        ``forced_safe`` (masks over the padded grid, see
        :func:`~exactmines.analysis.frontier.padded_cells`) are mines and safe, and the cells
        off the frontier have ``ratios.outside``."""
        cells = cls(position, [])
        cells._values = None
        cells._boxes = (box_cells, ratios, forced_mines, forced_safe)
        out = ratios.outside
        cells._rest = (None, "unknown") if out is None else (out, verdict(out))
        return cells

    def values(self) -> tuple[Values, Value]:
        """The groups of cells with their values, and the value of every other cell."""
        if self._values is None:
            assert self._boxes is not None
            box_cells, ratios, mines, safe = self._boxes
            assert ratios.box is not None
            self._values = box_values(forced_values(mines, safe, self._position.width,
                                                    self._position.height),
                                      box_cells, ratios.box)
        return self._values, self._rest

    def _tables(self) -> Tables:
        """Every cell's exact probability, and its ``(probability, verdict)`` pair, by flat
        index ``r * width + c`` (the cells not covered hold the rest's, unread), and a
        byte per cell, 1 where it is covered (:data:`~exactmines.analysis.tables.Tables`).

        Flat tables instead of a dict of cells: a 10**6-cell board has hundreds of
        thousands of covered cells, and the cells off the frontier (most of a big board)
        are the tables' default, not a group. The Python work is per frontier cell and per
        distinct ratio (its fraction); the covered cells are found at C speed, and the
        cells of a group share one pair (a cell object adds only its place to it).
        """
        if self._table is None:
            position = self._position
            if self._values is None:  # the boxes as counted, never made into groups
                assert self._boxes is not None
                box_cells, ratios, mines, safe = self._boxes
                assert ratios.box is not None
                self._table = box_tables(box_cells, ratios.box, self._rest, mines, safe,
                                         position.width, position.rows)
            else:
                self._table = cell_tables(self._values, self._rest, position.width,
                                          position.rows)
        return self._table

    def probabilities(self) -> tuple[Fraction | None, ...]:
        """The exact mine probability of every cell, in order (row-major, as
        ``Position.covered``): ``tuple(c.probability for c in cells)``, without making
        the cell objects. ``None`` where not computed. Cells of one box share one
        :class:`~fractions.Fraction` object."""
        probability, _, covered = self._tables()
        return tuple(compress(probability, covered))

    def flat_pairs(self) -> tuple[list[Pair], list[int]]:
        """Every cell's ``(probability, verdict)`` pair by flat index ``r * width + c``, and
        the covered cells' flat indices, row-major: what a writer of millions of cells
        reads instead of the cell objects. Cells of one box share one pair object."""
        _, pairs, covered = self._tables()
        return pairs, covered_indices(covered)

    def any_probability(self) -> bool:
        """Does some cell have a probability? Read from the groups of values, not the
        cells: an answer without counts says so without laying out its cells."""
        values, rest = self.values()
        if any(value[0] is not None and cells for cells, value in values):
            return True
        return rest[0] is not None and len(self) > sum(len(cells) for cells, _ in values)

    def _cells(self) -> tuple[CellAnalysis, ...]:
        if self._all is None:
            _, pairs, flags = self._tables()
            covered = covered_indices(flags)
            places = map(divmod, covered, repeat(self._position.width))  # (row, col)
            self._all = tuple(starmap(CellAnalysis, map(add, places,
                                                        map(pairs.__getitem__, covered))))
        return self._all

    def __len__(self) -> int:
        if self._all is not None:
            return len(self._all)
        return sum(row.count(COVERED) for row in self._position.rows)

    @overload
    def __getitem__(self, index: int) -> CellAnalysis: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[CellAnalysis, ...]: ...

    def __getitem__(self, index: int | slice) -> CellAnalysis | tuple[CellAnalysis, ...]:
        return self._cells()[index]

    def __iter__(self) -> Iterator[CellAnalysis]:
        return iter(self._cells())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Cells):
            return self._cells() == other._cells()
        if isinstance(other, tuple | list):
            return self._cells() == tuple(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._cells())

    def __repr__(self) -> str:
        return f"Cells({self._cells()!r})"

    def __reduce__(self) -> tuple[object, ...]:
        values, rest = self.values()
        return (Cells, (self._position, values, rest))

    def with_verdict(self, verdict: Verdict) -> list[Cell]:
        """The cells with this verdict, row-major."""
        values, rest = self.values()
        if rest[1] == verdict and len(self) > sum(len(cells) for cells, _ in values):
            return [c.cell for c in self._cells() if c.verdict == verdict]
        return sorted(cell for cells, value in values if value[1] == verdict for cell in cells)

    def any_with(self, verdict: Verdict) -> bool:
        """Does some cell have this verdict?"""
        values, rest = self.values()
        if any(value[1] == verdict and cells for cells, value in values):
            return True
        return rest[1] == verdict and len(self) > sum(len(cells) for cells, _ in values)


def analyze(position: Position, *, backend: str | Backend = "auto",
            budget: Budget | None = None, time_limit: float | None = None,
            cache: CountCache | None = None) -> Analysis:
    """Exact analysis of ``position``.

    Parameters
    ----------
    position:
        The position; its ``mines`` (total, flags included) may be ``None``.
    backend:
        A name from :func:`exactmines.analysis.backends.backend_names` or a backend object.
    budget:
        The time allowed for the whole analysis (:class:`~exactmines.budget.Budget`; none:
        no limit). Counting gets :data:`~exactmines.budget.COUNT_SHARE` of it; components
        not counted in time still get exact verdicts, but no probabilities, within the
        rest; past the budget unproved cells are "unknown" and ``verdicts_complete`` is
        ``False``.
    time_limit:
        The same in seconds, for convenience: ``budget=Budget.seconds(time_limit)`` (more
        than 0; ``inf`` for no limit). Give one or the other.
    cache:
        Counts of components met before (:class:`~exactmines.analysis.cache.CountCache`),
        read and added to: for many positions that share most of their components, such as
        the positions of one game. Without it every component is counted.

    Notes
    -----
    Cost is dominated by counting the largest component; combining is a product tree over
    the components' mine-count polynomials. With the DP engines (``auto``, ``dp``) a board
    up to :data:`~exactmines.analysis.frontier.FORCED_CELLS` cells is first counted part
    by part, what the rules force on their own settled beforehand for the whole board
    (:func:`~exactmines.analysis.frontier.split_forced`): the same answers, for a fraction
    of the work on an ordinary mid-game position, where most of the frontier is forced.
    Anything that path does not answer (a contradiction, a part not counted in time) is
    answered component by component as above.
    """
    started = time.perf_counter()
    if budget is not None and time_limit is not None:
        raise TypeError("analyze takes a budget or a time_limit, not both")
    if budget is None:
        budget = Budget.seconds(time_limit)
    count_budget = budget.share(COUNT_SHARE)
    engine = get_backend(backend) if isinstance(backend, str) else backend
    if engine.name in _SPLIT_ENGINES:
        quick = _from_split(position, engine, count_budget, started, cache)
        if quick is not None:
            return quick
    try:
        frontier = build_frontier(position, budget)
    except BudgetExceeded as exc:
        return not_computed(position, engine.name, f"not computed: the frontier was not "
                            f"built ({exc}); consistency, layouts and every verdict are "
                            "unknown", time.perf_counter() - started)
    count_budget = budget.share(COUNT_SHARE)  # of what the frontier left
    shape: dict[str, Any] = dict(
        components=len(frontier.components),
        frontier_cells=frontier.frontier_cells,
        largest_component=max((c.cells for c in frontier.components), default=0),
    )

    def finish(consistent: bool | None, layouts: int | None, values: Values | Ratios,
               computed: bool, notes: list[str], rest: Value = _UNKNOWN,
               complete: bool = True) -> Analysis:
        # ``rest``: the value of the cells off the frontier (the default of every cell);
        # ``Ratios``: every component counted, the values of its boxes and of the rest.
        cells = (Cells.of_boxes(position, frontier.box_cells, values)
                 if isinstance(values, Ratios) else Cells(position, values, rest))
        return Analysis(position, engine.name, consistent, layouts, cells, computed,
                        notes=tuple(notes), seconds=time.perf_counter() - started,
                        verdicts_complete=complete, **shape)

    if frontier.contradiction:
        return finish(False, 0, [], True, [f"inconsistent: {frontier.contradiction}"])
    counts, reasons = _count(frontier, engine, count_budget, cache)
    swept = [(c.dp_width, c.dp_plan) for c in counts if c is not None and c.dp_width is not None]
    if swept:  # (read by finish, through shape)
        shape["dp_width"], shape["dp_plan"] = max(swept)
    if any(c is not None and c.total == 0 for c in counts):
        return finish(False, 0, [], True, ["inconsistent: the numbers cannot all be satisfied"])
    if all(c is not None for c in counts):
        try:
            budget.check(COMBINING)
        except BudgetExceeded as exc:
            # Counted, not combined: the verdicts from the counts, within what is left
            # (none: each says so), and no probabilities.
            return _deduce(frontier, engine, counts, reasons, budget, finish,
                           [f"probabilities not computed: the layouts were counted but "
                            f"not combined ({exc})"])
        return _from_counts(frontier, [c for c in counts if c is not None], finish)
    return _deduce(frontier, engine, counts, reasons, budget, finish)


def not_computed(position: Position, backend: str, note: str, seconds: float = 0.0
                 ) -> Analysis:
    """The analysis of ``position`` when not even its frontier was built: consistency
    undecided, no layouts, every covered cell unknown, the shape unknown (``None``), and
    ``note`` saying why. Sound, like every "not computed" answer: it claims nothing.
    Cost: none beyond the position (its cells are made when read)."""
    return Analysis(position, backend, None, None, Cells(position, []), False,
                    components=None, frontier_cells=None, largest_component=None,
                    notes=(note,), seconds=seconds, verdicts_complete=False)


#: Engines whose counts the analysis may take part by part (see
#: :class:`~exactmines.analysis.frontier.Split`): the DP family, which counts a component
#: as the product of its unforced parts anyway.
_SPLIT_ENGINES = frozenset({"auto", "dp"})


def _from_split(position: Position, engine: Backend, budget: Budget,
                started: float, cache: CountCache | None) -> Analysis | None:
    """The analysis counted part by part, or ``None`` when the general path must answer:
    the split does not apply, a part was not counted, the position is inconsistent, or the
    budget has run out."""
    split = split_forced(position)
    if split is None:
        return None
    try:
        counts = count_components(split.parts, engine, budget, cache, every=False)
    except BudgetExceeded:
        return None
    sizes = [part.sizes for part in split.parts]
    if split.mines_left is None:
        ratios = combine_ratios_without_count(counts, sizes)
    else:
        ratios = combine_ratios(counts, sizes, split.outside, split.mines_left)
    if ratios.layouts == 0 or budget.expired():
        return None
    return Analysis(position, engine.name, True, ratios.layouts,
                    Cells.of_boxes(position, split.part_cells, ratios, split.forced_mines,
                                   split.forced_safe), True,
                    split.components, split.frontier_cells, split.largest_component,
                    seconds=time.perf_counter() - started)


def _count(frontier: Frontier, engine: Backend, budget: Budget,
           cache: CountCache | None) -> tuple[list[ComponentCounts | None], list[str]]:
    """Counts per component, ``None`` for those not counted, and why they were not."""
    found = count_components(frontier.components, engine, budget, cache)
    counts = [None if isinstance(c, BudgetExceeded) else c for c in found]
    reasons = [str(c) if isinstance(c, BudgetExceeded) else "" for c in found]
    return counts, reasons


def _components_note(numbers: list[int], cells: list[int], what: str) -> str:
    """One note for the components numbered ``numbers`` (1-based) of ``cells`` cells each,
    however many: "component 3 (4 cells): ``what``", or "61 components (3, 5, 8, ... and
    55 more; 1-4 cells each): ``what``"."""
    if len(numbers) == 1:
        return f"component {numbers[0]} ({plural(cells[0], 'cell')}): {what}"
    shown = ", ".join(map(str, numbers[:6]))
    if len(numbers) > 6:
        shown += f" and {len(numbers) - 6} more"
    low, high = min(cells), max(cells)
    size = (f"{plural(low, 'cell')} each" if low == high else f"{low}-{plural(high, 'cell')} each")
    return f"{plural(len(numbers), 'component')} ({shown}; {size}): {what}"


def _from_counts(frontier: Frontier, counts: list[ComponentCounts], finish):  # type: ignore[no-untyped-def]
    sizes = [c.sizes for c in frontier.components]
    if frontier.mines_left is None:
        ratios = combine_ratios_without_count(counts, sizes)
    else:
        ratios = combine_ratios(counts, sizes, len(frontier.outside), frontier.mines_left)
    if ratios.layouts == 0:
        return finish(False, 0, [], True,
                      ["inconsistent: no layout fits the numbers and the mine count"])
    return finish(True, ratios.layouts, ratios, True, [])


def _deduce(frontier: Frontier, engine: Backend, counts: list[ComponentCounts | None],
            reasons: list[str], budget: Budget, finish,  # type: ignore[no-untyped-def]
            notes: list[str] | None = None):
    """Exact verdicts when some component could not be counted (or every component was,
    but the time limit came before their counts were combined: ``notes`` says so).

    Past the ``budget`` nothing is guessed: a component whose possible mine numbers were not
    all found takes every number (a superset: verdicts from it can only be weaker, and
    consistency is then undecided unless even the superset is impossible), and a cell the
    engine did not prove is "unknown", and so is every cell of a component whose verdicts
    were reached after it, counted or not (:data:`PROVING`)."""
    components = frontier.components
    notes = [] if notes is None else notes
    uncounted = [i for i, c in enumerate(counts) if c is None]
    if uncounted:  # one note for them all, each reason given once
        why = "; ".join(dict.fromkeys(reasons[i] for i in uncounted))
        notes.append(_components_note([i + 1 for i in uncounted],
                                      [components[i].cells for i in uncounted],
                                      f"layouts not counted ({why}); probabilities were not "
                                      "computed"))
    unfound: list[int] = []  # the components whose possible mine numbers were not all found
    unfound_reason = ""
    numbers: list[frozenset[int]] = []
    decided = True  # every component's possible mine numbers are known exactly
    for i, (c, comp) in enumerate(zip(counts, components, strict=True)):
        if c is not None:
            numbers.append(c.mine_numbers())
            continue
        try:
            numbers.append(engine.mine_numbers(comp, budget=budget.share(NUMBERS_SHARE)))
        except BudgetExceeded as exc:
            decided = False
            numbers.append(frozenset(range(comp.cells + 1)))
            unfound.append(i)
            unfound_reason = str(exc)
    if unfound:
        notes.append(_components_note([i + 1 for i in unfound],
                                      [components[i].cells for i in unfound],
                                      f"its possible numbers of mines were not all found "
                                      f"({unfound_reason}); consistency is not decided"))
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
    unproved: list[int] = []  # the components whose verdicts were not all proved
    for i, (comp, c, ok, can) in enumerate(zip(components, counts, allowed, numbers,
                                                strict=True)):
        if c is None and ok == can:
            # Every number the component can hold is allowed: asking for every number is
            # the same question, without the total's bound (which costs the SAT and MILP
            # engines a counter over all the cells).
            ok = frozenset(range(comp.cells + 1))
        try:
            budget.check(PROVING)
            if c is not None:
                facts = deductions_from_counts(comp, c, ok)
            else:
                facts = engine.deduce(comp, ok, budget=budget)
        except PartlyProved as exc:  # out of time: what was proved stands
            facts = exc.facts
        except BudgetExceeded:  # (a counting engine gives up as its count did)
            facts = Deductions.unsettled(len(comp.sizes))
        if not facts.complete:
            complete = False
            unproved.append(i)
        # Without a total, counted components keep exact probabilities: they are independent.
        exact = None
        if left is None and c is not None:
            ratios = combine_ratios_without_count([c], [comp.sizes]).box
            exact = None if ratios is None else ratios[0]
        if not exact and all(facts.can_mine) and all(facts.can_clear):
            # Nothing known of its cells (an engine stopped at once): one group, not a
            # value per box (a compiled formula's component has 50,000 boxes).
            values.append((list(chain.from_iterable(frontier.box_cells[i])), _UNKNOWN))
            continue
        for b, cells in enumerate(frontier.box_cells[i]):
            verdict: Verdict = ("safe" if not facts.can_mine[b]
                                else "mine" if not facts.can_clear[b] else "unknown")
            values.append((cells, (exact[b] if exact else None, verdict)))
    if unproved:
        notes.append(_components_note([i + 1 for i in unproved],
                                      [components[i].cells for i in unproved],
                                      "verdicts not all proved within the time limit; the "
                                      "cells not proved safe or mines are reported unknown"))
    rest = _UNKNOWN
    if left is not None and outside:
        total = feasible_sums(allowed)
        can_mine = fits(total, left - outside, left - 1)
        can_clear = fits(total, left - outside + 1, left)
        rest = (None, "safe" if not can_mine else "mine" if not can_clear else "unknown")
    return finish(True if decided else None, None, values, False, notes, rest, complete)
