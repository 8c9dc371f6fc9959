"""Machine-readable output stays machine-readable: for every command that has ``--format
json`` (or ``jsonl``) and every engine, standard output is exactly the JSON document and
nothing else, and no solver writes to either stream.

The output is captured at the file-descriptor level (``capfd``): a solver written in C (HiGHS,
CBC) prints through the process's descriptor 1, which ``capsys`` does not see.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from exactmines.ui.cli import main

ROOT = Path(__file__).parent.parent
REFERENCE = ROOT / "instances" / "reference-9x9.mine"
BOARD = ROOT / "instances" / "noguess-9x9x10-seed1-000.mine"
POSITIONS = sorted((ROOT / "instances").glob("position-9x9x10-*.mine"))


def _clean_json(capfd: pytest.CaptureFixture[str], lines: bool = False) -> object:
    captured = capfd.readouterr()
    assert captured.err == ""
    if lines:
        return [json.loads(line) for line in captured.out.splitlines()]
    return json.loads(captured.out)


def test_analyze_json_is_only_json_on_every_engine(backend, capfd):
    assert main(["analyze", str(REFERENCE), "--backend", backend, "--format", "json"]) == 0
    document = _clean_json(capfd)
    assert isinstance(document, dict) and document["layouts"] == "1031"


def test_analyze_jsonl_is_one_object_per_line_on_every_engine(backend, capfd):
    args = ["analyze", *map(str, POSITIONS), "--backend", backend, "--format", "jsonl"]
    assert main(args) == 0
    rows = _clean_json(capfd, lines=True)
    assert [row["file"] for row in rows] == [str(p) for p in POSITIONS]


def test_unique_json_on_every_engine(backend, capfd):
    assert main(["analyze", str(REFERENCE), "--unique", "--backend", backend,
                 "--format", "json"]) == 0
    document = _clean_json(capfd)
    assert isinstance(document, dict) and document["unique"] is False


def test_solvable_json_on_every_engine(backend, capfd):
    assert main(["solvable", str(BOARD), "--backend", backend, "--format", "json"]) == 0
    document = _clean_json(capfd)
    assert isinstance(document, dict) and document["solvable"] is True


def test_batch_json_summary_on_every_engine(backend, capfd, tmp_path):
    out = tmp_path / "rows.jsonl"
    assert main(["batch", *map(str, POSITIONS), "--out", str(out), "--backend", backend,
                 "--workers", "1", "--format", "json"]) == 0
    document = _clean_json(capfd)
    assert isinstance(document, dict) and document["files"] == len(POSITIONS)
    assert len(out.read_text().splitlines()) == len(POSITIONS) + 1  # a meta line first


@pytest.mark.parametrize("args", [
    ["survey", "--width", "9", "--height", "9", "--mines", "10", "--boards", "4",
     "--start", "safe", "--at", "0,0", "--seed", "1"],
    ["play", "--width", "9", "--height", "9", "--mines", "10", "--games", "2",
     "--start", "safe", "--at", "0,0", "--seed", "1"],
    ["convert", str(BOARD)],
], ids=["survey", "play", "convert"])
def test_long_and_small_commands_print_only_json(args, capfd):
    assert main([*args, "--format", "json"]) == 0
    assert isinstance(_clean_json(capfd), dict)


@pytest.mark.parametrize("args", [
    ["sat", "--variables", "5", "--clauses", "12", "--seed", "1"],
    ["position", "--width", "9", "--height", "9", "--mines", "10", "--seed", "1"],
    ["noguess", "--width", "9", "--height", "9", "--mines", "10", "--seed", "1"],
], ids=["sat", "position", "noguess"])
def test_generate_prints_only_json(args, capfd, tmp_path):
    assert main(["generate", *args, "--out", str(tmp_path), "--format", "json"]) == 0
    rows = _clean_json(capfd)
    assert isinstance(rows, list) and len(rows) == 1
