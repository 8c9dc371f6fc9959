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


def build_frontier(position: Position) -> Frontier:
    """Cut ``position`` into boxes and independent components.

    Notes
    -----
    O(cells) to find the rules and boxes, plus networkx's connected components over the
    (box, number) incidence graph, which is linear in its size.
    """
    width, height, rows = position.width, position.height, position.rows
    covered_total = 0
    flags_total = 0
    clue_of: dict[Cell, list[int]] = {}
    clue_cells: list[Cell] = []
    clue_needs: list[int] = []
    contradiction: str | None = None
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch == COVERED:
                covered_total += 1
                continue
            if ch == FLAG:
                flags_total += 1
                continue
            value = ord(ch) - 48
            unknown: list[Cell] = []
            flagged = 0
            for rr in range(max(r - 1, 0), min(r + 2, height)):
                line = rows[rr]
                for cc in range(max(c - 1, 0), min(c + 2, width)):
                    nch = line[cc]
                    if nch == COVERED:
                        unknown.append((rr, cc))
                    elif nch == FLAG:
                        flagged += 1
            need = value - flagged
            if (need < 0 or need > len(unknown)) and contradiction is None:
                contradiction = (f"the {value} at row {r}, col {c} has {flagged} flags and "
                                 f"{len(unknown)} covered cells around it")
            if not unknown:
                continue
            index = len(clue_cells)
            clue_cells.append((r, c))
            clue_needs.append(need)
            for cell in unknown:
                clue_of.setdefault(cell, []).append(index)

    mines_left = None if position.mines is None else position.mines - flags_total
    if mines_left is not None and contradiction is None:
        if mines_left < 0:
            contradiction = f"{flags_total} flags but only {position.mines} mines"
        elif mines_left > covered_total:
            contradiction = f"{mines_left} mines left for {covered_total} covered cells"

    # Cells under the same numbers form one box; clue lists are built in row-major order
    # of the numbers, so equal sets give equal tuples.
    boxes: dict[tuple[int, ...], list[Cell]] = {}
    for cell in sorted(clue_of):
        boxes.setdefault(tuple(clue_of[cell]), []).append(cell)

    graph = nx.Graph()
    for key in boxes:
        graph.add_node(("box", key))
        for clue in key:
            graph.add_edge(("box", key), ("clue", clue))

    pieces = []
    for nodes in nx.connected_components(graph):
        keys = sorted((node[1] for node in nodes if node[0] == "box"),
                      key=lambda k: boxes[k][0])
        clues = sorted(node[1] for node in nodes if node[0] == "clue")
        local = {clue: j for j, clue in enumerate(clues)}
        members: list[list[int]] = [[] for _ in clues]
        for b, key in enumerate(keys):
            for clue in key:
                members[local[clue]].append(b)
        component = Component(
            sizes=tuple(len(boxes[k]) for k in keys),
            constraints=tuple(Constraint(tuple(m), clue_needs[clue])
                              for m, clue in zip(members, clues)),
        )
        pieces.append((boxes[keys[0]][0], component, tuple(tuple(boxes[k]) for k in keys),
                       tuple(clue_cells[clue] for clue in clues)))
    pieces.sort(key=lambda piece: piece[0])

    outside = tuple((r, c) for r, row in enumerate(rows) for c, ch in enumerate(row)
                    if ch == COVERED and (r, c) not in clue_of)
    return Frontier(
        components=tuple(p[1] for p in pieces),
        box_cells=tuple(p[2] for p in pieces),
        clue_cells=tuple(p[3] for p in pieces),
        outside=outside,
        mines_left=mines_left,
        contradiction=contradiction,
    )
