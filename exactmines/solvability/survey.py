"""How many random boards can be cleared without guessing: the survey behind
``exactmines survey``.

Each board has its own seed, derived from the run's seed and the board's index, so any row
of a results file can be dealt again on its own (:func:`survey_board`), runs can be split,
resumed and extended, and the answer does not depend on the number of workers.

Start rules (docs/contract.md §3):

``random-zero``
    a uniform board; the first click is a uniformly chosen zero cell (a board without one
    counts as not solvable). The rule of seed 000's table.
``safe``
    uniform over boards with no mine at ``at``; the first click is ``at``.
``opening``
    uniform over boards with no mine in the 3x3 block around ``at``; the first click is
    ``at`` (it shows 0).

Boards of any topology are surveyed (``topology``: a
:class:`~exactmines.io.files.TopologySpec`, a ``.mine`` header's word with a cube's layers
or a graph's file): ``opening`` then keeps the first click's neighbours on that topology free.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass
from functools import partial
from typing import Any

from exactmines.errors import ParameterError
from exactmines.game import free_indices, protected_cells
from exactmines.io.files import TopologySpec, settings_meta
from exactmines.position import Cell, Topology, indices_of
from exactmines.runner import row_problem, run_batch
from exactmines.solvability.build import deal_noguess
from exactmines.solvability.check import solve_indices
from exactmines.stats import rate_summary

__all__ = ["SURVEY_RULES", "SURVEY_DEALS", "SurveySettings", "SurveyResult", "board_seed",
           "survey_board", "check_boards", "run_survey"]

SURVEY_RULES = ("random-zero", "safe", "opening")
#: Where the boards come from: ``random`` (uniform under the start rule) or ``noguess``
#: (:func:`~exactmines.solvability.build.deal_noguess`: every one solvable, so the share
#: must be 100 %, a check of the generator).
SURVEY_DEALS = ("random", "noguess")


@dataclass(frozen=True, slots=True)
class SurveySettings:
    """What defines a survey (everything but how many boards).

    ``at`` is the first click for ``safe``/``opening`` and ``None`` for ``random-zero``.
    """

    width: int
    height: int
    mines: int
    start: str
    at: Cell | None
    seed: int
    use_count: bool = True
    topology: TopologySpec = TopologySpec()
    deal: str = "random"

    def __post_init__(self) -> None:
        if self.start not in SURVEY_RULES:
            raise ParameterError("start", self.start, "unknown start rule: choose one of "
                                                      f"{', '.join(SURVEY_RULES)}")
        if self.deal not in SURVEY_DEALS:
            raise ParameterError("deal", self.deal, f"choose one of {', '.join(SURVEY_DEALS)}")
        if self.deal == "noguess" and self.start == "random-zero":
            raise ParameterError("deal", self.deal, "no-guess boards need the first click "
                                 "given (start safe or opening)")
        if self.width < 1 or self.height < 1:
            raise ParameterError("width" if self.width < 1 else "height",
                                 min(self.width, self.height), "must be at least 1")
        board = self.board_topology()
        if self.start == "random-zero":
            if self.at is not None:
                raise ParameterError("at", self.at, "has no meaning with the start rule "
                                     "random-zero (the first click is a random zero cell)")
            free_indices(board.width, board.height, self.mines)
        else:
            if self.at is None:
                raise ParameterError("at", None, f"the start rule {self.start} needs the "
                                     "first click (ROW,COL)")
            free_indices(board.width, board.height, self.mines,
                         protected_cells(board.width, board.height, self.start, self.at,
                                         board))

    def board_topology(self) -> Topology:
        """The boards' topology (:meth:`~exactmines.io.files.TopologySpec.build`)."""
        return self.topology.build(self.width, self.height)

    def as_meta(self) -> dict[str, Any]:
        """The JSON that heads a results file (``resume`` refuses a file with other meta);
        a square grid's has no topology keys, as before there were other topologies."""
        meta = settings_meta(self)
        meta["at"] = None if self.at is None else list(self.at)
        if self.deal == "random":  # as before no-guess deals: older files resume
            del meta["deal"]
        return {"survey": "solvable", **meta}


@dataclass(frozen=True, slots=True)
class SurveyResult:
    settings: SurveySettings
    boards: int
    solvable: int
    without_zero: int
    #: Wall time spent checking the ``checked`` boards this run checked (the others, read
    #: back from a resumed results file, cost nothing now): a speed is seconds / checked.
    seconds: float
    checked: int

    def to_dict(self) -> dict[str, Any]:
        """The JSON of docs/contract.md §3: ``boards``, ``solvable``, ``fraction``, ``ci95``
        and more."""
        s = self.settings
        summary = rate_summary(self.solvable, self.boards)
        shape: dict[str, Any] = {}
        if not s.topology.is_square:
            topology = s.board_topology()
            shape = {"topology": topology.word or topology.kind, "layers": topology.layers,
                     "cells": topology.cells}
        return {
            "boards": self.boards,
            "solvable": self.solvable,
            # contract: "fraction" is the number k/N; the exact ratio rides beside it.
            "fraction": summary["rate"],
            "exact_fraction": summary["fraction"],
            "ci95": summary["ci95"],
            "width": s.width, "height": s.height, "mines": s.mines, "start": s.start,
            "at": None if s.at is None else list(s.board_topology().coordinates(s.at)),
            "seed": s.seed,
            "use_count": s.use_count, "deal": s.deal, "without_zero": self.without_zero,
            "seconds": round(self.seconds, 3), "checked": self.checked, **shape,
        }


def board_seed(seed: int, index: int) -> int:
    """The seed of board ``index`` of a run seeded ``seed`` (64 bits of SHA-256: stable
    across Python versions and platforms, unlike ``hash``)."""
    digest = hashlib.sha256(f"exactmines-survey:{seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def survey_board(settings: SurveySettings, index: int) -> tuple[list[int], Cell | None]:
    """Board ``index`` of the survey: its mines (flat indices ``r * width + c``, in the
    order dealt) and its first click (``None`` for a random-zero board without a zero)."""
    return _deal(settings, _free(settings), random.Random(board_seed(settings.seed, index)))


def _free(settings: SurveySettings) -> list[int]:
    board = settings.board_topology()
    protect = (frozenset() if settings.at is None else
               protected_cells(board.width, board.height, settings.start, settings.at, board))
    return free_indices(board.width, board.height, settings.mines, protect)


def _deal(settings: SurveySettings, free: list[int],
          rng: random.Random) -> tuple[list[int], Cell | None]:
    if settings.deal == "noguess":
        board = settings.board_topology()
        if settings.at is None:  # (SurveySettings refuses random-zero with it)
            raise ParameterError("at", None, "no-guess boards need the first click")
        mines, _ = deal_noguess(board.width, board.height, settings.mines, rng,
                                start=settings.start, at=settings.at,
                                use_count=settings.use_count, topology=board)
        return mines, settings.at
    mines = rng.sample(free, settings.mines)
    if settings.start != "random-zero":
        return mines, settings.at
    board = settings.board_topology()
    mine_mask = 0
    for i in mines:
        mine_mask |= 1 << i
    # Zero cells: those no mine's neighbourhood (itself included) reaches, ascending.
    zeros = ((1 << board.cells) - 1) & ~board.dilate(mine_mask)
    if not zeros:
        return mines, None
    return mines, divmod(rng.choice(indices_of(zeros)), board.width)


def check_boards(meta: dict[str, Any], tasks: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Batch work: deal and check the boards of ``tasks`` (``{"id": index}``) -> rows."""
    settings = _settings_from_meta(meta)
    free = _free(settings)
    board = settings.board_topology()
    width, height = board.width, board.height
    rows = []
    for task in tasks:
        seed = board_seed(settings.seed, task["id"])
        mines, at = _deal(settings, free, random.Random(seed))
        row: dict[str, Any] = {"id": task["id"], "seed": seed, "mines": sorted(mines),
                               "at": None if at is None else list(at)}
        if at is None:
            row.update(solvable=False, revealed=0, safe_cells=width * height - len(mines))
        else:
            outcome = solve_indices(width, height, mines, at[0] * width + at[1],
                                    use_count=settings.use_count, topology=board)
            row.update(solvable=outcome.solvable, revealed=outcome.revealed.bit_count(),
                       safe_cells=outcome.safe_mask.bit_count(),
                       exact_steps=outcome.exact_steps,
                       count_deductions=outcome.count_deductions)
        rows.append(row)
    return rows


def _settings_from_meta(meta: dict[str, Any]) -> SurveySettings:
    at = meta["at"]
    return SurveySettings(meta["width"], meta["height"], meta["mines"], meta["start"],
                          None if at is None else (at[0], at[1]), meta["seed"],
                          meta["use_count"], TopologySpec.from_meta(meta),
                          meta.get("deal", "random"))



#: The fields of a results row that :func:`run_survey` reads back, and their JSON types.
_ROW_FIELDS = {"solvable": (bool,), "at": (list, type(None))}


def run_survey(settings: SurveySettings, boards: int, *, out: str | None = None,
               resume: bool = False, workers: int = 1, chunk_size: int = 200,
               progress: bool = True, scheduler: str | None = None) -> SurveyResult:
    """Check ``boards`` boards (indices ``0..boards-1``) with :func:`~exactmines.runner.run_batch`.

    With ``out``, one JSONL row per board is written as it finishes; ``resume`` skips the
    boards already there (and refuses a file from other settings). Cost: one
    :func:`~exactmines.solvability.check.solve_indices` per board.
    """
    if boards < 1:
        raise ParameterError("boards", boards, "must be at least 1")
    meta = settings.as_meta()
    rows = run_batch([{"id": i} for i in range(boards)], partial(check_boards, meta),
                     out=out, meta=meta, resume=resume, workers=workers,
                     chunk_size=chunk_size, scheduler=scheduler, progress=progress,
                     description=f"{settings.width}x{settings.height}/{settings.mines} "
                                 f"{settings.start}",
                     check=lambda row: row_problem(row, _ROW_FIELDS))
    return SurveyResult(settings, boards, sum(r["solvable"] for r in rows),
                        sum(r["at"] is None for r in rows), rows.seconds, rows.ran)
