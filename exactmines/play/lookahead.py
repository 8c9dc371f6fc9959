"""Exact counts of a player's view and of the positions a hypothetical reveal leaves,
incremental and cached: the counting under :mod:`exactmines.play.strategy`.

The player's view enters as *rules* (:data:`Rule`): per revealed number that still touches
an unknown cell, its unknown neighbours (a bitmask over flat indices ``r * width + c``) and
the mines among them. Rules linked by shared cells form a component, and a component's cells
under the same rules a box; each component is counted exactly by mine number
(:class:`Part`): by the depth-first search over its boxes
(:func:`~exactmines.deduction.search.box_search`), which also lists its box solutions, or,
past its limit of :data:`~exactmines.deduction.search.NODES` search nodes, by the
:class:`Cache`'s counting engine through
:func:`~exactmines.analysis.counting.count_components` (the analysis' counting; the DP by
default) and, should that give up too, by the search without a node limit. That last
fallback and the engine stop when the move's budget runs out (a parameter of each question,
:meth:`Cache.under`; :class:`~exactmines.errors.OutOfTime`: the move is not made, nothing
is guessed). :func:`counted` gives the components, and
:meth:`Counted.weighed` their combination under the mine count with the cells next to no
number: the analysis' own, :func:`~exactmines.analysis.combine.weigh` (with its big-number
:class:`~exactmines.analysis.combine.Scale` on large boards), so the player's probabilities
and the analysis' come from the same code.

For the guessing parts, :class:`Values` gives each value a cell can show with its layouts
and, one value at a time, the position it leaves (:class:`After`: its layouts, least mine
probability and certainly safe cells). Only the components the cell touches are counted
again -- from their listed solutions, since a reveal only cuts their boxes in two (a
hypergeometric split, no new search), or else by one new search -- while the products of the
others are kept (:class:`Kept`: the same formula as
:func:`~exactmines.analysis.combine.weigh`, kept ready for one more part at a time, made of
:mod:`exactmines.analysis.combine`'s pieces: :func:`~exactmines.analysis.combine.correlate`,
:func:`~exactmines.analysis.combine.tail_binomials`); so a value's layouts cost one dot
product and its position a few more.
:class:`Cache` keeps counted components, probes and reveals, keyed by their rules, for a
whole game: a guess changes one component, and most reveals recur from one guess to the
next.

Cost: a component not in the cache, its search nodes (at most ``NODES``) or one DP
count; a combination, products and correlations of polynomials over the components' mine
numbers; a reveal, one pass over the merged components' solutions (or a search) and a few
dot products per value.

Everything is a Python ``int`` or :class:`~fractions.Fraction`; there is no float anywhere
in this module.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import comb
from typing import Protocol

from exactmines.analysis.backends import Backend, ComponentCounts
from exactmines.analysis.backends.auto import AutoBackend
from exactmines.analysis.combine import (
    Ratios,
    Scale,
    correlate,
    count_layouts,
    poly_mul,
    tail_binomials,
    weigh,
)
from exactmines.analysis.counting import count_components
from exactmines.analysis.frontier import Component, Constraint, Rule, group_rules
from exactmines.budget import UNLIMITED, Budget
from exactmines.deduction import NODES, box_search, boxes, group
from exactmines.errors import BudgetExceeded, OutOfTime, TooLarge
from exactmines.position import indices_of as _bits

__all__ = [
    "Solution",
    "Part",
    "Cache",
    "Counter",
    "Counting",
    "Kept",
    "After",
    "Counted",
    "counted",
    "Values",
    "count_boxes",
    "counted_large",
]


#: One solution of a component's rules over its boxes: ``(mines, mines per box, cell
#: layouts it stands for)``, the last the product of ``C(size, mines)`` over the boxes.
Solution = tuple[int, tuple[int, ...], int]


class SharedSolutions(Protocol):
    """Counts shared with an analysis of the same piece of work, as the player's
    :class:`Cache` asks for them: a component's counts and, where they were listed, its
    box solutions (:class:`~exactmines.play.shared.SharedCounts` is the one there is; it
    counts through this module, so this module names only what it asks)."""

    def listed(self, engine: Backend, component: Component, budget: Budget = ...
               ) -> tuple[ComponentCounts, tuple[Solution, ...] | None]: ...


@dataclass(frozen=True, slots=True)
class Part:
    """Counted cells of the frontier: their boxes (cells under the same rules) and exact
    counts. Usually one component; the pieces a hypothetical reveal rebuilds may be several
    (counts of a union of independent pieces are their product, which is all the
    combination needs). The parts :func:`_probed` and :func:`_revealed` make count only the
    layouts with a given number of mines in the probe, which ``rule_boxes`` and ``needs`` do
    not say (:func:`_revealed` leaves them empty): they are combined, never listed.
    ``solutions`` lists the box solutions when the box search counted the part (``None``
    when the DP engine did); ``profile`` is :func:`_profile` of a component (``None`` for
    the parts of a reveal)."""

    box_masks: tuple[int, ...]
    sizes: tuple[int, ...]
    rule_boxes: tuple[tuple[int, ...], ...]
    needs: tuple[int, ...]
    counts: ComponentCounts
    solutions: tuple[Solution, ...] | None = None
    profile: _Profile | None = None

    def __reduce__(self) -> tuple[object, ...]:
        # Spelled out: compiled by mypyc (setup.py), an instance does not unpickle by itself.
        return (Part, (self.box_masks, self.sizes, self.rule_boxes, self.needs, self.counts,
                       self.solutions, self.profile))


def counted_large(sizes: tuple[int, ...], rule_boxes: tuple[tuple[int, ...], ...],
                   needs: tuple[int, ...], engine: Backend,
                   budget: Budget) -> ComponentCounts:
    """Exact counts by ``engine``, else by a box search with no node limit; both stop when
    ``budget`` runs out (:class:`~exactmines.errors.OutOfTime`), the only bound on the
    search."""
    component = Component(sizes, tuple(Constraint(b, n)
                                       for b, n in zip(rule_boxes, needs, strict=True)))
    try:
        return count_components((component,), engine, budget, every=False)[0]
    except BudgetExceeded as exc:
        if budget.expired():
            # Out of time, whatever the engine said: OutOfTime, never its TooLarge.
            if isinstance(exc, OutOfTime):
                raise
            budget.check("searching layouts")
        # Too wide for the engine: count by search after all, with no node limit.
        return count_boxes(sizes, rule_boxes, needs, None, budget=budget)


def _part(rules: tuple[Rule, ...], engine: Backend, budget: Budget,
          shared: SharedSolutions | None = None) -> Part:
    """Boxes and exact counts of one component (no cache: see :class:`Cache`), with its box
    solutions when the box search finds them within its node limit (else ``engine`` counts, see
    :func:`counted_large`); through ``shared`` when given, where a component the analysis
    counted already is taken as it is."""
    box_masks, rule_boxes, _ = boxes(rules)
    sizes = tuple(m.bit_count() for m in box_masks)
    needs = tuple(need for _, need in rules)
    listed: tuple[Solution, ...] | None
    if shared is not None:
        component = Component(sizes, tuple(Constraint(b, n)
                                           for b, n in zip(rule_boxes, needs, strict=True)))
        counts, listed = shared.listed(engine, component, budget)
        return Part(box_masks, sizes, rule_boxes, needs, counts, listed,
                    _profile(sizes, counts))
    solutions: list[Solution] = []
    try:
        counts = count_boxes(sizes, rule_boxes, needs, NODES, solutions)
        listed = tuple(solutions)
    except TooLarge:
        counts, listed = counted_large(sizes, rule_boxes, needs, engine, budget), None
    return Part(box_masks, sizes, rule_boxes, needs, counts, listed, _profile(sizes, counts))


#: ``(lowest, support)`` of :func:`_profile`.
_Profile = tuple[tuple[int, ...], tuple[int, ...]]


def _profile(sizes: tuple[int, ...], counts: ComponentCounts) -> _Profile:
    """``(lowest, support)``: the boxes that can hold a component's least mine probability
    however its mine numbers are weighted, and per box the mine numbers ``k`` at which it
    holds a mine in some layout (bit ``k`` of a mask).

    A box whose mines per cell are at least another's at every mine number has, under any
    non-negative weights of the mine numbers, a probability at least that box's, so only
    the boxes nothing undercuts everywhere (one per equal profile) are ``lowest``. Boxes are
    swept by their mines per cell summed over the mine numbers (a box's dominators come
    first), each compared with the few kept before it. Cost: boxes x mine numbers x kept.
    """
    box_mines = counts.box_mines
    columns = [[row[b] for row in box_mines] for b in range(len(sizes))]
    support = tuple(sum(1 << k for k, m in enumerate(column) if m) for column in columns)
    order = sorted(range(len(sizes)), key=lambda b: (Fraction(sum(columns[b]), sizes[b]), b))
    lowest: list[int] = []
    for b in order:
        column, size = columns[b], sizes[b]
        if not any(all(x * size <= y * sizes[p] for x, y in zip(columns[p], column, strict=True))
                   for p in lowest):
            lowest.append(b)
    return tuple(sorted(lowest)), support


def _probed(rules: tuple[Rule, ...], probe: int, engine: Backend,
            budget: Budget) -> dict[int, Part]:
    """Counts of the cells of ``rules`` and ``probe`` by the number of mines in ``probe``:
    ``{m: part}``, leaving out the ``m`` no layout has.

    One search serves every ``m`` (the probe is tallied at the leaves, not imposed); when
    that search is too big, ``engine`` counts once per ``m`` with the probe as a rule
    (:func:`counted_large`).
    """
    box_masks, rule_boxes, inside = boxes(rules, probe)
    sizes = tuple(m.bit_count() for m in box_masks)
    needs = tuple(need for _, need in rules)
    n = len(sizes)
    layouts: dict[int, dict[int, int]] = {}
    mines: dict[int, dict[int, list[int]]] = {}

    # The tally of count_boxes, keyed by the probe's mines too; written out again, not
    # shared through a helper, because a leaf runs once per solution (the search's hot path).
    def leaf(chosen: list[int], weight: int, k: int) -> None:
        m = 0
        for b in inside:
            m += chosen[b]
        by_k = layouts.setdefault(m, {})
        by_k[k] = by_k.get(k, 0) + weight
        rows = mines.setdefault(m, {})
        row = rows.get(k)
        if row is None:
            row = rows[k] = [0] * n
        for box, j in enumerate(chosen):
            if j:
                row[box] += weight * j

    out: dict[int, Part] = {}
    try:
        box_search(sizes, rule_boxes, needs, NODES, leaf)
    except TooLarge:
        # Straight to the DP: a bounded search per m, on the same boxes, mostly fails too.
        for m in range(probe.bit_count() + 1):
            counts = counted_large(sizes, (*rule_boxes, inside), (*needs, m), engine,
                                    budget)
            if counts.total:
                out[m] = Part(box_masks, sizes, rule_boxes, needs, counts)
        return out
    for m in sorted(layouts):
        by_k, rows = layouts[m], mines[m]
        top = max(by_k)
        counts = ComponentCounts(tuple(by_k.get(k, 0) for k in range(top + 1)),
                                 tuple(tuple(rows.get(k, [0] * n)) for k in range(top + 1)))
        out[m] = Part(box_masks, sizes, rule_boxes, needs, counts)
    return out


#: Layouts and mines per box of some boxes, at one ``(mines in the probe, mines)``.
_Table = dict[tuple[int, int], tuple[int, list[int]]]


class _Reveal:
    """Counts of a hypothetical reveal by the number ``m`` of mines in the probe: each
    value's layouts by mine number at once (``polys``, :func:`_poly` of each part, only the
    ``m`` some layout has, increasing), its part (with the mines per box) only when asked
    (:meth:`part`): most values of most candidates are never combined (a candidate is
    dropped once it cannot win).

    Built from a table over the merged components' boxes, ``rows[j]`` = ``(k, layouts,
    mines per box)`` with ``j`` mines in the probe, and ``fresh`` cells (in the probe, in no
    component): one more box, of which ``q`` cells hold mines in ``C(f, q)`` ways, so value
    ``m`` gathers the rows ``j = m - q`` shifted by ``q`` mines.
    """

    __slots__ = ("polys", "_rows", "_masks", "_sizes", "_fresh", "_parts")

    def __init__(self, masks: tuple[int, ...], sizes: tuple[int, ...],
                 rows: dict[int, list[tuple[int, int, list[int]]]], fresh: int) -> None:
        self._rows, self._fresh = rows, fresh
        f = fresh.bit_count()
        self._masks = masks + (fresh,) if f else masks
        self._sizes = sizes + (f,) if f else sizes
        self._parts: dict[int, Part] = {}
        self.polys: dict[int, list[int]] = {}
        ways = [comb(f, q) for q in range(f + 1)]
        for m in range(max(rows, default=-1) + f + 1):
            poly: list[int] = []
            for q, w in enumerate(ways):
                for k, count, _ in rows.get(m - q, ()):
                    if k + q >= len(poly):
                        poly.extend([0] * (k + q + 1 - len(poly)))
                    poly[k + q] += count * w
            if poly:
                self.polys[m] = poly

    def __reduce__(self) -> tuple[object, ...]:
        # Spelled out: compiled by mypyc (setup.py), an instance does not unpickle by itself.
        return (_reveal_rebuilt, (self.polys, self._rows, self._masks, self._sizes,
                                  self._fresh, self._parts))

    @classmethod
    def of_parts(cls, parts: dict[int, Part]) -> _Reveal:
        """The reveal of parts already made (by :func:`_probed`)."""
        reveal = cls((), (), {}, 0)
        reveal.polys = {m: _poly(part) for m, part in sorted(parts.items())}
        reveal._parts = parts
        return reveal

    def part(self, m: int) -> Part:
        found = self._parts.get(m)
        if found is None:
            found = self._parts[m] = self._make(m)
        return found

    def _make(self, m: int) -> Part:
        f = self._fresh.bit_count()
        n = len(self._sizes)
        layouts = self.polys[m]
        box_mines: list[list[int] | None] = [None] * len(layouts)
        for q in range(f + 1):
            w = comb(f, q)
            for k, count, vec in self._rows.get(m - q, ()):
                row = box_mines[k + q]
                if row is None:
                    row = box_mines[k + q] = [0] * n
                for t, x in enumerate(vec):
                    row[t] += x * w
                if f:
                    row[n - 1] += q * count * w
        zero = (0,) * n
        return Part(self._masks, self._sizes, (), (), ComponentCounts(
            tuple(layouts), tuple(tuple(row) if row else zero for row in box_mines)))


def _reveal_rebuilt(polys: dict[int, list[int]],
                    rows: dict[int, list[tuple[int, int, list[int]]]],
                    masks: tuple[int, ...], sizes: tuple[int, ...], fresh: int,
                    parts: dict[int, Part]) -> _Reveal:
    """A pickled :class:`_Reveal` made again."""
    reveal = _Reveal((), (), {}, 0)
    reveal.polys, reveal._rows, reveal._masks = polys, rows, masks
    reveal._sizes, reveal._fresh, reveal._parts = sizes, fresh, parts
    return reveal


def _revealed(parts: list[Part], index: int, probe: int, fresh: int) -> _Reveal:
    """What :func:`_probed` computes for revealing cell ``index``, from the listed solutions
    of the components it merges (``parts``, none with ``solutions`` missing): by the number
    ``m`` of mines in ``probe``, the counts over the cells of ``parts`` but ``index`` and the
    ``fresh`` cells (of ``probe``, in no component), as a :class:`_Reveal`.

    No new search: revealing the cell only makes it safe and cuts each box it touches into
    the cells inside the probe and the others, and the ways a solution's mines of a box
    spread over its two pieces are binomial products (a hypergeometric split). So each
    part's solutions, found once when the part was counted, are weighted anew, grouped by
    their mines and those of the cut boxes; the pieces (with the fresh cells, one box) are
    independent apart from the shared tallies, and multiply. Cost: one pass over the
    solutions of the merged parts, plus a product of small tables.
    """
    tables = [_split_solutions(part, index, probe) for part in parts]
    if not tables:  # no component: the fresh cells alone (if any)
        tables.append(((), (), {(0, 0): (1, [])}))
    masks, sizes, table = tables[0]
    for more_masks, more_sizes, more in tables[1:]:
        product: dict[tuple[int, int], tuple[int, list[int]]] = {}
        for (j1, k1), (c1, v1) in table.items():
            for (j2, k2), (c2, v2) in more.items():
                key = (j1 + j2, k1 + k2)
                vec = [x * c2 for x in v1] + [c1 * y for y in v2]
                found = product.get(key)
                if found is not None:
                    vec = [x + y for x, y in zip(found[1], vec, strict=True)]
                    product[key] = (found[0] + c1 * c2, vec)
                else:
                    product[key] = (c1 * c2, vec)
        masks, sizes, table = masks + more_masks, sizes + more_sizes, product
    rows: dict[int, list[tuple[int, int, list[int]]]] = {}
    for (j, k), (count, vec) in sorted(table.items()):
        if count:
            rows.setdefault(j, []).append((k, count, vec))
    return _Reveal(masks, sizes, rows, fresh)


def _split_solutions(part: Part, index: int, probe: int
                     ) -> tuple[tuple[int, ...], tuple[int, ...], _Table]:
    """One part's table for :func:`_revealed`: ``(box masks, sizes, {(j, k): (layouts,
    mines per box)})``, ``j`` the mines in ``probe``, ``k`` all its mines, over its boxes
    with cell ``index`` removed and each box touching ``probe`` cut in two."""
    if part.solutions is None:
        raise ValueError("a part the DP engine counted has no listed solutions to split")
    cut = probe | (1 << index)
    kept: list[int] = []
    split: list[tuple[int, int, int]] = []  # (box, cells inside the probe, cells outside)
    masks: list[int] = []
    for b, mask in enumerate(part.box_masks):
        if mask & cut:
            split.append((b, (mask & probe).bit_count(), (mask & ~cut).bit_count()))
        else:
            kept.append(b)
            masks.append(mask)
    for b, inside, outside in split:
        mask = part.box_masks[b]
        if inside:
            masks.append(mask & probe)
        if outside:
            masks.append(mask & ~cut)
    sizes = tuple(m.bit_count() for m in masks)
    # Solutions with the same mines and the same mines in every cut box share the split;
    # sum their weights without the cut boxes' binomials, and their mines per kept box.
    part_sizes = part.sizes
    grouped: dict[tuple[int, tuple[int, ...]], list] = {}
    for k, chosen, weight in part.solutions:
        cut_mines = tuple(chosen[b] for b, _, _ in split)
        for (b, _, _), m in zip(split, cut_mines, strict=True):
            weight //= comb(part_sizes[b], m)
        key = (k, cut_mines)
        found = grouped.get(key)
        if found is None:
            found = grouped[key] = [0, [0] * len(kept)]
        found[0] += weight
        row = found[1]
        for t, b in enumerate(kept):
            m = chosen[b]
            if m:
                row[t] += m * weight
    table: _Table = {}
    shape = tuple((inside, outside) for _, inside, outside in split)
    for (k, cut_mines), (weight, row) in grouped.items():
        ways, inside_mines = _spread(shape, cut_mines)
        for j, w in enumerate(ways):
            if not w:
                continue
            vec = [x * w for x in row]
            for (_, inside, outside), m, ins in zip(split, cut_mines, inside_mines,
                                                    strict=True):
                if inside:
                    vec.append(weight * ins[j])
                if outside:
                    vec.append(weight * (m * w - ins[j]))
            count = weight * w
            found_entry = table.get((j, k))
            if found_entry is not None:
                count += found_entry[0]
                vec = [x + y for x, y in zip(found_entry[1], vec, strict=True)]
            table[(j, k)] = (count, vec)
    return tuple(masks), sizes, table


@lru_cache(maxsize=8192)
def _spread(shape: tuple[tuple[int, int], ...], cut_mines: tuple[int, ...]
            ) -> tuple[list[int], list[list[int]]]:
    """Ways the mines of the cut boxes (``(cells inside the probe, outside)`` each, holding
    ``cut_mines``) spread over their two pieces, by the mines ``j`` inside the probe:
    ``(ways[j], per cut box the mines in its inside piece summed over those ways)``. Cached:
    the same few shapes recur all game (the lists are never modified)."""
    pieces = []
    for (inside, outside), m in zip(shape, cut_mines, strict=True):
        pieces.append([comb(inside, t) * comb(outside, m - t) if m - t <= outside else 0
                       for t in range(min(inside, m) + 1)])
    ways = [1]
    for piece in pieces:
        ways = poly_mul(ways, piece)
    inside_mines = []
    for c, piece in enumerate(pieces):
        others = [1]
        for d, other in enumerate(pieces):
            if d != c:
                others = poly_mul(others, other)
        tallied = poly_mul(others, [t * w for t, w in enumerate(piece)])
        inside_mines.append(tallied + [0] * (len(ways) - len(tallied)))
    return ways, inside_mines


def count_boxes(sizes: tuple[int, ...], rule_boxes: tuple[tuple[int, ...], ...],
                 needs: tuple[int, ...], limit: int | None,
                 solutions: list[Solution] | None = None, *,
                 budget: Budget = UNLIMITED) -> ComponentCounts:
    """Exact counts of a component by :func:`~exactmines.deduction.search.box_search` (at most
    ``limit`` nodes, until ``budget`` runs out); each box solution is appended to ``solutions``
    when given."""
    n = len(sizes)
    layouts: dict[int, int] = {}
    mines: dict[int, list[int]] = {}

    def leaf(chosen: list[int], weight: int, k: int) -> None:
        if solutions is not None:
            solutions.append((k, tuple(chosen), weight))
        layouts[k] = layouts.get(k, 0) + weight
        row = mines.get(k)
        if row is None:
            row = mines[k] = [0] * n
        for box, m in enumerate(chosen):
            if m:
                row[box] += weight * m

    box_search(sizes, rule_boxes, needs, limit, leaf, budget=budget)
    top = max(layouts, default=0)
    return ComponentCounts(tuple(layouts.get(k, 0) for k in range(top + 1)),
                           tuple(tuple(mines.get(k, [0] * n)) for k in range(top + 1)))


class Cache:
    """Components already counted, keyed by their rules: a game revisits most of them (a
    guess changes one component, and the hypothetical reveals of the guessing parts recur
    from one guess to the next). Cleared when it grows past ``limit`` entries.

    Also the engine that counts a component past the box search's node limit (``engine``, a
    :class:`~exactmines.analysis.backends.Backend`; a new ``auto`` engine by default, DP
    counts): state of the game it serves, like the counts. The time is not: each question
    takes its :class:`~exactmines.budget.Budget` as a parameter (no limit by default), and
    :meth:`under` gives the cache with one piece of work's budget (:class:`Counter`). Past
    it a count raises :class:`~exactmines.errors.OutOfTime` and nothing is kept.
    """

    def __init__(self, limit: int = 20_000, *, engine: Backend | None = None,
                 shared: SharedSolutions | None = None) -> None:
        self.parts: dict[tuple[Rule, ...], Part] = {}
        self.probes: dict[tuple[tuple[Rule, ...], int], dict[int, Part]] = {}
        self.reveals: dict[tuple[tuple[tuple[Rule, ...], ...], int, int], _Reveal] = {}
        self.limit = limit
        self.engine: Backend = AutoBackend() if engine is None else engine
        #: Counts shared with the analysis of the same piece of work
        #: (:class:`~exactmines.play.shared.SharedCounts`), where the components are
        #: counted when given: not kept when the cache is pickled.
        self.shared = shared

    def __reduce__(self) -> tuple[object, ...]:
        # Spelled out: compiled by mypyc (setup.py), an instance does not unpickle by itself.
        return (_cache_rebuilt, (self.limit, self.engine, self.parts, self.probes,
                                 self.reveals))

    def under(self, budget: Budget) -> Counter:
        """This cache, its questions asked within ``budget`` (one move, one explanation)."""
        return Counter(self, budget)

    def part(self, rules: tuple[Rule, ...], budget: Budget = UNLIMITED) -> Part:
        found = self.parts.get(rules)
        if found is None:
            if len(self.parts) >= self.limit:
                self.parts.clear()
            found = self.parts[rules] = _part(rules, self.engine, budget, self.shared)
        return found

    def probed(self, rules: tuple[Rule, ...], probe: int,
               budget: Budget = UNLIMITED) -> dict[int, Part]:
        key = (rules, probe)
        found = self.probes.get(key)
        if found is None:
            if len(self.probes) >= self.limit:
                self.probes.clear()
            found = self.probes[key] = _probed(rules, probe, self.engine, budget)
        return found

    def revealed(self, groups: tuple[tuple[Rule, ...], ...], parts: list[Part], index: int,
                 probe: int, fresh: int) -> _Reveal:
        """:func:`_revealed`, keyed by the merged components' rules (which fix ``parts``).
        No budget: a reveal splits solutions already listed, a bounded pass."""
        key = (groups, index, probe)
        found = self.reveals.get(key)
        if found is None:
            if len(self.reveals) >= self.limit:
                self.reveals.clear()
            found = self.reveals[key] = _revealed(parts, index, probe, fresh)
        return found


class Counter:
    """A :class:`Cache` with the budget of one piece of work: what the player's steps of one
    move ask their counts of. Made for that work (:meth:`Cache.under`) and dropped after it,
    never kept or pickled: the budget travels with the work, as a parameter."""

    __slots__ = ("cache", "budget")

    def __init__(self, cache: Cache, budget: Budget) -> None:
        self.cache = cache
        self.budget = budget

    def part(self, rules: tuple[Rule, ...]) -> Part:
        return self.cache.part(rules, self.budget)

    def probed(self, rules: tuple[Rule, ...], probe: int) -> dict[int, Part]:
        return self.cache.probed(rules, probe, self.budget)

    def revealed(self, groups: tuple[tuple[Rule, ...], ...], parts: list[Part], index: int,
                 probe: int, fresh: int) -> _Reveal:
        return self.cache.revealed(groups, parts, index, probe, fresh)


#: What the player's steps count through: a :class:`Cache` (no time limit) or a
#: :class:`Counter` (a cache under one move's budget).
Counting = Cache | Counter


def _cache_rebuilt(limit: int, engine: Backend, parts: dict[tuple[Rule, ...], Part],
                   probes: dict[tuple[tuple[Rule, ...], int], dict[int, Part]],
                   reveals: dict[tuple[tuple[tuple[Rule, ...], ...], int, int], _Reveal]
                   ) -> Cache:
    """A pickled :class:`Cache` made again."""
    cache = Cache(limit, engine=engine)
    cache.parts, cache.probes, cache.reveals = parts, probes, reveals
    return cache


def _poly(part: Part) -> list[int]:
    """A part's layouts by mine number, without trailing zeros."""
    layouts = list(part.counts.layouts)
    while len(layouts) > 1 and not layouts[-1]:
        layouts.pop()
    return layouts


def _numerators(part: Part, weights: Sequence[int]) -> list[int]:
    """Mines in each box of ``part`` summed over all layouts, given the weight of each of its
    mine numbers (the ways to complete the layout elsewhere)."""
    box_mines = part.counts.box_mines
    nums = [0] * len(part.sizes)
    for k, wk in enumerate(weights):
        if wk and k < len(box_mines):
            for b, m in enumerate(box_mines[k]):
                if m:
                    nums[b] += m * wk
    return nums


class Kept:
    """A fixed list of parts, ready to be combined under the count with one more part, many
    times (once per value of each candidate cell).

    The formula of :func:`exactmines.analysis.combine.weigh` (see its module notes), which
    combines the parts alone (:meth:`Counted.weighed`): a part with ``k`` mines weighs
    ``W[k] = sum_j O[j] C(U, L - k - j)``, ``O`` the product of the other parts'
    polynomials. Here the products of the kept parts without each one (prefix times suffix)
    are made once, and what they contribute to a combination with an extra part once per
    number ``U`` of outside cells (:class:`_Tails`), so each extra part costs a few dot
    products (:meth:`after`). Only the binomials the frontier can reach are computed,
    cached per ``(U, L)``.
    """

    def __init__(self, parts: list[Part]) -> None:
        self.parts = parts
        self.polys = [_poly(p) for p in parts]
        n = len(parts)
        prefix = [[1]]
        for poly in self.polys:
            prefix.append(poly_mul(prefix[-1], poly))
        self.total = prefix[n]
        self.others: list[list[int]] = [[] for _ in range(n)]
        suffix = [1]
        for c in range(n - 1, -1, -1):
            self.others[c] = poly_mul(prefix[c], suffix)
            suffix = poly_mul(self.polys[c], suffix)
        self.profiles = [p.profile or _profile(p.sizes, p.counts) for p in parts]
        self.tails: dict[tuple[int, Scale | None], _Tails] = {}

    def tails_for(self, outside: int, mines_left: int, reach: int, scale: Scale | None = None
                  ) -> _Tails:
        """The :class:`_Tails` for ``outside`` cells off the frontier, reaching at least
        ``reach`` mine numbers of an extra part (made once, not again for each longer
        polynomial when they reach far enough), counts divided by ``scale``'s divisor."""
        tails = self.tails.get((outside, scale))
        if tails is None or tails.reach < reach:
            tails = self.tails[outside, scale] = _Tails(self, outside, mines_left, reach,
                                                        scale)
        return tails

    def after(self, extra: Part, poly: list[int], layouts: int, outside: int,
              tails: _Tails) -> After:
        """The position left when ``extra`` (``poly``: :func:`_poly` of it, ``layouts``: its
        layouts with the kept parts, ``poly . tails.extra``, not 0) joins the kept parts,
        ``outside`` (a mask) the cells off the frontier: its layouts, least mine probability
        and, when that is 0, certainly safe cells.

        Everything the kept parts contribute is linear in the extra part's polynomial ``X``
        (:class:`_Tails`), so a value costs a few dot products with ``X``: for the layouts,
        for the extra part's boxes, the outside cells, and the kept parts' ``lowest`` boxes
        (:func:`_profile`) -- the other kept boxes cannot hold the least probability, and
        can be certainly safe only where the mine numbers they need get no weight.
        """
        # The tails run to ``reach`` >= len(poly): zip stops at the polynomial's end.
        hits = sum(x * h for x, h in zip(poly, tails.hits, strict=False)) if outside else 0
        # A cell's probability is numerator / (size * layouts): a / sa < b / sb compares as
        # a * sb < b * sa, in integers, and one Fraction is made at the end.
        best_num, best_size = (hits, 1) if outside else (None, 1)
        nums = _numerators(extra, tails.extra[:len(poly)])
        for num, cells in zip(nums, extra.sizes, strict=True):
            if best_num is None or num * best_size < best_num * cells:
                best_num, best_size = num, cells
        if best_num != 0:  # else the least is 0 whatever the kept parts hold
            for part, lowest in zip(self.parts, tails.lowest, strict=True):
                for b, by_mines in lowest:
                    num = sum(x * n for x, n in zip(poly, by_mines, strict=False))
                    cells = part.sizes[b]
                    if best_num is None or num * best_size < best_num * cells:
                        best_num, best_size = num, cells
        if best_num:
            return After(layouts, Fraction(best_num, best_size * layouts))
        safe = outside if outside and not hits else 0
        for box, num in zip(extra.box_masks, nums, strict=True):
            if not num:
                safe |= box
        # A kept box is safe when no mine number at which it holds a mine gets weight.
        given = 0
        for j, x in enumerate(poly):
            if x:
                given |= 1 << j
        for part, poly_c, (_, support), reach in zip(self.parts, self.polys, self.profiles,
                                                     tails.reached, strict=True):
            weighted = 0
            for j in _bits(given):
                weighted |= reach >> j
            weighted &= (1 << len(poly_c)) - 1
            for box, mines_at in zip(part.box_masks, support, strict=True):
                if not mines_at & weighted:
                    safe |= box
        return After(layouts, Fraction(0), safe)


class _Tails:
    """What the kept parts of a :class:`Kept` contribute to a combination with one extra
    part of fewer than ``reach`` possible mine numbers, ``U`` cells off the frontier and
    ``L`` mines: each a vector over the extra part's mine number ``l``, to be dotted with its
    polynomial ``X``.

    With ``T[t] = C(U, L - t)`` and ``K`` the kept parts' product: the extra part with ``l``
    mines weighs ``extra[l] = sum_s K[s] T[s + l]`` (so the layouts are ``X . extra``), and
    ``hits[l]`` likewise with ``C(U - 1, L - 1 - t)`` (layouts with a mine on one outside
    cell). Kept part ``c`` with ``k`` mines weighs ``sum_l X[l] R_c[k + l]``, ``R_c[m] =
    sum_j O_c[j] T[m + j]`` (``O_c`` the other kept parts), so the mines of its box ``b``
    summed over all layouts are ``X . N_cb`` with ``N_cb[l] = sum_k mines_cb[k] R_c[k + l]``:
    made once, when first needed, for the ``lowest`` boxes. ``reached[c]``: the ``m`` with
    ``R_c[m] > 0`` (a mask). Cost: one correlation per kept part and per lowest box, once per
    ``U`` and ``Kept``.
    """

    __slots__ = ("reach", "extra", "hits", "by_sum", "_lowest", "_reached", "_kept")

    def __init__(self, kept: Kept, outside: int, mines_left: int, reach: int,
                 scale: Scale | None = None) -> None:
        self.reach = reach
        top = len(kept.total) + reach - 2
        tail = tail_binomials(outside, mines_left, top, scale)
        self.extra = correlate(kept.total, tail, reach)
        self.hits = (correlate(kept.total,
                                tail_binomials(outside - 1, mines_left - 1, top, scale), reach)
                     if outside else [0] * reach)
        # R_c per kept part; the rest only when a value needs it (often the extra part
        # alone shows a certainly safe cell, and then the least is 0 whatever the others).
        self.by_sum = [correlate(others, tail, len(poly) + reach - 1)
                       for poly, others in zip(kept.polys, kept.others, strict=True)]
        self._kept = kept
        self._lowest: list[list[tuple[int, list[int]]]] | None = None
        self._reached: list[int] | None = None

    @property
    def lowest(self) -> list[list[tuple[int, list[int]]]]:
        """Per kept part, ``(box, N_cb)`` for its lowest boxes."""
        if self._lowest is None:
            kept, reach = self._kept, self.reach
            self._lowest = []
            for part, poly, by_sum, (lowest, _) in zip(kept.parts, kept.polys, self.by_sum,
                                                       kept.profiles, strict=True):
                box_mines = part.counts.box_mines
                self._lowest.append([(b, correlate([box_mines[k][b]
                                                     for k in range(len(poly))],
                                                    by_sum, reach)) for b in lowest])
        return self._lowest

    @property
    def reached(self) -> list[int]:
        """Per kept part, the ``m`` with ``R_c[m] > 0`` (a mask)."""
        if self._reached is None:
            self._reached = []
            for by_sum in self.by_sum:
                reached = 0
                for m, r in enumerate(by_sum):
                    if r:
                        reached |= 1 << m
                self._reached.append(reached)
        return self._reached


@dataclass(frozen=True, slots=True)
class Counted:
    """A position's frontier, counted: its components ``(cells, rules)``, their parts and
    the unknown cells no rule touches (``outside``)."""

    groups: tuple[tuple[int, tuple[Rule, ...]], ...]
    parts: list[Part]
    outside: int

    def top(self) -> int:
        """The most mines the frontier can hold."""
        top = 0
        for part in self.parts:
            top += len(_poly(part)) - 1
        return top

    def weighed(self, mines_left: int | None, scale: Scale | None = None) -> Ratios:
        """Every box's probability, and the outside cells', with ``mines_left`` mines: the
        player's front-end of :func:`~exactmines.analysis.combine.weigh`, the analysis'
        combination (``ratios.box[c][b]`` for box ``b`` of part ``c``; ``layouts`` divided
        by ``scale``'s divisor when there is one). ``None``: as if the count were unknown
        (the analysis' answer without a total; the player itself always knows it)."""
        parts = self.parts
        return weigh([p.counts for p in parts], [p.sizes for p in parts],
                     self.outside.bit_count(), mines_left, scale)

    def layouts(self, mines_left: int, scale: Scale | None = None) -> int:
        """:meth:`weighed`'s ``layouts`` alone
        (:func:`~exactmines.analysis.combine.count_layouts`)."""
        return count_layouts([p.counts for p in self.parts], self.outside.bit_count(),
                             mines_left, scale)


def grouped(rules: Sequence[Rule]) -> list[tuple[int, tuple[Rule, ...]]]:
    """:func:`~exactmines.analysis.frontier.group_rules`'s answer, the same components in
    the same order (the order the player's choices read them in), found by
    :func:`~exactmines.deduction.rules.group`'s union-find over the rules' cells.

    Cost: a few steps per cell of the rules, and one mask per component. Merging bitmask
    groups pairwise costs the number of groups per rule, each operation the board's length:
    1.2 s on a 300x300 position, where the analysis had found the same components in a
    fraction of that, and a page's overlay paid it again to advise.
    """
    components = group([_cells_of(cells) for cells, _ in rules])
    # group_rules moves a component to the end as each of its rules arrives: its order is
    # that of each component's last rule.
    components.sort(key=lambda members: members[-1])
    out = []
    for members in components:
        cells = 0
        for j in members:
            cells |= rules[j][0]
        out.append((cells, tuple(sorted({rules[j] for j in members}))))
    return out


#: Boards whose unknown cells reach past this many flat indices have their rules grouped
#: by :func:`grouped`; smaller ones by merging masks pairwise
#: (:func:`~exactmines.analysis.frontier.group_rules`): the two cost the same about 50x50.
_PAIRWISE_BITS = 2500


def _cells_of(mask: int) -> list[int]:
    """The set bits of a rule's mask: a few neighbouring cells of a long board, read from
    the mask shifted down to its lowest cell (reading the whole mask costs its length)."""
    if not mask:
        return []
    low = (mask & -mask).bit_length() - 1
    return [low + i for i in _bits(mask >> low)]


def counted(rules: list[Rule], unknown: int, cache: Counting) -> Counted:
    """The rules' components over the ``unknown`` cells, counted (cached)."""
    # Pairwise merging is the faster below a few thousand cells (an expert board's rules
    # are a few hundred short masks), the union-find past them.
    long = unknown.bit_length() > _PAIRWISE_BITS
    groups = tuple(grouped(rules) if long else group_rules(rules))
    parts = [cache.part(group) for _, group in groups]
    frontier = 0
    for cells, _ in groups:
        frontier |= cells
    return Counted(groups, parts, unknown & ~frontier)


@dataclass(frozen=True, slots=True)
class After:
    """The position after a hypothetical reveal: its layouts (those of the position before
    in which the cell is safe and shows that value), its smallest mine probability and its
    certainly safe cells."""

    layouts: int
    least: Fraction
    safe: int = 0


class Values:
    """The values a cell can show, with their layouts, before the positions they leave are
    combined (:meth:`after`, one at a time: a caller may stop early).

    Incremental: the components that touch the cell or its neighbours are merged with the
    new number's cells and counted once for every value, from their listed solutions
    (:func:`_revealed`) or, for a component the DP engine counted, by a new search
    (:func:`_probed`), cached; the other components keep their counts (:class:`Kept`), so
    a value's layouts cost one dot product and its position a few more.
    """

    __slots__ = ("values", "mines", "layouts", "polys", "reveal", "kept", "outside", "tails")

    def __init__(self) -> None:
        self.values: list[int] = []  # increasing
        self.mines: list[int] = []  # in the probe, per value
        self.layouts: list[int] = []
        self.polys: list[list[int]] = []
        self.reveal: _Reveal | None = None
        self.kept: Kept | None = None
        self.outside = 0
        self.tails: _Tails | None = None

    @classmethod
    def of(cls, index: int, *, around: int, flagged: int, unknown: int, outside: int,
           mines_left: int, groups: tuple[tuple[int, tuple[Rule, ...]], ...],
           parts: tuple[Part, ...], kept_by_merged: dict[tuple[int, ...], Kept],
           cache: Counting, scale: Scale | None = None) -> Values:
        """The values unknown cell ``index`` can show in a position with ``unknown`` cells
        (``outside``: those next to no number) and ``mines_left`` mines, whose frontier's
        components are ``groups`` (``(cells, rules)``), counted as ``parts``. ``around``:
        the cell's neighbours; ``flagged``: the proved mines the player has flagged;
        ``kept_by_merged``: the position's :class:`Kept` by merged components, filled here
        (``exactmines.play.strategy.Estimate.kept``); ``scale``: the position's
        :class:`Scale` (the layouts are divided by its divisor)."""
        values = cls()
        bit = 1 << index
        touch = around | bit
        probe = around & unknown & ~bit
        known = (around & flagged).bit_count()
        merged: list[int] = []
        listed = True
        merged_cells = 0
        for g, (cells, its_rules) in enumerate(groups):
            if not cells & touch:
                continue
            merged.append(g)
            merged_cells |= cells
            listed = listed and parts[g].solutions is not None
            for free, need in its_rules:
                if free == bit and need:
                    return values  # the cell is a mine in every layout: no value
        if listed:
            reveal = cache.revealed(tuple(groups[g][1] for g in merged),
                                    [parts[g] for g in merged], index, probe,
                                    probe & ~merged_cells)
        else:
            rules: list[Rule] = []
            for g in merged:
                for free, need in groups[g][1]:
                    free &= ~bit
                    if free:
                        rules.append((free, need))
            reveal = _Reveal.of_parts(cache.probed(tuple(sorted(set(rules))), probe))
        values.reveal = reveal
        # The other components' products, shared by every candidate that merges the same
        # ones.
        key = tuple(merged)
        kept = kept_by_merged.get(key)
        if kept is None:
            kept = kept_by_merged[key] = Kept([p for g, p in enumerate(parts)
                                               if g not in merged])
        values.kept = kept
        values.outside = outside & ~touch
        # Every value's polynomial fits the tails, with room for the next candidates.
        reach = max((len(poly) for poly in reveal.polys.values()), default=0) + 4
        tails = values.tails = kept.tails_for(values.outside.bit_count(), mines_left,
                                              reach, scale)
        for m, poly in reveal.polys.items():
            # The tails run to ``reach`` >= len(poly): zip stops at the polynomial's end.
            layouts = sum(x * e for x, e in zip(poly, tails.extra, strict=False))
            if layouts:
                values.values.append(known + m)
                values.mines.append(m)
                values.layouts.append(layouts)
                values.polys.append(poly)
        return values

    def after(self, i: int) -> After:
        """The position left by value ``i`` (in the order of ``values``)."""
        if self.kept is None or self.tails is None or self.reveal is None:
            raise IndexError(f"no value {i}: the cell is a mine in every layout")
        return self.kept.after(self.reveal.part(self.mines[i]), self.polys[i],
                               self.layouts[i], self.outside, self.tails)
