"""Analysis -> JSON-ready dicts and text for people. Floats appear only here, for display."""

from __future__ import annotations

import sys
from fractions import Fraction
from typing import Any

from .analysis import Analysis

__all__ = ["analysis_to_dict", "analysis_to_text", "fraction_text", "percent", "decimal"]

#: Boards with more cells than this are summarised in text, not drawn.
MAX_DRAWN_CELLS = 6000


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


def percent(p: Fraction) -> str:
    """A probability for people: ``"17.6%"``; never rounds a non-zero to 0 or a non-one to 100."""
    value = float(p) * 100
    if 0 < value < 0.1:
        return "<0.1%"
    if 99.9 < value < 100:
        return ">99.9%"
    return f"{value:.1f}%"


def analysis_to_dict(result: Analysis, file: str | None = None) -> dict[str, Any]:
    """The SPEC §3 JSON object (extra keys: shape, counts of verdicts, notes, timing)."""
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
        cells=[
            {"row": c.row, "col": c.col, "probability": fraction_text(c.probability),
             "verdict": c.verdict}
            for c in result.cells
        ],
    )
    return out


def _grid(result: Analysis) -> list[str]:
    """The board, three characters a cell: numbers, F flags, s safe, * mine, % for the rest."""
    position = result.position
    by_cell = {c.cell: c for c in result.cells}
    lines = ["     " + "".join(f"{c:>3}" for c in range(position.width))]
    for r, row in enumerate(position.rows):
        out = []
        for c, ch in enumerate(row):
            cell = by_cell.get((r, c))
            if cell is None:
                out.append(f"[bold]{ch:>3}[/]" if ch != "0" else "  [dim].[/]")
            elif cell.verdict == "safe":
                out.append("  [bold green]s[/]")
            elif cell.verdict == "mine":
                out.append("  [bold red]*[/]")
            elif cell.probability is None:
                out.append("  [dim]?[/]")
            else:
                shown = min(max(round(float(cell.probability) * 100), 1), 99)
                out.append(f"[yellow]{shown:>3}[/]")
        lines.append(f"{r:>4} " + "".join(out))
    return lines


def analysis_to_text(result: Analysis, file: str | None = None) -> str:
    """A report a person reads at a glance (rich markup; the console strips it if plain)."""
    position = result.position
    mines = "unknown mines" if position.mines is None else f"{position.mines} mines"
    title = f"{file + ': ' if file else ''}{position.width}x{position.height}, {mines}"
    lines = [f"[bold]{title}[/]"]
    if result.consistent is False:
        lines.append("[bold red]inconsistent[/]: no layout of mines fits this position")
        lines += [f"  {note}" for note in result.notes]
        return "\n".join(lines)
    layouts = ("not counted" if result.layouts is None else f"{result.layouts:,}"
               if result.layouts.bit_length() < 12_000 else decimal(result.layouts))
    if result.consistent is None:
        lines.append(f"[bold yellow]consistency not decided[/] within the time limit, "
                     f"layouts: {layouts}")
    else:
        lines.append(f"consistent, layouts: {layouts}, "
                     f"{'unique' if result.unique else 'not unique'}")
    if not result.verdicts_complete:
        lines.append("[bold yellow]verdicts incomplete[/]: the time limit came first; every "
                     "safe and mine shown is proved, some unknown cells may be either")
    plural = "" if result.components == 1 else "s"
    lines.append(f"backend {result.backend}: {result.components} component{plural}, "
                 f"{result.frontier_cells} frontier cells (largest {result.largest_component}), "
                 f"{result.seconds * 1000:.1f} ms")
    lines += [f"[yellow]note[/]: {note}" for note in result.notes]
    if position.width * position.height <= MAX_DRAWN_CELLS:
        lines.append("")
        lines += _grid(result)
        lines.append("legend: digits revealed, F flag, [green]s[/] safe, [red]*[/] mine, "
                     "other covered cells: mine probability in %")
    safe, mine_cells = result.safe, result.mines
    lines.append("")
    lines.append(f"safe: {len(safe)}" + (f"  {_cells(safe)}" if safe else ""))
    lines.append(f"mines: {len(mine_cells)}" + (f"  {_cells(mine_cells)}" if mine_cells else ""))
    open_cells = [c for c in result.cells if c.verdict == "unknown" and c.probability is not None]
    if open_cells and not safe:
        best = min(open_cells, key=lambda c: (c.probability, c.row, c.col))
        assert best.probability is not None
        lines.append(f"safest guess: ({best.row},{best.col}) mine probability "
                     f"{best.probability} = {percent(best.probability)}")
    return "\n".join(lines)


def _cells(cells: list[tuple[int, int]], limit: int = 12) -> str:
    shown = " ".join(f"({r},{c})" for r, c in cells[:limit])
    return shown + (f" ... (+{len(cells) - limit})" if len(cells) > limit else "")
