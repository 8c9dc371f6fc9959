"""How each engine keeps to a time limit: wall time of ``analyze`` against the limit asked,
per engine and family, and what it answered within it.

Usage::

    python scripts/bench_limits.py                          # everything: ~20 min, loaded
    python scripts/bench_limits.py --quick                  # limits 0.1 and 1 s only
    python scripts/bench_limits.py --engines sat auto --limits 1 --families "sat 30/60"
    python scripts/bench_limits.py --whole                  # setup included: ~10 min
    python scripts/bench_limits.py --whole --server         # the same through the server

``--whole`` times what ``exactmines analyze FILE --time-limit L`` does after Python has
started: reading the file, the analysis (its budget made before the reading) and writing
its report (and, in a row of its own, what writing the answer as JSON would add: an
object per covered cell, which no limit shortens), on the families of issue 41 (compiled
formulas of 25 to 80 variables, of 322,000 to 3 million cells; the dense and lattice
families; a 40x24/190 lattice) at the limits 0.2, 1 and 3 s, and says which stages did
not finish (``F``: the frontier was not built, ``C``: some component not counted, ``V``:
verdicts incomplete).

Families, the ones ``exactmines generate`` makes:

``sat V/C``
    a random 3-SAT formula of V variables and C clauses compiled into a position
    (``generate sat --variables V --clauses C --seed S``): one component of thousands of
    cells, too wide for the DP; 20/40 (seed 3, 2,382 models), 30/60 (seed 3, 113,738),
    50/100 (seed 1, 1.2 billion) and 20/85 (seed 1, 15 models, near the satisfiability
    threshold);
``dense``
    the three positions with the widest front among those met in three 30x16/99 games
    played with safe moves only (``generate dense --count 3``);
``lattice``
    three 30x16/99 lattice positions (``generate lattice --count 3``).

Each engine analyses each position of a family at each limit, in this process (the
engines' own child processes included: Ganak's, CBC's), once; each engine first answers a
small position, so that imports and the start of its child processes are not in the
figures. A cell of the table is the median and the largest wall time in seconds over the
family's positions, then how many of them were counted (probabilities computed) out of
how many. ``floor`` is the largest wall time of building the position's frontier alone,
which every analysis does first and no limit interrupts (it is linear in the position);
``!`` marks a largest time more than 1 s past the limit and that floor.

Every answer is checked against what is known: the layouts against the formula's model
count, and for the board families every proved safe cell and mine against the DP's
analysis without a limit. The script exits 1 if an answer claims more than is so.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from exactmines import analyze, read_position
from exactmines.analysis.analyze import Analysis
from exactmines.analysis.backends import get_backend
from exactmines.analysis.frontier import build_frontier
from exactmines.analysis.serialize import analysis_json
from exactmines.budget import Budget
from exactmines.generate.families import dense_games, lattice_position
from exactmines.generate.positions import random_sat_instances
from exactmines.io.formats import position_to_mine
from exactmines.position import Cell, Position
from exactmines.ui.report import analysis_to_text

ROOT = Path(__file__).resolve().parents[1]
ENGINES = ["dp", "sat", "milp-highs", "milp-cbc", "ganak", "auto"]
LIMITS = [0.1, 1.0, 10.0]
#: name -> (variables, clauses, seed) of the compiled formulas.
FORMULAS = {"sat 20/40": (20, 40, 3), "sat 30/60": (30, 60, 3), "sat 50/100": (50, 100, 1),
            "sat 20/85": (20, 85, 1)}
FAMILIES = [*FORMULAS, "dense", "lattice"]
#: ``--whole``: the compiled formulas of issue 41, and a larger lattice.
WHOLE_FORMULAS = {"sat 25/110": (25, 110, 11), "sat 40/170": (40, 170, 11),
                  "sat 60/255": (60, 255, 17), "sat 80/340": (80, 340, 17)}
WHOLE_FAMILIES = [*WHOLE_FORMULAS, "dense", "lattice", "lattice 40x24"]
WHOLE_LIMITS = [0.2, 1.0, 3.0]


@dataclass(frozen=True)
class Case:
    """A position with what is known of its answer: the layouts (``None``: unknown) and
    the proved safe cells and mines (``None``: unknown)."""

    position: Position
    layouts: int | None
    verdicts: dict[Cell, str] | None


def proved(result: Analysis) -> dict[Cell, str]:
    return {c.cell: c.verdict for c in result.cells if c.verdict != "unknown"}


def family(name: str, count: int) -> list[Case]:
    """The positions of a family, with their known answers."""
    if name in FORMULAS or name in WHOLE_FORMULAS:
        variables, clauses, seed = {**FORMULAS, **WHOLE_FORMULAS}[name]
        instance = random_sat_instances(variables, clauses, seed, count_seconds=600)[0]
        assert instance.position is not None
        return [Case(instance.position, instance.metadata["model_count"], None)]
    if name == "dense":
        steps = sorted(dense_games(3, 0), key=lambda step: -step.analysis.frontier_cells)
        positions = [step.position for step in steps[:count]]
    elif name == "lattice 40x24":  # generate lattice --seed 29 --width 40 --height 24
        positions = [lattice_position(29, 0, width=40, height=24, mines=190)]
    else:
        positions = [lattice_position(0, index) for index in range(count)]
    cases = []
    for position in positions:
        reference = analyze(position, backend="dp")
        cases.append(Case(position, reference.layouts, proved(reference)))
    return cases


def sound(result: Analysis, case: Case) -> bool:
    """Nothing claimed that is not so."""
    if result.layouts is not None and case.layouts is not None \
            and result.layouts != case.layouts:
        return False
    if result.consistent is False:
        return False  # every position here has layouts
    if case.verdicts is not None:
        return proved(result).items() <= case.verdicts.items()
    return True


def whole(path: Path, engine: str, limit: float) -> tuple[Analysis, float, float]:
    """What ``analyze PATH --time-limit LIMIT`` does once Python runs: read, analyse within
    a budget made before the reading, write the report; and the seconds that writing the
    answer as JSON (``--format json``: an object per covered cell) would add."""
    started = time.perf_counter()
    budget = Budget.seconds(limit)
    position = read_position(path)
    result = analyze(position, backend=get_backend(engine), budget=budget)
    analysis_to_text(result, str(path))
    seconds = time.perf_counter() - started
    analysis_json(result, str(path))
    return result, seconds, time.perf_counter() - started - seconds


def stages(result: Analysis) -> str:
    """Which stages did not finish: F frontier, C counting, V verdicts ("" all did)."""
    return ("F" if result.components is None else "") + (
        "" if result.probabilities_computed else "C") + (
        "" if result.verdicts_complete else "V")


def _cell(worst: float, limit: float, marks: set[str]) -> tuple[str, bool]:
    """A ``--whole`` table's cell: the worst wall seconds (``!`` past the limit + 1 s) and
    the stages not finished, or a status (``done``: all finished); and whether it is late."""
    over = worst > limit + 1
    stages_left = "".join(sorted(marks, key=lambda m: "FCV".find(m))) or "done"
    return f"{worst:.2f}{'!' if over else ''} {stages_left}", over


def _written(name: str, count: int, folder: Path) -> tuple[list[Case], list[Path], int]:
    """The family's positions, each written as a ``.mine`` file in ``folder`` (what the
    ``--whole`` tables read), and the most cells of one."""
    cases = family(name, count)
    paths = []
    for index, case in enumerate(cases):
        path = folder / f"{name.replace(' ', '-').replace('/', '-')}-{index}.mine"
        path.write_text(position_to_mine(case.position))
        paths.append(path)
    return cases, paths, max(c.position.width * c.position.height for c in cases)


def _whole_head(args: argparse.Namespace, measured: str) -> tuple[list[float], list[str]]:
    """The limits and families of a ``--whole`` table, after printing its head: the load,
    what each cell measures, and the table's first two rows."""
    limits = args.limits if args.limits != LIMITS else WHOLE_LIMITS
    families = args.families if args.families != FAMILIES else WHOLE_FAMILIES
    print(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; "
          f"{os.cpu_count()} cores; wall seconds of {measured}")
    print()
    print("| family | cells | engine | " + " | ".join(f"limit {limit:g} s" for limit in limits)
          + " |")
    print("|---|---|---|" + "---|" * len(limits))
    return limits, families


def main_whole(args: argparse.Namespace) -> int:
    """The ``--whole`` table: setup included, limit + 1 s asked of every cell."""
    limits, families = _whole_head(args, "reading + analyze + report (max over the "
                                   "positions), then the stages not finished (F frontier, "
                                   "C counting, V verdicts)")
    wrong = late = 0
    with tempfile.TemporaryDirectory() as folder:
        for name in families:
            cases, paths, cells = _written(name, args.positions, Path(folder))
            json_seconds = 0.0
            for engine in args.engines:
                row = []
                for limit in limits:
                    worst, marks = 0.0, set()
                    for case, path in zip(cases, paths, strict=True):
                        result, seconds, writing = whole(path, engine, limit)
                        worst = max(worst, seconds)
                        json_seconds = max(json_seconds, writing)
                        marks.update(stages(result))
                        if not sound(result, case):
                            wrong += 1
                            print(f"{name} {engine} {limit:g}: claims more than is so",
                                  file=sys.stderr)
                    text, over = _cell(worst, limit, marks)
                    late += over
                    row.append(text)
                print(f"| {name} | {cells:,} | {engine} | " + " | ".join(row) + " |",
                      flush=True)
            print(f"| {name} | {cells:,} | (JSON) | writing the answer as JSON, most: "
                  f"{json_seconds:.2f} s |" + " |" * (len(limits) - 1), flush=True)
    print()
    print(f"load average at end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; "
          f"{late} cells more than 1 s past their limit (marked !)")
    return 1 if wrong else 0


def served(client, path: Path, engine: str, limit: float) -> tuple[int, dict, float]:
    """``POST /api/analyze`` of the ``.mine`` file at ``path``: the status, the body and the
    wall seconds the reply took."""
    started = time.perf_counter()
    answer = client.post("/api/analyze", content=path.read_bytes(),
                         params={"backend": engine, "time_limit": limit})
    return answer.status_code, answer.json(), time.perf_counter() - started


def main_served(args: argparse.Namespace) -> int:
    """``--whole --server``: the same cells, each the largest wall time of the server's
    reply to ``POST /api/analyze`` (its worker pool, the request's limit), then the stages
    not finished or the status when it is not 200 (413: refused at once, larger than the
    server analyses)."""
    from fastapi.testclient import TestClient

    from exactmines.ui.web.app import create_app

    limits, families = _whole_head(args, "POST /api/analyze (max over the positions), "
                                   "then the stages not finished (F, C, V) or the status")
    wrong = late = 0
    with tempfile.TemporaryDirectory() as folder, \
            TestClient(create_app(), base_url="http://localhost") as client:
        for name in families:
            cases, paths, cells = _written(name, args.positions, Path(folder))
            for engine in args.engines:
                row = []
                for limit in limits:
                    worst, marks = 0.0, set()
                    for case, path in zip(cases, paths, strict=True):
                        status, body, seconds = served(client, path, engine, limit)
                        worst = max(worst, seconds)
                        if status != 200:
                            marks.add(str(status))
                            continue
                        marks.update(("F" if body["components"] is None else "")
                                     + ("" if body["probabilities_computed"] else "C")
                                     + ("" if body["verdicts_complete"] else "V"))
                        proved = {(c["row"], c["col"]): c["verdict"] for c in body["cells"]
                                  if c["verdict"] != "unknown"}
                        if body["consistent"] is False or (
                                body["layouts"] is not None and case.layouts is not None
                                and int(body["layouts"]) != case.layouts) or (
                                case.verdicts is not None
                                and not proved.items() <= case.verdicts.items()):
                            wrong += 1
                            print(f"{name} {engine} {limit:g}: claims more than is so",
                                  file=sys.stderr)
                    text, over = _cell(worst, limit, marks)
                    late += over
                    row.append(text)
                print(f"| {name} | {cells:,} | {engine} | " + " | ".join(row) + " |",
                      flush=True)
    print()
    print(f"load average at end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; "
          f"{late} cells more than 1 s past their limit (marked !)")
    return 1 if wrong else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engines", nargs="+", default=None, choices=[*ENGINES, "brute"])
    parser.add_argument("--limits", nargs="+", type=float, default=LIMITS)
    parser.add_argument("--families", nargs="+", default=FAMILIES,
                        choices=[*FAMILIES, *WHOLE_FAMILIES[:4], "lattice 40x24"])
    parser.add_argument("--positions", type=int, default=3,
                        help="positions of the board families")
    parser.add_argument("--quick", action="store_true", help="limits 0.1 and 1 s only")
    parser.add_argument("--whole", action="store_true",
                        help="reading and writing included, the issue-41 families")
    parser.add_argument("--server", action="store_true",
                        help="with --whole: through the web server's POST /api/analyze")
    args = parser.parse_args()
    if args.engines is None:
        args.engines = [*ENGINES, "brute"] if args.whole else ENGINES
    if args.whole:
        warm = read_position(ROOT / "instances" / "reference-9x9.mine")
        for engine in args.engines:
            analyze(warm, backend=engine, time_limit=30)
        return main_served(args) if args.server else main_whole(args)
    limits = [limit for limit in args.limits if not args.quick or limit <= 1]

    warm = read_position(ROOT / "instances" / "reference-9x9.mine")
    for engine in args.engines:  # imports and child processes started outside the timings
        analyze(warm, backend=engine, time_limit=30)
    print(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; "
          f"{os.cpu_count()} cores; wall seconds of analyze (median / max over the "
          "positions) and positions counted")
    print()
    print("| family | floor | engine | "
          + " | ".join(f"limit {limit:g} s" for limit in limits) + " |")
    print("|---|---|---|" + "---|" * len(limits))
    wrong = 0
    for name in args.families:
        cases = family(name, args.positions)
        floor = 0.0
        for case in cases:
            started = time.perf_counter()
            build_frontier(case.position)
            floor = max(floor, time.perf_counter() - started)
        for engine in args.engines:
            cells = []
            for limit in limits:
                seconds = []
                counted = 0
                for case in cases:
                    started = time.perf_counter()
                    result = analyze(case.position, backend=get_backend(engine),
                                     time_limit=limit)
                    seconds.append(time.perf_counter() - started)
                    counted += result.probabilities_computed
                    if not sound(result, case):
                        wrong += 1
                        print(f"{name} {engine} {limit:g}: claims more than is so",
                              file=sys.stderr)
                late = "!" if max(seconds) > limit + floor + 1 else ""
                cells.append(f"{statistics.median(seconds):.2f} / {max(seconds):.2f}{late} "
                             f"({counted}/{len(cases)})")
            print(f"| {name} | {floor:.2f} | {engine} | " + " | ".join(cells) + " |",
                  flush=True)
    print()
    print(f"load average at end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
