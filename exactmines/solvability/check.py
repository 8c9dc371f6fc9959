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
2. pairwise rules over overlapping clues near what changed (the "1-2" patterns);
3. the exact step: the frontier cut into independent components, each component's
   layouts enumerated once (cached until one of its clues changes), combined under the total
   count with :func:`~exactmines.analysis.combine.allowed_mine_numbers`. Components too big to
   enumerate go to a counting backend's ``mine_numbers``/``deduce``, which are exact too.

Only step 3 matters for correctness; steps 1-2 are there because most positions on the way
never need it.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from exactmines.analysis.backends import Backend, get_backend
from exactmines.analysis.combine import allowed_mine_numbers, feasible_sums, fits
from exactmines.analysis.frontier import Component, Constraint, Rule, build_frontier, group_rules
from exactmines.errors import InputError
from exactmines.io.formats import position_to_mine
from exactmines.position import (
    Board,
    Cell,
    Position,
    dilate,
    flood,
    indices_of,
    neighbour_masks,
    neighbour_table,
)

__all__ = [
    "Solvability",
    "Outcome",
    "Uniqueness",
    "solvable",
    "solve_indices",
    "is_unique",
    "ENUMERATION_LIMIT",
    "MAX_BOARD_CELLS",
]

#: Search nodes one component may take in the built-in enumeration before it is handed to
#: the backend instead (enumeration is the fastest way for the small components of ordinary
#: play; a few thousand nodes is a few milliseconds).
ENUMERATION_LIMIT = 4000

#: Largest board :func:`solvable` takes. Cells are bits of Python ints, so each operation
#: costs O(cells / 64) and the cached neighbour masks take about cells^2 / 16 bytes
#: (40,000 cells, e.g. 200x200: ~140 MB).
MAX_BOARD_CELLS = 40_000


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
        """The SPEC §3 JSON object; ``stuck`` is the stuck position as ``.mine`` text."""
        return {
            "solvable": self.solvable,
            "at": list(self.at),
            "revealed": self.revealed,
            "safe_cells": self.safe_cells,
            "mines_found": self.mines_found,
            "steps": self.steps,
            "exact_steps": self.exact_steps,
            "count_deductions": self.count_deductions,
            "stuck": None if self.stuck is None else position_to_mine(self.stuck),
        }


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


def solvable(board: Board, at: Cell, *, use_count: bool = True,
             backend: str | Backend = "auto",
             enumeration_limit: int = ENUMERATION_LIMIT) -> Solvability:
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
        Search nodes per component before it goes to ``backend`` (0 sends every component
        there: slow, but a second, independent route to the same answers).

    Raises
    ------
    InputError
        When ``at`` is off the board or on a mine.

    Notes
    -----
    Cost: bitmask operations over the clues near each change; the exact step enumerates the
    layouts of each changed component (exponential in the worst case, bounded by
    ``enumeration_limit`` before the backend takes over).
    """
    if board.width * board.height > MAX_BOARD_CELLS:
        raise InputError(f"a {board.width}x{board.height} board has more than the "
                         f"{MAX_BOARD_CELLS} cells the no-guess check takes", source="board")
    r, c = at
    if not (0 <= r < board.height and 0 <= c < board.width):
        raise InputError(f"row {r}, col {c} is off the {board.width}x{board.height} board",
                         source="first click")
    if at in board.mine_cells:
        raise InputError(f"row {r}, col {c} holds a mine", source="first click")
    width = board.width
    indices = [rr * width + cc for rr, cc in board.mine_cells]
    outcome = solve_indices(width, board.height, indices, r * width + c, use_count=use_count,
                            backend=backend, enumeration_limit=enumeration_limit)
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


@lru_cache(maxsize=64)
def _pair_masks(width: int, height: int) -> tuple[int, ...]:
    """Per cell, the cells within two steps (their neighbourhoods can overlap), itself out."""
    out = []
    for r in range(height):
        for c in range(width):
            mask = 0
            for rr in range(max(r - 2, 0), min(r + 3, height)):
                for cc in range(max(c - 2, 0), min(c + 3, width)):
                    if (rr, cc) != (r, c):
                        mask |= 1 << (rr * width + cc)
            out.append(mask)
    return tuple(out)


def solve_indices(width: int, height: int, mine_indices: list[int] | tuple[int, ...],
                  start: int, *, use_count: bool = True, backend: str | Backend = "auto",
                  enumeration_limit: int = ENUMERATION_LIMIT) -> Outcome:
    """:func:`solvable` on flat indices (``r * width + c``), without validation or Position.

    The survey's inner loop; ``start`` must be a safe cell.
    """
    table = neighbour_table(width, height)
    numbers = [0] * (width * height)
    mine_mask = 0
    for i in mine_indices:
        mine_mask |= 1 << i
        for n in table[i]:
            numbers[n] += 1
    assert not (mine_mask >> start) & 1, "the first click must be safe"
    everything = (1 << (width * height)) - 1
    # Safe cells with no mine around: everything a mine's neighbourhood does not reach.
    zeros = everything & ~dilate(mine_mask, width, height)
    solver = _Solver(width, height, numbers, mine_mask, zeros, len(mine_indices),
                     use_count, backend, enumeration_limit)
    return solver.run(start)


class _Solver:
    """One run of the deduction loop; all sets of cells are bitmasks over flat indices.

    A *clue* is a revealed cell; it is *active* while it has covered, unflagged neighbours.
    ``dirty`` / ``pair_dirty`` hold the clues near a change since the single-clue / the
    pairwise rules last looked at them: only those can yield something new.
    """

    def __init__(self, width: int, height: int, numbers: list[int], mine_mask: int,
                 zeros: int, mines: int, use_count: bool, backend: str | Backend,
                 enumeration_limit: int) -> None:
        self.width, self.height = width, height
        self.masks = neighbour_masks(width, height)
        self.pairs = _pair_masks(width, height)
        self.numbers = numbers
        self.mine_mask = mine_mask
        self.zeros = zeros
        self.mines = mines
        self.everything = (1 << (width * height)) - 1
        self.safe_mask = self.everything & ~mine_mask
        self.use_count = use_count
        self.backend = backend
        self.limit = enumeration_limit
        self.revealed = 0
        self.flagged = 0
        self.dirty = 0
        self.pair_dirty = 0
        self.steps = 0
        self.exact_steps = 0
        self.count_deductions = 0
        self.cache: dict[tuple[tuple[int, int], ...], _Summary] = {}

    def apply(self, safe: int, mines: int) -> None:
        """Flag ``mines``, reveal ``safe`` (flooding zeros); mark the clues near changes."""
        # Soundness is an invariant, not an input check: a wrong proof is a bug.
        assert not safe & self.mine_mask and not mines & self.safe_mask
        before = self.revealed
        self.flagged |= mines
        if safe:
            self.revealed = flood(before, safe, self.zeros, self.masks)
            self.steps += 1
        changed = (self.revealed & ~before) | mines
        near = dilate(changed, self.width, self.height) & self.revealed
        self.dirty |= near
        self.pair_dirty |= near

    def run(self, start: int) -> Outcome:
        self.apply(1 << start, 0)
        width, height, everything = self.width, self.height, self.everything
        while self.revealed != self.safe_mask:
            unknown = everything & ~(self.revealed | self.flagged)
            active = self.revealed & dilate(unknown, width, height)
            safe, mines = self.single_rules(unknown, active)
            if not (safe or mines):
                safe, mines = self.pair_rules(unknown, active)
            if not (safe or mines):
                safe, mines = self.exact_step(unknown, active)
                if not (safe or mines):
                    break
            self.apply(safe, mines)
        return Outcome(self.revealed, self.flagged, self.safe_mask, self.steps,
                        self.exact_steps, self.count_deductions)

    # -- step 1: one clue at a time -----------------------------------------------------

    def single_rules(self, unknown: int, active: int) -> tuple[int, int]:
        flagged, masks, numbers = self.flagged, self.masks, self.numbers
        safe = mines = 0
        dirty = self.dirty & active
        self.dirty = 0
        while dirty:
            low = dirty & -dirty
            dirty ^= low
            i = low.bit_length() - 1
            around = masks[i]
            free = around & unknown
            need = numbers[i] - (around & flagged).bit_count()
            if need == 0:
                safe |= free
            elif need == free.bit_count():
                mines |= free
        return safe, mines

    # -- step 2: two overlapping clues --------------------------------------------------

    def pair_rules(self, unknown: int, active: int) -> tuple[int, int]:
        flagged, masks, numbers, pairs = self.flagged, self.masks, self.numbers, self.pairs
        clue: dict[int, tuple[int, int, int]] = {}
        safe = mines = 0
        dirty = self.pair_dirty & active
        self.pair_dirty = 0
        # A pair is looked at once, from whichever of its clues comes first.
        done = 0
        while dirty:
            low = dirty & -dirty
            dirty ^= low
            done |= low
            i = low.bit_length() - 1
            found = clue.get(i)
            if found is None:
                around = masks[i]
                free_i = around & unknown
                found = (free_i, numbers[i] - (around & flagged).bit_count(),
                         free_i.bit_count())
                clue[i] = found
            free_i, need_i, size_i = found
            others = pairs[i] & active & ~done
            while others:
                low = others & -others
                others ^= low
                j = low.bit_length() - 1
                found = clue.get(j)
                if found is None:
                    around = masks[j]
                    free_j = around & unknown
                    found = (free_j, numbers[j] - (around & flagged).bit_count(),
                             free_j.bit_count())
                    clue[j] = found
                free_j, need_j, size_j = found
                shared = free_i & free_j
                if not shared:
                    continue
                # mines(only j) - mines(only i) = need_j - need_i; at its extreme the larger
                # side is full and the other empty.
                diff = need_j - need_i
                if diff == size_j - shared.bit_count():
                    mines |= free_j & ~free_i
                    safe |= free_i & ~free_j
                elif -diff == size_i - shared.bit_count():
                    mines |= free_i & ~free_j
                    safe |= free_j & ~free_i
        return safe, mines

    # -- step 3: exact ------------------------------------------------------------------

    def exact_step(self, unknown: int, active: int) -> tuple[int, int]:
        """Every cell that is safe or a mine in all consistent layouts (count included)."""
        self.exact_steps += 1
        masks, numbers, flagged = self.masks, self.numbers, self.flagged
        # Active clues grouped into components that share covered cells.
        rules: list[Rule] = []
        while active:
            low = active & -active
            active ^= low
            i = low.bit_length() - 1
            around = masks[i]
            rules.append((around & unknown, numbers[i] - (around & flagged).bit_count()))
        frontier = 0
        summaries = []
        for cells, key in group_rules(rules):
            frontier |= cells
            summary = self.cache.get(key)
            if summary is None:
                summary = _summarise(cells, list(key), self.limit, self.backend)
                self.cache[key] = summary
            summaries.append((cells, summary))
        numbers_each = [s.numbers for _, s in summaries]
        outside = unknown & ~frontier
        if self.use_count:
            left = self.mines - flagged.bit_count()
            allowed = allowed_mine_numbers(numbers_each, outside.bit_count(), left)
        else:
            allowed = numbers_each
        safe = mines = 0
        for (cells, summary), ok, every in zip(summaries, allowed, numbers_each, strict=True):
            can_mine, can_clear = summary.verdicts(ok)
            safe |= cells & ~can_mine
            mines |= cells & ~can_clear
            if ok != every:
                loose_mine, loose_clear = summary.verdicts(every)
                self.count_deductions += ((cells & ~can_mine & loose_mine)
                                          | (cells & ~can_clear & loose_clear)).bit_count()
        if self.use_count and outside:
            size = outside.bit_count()
            total = feasible_sums(allowed)
            if not fits(total, left - size, left - 1):
                safe |= outside
                self.count_deductions += size
            elif not fits(total, left - size + 1, left):
                mines |= outside
                self.count_deductions += size
        return safe, mines


class _Summary(ABC):
    """What the exact step needs from one component: its possible mine numbers, and for a
    set of allowed mine numbers, which cells can be a mine and which can be clear."""

    numbers: frozenset[int]

    @abstractmethod
    def verdicts(self, allowed: frozenset[int]) -> tuple[int, int]:
        """(cells some allowed layout mines, cells some allowed layout leaves clear)."""


class _Enumerated(_Summary):
    """Per mine number ``k``: the union and the intersection of the mine sets of the
    layouts with ``k`` mines."""

    def __init__(self, cells: int, by_number: dict[int, list[int]]) -> None:
        self.cells = cells
        self.by_number = by_number
        self.numbers = frozenset(by_number)

    def verdicts(self, allowed: frozenset[int]) -> tuple[int, int]:
        union, common = 0, self.cells
        for k in allowed:
            some, every = self.by_number[k]
            union |= some
            common &= every
        return union, self.cells & ~common


class _ByBackend(_Summary):
    """A component too large to enumerate, answered by a backend."""

    def __init__(self, component: Component, box_masks: list[int], engine: Backend) -> None:
        self.component = component
        self.box_masks = box_masks
        self.engine = engine
        self.numbers = engine.mine_numbers(component)

    def verdicts(self, allowed: frozenset[int]) -> tuple[int, int]:
        facts = self.engine.deduce(self.component, allowed)
        can_mine = can_clear = 0
        for mask, mine, clear in zip(self.box_masks, facts.can_mine, facts.can_clear,
                                         strict=True):
            if mine:
                can_mine |= mask
            if clear:
                can_clear |= mask
        return can_mine, can_clear


def _summarise(cells: int, rules: list[tuple[int, int]], limit: int,
               backend: str | Backend) -> _Summary:
    by_number = _enumerate(cells, rules, limit)
    if by_number is not None:
        return _Enumerated(cells, by_number)
    component, box_masks = _component(rules)
    engine = get_backend(backend) if isinstance(backend, str) else backend
    return _ByBackend(component, box_masks, engine)


def _component(rules: list[tuple[int, int]]) -> tuple[Component, list[int]]:
    """Rules over cells -> a :class:`Component` over boxes (cells under the same rules)."""
    under: dict[int, int] = {}
    for j, (free, _) in enumerate(rules):
        for i in indices_of(free):
            under[i] = under.get(i, 0) | (1 << j)
    boxes: dict[int, int] = {}
    for i in sorted(under):
        boxes[under[i]] = boxes.get(under[i], 0) | (1 << i)
    keys = list(boxes)
    box_masks = [boxes[k] for k in keys]
    constraints = tuple(
        Constraint(tuple(b for b, key in enumerate(keys) if (key >> j) & 1), need)
        for j, (_, need) in enumerate(rules))
    return Component(tuple(m.bit_count() for m in box_masks), constraints), box_masks


def _enumerate(cells: int, rules: list[tuple[int, int]],
               limit: int) -> dict[int, list[int]] | None:
    """Every layout of the component, folded into ``{k: [union, intersection]}`` of the
    mine sets with ``k`` mines; ``None`` past ``limit`` search nodes.

    Depth-first over cells with unit propagation (a rule whose mines are all placed clears
    the rest; one that needs all its free cells fills them), re-examining only the rules
    that touch newly assigned cells.
    """
    if limit <= 0:
        return None
    frees = [free for free, _ in rules]
    needs = [need for _, need in rules]
    touching: dict[int, int] = {}
    order: list[int] = []
    for j, free in enumerate(frees):
        for i in indices_of(free):
            bit = 1 << i
            if bit not in touching:
                touching[bit] = 0
                order.append(bit)
            touching[bit] |= 1 << j

    def propagate(mined: int, cleared: int, check: int) -> tuple[int, int] | None:
        while check:
            low = check & -check
            check ^= low
            j = low.bit_length() - 1
            free = frees[j]
            need = needs[j]
            placed = (free & mined).bit_count()
            if placed > need:
                return None
            rest = free & ~(mined | cleared)
            if not rest:
                if placed != need:
                    return None
                continue
            room = rest.bit_count()
            if placed == need:
                cleared |= rest
            elif placed + room == need:
                mined |= rest
            elif placed + room < need:
                return None
            else:
                continue
            while rest:
                low = rest & -rest
                check |= touching[low]
                rest ^= low
        return mined, cleared

    by_number: dict[int, list[int]] = {}
    first = propagate(0, 0, (1 << len(rules)) - 1)
    stack = [(first[0], first[1], 0)] if first is not None else []
    nodes = 0
    while stack:
        mined, cleared, at = stack.pop()
        nodes += 1
        if nodes > limit:
            return None
        settled = mined | cleared
        if settled == cells:
            k = mined.bit_count()
            entry = by_number.get(k)
            if entry is None:
                by_number[k] = [mined, mined]
            else:
                entry[0] |= mined
                entry[1] &= mined
            continue
        while order[at] & settled:
            at += 1
        bit = order[at]
        check = touching[bit]
        for branch in (propagate(mined, cleared | bit, check),
                       propagate(mined | bit, cleared, check)):
            if branch is not None:
                stack.append((branch[0], branch[1], at + 1))
    return by_number


# -- uniqueness ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Uniqueness:
    """Does a position have exactly one consistent layout?

    Attributes
    ----------
    consistent:
        At least one layout fits the numbers (and the count, when known).
    unique:
        Consistent, and exactly one layout (SPEC §2: every covered cell safe or a mine).
    reason:
        Why not unique, in words (empty when unique).
    """

    consistent: bool
    unique: bool
    reason: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"consistent": self.consistent, "unique": self.unique, "reason": self.reason}


def is_unique(position: Position) -> Uniqueness:
    """Exactly one layout? Decided with SAT, stopping at the second layout, never counting.

    Each component is asked for up to two layouts (a model, then a blocking clause over
    its box counts); only a component with two or more is asked which mine numbers it can
    hold, and the total count (when known) decides whether those can coexist: two allowed
    mine numbers give two global layouts, so do ``0 < m < U`` mines left for ``U`` cells off
    the frontier.

    Without a total count, cells off the frontier are never determined, so a position with
    any is not unique (as :attr:`Analysis.unique`).

    Notes
    -----
    Cost: two SAT solves per component, plus one per possible mine number for components
    with several layouts.
    """
    from exactmines.analysis.backends.sat import SatBackend

    engine = get_backend("sat")
    assert isinstance(engine, SatBackend)
    frontier = build_frontier(position)
    if frontier.contradiction:
        return Uniqueness(False, False, frontier.contradiction)
    left, outside = frontier.mines_left, len(frontier.outside)
    first = [engine.layouts_up_to(comp, 2) for comp in frontier.components]
    if any(n == 0 for n, _ in first):
        return Uniqueness(False, False, "the numbers cannot all be satisfied")
    if left is None:
        if outside:
            return Uniqueness(True, False, f"{outside} covered cells touch no number and the "
                                           "total is unknown")
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
    numbers = [engine.mine_numbers(comp) if n > 1 else seen
               for comp, (n, seen) in zip(frontier.components, first, strict=True)]
    allowed = allowed_mine_numbers(numbers, outside, left)
    if any(not a for a in allowed):
        return Uniqueness(False, False, "no layout fits the numbers and the mine count")
    if any(len(a) > 1 for a in allowed):
        return Uniqueness(True, False, "a component can hold two different numbers of mines")
    rest = left - sum(min(a) for a in allowed)
    if 0 < rest < outside:
        return Uniqueness(True, False, f"{rest} mines left for {outside} cells off the "
                                       "frontier")
    for comp, (n, _), a in zip(frontier.components, first, allowed, strict=True):
        if n > 1 and engine.layouts_up_to(comp, 2, a)[0] > 1:
            return Uniqueness(True, False, "a component has two layouts with the same number "
                                           "of mines")
    return Uniqueness(True, True)
