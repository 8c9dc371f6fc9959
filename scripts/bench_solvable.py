"""Speed of the no-guess check: ms per board, one process, against the issue's targets.

Usage::

    python scripts/bench_solvable.py                 # both sizes, default board counts
    python scripts/bench_solvable.py --boards 5000 --profile
    python scripts/bench_solvable.py --area          # one board each of 100², 300², 1000²

Each case deals boards with seed 000's rule (uniform board, first click on a random zero
cell), exactly as ``exactmines survey --start random-zero`` does, and times dealing plus
solving (the figure seed 000 reports) and solving alone. Targets (issue 5): 8x8/13
<= 0.3 ms per board, 20x20/80 <= 5 ms per board; seed 000's JavaScript: 1.0 and 25 ms.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import random
import resource
import subprocess
import sys
import time

from exactmines.game import free_indices, protected_cells
from exactmines.solvability.check import solve_indices
from exactmines.solvability.survey import SurveySettings, _deal, _free, board_seed

CASES = [
    # width, height, mines, boards, target ms per board
    (8, 8, 13, 4000, 0.3),
    (20, 20, 80, 400, 5.0),
]


def run_case(width: int, height: int, mines: int, boards: int, seed: int,
             use_count: bool) -> dict[str, float]:
    """CPU and wall seconds for dealing + solving and for solving alone, and the number of
    boards solvable.

    CPU time of this process is the per-core cost even on a shared, loaded machine; wall
    time is what a user waits for and grows with the load.
    """
    settings = SurveySettings(width, height, mines, "random-zero", None, seed, use_count)
    free = _free(settings)
    wall, cpu = time.perf_counter(), time.process_time()
    dealt = [_deal(settings, free, random.Random(board_seed(seed, i))) for i in range(boards)]
    deal_wall, deal_cpu = time.perf_counter() - wall, time.process_time() - cpu
    solved = 0
    wall, cpu = time.perf_counter(), time.process_time()
    for mine_list, at in dealt:
        if at is not None:
            solved += solve_indices(width, height, mine_list, at[0] * width + at[1],
                                    use_count=use_count).solvable
    solve_wall, solve_cpu = time.perf_counter() - wall, time.process_time() - cpu
    return {"cpu": deal_cpu + solve_cpu, "solve_cpu": solve_cpu,
            "wall": deal_wall + solve_wall, "solved": solved}


#: Sides of the square boards of ``--area``.
AREA_SIDES = (100, 300, 1000)


def area_row(side: int, seed: int) -> dict[str, float]:
    """Check one ``side`` x ``side`` board at 15 % mines from the centre (opening rule):
    wall and CPU seconds of the check alone, peak memory of this process, the outcome."""
    mines = side * side * 15 // 100
    at = (side // 2, side // 2)
    free = free_indices(side, side, mines, protected_cells(side, side, "opening", at))
    mine_list = random.Random(seed).sample(free, mines)
    wall, cpu = time.perf_counter(), time.process_time()
    outcome = solve_indices(side, side, mine_list, at[0] * side + at[1])
    return {"side": side, "mines": mines, "wall": time.perf_counter() - wall,
            "cpu": time.process_time() - cpu,
            "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
            "revealed": outcome.revealed.bit_count(), "solvable": outcome.solvable,
            "exact_steps": outcome.exact_steps}


def area_curve(seed: int) -> None:
    print("no-guess check against area (15% mines, opening at the centre), each in a fresh "
          "process:")
    for side in AREA_SIDES:
        done = subprocess.run([sys.executable, __file__, "--one", str(side), "--seed",
                               str(seed)], capture_output=True, text=True, check=True)
        row = json.loads(done.stdout)
        cells = side * side
        print(f"{side}x{side}/{row['mines']}: {row['wall']:.2f} s wall, {row['cpu']:.2f} s "
              f"CPU ({1e6 * row['cpu'] / cells:.2f} us per cell), peak {row['peak_mb']:.0f} "
              f"MB; {row['revealed']} cells revealed, {row['exact_steps']} exact steps, "
              f"{'solvable' if row['solvable'] else 'stuck'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, help="boards per case (default: per case)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-count", action="store_true")
    parser.add_argument("--profile", action="store_true", help="cProfile the solving")
    parser.add_argument("--area", action="store_true", help="the cost against the area")
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)  # one --area row, as JSON
    args = parser.parse_args()
    if args.one:
        print(json.dumps(area_row(args.one, args.seed)))
        return
    if args.area:
        print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
        area_curve(args.seed)
        return
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    for width, height, mines, default_boards, target in CASES:
        boards = args.boards or default_boards
        if args.profile:
            profiler = cProfile.Profile()
            profiler.enable()
        result = run_case(width, height, mines, boards, args.seed, not args.no_count)
        if args.profile:
            profiler.disable()
            pstats.Stats(profiler).sort_stats("tottime").print_stats(12)
        per_board = 1000 * result["cpu"] / boards
        verdict = "meets" if per_board <= target else "MISSES"
        print(f"{width}x{height}/{mines} random-zero, {boards} boards, "
              f"{result['solved'] / boards:.1%} solvable: {per_board:.3f} CPU ms/board dealt+"
              f"solved ({1000 * result['solve_cpu'] / boards:.3f} solving), "
              f"{1000 * result['wall'] / boards:.3f} wall ms/board; target {target} ms: "
              f"{verdict}")


if __name__ == "__main__":
    main()
