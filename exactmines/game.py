"""The game engine: a hidden board, clicks that reveal (flooding zeros), win and loss, and
the first-click rules that decide how a board is dealt.

First-click rules (``StartRule``):

``unprotected``
    mines uniform over the whole board: the first click may hit one;
``safe``
    uniform over boards with no mine on the first click (SFAR in the literature);
``opening``
    uniform over boards with no mine in the 3x3 block around the first click (SNR), so the
    first click shows a 0 and opens an area.

Randomness is always an explicit ``random.Random``: the same seed deals the same board.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any, Literal, get_args

from exactmines.errors import InputError
from exactmines.position import Board, Cell, Position, Topology, indices_of
from exactmines.topology import square
from exactmines.words import plural

__all__ = [
    "StartRule",
    "START_RULES",
    "GameOver",
    "Game",
    "deal",
    "random_board",
    "free_indices",
    "protected_cells",
    "board_from_indices",
    "three_bv",
]

StartRule = Literal["safe", "opening", "unprotected"]
START_RULES: tuple[str, ...] = get_args(StartRule)


class GameOver(Exception):
    """A click after the game ended (a programming error of the caller, not bad input)."""


def board_from_indices(width: int, height: int, indices: list[int] | tuple[int, ...],
                       topology: Topology | None = None) -> Board:
    """The board whose mines sit at the flat indices ``r * width + c`` (on ``topology``, the
    square grid by default)."""
    return Board(width, height, frozenset(divmod(i, width) for i in indices),
                 topology or square(width, height))


def protected_cells(width: int, height: int, rule: str, at: Cell,
                    topology: Topology | None = None) -> frozenset[Cell]:
    """The cells ``rule`` keeps free of mines for a first click at ``at`` (``opening``: the
    click and its neighbours on ``topology``, the square grid by default)."""
    _check_cell(width, height, at, "first click")
    if rule == "unprotected":
        return frozenset()
    if rule == "safe":
        return frozenset([at])
    if rule == "opening":
        around = (topology or square(width, height)).neighbours(at)
        return frozenset([at, *around])
    raise InputError(f"unknown first-click rule {rule!r}: choose one of "
                     f"{', '.join(START_RULES)}", source="first-click rule")


def free_indices(width: int, height: int, mines: int,
                 exclude: frozenset[Cell] | set[Cell] = frozenset()) -> list[int]:
    """The flat indices that may hold a mine, row-major; checks that ``mines`` fit.

    ``rng.sample(free_indices(...), mines)`` is exactly how :func:`random_board` deals, so a
    caller dealing many boards can compute this once.

    Raises
    ------
    InputError
        For a size under 1x1 or more mines than free cells.
    """
    if width < 1 or height < 1:
        raise InputError(f"board size {width}x{height}: must be at least 1x1", source="board")
    free = [r * width + c for r in range(height) for c in range(width) if (r, c) not in exclude]
    if not 0 <= mines <= len(free):
        raise InputError(f"{plural(mines, 'mine')} do not fit: {plural(len(free), 'cell')} can "
                         f"hold one",
                         source="board")
    return free


def random_board(width: int, height: int, mines: int, rng: random.Random, *,
                 exclude: frozenset[Cell] | set[Cell] = frozenset(),
                 topology: Topology | None = None) -> Board:
    """``mines`` mines uniformly over the cells not in ``exclude`` (see :func:`free_indices`)."""
    free = free_indices(width, height, mines, exclude)
    return board_from_indices(width, height, rng.sample(free, mines), topology)


def deal(width: int, height: int, mines: int, rng: random.Random, *, rule: str = "safe",
         at: Cell = (0, 0), topology: Topology | None = None) -> Board:
    """A board dealt under the first-click ``rule`` for a first click at ``at`` (on
    ``topology``, the square grid by default)."""
    return random_board(width, height, mines, rng,
                        exclude=protected_cells(width, height, rule, at, topology),
                        topology=topology)


def _check_cell(width: int, height: int, cell: Cell, what: str) -> None:
    r, c = cell
    if not (0 <= r < height and 0 <= c < width):
        raise InputError(f"row {r}, col {c} is off the {width}x{height} board", source=what)


class Game:
    """One game on a hidden board.

    Clicking a zero opens its neighbourhood, recursively, as every Minesweeper does. The
    game is lost on a click on a mine and won when every safe cell is revealed. The player
    needs no flags; a replay's flags (:meth:`toggle_flag`) are kept as the programs keep
    them: a flagged cell is not opened by a click, nor by the flood of a zero.

    State is one small int per cell (flat index ``r * width + c``), so a click costs what it
    opens, whatever the size of the board; :attr:`revealed` and the other bitmasks are made
    when asked, each in one pass over the board.

    Examples
    --------
    >>> game = Game(deal(9, 9, 10, random.Random(1), rule="opening", at=(4, 4)))
    >>> opened = game.reveal((4, 4))
    >>> game.lost, len(opened) > 1
    (False, True)
    """

    def __init__(self, board: Board) -> None:
        self._board: Board | None = board
        self.width, self.height = board.width, board.height
        self.topology = board.topology
        self.numbers = board.numbers()
        cells = self.width * self.height
        # Lists of 0 and 1, not bytearrays: compiled (setup.py), a list of small ints is
        # read in place, a bytearray through the generic item protocol.
        self._mine = [0] * cells
        for r, c in board.mine_cells:
            self._mine[r * self.width + c] = 1
        self._open = [0] * cells  # 1 revealed, 2 flagged (the flood skips non-zero)
        self._opened = 0
        self._safe = cells - len(board.mine_cells)
        self._masks: dict[str, int] = {}  # mine_mask, zero_mask: made when asked
        self.exploded: Cell | None = None
        self.clicks = 0

    def __reduce__(self) -> tuple[Any, ...]:
        # Spelled out: compiled by mypyc (setup.py), an instance does not unpickle by itself.
        return (_rebuilt, (self.board, bytes(self._open), self._opened, self.exploded,
                           self.clicks))

    @property
    def board(self) -> Board:
        """The hidden board (after :meth:`move_mines`, made again from the mines when
        asked)."""
        if self._board is None:
            width = self.width
            self._board = Board(width, self.height, frozenset(
                divmod(i, width) for i in indices_of(self.mine_mask)), self.topology)
        return self._board

    @property
    def revealed(self) -> int:
        """The revealed cells as a bitmask (bit ``r * width + c``); one pass over the board."""
        return _bitmask(self._open)

    @property
    def revealed_count(self) -> int:
        """How many cells are revealed (no pass over the board)."""
        return self._opened

    @property
    def mine_mask(self) -> int:
        found = self._masks.get("mine")
        if found is None:
            found = self._masks["mine"] = _bitmask(self._mine)
        return found

    @property
    def safe_mask(self) -> int:
        return ((1 << (self.width * self.height)) - 1) & ~self.mine_mask

    @property
    def zero_mask(self) -> int:
        """Safe cells with no mine around (a click there opens its neighbourhood)."""
        found = self._masks.get("zero")
        if found is None:
            found = self._masks["zero"] = _bitmask(bytearray(
                n == 0 and not m for n, m in zip(self.numbers, self._mine, strict=True)))
        return found

    def move_mines(self, cells: Iterable[int]) -> list[int]:
        """Toggle the mine of each covered cell of ``cells`` (flat indices): its mine
        leaves, or a mine arrives; as many leave as arrive, so the mine count stays. The
        numbers around them follow (:attr:`board` too). The cells whose number changed,
        ascending. For a generator that moves mines while it solves the board
        (:mod:`exactmines.solvability.build`). Cost: a few steps per cell moved.

        Raises
        ------
        ValueError
            When a cell is revealed, or more mines leave than arrive or the reverse.
        """
        moved = sorted(set(cells))
        mine, numbers, opened = self._mine, self.numbers, self._open
        if any(opened[i] == 1 for i in moved):
            raise ValueError("a revealed cell cannot gain or lose a mine")
        if 2 * sum(mine[i] for i in moved) != len(moved):
            raise ValueError("as many mines must leave as arrive")
        table = self.topology.neighbour_table
        changed: set[int] = set()
        for i in moved:
            step = -1 if mine[i] else 1
            mine[i] ^= 1
            for n in table[i]:
                numbers[n] += step
                changed.add(n)
        self._masks.clear()
        self._board = None  # made again when asked
        return sorted(changed)

    @property
    def lost(self) -> bool:
        return self.exploded is not None

    @property
    def won(self) -> bool:
        return self.exploded is None and self._opened == self._safe

    @property
    def over(self) -> bool:
        return self.lost or self.won

    @property
    def safe_left(self) -> int:
        """Safe cells still covered."""
        return self._safe - self._opened

    def is_revealed(self, cell: Cell) -> bool:
        return self._open[cell[0] * self.width + cell[1]] == 1

    def is_flagged(self, cell: Cell) -> bool:
        return self._open[cell[0] * self.width + cell[1]] == _FLAGGED

    def toggle_flag(self, cell: Cell) -> bool:
        """Put a flag on a covered cell, or take it off; ``True`` if the cell is now flagged.
        A revealed cell cannot be flagged (:class:`ValueError`)."""
        _check_cell(self.width, self.height, cell, "flag")
        index = cell[0] * self.width + cell[1]
        if self._open[index] == 1:
            raise ValueError(f"cell {cell} is revealed and cannot be flagged")
        self._open[index] ^= _FLAGGED
        return self._open[index] == _FLAGGED

    def number(self, cell: Cell) -> int:
        """What ``cell`` shows; only for revealed cells (the hidden board stays hidden)."""
        if not self.is_revealed(cell):
            raise ValueError(f"cell {cell} is not revealed")
        return self.numbers[cell[0] * self.width + cell[1]]

    def reveal(self, cell: Cell) -> list[Cell]:
        """Click ``cell``: the cells it newly reveals, row-major (empty if already shown or
        flagged).

        A mine ends the game (``lost``) and returns ``[]``. Cost: a few steps per cell
        opened (the neighbours of each zero the flood reaches are looked at once).
        """
        if self.over:
            raise GameOver("the game is over")
        _check_cell(self.width, self.height, cell, "click")
        width = self.width
        return [divmod(i, width) for i in self.reveal_indices([cell[0] * width + cell[1]])]

    def reveal_indices(self, indices: Iterable[int]) -> list[int]:
        """Click each cell of ``indices`` (flat indices on the board, in order) until the
        game is over: the cells newly revealed, as flat indices, ascending. What
        :meth:`reveal` does for one cell, for callers that click many at once and work in
        flat indices (the no-guess check, the player): no cell tuple is made."""
        new: list[int] = []
        opened, numbers, mine = self._open, self.numbers, self._mine
        width, height = self.width, self.height
        table = None if self.topology.is_square else self.topology.neighbour_table
        for index in indices:
            if self.exploded is not None or self._opened + len(new) == self._safe:
                break
            self.clicks += 1
            if opened[index]:  # shown already, or flagged (a flagged mine does not go off)
                continue
            if mine[index]:
                self.exploded = divmod(index, width)
                break
            opened[index] = 1
            new.append(index)
            zeros = [index] if numbers[index] == 0 else []
            if table is not None:
                while zeros:
                    for i in table[zeros.pop()]:
                        if not opened[i]:
                            opened[i] = 1
                            new.append(i)
                            if numbers[i] == 0:
                                zeros.append(i)
            while zeros:  # a zero is safe, and so are its neighbours: no mine is ever opened
                r, c = divmod(zeros.pop(), width)
                low, high = max(c - 1, 0), min(c + 2, width)
                for row in range(max(r - 1, 0), min(r + 2, height)):
                    for i in range(row * width + low, row * width + high):
                        if not opened[i]:
                            opened[i] = 1
                            new.append(i)
                            if numbers[i] == 0:
                                zeros.append(i)
        self._opened += len(new)
        new.sort()
        return new

    def cells_of(self, mask: int) -> list[Cell]:
        """The cells of a bitmask, row-major."""
        return [divmod(i, self.width) for i in indices_of(mask)]

    def position(self, flagged: frozenset[Cell] | set[Cell] = frozenset(), *,
                 count_known: bool = True) -> Position:
        """What the player sees, with ``flagged`` cells shown as flags."""
        return self.board.position(frozenset(self.cells_of(self.revealed)), flagged,
                                   count_known=count_known)


def three_bv(board: Board) -> int:
    """The board's 3BV (Bechtel's Board Benchmark Value): the fewest clicks that clear it
    without flags or chords -- one per opening (a connected area of zeros, which a click
    opens with its border) and one per safe cell no opening reveals. Players measure a
    game's efficiency as 3BV over the clicks they made. Any topology (the board's
    neighbours). Cost: a pass over the board and its neighbour table."""
    cells = board.width * board.height
    numbers = board.numbers()
    table = board.topology.neighbour_table
    mines = {r * board.width + c for r, c in board.mine_cells}
    covered = bytearray(cells)  # revealed by some opening
    value = 0
    for start in range(cells):
        if numbers[start] or start in mines or covered[start]:
            continue
        value += 1  # a new opening: flood it as a click would
        covered[start] = 1
        zeros = [start]
        while zeros:
            for i in table[zeros.pop()]:
                if not covered[i]:
                    covered[i] = 1
                    if numbers[i] == 0:
                        zeros.append(i)
    return value + sum(1 for i in range(cells) if not covered[i] and i not in mines)


#: The state of a flagged cell in ``Game._open`` (0 covered, 1 revealed).
_FLAGGED = 2

#: Byte 0, 1 or 2 -> ASCII digit, for :func:`_bitmask` (a flag, 2, is not revealed: 0).
_DIGITS01 = bytes.maketrans(b"\x00\x01\x02", b"010")


def _rebuilt(board: Board, opened: bytes, count: int, exploded: Cell | None,
             clicks: int) -> Game:
    """A pickled :class:`Game` made again."""
    game = Game(board)
    game._open[:] = opened
    game._opened, game.exploded, game.clicks = count, exploded, clicks
    return game


def _bitmask(flags: list[int] | bytearray) -> int:
    """The cells whose flag is 1 as a bitmask (bit ``i`` for flag ``i``): the flags as
    binary digits, read by ``int`` in one linear pass."""
    return int(bytes(flags)[::-1].translate(_DIGITS01) or b"0", 2)
