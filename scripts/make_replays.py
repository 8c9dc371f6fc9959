"""Replays of known boards, recorded through ms_toollib's own recorder: the test data of
``exactmines replay`` and the games of its comparison with ms_toollib.

Two players make them:

- ``exactmines``: the project's player (``exactmines play``'s strategy), which never guesses
  while a cell is certainly safe;
- ``habits``: a scripted player with a person's habits. It opens certainly safe cells, but
  now and then clicks an uncertain cell while a safe one is on offer (a needless guess),
  flags mines and chords on numbers whose flags match, puts a flag on a cell that is not
  certainly a mine (often a wrong flag, which a chord then trusts: a lost game), takes flags
  off again, and when nothing is certain clicks one of the least risky cells.

Boards are dealt as Metasweeper and Windows 7 deal them, with no mine around the first
click (``opening``), so every game starts with an opening. Every game's board, first click
and moves follow from its seed (``random.Random`` seeded
with the player, size and seed), so the files are the same on every run but for the times,
which the recorder reads from the clock (each action waits ``--pace`` seconds on average).
The files are Metasweeper's ``.evf``, in the versions ms_toollib writes and reads back (0, 3
and 4 in turn); ``--also-v2`` adds one version 2 file, which ms_toollib 1.5.20 writes with a
version byte of 0 and cannot read back.

Examples::

    python scripts/make_replays.py --out tests/data/replays/recorded          # the test set
    python scripts/make_replays.py --out results/replays --games 120 --levels expert \\
        intermediate beginner --players habits exactmines --pace 0.001       # comparison
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from exactmines.analysis.analyze import analyze
from exactmines.game import Game, deal
from exactmines.io.files import write_atomic
from exactmines.io.replays import EVF_VERSIONS, Recorder
from exactmines.play.games import play_game, record_game
from exactmines.play.strategy import strategy_named
from exactmines.position import Board, Cell, Position, neighbours

#: Board sizes by name: ms_toollib's three levels, and a small board whose every position
#: the brute-force oracle of the tests can check.
LEVELS = {"beginner": (8, 8, 10), "intermediate": (16, 16, 40), "expert": (30, 16, 99),
          "small": (5, 5, 4)}

#: The test set: (player, level, seeds).
TEST_SET = [
    ("clumsy", "small", [1, 2, 3, 4, 5, 6, 21, 22, 25]),  # 2, 21, 22, 25: wrong-flag chords
    ("exactmines", "small", range(1, 3)),
    ("habits", "beginner", range(1, 4)),
    ("exactmines", "beginner", range(1, 3)),
    ("habits", "intermediate", range(1, 3)),
    ("exactmines", "intermediate", range(1, 2)),
    ("habits", "expert", range(1, 3)),
    ("exactmines", "expert", range(1, 2)),
]


@dataclass(frozen=True)
class Habits:
    """How often the scripted player does each thing when it could (per decision)."""

    needless: float = 0.05  # click an uncertain cell while a safe one is on offer
    chord: float = 0.5  # flag a number's mines and chord it, when its cells are settled
    wrong_flag: float = 0.03  # flag an uncertain cell next to a number
    unflag: float = 0.15  # take one of its flags off again


#: The scripted players: ``habits`` plays like a fair player; ``clumsy`` makes every
#: mistake often (the small boards of the tests, where each is checked by brute force).
PLAYERS = {"habits": Habits(),
           "clumsy": Habits(needless=0.3, chord=0.5, wrong_flag=0.3, unflag=0.1)}


def _rng(player: str, level: str, seed: int) -> random.Random:
    return random.Random(f"exactmines-replays:{player}:{level}:{seed}")


class _Table:
    """The game as the scripted player acts on it: ms_toollib's recorder and this project's
    engine side by side (they must agree; the tests check the files against the engine)."""

    def __init__(self, board: Board, rng: random.Random, pace: float) -> None:
        self.board, self.rng, self.pace = board, rng, pace
        self.game = Game(board)
        self.recorder = Recorder(board)

    def act(self, kind: str, cell: Cell) -> None:
        wait = self.pace * self.rng.uniform(0.3, 1.7)  # drawn always: moves never depend
        if wait:                                        # on the pace
            time.sleep(wait)
        getattr(self.recorder, kind)(cell)
        game = self.game
        if kind == "right":
            game.toggle_flag(cell)
        elif kind == "left":
            game.reveal(cell)
        else:
            for n in neighbours(game.width, game.height, cell):
                if not game.is_revealed(n) and not game.is_flagged(n) and not game.over:
                    game.reveal(n)

    def position(self) -> Position:
        """What the player sees, its flags left out (it does not trust them either)."""
        return self.game.position()


def _numbers_near(game: Game, cell: Cell) -> Iterator[Cell]:
    for n in neighbours(game.width, game.height, cell):
        if game.is_revealed(n) and game.number(n):
            yield n


def play_with_habits(board: Board, first: Cell, rng: random.Random, habits: Habits,
                     pace: float) -> Recorder:
    """The scripted player's game on ``board`` from ``first``, recorded."""
    table = _Table(board, rng, pace)
    game = table.game
    table.act("left", first)
    wrong_flags = 0
    while not game.over:
        result = analyze(table.position())
        safe = [c for c in result.safe if not game.is_flagged(c)]
        certain = set(result.mines)
        flagged = [c.cell for c in result.cells if game.is_flagged(c.cell)]
        uncertain = [c for c in result.cells if c.verdict == "unknown"
                     and c.probability is not None and not game.is_flagged(c.cell)]
        if flagged and rng.random() < habits.unflag:
            table.act("right", rng.choice(flagged))
            continue
        near = [c for c in uncertain if any(True for _ in _numbers_near(game, c.cell))]
        if near and wrong_flags < 3 and rng.random() < habits.wrong_flag:
            wrong_flags += 1
            table.act("right", rng.choice(near).cell)
            continue
        if safe and rng.random() < habits.chord:
            chord = _chord(game, certain, rng)
            if chord is not None:
                number, to_flag = chord
                for cell in to_flag:
                    table.act("right", cell)
                table.act("chord", number)
                continue
        if safe and uncertain and rng.random() < habits.needless:
            lowest = sorted(uncertain, key=lambda c: c.probability or 0)[:5]
            table.act("left", rng.choice(lowest).cell)
            continue
        if safe:
            table.act("left", rng.choice(safe[:8]))
            continue
        if not uncertain:  # only flagged cells are left to open: the flags were wrong
            table.act("right", rng.choice(flagged))
            continue
        best = min(c.probability or 0 for c in uncertain)
        table.act("left", rng.choice([c.cell for c in uncertain if c.probability == best]))
    if table.recorder.won != game.won:
        raise AssertionError("ms_toollib's recorder and the engine disagree on the game")
    return table.recorder


def _chord(game: Game, certain: set[Cell], rng: random.Random
           ) -> tuple[Cell, list[Cell]] | None:
    """A number the player can chord: its flags plus the certain mines it has not flagged
    make its number, and some covered unflagged neighbour is left to open. Returns the
    number and the mines to flag first."""
    options = []
    width, height = game.width, game.height
    for r in range(height):
        for c in range(width):
            if not game.is_revealed((r, c)) or not game.number((r, c)):
                continue
            around = neighbours(width, height, (r, c))
            flags = [n for n in around if game.is_flagged(n)]
            to_flag = [n for n in around if n in certain and not game.is_flagged(n)]
            rest = [n for n in around if not game.is_revealed(n) and not game.is_flagged(n)
                    and n not in certain]
            if len(flags) + len(to_flag) == game.number((r, c)) and rest:
                options.append(((r, c), to_flag))
    return rng.choice(options) if options else None


def make(player: str, level: str, seed: int, version: int, pace: float) -> tuple[bytes, dict]:
    """One game's ``.evf`` and what it is (for the README table)."""
    width, height, mines = LEVELS[level]
    rng = _rng(player, level, seed)
    first = (rng.randrange(height), rng.randrange(width))
    board = deal(width, height, mines, rng, rule="opening", at=first)
    if player == "exactmines":
        indices = [r * width + c for r, c in sorted(board.mine_cells)]
        record, data = record_game(width, height, indices, first, strategy_named("best"),
                                   "opening", version=version)
        won = record.won
    else:
        recorder = play_with_habits(board, first, rng, PLAYERS[player], pace)
        data = recorder.evf(player=f"{player} (scripted)", software="exactmines make_replays",
                            version=version)
        won = recorder.won
    return data, {"player": player, "level": level, "seed": seed, "version": version,
                  "won": won, "first": first}


def evf_version_2(board: Board, first: Cell) -> bytes:
    """The exactmines player's game on ``board`` as ms_toollib writes it in ``.evf`` version
    2 (straight through ms_toollib: :class:`Recorder` refuses the version)."""
    import ms_toollib

    width, numbers = board.width, board.numbers()
    video = ms_toollib.BaseVideo(
        [[-1 if (r, c) in board.mine_cells else numbers[r * width + c] for c in range(width)]
         for r in range(board.height)], Recorder.PIXELS)

    def click(cell: Cell) -> None:
        at = tuple(x * Recorder.PIXELS + Recorder.PIXELS // 2 for x in cell)
        video.step("lc", at)
        video.step("lr", at)

    play_game(width, board.height, [r * width + c for r, c in sorted(board.mine_cells)],
              first, strategy_named("best"), "opening", on_click=click)
    video.generate_evf_v2_raw_data()
    return bytes(video.raw_data)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, required=True, help="folder for the .evf files")
    parser.add_argument("--games", type=int, help="games per player and level (instead of "
                                                  "the test set)")
    parser.add_argument("--levels", nargs="+", choices=sorted(LEVELS), default=None)
    parser.add_argument("--players", nargs="+", choices=[*PLAYERS, "exactmines"],
                        default=["habits", "exactmines"])
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--pace", type=float, default=0.003,
                        help="mean seconds between the scripted player's actions")
    parser.add_argument("--also-v2", action="store_true",
                        help="also write one version 2 file (which ms_toollib cannot read "
                             "back)")
    args = parser.parse_args(argv)
    if args.games is None:
        plan = [(p, lv, list(s)) for p, lv, s in TEST_SET]
    else:
        levels = args.levels or ["beginner", "intermediate", "expert"]
        seeds = list(range(args.first_seed, args.first_seed + args.games))
        plan = [(p, lv, seeds) for lv in levels for p in args.players]
    made = 0
    print("| file | player | board | seed | first click | evf | outcome |")
    print("|---|---|---|---|---|---|---|")
    for player, level, seeds in plan:
        for seed in seeds:
            version = EVF_VERSIONS[(seed + made) % len(EVF_VERSIONS)]
            data, about = make(player, level, seed, version, args.pace)
            width, height, mines = LEVELS[level]
            name = f"{player}-{level}-{width}x{height}x{mines}-seed{seed}-v{version}.evf"
            write_atomic(args.out / name, data)
            made += 1
            r, c = about["first"]
            print(f"| `{name}` | {player} | {width}x{height}/{mines} | {seed} | {r},{c} | "
                  f"v{version} | {'won' if about['won'] else 'lost'} |", flush=True)
    if args.also_v2:
        width, height, mines = LEVELS["beginner"]
        rng = _rng("v2", "beginner", 1)
        first = (rng.randrange(height), rng.randrange(width))
        board = deal(width, height, mines, rng, rule="opening", at=first)
        data = evf_version_2(board, first)
        name = "damaged-evf-v2-written-by-ms_toollib.evf"
        write_atomic(args.out / name, data)
        print(f"| `{name}` | exactmines | {width}x{height}/{mines} | 1 | {first[0]},"
              f"{first[1]} | v2 | unreadable |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
