"""The time limit covers the whole answer: reading the position and building its frontier
are inside it, each stage checks it, and the answer says which stages did not finish."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from exactmines import analyze
from exactmines.analysis.frontier import BUILDING, build_frontier
from exactmines.analysis.serialize import analysis_to_dict
from exactmines.budget import Budget
from exactmines.errors import OutOfTime
from exactmines.io import files
from exactmines.io.formats import position_from_text
from exactmines.position import Position
from exactmines.ui.cli import main

ROOT = Path(__file__).parent.parent
REFERENCE = ROOT / "instances" / "reference-9x9.mine"


def wide(width: int, height: int) -> Position:
    """A board of ones and covered cells in stripes: many boxes, rules and components."""
    rows = tuple(("1H" * width)[:width] if r % 3 == 0 else "H" * width for r in range(height))
    return Position(width, height, None, rows)


@pytest.mark.parametrize("position", [wide(600, 600),
                                      position_from_text("3x1 torus\n1HH\n")],
                         ids=["square", "torus"])
def test_building_the_frontier_stops_at_its_budget(position):
    spent = Budget(time.monotonic() - 1)
    with pytest.raises(OutOfTime, match=f"while {BUILDING}"):
        build_frontier(position, spent)


def test_a_frontier_stopped_midway_checks_its_budget_in_its_loops(monkeypatch):
    # The n-th look at the clock says time is up, for every n up to the number of looks:
    # the stages and the loops all look (a board of 360,000 cells, 60,000 boxes).
    position = wide(600, 600)
    looks = []
    monkeypatch.setattr(Budget, "check", lambda budget, doing="": looks.append(doing))
    build_frontier(position, Budget(time.monotonic() + 60))
    assert len(looks) >= 12 and set(looks) == {BUILDING}
    # Every stage's looks (the first dozen), then a spread of the loops' to the last one.
    stops = sorted({*range(12), *range(12, len(looks), max(1, len(looks) // 12)),
                    len(looks) - 1})
    for stop in stops:
        seen = []

        def check(budget, doing="", seen=seen, stop=stop):
            seen.append(doing)
            if len(seen) > stop:
                raise OutOfTime(f"time limit reached while {doing}")

        monkeypatch.setattr(Budget, "check", check)
        with pytest.raises(OutOfTime):
            build_frontier(position, Budget(time.monotonic() + 60))


def test_an_analysis_whose_frontier_was_not_built_says_so_and_claims_nothing():
    spent = Budget(time.monotonic() - 1)
    result = analyze(wide(40, 30), budget=spent)
    assert result.consistent is None and result.layouts is None
    assert (result.components, result.frontier_cells, result.largest_component) == (
        None, None, None)
    assert not result.verdicts_complete and not result.probabilities_computed
    assert {c.verdict for c in result.cells} == {"unknown"}
    assert {c.probability for c in result.cells} == {None}
    assert result.notes == ("not computed: the frontier was not built (time limit reached "
                            "while building the frontier); consistency, layouts and every "
                            "verdict are unknown",)
    document = analysis_to_dict(result)
    assert document["components"] is None and document["frontier_cells"] is None
    json.dumps(document)


def test_the_command_lines_limit_starts_before_the_file_is_read(monkeypatch, capsys):
    # Reading takes longer than the whole limit: nothing is computed after it. Before, the
    # limit started after the reading and the 9x9 reference was answered in full.
    real = files.read_position

    def slow_read(path):
        time.sleep(0.5)
        return real(path)

    monkeypatch.setattr(files, "read_position", slow_read)
    assert main(["analyze", str(REFERENCE), "--time-limit", "0.2", "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["layouts"] is None and document["components"] is None
    assert "the frontier was not built" in document["notes"][0]
    assert main(["analyze", str(REFERENCE), "--time-limit", "0.2"]) == 0
    assert "frontier not built" in capsys.readouterr().out


@pytest.mark.parametrize("numbers, outside, left", [
    ([frozenset(range(300)), frozenset({0, 2, 5})], 40, 250),
    ([frozenset(range(10, 200)), frozenset(range(0, 150))], 0, 180),
    ([frozenset(range(100)) | {150}, frozenset(range(70))], 7, 160),
    ([frozenset(range(500))], 1000, 1200),
])
def test_the_mine_numbers_allowed_on_big_components_are_the_naive_ones(numbers, outside,
                                                                        left):
    # Runs of hundreds of numbers (a component not decided in time takes them all) go
    # through the doubling path; the naive definition, pair by pair, must agree.
    from exactmines.analysis.combine import allowed_mine_numbers, feasible_sums

    naive = []
    for c, options in enumerate(numbers):
        others = {0}
        for d, other in enumerate(numbers):
            if d != c:
                others = {t + k for t in others for k in other}
        naive.append(frozenset(k for k in options
                               if any(0 <= left - k - t <= outside for t in others)))
    assert allowed_mine_numbers(numbers, outside, left) == naive
    sums = {0}
    for options in numbers:
        sums = {t + k for t in sums for k in options}
    assert feasible_sums(numbers) == sum(1 << t for t in sums)
