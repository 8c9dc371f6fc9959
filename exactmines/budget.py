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

__all__ = ["Budget", "UNLIMITED", "LIMIT_RULE"]

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
