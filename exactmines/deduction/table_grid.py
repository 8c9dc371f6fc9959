"""What a player of certain moves knows on any topology, from its neighbour table.

The square grid's :class:`~exactmines.deduction.grid.Grid` keeps one byte per cell of a
padded grid and finds neighbours at fixed offsets; every other topology (torus, hex,
triangle, cube, offsets, a graph) keeps :class:`TableGrid` instead: the same state and the
same interface, one byte per cell indexed by flat index, each cell's neighbours looked up
in the topology's table. :func:`local_deductions` applies the same single-clue and pair
rules (:func:`~exactmines.deduction.rules.single`, :func:`~exactmines.deduction.rules.pair`)
to the clues near what changed, at a cost per click that does not grow with the board: a
pair's unknown neighbours are numbered locally, never as board-wide bitmasks.
"""

from __future__ import annotations

import copy as _copy
from collections.abc import Iterable, Sequence

from exactmines.analysis.frontier import Rule
from exactmines.deduction.rules import pair
from exactmines.topology import Topology, indices_of

__all__ = ["TableGrid", "local_deductions"]

_UNKNOWN, _REVEALED, _MINE = 0, 1, 2

#: State byte -> binary digit, for the bitmasks of :meth:`TableGrid._mask`.
_IS_REVEALED = bytes.maketrans(bytes(range(3)), b"010")
_IS_MINE = bytes.maketrans(bytes(range(3)), b"001")
_IS_UNKNOWN = bytes.maketrans(bytes(range(3)), b"100")


class TableGrid:
    """:class:`~exactmines.deduction.known.KnownGrid` on ``topology``, any but the square
    grid (whose fast path is :class:`~exactmines.deduction.grid.Grid`).

    Attributes
    ----------
    topology, width, height, total:
        The board, and its number of mines.
    numbers:
        ``numbers[i]``: what cell ``i`` shows (meaningless where it is not revealed).
    dirty, pair_dirty:
        Revealed cells near a change since the single-clue / the pair rules last looked at
        them (flat indices).
    """

    __slots__ = ("topology", "width", "height", "total", "everything", "numbers", "dirty",
                 "pair_dirty", "_table", "_state", "_free", "_flags", "_flagged", "_masks",
                 "_live")

    def __init__(self, topology: Topology, total: int) -> None:
        self.topology = topology
        self.width, self.height, self.total = topology.width, topology.height, total
        cells = topology.cells
        self.everything = (1 << cells) - 1
        self.numbers = [0] * cells
        self._table = topology.neighbour_table
        self._state = bytearray(cells)
        # Each cell's unknown and flagged neighbours, kept up to date by every change.
        self._free = list(map(len, self._table))
        self._flags = [0] * cells
        self._flagged = 0
        self.dirty: set[int] = set()
        self.pair_dirty: set[int] = set()
        self._masks: dict[bytes, int] = {}
        self._live: set[int] = set()

    def copy_state_from(self, other: TableGrid) -> None:
        """Take copies of ``other``'s changing parts (numbers, cell states, the clues to
        look at again), so that a shallow copy of ``other`` (``copy.copy``) becomes
        independent of it."""
        self.numbers = list(other.numbers)
        self.dirty, self.pair_dirty = set(other.dirty), set(other.pair_dirty)
        self._state, self._free, self._flags = (bytearray(other._state), list(other._free),
                                                list(other._flags))
        self._masks, self._live = dict(other._masks), set(other._live)

    def copy(self) -> TableGrid:
        """An independent copy, as :meth:`Grid.copy
        <exactmines.deduction.grid.Grid.copy>`. Cost: a pass over the board."""
        other = _copy.copy(self)
        other.copy_state_from(self)
        return other

    @property
    def masks(self) -> Sequence[int]:
        """Per cell, its neighbours as a bitmask (:meth:`Topology.masks
        <exactmines.topology.Topology.masks>`)."""
        return self.topology.masks()

    def show(self, shown: Iterable[tuple[int, int]]) -> None:
        """Cells newly revealed, as ``(flat index, number)`` (one already revealed is left
        as it is). Cost: a few steps per cell and neighbour."""
        state, numbers, dirty, free = self._state, self.numbers, self.dirty, self._free
        table, live = self._table, self._live
        for index, shows in shown:
            if state[index] != _UNKNOWN:
                if state[index] == _MINE:
                    raise ValueError(f"cell {index} is flagged as a mine: it cannot show a "
                                     "number")
                continue
            numbers[index] = shows
            state[index] = _REVEALED
            if free[index]:
                dirty.add(index)
                live.add(index)
            for q in table[index]:
                free[q] -= 1
                if state[q] == _REVEALED and free[q]:
                    dirty.add(q)
        self._masks.clear()

    def mark_mines(self, cells: int | Iterable[int]) -> None:
        """Cells proved to be mines, as a bitmask or flat indices; those already flagged are
        skipped."""
        if isinstance(cells, int):
            cells = indices_of(cells)
        state, dirty, free, flags, table = (self._state, self.dirty, self._free, self._flags,
                                            self._table)
        changed = False
        for index in cells:
            if state[index] != _UNKNOWN:
                if state[index] == _REVEALED:
                    raise ValueError(f"cell {index} is revealed: it cannot be a mine")
                continue
            state[index] = _MINE
            self._flagged += 1
            changed = True
            for q in table[index]:
                free[q] -= 1
                flags[q] += 1
                if state[q] == _REVEALED and free[q]:
                    dirty.add(q)
        if changed:
            self._masks.clear()

    def unflag(self, cells: Iterable[int]) -> None:
        """:meth:`Grid.unflag <exactmines.deduction.grid.Grid.unflag>`."""
        state, dirty, live, free, flags = (self._state, self.dirty, self._live, self._free,
                                           self._flags)
        for index in cells:
            if state[index] != _MINE:
                continue
            state[index] = _UNKNOWN
            self._flagged -= 1
            for q in self._table[index]:
                free[q] += 1
                flags[q] -= 1
                if state[q] == _REVEALED:
                    dirty.add(q)
                    live.add(q)
        self._masks.clear()

    def renumber(self, shown: Iterable[tuple[int, int]]) -> None:
        """:meth:`Grid.renumber <exactmines.deduction.grid.Grid.renumber>`."""
        for index, shows in shown:
            if self._state[index] != _REVEALED:
                continue
            self.numbers[index] = shows
            if self._free[index]:
                self.dirty.add(index)
                self.pair_dirty.add(index)
                self._live.add(index)

    def _mask(self, digits: bytes) -> int:
        found = self._masks.get(digits)
        if found is None:
            found = self._masks[digits] = int(self._state[::-1].translate(digits), 2)
        return found

    @property
    def revealed(self) -> int:
        return self._mask(_IS_REVEALED)

    @property
    def mines(self) -> int:
        return self._mask(_IS_MINE)

    @property
    def unknown(self) -> int:
        return self._mask(_IS_UNKNOWN)

    @property
    def mines_left(self) -> int:
        return self.total - self._flagged

    @property
    def flagged(self) -> int:
        return self._flagged

    def is_revealed(self, index: int) -> bool:
        return self._state[index] == _REVEALED

    def _unknown_around(self, index: int) -> list[int]:
        state = self._state
        return [q for q in self._table[index] if state[q] == _UNKNOWN]

    def clues(self) -> list[tuple[list[int], int]]:
        """Each revealed number that still touches an unknown cell: its unknown neighbours
        (flat indices, ascending) and the mines among them, in cell order."""
        live, free, flags, numbers = self._live, self._free, self._flags, self.numbers
        live.difference_update([p for p in live if not free[p]])
        return [(self._unknown_around(p), numbers[p] - flags[p]) for p in sorted(live)]

    def rules(self) -> list[Rule]:
        """:meth:`clues` as rules: unknown neighbours as a bitmask, and the mines among
        them."""
        out = []
        for cells, need in self.clues():
            mask = 0
            for q in cells:
                mask |= 1 << q
            out.append((mask, need))
        return out


def local_deductions(grid: TableGrid) -> tuple[list[int], list[int]]:
    """Cells (flat indices, ascending) proved safe and proved mines by one clue, else by two
    clues sharing an unknown cell: :func:`~exactmines.deduction.grid.local_deductions` on
    a :class:`TableGrid`.

    Only clues near a change since the last call are examined, so a call costs a few steps
    per such clue and its neighbours' neighbours, whatever the size of the board. Sound but
    incomplete: the exact analysis finds the rest.
    """
    state, free, flags, numbers = grid._state, grid._free, grid._flags, grid.numbers
    table = grid._table
    safe: set[int] = set()
    mines: set[int] = set()
    dirty = grid.dirty
    grid.dirty = set()
    pair_dirty = grid.pair_dirty
    for p in dirty:
        size = free[p]
        if not size:
            continue
        pair_dirty.add(p)
        need = numbers[p] - flags[p]
        if need == 0 or need == size:
            (safe if need == 0 else mines).update(grid._unknown_around(p))
    if safe or mines:
        return sorted(safe), sorted(mines)
    grid.pair_dirty = set()
    done: set[int] = set()  # a pair is looked at once, from whichever clue comes first
    for p in pair_dirty:
        if not free[p]:
            continue
        done.add(p)
        around = grid._unknown_around(p)
        need_p = numbers[p] - flags[p]
        partners = {j for u in around for j in table[u]
                    if state[j] == _REVEALED and free[j] and j not in done}
        for j in sorted(partners):
            other = grid._unknown_around(j)
            bit = {q: 1 << k for k, q in enumerate(dict.fromkeys(around + other))}
            mask_p = sum(bit[q] for q in around)
            mask_j = sum(bit[q] for q in other)
            proved_safe, proved_mines = pair(mask_p, need_p, mask_j, numbers[j] - flags[j])
            if proved_safe or proved_mines:
                cells = list(bit)
                safe.update(cells[k] for k in indices_of(proved_safe))
                mines.update(cells[k] for k in indices_of(proved_mines))
    return sorted(safe), sorted(mines)
