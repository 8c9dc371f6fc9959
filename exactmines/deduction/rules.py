"""Local rules and the grouping of rules, on bitmasks.

A *rule* (:data:`~exactmines.analysis.frontier.Rule`) is a revealed number's unknown
neighbours, as a bitmask, with the mines among them (its number less its flags). The local
rules take a rule's mask in any numbering of the cells, as long as the two rules of a pair
use the same one: the player numbers a clue's neighbours in a 7-wide frame around it (a mask
of under 49 bits, whatever the board), the no-guess check by flat index ``r * width + c``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple

from exactmines.analysis.frontier import Component, Constraint, Rule
from exactmines.position import indices_of

__all__ = ["single", "pair", "Boxes", "boxes", "component", "group"]


def single(free: int, need: int) -> tuple[int, int]:
    """``(safe, mines)`` that one rule proves: all of ``free`` safe when it needs no more
    mines, all mines when it needs every cell, else nothing.

    >>> single(0b0110, 0), single(0b0110, 2), single(0b0110, 1)
    ((6, 0), (0, 6), (0, 0))
    """
    if need == 0:
        return free, 0
    if need == free.bit_count():
        return 0, free
    return 0, 0


def pair(free_i: int, need_i: int, free_j: int, need_j: int) -> tuple[int, int]:
    """``(safe, mines)`` that two overlapping rules prove together (the "1-2" patterns).

    The mines of ``j``'s own cells less those of ``i``'s own cells are ``need_j - need_i``
    (the shared cells cancel); when that difference is as large as one side's own cells
    allow, that side is all mines and the other side's own cells are all safe. Rules sharing
    no cell prove nothing. Cost: a few operations on the two masks.

    >>> pair(0b011, 1, 0b111, 2)  # a 1 over two cells inside a 2 over three: the third is a mine
    (0, 4)
    """
    shared = free_i & free_j
    if not shared:
        return 0, 0
    overlap = shared.bit_count()
    diff = need_j - need_i
    if diff == free_j.bit_count() - overlap:
        return free_i & ~free_j, free_j & ~free_i
    if -diff == free_i.bit_count() - overlap:
        return free_j & ~free_i, free_i & ~free_j
    return 0, 0


class Boxes(NamedTuple):
    """Cells grouped by the rules they are under: ``masks[b]`` the cells of box ``b`` (boxes
    in the order of their lowest cell), ``of_rule[j]`` the boxes of rule ``j``, ``inside``
    the boxes in the probe (see :func:`boxes`)."""

    masks: tuple[int, ...]
    of_rule: tuple[tuple[int, ...], ...]
    inside: tuple[int, ...]


def boxes(rules: Sequence[Rule], probe: int = 0) -> Boxes:
    """Cells under the same rules (and, with ``probe``, on the same side of it) form a box.

    Cost: a few steps per cell of the rules.

    >>> boxes([(0b011, 1), (0b110, 1)])
    Boxes(masks=(1, 2, 4), of_rule=((0, 1), (1, 2)), inside=())
    """
    probe_bit = 1 << len(rules)
    under: dict[int, int] = {}
    for j, (free, _) in enumerate(rules):
        for i in indices_of(free):
            under[i] = under.get(i, 0) | (1 << j)
    for i in indices_of(probe):
        under[i] = under.get(i, 0) | probe_bit
    found: dict[int, int] = {}
    for i in sorted(under):
        found[under[i]] = found.get(under[i], 0) | (1 << i)
    keys = list(found)
    of_rule = tuple(tuple(b for b, key in enumerate(keys) if (key >> j) & 1)
                    for j in range(len(rules)))
    inside = tuple(b for b, key in enumerate(keys) if key & probe_bit)
    return Boxes(tuple(found[k] for k in keys), of_rule, inside)


def component(rules: Sequence[Rule]) -> tuple[Component, tuple[int, ...]]:
    """Rules over cells -> the :class:`~exactmines.analysis.frontier.Component` over their
    boxes that the counting backends take, with the boxes' cell masks."""
    found = boxes(rules)
    constraints = tuple(Constraint(of, need)
                        for of, (_, need) in zip(found.of_rule, rules, strict=True))
    return Component(tuple(m.bit_count() for m in found.masks), constraints), found.masks


def group(cells: Sequence[Iterable[int]]) -> list[list[int]]:
    """The rules linked by shared cells: for rules over ``cells[j]`` (cell numbers of any
    kind), the indices of the rules of each component, ascending, components in the order of
    their first rule.

    Union-find over the rules, joined through the cells they cover: a few steps per cell, so
    linear in the rules' size on any board (merging bitmask groups pairwise is quadratic in
    the number of components, and a bitmask over a large board costs its length per
    operation).

    >>> group([[0, 1], [3], [1, 2]])
    [[0, 2], [1]]
    """
    parent = list(range(len(cells)))

    def root(j: int) -> int:
        while parent[j] != j:
            parent[j] = parent[parent[j]]
            j = parent[j]
        return j

    owner: dict[int, int] = {}
    for j, covered in enumerate(cells):
        for i in covered:
            k = owner.setdefault(i, j)
            if k != j:
                a, b = root(k), root(j)
                if a != b:
                    parent[max(a, b)] = min(a, b)
    members: dict[int, list[int]] = {}
    for j in range(len(cells)):
        members.setdefault(root(j), []).append(j)
    return list(members.values())
