"""What the page (and ``analyze --explain``) shows beside the probabilities: the player's
recommended click and why, the best guesses with their scores, dead cells, 50/50s, the
endgame's win probability (an inconsistent position's clues at fault:
:mod:`exactmines.analysis.fault`).

All of it comes from the library's own code: the player (:class:`~exactmines.play.strategy.
Player`, whose :meth:`~exactmines.play.strategy.Player.explain` runs the steps of its next
move without playing it) for the advice, so that the page and ``exactmines play`` agree.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from exactmines.analysis.analyze import Analysis
from exactmines.analysis.serialize import fraction_text
from exactmines.budget import UNLIMITED, Budget
from exactmines.errors import BudgetExceeded, TooLarge
from exactmines.play.shared import SharedCounts
from exactmines.play.strategy import STRATEGIES, Candidate, Explanation, Player
from exactmines.position import COVERED, Cell, Position, indices_of
from exactmines.words import plural

__all__ = ["REASONS", "CANDIDATES", "Recommendation", "recommendation_to_dict", "first_click",
           "CandidateRow", "EndgameOdds", "Advice", "advise", "avoid_flags"]

#: Why a cell is recommended, in words for the page (keys: ``certain`` and the player's
#: guess kinds).
REASONS = {
    "certain": "certainly safe",
    "first": "first click",
    "endgame": "endgame search: the click that wins most often",
    "fifty": "a forced 50/50: it must be guessed sooner or later, so now",
    "frontier": "safest (scored by what it reveals next)",
    "off_frontier": "safest (scored by what it reveals next), away from the numbers",
    "unflagged": "the best guess you have not flagged (the player's choice is flagged)",
}

#: How many guesses the page lists.
CANDIDATES = 5


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


@dataclass(frozen=True, slots=True)
class CandidateRow:
    """One guess of the page's list: the cell, its exact mine probability, its chance of
    leaving a certainly safe cell (``progress``), the strategy's score (``score``: the
    secondary safety plus the progress weight times ``progress``, times the 50/50 gain;
    ``living``: it can show more than one value; ``opening``: the chance it shows 0), its
    exact chance of winning with best play after it when the endgame search ran over it
    (``win``), whether it is the click recommended (``chosen``) and whether the strategy
    scores it at all (``considered``)."""

    cell: Cell
    probability: Fraction
    progress: Fraction
    score: Fraction
    living: bool
    opening: Fraction
    win: Fraction | None
    chosen: bool
    considered: bool

    def to_dict(self) -> dict[str, Any]:
        return {"row": self.cell[0], "col": self.cell[1],
                "probability": fraction_text(self.probability),
                "progress": fraction_text(self.progress), "score": fraction_text(self.score),
                "living": self.living, "opening": fraction_text(self.opening),
                "win": fraction_text(self.win), "chosen": self.chosen,
                "considered": self.considered}


@dataclass(frozen=True, slots=True)
class EndgameOdds:
    """The endgame search's answer: the exact probability of winning with best play
    (``None`` when the search did not finish within its limits: ``note`` says so), over
    how many layouts, and whether those are the whole position's or an isolated region's."""

    win: Fraction | None
    layouts: int | None
    whole: bool
    note: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"win": fraction_text(self.win), "layouts": self.layouts, "whole": self.whole,
                "note": self.note}


@dataclass(frozen=True, slots=True)
class Advice:
    """Everything the page shows beside the probabilities (the overlay's extra keys):
    the recommended click or why there is none (``note``), the best guesses, the dead cells,
    the 50/50s (each as its cells) and the endgame's odds."""

    recommendation: Recommendation | None
    note: str | None = None
    candidates: tuple[CandidateRow, ...] = ()
    dead: tuple[Cell, ...] = ()
    fifties: tuple[tuple[Cell, ...], ...] = ()
    endgame: EndgameOdds | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"recommendation": (None if self.recommendation is None
                                   else recommendation_to_dict(self.recommendation)),
                "note": self.note,
                "candidates": [c.to_dict() for c in self.candidates],
                "dead": [list(c) for c in self.dead],
                "fifty_fifties": [[list(c) for c in group] for group in self.fifties],
                "endgame": None if self.endgame is None else self.endgame.to_dict()}


def advise(position: Position, analysis: Analysis, *, flagged: Collection[Cell] = (),
           budget: Budget = UNLIMITED, counts: SharedCounts | None = None) -> Advice:
    """The advice on ``position`` (flags trusted as mines): every cell the analysis proves
    safe when there is one; else the player's guess, how it was chosen, the best guesses,
    the dead cells and the 50/50s (what matters when a guess must be made).

    ``flagged``: cells a player of a game has flagged (not trusted: they are covered in
    ``position``): never recommended nor listed; when the player's choice is one of them,
    the best guess not flagged is recommended instead, and the note says so.

    ``counts``: the counts the analysis was made with
    (``analyze(position, cache=counts)``), which the player takes instead of counting the
    same components again (:mod:`exactmines.play.shared`).

    Needs a consistent position with a known total and computed probabilities (the player
    reasons on exact counts). Cost: one move of the player, from scratch (no history), made
    by :meth:`~exactmines.play.strategy.Player.explain`: an exact analysis, the dead cells
    and 50/50s, and when it guesses its look-ahead or endgame search and the scores of the
    best few guesses, whose counting of big components stops when ``budget`` runs out, with
    no advice. The search is not started when ``budget`` has less time left than the
    analysis took (``analysis.seconds``): its first steps are the analysis' again, so it
    could not end in time.
    """
    if analysis.consistent is None:
        return Advice(None, "no recommendation: consistency not decided within the time limit")
    if analysis.consistent is False:
        return Advice(None, "no recommendation: the position is not consistent")
    if position.mines is None:
        return Advice(None, "no recommendation: the total mine count is unknown")
    if not analysis.probabilities_computed:
        return Advice(None, "no recommendation: probabilities not computed within the time "
                            "limit")
    if not analysis.cells:
        return Advice(None, "nothing to click: no covered cell")
    width = position.width
    flags = frozenset(flagged)
    shown = [(r * width + c, n) for r, row in enumerate(position.rows)
             for c, ch in enumerate(row)
             if ch != COVERED and (n := position.number((r, c))) is not None]
    if not shown:
        move, note = avoid_flags(first_click(width, position.height, "safe"), flags, ())
        return Advice(move, note)
    if analysis.safe:  # the analysis proved them all: the move is every one of them
        move, note = avoid_flags(Recommendation(tuple(analysis.safe), "certain", Fraction(0)),
                                 flags, ())
        return Advice(move, note)
    if budget.remaining() < analysis.seconds:
        # The player's search starts by finding and counting the frontier again, as the
        # analysis did: with less time left than the analysis took it would run past the
        # limit (a 300x300 position's frontier takes it more than a second before its first
        # look at the clock), and a server would stop the work with the analysis' answer
        # in it. The advice gives way, never the count.
        return Advice(None, "no recommendation: the analysis used the time limit, too little "
                            "was left for the player's search")
    topology = position.topology
    player = Player(width, position.height, position.mines, STRATEGIES["best"],
                    topology=None if topology.is_square else topology, counts=counts)
    player.show(shown)
    known = sum(1 << (r * width + c) for r, c in position.flags)
    if known:
        player.view.mark_mines(known)
    try:
        explained = player.explain(CANDIDATES + len(flags), budget=budget)
    except BudgetExceeded:
        return Advice(None, "no recommendation: the player's search went past its time limit")
    dead = tuple(divmod(i, width) for i in indices_of(explained.dead))
    fifties = tuple(tuple(divmod(i, width) for i in group) for group in explained.fifties)
    if explained.guess is None:
        if not explained.cells:
            return Advice(None, "nothing to click: every covered cell is a mine", (), dead,
                          fifties)
        move, note = avoid_flags(Recommendation(
            tuple(divmod(i, width) for i in explained.cells), "certain", Fraction(0)),
            flags, ())
        return Advice(move, note, (), dead, fifties)
    guess = explained.guess
    chosen = Recommendation((divmod(guess.cell, width),), guess.kind, guess.probability,
                            guess.win)
    wins = _wins(explained, player)
    rows = [_row(c, width, wins) for c in explained.candidates]
    move, note = avoid_flags(chosen, flags, [(r.cell, r.probability) for r in rows])
    # The guess first, then the strategy's order; the player's flags never listed.
    picked = None if move is None else move.cells[0]
    rows = [_chosen(r, r.cell == picked) for r in rows if r.cell not in flags][:CANDIDATES]
    return Advice(move, note, tuple(rows), dead, fifties, _odds(explained, player))


def avoid_flags(move: Recommendation, flagged: Collection[Cell],
                others: Collection[tuple[Cell, Fraction]]) -> tuple[Recommendation | None,
                                                                     str | None]:
    """``move`` without the cells a player has flagged: certain cells left out, and a
    flagged guess replaced by the first of ``others`` (``(cell, mine probability)``, best
    first) not flagged; ``None`` and why when nothing is left."""
    if not flagged:
        return move, None
    cells = tuple(c for c in move.cells if c not in flagged)
    if cells:
        return Recommendation(cells, move.kind, move.probability, move.win), None
    where = f"row {move.cells[0][0]}, col {move.cells[0][1]}"
    if move.kind == "certain":
        return None, (f"no recommendation: every certainly safe cell is flagged ({where} is "
                      "safe: that flag is wrong)")
    for cell, probability in others:
        if cell not in flagged:
            return Recommendation((cell,), "unflagged", probability), None
    return None, f"no recommendation: the player's choice, {where}, is flagged"


def _wins(explained: Explanation, player: Player) -> dict[int, Fraction]:
    """Each searched cell's exact chance of winning with best play after clicking it, for
    the candidates listed (when the endgame search chose the guess)."""
    found = explained.endgame
    if found is None:
        return {}
    search, out = found.search, {}
    searched = set(search.cells)
    for candidate in explained.candidates:
        if candidate.cell in searched:
            search.node_limit = search.nodes + player.strategy.endgame_nodes  # each its own
            try:
                out[candidate.cell] = Fraction(search.wins_after(candidate.cell),
                                               found.layouts)
            except TooLarge:
                continue
    return out


def _odds(explained: Explanation, player: Player) -> EndgameOdds | None:
    """The endgame's odds: the search's when it chose the guess; "not computed" when the
    position has few enough layouts for it but it did not finish; else ``None``."""
    found = explained.endgame
    if found is not None:
        return EndgameOdds(found.guess.win, found.layouts, found.whole)
    limit = player.strategy.endgame_layouts
    if explained.base.layouts_at_most(limit):
        return EndgameOdds(None, None, True, "not computed within the time limit (the "
                           f"search's limit of "
                           f"{plural(player.strategy.endgame_nodes, 'position', fmt=',')})")
    return None


def _row(candidate: Candidate, width: int, wins: dict[int, Fraction]) -> CandidateRow:
    score = candidate.score
    return CandidateRow(divmod(candidate.cell, width), candidate.probability,
                        candidate.progress, score.value, score.living, score.opening,
                        wins.get(candidate.cell), False, candidate.considered)


def _chosen(row: CandidateRow, chosen: bool) -> CandidateRow:
    return CandidateRow(row.cell, row.probability, row.progress, row.score, row.living,
                        row.opening, row.win, chosen, row.considered)
