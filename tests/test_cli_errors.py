"""How the command line reports what goes wrong: library errors name parameters and the
command line names its options; output errors are not input errors."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from exactmines.errors import InputError, ParameterError, SolverError, UnknownBackend
from exactmines.generate.positions import midgame_positions, noguess_boards
from exactmines.play.games import PlaySettings
from exactmines.ui.cli import main

PACKAGE = Path(__file__).parent.parent / "exactmines"
FLAG = re.compile(r"(?<![\w-])--[a-z]")


def _raised_messages(path: Path) -> list[tuple[int, str]]:
    """The string pieces of every ``raise X(...)`` in a module, with their line."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
            for part in ast.walk(node.exc):
                if isinstance(part, ast.Constant) and isinstance(part.value, str):
                    found.append((node.lineno, part.value))
    return found


def test_no_library_error_names_a_command_line_option():
    # The presentation layer (ui/) knows the options; everything under it names parameters.
    offenders = [f"{path.relative_to(PACKAGE)}:{line}: {text!r}"
                 for path in sorted(PACKAGE.rglob("*.py")) if "ui" not in path.parts
                 for line, text in _raised_messages(path) if FLAG.search(text)]
    assert offenders == []


def test_parameter_errors_name_the_parameter_and_value():
    with pytest.raises(ParameterError) as caught:
        midgame_positions(9, 9, 100, seed=1, count=1)
    assert str(caught.value) == "mines 100: must be between 0 and 81"
    assert caught.value.parameter == "mines" and caught.value.value == 100
    with pytest.raises(ParameterError, match=r"^at 9,0: off the 9x9 board$"):
        PlaySettings(9, 9, 10, "safe", (9, 0), 1)
    with pytest.raises(ParameterError, match=r"^tuning: cannot set 'x=1'"):
        PlaySettings(9, 9, 10, "safe", (0, 0), 1, tuning=("x=1",))
    with pytest.raises(InputError, match=r"^attempts 0: must be at least 1$"):
        noguess_boards(9, 9, 10, seed=1, count=1, attempts=0)


SURVEY = ["survey", "--width", "9", "--height", "9", "--mines", "10", "--boards", "2",
          "--seed", "1", "--quiet"]
PLAY = ["play", "--width", "9", "--height", "9", "--mines", "10", "--games", "1",
        "--start", "safe", "--at", "0,0", "--seed", "1", "--quiet"]


@pytest.mark.parametrize(("args", "line"), [
    ([*PLAY[:7], "--games", "0", *PLAY[9:]], "--games 0: must be at least 1"),
    ([*PLAY, "--set", "speed=2"], "--set: cannot set 'speed=2': write NAME=VALUE"),
    ([*PLAY, "--without", "luck"], "--without luck: unknown strategy part"),
    ([*SURVEY, "--start", "safe"], "--at: the start rule safe needs the first click"),
    ([*SURVEY, "--start", "random-zero", "--at", "1,1"], "--at 1,1: has no meaning"),
    (["generate", "noguess", "--width", "9", "--height", "9", "--mines", "10", "--seed", "1",
      "--attempts", "0", "--out", "never"], "--attempts 0: must be at least 1"),
    (["generate", "sat", "--variables", "2", "--clauses", "5", "--seed", "1", "--out",
      "never"], "--variables 2: random 3-SAT needs at least 3"),
])
def test_the_command_line_names_the_option_of_a_parameter(capsys, args, line):
    assert main(args) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith(f"exactmines: error: command line: {line}")
    assert captured.err.count("\n") == 1


# -- the error table: one exit code and one HTTP status per class -------------------------

CONTRACT = Path(__file__).parent.parent / "docs" / "contract.md"


def _contract_error_rows() -> dict[str, tuple[int, int]]:
    """``class name -> (exit code, HTTP status)`` from the table in docs/contract.md §4."""
    rows = {}
    for line in CONTRACT.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 4 and cells[1].isdigit() and cells[2].isdigit():
            for name in re.findall(r"`(\w+)`", cells[0]):
                rows[name] = (int(cells[1]), int(cells[2]))
    return rows


def test_the_contract_table_is_the_error_classes():
    import exactmines.errors as errors

    classes = {name: cls for name, cls in vars(errors).items()
               if isinstance(cls, type) and issubclass(cls, errors.ExactminesError)
               and cls is not errors.ExactminesError}
    rows = _contract_error_rows()
    assert set(rows) == set(classes)
    assert {name: (cls.exit_code, cls.http_status) for name, cls in classes.items()} == rows
    assert errors.INCONSISTENT_EXIT_CODE == 3


@pytest.mark.parametrize("error", [
    InputError("bad", source="a.mine", line=3, column=5),
    ParameterError("mines", 120, "must be between 0 and 81"),
    SolverError("CBC stopped: Not Solved"),
    UnknownBackend("unknown backend 'x'"),
])
def test_an_error_crosses_processes_unchanged(error):
    import pickle

    back = pickle.loads(pickle.dumps(error))
    assert type(back) is type(error) and str(back) == str(error)
    assert vars(back) == vars(error)


def test_a_solver_failure_is_exit_4_not_bad_input(capsys, monkeypatch):
    import exactmines.ui.cli.analysis as cli

    def failing(position, **options):
        raise SolverError("CBC stopped without a proven answer: status Not Solved")

    monkeypatch.setattr(cli, "analyze", failing)
    reference = Path(__file__).parent.parent / "instances" / "reference-9x9.mine"
    assert main(["analyze", str(reference)]) == 4
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == ("exactmines: error: CBC stopped without a proven answer: status "
                            "Not Solved\n")


def test_an_engine_whose_package_is_missing_says_what_to_install(capsys, monkeypatch):
    import exactmines.analysis.backends as backends

    monkeypatch.setitem(backends._REGISTRY, "fancy",
                        ("exactmines_fancy_solver", "Fancy", "fancy-solver"))
    reference = Path(__file__).parent.parent / "instances" / "reference-9x9.mine"
    assert main(["analyze", str(reference), "--backend", "fancy"]) == 2
    assert capsys.readouterr().err == ("exactmines: error: backend 'fancy' needs the package "
                                       "'exactmines_fancy_solver': pip install "
                                       "exactmines_fancy_solver\n")
    assert "fancy" not in backends.installed_backend_names()
    assert "dp" in backends.installed_backend_names()


def test_running_out_of_memory_is_one_line_and_exit_4(tmp_path):
    # The CNF of a 335x140 board's total count (30,154 mines: a cardinality network of
    # millions of clauses) under a 1 GB address space: a MemoryError traceback, exit 1,
    # before (found by scripts/fuzz.py under its 2 GB limit).
    import resource
    import subprocess
    import sys

    board = tmp_path / "covered.mine"
    board.write_text("335x140x30154\n" + ("H" * 335 + "\n") * 140)

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))

    done = subprocess.run([sys.executable, "-m", "exactmines", "export", str(board), "--to",
                           "cnf", "--out", str(tmp_path / "covered.cnf")],
                          capture_output=True, text=True, preexec_fn=limit, timeout=300)
    assert done.returncode == 4, done.stderr[-2000:]
    assert done.stderr == ("exactmines: error: out of memory: this work needs more memory "
                           "than the machine (or a limit set on the command) gives it\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["covered.mine"]


def test_an_abort_is_one_line_and_exit_1(capsys, monkeypatch):
    # What click raises when a prompt is answered with Ctrl-D or Ctrl-C: the boundary
    # catches typer's own Abort (typer runs on its own copy of click).
    import typer

    import exactmines.ui.cli.analysis as cli

    def aborted(position, **options):
        raise typer.Abort()

    monkeypatch.setattr(cli, "analyze", aborted)
    reference = Path(__file__).parent.parent / "instances" / "reference-9x9.mine"
    assert main(["analyze", str(reference)]) == 1
    assert capsys.readouterr().err == "Aborted!\n"
