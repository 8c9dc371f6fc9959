"""A part's exact search in a child process that is ended when the time runs out, so that
``--time-limit`` holds.

RC2 is interrupted between SAT calls (:mod:`exactmines.efficiency.maxsat`), but its
processing of a core (building a cardinality encoding) cannot be, and took half a second
and more on expert boards under load: the time limit was passed by seconds. A large part is
therefore searched by :func:`~exactmines.child.run_in_child`, which ends the child when the
budget runs out. The child writes its progress, the shortest sequence found and the highest
bound proved, to a file of a folder the parent made, replaced whole at each change
(:class:`Progress`); when the parent ends the child, it reads the last one: the answer is
then that sequence and that bound, both as good as when the child was ended. The child
stops its own search a little before the parent's deadline (:func:`_margin`), so it
normally answers by itself and is kept for the next part or board.

A part of at most :data:`IN_PROCESS` numbers (most beginner boards) is searched in this
process: its RC2 steps take milliseconds, and a child's start (about 0.3 s of imports the
first time) would cost more than the whole proof.
"""

from __future__ import annotations

import json
import os
import tempfile
import time
from collections.abc import Callable

from exactmines.budget import Budget
from exactmines.child import run_in_child
from exactmines.efficiency.layout import Click, Layout
from exactmines.efficiency.maxsat import solve_part_maxsat
from exactmines.efficiency.model import Part, PartAnswer
from exactmines.errors import InputError, OutOfTime
from exactmines.io.files import read_text, write_atomic

__all__ = ["solve_part_bounded", "Progress", "read_progress", "IN_PROCESS"]

#: Parts with at most this many numbers are searched in this process.
IN_PROCESS = 40

#: What the child's work is called in the error of a child that died.
_DOING = "searching for the fewest clicks"


class Progress:
    """The search's best so far, written to ``path`` (JSON: ``{"lower", "clicks"}``) by
    an atomic replace at each change: a reader never sees half of one. Called as a
    :data:`~exactmines.efficiency.maxsat.Report`."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.best: list[Click] | None = None
        self.lower = 0

    def __call__(self, best: list[Click] | None = None, lower: int | None = None) -> None:
        changed = False
        if best is not None and (self.best is None or len(best) < len(self.best)):
            self.best, changed = list(best), True
        if lower is not None and lower > self.lower:
            self.lower, changed = lower, True
        if changed and self.best is not None:
            write_atomic(self.path, json.dumps({"lower": self.lower, "clicks": self.best}))


def read_progress(path: str) -> tuple[list[Click], int] | None:
    """The last progress written to ``path`` (clicks, proved bound), ``None`` if none was."""
    try:
        data = json.loads(read_text(path))
    except InputError:
        return None
    return [(kind, i) for kind, i in data["clicks"]], int(data["lower"])


def _margin(seconds: float) -> float:
    """Seconds the child leaves before the parent's deadline to send its answer back: a
    twentieth of its time, between 0.02 and 0.2 s."""
    return min(0.2, max(0.02, seconds / 20))


def _search(layout: Layout, part: Part, start: int | None, incumbent: list[Click], path: str,
            deadline: float, budget: Budget) -> PartAnswer:  # pragma: no cover - in a child
    """The child's work: the part's search, its progress written to ``path``, ending a
    :func:`_margin` before ``deadline``: the parent's, on the machine's monotonic clock
    (which both processes read on Linux; the child's own ``budget``, counted from when it
    read the request, bounds it too)."""
    end = deadline if budget.deadline is None else min(deadline, budget.deadline)
    own = Budget(end - _margin(end - time.monotonic()))
    return solve_part_maxsat(layout, part, start, own, incumbent, report=Progress(path))


def solve_part_bounded(layout: Layout, part: Part, start: int | None, budget: Budget,
                       incumbent: list[Click], *, work: Callable[..., PartAnswer] = _search,
                       ) -> PartAnswer:
    """:func:`~exactmines.efficiency.maxsat.solve_part_maxsat` within ``budget``, held to
    it: a part of more than :data:`IN_PROCESS` numbers under a limit is searched in a child
    process ended when the budget runs out, the answer then the best sequence and bound it
    reported (``extra["ended"]`` true); ``incumbent`` (clicks that reveal the part) and a
    bound of 1 when it reported none. ``work``: the child's (:func:`_search`; a test's
    stand-in takes the same arguments)."""
    if not budget.limited or len(part.numbered) <= IN_PROCESS:
        return solve_part_maxsat(layout, part, start, budget, incumbent)
    assert budget.deadline is not None
    with tempfile.TemporaryDirectory(prefix="exactmines-zini-") as folder:
        path = os.path.join(folder, "progress.json")
        try:
            return run_in_child(work, (layout, part, start, incumbent, path,
                                          budget.deadline), budget, doing=_DOING)
        except OutOfTime:
            found = read_progress(path)
    clicks, lower = found if found is not None else (incumbent, 1)
    if len(incumbent) < len(clicks):  # pragma: no cover - the child starts from it
        clicks = incumbent
    return PartAnswer(clicks, lower, len(clicks) <= lower, extra={"ended": True})
