"""An oracle that shares no code with the engines: every placement of the remaining mines
over every covered cell of the position, checked against every number.

Deliberately naive (no frontier, no boxes, no binomials): if it and an engine agree, the
frontier split, the box weighting and the combination are all right.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations, product

from exactmines.position import Position


@dataclass(frozen=True)
class Truth:
    layouts: int
    probability: dict[tuple[int, int], Fraction | None]
    verdict: dict[tuple[int, int], str]

    @property
    def consistent(self) -> bool:
        return self.layouts > 0


def _fits(position: Position, mines: set[tuple[int, int]]) -> bool:
    for r, row in enumerate(position.rows):
        for c, ch in enumerate(row):
            if ch.isdigit():
                around = 0
                for rr in range(r - 1, r + 2):
                    for cc in range(c - 1, c + 2):
                        if (rr, cc) != (r, c) and 0 <= rr < position.height \
                                and 0 <= cc < position.width:
                            around += (rr, cc) in mines or position.rows[rr][cc] == "F"
                if around != int(ch):
                    return False
    return True


def _placements(position: Position) -> tuple[list[tuple[int, int]], list[tuple[int, int]],
                                             list[set[tuple[int, int]]]]:
    """The covered cells, the cells placements are made over, and every placement of the
    mines over them that fits every number."""
    covered = [(r, c) for r, row in enumerate(position.rows) for c, ch in enumerate(row)
               if ch == "H"]
    flags = sum(row.count("F") for row in position.rows)
    if position.mines is not None:
        left = position.mines - flags
        placements = (set(s) for s in combinations(covered, left)) if 0 <= left <= len(covered) \
            else iter(())
        cells = covered
    else:
        # Unknown total: layouts of the frontier only (covered cells next to a number).
        cells = [cell for cell in covered if any(
            position.rows[rr][cc].isdigit()
            for rr in range(cell[0] - 1, cell[0] + 2) for cc in range(cell[1] - 1, cell[1] + 2)
            if 0 <= rr < position.height and 0 <= cc < position.width)]
        placements = ({cell for cell, bit in zip(cells, bits, strict=True) if bit}
                      for bits in product((0, 1), repeat=len(cells)))
    return covered, cells, [mines for mines in placements if _fits(position, mines)]


def truth(position: Position) -> Truth:
    covered, cells, fitting = _placements(position)
    layouts = len(fitting)
    hits = dict.fromkeys(covered, 0)
    for mines in fitting:
        for cell in mines:
            hits[cell] += 1
    probability: dict[tuple[int, int], Fraction | None] = {}
    verdict: dict[tuple[int, int], str] = {}
    for cell in covered:
        if layouts == 0 or cell not in cells:
            probability[cell] = None
            verdict[cell] = "unknown"
        else:
            p = Fraction(hits[cell], layouts)
            probability[cell] = p
            verdict[cell] = "safe" if p == 0 else "mine" if p == 1 else "unknown"
    return Truth(layouts, probability, verdict)


def chance_any(position: Position, cells: set[tuple[int, int]]) -> Fraction | None:
    """The share of the layouts that put a mine on at least one of ``cells``; ``None`` when
    no layout fits, or (no total count) a cell lies off the frontier."""
    _, over, fitting = _placements(position)
    if not fitting or (position.mines is None and not cells <= set(over)):
        return None
    return Fraction(sum(bool(mines & cells) for mines in fitting), len(fitting))
