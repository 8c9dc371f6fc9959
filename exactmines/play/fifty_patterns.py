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

__all__ = ["Risk"]

#: The scan over the whole board keeps patterns needing at most this many mines in all
#: (the pattern's own and the missing ones); a candidate's own patterns allow more.
_SCAN_MINES = 2
_OWN_MINES = 4

#: A pattern as bitmasks: ``(cells, mines, safe, outer)``, one orientation (the other is
#: the mirror image and has the same count by symmetry of the numbers that see it).
Shape = tuple[int, int, int, int]


@lru_cache(maxsize=16)
def shapes(width: int, height: int) -> dict[tuple[str, int], Shape]:
    """Every pattern that fits on the board, keyed by ``(kind, top left cell)``: pairs
    ``"h"`` (left cell a mine) and ``"v"`` (top cell a mine), and 2x2 blocks ``"box"`` (top
    left and bottom right mines). Outer cells off the board are left out."""

    def mask(points: list[tuple[int, int]]) -> int:
        return sum(1 << (r * width + c) for r, c in points
                   if 0 <= r < height and 0 <= c < width)

    out: dict[tuple[str, int], Shape] = {}
    for r in range(height):
        for c in range(width):
            cell = r * width + c
            if c + 1 < width:
                out["h", cell] = (mask([(r, c), (r, c + 1)]), mask([(r, c)]),
                                  mask([(r, c + 1)]),
                                  mask([(r + dr, cc) for cc in (c - 1, c + 2)
                                        for dr in (-1, 0, 1)]))
            if r + 1 < height:
                out["v", cell] = (mask([(r, c), (r + 1, c)]), mask([(r, c)]),
                                  mask([(r + 1, c)]),
                                  mask([(rr, c + dc) for rr in (r - 1, r + 2)
                                        for dc in (-1, 0, 1)]))
            if r + 1 < height and c + 1 < width:
                out["box", cell] = (mask([(r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)]),
                                    mask([(r, c), (r + 1, c + 1)]),
                                    mask([(r, c + 1), (r + 1, c)]),
                                    mask([(r - 1, c - 1), (r - 1, c + 2), (r + 2, c - 1),
                                          (r + 2, c + 2)]))
    return out


class Risk:
    """The 50/50 patterns of one position, with their exact tallies.

    ``hidden``: unknown cells not known to be mines; ``revealed``: revealed cells;
    ``mines``: cells known to be mines; ``count(mines, safe)``: the layouts of the position
    with every cell of ``mines`` a mine and every cell of ``safe`` safe.
    """

    def __init__(self, width: int, height: int, hidden: int, revealed: int, mines: int,
                 mines_left: int, count: Callable[[int, int], int]) -> None:
        self.width = width
        self.hidden, self.revealed, self.mines = hidden, revealed, mines
        self.mines_left = mines_left
        self.shapes = shapes(width, height)
        self._count = count
        self._tallies: dict[tuple[str, int], int] = {}
        self.enablers: dict[int, int] = {}  # cell -> tallies of patterns it would break
        self.inside: dict[int, int] = {}  # cell -> tallies of the scan's patterns it is in
        self._scan()

    def tally(self, kind: str, cell: int, most: int) -> tuple[int, int] | None:
        """``(tally, missing mines mask)`` of the pattern ``(kind, cell)`` if it can still
        form needing at most ``most`` mines in all, else ``None``."""
        shape = self.shapes.get((kind, cell))
        if shape is None:
            return None
        cells, mines, safe, outer = shape
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
        """Every pattern of the board needing few mines: who is in it, who enables it."""
        for kind, cell in self.shapes:
            found = self.tally(kind, cell, _SCAN_MINES)
            if found is None or not found[0]:
                continue
            tally, missing = found
            for i in indices_of(self.shapes[kind, cell][0]):
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
