"""Exported instances checked by other solvers: the CNF's projected models counted by PySAT,
the OPB by brute force, the LP and MPS solved by CBC, each against the oracle."""

from __future__ import annotations

import json
import re
import subprocess
import warnings
from itertools import product
from pathlib import Path

import pulp
import pytest
from hypothesis import given, settings
from oracle import truth
from pysat.solvers import Solver
from strategies import positions

from exactmines.analysis import export as export_module
from exactmines.analysis.analyze import analyze
from exactmines.analysis.export import export_position, write_export
from exactmines.analysis.frontier import build_frontier
from exactmines.analysis.serialize import analysis_to_dict
from exactmines.errors import ParameterError
from exactmines.io.files import read_position
from exactmines.position import Position, neighbours
from exactmines.ui.cli import main

DATA = Path(__file__).parent / "data"
FILES = sorted(DATA.glob("*.mine"))
#: Inconsistent on its face: the 0 at (1,0) has a flag next to it and no covered cell.
FLAG_LIE = Position(2, 2, 1, ("1F", "00"))
#: Models listed one by one up to this many.
ENUMERATE = 20_000


def expected_models(position: Position, count: bool = True) -> int:
    """The oracle's layouts of every covered cell (without a total, it counts the cells next
    to a number only: the others are free)."""
    target = position if count else position.with_mines(None)
    layouts = truth(target).layouts
    if target.mines is None:
        covered = target.covered
        outside = [cell for cell in covered if not any(
            target.number(n) is not None for n in neighbours(target.width, target.height,
                                                             cell))]
        layouts <<= len(outside)
    return layouts


def fits(position: Position, mines: set[tuple[int, int]], count: bool = True) -> bool:
    """Every number of ``position`` (and its total, if ``count``) met by ``mines`` (plus the
    flags), checked cell by cell."""
    flags = set(position.flags)
    for r in range(position.height):
        for c in range(position.width):
            shown = position.number((r, c))
            if shown is not None and shown != sum(
                    n in mines or n in flags for n in position.neighbours((r, c))):
                return False
    return not count or position.mines is None or len(mines) + len(flags) == position.mines


# ---------------------------------------------------------------------------- CNF

def parse_dimacs(text: str) -> tuple[int, list[list[int]], list[int], dict[int, tuple]]:
    """(variables, clauses, projection, variable -> cell from the comments)."""
    header = None
    show: list[int] | None = None
    clauses: list[list[int]] = []
    cells: dict[int, tuple[int, int]] = {}
    for line in text.splitlines():
        if line.startswith("c p show"):
            assert show is None
            show = [int(v) for v in line.split()[3:]]
            assert show[-1] == 0
            show.pop()
        elif match := re.fullmatch(r"c var (\d+) = cell (\d+),(\d+)", line):
            cells[int(match[1])] = (int(match[2]), int(match[3]))
        elif line.startswith("c"):
            continue
        elif line.startswith("p cnf"):
            assert header is None
            header = tuple(int(v) for v in line.split()[2:])
        else:
            literals = [int(v) for v in line.split()]
            assert literals[-1] == 0 and 0 not in literals[:-1]
            clauses.append(literals[:-1])
    assert header is not None and show is not None
    variables, count = header
    assert count == len(clauses)
    assert all(abs(v) <= variables for clause in clauses for v in clause)
    return variables, clauses, show, cells


def projected_models(clauses: list[list[int]], project: list[int]) -> int:
    """Models of ``clauses`` told apart on ``project`` only: PySAT, blocking each found
    assignment of the projected variables."""
    if any(not clause for clause in clauses):
        return 0
    found = 0
    with Solver(name="cd153", bootstrap_with=clauses) as solver:
        while solver.solve():
            found += 1
            model = set(solver.get_model())
            block = [-v if v in model else v for v in project]
            if not block:
                break
            solver.add_clause(block)
    return found


def check_cnf(position: Position, count: bool, expected: int | None = None) -> None:
    """The CNF against the oracle (or ``expected``, for positions too big for it)."""
    if expected is None:
        expected = expected_models(position, count)
    exported = export_position(position, "cnf", count=count)
    variables, clauses, show, cells = parse_dimacs(exported.text)
    n = len(position.covered)
    assert show == list(range(1, n + 1))
    assert cells == {i: cell for i, cell in enumerate(position.covered, 1)}
    assert list(exported.cells) == position.covered
    assert exported.models == expected
    comment = re.search(r"^c models over the cell variables.*: (\d+)$", exported.text, re.M)
    assert comment is not None and int(comment[1]) == expected
    if expected > ENUMERATE:  # too many to list: the count is checked, not the models
        return
    models = projected_models(clauses, show)
    assert models == expected
    with Solver(name="cd153", bootstrap_with=clauses) as solver:
        satisfiable = all(clauses) and solver.solve()
    assert satisfiable == (exported.analysis.consistent is True) == (models > 0)
    if exported.encoding in (None, "kmtotalizer"):
        # The totalizer's auxiliaries are fixed by the cells: the plain count is the same.
        assert projected_models(clauses, list(range(1, variables + 1))) == models


@settings(max_examples=80)
@given(positions(max_covered=10, allow_lies=True))
def test_cnf_projected_models_are_the_layouts(position):
    check_cnf(position, count=True)


@settings(max_examples=40)
@given(positions(max_covered=10, count_known=True, allow_lies=True))
def test_cnf_without_the_count(position):
    check_cnf(position, count=False)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_cnf_of_the_data_files(path):
    # Each file's .json holds its known answer; without the total, the free cells next to
    # no number double the frontier's layouts.
    position = read_position(path)
    known = json.loads(path.with_suffix(".json").read_text())
    check_cnf(position, True, int(known["layouts"]))
    free = len(position.covered) - build_frontier(position).frontier_cells
    unknown = analyze(position.with_mines(None), backend="brute").layouts
    assert unknown is not None
    check_cnf(position, False, unknown << free if unknown else 0)


def test_cnf_inconsistent_on_its_face():
    exported = export_position(FLAG_LIE, "cnf")
    _, clauses, _, _ = parse_dimacs(exported.text)
    assert [] in clauses and exported.models == 0 and exported.analysis.consistent is False
    assert "c inconsistent: the 0 at row 1, col 0" in exported.text


@settings(max_examples=20)
@given(positions(max_covered=10, count_known=True))
def test_cnf_total_as_a_cardinality_network(position):
    # Past the totalizer's limit the total is a sorting network (free auxiliaries): the
    # projected count stays exact.
    original = export_module.TOTALIZER_LIMIT
    export_module.TOTALIZER_LIMIT = 0
    try:
        exported = export_position(position, "cnf")
    finally:
        export_module.TOTALIZER_LIMIT = original
    _, clauses, show, _ = parse_dimacs(exported.text)
    assert exported.encoding in (None, "cardnetwrk")
    assert projected_models(clauses, show) == expected_models(position)


def test_reference_position_counts_1031_with_the_total():
    position = read_position(DATA / "reference-9x9.mine")
    exported = export_position(position, "cnf")
    assert exported.encoding == "kmtotalizer"
    _, clauses, show, _ = parse_dimacs(exported.text)
    assert projected_models(clauses, show) == 1031 == exported.models


# ---------------------------------------------------------------------------- OPB

def parse_opb(text: str) -> tuple[int, list[tuple[list[int], str, int]]]:
    """(variables, constraints as (variables, relation, bound)), unit coefficients only."""
    lines = text.splitlines()
    header = re.fullmatch(r"\* #variable= (\d+) #constraint= (\d+)", lines[0])
    assert header is not None
    constraints = []
    for line in lines[1:]:
        if line.startswith("*"):
            continue
        match = re.fullmatch(r"((?:\+1 x\d+ )+)(=|>=) (-?\d+) ;", line)
        assert match is not None, line
        variables = [int(v) for v in re.findall(r"x(\d+)", match[1])]
        constraints.append((variables, match[2], int(match[3])))
    assert len(constraints) == int(header[2])
    assert all(1 <= v <= int(header[1]) for vs, _, _ in constraints for v in vs)
    return int(header[1]), constraints


def opb_models(text: str, cells: int) -> int:
    """Assignments of the cell variables some assignment of the rest extends (brute force)."""
    variables, constraints = parse_opb(text)
    found = set()
    for values in product((0, 1), repeat=variables):
        if all((sum(values[v - 1] for v in vs) == bound) if relation == "="
               else (sum(values[v - 1] for v in vs) >= bound)
               for vs, relation, bound in constraints):
            found.add(values[:cells])
    return len(found)


@settings(max_examples=60)
@given(positions(max_covered=10, allow_lies=True))
def test_opb_brute_force_count(position):
    for count in (True, False):
        exported = export_position(position, "opb", count=count)
        assert opb_models(exported.text, len(exported.cells)) == exported.models \
            == expected_models(position, count)


def test_opb_inconsistent_on_its_face_and_empty():
    assert opb_models(export_position(FLAG_LIE, "opb").text, 1) == 0
    # No covered cell at all, and a total that cannot be met: a spare variable to break.
    empty = Position(2, 1, 1, ("00",))
    exported = export_position(empty, "opb")
    assert exported.models == 0 and opb_models(exported.text, 0) == 0
    assert export_position(empty.with_mines(0), "opb").models == 1


# ---------------------------------------------------------------------------- LP, MPS

def cbc_path() -> str:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        solver = (getattr(pulp, "PULP_CBC_CMD", None) or pulp.COIN_CMD)(msg=False)
    assert solver.available()
    return solver.path


def solve_with_cbc(path: Path) -> dict[str, int] | None:
    """CBC run on the file itself; the values of a proven optimum, or ``None`` when it
    proves the model infeasible."""
    solution = path.with_suffix(".sol")
    run = subprocess.run([cbc_path(), str(path), "solve", "solu", str(solution)],
                         capture_output=True, text=True, timeout=60, check=True)
    first = solution.read_text().splitlines()[0]
    if "Infeasible" in first or "infeasible" in run.stdout.lower().split("result -")[-1]:
        return None
    assert first.startswith("Optimal"), first
    values = {}
    for line in solution.read_text().splitlines()[1:]:
        _, name, value, *_ = line.split()
        values[name] = round(float(value))
    return values


def layout_of(values: dict[str, int], cells) -> set[tuple[int, int]]:
    assert all(values.get(f"x{i}", 0) in (0, 1) for i in range(1, len(cells) + 1))
    return {cell for i, cell in enumerate(cells, 1) if values.get(f"x{i}", 0) == 1}


def check_milp(position: Position, tmp_path: Path, count: bool = True) -> None:
    for to in ("lp", "mps"):
        exported = write_export(tmp_path / f"model.{to}", position, to, count=count)
        values = solve_with_cbc(tmp_path / f"model.{to}")
        if values is None:
            assert exported.models == 0
        else:
            assert fits(position, layout_of(values, exported.cells), count)
    # PuLP reads the MPS back and solves it the same.
    names, problem = pulp.LpProblem.fromMPS(str(tmp_path / "model.mps"))
    assert {name for name in names if not name.startswith("__")} == \
        {f"x{i}" for i in range(1, len(exported.cells) + 1) if f"x{i}" in names}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        problem.solve((getattr(pulp, "PULP_CBC_CMD", None) or pulp.COIN_CMD)(msg=False))
    if exported.models == 0:
        assert problem.status == pulp.LpStatusInfeasible
    else:
        assert problem.status == pulp.LpStatusOptimal
        values = {name: round(v.varValue or 0) for name, v in names.items()}
        assert fits(position, layout_of(values, exported.cells), count)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_lp_and_mps_solved_by_cbc(path, tmp_path):
    check_milp(read_position(path), tmp_path)
    check_milp(read_position(path), tmp_path, count=False)


def test_lp_and_mps_inconsistent_on_its_face(tmp_path):
    check_milp(FLAG_LIE, tmp_path)


@settings(max_examples=15)
@given(positions(max_covered=10, allow_lies=True))
def test_lp_and_mps_on_random_positions(tmp_path_factory, position):
    check_milp(position, tmp_path_factory.mktemp("milp"))


def test_every_cell_is_a_column_even_in_no_row():
    # Without a total, a cell next to no number is in no row: the objective keeps it.
    position = read_position(DATA / "reference-9x9.mine")
    exported = export_position(position, "lp", count=False)
    assert "total:" not in exported.text
    binaries = exported.text.split("Binaries\n")[1].split("End")[0].split()
    assert sorted(binaries) == sorted(f"x{i}" for i in range(1, len(exported.cells) + 1))


# ---------------------------------------------------------------------------- sidecar, CLI

def test_sidecar_is_analyze_json_plus_the_map(tmp_path):
    path = DATA / "flags-and-count.mine"
    position = read_position(path)
    write_export(tmp_path / "f.cnf", position, "cnf", source=str(path))
    sidecar = json.loads((tmp_path / "f.cnf.json").read_text())
    expected = analysis_to_dict(analyze(position), str(path))
    extra = {"format", "count_in_file", "models", "encoding", "variables"}
    assert set(sidecar) == set(expected) | extra
    assert {k: v for k, v in sidecar.items() if k not in extra | {"seconds"}} == \
        {k: v for k, v in expected.items() if k != "seconds"}
    assert sidecar["variables"] == [list(cell) for cell in position.covered]
    assert (sidecar["format"], sidecar["count_in_file"], sidecar["models"]) == ("cnf", True, "2")


def test_flags_are_mines_as_in_analyze():
    # A flag is no variable, the clues next to it need one mine less, the total one less.
    position = read_position(DATA / "flags-and-count.mine")
    assert position.flags
    exported = export_position(position, "opb")
    assert exported.models == analyze(position).layouts == truth(position).layouts
    total = exported.text.splitlines()[-1]
    assert total.endswith(f"= {position.mines - len(position.flags)} ;")


def run(capsys, *args):
    code = main(["export", *map(str, args)])
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_writes_the_file_and_its_ground_truth(capsys, tmp_path):
    out = tmp_path / "needs.cnf"
    code, text, err = run(capsys, DATA / "needs-count.mine", "--to", "cnf", "--out", out,
                          "--format", "json")
    assert code == 0 and err == ""
    summary = json.loads(text)
    with_count = json.loads(Path(f"{out}.json").read_text())
    assert summary["models"] == with_count["models"] == with_count["layouts"]
    assert with_count["mines"] == 2 and with_count["count_in_file"] is True
    _, clauses, show, _ = parse_dimacs(out.read_text())
    assert projected_models(clauses, show) == int(with_count["models"])

    code, text, err = run(capsys, DATA / "needs-count.mine", "--to", "cnf", "--out", out,
                          "--no-count")
    assert code == 0 and "no total mine count" in text
    without = json.loads(Path(f"{out}.json").read_text())
    assert without["mines"] is None and without["count_in_file"] is False
    assert without["encoding"] is None
    _, clauses, show, _ = parse_dimacs(out.read_text())
    assert projected_models(clauses, show) == int(without["models"]) \
        > int(with_count["models"])


@pytest.mark.parametrize(("args", "message"), [
    (["--to", "xlsx"], "--to xlsx: unknown format"),
    (["--to", "cnf", "--time-limit", "-1"],
     "--time-limit -1.0: must be more than 0 s; inf for no limit"),
    (["--to", "cnf", "--time-limit", "0"],
     "--time-limit 0.0: must be more than 0 s; inf for no limit"),
    (["--to", "cnf", "--backend", "nope"], "nope"),
])
def test_cli_bad_input_writes_nothing(capsys, tmp_path, args, message):
    out = tmp_path / "x.out"
    code, text, err = run(capsys, DATA / "reference-9x9.mine", *args, "--out", out)
    assert code == 2 and text == ""
    assert len(err.splitlines()) == 1 and message in err
    assert list(tmp_path.iterdir()) == []


def test_cli_bad_files_write_nothing(capsys, tmp_path):
    code, _, err = run(capsys, tmp_path / "missing.mine", "--to", "cnf", "--out",
                       tmp_path / "x.cnf")
    assert code == 2 and "missing.mine: no such file" in err and len(err.splitlines()) == 1
    (tmp_path / "x.cnf.json").mkdir()
    code, _, err = run(capsys, DATA / "reference-9x9.mine", "--to", "cnf", "--out",
                       tmp_path / "x.cnf")
    assert code == 2 and "is a directory" in err and len(err.splitlines()) == 1
    assert [p.name for p in tmp_path.iterdir()] == ["x.cnf.json"]


def test_library_names_the_parameter():
    with pytest.raises(ParameterError, match=r"^to xlsx: unknown format"):
        export_position(FLAG_LIE, "xlsx")


def test_a_model_count_of_thousands_of_digits_is_written_out(tmp_path, capsys):
    # str() of a count past 4,300 digits was Python's ValueError, a traceback (found by
    # scripts/fuzz.py): C(22500, 11250) has 6,771 digits.
    path = tmp_path / "covered.mine"
    path.write_text("150x150x11250\n" + ("H" * 150 + "\n") * 150)
    out = tmp_path / "covered.opb"
    assert main(["export", str(path), "--to", "opb", "--out", str(out), "--format",
                 "json"]) == 0
    models = json.loads(capsys.readouterr().out)["models"]
    assert len(models) == 6771 and models == analysis_to_dict(
        analyze(read_position(path)))["layouts"]
    assert main(["export", str(path), "--to", "opb", "--out", str(out)]) == 0
    assert f"; models: {models}; ground truth" in capsys.readouterr().out  # too long for commas
