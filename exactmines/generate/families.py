"""The benchmark families of ``scripts/bench_analyze.py``, seeded, with their ground truth
(``exactmines generate lattice|sparse|dense``).

``lattice``
    A board dealt uniformly (no first-click protection) with every safe cell of a lattice
    clicked: the cells ``(row, col)`` with ``row % step == 0`` and ``col % step == 0``,
    zeros flooding as in a game. With the default 30x16/99 and ``step`` 2 (every 4th cell)
    the numbers make one connected front of ~200 covered cells: the hardest family for the
    exact counters among the small boards.
``sparse``
    A board dealt uniformly with a share of its safe cells revealed, drawn uniformly, no
    flooding (default 50x50/500, an eighth of the safe cells: 250): many small components.
``dense``
    Expert mid-games (default 30x16/99): a board dealt under the first-click rule (an
    opening at the centre by default), the first click, then every cell the exact analysis
    proves safe, move after move, until none is left (a guess would be needed) or the game
    is won. Every position met is an instance.
``opened region``
    (:func:`opened_region_position`, not a command) a large square board at 15 % mines with
    every safe cell of a centred disc clicked: the area family of the benchmark.

Seeds: instance ``i`` of a run seeded ``s`` draws from ``random.Random(s * 1_000_003 +
i)`` (:func:`family_rng`), the scheme the benchmark used before these families were part of
the library, so its positions are unchanged: lattice seed ``k`` of the benchmark is
instance ``k`` of seed 0, game ``g`` of its mid-game suite game ``g`` of seed 0.

Ground truth: ``expected`` in each instance's JSON is ``analyze --format json``'s object for
the position (:func:`~exactmines.analysis.serialize.analysis_to_dict`) without ``seconds``
and ``backend``: layouts as a decimal string, each covered cell's probability as an exact
fraction string and its verdict. Lattice and sparse positions are counted within
:data:`~exactmines.generate.positions.MODEL_COUNT_SECONDS` (past it, ``layouts`` and the
probabilities are ``null``, as ``analyze`` reports them); a dense position's analysis is the
one that chose the next moves, never cut short. The hidden board is one consistent layout.
"""

from __future__ import annotations

import json
import math
import random
import re
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, NamedTuple

from exactmines.analysis.analyze import Analysis, analyze
from exactmines.analysis.serialize import analysis_to_dict, decimal
from exactmines.errors import ParameterError
from exactmines.game import Game, deal, protected_cells, random_board
from exactmines.generate.positions import (
    MODEL_COUNT_SECONDS,
    Instance,
    _board_meta,
    _check_size,
    _first_click,
)
from exactmines.io.formats import position_to_mine
from exactmines.position import Board, Cell, Position
from exactmines.words import plural

__all__ = [
    "FAMILIES",
    "FamilyInstance",
    "DenseStep",
    "family_rng",
    "lattice_position",
    "sparse_position",
    "dense_games",
    "opened_region_position",
    "lattice_instances",
    "sparse_instances",
    "dense_instances",
    "LATTICE_SIZE",
    "LATTICE_STEP",
    "SPARSE_SIZE",
    "SPARSE_SHARE",
    "DENSE_SIZE",
]

FAMILIES = ("lattice", "sparse", "dense")

#: ``random.Random(seed * SEED_STRIDE + index)`` for instance ``index`` of a run.
SEED_STRIDE = 1_000_003

#: Defaults: width, height, mines.
LATTICE_SIZE = (30, 16, 99)
SPARSE_SIZE = (50, 50, 500)
DENSE_SIZE = (30, 16, 99)
#: Every ``LATTICE_STEP``-th row and column: every 4th cell of the board is clicked.
LATTICE_STEP = 2
#: Share of the safe cells a sparse position reveals (250 of 50x50/500's 2,000).
SPARSE_SHARE = 0.125


def family_rng(seed: int, index: int = 0) -> random.Random:
    """The random source of instance ``index`` of a run seeded ``seed``."""
    return random.Random(seed * SEED_STRIDE + index)


@dataclass(frozen=True)
class FamilyInstance(Instance):
    """An :class:`~exactmines.generate.positions.Instance` whose JSON keeps each innermost
    list or object on one line (a 50x50 position has ~2,000 cells in its ground truth)."""

    def json_text(self) -> str:
        text = json.dumps(self.metadata, indent=1)
        return _INNERMOST.sub(lambda m: _SPACE.sub(" ", m.group(0)).replace("[ ", "[")
                              .replace(" ]", "]").replace("{ ", "{").replace(" }", "}"),
                              text) + "\n"


# No raw newline is ever inside a JSON string, so only layout whitespace is joined.
_INNERMOST = re.compile(r"[\[{][^\[\]{}]*[\]}]")
_SPACE = re.compile(r"\n\s*")


# ------------------------------------------------------------------------------ positions

def _check_count(count: int, name: str = "count") -> None:
    if count < 1:
        raise ParameterError(name, count, "must be at least 1")


def _lattice(rng: random.Random, width: int, height: int, mines: int,
             step: int) -> tuple[Board, Position]:
    board = random_board(width, height, mines, rng)
    game = Game(board)
    for r in range(0, height, step):
        for c in range(0, width, step):
            if (r, c) not in board.mine_cells and not game.is_revealed((r, c)):
                game.reveal((r, c))
    return board, game.position()


def _check_lattice(width: int, height: int, mines: int, step: int) -> None:
    _check_size(width, height, mines)
    if step < 1:
        raise ParameterError("step", step, "must be at least 1")


def lattice_position(seed: int, index: int = 0, *, width: int = LATTICE_SIZE[0],
                     height: int = LATTICE_SIZE[1], mines: int = LATTICE_SIZE[2],
                     step: int = LATTICE_STEP) -> Position:
    """Instance ``index`` of the lattice family seeded ``seed`` (see the module docstring).

    Cost: one deal and a flood per lattice cell, linear in the board.
    """
    _check_lattice(width, height, mines, step)
    return _lattice(family_rng(seed, index), width, height, mines, step)[1]


def _sparse(rng: random.Random, width: int, height: int, mines: int,
            share: float) -> tuple[Board, Position, int]:
    board = random_board(width, height, mines, rng)
    safe = [(r, c) for r in range(height) for c in range(width)
            if (r, c) not in board.mine_cells]
    reveals = round(share * len(safe))
    return board, board.position(frozenset(rng.sample(safe, reveals))), reveals


def _check_sparse(width: int, height: int, mines: int, share: float) -> None:
    _check_size(width, height, mines)
    if not 0 < share <= 1:
        raise ParameterError("share", share, "must be in (0, 1]")


def sparse_position(seed: int, index: int = 0, *, width: int = SPARSE_SIZE[0],
                    height: int = SPARSE_SIZE[1], mines: int = SPARSE_SIZE[2],
                    share: float = SPARSE_SHARE) -> Position:
    """Instance ``index`` of the sparse family seeded ``seed``: ``round(share * safe
    cells)`` of the safe cells revealed, drawn uniformly, no flooding.

    Cost: one deal and one pass over the board.
    """
    _check_sparse(width, height, mines, share)
    return _sparse(family_rng(seed, index), width, height, mines, share)[1]


class DenseStep(NamedTuple):
    """One position of a dense mid-game: game ``game``, after ``move`` rounds of safe
    clicks; ``analysis`` is its exact analysis (the next move clicks its safe cells)."""

    game: int
    move: int
    position: Position
    analysis: Analysis
    board: Board
    at: Cell


def _check_dense(width: int, height: int, mines: int, start: str, at: Cell | None) -> Cell:
    _check_size(width, height, mines)
    if start not in ("safe", "opening"):
        raise ParameterError("start", start, "choose safe or opening (a dense game must "
                                             "survive its first click)")
    cell = _first_click(width, height, at)
    free = width * height - len(protected_cells(width, height, start, cell))
    if mines > free:
        raise ParameterError("mines", mines, f"only {plural(free, 'cell')} can hold a mine under "
                                             f"the "
                                             f"{start} rule at {cell[0]},{cell[1]}")
    return cell


def dense_games(games: int, seed: int = 0, *, width: int = DENSE_SIZE[0],
                height: int = DENSE_SIZE[1], mines: int = DENSE_SIZE[2],
                start: str = "opening", at: Cell | None = None,
                backend: str = "auto") -> Iterator[DenseStep]:
    """Every position met in ``games`` seeded games played with safe moves only (see the
    module docstring); the first click is ``at`` (the centre by default: (8, 15) on
    30x16).

    Cost: one exact analysis per position (no time limit: the moves must not depend on the
    machine); ~1 ms on an expert position, 412 positions in 30 games.
    """
    _check_count(games)
    cell = _check_dense(width, height, mines, start, at)
    for g in range(games):
        rng = family_rng(seed, g)
        board = deal(width, height, mines, rng, rule=start, at=cell)
        game = Game(board)
        game.reveal(cell)
        move = 0
        while not game.over:
            position = game.position()
            result = analyze(position, backend=backend)
            yield DenseStep(g, move, position, result, board, cell)
            if not result.safe:
                break
            for safe in result.safe:
                if not game.over and not game.is_revealed(safe):
                    game.reveal(safe)
            move += 1


def opened_region_position(side: int, density: float = 0.15, region: float = 0.40,
                           seed: int = 0) -> Position:
    """A ``side`` x ``side`` board, mid-game: a large region around the first click opened.

    Mines are uniform outside the 3x3 block of the first click (the centre). Every safe cell
    of the centred disc of area ``region * side**2`` is clicked, zeros flooding as in a
    game, so the mines inside stay covered and the disc's rim is a long front of covered
    cells that the numbers do not settle. Flat lists throughout: O(cells), fine for 10**6.
    """
    rng = random.Random(seed)
    n = side * side
    centre = (side // 2) * side + side // 2
    protected = {centre + dr * side + dc for dr in (-1, 0, 1) for dc in (-1, 0, 1)}
    mine = bytearray(n)
    for i in rng.sample([i for i in range(n) if i not in protected], round(density * n)):
        mine[i] = 1

    def around(i: int) -> Iterator[int]:
        r, c = divmod(i, side)
        for rr in (r - 1, r, r + 1):
            if 0 <= rr < side:
                for cc in (c - 1, c, c + 1):
                    if 0 <= cc < side and (rr != r or cc != c):
                        yield rr * side + cc

    numbers = bytearray(n)
    for i in range(n):
        if mine[i]:
            for j in around(i):
                numbers[j] += 1
    # Click every safe cell of the disc; zeros flood, as in a game.
    radius2 = region * n / math.pi
    middle = (side - 1) / 2
    revealed = bytearray(n)
    queue: deque[int] = deque()
    for i in range(n):
        r, c = divmod(i, side)
        if not mine[i] and (r - middle) ** 2 + (c - middle) ** 2 <= radius2 and not revealed[i]:
            revealed[i] = 1
            queue.append(i)
            while queue:
                k = queue.popleft()
                if numbers[k] == 0:
                    for j in around(k):
                        if not revealed[j]:
                            revealed[j] = 1
                            queue.append(j)
    rows = []
    for r in range(side):
        row = []
        for i in range(r * side, (r + 1) * side):
            row.append(str(numbers[i]) if revealed[i] else "H")
        rows.append("".join(row))
    return Position(side, side, round(density * n), tuple(rows))


# ------------------------------------------------------------------------------ instances

def expected(result: Analysis) -> dict[str, Any]:
    """The ground truth of a position: ``analyze --format json``'s object without
    ``seconds`` and ``backend``."""
    out = analysis_to_dict(result)
    del out["seconds"], out["backend"]
    return out


def _instance(kind: str, name: str, header: str, position: Position, board: Board,
              result: Analysis, meta: dict[str, Any]) -> FamilyInstance:
    metadata = {"kind": kind, **meta,
                "revealed": sum(len(row) - row.count("H") - row.count("F")
                                for row in position.rows),
                "hidden_board": _board_meta(board),
                "expected": expected(result),
                "note": "expected is analyze's answer for the position; the hidden board is "
                        "one of its consistent layouts"}
    layouts = "not counted" if result.layouts is None else decimal(result.layouts)
    text = position_to_mine(position, (f"{header}; layouts = {layouts}",))
    return FamilyInstance(name, text, metadata, position=position, board=board)


def _seeding(seed: int, index: int) -> str:
    return f"random.Random({seed} * {SEED_STRIDE} + {index})"


def lattice_instances(seed: int, count: int = 1, *, width: int = LATTICE_SIZE[0],
                      height: int = LATTICE_SIZE[1], mines: int = LATTICE_SIZE[2],
                      step: int = LATTICE_STEP, backend: str = "auto",
                      time_limit: float | None = MODEL_COUNT_SECONDS) -> list[FamilyInstance]:
    """``count`` lattice positions with their ground truth (``time_limit``: seconds for
    counting each, as in :func:`analyze`)."""
    _check_lattice(width, height, mines, step)
    _check_count(count)
    out = []
    for index in range(count):
        board, position = _lattice(family_rng(seed, index), width, height, mines, step)
        result = analyze(position, backend=backend, time_limit=time_limit)
        size = f"{width}x{height}x{mines}"
        out.append(_instance(
            "lattice", f"lattice-{size}-step{step}-seed{seed}-{index:03d}",
            f"exactmines generate lattice: {width}x{height}/{mines}, step {step}, seed {seed}, "
            f"instance {index}", position, board, result,
            {"width": width, "height": height, "mines": mines, "seed": seed, "index": index,
             "step": step, "random": _seeding(seed, index)}))
    return out


def sparse_instances(seed: int, count: int = 1, *, width: int = SPARSE_SIZE[0],
                     height: int = SPARSE_SIZE[1], mines: int = SPARSE_SIZE[2],
                     share: float = SPARSE_SHARE, backend: str = "auto",
                     time_limit: float | None = MODEL_COUNT_SECONDS) -> list[FamilyInstance]:
    """``count`` sparse positions with their ground truth."""
    _check_sparse(width, height, mines, share)
    _check_count(count)
    out = []
    for index in range(count):
        board, position, reveals = _sparse(family_rng(seed, index), width, height, mines,
                                           share)
        result = analyze(position, backend=backend, time_limit=time_limit)
        size = f"{width}x{height}x{mines}"
        out.append(_instance(
            "sparse", f"sparse-{size}-seed{seed}-{index:03d}",
            f"exactmines generate sparse: {width}x{height}/{mines}, {plural(reveals, 'safe cell')} "
            f"revealed, seed {seed}, instance {index}", position, board, result,
            {"width": width, "height": height, "mines": mines, "seed": seed, "index": index,
             "share": share, "random": _seeding(seed, index)}))
    return out


def dense_instances(seed: int, count: int = 1, *, width: int = DENSE_SIZE[0],
                    height: int = DENSE_SIZE[1], mines: int = DENSE_SIZE[2],
                    start: str = "opening", at: Cell | None = None,
                    backend: str = "auto") -> list[FamilyInstance]:
    """Every position of ``count`` dense mid-games (:func:`dense_games`) with its ground
    truth, the analysis that chose the next move (30x16/99: ~14 positions a game)."""
    _check_count(count)
    _check_dense(width, height, mines, start, at)
    out = []
    size = f"{width}x{height}x{mines}"
    for step in dense_games(count, seed, width=width, height=height, mines=mines,
                            start=start, at=at, backend=backend):
        cell = step.at
        out.append(_instance(
            "dense", f"dense-{size}-seed{seed}-game{step.game:03d}-move{step.move:03d}",
            f"exactmines generate dense: {width}x{height}/{mines}, seed {seed}, game "
            f"{step.game}, move {step.move}, first click {cell[0]},{cell[1]} ({start})",
            step.position, step.board, step.analysis,
            {"width": width, "height": height, "mines": mines, "seed": seed,
             "game": step.game, "move": step.move, "start": start, "at": list(cell),
             "random": _seeding(seed, step.game)}))
    return out
