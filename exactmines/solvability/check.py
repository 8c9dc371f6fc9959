"""No-guess solvability from a first click, and uniqueness of a position's layout.

``solvable(board, at)`` plays the board from ``at`` with certain deductions only: every
cell proved safe is revealed (zeros flood as in the game), every cell proved a mine is
flagged, until all safe cells are revealed (solvable) or nothing more can be proved.

The deduction is *complete*: when it stops, no covered cell is safe or a mine in every
layout consistent with the numbers (and the total mine count, unless ``use_count=False``).
Revealing more never makes a proof invalid, so the set of cells a complete solver reveals
does not depend on the order of its steps, and "solvable" is a property of the board and
the first click alone.

The steps, cheapest first, each run only when the ones before it are stuck:

1. single-clue rules on the clues next to what changed: a number whose mines are all
   flagged clears its other neighbours; one that needs all its covered neighbours flags them;
2. pairwise rules over overlapping clues near what changed (the "1-2" patterns); both are
   the player's (:func:`~exactmines.deduction.grid.local_deductions`);
3. the exact step: the frontier cut into independent components
   (:func:`~exactmines.deduction.rules.group`), each component's layouts enumerated once
   (:func:`~exactmines.deduction.search.extremes`, cached by the component's rules),
   combined under the total count with
   :func:`~exactmines.analysis.combine.allowed_mine_numbers`. Components past the
   enumeration's budget go to a counting backend's ``mine_numbers``/``deduce``, which are
   exact too.

Time and memory are linear in the board apart from the exact steps, each of which costs a
few steps per clue on the frontier plus the components not met before: state is a few bytes
per cell (:class:`~exactmines.game.Game`, :class:`~exactmines.deduction.grid.Grid`), never a
table of bitmasks per cell.

Only step 3 matters for correctness; steps 1-2 are there because most positions on the way
never need it.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from exactmines.analysis.backends import Backend, get_backend
from exactmines.analysis.combine import allowed_mine_numbers, feasible_sums, fits
from exactmines.analysis.frontier import Component, Rule, build_frontier
from exactmines.budget import UNLIMITED, Budget
from exactmines.deduction import NODES, component, extremes, group, local_deductions, new_grid
from exactmines.errors import InputError, OutOfTime, ParameterError, SolverError, TooLarge
from exactmines.game import Game, board_from_indices
from exactmines.io.registry import position_text
from exactmines.position import Board, Cell, Position, Topology, indices_of
from exactmines.words import plural

__all__ = [
    "Solvability",
    "Outcome",
    "Solver",
    "Uniqueness",
    "solvable",
    "certificate",
    "solve_indices",
    "solve_from",
    "is_unique",
]


@dataclass(frozen=True, slots=True)
class Solvability:
    """The outcome of playing a board from a first click with certain deductions only.

    Attributes
    ----------
    solvable:
        Every safe cell got revealed without a guess.
    at:
        The first click.
    revealed:
        Safe cells revealed when deduction stopped (``safe_cells`` when solvable).
    safe_cells:
        Safe cells on the board.
    mines_found:
        Mines proved (flagged) along the way.
    steps:
        Rounds that revealed cells (the first click is round 1; each later round reveals
        every cell proved safe at once).
    exact_steps:
        Times the exact (complete) step ran because the local rules were stuck.
    count_deductions:
        Cells proved only thanks to the total mine count (0 with ``use_count=False``).
    stuck:
        The position where deduction stopped (numbers, ``F`` on proved mines, ``H``
        elsewhere; header with the mine count unless it was not used), or ``None`` when
        solvable.
    """

    solvable: bool
    at: Cell
    revealed: int
    safe_cells: int
    mines_found: int
    steps: int
    exact_steps: int
    count_deductions: int
    stuck: Position | None

    def to_dict(self) -> dict[str, Any]:
        """The JSON object of docs/contract.md §3; ``stuck`` is the stuck position as ``.mine``
        text (node-link JSON text on a graph)."""
        return {
            "solvable": self.solvable,
            "at": list(self.at),
            "revealed": self.revealed,
            "safe_cells": self.safe_cells,
            "mines_found": self.mines_found,
            "steps": self.steps,
            "exact_steps": self.exact_steps,
            "count_deductions": self.count_deductions,
            "stuck": None if self.stuck is None else position_text(self.stuck),
        }

    def __reduce__(self) -> tuple[object, ...]:
        # Spelled out: compiled by mypyc (setup.py), a frozen dataclass does not unpickle.
        return (Solvability, (self.solvable, self.at, self.revealed, self.safe_cells,
                              self.mines_found, self.steps, self.exact_steps,
                              self.count_deductions, self.stuck))


@dataclass(frozen=True, slots=True)
class Outcome:
    """What :func:`solve_indices` ends with: cells as bitmasks over ``r * width + c``
    (cheap: the survey needs no Position). Fields as in :class:`Solvability`."""

    revealed: int
    flagged: int
    safe_mask: int
    steps: int
    exact_steps: int
    count_deductions: int

    @property
    def solvable(self) -> bool:
        return self.revealed == self.safe_mask

    def __reduce__(self) -> tuple[object, ...]:
        # Spelled out: compiled by mypyc (setup.py), a frozen dataclass does not unpickle.
        return (Outcome, (self.revealed, self.flagged, self.safe_mask, self.steps,
                          self.exact_steps, self.count_deductions))


def solvable(board: Board, at: Cell, *, use_count: bool = True,
             backend: str | Backend = "auto",
             enumeration_limit: int = NODES, budget: Budget = UNLIMITED) -> Solvability:
    """Can ``board`` be cleared from a first click at ``at`` without guessing?

    Parameters
    ----------
    board:
        The hidden layout.
    at:
        The first click ``(row, col)``; it must be on the board and not on a mine.
    use_count:
        Let deductions use the total number of mines (the game shows it). Without it, only
        the numbers count, and cells that touch no number are never proved.
    backend:
        Engine for components too large for the built-in enumeration.
    enumeration_limit:
        Search nodes per component before it goes to ``backend`` (the shared budget
        :data:`~exactmines.deduction.search.NODES` by default; 0 sends every component
        there: slow, but a second, independent route to the same answers).
    budget:
        The time allowed (no limit by default).

    Raises
    ------
    InputError
        When ``at`` is off the board or on a mine.
    OutOfTime
        When ``budget`` runs out before the answer: a deduction not finished is never
        read as "stuck".

    Notes
    -----
    Cost: a few steps per cell and per clue near each change; each exact step a few steps per
    clue on the frontier, plus the enumeration of each component not met before (exponential
    in the worst case, bounded by ``enumeration_limit`` nodes before the backend takes over).
    """
    r, c = at
    topology = board.topology
    if not (0 <= r < board.height and 0 <= c < board.width):
        raise InputError(f"{topology.cell_text(at)} is off the {topology.size_text} board",
                         source="first click")
    if at in board.mine_cells:
        raise InputError(f"{topology.cell_text(at)} holds a mine", source="first click")
    width = board.width
    indices = [rr * width + cc for rr, cc in board.mine_cells]
    outcome = solve_indices(width, board.height, indices, r * width + c, use_count=use_count,
                            backend=backend, enumeration_limit=enumeration_limit,
                            topology=topology, budget=budget)
    return certificate(board, at, outcome, use_count=use_count)


def certificate(board: Board, at: Cell, outcome: Outcome, *,
                use_count: bool = True) -> Solvability:
    """:func:`solvable`'s answer from the :class:`Outcome` of the check of ``board`` from
    ``at`` (:func:`solve_indices`, or a :class:`Solver` run from the first click alone),
    for a caller that has run that check already."""
    width = board.width
    stuck = None
    if not outcome.solvable:
        revealed = frozenset(divmod(i, width) for i in indices_of(outcome.revealed))
        flagged = frozenset(divmod(i, width) for i in indices_of(outcome.flagged))
        stuck = board.position(revealed, flagged, count_known=use_count)
    return Solvability(
        solvable=outcome.solvable,
        at=at,
        revealed=outcome.revealed.bit_count(),
        safe_cells=outcome.safe_mask.bit_count(),
        mines_found=outcome.flagged.bit_count(),
        steps=outcome.steps,
        exact_steps=outcome.exact_steps,
        count_deductions=outcome.count_deductions,
        stuck=stuck,
    )


def solve_indices(width: int, height: int, mine_indices: list[int] | tuple[int, ...],
                  start: int, *, use_count: bool = True, backend: str | Backend = "auto",
                  enumeration_limit: int = NODES, topology: Topology | None = None,
                  budget: Budget = UNLIMITED) -> Outcome:
    """:func:`solvable` on flat indices (``r * width + c``), without a Position (on
    ``topology``, the square grid by default).

    The survey's inner loop. Cost: a few steps per cell revealed or flagged and per clue near
    it, plus the exact steps (see :func:`solvable`); memory a few bytes per cell.

    Raises
    ------
    ParameterError
        When ``start`` is off the board or on a mine.
    """
    cells = width * height
    if not 0 <= start < cells:
        raise ParameterError("start", start, f"is off the {width}x{height} board "
                                             f"(cells 0 to {cells - 1})")
    game = Game(board_from_indices(width, height, mine_indices, topology))
    if divmod(start, width) in game.board.mine_cells:
        raise ParameterError("start", start, "holds a mine: the first click must be safe")
    solver = Solver(game, len(mine_indices), use_count, backend, enumeration_limit)
    return solver.run([start], [], budget)


def solve_from(width: int, height: int, mine_indices: list[int] | tuple[int, ...],
               safe: list[int], flagged: list[int], *, use_count: bool = True,
               backend: str | Backend = "auto", enumeration_limit: int = NODES,
               topology: Topology | None = None, budget: Budget = UNLIMITED) -> Outcome:
    """:func:`solve_indices` resumed from a known state instead of a first click: the cells
    ``safe`` revealed (zeros flood, as clicks do) and ``flagged`` flagged, then the same
    deduction until it is stuck or every safe cell is revealed.

    For a generator that moved a mine where a check got stuck: it re-deduces a window of
    the board around the move from what the check had proved there, instead of the whole
    board from its first click (an answer about the window, not a certificate of the board).

    Raises
    ------
    ParameterError
        When a ``safe`` cell holds a mine or a ``flagged`` one does not, or either is off
        the board.
    """
    off = [i for i in (*safe, *flagged) if not 0 <= i < width * height]
    if off:
        raise ParameterError("safe" if off[0] in safe else "flagged", off[0],
                             f"is off the {width}x{height} board")
    game = Game(board_from_indices(width, height, mine_indices, topology))
    solver = Solver(game, len(mine_indices), use_count, backend, enumeration_limit)
    hidden = solver.hidden
    wrong = [i for i in safe if hidden[i]] or [i for i in flagged if not hidden[i]]
    if wrong:
        given = "safe" if hidden[wrong[0]] else "flagged"
        raise ParameterError(given, wrong[0], "contradicts the board")
    return solver.run(safe, flagged, budget)


class Solver:
    """The complete deduction on one board, kept between changes of the board: the hidden
    board (:class:`~exactmines.game.Game`, which floods zeros) and what has been proved
    (:class:`~exactmines.deduction.grid.Grid`, which keeps the clues near each change for
    the local rules).

    :meth:`run` deduces until every safe cell is revealed or nothing more can be proved;
    :meth:`move` moves mines on covered cells and deduces on from what was proved, looking
    again only at the clues the move changed (the local rules) and at the frontier's
    components the move changed (the exact step: a component met before is not enumerated
    again). For a generator that moves mines where deduction is stuck
    (:mod:`exactmines.solvability.build`); an answer about the moved board *from the state
    reached*, not a certificate from the first click (a proof made before a move may rest
    on a number the move changed).
    """

    def __init__(self, game: Game, mines: int, use_count: bool = True,
                 backend: str | Backend = "auto", enumeration_limit: int = NODES) -> None:
        self.game = game
        self.width = game.width
        self.hidden = [0] * (game.width * game.height)  # 1 on a mine (a list: see Grid)
        for r, c in game.board.mine_cells:
            self.hidden[r * game.width + c] = 1
        self.grid = new_grid(game.topology, mines)
        self.use_count = use_count
        self.backend = backend
        self.limit = enumeration_limit
        self.steps = 0
        self.exact_steps = 0
        self.count_deductions = 0
        # Summaries of components by their rules over their own cells (numbered 0, 1, ...
        # in row-major order): a component seen again anywhere is not enumerated again.
        self.cache: dict[tuple[Rule, ...], _Summary] = {}

    def apply(self, safe: list[int], mines: list[int]) -> None:
        """Flag ``mines``, reveal ``safe`` (the game floods zeros)."""
        game, width, grid, hidden = self.game, self.width, self.grid, self.hidden
        # Soundness: a proof the hidden board contradicts is a bug, never an answer.
        wrong = [i for i in safe if hidden[i]] or [i for i in mines if not hidden[i]]
        if wrong:
            raise SolverError(f"the no-guess check proved cell {divmod(wrong[0], width)} "
                              f"{'safe' if wrong[0] in safe else 'a mine'}, which the board "
                              "contradicts (a bug in the deduction)")
        grid.mark_mines(mines)
        if not safe:
            return
        self.steps += 1
        numbers = game.numbers
        grid.show([(i, numbers[i]) for i in game.reveal_indices(safe)])

    def run(self, safe: list[int], mines: list[int], budget: Budget = UNLIMITED,
            exact: bool = True) -> Outcome:
        """Reveal ``safe``, flag ``mines``, then deduce until stuck or won, within
        ``budget`` (with ``exact`` false, the local rules only: stuck may then not be
        stuck for the complete deduction)."""
        self.apply(safe, mines)
        game, grid = self.game, self.grid
        while not game.won:
            # Steps 1 and 2: one clue, else two, near what changed.
            safe, mines = local_deductions(grid)
            if not (safe or mines):
                if not exact:
                    break
                budget.check("deducing")
                safe, mines = self.exact_step(budget)
                if not (safe or mines):
                    break
            self.apply(safe, mines)
        return self.outcome()

    def outcome(self) -> Outcome:
        """Where deduction stands."""
        game, grid = self.game, self.grid
        return Outcome(game.revealed, grid.mines, game.safe_mask, self.steps,
                       self.exact_steps, self.count_deductions)

    def move(self, cells: list[int], budget: Budget = UNLIMITED,
             exact: bool = True) -> Outcome:
        """Toggle the mine of each covered cell of ``cells`` (as many leave as arrive; a
        flagged cell losing its mine is unflagged first), then deduce on (:meth:`run`).

        Raises
        ------
        ParameterError
            When a cell is revealed or off the board, or the mine count would change.
        """
        area = len(self.hidden)
        grid, game, hidden = self.grid, self.game, self.hidden
        off = [i for i in cells if not 0 <= i < area]
        if off:
            raise ParameterError("cells", off[0], "is off the board")
        grid.unflag([i for i in cells if hidden[i]])
        try:
            changed = game.move_mines(cells)
        except ValueError as error:
            raise ParameterError("cells", sorted(cells), str(error)) from None
        for i in cells:
            hidden[i] ^= 1
        numbers = game.numbers
        grid.renumber([(i, numbers[i]) for i in changed])
        return self.run([], [], budget, exact)

    # -- step 3: exact ------------------------------------------------------------------

    def exact_step(self, budget: Budget = UNLIMITED) -> tuple[list[int], list[int]]:
        """Every cell that is safe or a mine in all consistent layouts (count included),
        within ``budget``.

        Cost: a few steps per clue still touching an unknown cell, plus the enumeration of
        the components not met before.
        """
        self.exact_steps += 1
        grid = self.grid
        clues = grid.clues()
        safe: list[int] = []
        mines: list[int] = []
        parts = []
        frontier = 0
        for members in group([covered for covered, _ in clues]):
            cells = sorted({i for j in members for i in clues[j][0]})
            frontier += len(cells)
            local = {i: k for k, i in enumerate(cells)}
            rules = tuple(sorted({(sum(1 << local[i] for i in clues[j][0]), clues[j][1])
                                  for j in members}))
            summary = self.cache.get(rules)
            if summary is None:
                summary = self.cache[rules] = _summarise(rules, self.limit, self.engine,
                                                         budget)
            parts.append((cells, summary))
        numbers_each = [summary.numbers for _, summary in parts]
        unknown = self.width * self.game.height - self.game.revealed_count - grid.flagged
        outside = unknown - frontier
        left = grid.mines_left
        allowed = (allowed_mine_numbers(numbers_each, outside, left) if self.use_count
                   else numbers_each)
        for (cells, summary), ok, every in zip(parts, allowed, numbers_each, strict=True):
            whole = (1 << len(cells)) - 1
            can_mine, can_clear = summary.verdicts(ok, budget)
            proved_safe, proved_mine = whole & ~can_mine, whole & ~can_clear
            safe.extend(cells[k] for k in set_bits(proved_safe))
            mines.extend(cells[k] for k in set_bits(proved_mine))
            if ok != every:
                loose_mine, loose_clear = summary.verdicts(every, budget)
                self.count_deductions += ((proved_safe & loose_mine)
                                          | (proved_mine & loose_clear)).bit_count()
        if self.use_count and outside:
            total = feasible_sums(allowed)
            if not fits(total, left - outside, left - 1):
                safe.extend(self.outside(parts))
                self.count_deductions += outside
            elif not fits(total, left - outside + 1, left):
                mines.extend(self.outside(parts))
                self.count_deductions += outside
        return sorted(safe), sorted(mines)

    def engine(self) -> Backend:
        """The backend's engine, made on first use and kept for the run (what it learns
        about one component serves the next question about it)."""
        if isinstance(self.backend, str):
            self.backend = get_backend(self.backend)
        return self.backend

    def outside(self, parts: list[tuple[list[int], _Summary]]) -> list[int]:
        """The unknown cells next to no clue (one pass over the board: at most twice a run,
        since they are then all revealed or all flagged)."""
        frontier = {i for cells, _ in parts for i in cells}
        return [i for i in indices_of(self.grid.unknown) if i not in frontier]


def set_bits(mask: int) -> list[int]:
    """The set bits of a mask of a few bits, ascending: what
    :func:`~exactmines.position.indices_of` gives, peeled off one at a time in compiled
    code (the exact step asks for two per component; ``build`` for a move's cells)."""
    out: list[int] = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


class _Summary(ABC):
    """What the exact step needs from one component: its possible mine numbers, and for a
    set of allowed mine numbers, which cells can be a mine and which can be clear (masks over
    the component's own cells)."""

    numbers: frozenset[int]

    @abstractmethod
    def verdicts(self, allowed: frozenset[int], budget: Budget) -> tuple[int, int]:
        """(cells some allowed layout mines, cells some allowed layout leaves clear), found
        within ``budget``."""


class _Enumerated(_Summary):
    """Per mine number ``k``: the cells some and every layout with ``k`` mines mines
    (:func:`~exactmines.deduction.search.extremes`)."""

    def __init__(self, cells: int, by_number: dict[int, tuple[int, int]]) -> None:
        self.cells = cells
        self.by_number = by_number
        self.numbers = frozenset(by_number)

    def verdicts(self, allowed: frozenset[int], budget: Budget) -> tuple[int, int]:
        union, common = 0, self.cells
        for k in allowed:
            some, every = self.by_number[k]
            union |= some
            common &= every
        return union, self.cells & ~common


class _ByBackend(_Summary):
    """A component too large to enumerate, answered by a backend."""

    def __init__(self, component: Component, box_masks: tuple[int, ...],
                 engine: Backend, budget: Budget) -> None:
        self.component = component
        self.box_masks = box_masks
        self.engine = engine
        self.numbers = engine.mine_numbers(component, budget=budget)

    def verdicts(self, allowed: frozenset[int], budget: Budget) -> tuple[int, int]:
        facts = self.engine.deduce(self.component, allowed, budget=budget)
        if not facts.complete:  # an unproved cell here would read as a guess
            raise OutOfTime("time limit reached while proving safe cells and mines")
        can_mine = can_clear = 0
        for mask, mine, clear in zip(self.box_masks, facts.can_mine, facts.can_clear,
                                     strict=True):
            if mine:
                can_mine |= mask
            if clear:
                can_clear |= mask
        return can_mine, can_clear


#: Enumerated components by their rules over their own cells, shared by every run: the same
#: small shapes recur from board to board (a survey's boards, a generator's attempts). Only
#: enumerations are kept (exact whatever the budget they were found under); cleared past
#: ``_KEPT`` entries.
_ENUMERATED: dict[tuple[Rule, ...], _Enumerated] = {}
_KEPT = 50_000


def _summarise(rules: tuple[Rule, ...], limit: int, engine: Callable[[], Backend],
               budget: Budget) -> _Summary:
    """The component's layouts enumerated (at most ``limit`` search nodes), else handed to
    the backend ``engine()`` gives (``limit`` 0: always), within ``budget``."""
    if limit > 0:
        found = _ENUMERATED.get(rules)
        if found is not None:
            return found
        try:
            by_number = extremes(rules, limit)
        except TooLarge:
            pass
        else:
            cells = 0
            for free, _ in rules:
                cells |= free
            if len(_ENUMERATED) >= _KEPT:
                _ENUMERATED.clear()
            found = _ENUMERATED[rules] = _Enumerated(cells, by_number)
            return found
    made, box_masks = component(rules)
    return _ByBackend(made, box_masks, engine(), budget)


# -- uniqueness ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Uniqueness:
    """Does a position have exactly one consistent layout?

    Attributes
    ----------
    consistent:
        At least one layout fits the numbers (and the count, when known).
    unique:
        Consistent, and exactly one layout (docs/contract.md §2: every covered cell safe or a mine).
    reason:
        Why not unique, in words (empty when unique).
    """

    consistent: bool
    unique: bool
    reason: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"consistent": self.consistent, "unique": self.unique, "reason": self.reason}

    def __reduce__(self) -> tuple[object, ...]:
        # Spelled out: compiled by mypyc (setup.py), a frozen dataclass does not unpickle.
        return (Uniqueness, (self.consistent, self.unique, self.reason))


def is_unique(position: Position, *, backend: str | Backend = "sat",
              budget: Budget = UNLIMITED) -> Uniqueness:
    """Exactly one layout? Decided by stopping at the second layout, never counting.

    Each component is asked for up to two layouts (``backend.layouts_up_to``; with SAT, the
    default, a model, then a blocking clause over its box counts); only a component with two
    or more is asked which mine numbers it can hold, and the total count (when known)
    decides whether those can coexist: two allowed mine numbers give two global layouts, so
    do ``0 < m < U`` mines left for ``U`` cells off the frontier.

    Without a total count, cells off the frontier are never determined, so a position with
    any is not unique (as :attr:`Analysis.unique`).

    Raises
    ------
    OutOfTime
        When ``budget`` runs out before the answer: every question to the engine is asked
        under it.

    Notes
    -----
    Cost with SAT: two solves per component, plus one per possible mine number for
    components with several layouts.
    """
    engine = get_backend(backend) if isinstance(backend, str) else backend
    frontier = build_frontier(position)
    if frontier.contradiction:
        return Uniqueness(False, False, frontier.contradiction)
    left, outside = frontier.mines_left, len(frontier.outside)
    first = [engine.layouts_up_to(comp, 2, budget=budget) for comp in frontier.components]
    if any(n == 0 for n, _ in first):
        return Uniqueness(False, False, "the numbers cannot all be satisfied")
    if left is None:
        if outside:
            return Uniqueness(True, False, "the total is unknown, with "
                                           f"{plural(outside, 'covered cell')} touching no "
                                           "number")
        if any(n > 1 for n, _ in first):
            return Uniqueness(True, False, "a component has two layouts")
        return Uniqueness(True, True)
    # The mine numbers seen so far are some of each component's possible numbers, and
    # fewer options for the others only shrink what a component is allowed: two layouts
    # seen with allowed numbers are two global layouts, with no further question asked.
    seen_allowed = allowed_mine_numbers([seen for _, seen in first], outside, left)
    for (n, seen), ok in zip(first, seen_allowed, strict=True):
        if len(seen & ok) > 1:
            return Uniqueness(True, False, "a component can hold two different numbers of "
                                           "mines")
        if n > 1 and len(seen) == 1 and seen <= ok:
            return Uniqueness(True, False, "a component has two layouts with the same number "
                                           "of mines")
    # Otherwise ask the several-layout components which numbers they can hold at all.
    numbers = [engine.mine_numbers(comp, budget=budget) if n > 1 else seen
               for comp, (n, seen) in zip(frontier.components, first, strict=True)]
    allowed = allowed_mine_numbers(numbers, outside, left)
    if any(not a for a in allowed):
        return Uniqueness(False, False, "no layout fits the numbers and the mine count")
    if any(len(a) > 1 for a in allowed):
        return Uniqueness(True, False, "a component can hold two different numbers of mines")
    rest = left - sum(min(a) for a in allowed)
    if 0 < rest < outside:
        return Uniqueness(True, False, f"{plural(rest, 'mine')} left for "
                                       f"{plural(outside, 'cell')} off the "
                                       "frontier")
    for comp, (n, _), a in zip(frontier.components, first, allowed, strict=True):
        if n > 1 and engine.layouts_up_to(comp, 2, a, budget=budget)[0] > 1:
            return Uniqueness(True, False, "a component has two layouts with the same number "
                                           "of mines")
    return Uniqueness(True, True)
