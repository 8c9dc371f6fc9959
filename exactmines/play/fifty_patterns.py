"""Long-term risk: where the covered cells could still close into an unavoidable 50/50.

Two covered cells side by side, one a mine, become a 50/50 that no click can ever resolve
when every cell that sees one of them but not the other is a mine (or off the board): the
numbers around them then read the same either way. Likewise a 2x2 block holding two mines
on a diagonal, when its four outer corners are mines. Such a pattern can still form only
where none of those outer cells is revealed and few of them are still unknown (the *missing
mines*, which would all have to be mines).

The *tally* of a pattern is the number of layouts in which it forms with one given
orientation: the missing mines and one side mines, the other side safe -- an exact count,
made by the caller's ``count(mines, safe)``. A cell's *influence* (:meth:`Risk.influence`)
sums the tallies of the pairs it belongs to, the largest tally of the blocks it belongs to,
and the tallies of the patterns it would break by being safe (it is one of their missing
mines), capped by its mine and its safe layouts. Clicking such a cell now, while the rest of
the board can still help, settles what would otherwise be a blind 1/2 later; the strategy
rewards it in proportion to the influence (:class:`exactmines.play.strategy.Strategy`, part
``risk``). The idea and the shapes are those of JSMinesweeper's long-term risk (see
``REFERENCE.md``); the counts here are exact.

Cells are flat indices ``r * width + c``; masks are ``int`` bitmasks.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from exactmines.position import indices_of

__all__ = ["KINDS", "Shape", "shape", "Risk"]

#: The scan over the whole board keeps patterns needing at most this many mines in all
#: (the pattern's own and the missing ones); a candidate's own patterns allow more.
_SCAN_MINES = 2
_OWN_MINES = 4

#: A pattern as bitmasks: ``(cells, mines, safe, outer)``, one orientation (the other is
#: the mirror image and has the same count by symmetry of the numbers that see it).
Shape = tuple[int, int, int, int]


#: Each kind of pattern as ``(row, column)`` offsets from its top left cell, in the order of
#: :data:`Shape`: pairs ``"h"`` (left cell a mine) and ``"v"`` (top cell a mine), and 2x2
#: blocks ``"box"`` (top left and bottom right mines).
KINDS: dict[str, tuple[tuple[tuple[int, int], ...], ...]] = {
    "h": (((0, 0), (0, 1)), ((0, 0),), ((0, 1),),
          tuple((dr, dc) for dc in (-1, 2) for dr in (-1, 0, 1))),
    "v": (((0, 0), (1, 0)), ((0, 0),), ((1, 0),),
          tuple((dr, dc) for dr in (-1, 2) for dc in (-1, 0, 1))),
    "box": (((0, 0), (0, 1), (1, 0), (1, 1)), ((0, 0), (1, 1)), ((0, 1), (1, 0)),
            ((-1, -1), (-1, 2), (2, -1), (2, 2))),
}


def shape(width: int, height: int, kind: str, cell: int) -> Shape | None:
    """The pattern ``kind`` (:data:`KINDS`) with its top left cell at ``cell``, or ``None``
    when it does not fit on the board; outer cells off the board are left out. Made when
    asked (a few shifts), and kept on boards of up to ``_KEPT_CELLS`` cells: a table of
    every pattern would hold ``3 * width * height`` masks of up to ``width * height`` bits."""
    if width * height <= _KEPT_CELLS:
        return _kept_shape(width, height, kind, cell)
    return _shape(width, height, kind, cell)


#: Boards up to this many cells keep the patterns made (a few MB at most).
_KEPT_CELLS = 4096


@lru_cache(maxsize=3 * _KEPT_CELLS)
def _kept_shape(width: int, height: int, kind: str, cell: int) -> Shape | None:
    return _shape(width, height, kind, cell)


def _shape(width: int, height: int, kind: str, cell: int) -> Shape | None:
    r, c = divmod(cell, width)

    def mask(points: tuple[tuple[int, int], ...]) -> int:
        return sum(1 << ((r + dr) * width + c + dc) for dr, dc in points
                   if 0 <= r + dr < height and 0 <= c + dc < width)

    cells, mines, safe, outer = KINDS[kind]
    found = mask(cells)
    if found.bit_count() != len(cells):
        return None
    return found, mask(mines), mask(safe), mask(outer)


@lru_cache(maxsize=64)
def _columns(width: int, height: int, dc: int) -> int:
    """The cells whose column plus ``dc`` is still on the board, as a bitmask."""
    row = "".join("1" if 0 <= c + dc < width else "0" for c in reversed(range(width)))
    return int(row * height, 2)


def _anchors(width: int, height: int, hidden: int, revealed: int, mines: int,
             kind: str, most_missing: int) -> int:
    """The top left cells of the patterns ``kind`` whose cells are all hidden, whose outer
    cells are none revealed, and at most ``most_missing`` of them not known mines: a
    bitmask, from a few shifts of the whole board's bitmasks (no pattern looked at one by
    one). These conditions are :meth:`Risk.tally`'s bar the mine count."""
    everything = (1 << (width * height)) - 1

    def at(cells: int, dr: int, dc: int) -> int:
        """The cells ``a`` with ``a + (dr, dc)`` on the board and in ``cells``."""
        step = dr * width + dc
        moved = cells >> step if step >= 0 else (cells << -step) & everything
        return moved & _columns(width, height, dc)

    own, _, _, outer = KINDS[kind]
    found = everything
    for dr, dc in own:
        found &= at(hidden, dr, dc)
    missing = everything & ~mines
    # at_least[j]: j outer cells or more are missing (not known mines); at_least[0]: all.
    at_least = [everything] + [0] * (most_missing + 1)
    for dr, dc in outer:
        found &= ~at(revealed, dr, dc)
        here = at(missing, dr, dc)
        for j in range(most_missing + 1, 0, -1):
            at_least[j] |= at_least[j - 1] & here
    return found & ~at_least[most_missing + 1]


class Risk:
    """The 50/50 patterns of one position, with their exact tallies.

    ``hidden``: unknown cells not known to be mines; ``revealed``: revealed cells;
    ``mines``: cells known to be mines; ``count(mines, safe)``: the layouts of the position
    with every cell of ``mines`` a mine and every cell of ``safe`` safe.
    """

    def __init__(self, width: int, height: int, hidden: int, revealed: int, mines: int,
                 mines_left: int, count: Callable[[int, int], int]) -> None:
        self.width, self.height = width, height
        self.hidden, self.revealed, self.mines = hidden, revealed, mines
        self.mines_left = mines_left
        self._count = count
        self._tallies: dict[tuple[str, int], int] = {}
        self.enablers: dict[int, int] = {}  # cell -> tallies of patterns it would break
        self.inside: dict[int, int] = {}  # cell -> tallies of the scan's patterns it is in
        #: The scan's patterns with a tally: ``(kind, cell, tally, missing mines mask)``.
        self.patterns: list[tuple[str, int, int, int]] = []
        self._scan()

    def tally(self, kind: str, cell: int, most: int) -> tuple[int, int] | None:
        """``(tally, missing mines mask)`` of the pattern ``(kind, cell)`` if it can still
        form needing at most ``most`` mines in all, else ``None``."""
        found_shape = shape(self.width, self.height, kind, cell)
        if found_shape is None:
            return None
        cells, mines, safe, outer = found_shape
        if cells & ~self.hidden or outer & self.revealed:
            return None
        missing = outer & ~self.mines
        needed = missing.bit_count() + mines.bit_count()
        if needed > most or needed > self.mines_left:
            return None
        key = (kind, cell)
        found = self._tallies.get(key)
        if found is None:
            found = self._tallies[key] = self._count(mines | missing, safe)
        return found, missing

    def _scan(self) -> None:
        """Every pattern of the board needing few mines: who is in it, who enables it.

        Only the patterns :func:`_anchors` lets through are tallied, by row-major cell then
        kind, so the cost is a few passes over the board's bitmasks plus those patterns
        (near walls of known mines, few), not every pattern of the board."""
        anchored: list[tuple[int, int, str]] = []
        for order, (kind, (_, own, _, _)) in enumerate(KINDS.items()):
            if len(own) <= _SCAN_MINES:
                anchors = _anchors(self.width, self.height, self.hidden, self.revealed,
                                   self.mines, kind, _SCAN_MINES - len(own))
                anchored.extend((cell, order, kind) for cell in indices_of(anchors))
        for cell, _, kind in sorted(anchored):
            pattern = shape(self.width, self.height, kind, cell)
            found = self.tally(kind, cell, _SCAN_MINES)
            if pattern is None or found is None or not found[0]:
                continue
            tally, missing = found
            self.patterns.append((kind, cell, tally, missing))
            for i in indices_of(pattern[0]):
                self.inside[i] = self.inside.get(i, 0) + tally
            for i in indices_of(missing):
                self.enablers[i] = self.enablers.get(i, 0) + tally

    # -- what a candidate is worth ----------------------------------------------------------

    def influence(self, cell: int, mine_layouts: int, layouts: int) -> int:
        """Layouts in which ``cell`` sits in (or enables) a pattern, capped by its mine
        layouts ``mine_layouts`` and its safe layouts."""
        w = self.width
        left, up = cell - 1 if cell % w else None, cell - w if cell >= w else None
        total = 0
        for kind, start in (("h", cell), ("h", left), ("v", cell), ("v", up)):
            if start is not None:
                found = self.tally(kind, start, _OWN_MINES)
                if found is not None:
                    total += found[0]
        corner = up - 1 if up is not None and left is not None else None
        block = 0
        for start in (cell, left, up, corner):
            if start is not None:
                found = self.tally("box", start, _OWN_MINES + 1)
                if found is not None:
                    block = max(block, found[0])
        total += block + self.enablers.get(cell, 0)
        return min(total, mine_layouts, layouts - mine_layouts)

    def scanned(self, cell: int) -> int:
        """Tallies of the scan's patterns that ``cell`` is in or enables (uncapped)."""
        return self.inside.get(cell, 0) + self.enablers.get(cell, 0)
