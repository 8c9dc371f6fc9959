"""Counts one piece of work shares between the analysis and the player: the page's overlay
analyses a position and then asks the player for its move, and each component is counted
once for both.

A :class:`SharedCounts` is a :class:`~exactmines.analysis.cache.CountCache` (what
:func:`~exactmines.analysis.analyze.analyze` and
:func:`~exactmines.analysis.counting.count_components` read and add to) that keeps, beside
each component's counts, the box solutions the player's look-ahead splits
(:data:`~exactmines.play.lookahead.Solution`). A component is counted the player's way: by
the box search within its node limit (:data:`~exactmines.deduction.search.NODES`), which
lists the solutions as it counts, and past it by the engine the caller passes. The
player's :class:`~exactmines.play.lookahead.Cache` made with it
(:class:`~exactmines.play.strategy.Player`'s ``counts``) takes a component it meets there
as it is, counts and solutions: the analysis' count is the player's.

Keyed by :func:`~exactmines.analysis.counting.canonical` (the boxes and the set of rules):
the analysis and the player list a component's rules in different orders, and both order
its boxes by their first cell, so the same cells under the same rules meet. Where the
player's local rules proved mines that the analysis' counted part still holds (its pair
rules; the analysis' split settles what single rules force), the player's component is
that part without those boxes, and is made from the part's counts and solutions
(:meth:`SharedCounts.listed`), not counted. Counts are exact whatever counted them, so the
analysis' answers are the same as with a plain cache.

One piece of work's state, like any :class:`~exactmines.analysis.cache.CountCache`: made
for it and dropped after it, never shared through a module global or pickled with a game.
"""

from __future__ import annotations

from itertools import combinations
from math import comb
from typing import TYPE_CHECKING

from exactmines.analysis.cache import CountCache
from exactmines.analysis.counting import canonical, count_components
from exactmines.analysis.counts import ComponentCounts
from exactmines.analysis.frontier import Component, Constraint
from exactmines.budget import UNLIMITED, Budget
from exactmines.deduction import NODES
from exactmines.errors import TooLarge
from exactmines.play import lookahead
from exactmines.play.lookahead import Solution

if TYPE_CHECKING:
    from exactmines.analysis.backends import Backend

__all__ = ["SharedCounts", "Listed"]

#: A component's counts and, when the box search counted it, its box solutions.
Listed = tuple[ComponentCounts, tuple[Solution, ...] | None]


class SharedCounts(CountCache):
    """Counts and box solutions of components, for the analysis and the player of one piece
    of work (see the module notes).

    Parameters
    ----------
    limit:
        Components kept (as :class:`~exactmines.analysis.cache.CountCache`'s).
    nodes:
        The box search's node limit, past which the engine counts (the player's,
        :data:`~exactmines.deduction.search.NODES`).

    Attributes
    ----------
    hits, misses:
        Components answered from the cache, and counted (by the box search or the engine).
    """

    def __init__(self, limit: int = 50_000, *, nodes: int = NODES) -> None:
        super().__init__(limit)
        self.nodes = nodes
        self._listed: dict[Component, Listed] = {}
        #: The components the box search was run on (its solutions, or past its limit).
        self._searched: set[Component] = set()
        #: Components the player met made from one met before (:meth:`_derived`).
        self.derived = 0
        #: Per component with listed solutions, its boxes full in every layout.
        self._full: dict[Component, list[int]] = {}

    def __len__(self) -> int:
        return len(self._listed)

    def count(self, engine: Backend, component: Component, *,
              budget: Budget = UNLIMITED) -> ComponentCounts:
        """The analysis' question (:meth:`CountCache.count`): ``component``'s counts.

        A component whose rules force nothing on their own (``forced`` all -1: the parts of
        the analysis' split path, which the player meets as they are) is counted by the box
        search within ``nodes`` nodes, which lists its solutions for the player (past it,
        by ``engine``), and kept; any other (a whole component of the general path, with
        its forced boxes, or one without ``forced``) by ``engine``, as without a cache, and
        not kept. Raises as the engine does (:class:`~exactmines.errors.OutOfTime` as soon as
        ``budget`` has run out, before any search); nothing is kept then.
        """
        if component.forced is None or max(component.forced, default=-1) >= 0:
            # Not a part of the split path: counted as an analysis without a cache counts
            # it (its key, a sort and a hash of every rule, costs 5 % of a 300x300
            # position's analysis, and the player seldom meets such a component as it is).
            return count_components((component,), engine, budget, every=False)[0]
        key = canonical(component)
        found = self._listed.get(key)
        if found is not None:
            self.hits += 1
            return found[0]
        listed = self._search(key, budget)
        if listed is None:
            listed = (count_components((component,), engine, budget, every=False)[0], None)
        self._keep(key, listed, True)
        return listed[0]

    def listed(self, engine: Backend, component: Component,
               budget: Budget = UNLIMITED) -> Listed:
        """The player's question: ``component``'s counts and box solutions, as the player's
        own :class:`~exactmines.play.lookahead.Cache` finds them: the box search within
        ``nodes`` nodes; else ``engine``, and should it give up on a component too wide
        for it, the box search without a node limit until ``budget`` runs out
        (:func:`~exactmines.play.lookahead.counted_large`). A component the analysis'
        engine counted keeps those counts; its solutions are listed when the box search
        finds them within its limit (``None`` past it). A component that is one met before
        without some of its boxes that are mines in every layout is made from it
        (:meth:`_derived`).

        Cost: a hash of the component's rules when it was met before (and, once, the
        listing of a component the engine counted); else the box search, then the
        engine's count.
        """
        key = canonical(component)
        found = self._listed.get(key)
        if found is not None:
            self.hits += 1
            if found[1] is None and key not in self._searched:
                again = self._search(key, budget)
                if again is not None:
                    found = self._listed[key] = (found[0], again[1])
                self._searched.add(key)
            return found
        listed = self._derived(key)
        if listed is not None:
            self.derived += 1
            self._keep(key, listed, True)
            return listed
        listed = self._search(key, budget)
        if listed is None:
            listed = (lookahead.counted_large(key.sizes, _boxes(key), _needs(key), engine,
                                              budget), None)
        self._keep(key, listed, True)
        return listed

    def _derived(self, key: Component) -> Listed | None:
        """``key``'s counts and solutions made from a component met before that is ``key``
        with more boxes, each a mine in every layout (the player's local rules proved mines
        the analysis' split left in its part: the player's component is the part without
        them), else ``None``.

        Such boxes hold their mines in every layout, so the layouts of the two correspond
        one to one, ``m`` mines apart (the dropped boxes' cells): the counts at ``k + m``
        and the solutions without those boxes are the smaller component's, exactly. Only
        components whose solutions were listed are tried, and at most
        :data:`_MOST_DROPS` ways to drop boxes from each. Cost: per such component, a pass
        over its counts and a few rebuilt keys.
        """
        n = len(key.sizes)
        for found, (counts, solutions) in self._listed.items():
            extra = len(found.sizes) - n
            if solutions is None or extra <= 0:
                continue
            sizes = found.sizes
            full = self._full.get(found)
            if full is None:
                full = self._full[found] = [
                    b for b in range(len(sizes))
                    if all(row[b] == sizes[b] * layouts
                           for row, layouts in zip(counts.box_mines, counts.layouts,
                                                   strict=True))]
            if len(full) < extra or comb(len(full), extra) > _MOST_DROPS:
                continue
            for drop in combinations(full, extra):
                if _without(found, drop) == key:
                    return _conditioned(counts, solutions, sizes, drop)
        return None

    def _search(self, key: Component, budget: Budget) -> Listed | None:
        """Counts and solutions by the box search, ``None`` past ``nodes`` nodes."""
        solutions: list[Solution] = []
        try:
            counts = lookahead.count_boxes(key.sizes, _boxes(key), _needs(key), self.nodes,
                                           solutions, budget=budget)
        except TooLarge:
            return None
        return counts, tuple(solutions)

    def _keep(self, key: Component, listed: Listed, searched: bool) -> None:
        self.misses += 1
        if len(self._listed) >= self.limit:
            self._listed.clear()
            self._searched.clear()
            self._full.clear()
        self._listed[key] = listed
        if searched:
            self._searched.add(key)


#: The most ways :meth:`SharedCounts._derived` tries to drop a component's certain boxes.
_MOST_DROPS = 64


def _without(component: Component, drop: tuple[int, ...]) -> Component | None:
    """``component`` with the boxes ``drop`` taken as mines and removed (the others keep
    their order; each rule needs their mines less), canonical; ``None`` when a rule would
    need fewer than none."""
    sizes = component.sizes
    dropped = set(drop)
    index = {b: i for i, b in enumerate(b for b in range(len(sizes)) if b not in dropped)}
    rules = set()
    for constraint in component.constraints:
        need = constraint.mines - sum(sizes[b] for b in constraint.boxes if b in dropped)
        boxes = tuple(index[b] for b in constraint.boxes if b not in dropped)
        if need < 0:
            return None
        if boxes:
            rules.add(Constraint(boxes, need))
    return Component(tuple(sizes[b] for b in index), tuple(sorted(rules)))


def _conditioned(counts: ComponentCounts, solutions: tuple[Solution, ...],
                 sizes: tuple[int, ...], drop: tuple[int, ...]) -> Listed:
    """The counts and solutions of a component without the boxes ``drop``, mines in every
    layout of it (:meth:`SharedCounts._derived`)."""
    m = sum(sizes[b] for b in drop)
    keep = [b for b in range(len(sizes)) if b not in drop]
    return (ComponentCounts(counts.layouts[m:],
                            tuple(tuple(row[b] for b in keep) for row in counts.box_mines[m:])),
            tuple((k - m, tuple(chosen[b] for b in keep), weight)
                  for k, chosen, weight in solutions))


def _boxes(component: Component) -> tuple[tuple[int, ...], ...]:
    return tuple(c.boxes for c in component.constraints)


def _needs(component: Component) -> tuple[int, ...]:
    return tuple(c.mines for c in component.constraints)
