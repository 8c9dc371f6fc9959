"""The time budget: made once, shared between stages, never later than its parent."""

from __future__ import annotations

import math
import time

import pytest

from exactmines.budget import LIMIT_RULE, UNLIMITED, Budget
from exactmines.errors import OutOfTime, ParameterError


def test_no_limit_never_runs_out():
    for budget in (UNLIMITED, Budget.seconds(None), Budget.seconds(math.inf)):
        assert budget == UNLIMITED and not budget.limited
        assert budget.remaining() == math.inf and not budget.expired()
        budget.check()
        assert budget.share(0.5) == UNLIMITED


@pytest.mark.parametrize("limit", [0, 0.0, -1.0, math.nan, -math.inf])
def test_a_limit_must_be_more_than_zero(limit):
    with pytest.raises(ParameterError) as caught:
        Budget.seconds(limit)
    assert caught.value.parameter == "time_limit"
    assert str(caught.value).endswith(LIMIT_RULE)
    assert caught.value.shown("--time-limit").startswith("--time-limit ")


def test_a_limit_runs_out():
    budget = Budget.seconds(60)
    assert budget.limited and 59 < budget.remaining() <= 60 and not budget.expired()
    budget.check()
    spent = Budget(time.monotonic() - 1)
    assert spent.expired() and spent.remaining() == 0
    with pytest.raises(OutOfTime, match="^time limit reached while proving things$"):
        spent.check("proving things")


def test_a_share_ends_before_its_parent():
    parent = Budget.seconds(10)
    half = parent.share(0.5)
    assert half.deadline is not None and parent.deadline is not None
    assert half.deadline < parent.deadline and 4 < half.remaining() <= 5
    assert parent.share(1).deadline == pytest.approx(parent.deadline, abs=1e-3)
    assert parent.share(1).deadline <= parent.deadline
    assert Budget(time.monotonic() - 1).share(0.5).expired()
    with pytest.raises(ValueError):
        parent.share(1.5)


def test_at_most_takes_the_earlier_end():
    parent = Budget.seconds(10)
    assert 0.5 < parent.at_most(1).remaining() <= 1
    assert parent.at_most(100).deadline == parent.deadline
    assert 0.5 < UNLIMITED.at_most(1).remaining() <= 1
