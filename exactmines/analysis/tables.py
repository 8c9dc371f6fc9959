"""An analysis's answers laid out per cell: each cell's exact probability and verdict in flat
tables by index ``r * width + c``, as :class:`~exactmines.analysis.analyze.Cells` reads them.

Compiled by mypyc where a C compiler works (``setup.py``): on an expert mid-game position
this is about a fifth of the whole analysis in pure Python (the loops over the frontier's
cells), the part ``analyze`` runs after counting and combining.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from itertools import compress
from typing import Literal

from exactmines.analysis.combine import Ratio, fraction_of
from exactmines.analysis.frontier import _bits, padded_cells
from exactmines.position import COVERED, Cell

__all__ = ["Verdict", "Value", "Pair", "Tables", "verdict", "box_values", "forced_values",
           "cell_tables", "box_tables", "covered_indices"]

Verdict = Literal["safe", "mine", "unknown"]
#: ``(numerator, denominator)`` of a probability, not reduced (``None``: not computed), and
#: the verdict.
Value = tuple[Ratio | None, Verdict]
#: A cell's exact probability (``None``: not computed) and its verdict.
Pair = tuple[Fraction | None, Verdict]

#: Every cell's probability and ``(probability, verdict)`` pair by flat index, and a byte per
#: cell, 1 where it is covered (see :func:`cell_tables`).
Tables = tuple[list[Fraction | None], list[Pair], bytes]

#: The values of forced mines and forced safe cells.
_MINE: Value = ((1, 1), "mine")
_SAFE: Value = ((0, 1), "safe")

#: Byte ``i`` of a position's rows, joined: 1 where the cell is covered (unflagged), else 0.
_COVERED_BYTE = bytes(int(i == ord(COVERED)) for i in range(256))


def verdict(ratio: Ratio) -> Verdict:
    """The verdict of a probability ``numerator / denominator``."""
    return "safe" if ratio[0] == 0 else "mine" if ratio[0] == ratio[1] else "unknown"


def box_values(values: list[tuple[Sequence[Cell], Value]],
               box_cells: Sequence[Sequence[Sequence[Cell]]],
               box_ratios: Sequence[Sequence[Ratio]]) -> list[tuple[Sequence[Cell], Value]]:
    """``values`` extended by every box's cells with its ratio and verdict: box ``b`` of
    component ``c`` holds ``box_cells[c][b]`` and has ``box_ratios[c][b]``."""
    for boxes, ratios in zip(box_cells, box_ratios, strict=True):
        for cells, ratio in zip(boxes, ratios, strict=True):
            values.append((cells, (ratio, verdict(ratio))))
    return values


def cell_tables(values: Sequence[tuple[Sequence[Cell], Value]], rest: Value, width: int,
                rows: Sequence[str]) -> Tables:
    """Every cell's exact probability, and its ``(probability, verdict)`` pair, by flat
    index (the cells not covered hold the rest's, unread), and a byte per cell, 1 where it
    is covered: ``itertools.compress`` of a table by it gives the covered cells' entries,
    row-major, at C speed, with no index made (:func:`covered_indices` gives the indices).

    ``values``: groups of cells, each with its ``(ratio, verdict)`` (the ratio a pair of
    integers, not reduced; ``None``: not computed); every other cell has ``rest``. One
    :class:`~fractions.Fraction` is made per distinct ratio, and the cells of a group share
    one pair. The covered cells are found at C speed from the rows.
    """
    fractions: dict[Ratio, Fraction] = {}
    probability, pairs = _filled_with(_pair(rest, fractions), width * len(rows))
    for cells, value in values:
        _fill(probability, pairs, cells, _pair(value, fractions), width)
    return probability, pairs, _covered(rows)


def box_tables(box_cells: Sequence[Sequence[Sequence[Cell]]],
               box_ratios: Sequence[Sequence[Ratio]], rest: Value, forced_mines: int,
               forced_safe: int, width: int, rows: Sequence[str]) -> Tables:
    """:func:`cell_tables` of a position counted by boxes (:func:`box_values`) whose
    forced mines and safe cells are given as masks over the padded grid
    (:func:`~exactmines.analysis.frontier.padded_cells`): their cells are written from the
    masks' digits, never made into cells."""
    fractions: dict[Ratio, Fraction] = {}
    probability, pairs = _filled_with(_pair(rest, fractions), width * len(rows))
    stride = width + 2
    for mask, value in ((forced_mines, _MINE), (forced_safe, _SAFE)):
        if not mask:
            continue
        pair = _pair(value, fractions)
        p = pair[0]
        for j in _bits(mask):  # padded index j: row j // stride - 1, column j % stride - 1
            i = j - width - 1 - 2 * (j // stride)
            probability[i] = p
            pairs[i] = pair
    for boxes, ratios in zip(box_cells, box_ratios, strict=True):
        for cells, ratio in zip(boxes, ratios, strict=True):
            _fill(probability, pairs, cells, _pair((ratio, verdict(ratio)), fractions), width)
    return probability, pairs, _covered(rows)


def forced_values(forced_mines: int, forced_safe: int, width: int,
                  height: int) -> list[tuple[Sequence[Cell], Value]]:
    """The forced mines and safe cells (masks over the padded grid) as groups of values,
    leaving out an empty one."""
    return [(padded_cells(mask, width, height), value)
            for mask, value in ((forced_mines, _MINE), (forced_safe, _SAFE)) if mask]


def _filled_with(pair: Pair, size: int) -> tuple[list[Fraction | None], list[Pair]]:
    """Tables of ``size`` cells, each with ``pair``."""
    return [pair[0]] * size, [pair] * size


def _fill(probability: list[Fraction | None], pairs: list[Pair], cells: Sequence[Cell],
          pair: Pair, width: int) -> None:
    p = pair[0]
    for r, c in cells:
        i = r * width + c
        probability[i] = p
        pairs[i] = pair


def _covered(rows: Sequence[str]) -> bytes:
    """A byte per cell of ``rows``, 1 where the cell is covered, found at C speed."""
    return "".join(rows).encode("latin-1", "replace").translate(_COVERED_BYTE)


def covered_indices(covered: bytes) -> list[int]:
    """The flat indices of the cells whose byte of ``covered`` (:data:`Tables`) is 1."""
    return list(compress(range(len(covered)), covered))


def _pair(value: Value, fractions: dict[Ratio, Fraction]) -> Pair:
    """``value`` with its ratio made a fraction (one per distinct ratio, in ``fractions``)."""
    ratio, verdict = value
    if ratio is None:
        return None, verdict
    found = fractions.get(ratio)
    if found is None:
        found = fractions[ratio] = fraction_of(ratio[0], ratio[1])
    return found, verdict
