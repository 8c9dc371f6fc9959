"""The analyze command end to end: golden JSON on every backend, exit codes, jsonl."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from golden import normalised
from oracle import truth

from exactmines.analysis.frontier import BUILDING
from exactmines.budget import Budget
from exactmines.errors import OutOfTime
from exactmines.io.files import read_position
from exactmines.ui.cli import main

DATA = Path(__file__).parent / "data"
GOLDEN = sorted(DATA.glob("*.mine"))


def _oracle_sized(path: Path) -> bool:
    """Small enough for the whole-position oracle (the 9x9 example is checked against its
    published answer in test_analysis instead)."""
    position = read_position(path)
    return len(position.covered) <= 16


ORACLE_SIZED = [p for p in GOLDEN if _oracle_sized(p)]


def run_json(capsys, *args):
    code = main(["analyze", *map(str, args), "--format", "json"])
    return code, json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_golden_json_on_every_backend(backend, path, capsys):
    code, document = run_json(capsys, path, "--backend", backend)
    expected = json.loads(path.with_suffix(".json").read_text())
    assert normalised(document) == expected
    assert code == (0 if expected["consistent"] else 3)


@pytest.mark.parametrize("path", ORACLE_SIZED, ids=lambda p: p.stem)
def test_golden_files_agree_with_the_oracle(path):
    expected = json.loads(path.with_suffix(".json").read_text())
    answer = truth(read_position(path))
    assert expected["consistent"] == answer.consistent
    if answer.consistent:
        assert int(expected["layouts"]) == answer.layouts
        for cell in expected["cells"]:
            p = answer.probability[(cell["row"], cell["col"])]
            assert cell["probability"] == (None if p is None else str(p))
            assert cell["verdict"] == answer.verdict[(cell["row"], cell["col"])]


def test_json_follows_the_spec_shape(capsys):
    _, document = run_json(capsys, DATA / "reference-9x9.mine")
    assert document["file"].endswith("reference-9x9.mine")
    assert (document["width"], document["height"], document["mines"]) == (9, 9, 10)
    assert document["layouts"] == "1031" and isinstance(document["layouts"], str)
    assert document["unique"] is False and document["consistent"] is True
    cells = document["cells"]
    assert [(c["row"], c["col"]) for c in cells] == sorted((c["row"], c["col"]) for c in cells)
    for cell in cells:
        assert set(cell) == {"row", "col", "probability", "verdict"}
        p = Fraction(cell["probability"])
        assert str(p) == cell["probability"]  # lowest terms, str(Fraction) spelling


def test_mines_option_overrides_the_header(capsys):
    _, document = run_json(capsys, DATA / "reference-9x9.mine", "--mines", "11")
    assert document["mines"] == 11 and document["layouts"] != "1031"
    assert main(["analyze", str(DATA / "reference-9x9.mine"), "--mines", "1000"]) == 2
    assert "needs between" in capsys.readouterr().err


def test_jsonl_one_object_per_file(capsys):
    files = [DATA / "reference-9x9.mine", DATA / "inconsistent.mine"]
    code = main(["analyze", *map(str, files), "--format", "jsonl"])
    lines = capsys.readouterr().out.strip().splitlines()
    assert code == 3
    assert [json.loads(line)["file"] for line in lines] == [str(f) for f in files]
    assert [json.loads(line)["consistent"] for line in lines] == [True, False]


def test_json_with_several_files_is_a_list(capsys):
    code = main(["analyze", str(GOLDEN[0]), str(GOLDEN[1]), "--format", "json"])
    assert isinstance(json.loads(capsys.readouterr().out), list)
    assert code in (0, 3)


def test_text_report_shows_verdicts(capsys):
    assert main(["analyze", str(DATA / "flags-and-count.mine")]) == 0
    out = capsys.readouterr().out
    assert "layouts: 2" in out and "safe: 6" in out and "mines: 1  (0,4)" in out


def test_time_limit_keeps_verdicts_and_says_so(capsys, monkeypatch):
    # Counting runs out at once; the verdicts have the rest of the limit.
    real = Budget.check

    def counting_runs_out(budget, doing="counting layouts"):
        if doing == "counting layouts":
            raise OutOfTime(f"time limit reached while {doing}")
        real(budget, doing)

    monkeypatch.setattr(Budget, "check", counting_runs_out)
    _, document = run_json(capsys, DATA / "reference-9x9.mine", "--backend", "sat",
                           "--time-limit", "30")
    assert document["probabilities_computed"] is False and document["layouts"] is None
    assert document["notes"] and "not computed" in document["notes"][0]
    golden = json.loads((DATA / "reference-9x9.json").read_text())
    assert [c["verdict"] for c in document["cells"]] == [c["verdict"] for c in golden["cells"]]


def test_verdicts_out_of_time_are_unknown_and_said_so(capsys, monkeypatch):
    # An engine that runs out of time on every question: nothing is claimed, the output
    # says why, and an undecided position is not reported inconsistent (exit 0, not 3).
    def out_of_time(budget, doing="counting layouts"):
        if doing != BUILDING:  # the frontier is built (its stop: test_budget_stages.py)
            raise OutOfTime(f"time limit reached while {doing}")

    monkeypatch.setattr(Budget, "check", out_of_time)
    code, document = run_json(capsys, DATA / "reference-9x9.mine", "--backend", "sat",
                              "--time-limit", "1")
    assert code == 0
    assert document["consistent"] is None and document["unique"] is None
    assert document["verdicts_complete"] is False and document["layouts"] is None
    assert {c["verdict"] for c in document["cells"]} == {"unknown"}
    assert any("consistency is not decided" in note for note in document["notes"])
    assert main(["analyze", str(DATA / "reference-9x9.mine"), "--backend", "sat",
                 "--time-limit", "1"]) == 0
    out = capsys.readouterr().out
    assert "consistency not decided" in out and "verdicts incomplete" in out
    assert "unique: not decided" in out and "not unique" not in out


@pytest.mark.parametrize("limit", ["-1", "0", "nan"])
@pytest.mark.parametrize("unique", [[], ["--unique"]])
def test_a_time_limit_of_0_or_below_is_refused(capsys, limit, unique):
    # 0 once meant "verdicts only, no limit": every limit is now more than 0, inf none.
    assert main(["analyze", str(GOLDEN[0]), "--time-limit", limit, *unique]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err == (
        f"exactmines: error: command line: --time-limit {float(limit)}: must be more than "
        "0 s; inf for no limit\n")


def test_a_time_limit_of_inf_is_no_limit(capsys):
    _, document = run_json(capsys, DATA / "reference-9x9.mine", "--time-limit", "inf")
    assert document["probabilities_computed"] and document["verdicts_complete"]


def test_unknown_backend_is_a_usage_error(capsys):
    assert main(["analyze", str(GOLDEN[0]), "--backend", "nope"]) == 2
    assert "unknown backend 'nope'" in capsys.readouterr().err


def test_version(capsys):
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.startswith("exactmines ")


@pytest.mark.parametrize("args, message", [
    (["analyze"], "exactmines analyze: Missing argument 'files'."),
    (["analyze", "x.mine", "--mines", "abc"], "Invalid value for '--mines'"),
    (["analyze", "x.mine", "--format", "xml"], "Invalid value for '--format'"),
    (["analyze", "x.mine", "--nope"], "No such option: --nope"),
    (["solvable"], "exactmines solvable: Missing argument 'board'."),
    (["bogus"], "No such command 'bogus'."),
])
def test_usage_errors_are_one_line(capsys, args, message):
    # docs/contract.md §4: exit 2 with one clear line on stderr (click's own report takes four).
    assert main(args) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("exactmines: error: ") and message in captured.err
    assert captured.err.count("\n") == 1 and captured.err.rstrip().endswith("-h')")


def test_no_arguments_print_the_help(capsys):
    assert main([]) == 2
    assert "Usage: exactmines [OPTIONS] COMMAND" in capsys.readouterr().err


@pytest.mark.parametrize("command", [
    ["play", "--width", "9", "--height", "9", "--mines", "10", "--games", "2", "--start",
     "safe", "--at", "0,0", "--seed", "1", "--quiet", "--out"],
    ["survey", "--width", "9", "--height", "9", "--mines", "10", "--boards", "2", "--start",
     "safe", "--at", "0,0", "--seed", "1", "--out"],
    ["generate", "position", "--width", "9", "--height", "9", "--mines", "10", "--seed", "1",
     "--count", "1", "--out"],
])
def test_a_name_the_system_refuses_is_one_line_not_a_traceback(command, tmp_path, capsys):
    name = tmp_path / ("n" * 300)
    assert main([*command, str(name)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == f"exactmines: error: {name}: File name too long\n"
    assert list(tmp_path.iterdir()) == []  # nothing half-written


NOGUESS = Path(__file__).parent.parent / "instances" / "noguess-9x9x10-seed1-000.mine"


def test_solvable_takes_the_first_click_from_the_files_header(capsys):
    # generate writes "solvable from 4,4" in the header; --at is then not needed.
    assert main(["solvable", str(NOGUESS), "--format", "json"]) == 0
    from_header = json.loads(capsys.readouterr().out)
    assert main(["solvable", str(NOGUESS), "--at", "4,4", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out) == from_header
    assert from_header["solvable"] is True


def test_solvable_without_at_or_header_names_the_option(tmp_path, capsys):
    board = tmp_path / "b.mine"
    board.write_text("\n".join(line for line in NOGUESS.read_text().splitlines()
                               if not line.startswith("#")) + "\n")
    assert main(["solvable", str(board)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--at" in err and "b.mine" in err


def test_counts_of_one_are_singular(capsys):
    assert main(["convert", str(NOGUESS)]) == 0
    assert "10 mines" in capsys.readouterr().out
    from exactmines.ui.report import plural
    assert [plural(n, "mine") for n in (0, 1, 2, 1000)] == [
        "0 mines", "1 mine", "2 mines", "1000 mines"]


def test_a_board_too_big_to_draw_says_so(tmp_path, capsys):
    position = tmp_path / "big.mine"
    position.write_text("100x100x10\n" + "\n".join(["H" * 100] * 100) + "\n")
    assert main(["analyze", str(position)]) == 0
    out = capsys.readouterr().out
    assert "not drawn" in out and "10000 cells" in out and "--format json" in out


def test_text_report_names_the_safest_guess_when_nothing_is_safe(tmp_path, capsys):
    # One mine among the five cells by the 1 (1/5 each), one among the two beyond (1/2).
    position = tmp_path / "guess.mine"
    position.write_text("4x2x2\nH1HH\nHHHH\n")
    assert main(["analyze", str(position)]) == 0
    assert "safest guess: (0,0) mine probability 1/5 = 20.0%" in capsys.readouterr().out


def test_the_legend_explains_the_question_mark(capsys, monkeypatch, tmp_path):
    # The grid showed "?" and the legend never said what it was.
    def counting_runs_out(budget, doing="counting layouts"):
        raise OutOfTime(f"time limit reached while {doing}")

    assert main(["analyze", str(DATA / "reference-9x9.mine")]) == 0
    assert "?" not in capsys.readouterr().out  # no "?" shown, none explained
    free = tmp_path / "free.mine"
    free.write_text("3x3\n1HH\nHHH\nHHH\n")  # no mine count: cells off the frontier
    assert main(["analyze", str(free)]) == 0
    legend = capsys.readouterr().out.split("legend: ")[1].splitlines()[0]
    assert legend.endswith(", ? no probability (off the frontier with no mine count: it has "
                           "none)")
    monkeypatch.setattr(Budget, "check", counting_runs_out)
    assert main(["analyze", str(DATA / "reference-9x9.mine"), "--backend", "sat"]) == 0
    legend = capsys.readouterr().out.split("legend: ")[1].splitlines()[0]
    assert legend.endswith(", ? no probability (not counted within the time limit)")


def test_generate_help_names_the_options_of_each_kind(capsys):
    # One command for every kind, spelt as before; its help says which kinds read which
    # option, in a section each.
    assert main(["generate", "--help"]) == 0
    text = capsys.readouterr().out
    sections: dict[str, list[str]] = {}
    for line in text.splitlines():
        if line and not line.startswith(" ") and line.endswith(":"):
            title = line[:-1]
            sections[title] = []
        elif line.startswith("  -") and sections:
            sections[title].append(line.split()[0].rstrip(","))
    assert sections["Options of sat"] == ["--cnf", "--variables", "--clauses"]
    assert sections["Options of lattice"] == ["--step"]
    assert sections["Options of sparse"] == ["--share"]
    assert "--method" in sections["Options of noguess"]
    assert {"--width", "--height", "--mines"} == set(sections["Options of every kind but sat"])
    assert "--out" in sections["Options (every kind)"]
