"""SAT -> Minesweeper: positions whose consistent layouts are exactly a formula's models.

Consistency of a Minesweeper position is NP-complete and counting its layouts is #P-complete
(Kaye 2000); this module is the reduction, made concrete, so that the exact engines can be
stressed on instances whose answer is known.

The board is a grid of 6x6 *tiles*. A wire is a chain of covered cells, each pair of
neighbours in the chain seen together by revealed ``1``-like numbers, so a chain holds
``x, not x, x, ...``: one free bit. Tiles meet at *ports*, the middle of an edge:

- west port: the tile's cell ``(2, 0)`` carries the signal ``s_W`` arriving from the west;
- east port: ``(2, 5)`` carries ``not s_E``; the east neighbour's ``(2, 0)`` carries ``s_E``;
- north port: ``(0, 2)`` carries ``s_N``; south port: ``(5, 2)`` carries ``not s_S``.

Every tile keeps its border free of covered cells except at its connected ports, so a
revealed cell sees covered cells of its own tile and, across an edge, only the neighbour's
port cell. Each tile's own numbers tie its port cells to the neighbours' (port cell = not the
neighbour's), except on the sides listed in :attr:`Tile.lazy` (only the OR tile has any),
where the neighbour's numbers must; :class:`TileGrid` refuses two untied sides face to face.
So each tile is verified alone, between plain wires (:func:`gadget_grid`), and the
verification carries over to any board built from tiles: the board's layouts are the
assignments of the port signals that every tile accepts, each completed inside every tile in
exactly one way. Every tile holds the same number of mines whatever its signals (*mine
balance*), so the total mine count is a constant of the board and goes in its header. The
numbers are computed tile by tile (:attr:`Tile.display`), which is why they are right even
when no global layout exists (an unsatisfiable formula).

The tiles (``TILES``; inputs come from the west and north, outputs leave east and south):

======== ========================= ===============================================
name     ports                     relation
======== ========================= ===============================================
HWIRE    W -> E                    ``s_E = s_W``
VWIRE    N -> S                    ``s_S = s_N``
CROSS    W -> E, N -> S            both pass, independently (a crossover)
SPLIT+   N -> S, E                 ``s_S = s_E = s_N`` (fan-out)
SPLIT-   N -> S, E                 ``s_S = s_N``, ``s_E = not s_N`` (fan-out with NOT)
CORNER   W -> S                    ``s_S = s_W``
OR       W, N -> E                 ``s_E = s_W or s_N``
FORCE2   W, N                      ``s_W or s_N`` must hold (a forced OR)
FORCE1   W                         ``s_W`` must hold
SOURCE0  -> E                      ``s_E = 0``
HSTART   (free) -> E               a free signal (a variable) starts
VSTART   (free) -> S               the same, downwards
HEND     W                         a wire ends
VEND     N                         the same, from above
EMPTY                              nothing
======== ========================= ===============================================

The gadgets are parsimonious (one layout of a tile's covered cells per accepted assignment
of its inputs) and mine-balanced; ``tests/test_hardness.py`` checks every one by exhaustive
counting. Inside the OR tile two revealed cells say ``a + b + (not o) + (not d) = 2`` and
``o + (not d) + s = 2``: the first alone would allow ``(o, d) = (0, 1)`` when exactly one
input is true, the second forbids it, and the slack ``s`` makes the mines add up.

Compiling a CNF (:func:`compile_cnf`): each variable is a vertical wire in its own tile
column, from an ``VSTART`` at the top to a ``VEND`` at the bottom. Each literal of each
clause gets its own tile row: a ``SPLIT+``/``SPLIT-`` taps its variable's column, the branch
runs east through ``CROSS`` tiles over the other columns to the clause area on the right,
where the clause's literals are ORed together (``OR`` tiles, ``CORNER`` turns) and the
last ``FORCE2`` (``FORCE1`` for a unit clause) demands the result be true. Layouts of the
position correspond one-to-one with the formula's models; an unsatisfiable formula gives an
inconsistent position whose every number is still one that some local layout shows.

Also here: DIMACS reading (:func:`parse_dimacs`), random k-SAT (:func:`random_ksat`) and an
exact model counter (:func:`count_models`) for the ground truth.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from itertools import product
from typing import Any

from exactmines.budget import UNLIMITED, Budget
from exactmines.errors import InputError, OutOfTime, ParameterError
from exactmines.io.formats import read_int
from exactmines.position import Cell, Position
from exactmines.words import plural

__all__ = [
    "CNF",
    "parse_dimacs",
    "random_ksat",
    "count_models",
    "TILE_SIZE",
    "Tile",
    "TILES",
    "TileGrid",
    "gadget_grid",
    "SatInstance",
    "compile_cnf",
    "MAX_BOARD_CELLS",
]

#: Side of a tile, in cells: two periods of the three-cell wire.
TILE_SIZE = 6

#: Largest board :func:`compile_cnf` builds (cells). The board has a tile row per literal
#: and a tile column per variable: 100 variables and 426 clauses are ~9.4 million cells.
MAX_BOARD_CELLS = 25_000_000


# --------------------------------------------------------------------------------------
# Formulas


@dataclass(frozen=True, slots=True)
class CNF:
    """A formula in conjunctive normal form over variables ``1..variables``.

    Attributes
    ----------
    variables:
        Number of variables (some may occur in no clause: they are free).
    clauses:
        Each clause a tuple of non-zero literals (``-3`` is "not x3"); an empty clause is
        false.
    """

    variables: int
    clauses: tuple[tuple[int, ...], ...]

    def __post_init__(self) -> None:
        if self.variables < 0:
            raise ValueError("the number of variables must be at least 0")
        for clause in self.clauses:
            for lit in clause:
                if lit == 0 or abs(lit) > self.variables:
                    raise ValueError(f"literal {lit} is not one of +-1..{self.variables}")

    def satisfied_by(self, assignment: Sequence[bool]) -> bool:
        """Whether ``assignment`` (``assignment[i]`` = value of variable ``i + 1``) is a model."""
        return all(any(assignment[abs(lit) - 1] == (lit > 0) for lit in clause)
                   for clause in self.clauses)

    def to_dimacs(self, comments: Iterable[str] = ()) -> str:
        """DIMACS CNF text (comment lines first)."""
        lines = [f"c {c}" for c in comments]
        lines.append(f"p cnf {self.variables} {len(self.clauses)}")
        lines.extend(" ".join(map(str, (*clause, 0))) for clause in self.clauses)
        return "\n".join(lines) + "\n"


_LITERAL = re.compile(r"[-+]?[0-9]+")


def parse_dimacs(text: str, source: str = "<input>") -> CNF:
    """A :class:`CNF` from DIMACS text: ``c`` comment lines, one ``p cnf V C`` line, then
    clauses as whitespace-separated literals each ended by ``0`` (a clause may span lines).

    A ``%`` line ends the formula (as in the SATLIB benchmark files); a final clause without
    its ``0`` is accepted. Anything else malformed raises :class:`InputError` naming the
    line and column.
    """
    header: tuple[int, int] | None = None
    header_line = count_column = 0
    clauses: list[tuple[int, ...]] = []
    current: list[int] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("c"):
            continue
        if line.startswith("%"):
            break
        if line.startswith("p"):
            if header is not None:
                raise InputError(f"a second problem line (the first is on line {header_line})",
                                 source=source, line=number, column=1)
            parts = line.split()
            if len(parts) != 4 or parts[0] != "p" or parts[1] != "cnf" \
                    or not all(p.isdigit() for p in parts[2:]):
                shown = line if len(line) <= 40 else line[:40] + "..."
                raise InputError(f"bad problem line {shown!r}: expected 'p cnf VARIABLES "
                                 "CLAUSES'", source=source, line=number, column=1)
            header = (read_int(parts[2], "the number of variables", source, number,
                               raw.index(parts[2], raw.index("cnf")) + 1),
                      read_int(parts[3], "the number of clauses", source, number,
                               raw.rindex(parts[3]) + 1))
            header_line, count_column = number, raw.rindex(parts[3]) + 1
            continue
        if header is None:
            raise InputError("clause before the problem line 'p cnf VARIABLES CLAUSES'",
                             source=source, line=number, column=raw.find(line[0]) + 1)
        column = 0
        for token in raw.split():
            column = raw.index(token, column) + 1
            if _LITERAL.fullmatch(token) is None:
                shown = token if len(token) <= 20 else token[:20] + "..."
                raise InputError(f"{shown!r} is not a literal (expected an integer)",
                                 source=source, line=number, column=column)
            lit = read_int(token, "a literal", source, number, column)
            if abs(lit) > header[0]:
                raise InputError(f"literal {lit} but the problem line declares "
                                 f"{plural(header[0], 'variable')}", source=source,
                                 line=number, column=column)
            column += len(token) - 1
            if lit == 0:
                clauses.append(tuple(current))
                current = []
            else:
                current.append(lit)
    if header is None:
        raise InputError("no problem line 'p cnf VARIABLES CLAUSES'", source=source, line=1,
                         column=1)
    if current:
        clauses.append(tuple(current))
    if len(clauses) != header[1]:
        raise InputError(f"the problem line declares {plural(header[1], 'clause')} but the file "
                         f"has {len(clauses)}", source=source, line=header_line,
                         column=count_column)
    return CNF(header[0], tuple(clauses))


def random_ksat(variables: int, clauses: int, rng: random.Random, *, k: int = 3) -> CNF:
    """The uniform random k-SAT model: each clause has ``k`` distinct variables chosen
    uniformly, each negated with probability 1/2 (clauses drawn independently).

    Near ``clauses / variables`` = 4.26 random 3-SAT formulas are hardest and about half are
    satisfiable.
    """
    if variables < k:
        raise ParameterError("variables", variables, f"random {k}-SAT needs at least {k}")
    if clauses < 0:
        raise ParameterError("clauses", clauses, "must be at least 0")
    out = []
    for _ in range(clauses):
        chosen = rng.sample(range(1, variables + 1), k)
        out.append(tuple(v if rng.random() < 0.5 else -v for v in chosen))
    return CNF(variables, tuple(out))


def count_models(cnf: CNF, *, budget: Budget = UNLIMITED) -> int | None:
    """The exact number of models of ``cnf`` over its ``variables`` (free ones included),
    or ``None`` when ``budget`` runs out.

    Notes
    -----
    A counting DPLL: unit propagation, then a split on the most frequent variable, each
    independent group of clauses counted apart, variables that drop out of every clause
    counted as free. Exponential in the worst case; formulas of 50 variables near the
    3-SAT threshold take well under a second.
    """
    clauses = [tuple(sorted(set(c))) for c in cnf.clauses]
    clauses = [c for c in clauses if not any(-lit in c for lit in c)]  # tautologies
    if any(not c for c in clauses):
        return 0
    if not clauses:
        return 1 << cnf.variables
    occurring = {abs(lit) for c in clauses for lit in c}
    try:
        inner = _count(clauses, budget)
    except OutOfTime:
        return None
    return inner << (cnf.variables - len(occurring))


def _assign(clauses: list[tuple[int, ...]], lit: int) -> list[tuple[int, ...]] | None:
    out = []
    for c in clauses:
        if lit in c:
            continue
        if -lit in c:
            c = tuple(x for x in c if x != -lit)
            if not c:
                return None
        out.append(c)
    return out


def _variables(clauses: list[tuple[int, ...]]) -> set[int]:
    return {abs(lit) for c in clauses for lit in c}


def _count(clauses: list[tuple[int, ...]], budget: Budget) -> int:
    """Models over the variables occurring in ``clauses`` (non-empty, no empty clause)."""
    budget.check("counting models")
    groups = _components(clauses)
    if len(groups) > 1:
        total = 1
        for group in groups:
            total *= _count(group, budget)
            if not total:
                return 0
        return total
    before = _variables(clauses)
    scores: dict[int, float] = {}
    for c in clauses:
        weight = 1.0 / (1 << len(c))
        for lit in c:
            scores[abs(lit)] = scores.get(abs(lit), 0.0) + weight
    var = max(sorted(scores), key=scores.__getitem__)
    total = 0
    for lit in (var, -var):
        reduced = _assign(clauses, lit)
        fixed = 1
        while reduced:
            unit = next((c[0] for c in reduced if len(c) == 1), None)
            if unit is None:
                break
            reduced = _assign(reduced, unit)
            fixed += 1
        if reduced is None:
            continue
        after = _variables(reduced)
        freed = len(before) - len(after) - fixed
        total += (_count(reduced, budget) if reduced else 1) << freed
    return total


def _components(clauses: list[tuple[int, ...]]) -> list[list[tuple[int, ...]]]:
    """Clauses grouped by shared variables (union-find over variables)."""
    parent: dict[int, int] = {}

    def find(v: int) -> int:
        while parent.setdefault(v, v) != v:
            parent[v] = parent[parent[v]]
            v = parent[v]
        return v

    for c in clauses:
        first = find(abs(c[0]))
        for lit in c[1:]:
            root = find(abs(lit))
            if root != first:
                parent[root] = first
    groups: dict[int, list[tuple[int, ...]]] = {}
    for c in clauses:
        groups.setdefault(find(abs(c[0])), []).append(c)
    return list(groups.values())


# --------------------------------------------------------------------------------------
# Tiles

Signals = Mapping[str, int]
SignalFn = Callable[[Signals], int]

# Cells of the tile border where a port's covered cell sits.
_PORT_CELLS = {"W": (2, 0), "E": (2, TILE_SIZE - 1), "N": (0, 2), "S": (TILE_SIZE - 1, 2)}
# Where the neighbour's port cell sits, seen from this tile, and whether it carries the
# signal (True) or its negation (False).
_NEIGHBOUR_PORT = {"W": ((2, -1), False), "N": ((-1, 2), False),
                   "E": ((2, TILE_SIZE), True), "S": ((TILE_SIZE, 2), True)}


@dataclass(frozen=True)
class Tile:
    """A 6x6 piece of board with ports, and the covered cells' values as functions of the
    signals entering it.

    Attributes
    ----------
    name:
        How :data:`TILES` calls it.
    rows:
        Six strings of six characters: ``.`` revealed, ``F`` flag, a letter a covered cell
        whose value is ``nodes[letter]``.
    inputs:
        Sides whose signals enter the tile (``"W"``, ``"N"``), plus ``"V"`` for a free
        signal that starts here (a variable).
    outputs:
        ``side -> function of the inputs`` for the signals leaving east (``"E"``) and south
        (``"S"``).
    nodes:
        ``letter -> function of the inputs``: 1 where the covered cell holds a mine.
    allowed:
        For forcing tiles, which inputs have a layout at all (``None``: every input).
    lazy:
        Sides whose port pair (this tile's port cell and the neighbour's) no number of this
        tile ties together: the neighbour's numbers must (:class:`TileGrid` checks it).
    """

    name: str
    rows: tuple[str, ...]
    inputs: tuple[str, ...]
    outputs: Mapping[str, SignalFn]
    nodes: Mapping[str, SignalFn]
    allowed: Callable[[Signals], bool] | None = None
    lazy: frozenset[str] = frozenset()
    sides: frozenset[str] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "sides",
                           frozenset(s for s in (*self.inputs, *self.outputs) if s != "V"))
        if len(self.rows) != TILE_SIZE or any(len(r) != TILE_SIZE for r in self.rows):
            raise ValueError(f"tile {self.name}: rows must be 6 strings of 6 characters")
        for r, row in enumerate(self.rows):
            for c, ch in enumerate(row):
                if ch in ".F":
                    continue
                if ch not in self.nodes:
                    raise ValueError(f"tile {self.name}: no value for {ch!r} at {(r, c)}")
                border = r in (0, TILE_SIZE - 1) or c in (0, TILE_SIZE - 1)
                if border and (r, c) not in [_PORT_CELLS[s] for s in self.sides]:
                    raise ValueError(f"tile {self.name}: covered cell {(r, c)} on the border "
                                     "away from a connected port")
        for side in self.sides:
            r, c = _PORT_CELLS[side]
            if self.rows[r][c] in ".F":
                raise ValueError(f"tile {self.name}: port {side} has no covered cell")

    def input_assignments(self) -> list[dict[str, int]]:
        """Every assignment of the inputs that has a layout, in a fixed order."""
        out = [dict(zip(self.inputs, bits, strict=True))
               for bits in product((0, 1), repeat=len(self.inputs))]
        return [s for s in out if self.allowed is None or self.allowed(s)]

    def cells(self, signals: Signals) -> dict[Cell, int]:
        """Covered cell -> value, for these inputs (tile coordinates)."""
        return {(r, c): self.nodes[ch](signals)
                for r, row in enumerate(self.rows) for c, ch in enumerate(row) if ch not in ".F"}

    def port_values(self, signals: Signals) -> dict[Cell, int]:
        """The neighbours' port cells around the tile and their values (tile coordinates)."""
        out = {}
        for side in self.sides:
            cell, plain = _NEIGHBOUR_PORT[side]
            value = signals[side] if side in self.inputs else self.outputs[side](signals)
            out[cell] = value if plain else 1 - value
        return out

    @cached_property
    def mines(self) -> int:
        """Mines on the tile (covered cells and flags): the same for every input."""
        totals = {sum(self.cells(s).values()) for s in self.input_assignments()}
        if len(totals) != 1:
            raise ValueError(f"tile {self.name} is not mine-balanced: {sorted(totals)}")
        return totals.pop() + sum(row.count("F") for row in self.rows)

    @cached_property
    def display(self) -> tuple[bytes, ...]:
        """The tile as a player sees it, counting its own mines and its neighbours' port
        cells (flags of neighbouring tiles are added when the board is drawn)."""
        sums: dict[Cell, set[int]] = {}
        for signals in self.input_assignments():
            values = {**self.cells(signals), **self.port_values(signals)}
            for r in range(TILE_SIZE):
                for c in range(TILE_SIZE):
                    if self.rows[r][c] == ".":
                        total = sum(values.get((r + dr, c + dc), 0)
                                    for dr in (-1, 0, 1) for dc in (-1, 0, 1))
                        sums.setdefault((r, c), set()).add(total)
        out = []
        for r, row in enumerate(self.rows):
            line = bytearray()
            for c, ch in enumerate(row):
                if ch == "F":
                    line += b"F"
                elif ch != ".":
                    line += b"H"
                else:
                    seen = sums[(r, c)]
                    if len(seen) != 1:
                        raise ValueError(f"tile {self.name}: the number at {(r, c)} depends "
                                         f"on the signals ({sorted(seen)})")
                    flags = sum(self.rows[rr][cc] == "F"
                                for rr in range(max(r - 1, 0), min(r + 2, TILE_SIZE))
                                for cc in range(max(c - 1, 0), min(c + 2, TILE_SIZE)))
                    line += str(seen.pop() + flags).encode()
            out.append(bytes(line))
        return tuple(out)

    @cached_property
    def border_flags(self) -> tuple[Cell, ...]:
        """Flags on the border, which neighbouring tiles' numbers see."""
        return tuple((r, c) for r, row in enumerate(self.rows) for c, ch in enumerate(row)
                     if ch == "F" and (r in (0, TILE_SIZE - 1) or c in (0, TILE_SIZE - 1)))


def _signal(side: str) -> SignalFn:
    return lambda s: s[side]


def _negated(side: str) -> SignalFn:
    return lambda s: 1 - s[side]


def _or(s: Signals) -> int:
    return s["W"] | s["N"]


def _tile(name: str, rows: str, inputs: tuple[str, ...], outputs: Mapping[str, SignalFn],
          nodes: Mapping[str, SignalFn], allowed: Callable[[Signals], bool] | None = None,
          lazy: str = "") -> Tile:
    return Tile(name, tuple(rows.split()), inputs, outputs, nodes, allowed, frozenset(lazy))


def _transpose(tile: Tile, name: str) -> Tile:
    """The tile mirrored in its main diagonal: west <-> north, east <-> south."""
    swap = {"W": "N", "N": "W", "E": "S", "S": "E", "V": "V"}

    def rename(fn: SignalFn) -> SignalFn:
        return lambda s: fn({swap[k]: v for k, v in s.items()})

    allowed = None
    if tile.allowed is not None:
        original = tile.allowed

        def allowed(s: Signals) -> bool:
            return original({swap[k]: v for k, v in s.items()})

    return Tile(name, tuple("".join(tile.rows[c][r] for c in range(TILE_SIZE))
                            for r in range(TILE_SIZE)),
                tuple(swap[s] for s in tile.inputs),
                {swap[k]: rename(f) for k, f in tile.outputs.items()},
                {k: rename(f) for k, f in tile.nodes.items()},
                allowed, frozenset(swap[s] for s in tile.lazy))


_W, _w = _signal("W"), _negated("W")
_N, _n = _signal("N"), _negated("N")
_V, _v = _signal("V"), _negated("V")

# Letters: upper case carries the signal, lower case its negation (X/x west, Y/y north).
_HWIRE = _tile("HWIRE", """
    ......
    ......
    X.xX.x
    ......
    ......
    ......
""", ("W",), {"E": _W}, {"X": _W, "x": _w})

# The crossover (found by exhaustive search): the vertical wire threads through a gap of the
# horizontal one; the numbers that see a pair of each are backed by numbers that see one
# wire only, so the two stay independent.
_CROSS = _tile("CROSS", """
    ..Y...
    F..F..
    XyxX.x
    .Y....
    F..F..
    ..y...
""", ("W", "N"), {"E": _W, "S": _N}, {"X": _W, "x": _w, "Y": _N, "y": _n})

_SPLIT_PLUS = _tile("SPLIT+", """
    ..Y...
    ....F.
    F.y..y
    FY..YF
    F...FF
    ..y...
""", ("N",), {"S": _N, "E": _N}, {"Y": _N, "y": _n})

_SPLIT_MINUS = _tile("SPLIT-", """
    ..Y...
    .F....
    ...y.Y
    ...YyF
    .F.F.F
    ..y...
""", ("N",), {"S": _N, "E": _n}, {"Y": _N, "y": _n})

_CORNER = _tile("CORNER", """
    ......
    ..FF..
    XFx...
    .FX...
    ......
    ..x...
""", ("W",), {"S": _W}, {"X": _W, "x": _w})

# OR: the numbers at (1, 1) and (3, 2) say a + b + (not o) + (not d) = 2 and
# o + (not d) + s = 2 (d = a and b; o is carried on by the chain O/o to the east port).
_OR_GATE = _tile("OR", """
    .FYF..
    F.oFF.
    XdF..o
    FF.OFF
    .FSFsF
    .FF.FF
""", ("W", "N"), {"E": _or}, {
    "X": _W, "Y": _N,
    "O": _or, "o": lambda s: 1 - _or(s),
    "d": lambda s: 1 - (s["W"] & s["N"]),
    "S": lambda s: 1 - (s["W"] ^ s["N"]), "s": lambda s: s["W"] ^ s["N"],
}, lazy="WN")

# (1, 1) sees a, b and the slack s: a + b + s = 2, so a or b, and s = 2 - a - b.
_FORCE2 = _tile("FORCE2", """
    ..Y...
    ..FF..
    XFSF..
    .FFF..
    ......
    ......
""", ("W", "N"), {}, {"X": _W, "Y": _N, "S": lambda s: 2 - s["W"] - s["N"]},
    allowed=lambda s: bool(s["W"] or s["N"]))

_FORCE1 = _tile("FORCE1", """
    ......
    ......
    X.....
    ......
    ......
    ......
""", ("W",), {}, {"X": _W}, allowed=lambda s: s["W"] == 1)

_SOURCE0 = _tile("SOURCE0", """
    ......
    ......
    .....x
    ......
    ......
    ......
""", (), {"E": lambda s: 0}, {"x": lambda s: 1})

_HSTART = _tile("HSTART", """
    ......
    ..FF..
    ..FX.x
    ..FF..
    ......
    ......
""", ("V",), {"E": _V}, {"X": _V, "x": _v})

_HEND = _tile("HEND", """
    ......
    ..FF..
    X.xF..
    ..FF..
    ......
    ......
""", ("W",), {}, {"X": _W, "x": _w})

_EMPTY = _tile("EMPTY", """
    ......
    ......
    ......
    ......
    ......
    ......
""", (), {}, {})

#: Every tile by name.
TILES: dict[str, Tile] = {t.name: t for t in (
    _HWIRE, _transpose(_HWIRE, "VWIRE"), _CROSS, _SPLIT_PLUS, _SPLIT_MINUS, _CORNER,
    _OR_GATE, _FORCE2, _FORCE1, _SOURCE0, _HSTART, _transpose(_HSTART, "VSTART"),
    _HEND, _transpose(_HEND, "VEND"), _EMPTY,
)}


# --------------------------------------------------------------------------------------
# Boards made of tiles


@dataclass(frozen=True)
class TileGrid:
    """A rectangle of tiles and the free signals (variables) that start in it.

    Attributes
    ----------
    tiles:
        Rows of tile names (keys of :data:`TILES`).
    sources:
        ``(tile_row, tile_col) -> variable index`` for every tile with a ``"V"`` input.
    """

    tiles: tuple[tuple[str, ...], ...]
    sources: Mapping[tuple[int, int], int]

    def __post_init__(self) -> None:
        rows, cols = len(self.tiles), len(self.tiles[0]) if self.tiles else 0
        if rows == 0 or cols == 0 or any(len(r) != cols for r in self.tiles):
            raise ValueError("a tile grid is a non-empty rectangle")
        for i, row in enumerate(self.tiles):
            for j, name in enumerate(row):
                tile = TILES[name]
                east = TILES[row[j + 1]].sides if j + 1 < cols else frozenset()
                south = TILES[self.tiles[i + 1][j]].sides if i + 1 < rows else frozenset()
                if ("E" in tile.sides) != ("W" in east) or ("S" in tile.sides) != ("N" in south):
                    raise ValueError(f"tiles {(i, j)} {name} and its east or south neighbour "
                                     "do not meet at a port")
                if ("E" in tile.lazy and j + 1 < cols and "W" in TILES[row[j + 1]].lazy) or (
                        "S" in tile.lazy and i + 1 < rows
                        and "N" in TILES[self.tiles[i + 1][j]].lazy):
                    raise ValueError(f"tile {(i, j)} {name} and a neighbour both leave their "
                                     "port pair untied")
                if (j == 0 and "W" in tile.sides) or (i == 0 and "N" in tile.sides):
                    raise ValueError(f"tile {(i, j)} {name} has a port on the board edge")
                if ("V" in tile.inputs) != ((i, j) in self.sources):
                    raise ValueError(f"tile {(i, j)} {name}: a free signal must start exactly "
                                     "at tiles with a 'V' input")

    @property
    def shape(self) -> tuple[int, int]:
        return len(self.tiles), len(self.tiles[0])

    def position(self) -> Position:
        """The position: every tile drawn, numbers as a real board shows them, total mines
        (flags included) in the header.

        Cost: linear in the cells (each tile row is copied, then border flags are added to
        the numbers across tile edges).
        """
        rows, cols = self.shape
        size = TILE_SIZE
        lines = [bytearray(b"".join(TILES[name].display[r] for name in tile_row))
                 for tile_row in self.tiles for r in range(size)]
        height, width = rows * size, cols * size
        for i, tile_row in enumerate(self.tiles):
            for j, name in enumerate(tile_row):
                for r, c in TILES[name].border_flags:
                    top, left = i * size + r, j * size + c
                    for rr in range(max(top - 1, 0), min(top + 2, height)):
                        for cc in range(max(left - 1, 0), min(left + 2, width)):
                            if rr // size != i or cc // size != j:
                                ch = lines[rr][cc]
                                if 48 <= ch <= 56:  # a digit: one more flag around it
                                    lines[rr][cc] = ch + 1
        mines = sum(TILES[name].mines for tile_row in self.tiles for name in tile_row)
        return Position(width, height, mines, tuple(line.decode() for line in lines))

    def signals(self, values: Sequence[int]) -> list[list[dict[str, int]]]:
        """Each tile's inputs when variable ``k`` is ``values[k]``: row-major, since inputs
        come from the west and the north."""
        rows, cols = self.shape
        east: list[list[int]] = [[0] * cols for _ in range(rows)]
        south: list[list[int]] = [[0] * cols for _ in range(rows)]
        out: list[list[dict[str, int]]] = []
        for i, tile_row in enumerate(self.tiles):
            out.append([])
            for j, name in enumerate(tile_row):
                tile = TILES[name]
                inputs: dict[str, int] = {}
                for side in tile.inputs:
                    inputs[side] = (east[i][j - 1] if side == "W" else south[i - 1][j]
                                    if side == "N" else values[self.sources[(i, j)]])
                if "E" in tile.outputs:
                    east[i][j] = tile.outputs["E"](inputs)
                if "S" in tile.outputs:
                    south[i][j] = tile.outputs["S"](inputs)
                out[-1].append(inputs)
        return out

    def layout(self, values: Sequence[int]) -> frozenset[Cell]:
        """The covered cells holding a mine when the variables take ``values``.

        Raises
        ------
        ValueError
            When a forcing tile rejects its inputs (the values violate the circuit).
        """
        mines = set()
        signals = self.signals(values)
        for i, (tile_row, inputs_row) in enumerate(zip(self.tiles, signals, strict=True)):
            for j, (name, inputs) in enumerate(zip(tile_row, inputs_row, strict=True)):
                tile = TILES[name]
                if tile.allowed is not None and not tile.allowed(inputs):
                    raise ValueError(f"tile {(i, j)} {name} rejects its inputs {inputs}")
                for (r, c), value in tile.cells(inputs).items():
                    if value:
                        mines.add((i * TILE_SIZE + r, j * TILE_SIZE + c))
        return frozenset(mines)


def gadget_grid(name: str) -> TileGrid:
    """The tile ``name`` between plain wires, each started or ended by a free end: its
    verification board. Variable 0 feeds the west input, 1 the north input, 2 a ``"V"``."""
    tile = TILES[name]
    grid = [["EMPTY"] * 5 for _ in range(5)]
    grid[2][2] = name
    sources: dict[tuple[int, int], int] = {}
    if "W" in tile.inputs:
        grid[2][0], grid[2][1] = "HSTART", "HWIRE"
        sources[(2, 0)] = 0
    if "N" in tile.inputs:
        grid[0][2], grid[1][2] = "VSTART", "VWIRE"
        sources[(0, 2)] = 1
    if "V" in tile.inputs:
        sources[(2, 2)] = 2
    if "E" in tile.outputs:
        grid[2][3], grid[2][4] = "HWIRE", "HEND"
    if "S" in tile.outputs:
        grid[3][2], grid[4][2] = "VWIRE", "VEND"
    return TileGrid(tuple(tuple(r) for r in grid), sources)


# --------------------------------------------------------------------------------------
# CNF -> position


@dataclass(frozen=True)
class SatInstance:
    """A formula compiled to a position.

    Attributes
    ----------
    cnf:
        The formula.
    grid:
        The tiles the position is drawn from.
    position:
        The position: its consistent layouts under its header mine count are the formula's
        models, one each.
    variable_cells:
        ``variable_cells[k]``: the covered cell that holds a mine exactly when variable
        ``k + 1`` is true in the layout's model.
    """

    cnf: CNF
    grid: TileGrid
    position: Position
    variable_cells: tuple[Cell, ...]

    def layout(self, assignment: Sequence[bool]) -> frozenset[Cell]:
        """The layout (covered cells with a mine) of a model ``assignment``
        (``assignment[k]`` = variable ``k + 1``); ``ValueError`` if it is not a model."""
        if not self.cnf.satisfied_by(assignment):
            raise ValueError("the assignment does not satisfy the formula")
        return self.grid.layout([int(bool(v)) for v in assignment])

    def assignment(self, mines: Iterable[Cell]) -> tuple[bool, ...]:
        """The model a layout stands for, read off :attr:`variable_cells`."""
        mined = set(mines)
        return tuple(cell in mined for cell in self.variable_cells)

    def summary(self) -> dict[str, Any]:
        """Sizes: cells, covered cells, flags, mines, tiles."""
        p = self.position
        covered = sum(row.count("H") for row in p.rows)
        flags = sum(row.count("F") for row in p.rows)
        rows, cols = self.grid.shape
        return {"width": p.width, "height": p.height, "cells": p.width * p.height,
                "covered": covered, "flags": flags, "mines": p.mines,
                "mines_in_covered_cells": (p.mines or 0) - flags,
                "tiles": [rows, cols]}


def compile_cnf(cnf: CNF) -> SatInstance:
    """Compile ``cnf`` into a position whose layouts are its models, one-to-one.

    The board has one tile column per variable and one tile row per literal (an empty
    clause takes one row), plus a top row where the variables start, a bottom row where
    they end, and the clause area on the right (``max(1, longest clause - 1)`` columns, two
    if a clause is empty).

    Raises
    ------
    InputError
        When the board would have more than :data:`MAX_BOARD_CELLS` cells.

    Notes
    -----
    Cost: linear in the board's cells, i.e. O(variables x literals).
    """
    v_count = cnf.variables
    lengths = [len(c) for c in cnf.clauses]
    area = max([2 if n == 0 else max(1, n - 1) for n in lengths], default=0)
    cols = max(v_count + area, 1)
    rows = 2 + sum(max(n, 1) for n in lengths)
    cells = rows * cols * TILE_SIZE * TILE_SIZE
    if cells > MAX_BOARD_CELLS:
        raise InputError(f"{plural(v_count, 'variable')} and "
                         f"{plural(len(cnf.clauses), 'clause')} make a board "
                         f"of {plural(cells, 'cell')}, more than the {MAX_BOARD_CELLS} built",
                         source="formula")
    grid: list[list[str]] = [["VSTART"] * v_count + ["EMPTY"] * (cols - v_count)]
    for clause in cnf.clauses:
        grid.extend(_clause_rows(clause, v_count, cols))
    grid.append(["VEND"] * v_count + ["EMPTY"] * (cols - v_count))
    tiles = TileGrid(tuple(tuple(r) for r in grid), {(0, k): k for k in range(v_count)})
    # VSTART is HSTART transposed: its covered cell (3, 2) carries the variable.
    cells_of = tuple((3, k * TILE_SIZE + 2) for k in range(v_count))
    return SatInstance(cnf, tiles, tiles.position(), cells_of)


def _clause_rows(clause: tuple[int, ...], variables: int, cols: int) -> list[list[str]]:
    """The tile rows of one clause: a row per literal, tapping and crossing the variable
    columns, then the OR chain and the forcing tile in the clause area."""
    x0 = variables  # first column of the clause area
    if not clause:
        row = ["VWIRE"] * variables + ["EMPTY"] * (cols - variables)
        row[x0], row[x0 + 1] = "SOURCE0", "FORCE1"
        return [row]
    out = []
    n = len(clause)
    for j, lit in enumerate(clause):
        v = abs(lit) - 1
        row = ["VWIRE"] * v + ["SPLIT+" if lit > 0 else "SPLIT-"] \
            + ["CROSS"] * (variables - v - 1) + ["EMPTY"] * (cols - variables)
        if n == 1:
            row[x0] = "FORCE1"
        elif j == 0:
            row[x0] = "CORNER"
        else:
            for k in range(j - 1):
                row[x0 + k] = "HWIRE"
            if j == n - 1:
                row[x0 + j - 1] = "FORCE2"
            else:
                row[x0 + j - 1] = "OR"
                row[x0 + j] = "CORNER"
        out.append(row)
    return out
