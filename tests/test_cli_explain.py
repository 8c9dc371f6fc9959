"""``exactmines analyze --explain``: the page's advice and fault finding on the command line,
in text and in JSON (the overlay's keys and values)."""

from __future__ import annotations

import json
from pathlib import Path

from exactmines.ui.cli import main
from exactmines.ui.web import bodies

INSTANCES = Path(__file__).parent.parent / "instances"
GUESS = INSTANCES / "guide-candidates-30x16x99-seed1.mine"


def run(capsys, *args):
    code = main(["analyze", *map(str, args), "--explain"])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_an_inconsistent_position_names_its_clues_at_fault(tmp_path, capsys):
    path = tmp_path / "bad.mine"
    path.write_text("3x2\n131\nHHH\n")  # the 3 needs what the 1 refuses
    code, out, _ = run(capsys, path, "--format", "json")
    explained = json.loads(out)["explain"]
    assert code == 3
    assert explained["fault"]["clues"] == [[0, 1], [0, 2]]
    assert explained["fault"]["count"] is False
    assert explained["recommendation"] is None
    assert explained["note"] == "no recommendation: the position is not consistent"
    code, out, _ = run(capsys, path)
    assert code == 3
    assert ("at fault: inconsistent: no layout satisfies the 3 at row 0, col 1, the 1 at row 0, "
            "col 2 together") in out
    assert "2 clues: row 0, col 1; row 0, col 2" in out


def test_the_json_is_the_overlays(capsys):
    # The same keys and values as the page's overlay of the same position, less its analysis.
    code, out, _ = run(capsys, GUESS, "--format", "json")
    assert code == 0
    explained = json.loads(out)["explain"]
    request = bodies.Request(GUESS.read_text(), None, None, "auto", 30.0)
    overlay = json.loads(bodies.overlay_body(request))
    del overlay["analysis"]
    assert explained == overlay
    assert explained["recommendation"]["kind"] not in ("certain", "first")
    assert len(explained["candidates"]) == 5


def test_the_text_gives_the_guess_and_its_reasons(capsys):
    code, out, _ = run(capsys, GUESS, "--format", "json")
    explained = json.loads(out)["explain"]
    move, first = explained["recommendation"], explained["candidates"][0]
    code, out, _ = run(capsys, GUESS)
    assert code == 0
    assert (f"recommended click: row {move['row']}, col {move['col']} -- {move['reason']}, "
            f"mine probability {move['probability']}") in out
    assert (f"  > row {first['row']}, col {first['col']}: mine {first['probability']}, "
            f"safe next {first['progress']}, score {first['score']}") in out


def test_jsonl_explains_every_position(tmp_path, capsys):
    path = tmp_path / "bad.mine"
    path.write_text("3x2\n131\nHHH\n")
    code, out, _ = run(capsys, GUESS, path, "--format", "jsonl")
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 3
    assert [row["explain"]["fault"] is None for row in rows] == [True, False]
    assert rows[0]["explain"]["recommendation"] is not None


def test_explain_refuses_unique(capsys):
    code, out, err = run(capsys, GUESS, "--unique")
    assert code == 2 and out == ""
    assert err.strip().endswith("--explain needs the analysis: give no --unique")
