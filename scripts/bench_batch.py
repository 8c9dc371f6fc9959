"""Throughput of ``exactmines batch``: one process, K local processes, a K-worker Dask cluster.

    python scripts/bench_batch.py --positions 300 --workers 2 [--clicks 3]

Writes mid-game expert positions (30x16/99: a random board, a few random zero cells opened
with their flood, a tenth of the mines flagged) to a temporary folder, then times the batch
command on them in each mode. Every mode must give the same answers (checked).
"""

from __future__ import annotations

import argparse
import json
import random
import tempfile
import time
from pathlib import Path

from exactmines.io.files import write_position
from exactmines.position import Board, Position
from exactmines.runner import read_rows
from exactmines.ui.cli import main


def mid_game(rng: random.Random, width: int, height: int, mines: int, clicks: int) -> Position:
    cells = [(r, c) for r in range(height) for c in range(width)]
    board = Board(width, height, frozenset(rng.sample(cells, mines)))
    numbers = board.numbers()
    zeros = [cell for cell in cells
             if cell not in board.mine_cells and numbers[cell[0] * width + cell[1]] == 0]
    revealed: set[tuple[int, int]] = set()
    for start in rng.sample(zeros, min(clicks, len(zeros))):
        stack = [start]
        while stack:
            r, c = stack.pop()
            if (r, c) in revealed:
                continue
            revealed.add((r, c))
            if numbers[r * width + c] == 0:
                stack += [(rr, cc) for rr in range(max(r - 1, 0), min(r + 2, height))
                          for cc in range(max(c - 1, 0), min(c + 2, width))]
    flags = set(rng.sample(sorted(board.mine_cells), mines // 10))
    return board.position(revealed, flags)


def answers(out: Path) -> dict[str, tuple]:
    return {r["id"]: (r["layouts"], tuple(c["probability"] for c in r["cells"]))
            for r in read_rows(out)[1]}


def main_bench() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=300)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--clicks", type=int, default=3,
                        help="Zero cells opened per position (more: bigger fronts).")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as folder:
        base = Path(folder)
        for i in range(args.positions):
            write_position(base / "in" / f"p{i:05d}.mine", mid_game(rng, 30, 16, 99, args.clicks))
        modes: list[tuple[str, list[str]]] = [
            ("1 process", ["--workers", "1"]),
            (f"{args.workers} processes", ["--workers", str(args.workers)]),
        ]
        from dask.distributed import LocalCluster

        started = time.perf_counter()
        cluster = LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                               dashboard_address=None)
        print(f"LocalCluster with {args.workers} workers started in "
              f"{time.perf_counter() - started:.2f} s")
        modes.append((f"Dask, {args.workers} workers", ["--scheduler",
                                                         cluster.scheduler_address]))
        reference = None
        try:
            for index, (name, extra) in enumerate(modes):
                out = base / f"out{index}.jsonl"
                started = time.perf_counter()
                code = main(["batch", str(base / "in"), "--out", str(out), "--quiet",
                             *extra])
                seconds = time.perf_counter() - started
                assert code == 0
                got = answers(out)
                reference = reference or got
                assert got == reference, f"{name} disagrees with the first mode"
                print(json.dumps({"mode": name, "positions": args.positions,
                                  "seconds": round(seconds, 2),
                                  "positions_per_second": round(args.positions / seconds, 1)}))
        finally:
            cluster.close()


if __name__ == "__main__":
    main_bench()
