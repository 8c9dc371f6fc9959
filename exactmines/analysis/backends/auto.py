"""The default engine: count with dynamic programming, decide with SAT when counting is
infeasible.

``count`` is the DP engine's (exact, no enumeration). When a component is too wide for it
(a table past its state cap: :class:`~exactmines.errors.TooLarge`), the SAT engine
enumerates its layouts until the deadline (or for :data:`ENUMERATION_BUDGET` seconds when
there is none): a wide component with few layouts, such as a compiled SAT formula's, is
still counted exactly. When that runs out too, ``count`` raises
:class:`~exactmines.errors.OutOfTime` and the analysis asks ``mine_numbers`` and ``deduce``
instead: for such a component those go to the SAT engine, whose feasibility tests are fast,
so safe/mine verdicts stay exact and only the probabilities go missing (and are said to);
past the verdicts' own deadline, a cell not yet proved is reported unknown. Asked directly
(the solvability search does), ``mine_numbers`` and ``deduce`` first try the counts for at
most :data:`DEDUCE_BUDGET` seconds.

The two engines are reached through the registry, never imported: backends stay
independent of each other.
"""

from __future__ import annotations

import time

from exactmines.analysis.backends import (
    Backend,
    ComponentCounts,
    Deductions,
    deductions_from_counts,
    get_backend,
)
from exactmines.analysis.frontier import Component
from exactmines.errors import BudgetExceeded, TooLarge

__all__ = ["AutoBackend", "DEDUCE_BUDGET", "ENUMERATION_BUDGET"]

#: Seconds ``mine_numbers``/``deduce`` give the DP counts before asking SAT.
DEDUCE_BUDGET = 1.0
#: Seconds SAT enumeration gets on a component too wide for DP, when no deadline is given.
ENUMERATION_BUDGET = 30.0
_MEMORY = 256


class AutoBackend:
    """DP counts; SAT verdicts for the components DP could not count.

    An instance holds its own two engines (made from the registry on first use when given
    by name) and remembers the components it could not count, for its own later
    questions: state of one caller (an analysis, a solvability run, a player's game), never
    shared through the registry, which makes a new engine on every request.
    """

    name = "auto"

    def __init__(self, counter: str | Backend = "dp", decider: str | Backend = "sat") -> None:
        self._counter = counter
        self._decider = decider
        # Components DP gave up on lately: their verdicts go straight to SAT.
        self._uncounted: set[Component] = set()

    @property
    def counter(self) -> Backend:
        if isinstance(self._counter, str):
            self._counter = get_backend(self._counter)
        return self._counter

    @property
    def decider(self) -> Backend:
        if isinstance(self._decider, str):
            self._decider = get_backend(self._decider)
        return self._decider

    def count(self, component: Component, *, deadline: float | None = None) -> ComponentCounts:
        try:
            try:
                return self.counter.count(component, deadline=deadline)
            except TooLarge:
                if deadline is not None and time.monotonic() >= deadline:
                    raise
            if deadline is None:
                deadline = time.monotonic() + ENUMERATION_BUDGET
            return self.decider.count(component, deadline=deadline)
        except BudgetExceeded:
            if len(self._uncounted) >= _MEMORY:
                self._uncounted.clear()
            self._uncounted.add(component)
            raise

    def _counts(self, component: Component) -> ComponentCounts | None:
        if component in self._uncounted:
            return None
        try:
            return self.count(component, deadline=time.monotonic() + DEDUCE_BUDGET)
        except BudgetExceeded:
            return None

    def mine_numbers(self, component: Component, *,
                     deadline: float | None = None) -> frozenset[int]:
        counts = self._counts(component)
        if counts is None:
            return self.decider.mine_numbers(component, deadline=deadline)
        return counts.mine_numbers()

    def deduce(self, component: Component, allowed: frozenset[int], *,
               deadline: float | None = None) -> Deductions:
        counts = self._counts(component)
        if counts is None:
            return self.decider.deduce(component, allowed, deadline=deadline)
        return deductions_from_counts(component, counts, allowed)

    def layouts_up_to(self, component: Component, limit: int,
                      allowed: frozenset[int] | None = None, *,
                      deadline: float | None = None) -> tuple[int, frozenset[int]]:
        """The decider's: enumeration stops at the limit, where counting goes on to the end
        (a component too wide to count may still have two layouts found at once)."""
        return self.decider.layouts_up_to(component, limit, allowed, deadline=deadline)
