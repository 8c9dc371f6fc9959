"""The square grid's fast path (Grid) and the table path (TableGrid) as twins: one protocol
(KnownGrid), the same answers on the same graph."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from exactmines.deduction import Grid, KnownGrid, TableGrid, local_deductions, new_grid
from exactmines.topology import make_topology, square

#: The square grid's neighbourhood as offsets: the table path on the square grid's graph.
KING = tuple((dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc)


def readings(grid: KnownGrid) -> tuple[object, ...]:
    """Everything the protocol answers about a grid's state."""
    return (grid.width, grid.height, grid.total, grid.everything, grid.revealed, grid.mines,
            grid.unknown, grid.mines_left, grid.flagged,
            [grid.is_revealed(i) for i in range(grid.width * grid.height)],
            grid.clues(), grid.rules(), list(grid.masks))


def numbers(width: int, height: int, mines: set[int]) -> list[int]:
    """Each cell's count of mines around it (the square grid), shares no code with the
    grids."""
    out = []
    for r in range(height):
        for c in range(width):
            out.append(sum((rr * width + cc) in mines
                           for rr in range(r - 1, r + 2) for cc in range(c - 1, c + 2)
                           if 0 <= rr < height and 0 <= cc < width and (rr, cc) != (r, c)))
    return out


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 7), st.integers(1, 7), st.integers(0, 2**32 - 1))
def test_the_fast_path_and_the_table_path_play_a_game_alike(width, height, seed):
    rng = random.Random(seed)
    cells = width * height
    mines = set(rng.sample(range(cells), rng.randint(0, cells - 1)))
    shows = numbers(width, height, mines)
    fast = new_grid(square(width, height), len(mines))
    table = new_grid(make_topology("offsets", width, height, offsets=KING), len(mines))
    assert isinstance(fast, Grid) and isinstance(table, TableGrid)
    assert fast.topology == square(width, height)
    assert readings(fast) == readings(table)
    safe = [i for i in range(cells) if i not in mines]
    rng.shuffle(safe)
    while safe:
        step = [(i, shows[i]) for i in safe[:rng.randint(1, 3)]]
        del safe[:len(step)]
        for grid in (fast, table):
            grid.show(step)
        assert readings(fast) == readings(table)
        found = local_deductions(fast)
        assert found == local_deductions(table)
        proved_safe, proved_mines = found
        assert not set(proved_safe) & mines and set(proved_mines) <= mines
        for grid in (fast, table):
            grid.mark_mines(proved_mines)
        assert readings(fast) == readings(table)


def test_a_copy_is_independent_on_both_paths():
    for topology in (square(3, 3), make_topology("torus", 3, 3)):
        grid = new_grid(topology, 1)
        before = readings(grid)
        other = grid.copy()
        other.show([(0, 1)])
        other.mark_mines([4])
        assert readings(grid) == before
        assert other.revealed == 1 and other.mines == 1 << 4
        assert other.topology is grid.topology and other.masks == grid.masks
