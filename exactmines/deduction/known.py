"""The one protocol of what a player of certain moves knows, on any topology.

Two classes implement it: :class:`~exactmines.deduction.grid.Grid`, the square grid's fast
path (one byte per cell of a padded grid, neighbours at fixed offsets, compiled), and
:class:`~exactmines.deduction.table_grid.TableGrid`, every other topology (neighbours
looked up in the topology's table). :func:`~exactmines.deduction.new_grid` makes the one
that fits a topology; the player, the no-guess check and the replay judge read either
through :class:`KnownGrid` alone, and
:func:`~exactmines.deduction.grid.local_deductions` applies the same rules to both.

A protocol, not a shared base class: a class compiled by mypyc (``Grid``, setup.py) may
not be subclassed by a pure-Python one, nor subclass one, and the table path gains nothing
from being compiled.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Protocol

from exactmines.analysis.frontier import Rule
from exactmines.topology import Topology

__all__ = ["KnownGrid"]


class KnownGrid(Protocol):
    """The numbers shown, the cells proved to be mines (flags) and the mine count.

    Cells are flat indices ``r * width + c`` of the topology's sheet; bitmasks have bit
    ``i`` for cell ``i``. ``dirty`` and ``pair_dirty`` are the grid's own bookkeeping for
    :func:`~exactmines.deduction.grid.local_deductions` (in the grid's own numbering).
    """

    topology: Topology
    width: int
    height: int
    total: int
    everything: int
    numbers: list[int]

    @property
    def masks(self) -> Sequence[int]:
        """Per cell, its neighbours as a bitmask (:meth:`Topology.masks
        <exactmines.topology.Topology.masks>`)."""
        ...

    @property
    def revealed(self) -> int:
        """Revealed cells, as a bitmask."""
        ...

    @property
    def mines(self) -> int:
        """Cells proved to be mines, as a bitmask."""
        ...

    @property
    def unknown(self) -> int:
        """Covered cells not proved to be mines, as a bitmask."""
        ...

    @property
    def mines_left(self) -> int: ...

    @property
    def flagged(self) -> int: ...

    def is_revealed(self, index: int) -> bool: ...

    def show(self, shown: Iterable[tuple[int, int]]) -> None:
        """Cells newly revealed, as ``(flat index, number)``."""
        ...

    def mark_mines(self, cells: int | Iterable[int]) -> None:
        """Cells proved to be mines, as a bitmask or flat indices."""
        ...

    def unflag(self, cells: Iterable[int]) -> None:
        """Flags taken off ``cells`` (flat indices; cells not flagged are skipped): unknown
        again, and the clues around them looked at again (a generator moved a mine)."""
        ...

    def renumber(self, shown: Iterable[tuple[int, int]]) -> None:
        """Revealed cells that now show another number, as ``(flat index, number)``; cells
        not revealed are skipped."""
        ...

    def clues(self) -> list[tuple[list[int], int]]:
        """Each revealed number that still touches an unknown cell: its unknown neighbours
        (ascending) and the mines among them, in cell order."""
        ...

    def rules(self) -> list[Rule]:
        """:meth:`clues` as rules: unknown neighbours as a bitmask, and the mines among
        them."""
        ...

    def copy(self) -> KnownGrid:
        """An independent copy (the topology and neighbour masks, never changed, are
        shared). Cost: a pass over the board."""
        ...
