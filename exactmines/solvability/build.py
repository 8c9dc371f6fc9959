"""No-guess boards built while solving them (``generate noguess --method build``).

A board is dealt under the first-click rule and solved from its first click by the
project's complete deduction (:mod:`exactmines.solvability.check`). Where deduction is
stuck, one revealed number next to covered cells is chosen, and every mine among its
covered neighbours is moved away, to a covered cell next to nothing revealed when there is
one (no number the player has seen changes there), else to another covered cell. The number
then equals its proved mines, so its covered neighbours are safe: deduction goes on from
what it had revealed and flagged, in the same
:class:`~exactmines.solvability.check.Solver` (:meth:`~exactmines.solvability.check.Solver.move`:
only the clues the move changed are looked at again), not from the first click, and by the
local rules only: after a move the exact step mostly proved only that nothing more
follows (37 of 41 exact steps a board at 240 mines on 30x16), so where the local rules
stick the next move is made at once, and the exact step runs in the checks from the first
click (a third less time at 240 mines, the same bias). A clear or a fill reveals or flags
at least one more cell (its number's rule alone proves them); a run of moves that goes on
past :data:`MOVES_PER_CELL` moves a cell gives the board up (never seen).

A move changes numbers already seen, so the cells revealed before it may no longer all
follow from the first click: when the resumed deduction has revealed every safe cell, the
board is solved again from its first click (:func:`~exactmines.solvability.check.solve_indices`),
and where that sticks, moves go on from there. The board is returned only when the check
from the first click clears it; the caller certifies it once more with
:func:`~exactmines.solvability.check.solvable` before writing it.

Why this way: rejection needs a solvable board to come up by chance, which at 150 mines on
30x16 it almost never does; moving random mines to far cells (``repair``) runs out of far
cells on dense boards. A move chosen at a revealed number is the smallest change that makes
deduction go on (the number's covered neighbours become safe, and the mines moved go where
no number sees them), so it works up to the densest boards, where the covered cells are
nearly all mines: there the move's targets are the few free cells left.

The boards are *not* uniform: the cells next to where deduction stuck lose mines to the
rest of the board. Clearing alone sends mines ever further from the first click (the cells
not reached yet are the far ones), so until the first check from the first click the moves
are balanced: when the cells not reached hold more mines than they were dealt, a fill
(which takes its mines from there) goes before a clear of the same cost. That keeps the
mine density flat with the distance from the first click, as on uniform no-guess boards,
for about a fifth more time at 200 mines on 30x16 (later rounds, which repair what the
moves broke, do not balance: there fills make walls that need more rounds). Above a
density of 0.42 the balance allows some drift (:func:`lean_slack`): uniform no-guess boards
are denser far from the click there. And uniform no-guess boards hold more mines per edge
cell than per interior cell at high density (edge mines force fewer guesses), which moves
chosen uniformly do not make: a move sends the mines it clears to edge cells, and takes the
mines it fills from interior cells, with a weight that grows with the density
(:func:`edge_weight`, calibrated on the measured uniform boards). The bias is measured by
``scripts/bench_noguess.py`` and ``scripts/bench_noguess_bias.py`` (docs/noguess.md).
"""

from __future__ import annotations

import random
from typing import NamedTuple

from exactmines.errors import SolverError
from exactmines.game import Game, board_from_indices, deal, protected_cells
from exactmines.position import Cell, Topology, indices_of
from exactmines.solvability.check import Outcome, Solver, set_bits, solve_indices
from exactmines.topology import MASK_TABLE_CELLS, neighbour_masks, square

__all__ = ["Built", "build_board", "deal_noguess", "hopeless", "edge_weight", "lean_slack",
           "PROBES", "BUILD_ROUNDS", "REJECTIONS", "DEALS"]

#: Checks from the first click per dealt board before it is dealt again (each after the
#: resumed deduction cleared the board).
BUILD_ROUNDS = 12

#: Boards :func:`deal_noguess` deals by rejection before it builds.
REJECTIONS = 25

#: Rejection gives up early (uniformity is kept: the rule reads only boards it rejected)
#: when none of its first :data:`PROBES` boards had at least half of its safe cells
#: revealed when deduction stuck. Measured on 30x16 (200 boards each, opening rule): at 99
#: mines 15 % of the boards are solvable and a fifth reveal less than half (so five in a
#: row, 0.03 %); at 150 none is and 8 % reveal half; at 200 none reveals a third.
PROBES = 5


def hopeless(probed: list[Outcome]) -> bool:
    """Should rejection stop after the rejected checks ``probed``? (See :data:`PROBES`.)"""
    return len(probed) >= PROBES and all(
        2 * o.revealed.bit_count() < o.safe_mask.bit_count() for o in probed[:PROBES])


#: Boards :func:`deal_noguess` builds before it gives up (in measurements from 9x9 to 30x16
#: at every density none needed a second).
DEALS = 100

#: Moves made at once, at numbers whose neighbourhoods do not meet, before deduction goes on.
MOVES_PER_STEP = 8

#: Gates opened at once (:func:`_gate`), at walls whose neighbourhoods do not meet.
GATES = 8

#: Moves a cell of the board :func:`build_board` makes at most before it gives the board up
#: (a safeguard: about 0.1 a cell are made at 240 mines on 30x16).
MOVES_PER_CELL = 4


def edge_weight(density: float) -> float:
    """How much likelier a move sends a mine to an edge cell (one with fewer neighbours
    than the most any cell has) than to an interior cell of the same pool, and takes one
    from an interior cell than from an edge cell, at mine ``density`` (mines over the cells
    the first-click rule leaves free).

    Uniform no-guess boards hold more mines per edge cell than per interior cell, the more
    the denser (1.0 at 30x16/99, 1.17 at /150, about 1.55 at /200 and 1.6-1.75 at /240:
    docs/noguess.md), and the moves alone do not make that. The weight is calibrated on
    those measurements: 1 up to a density of 0.2, then ``1 + 80 (density - 0.2)^2`` (about
    2.1 and 5.0 at 150 and 200 mines on 30x16), at most 8 (from 240 mines on 30x16).
    """
    return min(8.0, 1.0 + 80.0 * max(0.0, density - 0.2) ** 2)


def lean_slack(mines: int, density: float) -> int:
    """Mines the first round's moves may take into the cells not reached before fills go
    first (the balance of :func:`build_board`): 0 up to a density of 0.42, then
    ``1.5 (density - 0.42)`` of the mines. Uniform no-guess boards are flat with the distance
    from the first click up to about 200 mines on 30x16 but denser far from it above (far
    over near 1.4-1.5 at 240 mines, docs/noguess.md), where a strict balance holds the mines
    too near and costs moves."""
    return round(1.5 * mines * max(0.0, density - 0.42))


class Built(NamedTuple):
    """A board :func:`build_board` made: its mines (flat indices, ascending), the moves made,
    and the check from its first click that cleared it (a fresh
    :class:`~exactmines.solvability.check.Solver` run from the first click alone: the
    certificate, :func:`~exactmines.solvability.check.certificate`)."""

    mines: list[int]
    moves: int
    outcome: Outcome


def build_board(width: int, height: int, mines: int, rng: random.Random, *, start: str,
                at: Cell, use_count: bool = True, backend: str = "auto",
                topology: Topology | None = None) -> Built | None:
    """One board dealt and moved until deduction clears it from ``at``, or ``None`` when
    :data:`BUILD_ROUNDS` checks from the first click did not clear it or no move was left
    (the caller deals again).

    Cost: per move, the clues and components it changed (the deduction is kept between
    moves), plus a check from the first click per round.
    """
    shape = topology or square(width, height)
    area = width * height
    first = at[0] * width + at[1]
    keep = 0
    for r, c in protected_cells(width, height, start, at, topology):
        keep |= 1 << (r * width + c)
    free = [i for i in range(area) if not keep >> i & 1]
    density = mines / len(free) if free else 0.0
    weight = edge_weight(density)
    slack = lean_slack(mines, density)
    cells = _Cells(shape)
    table = shape.neighbour_table
    most = max(map(len, table), default=0)
    edge = 0
    if weight != 1.0:
        for i, around in enumerate(table):
            if len(around) < most:
                edge |= 1 << i
    mine = 0
    for i in rng.sample(free, mines):
        mine |= 1 << i
    moves = 0
    solver = _checked(width, height, mine, first, use_count, backend, topology)
    outcome = solver.outcome()
    lean = 0  # mines the moves took into the cells not reached, less those taken out
    for round_ in range(BUILD_ROUNDS):
        fresh = outcome.revealed
        while not outcome.solvable:
            moved = _move(cells, area, mine, keep, outcome, fresh, rng,
                          lean - slack if not round_ else 0, edge, weight)
            if moved is None or moved == (mine, 0) or moves > MOVES_PER_CELL * area:
                return None  # (no move, one that changed nothing, or far too many)
            before = outcome.revealed
            if not round_:  # only the first round balances its moves
                unreached = (((1 << area) - 1) & ~cells.dilate(outcome.revealed)
                             & ~outcome.flagged)
                lean += (moved[0] & unreached).bit_count() - (mine & unreached).bit_count()
            # deduction goes on from where it stood: only what the move changed is
            # looked at again
            outcome = solver.move(set_bits(mine ^ moved[0]), exact=False)
            mine = moved[0]
            moves += 1
            fresh = outcome.revealed & ~before
        solver = _checked(width, height, mine, first, use_count, backend, topology)
        outcome = solver.outcome()
        if outcome.solvable:
            return Built(indices_of(mine), moves, outcome)
    return None


def _checked(width: int, height: int, mine: int, first: int, use_count: bool,
             backend: str, topology: Topology | None) -> Solver:
    """The complete deduction on the board ``mine`` from the first click ``first``, run
    until stuck or won, and kept for the moves that follow."""
    solver = Solver(Game(board_from_indices(width, height, indices_of(mine), topology)),
                    mine.bit_count(), use_count, backend)
    solver.run([first], [])
    return solver


def _move(shape: _Cells, area: int, mine: int, keep: int, outcome: Outcome, fresh: int,
          rng: random.Random, lean: int = 0, edge: int = 0,
          weight: float = 1.0) -> tuple[int, int] | None:
    """The mines after one move on a board where deduction stuck at ``outcome``, with the
    proved mine the move took away (0 if none), or ``None`` when no move is possible.

    A move picks a revealed number next to covered cells and either *clears* them (their
    mines go elsewhere: the number then equals its flagged neighbours, so they are safe) or
    *fills* them (mines from elsewhere: the number then equals its flagged and covered
    neighbours, so they are mines). Moves that change only numbers revealed by the last
    deduction (``fresh``) come first (those numbers proved nothing yet, so every earlier
    proof stands), then those that change fewest cells, clearing before filling unless
    ``lean`` (the mines earlier moves took into the cells not reached, less those they took
    out) is above 0, then filling first; ties at random. Up to :data:`MOVES_PER_STEP` moves
    are made at once, at numbers whose neighbourhoods do not meet. Mines leave for, or come
    from, covered cells next to nothing revealed when there are enough (no number seen
    changes there), else other covered cells; never a cell the first-click rule keeps free.

    When no revealed number touches a covered cell (proved mines wall the covered cells
    in), a *gate* is opened: a proved mine between the revealed and the covered cells
    loses its mine, so the revealed numbers around it prove it safe and its number looks
    into the covered cells (a proof made before the move may then fail: the check from the
    first click says)."""
    revealed, flagged = outcome.revealed, outcome.flagged
    covered = ((1 << area) - 1) & ~revealed & ~flagged
    seen = shape.dilate(revealed)
    free = covered & ~mine & ~keep
    hidden = covered & mine
    old = revealed & ~fresh
    # (a change touches an old number exactly when it holds a cell in reach of one: the
    # neighbour relation is symmetric on every topology)
    near_old = shape.dilate(old)
    ranked: list[tuple[tuple[int, int, int, float], int, int]] = []
    for n in set_bits(revealed & shape.dilate(covered)):
        around = covered & shape.around(n)
        for fill, changed, pool in ((0, around & mine, free), (1, around & ~mine, hidden)):
            cost = changed.bit_count()
            if not cost or (pool & ~around).bit_count() < cost:
                continue
            # clear before fill at equal cost, unless the cells not reached hold more
            # mines than dealt: then fill (its mines come from there) before clear
            rank = (1 if changed & near_old else 0, cost,
                    fill if lean <= 0 else 1 - fill, rng.random())
            ranked.append((rank, fill, around))
    if not ranked:
        return _gate(shape, mine, free, flagged & shape.dilate(covered) & seen, seen, rng)
    # several moves at once where their numbers' neighbourhoods are apart (each still
    # clears or fills its own number's cells): fewer deductions resumed
    ranked.sort()
    chosen: list[tuple[int, int]] = []
    taken = 0
    for _, fill, around in ranked:
        if len(chosen) == MOVES_PER_STEP:
            break
        reach = shape.dilate(around)
        if not reach & taken:
            chosen.append((fill, around))
            taken |= reach
    for k, (fill, around) in enumerate(chosen):
        pool = (hidden if fill else free) & ~taken
        changed = around & (~mine if fill else mine)
        if pool.bit_count() < changed.bit_count():
            if k:
                continue  # (the pool was shared with the moves before)
            pool = (hidden if fill else free) & ~around  # enough: counted above
        far, near = pool & ~seen, pool & seen
        # mines cleared go to edge cells ``weight`` times likelier, filled ones come from
        # interior cells ``weight`` times likelier (:func:`edge_weight`)
        lift = 1.0 / weight if fill else weight
        for cell in set_bits(changed):
            if far:
                other = _pick(far, edge, lift, rng)
                far ^= 1 << other
            else:
                other = _pick(near, edge, lift, rng)
                near ^= 1 << other
            mine ^= (1 << cell) | (1 << other)
            if fill:
                hidden &= ~(1 << other)
            else:
                free &= ~(1 << other)
    return mine, 0


def _gate(shape: _Cells, mine: int, free: int, walls: int, seen: int,
          rng: random.Random) -> tuple[int, int] | None:
    """Proved mines of ``walls`` moved to covered free cells (next to nothing revealed if
    there are): ``(mines, the walls' bits)``, or ``None`` when there is no wall or no cell.
    Up to :data:`GATES` walls at once, whose neighbourhoods do not meet, chosen at random
    (fewer deductions resumed: on dense boards most moves are gates)."""
    if not walls or not free:
        return None
    opened = taken = 0
    for _ in range(GATES):
        left = walls & ~taken
        if not left or not free:
            break
        wall = _nth_bit(left, rng.randrange(left.bit_count()))
        around = shape.around(wall)
        far = free & ~seen & ~around or free & ~around or free
        target = _nth_bit(far, rng.randrange(far.bit_count()))
        mine ^= (1 << wall) | (1 << target)
        free &= ~(1 << target)
        opened |= 1 << wall
        taken |= shape.dilate(shape.dilate(around | (1 << wall)))
    return mine, opened


class _Cells:
    """The topology's neighbourhoods as the builder asks for them, in compiled code where
    it can: the square grid's dilation by shifts, each cell's neighbours from a table
    (boards up to :data:`~exactmines.topology.MASK_TABLE_CELLS` cells), else the
    topology's own methods."""

    def __init__(self, shape: Topology) -> None:
        self.shape = shape
        self.width = shape.width
        self.square = shape.kind == "square"
        self.table: list[int] = []
        if shape.cells <= MASK_TABLE_CELLS:
            self.table = list(neighbour_masks(shape.width, shape.height) if self.square
                              else shape.masks())
        everything = (1 << shape.cells) - 1
        first = 0
        for r in range(shape.height):
            first |= 1 << (r * shape.width)
        self.everything = everything
        self.not_first = everything & ~first
        self.not_last = everything & ~(first << (shape.width - 1))

    def dilate(self, mask: int) -> int:
        """``mask`` and every neighbour of its cells."""
        if not self.square:
            return self.shape.dilate(mask)
        row = mask | ((mask << 1) & self.not_first) | ((mask >> 1) & self.not_last)
        return (row | (row << self.width) | (row >> self.width)) & self.everything

    def around(self, index: int) -> int:
        """Cell ``index``'s neighbours."""
        if self.table:
            return self.table[index]
        return self.shape.mask_of(index)


def _pick(pool: int, edge: int, lift: float, rng: random.Random) -> int:
    """A cell of ``pool`` (not empty) at random, the cells of ``edge`` ``lift`` times
    likelier than the others."""
    if lift == 1.0 or not edge:
        return _nth_bit(pool, rng.randrange(pool.bit_count()))
    on, off = pool & edge, pool & ~edge
    n_on, n_off = on.bit_count(), off.bit_count()
    if rng.random() * (lift * n_on + n_off) < lift * n_on:
        return _nth_bit(on, rng.randrange(n_on))
    return _nth_bit(off, rng.randrange(n_off))


def _nth_bit(mask: int, k: int) -> int:
    """The index of the ``k``-th set bit of ``mask`` (0-based, lowest first): what
    ``indices_of(mask)[k]`` is, without the list (64 bits a step, then bit by bit)."""
    base = 0
    while True:
        low = mask & 0xFFFF_FFFF_FFFF_FFFF
        count = low.bit_count()
        if k < count:
            break
        k -= count
        mask >>= 64
        base += 64
    for _ in range(k):
        low &= low - 1
    return base + (low & -low).bit_length() - 1


def deal_noguess(width: int, height: int, mines: int, rng: random.Random, *, start: str,
                 at: Cell, use_count: bool = True,
                 topology: Topology | None = None) -> tuple[list[int], str]:
    """The mines of a board cleared without guessing from ``at`` (checked from the first
    click by the complete deduction), and the method that made it: up to
    :data:`REJECTIONS` boards dealt by rejection (``"rejection"``: uniform; fewer when
    :func:`hopeless`), then built
    (``"build"``, :func:`build_board`). For players' games (``play --boards noguess``).

    Raises
    ------
    SolverError
        When :data:`DEALS` builds all failed (not seen in measurements).
    """
    first = at[0] * width + at[1]
    probed: list[Outcome] = []
    for _ in range(REJECTIONS):
        board = deal(width, height, mines, rng, rule=start, at=at, topology=topology)
        cells = sorted(r * width + c for r, c in board.mine_cells)
        outcome = solve_indices(width, height, cells, first, use_count=use_count,
                                topology=topology)
        if outcome.solvable:
            return cells, "rejection"
        probed.append(outcome)
        if hopeless(probed):
            break
    for _ in range(DEALS):
        built = build_board(width, height, mines, rng, start=start, at=at,
                            use_count=use_count, topology=topology)
        if built is not None:
            return built[0], "build"
    raise SolverError(f"no no-guess {width}x{height}/{mines} board built in {DEALS} deals")
