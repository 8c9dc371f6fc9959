"""Another player against exactmines' on the same boards, compared decision by decision.

Usage::

    python scripts/versus.py boards expert-sfar --seed 2026 --games 20000 --out boards.jsonl
    (play boards.jsonl with the other player, writing theirs.jsonl: see below)
    python scripts/versus.py play expert-sfar --seed 2026 --games 20000 --workers 2 \\
        --out ours.jsonl
    python scripts/versus.py compare ours.jsonl theirs.jsonl [ours2.jsonl theirs2.jsonl ...]
    python scripts/versus.py endgames expert-sfar --seed 2026 ours.jsonl theirs.jsonl

``boards`` writes the boards ``bench_play.py`` plays (game ``i`` of seed ``S``), one JSON
line each: ``{"id", "width", "height", "mines": [flat indices r * width + c], "at": [row,
col]}`` (the first click, never a mine). The other player writes one line per board:
``{"id", "won", "log": [[cell, mine probability], ...]}``, its guesses in order (clicks on
cells it did not know to be safe). ``play`` writes exactmines' games the same way (after a
meta line; ``log`` entries are ``[cell, kind, probability]``), with progress, and resumes
an interrupted file.

``compare`` pairs the boards: the difference in win rate with its 95 % half-width, then the
boards by where the two players first guess differently (the position there is the same for
both when each reveals every certainly safe cell before guessing), by exactmines' kind of
guess and by whether the other player's cell was safer. ``endgames`` replays, for the
boards whose first difference is one of exactmines' exact endgame searches, the position
there and counts with :class:`~exactmines.play.endgame.Endgame` the layouts each player's click
wins: the expected wins of both (the realised ones differ by luck alone).

Measured against JSMinesweeper's JavaScript engine (run under Node.js on these boards):
see docs/playing-strength.md, "Against JSMinesweeper on the same boards".
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections import defaultdict
from fractions import Fraction
from functools import partial
from pathlib import Path
from typing import Any

from bench_play import SETTINGS, settings_of

from exactmines.game import Game, board_from_indices
from exactmines.play.endgame import Endgame
from exactmines.play.games import PlaySettings, click, deal_game, play_game
from exactmines.play.strategy import Guess, Player, estimate, list_layouts
from exactmines.runner import read_rows, run_batch


def _board(settings: PlaySettings, index: int) -> dict[str, Any]:
    return {"id": index, "width": settings.width, "height": settings.height,
            "mines": sorted(deal_game(settings, index)), "at": list(settings.at)}


def _our_games(meta: dict[str, Any], tasks: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Batch work: play the boards of ``tasks`` (``{"id": index}``), logging the guesses."""
    settings = settings_of(meta["setting"], "best", (), meta["seed"])
    strategy = settings.player_strategy()
    rows = []
    for task in tasks:
        log: list[Guess] = []
        record = play_game(settings.width, settings.height, deal_game(settings, task["id"]),
                           settings.at, strategy, settings.start, log)
        rows.append({"id": task["id"], "won": record.won,
                     "log": [[g.cell, g.kind, round(float(g.probability), 6)] for g in log]})
    return rows


def _read(path: Path) -> dict[int, dict[str, Any]]:
    return {row["id"]: row for row in read_rows(path)[1]}


def first_difference(ours: list, theirs: list) -> int | None:
    """Index of the first guess where the two logs differ (``None``: never)."""
    k = 0
    while k < len(ours) and k < len(theirs) and ours[k][0] == theirs[k][0]:
        k += 1
    return None if k == len(ours) == len(theirs) else k


def compare(paths: list[Path]) -> None:
    """``paths``: pairs of files (exactmines', theirs), e.g. one pair per seed."""
    if len(paths) % 2:
        raise SystemExit("compare takes pairs of files: ours theirs [ours theirs ...]")
    ours: dict[tuple[int, int], dict[str, Any]] = {}
    theirs: dict[tuple[int, int], dict[str, Any]] = {}
    for pair in range(0, len(paths), 2):
        ours.update(((pair, i), row) for i, row in _read(paths[pair]).items())
        theirs.update(((pair, i), row) for i, row in _read(paths[pair + 1]).items())
    common = sorted(ours.keys() & theirs.keys())
    if not common:
        raise SystemExit("no board in both files")
    # category: [boards, ours won, theirs won]
    table: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for i in common:
        o, t = ours[i], theirs[i]
        k = first_difference(o["log"], t["log"])
        if k is None:
            name = "never (same guesses)"
        elif k >= len(o["log"]):
            name = "exactmines guessed no more"
        else:
            kind, p = o["log"][k][1], o["log"][k][2]
            name = kind + (" (first guess)" if k == 0 else "")
            if k < len(t["log"]):
                q = t["log"][k][1]
                name += (", theirs safer" if q < p - 1e-6 else ", theirs riskier"
                         if q > p + 1e-6 else ", equally safe")
        row = table[name]
        row[0] += 1
        row[1] += o["won"]
        row[2] += t["won"]
    n = len(common)
    diffs = [int(theirs[i]["won"]) - int(ours[i]["won"]) for i in common]
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / max(1, n - 1)
    won_ours = sum(ours[i]["won"] for i in common)
    print(f"{n:,} boards: exactmines {100 * won_ours / n:.2f} %, theirs "
          f"{100 * (won_ours + sum(diffs)) / n:.2f} %, theirs - exactmines "
          f"{100 * mean:+.2f} (± {196 * math.sqrt(var / n):.2f}) points\n")
    print("| first different guess (exactmines' kind) | boards | exactmines won | theirs won "
          "| theirs - exactmines, points |")
    print("|---|---|---|---|---|")
    for name, (count, a, b) in sorted(table.items(), key=lambda item: -item[1][0]):
        print(f"| {name} | {count:,} | {a:,} | {b:,} | {100 * (b - a) / n:+.3f} |")


def _position_before(settings: PlaySettings, index: int, k: int) -> tuple[Any, Any, Any]:
    """The player's view, estimate and strategy just before its guess ``k`` on board
    ``index`` (replayed)."""
    mines = deal_game(settings, index)
    game = Game(board_from_indices(settings.width, settings.height, mines))
    player = Player(settings.width, settings.height, len(mines), settings.player_strategy())
    todo = [settings.at[0] * settings.width + settings.at[1]]
    while len(player.guesses) <= k:
        for cell in todo:
            if not game.revealed >> cell & 1:
                click(game, player, cell)
        todo, _ = player.next_clicks()
    # Guess k is chosen and not yet clicked; the estimate is the one it was chosen from
    # (its certain mines are flagged now, which changes no layout).
    return player.view, estimate(player.view, player.cache), player.strategy


def endgames(settings: PlaySettings, ours_path: Path, theirs_path: Path) -> None:
    ours, theirs = _read(ours_path), _read(theirs_path)
    totals = [Fraction(0), Fraction(0)]
    realised = [0, 0]
    boards = skipped = better = 0
    for i in sorted(ours.keys() & theirs.keys()):
        o, t = ours[i]["log"], theirs[i]["log"]
        k = first_difference(o, t)
        if k is None or k >= len(o) or k >= len(t) or o[k][1] != "endgame":
            continue
        view, base, strategy = _position_before(settings, i, k)
        layouts = list_layouts(view, base, strategy.endgame_layouts)
        cells = [c for c in range(view.width * view.height) if base.unknown >> c & 1]
        if layouts is None or t[k][0] not in cells:
            skipped += 1  # an isolated region's search, or their guess came at another time
            continue
        search = Endgame(layouts, cells, view.masks, view.mines, 10**9)
        wins = [search.wins_after(cell) for cell in (o[k][0], t[k][0])]
        better += wins[1] > wins[0]
        for side in (0, 1):
            totals[side] += Fraction(wins[side], len(layouts))
        realised[0] += ours[i]["won"]
        realised[1] += theirs[i]["won"]
        boards += 1
    print(f"{boards} boards whose first different guess is an exact endgame search "
          f"({skipped} skipped)")
    print(f"expected wins: exactmines {float(totals[0]):.2f}, theirs {float(totals[1]):.2f}; "
          f"realised: exactmines {realised[0]}, theirs {realised[1]}; their click wins more "
          f"layouts on {better} boards")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    for name in ("boards", "play", "endgames"):
        command = sub.add_parser(name)
        command.add_argument("setting", choices=list(SETTINGS))
        command.add_argument("--seed", type=int, default=2026)
        if name != "endgames":
            command.add_argument("--games", type=int, default=20000)
            command.add_argument("--out", type=Path, required=True)
    sub.choices["play"].add_argument("--workers", type=int, default=1)
    sub.add_parser("compare").add_argument("files", type=Path, nargs="+",
                                           metavar="OURS THEIRS")
    sub.choices["endgames"].add_argument("ours", type=Path)
    sub.choices["endgames"].add_argument("theirs", type=Path)
    args = parser.parse_args()
    if args.command == "compare":
        compare(args.files)
        return
    settings = settings_of(args.setting, "best", (), args.seed)
    if args.command == "endgames":
        endgames(settings, args.ours, args.theirs)
        return
    if args.command == "boards":
        with args.out.open("w") as out:
            for i in range(args.games):
                out.write(json.dumps(_board(settings, i)) + "\n")
        return
    meta = {"run": "versus", "setting": args.setting, "seed": args.seed}
    run_batch([{"id": i} for i in range(args.games)], partial(_our_games, meta),
              out=args.out, meta=meta, resume=True, workers=args.workers, chunk_size=20,
              progress=sys.stderr.isatty(), description=f"{args.setting} seed {args.seed}")


if __name__ == "__main__":
    main()
