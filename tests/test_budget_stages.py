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


def _stopping_at(monkeypatch, *stages: str) -> list[str]:
    """Make the clock run out at the named stages only (every other look finds time
    left); returns what every look said it was doing."""
    looks: list[str] = []

    def check(budget, doing="counting layouts"):
        looks.append(doing)
        if doing in stages:
            raise OutOfTime(f"time limit reached while {doing}")

    monkeypatch.setattr(Budget, "check", check)
    return looks


@pytest.mark.parametrize("backend", ["brute", "sat"])
def test_counts_not_combined_in_time_give_exact_verdicts_and_no_probabilities(
        monkeypatch, backend):
    from exactmines.analysis.analyze import COMBINING

    position = files.read_position(REFERENCE)
    whole = analyze(position, backend=backend)
    looks = _stopping_at(monkeypatch, COMBINING)
    result = analyze(position, backend=backend, budget=Budget(time.monotonic() + 60))
    assert COMBINING in looks
    assert not result.probabilities_computed and result.layouts is None
    assert {c.probability for c in result.cells} == {None}
    # The verdicts still come from the counts, complete and the same.
    assert result.verdicts_complete and result.consistent is True
    assert (result.safe, result.mines) == (whole.safe, whole.mines)
    assert result.notes == ("probabilities not computed: the layouts were counted but not "
                            "combined (time limit reached while combining the counts)",)
    assert analysis_to_dict(result)["probabilities_computed"] is False


def test_verdicts_not_proved_in_time_are_unknown_and_said_so(monkeypatch):
    from exactmines.analysis.analyze import COMBINING, PROVING

    position = files.read_position(REFERENCE)
    looks = _stopping_at(monkeypatch, COMBINING, PROVING)
    result = analyze(position, backend="brute", budget=Budget(time.monotonic() + 60))
    assert PROVING in looks
    assert not result.verdicts_complete and not result.probabilities_computed
    assert result.safe == [] and result.mines == [] and result.unique is None
    assert {(c.probability, c.verdict) for c in result.cells} == {(None, "unknown")}
    assert result.notes[-1] == ("component 1 (19 cells): verdicts not all proved within the "
                                "time limit; the cells not proved safe or mines are reported "
                                "unknown")


def test_the_json_written_fast_is_the_json_of_the_answer():
    # analysis_json writes what json.dumps(analysis_to_dict(...)) writes, character for
    # character: whole, partial and not-computed answers, both separators.
    from exactmines.analysis.serialize import analysis_json

    reference = files.read_position(REFERENCE)
    answers = [analyze(reference), analyze(reference, backend="sat"),
               analyze(wide(40, 30), budget=Budget(time.monotonic() - 1)),
               analyze(wide(30, 9)), analyze(position_from_text("3x1 torus\n1HH\n"))]
    for result in answers:
        for separators in ((", ", ": "), (",", ":")):
            for ascii_only in (True, False):
                assert analysis_json(result, "a b.mine", separators=separators,
                                     ensure_ascii=ascii_only) == json.dumps(
                    analysis_to_dict(result, "a b.mine"), separators=separators,
                    ensure_ascii=ascii_only)


def test_whether_any_cell_has_a_probability_is_read_from_the_groups():
    # What the text report asks before it lays out the cells: the same as asking each cell.
    reference = files.read_position(REFERENCE)
    answers = [analyze(reference), analyze(reference.with_mines(None), backend="sat"),
               analyze(wide(40, 30), budget=Budget(time.monotonic() - 1)),
               analyze(wide(30, 9)), analyze(wide(30, 9).with_mines(None))]
    for result in answers:
        assert result.cells.any_probability() == any(
            p is not None for p in result.cells.probabilities())
    assert answers[0].cells.any_probability() and not answers[2].cells.any_probability()
