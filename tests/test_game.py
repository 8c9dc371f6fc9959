"""The game engine: flood against a naive breadth-first reveal, win/loss, first-click rules."""

from __future__ import annotations

import random
from collections import Counter, deque
from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import boards

from exactmines.errors import InputError
from exactmines.game import (
    Game,
    GameOver,
    deal,
    free_indices,
    protected_cells,
    random_board,
    three_bv,
)
from exactmines.position import Board, dilate, neighbour_masks


def naive_reveal(board, cell):
    """Breadth-first, cell by cell, straight from the rules of the game."""
    shown = {cell}
    queue = deque([cell])
    while queue:
        r, c = queue.popleft()
        if board.number((r, c)) != 0:
            continue
        for rr in range(r - 1, r + 2):
            for cc in range(c - 1, c + 2):
                if 0 <= rr < board.height and 0 <= cc < board.width and (rr, cc) not in shown:
                    shown.add((rr, cc))
                    queue.append((rr, cc))
    return shown


@st.composite
def board_and_safe_cell(draw: st.DrawFn) -> tuple[Board, tuple[int, int]]:
    """A board up to 7x7 and one of its safe cells (drawn first, the mines among the rest)."""
    width, height = draw(st.integers(1, 7)), draw(st.integers(1, 7))
    cells = [(r, c) for r in range(height) for c in range(width)]
    cell = draw(st.sampled_from(cells))
    others = [other for other in cells if other != cell]
    mines = draw(st.sets(st.sampled_from(others))) if others else set()
    return Board(width, height, frozenset(mines)), cell


@given(board_and_safe_cell())
def test_reveal_floods_zeros_like_the_game(drawn):
    board, cell = drawn
    safe = [(r, c) for r in range(board.height) for c in range(board.width)
            if (r, c) not in board.mine_cells]
    game = Game(board)
    opened = game.reveal(cell)
    assert set(opened) == naive_reveal(board, cell)
    assert opened == sorted(opened)
    assert not game.lost
    assert game.won == (len(opened) == len(safe))
    assert game.safe_left == len(safe) - len(opened)
    if not game.won:
        assert game.reveal(cell) == []  # already shown


def test_click_on_a_mine_loses_and_the_game_stops():
    board = random_board(4, 4, 3, random.Random(2))
    game = Game(board)
    mine = min(board.mine_cells)
    assert game.reveal(mine) == [] and game.lost and not game.won
    with pytest.raises(GameOver):
        game.reveal(mine)


def test_revealing_every_safe_cell_wins():
    board = random_board(5, 3, 4, random.Random(3))
    game = Game(board)
    for r in range(3):
        for c in range(5):
            if (r, c) not in board.mine_cells and not game.is_revealed((r, c)):
                game.reveal((r, c))
    assert game.won and game.over and game.safe_left == 0
    position = game.position(board.mine_cells)
    assert "H" not in "".join(position.rows)
    assert position.rows[0].count("F") == sum(1 for r, _ in board.mine_cells if r == 0)


def test_number_is_only_shown_once_revealed():
    game = Game(random_board(3, 3, 0, random.Random(1)))
    with pytest.raises(ValueError):
        game.number((1, 1))
    game.reveal((1, 1))
    assert game.number((1, 1)) == 0 and game.won


@pytest.mark.parametrize("rule, at, kept", [
    ("safe", (0, 0), {(0, 0)}),
    ("opening", (3, 3), {(r, c) for r in range(2, 5) for c in range(2, 5)}),
    ("opening", (0, 0), {(0, 0), (0, 1), (1, 0), (1, 1)}),
    ("unprotected", (0, 0), set()),
])
def test_first_click_rules_keep_their_cells_free(rule, at, kept):
    assert protected_cells(9, 9, rule, at) == kept
    rng = random.Random(11)
    for _ in range(200):
        board = deal(9, 9, 30, rng, rule=rule, at=at)
        assert board.mines == 30 and not board.mine_cells & kept


def test_dealing_is_uniform_over_the_allowed_cells():
    # 2x3 board, one mine, first click (0,0) safe: each of the other 5 cells equally likely.
    rng = random.Random(5)
    seen = Counter(next(iter(deal(3, 2, 1, rng, rule="safe", at=(0, 0)).mine_cells))
                   for _ in range(5000))
    assert set(seen) == {(0, 1), (0, 2), (1, 0), (1, 1), (1, 2)}
    assert all(900 < n < 1100 for n in seen.values()), seen


def test_same_seed_same_board():
    a = deal(16, 16, 40, random.Random(9), rule="opening", at=(3, 3))
    b = deal(16, 16, 40, random.Random(9), rule="opening", at=(3, 3))
    assert a == b


@pytest.mark.parametrize("args, message", [
    ((3, 3, 9, "safe", (0, 0)), "do not fit"),
    ((3, 3, 1, "opening", (1, 1)), "do not fit"),
    ((3, 3, 1, "safe", (3, 0)), "off the 3x3 board"),
    ((3, 3, 1, "bold", (0, 0)), "unknown first-click rule"),
    ((0, 3, 1, "unprotected", (0, 0)), "off the 0x3 board"),
])
def test_impossible_deals_are_input_errors(args, message):
    width, height, mines, rule, at = args
    with pytest.raises(InputError, match=message):
        deal(width, height, mines, random.Random(1), rule=rule, at=at)


@pytest.mark.parametrize("width, height", [(0, 3), (3, 0), (0, 0), (-1, 2)])
def test_empty_boards_are_refused_even_without_mines(width, height):
    with pytest.raises(InputError, match=f"board size {width}x{height}: must be at least 1x1"):
        free_indices(width, height, 0)
    assert free_indices(1, 1, 0) == [0]


@given(width=st.integers(1, 12), height=st.integers(1, 12), data=st.data())
def test_dilate_adds_exactly_the_neighbours(width, height, data):
    mask = data.draw(st.integers(0, (1 << (width * height)) - 1))
    expected = mask
    for i, around in enumerate(neighbour_masks(width, height)):
        if (mask >> i) & 1:
            expected |= around
    assert dilate(mask, width, height) == expected


def test_flags_are_kept_as_the_programs_keep_them():
    # 0 0 1 *
    # 1 1 1 1
    # * 1 0 0
    game = Game(Board(4, 3, frozenset({(0, 3), (2, 0)})))
    assert game.toggle_flag((1, 2))
    assert game.reveal((1, 2)) == []  # a flagged cell does not open
    # nor does the flood of the zeros at (2, 3) and (2, 2) open it
    assert game.reveal((2, 3)) == [(1, 1), (1, 3), (2, 1), (2, 2), (2, 3)]
    assert game.is_flagged((1, 2)) and not game.is_revealed((1, 2))
    assert not game.toggle_flag((1, 2))
    assert game.reveal((1, 2)) == [(1, 2)]
    with pytest.raises(ValueError, match="revealed"):
        game.toggle_flag((1, 2))
    game.toggle_flag((0, 0))
    assert game.revealed == sum(1 << (r * 4 + c) for r, c in [(1, 1), (1, 2), (1, 3), (2, 1),
                                                               (2, 2), (2, 3)])
    assert game.revealed_count == 6
    assert game.toggle_flag((0, 3))
    assert game.reveal((0, 3)) == [] and not game.lost  # a flagged mine does not go off


@given(boards(max_side=4, max_cells=12))
def test_three_bv_is_the_fewest_clicks_that_clear_the_board(board):
    """3BV against a brute-force minimum: the fewest cells whose reveals (flood included)
    cover every safe cell."""
    safe = {(r, c) for r in range(board.height) for c in range(board.width)} - board.mine_cells
    options = {frozenset(naive_reveal(board, cell)) for cell in safe}
    fewest = 0
    if safe:
        fewest = next(k for k in range(1, len(options) + 1)
                      if any(frozenset().union(*pick) == safe
                             for pick in combinations(options, k)))
    assert three_bv(board) == fewest
