"""``count_components``: where every exact count of the package is made.

A component (:class:`~exactmines.analysis.frontier.Component`: box sizes and "exactly *k*
of these boxes" rules) is the only thing that crosses into counting; the counts
(:class:`~exactmines.analysis.counts.ComponentCounts`) are the only thing that comes back,
and :mod:`exactmines.analysis.combine` turns them into probabilities. The analysis, the
player (through its adapter from its view to components, :mod:`exactmines.play.lookahead`),
the page's overlay and the chance that several cells are mines all count here, with the
engine, the budget and the cache their caller passes in: nothing is kept between calls but
what the caller's cache keeps.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal, overload

from exactmines.analysis.cache import CountCache
from exactmines.analysis.counts import ComponentCounts
from exactmines.analysis.frontier import Component
from exactmines.budget import Budget
from exactmines.errors import BudgetExceeded

if TYPE_CHECKING:
    from exactmines.analysis.backends import Backend

__all__ = ["count_components", "canonical"]


def canonical(component: Component) -> Component:
    """``component`` with its rules sorted and each rule once: the same counts (a count
    depends on the boxes and the set of rules, not on their order nor on a rule written
    twice), so one key for a component however its rules were listed.

    The analysis lists a part's rules by the cells of their numbers (two numbers over the
    same cells give the rule twice) and the player by its rules' cells; both order the
    boxes by their first cell, so the same cells under the same rules give one key. Used
    as the key of counts shared between the two
    (:class:`~exactmines.play.shared.SharedCounts`). Cost: a sort of the rules.
    """
    return Component(component.sizes, tuple(sorted(set(component.constraints))),
                     component.forced)


@overload
def count_components(components: Sequence[Component], engine: Backend, budget: Budget,
                     cache: CountCache | None = None, *,
                     every: Literal[False]) -> list[ComponentCounts]: ...


@overload
def count_components(components: Sequence[Component], engine: Backend, budget: Budget,
                     cache: CountCache | None = None, *,
                     every: Literal[True] = True) -> list[ComponentCounts | BudgetExceeded]: ...


def count_components(components: Sequence[Component], engine: Backend, budget: Budget,
                     cache: CountCache | None = None, *,
                     every: bool = True) -> list[ComponentCounts] | list[ComponentCounts |
                                                                          BudgetExceeded]:
    """Exact counts of each of ``components`` by ``engine``, within ``budget``, through
    ``cache`` when given (a component met before is not counted again).

    Parameters
    ----------
    every:
        ``True``: count every component that can be counted, smallest first (a big one that
        runs out leaves the small ones counted), and give, in the order of ``components``,
        its counts or the :class:`~exactmines.errors.BudgetExceeded` that stopped it.
        ``False``: every count is needed, so the first failure is raised and nothing after
        it is tried (in the order given).

    Raises
    ------
    BudgetExceeded
        With ``every=False``, as the engine raised it: ``OutOfTime`` once ``budget`` has run
        out, ``TooLarge`` past what the engine can count.

    Notes
    -----
    Cost: the engine's count of each component not in ``cache`` (a hash of its sizes and
    rules for one that is).
    """
    def one(component: Component) -> ComponentCounts:
        if cache is None:
            return engine.count(component, budget=budget)
        return cache.count(engine, component, budget=budget)

    if not every:
        return [one(component) for component in components]
    found: dict[int, ComponentCounts | BudgetExceeded] = {}
    for i in sorted(range(len(components)), key=lambda i: components[i].cells):
        try:
            found[i] = one(components[i])
        except BudgetExceeded as exc:
            found[i] = exc
    return [found[i] for i in range(len(components))]
