"""A board with every mine known, taken apart the way clicks see it: openings (a connected
area of zeros, which one click on any of its zeros reveals with its border of numbers),
the numbered cells, and the numbered cells no opening reveals (isolated). Plus the game's
three clicks on it (left, flag, chord) as the solver plays them to check and tidy a
sequence.

Cells are flat indices ``r * width + c`` on the board's topology. Cost: one pass over the
board and its neighbour table.
"""

from __future__ import annotations

from dataclasses import dataclass

from exactmines.errors import InputError
from exactmines.position import Board, Cell

__all__ = ["Layout", "Click", "Clicks", "tidy"]

#: One click: ("left" | "flag" | "chord", flat index).
Click = tuple[str, int]


@dataclass(frozen=True)
class Layout:
    """The board's cells sorted for the click-counting models (see the module)."""

    board: Board
    neighbours: tuple[tuple[int, ...], ...]
    numbers: tuple[int, ...]
    mine: tuple[bool, ...]
    #: For each zero cell its opening's id, -1 for every other cell.
    opening_of: tuple[int, ...]
    #: Each opening's zeros (ascending) and its border: the numbered cells beside them.
    openings: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]
    #: For each cell, the openings whose border holds it (empty for most).
    borders_of: tuple[tuple[int, ...], ...]
    #: The safe numbered cells, ascending.
    numbered: tuple[int, ...]

    @classmethod
    def of(cls, board: Board) -> Layout:
        table = board.topology.neighbour_table
        numbers = tuple(board.numbers())
        size = board.width * board.height
        mine = [False] * size
        for r, c in board.mine_cells:
            mine[r * board.width + c] = True
        opening_of = [-1] * size
        openings: list[tuple[tuple[int, ...], tuple[int, ...]]] = []
        borders: list[list[int]] = [[] for _ in range(size)]
        for start in range(size):
            if mine[start] or numbers[start] or opening_of[start] >= 0:
                continue
            k = len(openings)
            opening_of[start] = k
            zeros, border, stack = [start], set(), [start]
            while stack:
                for i in table[stack.pop()]:
                    if numbers[i]:
                        border.add(i)
                    elif opening_of[i] < 0:
                        opening_of[i] = k
                        zeros.append(i)
                        stack.append(i)
            for i in border:
                borders[i].append(k)
            openings.append((tuple(sorted(zeros)), tuple(sorted(border))))
        numbered = tuple(i for i in range(size) if not mine[i] and numbers[i])
        return cls(board, tuple(table), numbers, tuple(mine), tuple(opening_of),
                   tuple(openings), tuple(tuple(b) for b in borders), numbered)

    @property
    def isolated(self) -> tuple[int, ...]:
        """The numbered cells no opening reveals: each costs a click of its own in 3BV."""
        return tuple(i for i in self.numbered if not self.borders_of[i])

    @property
    def bbbv(self) -> int:
        """3BV: one click per opening and per isolated number."""
        return len(self.openings) + len(self.isolated)

    def index(self, cell: Cell) -> int:
        return cell[0] * self.board.width + cell[1]

    def cell(self, index: int) -> Cell:
        return divmod(index, self.board.width)

    def safe_start(self, cell: Cell, source: str) -> int:
        """The flat index of a first click, refused (:class:`InputError`) off the board or
        on a mine."""
        r, c = cell
        if not (0 <= r < self.board.height and 0 <= c < self.board.width):
            raise InputError(f"{r},{c} is off the {self.board.width}x{self.board.height} "
                             "board", source=source)
        index = self.index(cell)
        if self.mine[index]:
            raise InputError(f"{r},{c} is a mine", source=source)
        return index


class Clicks:
    """The game's rules on a known board, for the solver's own bookkeeping: what each
    click reveals, and whether it changed anything (a click that changes nothing is
    dropped by :meth:`tidy`)."""

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        size = len(layout.numbers)
        self.revealed = bytearray(size)
        self.flagged = bytearray(size)
        self.left_to_reveal = size - sum(layout.mine)
        #: When a list, every cell revealed or flagged is appended to it (the greedy's
        #: cache of premiums forgets the numbers around them).
        self.changed: list[int] | None = None

    def _open(self, index: int) -> int:
        layout, revealed = self.layout, self.revealed
        if revealed[index] or self.flagged[index]:
            return 0
        revealed[index] = 1
        changed = self.changed
        if changed is not None:
            changed.append(index)
        count, stack = 1, [index] if layout.numbers[index] == 0 else []
        while stack:
            for i in layout.neighbours[stack.pop()]:
                if not revealed[i] and not self.flagged[i]:
                    revealed[i] = 1
                    count += 1
                    if changed is not None:
                        changed.append(i)
                    if layout.numbers[i] == 0:
                        stack.append(i)
        self.left_to_reveal -= count
        return count

    def can_chord(self, index: int) -> bool:
        """The cell is a revealed number whose every neighbouring mine is flagged."""
        layout = self.layout
        return bool(self.revealed[index]) and all(
            self.flagged[i] for i in layout.neighbours[index] if layout.mine[i])

    def play(self, click: Click) -> bool:
        """Make one click; ``True`` if it changed the board. A click on a mine, or a chord
        that is not allowed, is a programming error (:class:`ValueError`)."""
        kind, index = click
        layout = self.layout
        if kind == "flag":
            if self.revealed[index] or self.flagged[index]:
                return False
            self.flagged[index] = 1
            if self.changed is not None:
                self.changed.append(index)
            return True
        if kind == "left":
            if layout.mine[index]:
                raise ValueError(f"left click on the mine at {index}")
            return self._open(index) > 0
        if kind == "chord":
            if not self.can_chord(index):
                raise ValueError(f"chord on {index} is not allowed")
            return sum(self._open(i) for i in layout.neighbours[index]
                       if not layout.mine[i]) > 0
        raise ValueError(f"unknown click {kind!r}")

    @property
    def cleared(self) -> bool:
        return self.left_to_reveal == 0


def tidy(layout: Layout, clicks: list[Click]) -> list[Click]:
    """``clicks`` without those that change nothing and the flags no chord after them
    needs; raises :class:`ValueError` unless they clear the board."""
    state = Clicks(layout)
    kept = [click for click in clicks if state.play(click)]
    if not state.cleared:
        raise ValueError("the clicks do not clear the board")
    needed = {i for kind, c in kept if kind == "chord"
              for i in layout.neighbours[c] if layout.mine[i]}
    return [click for click in kept if click[0] != "flag" or click[1] in needed]
