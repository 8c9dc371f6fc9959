"""Position -> constraints -> boxes -> independent components.

Every revealed number says "exactly k of these covered cells are mines". Covered cells
that sit under exactly the same set of numbers are interchangeable: they form a *box*, one
variable counted with a binomial weight C(size, mines). Boxes linked through shared numbers
form a *component*; components are independent except through the total mine count.

Backends see only :class:`Component` (box sizes and "exactly k of these boxes" rules): no
grid, no cells. The cells behind each box stay here, in :class:`Frontier`.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import compress, pairwise, repeat

import networkx as nx

from .position import COVERED, FLAG, Cell, Position

__all__ = ["Constraint", "Component", "Frontier", "build_frontier"]


@dataclass(frozen=True, slots=True)
class Constraint:
    """Exactly ``mines`` of the cells in ``boxes`` (indices into the component) are mines."""

    boxes: tuple[int, ...]
    mines: int


@dataclass(frozen=True, slots=True)
class Component:
    """A connected set of boxes and the rules over them: all a backend ever sees.

    Attributes
    ----------
    sizes:
        Number of cells in each box.
    constraints:
        One rule per revealed number that touches the component.
    """

    sizes: tuple[int, ...]
    constraints: tuple[Constraint, ...]

    @property
    def cells(self) -> int:
        return sum(self.sizes)


@dataclass(frozen=True, slots=True)
class Frontier:
    """A position cut into independent pieces.

    Attributes
    ----------
    components:
        Independent components, ordered by their smallest cell.
    box_cells:
        ``box_cells[i][b]``: the cells of box ``b`` of component ``i``, row-major.
    clue_cells:
        ``clue_cells[i][j]``: the revealed cell behind constraint ``j`` of component ``i``.
    outside:
        Covered, unflagged cells next to no number, row-major.
    mines_left:
        Total mines minus flags, or ``None`` when the total is unknown.
    contradiction:
        Why the position is inconsistent on its face (a number with too many flags around it,
        say), or ``None``.
    """

    components: tuple[Component, ...]
    box_cells: tuple[tuple[tuple[Cell, ...], ...], ...]
    clue_cells: tuple[tuple[Cell, ...], ...]
    outside: tuple[Cell, ...]
    mines_left: int | None
    contradiction: str | None

    @property
    def frontier_cells(self) -> int:
        return sum(c.cells for c in self.components)


def _mask(text: str, chars: str) -> int:
    """Bit ``i`` set where ``text[i]`` is one of ``chars`` (one C-speed pass)."""
    table = str.maketrans({ch: "1" if ch in chars else "0" for ch in set(text)})
    return int(text.translate(table)[::-1] or "0", 2)


_ZERO_BYTE = str.maketrans({"0": "\x00"})


def _bits(mask: int) -> list[int]:
    """The set bits of ``mask``, ascending (C-speed passes, not a loop per bit)."""
    flags = format(mask, "b")[::-1].translate(_ZERO_BYTE).encode()
    return list(compress(range(len(flags)), flags))


def _cells(mask: int, width: int, height: int) -> list[Cell]:
    """The cells of a mask over the padded grid (``width + 2`` to a row), row-major."""
    stride = width + 2
    text = format(mask, "b")[::-1].ljust((height + 2) * stride, "0")
    inner = "".join(text[r * stride + 1:r * stride + 1 + width] for r in range(1, height + 1))
    flags = inner.translate(_ZERO_BYTE).encode()
    return list(map(divmod, compress(range(len(flags)), flags), repeat(width)))


def build_frontier(position: Position) -> Frontier:
    """Cut ``position`` into boxes and independent components.

    Notes
    -----
    The grid is one string with a border of blanks, ``W = width + 2`` to a row, so every
    cell has its 8 neighbours at fixed offsets. Whole-board questions (which covered cells
    touch a number, which numbers have a covered or flagged neighbour) are big-integer
    bitmask shifts, linear in the cells but at C speed; the Python loops run only over the
    covered cells that touch a number and the flags. Then networkx's connected components
    over the boxes, linked through shared numbers, linear in the size of the graph.
    """
    width = position.width
    stride = width + 2
    blank = " " * stride
    grid = blank + "".join(f" {row} " for row in position.rows) + blank
    digits = "012345678"
    covered_mask = _mask(grid, COVERED)
    flag_mask = _mask(grid, FLAG)
    number_mask = _mask(grid, digits)

    def around(mask: int) -> int:
        row = mask | mask << 1 | mask >> 1
        return row | row << stride | row >> stride

    # Covered cells next to a number, and the numbers next to them, row-major (a padded
    # index orders cells exactly as (row, col) does).
    offsets = (-stride - 1, -stride, -stride + 1, -1, 1, stride - 1, stride, stride + 1)
    touched_mask = covered_mask & around(number_mask)
    touched = _bits(touched_mask)
    keys = []
    clue_set: set[int] = set()
    up, down = stride + 1, stride - 1
    for p in touched:
        near = [q for q in (p - up, p - stride, p - down, p - 1, p + 1, p + down, p + stride,
                            p + up) if grid[q] in digits]
        keys.append(near)
        clue_set.update(near)
    clue_list = sorted(clue_set)
    index = {p: j for j, p in enumerate(clue_list)}
    unknown = [0] * len(clue_list)
    boxes: dict[tuple[int, ...], list[Cell]] = {}
    for cell, near in zip(_cells(touched_mask, width, position.height), keys, strict=True):
        under = tuple(map(index.__getitem__, near))
        for j in under:
            unknown[j] += 1
        boxes.setdefault(under, []).append(cell)
    flagged: dict[int, int] = {}
    for f in _bits(flag_mask):
        for d in offsets:
            q = f + d
            if grid[q] in digits:
                flagged[q] = flagged.get(q, 0) + 1

    # Numbers that cannot be met on their face: the first, row-major, is reported.
    contradiction: str | None = None
    clue_needs = [int(grid[q]) - flagged.get(q, 0) for q in clue_list] if flagged \
        else [int(grid[q]) for q in clue_list]
    bad: list[tuple[int, int, int]] = []  # (padded index, flags around, covered around)
    for j, need in enumerate(clue_needs):
        if need < 0 or need > unknown[j]:
            q = clue_list[j]
            bad.append((q, flagged.get(q, 0), unknown[j]))
    for q, flags in flagged.items():
        if q not in index and int(grid[q]) != flags:
            bad.append((q, flags, 0))
    lonely = number_mask & ~_mask(grid, "0") & ~around(covered_mask | flag_mask)
    if lonely:
        q = (lonely & -lonely).bit_length() - 1
        bad.append((q, 0, 0))
    if bad:
        q, flags, count = min(bad)
        contradiction = (f"the {grid[q]} at row {q // stride - 1}, col {q % stride - 1} has "
                         f"{flags} flags and {count} covered cells around it")
    covered_total = covered_mask.bit_count()
    flags_total = flag_mask.bit_count()
    mines_left = None if position.mines is None else position.mines - flags_total
    if mines_left is not None and contradiction is None:
        if mines_left < 0:
            contradiction = f"{flags_total} flags but only {position.mines} mines"
        elif mines_left > covered_total:
            contradiction = f"{mines_left} mines left for {covered_total} covered cells"
    clue_cells = [(q // stride - 1, q % stride - 1) for q in clue_list]

    # Components: boxes are the nodes, and the boxes under one number a path (as connected
    # as a star through a number node, with fewer nodes and edges for networkx to build).
    keys_list = list(boxes)  # in order of first cell
    boxes_of: list[list[int]] = [[] for _ in clue_list]
    for b, key in enumerate(keys_list):
        for clue in key:
            boxes_of[clue].append(b)
    graph = nx.Graph()
    graph.add_nodes_from(range(len(keys_list)))
    graph.add_edges_from(pair for under in boxes_of if len(under) > 1
                         for pair in pairwise(under))
    pieces = []
    for nodes in nx.connected_components(graph):
        members_of = sorted(nodes)
        local = {node: b for b, node in enumerate(members_of)}
        clues = sorted({clue for node in members_of for clue in keys_list[node]})  # row-major
        component = Component(
            sizes=tuple(len(boxes[keys_list[node]]) for node in members_of),
            constraints=tuple(Constraint(tuple(map(local.__getitem__, boxes_of[clue])),
                                         clue_needs[clue]) for clue in clues),
        )
        pieces.append((boxes[keys_list[members_of[0]]][0], component,
                       tuple(tuple(boxes[keys_list[node]]) for node in members_of),
                       tuple(clue_cells[clue] for clue in clues)))
    pieces.sort(key=lambda piece: piece[0])

    outside = tuple(_cells(covered_mask & ~around(number_mask), width, position.height))
    return Frontier(
        components=tuple(p[1] for p in pieces),
        box_cells=tuple(p[2] for p in pieces),
        clue_cells=tuple(p[3] for p in pieces),
        outside=outside,
        mines_left=mines_left,
        contradiction=contradiction,
    )
