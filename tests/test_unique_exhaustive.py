"""``unique`` and ``consistent`` are proofs or ``None``, wherever the time limit falls: every
position of a few small boards (every layout, every set of opened cells, with and without
the mine count), each analysed once for every read of the clock a whole analysis makes,
cut at that read, against brute force (tests/oracle.py). An answer cut short may say
``None``; it may never say the wrong thing (before, a position cut short was "not
unique" even when it had one layout)."""

from __future__ import annotations

from itertools import product

import pytest
from oracle import truth

import exactmines.budget as budget_module
from exactmines import analyze
from exactmines.position import Position


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


class _Cut:
    """``time.monotonic`` for the budget module: time stands still until its ``left``-th
    read, then every deadline has passed. The analysis is cut there, at whatever stage
    reads the clock then; ``left=None`` never cuts, and counts the reads of a whole run."""

    def __init__(self) -> None:
        self.left: int | None = None
        self.reads = 0

    def monotonic(self) -> float:
        self.reads += 1
        if self.left is None:
            return 0.0
        self.left -= 1
        return 0.0 if self.left > 0 else 1e18


def _true_unique(position: Position) -> tuple[bool, bool]:
    """(consistent, unique) by brute force: unique is consistent with every covered cell
    certainly safe or certainly a mine (docs/contract.md; without a count a cell off the
    frontier is never certain)."""
    expected = truth(position)
    return expected.consistent, expected.consistent and all(
        v != "unknown" for v in expected.verdict.values())


@pytest.mark.parametrize("backend", ["auto", "sat"])
def test_unique_cut_short_anywhere_is_none_or_the_truth(monkeypatch, backend):
    clock = _Cut()
    monkeypatch.setattr(budget_module, "time", clock)
    seen = set()
    for position in [p for shape in [(2, 2), (3, 2), (4, 1)] for p in _positions(*shape)]:
        consistent, unique = _true_unique(position)
        clock.left, clock.reads = None, 0
        full = analyze(position, backend=backend, time_limit=1.0)
        assert (full.consistent, full.unique) == (consistent, unique), position
        for cut in range(1, clock.reads + 1):  # every clock read of the whole run
            clock.left = cut
            result = analyze(position, backend=backend, time_limit=1.0)
            assert result.consistent in (None, consistent), (position, cut)
            assert result.unique in (None, unique), (position, cut, result.notes)
            if result.consistent is False:
                assert result.unique is False, (position, cut)
            seen.add((result.layouts is None, result.unique))
    # The cuts fell before anything was known and, with SAT (auto's small counts finish
    # with their last clock read), after the count was cut short but the proofs alone had
    # decided, both ways.
    assert (True, None) in seen
    if backend == "sat":
        assert {(True, True), (True, False)} <= seen
