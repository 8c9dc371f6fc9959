"""The cache of component counts: the same answers as counting afresh, counted once."""

from __future__ import annotations

from hypothesis import given, settings
from strategies import positions
from test_analysis_cells import _answers

from exactmines import CountCache, analyze
from exactmines.analysis.backends import get_backend
from exactmines.analysis.backends.dp import DPBackend
from exactmines.analysis.frontier import Component, Constraint
from exactmines.errors import TooLarge
from exactmines.generate.families import dense_games


@settings(max_examples=100)
@given(positions(max_side=6, max_covered=16, allow_lies=True))
def test_answers_with_a_cache_are_the_answers_without(position):
    cache = CountCache()
    for backend in ("auto", "dp", "brute"):
        fresh = _answers(analyze(position, backend=backend))
        assert _answers(analyze(position, backend=backend, cache=cache)) == fresh
    misses = cache.misses
    assert _answers(analyze(position, cache=cache)) == fresh
    assert cache.misses == misses  # everything counted before: nothing counted again


def test_a_game_counts_each_component_once():
    cache = CountCache()
    steps = list(dense_games(2, 0))
    for step in steps:
        assert _answers(analyze(step.position, cache=cache)) == \
            _answers(analyze(step.position))
    # Consecutive positions of a game share some of their components (here a third).
    assert cache.hits > cache.misses // 3 > 0
    assert len(cache) == cache.misses


def test_a_count_that_gives_up_is_not_kept():
    component = Component((1, 1, 1, 1), (Constraint((0, 1), 1), Constraint((1, 2), 1),
                                         Constraint((2, 3), 1)))
    cache = CountCache()
    try:
        cache.count(DPBackend(max_states=1, max_kept=1), component)
    except TooLarge:
        pass
    else:
        raise AssertionError("a table of one state cannot hold this component")
    assert len(cache) == 0 and cache.misses == 0
    counts = cache.count(get_backend("dp"), component)
    assert counts.total == 2 and cache.misses == 1  # 1010 and 0101
    assert cache.count(get_backend("brute"), component) is counts and cache.hits == 1


def test_the_cache_starts_afresh_past_its_limit():
    cache = CountCache(limit=2)
    engine = get_backend("dp")
    made = [Component((k,), (Constraint((0,), 1),)) for k in (1, 2, 3)]
    for component in made:
        cache.count(engine, component)
    assert len(cache) == 1 and cache.misses == 3
    assert cache.count(engine, made[2]).total == 3 and cache.hits == 1
