"""The default engine: count with dynamic programming, decide with SAT when counting is
infeasible.

``count`` is the DP engine's (exact, no enumeration). When a component is too wide for it
(a table past its state cap: :class:`~exactmines.errors.TooLarge`), or the DP's share of
the budget runs out, the Ganak engine counts it when ``pyganak`` is installed: a compiled
SAT formula's component with millions of layouts is counted exactly. Without Ganak, or when
it fails, the SAT engine enumerates its layouts: a wide component with few layouts is still
counted exactly. (How a budget is shared between them: :meth:`AutoBackend.count`.) When
that runs out too, ``count`` raises :class:`~exactmines.errors.OutOfTime` and the analysis
asks ``mine_numbers`` and ``deduce`` instead: for such a component those go to the SAT
engine, whose feasibility tests are fast, so safe/mine verdicts stay exact and only the
probabilities go missing (and are said to); past the verdicts' own budget, a cell not yet
proved is reported unknown. Asked directly
(the solvability search does), ``mine_numbers`` and ``deduce`` first try the counts for at
most :data:`~exactmines.budget.DEDUCE_SECONDS` seconds and half their budget.

The engines are reached through the registry, never imported: backends stay independent
of each other.
"""

from __future__ import annotations

import importlib.util

from exactmines.analysis.backends import (
    Backend,
    ComponentCounts,
    Deductions,
    deductions_from_counts,
    get_backend,
)
from exactmines.analysis.frontier import Component
from exactmines.budget import (
    COUNTING_SECONDS,
    DEDUCE_SECONDS,
    DP_SHARE,
    ENUMERATION_SECONDS,
    UNLIMITED,
    VERDICT_COUNT_SHARE,
    Budget,
)
from exactmines.errors import BudgetExceeded, SolverError

__all__ = ["AutoBackend"]

_MEMORY = 256
_INSTALLED = "installed"


def _ganak_if_installed() -> str | None:
    return "ganak" if importlib.util.find_spec("pyganak") else None


class AutoBackend:
    """DP counts; SAT verdicts for the components DP could not count.

    An instance holds its own two engines (made from the registry on first use when given
    by name) and remembers the components it could not count, for its own later
    questions: state of one caller (an analysis, a solvability run, a player's game), never
    shared through the registry, which makes a new engine on every request.
    """

    name = "auto"

    def __init__(self, counter: str | Backend = "dp", decider: str | Backend = "sat",
                 model_counter: str | Backend | None = _INSTALLED) -> None:
        """``model_counter``: asked before SAT enumeration on a component too wide for
        ``counter``; by default Ganak when ``pyganak`` is installed, ``None`` for none."""
        self._counter = counter
        self._decider = decider
        # Looked up when first needed: finding out whether pyganak is installed searches
        # the import path (about 45 us, more than the whole count of many positions), and
        # only a component too wide for the DP needs the answer.
        self._model_counter = model_counter
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

    @property
    def model_counter(self) -> Backend | None:
        if self._model_counter == _INSTALLED:
            self._model_counter = _ganak_if_installed()
        if isinstance(self._model_counter, str):
            self._model_counter = get_backend(self._model_counter)
        return self._model_counter

    def count(self, component: Component, *, budget: Budget = UNLIMITED) -> ComponentCounts:
        """The DP's counts, else Ganak's, else SAT enumeration's. Under a limit the DP gets
        :data:`~exactmines.budget.DP_SHARE` of it and Ganak the rest; SAT enumerates with
        what is left when Ganak is not installed or fails before the end (where Ganak runs
        out of time, enumeration, far slower, would too). Without a limit the DP has none
        but its state cap, Ganak :data:`~exactmines.budget.COUNTING_SECONDS` seconds and
        SAT :data:`~exactmines.budget.ENUMERATION_SECONDS`."""
        limited = budget.limited
        try:
            try:
                return self.counter.count(
                    component, budget=budget.share(DP_SHARE) if limited else budget)
            except BudgetExceeded:
                if budget.expired():
                    raise
            if self.model_counter is not None:
                try:
                    return self.model_counter.count(component, budget=(
                        budget if limited else budget.at_most(COUNTING_SECONDS)))
                except (SolverError, BudgetExceeded):
                    if budget.expired():
                        raise  # else counted no further: SAT enumeration may still
            return self.decider.count(
                component, budget=budget if limited else budget.at_most(ENUMERATION_SECONDS))
        except BudgetExceeded:
            if len(self._uncounted) >= _MEMORY:
                self._uncounted.clear()
            self._uncounted.add(component)
            raise

    def _counts(self, component: Component, budget: Budget) -> ComponentCounts | None:
        """The counts, if they come within :data:`~exactmines.budget.VERDICT_COUNT_SHARE`
        of the budget and :data:`~exactmines.budget.DEDUCE_SECONDS`."""
        if component in self._uncounted:
            return None
        try:
            return self.count(component, budget=budget.share(VERDICT_COUNT_SHARE)
                              .at_most(DEDUCE_SECONDS))
        except BudgetExceeded:
            return None

    def mine_numbers(self, component: Component, *,
                     budget: Budget = UNLIMITED) -> frozenset[int]:
        counts = self._counts(component, budget)
        if counts is None:
            return self.decider.mine_numbers(component, budget=budget)
        return counts.mine_numbers()

    def deduce(self, component: Component, allowed: frozenset[int], *,
               budget: Budget = UNLIMITED) -> Deductions:
        counts = self._counts(component, budget)
        if counts is None:
            return self.decider.deduce(component, allowed, budget=budget)
        return deductions_from_counts(component, counts, allowed)

    def layouts_up_to(self, component: Component, limit: int,
                      allowed: frozenset[int] | None = None, *,
                      budget: Budget = UNLIMITED) -> tuple[int, frozenset[int]]:
        """The decider's: enumeration stops at the limit, where counting goes on to the end
        (a component too wide to count may still have two layouts found at once)."""
        return self.decider.layouts_up_to(component, limit, allowed, budget=budget)
