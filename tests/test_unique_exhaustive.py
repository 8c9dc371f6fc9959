"""``unique`` and ``consistent`` are proofs or ``None``, wherever the time limit falls: every
position of a few small boards (every layout, every set of opened cells, with and without
the mine count), analysed under a clock that runs out after 1, 2, 3, ... reads, against
brute force (tests/oracle.py). An answer cut short may say ``None``; it may never say the
wrong thing (before, a position cut short was "not unique" even when it had one layout)."""

from __future__ import annotations

from itertools import product

import pytest
from oracle import truth

import exactmines.budget as budget_module
from exactmines import analyze
from exactmines.position import Position

#: How many clock reads the budget lasts: every early stage, and the last few a small
#: position's analysis takes.
TICKS = (1, 2, 3, 4, 5, 6, 8, 11, 16, 24)


def _positions(width: int, height: int) -> list[Position]:
    """Every position of a ``width`` x ``height`` board: each layout of mines, each set of
    its safe cells opened (showing their numbers), with the mine count and without."""
    cells = [(r, c) for r in range(height) for c in range(width)]
    found: dict[tuple[tuple[str, ...], int | None], Position] = {}
    for mines in product((False, True), repeat=len(cells)):
        mine_at = {cell for cell, m in zip(cells, mines, strict=True) if m}
        safe = [cell for cell in cells if cell not in mine_at]
        for opened in product((False, True), repeat=len(safe)):
            shown = {cell for cell, o in zip(safe, opened, strict=True) if o}
            rows = tuple("".join(
                str(sum((r + dr, c + dc) in mine_at for dr in (-1, 0, 1) for dc in (-1, 0, 1)))
                if (r, c) in shown else "H" for c in range(width)) for r in range(height))
            for count in (len(mine_at), None):
                found.setdefault((rows, count), Position(width, height, count, rows))
    return list(found.values())


class _Clock:
    """``time.monotonic`` for the budget module: one second passes at every read, so a
    budget of ``n`` seconds runs out after ``n`` reads, at whatever stage that is."""

    def __init__(self) -> None:
        self.now = 0.0

    def monotonic(self) -> float:
        self.now += 1.0
        return self.now


def _true_unique(position: Position) -> tuple[bool, bool]:
    """(consistent, unique) by brute force: unique is consistent with every covered cell
    certainly safe or certainly a mine (docs/contract.md; without a count a cell off the
    frontier is never certain)."""
    expected = truth(position)
    return expected.consistent, expected.consistent and all(
        v != "unknown" for v in expected.verdict.values())


@pytest.mark.parametrize("backend", ["auto", "sat"])
@pytest.mark.parametrize("shape", [(2, 2), (3, 2), (4, 1)])
def test_unique_cut_short_anywhere_is_none_or_the_truth(monkeypatch, backend, shape):
    positions = _positions(*shape)
    truths = [_true_unique(p) for p in positions]
    clock = _Clock()
    monkeypatch.setattr(budget_module, "time", clock)
    decided = undecided = 0
    for position, (consistent, unique) in zip(positions, truths, strict=True):
        for ticks in TICKS:
            result = analyze(position, backend=backend, time_limit=float(ticks))
            assert result.consistent in (None, consistent), (position, ticks)
            assert result.unique in (None, unique), (position, ticks, result.notes)
            if result.consistent is False:
                assert result.unique is False, (position, ticks)
            if result.unique is None:
                undecided += 1
            else:
                decided += 1
        # Without a limit it is always decided.
        full = analyze(position, backend=backend)
        assert (full.consistent, full.unique) == (consistent, unique), position
    # The cuts fell both before and after the answer was known: the test saw both kinds.
    assert decided and undecided
