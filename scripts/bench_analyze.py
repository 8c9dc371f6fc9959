"""Speed of ``analyze`` on a fixed, seeded suite of positions, and how it grows with the board.

Usage::

    python scripts/bench_analyze.py                  # the whole suite (a few minutes)
    python scripts/bench_analyze.py --quick          # a subset, under ~30 s
    python scripts/bench_analyze.py --backend sat --time-limit 5   # another engine
    python scripts/bench_analyze.py --profile lattice  # cProfile of one family
    python scripts/bench_analyze.py --versus         # against ms_toollib (pip install ms_toollib)
    python scripts/bench_analyze.py --area           # only the curves against the area

Every figure is the whole pipeline in one process: frontier (boxes and components),
counting, combination into exact fractions, and the per-cell answers. ``wall`` is what a
user waits; ``cpu`` is this process's CPU time, the better figure on a shared, loaded
machine. Positions of the small families are timed 3 times each and the fastest run counts
(a time slice lost to another process or a garbage collection is not the analysis's cost);
the big boards run once each, in a fresh child process, so ``peak MB`` (maximum resident
set size) is that board's own: position making plus analysis.

Families (issue 4, targets in brackets; midgame, lattice and sparse are ``exactmines
generate dense|lattice|sparse``, from :mod:`exactmines.generate.families`):

``midgame``
    30x16/99 positions met while playing seeded games with safe moves only: first click on
    (8, 15) with a guaranteed opening, then every cell the exact analysis proves safe, until
    none is left (a guess would be needed) or the game is won [median <= 3 ms, worst <= 30].
``lattice``
    30x16/99 with every 4th cell clicked, the cells ``(even row, even column)`` that hold no
    mine, zeros flooding as in a game: one connected front of ~200 cells [<= 50 ms].
``sparse``
    50x50/500 with 250 random safe cells revealed, no flooding [<= 100 ms].
``area``
    WxW boards at 15 % mines, mid-game: every safe cell of a centred disc of 40 % of the
    board clicked (zeros flood), the mines inside it still covered: 100x100, 300x300,
    1000x1000 [1000x1000 <= 10 s and <= 2 GB; cost linear in the area].
``play``
    one whole game of ``exactmines play`` (best strategy) on the same WxW boards at 15 %
    mines, the first click at the centre with an opening (SNR), game 0 of seed 0: the
    player reveals nearly every safe cell, mostly by local rules, with a few exact analyses
    and guesses [1000x1000 <= 10 s and <= 2 GB; cost linear in the area].
``generate``
    ``generate position`` (half the safe cells revealed), ``solvable`` on its hidden board
    from the centre and ``generate noguess`` (auto: by rejection on small boards, by repair
    of the one board dealt at 1000x1000) on the same WxW boards at 15 % mines, seed 0, each
    in a fresh process with its peak memory [1000x1000 <= 10 s and <= 2 GB each].
"""

from __future__ import annotations

import argparse
import cProfile
import importlib.metadata
import multiprocessing
import pstats
import resource
import statistics
import sys
import time
from collections.abc import Callable

from exactmines.analysis.analyze import analyze
from exactmines.analysis.backends import backend_names
from exactmines.generate.families import (
    dense_games,
    lattice_position,
    opened_region_position,
    sparse_position,
)
from exactmines.play.games import PlaySettings, deal_game, play_game
from exactmines.position import Board, Position

MIDGAME_GAMES = 30
LATTICE_SEEDS = range(8)
SPARSE_SEEDS = range(5)
DENSITY = 0.15
AREA_SIDES = (100, 300, 1000)
REPEATS = 3  # the small positions: fastest of 3 runs each


# ---------------------------------------------------------------------------------------
# Positions


def midgame_positions(games: int, seed: int = 0) -> list[tuple[str, Position]]:
    """Every position met in ``games`` seeded 30x16/99 games played with safe moves only
    (``exactmines generate dense``)."""
    return [(f"game {step.game} move {step.move}", step.position)
            for step in dense_games(games, seed)]


# ---------------------------------------------------------------------------------------
# Measuring


def measure(name: str, position: Position, backend: str, repeats: int = 1,
            time_limit: float | None = None) -> dict[str, object]:
    """One analysis, timed; with ``repeats``, the fastest of that many (the usual way to
    keep another process's time slice or a garbage collection out of a milliseconds figure
    on a shared machine)."""
    wall = cpu = float("inf")
    for _ in range(repeats):
        w, c = time.perf_counter(), time.process_time()
        result = analyze(position, backend=backend, time_limit=time_limit)
        wall = min(wall, time.perf_counter() - w)
        cpu = min(cpu, time.process_time() - c)
    return dict(position=name, frontier=result.frontier_cells, components=result.components,
                largest=result.largest_component, wall=wall, cpu=cpu,
                counted=result.probabilities_computed)


def _area_case(args: tuple[int, str, float | None]) -> dict[str, object]:
    side, backend, limit = args
    made = time.perf_counter()
    position = opened_region_position(side)
    made = time.perf_counter() - made
    row = measure(f"{side}x{side}, 15% mines, 40% opened", position, backend, 1, limit)
    row["make"] = made
    row["peak_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return row


def _play_case(args: tuple[int, str, float | None]) -> dict[str, object]:
    """One game on a side x side board at 15 % mines (the player counts on its own: the
    backend and time limit do not apply)."""
    side = args[0]
    centre = (side // 2, side // 2)
    settings = PlaySettings(side, side, round(DENSITY * side * side), "opening", centre, 0)
    wall, cpu = time.perf_counter(), time.process_time()
    record = play_game(side, side, deal_game(settings, 0), centre,
                       settings.player_strategy(), "opening")
    return dict(side=side, won=record.won, revealed=record.revealed, guesses=record.guesses,
                wall=time.perf_counter() - wall, cpu=time.process_time() - cpu,
                peak_mb=resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)


def _generated_board(side: int) -> Board:
    """The hidden board of ``generate position`` on a side x side board at 15 % mines
    (opening at the centre, half the safe cells revealed), seed 0, instance 0."""
    from exactmines.generate.positions import midgame_positions

    board = midgame_positions(side, side, round(DENSITY * side * side), 0, 1)[0].board
    if board is None:
        raise RuntimeError("generate position returned no hidden board")
    return board


def _timed(row: dict[str, object], wall: float, cpu: float) -> dict[str, object]:
    return dict(row, wall=time.perf_counter() - wall, cpu=time.process_time() - cpu,
                peak_mb=resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)


def _position_case(args: tuple[int, str, float | None]) -> dict[str, object]:
    """``generate position`` on a side x side board (see :func:`_generated_board`)."""
    wall, cpu = time.perf_counter(), time.process_time()
    _generated_board(args[0])
    return _timed({}, wall, cpu)


def _solvable_case(args: tuple[int, str, float | None]) -> dict[str, object]:
    """``solvable`` from the centre on the board of :func:`_position_case` (made first,
    untimed; its memory counts in the peak)."""
    from exactmines.solvability.check import solvable

    side = args[0]
    board = _generated_board(side)
    wall, cpu = time.perf_counter(), time.process_time()
    answer = solvable(board, (side // 2, side // 2), backend=args[1]).solvable
    return _timed({"solvable": answer}, wall, cpu)


def _noguess_case(args: tuple[int, str, float | None]) -> dict[str, object]:
    """``generate noguess`` (auto: rejection while the board is small, else repair of the
    board dealt) on a side x side board at 15 % mines, opening at the centre, seed 0."""
    from exactmines.generate.positions import noguess_boards

    side = args[0]
    wall, cpu = time.perf_counter(), time.process_time()
    made = noguess_boards(side, side, round(DENSITY * side * side), 0, 1, backend=args[1])[0]
    meta = made.metadata
    return _timed({"method": meta["method"], "dealt": meta["boards_dealt"],
                   "moves": meta["repair_moves"]}, wall, cpu)


def in_child(function: Callable[[tuple[int, str, float | None]], dict[str, object]],
             args: tuple[int, str, float | None]) -> dict[str, object]:
    """Run ``function(args)`` in a fresh process (its own peak memory)."""
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        return pool.apply(function, (args,))


HEADER = f"{'position':<34} {'frontier':>8} {'comps':>6} {'largest':>7} {'wall ms':>9} " \
         f"{'cpu ms':>9}"


def line(row: dict[str, object]) -> str:
    text = (f"{row['position']:<34} {row['frontier']:>8} {row['components']:>6} "
            f"{row['largest']:>7} {1000 * row['wall']:>9.1f} {1000 * row['cpu']:>9.1f}")
    if not row["counted"]:
        text += "  (probabilities not computed)"
    if "peak_mb" in row:
        text += f"  peak {row['peak_mb']:.0f} MB, making the position {row['make']:.1f} s"
    return text


def summary(label: str, rows: list[dict[str, object]], target_ms: float | None = None) -> None:
    cpu = [1000 * r["cpu"] for r in rows]
    wall = [1000 * r["wall"] for r in rows]
    text = (f"  {label}: {len(rows)} positions, cpu ms median {statistics.median(cpu):.2f} "
            f"max {max(cpu):.1f}; wall ms median {statistics.median(wall):.2f} "
            f"max {max(wall):.1f}")
    if target_ms is not None:
        text += f"  (target {target_ms:g} ms)"
    print(text)


# ---------------------------------------------------------------------------------------
# Against ms_toollib (issue 25)

MS_TOOLLIB_CODES = {"H": 10, "F": 11, **{str(d): d for d in range(9)}}


def versus_ms_toollib(positions: list[tuple[str, Position]], backend: str,
                      runs: int = 5) -> None:
    """exactmines ``analyze`` against ms_toollib's ``cal_probability_onboard`` (Rust) on the
    same positions, in this process: warm (one untimed pass each first), CPU time
    (``time.process_time``) of each call. Each of ``runs`` runs times one tool over the
    whole suite, then the other (which goes first alternates), so each runs warm in its own
    steady state, as in a process of its own, and a loaded machine slows both alike.
    (Alternating position by position instead slows both, each evicting the other's
    caches: exactmines by about 30 %, ms_toollib by 10 %.) Total: the median over the
    runs of the CPU summed over the suite; per position: the median over positions of each
    one's median over the runs. The boards are converted to ms_toollib's lists of numbers
    (10 covered, 11 flag) before timing. The answers are compared too: every covered cell's
    exact probability against ms_toollib's float, within 1e-9.

    ms_toollib is for this benchmark only (``pip install ms_toollib``), not a dependency.
    """
    try:
        import ms_toollib
    except ImportError:
        print("\nversus ms_toollib: not installed, skipped (pip install ms_toollib; it is "
              "needed by this benchmark only)")
        return
    boards = [[[MS_TOOLLIB_CODES[ch] for ch in row] for row in p.rows] for _, p in positions]
    theirs_of = ms_toollib.cal_probability_onboard
    for (_, position), board in zip(positions, boards, strict=True):  # warm both
        analyze(position, backend=backend)
        theirs_of(board, position.mines)
    ours = [[0.0] * runs for _ in positions]
    theirs = [[0.0] * runs for _ in positions]
    clock = time.process_time

    def time_ours(run: int) -> None:
        for i, (_, position) in enumerate(positions):
            started = clock()
            analyze(position, backend=backend)
            ours[i][run] = clock() - started

    def time_theirs(run: int) -> None:
        for i, ((_, position), board) in enumerate(zip(positions, boards, strict=True)):
            started = clock()
            theirs_of(board, position.mines)
            theirs[i][run] = clock() - started

    for run in range(runs):
        for timed in ((time_ours, time_theirs) if run % 2 == 0 else (time_theirs, time_ours)):
            timed(run)
    worst, differ = 0.0, 0
    for (_, position), board in zip(positions, boards, strict=True):
        probabilities, _ = theirs_of(board, position.mines)
        for cell in analyze(position, backend=backend).cells:
            gap = abs(float(cell.probability) - probabilities[cell.row][cell.col])
            worst = max(worst, gap)
            differ += gap > 1e-9

    def figures(times: list[list[float]]) -> tuple[float, float, float]:
        total = statistics.median(sum(t[run] for t in times) for run in range(runs))
        each = [statistics.median(t) for t in times]
        return 1000 * total, 1000 * statistics.median(each), 1000 * max(each)

    version = importlib.metadata.version("ms_toollib")
    print(f"\nversus ms_toollib {version} on the {len(positions)} 30x16/99 mid-game "
          f"positions: warm, CPU ms, median of {runs} runs, each tool over the suite in turn")
    print(f"  {'':<40} {'total':>9} {'median':>8} {'max':>8}")
    mine = figures(ours)
    other = figures(theirs)
    print(f"  {'exactmines analyze (' + backend + ')':<40} {mine[0]:>9.1f} {mine[1]:>8.3f} "
          f"{mine[2]:>8.2f}")
    print(f"  {'ms_toollib cal_probability_onboard':<40} {other[0]:>9.1f} {other[1]:>8.3f} "
          f"{other[2]:>8.2f}")
    print(f"  exactmines / ms_toollib: total {mine[0] / other[0]:.2f}x, median per position "
          f"{mine[1] / other[1]:.2f}x (targets: total <= 0.5x, median <= 0.5 ms)")
    print(f"  answers: largest difference {worst:.1e} over every covered cell; "
          f"{differ} cells differ by more than 1e-9")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--backend", default="auto", choices=backend_names())
    parser.add_argument("--time-limit", type=float, default=None,
                        help="seconds for counting per position (default: none); past it the "
                             "analysis gives verdicts without probabilities, as marked")
    parser.add_argument("--quick", action="store_true",
                        help="a subset: fewer games and seeds, no 1000x1000 board")
    parser.add_argument("--profile", choices=["midgame", "lattice", "sparse", "area"],
                        help="cProfile one family (area: the 300x300 board) and print the top")
    parser.add_argument("--verbose", action="store_true", help="a line for every position")
    parser.add_argument("--versus", action="store_true",
                        help="only the table against ms_toollib (mid-game suite)")
    parser.add_argument("--area", action="store_true",
                        help="only the curves against the area (analyze, play, generate and "
                             "solvable on 100x100, 300x300, 1000x1000)")
    args = parser.parse_args(argv)
    games = 8 if args.quick else MIDGAME_GAMES
    lattice_seeds = range(3) if args.quick else LATTICE_SEEDS
    sparse_seeds = range(2) if args.quick else SPARSE_SEEDS
    sides = AREA_SIDES[:2] if args.quick else AREA_SIDES

    if args.profile:
        return profile(args.profile, args.backend)

    if args.versus:
        versus_ms_toollib(list(midgame_positions(games)), args.backend)
        return 0

    if args.area:
        print(f"backend {args.backend}")
        area_curves(sides, args.backend, args.time_limit)
        return 0

    # The positions are made first (the midgame ones with the auto engine), then timed.
    analyze(Position(1, 1, 0, ("H",)), backend=args.backend)  # imports, caches
    print(f"backend {args.backend}; times are the whole analyze() call\n")
    print(HEADER)
    midgame = list(midgame_positions(games))
    limit = args.time_limit
    rows = [measure(name, p, args.backend, REPEATS, limit) for name, p in midgame]
    if args.verbose:
        for row in rows:
            print(line(row))
    worst = max(rows, key=lambda r: r["cpu"])
    print(line({**worst, "position": f"midgame worst: {worst['position']}"}))
    summary("30x16/99 midgame", rows, 3)
    print(f"  (worst target 30 ms; {len(midgame)} positions from {games} games)")
    versus_ms_toollib(midgame, args.backend)

    rows = [measure(f"lattice 30x16/99 seed {s}", lattice_position(0, s), args.backend, REPEATS,
                    limit) for s in lattice_seeds]
    for row in rows:
        print(line(row))
    summary("30x16/99 lattice", rows, 50)

    rows = [measure(f"sparse 50x50/500 seed {s}", sparse_position(0, s), args.backend, REPEATS,
                    limit) for s in sparse_seeds]
    for row in rows:
        print(line(row))
    summary("50x50/500, 250 revealed", rows, 100)
    area_curves(sides, args.backend, limit)
    return 0


def area_curves(sides: tuple[int, ...], backend: str, limit: float | None) -> None:
    """The families that grow with the board: analyze, play, generate and solvable on WxW
    boards at 15 % mines, each in a fresh process."""
    print("\ncost versus area (15% mines, 40% of the board opened), each in a fresh process:")
    rows = []
    for side in sides:
        row = in_child(_area_case, (side, backend, limit))
        rows.append(row)
        print(line(row))
    base = rows[0]
    for row, side in zip(rows, sides, strict=True):
        ratio = row["cpu"] / base["cpu"] / (side * side / (sides[0] ** 2))
        print(f"  {side}x{side}: {1e9 * row['cpu'] / side**2:.0f} ns cpu per cell, "
              f"{ratio:.2f}x the {sides[0]}x{sides[0]} cost per cell")
    if 1000 in sides:
        print("  target for 1000x1000: <= 10 s and <= 2 GB")

    print("\nplay: one whole game (15% mines, opening at the centre, seed 0), each in a fresh "
          "process:")
    for side in sides:
        row = in_child(_play_case, (side, backend, limit))
        print(f"  {side}x{side}: {row['revealed']} cells revealed, {row['guesses']} guesses, "
              f"{'won' if row['won'] else 'lost'}; wall {row['wall']:.2f} s, cpu "
              f"{row['cpu']:.2f} s ({1e6 * row['cpu'] / side**2:.1f} us per cell), peak "
              f"{row['peak_mb']:.0f} MB")
    if 1000 in sides:
        print("  target for 1000x1000: <= 10 s and <= 2 GB")

    print("\ngenerate position, solvable on its board from the centre, generate noguess "
          "(15% mines, opening at the centre, seed 0), each in a fresh process:")
    cases = (("position", _position_case), ("solvable", _solvable_case),
             ("noguess", _noguess_case))
    for side in sides:
        for name, case in cases:
            row = in_child(case, (side, backend, limit))
            detail = ""
            if name == "solvable":
                detail = f"; {'solvable' if row['solvable'] else 'not solvable'}"
            elif name == "noguess":
                detail = (f"; {row['method']}, {row['dealt']} "
                          f"board{'s' if row['dealt'] != 1 else ''} dealt, {row['moves']} "
                          f"move{'s' if row['moves'] != 1 else ''}")
            print(f"  {side}x{side} {name + ':':<9} wall {row['wall']:.2f} s, cpu "
                  f"{row['cpu']:.2f} s ({1e6 * row['cpu'] / side**2:.1f} us per cell), peak "
                  f"{row['peak_mb']:.0f} MB{detail}")
    if 1000 in sides:
        print("  target for 1000x1000: each <= 10 s and <= 2 GB")


def profile(family: str, backend: str) -> int:
    if family == "midgame":
        positions = [p for _, p in midgame_positions(MIDGAME_GAMES)]
    elif family == "lattice":
        positions = [lattice_position(0, s) for s in LATTICE_SEEDS]
    elif family == "sparse":
        positions = [sparse_position(0, s) for s in SPARSE_SEEDS]
    else:
        positions = [opened_region_position(300)]
    profiler = cProfile.Profile()
    profiler.enable()
    for position in positions:
        analyze(position, backend=backend)
    profiler.disable()
    pstats.Stats(profiler, stream=sys.stdout).sort_stats("tottime").print_stats(20)
    return 0


if __name__ == "__main__":
    sys.exit(main())
