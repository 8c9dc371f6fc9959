"""Speed of ``analyze`` on a fixed, seeded suite of positions, and how it grows with the board.

Usage::

    python scripts/bench_analyze.py                  # the whole suite (a few minutes)
    python scripts/bench_analyze.py --quick          # a subset, under ~30 s
    python scripts/bench_analyze.py --backend sat --time-limit 5   # another engine
    python scripts/bench_analyze.py --profile lattice  # cProfile of one family
    python scripts/bench_analyze.py --versus --jsm ../JSMinesweeper   # against other engines
    python scripts/bench_analyze.py --versus --jsm ../JSMinesweeper --families
    python scripts/bench_analyze.py --area           # only the curves against the area

Every figure is the whole pipeline in one process: frontier (boxes and components),
counting, combination into exact fractions, and the per-cell answers. ``wall`` is what a
user waits; ``cpu`` is this process's CPU time, the better figure on a shared, loaded
machine. Positions of the small families are timed 3 times each and the fastest run counts
(a time slice lost to another process or a garbage collection is not the analysis's cost);
the big boards run once each, in a fresh child process, so ``peak MB`` (maximum resident
set size) is that board's own: position making plus analysis.

``--versus`` times exactmines (every covered cell's probability read as an exact
``Fraction``) against the other exact engines on the same positions in one run (see
:func:`compare`): JSMinesweeper's probability engine (D. N. Hill, MIT licence) under node
when ``--jsm`` names a checkout of https://github.com/DavidNHill/JSMinesweeper (``git clone``
it beside this repository; ``scripts/jsm_harness.js`` loads it from there: nothing of it is
copied here), and ms_toollib (``pip install ms_toollib``, for this benchmark only) when
installed. Each peer's probabilities are checked against the exact ones, cell by cell; the
script exits 1 when they do not match.

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
import json
import multiprocessing
import os
import pstats
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from fractions import Fraction
from pathlib import Path

from exactmines.analysis.analyze import analyze
from exactmines.analysis.backends import backend_names
from exactmines.analysis.cache import CountCache
from exactmines.generate.families import (
    dense_games,
    lattice_position,
    opened_region_position,
    sparse_position,
)
from exactmines.io.formats import position_to_mine
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
# Against other exact engines (issues 25 and 33)

MS_TOOLLIB_CODES = {"H": 10, "F": 11, **{str(d): d for d in range(9)}}
HARNESS = Path(__file__).resolve().parent / "jsm_harness.js"
JSM_HOW = ("JSMinesweeper's engine: not measured (give --jsm PATH, a checkout of "
           "https://github.com/DavidNHill/JSMinesweeper, MIT: git clone "
           "https://github.com/DavidNHill/JSMinesweeper; needs node)")


class Tool:
    """One engine in the comparison: ``run()`` times one pass over the suite (CPU seconds
    per position), ``answers()`` gives every covered, unflagged cell's mine probability,
    row-major, per position (``None`` where the tool gave no answer)."""

    name = ""
    tolerance = 0.0  # how far its floats may be from the exact answer

    def run(self) -> list[float]:
        raise NotImplementedError

    def answers(self) -> list[list[float] | None]:
        raise NotImplementedError

    def close(self) -> None:
        """Release what the tool holds (a child process)."""


class Exactmines(Tool):
    """``analyze`` with every covered cell's probability read out as an exact
    :class:`~fractions.Fraction`, in bulk (``Analysis.cells.probabilities()``: the
    fractions are made when read, so reading them is part of the cost)."""

    def __init__(self, positions: list[Position], backend: str) -> None:
        self.name = f"exactmines analyze ({backend})"
        self.positions, self.backend = positions, backend
        self.exact = [list(self.read(p)) for p in positions]  # warm, and the reference

    def read(self, position: Position) -> Sequence[Fraction | None]:
        return analyze(position, backend=self.backend).cells.probabilities()

    def run(self) -> list[float]:
        clock, read = time.process_time, self.read
        seconds = []
        for position in self.positions:
            started = clock()
            read(position)
            seconds.append(clock() - started)
        return seconds


class ExactminesCells(Exactmines):
    """The same, each probability read from its cell object (``[c.probability for c in
    Analysis.cells]``): the cost of the objects, for the record."""

    def __init__(self, positions: list[Position], backend: str) -> None:
        super().__init__(positions, backend)
        self.name = "  the same, through the cell objects"

    def read(self, position: Position) -> Sequence[Fraction | None]:
        return [cell.probability for cell in analyze(position, backend=self.backend).cells]


class ExactminesReplay(Exactmines):
    """The same, the positions analysed in game order with one
    :class:`~exactmines.analysis.cache.CountCache` per game, made anew at each game's first
    position of every run (what a replay of the games does): the components a position
    shares with the earlier positions of its game are not counted again."""

    def __init__(self, positions: list[Position], games: list[int], backend: str) -> None:
        self.cache = CountCache()  # the warming pass shares one: run() starts each game anew
        super().__init__(positions, backend)
        self.name = "  the same, one CountCache per game"
        self.games = games

    def read(self, position: Position) -> Sequence[Fraction | None]:
        return analyze(position, backend=self.backend, cache=self.cache).cells.probabilities()

    def run(self) -> list[float]:
        clock, read = time.process_time, self.read
        seconds = []
        game = None
        for position, this in zip(self.positions, self.games, strict=True):
            started = clock()
            if this != game:
                game, self.cache = this, CountCache()
            read(position)
            seconds.append(clock() - started)
        return seconds


class MsToollib(Tool):
    """ms_toollib's ``cal_probability_onboard`` (Rust); the boards are converted to its
    lists of numbers (10 covered, 11 flag) before timing."""

    tolerance = 1e-9

    def __init__(self, positions: list[Position]) -> None:
        import ms_toollib

        self.name = "ms_toollib cal_probability_onboard"
        self.version = importlib.metadata.version("ms_toollib")
        self.call = ms_toollib.cal_probability_onboard
        self.jobs = [([[MS_TOOLLIB_CODES[ch] for ch in row] for row in p.rows], p.mines)
                     for p in positions]
        self.positions = positions
        for board, mines in self.jobs:  # warm
            self.call(board, mines)

    def run(self) -> list[float]:
        clock, call = time.process_time, self.call
        seconds = []
        for board, mines in self.jobs:
            started = clock()
            call(board, mines)
            seconds.append(clock() - started)
        return seconds

    def answers(self) -> list[list[float] | None]:
        out: list[list[float] | None] = []
        for position, (board, mines) in zip(self.positions, self.jobs, strict=True):
            grid, _ = self.call(board, mines)
            out.append([grid[r][c] for r, row in enumerate(position.rows)
                        for c, ch in enumerate(row) if ch == "H"])
        return out


class JSMinesweeper(Tool):
    """JSMinesweeper's probability engine under node, through ``scripts/jsm_harness.js``
    (which loads it from the checkout at ``root``; see the harness for what it runs). The
    child process is started once, warms every position, and times a pass when asked."""

    tolerance = 1e-6  # it divides to 8 decimals

    def __init__(self, positions: list[Position], root: Path) -> None:
        self.name = "JSMinesweeper ProbabilityEngine (node)"
        self.commit = _git_commit(root)
        self.folder = tempfile.TemporaryDirectory()
        listing = Path(self.folder.name) / "positions.json"
        listing.write_text(json.dumps([position_to_mine(p) for p in positions]))
        self.child = subprocess.Popen(["node", str(HARNESS), str(root), str(listing)],
                                      stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                      text=True)
        if self._read() != "ready":
            raise SystemExit(f"the JSMinesweeper harness did not start on {root}")

    def _read(self) -> str:
        assert self.child.stdout is not None
        line = self.child.stdout.readline().strip()
        if not line:
            raise SystemExit(f"the JSMinesweeper harness stopped (exit code "
                             f"{self.child.wait()})")
        return line

    def _ask(self, command: str) -> object:
        assert self.child.stdin is not None
        self.child.stdin.write(command + "\n")
        self.child.stdin.flush()
        return json.loads(self._read())

    def run(self) -> list[float]:
        return list(self._ask("run"))  # type: ignore[call-overload]

    def answers(self) -> list[list[float] | None]:
        return list(self._ask("answers"))  # type: ignore[call-overload]

    def close(self) -> None:
        self.child.communicate("quit\n", timeout=60)
        self.folder.cleanup()


def _git_commit(root: Path) -> str:
    """The commit checked out at ``root`` (for the record), or ``"unknown"``."""
    try:
        return subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"], check=True,
                              capture_output=True, text=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def peers(positions: list[Position], jsm: Path | None) -> list[Tool]:
    """The peers that can run here, each warmed on ``positions``; a line for each one
    that cannot."""
    tools: list[Tool] = []
    if jsm is None:
        print(JSM_HOW)
    elif shutil.which("node") is None:
        print("JSMinesweeper's engine: not measured (node is not on the PATH)")
    else:
        tools.append(JSMinesweeper(positions, jsm))
    try:
        tools.append(MsToollib(positions))
    except ImportError:
        print("ms_toollib: not installed, not measured (pip install ms_toollib; it is needed "
              "by this benchmark only)")
    return tools


def compare(label: str, positions: list[Position], backend: str, jsm: Path | None,
            runs: int, games: list[int] | None = None, *, peers_too: bool = True,
            cells_too: bool = True, out: dict[str, tuple[float, float, float]] | None = None,
            unchecked: tuple[str, ...] = ()) -> bool:
    """exactmines against every peer that can run, on the same positions, in this run:
    warm (each tool has done the suite once, untimed), CPU time of each position
    (``time.process_time``; node's ``process.cpuUsage``). Each of ``runs`` runs times one
    tool over the whole suite, then the next (the order rotates from run to run), so each
    runs warm in its own steady state, as in a process of its own, and a loaded machine
    slows all alike. (Alternating position by position instead slows every tool, each
    evicting the others' caches.) Total: the least over the runs of the CPU summed over the
    suite; per position: each position's least time over the runs, then the median and the
    largest of those. Every peer's answers are then checked against the exact ones, cell by
    cell, within its tolerance: ``False`` when one is off (a broken harness cannot pass).
    Without ``peers_too`` (positions the peers cannot read) exactmines runs alone; without
    ``cells_too`` the reading through the cell objects is not timed; ``out`` receives each
    tool's (total, median, worst) in ms by its name; the peers whose names start with one
    of ``unchecked`` are timed but their answers not checked (they answer another question
    on these positions, and the table says so)."""
    ours = Exactmines(positions, backend)
    tools: list[Tool] = [ours]
    if cells_too:
        tools.append(ExactminesCells(positions, backend))
    if games is not None:
        tools.append(ExactminesReplay(positions, games, backend))
    if peers_too:
        tools.extend(peers(positions, jsm))
    times: dict[str, list[list[float]]] = {tool.name: [] for tool in tools}
    try:
        for run in range(runs):
            for tool in tools[run % len(tools):] + tools[:run % len(tools)]:
                times[tool.name].append(tool.run())
        checks = [(tool, _gap(ours.exact, tool.answers(), tool.tolerance))
                  for tool in tools if not isinstance(tool, Exactmines)
                  and not tool.name.startswith(unchecked)]
    finally:
        for tool in tools:
            tool.close()

    def figures(name: str) -> tuple[float, float, float]:
        passes = times[name]
        each = [min(column) for column in zip(*passes, strict=True)]
        return (1000 * min(map(sum, passes)), 1000 * statistics.median(each),
                1000 * max(each))

    print(f"\n{label}, {len(positions)} positions: warm, CPU ms, least of {runs} runs, each "
          f"tool over the suite in turn (load {_load()}; exactmines {_build()})")
    print(f"  {'':<42} {'total':>9} {'median':>8} {'max':>8}")
    rows = {tool.name: figures(tool.name) for tool in tools}
    if out is not None:
        out.update(rows)
    for tool in tools:
        total, median, worst = rows[tool.name]
        print(f"  {tool.name:<42} {total:>9.1f} {median:>8.3f} {worst:>8.2f}")
    mine = rows[ours.name]
    good = True
    for tool in tools:
        if tool.name.startswith(unchecked):
            other = rows[tool.name]
            print(f"  exactmines / {tool.name.split()[0]}: total {mine[0] / other[0]:.2f}x, "
                  f"median per position {mine[1] / other[1]:.2f}x (answers not checked: it "
                  "answers another question on these positions)")
    for tool, (worst, differ, missing) in checks:
        other = rows[tool.name]
        print(f"  exactmines / {tool.name.split()[0]}: total {mine[0] / other[0]:.2f}x, "
              f"median per position {mine[1] / other[1]:.2f}x")
        detail = (f"commit {tool.commit}" if isinstance(tool, JSMinesweeper)
                  else f"version {tool.version}" if isinstance(tool, MsToollib) else "")
        print(f"    answers ({detail}): largest difference {worst:.1e} over every covered "
              f"cell; {differ} cells off by more than {tool.tolerance:g}, {missing} "
              f"positions not answered")
        if differ or missing:
            good = False
            print(f"    {tool.name}: answers do NOT match exactmines' (a broken harness?)")
    return good


def _gap(exact: list[list[Fraction | None]], theirs: list[list[float] | None],
         tolerance: float) -> tuple[float, int, int]:
    """(largest difference, cells off by more than ``tolerance``, positions without an
    answer or with another number of cells) between the exact answers and a peer's."""
    worst, differ, missing = 0.0, 0, 0
    for ours, answer in zip(exact, theirs, strict=True):
        if answer is None or len(answer) != len(ours):
            missing += 1
            continue
        for p, q in zip(ours, answer, strict=True):
            gap = abs(float(p) - q) if p is not None else float("inf")
            worst = max(worst, gap)
            differ += gap > tolerance
    return worst, differ, missing


def versus(backend: str, games: int, jsm: Path | None, families: bool, quick: bool,
           runs: int | None) -> int:
    """The ``--versus`` tables: the mid-game suite, then (``families``) each large family;
    1 when a peer's answers do not match."""
    suite = list(dense_games(games))
    good = compare(f"30x16/99 mid-game ({games} games)", [step.position for step in suite],
                   backend, jsm, runs or 7, [step.game for step in suite])
    if families:
        seeds = range(2) if quick else range(8)
        suites = [
            ("lattice 30x16/99", [lattice_position(0, s) for s in seeds]),
            ("sparse 30x16/99", [sparse_position(0, s, width=30, height=16, mines=99)
                                 for s in seeds[:5]]),
            ("sparse 50x50/500", [sparse_position(0, s) for s in seeds[:5]]),
            ("100x100, 15% mines, 40% opened", [opened_region_position(100)]),
        ]
        for label, positions in suites:
            good &= compare(label, positions, backend, jsm, runs or 3)
    return 0 if good else 1


def _build() -> str:
    """Whether the compiled modules (setup.py) or the Python sources are what runs."""
    from exactmines.analysis.backends import dp

    return "pure Python" if (dp.__file__ or "").endswith(".py") else "compiled"


def _load() -> str:
    one, five, _ = os.getloadavg()
    return f"{one:.1f} now, {five:.1f} over 5 min, {os.cpu_count()} cores"


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
                        help="only the tables against the other exact engines: JSMinesweeper "
                             "(with --jsm) and ms_toollib (when installed), on the mid-game "
                             "suite (with --families: on the large families too)")
    parser.add_argument("--jsm", type=Path, metavar="PATH",
                        help="with --versus: a checkout of DavidNHill/JSMinesweeper, whose "
                             "probability engine is run under node (scripts/jsm_harness.js)")
    parser.add_argument("--families", action="store_true",
                        help="with --versus: the large families too (lattice, sparse 30x16 "
                             "and 50x50, a 100x100 board)")
    parser.add_argument("--runs", type=int, default=None,
                        help="with --versus: timed runs per suite (default 7, families 3)")
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
        return versus(args.backend, games, args.jsm, args.families, args.quick, args.runs)

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
    compare("30x16/99 mid-game", [p for _, p in midgame], args.backend, None, 7)

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
