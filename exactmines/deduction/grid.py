"""What a player of certain moves knows, and the local rules it applies first.

The player (:mod:`exactmines.play`) and the no-guess check (:mod:`exactmines.solvability`)
both click every cell they prove safe and flag every cell they prove a mine; most of these
proofs come from one number, or two overlapping ones (:func:`local_deductions`), the exact
analysis being needed only where they are stuck. On a large board that is nearly every
cell, so this is the hot path of both, and its cost is kept to what a click changed,
whatever the size of the board: the state is one byte per cell on a grid padded with a
border of off-board cells (a neighbour is a fixed offset away, never out of range), the
clues to look at again are kept in sets, and the bitmasks over flat indices
``r * width + c`` that the analysis reads (:attr:`Grid.revealed`, :attr:`Grid.mines`,
:attr:`Grid.unknown`) are made when asked.
"""

from __future__ import annotations

import copy as _copy
from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Any, Final

from exactmines.analysis.frontier import Rule
from exactmines.deduction import table_grid
from exactmines.deduction.known import KnownGrid
from exactmines.deduction.rules import pair
from exactmines.position import dilate, indices_of
from exactmines.topology import Topology, square

__all__ = ["Grid", "local_deductions"]

# The state of a cell of the padded grid. (Final: mypyc writes a constant in the code,
# instead of a look-up in the module's globals at every use.)
_UNKNOWN: Final = 0
_REVEALED: Final = 1
_MINE: Final = 2
_OFF: Final = 3
#: Off-board cells around the board, on every side.
_PAD: Final = 2

#: State byte -> binary digit, for the bitmasks of :meth:`Grid._mask`.
_IS_REVEALED = bytes.maketrans(bytes(range(4)), b"0100")
_IS_MINE = bytes.maketrans(bytes(range(4)), b"0010")
_IS_UNKNOWN = bytes.maketrans(bytes(range(4)), b"1000")


@lru_cache(maxsize=16)
def _fresh(width: int, height: int) -> tuple[list[int], list[int]]:
    """The padded grid of a board with nothing known (every cell unknown, the border off
    the board) and :func:`_on_board_neighbours`, kept per size: a grid starts as copies (the
    no-guess check makes one per board it checks). Never changed: copied, not used."""
    stride = width + 2 * _PAD
    start = _PAD * stride + _PAD
    state = bytearray([_OFF]) * (stride * (height + 2 * _PAD))
    for r in range(height):
        state[start + r * stride:start + r * stride + width] = bytes(width)
    return list(state), list(_on_board_neighbours(width, height))


def _on_board_neighbours(width: int, height: int) -> bytearray:
    """Per cell of the padded grid, how many of its neighbours are on the board: the rows
    around it on the board times the columns, less itself when it is on the board. Made a
    row pattern at a time (a few kinds of rows), so in one linear pass of bytes."""
    stride = width + 2 * _PAD

    def around(i: int, length: int) -> int:  # lines i-1..i+1 of 0..length-1 (padded i)
        return len(range(max(i - _PAD - 1, 0), min(i - _PAD + 2, length)))

    columns = [around(c, width) for c in range(stride)]
    on_row = [_PAD <= c < _PAD + width for c in range(stride)]
    patterns: dict[tuple[int, bool], bytes] = {}
    rows = []
    for r in range(height + 2 * _PAD):
        key = (around(r, height), _PAD <= r < _PAD + height)
        if key not in patterns:
            rows_near, inside = key
            patterns[key] = bytes(rows_near * n - (inside and on)
                                  for n, on in zip(columns, on_row, strict=True))
        rows.append(patterns[key])
    return bytearray(b"".join(rows))


def _rebuilt(cls: type[Grid], size: tuple[int, int, int], state: dict[str, Any]) -> Grid:
    """A :class:`Grid` (or subclass) made anew and given the state of a pickled one."""
    made = cls(*size)
    for name, value in state.items():
        setattr(made, name, value)
    return made


#: What a :class:`Grid` knows beyond its size (what :meth:`Grid.__reduce__` keeps).
_STATE = ("numbers", "dirty", "pair_dirty", "_state", "_number", "_free", "_flags",
          "_flagged", "_live")


class Grid:
    """What a player of certain moves knows on the square grid: the numbers shown, the
    cells proved to be mines (flags) and the mine count. The square grid's fast path of
    :class:`~exactmines.deduction.known.KnownGrid` (every other topology has
    :class:`~exactmines.deduction.table_grid.TableGrid`); the player, the no-guess check
    and the replay judge use it as it is.

    Attributes
    ----------
    topology:
        The square grid of ``width`` x ``height`` (:func:`~exactmines.topology.square`).
    width, height, total:
        The board, and its number of mines.
    numbers:
        ``numbers[i]``: what cell ``i`` shows (meaningless where it is not revealed).
    dirty, pair_dirty:
        Revealed cells (padded indices) near a change since the single-clue / the pair
        rules last looked at them: only those can yield a new local deduction. The clues
        of ``dirty`` that still touch an unknown cell pass to ``pair_dirty`` when the
        single-clue rules take them.
    """

    __slots__ = ("topology", "width", "height", "total", "everything", "numbers", "dirty",
                 "pair_dirty", "_stride", "_start", "_state", "_number", "_free", "_flags",
                 "_offsets", "_flagged", "_masks", "_live")

    def __init__(self, width: int, height: int, total: int) -> None:
        self.width, self.height, self.total = width, height, total
        self.topology: Topology = square(width, height)
        self.everything = (1 << (width * height)) - 1
        self.numbers = [0] * (width * height)
        # Two off-board cells on every side: the pair rules look two steps away.
        stride = self._stride = width + 2 * _PAD
        self._start = _PAD * stride + _PAD  # the padded index of cell 0
        state, free = _fresh(width, height)
        # Lists, not bytearrays: compiled (setup.py), a list of small ints is read and
        # written in place, a bytearray through the generic item protocol (a third of
        # the no-guess check's time on small boards).
        self._state = state.copy()
        self._number = [0] * len(state)
        # Per cell of the padded grid, its unknown neighbours and its flagged ones, kept up
        # to date by every change: a clue's rule reads them in two steps.
        self._free = free.copy()
        self._flags = [0] * len(state)
        # A list (as the pair offsets below): compiled, a loop over a list is indexed,
        # over a tuple of any length it goes through the iterator protocol.
        self._offsets = [-stride - 1, -stride, -stride + 1, -1, 1, stride - 1, stride,
                         stride + 1]
        self._flagged = 0
        self.dirty: set[int] = set()
        self.pair_dirty: set[int] = set()
        self._masks: dict[bytes, int] = {}  # made bitmasks, until the next change
        self._live: set[int] = set()  # clues that touched an unknown cell when revealed

    def copy_state_from(self, other: Grid) -> None:
        """Take copies of ``other``'s changing parts (numbers, cell states, the clues to
        look at again), so that a shallow copy of ``other`` (``copy.copy``) becomes
        independent of it."""
        self.numbers = list(other.numbers)
        self.dirty, self.pair_dirty = set(other.dirty), set(other.pair_dirty)
        self._state, self._number = list(other._state), list(other._number)
        self._free, self._flags = list(other._free), list(other._flags)
        self._masks, self._live = dict(other._masks), set(other._live)

    def copy(self) -> Grid:
        """An independent copy: deductions and marks made on it leave this grid as it is
        (the topology, never changed, is shared). Cost: a pass over the board."""
        other = _copy.copy(self)
        other.copy_state_from(self)
        return other

    @property
    def masks(self) -> Sequence[int]:
        """Per cell, its neighbours as a bitmask (:meth:`Topology.masks
        <exactmines.topology.Topology.masks>`: a table kept per size on boards up to 4096
        cells, each mask made when asked on larger ones)."""
        return self.topology.masks()

    def __reduce__(self) -> tuple[Any, ...]:
        # Spelled out: compiled by mypyc (setup.py), an instance does not unpickle by itself.
        # The rest (the topology, the offsets) the constructor makes again.
        return (_rebuilt, (type(self), (self.width, self.height, self.total),
                           {name: getattr(self, name) for name in _STATE}))

    # -- the padded grid ---------------------------------------------------------------

    def padded(self, index: int) -> int:
        """The padded index of flat index ``index``."""
        return index + (index // self.width) * 2 * _PAD + self._start

    def flat(self, padded: int) -> int:
        """The flat index of padded index ``padded`` (a cell on the board)."""
        return padded - self._start - 2 * _PAD * (padded // self._stride - _PAD)

    # -- changes -------------------------------------------------------------------------

    def show(self, shown: Iterable[tuple[int, int]]) -> None:
        """Cells newly revealed, as ``(flat index, number)`` (one already revealed is left
        as it is). Cost: a few steps per cell."""
        state, number, numbers, dirty = self._state, self._number, self.numbers, self.dirty
        free, width, start, offsets = self._free, self.width, self._start, self._offsets
        live = self._live
        for index, shows in shown:
            p = index + (index // width) * 2 * _PAD + start
            if state[p] != _UNKNOWN:
                if state[p] == _MINE:
                    raise ValueError(f"cell {index} is flagged as a mine: it cannot show a "
                                     "number")
                continue
            numbers[index] = shows
            state[p] = _REVEALED
            number[p] = shows
            # The clues near the change that still touch an unknown cell: this one and its
            # revealed neighbours (one revealed later in the same call adds itself).
            if free[p]:
                dirty.add(p)
                live.add(p)
            for d in offsets:
                q = p + d
                free[q] -= 1
                if state[q] == _REVEALED and free[q]:
                    dirty.add(q)
        self._masks.clear()

    def mark_mines(self, cells: int | Iterable[int]) -> None:
        """Cells proved to be mines, as a bitmask or flat indices; those already flagged are
        skipped."""
        if isinstance(cells, int):
            cells = indices_of(cells)
        state, dirty, free, flags = self._state, self.dirty, self._free, self._flags
        width, start, offsets = self.width, self._start, self._offsets
        changed = False
        for index in cells:
            p = index + (index // width) * 2 * _PAD + start
            if state[p] != _UNKNOWN:
                if state[p] == _REVEALED:
                    raise ValueError(f"cell {index} is revealed: it cannot be a mine")
                continue
            state[p] = _MINE
            self._flagged += 1
            changed = True
            for d in offsets:
                q = p + d
                free[q] -= 1
                flags[q] += 1
                if state[q] == _REVEALED and free[q]:
                    dirty.add(q)
        if changed:
            self._masks.clear()

    def unflag(self, cells: Iterable[int]) -> None:
        """Flags taken off ``cells`` (flat indices; cells not flagged are skipped): they are
        unknown again, and the clues around them are looked at again. For a generator that
        moved the mine of a proved cell away (:mod:`exactmines.solvability.build`)."""
        state, dirty, live, free, flags = (self._state, self.dirty, self._live, self._free,
                                           self._flags)
        width, start, offsets = self.width, self._start, self._offsets
        for index in cells:
            p = index + (index // width) * 2 * _PAD + start
            if state[p] != _MINE:
                continue
            state[p] = _UNKNOWN
            self._flagged -= 1
            for d in offsets:
                q = p + d
                free[q] += 1
                flags[q] -= 1
                if state[q] == _REVEALED:
                    dirty.add(q)
                    live.add(q)
        self._masks.clear()

    def renumber(self, shown: Iterable[tuple[int, int]]) -> None:
        """Revealed cells that now show another number, as ``(flat index, number)`` (a mine
        moved next to them; cells not revealed are skipped): their rules are looked at
        again."""
        state, number, numbers, dirty = self._state, self._number, self.numbers, self.dirty
        width, start = self.width, self._start
        for index, shows in shown:
            p = index + (index // width) * 2 * _PAD + start
            if state[p] != _REVEALED:
                continue
            numbers[index] = shows
            number[p] = shows
            if self._free[p]:
                dirty.add(p)
                self.pair_dirty.add(p)
                self._live.add(p)

    # -- what the analysis reads ---------------------------------------------------------

    def _mask(self, digits: bytes) -> int:
        """The cells whose state ``digits`` maps to ``1``, as a bitmask over flat indices:
        the board's rows as binary digits, read by ``int`` in one linear pass (kept until
        the next change)."""
        found = self._masks.get(digits)
        if found is None:
            state, width, stride, start = self._state, self.width, self._stride, self._start
            cells = b"".join(bytes(state[start + r * stride:start + r * stride + width])
                             for r in range(self.height))
            # int reads the most significant digit first: the last cell first.
            found = self._masks[digits] = int(cells[::-1].translate(digits), 2)
        return found

    @property
    def revealed(self) -> int:
        """Revealed cells, as a bitmask."""
        return self._mask(_IS_REVEALED)

    @property
    def mines(self) -> int:
        """Cells proved to be mines (the player's flags), as a bitmask."""
        return self._mask(_IS_MINE)

    @property
    def unknown(self) -> int:
        """Covered cells not proved to be mines, as a bitmask."""
        return self._mask(_IS_UNKNOWN)

    @property
    def mines_left(self) -> int:
        return self.total - self._flagged

    def is_revealed(self, index: int) -> bool:
        return self._state[self.padded(index)] == _REVEALED

    def rules(self) -> list[Rule]:
        """One rule per revealed number that still touches an unknown cell: its unknown
        neighbours (a bitmask) and the mines among them (its number less its flags), in
        row-major order of the numbers. Cost: a few passes over the board's bitmasks, and
        a few steps per such number."""
        state, number, flags, offsets = self._state, self._number, self._flags, self._offsets
        out = []
        for i in indices_of(self.revealed & dilate(self.unknown, self.width, self.height)):
            p = self.padded(i)
            free = 0
            for d in offsets:
                if state[p + d] == _UNKNOWN:
                    free |= 1 << self.flat(p + d)
            out.append((free, number[p] - flags[p]))
        return out

    def clues(self) -> list[tuple[list[int], int]]:
        """Each revealed number that still touches an unknown cell: its unknown neighbours
        (flat indices, ascending) and the mines among them (its number less its flags), in
        row-major order of the numbers. Cost: a few steps per such number (numbers settled
        since the last call are dropped for good), whatever the size of the board."""
        state, number, flags, free = self._state, self._number, self._flags, self._free
        offsets, live, flat = self._offsets, self._live, self.flat
        live.difference_update([p for p in live if not free[p]])
        return [([flat(p + d) for d in offsets if state[p + d] == _UNKNOWN],
                 number[p] - flags[p]) for p in sorted(live)]

    @property
    def flagged(self) -> int:
        """How many cells are flagged (no pass over the board)."""
        return self._flagged

    def _flat(self, cells: set[int]) -> list[int]:
        """Padded indices -> flat indices, ascending."""
        return sorted(map(self.flat, cells))


#: The 7-wide frame in which :func:`local_deductions` compares two clues: a clue's unknown
#: neighbours, as bits ``(dr + 1) * 7 + (dc + 1)`` (in the order of ``Grid._offsets``),
#: are moved to another clue's frame by a shift.
_FRAME: Final = 7
_FRAME_BITS: Final = list(1 << ((dr + 1) * _FRAME + dc + 1)
                    for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc)
#: Where a clue sits in its own frame (row 3, column 3): the shift of its own bits.
_CENTRE: Final = 2 * _FRAME + 2


@lru_cache(maxsize=64)
def _pair_offsets(stride: int) -> tuple[list[int], list[int]]:
    """The padded offsets of every cell within two steps (the clues whose neighbourhoods
    can overlap a clue's), and in the same order the shifts of their frames into the frame
    of a clue two steps from its edge. Kept per stride: never changed."""
    near = [(dr, dc) for dr in range(-2, 3) for dc in range(-2, 3) if dr or dc]
    return ([dr * stride + dc for dr, dc in near],
            [(dr + 2) * _FRAME + dc + 2 for dr, dc in near])


def _frame(state: list[int], p: int, offsets: list[int]) -> int:
    """The frame bits (``_FRAME_BITS``) of the unknown neighbours of padded cell ``p``."""
    bits = 0
    for k in range(8):
        if state[p + offsets[k]] == _UNKNOWN:
            bits |= _FRAME_BITS[k]
    return bits


def _unframe(found: set[int], p: int, bits: int, stride: int) -> None:
    """Frame bits around clue ``p`` (at the frame's centre) -> padded indices, into
    ``found``."""
    for k in indices_of(bits):
        found.add(p + (k // _FRAME - 3) * stride + k % _FRAME - 3)


def local_deductions(grid: KnownGrid) -> tuple[list[int], list[int]]:
    """Cells (flat indices, ascending) proved safe and proved mines by one clue
    (:func:`~exactmines.deduction.rules.single`, read from the grid's counts of unknown and
    flagged neighbours), else by two overlapping clues
    (:func:`~exactmines.deduction.rules.pair`).

    Only clues near a change since the last call are examined (``grid.dirty``, then
    ``grid.pair_dirty``), so a call costs a few steps per such clue, whatever the size of
    the board: a clue's unknown neighbours are bits of a 7-wide frame around it (see
    ``_FRAME_BITS``), and a pair compares them shifted into one frame. Sound but incomplete:
    the exact analysis finds the rest. Another topology's
    :class:`~exactmines.deduction.table_grid.TableGrid` has its own table-driven rules.
    """
    if not isinstance(grid, Grid):
        assert isinstance(grid, table_grid.TableGrid)
        return table_grid.local_deductions(grid)
    state, number, offsets = grid._state, grid._number, grid._offsets
    free, flags, stride = grid._free, grid._flags, grid._stride
    safe: set[int] = set()
    mines: set[int] = set()
    dirty = grid.dirty
    grid.dirty = set()
    pair_dirty = grid.pair_dirty
    for p in dirty:
        size = free[p]
        if not size:  # the clue is settled for good: unknown cells only ever go
            continue
        pair_dirty.add(p)
        need = number[p] - flags[p]
        # single() read from the counts: it fires when no mine or every cell is left.
        if need == 0 or need == size:
            found = safe if need == 0 else mines
            for d in offsets:
                if state[p + d] == _UNKNOWN:
                    found.add(p + d)
    if safe or mines:
        return grid._flat(safe), grid._flat(mines)
    near, shifts = _pair_offsets(stride)
    grid.pair_dirty = set()
    # Frame bits of each clue's unknown neighbours, made once per call (a clue is in many
    # pairs); its mines needed are read from the counts (two bytes).
    frames: dict[int, int] = {}
    done: set[int] = set()  # a pair is looked at once, from whichever clue comes first
    for p in pair_dirty:
        if not free[p]:
            continue
        done.add(p)
        bits_i = frames.get(p, -1)
        if bits_i < 0:
            bits_i = frames[p] = _frame(state, p, offsets)
        mine = bits_i << _CENTRE
        need_i = number[p] - flags[p]
        for k in range(len(near)):
            j = p + near[k]
            if state[j] != _REVEALED or not free[j] or j in done:
                continue
            bits_j = frames.get(j, -1)
            if bits_j < 0:
                bits_j = frames[j] = _frame(state, j, offsets)
            proved_safe, proved_mines = pair(mine, need_i, bits_j << shifts[k],
                                             number[j] - flags[j])
            if proved_safe:
                _unframe(safe, p, proved_safe, stride)
            if proved_mines:
                _unframe(mines, p, proved_mines, stride)
    return grid._flat(safe), grid._flat(mines)
