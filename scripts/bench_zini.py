"""Benchmark: the exact fewest clicks (exactmines zini) against ms_toollib's heuristics
(cal_zini greedy, cal_hzini openings first, cal_rzini best of random runs) on seeded random
boards of the three standard sizes.

    python scripts/bench_zini.py --boards 1000 --time-limit 10

Per size: never more clicks than the best heuristic (checked), how often strictly fewer
and by how much, the share proved optimal within 1 s and within the time limit, and the
median time per board. ms_toollib is a benchmark dependency only.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import ms_toollib

from exactmines.budget import Budget
from exactmines.efficiency.zini import fewest_clicks
from exactmines.game import random_board

SIZES = {"beginner": (9, 9, 10), "intermediate": (16, 16, 40), "expert": (30, 16, 99)}


def _grid(board):
    return [[-1 if (r, c) in board.mine_cells else board.number((r, c))
             for c in range(board.width)] for r in range(board.height)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--time-limit", type=float, default=10.0)
    parser.add_argument("--sizes", default="beginner,intermediate,expert")
    args = parser.parse_args()
    for name in args.sizes.split(","):
        w, h, m = SIZES[name]
        times, fewer, saved, within1, proved, worse = [], 0, [], 0, 0, 0
        for i in range(args.boards):
            board = random_board(w, h, m, random.Random(f"{args.seed}-{name}-{i}"))
            grid = _grid(board)
            best = min(ms_toollib.cal_zini(grid), ms_toollib.cal_hzini(grid),
                       ms_toollib.cal_rzini(grid))
            started = time.monotonic()
            answer = fewest_clicks(board, budget=Budget.seconds(args.time_limit))
            took = time.monotonic() - started
            times.append(took)
            worse += answer.clicks > best
            if answer.clicks < best:
                fewer += 1
                saved.append(best - answer.clicks)
            proved += answer.optimal
            within1 += answer.optimal and took <= 1.0
            print(f"{name} {i}: clicks {answer.clicks} lower {answer.lower_bound} "
                  f"best heuristic {best} {took:.2f} s", flush=True)
        n = args.boards
        print(f"== {name} ({w}x{h}/{m}), {n} boards: more than the best heuristic {worse}; "
              f"strictly fewer {fewer} ({100 * fewer / n:.1f} %, "
              f"{statistics.mean(saved) if saved else 0:.2f} clicks on average); proved "
              f"optimal within 1 s {100 * within1 / n:.1f} %, within {args.time_limit:g} s "
              f"{100 * proved / n:.1f} %; median {statistics.median(times):.2f} s, "
              f"max {max(times):.2f} s", flush=True)


if __name__ == "__main__":
    main()
