"""One time budget per piece of work: made once where the work enters (a command, a request,
a batch item, a player's move), handed down to every stage and every engine, split between
stages, never made again below.

A :class:`Budget` holds a deadline on the ``time.monotonic()`` clock, or none. It is a value:
frozen, cheap to pass and to copy, shared by threads. Work that runs long asks it
:meth:`Budget.check` between steps (one clock read, well under a microsecond); work that
cannot (a solver call in C) runs in slices (the SAT engine) or in a child process that is
ended when the budget runs out (:mod:`exactmines.child`). A deadline is a moment on this
machine's clock: a child process is given :meth:`Budget.remaining` seconds, never the
deadline itself.

The meaning of the limits is the same everywhere: a time limit is a number of seconds more
than 0; ``inf`` (or ``None`` in the library) means no limit; 0, a negative number and NaN
are refused.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

from exactmines.errors import OutOfTime, ParameterError

__all__ = ["Budget", "UNLIMITED", "LIMIT_RULE", "COUNT_SHARE", "NUMBERS_SHARE", "DP_SHARE",
           "VERDICT_COUNT_SHARE", "DEDUCE_SECONDS", "ENUMERATION_SECONDS", "COUNTING_SECONDS"]

#: How a time limit is explained when refused (the CLI and the API show it after the value).
LIMIT_RULE = "must be more than 0 s; inf for no limit"


@dataclass(frozen=True, slots=True)
class Budget:
    """Time allowed for some work: a ``time.monotonic()`` ``deadline``, or ``None`` for no
    limit. Make one with :meth:`seconds` where the work starts; give a stage a part of it
    with :meth:`share` or :meth:`at_most`."""

    deadline: float | None = None

    @classmethod
    def seconds(cls, limit: float | None, parameter: str = "time_limit") -> Budget:
        """A budget ending ``limit`` seconds from now (``None`` or ``inf``: no limit).

        Raises
        ------
        ParameterError
            Naming ``parameter``, for 0, a negative number or NaN.
        """
        if limit is None or limit == math.inf:
            return UNLIMITED
        if not limit > 0:  # NaN too
            raise ParameterError(parameter, limit, LIMIT_RULE)
        return cls(time.monotonic() + limit)

    @property
    def limited(self) -> bool:
        return self.deadline is not None

    def remaining(self) -> float:
        """Seconds left (``inf`` without a limit, 0 once expired)."""
        if self.deadline is None:
            return math.inf
        return max(0.0, self.deadline - time.monotonic())

    def expired(self) -> bool:
        return self.deadline is not None and time.monotonic() >= self.deadline

    def check(self, doing: str = "counting layouts") -> None:
        """Raise :class:`~exactmines.errors.OutOfTime` ("time limit reached while
        ``doing``") once the deadline has passed. One clock read."""
        if self.deadline is not None and time.monotonic() >= self.deadline:
            raise OutOfTime(f"time limit reached while {doing}")

    def share(self, fraction: float) -> Budget:
        """A budget ending after ``fraction`` (0 to 1) of the time that remains now: a stage's
        part, the rest left to the stages after it. Without a limit, no limit."""
        if self.deadline is None:
            return self
        if not 0 <= fraction <= 1:
            raise ValueError(f"a share is between 0 and 1, not {fraction}")
        now = time.monotonic()
        return Budget(now + fraction * max(0.0, self.deadline - now))

    def at_most(self, seconds: float) -> Budget:
        """This budget, cut to end within ``seconds`` from now: the earlier of the two."""
        end = time.monotonic() + seconds
        return Budget(end if self.deadline is None else min(end, self.deadline))


#: No limit.
UNLIMITED = Budget()


# -- How a budget is shared ---------------------------------------------------------------
# Every split of one piece of work's time between its stages, in one place. A stage gets
# ``budget.share(fraction)`` of the time that remains when it starts (the rest is left to
# the stages after it), or ``budget.at_most(seconds)`` where the work has no limit of its
# own but a stage must not run for ever. The page's overlay gives the analysis the whole
# request's budget and its advice what the analysis left (``ui/web/bodies.py``).

#: ``analyze``: the share counting may use; the verdicts have the rest (all of it, when
#: every component was counted in time, since they then need none).
COUNT_SHARE = 0.5
#: ``analyze``: the share of the verdicts' time that finding a component's possible numbers
#: of mines may use: the proofs of safe cells and mines keep the rest.
NUMBERS_SHARE = 0.5
#: The ``auto`` engine: the share of a limited budget the DP may use to count a component
#: before the others try. An ordinary component takes the DP milliseconds; one it cannot
#: count it gives up on only at its state cap (2 s on a compiled 20-variable formula) or at
#: the end of its share, time Ganak needs: at 0.5, auto counted nothing within 10 s on the
#: compiled formula of instances/sat-3sat-v20-c85-seed1-000.mine, which Ganak alone counts
#: in 4.7 s.
DP_SHARE = 0.1
#: The ``auto`` engine's verdicts: the share of their budget, and at most
#: :data:`DEDUCE_SECONDS`, the DP's counts may take before SAT is asked instead.
VERDICT_COUNT_SHARE = 0.5
DEDUCE_SECONDS = 1.0
#: The ``auto`` engine without a limit: seconds SAT enumeration gets on a component too
#: wide for the DP.
ENUMERATION_SECONDS = 30.0
#: The ``auto`` engine without a limit: seconds Ganak gets on a component too wide for the
#: DP.
COUNTING_SECONDS = 300.0
