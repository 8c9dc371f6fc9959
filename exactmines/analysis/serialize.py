"""An :class:`~exactmines.analysis.analyze.Analysis` as the JSON object of ``analyze --format
json``: the contract that the command line, batch rows and the web API all print. Exact:
probabilities are fraction strings, counts decimal strings; no floats but the timing."""

from __future__ import annotations

import sys
from fractions import Fraction
from typing import Any

from exactmines.analysis.analyze import Analysis

__all__ = ["analysis_to_dict", "fraction_text", "decimal"]


def decimal(n: int) -> str:
    """``str(n)`` for ints of any size: Python refuses more than 4300 digits by default, and
    a 200x200 board has layout counts far longer than that."""
    limit = sys.get_int_max_str_digits()
    if limit == 0 or n.bit_length() < limit * 3:  # 3 bits < one decimal digit: surely fits
        return str(n)
    sys.set_int_max_str_digits(0)
    try:
        return str(n)
    finally:
        sys.set_int_max_str_digits(limit)


def fraction_text(p: Fraction | None) -> str | None:
    """``str(Fraction)`` in lowest terms (``"0"``, ``"1"``, ``"3/17"``), or ``None``."""
    if p is None:
        return None
    return decimal(p.numerator) if p.denominator == 1 else \
        f"{decimal(p.numerator)}/{decimal(p.denominator)}"


def analysis_to_dict(result: Analysis, file: str | None = None, *,
                     cells: bool = True) -> dict[str, Any]:
    """The JSON object of docs/contract.md §3 (with the shape, counts of verdicts, notes and
    timing); without its ``"cells"`` when ``cells`` is false (a caller that writes them in
    another form: each cell's fraction costs its digits)."""
    position = result.position
    out: dict[str, Any] = {}
    if file is not None:
        out["file"] = file
    out.update(
        width=position.width,
        height=position.height,
        mines=position.mines,
        consistent=result.consistent,
        layouts=None if result.layouts is None else decimal(result.layouts),
        unique=result.unique,
        probabilities_computed=result.probabilities_computed,
        verdicts_complete=result.verdicts_complete,
        backend=result.backend,
        components=result.components,
        frontier_cells=result.frontier_cells,
        largest_component=result.largest_component,
        safe=len(result.safe),
        mine=len(result.mines),
        notes=list(result.notes),
        seconds=round(result.seconds, 6),
    )
    if cells:
        out["cells"] = [{"row": c.row, "col": c.col, "probability": fraction_text(c.probability),
                         "verdict": c.verdict} for c in result.cells]
    return out
