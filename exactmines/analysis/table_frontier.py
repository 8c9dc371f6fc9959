"""The frontier of a position on any topology, from its neighbour table.

:func:`~exactmines.analysis.frontier.build_frontier`, the one entry for every topology,
hands every position whose topology is not the square grid to :func:`table_frontier` here
(never call it yourself: the entry also pauses the garbage collector): the same
:class:`Frontier` (boxes, components, rules, contradiction, cells off the frontier, in the
same orders), found by looking each cell's neighbours up in the topology's table instead
of the square grid's shifts and fixed offsets. What the rules force is left to the backends
(``forced`` is ``None``), and the part-by-part split of
:func:`~exactmines.analysis.frontier.split_forced` is the square grid's alone.
"""

from __future__ import annotations

from itertools import repeat

from exactmines.analysis.frontier import (
    _CHUNK,
    BUILDING,
    Component,
    Constraint,
    Frontier,
    _boxes_by_key,
    _count_contradiction,
    _join,
)
from exactmines.budget import UNLIMITED, Budget
from exactmines.position import COVERED, FLAG, Cell, Position
from exactmines.topology import char_number, is_number_char

__all__ = ["table_frontier"]


def table_frontier(position: Position, budget: Budget = UNLIMITED) -> Frontier:
    """``position`` cut into boxes and independent components, on its topology.

    Notes
    -----
    Two passes over the cells and their neighbours (linear in the cells and the table):
    the first sorts every cell into covered, flagged and numbered and counts each number's
    covered and flagged neighbours; the second groups the covered cells next to a number
    by the numbers around them (the boxes, in order of first cell). Components come from
    the frontier's union-find, rules are dealt to them in cell order.
    """
    budget.check(BUILDING)
    topology = position.topology
    table = topology.neighbour_table
    width = position.width
    text = "".join(position.rows)
    covered = [ch == COVERED for ch in text]
    flagged = [ch == FLAG for ch in text]
    number = [char_number(ch) if is_number_char(ch) else -1 for ch in text]

    # Each number's covered and flagged neighbours; the first impossible one, in cell order.
    contradiction: str | None = None
    contradiction_at: Cell | None = None
    clue_list: list[int] = []
    clue_needs: list[int] = []
    for q, value in enumerate(number):
        if value < 0:
            continue
        if not q & (_CHUNK - 1):
            budget.check(BUILDING)
        around = table[q]
        free = sum(covered[n] for n in around)
        flags = sum(flagged[n] for n in around)
        if contradiction is None and not flags <= value <= flags + free:
            contradiction_at = divmod(q, width)
            contradiction = (f"the {value} at {topology.cell_text(divmod(q, width))} has "
                             f"{flags} flags and {free} covered cells around it")
        if free:
            clue_list.append(q)
            clue_needs.append(value - flags)
    flags_total = sum(flagged)
    mines_left = None if position.mines is None else position.mines - flags_total
    contradiction = contradiction or _count_contradiction(position.mines, flags_total,
                                                          sum(covered))

    # The covered cells next to a number, keyed by those numbers (ascending indices).
    is_clue = [False] * len(text)
    for q in clue_list:
        is_clue[q] = True
    touched: list[int] = []
    keys: list[tuple[int, ...]] = []
    outside: list[int] = []
    for p, free in enumerate(covered):
        if not free:
            continue
        if not p & (_CHUNK - 1):
            budget.check(BUILDING)
        key = tuple(n for n in table[p] if is_clue[n])
        if key:
            touched.append(p)
            keys.append(key)
        else:
            outside.append(p)
    boxes = _boxes_by_key(keys, touched, budget)
    members, component_of, local, boxes_of = _join(boxes, budget)
    budget.check(BUILDING)
    rules: list[list[Constraint]] = [[] for _ in members]
    clues: list[list[int]] = [[] for _ in members]
    to_local = local.__getitem__
    for q, need in zip(clue_list, clue_needs, strict=True):
        under = boxes_of[q]
        i = component_of[under[0]]
        rules[i].append(tuple.__new__(Constraint, (tuple(map(to_local, under)), need)))
        clues[i].append(q)

    def cells(indices: list[int]) -> tuple[Cell, ...]:
        return tuple(map(divmod, indices, repeat(width)))

    budget.check(BUILDING)
    box_cells = [cells(box) for box in boxes.values()]
    return Frontier(
        components=tuple(Component(tuple(len(box_cells[b]) for b in nodes), tuple(r))
                         for nodes, r in zip(members, rules, strict=True)),
        box_cells=tuple(tuple(box_cells[b] for b in nodes) for nodes in members),
        clue_cells=tuple(cells(qs) for qs in clues),
        outside=cells(outside),
        mines_left=mines_left,
        contradiction=contradiction,
        contradiction_at=contradiction_at,
    )
