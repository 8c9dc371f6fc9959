"""The fewest clicks that clear a board whose every mine is known (the exact ZiNi), with a
click sequence that does it and a proof, or under a time limit the best sequence found and
a proved lower bound.

The heuristics (greedy, openings first, randomized runs) give the first sequence, each
part's clicks taken from the run that clears it in fewest; each independent part of the board
(:func:`~exactmines.efficiency.model.parts`) is then solved exactly, by MaxSAT
(:mod:`exactmines.efficiency.maxsat`, the default) or by the 0/1 programme of
:mod:`exactmines.efficiency.model` (``method="milp"``), and the parts' clicks put
together. The sequence answered has been played by the game's rules and clears the board.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from exactmines.budget import UNLIMITED, Budget
from exactmines.efficiency.greedy import heuristic_runs
from exactmines.efficiency.killable import solve_part_bounded
from exactmines.efficiency.layout import Click, Layout, tidy
from exactmines.efficiency.model import Part, parts, solve_part, solver_name
from exactmines.position import Board, Cell

__all__ = ["Zini", "fewest_clicks"]

#: Seconds at most for the heuristics' runs (a twentieth of a time limit below 2 s): the
#: exact search finds its own sequences, the runs are its first bound and the fallback.
#: A tenth of a second makes about 200 runs on a beginner board, 70 on an intermediate
#: and 30 on an expert one (processor time; a loaded machine gives it a third).
_HEURISTIC = 0.1


@dataclass(frozen=True)
class Zini:
    """The answer of :func:`fewest_clicks`.

    Attributes
    ----------
    clicks:
        How many clicks ``sequence`` makes (flags and chords count one each).
    lower_bound:
        No sequence clears the board in fewer clicks (proved).
    optimal:
        ``clicks == lower_bound``: no sequence is shorter.
    bbbv:
        The board's 3BV (clicks without flags or chords).
    greedy:
        The clicks of the best heuristic sequence (the starting bound, and the answer
        when the solver finds nothing shorter in time).
    heuristic:
        Which heuristic gave it: ``"greedy"`` (plain or openings first) or
        ``"randomized"`` (best of seeded random runs).
    sequence:
        ``(kind, (row, col))`` with kind ``"left"``, ``"flag"`` or ``"chord"``, in order.
    start:
        The first click imposed, or ``None``.
    parts:
        How many independent parts the board was cut into.
    solver:
        The solver used: ``"RC2"`` (PySAT's MaxSAT, the default), or with
        ``method="milp"`` ``"HiGHS"`` (highspy installed) or ``"CBC"`` (PuLP's).
    """

    clicks: int
    lower_bound: int
    optimal: bool
    bbbv: int
    greedy: int
    sequence: tuple[tuple[str, Cell], ...]
    start: Cell | None
    parts: int
    heuristic: str = "greedy"
    solver: str = "HiGHS"

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (``docs/contract.md``)."""
        return {"clicks": self.clicks, "optimal": self.optimal,
                "lower_bound": self.lower_bound, "bbbv": self.bbbv, "greedy": self.greedy,
                "start": None if self.start is None else list(self.start),
                "heuristic": self.heuristic, "parts": self.parts, "solver": self.solver,
                "sequence": [[kind, r, c] for kind, (r, c) in self.sequence]}


def fewest_clicks(board: Board, start: Cell | None = None, *,
                  budget: Budget = UNLIMITED, method: str = "maxsat") -> Zini:
    """The fewest clicks that clear ``board`` (every mine known), beginning with a left
    click at ``start`` when given. ``method``: ``"maxsat"`` (RC2) or ``"milp"`` (HiGHS, or
    CBC without highspy) for the parts' exact search.

    Under ``budget`` the answer is the best sequence found in time, with ``optimal`` false
    unless the proved lower bound meets it. Cost: the heuristics' runs (at most 0.1 s),
    then one exact search per part: a beginner board is proved in a fraction of a second,
    most intermediate boards in seconds; expert boards rarely within ten.

    Raises
    ------
    InputError
        When ``start`` is off the board or on a mine.
    """
    layout = Layout.of(board)
    first = None if start is None else layout.safe_start(start, "--start")
    runs = heuristic_runs(
        layout, first, seconds=min(_HEURISTIC, budget.remaining() / 20) if budget.limited
        else _HEURISTIC)
    greedy, heuristic = min(runs, key=lambda run: len(run[0]))
    pieces = parts(layout)
    owner = _owners(layout, pieces)
    clicks: list[Click] = [] if first is None else [("left", first)]
    lower = 0
    for n, part in enumerate(pieces):
        # Each part's clicks from the run that clears it in fewest: the parts are
        # independent, so together they clear the board in no more than any one run.
        mine = min(([c for c in run if owner[c[1]] == n] for run, _ in runs), key=len)
        solve = solve_part_bounded if method == "maxsat" else solve_part
        answer = solve(layout, part, first,
                       budget.share(1 / (len(pieces) - n)) if budget.limited else budget,
                       incumbent=mine)
        clicks += [c for c in answer.clicks if c != ("left", first)]
        lower += answer.lower_bound
    if first is not None and not any(first in part.numbered
                                     or layout.opening_of[first] in part.openings
                                     for part in pieces):
        lower += 1  # pragma: no cover - every safe cell is in some part
    exact = tidy(layout, clicks)
    best = exact if len(exact) <= len(greedy) else greedy
    lower = min(lower, len(best))  # pragma: defensive; equal when the parts are proved
    return Zini(len(best), lower, len(best) == lower, layout.bbbv, len(greedy),
                tuple((kind, layout.cell(i)) for kind, i in best), start, len(pieces),
                heuristic, "RC2" if method == "maxsat" else solver_name())


def _owners(layout: Layout, pieces: list[Part]) -> list[int]:
    """For each cell, the part whose clicks it takes (-1 for none): an opening's zeros, a
    number, a mine beside a number (parts join the numbers around one mine)."""
    owner = [-1] * len(layout.numbers)
    for n, part in enumerate(pieces):
        for k in part.openings:
            for i in layout.openings[k][0]:
                owner[i] = n
        for d in part.numbered:
            owner[d] = n
            for i in layout.neighbours[d]:
                if layout.mine[i]:
                    owner[i] = n
    return owner
