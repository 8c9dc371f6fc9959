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
    where deduction got stuck to a cell away from the revealed area (on large boards, where
    deduction sticks only in small pockets of a nearly cleared board, into the revealed
    area where deduction still clears it, each pocket re-deduced on its own: linear in the
    board); it ends in a solvable board quickly even when solvable boards are rare, but
    favours boards with mines away from where deduction stuck: *not* uniform. ``build``
    (:mod:`exactmines.solvability.build`) solves the board while it moves mines: where
    deduction sticks it clears (or fills) the covered cells of one revealed number and goes
    on from what it had proved; it works up to the densest boards, on every topology, with
    or without the count (measured: docs/noguess.md); *not* uniform. ``auto`` tries rejection first
    (at most 25 boards, fewer as the board grows: a solvable one gets rarer), then builds
    (boards up to 1024 cells and other topologies) or repairs the last board it dealt
    (larger square boards, building if repair runs out); the metadata says which method
    produced each board. ``chain`` builds a board, then runs a Markov chain over no-guess
    boards from it (:mod:`exactmines.solvability.chain`: a random mine moved to a random
    free cell, kept when the board stays solvable): uniform in the limit of many steps
    over the boards it can reach, one check per step.
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
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from exactmines.analysis.serialize import decimal
from exactmines.budget import Budget
from exactmines.errors import InputError, ParameterError, SolverError
from exactmines.game import START_RULES, Game, board_from_indices, deal, protected_cells
from exactmines.generate.hardness import CNF, compile_cnf, count_models, random_ksat
from exactmines.io.formats import board_to_mine, position_to_mine
from exactmines.io.graphs import board_to_graph
from exactmines.io.registry import position_text
from exactmines.position import Board, Cell, Position, Topology, dilate, indices_of
from exactmines.solvability.build import build_board, hopeless
from exactmines.solvability.chain import CHAIN_STEPS, chain_board
from exactmines.solvability.check import (
    Outcome,
    Solvability,
    certificate,
    solvable,
    solve_from,
    solve_indices,
)
from exactmines.topology import square
from exactmines.words import plural

__all__ = [
    "Instance",
    "instance_rng",
    "midgame_positions",
    "noguess_boards",
    "noguess_rows",
    "sat_instance",
    "random_sat_instances",
    "NOGUESS_METHODS",
    "MODEL_COUNT_SECONDS",
]

NOGUESS_METHODS = ("auto", "rejection", "repair", "build", "chain")

#: Time the ground-truth model count may take per formula before it is reported unknown.
MODEL_COUNT_SECONDS = 60.0

#: Fresh boards the repair method starts from (each gets up to one move per cell) before
#: generation gives up.
REPAIR_BOARDS = 20

#: ``auto`` gives rejection at most ``attempts`` boards and at most as many as fit in this
#: many cells (2000 at 9x9, 520 at 30x16, 25 at 100x100, 2 at 300x300, 1 at 1000x1000),
#: then repairs: a solvable board gets rarer as the board grows, and each costs a check.
REJECTION_CELLS = 250_000

#: ``auto`` deals at most this many boards by rejection before it builds or repairs: past
#: the density where a random board is solvable once in a few dozen, rejection only costs
#: time (``--method rejection`` deals up to ``attempts``).
AUTO_REJECTIONS = 25

#: Boards the ``build`` method deals for one instance before it gives up (each built until
#: :data:`~exactmines.solvability.build.BUILD_ROUNDS` checks fail; in measurements from 9x9 to
#: 30x16 at every density none needed a second deal).
BUILD_DEALS = 100

#: Boards up to this many cells are checked again from the first click after each repair
#: move; larger ones are repaired in windows around where deduction stuck (see
#: :func:`_repair`).
LOCAL_REPAIR_CELLS = 1024

#: ``auto`` builds (:func:`~exactmines.solvability.build.build_board`) on boards up to this
#: many cells and repairs larger ones. Measured (CPU s, one board, seed 1): 100x100 at 30 %
#: mines build 0.9 against repair 13; 200x200 at 25 % 1.3 against 7.8; 300x300 at 20 %
#: 1.1 and 1.1; 1000x1000 at 15 % 14 (and 760 MB) against 9.
AUTO_BUILD_CELLS = 100_000

#: Checks of a board from its first click while repairing it in windows, the last one its
#: certificate (deduction in a window can find what the check from the first click does
#: not: then the windows where that check stuck are repaired again).
REPAIR_ROUNDS = 4


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

    @property
    def suffix(self) -> str:
        """The file name ending of :attr:`text`: ``.mine``, or ``.graph.json`` for a graph
        (its metadata keeps ``.json``)."""
        shown = self.board if self.board is not None else self.position
        return ".graph.json" if shown is not None and shown.topology.kind == "graph" \
            else ".mine"

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
            "mine_text": _mine_text(board)}


def _mine_text(board: Board) -> str:
    """``board_to_mine(board)`` (mines ``M``, every other cell ``H``) made from one byte per
    cell: 0.1 s instead of 1 s at 1000x1000; another topology's board in its own file
    (``.mine`` with its word, or a graph's node-link JSON)."""
    if not board.topology.is_square:
        if board.topology.kind == "graph":
            return board_to_graph(board)
        return board_to_mine(board)
    width = board.width
    cells = bytearray(b"H") * (width * board.height)
    for r, c in board.mine_cells:
        cells[r * width + c] = ord("M")
    text = cells.decode()
    return "\n".join([f"{width}x{board.height}x{board.mines}",
                      *(text[i:i + width] for i in range(0, len(text), width))]) + "\n"


def _instance_name(what: str, topology: Topology, mines: int, seed: int, index: int) -> str:
    """An instance's name: ``position-30x16x99-seed1-000``; another topology's kind first
    (``hex-position-30x16x99-...``, ``cube-noguess-5x5x5x20-...``, a graph's node count and
    mines: ``graph-position-100x20-...``)."""
    size = f"{topology.cells}" if topology.kind == "graph" else topology.size_text
    kind = "" if topology.is_square else f"{topology.kind}-"
    return f"{kind}{what}-{size}x{mines}-seed{seed}-{index:03d}"


def _shape_text(topology: Topology, mines: int) -> str:
    """How comments give a board: ``30x16/99``, ``30x16/99 hex``, ``40 nodes/10 graph``."""
    word = topology.word or ("graph" if topology.kind == "graph" else "")
    return f"{topology.size_text}/{mines}" + (f" {word}" if word else "")


def _topology_meta(board: Board) -> dict[str, Any]:
    """The topology of a generated board in its metadata (nothing on the square grid)."""
    topology = board.topology
    if topology.is_square:
        return {}
    return {"topology": topology.word or topology.kind, "layers": topology.layers}


def _written(topology: Topology, cell: Cell) -> str:
    """A cell as comments and options write it (``4,4``; a cube's ``1,4,4``)."""
    return ",".join(map(str, topology.coordinates(cell)))


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
                      progress: float = 0.5,
                      topology: Topology | None = None) -> list[Instance]:
    """``count`` mid-game positions (see the module docstring), with the total mine count,
    on ``topology`` (the square grid of ``width`` x ``height`` by default; else its sheet
    is the board).

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
    if topology is not None:
        width, height = topology.width, topology.height
    _check_size(width, height, mines)
    _check_start(start)
    if not 0 < progress <= 1:
        raise ParameterError("progress", progress, "must be in (0, 1]")
    if count < 1:
        raise ParameterError("count", count, "must be at least 1")
    cell = _first_click(width, height, at)
    free = width * height - len(protected_cells(width, height, start, cell, topology))
    if start == "unprotected":
        free -= 1  # the first click must still miss
    if mines > free:
        raise ParameterError("mines", mines, f"only {plural(free, 'cell')} can hold a mine under "
                                             f"the "
                                             f"{start} rule at {cell[0]},{cell[1]}")
    out = []
    for index in range(count):
        rng = instance_rng("position", seed, index)
        board = deal(width, height, mines, rng, rule=start, at=cell, topology=topology)
        while cell in board.mine_cells:  # only with "unprotected"
            board = deal(width, height, mines, rng, rule=start, at=cell, topology=topology)
        game = _reveal_randomly(board, cell, progress, rng)
        position = game.position()
        name = _instance_name("position", board.topology, mines, seed, index)
        meta = {
            "kind": "position",
            "width": width, "height": height, "mines": mines, **_topology_meta(board),
            "seed": seed, "index": index, "start": start,
            "at": list(board.topology.coordinates(cell)),
            "progress": progress,
            "revealed": game.revealed.bit_count(),
            "safe_cells": game.safe_mask.bit_count(),
            "hidden_board": _board_meta(board),
            "note": "the hidden board is one consistent layout of the position",
        }
        text = position_text(position, (
            f"exactmines generate position: {_shape_text(board.topology, mines)}, seed "
            f"{seed}, instance {index}, first click {_written(board.topology, cell)} "
            f"({start})",))
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
        if not board.topology.is_square:
            table = board.topology.neighbour_table
            for r, c in cells:
                for i in table[r * width + c]:
                    if i in covered:
                        near.add(i)
            return
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
                   backend: str = "auto", topology: Topology | None = None,
                   chain_steps: int = CHAIN_STEPS, skip: frozenset[int] = frozenset(),
                   made: Callable[[Instance], None] | None = None) -> list[Instance]:
    """``count`` boards solvable without guessing from ``at`` (see the module docstring),
    on ``topology`` (the square grid of ``width`` x ``height`` by default). Another topology
    is dealt by rejection only (``auto`` is ``rejection`` there): the repair's windows
    are the square grid's.

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
        error). ``auto`` deals at most as many boards as fit in :data:`REJECTION_CELLS`
        cells (2000 at 9x9, one at 1000x1000: a solvable board gets rarer as the board
        grows), and stops after five when none of them revealed half its safe cells
        (:func:`~exactmines.solvability.build.hopeless`), then repairs the last board it
        dealt, and up to :data:`REPAIR_BOARDS` - 1 fresh ones.

    skip:
        Instance indices not to make (a resumed run: those already written).
    made:
        Called with each instance as soon as it is made (so a run that is interrupted
        keeps what it finished).

    Raises
    ------
    InputError
        For bad sizes, rules or methods, and when ``rejection`` runs out of attempts.
    SolverError
        When the board found is not solvable when checked again: no board is returned
        without its certificate.

    Notes
    -----
    Cost: a :func:`~exactmines.solvability.check.solvable` check per board dealt by
    rejection and its certificate (the check again), and for a repaired board the moves
    (see :func:`_repair`) and one check from the first click at the end, the certificate:
    linear in the board for ``auto`` (1000x1000 at 15 % mines: one board dealt, two
    checks).
    """
    if topology is not None:
        width, height = topology.width, topology.height
    _check_size(width, height, mines)
    if start not in ("safe", "opening"):
        raise ParameterError("start", start, "no-guess boards need safe or opening")
    if method not in NOGUESS_METHODS:
        raise ParameterError("method", method, f"choose one of {', '.join(NOGUESS_METHODS)}")
    if topology is not None and not topology.is_square and method == "repair":
        raise ParameterError("method", method, f"repair works on the square grid; deal a "
                             f"{topology.kind} board by rejection or build")
    if count < 1:
        raise ParameterError("count", count, "must be at least 1")
    if attempts < 1:
        raise ParameterError("attempts", attempts, "must be at least 1")
    if chain_steps < 0:
        raise ParameterError("chain_steps", chain_steps, "must be at least 0")
    cell = _first_click(width, height, at)
    protected = protected_cells(width, height, start, cell, topology)
    if mines > width * height - len(protected):
        raise ParameterError("mines", mines, f"only "
                                             f"{plural(width * height - len(protected), 'cell')} "
                             f"can hold a mine under the {start} rule at {cell[0]},{cell[1]}")
    _check_exists(width, height, mines, start, cell, topology)
    first = cell[0] * width + cell[1]
    rejections = attempts if method == "rejection" else max(
        1, min(attempts, AUTO_REJECTIONS, REJECTION_CELLS // (width * height)))
    # auto builds where repair's windows do not apply (small boards, other topologies)
    builds = method in ("build", "chain") or (method == "auto" and (
        width * height <= AUTO_BUILD_CELLS or (topology is not None
                                                 and not topology.is_square)))
    out = []
    for index in range(count):
        if index in skip:
            continue
        rng = instance_rng("noguess", seed, index)
        board: Board | None = None
        check: Solvability | None = None
        last: tuple[Board, Outcome | None] | None = None  # the last board rejection dealt
        dealt = moves = 0
        used = method
        if method in ("auto", "rejection"):
            probed: list[Outcome] = []  # auto: the rejected checks, to give up early
            for _ in range(rejections):
                candidate = deal(width, height, mines, rng, rule=start, at=cell,
                                 topology=topology)
                dealt += 1
                outcome = solve_indices(width, height, _indices(candidate), first,
                                        use_count=use_count, backend=backend,
                                        topology=topology)
                if outcome.solvable:
                    board, used = candidate, "rejection"
                    # the certificate: the board checked again from its first click
                    check = solvable(board, cell, use_count=use_count, backend=backend)
                    break
                last = (candidate, outcome)
                probed.append(outcome)
                if method == "auto" and hopeless(probed):
                    break
            if board is None and method == "rejection":
                raise ParameterError("attempts", attempts, f"no solvable {width}x{height}/{mines} "
                                     "board in as many attempts: try the method repair or auto")
        for _ in range(BUILD_DEALS if board is None and builds else 0):
            built = build_board(width, height, mines, rng, start=start, at=cell,
                                use_count=use_count, backend=backend, topology=topology)
            dealt += 1
            if built is not None:
                cells, moves, used = built[0], built[1], "build"
                if method == "chain":  # the built board is the chain's start
                    cells, moves = chain_board(width, height, cells, rng, start=start, at=cell,
                                               steps=chain_steps, use_count=use_count,
                                               topology=topology)
                    used = "chain"
                board = board_from_indices(width, height, cells, topology)
                # the certificate: the builder's last check ran from the first click alone
                check = (certificate(board, cell, built.outcome, use_count=use_count)
                         if used == "build" else
                         solvable(board, cell, use_count=use_count, backend=backend))
                break
        for _ in range(REPAIR_BOARDS if board is None and not builds else 0):
            if last is None:
                last = (deal(width, height, mines, rng, rule=start, at=cell), None)
                dealt += 1
            board, moves, check = _repair(last[0], last[1], cell, protected, rng, use_count,
                                          backend)
            last, used = None, "repair"
            if board is not None:
                break
        if (board is None or check is None) and method == "auto" and not builds:
            for _ in range(BUILD_DEALS):  # the windows' repair ran out of moves: build
                built = build_board(width, height, mines, rng, start=start, at=cell,
                                    use_count=use_count, backend=backend, topology=topology)
                dealt += 1
                if built is not None:
                    board = board_from_indices(width, height, built[0], topology)
                    moves, used = built[1], "build"
                    check = certificate(board, cell, built.outcome, use_count=use_count)
                    break
        if board is None or check is None:
            raise InputError(f"no solvable {width}x{height}/{mines} board found in "
                             f"{plural(dealt, 'board')} dealt ({used})",
                             source="generate")
        if not check.solvable:  # the certificate: never write a board it does not cover
            raise SolverError(f"the {width}x{height}/{mines} board found for instance {index} "
                              "is not solvable when checked again (the no-guess check "
                              "disagrees with itself): no board written")
        name = _instance_name("noguess", board.topology, mines, seed, index)
        board_meta = _board_meta(board)
        meta = {
            "kind": "noguess",
            "width": width, "height": height, "mines": mines, **_topology_meta(board),
            "seed": seed, "index": index, "start": start,
            "at": list(board.topology.coordinates(cell)),
            "use_count": use_count, "method": used,
            "boards_dealt": dealt, "repair_moves": moves,
            "uniform": used == "rejection",
            **({"chain_steps": chain_steps} if used == "chain" else {}),
            "certificate": check.to_dict(),
            "board": board_meta,
        }
        # board_to_mine with a comment line (the board's text made once); a graph's JSON
        # has no comments
        text = board_meta["mine_text"] if board.topology.kind == "graph" else (
            f"# exactmines generate noguess: {_shape_text(board.topology, mines)}, seed "
            f"{seed}, instance {index}, solvable from {_written(board.topology, cell)} "
            f"({start}, {used})\n" + board_meta["mine_text"])
        out.append(Instance(name, text, meta, board=board))
        if made is not None:
            made(out[-1])
    return out


def noguess_rows(settings: dict[str, Any], tasks: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """:func:`~exactmines.runner.run_batch`'s work for ``generate noguess --workers``: per
    task, instance ``task["id"]`` of :func:`noguess_boards` called with ``settings`` (its
    keyword arguments but ``count``, ``skip`` and ``made``), as ``{"id": i, "instance":
    Instance}``. Instance ``i`` is the same board whichever process makes it and whatever
    else the run makes (each instance has its own random stream)."""
    rows = []
    for task in tasks:
        index = task["id"]
        made = noguess_boards(**settings, count=index + 1, skip=frozenset(range(index)))
        rows.append({"id": index, "instance": made[0]})
    return rows


def _check_exists(width: int, height: int, mines: int, start: str, at: Cell,
                  topology: Topology | None) -> None:
    """Refuse at once a mine number no no-guess board has under the ``safe`` rule.

    A safe first click that shows a number proves nothing but, with the count, that the
    other cells are all mines or all safe: so a board is solvable only if the click opens
    (its neighbours are safe: at most ``cells - 1 - degree`` mines), or every other cell is
    a mine, or every mine is next to the click. (Under ``opening`` every number up to the
    cells outside the opening has a board: the densest is all of them mines, and the
    builder finds the others.)
    """
    shape = topology or square(width, height)
    _check_twins(width, height, mines, start, at, shape)
    if start != "safe":
        return
    degree = len(shape.neighbours(at))
    area = width * height
    if area - 1 - degree < mines < area - 1 and mines > degree:
        raise ParameterError("mines", mines, f"no {width}x{height} board with "
                             f"{plural(mines, 'mine')} is solvable from a safe first click at "
                             f"{at[0]},{at[1]}: the click must open (at most "
                             f"{plural(area - 1 - degree, 'mine')}) or be the only safe cell "
                             f"({area - 1})")


def _check_twins(width: int, height: int, mines: int, start: str, at: Cell,
                 shape: Topology) -> None:
    """Refuse a mine number no no-guess board has because of twins: cells with the same
    neighbours and each other as neighbours (on a two-layer cube a cell and the one above
    it; on a board two rows high the two cells of a column) are seen by the same numbers,
    so while both are covered no number or count tells them apart: in a board cleared
    without guessing they are both mines or both safe (the first click, safe by the rule,
    aside). The mines must then add up from whole groups of twins that the first-click
    rule leaves free; a board with no twins (the square grid from 3x3 on) passes at once.
    Cost: one pass over the cells' neighbours, and a subset sum over the sizes of the
    groups of two or more cells."""
    if shape.kind == "square" and min(width, height) > 2:
        return
    first = at[0] * width + at[1]
    keep = {r * width + c for r, c in protected_cells(width, height, start, at, shape)}
    groups: dict[frozenset[int], list[int]] = {}
    for i, around in enumerate(shape.neighbour_table):
        if i != first:
            groups.setdefault(frozenset((i, *around)), []).append(i)
    single = 0
    sizes: dict[int, int] = {}
    for cells in groups.values():
        if keep.intersection(cells):
            continue  # kept safe, so all of the group is safe
        if len(cells) == 1:
            single += 1
        else:
            sizes[len(cells)] = sizes.get(len(cells), 0) + 1
    if not sizes:
        return
    reach = 1  # bit n: n mines can sit on whole groups of two or more
    for size, count in sizes.items():
        part = 1
        while count:  # binary splitting: log(count) shifts per size
            take = min(part, count)
            reach |= reach << (size * take)
            count -= take
            part *= 2
    window = reach >> max(mines - single, 0) & ((1 << (min(mines, single) + 1)) - 1)
    if not window:
        raise ParameterError("mines", mines, f"no {shape.size_text} board with "
                             f"{plural(mines, 'mine')} "
                             "is solvable without guessing: cells with the same neighbours "
                             "must be all mines or all safe, and their groups cannot hold "
                             f"exactly {mines}")


def _indices(board: Board) -> list[int]:
    """The board's mines as flat indices, ascending."""
    return sorted(r * board.width + c for r, c in board.mine_cells)


Box = tuple[int, int, int, int]

#: A cell's state in ``known`` (what a check proved; see :func:`_repair`), and the bytes of
#: the characters of a stuck position.
_COVERED, _REVEALED, _FLAGGED = 0, 1, 2
_KNOWN = bytes.maketrans(b"012345678FH", bytes([_REVEALED] * 9 + [_FLAGGED, _COVERED]))

#: Cells of the revealed area tried per move as the place of a mine taken from where
#: deduction stuck, when no opening is left (see :class:`_Places`).
PLACE_TRIES = 8


def _repair(board: Board, outcome: Outcome | None, at: Cell, protected: frozenset[Cell],
            rng: random.Random, use_count: bool,
            backend: str) -> tuple[Board | None, int, Solvability | None]:
    """Move mines from where deduction sticks until the board is solvable: ``(board, moves,
    certificate)``, or ``(None, moves, None)`` when no move is left to make.

    ``outcome`` is the board's check when it was already made (by rejection). A move takes a
    mine next to the revealed area where deduction stuck (chosen at random) and puts it on a
    covered cell next to no revealed one; when there is none (late on a large board the
    revealed area is nearly all of it), in an opening, a revealed cell with no mine within
    three steps (its neighbours then show 1 and the ring beyond them still 0, so the opening
    still floods and proves the new mine: nothing else deduction finds changes); else on a
    revealed cell whose surroundings deduction clears again with the mine there (see
    :class:`_Places`); else on another covered cell next to the revealed area.

    Boards up to :data:`LOCAL_REPAIR_CELLS` cells are checked again from the first click
    after each move. Larger ones are repaired in windows around the covered cells where the
    check stuck (:func:`_repair_windows`); then the whole board is checked from its first
    click, the certificate, and the windows where that check sticks are repaired again (at
    most :data:`REPAIR_ROUNDS` checks). Cost: two checks of the board, plus a few steps per
    cell of a window per move in it.
    """
    width, height = board.width, board.height
    area = width * height
    first = at[0] * width + at[1]
    mine = bytearray(area)
    for r, c in board.mine_cells:
        mine[r * width + c] = 1
    keep = bytearray(area)  # cells no mine may be moved to: the first click's protection
    for r, c in protected:
        keep[r * width + c] = 1
    if outcome is None:
        outcome = solve_indices(width, height, _indices(board), first, use_count=use_count,
                                backend=backend)
    if area <= LOCAL_REPAIR_CELLS:
        keep_mask = _mask(keep)
        moves = 0
        while not outcome.solvable:
            if moves == area:
                return None, moves, None
            if not _move(rng, mine, outcome.revealed, outcome.flagged, keep_mask,
                         (0, 0, width, height), None):
                return None, moves, None
            moves += 1
            outcome = solve_indices(width, height, _set_bits(mine), first,
                                    use_count=use_count, backend=backend)
        current = board_from_indices(width, height, _set_bits(mine))
        return current, moves, solvable(current, at, use_count=use_count, backend=backend)
    known = _known(outcome.revealed, outcome.flagged, area)
    moves = 0
    for _ in range(REPAIR_ROUNDS):
        made = _repair_windows(mine, keep, known, width, height, first, rng, use_count,
                               backend)
        if made is None:
            return None, moves, None
        moves += made
        current = board_from_indices(width, height, _set_bits(mine))
        check = solvable(current, at, use_count=use_count, backend=backend)
        if check.solvable:
            return current, moves, check
        if check.stuck is None:
            raise SolverError("the no-guess check said not solvable without the position "
                              "where deduction got stuck")
        known = bytearray("".join(check.stuck.rows).encode().translate(_KNOWN))
    return None, moves, None


def _repair_windows(mine: bytearray, keep: bytearray, known: bytearray, width: int,
                    height: int, first: int, rng: random.Random, use_count: bool,
                    backend: str) -> int | None:
    """Moves until deduction clears every window around the covered cells of ``known``
    (what the last check proved), each deduced without the total count from what ``known``
    says (:func:`~exactmines.solvability.check.solve_from`); the number of moves, or
    ``None`` when a window has no move left or has had one per cell.

    Where a window's deduction sticks, what it proved is written to ``known`` (true of the
    board: a move takes a mine from a covered cell, or from a proved one that is then
    covered again, and puts it on a covered cell or on a revealed one that is then
    flagged), and the covered cells left are cut into windows again: a window as large as
    the board (deduction stuck soon after the first click) shrinks as deduction goes on.
    Updates ``mine`` and ``known``.
    """
    places = _Places(mine, known, width, height, first, backend)
    moves = 0
    todo = [(window, 0) for window in _windows(known, width, height)[::-1]]  # first on top
    while todo:
        ((r0, c0, r1, c1), _), made = todo.pop()
        w, h = c1 - c0 + 1, r1 - r0 + 1
        rows = range(r0 * width + c0, (r1 + 1) * width, width)
        here = _mask(b"".join(mine[i:i + w] for i in rows))
        given = b"".join(known[i:i + w] for i in rows)
        result = solve_from(w, h, indices_of(here), _where(given, _REVEALED),
                            _where(given, _FLAGGED), use_count=False, backend=backend)
        if result.solvable or (use_count and result.flagged == here):
            # with every mine proved, the cells left touch no number: the count clears
            # them once no window has a mine left to find
            continue
        # what the window proved, back on the board; the covered cells left in windows
        state = _known(result.revealed, result.flagged, w * h)
        for k, i in enumerate(rows):
            known[i:i + w] = state[k * w:(k + 1) * w]
        parts = [((a + r0, b + c0, c + r0, d + c0), (e + r0, f + c0, g + r0, j + c0))
                 for (a, b, c, d), (e, f, g, j) in _windows(state, w, h)]
        if len(parts) > 1:
            todo.extend((part, 0) for part in parts[::-1])
            continue
        if made == w * h:
            return None
        local_keep = _mask(b"".join(keep[i:i + w] for i in rows))
        if not _move(rng, mine, result.revealed, result.flagged, local_keep,
                     (r0, c0, w, h), places, parts[0][1], width):
            return None
        moves += 1
        todo.append((parts[0], made + 1))
    return moves


def _move(rng: random.Random, mine: bytearray, revealed: int, flagged: int, keep: int,
          window: tuple[int, int, int, int], places: _Places | None, box: Box | None = None,
          width: int | None = None) -> bool:
    """Move one mine on a stuck window ``(top, left, width, height)`` of the board (whose
    width is ``width``, the window's by default), given by masks over the window's cells;
    ``False`` when there is no move. The source is a covered mine next to a revealed cell
    (else a proved mine next to a covered cell, in ``box``, the box of the covered cells:
    a covered cell stays two steps or more inside the window), the target a covered free
    cell next to no revealed one (not in ``keep``), else a place in the revealed area
    (:class:`_Places`), else a covered free cell next to a revealed one. Without
    ``places`` (a small board, checked from its first click after each move: as this
    generator always did there), only the first kinds of source and target."""
    top, left, w, h = window
    board = width or w
    near = dilate(revealed, w, h)
    mines = _mask(b"".join(mine[i:i + w] for i in range(top * board + left,
                                                       (top + h) * board, board)))
    covered = ((1 << (w * h)) - 1) & ~revealed & ~flagged
    stuck = indices_of(covered & near & mines)
    if not stuck and places is not None:  # covered cells walled in by proved mines: move
        # one of the walls
        inner = -1
        if box is not None:
            row = ((1 << (box[3] - box[1] + 1)) - 1) << (box[1] - left)
            inner = sum(row << ((r - top) * w) for r in range(box[0], box[2] + 1))
        stuck = indices_of(flagged & dilate(covered, w, h) & inner)
    away = indices_of(covered & ~near & ~mines & ~keep)
    if not stuck or not (away or (places is not None and places.any())):
        return False

    def cell(k: int) -> int:
        return (top + k // w) * board + left + k % w

    source = cell(rng.choice(stuck))
    if places is not None:
        was = places.known[source]
        places.known[source] = _COVERED  # (a proved mine moved away is proved no more)
    if away:
        target = cell(rng.choice(away))
    elif places is None:  # (not reached: without places there is a target away)
        return False
    else:
        mine[source] = 0
        if places.put(rng):
            return True
        elsewhere = indices_of(covered & near & ~mines & ~keep)
        if not elsewhere:
            mine[source], places.known[source] = 1, was
            return False
        target = cell(rng.choice(elsewhere))
    mine[source], mine[target] = 0, 1
    return True


class _Places:
    """Cells of the revealed area a repair can move a mine to, on a board's ``mine`` and
    ``known`` (updated by :meth:`put`).

    First the openings: revealed cells with no mine within three steps, three or more from
    the edges and two or more from the first click (which must still show 0). A mine there
    changes nothing deduction finds (see :func:`_repair`). Then, tried at random
    (:data:`PLACE_TRIES` per move), revealed cells two or more from the first click with
    nothing covered within four steps: the cells within two steps of the new mine are
    covered again, and kept if deduction in the window around them, from what is known
    around it, clears them again.
    """

    def __init__(self, mine: bytearray, known: bytearray, width: int, height: int,
                 first: int, backend: str) -> None:
        self.mine, self.known, self.width, self.height = mine, known, width, height
        self.first, self.backend = divmod(first, width), backend
        near = _mask(mine)
        for _ in range(3):
            near = dilate(near, width, height)
        self.openings = [i for i in indices_of(_mask(known, _REVEALED) & ~near)
                         if self._inside(i, 3) and self._far(i)]
        self._settled: list[int] | None = None

    def _inside(self, i: int, margin: int) -> bool:
        r, c = divmod(i, self.width)
        return margin <= r < self.height - margin and margin <= c < self.width - margin

    def _far(self, i: int) -> bool:
        r, c = divmod(i, self.width)
        return max(abs(r - self.first[0]), abs(c - self.first[1])) >= 2

    def any(self) -> bool:
        return bool(self.openings) or bool(self.settled())

    def settled(self) -> list[int]:
        """Revealed cells with nothing covered within four steps (when first asked)."""
        if self._settled is None:
            width, height = self.width, self.height
            near = _mask(self.known, _COVERED)
            for _ in range(4):
                near = dilate(near, width, height)
            self._settled = [i for i in indices_of(_mask(self.known, _REVEALED) & ~near)
                             if self._far(i)]
        return self._settled

    def put(self, rng: random.Random) -> bool:
        """Put a mine in an opening, else on a settled cell that deduction clears again;
        ``False`` when neither is found."""
        if self.openings:
            self._place(rng.choice(self.openings))
            return True
        settled = self.settled()
        for _ in range(PLACE_TRIES if settled else 0):
            target = rng.choice(settled)
            if self._clears(target):
                self._place(target)
                return True
        return False

    def _place(self, target: int) -> None:
        width = self.width
        self.mine[target] = 1
        self.known[target] = _FLAGGED
        tr, tc = divmod(target, width)
        self.openings = [i for i in self.openings
                         if max(abs(i // width - tr), abs(i % width - tc)) > 3]

    def _clears(self, target: int) -> bool:
        """Does deduction clear the cells within two steps of a mine put on ``target``, in
        the window four steps around it, from what is known there?"""
        width, known = self.width, self.known
        r, c = divmod(target, width)
        r0, r1 = max(r - 4, 0), min(r + 4, self.height - 1)
        c0, c1 = max(c - 4, 0), min(c + 4, width - 1)
        w, h = c1 - c0 + 1, r1 - r0 + 1
        if known[target] != _REVEALED or any(
                known[i:i + w].count(_COVERED) for i in range(r0 * width + c0,
                                                              (r1 + 1) * width, width)):
            return False  # covered again by a move since the list was made
        mines, safe, flagged = [], [], []
        for k in range(w * h):
            rr, cc = r0 + k // w, c0 + k % w
            i = rr * width + cc
            if self.mine[i] or i == target:
                mines.append(k)
            if max(abs(rr - r), abs(cc - c)) <= 2:
                continue
            if known[i] == _REVEALED:
                safe.append(k)
            elif known[i] == _FLAGGED:
                flagged.append(k)
        return solve_from(w, h, mines, safe, flagged, use_count=False,
                          backend=self.backend).solvable


def _windows(known: bytes | bytearray, width: int, height: int) -> list[tuple[Box, Box]]:
    """Windows around the covered cells of ``known``, each with the box of its covered
    cells (boxes ``(top, left, bottom, right)``, inclusive): the box and two more rows and
    columns each side (the board's edge stops it), groups of covered cells merged until no
    window holds a covered cell of another. A window's cells one step or more inside its
    edge show what they show on the board, and those on its edge touch no covered cell, so
    deduction in the window is deduction on the board. In order of their first covered
    cell."""
    covered = indices_of(_mask(known, _COVERED))
    label: dict[int, int] = {}
    boxes: list[list[int]] = []  # per group: top, left, bottom, right of its covered cells
    for i in covered:  # groups of 8-adjacent covered cells
        if i in label:
            continue
        r, c = divmod(i, width)
        box = [r, c, r, c]
        label[i] = len(boxes)
        stack = [i]
        while stack:
            r, c = divmod(stack.pop(), width)
            box[0], box[1] = min(box[0], r), min(box[1], c)
            box[2], box[3] = max(box[2], r), max(box[3], c)
            for rr in range(max(r - 1, 0), min(r + 2, height)):
                for j in range(rr * width + max(c - 1, 0), rr * width + min(c + 2, width)):
                    if known[j] == _COVERED and j not in label:
                        label[j] = len(boxes)
                        stack.append(j)
        boxes.append(box)
    parent = list(range(len(boxes)))

    def root(k: int) -> int:
        while parent[k] != k:
            parent[k] = parent[parent[k]]
            k = parent[k]
        return k

    def window(box: list[int]) -> Box:
        return (max(box[0] - 2, 0), max(box[1] - 2, 0), min(box[2] + 2, height - 1),
                min(box[3] + 2, width - 1))

    merged = True
    while merged:
        merged = False
        for k in range(len(boxes)):
            if parent[k] != k:
                continue
            r0, c0, r1, c1 = window(boxes[k])
            for r in range(r0, r1 + 1):
                row = known[r * width + c0:r * width + c1 + 1]
                j = row.find(_COVERED)
                while j >= 0:
                    other = root(label[r * width + c0 + j])
                    if other != k:
                        low, high = min(k, other), max(k, other)
                        parent[high] = low
                        a, b = boxes[low], boxes[high]
                        boxes[low] = [min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]),
                                      max(a[3], b[3])]
                        merged = True
                        if high == k:  # k's cells now belong to a group seen before
                            break
                    j = row.find(_COVERED, j + 1)
                if parent[k] != k:
                    break
    return [(window(boxes[k]), (boxes[k][0], boxes[k][1], boxes[k][2], boxes[k][3]))
            for k in range(len(boxes)) if parent[k] == k]


def _known(revealed: int, flagged: int, area: int) -> bytearray:
    """The state bytes of ``area`` cells from a check's bitmasks."""
    return bytearray((int.from_bytes(_bytes(revealed, area), "little")
                      + _FLAGGED * int.from_bytes(_bytes(flagged, area), "little"))
                     .to_bytes(area, "little"))


def _bytes(mask: int, area: int) -> bytes:
    """A bitmask as one byte 0 or 1 per cell (linear: the mask's binary digits)."""
    return bin(mask)[:1:-1].ljust(area, "0").encode().translate(_FROM_DIGITS)


_FROM_DIGITS = bytes.maketrans(b"01", b"\x00\x01")


def _mask(flags: bytes | bytearray, value: int = 1) -> int:
    """The cells whose byte is ``value``, as a bitmask (linear: the bytes as binary
    digits)."""
    table = bytearray(b"0" * 256)
    table[value] = ord("1")
    return int(bytes(flags)[::-1].translate(table) or b"0", 2)


def _where(flags: bytes | bytearray, value: int) -> list[int]:
    """The indices of the bytes equal to ``value``, ascending."""
    return indices_of(_mask(flags, value))


def _set_bits(flags: bytes | bytearray) -> list[int]:
    """The indices of the bytes equal to 1, ascending."""
    return indices_of(_mask(flags))


def sat_instance(cnf: CNF, name: str, *, generator: dict[str, Any] | None = None,
                 count_seconds: float | None = MODEL_COUNT_SECONDS) -> Instance:
    """The compiled position of ``cnf`` with its ground truth: the formula, its exact model
    count (``null`` if not found within ``count_seconds``), the expected analysis answer
    (consistent = satisfiable, layouts = models) and the cell of each variable."""
    compiled = compile_cnf(cnf)
    models = count_models(cnf, budget=Budget.seconds(count_seconds))
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
                     "layouts": None if models is None else decimal(models)},
        "variable_cells": [{"variable": k + 1, "row": r, "col": c}
                           for k, (r, c) in enumerate(compiled.variable_cells)],
        "reading": "a layout's model: variable k is true exactly when the covered cell "
                   "variable_cells[k-1] holds a mine",
        "size": size,
        "tile_size": 6,
    }
    models_text = "unknown" if models is None else decimal(models)
    text = position_to_mine(compiled.position, (
        f"exactmines generate sat: {plural(cnf.variables, 'variable')}, "
        f"{plural(len(cnf.clauses), 'clause')}; "
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
