"""Positions (what a player sees) and boards (the hidden layout), with grid geometry.

Cells are ``(row, col)`` tuples, 0-based, row 0 at the top. Only this module and
``frontier`` know that cells live on a grid.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

__all__ = [
    "Cell",
    "COVERED",
    "FLAG",
    "Position",
    "Board",
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


@lru_cache(maxsize=64)
def neighbour_table(width: int, height: int) -> tuple[tuple[int, ...], ...]:
    """For each cell index ``r * width + c``, the indices of its up-to-8 neighbours.

    Cached per board size: the solvers look neighbours up in tight loops.
    """
    table = []
    for r in range(height):
        for c in range(width):
            table.append(
                tuple(
                    rr * width + cc
                    for rr in range(max(r - 1, 0), min(r + 2, height))
                    for cc in range(max(c - 1, 0), min(c + 2, width))
                    if (rr, cc) != (r, c)
                )
            )
    return tuple(table)


@lru_cache(maxsize=64)
def neighbour_masks(width: int, height: int) -> tuple[int, ...]:
    """For each cell index ``r * width + c``, its neighbours as a bitmask (bit = index).

    Bitmasks let the solvers intersect and count whole neighbourhoods in one ``int``
    operation (``&``, ``int.bit_count``) instead of a Python loop.
    """
    return tuple(sum(1 << n for n in around) for around in neighbour_table(width, height))


def flood(revealed: int, opened: int, zeros: int, masks: tuple[int, ...]) -> int:
    """The revealed cells after opening ``opened``, as the game does it (all bitmasks).

    Every opened cell that shows 0 (a bit of ``zeros``: safe cells with no mine around)
    opens its whole neighbourhood, and so on. ``opened`` must hold no mine; the flood then
    cannot reach one. ``masks`` is :func:`neighbour_masks` of the board. Cost: one mask OR
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


def indices_of(mask: int) -> list[int]:
    """The set bits of ``mask`` (cell indices ``r * width + c``), ascending.

    Cost: linear in the mask's length. Peeling the lowest bit off costs that much per set
    bit, quadratic on a large board, so long masks are read from their binary digits.
    """
    if mask.bit_length() > _PEEL_BITS:
        digits = bin(mask)[:1:-1]  # least significant first, without "0b"
        out = []
        i = digits.find("1")
        while i >= 0:
            out.append(i)
            i = digits.find("1", i + 1)
        return out
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


#: Masks up to this many bits have their bits peeled off one by one in
#: :func:`indices_of` (faster there than making the string of digits).
_PEEL_BITS = 1024


@lru_cache(maxsize=64)
def _column_masks(width: int, height: int) -> tuple[int, int, int]:
    """(cells not in the first column, cells not in the last column, all cells)."""
    first = sum(1 << (r * width) for r in range(height))
    everything = (1 << (width * height)) - 1
    return everything & ~first, everything & ~(first << (width - 1)), everything


def dilate(mask: int, width: int, height: int) -> int:
    """``mask`` plus every neighbour of its cells (bitmasks): a handful of shifts, however
    many cells are set, instead of a loop over them."""
    not_first, not_last, everything = _column_masks(width, height)
    row = mask | ((mask << 1) & not_first) | ((mask >> 1) & not_last)
    return (row | (row << width) | (row >> width)) & everything


def neighbours(width: int, height: int, cell: Cell) -> list[Cell]:
    """The up-to-8 cells around ``cell``, row-major."""
    r, c = cell
    return [
        (rr, cc)
        for rr in range(max(r - 1, 0), min(r + 2, height))
        for cc in range(max(c - 1, 0), min(c + 2, width))
        if (rr, cc) != (r, c)
    ]


@dataclass(frozen=True, slots=True)
class Position:
    """What a player sees.

    Attributes
    ----------
    width, height:
        Board size in cells.
    mines:
        Total mines on the board, flags included; ``None`` when unknown.
    rows:
        ``height`` strings of ``width`` characters: ``'0'``-``'8'`` revealed numbers,
        ``'H'`` covered, ``'F'`` flagged (a trusted mine).
    """

    width: int
    height: int
    mines: int | None
    rows: tuple[str, ...]

    def __post_init__(self) -> None:
        if len(self.rows) != self.height or any(len(r) != self.width for r in self.rows):
            raise ValueError("rows do not match width x height")

    def char(self, cell: Cell) -> str:
        return self.rows[cell[0]][cell[1]]

    def number(self, cell: Cell) -> int | None:
        """The revealed number at ``cell``, or ``None`` if it is covered or flagged."""
        ch = self.rows[cell[0]][cell[1]]
        return int(ch) if ch in _DIGITS else None

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
        return neighbours(self.width, self.height, cell)

    def with_mines(self, mines: int | None) -> Position:
        return Position(self.width, self.height, mines, self.rows)


@dataclass(frozen=True, slots=True)
class Board:
    """A hidden layout: where every mine is.

    Attributes
    ----------
    width, height:
        Board size in cells.
    mine_cells:
        The cells that hold a mine.
    """

    width: int
    height: int
    mine_cells: frozenset[Cell]

    @property
    def mines(self) -> int:
        return len(self.mine_cells)

    def number(self, cell: Cell) -> int:
        """How many mines touch ``cell`` (what it shows when revealed)."""
        return sum(n in self.mine_cells for n in neighbours(self.width, self.height, cell))

    def numbers(self) -> list[int]:
        """The number of every cell, indexed ``r * width + c`` (mines included)."""
        width, height = self.width, self.height
        counts = [0] * (width * height)
        for r, c in self.mine_cells:
            counts[r * width + c] -= 1  # the 3x3 block below counts the mine itself
            low, high = max(c - 1, 0), min(c + 2, width)
            for row in range(max(r - 1, 0), min(r + 2, height)):
                for n in range(row * width + low, row * width + high):
                    counts[n] += 1
        return counts

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
                    row.append(str(numbers[r * self.width + c]))
                elif (r, c) in flagged:
                    row.append(FLAG)
                else:
                    row.append(COVERED)
            rows.append("".join(row))
        return Position(self.width, self.height, self.mines if count_known else None, tuple(rows))
