"""Speed of ``analyze`` on positions as players meet them, family by family, against the
other exact engines (issue 40).

Usage::

    python scripts/bench_families.py --jsm ../JSMinesweeper           # every family
    python scripts/bench_families.py --jsm ../JSMinesweeper --quick   # fewer games each
    python scripts/bench_families.py --family beginner --family endgames

Each family is timed as ``bench_analyze.py --versus`` times its suite (:func:`compare`:
warm, CPU time per position, each tool over the family in turn, the least total over the
runs, the median of each position's least time; every peer's answers checked cell by cell
against the exact ones, exit 1 when they do not match), and a last table gives every family
apart: exactmines' total and median, and its ratio to each peer's.

The families (all seeded: the same positions on every run):

``beginner``, ``intermediate``, ``expert``
    9x9/10, 16x16/40 and 30x16/99: every position met in seeded games played with safe moves
    only (``exactmines generate dense``: first click at the centre with an opening, then
    every cell the exact analysis proves safe), no flags.
``openings``
    the first position of each of those games (one opening, nothing else revealed).
``flags-all``, ``flags-some``
    the expert positions with every mine the analysis proves flagged, as a player who
    flags what they find; or a seeded half of them.
``flags-wrong``
    the ``flags-some`` positions with one to three flags more, each on a covered cell that
    holds no mine (a slip of the hand). Every engine takes a flag as a mine (exactmines and
    ms_toollib read ``F`` so; JSMinesweeper's page, in analysis mode, does too), so a wrong
    flag makes another position: next to a number it mostly contradicts the numbers (no
    layout: no probability for any engine to give), far from them it takes one mine from
    the rest of the board. The positions that stay consistent are the family; how many
    draws contradicted the numbers is printed, and they are not timed (the engines answer a
    contradiction each its own way: exactmines says ``inconsistent``).
    ms_toollib reads a flag as a covered cell (checked: a flag far from the numbers
    changes none of its answers), so here, where a flag may be wrong, it answers the
    position without the flags: it is timed, its answers are not checked. On the other flag
    families every flag is a proved mine, which both readings answer alike.
``endgames``
    the ``flags-all`` positions of the three sizes with fewer than 20 covered, unflagged
    cells (the analysis of a finished-looking board: many flags, a few cells).
``replays``
    the position before each click of the shipped recorded games (``tests/data/replays``:
    the public games of people, the recorded ones of exactmines' players), with the
    player's own flags trusted as ``exactmines replay --trust-flags`` takes them; positions
    whose flags contradict the numbers are left out. A player's flag may be wrong or a
    guess: ms_toollib (flags as covered cells) is timed, its answers are not checked.
``topologies``
    the shipped positions on other grids (``instances/``: hexagons, triangles, a torus, a
    knight's neighbourhood, a cube): exactmines only, since the peers read the square grid
    only.

``--floor`` prints, for the square-grid families, what two stages that any exact answer
of this design needs cost on their own, against ms_toollib's whole answer: reading the
position into bit masks with the single-rule propagation (what is forced), and making the
answer (each distinct probability's ``Fraction`` and the tuple over the covered cells).
Everything else (the parts, the counts, the combination, the objects between the stages)
must fit in what is left of half of ms_toollib's time for the ``/ms_toollib`` target to be
met.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

from bench_analyze import MS_TOOLLIB_CODES, _build, _load, compare

from exactmines.analysis import frontier
from exactmines.analysis.analyze import Analysis, analyze
from exactmines.analysis.backends import backend_names
from exactmines.generate.families import DenseStep, dense_games
from exactmines.io.files import read_position, read_replay
from exactmines.position import COVERED, FLAG, Position
from exactmines.replay.judge import judge_replay

ROOT = Path(__file__).resolve().parent.parent
SIZES = {"beginner": (9, 9, 10), "intermediate": (16, 16, 40), "expert": (30, 16, 99)}
REPLAYS = ROOT / "tests" / "data" / "replays"
TOPOLOGIES = ("hex-position-30x16x99-seed1-000", "triangle-position-16x16x40-seed1-000",
              "torus-position-16x16x40-seed1-000", "knight-position-16x16x40-seed1-000",
              "cube-position-5x5x5x15-seed1-000", "hex-noguess-9x9x10-seed1-000")
ENDGAME_CELLS = 20
SEED = 40


def _games(size: str, games: int) -> list[DenseStep]:
    width, height, mines = SIZES[size]
    return list(dense_games(games, SEED, width=width, height=height, mines=mines))


def _flagged(position: Position, cells: object) -> Position:
    rows = [list(row) for row in position.rows]
    for r, c in cells:  # type: ignore[attr-defined]
        rows[r][c] = FLAG
    return Position(position.width, position.height, position.mines,
                    tuple("".join(row) for row in rows), position.topology)


def _some(cells: list, rng: random.Random) -> list:
    return [cell for cell in cells if rng.random() < 0.5]


def _consistent(position: Position) -> bool:
    return analyze(position).consistent is True


def _covered(position: Position) -> int:
    return sum(row.count(COVERED) for row in position.rows)


FAMILIES = (*SIZES, "openings", "flags-all", "flags-some", "flags-wrong", "endgames",
            "replays", "topologies")
#: The families where a flag may be wrong, which ms_toollib reads as a covered cell.
FLAGS_UNCHECKED = ("flags-wrong", "replays")


def families(games: int) -> dict[str, tuple[list[Position], bool, str]]:
    """Every family: its positions, whether the peers can read them, a note."""
    steps = {size: _games(size, games) for size in SIZES}
    rng = random.Random(SEED)
    out: dict[str, tuple[list[Position], bool, str]] = {}
    for size in SIZES:
        out[size] = ([s.position for s in steps[size]], True, "")
    out["openings"] = ([s.position for size in SIZES for s in steps[size] if s.move == 0],
                       True, "")
    expert = steps["expert"]
    out["flags-all"] = ([_flagged(s.position, s.analysis.mines) for s in expert], True, "")
    some = [_flagged(s.position, _some(s.analysis.mines, rng)) for s in expert]
    out["flags-some"] = (some, True, "")
    wrong, contradicted = [], 0
    for step, position in zip(expert, some, strict=True):
        clear = [cell for cell in position.covered if cell not in step.board.mine_cells]
        if not clear:
            continue
        slips = rng.sample(clear, min(len(clear), rng.randint(1, 3)))
        moved = _flagged(position, slips).with_mines(step.board.mines)
        if _consistent(moved):
            wrong.append(moved)
        else:
            contradicted += 1
    out["flags-wrong"] = (wrong, True, f"{contradicted} draws contradicted the numbers, "
                                       "left out")
    endgames = []
    for size in SIZES:
        for s in steps[size]:
            position = _flagged(s.position, s.analysis.mines)
            if 0 < _covered(position) < ENDGAME_CELLS:
                endgames.append(position)
    out["endgames"] = (endgames, True, "")
    out["replays"] = _replay_positions()
    out["topologies"] = ([read_position(ROOT / "instances" / f"{name}.mine")
                          for name in TOPOLOGIES], False, "exactmines only")
    assert tuple(out) == FAMILIES
    return out


def _replay_positions() -> tuple[list[Position], bool, str]:
    files = sorted(p for folder in ("public", "recorded")
                   for p in (REPLAYS / folder).iterdir()
                   if "damaged" not in p.name and p.suffix in {".avf", ".evf", ".mvf", ".rmv"})
    positions, dropped = [], 0
    for path in files:
        judged = judge_replay(read_replay(path), trust_flags=True)
        for click in judged.clicks:
            if click.kind == "right" or not _covered(click.before):
                continue
            if _consistent(click.before):
                positions.append(click.before)
            else:
                dropped += 1
    return positions, True, (f"{len(files)} games; {dropped} positions whose flags "
                             "contradict the numbers left out")


def _least(positions: list[Position], job: Callable[[Position], object],
           runs: int = 30) -> float:
    """Microseconds a position: the least over ``runs`` passes of the CPU a pass took."""
    best = float("inf")
    for _ in range(runs):
        started = time.process_time()
        for position in positions:
            job(position)
        best = min(best, time.process_time() - started)
    return 1e6 * best / len(positions)


def _masks_and_propagation(position: Position) -> object:
    """The first stage of :func:`~exactmines.analysis.frontier.split_forced` alone: the
    position read into bit masks, and what the single-rule propagation forces."""
    stride = position.width + 2
    blank = " " * stride
    grid = blank + "".join(f" {row} " for row in position.rows) + blank
    covered, flags, numbers, *planes = frontier._masks(grid, frontier._SPLIT_MASKS)
    touched = covered & frontier._dilate(numbers, stride)
    clues = numbers & frontier._dilate(covered, stride)
    return frontier._settle(touched, clues, flags, tuple(planes), stride, numbers)


def floor(suite: dict[str, tuple[list[Position], bool, str]], chosen: list[str]) -> None:
    """The ``--floor`` table (see the module's notes)."""
    import ms_toollib

    print(f"\nThe floor (CPU us a position, least of 30 passes; load {_load()}; exactmines "
          f"{_build()})")
    print(f"  {'family':<14} {'ms_toollib':>10} {'target':>8} {'exactmines':>10} "
          f"{'masks+propagation':>17} {'answer':>8} {'floor':>8} {'/ms_toollib':>11}")
    for name in chosen:
        positions, peers_too, _ = suite[name]
        if not peers_too or name in FLAGS_UNCHECKED:
            continue
        jobs = {id(p): ([[MS_TOOLLIB_CODES[ch] for ch in row] for row in p.rows], p.mines)
                for p in positions}
        done: dict[int, Analysis] = {id(p): analyze(p) for p in positions}

        def answer(position: Position, done: dict[int, Analysis] = done) -> object:
            cells = done[id(position)].cells
            cells._table = None  # made again: each distinct fraction and the tuple
            return cells.probabilities()

        def peer(position: Position, jobs: dict[int, tuple[list[list[int]], int | None]] = jobs
                 ) -> object:
            return ms_toollib.cal_probability_onboard(*jobs[id(position)])

        theirs = _least(positions, peer)
        ours = _least(positions, lambda p: analyze(p).cells.probabilities())
        first = _least(positions, _masks_and_propagation)
        last = _least(positions, answer)
        print(f"  {name:<14} {theirs:>10.1f} {theirs / 2:>8.1f} {ours:>10.1f} {first:>17.1f} "
              f"{last:>8.1f} {first + last:>8.1f} {(first + last) / theirs:>10.2f}x")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--backend", default="auto", choices=backend_names())
    parser.add_argument("--jsm", type=Path, metavar="PATH",
                        help="a checkout of DavidNHill/JSMinesweeper (run under node)")
    parser.add_argument("--quick", action="store_true", help="fewer games per size")
    parser.add_argument("--games", type=int, default=None,
                        help="seeded games per board size (default 10; --quick 3)")
    parser.add_argument("--runs", type=int, default=5, help="timed runs per family")
    parser.add_argument("--family", action="append", default=None,
                        help="only this family (repeat for more)")
    parser.add_argument("--floor", action="store_true",
                        help="only the floor: two stages every answer needs, alone")
    args = parser.parse_args(argv)
    games = args.games or (3 if args.quick else 10)
    chosen = args.family or list(FAMILIES)
    unknown = set(chosen) - set(FAMILIES)
    if unknown:
        parser.error(f"unknown family {', '.join(sorted(unknown))}; one of "
                     f"{', '.join(FAMILIES)}")
    suite = families(games)
    if args.floor:
        floor(suite, chosen)
        return 0
    good = True
    table: list[tuple[str, int, dict[str, tuple[float, float, float]]]] = []
    for name in chosen:
        positions, peers_too, note = suite[name]
        rows: dict[str, tuple[float, float, float]] = {}
        label = name + (f" ({note})" if note else "")
        good &= compare(label, positions, args.backend, args.jsm if peers_too else None,
                        args.runs, peers_too=peers_too, cells_too=False, out=rows,
                        unchecked=("ms_toollib",) if name in FLAGS_UNCHECKED else ())
        table.append((name, len(positions), rows))
    print(f"\nEvery family (CPU ms, least total of {args.runs} runs; median: each "
          f"position's least time; load {_load()}; exactmines {_build()})")
    print(f"  {'family':<14} {'positions':>9} {'exactmines':>18} {'JSMinesweeper':>18} "
          f"{'ms_toollib':>18} {'/JSM total':>10} {'/JSM median':>11} {'/ms_toollib':>11}")
    for name, count, rows in table:
        ours = next(v for k, v in rows.items() if k.startswith("exactmines"))
        jsm = next((v for k, v in rows.items() if k.startswith("JSMinesweeper")), None)
        mst = next((v for k, v in rows.items() if k.startswith("ms_toollib")), None)

        def cell(v: tuple[float, float, float] | None) -> str:
            return "-" if v is None else f"{v[0]:.1f} ({v[1]:.3f})"

        def ratio(a: float, b: float | None) -> str:
            return "-" if b is None else f"{a / b:.2f}x"

        print(f"  {name:<14} {count:>9} {cell(ours):>18} {cell(jsm):>18} {cell(mst):>18} "
              f"{ratio(ours[0], jsm and jsm[0]):>10} {ratio(ours[1], jsm and jsm[1]):>11} "
              f"{ratio(ours[0], mst and mst[0]):>11}")
    print("  (each cell: total ms (median ms per position); targets: total <= 0.5x both "
          "peers', median <= 0.8x JSMinesweeper's)")
    return 0 if good else 1


if __name__ == "__main__":
    sys.exit(main())
