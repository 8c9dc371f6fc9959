"""``exactmines replay`` measured: its speed, a run of 1,000 replays on a Dask cluster, and
its classification of clicks side by side with ms_toollib's own analysis of the same files.

    python scripts/bench_replay.py corpus results/replays --games 70       # the replays
    python scripts/bench_replay.py time results/replays                     # speed
    python scripts/bench_replay.py cluster results/replays --workers 2      # Dask, progress
    python scripts/bench_replay.py compare results/replays tests/data/replays/public

``corpus`` records games through ms_toollib's recorder (``scripts/make_replays.py``: the
scripted player with a person's habits and the exactmines player, beginner to expert, seeds
1 to N for each); ``time`` reads and judges every expert replay of 150 to 300 clicks on one
core, each several times, and prints the median of the per-replay minima (CPU time of the
process and of the child that reads the file); ``cluster`` starts a local Dask cluster and
runs ``exactmines replay DIR --out FILE --scheduler ...`` on the folder (1,000 replays with
``corpus --games 167``), with its progress bar; ``compare`` runs ms_toollib's analysis of
each file (``analyse_for_features(["needless_guess", "high_risk_guess", "pluck"])``,
:func:`~exactmines.io.replays.ms_toollib_judgement`) in a child process and prints the table
of where the two classifications differ, and why.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import resource
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import psutil

from exactmines.analysis.analyze import analyze
from exactmines.errors import ExactminesError
from exactmines.io.files import read_replay
from exactmines.io.replays import ms_toollib_judgement, ms_toollib_version
from exactmines.replay.file_batch import replay_files
from exactmines.replay.judge import FORCED, NEEDLESS, SAFE, Click, analysis_before, judge_replay


def _cpu(*, living: bool = False) -> float:
    """CPU seconds of this process and its finished children (``RUSAGE_CHILDREN``), and
    with ``living`` of its children still running too (the child that reads replays is
    kept from one file to the next)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    ended = resource.getrusage(resource.RUSAGE_CHILDREN)
    running = 0.0
    for child in psutil.Process().children(recursive=True) if living else ():
        with contextlib.suppress(psutil.NoSuchProcess):
            times = child.cpu_times()
            running += times.user + times.system
    return own.ru_utime + own.ru_stime + ended.ru_utime + ended.ru_stime + running


def corpus(args: argparse.Namespace) -> None:
    sys.path.insert(0, str(Path(__file__).parent))
    import make_replays

    make_replays.main(["--out", str(args.folder), "--games", str(args.games), "--pace", "0",
                       "--levels", "beginner", "intermediate", "expert",
                       "--players", "habits", "exactmines"])


def timing(args: argparse.Namespace) -> None:
    files = replay_files([str(args.folder)])
    per_replay = []
    for name in files:
        replay = read_replay(name)
        if (replay.board.width, replay.board.height, replay.board.mines) != (30, 16, 99) \
                or not 150 <= len(replay.events) <= 300:
            continue
        runs = []
        for _ in range(args.repeat):
            started = _cpu(living=True)
            judge_replay(read_replay(name))
            runs.append(_cpu(living=True) - started)
        per_replay.append((min(runs), len(replay.events), name))
    if not per_replay:
        raise SystemExit("no expert replay of 150 to 300 clicks in the folder")
    times = sorted(t for t, _, _ in per_replay)
    clicks = [n for _, n, _ in per_replay]
    print(f"{len(per_replay)} expert replays of {min(clicks)}-{max(clicks)} clicks "
          f"(median {statistics.median(clicks):.0f}), read and judged on one core, minimum of "
          f"{args.repeat} runs each (CPU time, the reading child included):")
    print(f"median {1000 * statistics.median(times):.1f} ms, fastest {1000 * times[0]:.1f} ms, "
          f"slowest {1000 * times[-1]:.1f} ms (target: median <= 100 ms)")


def cluster(args: argparse.Namespace) -> None:
    from dask.distributed import LocalCluster

    from exactmines.runner import read_rows
    from exactmines.ui.cli import main

    count = len(replay_files([str(args.folder)]))
    started = time.perf_counter()
    with LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                      dashboard_address=None) as local, \
            tempfile.TemporaryDirectory() as folder:
        print(f"LocalCluster with {args.workers} workers started in "
              f"{time.perf_counter() - started:.1f} s; {count} replays", flush=True)
        out = Path(folder) / "judged.jsonl"
        started, cpu = time.perf_counter(), _cpu()
        code = main(["replay", str(args.folder), "--out", str(out), "--scheduler",
                     local.scheduler_address])
        wall = time.perf_counter() - started
        rows = read_rows(out)[1]
    judged = [r for r in rows if "error" not in r]
    print(f"exit {code}: {len(rows)} rows, {len(judged)} judged, {len(rows) - len(judged)} "
          f"unreadable; {wall:.1f} s wall ({1000 * wall / len(rows):.1f} ms per replay on "
          f"{args.workers} workers; the client used {_cpu() - cpu:.1f} CPU s); judging "
          f"{sum(r['seconds'] for r in judged):.1f} CPU s in all")


# ---------------------------------------------------------------------------------------
# Side by side with ms_toollib


#: Rows of the comparison table, in order.
_ROWS = [
    ("needless", "exactmines: needless guess (a certainly safe cell anywhere on the board)"),
    ("needless:warned", "  ms_toollib also warns needless_guess"),
    ("needless:chord", "  not warned: a chord (ms_toollib judges the number under the mouse, "
                       "which is never a guess)"),
    ("needless:outside", "  not warned: every certainly safe cell lies outside the 5x5 "
                         "square around the click"),
    ("needless:count", "  not warned: the safe cells in the square need the total mine count"),
    ("needless:solver", "  not warned: a safe cell in the square that ms_toollib's solver "
                        "does not find"),
    ("forced", "exactmines: forced guess (no certainly safe cell)"),
    ("forced:high", "  ms_toollib high_risk_guess (its float mine chance >= 0.51)"),
    ("forced:below", "  no ms_toollib event: a guess below its threshold"),
    ("forced:warned", "  ms_toollib warns needless_guess"),
    ("needless:high", "needless guesses ms_toollib also calls high_risk_guess"),
    ("safe", "exactmines: safe (mine chance exactly 0)"),
    ("safe:warned", "  ms_toollib warns needless_guess or high_risk_guess"),
]


def _square(cell: tuple[int, int], other: tuple[int, int]) -> bool:
    return abs(cell[0] - other[0]) <= 2 and abs(cell[1] - other[1]) <= 2


def _why_not_warned(judged: Any, click: Click) -> str:
    """Why ms_toollib's 5x5 rule did not call a needless guess of exactmines one."""
    if click.kind == "chord":
        return "needless:chord"
    result = analysis_before(judged, click)
    if not any(_square(click.cell, c) for c in result.safe):
        return "needless:outside"
    without = analyze(result.position.with_mines(None))
    if not any(_square(click.cell, c) for c in without.safe):
        return "needless:count"
    return "needless:solver"


def compare(args: argparse.Namespace) -> None:
    files = replay_files([str(f) for f in args.folders])
    tally: Counter[str] = Counter()
    games = failed_ours = failed_theirs = 0
    luck_gaps: list[float] = []
    lost = lost_marked = 0
    for name in files:
        try:
            judged = judge_replay(read_replay(name))
        except ExactminesError:
            failed_ours += 1
            continue
        try:
            theirs = ms_toollib_judgement(Path(name).read_bytes(), name,
                                          Path(name).suffix[1:].lower())
        except ExactminesError:
            failed_theirs += 1
            continue
        comments = theirs["comments"]
        if len(comments) != len(judged.clicks):
            failed_theirs += 1
            continue
        games += 1
        for click, comment in zip(judged.clicks, comments, strict=True):
            needless, high = "needless_guess" in comment, "high_risk_guess" in comment
            if click.judged == NEEDLESS:
                tally["needless"] += 1
                tally["needless:warned" if needless else _why_not_warned(judged, click)] += 1
                tally["needless:high"] += high
            elif click.judged == FORCED:
                tally["forced"] += 1
                tally["forced:warned" if needless else "forced:high" if high
                      else "forced:below"] += 1
            elif click.judged == SAFE:
                tally["safe"] += 1
                tally["safe:warned"] += needless or high
        if judged.lost_at is None:
            luck_gaps.append(abs(theirs["pluck"] - judged.luck_log10))
        else:
            lost += 1
            # ms_toollib marks a lost game's luck with its largest float, not a number.
            lost_marked += theirs["pluck"] >= sys.float_info.max
    print(f"{games} games compared ({failed_ours} unreadable to exactmines, {failed_theirs} "
          f"to ms_toollib's analysis); {ms_toollib_version()}")
    print()
    print("| clicks that opened cells (the first click left out) | count |")
    print("|---|---|")
    for key, label in _ROWS:
        print(f"| {label} | {tally[key]:,} |")
    print()
    if luck_gaps:
        print(f"luck of the {len(luck_gaps)} games won: exactmines' -log10(luck) against "
              f"ms_toollib's pluck, largest difference {max(luck_gaps):.2e}; of the {lost} "
              f"games lost, ms_toollib gives {lost_marked} the largest float as their pluck "
              "(exactmines: the luck of the guesses survived before the losing click)")
    print(json.dumps({"games": games, "tally": dict(tally)}))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    make = commands.add_parser("corpus", help="record replays into a folder")
    make.add_argument("folder", type=Path)
    make.add_argument("--games", type=int, default=70, help="games per player and level")
    speed = commands.add_parser("time", help="median CPU time per expert replay")
    speed.add_argument("folder", type=Path)
    speed.add_argument("--repeat", type=int, default=5)
    dask = commands.add_parser("cluster", help="the folder on a local Dask cluster")
    dask.add_argument("folder", type=Path)
    dask.add_argument("--workers", type=int, default=2)
    side = commands.add_parser("compare", help="exactmines against ms_toollib")
    side.add_argument("folders", type=Path, nargs="+")
    args = parser.parse_args()
    {"corpus": corpus, "time": timing, "cluster": cluster, "compare": compare}[args.command](args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
