"""Analysis -> text for people. Floats appear only here, for display."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # cheap to import: the CLI's every command uses plural()
    from exactmines.analysis.analyze import Analysis

__all__ = ["analysis_to_text", "percent", "plural"]

#: Boards with more cells than this are summarised in text, not drawn.
MAX_DRAWN_CELLS = 6000


def plural(count: int, word: str, words: str | None = None) -> str:
    """``"1 mine"``, ``"0 mines"``, ``"2 boxes"`` (give ``words`` where ``s`` is wrong)."""
    return f"{count} {word if count == 1 else words or word + 's'}"


def percent(p: Fraction) -> str:
    """A probability for people: ``"17.6%"``; never rounds a non-zero to 0 or a non-one to 100."""
    value = float(p) * 100
    if 0 < value < 0.1:
        return "<0.1%"
    if 99.9 < value < 100:
        return ">99.9%"
    return f"{value:.1f}%"


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
    from exactmines.analysis.serialize import decimal

    position = result.position
    mines = "unknown mines" if position.mines is None else plural(position.mines, "mine")
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
    lines.append(f"backend {result.backend}: {plural(result.components, 'component')}, "
                 f"{result.frontier_cells} frontier cells (largest {result.largest_component}), "
                 f"{result.seconds * 1000:.1f} ms")
    lines += [f"[yellow]note[/]: {note}" for note in result.notes]
    if position.width * position.height <= MAX_DRAWN_CELLS:
        lines.append("")
        lines += _grid(result)
        lines.append("legend: digits revealed, F flag, [green]s[/] safe, [red]*[/] mine, "
                     "other covered cells: mine probability in %")
    else:
        lines.append(f"(the board is not drawn: {plural(position.width * position.height, 'cell')}"
                     f", more than {MAX_DRAWN_CELLS:,}; --format json or --image show every "
                     "cell)")
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
