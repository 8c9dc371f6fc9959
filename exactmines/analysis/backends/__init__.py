"""Interchangeable counting engines behind one protocol, and the registry that names them.

A backend answers four questions about one :class:`~exactmines.analysis.frontier.Component`:

``count``
    exact layout counts by number of mines (may give up with a
    :class:`~exactmines.errors.BudgetExceeded`: :class:`~exactmines.errors.OutOfTime` past
    its budget, :class:`~exactmines.errors.TooLarge` when the component is beyond the
    method, such as a DP table too wide);
``mine_numbers``
    which numbers of mines the component can hold at all;
``deduce``
    for each box, whether some layout with an allowed number of mines puts a mine in it,
    and whether some such layout leaves one of its cells clear;
``layouts_up_to``
    the layouts (with an allowed number of mines), counted only up to a limit, and the mine
    numbers of the layouts met: "exactly one layout?" (the uniqueness test of
    :mod:`exactmines.solvability.check`) is ``layouts_up_to(component, 2)``, which an
    enumerating engine answers with two solves however many layouts there are, and a
    counting engine reads off its counts.

``deduce`` and ``mine_numbers`` are the fall-back that keeps safe/mine verdicts exact when
counting is too expensive. Every method takes a ``budget``
(:class:`~exactmines.budget.Budget`, keyword, no limit by default) and stops when it runs
out, and then says so, the same way for every question: it raises
:class:`~exactmines.errors.OutOfTime`. ``deduce`` raises its subclass
:class:`~exactmines.analysis.counts.PartlyProved`, whose ``facts`` are the
:class:`Deductions` proved so far (``complete=False``), in which every fact not yet proved
impossible is left possible -- an unproved cell is "unknown", never "safe" or "mine".
A returned answer is always complete.
"""

from __future__ import annotations

import importlib
import importlib.util
import math
import sys
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from math import comb
from types import ModuleType
from typing import TYPE_CHECKING, Protocol

from exactmines.analysis.counts import ComponentCounts, Deductions, PartlyProved
from exactmines.analysis.engine_names import (  # noqa: F401 (_preferred_milp: its tests)
    ALIASES,
    REGISTRY,
    _preferred_milp,
    backend_names,
)
from exactmines.budget import UNLIMITED, Budget
from exactmines.errors import BackendUnavailable, BudgetExceeded, TooLarge, UnknownBackend

if TYPE_CHECKING:  # the command line reads the registry; the frontier is not needed there
    from exactmines.analysis.frontier import Component

__all__ = [
    "ComponentCounts",
    "Deductions",
    "PartlyProved",
    "Backend",
    "CountingBackend",
    "VerdictsOnly",
    "mine_number_runs",
    "get_backend",
    "registered",
    "backend_names",
    "installed_backend_names",
    "engine_names",
    "deductions_from_counts",
    "layouts_from_counts",
    "LayoutTally",
]


class Backend(Protocol):
    """What every engine provides; see the module docstring for the contract."""

    name: str

    def count(self, component: Component, *, budget: Budget = UNLIMITED) -> ComponentCounts:
        ...

    def mine_numbers(self, component: Component, *,
                     budget: Budget = UNLIMITED) -> frozenset[int]:
        ...

    def deduce(self, component: Component, allowed: frozenset[int], *,
               budget: Budget = UNLIMITED) -> Deductions:
        ...

    def layouts_up_to(self, component: Component, limit: int,
                      allowed: frozenset[int] | None = None, *,
                      budget: Budget = UNLIMITED) -> tuple[int, frozenset[int]]:
        ...


class LayoutTally:
    """Counts of box-count vectors found one by one (the enumerating engines), each weighing
    prod C(size, j).

    Rows are kept only for the mine numbers seen: a dense (cells + 1) x boxes table is
    quadratic, 78 million entries on an 8,847-cell component.
    """

    def __init__(self, component: Component) -> None:
        self.sizes = component.sizes
        self.layouts = [0] * (component.cells + 1)
        self.rows: dict[int, list[int]] = {}

    def add(self, counts: Sequence[int]) -> None:
        weight = 1
        for size, j in zip(self.sizes, counts, strict=True):
            weight *= comb(size, j)
        k = sum(counts)
        self.layouts[k] += weight
        row = self.rows.setdefault(k, [0] * len(self.sizes))
        for b, j in enumerate(counts):
            row[b] += weight * j

    def result(self) -> ComponentCounts:
        zero = (0,) * len(self.sizes)
        return ComponentCounts(tuple(self.layouts), tuple(
            tuple(self.rows[k]) if k in self.rows else zero for k in range(len(self.layouts))))


def mine_number_runs(allowed: frozenset[int], top: int) -> list[tuple[int, int]]:
    """``allowed`` (clipped to ``0..top``) as maximal runs of consecutive numbers, in order:
    the SAT and MILP engines encode each run as one pair of cardinality bounds."""
    runs: list[tuple[int, int]] = []
    for k in sorted(k for k in allowed if 0 <= k <= top):
        if runs and runs[-1][1] == k - 1:
            runs[-1] = (runs[-1][0], k)
        else:
            runs.append((k, k))
    return runs


def deductions_from_counts(component: Component, counts: ComponentCounts,
                           allowed: frozenset[int]) -> Deductions:
    """Read the verdict facts off exact counts, keeping only mine numbers in ``allowed``."""
    ks = [k for k in allowed if k < len(counts.layouts) and counts.layouts[k]]
    can_mine = tuple(any(counts.box_mines[k][b] > 0 for k in ks)
                     for b in range(len(component.sizes)))
    can_clear = tuple(any(counts.box_mines[k][b] < size * counts.layouts[k] for k in ks)
                      for b, size in enumerate(component.sizes))
    return Deductions(can_mine, can_clear)


def layouts_from_counts(counts: ComponentCounts, limit: int,
                        allowed: frozenset[int] | None = None) -> tuple[int, frozenset[int]]:
    """``layouts_up_to`` read off exact counts: the layouts with a mine number in
    ``allowed`` (every number when ``None``), at most ``limit``, and those mine numbers."""
    numbers = frozenset(k for k, n in enumerate(counts.layouts)
                        if n and (allowed is None or k in allowed))
    return min(sum(counts.layouts[k] for k in numbers), limit), numbers


class CountingBackend(ABC):
    """Base for engines whose counting is the cheapest way to answer everything.

    The other questions are read off ``count``. The last component the engine could not
    count is remembered with the time it had: the analysis asks ``count``, then
    ``mine_numbers``, then ``deduce`` of the same component, each with less time, and a
    second and third failed count would cost as much as the first. So they fail at once,
    as they would have (too large: whatever the time; out of time: with no more time than
    before). ``deduce`` past the budget, or on such a component, raises as ``count`` did:
    it has proved nothing."""

    name = "counting"

    def __init__(self) -> None:
        #: The component last not counted, why, and the seconds it had (inf: too large).
        self._failed: tuple[Component, BudgetExceeded, float] | None = None

    @abstractmethod
    def count(self, component: Component, *, budget: Budget = UNLIMITED) -> ComponentCounts:
        """Exact counts; subclasses define how."""

    def _counts(self, component: Component, budget: Budget) -> ComponentCounts:
        """``count``, failing at once where the last failed count says it would."""
        had = budget.remaining()
        failed = self._failed
        if (failed is not None and had <= failed[2]
                and (failed[0] is component or failed[0] == component)):
            raise failed[1]
        try:
            return self.count(component, budget=budget)
        except TooLarge as exc:
            self._failed = (component, exc, math.inf)
            raise
        except BudgetExceeded as exc:
            self._failed = (component, exc, had)
            raise

    def mine_numbers(self, component: Component, *,
                     budget: Budget = UNLIMITED) -> frozenset[int]:
        return self._counts(component, budget).mine_numbers()

    def deduce(self, component: Component, allowed: frozenset[int], *,
               budget: Budget = UNLIMITED) -> Deductions:
        return deductions_from_counts(component, self._counts(component, budget), allowed)

    def layouts_up_to(self, component: Component, limit: int,
                      allowed: frozenset[int] | None = None, *,
                      budget: Budget = UNLIMITED) -> tuple[int, frozenset[int]]:
        """From the counts: the layouts with a mine number in ``allowed`` (capped at
        ``limit``) and every such mine number."""
        return layouts_from_counts(self._counts(component, budget), limit, allowed)


class VerdictsOnly:
    """``engine`` with its counting switched off: ``count`` gives up at once
    (:class:`~exactmines.errors.TooLarge`), every other question is the engine's own. An
    analysis with it gives exact safe cells and mines and no probabilities, for the cost of
    the verdict questions alone: how the tests and benchmarks time that route."""

    def __init__(self, engine: Backend) -> None:
        self.engine = engine
        self.name = engine.name

    def count(self, component: Component, *, budget: Budget = UNLIMITED) -> ComponentCounts:
        raise TooLarge("counting switched off (verdicts only)")

    def mine_numbers(self, component: Component, *,
                     budget: Budget = UNLIMITED) -> frozenset[int]:
        return self.engine.mine_numbers(component, budget=budget)

    def deduce(self, component: Component, allowed: frozenset[int], *,
               budget: Budget = UNLIMITED) -> Deductions:
        return self.engine.deduce(component, allowed, budget=budget)

    def layouts_up_to(self, component: Component, limit: int,
                      allowed: frozenset[int] | None = None, *,
                      budget: Budget = UNLIMITED) -> tuple[int, frozenset[int]]:
        return self.engine.layouts_up_to(component, limit, allowed, budget=budget)


# The table lives in a module of its own so that the command line reads the names without
# importing this package; tests add engines to it through this name.
_REGISTRY = REGISTRY


#: Import name -> the name pip installs it under, where they differ.
_PIP_NAMES = {"pysat": "python-sat"}


_ALIASES = ALIASES


def installed_backend_names() -> list[str]:
    """:func:`backend_names` without those whose package is missing here (for which
    :func:`get_backend` raises :class:`BackendUnavailable`): what an interface offers.

    Imports every engine's module (a second or so, once per process)."""
    names = []
    for name in backend_names():
        try:
            get_backend(name)
        except BackendUnavailable:
            continue
        names.append(name)
    return names


def engine_names() -> list[str]:
    """Each registered engine once, aliases left out: what the tests run."""
    return list(_REGISTRY)


def registered(name: str) -> str:
    """The registry's name for ``name`` (aliases resolved), without importing the engine;
    :class:`UnknownBackend` when nothing is registered under it."""
    key = _ALIASES.get(name, name)
    if key not in _REGISTRY:
        raise UnknownBackend(
            f"unknown backend {name!r}: choose one of {', '.join(backend_names())}")
    return key


def get_backend(name: str) -> Backend:
    """A new engine of the backend called ``name`` (``auto`` is the recommended default).

    Every call makes a new engine (a few microseconds): engines keep state of the work
    they do (the components ``auto`` could not count, the MILP engines' solve count), and
    that state belongs to one caller -- an analysis, a solvability run, a player's game --
    never to the process. A caller keeps the engine it got for as long as it wants that
    state.

    Raises
    ------
    UnknownBackend
        For a name that is not registered (a :class:`BackendUnavailable` too).
    BackendUnavailable
        When the backend's package is not installed.
    """
    module_name, class_name, package = _REGISTRY[registered(name)]
    # An engine's module once imported is looked up directly: import_module's own checks
    # cost more than making the engine, and an analysis makes two (auto, then its DP).
    module = sys.modules.get(module_name)
    if module is None:
        module = _import_engine(name, module_name, package)
    factory: Callable[[], Backend] = getattr(module, class_name)
    return factory()


def _import_engine(name: str, module_name: str, package: str) -> ModuleType:
    """The engine's module, imported, or :class:`BackendUnavailable` naming what to
    install."""
    try:
        return importlib.import_module(module_name)
    except ImportError as exc:
        # Name what is really missing: milp-highs also imports pulp, and a missing pulp
        # must not be reported as a missing highspy.
        missing = (exc.name or "").split(".")[0]
        install = _PIP_NAMES.get(missing, missing) or package
        raise BackendUnavailable(
            f"backend {name!r} needs the package {install!r}: pip install {install}") from None
