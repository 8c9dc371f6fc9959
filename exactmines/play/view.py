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

from exactmines.deduction.grid import Grid
from exactmines.topology import Topology, square

__all__ = ["View"]


class View(Grid):
    """The player's :class:`~exactmines.deduction.grid.Grid`, with the board's ``topology``
    (the square grid) and ``masks``: per cell, its neighbours as a bitmask
    (:meth:`~exactmines.topology.Topology.masks`: a table kept per size on boards up to
    4096 cells, each mask made when asked on larger ones)."""

    __slots__ = ("masks", "topology")

    def __init__(self, width: int, height: int, total: int) -> None:
        super().__init__(width, height, total)
        self.topology: Topology = square(width, height)
        self.masks: Sequence[int] = self.topology.masks()

    def copy(self) -> View:
        """An independent copy: deductions and marks made on it leave this view as it is
        (the topology and neighbour masks, never changed, are shared). Cost: a pass over
        the board."""
        other = copy.copy(self)
        other.copy_state_from(self)
        return other
