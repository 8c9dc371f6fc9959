"""Work in a child process that may die (exactmines.child)."""

from __future__ import annotations

import os
import time

import pytest

from exactmines.budget import Budget
from exactmines.child import run_in_child
from exactmines.errors import ChildDied, InputError, OutOfTime


def test_the_value_and_the_exceptions_of_the_work_come_back():
    assert run_in_child(lambda: (os.getpid(), [1, 2]), what="testing")[1] == [1, 2]
    assert run_in_child(os.getpid, what="testing") != os.getpid()

    def bad() -> None:
        raise InputError("bad data", source="x")

    with pytest.raises(InputError, match="bad data"):
        run_in_child(bad, what="testing")


def test_a_child_that_dies_is_an_error_naming_the_work_and_the_signal():
    # What ms_toollib does on a damaged file: abort the whole process.
    with pytest.raises(ChildDied, match="the process reading x ended without an answer "
                                        r"\(killed by SIGABRT\)"):
        run_in_child(os.abort, what="reading x")
    with pytest.raises(ChildDied, match=r"\(exit status 3\)"):
        run_in_child(lambda: os._exit(3), what="testing")


def test_a_child_past_its_budget_is_killed():
    started = time.monotonic()
    with pytest.raises(OutOfTime, match="time limit reached while sleeping"):
        run_in_child(lambda: time.sleep(30), what="sleeping", budget=Budget.seconds(0.3))
    assert time.monotonic() - started < 5
    with pytest.raises(OutOfTime, match="before sleeping"):
        run_in_child(lambda: time.sleep(30), what="sleeping", budget=Budget(started))
