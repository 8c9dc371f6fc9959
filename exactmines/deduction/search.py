"""The one enumerator of a component's solutions, over its boxes, with one node budget.

A component's rules, grouped into boxes (:func:`~exactmines.deduction.rules.boxes`), have
solutions that give each box a number of mines; each stands for the product of
``C(size, mines)`` cell layouts. :func:`box_search` lists them depth-first; the player counts
and lists layouts with it, and the no-guess check folds them into :func:`extremes`. Past its
budget of search nodes it raises :class:`~exactmines.errors.TooLarge` and the caller hands
the component to a counting backend (:mod:`exactmines.analysis.backends`), which is exact
too: the budget decides only which of two exact routes answers.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from math import comb

from exactmines.analysis.frontier import Rule
from exactmines.budget import UNLIMITED, Budget
from exactmines.deduction.rules import boxes
from exactmines.errors import TooLarge

__all__ = ["NODES", "box_search", "extremes"]

#: Search nodes :func:`box_search` may take for one component unless told otherwise: a few
#: milliseconds, which covers the small components of ordinary play, where a counting
#: backend's set-up costs more than the search.
NODES = 3000
#: Search nodes between two looks at the clock when the budget has a limit (a few ms).
_CLOCK_NODES = 4096
_NEVER = 1 << 62


def box_search(sizes: Sequence[int], rule_boxes: Sequence[Sequence[int]],
               needs: Sequence[int], limit: int | None,
               leaf: Callable[[list[int], int, int], None], *,
               budget: Budget = UNLIMITED) -> None:
    """Every mine number per box that satisfies the rules: ``leaf(chosen, weight, k)`` for
    each, with ``chosen[b]`` the mines of box ``b``, ``weight`` the cell layouts it stands
    for (a product of binomials) and ``k`` its mines.

    Depth-first over the boxes in their order. A box's mine number is bounded by each of its
    rules: at most what the rule still needs, at least what the rule's cells after this box
    cannot hold; a rule's last box therefore meets it exactly, and every leaf satisfies every
    rule. Cost: the search nodes, at most ``limit`` (:data:`NODES` is the usual budget;
    ``None``: no limit), past which :class:`~exactmines.errors.TooLarge` is raised; when the
    ``budget`` has a limit the clock is read at the first node and every few thousand
    after, and :class:`~exactmines.errors.OutOfTime` raised once it has run out.
    """
    n = len(sizes)
    rules_of: list[list[int]] = [[] for _ in range(n)]
    for j, of_rule in enumerate(rule_boxes):
        for b in of_rule:
            rules_of[b].append(j)
    need = list(needs)
    room = [sum(sizes[b] for b in of_rule) for of_rule in rule_boxes]
    if any(x < 0 or x > r for x, r in zip(need, room, strict=True)):
        return
    binomials = [[comb(s, m) for m in range(s + 1)] for s in sizes]
    chosen = [0] * n
    nodes = 0
    # The next node count at which a limit is looked at: one comparison per node.
    most = _NEVER if limit is None else limit
    stop = most if not budget.limited else 0

    def look() -> None:
        nonlocal stop
        if nodes > most:
            raise TooLarge(f"more than {limit} search nodes")
        budget.check("searching layouts")
        stop = min(most, nodes + _CLOCK_NODES)

    def visit(b: int, weight: int, k: int) -> None:
        nonlocal nodes
        nodes += 1
        if nodes > stop:
            look()
        if b == n:
            leaf(chosen, weight, k)
            return
        size = sizes[b]
        low, high = 0, size
        mine_rules = rules_of[b]
        for j in mine_rules:
            if need[j] < high:
                high = need[j]
            left = room[j] - size
            if need[j] - left > low:
                low = need[j] - left
        if low > high:
            return
        for j in mine_rules:
            room[j] -= size
        row_weights = binomials[b]
        for m in range(low, high + 1):
            for j in mine_rules:
                need[j] -= m
            chosen[b] = m
            visit(b + 1, weight * row_weights[m], k + m)
            for j in mine_rules:
                need[j] += m
        chosen[b] = 0
        for j in mine_rules:
            room[j] += size

    visit(0, 1, 0)


def extremes(rules: Sequence[Rule], limit: int | None = NODES) -> dict[int, tuple[int, int]]:
    """Per mine number ``k`` of the layouts of ``rules`` (one component), the cells some
    layout with ``k`` mines mines and the cells every such layout mines: ``{k: (some,
    every)}``, masks in the rules' numbering. A cell of a box is a mine in some layout of a
    solution when the box holds a mine, and in all of them when the box is full.

    Cost: :func:`box_search` (at most ``limit`` nodes, then
    :class:`~exactmines.errors.TooLarge`), a step per box per solution.

    >>> extremes([(0b011, 1), (0b110, 1)])  # 1 and 1 sharing the middle cell
    {1: (2, 2), 2: (5, 5)}
    """
    masks, of_rule, _ = boxes(rules)
    sizes = [m.bit_count() for m in masks]
    found: dict[int, list[int]] = {}

    def leaf(chosen: list[int], weight: int, k: int) -> None:
        some = every = 0
        for mask, size, m in zip(masks, sizes, chosen, strict=True):
            if m:
                some |= mask
                if m == size:
                    every |= mask
        entry = found.get(k)
        if entry is None:
            found[k] = [some, every]
        else:
            entry[0] |= some
            entry[1] &= every

    box_search(sizes, of_rule, [need for _, need in rules], limit, leaf)
    return {k: (some, every) for k, (some, every) in sorted(found.items())}
