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
its boxes by their first cell, so the same cells under the same rules meet. A component the
player sees otherwise (its local rules proved a mine the analysis' counted part still
holds) is another component, counted when the player meets it. Counts are exact whatever
counted them, so the analysis' answers are the same as with a plain cache.

One piece of work's state, like any :class:`~exactmines.analysis.cache.CountCache`: made
for it and dropped after it, never shared through a module global or pickled with a game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from exactmines.analysis.cache import CountCache
from exactmines.analysis.counting import canonical, count_components
from exactmines.analysis.counts import ComponentCounts
from exactmines.analysis.frontier import Component
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

    def __len__(self) -> int:
        return len(self._listed)

    def count(self, engine: Backend, component: Component, *,
              budget: Budget = UNLIMITED) -> ComponentCounts:
        """The analysis' question (:meth:`CountCache.count`): ``component``'s counts, by the
        box search within its node limit or else by ``engine``, which raises as it does
        (nothing is kept then)."""
        return self.listed(engine, component, budget)[0]

    def listed(self, engine: Backend, component: Component, budget: Budget = UNLIMITED, *,
               search: bool = False) -> Listed:
        """``component``'s counts and box solutions (``None`` when the engine counted it).

        ``search``: the player's fallback when ``engine`` gives up on a component too wide
        for it (:class:`~exactmines.errors.TooLarge`): the box search without a node limit,
        until ``budget`` runs out (:func:`~exactmines.play.lookahead.counted_large`). The
        analysis does not ask for it: its engine's limits are its answer.

        Cost: a hash of the component's rules when it was met before; else the box search
        (at most ``nodes`` nodes), then the engine's count.

        Raises
        ------
        BudgetExceeded
            As the engine does (:class:`~exactmines.errors.OutOfTime` as soon as ``budget``
            has run out, before any search); nothing is kept then.
        """
        key = canonical(component)
        found = self._listed.get(key)
        if found is not None:
            self.hits += 1
            return found
        sizes = key.sizes
        rule_boxes = tuple(c.boxes for c in key.constraints)
        needs = tuple(c.mines for c in key.constraints)
        solutions: list[Solution] = []
        try:
            found = (lookahead.count_boxes(sizes, rule_boxes, needs, self.nodes, solutions,
                                           budget=budget), tuple(solutions))
        except TooLarge:
            counts = (lookahead.counted_large(sizes, rule_boxes, needs, engine, budget)
                      if search else count_components((component,), engine, budget, every=False)[0])
            found = (counts, None)
        self.misses += 1
        if len(self._listed) >= self.limit:
            self._listed.clear()
        self._listed[key] = found
        return found
