"""The strategy explained to people (``Player.explain`` and the read-only functions behind
it): the page shows these, so they must be the strategy's own choices, and exact.

Each is checked against what the strategy plays (seeded games) or against brute force over
explicit layouts (the naive helpers of ``test_strategy``)."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_strategy import (
    game_positions,
    guesses,
    layouts_of,
    value,
    view_of,
)

import exactmines.play.strategy as strategy_module
from exactmines.play.lookahead import Cache
from exactmines.play.strategy import (
    STRATEGIES,
    Player,
    chance_all_safe,
    choose_guess,
    dead_cells,
    estimate,
    fifty_fifties,
    forced_fifty_fifties,
    ranked_candidates,
    strategy_named,
    value_chances,
)
from exactmines.position import Position, neighbour_masks


def all_scores(view, base, strategy):
    """Every candidate of the strategy scored in full, highest first (no pruning)."""
    candidates, risk = strategy_module._candidates(view, base, strategy, Cache())
    out = []
    for safety, index in candidates:
        gain = (strategy_module._risk_gain(risk, base, safety, index, strategy)
                if risk else Fraction(1))
        chances = value_chances(view, base, index, Cache())
        out.append(strategy_module._score(base, safety, index, chances, strategy, gain))
    return sorted(out, reverse=True)


@pytest.mark.parametrize("without", [(), ("risk",), ("dead", "openings")])
def test_ranked_candidates_are_the_strategy_s_best_scores_in_its_order(without):
    strategy = strategy_named("best", ("endgame", *without))
    compared = 0
    for view, base in guesses(5, 8, strategy=strategy):
        full = all_scores(view, base, strategy)
        ranked = ranked_candidates(view, base, strategy, Cache(), keep=5)
        considered = [c for c in ranked if c.considered]
        # The top five of a full scoring, in order: pruning against the fifth best loses
        # none of them.
        assert [c.score for c in considered] == full[:5]
        for c in ranked:
            assert c.probability == base.probability(c.cell)
            chances = value_chances(view, base, c.cell, Cache())
            assert c.progress == strategy_module.progress_chance(base, chances)
            assert c.secondary == strategy_module.secondary_safety(base, chances)
        # Fewer than five candidates: the list goes on with the safest others.
        if len(considered) < 5 < len(full) + 5:
            others = [c for c in ranked if not c.considered]
            assert [c.probability for c in others] == sorted(c.probability for c in others)
        # The strategy's scored choice is the best, or a cell that dominates it.
        guess = choose_guess(view, base, strategy, Cache())
        if guess.kind in ("frontier", "off_frontier"):
            best = ranked[0].cell
            assert guess.cell in (best, strategy_module.dominating_cell(
                base, best, value_chances(view, base, best, Cache())))
        compared += 1
    assert compared > 10


def test_explain_names_the_move_next_clicks_plays_and_changes_nothing():
    """Asked before every move of 40 games, ``explain`` names the move ``next_clicks`` then
    plays (the guess first in its list), and the games are those played without asking."""
    rng = random.Random(3)
    masks = neighbour_masks(16, 16)
    kinds = set()
    for _ in range(40):
        layout = sum(1 << i for i in rng.sample(range(1, 256), 40))
        played = []
        for ask in (False, True):
            player = Player(16, 16, 40, STRATEGIES["best"])
            moves = []
            todo = [0]
            while todo and not any((layout >> i) & 1 for i in todo):
                player.show([(i, (masks[i] & layout).bit_count()) for i in todo])
                if player.view.revealed | layout == player.view.everything:
                    break
                explained = player.explain() if ask else None
                guesses = len(player.guesses)
                todo, guess = player.next_clicks()
                moves.append((tuple(todo), guess))
                if explained is not None:
                    if guess:
                        assert explained.guess == player.guesses[-1]
                        assert explained.cells == todo
                        assert explained.candidates[0].cell == todo[0]
                        # Five, or every cell that could be guessed (one per class off
                        # the frontier).
                        base = explained.base
                        open_cells = (base.unknown & ~base.outside & ~base.mines).bit_count()
                        if base.outside and not base.outside & base.mines:
                            open_cells += len(strategy_module._outside_classes(
                                player.view, base))
                        assert len(explained.candidates) == min(5, open_cells)
                        assert (explained.endgame is not None) == (
                            explained.guess.kind == "endgame")
                        kinds.add(explained.guess.kind)
                    else:
                        assert explained.guess is None and not explained.candidates
                        assert set(todo) <= set(explained.cells)
                    assert len(player.guesses) == guesses + guess
            played.append(moves)
        assert played[0] == played[1]
    assert {"frontier", "off_frontier", "endgame"} <= kinds


@settings(max_examples=60)
@given(game_positions(max_unknown=10))
def test_dead_cells_can_show_one_value_only(position):
    view = view_of(position)  # game_positions leave unknown cells and layouts
    layouts = layouts_of(view)
    base = estimate(view, Cache())
    dead = dead_cells(view, base, Cache())
    for i in range(view.width * view.height):
        if not (view.unknown >> i) & 1:
            assert not (dead >> i) & 1
            continue
        safe_in = [x for x in layouts if not (x >> i) & 1]
        if len(safe_in) in (0, len(layouts)):  # certain: never marked
            assert not (dead >> i) & 1
            continue
        values = {value(view, x, i) for x in safe_in}
        assert bool((dead >> i) & 1) == (len(values) == 1), (i, values)


def swapped(layout: int, cells: tuple[int, ...]) -> int | None:
    """The layout with a 50/50's orientation turned over: a pair's mine moved to the other
    cell, a 2x2 block's diagonal to the other diagonal (None if it holds neither)."""
    inside = sum(1 << i for i in cells)
    here = layout & inside
    if len(cells) == 2:
        other = inside & ~here
    else:
        a, b, c, d = cells  # top left, top right, bottom left, bottom right
        first, second = 1 << a | 1 << d, 1 << b | 1 << c
        other = second if here == first else first if here == second else None
    if other is None or here.bit_count() != len(cells) // 2:
        return None
    return layout & ~inside | other


def assert_unresolvable(view, layouts, cells):
    """In every layout the 50/50 holds one orientation, the other orientation is a layout
    too, and no cell outside it shows a different value between the two."""
    known = set(layouts)
    for x in layouts:
        y = swapped(x, cells)
        assert y is not None and y in known
        for i in range(view.width * view.height):
            if i not in cells and (view.unknown >> i) & 1 and not (x >> i) & 1:
                assert value(view, x, i) == value(view, y, i)


@pytest.mark.parametrize("rows, mines, expected", [
    (("11", "HH"), 1, [(2, 3)]),                        # a pair under two 1s
    (("13F", "HHF"), 3, [(3, 4)]),                      # a pair walled by flags
    (("F22F", "2HH2", "2HH2", "F22F"), 6, [(5, 6, 9, 10)]),  # a 2x2 block, mines at corners
])
def test_fifty_fifties_found_are_unresolvable(rows, mines, expected):
    position = Position(len(rows[0]), len(rows), mines, rows)
    view = view_of(position)
    base = estimate(view, Cache())
    found = fifty_fifties(view, base, Cache())
    assert found == expected
    for cells in found:
        assert all(base.probability(i) == Fraction(1, 2) for i in cells)
        assert_unresolvable(view, layouts_of(view), cells)


@settings(max_examples=80)
@given(game_positions(max_unknown=10))
def test_every_fifty_fifty_found_is_unresolvable(position):
    view = view_of(position)  # game_positions leave unknown cells and layouts
    base = estimate(view, Cache())
    found = fifty_fifties(view, base, Cache())
    assert set(forced_fifty_fifties(view, base)) <= set(found)
    layouts = layouts_of(view)
    for cells in found:
        assert_unresolvable(view, layouts, cells)


@settings(max_examples=60)
@given(game_positions(max_unknown=10), st.data())
def test_chance_all_safe_is_the_share_of_layouts(position, data):
    view = view_of(position)  # game_positions leave unknown cells and layouts
    base = estimate(view, Cache())
    unknown = [i for i in range(view.width * view.height) if (view.unknown >> i) & 1]
    cells = data.draw(st.sets(st.sampled_from(unknown), min_size=1, max_size=4))
    mask = sum(1 << i for i in cells)
    layouts = layouts_of(view)
    expected = Fraction(sum(1 for x in layouts if not x & mask), len(layouts))
    assert chance_all_safe(base, Cache(), mask) == expected
