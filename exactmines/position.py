"""Positions (what a player sees) and boards (the hidden layout), on a topology.

Cells are ``(row, col)`` tuples, 0-based, row 0 at the top, on the sheet of the board's
:class:`~exactmines.topology.Topology` (the square grid unless told otherwise); which cells
a number counts is the topology's business. The square grid's helpers
(:func:`neighbour_table`, :func:`neighbour_masks`, :func:`dilate`, :func:`neighbours`) are
re-exported from :mod:`exactmines.topology` for the callers that take a width and height.
"""

from __future__ import annotations

from dataclasses import dataclass

from exactmines.mine_counts import mine_counts
from exactmines.topology import (
    Topology,
    char_number,
    dilate,
    indices_of,
    is_number_char,
    neighbour_masks,
    neighbour_table,
    neighbours,
    number_char,
    square,
)

__all__ = [
    "Cell",
    "COVERED",
    "FLAG",
    "Position",
    "Board",
    "Topology",
    "neighbour_table",
    "neighbour_masks",
    "neighbours",
    "flood",
    "dilate",
    "indices_of",
]

Cell = tuple[int, int]

COVERED = "H"
FLAG = "F"
_DIGITS = "012345678"


def flood(revealed: int, opened: int, zeros: int, masks: tuple[int, ...]) -> int:
    """The revealed cells after opening ``opened``, as the game does it (all bitmasks).

    Every opened cell that shows 0 (a bit of ``zeros``: safe cells with no mine around)
    opens its whole neighbourhood, and so on. ``opened`` must hold no mine; the flood then
    cannot reach one. ``masks`` is the board topology's
    :meth:`~exactmines.topology.Topology.masks`. Cost: one mask OR
    per zero reached.
    """
    new = opened & ~revealed
    revealed |= new
    wave = new & zeros
    while wave:
        grow = 0
        while wave:
            low = wave & -wave
            grow |= masks[low.bit_length() - 1]
            wave ^= low
        grow &= ~revealed
        revealed |= grow
        wave = grow & zeros
    return revealed


@dataclass(frozen=True, slots=True)
class Position:
    """What a player sees.

    Attributes
    ----------
    width, height:
        Board size in cells (the topology's sheet).
    mines:
        Total mines on the board, flags included; ``None`` when unknown.
    rows:
        ``height`` strings of ``width`` characters: revealed numbers (``'0'``-``'8'`` on
        the square grid; ``'9'``, then ``'a'`` = 10 and on where a cell has more
        neighbours, :func:`~exactmines.topology.number_char`), ``'H'`` covered, ``'F'``
        flagged (a trusted mine).
    topology:
        Which cells each number counts; the square grid of ``width`` x ``height`` when not
        given.
    """

    width: int
    height: int
    mines: int | None
    rows: tuple[str, ...]
    topology: Topology = None  # type: ignore[assignment]  # the square grid, set below

    def __post_init__(self) -> None:
        if len(self.rows) != self.height or any(len(r) != self.width for r in self.rows):
            raise ValueError("rows do not match width x height")
        _set_topology(self)

    def char(self, cell: Cell) -> str:
        return self.rows[cell[0]][cell[1]]

    def number(self, cell: Cell) -> int | None:
        """The revealed number at ``cell``, or ``None`` if it is covered or flagged."""
        ch = self.rows[cell[0]][cell[1]]
        if ch in _DIGITS:
            return int(ch)
        return char_number(ch) if is_number_char(ch) else None

    def cells_where(self, chars: str) -> list[Cell]:
        """All cells whose character is one of ``chars``, row-major."""
        return [
            (r, c) for r, row in enumerate(self.rows) for c, ch in enumerate(row) if ch in chars
        ]

    @property
    def covered(self) -> list[Cell]:
        """Covered, unflagged cells, row-major: the unknowns."""
        return self.cells_where(COVERED)

    @property
    def flags(self) -> list[Cell]:
        return self.cells_where(FLAG)

    @property
    def mines_left(self) -> int | None:
        """Mines not yet flagged, or ``None`` when the total is unknown."""
        return None if self.mines is None else self.mines - len(self.flags)

    def neighbours(self, cell: Cell) -> list[Cell]:
        return self.topology.neighbours(cell)

    def with_mines(self, mines: int | None) -> Position:
        return Position(self.width, self.height, mines, self.rows, self.topology)


def _set_topology(value: Position | Board) -> None:
    """The square grid when no topology was given; a given one must have the same sheet."""
    topology = value.topology
    if topology is None:
        object.__setattr__(value, "topology", square(value.width, value.height))
    elif topology.width != value.width or topology.height != value.height:
        raise ValueError(f"a {value.width}x{value.height} board on a "
                         f"{topology.width}x{topology.height} topology")


@dataclass(frozen=True, slots=True)
class Board:
    """A hidden layout: where every mine is.

    Attributes
    ----------
    width, height:
        Board size in cells (the topology's sheet).
    mine_cells:
        The cells that hold a mine.
    topology:
        Which cells each number counts; the square grid of ``width`` x ``height`` when not
        given.
    """

    width: int
    height: int
    mine_cells: frozenset[Cell]
    topology: Topology = None  # type: ignore[assignment]  # the square grid, set below

    def __post_init__(self) -> None:
        _set_topology(self)

    @property
    def mines(self) -> int:
        return len(self.mine_cells)

    def number(self, cell: Cell) -> int:
        """How many mines touch ``cell`` (what it shows when revealed)."""
        return sum(n in self.mine_cells for n in self.topology.neighbours(cell))

    def numbers(self) -> list[int]:
        """The number of every cell, indexed ``r * width + c`` (mines included)."""
        width, topology = self.width, self.topology
        return mine_counts(width, self.height, [r * width + c for r, c in self.mine_cells],
                           None if topology.is_square else topology.neighbour_table)

    def position(self, revealed: frozenset[Cell] | set[Cell] = frozenset(),
                 flagged: frozenset[Cell] | set[Cell] = frozenset(),
                 *, count_known: bool = True) -> Position:
        """The position a player sees with ``revealed`` opened and ``flagged`` flagged."""
        numbers = self.numbers()
        rows = []
        for r in range(self.height):
            row = []
            for c in range(self.width):
                if (r, c) in revealed:
                    if (r, c) in self.mine_cells:
                        raise ValueError(f"cell {(r, c)} holds a mine and cannot be revealed")
                    row.append(number_char(numbers[r * self.width + c]))
                elif (r, c) in flagged:
                    row.append(FLAG)
                else:
                    row.append(COVERED)
            rows.append("".join(row))
        return Position(self.width, self.height, self.mines if count_known else None,
                        tuple(rows), self.topology)
