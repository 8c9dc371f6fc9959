"""Whole games: deal a board, let the player (:mod:`exactmines.play.strategy`) clear it or lose,
and run many games with :func:`~exactmines.runner.run_batch` (``exactmines play``).

Each game has its own seed, derived from the run's seed and the game's index, so any row of
a results file can be replayed on its own (:func:`play_one`), runs can be split, resumed
and extended, and the outcome does not depend on the number of workers. The player itself
uses no randomness.
"""

from __future__ import annotations

import hashlib
import random
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from fractions import Fraction
from functools import partial
from pathlib import Path
from typing import Any

from exactmines.errors import ParameterError, SolverError
from exactmines.game import (
    START_RULES,
    Game,
    GameOver,
    board_from_indices,
    free_indices,
    protected_cells,
)
from exactmines.io.files import TopologySpec, settings_meta
from exactmines.play.strategy import (
    GUESS_KINDS,
    PARTS,
    TUNABLE,
    Guess,
    Player,
    Strategy,
    strategy_named,
)
from exactmines.position import Cell, Topology
from exactmines.runner import row_problem, run_batch
from exactmines.solvability.build import deal_noguess
from exactmines.stats import rate_summary

__all__ = ["PlaySettings", "GameRecord", "PlayResult", "game_seed", "deal_game", "play_game",
           "record_game", "replay_name", "play_one", "play_games", "run_play", "PUBLISHED",
           "published_rate", "RISK_KINDS", "mean_risk"]

#: Kinds of risk a game's record sums: the first click (``start``: only the rule
#: ``unprotected`` risks it) and the player's guesses by how they were chosen.
RISK_KINDS = ("start", *GUESS_KINDS)

#: The strongest published player under the same rules (REFERENCE.md: JSMinesweeper),
#: keyed by (width, height, mines, start rule, first click): (win rate, who, sample).
PUBLISHED: dict[tuple[int, int, int, str, tuple[int, int]], tuple[float, str]] = {
    (30, 16, 99, "safe", (0, 0)): (0.4113, "JSMinesweeper (Java), 10M games"),
    (30, 16, 99, "opening", (3, 3)): (0.5447, "JSMinesweeper, 10k games"),
    (16, 16, 40, "safe", (0, 0)): (0.7820, "JSMinesweeper, 10k games"),
    (16, 16, 40, "opening", (3, 3)): (0.8893, "JSMinesweeper, 40k games"),
    (9, 9, 10, "safe", (0, 0)): (0.9172, "JSMinesweeper, 200k games"),
    (9, 9, 10, "opening", (3, 3)): (0.9685, "JSMinesweeper, 200k games"),
}


#: Where a run's boards come from: ``random`` (uniform under the first-click rule) or
#: ``noguess`` (boards cleared without guessing from the first click).
BOARDS = ("random", "noguess")


@dataclass(frozen=True, slots=True)
class PlaySettings:
    """What defines a run of games (everything but how many)."""

    width: int
    height: int
    mines: int
    start: str
    at: Cell
    seed: int
    strategy: str = "best"
    without: tuple[str, ...] = ()
    tuning: tuple[str, ...] = ()
    topology: TopologySpec = TopologySpec()
    boards: str = "random"

    def __post_init__(self) -> None:
        if self.start not in START_RULES:
            raise ParameterError("start", self.start, "unknown first-click rule: choose one "
                                                      f"of {', '.join(START_RULES)}")
        if self.boards not in BOARDS:
            raise ParameterError("boards", self.boards, f"choose one of {', '.join(BOARDS)}")
        if self.boards == "noguess" and self.start == "unprotected":
            raise ParameterError("boards", self.boards, "no-guess boards need the first "
                                 "click safe: the rule safe or opening")
        if self.width < 1 or self.height < 1:
            raise ParameterError("width" if self.width < 1 else "height",
                                 min(self.width, self.height), "must be at least 1")
        board = self.board_topology()
        r, c = self.at
        if not (0 <= r < board.height and 0 <= c < board.width):
            raise ParameterError("at", self.at, f"off the {board.size_text} board")
        free_indices(board.width, board.height, self.mines,
                     protected_cells(board.width, board.height, self.start, self.at, board))
        self.player_strategy()  # unknown names fail here, before any work

    def board_topology(self) -> Topology:
        """The boards' topology (:meth:`~exactmines.io.files.TopologySpec.build`): the
        square grid of ``width`` x ``height`` unless ``topology`` names another."""
        return self.topology.build(self.width, self.height)

    def player_strategy(self) -> Strategy:
        return strategy_named(self.strategy, self.without, self.tuning)

    def as_meta(self) -> dict[str, Any]:
        """The JSON that heads a results file (``resume`` refuses a file with other meta).

        It records the strategy's parameters too, so that a run is never resumed by a
        player tuned differently.
        """
        meta = settings_meta(self)  # a square grid's has no topology keys: older files resume
        meta["at"] = list(self.at)
        meta["without"] = list(self.without)
        del meta["tuning"]
        if self.boards == "random":  # as before no-guess boards: older files resume
            del meta["boards"]
        if self.tuning:  # untuned runs write the meta they always did: older files resume
            meta["tuning"] = list(self.tuning)
        strategy = self.player_strategy()
        meta["parameters"] = {name: str(getattr(strategy, name)) for name in TUNABLE}
        return {"run": "play", **meta}


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One game's outcome.

    ``guesses`` counts clicks that were not certainly safe (the first click included);
    ``revealed`` the safe cells open at the end; ``endgame`` the guesses chosen by the exact
    endgame search; ``cpu_ms`` the player's and the game's CPU time; ``risk``, per kind of
    click (:data:`RISK_KINDS`, only those taken), the sum of the exact mine probabilities of
    the cells clicked, printed as floats: their total is the chance of losing along this
    game's path, and its mean over games estimates the loss rate.
    """

    won: bool
    guesses: int
    clicks: int
    revealed: int
    safe_cells: int
    endgame: int
    cpu_ms: float
    risk: dict[str, float]


def published_rate(settings: PlaySettings) -> tuple[float, str] | None:
    """The published win rate for these rules (for reading only: a float), if any."""
    if not settings.topology.is_square:
        return None
    return PUBLISHED.get((settings.width, settings.height, settings.mines, settings.start,
                          settings.at))


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a run seeded ``seed`` (64 bits of SHA-256: stable
    across Python versions and platforms, unlike ``hash``)."""
    digest = hashlib.sha256(f"exactmines-play:{seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def deal_game(settings: PlaySettings, index: int) -> list[int]:
    """The mines of game ``index`` (flat indices ``r * width + c``, in the order dealt;
    ascending on a no-guess board, :func:`~exactmines.solvability.build.deal_noguess`)."""
    if settings.boards == "noguess":
        board = settings.board_topology()
        return deal_noguess(board.width, board.height, settings.mines,
                            random.Random(game_seed(settings.seed, index)), start=settings.start,
                            at=settings.at, topology=board)[0]
    return random.Random(game_seed(settings.seed, index)).sample(_free(settings),
                                                                 settings.mines)


def _free(settings: PlaySettings) -> list[int]:
    """The cells a mine may be dealt on (:func:`~exactmines.game.free_indices`)."""
    board = settings.board_topology()
    return free_indices(board.width, board.height, settings.mines,
                        protected_cells(board.width, board.height, settings.start,
                                        settings.at, board))


def click(game: Game, player: Player, index: int) -> bool:
    """Click cell ``index`` (flat) of ``game`` and show the player every cell it reveals;
    ``False`` if it was a mine. Cost: a few steps per cell revealed."""
    if game.over:
        raise GameOver("the game is over")
    numbers = game.numbers
    opened = game.reveal_indices([index])
    if game.lost:
        return False
    player.show([(i, numbers[i]) for i in opened])
    return True


def play_game(width: int, height: int, mine_indices: list[int], at: Cell,
              strategy: Strategy, rule: str = "safe",
              log: list[Guess] | None = None, topology: Topology | None = None,
              on_click: Callable[[Cell], None] | None = None) -> GameRecord:
    """Play one game on the board with mines at ``mine_indices`` from a first click at
    ``at``: every certainly safe cell is revealed as soon as it is found; otherwise the
    strategy guesses. ``rule``: the first-click rule the board was dealt under (it sets
    the first click's risk). Cost: a few steps per cell revealed, plus the exact analyses
    where the local rules are stuck. ``log``, if given, receives the player's guesses in order
    (:attr:`Player.guesses <exactmines.play.strategy.Player.guesses>`). ``topology``: the
    board's (the square grid by default); ``on_click``, if given, is called with each cell
    just before it is clicked (a :class:`~exactmines.io.replays.Recorder` records the game
    that way).
    """
    started = time.process_time()
    game = Game(board_from_indices(width, height, mine_indices, topology))
    player = Player(width, height, len(mine_indices), strategy, topology=topology)
    # The first click's risk: a mine may be there only if the rule protects nothing.
    start = (Fraction(len(mine_indices), width * height)
             if not protected_cells(width, height, rule, at, topology) else Fraction(0))
    guesses = clicks = 0
    todo, guess = [at[0] * width + at[1]], True
    while True:
        guesses += guess
        for index in todo:
            if not game.is_revealed(divmod(index, width)):
                clicks += 1
                if on_click is not None:
                    on_click(divmod(index, width))
                if not click(game, player, index):
                    break
        if game.over:
            break
        todo, guess = player.next_clicks()
        if not todo:
            raise SolverError("the player found nothing to click in a game not over")
    if log is not None:
        log.extend(player.guesses)
    return GameRecord(won=game.won, guesses=guesses, clicks=clicks,
                      revealed=game.revealed_count, safe_cells=game.safe_left + game.revealed_count,
                      endgame=player.endgame_searches,
                      cpu_ms=round(1000 * (time.process_time() - started), 3),
                      risk={kind: round(float(r), 6) for kind, r in
                            (("start", start), *player.risks.items()) if r})


def record_game(width: int, height: int, mine_indices: list[int], at: Cell,
                strategy: Strategy, rule: str = "safe", *,
                version: int = 4) -> tuple[GameRecord, bytes]:
    """:func:`play_game`, recorded click by click through ms_toollib as Metasweeper's
    ``.evf`` of ``version`` (the times are the player's own, thinking included). Needs the
    replay extra (``pip install 'exactmines[replay]'``)."""
    from exactmines.io.replays import Recorder
    from exactmines.version import __version__

    recorder = Recorder(board_from_indices(width, height, mine_indices))
    record = play_game(width, height, mine_indices, at, strategy, rule,
                       on_click=recorder.left)
    return record, recorder.evf(player=f"exactmines {strategy.name}",
                                software=f"exactmines {__version__}", version=version)


def replay_name(settings: PlaySettings, index: int) -> str:
    """The file name of game ``index``'s replay: its rules, run seed and index."""
    return (f"{settings.width}x{settings.height}x{settings.mines}-{settings.start}-"
            f"seed{settings.seed}-{index:06d}.evf")


def play_one(settings: PlaySettings, index: int) -> GameRecord:
    """Game ``index`` of the run, dealt and played again on its own."""
    board = settings.board_topology()
    return play_game(board.width, board.height, deal_game(settings, index), settings.at,
                     settings.player_strategy(), settings.start, topology=board)


def _settings_from_meta(meta: dict[str, Any]) -> PlaySettings:
    """The settings a results file's meta describes (its parameters are checked on
    resume, by comparing the whole meta)."""
    return PlaySettings(meta["width"], meta["height"], meta["mines"], meta["start"],
                        (meta["at"][0], meta["at"][1]), meta["seed"], meta["strategy"],
                        tuple(meta["without"]), tuple(meta.get("tuning", ())),
                        TopologySpec.from_meta(meta), meta.get("boards", "random"))


def play_games(meta: dict[str, Any], tasks: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Batch work: deal and play the games of ``tasks`` (``{"id": index}``) -> rows.

    With ``meta["record"]`` (a folder), each game is also recorded there as ``.evf``
    (:func:`record_game`, :func:`replay_name`) and its row names the file (``"replay"``).
    """
    settings = _settings_from_meta(meta)
    folder = meta.get("record")
    strategy = settings.player_strategy()
    free = _free(settings)
    board = settings.board_topology()
    rows = []
    for task in tasks:
        seed = game_seed(settings.seed, task["id"])
        mines = (deal_game(settings, task["id"]) if settings.boards == "noguess"
                 else random.Random(seed).sample(free, settings.mines))
        extra = {}
        if folder is None:
            record = play_game(board.width, board.height, mines, settings.at, strategy,
                               settings.start, topology=board)
        else:  # a square grid (run_play refuses to record other boards)
            record, data = record_game(settings.width, settings.height, mines, settings.at,
                                       strategy, settings.start)
            from exactmines.io.files import write_atomic

            path = Path(folder) / replay_name(settings, task["id"])
            write_atomic(path, data, make_folders=True)  # --record names its folder
            extra["replay"] = str(path)
        rows.append({"id": task["id"], "seed": seed, **asdict(record), **extra})
    return rows


@dataclass(frozen=True, slots=True)
class PlayResult:
    settings: PlaySettings
    games: int
    wins: int
    guesses: int
    endgame: int
    cpu_ms: float
    seconds: float
    #: Mean risk per game by kind (:func:`mean_risk`; empty when no row records it).
    risk: dict[str, float] = field(default_factory=dict)

    def risk_per_game(self) -> dict[str, float]:
        """Mean risk per game by kind (:data:`RISK_KINDS`, every kind), for reading."""
        return {kind: round(value, 4) for kind, value in self.risk.items()}

    def to_dict(self) -> dict[str, Any]:
        """The docs/contract.md §3 JSON: ``games``, ``wins``, ``win_rate``, ``ci95`` and more."""
        s = self.settings
        summary = rate_summary(self.wins, self.games)
        return {
            "games": self.games,
            "wins": self.wins,
            "win_rate": summary["rate"],
            "ci95": summary["ci95"],
            "fraction": summary["fraction"],
            "width": s.width, "height": s.height, "mines": s.mines, "start": s.start,
            "at": list(s.board_topology().coordinates(s.at)), "seed": s.seed,
            "strategy": s.player_strategy().name,
            "parts": {p: getattr(s.player_strategy(), p) for p in PARTS},
            "guesses_per_game": round(self.guesses / self.games, 4) if self.games else 0.0,
            "endgame_searches": self.endgame,
            "cpu_ms_per_game": round(self.cpu_ms / self.games, 3) if self.games else 0.0,
            "risk_per_game": self.risk_per_game(),
            "seconds": round(self.seconds, 3),
            **({} if s.topology.is_square else {
                "topology": s.board_topology().word or "graph",
                "layers": s.topology.layers, "cells": s.board_topology().cells}),
        }


def run_play(settings: PlaySettings, games: int, *, out: str | None = None,
             resume: bool = False, workers: int = 1, chunk_size: int | None = None,
             progress: bool = True, scheduler: str | None = None,
             record: str | None = None) -> PlayResult:
    """Play games ``0..games-1`` with :func:`~exactmines.runner.run_batch`.

    With ``out``, one JSONL row per game is written as each chunk finishes; ``resume``
    skips the games already there (and refuses a file from other settings). With
    ``record`` (a folder), every game is also written there as a Metasweeper replay
    (:func:`play_games`); the folder is part of the run's meta.
    """
    if games < 1:
        raise ParameterError("games", games, "must be at least 1")
    if workers < 1:
        raise ParameterError("workers", workers, "must be at least 1")
    meta = settings.as_meta()
    if record is not None:
        from exactmines.io.replays import MAX_SIDE, ms_toollib_version

        ms_toollib_version()  # a missing ms_toollib fails before any game is played
        if not settings.topology.is_square:
            raise ParameterError("record", record, "a replay records a game on the square "
                                                   f"grid, not on {settings.topology.word}")
        if max(settings.width, settings.height) > MAX_SIDE:
            raise ParameterError("record", record, f"a replay holds at most {MAX_SIDE}x"
                                                   f"{MAX_SIDE} cells")
        meta["record"] = record
    if chunk_size is None:
        # Small chunks: an interrupted run loses at most a chunk in flight per worker.
        chunk_size = max(1, min(50, games // (4 * workers)))
    started = time.perf_counter()
    rows = run_batch([{"id": i} for i in range(games)], partial(play_games, meta), out=out,
                     meta=meta, resume=resume, workers=workers, chunk_size=chunk_size,
                     scheduler=scheduler, progress=progress, check=_row_problem,
                     description=f"{settings.width}x{settings.height}/{settings.mines} "
                                 f"{settings.start}")
    return PlayResult(settings, games, sum(r["won"] for r in rows),
                      sum(r["guesses"] for r in rows), sum(r["endgame"] for r in rows),
                      sum(r["cpu_ms"] for r in rows), time.perf_counter() - started,
                      mean_risk(rows)[0])


#: The fields of a results row that :func:`run_play` reads back, and their JSON types.
_ROW_FIELDS = {"won": (bool,), "guesses": (int,), "endgame": (int,), "cpu_ms": (float,)}


def _row_problem(row: dict[str, Any]) -> str | None:
    """What keeps a resumed run from reading ``row`` (:func:`~exactmines.runner.row_problem`):
    its totals and, when recorded, its risk by kind."""
    problem = row_problem(row, _ROW_FIELDS, {"risk": (dict,)})
    if problem is None and "risk" in row:
        problem = row_problem(row["risk"], {}, dict.fromkeys(RISK_KINDS, (float,)),
                              what='row with a "risk"')
    return problem


def mean_risk(rows: list[dict[str, Any]]) -> tuple[dict[str, float], int]:
    """Mean risk per game by kind (every kind of :data:`RISK_KINDS`) over the results rows
    that record it, and how many do (rows written before the risk was recorded lack it);
    ``({}, 0)`` when none does. For reading: floats."""
    recorded = [r["risk"] for r in rows if "risk" in r]
    if not recorded:
        return {}, 0
    return ({kind: sum(r.get(kind, 0.0) for r in recorded) / len(recorded)
             for kind in RISK_KINDS}, len(recorded))
