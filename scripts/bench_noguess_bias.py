"""Where the no-guess generators put their mines, against the uniform no-guess boards.

The issue's two measures of bias, per method and setting (first click in the middle,
``opening`` rule, the count known):

- *border/interior*: mine density on the border cells over the interior's (the first
  click's opening left out of the interior: no mine may sit there);
- *density by distance*: mine density on the cells at each king-move (Chebyshev) distance
  from the first click, 2 and more (distances 0 and 1 are the opening), and one number for
  the slope of that curve, *far/near*: density at distance 7 and more over density at 2-4.

The reference is ``rejection`` (exactly uniform over the no-guess boards of the rule),
run where it is practical: 30x16/99 and 16x16/40. Every method is run on the same seeds.
Where rejection does not run (30x16/150 and /200), uniform random boards (no no-guess
condition: 1.00 everywhere by symmetry) are the only yardstick, and uniform no-guess boards
are known *not* to be flat there (docs/noguess.md: the chains put more mines on the edges),
so there the reference is a long Markov chain over no-guess boards (``--chain-steps``;
:mod:`exactmines.solvability.chain`, uniform in the limit), run from two far-apart starts
(a built board, ``chain from build``, and ms_toollib's edge-heavy board, ``chain from
edges``), sampled every ``--thin`` steps after the first quarter: where the two agree the
chain has mixed, and their profile is the reference.

    python scripts/bench_noguess_bias.py --boards 400 --figure docs/images/noguess-bias.png
    python scripts/bench_noguess_bias.py --boards 100 --methods build --settings 30x16/200
    python scripts/bench_noguess_bias.py --methods chain --chain-steps 40000 --settings 30x16/150

ms_toollib's ``laymine_solvable_adjust`` is added when ms_toollib is installed (a benchmark
dependency only).
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_noguess import border_ratio, ours, toollib  # noqa: E402

from exactmines.position import Board  # noqa: E402

#: (width, height, mines, whether rejection is practical there)
SETTINGS = [(16, 16, 40, True), (30, 16, 99, True), (30, 16, 150, False),
            (30, 16, 200, False), (30, 16, 240, False)]
NEAR = range(2, 5)
FAR_FROM = 7


def distance_profile(boards: list[Board], at: tuple[int, int]) -> dict[int, float]:
    """Mine density per Chebyshev distance from ``at`` (2 and more), pooled over ``boards``."""
    width, height = boards[0].width, boards[0].height
    cells: dict[int, int] = {}
    mines: dict[int, int] = {}
    for r in range(height):
        for c in range(width):
            d = max(abs(r - at[0]), abs(c - at[1]))
            if d >= 2:
                cells[d] = cells.get(d, 0) + 1
                mines.setdefault(d, 0)
    for board in boards:
        for r, c in board.mine_cells:
            d = max(abs(r - at[0]), abs(c - at[1]))
            if d >= 2:
                mines[d] += 1
    return {d: mines[d] / (cells[d] * len(boards)) for d in sorted(cells)}


def far_near(profile: dict[int, float], boards: list[Board],
             at: tuple[int, int]) -> float:
    """Density at distance :data:`FAR_FROM` and more over density at :data:`NEAR`
    (cell-weighted: the pooled densities of the two zones)."""
    width, height = boards[0].width, boards[0].height
    weight: dict[int, int] = {}
    for r in range(height):
        for c in range(width):
            d = max(abs(r - at[0]), abs(c - at[1]))
            weight[d] = weight.get(d, 0) + 1

    def zone(ds: list[int]) -> float:
        n = sum(weight[d] for d in ds)
        return sum(profile[d] * weight[d] for d in ds) / n

    near = zone([d for d in profile if d in NEAR])
    far = zone([d for d in profile if d >= FAR_FROM])
    return far / near if near else math.inf


def chain_samples(width: int, height: int, mines: int, origin: str, steps: int,
                  thin: int) -> list[Board]:
    """One chain of ``steps`` steps from a built board (``origin`` ``build``) or from
    ms_toollib's (``edges``), a board kept every ``thin`` steps after the first quarter."""
    import random

    from exactmines.game import board_from_indices
    from exactmines.solvability.chain import chain_board

    at = (height // 2, width // 2)
    begin = (ours("build") if origin == "build" else toollib)(width, height, mines, 0)
    cells = sorted(r * width + c for r, c in begin.mine_cells)
    rng = random.Random(f"chain {origin}")
    out: list[Board] = []
    kept = 0
    for done in range(0, steps, thin):
        cells, moved = chain_board(width, height, cells, rng, start="opening", at=at,
                                   steps=thin)
        kept += moved
        if done >= steps // 4:
            out.append(board_from_indices(width, height, cells))
    print(f"(chain from {origin}, {width}x{height}/{mines}: {kept} of {steps} moves kept)",
          file=sys.stderr)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--boards", type=int, default=200)
    parser.add_argument("--methods", default="rejection,build",
                        help="comma-separated: rejection, build, auto, ms_toollib, chain")
    parser.add_argument("--settings", default="",
                        help="comma-separated WxH/M (default: 16x16/40, 30x16/99, "
                             "/150, /200, /240)")
    parser.add_argument("--chain-steps", type=int, default=40_000,
                        help="steps of each reference chain (method chain)")
    parser.add_argument("--thin", type=int, default=100,
                        help="steps between the boards a chain keeps")
    parser.add_argument("--figure", type=Path, help="write the density-by-distance figure")
    args = parser.parse_args()
    settings = SETTINGS
    if args.settings:
        chosen = set(args.settings.split(","))
        settings = [s for s in SETTINGS if f"{s[0]}x{s[1]}/{s[2]}" in chosen]
    makers: dict[str, Callable[[int, int, int, int], Board]] = {}
    for name in args.methods.split(","):
        if name != "chain":
            makers[name] = toollib if name == "ms_toollib" else ours(name)
    curves: dict[str, list[tuple[str, dict[int, float]]]] = {}
    print("| board | method | boards | ms median | border/interior | far/near | "
          "density at distance 2, 3, ... |")
    print("|---|---|---|---|---|---|---|")
    for width, height, mines, uniform in settings:
        at = (height // 2, width // 2)
        label = f"{width}x{height}/{mines}"
        runs = [name for name in makers if uniform or name != "rejection"]
        if "chain" in args.methods.split(",") and not uniform:
            runs += ["chain from build", "chain from edges"]
        for name in runs:
            if name.startswith("chain"):
                boards = chain_samples(width, height, mines, name.split()[-1],
                                       args.chain_steps, args.thin)
                times = [math.nan]
            else:
                boards, times = _made(makers[name], width, height, mines, args.boards)
            profile = distance_profile(boards, at)
            curves.setdefault(label, []).append((name, profile))
            print(f"| {label} | {name} | {len(boards)} | "
                  f"{statistics.median(times) * 1e3:.1f} | "
                  f"{border_ratio(boards, at):.2f} | {far_near(profile, boards, at):.2f} | "
                  f"{', '.join(f'{v:.3f}' for v in profile.values())} |", flush=True)
    if args.figure:
        draw(curves, args.figure)


#: One colour per method in every panel.
COLOURS = {"rejection": "tab:blue", "build": "tab:orange", "ms_toollib": "tab:green",
           "auto": "tab:purple", "chain from build": "tab:red", "chain from edges": "tab:brown"}


def draw(curves: dict[str, list[tuple[str, dict[int, float]]]], path: Path) -> None:
    """One panel per setting: mine density by distance from the first click, per method."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    columns = min(3, len(curves))
    rows = -(-len(curves) // columns)
    fig, axes = plt.subplots(rows, columns, figsize=(4.2 * columns, 3.3 * rows),
                             squeeze=False)
    for ax, (label, lines) in zip(axes.flat, curves.items(), strict=False):
        for name, profile in lines:
            ax.plot(list(profile), list(profile.values()), marker="o", markersize=3,
                    label=name, color=COLOURS.get(name))
        width, height, mines = label.replace("/", "x").split("x")
        flat = int(mines) / (int(width) * int(height) - 9)
        ax.axhline(flat, color="grey", linewidth=0.8, linestyle="--", label="uniform random")
        ax.set_title(label)
        ax.set_xlabel("distance from the first click")
        ax.set_ylabel("mine density")
        ax.legend(fontsize=7)
    for ax in list(axes.flat)[len(curves):]:
        ax.set_visible(False)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=90)
    print(f"figure: {path}")


def _made(make: Callable[[int, int, int, int], Board], width: int, height: int,
          mines: int, count: int) -> tuple[list[Board], list[float]]:
    boards, times = [], []
    for seed in range(count):
        start = time.process_time()
        boards.append(make(width, height, mines, seed))
        times.append(time.process_time() - start)
    return boards, times


if __name__ == "__main__":
    main()
