"""The player's grouping of its rules on large boards (:func:`exactmines.play.lookahead.
grouped`, a union-find) gives what merging masks pairwise gives
(:func:`exactmines.analysis.frontier.group_rules`): the same components, in the same order,
so that the player's choices do not depend on the board's size."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from exactmines.analysis.frontier import group_rules
from exactmines.play.lookahead import _PAIRWISE_BITS, Cache, counted, grouped

#: A rule: a few cells near some place of a long board, and its mines.
RULES = st.lists(st.tuples(st.integers(0, 3 * _PAIRWISE_BITS),
                           st.lists(st.integers(0, 40), min_size=1, max_size=4),
                           st.integers(0, 3)), max_size=14)


def _rules(drawn):
    return [(sum(1 << (at + d) for d in offsets), need) for at, offsets, need in drawn]


@settings(max_examples=300, deadline=None)
@given(RULES, st.data())
def test_grouped_is_group_rules(drawn, data):
    rules = _rules(drawn)
    rules += data.draw(st.lists(st.sampled_from(rules), max_size=2)) if rules else []
    assert grouped(rules) == group_rules(rules)


def test_a_long_board_is_counted_as_a_short_one():
    # The same rules, once on a board past the threshold (grouped) and once on one under it
    # (pairwise): the same components and counts.
    rules = [(0b0111, 1), (0b1100, 1), (0b1 << 20 | 0b1 << 21, 1), (0b11 << 40, 2)]
    short = counted(rules, (1 << 60) - 1, Cache())
    long = counted(rules, (1 << (2 * _PAIRWISE_BITS)) - 1, Cache())
    assert long.groups == short.groups
    assert [p.counts for p in long.parts] == [p.counts for p in short.parts]
