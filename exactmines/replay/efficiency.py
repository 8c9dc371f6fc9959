"""A recorded game's clicks against the fewest that clear its board (the exact ZiNi of
:mod:`exactmines.efficiency.zini`), and the clicks it wasted.

The player's clicks are ms_toollib's counts of every click (left, right, both buttons),
useful or not. Wasted: the clicks that changed nothing (a click on an open cell, a chord
whose flags do not match: counted as the clicks ms_toollib counts less the events that
changed the board), and the flags no chord used (a flag put and never beside a chord's
number while it stood, and each flag taken off again, with the click that took it off).
Efficiency is ZiNi / clicks, exact when the ZiNi is proved within the time limit, else
between the proved lower bound's ratio and the best sequence's.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from exactmines.analysis.serialize import fraction_text
from exactmines.budget import UNLIMITED, Budget
from exactmines.efficiency.zini import fewest_clicks
from exactmines.io.replays import Replay

__all__ = ["Efficiency", "game_efficiency"]


@dataclass(frozen=True)
class Efficiency:
    """A game's efficiency (see the module).

    Attributes
    ----------
    clicks:
        Every click of the player (ms_toollib's left + right + double).
    zini, zini_lower_bound, zini_optimal:
        The fewest clicks found that clear the board, a proved lower bound, and whether
        they meet.
    changed_nothing:
        Clicks that changed nothing on the board.
    flags_unused:
        Clicks on flags no chord used (flags put and never used, flags taken off and the
        clicks that took them off).
    solver:
        The solver of the ZiNi (:attr:`~exactmines.efficiency.zini.Zini.solver`).
    sequence:
        The ``zini`` clicks that clear the board, ``(kind, (row, col))`` in order (kind
        ``"left"``, ``"flag"`` or ``"chord"``), as ``exactmines zini`` gives them.
    """

    clicks: int
    zini: int
    zini_lower_bound: int
    zini_optimal: bool
    changed_nothing: int
    flags_unused: int
    solver: str
    sequence: tuple[tuple[str, tuple[int, int]], ...] = ()

    @property
    def bounds(self) -> tuple[Fraction, Fraction] | None:
        """ZiNi / clicks: the lowest and highest it can be (equal when the ZiNi is proved);
        ``None`` for a game of no clicks."""
        if not self.clicks:
            return None
        return Fraction(self.zini_lower_bound, self.clicks), Fraction(self.zini, self.clicks)

    def to_dict(self) -> dict[str, Any]:
        """The ``efficiency`` object of ``replay --format json`` (docs/contract.md)."""
        bounds = self.bounds
        exact = bounds[0] if bounds and self.zini_optimal else None
        return {"clicks": self.clicks, "zini": self.zini,
                "zini_lower_bound": self.zini_lower_bound, "zini_optimal": self.zini_optimal,
                "efficiency": fraction_text(exact),
                "efficiency_bounds": None if bounds is None else
                [fraction_text(bounds[0]), fraction_text(bounds[1])],
                "changed_nothing": self.changed_nothing, "flags_unused": self.flags_unused,
                "wasted": self.changed_nothing + self.flags_unused, "solver": self.solver,
                "sequence": [[kind, r, c] for kind, (r, c) in self.sequence]}


def unused_flags(replay: Replay) -> int:
    """The flag clicks no chord used: each flag put that stood beside no chord's number
    before it was taken off or the game ended, and each click that took one off."""
    standing: dict[tuple[int, int], bool] = {}  # flag -> used by a chord since put
    wasted = 0
    for event in replay.events:
        if event.kind == "right":
            if event.cell in standing:
                wasted += 1 + (not standing.pop(event.cell))
            else:
                standing[event.cell] = False
        elif event.kind == "chord":
            r, c = event.cell
            for cell in standing:
                if max(abs(cell[0] - r), abs(cell[1] - c)) == 1:
                    standing[cell] = True
    return wasted + sum(not used for used in standing.values())


def game_efficiency(replay: Replay, *, budget: Budget = UNLIMITED) -> Efficiency:
    """The game's :class:`Efficiency`; the ZiNi is solved within ``budget`` (its bounds
    when the budget runs out). Cost: one ``exactmines zini`` of the board."""
    figures = replay.figures
    clicks = figures.left + figures.right + figures.double
    answer = fewest_clicks(replay.board, budget=budget)
    return Efficiency(clicks, answer.clicks, answer.lower_bound, answer.optimal,
                      max(clicks - len(replay.events), 0), unused_flags(replay),
                      answer.solver, answer.sequence)
