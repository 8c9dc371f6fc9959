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

Side by side. On a machine of two cores or more, the child runs the proof alone for the
whole budget, and a proof not finished within :data:`ALONE` seconds (most intermediate
boards are proved within it; expert boards rarely within seconds) gets this process's
neighbourhood search beside it (:func:`_side_by_side`), each on a core, instead of one
after the other on one. The search stops when its sequence meets the bound the child
reports (the child is then ended: the sequence is proved) or when the child has answered.
On one core, the child's :func:`_search` does both in turn.

The parent ends a child that has not answered half a margin before the deadline
(:func:`_ending`), which leaves the time to read its progress and play the answer.
"""

from __future__ import annotations

import json
import os
import tempfile
import threading
import time
from collections.abc import Callable
from typing import Any

from exactmines.budget import Budget
from exactmines.child import run_in_child
from exactmines.efficiency.layout import Click, Layout
from exactmines.efficiency.maxsat import _Problem, solve_part_maxsat
from exactmines.efficiency.model import Part, PartAnswer
from exactmines.errors import InputError, OutOfTime
from exactmines.io.files import read_text, write_atomic

__all__ = ["solve_part_bounded", "Progress", "read_progress", "IN_PROCESS"]

#: Parts with at most this many numbers are searched in this process.
IN_PROCESS = 40

#: What the child's work is called in the error of a child that died.
_DOING = "searching for the fewest clicks"

#: Seconds the proof of a part runs alone, on two cores, before the neighbourhood search
#: starts beside it (:func:`_side_by_side`): 83 % of the intermediate boards of the
#: benchmark are proved within a second, and the search would take half of their core.
ALONE = 1.0

#: Seconds at least between two readings of the child's progress by the search beside it.
_LOOK = 0.05


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


def _ending(budget: Budget) -> Budget:
    """When the parent ends a child that has not answered: half a :func:`_margin` before
    ``budget``'s deadline, left for ending it, reading its progress and playing the answer
    (a child ended at the deadline itself made an intermediate board's answer 0.03 s late
    on a loaded machine)."""
    assert budget.deadline is not None
    return Budget(budget.deadline - _margin(budget.remaining()) / 2)


def _own(deadline: float, budget: Budget) -> Budget:
    """A child's budget: the parent's ``deadline`` (or the child's own ``budget``, counted
    from when it read the request, if sooner) less a :func:`_margin`."""
    end = deadline if budget.deadline is None else min(deadline, budget.deadline)
    return Budget(end - _margin(end - time.monotonic()))


def _search(layout: Layout, part: Part, start: int | None, incumbent: list[Click], path: str,
            deadline: float, budget: Budget) -> PartAnswer:  # pragma: no cover - in a child
    """The child's work: the part's search, its progress written to ``path``, ending a
    :func:`_margin` before ``deadline``: the parent's, on the machine's monotonic clock
    (which both processes read on Linux; the child's own ``budget``, counted from when it
    read the request, bounds it too)."""
    return solve_part_maxsat(layout, part, start, _own(deadline, budget), incumbent,
                             report=Progress(path))


def _prove(layout: Layout, part: Part, start: int | None, incumbent: list[Click], path: str,
           deadline: float, budget: Budget) -> PartAnswer:  # pragma: no cover - in a child
    """The child's work beside the search (:func:`_side_by_side`): the part's proof alone,
    its progress written to ``path``, ending as :func:`_search` does."""
    problem = _Problem(layout, part, start)
    best, progress = problem.undominated(incumbent), Progress(path)
    progress(best, 1)  # written from the first bound on: the parent reads the bounds
    return problem.search(best, _own(deadline, budget), report=progress)


def cores() -> int:
    """The processor cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def _side_by_side(layout: Layout, part: Part, start: int | None, budget: Budget,
                  incumbent: list[Click], path: str,
                  prove: Callable[..., PartAnswer] = _prove) -> PartAnswer:
    """The proof in a child (``prove``: :func:`_prove`, over the whole ``budget``) and,
    from :func:`_alone` seconds on, the neighbourhood search in this process at the same
    time, until the search's sequence meets the child's bound (the child is then ended),
    the child answers, or the budget runs out (the search stops first, the proof goes on
    to its end): the shortest sequence of either, the highest bound, ``extra["ended"]``
    when the child was ended."""
    assert budget.deadline is not None
    cancel = threading.Event()
    outcome: dict[str, Any] = {}

    def proof() -> None:
        try:
            outcome["answer"] = run_in_child(
                prove, (layout, part, start, incumbent, path, budget.deadline),
                _ending(budget), doing=_DOING, cancel=cancel)
        except OutOfTime:
            pass
        except BaseException as error:  # raised again in the caller's thread
            outcome["error"] = error

    # The search leaves twice the child's margin, for what follows (the other parts, the
    # answer played), and because its last square may end after its budget on a loaded
    # machine (it did by up to 0.2 s, two boards side by side on two cores).
    own = Budget(budget.deadline - 2 * _margin(budget.remaining()))
    alone = _alone(budget)
    thread = threading.Thread(target=proof, name="zini-proof", daemon=True)
    thread.start()
    seen = {"at": 0.0, "lower": 0}

    def met(clicks: int) -> bool:
        """Whether to stop the search: the child answered, or its bound meets ``clicks``."""
        if not thread.is_alive():
            return True
        now = time.monotonic()
        if now - seen["at"] >= _LOOK:
            seen["at"] = now
            found = read_progress(path)
            if found is not None:
                seen["lower"] = found[1]
        return clicks <= seen["lower"]

    best = incumbent
    try:
        # A short proof has its core alone: most intermediate boards are proved within it.
        thread.join(alone)
        if thread.is_alive():
            best = _Problem(layout, part, start).improve(incumbent, own, until=met)
        while not met(len(best)):  # the proof to its end, or to its ending (_ending)
            thread.join(_LOOK)
    finally:
        cancel.set()
        thread.join()
    if "error" in outcome:
        raise outcome["error"]
    answer: PartAnswer | None = outcome.get("answer")
    found = read_progress(path)
    lower = max(answer.lower_bound if answer is not None else 1,
                found[1] if found is not None else 1)
    best = min([best] + ([] if answer is None else [answer.clicks])
               + ([] if found is None else [found[0]]), key=len)
    return PartAnswer(best, lower, len(best) <= lower,
                      extra={} if answer is not None else {"ended": True})


def _alone(budget: Budget) -> float:
    """Seconds the proof runs alone before the search beside it starts: :data:`ALONE`, or
    a quarter of a shorter budget."""
    return min(ALONE, budget.remaining() / 4)


def solve_part_bounded(layout: Layout, part: Part, start: int | None, budget: Budget,
                       incumbent: list[Click], *, work: Callable[..., PartAnswer] = _search,
                       ) -> PartAnswer:
    """:func:`~exactmines.efficiency.maxsat.solve_part_maxsat` within ``budget``, held to
    it: a part of more than :data:`IN_PROCESS` numbers under a limit is searched in a child
    process ended when the budget runs out, the answer then the best sequence and bound it
    reported (``extra["ended"]`` true); ``incumbent`` (clicks that reveal the part) and a
    bound of 1 when it reported none. On a machine of two cores or more, the proof and the
    neighbourhood search run side by side (:func:`_side_by_side`).
    ``work``: the child's (:func:`_search`; a test's stand-in takes the same arguments,
    and is always run alone)."""
    if not budget.limited or len(part.numbered) <= IN_PROCESS:
        return solve_part_maxsat(layout, part, start, budget, incumbent)
    assert budget.deadline is not None
    with tempfile.TemporaryDirectory(prefix="exactmines-zini-") as folder:
        path = os.path.join(folder, "progress.json")
        if cores() >= 2 and work is _search:
            return _side_by_side(layout, part, start, budget, incumbent, path)
        try:
            return run_in_child(work, (layout, part, start, incumbent, path,
                                          budget.deadline), _ending(budget), doing=_DOING)
        except OutOfTime:
            found = read_progress(path)
    clicks, lower = found if found is not None else (incumbent, 1)
    if len(incumbent) < len(clicks):  # pragma: no cover - the child starts from it
        clicks = incumbent
    return PartAnswer(clicks, lower, len(clicks) <= lower, extra={"ended": True})
