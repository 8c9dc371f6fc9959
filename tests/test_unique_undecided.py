"""``unique`` is a proof or ``None``: never "not unique" for a position whose layouts the
time limit left undecided (docs/contract.md §2), in the library, the text, the pictures'
titles and the batch rows."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from exactmines import analyze
from exactmines.io.formats import position_from_text
from exactmines.ui.cli import main
from exactmines.ui.pictures import _title
from exactmines.ui.report import analysis_to_text, batch_summary, batch_to_text

DATA = Path(__file__).parent / "data"
#: One hidden cell next to a 1: one layout, every cell decided.
ONE = "2x1x1\n1H\n"
#: Two hidden cells next to a 1, one mine: two layouts.
TWO = "3x1x1\nH1H\n"


def test_unique_is_true_false_or_none_and_none_only_when_undecided():
    one, two = analyze(position_from_text(ONE)), analyze(position_from_text(TWO))
    assert one.unique is True and two.unique is False
    # The time limit came before consistency was decided: nothing is claimed.
    assert replace(two, consistent=None, layouts=None, verdicts_complete=False).unique is None
    # Consistent, but neither the count nor the proofs finished: an unknown cell may still
    # be safe or a mine, so "not unique" is not proved.
    assert replace(two, layouts=None, verdicts_complete=False).unique is None
    # Proved not unique by the count alone, or by the finished proofs alone.
    assert replace(two, verdicts_complete=False).unique is False
    assert replace(two, layouts=None).unique is False
    assert analyze(position_from_text("2x1x0\n1H\n")).unique is False  # inconsistent


def _undecided():
    return replace(analyze(position_from_text(TWO)), consistent=None, layouts=None,
                   verdicts_complete=False, probabilities_computed=False)


def test_the_text_and_the_picture_title_say_not_decided():
    result = _undecided()
    text = analysis_to_text(result)
    assert "unique: not decided" in text and "not unique" not in text
    title = _title(result, "x.mine")
    assert "unique: not decided" in title and "not unique" not in title
    counted = _title(analyze(position_from_text(TWO)), "x.mine")
    assert "layouts: 2, not unique" in counted


def test_batch_rows_with_undecided_uniqueness_count_as_not_unique_nor_unique():
    rows = [{"id": "a", "consistent": None, "unique": None, "probabilities_computed": False,
             "verdicts_complete": False, "seconds": 0.5},
            {"id": "b", "consistent": True, "unique": True, "probabilities_computed": True,
             "seconds": 0.25}]
    summary = batch_summary(rows, "out.jsonl")
    assert summary["unique"] == 1 and summary["undecided"] == 1
    assert "(1 unique)" in batch_to_text(summary)


@pytest.mark.parametrize("form", ["json", "text"])
def test_analyze_past_its_time_limit_says_unique_is_not_decided(capsys, monkeypatch, form):
    from exactmines.budget import Budget
    from exactmines.errors import OutOfTime

    def out_of_time(budget, doing="counting layouts"):
        raise OutOfTime(f"time limit reached while {doing}")

    monkeypatch.setattr(Budget, "check", out_of_time)
    code = main(["analyze", str(DATA / "reference-9x9.mine"), "--backend", "sat",
                 "--time-limit", "1", "--format", form])
    out = capsys.readouterr().out
    assert code == 0
    if form == "json":
        assert json.loads(out)["unique"] is None
    else:
        assert "unique: not decided" in out and "not unique" not in out


def test_without_a_mine_count_the_layouts_are_said_to_be_the_frontiers(tmp_path):
    # The dodecahedron without its count: one layout of the frontier, but eight cells off it
    # that any number of mines may fill: "layouts: 1, not unique" read as a contradiction.
    document = json.loads((DATA.parent.parent / "instances" / "graph-dodecahedron.json")
                          .read_text())
    del document["graph"]["mines"]
    path = tmp_path / "free.json"
    path.write_text(json.dumps(document))
    from exactmines.io.files import read_position

    result = analyze(read_position(path))
    assert result.layouts == 1 and result.unique is False
    text = analysis_to_text(result)
    assert "layouts of the frontier: 1 (8 cells off it, free: no mine count), not unique" in text
    assert "layouts: 1," not in text


#: 90,000 cells: no machine builds its frontier within a millisecond, so an analysis given
#: that long is always cut short before consistency, the layouts or uniqueness is decided.
LARGE = DATA.parent.parent / "instances" / "large-300x300x18000-seed1.mine"


def test_the_web_apis_reply_cut_short_says_unique_is_null():
    from fastapi.testclient import TestClient

    from exactmines.ui.web.app import create_app

    with TestClient(create_app(), base_url="http://localhost") as client:
        reply = client.post("/api/analyze", json={"text": LARGE.read_text(),
                                                  "time_limit": 0.001})
    assert reply.status_code == 200
    body = reply.json()
    assert body["consistent"] is None and body["layouts"] is None
    assert body["unique"] is None


def test_a_batch_row_cut_short_says_unique_is_null(tmp_path, capsys):
    out = tmp_path / "rows.jsonl"
    code = main(["batch", str(LARGE), "--out", str(out), "--time-limit", "0.001",
                 "--workers", "1", "--quiet"])
    capsys.readouterr()
    assert code == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    row = next(r for r in rows if r.get("id") == str(LARGE))
    assert row["consistent"] is None and row["layouts"] is None
    assert row["unique"] is None
