"""The player's view on any topology: :class:`TableView` (another topology than the square
grid, on the neighbour table's :class:`~exactmines.deduction.table_grid.TableGrid`), what the
strategy reads of either view (:class:`PlayerView`) and :func:`new_view` choosing one.

Apart from :mod:`exactmines.play.view` because that module is compiled (setup.py), and a
compiled class may not subclass the pure-Python TableGrid.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Sequence
from typing import Protocol

from exactmines.analysis.frontier import Rule
from exactmines.deduction.table_grid import TableGrid
from exactmines.play.view import View
from exactmines.topology import Topology

__all__ = ["TableView", "PlayerView", "new_view"]


class TableView(TableGrid):
    """The player's :class:`~exactmines.deduction.table_grid.TableGrid` on another topology
    than the square grid, with ``masks`` as :class:`View`'s."""

    __slots__ = ("masks",)

    def __init__(self, topology: Topology, total: int) -> None:
        super().__init__(topology, total)
        self.masks: Sequence[int] = topology.masks()

    def copy(self) -> TableView:
        """An independent copy, as :meth:`View.copy`. Cost: a pass over the board."""
        other = copy.copy(self)
        other.copy_state_from(self)
        return other


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

    def copy(self) -> PlayerView: ...


def new_view(topology: Topology, total: int) -> View | TableView:
    """A player's view at the start of a game of ``total`` mines on ``topology``."""
    if topology.is_square:
        return View(topology.width, topology.height, total)
    return TableView(topology, total)
