"""An oracle that shares no code with the engines: every placement of the remaining mines
over every covered cell of the position, checked against every number.

Deliberately naive (no frontier, no boxes, no binomials): if it and an engine agree, the
frontier split, the box weighting and the combination are all right.

Which cells a number counts is worked out here from each topology's geometry, not taken
from :mod:`exactmines.topology`: the square grid, the torus and the cylinder by the king's
move (the torus modulo its sides, the cylinder modulo its width), hexagons by the distance
in cube coordinates of their odd-r offsets, triangles by the corners they share (each
triangle's three corners computed on the triangular lattice), the cube by the 3-D king's
move, offsets and knights by their moves; a graph's edges are its input.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations, product

from exactmines.position import Position

Cell = tuple[int, int]


@dataclass(frozen=True)
class Truth:
    layouts: int
    probability: dict[tuple[int, int], Fraction | None]
    verdict: dict[tuple[int, int], str]

    @property
    def consistent(self) -> bool:
        return self.layouts > 0


def _hex_cube(r: int, c: int) -> tuple[int, int, int]:
    """Odd-r offset -> cube coordinates (Red Blob Games' conversion)."""
    x = c - (r - (r & 1)) // 2
    z = r
    return x, -x - z, z


def _corners(r: int, c: int) -> set[tuple[int, int]]:
    """A triangle's corners as lattice points (twice the x, so they are whole): up when
    r + c is even, its apex on row r, its base on row r + 1."""
    if (r + c) % 2 == 0:
        return {(c + 1, r), (c, r + 1), (c + 2, r + 1)}
    return {(c, r), (c + 2, r), (c + 1, r + 1)}


def neighbours_of(position: Position) -> dict[Cell, set[Cell]]:
    """Each cell's neighbours on the position's topology, from its geometry (see the
    module docstring)."""
    topology = position.topology
    kind, width, height = topology.kind, position.width, position.height
    cells = [(r, c) for r in range(height) for c in range(width)]
    if kind == "graph":
        return {(0, i): {(0, j) for j in around}
                for i, around in enumerate(topology.neighbour_table)}
    out: dict[Cell, set[Cell]] = {}
    for a in cells:
        found = set()
        for b in cells:
            if a == b:
                continue
            (r, c), (rr, cc) = a, b
            if kind == "square":
                near = abs(r - rr) <= 1 and abs(c - cc) <= 1
            elif kind == "torus":
                dr, dc = (r - rr) % height, (c - cc) % width
                near = min(dr, height - dr) <= 1 and min(dc, width - dc) <= 1
            elif kind == "cylinder":
                dc = (c - cc) % width
                near = abs(r - rr) <= 1 and min(dc, width - dc) <= 1
            elif kind == "hex":
                x, y, z = _hex_cube(r, c)
                xx, yy, zz = _hex_cube(rr, cc)
                near = max(abs(x - xx), abs(y - yy), abs(z - zz)) == 1
            elif kind == "triangle":
                near = bool(_corners(r, c) & _corners(rr, cc))
            elif kind == "cube":
                rows = topology.layer_height
                (la, ra), (lb, rb) = divmod(r, rows), divmod(rr, rows)
                near = abs(la - lb) <= 1 and abs(ra - rb) <= 1 and abs(c - cc) <= 1
            elif kind in ("knight", "offsets"):
                near = (rr - r, cc - c) in set(topology.offsets)
            else:  # a kind new to the oracle: its geometry goes above
                raise ValueError(f"the oracle has no geometry for {kind!r}")
            if near:
                found.add(b)
        out[a] = found
    return out


def _value(ch: str) -> int | None:
    """A revealed number (``0``-``9``, then ``a`` = 10 ...), or ``None``."""
    if ch.isdigit():
        return int(ch)
    if ch >= "a":
        return ord(ch) - ord("a") + 10
    return None


def _fits(position: Position, around: dict[Cell, set[Cell]], mines: set[Cell]) -> bool:
    for r, row in enumerate(position.rows):
        for c, ch in enumerate(row):
            value = _value(ch)
            if value is not None:
                seen = sum(n in mines or position.rows[n[0]][n[1]] == "F"
                           for n in around[(r, c)])
                if seen != value:
                    return False
    return True


def _placements(position: Position) -> tuple[list[tuple[int, int]], list[tuple[int, int]],
                                             list[set[tuple[int, int]]]]:
    """The covered cells, the cells placements are made over, and every placement of the
    mines over them that fits every number (neighbours on the position's topology)."""
    around = neighbours_of(position)
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
        cells = [cell for cell in covered
                 if any(_value(position.rows[n[0]][n[1]]) is not None for n in around[cell])]
        placements = ({cell for cell, bit in zip(cells, bits, strict=True) if bit}
                      for bits in product((0, 1), repeat=len(cells)))
    return covered, cells, [mines for mines in placements if _fits(position, around, mines)]


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
