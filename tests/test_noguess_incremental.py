"""The no-guess check kept between moves of mines (``Solver.move``, what ``build`` uses):
it must reach exactly what the check resumed from scratch reaches on the moved board, on
the square grid and on a table topology, with and without the count."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactmines.errors import ParameterError
from exactmines.game import Game, board_from_indices
from exactmines.mine_counts import mine_counts
from exactmines.position import indices_of
from exactmines.solvability.check import Solver, solve_from
from exactmines.topology import make_topology, square


def _solver(width, height, mines, topology, use_count):
    game = Game(board_from_indices(width, height, mines, topology))
    return Solver(game, len(mines), use_count)


def _moves(rng, mines, area, outcome, first):
    """A random move on covered cells: some mines (flagged ones too) leave, as many
    covered free cells get one."""
    covered = [i for i in range(area) if not outcome.revealed >> i & 1 and i != first]
    held = [i for i in covered if i in mines]
    empty = [i for i in covered if i not in mines]
    k = rng.randint(0, min(3, len(held), len(empty)))
    return rng.sample(held, k) + rng.sample(empty, k)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), kind=st.sampled_from(["square", "torus", "hex"]),
       use_count=st.booleans())
def test_a_move_reaches_what_a_resumed_check_reaches(seed, kind, use_count):
    rng = random.Random(seed)
    width, height = 8, 7
    area = width * height
    topology = None if kind == "square" else make_topology(kind, width, height)
    first = 3 * width + 4
    mines = sorted(rng.sample([i for i in range(area) if i != first], rng.randint(6, 20)))
    solver = _solver(width, height, mines, topology, use_count)
    outcome = solver.run([first], [])
    for _ in range(4):
        if outcome.solvable:
            break
        moved = _moves(rng, set(mines), area, outcome, first)
        mines = sorted(set(mines) ^ set(moved))
        kept_flags = [i for i in indices_of(outcome.flagged) if i in mines]
        fresh = solve_from(width, height, mines, indices_of(outcome.revealed), kept_flags,
                           use_count=use_count, topology=topology)
        outcome = solver.move(moved)
        assert outcome.revealed == fresh.revealed and outcome.safe_mask == fresh.safe_mask
        if not outcome.solvable:  # stuck, a complete deduction has proved every mine it can
            # (once won it stops: the mines flagged on the way depend on the way)
            assert outcome.flagged == fresh.flagged


def test_move_mines_keeps_the_numbers_and_the_board_in_step():
    rng = random.Random(5)
    width, height = 9, 6
    mines = sorted(rng.sample(range(54), 12))
    game = Game(board_from_indices(width, height, mines))
    game.reveal_indices([0]) if 0 not in mines else None
    covered = [i for i in range(54) if not game.revealed >> i & 1]
    leave = [i for i in covered if i in mines][:3]
    arrive = [i for i in covered if i not in mines][:3]
    changed = game.move_mines(leave + arrive)
    now = sorted(set(mines) ^ set(leave + arrive))
    assert game.numbers == mine_counts(width, height, now)
    assert game.board == board_from_indices(width, height, now)
    assert game.mine_mask == sum(1 << i for i in now)
    assert set(changed) == {n for i in leave + arrive
                            for n in square(width, height).neighbour_table[i]}


def test_a_move_that_changes_the_mine_count_or_a_revealed_cell_is_refused():
    solver = _solver(5, 1, [4], None, True)
    solver.run([0], [])  # reveals 0 to 3: the count proves 4 a mine
    with pytest.raises(ParameterError, match="as many mines"):
        _solver(5, 5, [24], None, True).move([0])
    with pytest.raises(ParameterError, match="revealed"):
        solver.move([0, 4])
    with pytest.raises(ParameterError, match="off the board"):
        solver.move([5])


@given(mask=st.integers(1, (1 << 600) - 1), pick=st.integers(0, 10**6))
def test_the_builders_nth_bit_is_the_nth_index_of_the_mask(mask, pick):
    from exactmines.solvability.build import _nth_bit

    cells = indices_of(mask)
    k = pick % len(cells)
    assert _nth_bit(mask, k) == cells[k]


def test_a_move_by_the_local_rules_only_stops_where_they_stick_and_the_exact_step_goes_on():
    # build resumes with the local rules only (Solver.move(exact=False)); the exact step
    # then runs from where they stuck and reaches what the complete deduction reaches
    rng = random.Random(7)
    width, height, first = 8, 7, 3 * 8 + 4
    area = width * height
    seen_short = False
    for _ in range(60):
        mines = sorted(rng.sample([i for i in range(area) if i != first], 14))
        complete, local = (_solver(width, height, mines, None, True) for _ in range(2))
        a, b = complete.run([first], []), local.run([first], [])
        if a.solvable:
            continue
        moved = _moves(rng, set(mines), area, a, first)
        a, steps = complete.move(moved), local.exact_steps
        b = local.move(moved, exact=False)
        assert local.exact_steps == steps  # no exact step after the move
        assert b.revealed & ~a.revealed == 0 and b.flagged & ~a.flagged == 0
        seen_short |= b.revealed != a.revealed
        if not a.solvable:  # the exact step from there reaches the same
            c = local.run([], [])
            assert (c.revealed, c.flagged) == (a.revealed, a.flagged)
    assert seen_short  # the local rules alone did stop short somewhere
