"""Win rates of whole games against the best published player, with 95 % intervals.

Usage::

    python scripts/bench_play.py run --games 20000 --workers 2          # every setting
    python scripts/bench_play.py run expert-sfar --games 20000 --without secondary
    python scripts/bench_play.py ablation beginner-sfar --games 5000     # each part off
    python scripts/bench_play.py report                                 # tables, no play
    python scripts/bench_play.py run expert-sfar --seed 11 --set risk_weight=3/2
    python scripts/bench_play.py paired expert-sfar --seed 11 --set risk_weight=3/2

Each run streams one JSONL row per game to ``results/<setting>-<strategy>-seed<S>.jsonl``
and always resumes: run the same command again (or with more ``--games``) after an
interruption and only the missing games are played. Games are numbered from 0 and game
``i`` of seed ``S`` is the same board in every run, so strategies are compared on the same
boards. ``report`` reads whatever the files hold (N per setting is what was finished).
``paired`` compares a varied strategy (``--without``, ``--set``) with the plain one board by
board (run both first; a varied ``run`` prints its own rate and then this comparison): the
change in points with its 95 % half-width, which is far narrower than the two rates'
intervals when few boards play out differently. When early decisions change, most boards do
and 20,000 resolve about half a point: replicate a gain on
a second seed before believing it.

A long run should not see the player change under it (the meta records the strategy's
parameters, not the code): run it from a frozen copy of a commit, e.g.::

    mkdir -p ../frozen && git archive HEAD exactmines | tar -x -C ../frozen
    PYTHONPATH=../frozen nohup python scripts/bench_play.py run --workers 2 &

A code change is measured the same way: play the changed code's frozen copy into its own
folder, then compare with the plain run of the code before it::

    PYTHONPATH=../changed python scripts/bench_play.py run expert-sfar --seed 11 \
        --results results-changed
    python scripts/bench_play.py paired expert-sfar --seed 11 \
        --results results-changed --baseline results

Settings and targets (issue 7; REFERENCE.md gives JSMinesweeper's figures, same rules):
SFAR = first click safe, SNR = no mine around the first click (``--start opening``).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from exactmines.errors import InputError
from exactmines.play.games import RISK_KINDS, PlaySettings, mean_risk, run_play
from exactmines.play.strategy import PARTS, TUNABLE, strategy_named
from exactmines.runner import read_rows
from exactmines.stats import wilson_interval

#: name: (width, height, mines, start, at, target %, JSMinesweeper %)
SETTINGS = {
    "expert-sfar": (30, 16, 99, "safe", (0, 0), 41.5, 41.13),
    "expert-snr": (30, 16, 99, "opening", (3, 3), 54.5, 54.47),
    "intermediate-sfar": (16, 16, 40, "safe", (0, 0), 78.5, 78.20),
    "beginner-sfar": (9, 9, 10, "safe", (0, 0), 92.0, 91.72),
}

RESULTS = Path(__file__).resolve().parent.parent / "results"


def results_file(setting: str, strategy: str, without: tuple[str, ...], seed: int,
                 tuning: tuple[str, ...] = (), folder: Path = RESULTS) -> Path:
    name = (strategy + "".join(f"-no-{p}" for p in without)
            + "".join(f"-{t.replace('/', '_')}" for t in tuning))
    return folder / f"{setting}-{name}-seed{seed}.jsonl"


def settings_of(setting: str, strategy: str, without: tuple[str, ...], seed: int,
                tuning: tuple[str, ...] = ()) -> PlaySettings:
    width, height, mines, start, at, _, _ = SETTINGS[setting]
    return PlaySettings(width, height, mines, start, at, seed, strategy, without, tuning)


def run(setting: str, games: int, seed: int, workers: int, strategy: str,
        without: tuple[str, ...], tuning: tuple[str, ...] = (), folder: Path = RESULTS) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    path = results_file(setting, strategy, without, seed, tuning, folder)
    settings = settings_of(setting, strategy, without, seed, tuning)
    print(f"{setting} {path.name}: playing up to game {games - 1} "
          f"(load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores)", flush=True)
    try:
        run_play(settings, games, out=str(path), resume=True, workers=workers,
                 progress=sys.stderr.isatty())
    except KeyboardInterrupt:
        print(f"interrupted: finished games are kept in {path}; run again to resume")
        raise SystemExit(130) from None


def summary(path: Path, games: int | None = None) -> dict[str, float] | None:
    """Games, wins, interval and CPU ms per game of one results file (first ``games``)."""
    if not path.exists():
        return None
    _, rows = read_rows(path)
    if games is not None:
        rows = [r for r in rows if r["id"] < games]
    if not rows:
        return None
    n, wins = len(rows), sum(r["won"] for r in rows)
    low, high = wilson_interval(wins, n)
    risk, recorded = mean_risk(rows)  # files from before the risk was recorded lack it
    lost = sum(not r["won"] for r in rows if "risk" in r)
    return {"games": n, "wins": wins, "rate": 100 * wins / n, "low": 100 * low,
            "high": 100 * high, "ms": sum(r["cpu_ms"] for r in rows) / n,
            "guesses": sum(r["guesses"] for r in rows) / n,
            "risk": {kind: 100 * value for kind, value in risk.items()},
            "risk_games": recorded, "risk_lost": 100 * lost / max(1, recorded)}


def report(seed: int, strategy: str, names: list[str], folder: Path = RESULTS,
           without: tuple[str, ...] = (), tuning: tuple[str, ...] = ()) -> None:
    """The win-rate table of the strategy (varied by ``without`` and ``tuning`` if given),
    then, for the plain strategy, where its games are lost and its ablation."""
    if without or tuning:
        print("Strategy " + strategy + "".join(f" without {p}" for p in without)
              + "".join(f", {t}" for t in tuning) + ":\n")
    print("| board | rule, first click | games | win rate (95 % CI) | target | JSMinesweeper "
          "| CPU ms/game |")
    print("|---|---|---|---|---|---|---|")
    risks = []
    for name in names:
        width, height, mines, start, at, target, jsm = SETTINGS[name]
        s = summary(results_file(name, strategy, without, seed, tuning, folder))
        if s is not None and s["risk"] and not (without or tuning):
            risks.append((name, s))
        rule = f"{'SFAR' if start == 'safe' else 'SNR'}, ({at[0]},{at[1]})"
        if s is None:
            print(f"| {width}x{height}/{mines} | {rule} | 0 | not run | {target} % | {jsm} % | |")
            continue
        mark = "meets" if s["rate"] >= target else "below"
        print(f"| {width}x{height}/{mines} | {rule} | {s['games']:,} | {s['rate']:.2f} % "
              f"({s['low']:.2f}-{s['high']:.2f}) | {target} % ({mark}) | {jsm} % | "
              f"{s['ms']:.1f} |")
    if risks:
        print("\nWhere the games are lost: per kind of click, the mine probabilities of the "
              "cells clicked, summed per game and averaged (in points; their total estimates "
              "the loss rate):\n")
        print("| setting | games | " + " | ".join(k.replace("_", "-") for k in RISK_KINDS)
              + " | total | games lost |")
        print("|---|---|" + "---|" * len(RISK_KINDS) + "---|---|")
        for name, s in risks:
            print(f"| {name} | {s['risk_games']:,} | "
                  + " | ".join(f"{s['risk'][k]:.2f}" for k in RISK_KINDS)
                  + f" | {sum(s['risk'].values()):.2f} | {s['risk_lost']:.2f} |")
    if without or tuning:
        return  # the ablation tables are the plain strategy's
    for name in names:
        rows = []
        for without in [(), *((p,) for p in PARTS)]:
            s = summary(results_file(name, strategy, without, seed, (), folder))
            if s is not None:
                rows.append((without, s))
        safest = summary(results_file(name, "safest", (), seed, (), folder))
        if len(rows) <= 1 and safest is None:
            continue
        print(f"\nAblation, {name} (seed {seed}; every part off in turn, same boards):\n")
        print("| strategy | games | win rate (95 % CI) | CPU ms/game | guesses/game |")
        print("|---|---|---|---|---|")
        labelled = [("all parts" if not w else f"without {w[0]}", s) for w, s in rows]
        if safest is not None:
            labelled.append(("safest cell only (every part off)", safest))
        for label, s in labelled:
            print(f"| {label} | {s['games']:,} | {s['rate']:.2f} % ({s['low']:.2f}-"
                  f"{s['high']:.2f}) | {s['ms']:.1f} | {s['guesses']:.2f} |")


def paired(seed: int, strategy: str, without: tuple[str, ...], tuning: tuple[str, ...],
           names: list[str], folder: Path = RESULTS, baseline: Path = RESULTS) -> None:
    """The change in win rate from the plain strategy (its run in ``baseline``) to the
    varied one (``--without``, ``--set``; its run in ``folder``), game by game on the boards
    both played: mean and 95 % half-width of the per-board differences (normal
    approximation), and how many boards differ."""
    print(f"| setting (seed {seed}) | {strategy} vs varied | boards | differ (won only varied "
          "/ only plain) | change in points (95 %) |")
    print("|---|---|---|---|---|")
    for name in names:
        base = results_file(name, strategy, (), seed, (), baseline)
        varied = results_file(name, strategy, without, seed, tuning, folder)
        if base == varied:
            print(f"| {name} | nothing varied: give --without, --set or --baseline | | | |")
            continue
        if not (base.exists() and varied.exists()):
            print(f"| {name} | run both first: {base.name}, {varied.name} | | | |")
            continue
        won = [{r["id"]: r["won"] for r in read_rows(path)[1]} for path in (base, varied)]
        common = sorted(won[0].keys() & won[1].keys())
        diffs = [int(won[1][i]) - int(won[0][i]) for i in common]
        n = len(diffs)
        if not n:
            print(f"| {name} | {varied.stem} | 0: no board played by both | | |")
            continue
        mean = sum(diffs) / n
        var = sum((d - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else 0.0
        label = varied.stem if folder == baseline else f"{varied} vs {base}"
        print(f"| {name} | {label} | {n:,} | {sum(d != 0 for d in diffs)} "
              f"({diffs.count(1)} / {diffs.count(-1)}) | {100 * mean:+.2f} "
              f"(± {196 * (var / n) ** 0.5:.2f}) |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=["run", "ablation", "report", "paired"])
    parser.add_argument("settings", nargs="*", default=[], metavar="SETTING",
                        help=f"some of {', '.join(SETTINGS)} (default: all)")
    parser.add_argument("--games", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--strategy", default="best")
    parser.add_argument("--without", action="append", default=[], choices=PARTS)
    parser.add_argument("--set", action="append", default=[], dest="tuning",
                        metavar="NAME=VALUE", help=f"a parameter: {', '.join(TUNABLE)}")
    parser.add_argument("--results", type=Path, default=RESULTS, metavar="DIR",
                        help="where runs write and reports read (default: results/)")
    parser.add_argument("--baseline", type=Path, default=None, metavar="DIR",
                        help="paired: read the plain run from DIR (default: --results)")
    args = parser.parse_args()
    folder = args.results
    baseline = folder if args.baseline is None else args.baseline
    unknown = [name for name in args.settings if name not in SETTINGS]
    if unknown:
        parser.error(f"unknown setting {unknown[0]!r}: choose from {', '.join(SETTINGS)}")
    names = args.settings or list(SETTINGS)
    without, tuning = tuple(args.without), tuple(args.tuning)
    try:
        strategy_named(args.strategy, without, tuning)
    except InputError as error:
        parser.error(str(error))
    if args.command == "paired":
        paired(args.seed, args.strategy, without, tuning, names, folder, baseline)
        return
    if args.command == "run":
        for name in names:
            run(name, args.games, args.seed, args.workers, args.strategy, without, tuning,
                folder)
    elif args.command == "ablation":
        for name in names:
            for without in [(), *((p,) for p in PARTS)]:
                run(name, args.games, args.seed, args.workers, args.strategy, without,
                    folder=folder)
            run(name, args.games, args.seed, args.workers, "safest", (), folder=folder)
    report(args.seed, args.strategy, names, folder, without, tuning)
    if args.command == "run" and (without or tuning):
        print()
        paired(args.seed, args.strategy, without, tuning, names, folder, baseline)


if __name__ == "__main__":
    main()
