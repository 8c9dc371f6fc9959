"""The player's exact analysis and guessing parts, against brute force over explicit layouts.

Every figure the strategy computes is checked against a naive computation that lists the
layouts of the remaining mines one by one (no frontier, no boxes, no combination): the
probabilities, the value chances of a hypothetical reveal, the secondary safety, the forced
50/50s, and the exact endgame search against a plain game-tree recursion.
"""

from __future__ import annotations

import pickle
import random
import time
from fractions import Fraction
from functools import cache
from itertools import combinations
from math import comb, factorial
from unittest.mock import patch

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from strategies import KINDS, positions

import exactmines.analysis.combine as combine_module
import exactmines.play.endgame as endgame_module
import exactmines.play.lookahead as lookahead_module
import exactmines.play.strategy as strategy_module
from exactmines.analysis.analyze import analyze
from exactmines.analysis.backends import get_backend
from exactmines.budget import UNLIMITED, Budget
from exactmines.deduction import Grid, local_deductions, new_grid
from exactmines.errors import BudgetExceeded, InputError, OutOfTime, TooLarge
from exactmines.game import Game, random_board
from exactmines.play.endgame import Endgame
from exactmines.play.lookahead import Cache, counted
from exactmines.play.strategy import (
    GUESS_KINDS,
    PARTS,
    STRATEGIES,
    Guess,
    Player,
    Strategy,
    choose_guess,
    dominating_cell,
    endgame_guess,
    estimate,
    forced_fifty_fifty,
    list_layouts,
    progress_chance,
    secondary_safety,
    strategy_named,
    value_chances,
)
from exactmines.position import Board, Position, indices_of, neighbour_masks

# -- naive helpers (share nothing with the code under test but neighbour masks) ----------


def view_of(position: Position) -> Grid:
    """The player's view of a position with a known count: digits revealed, flags mines."""
    view = Grid(position.width, position.height, position.mines)
    shown, flags = [], 0
    for r, row in enumerate(position.rows):
        for c, ch in enumerate(row):
            i = r * position.width + c
            if ch.isdigit():
                shown.append((i, int(ch)))
            elif ch == "F":
                flags |= 1 << i
    view.show(shown)
    view.mark_mines(flags)
    return view


def layouts_of(view: Grid) -> list[int]:
    """Every placement of the remaining mines over the unknown cells that fits every
    number, as bitmasks, by trying all of them."""
    masks = view.masks
    unknown = [i for i in range(view.width * view.height) if (view.unknown >> i) & 1]
    clues = [i for i in range(view.width * view.height) if (view.revealed >> i) & 1]
    out = []
    for pick in combinations(unknown, view.mines_left):
        layout = sum(1 << i for i in pick)
        if all((masks[i] & (layout | view.mines)).bit_count() == view.numbers[i]
               for i in clues):
            out.append(layout)
    return out


def value(view: Grid, layout: int, cell: int) -> int:
    return (view.masks[cell] & (layout | view.mines)).bit_count()


def _near(cell: tuple[int, int], width: int, height: int) -> set[tuple[int, int]]:
    r, c = cell
    return {(r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)
            if (dr or dc) and 0 <= r + dr < height and 0 <= c + dc < width}


def _shown(board: Board, revealed: set[tuple[int, int]],
           flagged: set[tuple[int, int]]) -> Position:
    numbers = board.numbers()
    return Position(board.width, board.height, board.mines, tuple(
        "".join(str(numbers[r * board.width + c]) if (r, c) in revealed else
                "F" if (r, c) in flagged else "H" for c in range(board.width))
        for r in range(board.height)))


@st.composite
def game_positions(draw: st.DrawFn, max_side: int = 5, max_unknown: int = 12,
                   guess: bool = False) -> Position:
    """Positions a player meets, with something left to play: numbers from a hidden layout,
    some mines flagged, the count known, at least one covered cell safe (so there are
    unknown cells and layouts), and at most ``max_unknown`` unknown cells, for brute force.

    With ``guess``, only positions where the player must guess: no unknown cell is safe in
    every layout. Built rather than filtered (a drawn position has a certainly safe cell
    more often than not): the revealed cells next to a certainly safe cell are covered
    again (any revealed cell, then a flag, when none is) until no cell is certainly safe,
    which the count alone ensures once every cell is covered; a position left with more
    than ``max_unknown`` unknown cells is rejected (``assume``, about 4 in 10 at 4x4).
    """
    width = draw(st.integers(2 if guess else 1, max_side))
    height = draw(st.integers(1, max(1, min(max_side, 20 // width))))
    cells = [(r, c) for r in range(height) for c in range(width)]
    kept = draw(st.sampled_from(cells))  # stays covered: a safe cell left to find
    others = [cell for cell in cells if cell != kept]
    mines = draw(st.sets(st.sampled_from(others), min_size=int(guess))) if others else set()
    board = Board(width, height, frozenset(mines))
    safe = [cell for cell in others if cell not in mines]
    revealed = draw(st.sets(st.sampled_from(safe))) if safe else set()
    flagged = draw(st.sets(st.sampled_from(sorted(mines)))) if mines else set()
    for cell in [*safe, *sorted(mines)]:  # reveal, then flag, more until few are unknown
        if len(cells) - len(revealed) - len(flagged) <= max_unknown:
            break
        (revealed if cell in safe else flagged).add(cell)
    position = _shown(board, revealed, flagged)
    while guess:
        assume(len(position.covered) <= max_unknown)  # covering only adds unknown cells
        view = view_of(position)
        layouts = layouts_of(view)
        sure = [divmod(i, width) for i in range(width * height)
                if view.unknown >> i & 1 and not any(layout >> i & 1 for layout in layouts)]
        if not sure:
            break
        near = {n for cell in sure for n in _near(cell, width, height)} & revealed
        if near or revealed:
            revealed -= near or {min(revealed)}
        else:  # no number left: every mine flagged, and one is needed to leave a doubt
            flagged.remove(min(flagged))
        position = _shown(board, revealed, flagged)
    assume(len(position.covered) <= max_unknown)
    return position


def guesses(seed: int, games: int, width: int = 12, height: int = 12, mines: int = 24,
            strategy: Strategy = STRATEGIES["best"]):
    """(view, estimate) at every guess of a few seeded games, played by the player (the
    view is the player's own: look, do not change it)."""
    rng = random.Random(seed)
    masks = neighbour_masks(width, height)
    for _ in range(games):
        layout = sum(1 << i for i in rng.sample(range(1, width * height), mines))
        player = Player(width, height, mines, strategy)
        todo = [0]
        while todo and not any((layout >> i) & 1 for i in todo):
            player.show([(i, (masks[i] & layout).bit_count()) for i in todo])
            view = player.view
            if view.revealed | layout == view.everything:
                break
            base = estimate(view, player.cache)
            if not base.safe and base.mines != base.unknown:
                yield view, base
            todo = player.next_clicks()[0]


# -- exact analysis -----------------------------------------------------------------------


@given(game_positions())
def test_estimate_matches_brute_force(position):
    view = view_of(position)
    layouts = layouts_of(view)
    found = estimate(view, Cache())
    assert found.layouts == len(layouts)
    for i in range(view.width * view.height):
        if (view.unknown >> i) & 1:
            hits = sum((layout >> i) & 1 for layout in layouts)
            assert found.probability(i) == Fraction(hits, len(layouts))
    assert found.least == min(Fraction(sum((x >> i) & 1 for x in layouts), len(layouts))
                              for i in range(view.width * view.height)
                              if (view.unknown >> i) & 1)


@given(game_positions(), st.data())
def test_value_chances_match_brute_force(position, data):
    view = view_of(position)
    layouts = layouts_of(view)
    base = estimate(view, Cache())
    unknown = [i for i in range(view.width * view.height) if (view.unknown >> i) & 1]
    cell = data.draw(st.sampled_from(unknown))
    expected: dict[int, list[int]] = {}
    for layout in layouts:
        if not (layout >> cell) & 1:
            expected.setdefault(value(view, layout, cell), []).append(layout)
    chances = dict(value_chances(view, base, cell, Cache()))
    assert sorted(chances) == sorted(expected)
    others = [i for i in unknown if i != cell]
    for v, group in expected.items():
        assert chances[v].layouts == len(group)
        # Least mine probability after the reveal, over the other unknown cells.
        least = min((Fraction(sum((x >> i) & 1 for x in group), len(group)) for i in others),
                    default=Fraction(0))
        assert chances[v].least == least
        safe = sum(1 << i for i in others if not any((x >> i) & 1 for x in group))
        assert chances[v].safe == safe


@settings(max_examples=40)
@given(game_positions(), st.data())
def test_value_chances_of_components_the_dp_counted(position, data):
    """Components too big for the box search have no listed solutions: their reveals are
    counted by a new search or the DP (here forced by a zero search budget), and agree."""
    view = view_of(position)
    unknown = [i for i in range(view.width * view.height) if (view.unknown >> i) & 1]
    cell = data.draw(st.sampled_from(unknown))
    listed = value_chances(view, estimate(view, Cache()), cell, Cache())
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(lookahead_module, "NODES", 0)
        base = estimate(view, Cache())
        assert all(part.solutions is None for part in base.parts)
        assert value_chances(view, base, cell, Cache()) == listed


@settings(max_examples=60)
@given(game_positions(), st.data())
def test_scaled_counts_decide_as_the_exact_ones(position, data):
    """With many cells off the frontier the counts are divided by one common factor
    (combine.Scale); forced here on small boards, every probability, value chance, share
    of layouts and guess is the exact one, and the endgame's limit reads the true count."""
    view = view_of(position)
    unknown = [i for i in range(view.width * view.height) if (view.unknown >> i) & 1]
    cells = data.draw(st.lists(st.sampled_from(unknown), min_size=1, max_size=3, unique=True))
    exact = estimate(view, Cache())
    exact_chances = [value_chances(view, exact, cell, Cache()) for cell in cells]
    exact_guess = (choose_guess(view, exact, STRATEGIES["best"], Cache())
                   if not exact.safe and exact.mines != exact.unknown else None)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(combine_module, "_EXACT_OUTSIDE", -1)
        scaled = estimate(view, Cache())
        assert scaled.scale is not None and scaled.boxes == exact.boxes
        for cell, chances in zip(cells, exact_chances, strict=True):
            found = value_chances(view, scaled, cell, Cache())
            assert [v for v, _ in found] == [v for v, _ in chances]
            for (_, after), (_, truth) in zip(found, chances, strict=True):
                assert Fraction(after.layouts, scaled.layouts) == \
                    Fraction(truth.layouts, exact.layouts)
                assert (after.least, after.safe) == (truth.least, truth.safe)
        for limit in (exact.layouts - 1, exact.layouts, 2 * exact.layouts):
            assert scaled.layouts_at_most(limit) == (exact.layouts <= limit)
        if exact_guess is not None:
            assert choose_guess(view, scaled, STRATEGIES["best"], Cache()) == exact_guess
        mine, safe = cells[0], cells[-1]
        with_mine = strategy_module._layouts_with(scaled, Cache(), 1 << mine, 0)
        assert Fraction(with_mine, scaled.layouts) == exact.probability(mine)
        if safe != mine:
            both = strategy_module._layouts_with(scaled, Cache(), 1 << mine, 1 << safe)
            assert Fraction(both, scaled.layouts) == Fraction(
                strategy_module._layouts_with(exact, Cache(), 1 << mine, 1 << safe),
                exact.layouts)


@pytest.mark.parametrize("outside, left, top", [(2000, 300, 40), (50, 10, 3), (40, 0, 5),
                                                 (33, 33, 2)])
def test_a_scale_divides_every_binomial_of_its_window_by_one_factor(outside, left, top):
    scale = combine_module.Scale.around(outside, left, top)
    if scale is None:  # a small position: exact counts
        assert outside <= combine_module._EXACT_OUTSIDE
        scale = combine_module.Scale(outside, max(outside - 32, 0),
                                     max(left - top - 32, 0), left)
    divisor = Fraction(factorial(scale.low_outside),
                       factorial(scale.high) * factorial(scale.outside - scale.low))
    for u in (scale.low_outside, (scale.low_outside + outside) // 2, outside):
        for m_left, m_top in ((left, top), (left - 1, top + 3), (max(left - 5, 0), 2)):
            row = scale.row(u, m_left, m_top)
            assert all(isinstance(x, int) for x in row)
            assert [x * divisor for x in row] == \
                [comb(u, m_left - s) if 0 <= m_left - s <= u else 0 for s in range(m_top + 1)]
    # A binomial outside the window would not share the divisor: refused.
    below = scale.low_outside - 1
    with pytest.raises(AssertionError, match="window"):
        scale.row(below, min(left, below), 0)


def test_preconditions_of_the_reveal_counts_are_raised_errors():
    # A certain mine shows no value: asking for the position its value leaves is refused.
    view = view_of(Position(3, 1, 1, ("1HH",)))
    base = estimate(view, Cache())
    assert base.probability(1) == 1
    values = strategy_module._values(view, base, 1, Cache())
    assert values.values == []
    with pytest.raises(IndexError, match="mine in every layout"):
        values.after(0)
    # A part the DP counted lists no solutions: splitting them is refused, not guessed.
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(lookahead_module, "NODES", 0)
        part = estimate(view, Cache()).parts[0]
    assert part.solutions is None
    with pytest.raises(ValueError, match="no listed solutions"):
        lookahead_module._split_solutions(part, 2, 0)


@given(game_positions(), st.data())
def test_secondary_safety_is_the_chance_to_survive_two_clicks(position, data):
    view = view_of(position)
    layouts = layouts_of(view)
    base = estimate(view, Cache())
    unknown = [i for i in range(view.width * view.height) if (view.unknown >> i) & 1]
    cell = data.draw(st.sampled_from(unknown))
    # Brute force: for each value, the best other cell's chance to be safe given it.
    total = Fraction(0)
    groups: dict[int, list[int]] = {}
    for layout in layouts:
        if not (layout >> cell) & 1:
            groups.setdefault(value(view, layout, cell), []).append(layout)
    for group in groups.values():
        others = [i for i in unknown if i != cell]
        if all((x >> i) & 1 for x in group for i in others):
            safest = Fraction(1)  # only mines left: the game is won
        else:
            safest = max(Fraction(sum(not (x >> i) & 1 for x in group), len(group))
                         for i in others)
        total += Fraction(len(group), len(layouts)) * safest
    chances = value_chances(view, base, cell, Cache())
    assert secondary_safety(base, chances) == total
    # Progress: the chance that some other cell is safe in every layout left, or that
    # every other cell is a mine in all of them (won).
    others = [i for i in unknown if i != cell]
    ahead = sum(len(group) for group in groups.values()
                if any(not any((x >> i) & 1 for x in group) for i in others)
                or all((x >> i) & 1 for x in group for i in others))
    assert progress_chance(base, chances) == Fraction(ahead, len(layouts))


def test_secondary_safety_on_a_hand_made_position():
    # 4x1 strip, 2 mines, a 1 in the first cell: cell 1 is a mine, the other is in 2 or 3.
    position = Position(4, 1, 2, ("1HHH",))
    view = view_of(position)
    base = estimate(view, Cache())
    assert base.probability(1) == 1 and base.layouts == 2
    # Cell 2 is safe in one layout of two, then shows 2 and only mines are left: a win, so
    # its secondary safety is 1/2 * 1.
    assert secondary_safety(base, value_chances(view, base, 2, Cache())) == Fraction(1, 2)
    # Cell 3 is safe in one layout and then always shows 1: dead (a single value).
    chances = value_chances(view, base, 3, Cache())
    assert [v for v, _ in chances] == [1] and chances[0][1].layouts == 1
    # 3x1, one mine, nothing revealed: an end cell is safe 2/3 and then tells everything
    # (0: the mine is at the far end; 1: it is in the middle), the middle is safe 2/3 and
    # then shows 1, leaving a 50/50.
    view = Grid(3, 1, 1)
    base = estimate(view, Cache())
    assert secondary_safety(base, value_chances(view, base, 0, Cache())) == Fraction(2, 3)
    assert secondary_safety(base, value_chances(view, base, 1, Cache())) == Fraction(1, 3)


# -- certain cells, guesses ---------------------------------------------------------------


@settings(max_examples=40)
@given(game_positions(max_unknown=10))
def test_player_takes_every_certain_safe_cell_before_guessing(position):
    view = view_of(position)
    layouts = layouts_of(view)
    unknown = [i for i in range(view.width * view.height) if (view.unknown >> i) & 1]
    safe = {i for i in unknown if not any((x >> i) & 1 for x in layouts)}
    mines = {i for i in unknown if all((x >> i) & 1 for x in layouts)}
    player = Player(view.width, view.height, view.total, STRATEGIES["best"])
    player.view = view
    clicks, guess = player.next_clicks()
    if safe:
        assert not guess and set(clicks) <= safe and clicks
    elif len(layouts) > 0 and set(unknown) != mines:
        assert guess and len(clicks) == 1
        assert clicks[0] not in mines  # never a certain mine
        assert clicks[0] in unknown


@given(game_positions(max_unknown=10, guess=True), st.sampled_from(["best", "safest"]),
       st.lists(st.sampled_from(PARTS), max_size=3))
def test_no_strategy_clicks_a_certain_mine(position, name, without):
    view = view_of(position)
    base = estimate(view, Cache())
    assert not base.safe and base.mines != base.unknown  # a guess to make
    strategy = strategy_named(name, without)
    guess = choose_guess(view, base, strategy, Cache())
    assert (base.unknown >> guess.cell) & 1
    assert guess.probability == base.probability(guess.cell) != 1
    # The kind says how it was chosen; only the endgame search states a win probability.
    assert guess.kind in GUESS_KINDS
    assert (guess.win is not None) == (guess.kind == "endgame")
    if guess.kind == "endgame":
        assert strategy.endgame and 0 < guess.win <= 1
    elif guess.kind == "fifty":
        assert strategy.fifty and guess.probability == Fraction(1, 2)
    else:
        assert (guess.kind == "off_frontier") == bool(base.outside >> guess.cell & 1)


@pytest.mark.parametrize("without", [(), ("dead",), ("openings", "fifty"), ("risk",)])
def test_pruned_candidates_could_not_have_won(without):
    """Candidates dropped by a bound, before or while their values are combined, are exactly
    those that could not beat the best: at every guess of a few games, scoring every
    candidate in full picks the same cell."""
    strategy = strategy_named("best", ("endgame", *without))
    compared = 0
    for view, base in guesses(11, 12, strategy=strategy):
        pruned = choose_guess(view, base, strategy, Cache()).cell
        calls = {"let through": 0, "scored": 0}

        def let_through(*_, calls=calls):
            calls["let through"] += 1
            return True

        def score_in_full(view, base, index, cache, *_, calls=calls):
            calls["scored"] += 1
            return value_chances(view, base, index, cache)

        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(strategy_module, "_may_beat", let_through)
            patch.setattr(strategy_module, "_chances_to_beat", score_in_full)
            assert choose_guess(view, estimate(view, Cache()), strategy,
                                Cache()).cell == pruned
        # The reference scored every candidate: the first, and each one let through.
        assert not calls["scored"] or calls["scored"] == calls["let through"] + 1
        compared += 1
    assert compared > 10


def test_scores_compare_part_by_part():
    # Living before dead whatever the value; then the value, the chance of a 0, the safety,
    # and among exact ties the first cell in row-major order.
    half, third = Fraction(1, 2), Fraction(1, 3)
    dead = strategy_module.Score(False, Fraction(1), Fraction(1), Fraction(1), -0)
    living = strategy_module.Score(True, third, Fraction(0), third, -9)
    assert living > dead
    assert living < strategy_module.Score(True, half, Fraction(0), third, -9)
    assert living < strategy_module.Score(True, third, half, third, -9)
    assert living < strategy_module.Score(True, third, Fraction(0), half, -9)
    assert living < strategy_module.Score(True, third, Fraction(0), third, -4)
    assert living.cell == 9


def test_inconsistent_counts_are_refused_not_played_on():
    # The risk part divides by a cell's safe layouts, a whole number whenever the counts
    # are right (the cells of a box are alike): a fraction is a bug, raised also under -O.
    view = view_of(Position(3, 1, 1, ("H1H",)))
    base = estimate(view, Cache())
    assert base.layouts == 2
    risk = strategy_module._risk(view, base, Cache())
    assert strategy_module._risk_gain(risk, base, Fraction(1, 2), 0, Strategy()) >= 1
    with pytest.raises(AssertionError, match="not a whole number"):
        strategy_module._risk_gain(risk, base, Fraction(1, 3), 0, Strategy())
    # A view no layout fits (a 2 with one mine on the board) is a bug of the game or the
    # deductions: the player stops instead of guessing on it.
    player = Player(3, 1, 1, STRATEGIES["best"])
    player.show([(1, 2)])
    with pytest.raises(AssertionError, match="inconsistent"):
        player.next_clicks()


def test_safest_strategy_takes_the_safest_cell_first_in_row_major_order():
    # 2x1 corner: '1' over two cells plus a far region of outside cells.
    position = Position(5, 2, 2, ("1HHHH", "HHHHH"))
    view = view_of(position)
    base = estimate(view, Cache())
    cell = choose_guess(view, base, STRATEGIES["safest"], Cache()).cell
    p = base.probability(cell)
    assert p == base.least
    assert cell == min(i for i in range(10) if (base.unknown >> i) & 1
                       and base.probability(i) == base.least)


def plain_local_rules(width: int, height: int, numbers: dict[int, int], flags: set[int]
                      ) -> tuple[list[int], list[int], bool]:
    """The two local rules read plainly, on every clue (sets of cells): each clue alone;
    if that finds nothing, each two clues that share an unknown cell. ``(safe, mines, by
    the pair rule)``."""
    def around(i: int) -> set[int]:
        r, c = divmod(i, width)
        return {rr * width + cc for rr in range(r - 1, r + 2) for cc in range(c - 1, c + 2)
                if 0 <= rr < height and 0 <= cc < width and (rr, cc) != (r, c)}

    facts = {}
    for i, n in numbers.items():
        free = {j for j in around(i) if j not in numbers and j not in flags}
        if free:
            facts[i] = (free, n - len(around(i) & flags))
    safe, mines = set(), set()
    for free, need in facts.values():
        if need == 0:
            safe |= free
        elif need == len(free):
            mines |= free
    by_pairs = not (safe or mines)
    if by_pairs:
        for i, j in combinations(sorted(facts), 2):
            (free_i, need_i), (free_j, need_j) = facts[i], facts[j]
            shared = len(free_i & free_j)
            if shared and need_j - need_i == len(free_j) - shared:
                mines |= free_j - free_i
                safe |= free_i - free_j
            elif shared and need_i - need_j == len(free_i) - shared:
                mines |= free_i - free_j
                safe |= free_j - free_i
    return sorted(safe), sorted(mines), by_pairs


@pytest.mark.parametrize("seed", range(4))
def test_local_rules_are_the_two_rules_read_plainly(seed):
    # Each call looks only at the clues near a change, yet, with every finding applied
    # (safe cells shown, mines flagged), finds what the plain reading of every clue finds,
    # down to where both are stuck. Also on boards of one row or column (the padding).
    rng = random.Random(seed)
    pairs_found = 0
    for _ in range(300):
        w, h = rng.choice([(1, rng.randint(1, 9)), (rng.randint(1, 9), 1),
                           (rng.randint(2, 9), rng.randint(2, 9))])
        mines = set(rng.sample(range(w * h), rng.randint(0, w * h // 3)))
        masks = neighbour_masks(w, h)
        layout = sum(1 << i for i in mines)
        safe_cells = [i for i in range(w * h) if i not in mines]
        if not safe_cells:
            continue
        numbers = {i: (masks[i] & layout).bit_count()
                   for i in rng.sample(safe_cells, rng.randint(1, len(safe_cells) // 3 + 1))}
        flags = set(rng.sample(sorted(mines), rng.randint(0, len(mines))))
        view = Grid(w, h, len(mines))
        view.show(list(numbers.items()))
        view.mark_mines(flags)
        while True:
            safe, found = local_deductions(view)
            *expected, by_pairs = plain_local_rules(w, h, numbers, flags)
            assert [safe, found] == expected
            assert not set(safe) & mines and set(found) <= mines
            if not (safe or found):
                break
            pairs_found += by_pairs
            shown = [(i, (masks[i] & layout).bit_count()) for i in safe]
            numbers.update(shown)
            flags.update(found)
            view.show(shown)
            view.mark_mines(found)
        # Nothing changed since the last call: no clue is looked at again.
        assert local_deductions(view) == ([], [])
    assert pairs_found > 10  # the pair rule was reached, not only the single one


def test_local_rules_and_the_view_on_a_strip():
    # 1x5 with two mines: the 1 at 0 flags 1; the 2 at 2 then flags 3. Cell 4 touches no
    # number: only the count (the exact analysis) says it is safe.
    view = Grid(5, 1, 2)
    view.show([(0, 1)])
    assert local_deductions(view) == ([], [1])
    view.mark_mines([1])
    assert local_deductions(view) == ([], [])  # the 1 at 0 is settled
    view.show([(2, 2)])
    assert local_deductions(view) == ([], [3])
    view.mark_mines(0b1000)  # a bitmask does too
    assert local_deductions(view) == ([], [])
    assert view.mines_left == 0 and view.mines == 0b1010 and view.revealed == 0b101
    assert view.unknown == 0b10000 and view.rules() == []
    assert view.is_revealed(2) and not view.is_revealed(4)
    # Showing a cell again changes nothing; a flag shown, or a number flagged, is refused.
    view.show([(2, 2)])
    assert local_deductions(view) == ([], []) and view.numbers[2] == 2
    with pytest.raises(ValueError, match="cell 1 is flagged"):
        view.show([(1, 0)])
    with pytest.raises(ValueError, match="cell 0 is revealed"):
        view.mark_mines([0])


def test_local_rules_are_sound():
    rng = random.Random(4)
    for _ in range(200):
        w, h = rng.randint(3, 6), rng.randint(3, 6)
        mines = set(rng.sample(range(w * h), rng.randint(1, w * h // 3)))
        masks = neighbour_masks(w, h)
        layout = sum(1 << i for i in mines)
        view = Grid(w, h, len(mines))
        safe_cells = [i for i in range(w * h) if i not in mines]
        shown = rng.sample(safe_cells, rng.randint(1, len(safe_cells)))
        view.show([(i, (masks[i] & layout).bit_count()) for i in shown])
        safe, found = local_deductions(view)
        assert not set(safe) & mines and set(found) <= mines


# -- forced 50/50 ---------------------------------------------------------------------------


def test_forced_fifty_fifty_is_found_where_nothing_can_tell_the_cells_apart():
    view = view_of(Position(2, 2, 1, ("11", "HH")))
    base = estimate(view, Cache())
    assert forced_fifty_fifty(view, base) == (2, 3)
    assert base.probability(2) == base.probability(3) == Fraction(1, 2)


def test_no_forced_fifty_fifty_when_a_covered_cell_could_tell():
    # The 1 at (0,0) puts one mine in {(1,0), (1,1)}, but (0,2) and (1,2) are covered (and
    # safe): the number of (0,2) would tell the two apart.
    view = view_of(Position(3, 2, 1, ("11H", "HHH")))
    base = estimate(view, Cache())
    assert base.probability(3) == base.probability(4) == Fraction(1, 2)
    assert forced_fifty_fifty(view, base) is None


def test_fifty_fifty_beside_proved_mines_is_forced():
    # One mine in {(1,0), (1,1)} by the 1; the cells next to one of them only, (0,2) and
    # (1,2), are flagged mines: nothing can ever tell the two apart.
    view = view_of(Position(3, 2, 3, ("13F", "HHF")))
    base = estimate(view, Cache())
    assert forced_fifty_fifty(view, base) == (3, 4)
    guess = choose_guess(view, base, STRATEGIES["best"], Cache())
    assert guess.cell in (3, 4) and guess.kind in ("endgame", "fifty")
    assert choose_guess(view, base, strategy_named("best", ["endgame"]), Cache()) == \
        Guess(3, "fifty", Fraction(1, 2))


# -- endgame search ---------------------------------------------------------------------------


def naive_optimum(view: Grid, layouts: list[int], shown: tuple[int, ...] = ()) -> Fraction:
    """Best probability of winning by a plain game-tree recursion: a click shows one cell's
    number (no flood, no free reveals), and a single layout left is a win (every safe cell
    is then known). ``shown``: cells already clicked."""
    cells = [i for i in range(view.width * view.height) if (view.unknown >> i) & 1]

    @cache
    def wins(state: frozenset[int], shown: frozenset[int]) -> int:
        if len(state) == 1:
            return 1
        best = 0
        for cell in cells:
            if cell in shown:
                continue
            parts: dict[int, set[int]] = {}
            for j in state:
                if not (layouts[j] >> cell) & 1:
                    parts.setdefault(value(view, layouts[j], cell), set()).add(j)
            best = max(best, sum(wins(frozenset(p), shown | {cell}) for p in parts.values()))
        return best

    return Fraction(wins(frozenset(range(len(layouts))), frozenset(shown)), len(layouts))


def optimum_after(view: Grid, layouts: list[int], cell: int) -> Fraction:
    """Best probability of winning when ``cell`` is clicked first (by the naive recursion
    after the click, one layout list per value it may show)."""
    parts: dict[int, list[int]] = {}
    for layout in layouts:
        if not (layout >> cell) & 1:
            parts.setdefault(value(view, layout, cell), []).append(layout)
    return sum((naive_optimum(view, part, shown=(cell,)) * len(part) for part in
                parts.values()), Fraction(0)) / len(layouts)


@settings(max_examples=40)
@given(game_positions(max_side=4, max_unknown=7, guess=True))
def test_endgame_search_finds_the_optimal_win_probability(position):
    view = view_of(position)
    base = estimate(view, Cache())
    assert not base.safe and base.mines != base.unknown  # a guess to make
    layouts = list_layouts(view, base, 10_000)
    assert layouts is not None and sorted(layouts) == sorted(layouts_of(view))
    cells = [i for i in range(view.width * view.height) if (view.unknown >> i) & 1]
    optimum = naive_optimum(view, layouts)
    # Small positions never reach the size from which the search splits into independent
    # regions: search them with splitting everywhere too.
    for split_from in (endgame_module.SPLIT_FROM, 2):
        with patch.object(endgame_module, "SPLIT_FROM", split_from):
            cell, wins = Endgame(layouts, cells, view.masks, view.mines, 10**6).best_move()
        assert Fraction(wins, len(layouts)) == optimum
        # The move it names achieves that optimum: it is not a certain mine, and clicking
        # it first then playing on optimally wins that many layouts.
        assert base.probability(cell) < 1
        assert optimum_after(view, layouts, cell) == optimum
    # What any first click wins, as the search counts it (how another player's click is
    # valued), is what the naive recursion finds.
    search = Endgame(layouts, cells, view.masks, view.mines, 10**6)
    for cell in cells:
        assert (Fraction(search.wins_after(cell), len(layouts))
                == optimum_after(view, layouts, cell))


def test_endgame_on_a_hand_made_position_with_a_known_answer():
    # 2x2 with a 1 over two cells and the count 1: a pure 50/50, win probability 1/2.
    view = view_of(Position(2, 2, 1, ("11", "HH")))
    base = estimate(view, Cache())
    layouts = list_layouts(view, base, 100)
    search = Endgame(layouts, [2, 3], view.masks, view.mines, 100)
    assert search.best_move()[1] * 2 == len(layouts) == 2
    # 3x1, one mine, all covered: an end cell is safe 2/3 and then tells where the mine is;
    # the middle is safe 2/3 and leaves a 50/50. The optimum is 2/3.
    view = Grid(3, 1, 1)
    base = estimate(view, Cache())
    layouts = list_layouts(view, base, 100)
    search = Endgame(layouts, [0, 1, 2], view.masks, view.mines, 100)
    cell, wins = search.best_move()
    assert Fraction(wins, 3) == Fraction(2, 3) == naive_optimum(view, layouts)


def test_endgame_splits_independent_regions_and_multiplies_their_wins():
    # 7x1: cells 0, 1 hold one mine (a closed 50/50: cell 2 is a known mine), cells 3, 4, 5
    # hold one more, cell 6 is revealed. Win probability 1/2 x 2/3 (click an end of 3-5:
    # it tells where that mine is); the safest best click is an end cell of 3-5.
    masks = neighbour_masks(7, 1)
    layouts = [1 << a | 1 << b for a in (0, 1) for b in (3, 4, 5)]
    for split_from in (endgame_module.SPLIT_FROM, 2):
        with patch.object(endgame_module, "SPLIT_FROM", split_from):
            search = Endgame(layouts, [0, 1, 3, 4, 5], masks, 1 << 2, 100)
            cell, wins = search.best_move()
        assert Fraction(wins, len(layouts)) == Fraction(1, 3)
        assert cell in (3, 5)
    # Split, each region is searched on its own short list.
    assert search.solved.keys() == {frozenset({1 << 0, 1 << 1}),
                                    frozenset({1 << 3, 1 << 4, 1 << 5})}
    # Tied by the count (two mines among 0, 1 and 3-5, any split), the regions are one game
    # until a click settles how many mines each holds.
    tied = [sum(1 << i for i in pick) for pick in combinations((0, 1, 3, 4, 5), 2)]
    found = set()
    for split_from in (10**6, 2):
        with patch.object(endgame_module, "SPLIT_FROM", split_from):
            search = Endgame(tied, [0, 1, 3, 4, 5], masks, 1 << 2, 10**4)
            found.add(search.best_move()[1])
    assert len(found) == 1


@settings(max_examples=80)
@given(st.integers(0, 15), st.sets(st.integers(0, 15), max_size=3), st.integers(0, 15),
       st.sets(st.integers(0, 15), max_size=3), st.integers(0, 3),
       st.randoms(use_true_random=False))
def test_endgame_on_two_regions_matches_the_plain_recursion(a, more_left, b, more_right,
                                                            dropped, rng):
    # 9x1, cell 4 a flagged mine between two regions of four cells: a layout list that
    # pairs every one of the left patterns with every one of the right ones is a product of
    # two games; dropping pairs ties the regions together. Each side holds a pattern and its
    # complement, and those two pairs are never dropped: every cell stays uncertain, as at
    # a guess (the player reveals certainly safe cells first).
    view = Grid(9, 1, 9)
    view.mark_mines(1 << 4)
    kept = [a | b << 5, (a ^ 15) | (b ^ 15) << 5]
    others = [x | y << 5 for x in sorted({a, a ^ 15} | more_left)
              for y in sorted({b, b ^ 15} | more_right)]
    others = [layout for layout in others if layout not in kept]
    layouts = kept + rng.sample(others, max(0, len(others) - dropped))
    rng.shuffle(layouts)
    cells = [i for i in range(9) if (view.unknown >> i) & 1]
    assert all(0 < sum(layout >> i & 1 for layout in layouts) < len(layouts) for i in cells)
    optimum = naive_optimum(view, layouts)
    for split_from in (10**6, 2):
        with patch.object(endgame_module, "SPLIT_FROM", split_from):
            cell, wins = Endgame(layouts, cells, view.masks, view.mines, 10**6).best_move()
        assert Fraction(wins, len(layouts)) == optimum
        assert optimum_after(view, layouts, cell) == optimum


def test_endgame_node_limit_is_a_count_of_states():
    view = Grid(4, 3, 3)
    base = estimate(view, Cache())
    layouts = list_layouts(view, base, 1000)
    assert len(layouts) == 220
    with pytest.raises(TooLarge) as raised:
        Endgame(layouts, list(range(12)), view.masks, view.mines, 5).best_move()
    # A limit the search was given, of the one family callers catch: too large, not late.
    assert isinstance(raised.value, BudgetExceeded) and "5 states" in str(raised.value)
    search = Endgame(layouts, list(range(12)), view.masks, view.mines, 10**6)
    search.best_move()
    assert search.nodes > 5


def test_list_layouts_gives_up_past_its_limit():
    view = Grid(5, 5, 5)
    base = estimate(view, Cache())
    assert list_layouts(view, base, 1000) is None  # C(25, 5) = 53130 layouts


# -- strategies -----------------------------------------------------------------------------


def test_strategies_and_parts():
    assert strategy_named("best") == STRATEGIES["best"]
    off = strategy_named("best", ["secondary", "endgame"])
    assert not off.secondary and not off.endgame and off.dead and off.fifty and off.openings
    assert off.name == "best-without-secondary-endgame"
    safest = STRATEGIES["safest"]
    assert not any(getattr(safest, p) for p in PARTS)
    with pytest.raises(InputError, match="unknown strategy part"):
        strategy_named("best", ["luck"])
    with pytest.raises(InputError, match="unknown strategy"):
        strategy_named("bold")
    assert Strategy().without() == Strategy()


def test_tuned_sets_parameters_exactly_and_refuses_bad_ones():
    tuned = strategy_named("best", ["risk"], ["risk_weight=3/2", "endgame_layouts= 4000"])
    assert tuned.risk_weight == Fraction(3, 2) and tuned.endgame_layouts == 4000
    assert not tuned.risk and tuned.progress == Strategy().progress
    assert tuned.name == "best-without-risk-risk_weight=3/2-endgame_layouts=4000"
    assert Strategy().tuned() == Strategy()
    for bad, message in [("speed=2", "NAME one of"), ("progress", "NAME=VALUE"),
                         ("progress=1/0", "not a fraction"),
                         ("endgame_nodes=2.5", "not a whole number"),
                         ("risk_weight=-1", "at least 0"),
                         ("candidate_ratio=3/2", "at most 1")]:
        with pytest.raises(InputError, match=message):
            Strategy().tuned(bad)


def test_estimate_agrees_with_analyze_on_a_reference_position():
    position = Position(9, 9, 10, ("HHHHHHHHH", "HHH212HHH", "122102HHH", "000013HHH",
                                   "11212HHHH", "HHHHHHHHH", "HHHHHHHHH", "HHHHHHHHH",
                                   "HHHHHHHHH"))
    view = view_of(position)
    found = estimate(view, Cache())
    reference = analyze(position, backend="sat")
    assert found.layouts == reference.layouts == 1031
    for cell in reference.cells:
        assert found.probability(cell.row * 9 + cell.col) == cell.probability


def test_isolated_region_is_searched_exactly_when_the_whole_board_is_too_big():
    # A pocket of two cells in the corner with one mine (the 1 at (1,0)), walled off by
    # flags from six outside cells that hold two more mines: 2 x C(6, 2) = 30 layouts, more
    # than this strategy searches whole, but the pocket's 2 layouts are independent of the
    # rest (its mine number is fixed and nothing else touches it).
    position = Position(6, 2, 5, ("HHFHHH", "13FHHH"))
    view = view_of(position)
    base = estimate(view, Cache())
    assert base.layouts == 30 and not base.safe
    small = Strategy(endgame_layouts=20)
    guess = endgame_guess(view, base, small)
    assert guess is not None and guess.cell in (0, 1) and guess.kind == "endgame"
    assert guess.win == guess.probability == Fraction(1, 2)
    # With (1,2) not flagged the pocket still counts as walled off: (1,2) is proved a mine.
    position = Position(6, 2, 5, ("HHFHHH", "13HHHH"))
    view = view_of(position)
    base = estimate(view, Cache())
    guess = endgame_guess(view, base, small)
    assert base.probability(8) == 1 and guess is not None and guess.cell in (0, 1)
    # Without the wall at (1,2) the pocket touches the outside: no exact search then.
    position = Position(6, 2, 4, ("HHFHHH", "12HHHH"))
    view = view_of(position)
    base = estimate(view, Cache())
    assert base.layouts > 20 and endgame_guess(view, base, small) is None


def test_a_component_of_proved_mines_is_no_region_to_search():
    # The corner shows 3: its three neighbours are mines, and the guess goes elsewhere.
    view = view_of(Position(30, 16, 99, ("3" + "H" * 29,) + ("H" * 30,) * 15))
    base = estimate(view, Cache())
    assert base.mines == (1 << 1) | (1 << 30) | (1 << 31)
    guess = choose_guess(view, base, STRATEGIES["best"], Cache())
    assert guess.probability == base.probability(guess.cell) == base.least


@given(game_positions(), st.data())
def test_a_dominating_cell_is_safer_and_safe_whenever_the_chosen_one_is(position, data):
    view = view_of(position)
    layouts = layouts_of(view)
    base = estimate(view, Cache())
    unknown = [i for i in range(view.width * view.height) if (view.unknown >> i) & 1]
    cell = data.draw(st.sampled_from(unknown))
    chances = value_chances(view, base, cell, Cache())
    better = dominating_cell(base, cell, chances)
    mine = lambda i: sum((x >> i) & 1 for x in layouts)  # noqa: E731
    if better != cell:
        assert mine(better) < mine(cell)
        assert all((x >> better) & 1 == 0 for x in layouts if not (x >> cell) & 1)
    elif chances:  # no cell both implied safe and strictly safer
        assert not any(mine(i) < mine(cell) and
                       all(not (x >> i) & 1 for x in layouts if not (x >> cell) & 1)
                       for i in unknown if i != cell)


# -- the time limit of a move ------------------------------------------------------------


def lattice_view(seed: int = 0) -> Grid:
    """30x16/99 with every safe (even row, even column) cell clicked, zeros flooding: one
    front of about 200 cells, far past the box search's node budget."""
    board = random_board(30, 16, 99, random.Random(seed))
    game = Game(board)
    for r in range(0, 16, 2):
        for c in range(0, 30, 2):
            if (r, c) not in board.mine_cells and not game.is_revealed((r, c)):
                game.reveal((r, c))
    return view_of(game.position())


class _NeverCounts:
    """An engine that gives up on every component: only the box search is left."""

    name = "never"

    def count(self, component, *, budget=UNLIMITED):
        raise TooLarge("never counts (test)")


def test_a_spent_budget_stops_the_large_count():
    view = lattice_view()
    cache = Cache()
    with pytest.raises(OutOfTime, match="counting layouts"):
        estimate(view, cache.under(Budget(time.monotonic() - 1)))
    # Nothing half-done was kept: the same cache then counts, without a limit.
    assert estimate(view, cache) == estimate(view, Cache())


def test_the_search_without_node_budget_stops_when_the_budget_runs_out():
    # The engine gives up, so the box search with no node budget counts: on this front it
    # would run for ages, and only the time budget stops it.
    cache = Cache(engine=_NeverCounts())
    with pytest.raises(OutOfTime, match="searching layouts"):
        estimate(lattice_view(), cache.under(Budget.seconds(0.2)))


def test_an_engine_giving_up_after_the_budget_ran_out_is_out_of_time():
    # A slow machine: the budget runs out while the engine works, and the engine then says
    # "too large". What the player hears is that the time ran out, not that the front is
    # too large (seen in CI: TooLarge escaped instead of OutOfTime).
    class GivesUpLate:
        name = "late"

        def count(self, component, *, budget=UNLIMITED):
            while not budget.expired():
                time.sleep(0.01)
            raise TooLarge("gave up (test)")

    cache = Cache(engine=GivesUpLate())
    with pytest.raises(OutOfTime, match="searching layouts"):
        estimate(lattice_view(), cache.under(Budget.seconds(0.05)))


def test_the_engine_and_the_budget_reach_every_large_count():
    # Whatever counts a component past the box search's node budget gets the cache's engine
    # and time budget: nothing reaches for another engine or runs without the limit.
    seen = []

    class Recorded:
        """The DP engine, noting the budget of every count it is asked for."""

        name = "recorded"

        def count(self, component, *, budget=UNLIMITED):
            seen.append(budget)
            return get_backend("dp").count(component, budget=budget)

    budget = Budget.seconds(600)
    estimate(lattice_view(), Cache(engine=Recorded()).under(budget))
    assert seen and all(b is budget for b in seen)


def test_a_move_with_a_budget_stops_or_plays_as_without(monkeypatch):
    # The local rules are switched off so that the move needs the exact analysis of the
    # whole front. A spent budget: no move, OutOfTime. A generous one: the move made without.
    monkeypatch.setattr(strategy_module, "local_deductions", lambda view: ([], []))
    view = lattice_view()

    def player():
        made = Player(view.width, view.height, view.total, STRATEGIES["best"])
        made.view = lattice_view()
        return made

    with pytest.raises(OutOfTime):
        player().next_clicks(budget=Budget(time.monotonic()))
    assert player().next_clicks(budget=Budget.seconds(600)) == player().next_clicks()


def test_the_budget_of_a_move_is_never_kept_by_the_player(monkeypatch):
    # The budget is a parameter of the move (Cache.under), not state of the cache: a game
    # pickled after a move under a limit (the page keeps its games pickled) holds no
    # deadline, and the next move without a limit runs without one.
    monkeypatch.setattr(strategy_module, "local_deductions", lambda view: ([], []))
    made = Player(30, 16, 99, STRATEGIES["best"])
    made.view = lattice_view()
    made.next_clicks(budget=Budget.seconds(600))
    assert b"Budget" not in pickle.dumps(made.cache)
    again = pickle.loads(pickle.dumps(made))
    assert again.next_clicks() == made.next_clicks()


# -- the player's probabilities are the analysis' ----------------------------------------


def _player_view(position: Position, total: int):
    """The player's view of ``position`` on its topology, with ``total`` mines."""
    width = position.width
    view = new_grid(position.topology, total)
    view.show([(r * width + c, position.number((r, c)))
               for r in range(position.height) for c in range(width)
               if position.number((r, c)) is not None])
    view.mark_mines(sum(1 << (r * width + c) for r, c in position.flags))
    return view


def _any_topology(count_known: bool):
    return st.sampled_from(KINDS).flatmap(
        lambda kind: positions(max_side=7, max_covered=30, count_known=count_known,
                               kind=kind))


@settings(max_examples=150, deadline=None)
@given(_any_topology(True), st.booleans(), st.booleans())
def test_the_player_and_the_analysis_give_every_cell_the_same_probability(
        position, scaled, engine):
    """Two paths, one answer: the player's (rules as bitmasks, box search or its engine,
    :meth:`Counted.weighed`) and the analysis' (frontier, components, engine,
    ``combine_ratios``) on positions from hidden layouts of every topology, with the
    player's big-number scale forced on some and its engine path on others."""
    view = _player_view(position, position.mines)
    with pytest.MonkeyPatch.context() as patch:
        if scaled:
            patch.setattr(combine_module, "_EXACT_OUTSIDE", -1)
        if engine:
            patch.setattr(lookahead_module, "NODES", 0)
        found = estimate(view, Cache())
    assert (found.scale is not None) == scaled
    reference = analyze(position)
    assert reference.probabilities_computed
    assert len(reference.cells) == view.unknown.bit_count()
    for cell in reference.cells:
        r, c = cell.cell
        assert found.probability(r * position.width + c) == cell.probability


@settings(max_examples=150, deadline=None)
@given(_any_topology(False), st.booleans())
def test_the_player_and_the_analysis_agree_without_a_total(position, engine):
    """Without a mine count (``mines_left=None``) the components are independent: the
    player's front-end gives each frontier cell the analysis' probability, and the cells
    off the frontier none."""
    covered = position.covered
    view = _player_view(position, len(covered) + len(position.flags))
    with pytest.MonkeyPatch.context() as patch:
        if engine:
            patch.setattr(lookahead_module, "NODES", 0)
        frontier = counted(view.rules(), view.unknown, Cache())
    ratios = frontier.weighed(None)
    assert ratios.layouts > 0 and ratios.box is not None and ratios.outside is None
    found: dict[tuple[int, int], Fraction | None] = {
        divmod(i, position.width): None for i in indices_of(frontier.outside)}
    for part, box in zip(frontier.parts, ratios.box, strict=True):
        for mask, ratio in zip(part.box_masks, box, strict=True):
            for i in indices_of(mask):
                found[divmod(i, position.width)] = Fraction(*ratio)
    reference = analyze(position)
    assert sorted(found) == [cell.cell for cell in reference.cells]
    for cell in reference.cells:
        assert found[cell.cell] == cell.probability
