"""Exact counting over a tree decomposition: time linear in a component's size at bounded
treewidth, whatever its shape.

The DP engine (:mod:`~exactmines.analysis.backends.dp`) sweeps a part's boxes in one
order, so its tables hold the rules open at a cut of that order: the part's *pathwidth*,
small on the long thin fronts of square boards but growing with the logarithm of the size
on tree-like graphs (a random partial k-tree of 10,000 nodes has a front some 40 rules
wide however the boxes are ordered). :func:`plan` decomposes the part's *incidence graph*
(a node per box and per rule, a box joined to each rule over it) into a tree of bags with
networkx's greedy heuristics (``treewidth_min_fill_in`` on small parts, the faster
``treewidth_min_degree`` on large ones), and :class:`TreePart` counts over that tree:

* a bag's table is keyed by the mines of each box in the bag and, for each rule in the
  bag, the mines its boxes have given it so far (each box-rule pair counted at one bag:
  the highest that holds both); the value is the number of partial layouts by number of
  mines, a polynomial packed in one ``int`` as in the DP engine;
* *up*: a bag joins its children's messages (box mines equal, rule sums added: a join
  node), and passes on what its parent shares with it: a box whose highest bag it is
  leaves with its weight ``C(size, j) x^j``, a rule whose highest bag it is leaves once it
  holds exactly its number (rules that can no longer reach their number, or passed it,
  are dropped as they are met);
* *down*: the same from the root outwards (each child gets the join of the parent's own
  outside, the parent's bag and its other children's messages: prefix and suffix joins),
  and at each box's highest bag the inside and outside tables meet: the layouts, and the
  box's mine sum, by number of mines.

A bag of ``w + 1`` nodes holds at most the product of their ranges (box sizes + 1, rule
numbers + 1) keys, so the cost is linear in the number of bags for a fixed width;
:class:`~exactmines.errors.TooLarge` past the caller's cap on a table, as the DP engine.
networkx is imported by :func:`plan`, the only caller of its heuristics.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import product

from exactmines.analysis.combine import binomials
from exactmines.analysis.frontier import Component

__all__ = ["TreePlan", "TreePart", "plan", "sweep_width", "MIN_FILL_NODES"]

#: Parts of up to this many boxes and rules are decomposed by minimum fill-in (narrower,
#: but quadratic or worse in networkx); larger ones by minimum degree.
MIN_FILL_NODES = 400

Watch = Callable[..., None]


def sweep_width(component: Component, order: Sequence[int]) -> int:
    """The most rules open at once (boxes on both sides of a cut) when ``component``'s
    boxes are swept in ``order``: the width of the DP engine's tables."""
    place = [0] * len(component.sizes)
    for i, b in enumerate(order):
        place[b] = i
    change = [0] * (len(order) + 1)
    for rule in component.constraints:
        if len(rule.boxes) > 1:
            spots = [place[b] for b in rule.boxes]
            change[min(spots) + 1] += 1
            change[max(spots) + 1] -= 1
    width = current = 0
    for step in change:
        current += step
        width = max(width, current)
    return width


@dataclass(frozen=True)
class TreePlan:
    """A rooted tree decomposition of a component's incidence graph, ready to count over.

    Nodes are numbered boxes first (``0 .. boxes - 1``), then rules (``boxes + j`` for rule
    ``j``). ``bags[i]`` holds ``(boxes, rules)`` of bag ``i`` (sorted tuples, rules as rule
    indices), bags in breadth-first order from the root (bag 0), ``parent[i]`` (-1 for the
    root), ``children[i]``; ``edges[i]``: the box-rule pairs counted at bag ``i``;
    ``top_boxes[i]`` / ``top_rules[i]``: the boxes and rules whose highest bag is ``i``;
    ``inside[i]``: per rule of bag ``i``, the cells of its boxes counted at bag ``i`` or
    below; ``width``: the largest bag less one.
    """

    bags: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]
    parent: tuple[int, ...]
    children: tuple[tuple[int, ...], ...]
    edges: tuple[tuple[tuple[int, int], ...], ...]
    top_boxes: tuple[tuple[int, ...], ...]
    top_rules: tuple[tuple[int, ...], ...]
    inside: tuple[dict[int, int], ...]
    width: int


def plan(component: Component) -> TreePlan:
    """The tree decomposition :class:`TreePart` counts over (see the module notes).

    Cost: networkx's heuristic (about a second per 10,000 nodes by minimum degree), plus a
    few steps per bag and pair of its nodes.
    """
    import networkx as nx
    from networkx.algorithms.approximation import (
        treewidth_min_degree,
        treewidth_min_fill_in,
    )

    boxes = len(component.sizes)
    graph = nx.Graph()
    graph.add_nodes_from(range(boxes + len(component.constraints)))
    for j, rule in enumerate(component.constraints):
        graph.add_edges_from((b, boxes + j) for b in rule.boxes)
    heuristic = (treewidth_min_fill_in if graph.number_of_nodes() <= MIN_FILL_NODES
                 else treewidth_min_degree)
    _, tree = heuristic(graph)
    # One tree: networkx joins the bags of each connected part; parts of a component are
    # connected through their rules, but a forest is rooted bag by bag to be safe.
    order: list[frozenset[int]] = []
    parent_of: dict[frozenset[int], frozenset[int] | None] = {}
    for root in sorted(tree.nodes, key=lambda bag: (-len(bag), sorted(bag))):
        if root in parent_of:
            continue
        parent_of[root] = None
        queue = [root]
        head = 0
        while head < len(queue):
            bag = queue[head]
            head += 1
            order.append(bag)
            for other in sorted(tree.neighbors(bag), key=sorted):
                if other not in parent_of:
                    parent_of[other] = bag
                    queue.append(other)
    index = {bag: i for i, bag in enumerate(order)}
    parent = tuple(-1 if parent_of[bag] is None else index[parent_of[bag]]  # type: ignore[index]
                   for bag in order)
    # (A forest's later roots hang under bag 0 with nothing shared: still one tree.)
    parent = tuple(0 if p < 0 and i else p for i, p in enumerate(parent))
    children: list[list[int]] = [[] for _ in order]
    for i, p in enumerate(parent):
        if p >= 0:
            children[p].append(i)
    bags = tuple((tuple(sorted(v for v in bag if v < boxes)),
                  tuple(sorted(v - boxes for v in bag if v >= boxes))) for bag in order)
    top: dict[int, int] = {}
    for i, bag in enumerate(order):
        for v in bag:
            top.setdefault(v, i)
    rules_of: list[set[int]] = [set() for _ in range(boxes)]
    for j, rule in enumerate(component.constraints):
        for b in rule.boxes:
            rules_of[b].add(j)
    counted: set[tuple[int, int]] = set()
    edges: list[list[tuple[int, int]]] = [[] for _ in order]
    for i, (bag_boxes, bag_rules) in enumerate(bags):
        for b in bag_boxes:
            for j in bag_rules:
                if j in rules_of[b] and (b, j) not in counted:
                    counted.add((b, j))
                    edges[i].append((b, j))
    sizes = component.sizes
    inside: list[dict[int, int]] = [dict.fromkeys(rules, 0) for _, rules in bags]
    for i in range(len(order) - 1, -1, -1):
        here = inside[i]
        for b, j in edges[i]:
            here[j] += sizes[b]
        for c in children[i]:
            for j, cells in inside[c].items():
                if j in here:
                    here[j] += cells
    top_boxes: list[list[int]] = [[] for _ in order]
    top_rules: list[list[int]] = [[] for _ in order]
    for v, i in top.items():
        (top_boxes[i] if v < boxes else top_rules[i]).append(v if v < boxes else v - boxes)
    return TreePlan(bags, parent, tuple(map(tuple, children)), tuple(map(tuple, edges)),
                    tuple(tuple(sorted(t)) for t in top_boxes),
                    tuple(tuple(sorted(t)) for t in top_rules), tuple(inside),
                    max((len(b) + len(r) for b, r in bags), default=1) - 1)


class _Table:
    """Partial layouts keyed by box mines (``boxes``, in order) then rule sums (``rules``):
    each value a polynomial packed at the counting's shift, times ``x^offset``."""

    __slots__ = ("boxes", "rules", "data", "offset")

    def __init__(self, boxes: tuple[int, ...], rules: tuple[int, ...],
                 data: dict[tuple[int, ...], int], offset: int = 0) -> None:
        self.boxes, self.rules, self.data, self.offset = boxes, rules, data, offset

    def __len__(self) -> int:
        return len(self.data)


_UNIT = _Table((), (), {(): 1})


def _lower(table: dict[tuple[int, ...], int], shift: int
           ) -> tuple[dict[tuple[int, ...], int], int]:
    """:func:`~exactmines.analysis.backends.dp._lower` for tables keyed by tuples: every
    value divided by the largest ``x^d`` dividing them all, and d. (dp's own takes integer
    keys only once compiled, setup.py.)"""
    low = min((v & -v).bit_length() for v in table.values()) - 1
    drop = low // shift
    if drop:
        bits = drop * shift
        table = {k: v >> bits for k, v in table.items()}
    return table, drop


class TreePart:
    """The counts of one connected part over its tree decomposition: what the DP engine's
    sweeps give (``total``, ``polynomials``), so :func:`~exactmines.analysis.backends.dp.
    count_component` takes either."""

    def __init__(self, component: Component, tree: TreePlan) -> None:
        self.component = component
        self.cells = component.cells
        self.tree = tree
        self.width = tree.width
        self.need = [rule.mines for rule in component.constraints]
        self.room = [sum(component.sizes[b] for b in rule.boxes)
                     for rule in component.constraints]
        self.rules_of: list[list[int]] = [[] for _ in component.sizes]
        for j, rule in enumerate(component.constraints):
            for b in rule.boxes:
                self.rules_of[b].append(j)

    # -- the operations on tables ----------------------------------------------------

    def _join(self, a: _Table, b: _Table, watch: Watch,
              lows: dict[int, int] | None = None) -> _Table:
        """Partial layouts of both: shared boxes hold equal mines, shared rules add up
        (dropped past their number, and below ``lows[rule]``: the least a rule's sum can be
        and still reach its number with the cells not counted yet)."""
        if not b.boxes and not b.rules:
            return _Table(a.boxes, a.rules, {k: v * b.data[()] for k, v in a.data.items()},
                          a.offset + b.offset)
        boxes = tuple(sorted(set(a.boxes) | set(b.boxes)))
        rules = tuple(sorted(set(a.rules) | set(b.rules)))
        na, nb = len(a.boxes), len(b.boxes)
        a_box = {v: i for i, v in enumerate(a.boxes)}
        b_box = {v: i for i, v in enumerate(b.boxes)}
        a_rule = {v: na + i for i, v in enumerate(a.rules)}
        b_rule = {v: nb + i for i, v in enumerate(b.rules)}
        shared = [v for v in b.boxes if v in a_box]
        a_shared = [a_box[v] for v in shared]
        b_shared = [b_box[v] for v in shared]
        bucket: dict[tuple[int, ...], list[tuple[tuple[int, ...], int]]] = {}
        for key, value in b.data.items():
            bucket.setdefault(tuple(key[i] for i in b_shared), []).append((key, value))
        # Where each key position of the result comes from: (a position or -1, b position
        # or -1, the rule's number or -1 for a box).
        recipe = [(a_box.get(v, -1), b_box.get(v, -1), -1) for v in boxes]
        recipe += [(a_rule.get(v, -1), b_rule.get(v, -1), self.need[v]) for v in rules]
        floor = [(len(boxes) + k, lows[v]) for k, v in enumerate(rules)
                 if lows and lows.get(v, 0) > 0]
        out: dict[tuple[int, ...], int] = {}
        get = out.get
        for key, value in a.data.items():
            matches = bucket.get(tuple(key[i] for i in a_shared))
            if not matches:
                continue
            for other, more in matches:
                made = []
                for i, j, need in recipe:
                    x = (key[i] if i >= 0 else 0) + (other[j] if j >= 0 else 0) \
                        if need >= 0 else (key[i] if i >= 0 else other[j])
                    if need >= 0 and x > need:
                        break
                    made.append(x)
                else:
                    if any(made[k] < low for k, low in floor):
                        continue
                    k = tuple(made)
                    out[k] = get(k, 0) + value * more
        table = _Table(boxes, rules, out, a.offset + b.offset)
        watch(table)
        return table

    def _project(self, table: _Table, keep_boxes: tuple[int, ...], keep_rules: tuple[int, ...],
                 weigh: Sequence[int], room: dict[int, int], shift: int,
                 watch: Watch) -> _Table:
        """Keep ``keep_boxes`` and ``keep_rules``; boxes in ``weigh`` take their weight
        ``C(size, j) x^j``; every other rule must hold exactly its number; a kept rule that
        cannot reach its number with ``room[rule]`` more cells is dropped."""
        pos = {v: i for i, v in enumerate(table.boxes)}
        nb = len(table.boxes)
        rule_pos = {v: nb + i for i, v in enumerate(table.rules)}
        keep = [pos[v] for v in keep_boxes] + [rule_pos[v] for v in keep_rules]
        closing = [(rule_pos[v], self.need[v]) for v in table.rules if v not in keep_rules]
        lows = [(rule_pos[v], self.need[v] - room.get(v, 0)) for v in keep_rules]
        sizes = self.component.sizes
        weights = [(pos[b], [w << (j * shift) if shift else w
                             for j, w in enumerate(binomials(sizes[b]))]) for b in weigh]
        out: dict[tuple[int, ...], int] = {}
        get = out.get
        for key, value in table.data.items():
            if any(key[i] != need for i, need in closing) or \
                    any(key[i] < low for i, low in lows):
                continue
            for i, ws in weights:
                value *= ws[key[i]]
            k = tuple(key[i] for i in keep)
            out[k] = get(k, 0) + value
        made = _Table(keep_boxes, keep_rules, out, table.offset)
        if shift and out:
            made.data, drop = _lower(out, shift)
            made.offset += drop
        watch(made)
        return made

    def _base(self, i: int) -> _Table:
        """Every mine number of bag ``i``'s boxes, with the rule sums of the pairs counted
        there (dropped past a rule's number)."""
        bag_boxes, bag_rules = self.tree.bags[i]
        sizes = self.component.sizes
        place = {j: k for k, j in enumerate(bag_rules)}
        box_at = {b: k for k, b in enumerate(bag_boxes)}
        pairs = [(box_at[b], place[j]) for b, j in self.tree.edges[i]]
        need = [self.need[j] for j in bag_rules]
        data: dict[tuple[int, ...], int] = {}
        for values in product(*(range(sizes[b] + 1) for b in bag_boxes)):
            sums = [0] * len(bag_rules)
            for k, r in pairs:
                sums[r] += values[k]
            if all(s <= n for s, n in zip(sums, need, strict=True)):
                data[values + tuple(sums)] = 1
        return _Table(bag_boxes, bag_rules, data)

    def _counted_here(self, i: int) -> dict[int, int]:
        """Per rule of bag ``i``, the cells of its boxes counted at the bag itself."""
        counted = dict.fromkeys(self.tree.bags[i][1], 0)
        sizes = self.component.sizes
        for b, j in self.tree.edges[i]:
            counted[j] += sizes[b]
        return counted

    def _count_in(self, counted: dict[int, int], child: int) -> None:
        """Add the cells counted in ``child``'s subtree to ``counted``."""
        for j, cells in self.tree.inside[child].items():
            if j in counted:
                counted[j] += cells

    def _lows(self, counted: dict[int, int]) -> dict[int, int]:
        """The least sum each rule needs, with ``counted`` of its cells counted so far."""
        return {j: self.need[j] - (self.room[j] - cells) for j, cells in counted.items()}

    # -- the passes ----------------------------------------------------------------------

    def _up(self, shift: int, watch: Watch) -> tuple[list[_Table], list[_Table]]:
        """Each bag's inside table (its base joined with its children's messages) and its
        message to its parent, children first."""
        tree = self.tree
        n = len(tree.bags)
        inside: list[_Table] = [_UNIT] * n
        message: list[_Table] = [_UNIT] * n
        for i in range(n - 1, -1, -1):
            table = self._base(i)
            watch(table)
            counted = self._counted_here(i)
            for c in tree.children[i]:
                self._count_in(counted, c)
                table = self._join(table, message[c], watch, self._lows(counted))
            inside[i] = table
            p = tree.parent[i]
            keep_boxes, keep_rules = ((), ()) if p < 0 else (
                tuple(b for b in tree.bags[i][0] if b in set(tree.bags[p][0])),
                tuple(j for j in tree.bags[i][1] if j in set(tree.bags[p][1])))
            room = {j: self.room[j] - tree.inside[i][j] for j in keep_rules}
            message[i] = self._project(table, keep_boxes, keep_rules, tree.top_boxes[i], room,
                                       shift, watch)
        return inside, message

    def total(self, watch: Watch) -> int:
        """The exact number of layouts (sweep 1's answer): one up pass on plain counts."""
        _, message = self._up(0, watch)
        return message[0].data.get((), 0)

    def polynomials(self, shift: int, watch: Watch) -> tuple[tuple[int, int],
                                                              list[tuple[int, int]]]:
        """The layouts and each box's mine sum, packed at ``2**shift``, as ``(packed,
        offset)`` pairs: what :meth:`exactmines.analysis.backends.dp._Part.polynomials`
        returns."""
        tree = self.tree
        inside, message = self._up(shift, watch)
        root = message[0]
        total = (root.data.get((), 0), root.offset)
        sums: list[tuple[int, int]] = [(0, 0)] * len(self.component.sizes)
        outside: list[_Table] = [_UNIT] * len(tree.bags)
        for i, (bag_boxes, bag_rules) in enumerate(tree.bags):
            out = outside[i]
            self._box_sums(i, inside[i], out, shift, sums)
            kids = tree.children[i]
            if not kids:
                continue
            # Outside of each child: this bag's base and outside, joined with the other
            # children's messages (prefix and suffix joins).
            counted = self._counted_here(i)
            for j in counted:  # everything outside this bag's subtree is in ``out``
                counted[j] += self.room[j] - tree.inside[i][j]
            start = self._join(self._base(i), out, watch, self._lows(counted))
            prefix = [start]
            for c in kids[:-1]:
                self._count_in(counted, c)
                prefix.append(self._join(prefix[-1], message[c], watch, self._lows(counted)))
            suffix = _UNIT
            for k in range(len(kids) - 1, -1, -1):
                c = kids[k]
                table = prefix[k] if suffix is _UNIT else self._join(prefix[k], suffix, watch)
                child_boxes, child_rules = set(tree.bags[c][0]), set(tree.bags[c][1])
                keep_boxes = tuple(b for b in bag_boxes if b in child_boxes)
                keep_rules = tuple(j for j in bag_rules if j in child_rules)
                room = {j: tree.inside[c][j] for j in keep_rules}
                outside[c] = self._project(table, keep_boxes, keep_rules, tree.top_boxes[i],
                                           room, shift, watch)
                if k:
                    suffix = message[c] if suffix is _UNIT else \
                        self._join(message[c], suffix, watch)
            outside[i] = _UNIT
        return total, sums

    def _box_sums(self, i: int, inside: _Table, outside: _Table, shift: int,
                  sums: list[tuple[int, int]]) -> None:
        """The mine sums of the boxes whose highest bag is ``i``: each inside key meets the
        outside key that completes every rule of the bag to its number."""
        tops = self.tree.top_boxes[i]
        if not tops:
            return
        pos = {v: k for k, v in enumerate(inside.boxes)}
        nb = len(inside.boxes)
        rule_pos = {v: nb + k for k, v in enumerate(inside.rules)}
        shared_rules = set(outside.rules)
        closed = [(rule_pos[j], self.need[j]) for j in inside.rules if j not in shared_rules]
        lookup = [(pos[b], -1) for b in outside.boxes] + \
                 [(rule_pos[j], self.need[j]) for j in outside.rules]
        sizes = self.component.sizes
        weights = [(pos[b], [w << (j * shift) for j, w in enumerate(binomials(sizes[b]))])
                   for b in tops]
        acc = [0] * len(tops)
        other = outside.data
        for key, value in inside.data.items():
            if any(key[k] != need for k, need in closed):
                continue
            match = other.get(tuple(key[k] if need < 0 else need - key[k]
                                    for k, need in lookup))
            if match is None:
                continue
            value *= match
            for k, ws in weights:
                value *= ws[key[k]]
            for t, (k, _) in enumerate(weights):
                if key[k]:
                    acc[t] += value * key[k]
        offset = inside.offset + outside.offset
        for b, total in zip(tops, acc, strict=True):
            sums[b] = (total, offset)

