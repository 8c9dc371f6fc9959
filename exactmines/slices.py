"""A SAT call that cannot be interrupted, made in slices so that a time limit holds.

PySAT cannot interrupt CaDiCaL (``interrupt()`` is not implemented for it), so a call under
a limit is made as calls of ``solve_limited`` with a budget of conflicts, and of decisions
(they bound the long runs of propagation between conflicts on a huge satisfiable formula:
45 s of them in one slice of 500 conflicts, under the ``sat`` engine's counter of mines of
a 15,280-cell component), the clock read between them. A slice keeps what the solver
learnt, so slicing costs little. The conflicts of a slice adapt so that it lasts about the
time asked for, whatever the formula and the machine's load: a fixed number of conflicts
lasts far longer on one formula than on another, and twice as long on a machine whose
cores are shared. CaDiCaL's budgets hold for one call only: each slice is given its own.

Used by the ``sat`` engine (:mod:`exactmines.analysis.backends.sat`) and by the proof of
``zini`` (:mod:`exactmines.efficiency.maxsat`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

__all__ = ["Slices"]

#: Decisions a slice may take per conflict it may take.
_DECISIONS_PER_CONFLICT = 4


class Slices:
    """Solves in slices of about ``seconds`` each, starting at ``conflicts`` conflicts a
    slice and keeping the number in ``limits``."""

    def __init__(self, seconds: float, conflicts: int = 1000,
                 limits: tuple[int, int] = (1, 1 << 20)) -> None:
        self.seconds, self.conflicts, self.limits = seconds, conflicts, limits

    def restart(self) -> None:
        """Start again from the fewest conflicts (the formula grew, and a conflict may
        cost much more)."""
        self.conflicts = self.limits[0]

    def solve(self, solver: Any, assumptions: Sequence[int], stop: Callable[[], bool]
              ) -> bool | None:
        """``solver``'s answer under ``assumptions``, or ``None`` once ``stop()`` says so
        (it is asked before each slice; it may raise instead)."""
        low, high = self.limits
        while not stop():
            solver.conf_budget(self.conflicts)
            solver.dec_budget(self.conflicts * _DECISIONS_PER_CONFLICT)
            started = time.monotonic()
            found = solver.solve_limited(assumptions=list(assumptions))
            if found is not None:
                return bool(found)
            spent = time.monotonic() - started
            if spent < self.seconds / 2:
                self.conflicts = min(self.conflicts * 2, high)
            elif spent > 2 * self.seconds:
                self.conflicts = max(self.conflicts // 2, low)
        return None
