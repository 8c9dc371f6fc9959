"""No-guess boards by method and density: speed, certification and bias (docs/noguess.md).

For each setting (a board size and mine number, first click in the middle, ``opening``
rule, the count known) and each method, ``--boards`` boards are made and measured:

- time per board (median and 95th percentile): the CPU time of this process (on a shared
  machine wall time measures the other jobs too), our methods including the certificate
  (``generate noguess`` writes every board with its check from the first click);
- the share of boards that ``exactmines solvable`` certifies (must be 100 % for ours);
- mine density on the border cells over the interior's (the first click's opening left
  out of the interior: no mine may sit there);
- 3BV (mean, and a two-sample Mann-Whitney test against the reference's boards: ``z`` and
  the two-sided p-value by the normal approximation) and openings per board.

The methods: ``rejection`` (exactly uniform over the no-guess boards; the reference, run
only where it is practical), ``build`` (exactmines' builder), ms_toollib's
``laymine_solvable_adjust`` (``pip install ms_toollib``; a benchmark dependency only, as in
the other scripts; its time is its own call's), ``auto`` (what ``generate noguess`` does
by default: rejection while it has a chance, then build), and on three settings the Markov chain
(``--method chain``) from two far-apart starts, a built board and ms_toollib's (mines on
the edges): where their figures agree the chain has mixed; where rejection does not run,
the chain from a built board is the reference of the 3BV test.

    python scripts/bench_noguess.py --boards 40            # the table of docs/noguess.md
    python scripts/bench_noguess.py --boards 10 --quick    # three settings
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from collections.abc import Callable

from exactmines.game import board_from_indices, three_bv
from exactmines.generate.positions import noguess_boards
from exactmines.position import Board
from exactmines.solvability.check import solvable

#: (width, height, mines, whether rejection is practical there)
SETTINGS = [(9, 9, 10, True), (16, 16, 40, True), (16, 16, 100, False), (16, 16, 150, False),
            (30, 16, 99, True), (30, 16, 150, False), (30, 16, 200, False),
            (30, 16, 240, False)]
#: The settings the chains run on (each board costs a check per step).
CHAINED = {(30, 16, 99), (16, 16, 100), (30, 16, 200)}
QUICK = [(16, 16, 40, True), (30, 16, 99, True), (30, 16, 200, False)]


def ours(method: str) -> Callable[[int, int, int, int], Board]:
    def make(width: int, height: int, mines: int, seed: int) -> Board:
        instance = noguess_boards(width, height, mines, seed, 1, at=(height // 2, width // 2),
                                  method=method, attempts=100_000)[0]
        assert instance.board is not None
        return instance.board
    return make


def chained(origin: str, steps: int) -> Callable[[int, int, int, int], Board]:
    """The chain (``--method chain``) run ``steps`` steps from a built board (``build``) or
    from ms_toollib's adjust board (``edges``: its mines piled on the edges, far from the
    built boards): two starts whose statistics must agree when the chain has mixed."""
    from exactmines.solvability.chain import chain_board

    def make(width: int, height: int, mines: int, seed: int) -> Board:
        at = (height // 2, width // 2)
        begin = ours("build")(width, height, mines, seed) if origin == "build" else toollib(
            width, height, mines, seed)
        cells = sorted(r * width + c for r, c in begin.mine_cells)
        end, _ = chain_board(width, height, cells, random.Random(seed), start="opening",
                             at=at, steps=steps)
        return board_from_indices(width, height, end)
    return make


def toollib(width: int, height: int, mines: int, seed: int) -> Board:
    import ms_toollib  # type: ignore[import-not-found]

    rows, _ = ms_toollib.laymine_solvable_adjust(height, width, mines, height // 2, width // 2)
    return board_from_indices(width, height, [r * width + c for r in range(height)
                                              for c in range(width) if rows[r][c] == -1])


def openings(board: Board) -> int:
    """Connected areas of zeros (each opens with one click)."""
    numbers, width = board.numbers(), board.width
    table = board.topology.neighbour_table
    mines = {r * width + c for r, c in board.mine_cells}
    seen: set[int] = set()
    count = 0
    for start in range(board.width * board.height):
        if start in mines or numbers[start] or start in seen:
            continue
        count += 1
        stack = [start]
        seen.add(start)
        while stack:
            for j in table[stack.pop()]:
                if j not in seen and j not in mines and numbers[j] == 0:
                    seen.add(j)
                    stack.append(j)
    return count


def border_ratio(boards: list[Board], at: tuple[int, int]) -> float:
    """Mine density on the border cells over the interior's, pooled over the boards."""
    if not boards:
        return math.nan
    width, height = boards[0].width, boards[0].height
    opening = {(at[0] + dr, at[1] + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)}
    border = [(r, c) for r in range(height) for c in range(width)
              if r in (0, height - 1) or c in (0, width - 1)]
    inner = [(r, c) for r in range(1, height - 1) for c in range(1, width - 1)
             if (r, c) not in opening]
    on_border = sum(len(b.mine_cells.intersection(border)) for b in boards)
    inside = sum(len(b.mine_cells.intersection(inner)) for b in boards)
    if inside == 0:
        return math.inf
    return (on_border / len(border)) / (inside / len(inner))


def mann_whitney(a: list[int], b: list[int]) -> tuple[float, float]:
    """``(z, two-sided p)`` of the Mann-Whitney U test, normal approximation with ties."""
    n, m = len(a), len(b)
    if not n or not m:
        return math.nan, math.nan
    pooled = sorted([(x, 0) for x in a] + [(x, 1) for x in b])
    ranks = [0.0] * len(pooled)
    i = 0
    ties = 0.0
    while i < len(pooled):
        j = i
        while j + 1 < len(pooled) and pooled[j + 1][0] == pooled[i][0]:
            j += 1
        for k in range(i, j + 1):
            ranks[k] = (i + j) / 2 + 1
        t = j - i + 1
        ties += t ** 3 - t
        i = j + 1
    u = sum(r for r, (_, side) in zip(ranks, pooled, strict=True) if side == 0) - n * (n + 1) / 2
    total = n + m
    var = n * m / 12 * ((total + 1) - ties / (total * (total - 1)))
    if var <= 0:
        return 0.0, 1.0
    z = (u - n * m / 2) / math.sqrt(var)
    return z, math.erfc(abs(z) / math.sqrt(2))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--boards", type=int, default=40)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--chain-steps", type=int, default=1000,
                        help="steps of each chain (0: no chain rows)")
    parser.add_argument("--chain-boards", type=int, default=10)
    args = parser.parse_args()
    methods: list[tuple[str, Callable[[int, int, int, int], Board]]] = [
        ("rejection", ours("rejection")), ("build", ours("build")), ("auto", ours("auto"))]
    try:
        import ms_toollib  # type: ignore[import-not-found]  # noqa: F401
        methods.append(("ms_toollib adjust", toollib))
    except ImportError:
        print("(ms_toollib not installed: its rows are left out)")
    if args.chain_steps and len(methods) == 4:
        methods += [(f"chain {args.chain_steps} from build", chained("build", args.chain_steps)),
                    (f"chain {args.chain_steps} from edges", chained("edges", args.chain_steps))]
    print("| board | method | median ms | p95 ms | certified | border/interior | "
          "3BV mean | 3BV vs reference (z, p) | openings |")
    print("|---|---|---|---|---|---|---|---|---|")
    for width, height, mines, uniform in (QUICK if args.quick else SETTINGS):
        at = (height // 2, width // 2)
        reference: list[int] | None = None
        for name, make in methods:
            if name == "rejection" and not uniform:
                continue
            times, boards = [], []
            chain = name.startswith("chain")
            if chain and (width, height, mines) not in CHAINED:
                continue
            for seed in range(args.chain_boards if chain else args.boards):
                start = time.process_time()
                board = make(width, height, mines, seed)
                times.append(time.process_time() - start)
                boards.append(board)
            certified = sum(1 for b in boards
                            if at not in b.mine_cells and solvable(b, at).solvable)
            values = [three_bv(b) for b in boards]
            first = reference is None and (name == "rejection" or chain)
            if first:  # the reference: rejection, else the chain from a built board
                reference = values
            test = "reference" if first else "-"
            if reference is not None and not first:
                z, p = mann_whitney(values, reference)
                test = f"z {z:.2f}, p {p:.3f}"
            times.sort()
            p95 = times[min(len(times) - 1, math.ceil(0.95 * len(times)) - 1)]
            print(f"| {width}x{height}/{mines} | {name} | {statistics.median(times) * 1e3:.0f} | "
                  f"{p95 * 1e3:.0f} | {certified}/{len(boards)} | "
                  f"{border_ratio(boards, at):.2f} | {statistics.mean(values):.1f} | {test} | "
                  f"{statistics.mean(openings(b) for b in boards):.1f} |", flush=True)


if __name__ == "__main__":
    main()
