"""count_components: the one place where components are counted (analysis, player, joint)."""

from __future__ import annotations

import pytest

from exactmines.analysis.backends import get_backend
from exactmines.analysis.cache import CountCache
from exactmines.analysis.counting import count_components
from exactmines.analysis.frontier import Component, Constraint
from exactmines.budget import UNLIMITED
from exactmines.errors import OutOfTime


def _chain(boxes: int) -> Component:
    """``boxes`` one-cell boxes, each neighbouring pair holding exactly one mine."""
    return Component((1,) * boxes, tuple(Constraint((b, b + 1), 1) for b in range(boxes - 1)))


class _Timing:
    """The DP engine, running out of time on components of more than ``most`` cells, and
    noting the order it was asked in."""

    name = "timing"

    def __init__(self, most: int) -> None:
        self.most, self.asked, self.engine = most, [], get_backend("dp")

    def count(self, component, *, budget=UNLIMITED):
        self.asked.append(component.cells)
        if component.cells > self.most:
            raise OutOfTime("time limit reached while counting layouts")
        return self.engine.count(component, budget=budget)


def test_every_component_that_can_be_counted_is_smallest_first_in_the_given_order():
    components = [_chain(6), _chain(2), _chain(9), _chain(3)]
    engine = _Timing(most=6)
    found = count_components(components, engine, UNLIMITED)
    assert engine.asked == [2, 3, 6, 9]
    assert isinstance(found[2], OutOfTime)
    dp = get_backend("dp")
    for i in (0, 1, 3):
        assert found[i] == dp.count(components[i])
    assert found[1].layouts[:2] == (0, 2) and found[1].total == 2  # one mine, either cell


def test_without_every_the_first_failure_is_raised_and_nothing_after_it_asked():
    engine = _Timing(most=4)
    with pytest.raises(OutOfTime):
        count_components([_chain(2), _chain(5), _chain(1)], engine, UNLIMITED, every=False)
    assert engine.asked == [2, 5]


def test_a_cache_answers_a_component_met_before():
    cache, engine = CountCache(), _Timing(most=10)
    first = count_components([_chain(4), _chain(3)], engine, UNLIMITED, cache)
    again = count_components([_chain(3), _chain(4)], engine, UNLIMITED, cache, every=False)
    assert again == first[::-1] and engine.asked == [3, 4]
    assert (cache.hits, cache.misses) == (2, 2)
