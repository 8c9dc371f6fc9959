"""Exact counts of components kept by their rules, for work that meets the same components
again: the positions of one game, a replay, a no-guess check's boards.

Between two moves of a game only the components near the click change; the others come
back with the same boxes and rules. A :class:`CountCache` remembers each component's
:class:`~exactmines.analysis.backends.ComponentCounts` (its layouts by number of mines and
the mines of each box: everything the combination under the total mine count needs from
it), keyed by the component itself -- its box sizes and rules, which is all a backend ever
sees -- so a component met again, wherever it lies on the board, is not counted again::

    cache = CountCache()
    for position in positions_of_a_game:
        result = analyze(position, cache=cache)

Counts are exact whatever the engine that found them, so one cache may serve several
engines. A count that runs out of time or past an engine's limits is not kept (it raises,
as the engine does). The cache is one caller's state: it is never shared through a module
global, so an analysis without one costs what it always did.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from exactmines.analysis.counts import ComponentCounts
from exactmines.budget import UNLIMITED, Budget

if TYPE_CHECKING:
    from exactmines.analysis.backends import Backend
    from exactmines.analysis.frontier import Component

__all__ = ["CountCache"]


class CountCache:
    """Components' exact counts by their rules (see the module notes).

    Parameters
    ----------
    limit:
        Components kept; past it the cache starts afresh (a game meets a few hundred, a
        replay of a long game a few thousand).

    Attributes
    ----------
    hits, misses:
        Counts answered from the cache, and counted by an engine.

    Notes
    -----
    A lookup hashes the component's sizes and rules: a few microseconds for a mid-game
    component, against tens to thousands for counting it.
    """

    __slots__ = ("limit", "hits", "misses", "_counts")

    def __init__(self, limit: int = 50_000) -> None:
        self.limit = limit
        self.hits = 0
        self.misses = 0
        self._counts: dict[Component, ComponentCounts] = {}

    def __len__(self) -> int:
        return len(self._counts)

    def count(self, engine: Backend, component: Component, *,
              budget: Budget = UNLIMITED) -> ComponentCounts:
        """``engine.count(component, budget=budget)``, or the counts kept for an equal
        component (same box sizes, same rules, in the same order).

        Raises
        ------
        BudgetExceeded
            As the engine does; nothing is kept then.
        """
        found = self._counts.get(component)
        if found is not None:
            self.hits += 1
            return found
        counts = engine.count(component, budget=budget)
        self.misses += 1
        if len(self._counts) >= self.limit:
            self._counts.clear()
        self._counts[component] = counts
        return counts
