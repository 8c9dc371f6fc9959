"""A Markov chain over no-guess boards (``generate noguess --method chain``).

The chain starts from a no-guess board and repeats a step: take a mine chosen uniformly,
and a cell chosen uniformly among those the first-click rule leaves free and holding no
mine, and move the mine there; keep the move only if the board is still cleared without
guessing from the first click (the complete check,
:func:`~exactmines.solvability.check.solve_indices`), else stay. The proposal is symmetric
(a move and its reverse are proposed with the same chance, ``1 / (mines * free cells)``)
and a rejected move stays put, so the uniform distribution over the no-guess boards the
chain can reach from its start is stationary: the boards are uniform *in the limit* of many
steps. How many steps are enough is measured, not proved: ``scripts/bench_noguess.py``
runs two chains from far-apart starts (a built board and one whose mines sit on the
edges) and compares their statistics (docs/noguess.md).

Cost: one check of the whole board per step.
"""

from __future__ import annotations

import random

from exactmines.game import protected_cells
from exactmines.position import Cell, Topology
from exactmines.solvability.check import solve_indices

__all__ = ["chain_board", "CHAIN_STEPS"]

#: Steps per board unless told otherwise.
CHAIN_STEPS = 1000


def chain_board(width: int, height: int, start_mines: list[int], rng: random.Random, *,
                start: str, at: Cell, steps: int = CHAIN_STEPS, use_count: bool = True,
                topology: Topology | None = None) -> tuple[list[int], int]:
    """``steps`` steps of the chain from the no-guess board ``start_mines`` (flat indices):
    ``(mine indices ascending, moves kept)``."""
    first = at[0] * width + at[1]
    keep = {r * width + c for r, c in protected_cells(width, height, start, at, topology)}
    mines = list(start_mines)
    holds = set(mines)
    cells = [i for i in range(width * height) if i not in keep]
    kept = 0
    if len(mines) in (0, len(cells)):
        return sorted(mines), 0  # one board only: nothing can move
    for _ in range(steps):
        k = rng.randrange(len(mines))
        target = rng.choice(cells)
        if target in holds:
            continue  # (a proposal onto a mine: the same board, as if drawn among free cells)
        source = mines[k]
        mines[k] = target
        if solve_indices(width, height, mines, first, use_count=use_count,
                         topology=topology).solvable:
            holds.discard(source)
            holds.add(target)
            kept += 1
        else:
            mines[k] = source
    return sorted(mines), kept
