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
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import asdict, dataclass
from functools import partial
from typing import Any

from exactmines.errors import ParameterError
from exactmines.game import free_indices, protected_cells
from exactmines.position import Cell, dilate, indices_of
from exactmines.runner import row_problem, run_batch
from exactmines.solvability.check import solve_indices
from exactmines.stats import rate_summary

__all__ = ["SURVEY_RULES", "SurveySettings", "SurveyResult", "board_seed", "survey_board",
           "check_boards", "run_survey"]

SURVEY_RULES = ("random-zero", "safe", "opening")


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

    def __post_init__(self) -> None:
        if self.start not in SURVEY_RULES:
            raise ParameterError("start", self.start, "unknown start rule: choose one of "
                                                      f"{', '.join(SURVEY_RULES)}")
        if self.width < 1 or self.height < 1:
            raise ParameterError("width" if self.width < 1 else "height",
                                 min(self.width, self.height), "must be at least 1")
        if self.start == "random-zero":
            if self.at is not None:
                raise ParameterError("at", self.at, "has no meaning with the start rule "
                                     "random-zero (the first click is a random zero cell)")
            free_indices(self.width, self.height, self.mines)
        else:
            if self.at is None:
                raise ParameterError("at", None, f"the start rule {self.start} needs the "
                                     "first click (ROW,COL)")
            free_indices(self.width, self.height, self.mines,
                         protected_cells(self.width, self.height, self.start, self.at))

    def as_meta(self) -> dict[str, Any]:
        """The JSON that heads a results file (``resume`` refuses a file with other meta)."""
        meta = asdict(self)
        meta["at"] = None if self.at is None else list(self.at)
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
        return {
            "boards": self.boards,
            "solvable": self.solvable,
            # contract: "fraction" is the number k/N; the exact ratio rides beside it.
            "fraction": summary["rate"],
            "exact_fraction": summary["fraction"],
            "ci95": summary["ci95"],
            "width": s.width, "height": s.height, "mines": s.mines, "start": s.start,
            "at": None if s.at is None else list(s.at), "seed": s.seed,
            "use_count": s.use_count, "without_zero": self.without_zero,
            "seconds": round(self.seconds, 3), "checked": self.checked,
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
    protect = (frozenset() if settings.at is None else
               protected_cells(settings.width, settings.height, settings.start, settings.at))
    return free_indices(settings.width, settings.height, settings.mines, protect)


def _deal(settings: SurveySettings, free: list[int],
          rng: random.Random) -> tuple[list[int], Cell | None]:
    mines = rng.sample(free, settings.mines)
    if settings.start != "random-zero":
        return mines, settings.at
    width, height = settings.width, settings.height
    mine_mask = 0
    for i in mines:
        mine_mask |= 1 << i
    # Zero cells: those no mine's neighbourhood (itself included) reaches, ascending.
    zeros = ((1 << (width * height)) - 1) & ~dilate(mine_mask, width, height)
    if not zeros:
        return mines, None
    return mines, divmod(rng.choice(indices_of(zeros)), width)


def check_boards(meta: dict[str, Any], tasks: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Batch work: deal and check the boards of ``tasks`` (``{"id": index}``) -> rows."""
    settings = _settings_from_meta(meta)
    free = _free(settings)
    width, height = settings.width, settings.height
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
                                    use_count=settings.use_count)
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
                          meta["use_count"])


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
