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
``seconds`` and ``backend``) must equal SAT's; the script exits 1 if one does not.
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
from exactmines.backends import get_backend
from exactmines.game import Game, deal
from exactmines.position import Position, neighbours
from exactmines.report import analysis_to_dict

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


def suite(seeds: int) -> list[tuple[str, Position]]:
    positions = []
    for width, height, mines, clicks in SHAPES:
        for seed in range(seeds):
            rng = random.Random(f"{width}x{height}x{mines}/{clicks}/{seed}")
            positions.append((f"{width}x{height}/{mines} +{clicks} #{seed}",
                              mid_game(width, height, mines, clicks, rng)))
    for path in sorted((ROOT / "instances").glob("*.mine")):
        positions.append((path.name, read_position(path)))
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=3, help="positions per shape")
    parser.add_argument("--repeat", type=int, default=1, help="runs per measurement")
    parser.add_argument("--time-limit", type=float, default=120.0,
                        help="seconds for counting (the count route)")
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
    for name, position in suite(args.seeds):
        cells: list[str] = []
        agree = True
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
                elif out != reference:
                    agree = False
                width = 17 if route == "count" else 20
                text = f"{ms:.2f}" + (f" ({calls})" if engine != "sat" else "")
                cells.append(f" {text:>{width}}")
            cells.append(" |")
        assert shape is not None
        layouts = shape["layouts"]
        digits = "-" if layouts is None else (layouts if len(layouts) <= 8
                                              else f"~1e{len(layouts) - 1}")
        disagreements += not agree
        print(f"{name:24} {shape['frontier_cells']:>5} {shape['largest_component']:>4} "
              f"{digits:>8} |" + "".join(cells[:-1]) + ("  yes" if agree else "  NO"))
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


if __name__ == "__main__":
    sys.exit(main())
