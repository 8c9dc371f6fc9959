"""A time limit is a promise: every engine returns within it (plus start-up and a margin)
on positions it cannot finish, with sound partial answers, and a larger limit never
answers less. The hard numbers (medians and maxima per engine, family and limit) are
``scripts/bench_limits.py``'s; the margins here are generous, for a loaded machine.

The hard position is a compiled 3-SAT formula (20 variables, 85 clauses, 15 models) from
``instances/``: a 32,153-cell component, too wide for the DP, with 15 layouts, in which
9,873 cells are safe and 9,947 are mines. Its ground truth, like that of the other compiled
formulas here, is worked out from the formula itself: every model, turned into its layout.
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from pathlib import Path

import pytest
from pysat.solvers import Solver

from exactmines import analyze, read_position
from exactmines.analysis.analyze import Analysis
from exactmines.generate.hardness import CNF, compile_cnf
from exactmines.generate.positions import random_sat_instances
from exactmines.position import Cell, Position
from exactmines.ui.web.bodies import Request, overlay_body

ROOT = Path(__file__).resolve().parents[1]
HARD = ROOT / "instances" / "sat-3sat-v20-c85-seed1-000.mine"
#: Every engine a user can name, each run on its own.
ENGINES = ["sat", "milp-highs", "milp-cbc", "ganak", "dp", "brute", "auto"]
#: Seconds allowed past the limit: start-up of a solver or a child process, and the
#: machine's load (the suite runs beside other work on two cores).
MARGIN = 15.0


@dataclass(frozen=True)
class Truth:
    """What every layout of a position says: the layouts, and per covered cell the
    layouts with a mine there."""

    position: Position
    layouts: int
    mines: Mapping[Cell, int]

    def verdict(self, cell: Cell) -> str:
        mines = self.mines.get(cell, 0)
        return "safe" if mines == 0 else "mine" if mines == self.layouts else "unknown"


@cache
def truth_of(path: Path) -> Truth:
    """The truth of a compiled formula of ``instances/`` (its .json holds the formula)."""
    meta = json.loads(path.with_suffix(".json").read_text())
    formula = meta["formula"]
    cnf = CNF(formula["variables"], tuple(tuple(c) for c in formula["clauses"]))
    instance = compile_cnf(cnf)
    position = read_position(path)
    assert instance.position.rows == position.rows
    mines: dict[Cell, int] = {}
    layouts = 0
    with Solver(name="cd153", bootstrap_with=[list(c) for c in cnf.clauses]) as solver:
        for model in solver.enum_models():
            assignment = tuple(model[v - 1] > 0 for v in range(1, cnf.variables + 1))
            layouts += 1
            for cell in instance.layout(assignment):
                mines[cell] = mines.get(cell, 0) + 1
    assert layouts == meta["model_count"]
    return Truth(position, layouts, mines)


def hard_truth() -> Truth:
    return truth_of(HARD)


def assert_sound(result: Analysis, truth: Truth) -> None:
    """Nothing claimed that the layouts deny: consistency and the layouts when decided,
    every safe cell and mine, every probability when computed."""
    assert result.consistent in (True, None)
    assert result.layouts in (truth.layouts, None)
    for cell in result.cells:
        if cell.verdict != "unknown":
            assert cell.verdict == truth.verdict(cell.cell), cell
        if cell.probability is not None:
            assert cell.probability == Fraction(truth.mines.get(cell.cell, 0), truth.layouts)
    if result.verdicts_complete and result.consistent:
        assert all(c.verdict == truth.verdict(c.cell) for c in result.cells)


def timed(engine: str, limit: float, position: Position | None = None,
          ) -> tuple[Analysis, float]:
    started = time.monotonic()
    result = analyze(position or hard_truth().position, backend=engine, time_limit=limit)
    return result, time.monotonic() - started


@pytest.mark.parametrize("engine", ENGINES)
def test_the_limit_holds_with_sound_answers(engine):
    result, seconds = timed(engine, 1.0)
    assert seconds < 1.0 + MARGIN, f"{engine}: {seconds:.1f} s for a limit of 1 s"
    assert_sound(result, hard_truth())


def proved(result: Analysis) -> dict[Cell, str]:
    return {c.cell: c.verdict for c in result.cells if c.verdict != "unknown"}


@pytest.mark.parametrize("engine", ENGINES)
def test_a_larger_limit_never_answers_less(engine):
    truth = hard_truth()
    before: Analysis | None = None
    for limit in (0.1, 0.5, 2.0):
        result, seconds = timed(engine, limit)
        assert seconds < limit + MARGIN, f"{engine}: {seconds:.1f} s for a limit of {limit} s"
        assert_sound(result, truth)
        if before is not None:
            assert proved(before).items() <= proved(result).items(), (engine, limit)
            if before.consistent is not None:
                assert result.consistent == before.consistent, (engine, limit)
            if before.probabilities_computed:
                assert result.probabilities_computed and result.layouts == before.layouts
        before = result


def test_a_smaller_limit_costs_no_more_and_answers_no_more():
    # generate sat --variables 5 --clauses 21 --seed 2: at 0.1 s auto took 11.8 s and
    # counted nothing, where the default limit took 0.85 s and counted its 2 layouts.
    truth = truth_of(ROOT / "instances" / "sat-3sat-v5-c21-seed2-000.mine")
    small, seconds = timed("auto", 0.1, truth.position)
    assert seconds < 0.1 + MARGIN
    assert_sound(small, truth)
    large, _ = timed("auto", 30.0, truth.position)
    assert large.layouts == truth.layouts == 2 and large.verdicts_complete
    assert proved(small).items() <= proved(large).items()


@pytest.mark.parametrize("engine", ["auto", "sat"])
def test_the_limit_holds_on_a_formula_with_many_models(engine):
    # generate sat --variables 30 --clauses 60 --seed 3: 113,738 models on 34,216 cells;
    # both engines ran for over 300 s at a limit of 1 s.
    meta = random_sat_instances(30, 60, 3, count_seconds=0.01)[0]
    result, seconds = timed(engine, 1.0, meta.position)
    assert seconds < 1.0 + MARGIN, f"{engine}: {seconds:.1f} s for a limit of 1 s"
    assert result.consistent in (True, None) and result.layouts in (113_738, None)


def overlay(text: str, limit: float) -> dict:
    """What ``POST /api/overlay`` answers for the position ``text`` under ``limit``."""
    return json.loads(overlay_body(Request(text, None, None, "auto", limit)))


def test_the_page_overlay_keeps_to_one_budget():
    # The page's stages (the analysis, the clue at fault, the advice) share one budget: at
    # 0.5 s on the 5-variable formula the page waited 14 s, and POST /api/overlay answered
    # after 18 s.
    text = (ROOT / "instances" / "sat-3sat-v5-c21-seed2-000.mine").read_text()
    started = time.monotonic()
    drawn = overlay(text, 0.5)
    assert time.monotonic() - started < 0.5 + MARGIN
    assert drawn["analysis"]["consistent"] in (True, None) and drawn["fault"] is None
    # Given the time, each stage answers: counted, and a click recommended or said why not.
    drawn = overlay(text, 60)
    assert drawn["analysis"]["layouts"] == "2"
    assert (drawn["recommendation"] is None) != (drawn["note"] is None)
    drawn = overlay("3x1\nF1F\n", 60)  # a 1 between two flags
    assert drawn["analysis"]["consistent"] is False and drawn["fault"]["clues"] == [[0, 1]]
