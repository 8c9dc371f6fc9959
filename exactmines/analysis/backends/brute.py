"""Brute force over every cell of a component: the slow, obviously right reference.

It deliberately ignores the box shortcut (each cell is its own 0/1 choice, every layout
weighs 1), so agreeing with it tests the binomial weighting of the other engines too.
"""

from __future__ import annotations

from itertools import product

from exactmines.analysis.backends import ComponentCounts, CountingBackend
from exactmines.analysis.frontier import Component
from exactmines.budget import UNLIMITED, Budget
from exactmines.errors import TooLarge

__all__ = ["BruteForceBackend", "MAX_CELLS"]

#: 2**22 layouts is a few seconds of pure Python; more is not what this engine is for.
MAX_CELLS = 22


class BruteForceBackend(CountingBackend):
    """Enumerates all 2**cells layouts of a component (at most :data:`MAX_CELLS` cells)."""

    name = "brute"

    def count(self, component: Component, *, budget: Budget = UNLIMITED) -> ComponentCounts:
        cells = component.cells
        if cells > MAX_CELLS:
            raise TooLarge(f"brute force takes components of up to {MAX_CELLS} cells, "
                           f"this one has {cells}: use another backend")
        owner = [b for b, size in enumerate(component.sizes) for _ in range(size)]
        layouts = [0] * (cells + 1)
        box_mines = [[0] * len(component.sizes) for _ in range(cells + 1)]
        for step, bits in enumerate(product((0, 1), repeat=cells)):
            if step & 0xFFFF == 0:
                budget.check()
            in_box = [0] * len(component.sizes)
            for b, bit in zip(owner, bits, strict=True):
                in_box[b] += bit
            if all(sum(in_box[b] for b in rule.boxes) == rule.mines
                   for rule in component.constraints):
                k = sum(bits)
                layouts[k] += 1
                for b, m in enumerate(in_box):
                    box_mines[k][b] += m
        return ComponentCounts(tuple(layouts), tuple(tuple(row) for row in box_mines))
