"""Benchmark: the exact fewest clicks (exactmines zini) against ms_toollib's heuristics
(cal_zini greedy, cal_hzini openings first, cal_rzini best of random runs) on seeded random
boards of the three standard sizes.

    python scripts/bench_zini.py --sizes beginner --boards 1000 --time-limit 10 \\
        --out zini-beginner.jsonl

The time limit is wall-clock time: on a loaded machine each board gets less processor time,
shown beside. One JSON row per board goes to ``--out`` as it finishes, so an interrupted
run keeps its boards and the same command resumes it (a file of another run, size, seed or
time limit is refused); ``--boards`` can grow between runs. Per size, the summary: boards with more
clicks than the best heuristic (should be none), how often strictly fewer and by how much,
the share proved optimal within 1 s and within the time limit, and the time per board.
ms_toollib is a benchmark dependency only.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from functools import partial
from pathlib import Path

from exactmines.budget import Budget
from exactmines.efficiency.zini import fewest_clicks
from exactmines.errors import ExactminesError
from exactmines.game import random_board
from exactmines.runner import read_rows, run_batch

SIZES = {"beginner": (9, 9, 10), "intermediate": (16, 16, 40), "expert": (30, 16, 99)}


def _grid(board):
    return [[-1 if (r, c) in board.mine_cells else board.number((r, c))
             for c in range(board.width)] for r in range(board.height)]


def _cpu() -> float:
    """Processor seconds of this process and its children: the search of a large part
    runs in a child process, alive between boards (psutil), or ended and waited for."""
    import psutil

    ended = os.times()
    alive = 0.0
    for child in psutil.Process().children(recursive=True):
        try:
            times = child.cpu_times()
        except psutil.Error:
            continue
        alive += times.user + times.system
    return time.process_time() + ended.children_user + ended.children_system + alive


def _boards(meta: dict, tasks: list[dict]) -> list[dict]:
    """One row per board: our clicks and bound, ms_toollib's three counts, our seconds."""
    import ms_toollib

    w, h, m = SIZES[meta["size"]]
    rows = []
    for task in tasks:
        i = task["id"]
        board = random_board(w, h, m, random.Random(f"{meta['seed']}-{meta['size']}-{i}"))
        grid = _grid(board)
        theirs = [ms_toollib.cal_zini(grid), ms_toollib.cal_hzini(grid),
                  ms_toollib.cal_rzini(grid)]
        started, cpu = time.monotonic(), _cpu()
        answer = fewest_clicks(board, budget=Budget.seconds(meta["time_limit"]))
        rows.append({"id": i, "clicks": answer.clicks, "lower_bound": answer.lower_bound,
                     "optimal": answer.optimal, "bbbv": answer.bbbv,
                     "heuristic": answer.greedy, "zini": theirs[0], "hzini": theirs[1],
                     "rzini": theirs[2], "seconds": round(time.monotonic() - started, 3),
                     "cpu_seconds": round(_cpu() - cpu, 3)})
    return rows


def summary(name: str, rows: list[dict], limit: float) -> str:
    """The line of one size's figures."""
    n = len(rows)
    best = [min(r["zini"], r["hzini"], r["rzini"]) for r in rows]
    worse = sum(r["clicks"] > b for r, b in zip(rows, best, strict=True))
    saved = [b - r["clicks"] for r, b in zip(rows, best, strict=True) if r["clicks"] < b]
    proved = sum(r["optimal"] for r in rows)
    within1 = sum(r["optimal"] and r["seconds"] <= 1.0 for r in rows)
    times = [r["seconds"] for r in rows]
    cpu = [r.get("cpu_seconds", 0.0) for r in rows]
    w, h, m = SIZES[name]
    return (f"== {name} ({w}x{h}/{m}), {n} boards, {limit:g} s each: more clicks than the "
            f"best heuristic {worse}; strictly fewer {len(saved)} "
            f"({100 * len(saved) / n:.1f} %, {statistics.mean(saved) if saved else 0:.2f} "
            f"clicks fewer on average); proved optimal within 1 s {100 * within1 / n:.1f} %, "
            f"within {limit:g} s {100 * proved / n:.1f} %; time per board median "
            f"{statistics.median(times):.2f} s, mean {statistics.mean(times):.2f} s, "
            f"max {max(times):.2f} s (processor time: median {statistics.median(cpu):.2f} s)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--time-limit", type=float, default=10.0)
    parser.add_argument("--sizes", default="beginner,intermediate,expert")
    parser.add_argument("--out", type=Path, default=None,
                        help="JSONL file of the rows (one size per file); resumed if there")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--summary", action="store_true",
                        help="only summarise the rows already in --out (a run cut short)")
    args = parser.parse_args()
    names = args.sizes.split(",")
    if args.summary:
        if args.out is None:
            parser.error("--summary needs --out")
        meta, rows = read_rows(args.out)
        if not rows or meta is None:
            parser.error(f"{args.out}: no rows")
        print(summary(meta["size"], sorted(rows, key=lambda r: r["id"]), meta["time_limit"]))
        return
    if args.out is not None and len(names) > 1:
        parser.error("--out takes one size at a time")
    for name in names:
        meta = {"run": "bench_zini", "size": name, "seed": args.seed,
                "time_limit": args.time_limit}
        rows = run_batch([{"id": i} for i in range(args.boards)], partial(_boards, meta),
                         out=args.out, meta=meta, resume=True, workers=args.workers,
                         chunk_size=1, progress=sys.stderr.isatty(),
                         description=f"{name} boards")
        print(summary(name, rows, args.time_limit), flush=True)


if __name__ == "__main__":
    try:
        main()
    except ExactminesError as exc:
        print(f"bench_zini: {exc}", file=sys.stderr)
        sys.exit(2)
    except KeyboardInterrupt as exc:  # Ctrl-C, or SIGTERM (runner.Interrupted)
        print("bench_zini: stopped; the finished boards are kept in --out and the same "
              "command resumes the run", file=sys.stderr)
        sys.exit(128 + getattr(exc, "signum", 2))
