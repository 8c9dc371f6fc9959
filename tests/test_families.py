"""The benchmark families (``exactmines generate lattice|sparse|dense``): seeded, the same
positions bench_analyze has always measured, consistent with their hidden boards, and with
analyze's answer as their ground truth."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from exactmines.analysis import serialize
from exactmines.analysis.analyze import analyze
from exactmines.generate.families import (
    dense_games,
    dense_instances,
    expected,
    lattice_instances,
    lattice_position,
    opened_region_position,
    sparse_instances,
    sparse_position,
)
from exactmines.io.files import read_position
from exactmines.io.formats import board_from_text
from exactmines.position import Position
from exactmines.ui.cli import main


def fingerprint(positions: list[Position]) -> str:
    text = repr([(p.width, p.height, p.mines, p.rows) for p in positions])
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def test_the_benchmark_suite_is_unchanged():
    # What bench_analyze measures (its figures are compared from one change to the next):
    # the mid-game suite (30 games of seed 0: 412 positions), lattice and sparse instances
    # 0-7 and 0-4 of seed 0, and the opened-region board of side 100.
    midgame = [step.position for step in dense_games(30)]
    assert len(midgame) == 412
    assert fingerprint(midgame) == "1cd8efdf99788f3b"
    assert fingerprint([lattice_position(0, s) for s in range(8)]) == "a0bec11e938dae15"
    assert fingerprint([sparse_position(0, s) for s in range(5)]) == "bbcc2e45ea57ad37"
    assert fingerprint([opened_region_position(100)]) == "46a558ca9efd1616"
    # and other seeds (random.Random(seed * 1000003 + instance)) stay what they were
    others = [lattice_position(1, 0), sparse_position(2, 3),
              *[step.position for step in dense_games(1, 7)]]
    assert fingerprint(others) == "12e7fae2e4e077c0"


def test_seeds_reproduce_and_instances_are_their_own():
    a = lattice_instances(3, 2, time_limit=None)
    b = lattice_instances(3, 2, time_limit=None)
    assert [(i.text, i.json_text()) for i in a] == [(i.text, i.json_text()) for i in b]
    assert a[0].position != a[1].position
    # instance i of seed s is the position function's (seed, i), whatever the count
    assert a[1].position == lattice_position(3, 1)
    assert sparse_instances(2, 3, width=16, height=16, mines=40)[2].position == \
        sparse_position(2, 2, width=16, height=16, mines=40)
    games = dense_instances(1, 2, width=9, height=9, mines=10)
    assert [i.position for i in games] == [s.position for s in dense_games(2, 1, width=9,
                                                                            height=9, mines=10)]
    assert [i.name for i in games][:2] == ["dense-9x9x10-seed1-game000-move000",
                                           "dense-9x9x10-seed1-game000-move001"]
    assert lattice_position(0, 0) != lattice_position(1, 0)


def revealed(position: Position) -> set[tuple[int, int]]:
    return set(position.cells_where("012345678"))


def test_positions_are_their_hidden_boards_with_the_family_reveals():
    for instance in lattice_instances(0, 3, width=20, height=12, mines=40, step=3):
        board, position = instance.board, instance.position
        shown = revealed(position)
        assert board.position(shown) == position  # numbers are the hidden board's
        assert not shown & board.mine_cells
        lattice = {(r, c) for r in range(0, 12, 3) for c in range(0, 20, 3)}
        assert lattice - board.mine_cells <= shown  # every safe lattice cell clicked
        assert instance.metadata["revealed"] == len(shown)
        assert board_from_text(instance.metadata["hidden_board"]["mine_text"]) == board
    for instance in sparse_instances(0, 3, width=30, height=16, mines=99, share=0.25):
        board, position = instance.board, instance.position
        shown = revealed(position)
        assert board.position(shown) == position and not shown & board.mine_cells
        assert len(shown) == round(0.25 * (30 * 16 - 99))  # no flooding
    previous = None
    for step in dense_games(3, 5, width=16, height=16, mines=40):
        shown = revealed(step.position)
        assert step.board.position(shown) == step.position
        assert not shown & step.board.mine_cells
        if previous is not None and previous.game == step.game:
            # each move clicks exactly the cells the analysis proved safe (and their floods)
            assert step.move == previous.move + 1
            assert set(previous.analysis.safe) <= shown
            assert revealed(previous.position) < shown
        previous = step


def test_the_ground_truth_is_analyze_on_the_written_file(tmp_path, backend):
    # Every engine gives the answer the JSON holds, on boards small enough for brute force
    # (components of up to 18 cells).
    made = (lattice_instances(3, 1, width=8, height=8, mines=10)
            + sparse_instances(3, 2, width=8, height=8, mines=10, share=0.1)
            + dense_instances(3, 1, width=9, height=9, mines=10))
    for instance in made:
        (tmp_path / f"{instance.name}.mine").write_text(instance.text)
        position = read_position(tmp_path / f"{instance.name}.mine")
        assert position == instance.position
        truth = json.loads(instance.json_text())["expected"]
        mine = expected(analyze(position, backend=backend))
        assert {k: v for k, v in mine.items() if k != "notes"} == \
            {k: v for k, v in truth.items() if k != "notes"}
        assert truth["probabilities_computed"] and truth["layouts"] is not None


def test_cli_writes_the_benchmark_families_with_analyze_as_ground_truth(tmp_path, capsys):
    out = tmp_path / "bench"
    assert main(["generate", "lattice", "--out", str(out)]) == 0
    assert main(["generate", "sparse", "--seed", "1", "--out", str(out)]) == 0
    assert main(["generate", "dense", "--width", "9", "--height", "9", "--mines", "10",
                 "--count", "2", "--out", str(out), "--format", "json"]) == 0
    text = capsys.readouterr().out.splitlines()
    assert text[0] == f"{out}/lattice-30x16x99-step2-seed0-000.mine: layouts = 1.23e15"
    assert text[1].startswith(f"{out}/sparse-50x50x500-seed1-000.mine: layouts = ")
    rows = json.loads(text[2])
    assert [r["kind"] for r in rows] == ["dense"] * len(rows) and len(rows) >= 2
    # the defaults are bench_analyze's: lattice instance 0 and sparse instance 0 of seed 1
    assert read_position(out / "lattice-30x16x99-step2-seed0-000.mine") == lattice_position(0)
    assert read_position(out / "sparse-50x50x500-seed1-000.mine") == sparse_position(1)
    for mine in sorted(out.glob("*.mine")):
        meta = json.loads(mine.with_suffix(".json").read_text())
        assert meta["expected"] == expected(analyze(read_position(mine)))
        assert meta["kind"] in ("lattice", "sparse", "dense")
    first = json.loads(Path(rows[0]["json"]).read_text())
    assert rows[0]["layouts"] == first["expected"]["layouts"]
    assert first["at"] == [4, 4] and "first click 4,4" in Path(rows[0]["mine"]).read_text()


@pytest.mark.parametrize("args, message", [
    (["lattice", "--step", "0"], "--step 0: must be at least 1"),
    (["lattice", "--mines", "481"], "--mines 481: must be between 0 and 480"),
    (["sparse", "--share", "0"], "--share 0.0: must be in (0, 1]"),
    (["sparse", "--share", "1.5"], "--share 1.5: must be in (0, 1]"),
    (["sparse", "--count", "0"], "--count 0: must be at least 1"),
    (["dense", "--start", "unprotected"], "--start unprotected: choose safe or opening"),
    (["dense", "--width", "5", "--height", "5", "--mines", "20"], "--mines 20: only 16"),
    (["dense", "--at", "20,3"], "--at 20,3: off the 30x16 board"),
    (["dense", "--count", "0"], "--count 0: must be at least 1"),
    (["lattice", "--step", "x"], "Invalid value for '--step'"),
])
def test_cli_bad_family_options_are_one_line_and_exit_2(tmp_path, capsys, args, message):
    code = main(["generate", *args, "--out", str(tmp_path / "out")])
    captured = capsys.readouterr()
    assert code == 2 and captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], captured.err
    assert not (tmp_path / "out").exists()


def test_a_layout_count_of_thousands_of_digits_goes_in_the_header(tmp_path, capsys):
    # str() of a count past 4,300 digits was Python's ValueError, a traceback.
    assert main(["generate", "sparse", "--width", "200", "--height", "200", "--mines",
                 "12000", "--share", "0.01", "--count", "1", "--out", str(tmp_path)]) == 0
    (written,) = tmp_path.glob("*.mine")
    layouts = analyze(read_position(written)).layouts
    assert layouts is not None and layouts.bit_length() > 14_300  # 4,305 digits
    header = written.read_text().splitlines()[0]
    assert header.endswith("layouts = " + serialize.decimal(layouts))
