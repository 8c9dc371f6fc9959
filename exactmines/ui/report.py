"""Analysis -> text for people. Floats appear only here, for display."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # cheap to import: the CLI's every command uses plural()
    from exactmines.analysis.analyze import Analysis
    from exactmines.play.games import PlayResult
    from exactmines.position import Board, Cell
    from exactmines.solvability.check import Solvability
    from exactmines.solvability.survey import SurveyResult

__all__ = ["analysis_to_text", "grouped", "percent", "plural", "solvable_to_text", "survey_to_text",
           "play_summary", "play_to_text", "batch_summary", "batch_to_text"]

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


def grouped(n: int) -> str:
    """A count for people: ``1,234,567``, or its plain digits when it is too long for Python
    to group (thousands of digits, which no one reads by the group anyway)."""
    from exactmines.analysis.serialize import decimal

    return f"{n:,}" if n.bit_length() < 12_000 else decimal(n)


def analysis_to_text(result: Analysis, file: str | None = None) -> str:
    """A report a person reads at a glance (rich markup; the console strips it if plain)."""
    position = result.position
    mines = "unknown mines" if position.mines is None else plural(position.mines, "mine")
    title = f"{file + ': ' if file else ''}{position.width}x{position.height}, {mines}"
    lines = [f"[bold]{title}[/]"]
    if result.consistent is False:
        lines.append("[bold red]inconsistent[/]: no layout of mines fits this position")
        lines += [f"  {note}" for note in result.notes]
        return "\n".join(lines)
    layouts = "not counted" if result.layouts is None else grouped(result.layouts)
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


# ---------------------------------------------------------------------------------------
# Summaries of long runs (survey, play, batch) and of the no-guess check


def _rate_line(successes: int, trials: int, noun: str, verb: str) -> str:
    from exactmines.stats import wilson_interval

    low, high = wilson_interval(successes, trials)
    return (f"{successes} of {plural(trials, noun)} {verb} = {100 * successes / trials:.2f} % "
            f"(95 % CI {100 * low:.2f}-{100 * high:.2f} %)")


def _at(cell: tuple[int, int] | None) -> str:
    return "" if cell is None else f" at {cell[0]},{cell[1]}"


def solvable_to_text(result: Solvability, file: str, board: Board, cell: Cell,
                     use_count: bool, stuck_file: str | None) -> str:
    """What ``exactmines solvable`` prints: the board, the verdict, and where it stopped."""
    lines = [f"{file}: {board.width}x{board.height}, {plural(board.mines, 'mine')}, first "
             f"click {cell[0]},{cell[1]}{'' if use_count else ', without the mine count'}"]
    if result.solvable:
        lines.append(f"solvable: all {plural(result.safe_cells, 'safe cell')} revealed in "
                     f"{plural(result.steps, 'round')} "
                     f"({plural(result.exact_steps, 'exact step')}, "
                     f"{plural(result.count_deductions, 'cell')} proved by the count)")
        return "\n".join(lines)
    lines.append(f"not solvable: stuck after revealing {result.revealed} of "
                 f"{plural(result.safe_cells, 'safe cell')} "
                 f"({plural(result.mines_found, 'mine')} proved)")
    if result.stuck is not None:
        lines += result.stuck.rows
    if stuck_file is not None:
        lines.append(f"stuck position written to {stuck_file}")
    return "\n".join(lines)


def survey_to_text(result: SurveyResult, out: str | None) -> str:
    """What ``exactmines survey`` prints: the solvable share with its interval, the speed."""
    s = result.settings
    lines = [f"{s.width}x{s.height}/{s.mines}, {s.start}{_at(s.at)}, seed {s.seed}"
             f"{'' if s.use_count else ', without the mine count'}: "
             + _rate_line(result.solvable, result.boards, "board", "solvable")]
    if result.without_zero:
        lines.append(f"{plural(result.without_zero, 'board')} had no zero cell (counted as "
                     "not solvable)")
    if result.checked:
        earlier = result.boards - result.checked
        lines.append(f"{result.seconds:.1f} s, {1000 * result.seconds / result.checked:.3f} ms "
                     "per board" + (f" (the {result.checked} checked now; {earlier} read from "
                                    f"{out})" if earlier else ""))
    return "\n".join(lines)


def play_summary(result: PlayResult, out: str | None) -> dict[str, Any]:
    """``exactmines play --format json``: the result, the published rate for these rules,
    and the results file."""
    from exactmines.play.games import published_rate

    summary = result.to_dict()
    published = published_rate(result.settings)
    summary["published"] = (None if published is None else
                            {"win_rate": published[0], "source": published[1]})
    if out is not None:
        summary["out"] = out
    return summary


def play_to_text(summary: dict[str, Any]) -> str:
    """What ``exactmines play`` prints, from :func:`play_summary`."""
    s = summary
    lines = [f"{s['width']}x{s['height']}/{s['mines']}, {s['start']} at {s['at'][0]},"
             f"{s['at'][1]}, seed {s['seed']}, strategy {s['strategy']}: "
             + _rate_line(s["wins"], s["games"], "game", "won")]
    if s["published"] is not None:
        lines.append(f"published: {100 * s['published']['win_rate']:.2f} % "
                     f"({s['published']['source']})")
    lines.append(f"{s['guesses_per_game']:.2f} guesses per game, "
                 f"{s['cpu_ms_per_game']:.1f} CPU ms per game, {s['seconds']:.1f} s")
    risk = s["risk_per_game"]
    if risk:
        lines.append("risk taken per game (sum of the mine probabilities clicked): "
                     + ", ".join(f"{kind.replace('_', '-')} {value:.4f}"
                                 for kind, value in risk.items() if value)
                     + f"; in all {sum(risk.values()):.4f} (expected losses)")
    return "\n".join(lines)


def batch_summary(rows: list[dict[str, Any]], out: str) -> dict[str, Any]:
    """``exactmines batch --format json``: counts over the rows of a run."""
    answered = [r for r in rows if "error" not in r]
    return {
        "files": len(rows), "out": out, "errors": len(rows) - len(answered),
        "consistent": sum(r["consistent"] is True for r in answered),
        "inconsistent": sum(r["consistent"] is False for r in answered),
        "undecided": sum(r["consistent"] is None for r in answered),
        "verdicts_incomplete": sum(not r.get("verdicts_complete", True) for r in answered),
        "unique": sum(r["unique"] for r in answered),
        "not_counted": sum(not r["probabilities_computed"] for r in answered),
        "seconds": round(sum(r["seconds"] for r in answered), 6),
    }


def batch_to_text(summary: dict[str, Any]) -> str:
    """What ``exactmines batch`` prints, from :func:`batch_summary`."""
    s = summary
    lines = [f"{plural(s['files'], 'position')} -> {s['out']}: {s['consistent']} consistent "
             f"({s['unique']} unique), {s['inconsistent']} inconsistent, {s['errors']} "
             f"unreadable; {s['seconds']:.2f} s of analysis"]
    if s["not_counted"]:
        lines.append(f"{plural(s['not_counted'], 'position')} went past --time-limit: "
                     "probabilities not computed")
    if s["verdicts_incomplete"]:
        lines.append(f"{plural(s['verdicts_incomplete'], 'position')} went past it again "
                     f"while proving verdicts ({s['undecided']} with consistency undecided): "
                     "their unproved cells are unknown")
    return "\n".join(lines)
