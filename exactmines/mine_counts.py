"""The number every cell shows, from where the mines are.

Its own small module so that it is compiled (``setup.py``): every board dealt (the no-guess
check deals thousands a second, the player one a game) counts its numbers once, and in pure
Python that is a tenth of a small board's whole check.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

__all__ = ["mine_counts"]


def mine_counts(width: int, height: int, mines: Iterable[int],
                table: Sequence[Sequence[int]] | None = None) -> list[int]:
    """How many of ``mines`` (flat indices ``r * width + c``) touch each cell, mines
    included: on the square grid when ``table`` is None, else on the topology whose
    neighbours of cell ``i`` are ``table[i]``. Cost: a few steps per neighbour of a mine.

    >>> mine_counts(3, 2, [0])
    [0, 1, 0, 1, 1, 0]
    """
    counts = [0] * (width * height)
    if table is not None:
        for m in mines:
            for n in table[m]:
                counts[n] += 1
        return counts
    for m in mines:
        r, c = divmod(m, width)
        counts[m] -= 1  # the 3x3 block below counts the mine itself
        low, high = max(c - 1, 0), min(c + 2, width)
        for row in range(max(r - 1, 0), min(r + 2, height)):
            for n in range(row * width + low, row * width + high):
                counts[n] += 1
    return counts
