"""``exactmines analyze --explain``: what the page shows beside the probabilities, on the
command line. For an inconsistent position, the clues at fault
(:func:`~exactmines.analysis.fault.find_fault`); for a consistent one, the player's
recommended click with its reason, the best guesses with their scores, the dead cells, the
50/50s and the endgame's odds (:func:`~exactmines.play.advice.advise`). The JSON is the
overlay's (``POST /api/overlay``) less its analysis: the same keys, the same values.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rich.markup import escape

from exactmines.analysis.analyze import Analysis
from exactmines.analysis.backends import Backend
from exactmines.analysis.fault import Fault, find_fault
from exactmines.analysis.serialize import analysis_to_dict, fraction_text
from exactmines.budget import Budget
from exactmines.play.advice import REASONS, Advice, CandidateRow, advise
from exactmines.play.shared import SharedCounts
from exactmines.position import Position
from exactmines.ui.report import analysis_to_text
from exactmines.words import plural

__all__ = ["Explained", "explain", "explained_to_dict", "explained_to_text", "explain_dict",
           "explain_text"]


@dataclass(frozen=True, slots=True)
class Explained:
    """An analysed position's explanation: the fault (``None`` unless it is inconsistent
    and the clues at fault were found in time) and the advice."""

    position: Position
    fault: Fault | None
    advice: Advice


def explain_dict(result: Analysis, file: str | None, engine: Backend, budget: Budget,
                 counts: SharedCounts | None = None) -> dict[str, Any]:
    """``analyze --explain --format json``: the analysis's JSON with its explanation under
    ``"explain"`` (:func:`explained_to_dict`), made now, within ``budget``."""
    explained = explain(result.position, result, engine, budget, counts)
    return {**analysis_to_dict(result, file), "explain": explained_to_dict(explained)}


def explain_text(result: Analysis, file: str | None, engine: Backend, budget: Budget,
                 counts: SharedCounts | None = None) -> str:
    """``analyze --explain``: the analysis's report followed by its explanation
    (:func:`explained_to_text`), made now, within ``budget``."""
    return (analysis_to_text(result, file) + "\n"
            + explained_to_text(explain(result.position, result, engine, budget, counts)))


def explain(position: Position, result: Analysis, engine: Backend, budget: Budget,
            counts: SharedCounts | None = None) -> Explained:
    """The fault of an inconsistent ``position`` and the advice on it, in what is left of
    ``budget`` after its analysis ``result`` (as the page's overlay does): the fault is
    looked for only when the analysis found the position inconsistent; the advice says why
    there is none when it needs what the analysis did not compute in time.

    ``counts``: the :class:`SharedCounts` the analysis was made with (``analyze(...,
    cache=counts)``), so that the advice counts no component again."""
    fault = find_fault(position, engine, budget=budget) if result.consistent is False else None
    return Explained(position, fault, advise(position, result, budget=budget, counts=counts))


def explained_to_dict(explained: Explained) -> dict[str, Any]:
    """The ``"explain"`` object of ``analyze --explain --format json``: ``"fault"`` then the
    advice's keys, as the overlay writes them (docs/contract.md)."""
    fault = explained.fault
    return {"fault": None if fault is None else fault.to_dict(), **explained.advice.to_dict()}


def explained_to_text(explained: Explained) -> str:
    """The explanation as lines a person reads (rich markup, as the analysis report)."""
    where = explained.position.topology.cell_text
    lines: list[str] = []
    fault = explained.fault
    if fault is not None:
        lines.append(f"[bold]at fault[/]: {escape(fault.message)}")
        if fault.clues:
            lines.append(f"  {plural(len(fault.clues), 'clue')}: "
                         + "; ".join(escape(where(c)) for c in fault.clues))
    advice = explained.advice
    move = advice.recommendation
    if move is None:
        lines.append(f"[bold]recommended click[/]: none ({escape(advice.note or 'none')})")
    else:
        text = (f"[bold]recommended click[/]: {escape(where(move.cells[0]))} -- "
                f"{REASONS[move.kind]}")
        if move.kind == "certain" and len(move.cells) > 1:
            text += f" (and {plural(len(move.cells) - 1, 'more certainly safe cell')})"
        if move.kind not in ("certain", "first"):
            text += f", mine probability {fraction_text(move.probability)}"
        lines.append(text)
    odds = advice.endgame
    if odds is not None:
        if odds.win is None:
            lines.append(f"chance to win: {odds.note}")
        else:
            scope = "" if odds.whole else " in its isolated region"
            lines.append(f"chance to win with best play: {fraction_text(odds.win)}, exact over "
                         f"{plural(odds.layouts or 0, 'layout', fmt=',')}{scope} (endgame "
                         "search)")
    if advice.candidates:
        lines.append("best guesses, as the player ranks them (mine: exact probability; safe "
                     "next: the chance it is safe and leaves a certainly safe cell; score: what "
                     "the player ranks by):")
        lines += [_candidate_line(row, where) for row in advice.candidates]
    if advice.dead:
        lines.append(f"{plural(len(advice.dead), 'dead cell')} (opening one tells nothing): "
                     + "; ".join(escape(where(c)) for c in advice.dead))
    for group in advice.fifties:
        lines.append("50/50 no click can resolve: "
                     + " and ".join(escape(where(c)) for c in group))
    return "\n".join(lines)


def _candidate_line(row: CandidateRow, where: Any) -> str:
    mark = ">" if row.chosen else " "
    text = (f"  {mark} {escape(where(row.cell))}: mine {fraction_text(row.probability)}, "
            f"safe next {fraction_text(row.progress)}, score {fraction_text(row.score)}")
    if row.win is not None:
        text += f", win {fraction_text(row.win)}"
    if not row.considered:
        text += " (below the player's cut: never chosen)"
    return text
