"""Speed of the no-guess check: ms per board, one process, against the issue's targets.

Usage::

    python scripts/bench_solvable.py                 # both sizes, default board counts
    python scripts/bench_solvable.py --boards 5000 --profile

Each case deals boards with seed 000's rule (uniform board, first click on a random zero
cell), exactly as ``exactmines survey --start random-zero`` does, and times dealing plus
solving (the figure seed 000 reports) and solving alone. Targets (issue 5): 8x8/13
<= 0.3 ms per board, 20x20/80 <= 5 ms per board; seed 000's JavaScript: 1.0 and 25 ms.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import random
import time

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, help="boards per case (default: per case)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-count", action="store_true")
    parser.add_argument("--profile", action="store_true", help="cProfile the solving")
    args = parser.parse_args()
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
