"""What the player knows: :class:`~exactmines.deduction.grid.Grid` (the numbers shown, the
cells proved to be mines, the clues to look at again), plus the neighbour masks the exact
analysis reads.

The player applies :func:`~exactmines.deduction.grid.local_deductions` first and the exact
analysis (:func:`exactmines.play.strategy.estimate`) only where they are stuck; the grid
keeps the cost of a click to what it changed, whatever the size of the board.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import overload

from exactmines.deduction.grid import Grid
from exactmines.position import neighbour_masks

__all__ = ["View", "NeighbourMasks"]

#: Boards up to this many cells keep the whole table of neighbour masks
#: (:func:`~exactmines.position.neighbour_masks`, cached per size); a larger board's table
#: would hold ``cells`` masks of up to ``cells`` bits (about 60 GB for 1000x1000), so its
#: masks are made one at a time, when asked.
_TABLE_CELLS = 4096


class NeighbourMasks(Sequence[int]):
    """The neighbours of each cell as a bitmask over flat indices (``masks[i]``), like
    :func:`~exactmines.position.neighbour_masks` but each made when asked (a few shifts of
    a row of three bits): no table, whose memory would grow with the board squared."""

    __slots__ = ("width", "height")

    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height

    def __len__(self) -> int:
        return self.width * self.height

    @overload
    def __getitem__(self, index: int) -> int: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[int]: ...

    def __getitem__(self, index: int | slice) -> int | Sequence[int]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        width = self.width
        if not 0 <= index < width * self.height:
            raise IndexError(f"cell {index} is off the {width}x{self.height} board")
        r, c = divmod(index, width)
        low, high = max(c - 1, 0), min(c + 2, width)
        row = ((1 << (high - low)) - 1) << low  # the columns around c, in one row
        mask = 0
        for rr in range(max(r - 1, 0), min(r + 2, self.height)):
            mask |= row << (rr * width)
        return mask & ~(1 << index)


class View(Grid):
    """The player's :class:`~exactmines.deduction.grid.Grid`, with ``masks``: per cell, its
    neighbours as a bitmask (:class:`NeighbourMasks` on a large board)."""

    __slots__ = ("masks",)

    def __init__(self, width: int, height: int, total: int) -> None:
        super().__init__(width, height, total)
        self.masks: Sequence[int] = (neighbour_masks(width, height)
                                     if width * height <= _TABLE_CELLS
                                     else NeighbourMasks(width, height))

    def copy(self) -> View:
        """An independent copy: deductions and marks made on it leave this view as it is
        (the neighbour masks, never changed, are shared). Cost: a pass over the board."""
        other = copy.copy(self)
        other.copy_state_from(self)
        return other
