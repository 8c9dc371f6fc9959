"""MILP (CBC and HiGHS) against SAT on a small fixed suite: time, solver calls, agreement.

Usage::

    python scripts/bench_backends.py                  # the default suite, one run each
    python scripts/bench_backends.py --repeat 3 --seeds 6

Positions: mid-game 9x9/10 and 16x16/40 positions dealt with a fixed seed (an opening at the
centre, then some random safe clicks next to what is open, flooding as the game does) and
every ``instances/*.mine``. For each engine two routes are timed:

``count``
    ``analyze`` as the CLI runs it: exact layout counts, probabilities and verdicts;
``verdicts``
    ``analyze(..., time_limit=0)``: counting stops at once, so the verdicts come from
    ``mine_numbers`` and ``deduce`` (the "maximise disagreement" loop for MILP).

Figures are CPU milliseconds of this process *and its children* (CBC runs as a child
process per solve), the median over ``--repeat`` runs; CPU time is the per-core cost even on
a shared, loaded machine, whereas wall time grows with the load. Every engine's JSON (less
``seconds`` and ``backend``) must equal SAT's wherever both finish (``agree`` "yes"); a run
stopped by its time limit (``part``) must claim nothing SAT does not: each of its verdicts
is SAT's or "unknown". The script exits 1 otherwise.

Last, ``--time-limit`` itself: each engine on the biggest shipped instance with
``--honour`` seconds (counting stops, then the verdicts get as long again), wall time
against twice the limit.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from exactmines import analyze, read_position
from exactmines.analysis.backends import get_backend
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


def timed(position: Position, engine: str, time_limit: float | None,
          repeat: int) -> tuple[float, int, dict[str, Any]]:
    """Median CPU ms, solver calls per run (MILP only) and the JSON of the last run."""
    backend = get_backend(engine)
    times = []
    calls = 0
    for _ in range(repeat):
        before_calls = getattr(backend, "solves", 0)
        start = cpu()
        result = analyze(position, backend=backend, time_limit=time_limit)
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


def honoured(limit: float, name: str, position: Position) -> None:
    """Wall seconds of each engine on ``position`` under ``limit``."""
    print(f"\n--time-limit {limit:g} on {name} (counting, then verdicts; "
          f"<= about {2 * limit:g} s plus one model build per question):")
    for engine in ENGINES:
        start = time.perf_counter()
        result = analyze(position, backend=engine, time_limit=limit)
        wall = time.perf_counter() - start
        print(f"  {engine:11} {wall:6.1f} s wall: probabilities "
              f"{'computed' if result.probabilities_computed else 'not computed'}, verdicts "
              f"{'complete' if result.verdicts_complete else 'incomplete'} "
              f"({len(result.safe)} safe, {len(result.mines)} mines proved), consistent "
              f"{result.consistent}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=3, help="positions per shape")
    parser.add_argument("--repeat", type=int, default=1, help="runs per measurement")
    parser.add_argument("--time-limit", type=float, default=120.0,
                        help="seconds for counting (the count route)")
    parser.add_argument("--honour", type=float, default=2.0,
                        help="the time limit of the last check (0 skips it)")
    parser.add_argument("--only", default="",
                        help="only the positions whose name contains this")
    parser.add_argument("--max-covered", type=int, default=50_000,
                        help="skip shipped instances with more covered cells (the 50-variable "
                             "compiled formulas: 194,361)")
    args = parser.parse_args()

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
        for route, limit in (("count", args.time_limit), ("verdicts", 0.0)):
            reference = None
            for engine in ENGINES:
                ms, calls, out = timed(position, engine, limit, args.repeat)
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
    if args.honour:
        honoured(args.honour, *max(positions, key=lambda item: covered(item[1])))
    print(f"load average at end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if disagreements:
        print(f"{disagreements} positions where an engine's JSON differs from SAT's",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
