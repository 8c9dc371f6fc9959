"""What the page shows beside the probabilities: the player's recommended click and why, and,
for an inconsistent position, the clues at fault.

Both use the library's public entry points: the player (:class:`~exactmines.play.strategy.Player`)
for the recommendation, the frontier and a backend's counts for the diagnosis.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from exactmines.analysis.analyze import Analysis, analyze
from exactmines.analysis.backends import Backend, ComponentCounts
from exactmines.analysis.frontier import Component, build_frontier
from exactmines.analysis.serialize import analysis_to_dict, fraction_text
from exactmines.budget import UNLIMITED, Budget
from exactmines.errors import BudgetExceeded
from exactmines.play.strategy import STRATEGIES, Player
from exactmines.position import COVERED, FLAG, Position

__all__ = ["REASONS", "Recommendation", "recommend", "recommendation_to_dict",
           "first_click", "Fault", "find_fault", "overlay", "ANALYSIS_SHARE"]

#: The share of the page's budget the analysis gets; the search for the clue at fault (an
#: inconsistent position) or for the recommended click (a consistent one) has the rest.
ANALYSIS_SHARE = 0.6

#: Why a cell is recommended, in words for the page (keys: ``certain`` and the player's
#: guess kinds).
REASONS = {
    "certain": "certainly safe",
    "first": "first click",
    "endgame": "endgame search: the click that wins most often",
    "fifty": "a forced 50/50: it must be guessed sooner or later, so now",
    "frontier": "safest (scored by what it reveals next)",
    "off_frontier": "safest (scored by what it reveals next), away from the numbers",
}


@dataclass(frozen=True, slots=True)
class Recommendation:
    """The player's next click: ``cells`` (every certainly safe cell, or the one guess),
    the kind of choice (a key of :data:`REASONS`), the guess's exact mine probability and,
    for an endgame guess, its exact chance of winning."""

    cells: tuple[tuple[int, int], ...]
    kind: str
    probability: Fraction
    win: Fraction | None = None


def recommendation_to_dict(move: Recommendation) -> dict[str, Any]:
    """JSON for the page: exact fractions as strings, the reason in words."""
    first = move.cells[0]
    return {"row": first[0], "col": first[1], "cells": [list(c) for c in move.cells],
            "kind": move.kind, "reason": REASONS[move.kind],
            "probability": fraction_text(move.probability), "win": fraction_text(move.win)}


def first_click(width: int, height: int, rule: str) -> Recommendation:
    """Before anything is revealed: a corner (most likely to open an area when only the
    cell itself is protected), or the centre when the rule protects the 3x3 around it."""
    cell = (height // 2, width // 2) if rule == "opening" else (0, 0)
    return Recommendation((cell,), "first", Fraction(0))


def recommend(position: Position, analysis: Analysis, *, budget: Budget = UNLIMITED
              ) -> tuple[Recommendation | None, str | None]:
    """The next click on ``position`` (flags trusted as mines), or ``None`` and why: every
    cell the analysis proves safe when there is one, else the player's guess and how it was
    chosen.

    Needs a consistent position with a known total and computed probabilities (the player
    reasons on exact counts). Cost: one move of the player, from scratch (no history): an
    exact analysis plus, when it guesses, its look-ahead or endgame search, whose counting
    of big components stops when ``budget`` runs out, with no recommendation.
    """
    if analysis.consistent is None:
        return None, "no recommendation: consistency not decided within the time limit"
    if analysis.consistent is False:
        return None, "no recommendation: the position is not consistent"
    if position.mines is None:
        return None, "no recommendation: the total mine count is unknown"
    if not analysis.probabilities_computed:
        return None, "no recommendation: probabilities not computed within the time limit"
    if not analysis.cells:
        return None, "nothing to click: no covered cell"
    if analysis.safe:  # the analysis proved them all: no need to ask the player
        return Recommendation(tuple(analysis.safe), "certain", Fraction(0)), None
    width = position.width
    player = Player(width, position.height, position.mines, STRATEGIES["best"])
    shown = [(r * width + c, int(ch)) for r, row in enumerate(position.rows)
             for c, ch in enumerate(row) if ch.isdigit()]
    if not shown:
        return first_click(width, position.height, "safe"), None
    player.show(shown)
    flags = sum(1 << (r * width + c) for r, c in position.flags)
    if flags:
        player.view.mark_mines(flags)
    try:
        cells, guess = player.next_clicks(budget=budget)
    except BudgetExceeded:
        return None, "no recommendation: the player's search went past its time limit"
    if not cells:
        return None, "nothing to click: every covered cell is a mine"
    if not guess:
        return Recommendation(tuple(divmod(i, width) for i in cells), "certain", Fraction(0)), None
    chosen = player.guesses[-1]
    return Recommendation((divmod(chosen.cell, width),), chosen.kind, chosen.probability,
                          chosen.win), None


@dataclass(frozen=True, slots=True)
class Fault:
    """Why a position is inconsistent: ``clues`` (revealed cells) whose numbers cannot all
    hold together (a minimal such set when it was found in time), and whether the total
    mine count is at fault (``count``)."""

    message: str
    clues: tuple[tuple[int, int], ...] = ()
    count: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"message": self.message, "clues": [list(c) for c in self.clues],
                "count": self.count}


def _clue_words(position: Position, cells: tuple[tuple[int, int], ...]) -> str:
    return ", ".join(f"the {position.char(c)} at row {c[0]}, col {c[1]}" for c in cells)


def find_fault(position: Position, engine: Backend, *,
               budget: Budget = UNLIMITED) -> Fault | None:
    """The clues (or the mine count) that make ``position`` inconsistent; ``None`` if it is
    consistent.

    A number that cannot hold on its face (more flags than it says, or too few covered
    cells) is named alone. Otherwise the component whose numbers have no layout is shrunk to
    a minimal set of clues that still have none (drop a clue, count again, keep it dropped
    if no layout appears): every clue named is needed for the contradiction. When
    ``budget`` runs out the shrinking stops and the clues kept so far are named. When every
    component has layouts but none fits the total, the count is at fault, with the range
    of totals the numbers allow. Cost: one count per clue of the failing component.
    """
    frontier = build_frontier(position)
    if frontier.contradiction:
        bad = _clues_over_their_room(position)
        if bad:
            return Fault(f"inconsistent: {frontier.contradiction}", (bad,))
        return Fault(f"inconsistent: {frontier.contradiction}", count=True)
    counts: list[ComponentCounts] = []
    for i, component in enumerate(frontier.components):
        try:
            found = engine.count(component, budget=budget)
        except BudgetExceeded:
            return None  # undecided in time: not known to be inconsistent
        if found.total == 0:
            clues = _minimal_conflict(component, engine, budget)
            cells = tuple(frontier.clue_cells[i][j] for j in clues)
            return Fault(f"inconsistent: no layout satisfies {_clue_words(position, cells)} "
                         "together", cells)
        counts.append(found)
    if frontier.mines_left is None:
        return None
    numbers = [c.mine_numbers() for c in counts]
    low = sum(min(n) for n in numbers)
    high = sum(max(n) for n in numbers) + len(frontier.outside)
    flags = len(position.flags)
    if low <= frontier.mines_left <= high and _total_fits(numbers, len(frontier.outside),
                                                          frontier.mines_left):
        return None
    return Fault(f"inconsistent: the total of {position.mines} mines does not fit; the numbers "
                 f"allow between {low + flags} and {high + flags} (flags included)", count=True)


def _total_fits(numbers: list[frozenset[int]], outside: int, left: int) -> bool:
    """Some choice of a mine number per component, plus 0..outside off the frontier,
    adds up to ``left``."""
    sums = {0}
    for allowed in numbers:
        sums = {s + k for s in sums for k in allowed if s + k <= left}
    return any(left - outside <= s <= left for s in sums)


def _clues_over_their_room(position: Position) -> tuple[int, int] | None:
    """The first number (row-major) with more flags around it than it says, or fewer
    flags and covered cells than it says."""
    for r, row in enumerate(position.rows):
        for c, ch in enumerate(row):
            if ch.isdigit():
                around = [position.char(n) for n in position.neighbours((r, c))]
                flags, covered = around.count(FLAG), around.count(COVERED)
                if flags > int(ch) or flags + covered < int(ch):
                    return (r, c)
    return None


def _minimal_conflict(component: Component, engine: Backend,
                      budget: Budget) -> list[int]:
    """Indices of a minimal set of the component's constraints with no layout together
    (deletion: each constraint in turn is left out for good if the rest still fail)."""
    keep = list(range(len(component.constraints)))
    for j in list(keep):
        trial = [k for k in keep if k != j]
        if not trial:
            continue
        try:
            counts = engine.count(Component(component.sizes,
                                            tuple(component.constraints[k] for k in trial)),
                                  budget=budget)
        except BudgetExceeded:
            break
        if counts.total == 0:
            keep = trial
    return keep


def overlay(position: Position, engine: Backend, budget: Budget) -> dict[str, Any]:
    """What the page draws over a position, within one ``budget``: the analysis
    (:data:`ANALYSIS_SHARE` of it), then with the rest the clues at fault when the position
    is inconsistent, else the player's recommended click. The JSON of ``POST
    /api/overlay``: ``analysis`` (``analyze --format json``'s), ``fault`` (``null`` unless
    inconsistent and found), ``recommendation`` and ``note`` (why there is none).

    Each stage stops when its part runs out and says so (a note, an unfinished analysis, no
    recommendation), so the whole returns within the budget plus what a stage cannot
    interrupt."""
    result = analyze(position, backend=engine, budget=budget.share(ANALYSIS_SHARE))
    fault = find_fault(position, engine, budget=budget) if result.consistent is False else None
    move, note = recommend(position, result, budget=budget)
    return {"analysis": analysis_to_dict(result),
            "recommendation": None if move is None else recommendation_to_dict(move),
            "note": note, "fault": None if fault is None else fault.to_dict()}
