"""Instances for tests and benchmarks, each with its ground truth (``exactmines generate``).

Three kinds:

``position``
    A mid-game position: a random board dealt under a first-click rule, the first click
    (which floods its zeros), then random safe cells next to the revealed area until a
    share of the safe cells is revealed. The hidden board is the ground truth (it is one
    of the position's consistent layouts). The reveals after the first click are random safe
    cells, not a player's deductions: the position is one a lucky player could reach.
``noguess``
    A board that can be cleared from its first click by certain deductions alone, certified
    by :func:`~exactmines.solvability.check.solvable` (complete deduction, with the total mine
    count unless told otherwise). ``rejection`` deals boards under the first-click rule
    until one is solvable: the result is uniform over the solvable boards of that rule.
    ``repair`` deals one board and, while it is not solvable, moves a mine from the cells
    where deduction got stuck to a cell away from the revealed area; it ends in a solvable
    board quickly even when solvable boards are rare, but favours boards with mines away
    from the opening: *not* uniform. ``auto`` tries rejection first and repairs when it runs
    out of attempts; the metadata says which method produced each board.
``sat``
    A position compiled from a CNF formula (:mod:`exactmines.generate.hardness`): its layouts are
    the formula's models, so consistency is satisfiability and the layout count is the
    model count.

Every generator takes a seed; instance ``i`` of a run seeded ``s`` uses its own
``random.Random`` derived from ``(kind, s, i)``, so instances can be regenerated one by one.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass
from typing import Any

from exactmines.errors import InputError, ParameterError, SolverError
from exactmines.game import START_RULES, Game, deal, protected_cells
from exactmines.generate.hardness import CNF, compile_cnf, count_models, random_ksat
from exactmines.io.formats import board_to_mine, position_to_mine
from exactmines.position import Board, Cell, Position
from exactmines.solvability.check import solvable

__all__ = [
    "Instance",
    "instance_rng",
    "midgame_positions",
    "noguess_boards",
    "sat_instance",
    "random_sat_instances",
    "NOGUESS_METHODS",
    "MODEL_COUNT_SECONDS",
]

NOGUESS_METHODS = ("auto", "rejection", "repair")

#: Time the ground-truth model count may take per formula before it is reported unknown.
MODEL_COUNT_SECONDS = 60.0

#: Fresh boards the repair method starts from (each gets up to one move per cell) before
#: generation gives up.
REPAIR_BOARDS = 20


@dataclass(frozen=True)
class Instance:
    """One generated instance.

    Attributes
    ----------
    name:
        File stem (``name.mine``, ``name.json``).
    text:
        The ``.mine`` text: a position (kinds ``position`` and ``sat``) or a board with its
        mines marked ``M`` (kind ``noguess``).
    metadata:
        JSON-ready dict: how it was made and its ground truth.
    position:
        The position, for ``position`` and ``sat``.
    board:
        The hidden board, for ``position`` and ``noguess``.
    """

    name: str
    text: str
    metadata: dict[str, Any]
    position: Position | None = None
    board: Board | None = None

    def json_text(self) -> str:
        """The metadata as indented JSON, with lists of numbers (clauses, cells) kept on
        one line."""
        text = json.dumps(self.metadata, indent=1)
        return _FLAT_LIST.sub(lambda m: "[" + " ".join(m.group(1).split()) + "]", text) + "\n"


_FLAT_LIST = re.compile(r"\[\s+(-?\d+(?:,\s+-?\d+)*)\s+\]")


def instance_rng(kind: str, seed: int, index: int) -> random.Random:
    """The random source of instance ``index`` of a ``kind`` run seeded ``seed``
    (a string seed: Python hashes it with SHA-512, stable across versions)."""
    return random.Random(f"exactmines-generate:{kind}:{seed}:{index}")


def _board_meta(board: Board) -> dict[str, Any]:
    return {"mines": [[r, c] for r, c in sorted(board.mine_cells)],
            "mine_text": board_to_mine(board)}


def _check_size(width: int, height: int, mines: int) -> None:
    if width < 1 or height < 1:
        raise ParameterError("width" if width < 1 else "height", min(width, height),
                             "width and height must be at least 1")
    if not 0 <= mines <= width * height:
        raise ParameterError("mines", mines, f"must be between 0 and {width * height}")


def _first_click(width: int, height: int, at: Cell | None) -> Cell:
    cell = (height // 2, width // 2) if at is None else at
    if not (0 <= cell[0] < height and 0 <= cell[1] < width):
        raise ParameterError("at", cell, f"off the {width}x{height} board")
    return cell


def _check_start(start: str) -> None:
    if start not in START_RULES:
        raise ParameterError("start", start, f"choose one of {', '.join(START_RULES)}")


def midgame_positions(width: int, height: int, mines: int, seed: int, count: int, *,
                      start: str = "opening", at: Cell | None = None,
                      progress: float = 0.5) -> list[Instance]:
    """``count`` mid-game positions (see the module docstring), with the total mine count.

    Parameters
    ----------
    start:
        First-click rule the board is dealt under (``safe``, ``opening`` or
        ``unprotected``; with ``unprotected`` a board whose first click is a mine is dealt
        again).
    at:
        First click; the centre cell by default.
    progress:
        Share of the safe cells revealed, in (0, 1]: reveals stop at the first click's flood
        or once this share is reached, whichever reveals more.

    Notes
    -----
    Cost: one board deal and at most one flood per revealed cell (bitmask operations).
    """
    _check_size(width, height, mines)
    _check_start(start)
    if not 0 < progress <= 1:
        raise ParameterError("progress", progress, "must be in (0, 1]")
    if count < 1:
        raise ParameterError("count", count, "must be at least 1")
    cell = _first_click(width, height, at)
    free = width * height - len(protected_cells(width, height, start, cell))
    if start == "unprotected":
        free -= 1  # the first click must still miss
    if mines > free:
        raise ParameterError("mines", mines, f"only {free} cells can hold a mine under the "
                                             f"{start} rule at {cell[0]},{cell[1]}")
    out = []
    for index in range(count):
        rng = instance_rng("position", seed, index)
        board = deal(width, height, mines, rng, rule=start, at=cell)
        while cell in board.mine_cells:  # only with "unprotected"
            board = deal(width, height, mines, rng, rule=start, at=cell)
        game = _reveal_randomly(board, cell, progress, rng)
        position = game.position()
        name = f"position-{width}x{height}x{mines}-seed{seed}-{index:03d}"
        meta = {
            "kind": "position",
            "width": width, "height": height, "mines": mines,
            "seed": seed, "index": index, "start": start, "at": list(cell),
            "progress": progress,
            "revealed": game.revealed.bit_count(),
            "safe_cells": game.safe_mask.bit_count(),
            "hidden_board": _board_meta(board),
            "note": "the hidden board is one consistent layout of the position",
        }
        text = position_to_mine(position, (
            f"exactmines generate position: {width}x{height}/{mines}, seed {seed}, "
            f"instance {index}, first click {cell[0]},{cell[1]} ({start})",))
        out.append(Instance(name, text, meta, position=position, board=board))
    return out


def _reveal_randomly(board: Board, cell: Cell, progress: float,
                     rng: random.Random) -> Game:
    """The game of ``board`` after the first click ``cell`` and random safe clicks next to
    the revealed area (any safe cell when none is next to it) until ``progress`` of the safe
    cells are revealed.

    Each click is drawn as ``rng.choice`` over the candidates in row-major order, the
    candidates kept in two :class:`_Ranked` sets updated by what each click opens: a click
    costs its flood and a logarithm, not a pass over the board (which made a 1000x1000
    board quadratic).
    """
    width, height = board.width, board.height
    game = Game(board)
    safe = bytearray(1 for _ in range(width * height))
    for r, c in board.mine_cells:
        safe[r * width + c] = 0
    covered = _Ranked(safe)  # safe cells not revealed
    near = _Ranked(bytearray(width * height))  # ... next to a revealed cell

    def opened(cells: list[Cell]) -> None:
        for r, c in cells:
            index = r * width + c
            covered.remove(index)
            near.discard(index)
        for r, c in cells:
            for row in range(max(r - 1, 0), min(r + 2, height)):
                for i in range(row * width + max(c - 1, 0), row * width + min(c + 2, width)):
                    if i in covered:
                        near.add(i)

    opened(game.reveal(cell))
    target = max(1, round(progress * (len(covered) + game.revealed_count)))
    while game.revealed_count < target and not game.won:
        pool = near if len(near) else covered
        opened(game.reveal(divmod(pool.kth(rng.randrange(len(pool))), width)))
    return game


class _Ranked:
    """A set of indices ``0..n-1`` that finds its ``k``-th smallest member: a Fenwick tree
    of counts. Build O(n), add/remove/kth O(log n), membership O(1)."""

    def __init__(self, members: bytearray) -> None:
        n = len(members)
        self._member = members
        self._size = sum(members)
        tree = [0] * (n + 1)
        for i in range(1, n + 1):  # linear build: each node passes its sum to its parent
            tree[i] += members[i - 1]
            parent = i + (i & -i)
            if parent <= n:
                tree[parent] += tree[i]
        self._tree = tree
        self._top = 1 << n.bit_length() if n else 0

    def __len__(self) -> int:
        return self._size

    def __contains__(self, index: int) -> bool:
        return self._member[index] == 1

    def _change(self, index: int, delta: int) -> None:
        tree, i = self._tree, index + 1
        while i < len(tree):
            tree[i] += delta
            i += i & -i
        self._size += delta

    def add(self, index: int) -> None:
        if not self._member[index]:
            self._member[index] = 1
            self._change(index, 1)

    def discard(self, index: int) -> None:
        if self._member[index]:
            self._member[index] = 0
            self._change(index, -1)

    def remove(self, index: int) -> None:
        if not self._member[index]:
            raise KeyError(index)
        self.discard(index)

    def kth(self, k: int) -> int:
        """The member with ``k`` members below it (0-based rank)."""
        if not 0 <= k < self._size:
            raise IndexError(k)
        tree, position, step = self._tree, 0, self._top
        while step:
            nxt = position + step
            if nxt < len(tree) and tree[nxt] <= k:
                position = nxt
                k -= tree[nxt]
            step >>= 1
        return position  # tree positions are 1-based: the member is index `position`


def noguess_boards(width: int, height: int, mines: int, seed: int, count: int, *,
                   start: str = "opening", at: Cell | None = None, method: str = "auto",
                   use_count: bool = True, attempts: int = 2000,
                   backend: str = "auto") -> list[Instance]:
    """``count`` boards solvable without guessing from ``at`` (see the module docstring).

    Parameters
    ----------
    start:
        ``safe`` or ``opening``: the first click's protection (``unprotected`` cannot
        promise a safe first click).
    method:
        ``rejection``, ``repair`` or ``auto``.
    use_count:
        Whether deductions may use the total mine count (the game shows it).
    attempts:
        Boards dealt per instance by rejection (with ``rejection`` alone, running out is an
        error; ``auto`` then repairs, up to one move per cell on each of up to
        :data:`REPAIR_BOARDS` fresh boards).

    Raises
    ------
    InputError
        For bad sizes, rules or methods, and when ``rejection`` runs out of attempts.

    Notes
    -----
    Cost: a :func:`~exactmines.solvability.check.solvable` check per dealt board, and per repair
    move.
    """
    _check_size(width, height, mines)
    if start not in ("safe", "opening"):
        raise ParameterError("start", start, "no-guess boards need safe or opening")
    if method not in NOGUESS_METHODS:
        raise ParameterError("method", method, f"choose one of {', '.join(NOGUESS_METHODS)}")
    if count < 1:
        raise ParameterError("count", count, "must be at least 1")
    if attempts < 1:
        raise ParameterError("attempts", attempts, "must be at least 1")
    cell = _first_click(width, height, at)
    protected = protected_cells(width, height, start, cell)
    if mines > width * height - len(protected):
        raise ParameterError("mines", mines, f"only {width * height - len(protected)} cells "
                             f"can hold a mine under the {start} rule at {cell[0]},{cell[1]}")
    out = []
    for index in range(count):
        rng = instance_rng("noguess", seed, index)
        board = None
        dealt = moves = 0
        used = method
        if method in ("auto", "rejection"):
            for _ in range(attempts):
                candidate = deal(width, height, mines, rng, rule=start, at=cell)
                dealt += 1
                if solvable(candidate, cell, use_count=use_count, backend=backend).solvable:
                    board, used = candidate, "rejection"
                    break
            if board is None and method == "rejection":
                raise ParameterError("attempts", attempts, f"no solvable {width}x{height}/{mines} "
                                     "board in as many attempts: try the method repair or auto")
        for _ in range(REPAIR_BOARDS if board is None else 0):
            candidate = deal(width, height, mines, rng, rule=start, at=cell)
            dealt += 1
            board, moves = _repair(candidate, cell, protected, rng, use_count,
                                   width * height, backend)
            used = "repair"
            if board is not None:
                break
        if board is None:
            raise InputError(f"no solvable {width}x{height}/{mines} board found (rejection: "
                             f"{dealt} boards; repair: {REPAIR_BOARDS} boards): too dense?",
                             source="generate")
        check = solvable(board, cell, use_count=use_count, backend=backend)
        if not check.solvable:  # the certificate: never write a board it does not cover
            raise SolverError(f"the {width}x{height}/{mines} board found for instance {index} "
                              "is not solvable when checked again (the no-guess check "
                              "disagrees with itself): no board written")
        name = f"noguess-{width}x{height}x{mines}-seed{seed}-{index:03d}"
        meta = {
            "kind": "noguess",
            "width": width, "height": height, "mines": mines,
            "seed": seed, "index": index, "start": start, "at": list(cell),
            "use_count": use_count, "method": used,
            "boards_dealt": dealt, "repair_moves": moves,
            "uniform": used == "rejection",
            "certificate": check.to_dict(),
            "board": _board_meta(board),
        }
        text = board_to_mine(board, comments=(
            f"exactmines generate noguess: {width}x{height}/{mines}, seed {seed}, instance "
            f"{index}, solvable from {cell[0]},{cell[1]} ({start}, {used})",))
        out.append(Instance(name, text, meta, board=board))
    return out


def _repair(board: Board, at: Cell, protected: frozenset[Cell], rng: random.Random,
            use_count: bool, moves: int, backend: str) -> tuple[Board | None, int]:
    """Move mines from where deduction sticks to cells away from the revealed area until
    the board is solvable; ``(None, moves)`` when no move is left to make."""
    mines = set(board.mine_cells)
    for move in range(moves + 1):
        current = Board(board.width, board.height, frozenset(mines))
        result = solvable(current, at, use_count=use_count, backend=backend)
        if result.solvable:
            return current, move
        if move == moves:
            break
        stuck = result.stuck
        if stuck is None:
            raise SolverError("the no-guess check said not solvable without the position "
                              "where deduction got stuck")
        revealed = {cell for cell in _cells(stuck) if stuck.number(cell) is not None}
        near: set[Cell] = set()
        for cell in revealed:
            near.update(stuck.neighbours(cell))
        unknown = [c for c in _cells(stuck) if stuck.char(c) == "H"]
        stuck_mines = sorted(c for c in unknown if c in near and c in mines)
        away = sorted(c for c in unknown
                      if c not in near and c not in mines and c not in protected)
        if not stuck_mines or not away:
            break
        mines.remove(rng.choice(stuck_mines))
        mines.add(rng.choice(away))
    return None, moves


def _cells(position: Position) -> list[Cell]:
    return [(r, c) for r in range(position.height) for c in range(position.width)]


def sat_instance(cnf: CNF, name: str, *, generator: dict[str, Any] | None = None,
                 count_seconds: float | None = MODEL_COUNT_SECONDS) -> Instance:
    """The compiled position of ``cnf`` with its ground truth: the formula, its exact model
    count (``null`` if not found within ``count_seconds``), the expected analysis answer
    (consistent = satisfiable, layouts = models) and the cell of each variable."""
    compiled = compile_cnf(cnf)
    models = count_models(cnf, time_limit=count_seconds)
    size = compiled.summary()
    meta: dict[str, Any] = {
        "kind": "sat",
        "generator": generator or {},
        "formula": {"variables": cnf.variables, "clauses": [list(c) for c in cnf.clauses],
                    "clause_ratio": (round(len(cnf.clauses) / cnf.variables, 4)
                                     if cnf.variables else None)},
        "model_count": models,
        "satisfiable": None if models is None else models > 0,
        "expected": {"consistent": None if models is None else models > 0,
                     "layouts": None if models is None else str(models)},
        "variable_cells": [{"variable": k + 1, "row": r, "col": c}
                           for k, (r, c) in enumerate(compiled.variable_cells)],
        "reading": "a layout's model: variable k is true exactly when the covered cell "
                   "variable_cells[k-1] holds a mine",
        "size": size,
        "tile_size": 6,
    }
    models_text = "unknown" if models is None else str(models)
    text = position_to_mine(compiled.position, (
        f"exactmines generate sat: {cnf.variables} variables, {len(cnf.clauses)} clauses; "
        f"layouts = models = {models_text}",))
    return Instance(name, text, meta, position=compiled.position)


def random_sat_instances(variables: int, clauses: int, seed: int, count: int = 1, *,
                         k: int = 3, count_seconds: float | None = MODEL_COUNT_SECONDS,
                         ) -> list[Instance]:
    """``count`` random k-SAT formulas (:func:`~exactmines.generate.hardness.random_ksat`),
    compiled."""
    if count < 1:
        raise ParameterError("count", count, "must be at least 1")
    out = []
    for index in range(count):
        cnf = random_ksat(variables, clauses, instance_rng("sat", seed, index), k=k)
        name = f"sat-{k}sat-v{variables}-c{clauses}-seed{seed}-{index:03d}"
        out.append(sat_instance(cnf, name, count_seconds=count_seconds, generator={
            "model": f"uniform random {k}-SAT", "variables": variables, "clauses": clauses,
            "seed": seed, "index": index}))
    return out
