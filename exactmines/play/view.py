"""What the player knows: :class:`~exactmines.deduction.grid.Grid` (the numbers shown, the
cells proved to be mines, the clues to look at again), plus the neighbour masks the exact
analysis reads; :class:`TableView`, the same on any other topology than the square grid.

The player applies :func:`~exactmines.deduction.grid.local_deductions` first and the exact
analysis (:func:`exactmines.play.strategy.estimate`) only where they are stuck; the grid
keeps the cost of a click to what it changed, whatever the size of the board.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Protocol

from exactmines.analysis.frontier import Rule
from exactmines.deduction.grid import Grid
from exactmines.deduction.table_grid import TableGrid
from exactmines.topology import Topology, square

__all__ = ["View", "TableView", "PlayerView", "new_view"]


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


class TableView(TableGrid):
    """The player's :class:`~exactmines.deduction.table_grid.TableGrid` on another topology
    than the square grid, with ``masks`` as :class:`View`'s."""

    __slots__ = ("masks",)

    def __init__(self, topology: Topology, total: int) -> None:
        super().__init__(topology, total)
        self.masks: Sequence[int] = topology.masks()


class PlayerView(Protocol):
    """What the strategy reads of a view: :class:`View` or :class:`TableView`."""

    width: int
    height: int
    topology: Topology
    masks: Sequence[int]

    @property
    def revealed(self) -> int: ...

    @property
    def mines(self) -> int: ...

    @property
    def unknown(self) -> int: ...

    @property
    def mines_left(self) -> int: ...

    def rules(self) -> list[Rule]: ...

    def show(self, shown: Iterable[tuple[int, int]]) -> None: ...

    def mark_mines(self, cells: int | Iterable[int]) -> None: ...


def new_view(topology: Topology, total: int) -> View | TableView:
    """A player's view at the start of a game of ``total`` mines on ``topology``."""
    if topology.is_square:
        return View(topology.width, topology.height, total)
    return TableView(topology, total)
