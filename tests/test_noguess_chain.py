"""The Markov chain of ``generate noguess --method chain`` is uniform over the no-guess
boards, checked where they can all be listed: 4x4 with 6 mines, first click at row 0,
column 1 under the ``opening`` rule (10 cells may hold a mine: 210 layouts, 70 of them
no-guess by the complete check, all reachable from each other by moving one mine).

Two checks: the chain's exact transition matrix (every proposal of every board fed to
:func:`~exactmines.solvability.chain.chain_board`) is doubly stochastic and irreducible,
so the uniform distribution is its only stationary one; and a seeded run of 20,000 steps
visits the 70 boards as often as uniform draws would (chi-square). Both fail for a chain
that never moves a mine to the border or accepts by a wrong rule.
"""

import itertools
import math
import random
from collections import Counter
from fractions import Fraction

import pytest

import exactmines.solvability.chain as chain
from exactmines.game import protected_cells
from exactmines.solvability.check import Outcome, solve_indices

WIDTH, HEIGHT, MINES, AT, RULE = 4, 4, 6, (0, 1), "opening"
FIRST = AT[0] * WIDTH + AT[1]
CELLS = [i for i in range(WIDTH * HEIGHT)
         if divmod(i, WIDTH) not in protected_cells(WIDTH, HEIGHT, RULE, AT)]
BORDER = {i for i in range(WIDTH * HEIGHT)
          if i // WIDTH in (0, HEIGHT - 1) or i % WIDTH in (0, WIDTH - 1)}


def _noguess() -> list[tuple[int, ...]]:
    return [layout for layout in itertools.combinations(CELLS, MINES)
            if solve_indices(WIDTH, HEIGHT, list(layout), FIRST).solvable]


NOGUESS = _noguess()


class Scripted(random.Random):
    """Draws given in advance: the mine's index, then the target cell."""

    def __init__(self, k: int, target: int) -> None:
        super().__init__(0)
        self.k, self.target = k, target

    def randrange(self, n, *args, **kwargs):  # noqa: ARG002
        return self.k

    def choice(self, seq):  # noqa: ARG002
        return self.target


class NoBorder(random.Random):
    """A broken proposal: the target is drawn among the interior cells only."""

    def choice(self, seq):
        return super().choice([i for i in seq if i not in BORDER])


def _half_to_the_corner(monkeypatch) -> None:
    """A broken acceptance rule: a no-guess board with a mine in the far corner is kept
    only every other time it is proposed."""
    real, coin = chain.solve_indices, random.Random(9)

    def check(width, height, mines, first, **kwargs):
        outcome = real(width, height, mines, first, **kwargs)
        if outcome.solvable and WIDTH * HEIGHT - 1 in mines and coin.random() < 0.5:
            return Outcome(0, 0, outcome.safe_mask, 0, 0, 0)  # (read as not solvable)
        return outcome

    monkeypatch.setattr(chain, "solve_indices", check)


def _transitions() -> dict[tuple[int, ...], Counter]:
    """Per no-guess board, where one step goes for each of its ``MINES * len(CELLS)``
    equally likely proposals."""
    moves: dict[tuple[int, ...], Counter] = {}
    for board in NOGUESS:
        moves[board] = Counter()
        for k in range(MINES):
            for target in CELLS:
                after, _ = chain.chain_board(WIDTH, HEIGHT, list(board), Scripted(k, target),
                                             start=RULE, at=AT, steps=1)
                moves[board][tuple(after)] += 1
    return moves


def _stationary_is_uniform(moves) -> bool:
    """Doubly stochastic, closed on the no-guess boards and irreducible: then the uniform
    distribution is the one stationary distribution."""
    proposals = MINES * len(CELLS)
    into: Counter = Counter()
    for targets in moves.values():
        assert sum(targets.values()) == proposals
        for after, n in targets.items():
            into[after] += Fraction(n, proposals)
    if set(into) - set(moves) or any(into[b] != 1 for b in moves):
        return False
    reached, stack = {NOGUESS[0]}, [NOGUESS[0]]
    while stack:
        for after in moves[stack.pop()]:
            if after not in reached:
                reached.add(after)
                stack.append(after)
    return reached == set(moves)


def test_the_listed_boards():
    # the no-guess condition matters here: a third of the layouts pass
    assert len(list(itertools.combinations(CELLS, MINES))) == 210 and len(NOGUESS) == 70
    assert any(set(b) & BORDER and set(b) - BORDER for b in NOGUESS)


def test_the_exact_transition_matrix_has_the_uniform_distribution_as_its_only_stationary_one(
        monkeypatch):
    assert _stationary_is_uniform(_transitions())
    _half_to_the_corner(monkeypatch)  # the same matrix under a wrong acceptance rule
    assert not _stationary_is_uniform(_transitions())


def _chi_square(rng: random.Random, steps: int = 20_000, thin: int = 20) -> float:
    """Pearson's statistic of the boards visited every ``thin`` steps (1000 visits: each
    board expected 1000/70 times; 20 steps apart the visits are nearly independent: the
    statistic over seeds 0-3 was 64-90 against 69 degrees of freedom) against uniform."""
    board = list(NOGUESS[0])
    seen: Counter = Counter()
    for _ in range(steps // thin):
        board, _ = chain.chain_board(WIDTH, HEIGHT, board, rng, start=RULE, at=AT,
                                     steps=thin)
        seen[tuple(board)] += 1
    assert set(seen) <= set(NOGUESS)
    expected = sum(seen.values()) / len(NOGUESS)
    return sum((seen[b] - expected) ** 2 / expected for b in NOGUESS)


def _bound(df: int, z: float = 3.09) -> float:
    """The chi-square quantile at the standard normal's ``z`` (3.09: 0.999), by
    Wilson-Hilferty."""
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


@pytest.mark.parametrize("broken", [None, "never to the border", "wrong acceptance"])
def test_a_long_seeded_run_visits_every_noguess_board_equally_often(broken, monkeypatch):
    rng = random.Random(0)
    if broken == "never to the border":
        rng = NoBorder(0)
    elif broken == "wrong acceptance":
        _half_to_the_corner(monkeypatch)
    # seed 0: 70.9 for the chain, 69,000 when it never moves a mine to the border (it
    # sticks), 250.8 under the wrong acceptance rule; the bound is 111.1
    statistic = _chi_square(rng)
    assert (statistic < _bound(len(NOGUESS) - 1)) == (broken is None), statistic
