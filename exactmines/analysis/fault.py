"""Why a position is inconsistent: the clues (or the mine count) at fault, a minimal set of
clues that cannot hold together.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from exactmines.analysis.backends import Backend, ComponentCounts
from exactmines.analysis.combine import feasible_sums, fits
from exactmines.analysis.frontier import Component, build_frontier
from exactmines.budget import UNLIMITED, Budget
from exactmines.errors import BudgetExceeded
from exactmines.position import Position
from exactmines.words import plural

__all__ = ["Fault", "find_fault"]


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
    return ", ".join(f"the {position.number(c)} at {position.topology.cell_text(c)}"
                     for c in cells)


def find_fault(position: Position, engine: Backend, *,
               budget: Budget = UNLIMITED) -> Fault | None:
    """The clues (or the mine count) that make ``position`` inconsistent; ``None`` if it is
    consistent.

    A number that cannot hold on its face (more flags than it says, or too few covered cells:
    the frontier's own check) is named alone. Otherwise the component whose numbers have no
    layout is shrunk to a minimal set of clues that still have none (drop a clue, count again,
    keep it dropped if no layout appears): every clue named is needed for the contradiction.
    When ``budget`` runs out the shrinking stops and the clues kept so far are named. When every
    component has layouts but none fits the total, the count is at fault, with the range of
    totals the numbers allow. Cost: one count per clue of the failing component.
    """
    frontier = build_frontier(position)
    if frontier.contradiction:
        message = f"inconsistent: {frontier.contradiction}"
        if frontier.contradiction_at is not None:
            return Fault(message, (frontier.contradiction_at,))
        return Fault(message, count=True)
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
    left, total = frontier.mines_left, position.mines
    if left is None or total is None:
        return None
    numbers = [c.mine_numbers() for c in counts]
    outside = len(frontier.outside)
    if fits(feasible_sums(numbers), left - outside, left):
        return None
    low = sum(min(n) for n in numbers)
    high = sum(max(n) for n in numbers) + outside
    flags = len(position.flags)
    return Fault(f"inconsistent: the total of {plural(total, 'mine')} does not fit; "
                 f"the numbers allow between {low + flags} and {high + flags} (flags included)",
                 count=True)


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
