"""A JSMinesweeper link is read wherever a board is (docs/contract.md §1): every command
that reads a board or a position takes one in place of a file's name, read in one place
(``io/files.py``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from exactmines.io.files import read_board, read_board_and_click, read_position
from exactmines.io.urls import board_from_jsm_url
from exactmines.ui.cli import main

LINK = "https://davidnhill.github.io/JSMinesweeper/index.html?b=1&m=0080o0020c200404g"
BOARD = board_from_jsm_url(LINK)
ROOT = Path(__file__).parent.parent


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_the_library_reads_a_link_as_a_board_and_as_the_position_before_a_click():
    assert read_board(LINK) == BOARD
    assert read_board_and_click(LINK) == (BOARD, None)
    position = read_position(LINK)
    assert (position.width, position.height, position.mines) == (9, 9, 10)
    assert all(set(row) == {"H"} for row in position.rows)
    # A Path made of the link (its "//" made "/") is still the link: only b= and m= count.
    assert read_board(Path(LINK)) == BOARD


def test_solvable_takes_a_link(capsys):
    code, out, err = run(capsys, "solvable", LINK, "--at", "4,4", "--format", "json")
    answer = json.loads(out)
    assert code == 0 and err == ""
    assert answer["file"] == LINK and answer["solvable"] is True
    assert answer["safe_cells"] == 81 - 10 and answer["mines_found"] == 10


def test_analyze_takes_a_link(capsys):
    code, out, _ = run(capsys, "analyze", LINK, "--format", "json")
    answer = json.loads(out)
    assert code == 0 and answer["file"] == LINK and answer["mines"] == 10
    # Nothing opened: every one of the 81 cells has the same chance, 10/81.
    assert answer["layouts"] == "1878392407320"
    assert {c["probability"] for c in answer["cells"]} == {"10/81"}
    code, out, _ = run(capsys, "analyze", LINK)
    assert code == 0 and out.startswith(f"{LINK}: 9x9, 10 mines")


def test_export_takes_a_link(capsys, tmp_path):
    out_file = tmp_path / "board.cnf"
    code, out, _ = run(capsys, "export", LINK, "--to", "cnf", "--out", str(out_file),
                       "--format", "json")
    assert code == 0 and json.loads(out)["in"] == LINK
    assert json.loads((tmp_path / "board.cnf.json").read_text())["layouts"] == "1878392407320"


def test_convert_takes_a_link(capsys, tmp_path):
    target = tmp_path / "board.mine"
    code, _, _ = run(capsys, "convert", LINK, str(target))
    assert code == 0 and read_board(target) == BOARD


@pytest.mark.parametrize("command", [["analyze"], ["solvable", "--at", "1,1"],
                                     ["export", "--to", "cnf", "--out", "x.cnf"]])
def test_a_bad_link_is_one_line_naming_the_link(capsys, command, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    bad = "https://davidnhill.github.io/JSMinesweeper/index.html?b=1&m=zz"
    code, out, err = run(capsys, command[0], bad, *command[1:])
    assert code == 2 and out == "" and err.count("\n") == 1
    assert err.startswith("exactmines: error: link ?b=1&m=zz: m= has 2 digits")
    assert list(tmp_path.iterdir()) == []


def test_a_file_whose_name_looks_like_a_link_is_the_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    name = "x?b=1&m=0"
    Path(name).write_text("3x1x1\n1MH\n")
    assert read_board(name).mines == 1 and read_board(name).width == 3


#: Every command that reads a board or a position, given the link: its JSON names the link
#: as given (a Path made it "https:/..."), and what the board says (9x9, 10 mines) came
#: through. ``{out}`` is a file in the test's folder.
EVERY_COMMAND = {
    "analyze": (["analyze", LINK], "file"),
    "analyze --unique": (["analyze", LINK, "--unique"], "file"),
    "analyze --explain": (["analyze", LINK, "--explain"], "file"),
    "solvable": (["solvable", LINK, "--at", "4,4"], "file"),
    "export": (["export", LINK, "--to", "cnf", "--out", "{out}"], "in"),
    "convert": (["convert", LINK, "{out}.mbf"], "in"),
    "zini": (["zini", LINK, "--time-limit", "60"], "file"),
}


def _filled(args: list[str], out: Path) -> list[str]:
    return [a.replace("{out}", str(out)) for a in args]


@pytest.mark.parametrize("command", EVERY_COMMAND)
def test_every_command_that_reads_a_board_takes_a_link(capsys, tmp_path, command):
    args, key = EVERY_COMMAND[command]
    code, out, err = run(capsys, *_filled(args, tmp_path / "out"), "--format", "json")
    assert code == 0 and err == ""
    answer = json.loads(out)
    assert answer[key] == LINK
    if "mines" in answer:
        assert (answer["width"], answer["height"], answer["mines"]) == (9, 9, 10)


def test_batch_takes_a_link_among_its_files(capsys, tmp_path):
    rows_file = tmp_path / "rows.jsonl"
    code = main(["batch", LINK, str(ROOT / "instances" / "reference-9x9.mine"), "--out",
                 str(rows_file), "--workers", "1", "--quiet"])
    capsys.readouterr()
    assert code == 0
    rows = {r["id"]: r for r in map(json.loads, rows_file.read_text().splitlines())
            if "id" in r}
    assert rows[LINK]["layouts"] == "1878392407320" and rows[LINK]["mines"] == 10
    assert len(rows) == 2


@pytest.mark.parametrize("command", [*EVERY_COMMAND, "batch"])
def test_a_bad_link_is_one_line_naming_the_link_in_every_command(capsys, tmp_path,
                                                                  monkeypatch, command):
    # The same line whatever the command (convert named its argument, IN, instead; batch
    # took the link for a glob pattern), exit 2, and nothing written.
    monkeypatch.chdir(tmp_path)
    bad = "https://davidnhill.github.io/JSMinesweeper/index.html?b=1&m=zz"
    args = (["batch", LINK, "--out", "{out}.jsonl"] if command == "batch"
            else EVERY_COMMAND[command][0])
    args = [bad if a == LINK else a for a in _filled(args, tmp_path / "out")]
    code, out, err = run(capsys, *args)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert err.startswith("exactmines: error: link ?b=1&m=zz: m= has 2 digits"), err
    assert list(tmp_path.iterdir()) == []


def test_solvable_without_a_first_click_says_a_link_names_none(capsys):
    code, out, err = run(capsys, "solvable", LINK)
    assert code == 2 and out == ""
    assert err == f"exactmines: error: {LINK}: --at: give the first click ROW,COL (a link " \
                  "names none)\n"
