"""MILP (CBC and HiGHS) against SAT on a small fixed suite: time, solver calls, agreement;
and (``--families``) DP, SAT, MILP-HiGHS and Ganak on the benchmark families and compiled SAT
instances.

Usage::

    python scripts/bench_backends.py                  # the default suite, one run each
    python scripts/bench_backends.py --repeat 3 --seeds 6
    python scripts/bench_backends.py --families --quick   # a few minutes
    python scripts/bench_backends.py --families           # all of it: ~2 hours, loaded

Positions: mid-game 9x9/10 and 16x16/40 positions dealt with a fixed seed (an opening at the
centre, then some random safe clicks next to what is open, flooding as the game does) and
every ``instances/*.mine``. For each engine two routes are timed:

``count``
    ``analyze`` as the CLI runs it: exact layout counts, probabilities and verdicts;
``verdicts``
    ``analyze(..., backend=VerdictsOnly(engine))``: counting switched off, so the verdicts
    come from ``mine_numbers`` and ``deduce`` (the "maximise disagreement" loop for MILP).

Figures are CPU milliseconds of this process *and its children* (CBC runs as a child
process per solve), the median over ``--repeat`` runs; CPU time is the per-core cost even on
a shared, loaded machine, whereas wall time grows with the load. Every engine's JSON (less
``seconds`` and ``backend``) must equal SAT's wherever both finish (``agree`` "yes"); a run
stopped by its time limit (``part``) must claim nothing SAT does not: each of its verdicts
is SAT's or "unknown". The script exits 1 otherwise. (How each engine keeps to a time limit
is ``scripts/bench_limits.py``'s.)

``--families``: the engines side by side, in one run, on

- the expert mid-game suite (every position of 30 seeded 30x16/99 games played with proved
  safe moves: ``exactmines generate dense --count 30``, 412 positions), the lattice family
  (``generate lattice --count 8``), sparse reveals on 30x16/99 and 50x50/500 (``generate
  sparse``, 5 each), all of seed 0 as ``bench_analyze.py`` measures them;
- positions compiled from random 3-SAT formulas (``generate sat``, seed 1) with
  ``--variables`` variables, at ``--ratios`` clauses per variable: 4.26 (the satisfiability
  threshold: few models) and 2 (many: 10^9 for 50 variables);

each counted twice: with the total mine count and without it (``Position.with_mines(None)``:
the count unknown). A cell is the CPU milliseconds of ``analyze`` over the suite (this
process and its children), then how many times the row's fastest engine that finished it.
Family positions run in this process with ``analyze(..., time_limit=--family-limit)``: a
position not counted in that (wall) time makes its engine's total a lower bound, shown
``> total (k/n > limit)``. Compiled positions run one engine at a time in a fresh process
limited to ``--compiled-limit`` CPU seconds (``RLIMIT_CPU``) and no analysis time limit: one
killed there shows ``> 120 s``; ``too wide`` is the DP refusing a table past its state cap.
``frontier`` is ``build_frontier`` alone, the floor every engine pays. Where two engines
count a position, their answers (consistency, layouts, every cell's probability and verdict)
must be the same, and for the compiled ones the layouts must equal the formula's model
count; the script exits 1 otherwise. An engine that is not installed (Ganak: ``pip install
pyganak``) gets a column saying so.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import multiprocessing
import os
import random
import resource
import signal
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from exactmines import analyze, read_position
from exactmines.analysis.backends import VerdictsOnly, engine_names, get_backend
from exactmines.analysis.serialize import analysis_to_dict
from exactmines.game import Game, deal
from exactmines.position import Position, neighbours

ROOT = Path(__file__).resolve().parents[1]
ENGINES = ["sat", "milp-cbc", "milp-highs"]
# width, height, mines, safe clicks after the opening
SHAPES = [(9, 9, 10, 3), (9, 9, 10, 8), (16, 16, 40, 10), (16, 16, 40, 30)]


def mid_game(width: int, height: int, mines: int, clicks: int, rng: random.Random) -> Position:
    """An opening at the centre, then ``clicks`` random safe cells next to the open area."""
    start = (height // 2, width // 2)
    game = Game(deal(width, height, mines, rng, rule="opening", at=start))
    game.reveal(start)
    for _ in range(clicks):
        edge = sorted({n for r in range(height) for c in range(width) if game.is_revealed((r, c))
                       for n in neighbours(width, height, (r, c))
                       if not game.is_revealed(n) and n not in game.board.mine_cells})
        if not edge or game.won:
            break
        game.reveal(rng.choice(edge))
    return game.position()


def covered(position: Position) -> int:
    return sum(row.count("H") for row in position.rows)


def suite(seeds: int, max_covered: int) -> list[tuple[str, Position]]:
    positions = []
    for width, height, mines, clicks in SHAPES:
        for seed in range(seeds):
            rng = random.Random(f"{width}x{height}x{mines}/{clicks}/{seed}")
            positions.append((f"{width}x{height}/{mines} +{clicks} #{seed}",
                              mid_game(width, height, mines, clicks, rng)))
    for path in sorted((ROOT / "instances").glob("*.mine")):
        position = read_position(path)
        if covered(position) <= max_covered:
            positions.append((path.name, position))
        else:
            print(f"skipped {path.name}: {covered(position):,} covered cells "
                  f"(--max-covered {max_covered:,})")
    return positions


def cpu() -> float:
    """CPU seconds of this process and of its finished children (the CBC runs)."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def timed(position: Position, engine: str, route: str, time_limit: float | None,
          repeat: int) -> tuple[float, int, dict[str, Any]]:
    """Median CPU ms, solver calls per run (MILP only) and the JSON of the last run."""
    backend = get_backend(engine)
    asked = backend if route == "count" else VerdictsOnly(backend)
    times = []
    calls = 0
    for _ in range(repeat):
        before_calls = getattr(backend, "solves", 0)
        start = cpu()
        result = analyze(position, backend=asked, time_limit=time_limit)
        times.append((cpu() - start) * 1000)
        calls = getattr(backend, "solves", 0) - before_calls
    out = analysis_to_dict(result)
    out.pop("seconds")
    out.pop("backend")
    return statistics.median(times), calls, out


def unfinished(out: dict[str, Any], route: str) -> bool:
    """The run stopped at its time limit (counting, or for the verdicts route, verdicts)."""
    return (not out["verdicts_complete"] or out["consistent"] is None
            or (route == "count" and not out["probabilities_computed"]))


def agreement(out: dict[str, Any], reference: dict[str, Any], route: str) -> str:
    """"yes" (same JSON), "part" (stopped early, claims only what SAT proves) or "NO"."""
    if out == reference:
        return "yes"
    if not unfinished(out, route) or out["consistent"] not in (None, reference["consistent"]):
        return "NO"
    if any(mine["verdict"] not in ("unknown", theirs["verdict"])
           for mine, theirs in zip(out["cells"], reference["cells"], strict=True)):
        return "NO"
    return "part"


def explain(name: str, engine: str, route: str, out: dict[str, Any],
            reference: dict[str, Any]) -> None:
    """Say on stderr where ``engine``'s JSON departs from SAT's."""
    keys = [k for k in out if k != "cells" and out[k] != reference.get(k)]
    cells = [(a["row"], a["col"], a["verdict"], b["verdict"], a["probability"],
              b["probability"]) for a, b in zip(out["cells"], reference["cells"], strict=True)
             if a != b]
    print(f"{name} {engine} {route}: differs in {keys} "
          f"{[(k, out[k], reference.get(k)) for k in keys if k != 'notes']} "
          f"notes {out['notes']}; {len(cells)} cells differ, first {cells[:3]}",
          file=sys.stderr)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--families", action="store_true",
                        help="DP, SAT, MILP-HiGHS and Ganak on the benchmark families and "
                             "compiled SAT instances (the options below marked so)")
    parser.add_argument("--quick", action="store_true",
                        help="--families: 3 games, 2 positions per family, 5 and 10 "
                             "variables, limits 2 s and 20 s")
    parser.add_argument("--engines", nargs="+", default=FAMILY_ENGINES,
                        help="--families: the engines compared")
    parser.add_argument("--family-limit", type=float, default=None,
                        help="--families: seconds per family position (default 5)")
    parser.add_argument("--compiled-limit", type=float, default=None,
                        help="--families: CPU seconds per compiled position and engine "
                             "(default 120)")
    parser.add_argument("--variables", type=int, nargs="+", default=None,
                        help="--families: variables of the compiled formulas "
                             "(default 5 10 20 50)")
    parser.add_argument("--ratios", type=float, nargs="+", default=[4.26, 2.0],
                        help="--families: clauses per variable of the compiled formulas")
    parser.add_argument("--suites", nargs="+", default=list(SUITES),
                        choices=list(SUITES), help="--families: which suites")
    parser.add_argument("--seeds", type=int, default=3, help="positions per shape")
    parser.add_argument("--repeat", type=int, default=1, help="runs per measurement")
    parser.add_argument("--time-limit", type=float, default=120.0,
                        help="seconds per analysis (either route)")
    parser.add_argument("--only", default="",
                        help="only the positions whose name contains this")
    parser.add_argument("--max-covered", type=int, default=50_000,
                        help="skip shipped instances with more covered cells (the 50-variable "
                             "compiled formulas: 194,361)")
    args = parser.parse_args()
    if args.families:
        return families(args)

    for engine in ENGINES:  # imports and solver start-up outside the timings
        analyze(read_position(ROOT / "instances" / "reference-9x9.mine"), backend=engine)
    print(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; "
          f"CPU ms (process + children), median of {args.repeat}")
    head = (f"{'position':24} {'front':>5} {'big':>4} {'layouts':>8} |"
            + "".join(f" {e + ' count':>17}" for e in ENGINES) + " |"
            + "".join(f" {e + ' verdicts':>20}" for e in ENGINES) + "  agree")
    print(head)
    print("-" * len(head))
    totals = {(e, route): [0.0, 0] for e in ENGINES for route in ("count", "verdicts")}
    disagreements = 0
    positions = [(name, position) for name, position in suite(args.seeds, args.max_covered)
                 if args.only in name]
    for name, position in positions:
        cells: list[str] = []
        verdict = "yes"
        shape = None
        for route in ("count", "verdicts"):
            reference = None
            for engine in ENGINES:
                ms, calls, out = timed(position, engine, route, args.time_limit, args.repeat)
                totals[engine, route][0] += ms
                totals[engine, route][1] += calls
                if reference is None:
                    reference = out
                    shape = shape or out
                else:
                    agreed = agreement(out, reference, route)
                    if agreed == "NO":
                        explain(name, engine, route, out, reference)
                    verdict = min(verdict, agreed, key=["NO", "part", "yes"].index)
                width = 17 if route == "count" else 20
                text = f"{ms:.2f}" + (f" ({calls})" if engine != "sat" else "")
                cells.append(f" {text:>{width}}")
            cells.append(" |")
        assert shape is not None
        layouts = shape["layouts"]
        digits = "-" if layouts is None else (layouts if len(layouts) <= 8
                                              else f"~1e{len(layouts) - 1}")
        disagreements += verdict == "NO"
        print(f"{name:24} {shape['frontier_cells']:>5} {shape['largest_component']:>4} "
              f"{digits:>8} |" + "".join(cells[:-1]) + f"  {verdict}")
    print("-" * len(head))
    for route in ("count", "verdicts"):
        sat_ms = totals["sat", route][0]
        parts = [f"sat {sat_ms:.0f} ms"]
        for engine in ENGINES[1:]:
            ms, calls = totals[engine, route]
            parts.append(f"{engine} {ms:.0f} ms = {ms / sat_ms:.1f}x sat, {calls} solves, "
                         f"{ms / max(calls, 1):.2f} ms/solve")
        print(f"total {route:8}: " + "; ".join(parts))
    print(f"load average at end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if disagreements:
        print(f"{disagreements} positions where an engine's JSON differs from SAT's",
              file=sys.stderr)
        return 1
    return 0


# ---------------------------------------------------------------------------------------
# --families: DP, SAT, MILP-HiGHS and Ganak side by side on the benchmark families and on
# compiled SAT instances

FAMILY_ENGINES = ["dp", "sat", "milp-highs", "ganak"]
SUITES = {
    "midgame": "expert mid-game",
    "lattice": "lattice 30x16/99",
    "sparse30": "sparse 30x16/99",
    "sparse50": "sparse 50x50/500",
    "compiled": "compiled 3-SAT",
}
MODES = ("total known", "total unknown")
#: Address space of a compiled position's process (a shared machine: the DP's tables on a
#: 194,361-cell position are the largest user).
CHILD_MEMORY_GB = 8
#: A tiny position each engine analyses before timing: imports and solver start-up.
WARM = Position(3, 1, 1, ("H1H",))


@dataclass
class Outcome:
    """One engine on one row: CPU ms over the row's positions, how many it answered in full
    (counted, every verdict), a status when it stopped short, and per position a digest of
    the answer (``None`` if not answered) and the layout count."""

    ms: float = 0.0
    finished: int = 0
    of: int = 0
    status: str = ""
    digests: list[str | None] = field(default_factory=list)
    layouts: list[int | None] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        return self.finished == self.of and not self.status


@dataclass
class Row:
    suite: str
    label: str
    mode: str
    positions: int
    frontier_ms: float
    outcomes: dict[str, Outcome | str]
    limit: float
    models: int | None = None  # compiled: the formula's model count (the ground truth)


def answer_digest(result: Any) -> str:
    """The analysis as JSON without what may differ between engines (time, engine, notes)."""
    out = analysis_to_dict(result)
    for key in ("seconds", "backend", "notes"):
        out.pop(key)
    return hashlib.sha256(json.dumps(out, sort_keys=True).encode()).hexdigest()


def unavailable(engine: str) -> str | None:
    """Why ``engine`` cannot run here, or ``None``."""
    from exactmines.errors import BackendUnavailable

    if engine not in engine_names():
        return "not installed"
    try:
        get_backend(engine)
    except BackendUnavailable:
        return "not installed"
    return None


def family_positions(suite: str, quick: bool) -> list[tuple[str, Position]]:
    from exactmines.generate.families import dense_games, lattice_position, sparse_position

    if suite == "midgame":
        return [(f"game {s.game} move {s.move}", s.position) for s in dense_games(3 if quick
                                                                                 else 30)]
    count = 2 if quick else (8 if suite == "lattice" else 5)
    if suite == "lattice":
        return [(f"lattice {i}", lattice_position(0, i)) for i in range(count)]
    if suite == "sparse30":
        return [(f"sparse30 {i}", sparse_position(0, i, width=30, height=16, mines=99))
                for i in range(count)]
    return [(f"sparse50 {i}", sparse_position(0, i)) for i in range(count)]


def frontier_ms(positions: list[Position]) -> float:
    from exactmines.analysis.frontier import build_frontier

    start = cpu()
    for position in positions:
        build_frontier(position)
    return (cpu() - start) * 1000


def run_family(positions: list[Position], engine: str, limit: float,
               repeat: int) -> Outcome:
    """``engine`` on each position in this process, ``analyze``'s time limit ``limit``."""
    from exactmines.errors import BudgetExceeded

    analyze(WARM, backend=get_backend(engine))
    outcome = Outcome(of=len(positions))
    for position in positions:
        times = []
        digest: str | None = None
        layouts: int | None = None
        for _ in range(repeat):
            backend = get_backend(engine)
            start = cpu()
            try:
                result = analyze(position, backend=backend, time_limit=limit)
            except BudgetExceeded:
                result = None
            times.append((cpu() - start) * 1000)
            if result is not None and result.probabilities_computed \
                    and result.verdicts_complete:
                digest, layouts = answer_digest(result), result.layouts
        outcome.ms += statistics.median(times)
        outcome.finished += digest is not None
        outcome.digests.append(digest)
        outcome.layouts.append(layouts)
    return outcome


def _compiled_child(conn: Any, engine: str, position: Position, limit: float) -> None:
    """In a fresh process: ``analyze`` with no time limit, killed by the kernel past
    ``limit`` CPU seconds (SIGXCPU) and held to :data:`CHILD_MEMORY_GB`; sends (status, ms,
    digest, layouts)."""
    from exactmines.errors import BudgetExceeded, TooLarge

    backend = get_backend(engine)
    analyze(WARM, backend=backend)
    backend = get_backend(engine)
    soft = int(time.process_time() + limit) + 1
    resource.setrlimit(resource.RLIMIT_CPU, (soft, soft + 10))
    memory = CHILD_MEMORY_GB << 30
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    start = cpu()
    try:
        result = analyze(position, backend=backend)
    except TooLarge:
        conn.send(("too wide", (cpu() - start) * 1000, None, None))
        return
    except BudgetExceeded as exc:
        conn.send((f"gave up: {exc}", (cpu() - start) * 1000, None, None))
        return
    except MemoryError:
        conn.send(("out of memory", (cpu() - start) * 1000, None, None))
        return
    ms = (cpu() - start) * 1000
    if not (result.probabilities_computed and result.verdicts_complete):
        conn.send(("not counted", ms, None, result.layouts))
    elif ms > 1000 * limit:
        conn.send((f"> {limit:g} s", ms, None, None))
    else:
        conn.send(("", ms, answer_digest(result), result.layouts))


def run_compiled(position: Position, engine: str, limit: float) -> Outcome:
    """``engine`` on one compiled position in a fresh process (see :func:`_compiled_child`).
    A process the kernel stopped, or still running after 10x the limit in wall time (a very
    loaded machine), counts as past the limit."""
    context = multiprocessing.get_context("spawn")
    receiver, sender = context.Pipe(duplex=False)
    process = context.Process(target=_compiled_child, args=(sender, engine, position, limit))
    process.start()
    sender.close()
    message = None
    if receiver.poll(10 * limit + 120):
        try:
            message = receiver.recv()
        except EOFError:
            message = None
    if process.is_alive():
        process.kill()
    process.join()
    outcome = Outcome(of=1)
    if message is None:
        outcome.ms = 1000 * limit
        outcome.status = f"> {limit:g} s"
        if process.exitcode not in (-signal.SIGXCPU, -signal.SIGKILL):
            outcome.status += f" (exit {process.exitcode})"
        outcome.digests.append(None)
        outcome.layouts.append(None)
        return outcome
    status, outcome.ms, digest, layouts = message
    outcome.status = status
    outcome.finished = digest is not None
    outcome.digests.append(digest)
    outcome.layouts.append(layouts)
    return outcome


def compiled_positions(variables: list[int], ratios: list[float]
                       ) -> list[tuple[str, Position, int | None]]:
    from exactmines.generate.positions import random_sat_instances

    out = []
    for ratio in ratios:
        for v in variables:
            clauses = round(ratio * v)
            instance = random_sat_instances(v, clauses, 1)[0]
            assert instance.position is not None
            size = instance.metadata["size"]
            models = instance.metadata["model_count"]
            out.append((f"{v} vars, {clauses} clauses ({size['covered']:,} cells, "
                        f"{'?' if models is None else f'{models:,}'} models)",
                        instance.position, models))
    return out


def cell_text(outcome: Outcome | str, best: float | None) -> str:
    if isinstance(outcome, str):
        return outcome
    if outcome.complete:
        ratio = "" if best is None else f" ({outcome.ms / best:.3g}x)"
        return f"{outcome.ms:,.1f}{ratio}"
    if outcome.status:
        if outcome.status.startswith(">"):
            return outcome.status
        return f"{outcome.status} ({outcome.ms / 1000:.1f} s)"
    return f"> {outcome.ms:,.0f} ({outcome.of - outcome.finished}/{outcome.of} not counted)"


def check_agreement(row: Row) -> list[str]:
    """Where two engines answered the same position differently, or a compiled count is
    not the formula's model count."""
    problems = []
    done = {e: o for e, o in row.outcomes.items() if isinstance(o, Outcome)}
    for i in range(row.positions):
        answers = {e: o.digests[i] for e, o in done.items() if o.digests[i] is not None}
        if len(set(answers.values())) > 1:
            problems.append(f"{row.label} ({row.mode}) position {i}: engines differ: "
                            f"{sorted(answers)}")
        if row.models is not None and row.mode == MODES[0]:
            for engine, outcome in done.items():
                if outcome.digests[i] is not None and outcome.layouts[i] != row.models:
                    problems.append(f"{row.label}: {engine} counts {outcome.layouts[i]} "
                                    f"layouts, the formula has {row.models} models")
    return problems


def families(args: argparse.Namespace) -> int:
    import importlib.metadata

    family_limit = args.family_limit or (2.0 if args.quick else 5.0)
    compiled_limit = args.compiled_limit or (20.0 if args.quick else 120.0)
    variables = args.variables or ([5, 10] if args.quick else [5, 10, 20, 50])
    engines = args.engines
    missing = {e: why for e in engines if (why := unavailable(e)) is not None}
    versions = []
    for package in ("python-sat", "highspy", "pyganak"):
        try:
            versions.append(f"{package} {importlib.metadata.version(package)}")
        except importlib.metadata.PackageNotFoundError:
            versions.append(f"{package} not installed")
    print(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; "
          f"{', '.join(versions)}")
    print(f"CPU ms of analyze (process + children) over each row's positions; (Nx) = N times "
          f"the row's fastest engine; family positions limited to {family_limit:g} s each, "
          f"compiled ones to {compiled_limit:g} CPU s per engine", flush=True)
    rows: list[Row] = []
    width = 30
    head = f"{'suite':<26} {'positions':>9} {'total':<13} {'frontier':>9} |" + "".join(
        f" {e:>{width}}" for e in engines)
    print(head)
    print("-" * len(head), flush=True)

    def show(row: Row) -> None:
        finished = [o.ms for o in row.outcomes.values() if isinstance(o, Outcome) and o.complete]
        best = min(finished) if finished else None
        print(f"{row.label:<26} {row.positions:>9} {row.mode:<13} {row.frontier_ms:>9,.1f} |"
              + "".join(f" {cell_text(row.outcomes[e], best):>{width}}" for e in engines),
              flush=True)

    def measure_row(suite: str, label: str, positions: list[Position],
                    run: Callable[[list[Position], str], Outcome], limit: float,
                    models: int | None = None) -> None:
        floor = frontier_ms(positions)
        for mode in MODES:
            targets = positions if mode == MODES[0] else [p.with_mines(None) for p in positions]
            outcomes: dict[str, Outcome | str] = {}
            for engine in engines:
                outcomes[engine] = missing[engine] if engine in missing else run(targets, engine)
            row = Row(suite, label, mode, len(positions), floor, outcomes, limit, models)
            rows.append(row)
            show(row)

    for suite in args.suites:
        if suite == "compiled":
            continue
        positions = [p for _, p in family_positions(suite, args.quick)]
        measure_row(suite, SUITES[suite], positions,
                    lambda ps, e: run_family(ps, e, family_limit, args.repeat), family_limit)
    if "compiled" in args.suites:
        for label, position, models in compiled_positions(variables, args.ratios):
            print(f"  compiled 3-SAT, {label}:", flush=True)
            measure_row("compiled", f"  {label.split(' (')[0]}", [position],
                        lambda ps, e: run_compiled(ps[0], e, compiled_limit), compiled_limit,
                        models)
    print("-" * len(head))
    problems = [p for row in rows for p in check_agreement(row)]
    summarise(rows, engines, missing)
    print(f"load average at end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for problem in problems:
        print(f"DISAGREEMENT: {problem}", file=sys.stderr)
    return 1 if problems else 0


def summarise(rows: list[Row], engines: list[str], missing: dict[str, str]) -> None:
    """Where each engine wins and by how much: per row the fastest engine that answered
    every position and its lead over the next one (or that no other engine finished)."""
    print("\nwinners (the next engine's time over the winner's):")
    leads: dict[str, list[float]] = {e: [] for e in engines}
    alone: dict[str, list[str]] = {e: [] for e in engines}
    for row in rows:
        done = sorted((o.ms, e) for e, o in row.outcomes.items()
                      if isinstance(o, Outcome) and o.complete)
        name = f"{row.label.strip()} ({row.mode})"
        if not done:
            print(f"  {name}: no engine finished")
            continue
        ms, winner = done[0]
        if len(done) > 1:
            lead = done[1][0] / ms if ms > 0 else float("inf")
            leads[winner].append(lead)
            unfinished = sorted(set(row.outcomes) - {e for _, e in done} - set(missing))
            print(f"  {name}: {winner} {ms:,.1f} ms, {lead:.3g}x ahead of {done[1][1]}"
                  + (f"; {', '.join(unfinished)} did not finish" if unfinished else ""))
        else:
            others = [f"{e} {cell_text(o, None)}" for e, o in row.outcomes.items()
                      if e != winner and isinstance(o, Outcome)]
            if not others:
                print(f"  {name}: {winner} {ms:,.1f} ms (no other engine ran)")
                continue
            alone[winner].append(name)
            print(f"  {name}: only {winner} finished ({ms:,.1f} ms; {', '.join(others)})")
    print("\nby engine:")
    for engine in engines:
        if engine in missing:
            print(f"  {engine}: {missing[engine]}")
            continue
        won = leads[engine]
        text = f"  {engine}: fastest on {len(won) + len(alone[engine])} of {len(rows)} rows"
        if won:
            text += (f"; ahead of the next engine by {min(won):.3g}x to {max(won):.3g}x "
                     f"(median {statistics.median(won):.3g}x)")
        if alone[engine]:
            text += f"; the only one to finish {len(alone[engine])}: " + "; ".join(alone[engine])
        print(text)

if __name__ == "__main__":
    sys.exit(main())
