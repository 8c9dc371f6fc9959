"""Positions where the page's help at a guess shows, taken from games the player plays:
written to ``instances/guide-*.mine`` with what the page must show in ``.json`` beside them.

Usage::

    python scripts/guide_positions.py --out instances

For each kind below, games are dealt from seed ``first``, ``first + 1``, ... (board ``s``:
``exactmines.game.deal`` with ``random.Random(s)``, the first click at the corner, the safe
rule) and played by the player (``Player``, strategy ``best``) until a guess meets the
kind's condition; that position (what the player saw, the total count in the header) is
written. Deterministic: the same command writes the same files.

``pair`` / ``box``
    a forced 50/50 of two cells / of a 2x2 block, with dead cells;
``endgame``
    the endgame search over the whole position, its win probability neither 1/2 nor 1,
    over at least 4 layouts;
``candidates``
    a guess scored by the strategy (next to the numbers), at least five candidates scored.

The first three are small enough to check by brute force: at most ``BRUTE_FORCE`` ways to
put the mines on the covered cells.

The JSON holds the kind, the board and its seed, the hidden board (one layout of the
position: the one dealt) and ``expected``: the page's recommendation, its list of guesses
(cells in order), its dead cells, its 50/50s and its endgame odds, as ``exactmines serve``'s
``/api/overlay`` gives them. ``tests/test_guide_instances.py`` checks each by brute force
over the position's layouts, and the browser tests check the page marks them.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Callable, Iterator
from math import comb
from pathlib import Path
from typing import Any

from exactmines.analysis.analyze import analyze
from exactmines.game import Game, deal
from exactmines.io.formats import position_to_mine
from exactmines.play.advice import advise
from exactmines.play.strategy import STRATEGIES, Player
from exactmines.position import Position

#: kind -> (width, height, mines, first seed, condition on the overlay's extra keys).
KINDS: dict[str, tuple[int, int, int, int, Callable[[dict[str, Any]], bool]]] = {
    "pair": (16, 16, 40, 0, lambda d: any(len(g) == 2 for g in d["fifty_fifties"])
             and bool(d["dead"])),
    "box": (16, 16, 40, 0, lambda d: any(len(g) == 4 for g in d["fifty_fifties"])
            and bool(d["dead"])),
    "endgame": (16, 16, 40, 0, lambda d: d["endgame"] is not None and d["endgame"]["whole"]
                and d["endgame"]["win"] not in (None, "1/2", "1")
                and d["endgame"]["layouts"] >= 4),
    "candidates": (30, 16, 99, 0, lambda d: d["recommendation"]["kind"] == "frontier"
                   and sum(c["considered"] for c in d["candidates"]) >= 5),
}


def guesses(seed: int, width: int, height: int, mines: int
            ) -> Iterator[tuple[Game, Position]]:
    """The positions at which the player guesses in the game dealt from ``seed``."""
    board = deal(width, height, mines, random.Random(seed), rule="safe", at=(0, 0))
    game, player = Game(board), Player(width, height, mines, STRATEGIES["best"])

    def show(opened: list[tuple[int, int]]) -> None:
        player.show([(r * width + c, game.numbers[r * width + c]) for r, c in opened])

    show(game.reveal((0, 0)))
    while not game.over:
        cells, guess = player.next_clicks()
        if guess:
            yield game, game.position().with_mines(mines)
        for i in cells:
            if game.over:
                break
            opened = game.reveal(divmod(i, width))
            if not game.lost:
                show(opened)


#: The small kinds are checked by listing every way to put the mines on the covered cells:
#: at most this many.
BRUTE_FORCE = 200_000


def find(kind: str) -> tuple[int, Game, Position, dict[str, Any]]:
    width, height, mines, seed, wanted = KINDS[kind]
    while True:
        for game, position in guesses(seed, width, height, mines):
            covered = sum(row.count("H") for row in position.rows)
            if kind != "candidates" and comb(covered, mines) > BRUTE_FORCE:
                continue
            found = advise(position, analyze(position)).to_dict()
            if found["recommendation"] is not None and wanted(found):
                return seed, game, position, found
        seed += 1


def write(kind: str, out: Path) -> Path:
    seed, game, position, found = find(kind)
    width, height, mines = position.width, position.height, position.mines
    name = f"guide-{kind}-{width}x{height}x{mines}-seed{seed}"
    command = f"python scripts/guide_positions.py --out {out} (kind {kind})"
    (out / f"{name}.mine").write_text(position_to_mine(
        position, [f"{command}: a guess of the game dealt from seed {seed}"]))
    info = {
        "kind": f"guide-{kind}", "width": width, "height": height, "mines": mines,
        "seed": seed, "start": "safe", "at": [0, 0],
        "hidden_board": {"mines": sorted(list(c) for c in game.board.mine_cells)},
        "expected": {
            "recommendation": [found["recommendation"]["row"], found["recommendation"]["col"]],
            "kind": found["recommendation"]["kind"],
            "candidates": [[c["row"], c["col"]] for c in found["candidates"]],
            "dead": found["dead"],
            "fifty_fifties": found["fifty_fifties"],
            "endgame": found["endgame"],
        },
    }
    (out / f"{name}.json").write_text(json.dumps(info, indent=1) + "\n")
    return out / f"{name}.mine"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("kinds", nargs="*", metavar="KIND",
                        help=f"some of {', '.join(KINDS)} (default: all)")
    args = parser.parse_args(argv)
    for kind in args.kinds:
        if kind not in KINDS:
            parser.error(f"unknown kind {kind!r}: choose from {', '.join(KINDS)}")
    for kind in args.kinds or KINDS:
        print(write(kind, args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
