"""Topologies: which cells a revealed number counts.

A board is a set of cells numbered ``0 .. cells - 1`` and laid out on a *sheet* of
``height`` rows of ``width`` cells, so that cell ``(row, col)`` has the flat index
``row * width + col`` on every topology: positions keep their rows of characters, and
everything above this module sees cells and neighbours, never how they are found.

Built in (the word after a ``.mine`` header's numbers, docs/contract.md):

``square``
    the ordinary grid, 8 neighbours (the default, and the fast path: its neighbours are
    computed with shifts and offsets, never from a table);
``torus``
    the square grid with wrap-around: row ``height - 1`` touches row 0, column
    ``width - 1`` column 0 (a side of 1 or 2 cells gives fewer than 8 neighbours);
``cylinder``
    the square grid wrapped one way: column ``width - 1`` touches column 0, the top and
    bottom rows are edges (a width of 1 or 2 gives fewer than 8 neighbours);
``hex``
    hexagons in *odd-r* offset coordinates (pointy-top, every odd row shoved half a cell
    to the right; Red Blob Games' naming, the one hex players use): 6 neighbours, the two
    in the same row and, in the rows above and below, columns ``c - 1, c`` of an even row
    and ``c, c + 1`` of an odd one;
``triangle``
    triangles, cell ``(r, c)`` pointing up when ``r + c`` is even: 12 neighbours, those
    sharing an edge or a corner (for an up triangle, columns ``c - 2 .. c + 2`` of its
    own row and of the row below, ``c - 1 .. c + 1`` of the row above);
``cube``
    a 3-D grid of ``layers`` layers of ``height / layers`` rows: 26 neighbours; layer
    ``l``, row ``r``, column ``c`` is sheet row ``l * (height / layers) + r``;
``knight`` and ``offsets:DR,DC;DR,DC;...``
    the square grid where a number counts the cells at the given (row, column) offsets (a
    knight's moves: 8 cells); the offsets must be symmetric (``-DR,-DC`` with every
    ``DR,DC``);
``graph``
    any undirected graph (:func:`graph_topology`): one row of ``cells`` nodes, each with
    its label.

Each kind is one :class:`Shape` in :data:`SHAPES`: its word, how people and the page name
it, its legend, how its cells are drawn and its neighbourhood. A new kind is one entry
there (CONTRIBUTING.md, "Adding things", says what else it takes).

The neighbour relation is symmetric on every topology (a number sees a cell exactly when
the cell's number would see it), so "the cells next to these" is one dilation, as on the
square grid.

Numbers above 9 (cells with more than 9 neighbours) are one character each in a
position's rows: ``a`` = 10 ... ``z`` = 35, and on, by code point, past ``z`` (only a
graph's nodes get that far; :func:`number_char`, :func:`char_number`).
"""

from __future__ import annotations

import math
import re
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import overload

from exactmines.words import plural

__all__ = [
    "Shape",
    "SHAPES",
    "Topology",
    "NeighbourMasks",
    "KINDS",
    "GRID_KINDS",
    "KNIGHT",
    "square",
    "make_topology",
    "named_topology",
    "parse_topology_word",
    "graph_topology",
    "number_char",
    "char_number",
    "is_number_char",
    "neighbour_table",
    "neighbour_masks",
    "dilate",
    "neighbours",
    "indices_of",
]

Cell = tuple[int, int]

Step = tuple[int, int]

#: A knight's moves, as (row, column) offsets.
KNIGHT = ((-2, -1), (-2, 1), (-1, -2), (-1, 2), (1, -2), (1, 2), (2, -1), (2, 1))
_KING = tuple((dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc)
_HEX_EVEN = ((-1, -1), (-1, 0), (0, -1), (0, 1), (1, -1), (1, 0))
_HEX_ODD = ((-1, 0), (-1, 1), (0, -1), (0, 1), (1, 0), (1, 1))
_TRIANGLE_UP = (tuple((-1, dc) for dc in (-1, 0, 1))
                + tuple((0, dc) for dc in (-2, -1, 1, 2))
                + tuple((1, dc) for dc in (-2, -1, 0, 1, 2)))
_TRIANGLE_DOWN = tuple((-dr, dc) for dr, dc in _TRIANGLE_UP)


@dataclass(frozen=True)
class Shape:
    """One kind of topology, all of it in one place: what the ground needs (its
    neighbourhood), what reports and pictures draw, and what the page offers.

    Attributes
    ----------
    word:
        The kind, as a ``.mine`` header and the API name it.
    title:
        One line for people: the page's menu, the docs.
    legend:
        What a text report's legend adds under the board (``""``: nothing).
    cell:
        How a cell is drawn (pictures, the page's ``DRAWERS``): ``"square"``, ``"hex"``,
        ``"triangle"``, ``"cube"`` (squares, layers side by side) or ``"node"``.
    wraps:
        ``(rows, columns)``: whether row ``height - 1`` touches row 0, and column
        ``width - 1`` column 0 (pictures and the page dash those edges).
    steps, parity:
        The neighbourhood as ``(row, column)`` offsets: ``steps[0]`` for every cell when
        ``parity`` is ``"none"``; ``steps[r % 2]`` (``"row"``) or ``steps[(r + c) % 2]``
        (``"checker"``) otherwise. Empty for the kinds that bring their own (``knight``
        and ``offsets``: the topology's offsets; ``cube``; ``graph``: a table).
    page:
        The web page draws and plays it (its cells square or hexagons, its steps by
        ``"none"`` or ``"row"`` parity: what the page's drawers and its neighbour function
        know).
    """

    word: str
    title: str
    legend: str
    cell: str = "square"
    wraps: tuple[bool, bool] = (False, False)
    steps: tuple[tuple[Step, ...], ...] = ()
    parity: str = "none"
    page: bool = False

    def page_entry(self) -> dict[str, object]:
        """What the page needs to offer, draw and play it (``/api/health``'s
        ``topologies``): its word, title, how a cell is drawn, which edges wrap and its
        steps for an even and an odd row."""
        steps = self.steps if self.parity == "row" else self.steps * 2
        return {"word": self.word, "title": self.title, "cell": self.cell,
                "wraps": list(self.wraps), "steps": [[list(s) for s in row] for row in steps]}


#: Every kind of topology, in the order they are documented: a new kind is one entry here.
SHAPES: dict[str, Shape] = {shape.word: shape for shape in (
    Shape("square", "square: the 8 cells around", "", steps=(_KING,), page=True),
    Shape("torus", "torus: the edges wrap around", "; the edges wrap around",
          wraps=(True, True), steps=(_KING,), page=True),
    Shape("cylinder", "cylinder: the left and right edges wrap around",
          "; the left and right edges wrap around", wraps=(False, True), steps=(_KING,),
          page=True),
    Shape("hex", "hex: hexagons, odd rows shifted right", "; odd rows sit half a cell right",
          cell="hex", steps=(_HEX_EVEN, _HEX_ODD), parity="row", page=True),
    Shape("triangle", "triangle: triangles, 12 cells around",
          "; cells with row + col even point up", cell="triangle",
          steps=(_TRIANGLE_UP, _TRIANGLE_DOWN), parity="checker"),
    Shape("cube", "cube: layers of a 3-D grid, 26 cells around", "; layers in turn",
          cell="cube"),
    Shape("knight", "knight: numbers count a knight's moves away",
          "; numbers count a knight's moves away"),
    Shape("offsets", "offsets: numbers count the cells at given offsets",
          "; numbers count the cells at the topology's offsets"),
    Shape("graph", "graph: any undirected graph", "", cell="node"),
)}
#: Every kind of topology, in the order they are documented.
KINDS = tuple(SHAPES)
#: The kinds laid out as rows and columns of a ``.mine`` file.
GRID_KINDS = tuple(kind for kind in KINDS if kind != "graph")
#: The most offsets an ``offsets:`` neighbourhood may have: its numbers are written as one
#: character each, ``z`` being 35.
MAX_OFFSETS = 35


def number_char(n: int) -> str:
    """The character of a revealed number ``n`` in a position's rows: ``'0'``-``'9'``,
    then ``'a'`` = 10, ``'b'`` = 11 ... (by code point past ``'z'`` = 35)."""
    return chr(48 + n) if n < 10 else chr(87 + n)


def char_number(ch: str) -> int:
    """The number a character of :func:`number_char` stands for."""
    code = ord(ch)
    return code - 48 if code < 58 else code - 87


def is_number_char(ch: str) -> bool:
    """Whether ``ch`` is a revealed number (``0``-``9``, ``a`` and on), not ``H``, ``F``,
    ``M`` or ``?``."""
    return "0" <= ch <= "9" or ch >= "a"


# -- the square grid: computed, never tabled on a big board -------------------------------


@lru_cache(maxsize=64)
def neighbour_table(width: int, height: int) -> tuple[tuple[int, ...], ...]:
    """For each cell index ``r * width + c`` of the square grid, the indices of its up-to-8
    neighbours, ascending.

    Cached per board size: the solvers look neighbours up in tight loops.
    """
    table = []
    for r in range(height):
        for c in range(width):
            table.append(
                tuple(
                    rr * width + cc
                    for rr in range(max(r - 1, 0), min(r + 2, height))
                    for cc in range(max(c - 1, 0), min(c + 2, width))
                    if (rr, cc) != (r, c)
                )
            )
    return tuple(table)


@lru_cache(maxsize=64)
def neighbour_masks(width: int, height: int) -> tuple[int, ...]:
    """For each cell index ``r * width + c`` of the square grid, its neighbours as a bitmask
    (bit = index).

    Bitmasks let the solvers intersect and count whole neighbourhoods in one ``int``
    operation (``&``, ``int.bit_count``) instead of a Python loop.
    """
    return tuple(sum(1 << n for n in around) for around in neighbour_table(width, height))


@lru_cache(maxsize=64)
def _column_masks(width: int, height: int) -> tuple[int, int, int]:
    """(cells not in the first column, cells not in the last column, all cells)."""
    first = sum(1 << (r * width) for r in range(height))
    everything = (1 << (width * height)) - 1
    return everything & ~first, everything & ~(first << (width - 1)), everything


def dilate(mask: int, width: int, height: int) -> int:
    """``mask`` plus every neighbour of its cells on the square grid (bitmasks): a handful of
    shifts, however many cells are set, instead of a loop over them."""
    not_first, not_last, everything = _column_masks(width, height)
    row = mask | ((mask << 1) & not_first) | ((mask >> 1) & not_last)
    return (row | (row << width) | (row >> width)) & everything


def neighbours(width: int, height: int, cell: Cell) -> list[Cell]:
    """The up-to-8 cells around ``cell`` on the square grid, row-major."""
    r, c = cell
    return [
        (rr, cc)
        for rr in range(max(r - 1, 0), min(r + 2, height))
        for cc in range(max(c - 1, 0), min(c + 2, width))
        if (rr, cc) != (r, c)
    ]


# -- topologies ----------------------------------------------------------------------------

#: Boards up to this many cells keep a table of neighbour bitmasks when one is asked for
#: (:meth:`Topology.masks`); a larger board's would hold ``cells`` masks of up to ``cells``
#: bits each.
MASK_TABLE_CELLS = 4096


@dataclass(frozen=True, eq=False)
class Topology:
    """The cells of a board and which of them each revealed number counts.

    Attributes
    ----------
    kind:
        One of :data:`KINDS`.
    width, height:
        The sheet: ``height`` rows of ``width`` cells, cell ``(r, c)`` at flat index
        ``r * width + c`` (a graph is one row of its nodes).
    layers:
        ``cube``: the number of layers (the sheet stacks them, ``height / layers`` rows
        each); 1 otherwise.
    offsets:
        ``knight`` and ``offsets``: the (row, column) offsets a number counts, sorted.
    labels:
        ``graph``: each node's label (its ``id`` in the file), in cell order.
    table:
        ``graph``: each node's neighbours (cell indices, ascending). Every other kind makes
        its table from its shape when asked (:attr:`neighbour_table`).

    Two topologies are equal when they have the same kind, sheet and neighbours (a graph's
    labels too). Cost: the square grid answers everything without a table; the other
    kinds make their neighbour table once (a few steps per cell) and answer from it.
    """

    kind: str
    width: int
    height: int
    layers: int = 1
    offsets: tuple[tuple[int, int], ...] = ()
    labels: tuple[Hashable, ...] | None = None
    table: tuple[tuple[int, ...], ...] | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown topology {self.kind!r}")
        if self.width < 1 or self.height < 1:
            raise ValueError(f"board size {self.width}x{self.height}: must be at least 1x1")
        if self.layers < 1 or self.height % self.layers:
            raise ValueError(f"{plural(self.height, 'row')} do not split into "
                             f"{plural(self.layers, 'layer')}")
        if (self.kind == "graph") != (self.table is not None):
            raise ValueError("a graph topology, and only it, is given its neighbour table")

    # identity ---------------------------------------------------------------------------

    @cached_property
    def _key(self) -> tuple[object, ...]:
        return (self.kind, self.width, self.height, self.layers, self.offsets, self.labels,
                self.table)

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, Topology):
            return NotImplemented
        return self._key == other._key

    def __hash__(self) -> int:
        return hash(self._key)

    def __getstate__(self) -> dict[str, object]:
        # What defines the topology: its tables are made again where it is unpickled.
        return {name: getattr(self, name) for name in
                ("kind", "width", "height", "layers", "offsets", "labels", "table")}

    def __setstate__(self, state: dict[str, object]) -> None:
        for name, value in state.items():
            object.__setattr__(self, name, value)

    # shape ------------------------------------------------------------------------------

    @property
    def shape(self) -> Shape:
        """Its kind's :class:`Shape` (legend, drawing, neighbourhood)."""
        return SHAPES[self.kind]

    @property
    def is_square(self) -> bool:
        """The ordinary grid: the callers' fast paths apply."""
        return self.kind == "square"

    @property
    def cells(self) -> int:
        return self.width * self.height

    @property
    def layer_height(self) -> int:
        """Rows per layer (the whole sheet but on a cube)."""
        return self.height // self.layers

    @property
    def word(self) -> str:
        """How a ``.mine`` header names it (``""`` for the square grid, which needs no
        word)."""
        if self.kind == "square":
            return ""
        if self.kind == "offsets":
            return "offsets:" + ";".join(f"{dr},{dc}" for dr, dc in self.offsets)
        return self.kind

    @property
    def size_text(self) -> str:
        """``WIDTHxHEIGHT`` (``WIDTHxHEIGHTxLAYERS`` on a cube, the node count on a
        graph), as headers and reports write it."""
        if self.kind == "graph":
            return f"{plural(self.cells, 'node')}"
        if self.kind == "cube":
            return f"{self.width}x{self.layer_height}x{self.layers}"
        return f"{self.width}x{self.height}"

    def cell_text(self, cell: Cell) -> str:
        """How messages name a cell: ``row 3, col 4``; ``layer 1, row 3, col 4`` on a
        cube; ``node 'a'`` on a graph."""
        r, c = cell
        if self.kind == "graph":
            assert self.labels is not None
            return f"node {self.labels[c]!r}"
        if self.kind == "cube":
            layer, row = divmod(r, self.layer_height)
            return f"layer {layer}, row {row}, col {c}"
        return f"row {r}, col {c}"

    def coordinates(self, cell: Cell) -> tuple[Hashable, ...]:
        """``cell`` as people write it: ``(row, col)``; ``(layer, row, col)`` on a cube;
        ``(label,)`` on a graph."""
        r, c = cell
        if self.kind == "graph":
            assert self.labels is not None
            return (self.labels[c],)
        if self.kind == "cube":
            return (*divmod(r, self.layer_height), c)
        return (r, c)

    def cell_at(self, coordinates: Sequence[Hashable]) -> Cell:
        """The cell written ``coordinates`` (:meth:`coordinates`; a graph's node by its
        label or the label's text).

        Raises
        ------
        ValueError
            When they name no cell of the board (the message says what is expected).
        """
        if self.kind == "graph":
            assert self.labels is not None
            if len(coordinates) == 1:
                wanted = coordinates[0]
                for i, label in enumerate(self.labels):
                    if label == wanted or str(label) == str(wanted):
                        return (0, i)
            raise ValueError(f"expected a node of the graph, got {','.join(map(str, coordinates))}")
        written = [str(x).strip() for x in coordinates]
        if not all(_ASCII_INT.fullmatch(x) for x in written):  # int() reads any script's
            raise ValueError("expected whole numbers written in ASCII digits")
        numbers = [int(x) for x in written]
        if self.kind == "cube":
            if len(numbers) != 3:
                raise ValueError("expected LAYER,ROW,COL on a cube")
            layer, r, c = numbers
            if not (0 <= layer < self.layers and 0 <= r < self.layer_height
                    and 0 <= c < self.width):
                raise ValueError(f"layer {layer}, row {r}, col {c} is off the "
                                 f"{self.size_text} board")
            return (layer * self.layer_height + r, c)
        if len(numbers) != 2:
            raise ValueError("expected ROW,COL")
        r, c = numbers
        if not (0 <= r < self.height and 0 <= c < self.width):
            raise ValueError(f"row {r}, col {c} is off the {self.size_text} board")
        return (r, c)

    # neighbours -------------------------------------------------------------------------

    @cached_property
    def neighbour_table(self) -> tuple[tuple[int, ...], ...]:
        """Each cell's neighbours (indices, ascending). On the square grid this is
        :func:`neighbour_table` (cached per size); callers of the square grid's fast paths
        do not need it."""
        if self.table is not None:
            return self.table
        if self.kind == "square":
            return neighbour_table(self.width, self.height)
        return _grid_table(self)

    @cached_property
    def max_degree(self) -> int:
        """The most neighbours a cell has: the largest number a cell can show."""
        if self.kind == "square":
            return min(8, self.cells - 1, (min(self.width, 3) * min(self.height, 3)) - 1)
        return max(map(len, self.neighbour_table), default=0)

    def degree(self, index: int) -> int:
        """How many neighbours cell ``index`` has."""
        if self.kind == "square":
            r, c = divmod(index, self.width)
            return (len(range(max(r - 1, 0), min(r + 2, self.height)))
                    * len(range(max(c - 1, 0), min(c + 2, self.width))) - 1)
        return len(self.neighbour_table[index])

    def neighbours(self, cell: Cell) -> list[Cell]:
        """The cells around ``cell``, row-major."""
        if self.kind == "square":
            return neighbours(self.width, self.height, cell)
        width = self.width
        return [divmod(i, width) for i in self.neighbour_table[cell[0] * width + cell[1]]]

    def masks(self) -> Sequence[int]:
        """Each cell's neighbours as a bitmask over flat indices, ``masks()[i]``: a table on
        boards up to :data:`MASK_TABLE_CELLS` cells (kept), else each mask made when asked
        (a table would grow with the board squared)."""
        if self.kind == "square" and self.cells <= MASK_TABLE_CELLS:
            return neighbour_masks(self.width, self.height)
        if self.cells <= MASK_TABLE_CELLS:
            return self._mask_table
        return NeighbourMasks(self)

    @cached_property
    def _mask_table(self) -> tuple[int, ...]:
        return tuple(sum(1 << n for n in around) for around in self.neighbour_table)

    def mask_of(self, index: int) -> int:
        """Cell ``index``'s neighbours as a bitmask (no table)."""
        if self.kind == "square":
            width = self.width
            r, c = divmod(index, width)
            low, high = max(c - 1, 0), min(c + 2, width)
            row = ((1 << (high - low)) - 1) << low
            mask = 0
            for rr in range(max(r - 1, 0), min(r + 2, self.height)):
                mask |= row << (rr * width)
            return mask & ~(1 << index)
        mask = 0
        for n in self.neighbour_table[index]:
            mask |= 1 << n
        return mask

    def dilate(self, mask: int) -> int:
        """``mask`` plus every neighbour of its cells (bitmasks over flat indices).

        The square grid: a handful of shifts (:func:`dilate`). The others: the neighbours
        of each set cell marked in a byte per cell, read back as one integer: linear in the
        board and the set cells' neighbourhoods, never a loop of big-integer operations.
        """
        if self.kind == "square":
            return dilate(mask, self.width, self.height)
        if not mask:
            return 0
        table = self.neighbour_table
        flags = bytearray(b"0") * self.cells
        for i in indices_of(mask):
            flags[i] = 49
            for n in table[i]:
                flags[n] = 49
        return int(flags[::-1], 2)

    # drawing ----------------------------------------------------------------------------

    def centres(self) -> list[tuple[float, float]]:
        """Each cell's centre for drawing, ``(x, y)`` with ``y`` growing downwards, in
        units of about one cell. A graph is laid out by networkx (:func:`graph_layout`)."""
        if self.kind == "graph":
            return graph_layout(self)
        return [_centre(self, r, c) for r in range(self.height) for c in range(self.width)]

    def outline(self, index: int) -> list[tuple[float, float]]:
        """The polygon of cell ``index`` (hexagon, triangle or square; a graph's node is a
        small circle around its centre, as a 16-gon), as ``(x, y)`` corners."""
        r, c = divmod(index, self.width)
        if self.kind == "graph":
            x, y = _layout(self)[index]
            return [(x + 0.4 * math.cos(math.pi * k / 8), y + 0.4 * math.sin(math.pi * k / 8))
                    for k in range(16)]
        x, y = _centre(self, r, c)
        if self.shape.cell == "hex":
            return [(x + _HEX_RADIUS * math.cos(math.radians(60 * k - 30)),
                     y + _HEX_RADIUS * math.sin(math.radians(60 * k - 30))) for k in range(6)]
        if self.shape.cell == "triangle":
            up = (r + c) % 2 == 0
            top, bottom = r * _TRIANGLE_HEIGHT, (r + 1) * _TRIANGLE_HEIGHT
            if up:
                return [(x, top), (x + 0.5, bottom), (x - 0.5, bottom)]
            return [(x - 0.5, top), (x + 0.5, top), (x, bottom)]
        return [(x - 0.5, y - 0.5), (x + 0.5, y - 0.5), (x + 0.5, y + 0.5), (x - 0.5, y + 0.5)]


class NeighbourMasks(Sequence[int]):
    """:meth:`Topology.masks` of a large board: each cell's neighbours as a bitmask, made
    when asked (:meth:`Topology.mask_of`: a few shifts of a row of three bits on the square
    grid), with no table, whose memory would grow with the board squared."""

    __slots__ = ("topology",)

    def __init__(self, topology: Topology) -> None:
        self.topology = topology

    def __len__(self) -> int:
        return self.topology.cells

    @overload
    def __getitem__(self, index: int) -> int: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[int]: ...

    def __getitem__(self, index: int | slice) -> int | Sequence[int]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if not 0 <= index < self.topology.cells:
            raise IndexError(f"cell {index} is off the {self.topology.size_text} board")
        return self.topology.mask_of(index)


def indices_of(mask: int) -> list[int]:
    """The set bits of ``mask`` (cell indices ``r * width + c``), ascending.

    Cost: linear in the mask's length. Peeling the lowest bit off costs that much per set
    bit, quadratic on a large board, so long masks are read from their binary digits.
    """
    if mask.bit_length() > _PEEL_BITS:
        digits = bin(mask)[:1:-1]  # least significant first, without "0b"
        out = []
        i = digits.find("1")
        while i >= 0:
            out.append(i)
            i = digits.find("1", i + 1)
        return out
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


#: Masks up to this many bits have their bits peeled off one by one in
#: :func:`indices_of` (faster there than making the string of digits).
_PEEL_BITS = 1024


_HEX_RADIUS = 1 / math.sqrt(3)  # a hexagon one unit across its flat sides
_TRIANGLE_HEIGHT = math.sqrt(3) / 2


def _centre(topology: Topology, r: int, c: int) -> tuple[float, float]:
    kind = topology.shape.cell
    if kind == "hex":
        return (c + (0.5 if r % 2 else 0.0) + 0.5, 0.5 + r * 1.5 * _HEX_RADIUS)
    if kind == "triangle":
        up = (r + c) % 2 == 0
        # The centroid: a third of the height from the base.
        offset = _TRIANGLE_HEIGHT / 6 if up else -_TRIANGLE_HEIGHT / 6
        return (c / 2 + 0.5, r * _TRIANGLE_HEIGHT + _TRIANGLE_HEIGHT / 2 + offset)
    if kind == "cube":
        rows = topology.layer_height
        layer, row = divmod(r, rows)
        return (layer * (topology.width + 1) + c + 0.5, row + 0.5)
    return (c + 0.5, r + 0.5)


def _grid_table(topology: Topology) -> tuple[tuple[int, ...], ...]:
    """The neighbour table of a grid topology other than the square one."""
    width, height, kind = topology.width, topology.height, topology.kind
    table = []
    if kind == "cube":
        rows = topology.layer_height
        for layer in range(topology.layers):
            for r in range(rows):
                for c in range(width):
                    table.append(tuple(sorted(
                        (ll * rows + rr) * width + cc
                        for ll in range(max(layer - 1, 0), min(layer + 2, topology.layers))
                        for rr in range(max(r - 1, 0), min(r + 2, rows))
                        for cc in range(max(c - 1, 0), min(c + 2, width))
                        if (ll, rr, cc) != (layer, r, c))))
        return tuple(table)
    wrap_rows, wrap_cols = topology.shape.wraps
    for r in range(height):
        for c in range(width):
            around: set[int] = set()
            for dr, dc in _steps(topology, r, c):
                rr, cc = r + dr, c + dc
                if wrap_rows:
                    rr %= height
                if wrap_cols:
                    cc %= width
                if not (0 <= rr < height and 0 <= cc < width):
                    continue
                around.add(rr * width + cc)
            around.discard(r * width + c)
            table.append(tuple(sorted(around)))
    return tuple(table)


def _steps(topology: Topology, r: int, c: int) -> tuple[Step, ...]:
    """The (row, column) offsets of cell ``(r, c)``'s neighbours (:attr:`Shape.steps`, or
    the topology's own offsets)."""
    if topology.offsets:
        return topology.offsets
    shape = topology.shape
    if shape.parity == "row":
        return shape.steps[r % 2]
    if shape.parity == "checker":
        return shape.steps[(r + c) % 2]
    return shape.steps[0]


@lru_cache(maxsize=64)
def square(width: int, height: int) -> Topology:
    """The square grid of ``width`` x ``height`` (one object per size: positions share it)."""
    return Topology("square", width, height)


def make_topology(kind: str, width: int, height: int, *, layers: int = 1,
                  offsets: Sequence[tuple[int, int]] = ()) -> Topology:
    """A grid topology (any of :data:`GRID_KINDS`) of a ``width`` x ``height`` sheet.

    ``layers`` is the cube's number of layers (``height`` is then the rows of all layers
    together); ``offsets`` the neighbourhood of kind ``offsets`` (``knight`` has its own).

    Raises
    ------
    ValueError
        For an unknown kind, a size under 1x1, or offsets that are empty, repeated,
        include ``0,0``, are not symmetric or are more than :data:`MAX_OFFSETS`.
    """
    if kind == "square":
        return square(width, height)
    if kind == "knight":
        offsets = KNIGHT
    if kind == "offsets":
        offsets = _checked_offsets(offsets)
    elif kind != "knight" and offsets:
        raise ValueError(f"the {kind} topology takes no offsets")
    if kind != "cube" and layers != 1:
        raise ValueError(f"the {kind} topology has one layer")
    if kind == "graph":
        raise ValueError("a graph topology is made by graph_topology")
    return Topology(kind, width, height, layers, tuple(sorted(offsets)))


@lru_cache(maxsize=32)
def named_topology(word: str, width: int, height: int, layers: int = 1) -> Topology:
    """The grid topology a header word names (:func:`parse_topology_word`; ``""`` or
    ``square``: the square grid) on ``width`` x ``height`` cells per layer, ``layers``
    layers (a cube's; 1 for every other kind).

    Raises
    ------
    ValueError
        For an unknown word, bad offsets, a size under 1x1 or layers off a cube.

    Kept per arguments: a survey or a run of games asks for it once per board.
    """
    kind, offsets = parse_topology_word(word or "square")
    if kind != "cube" and layers != 1:
        raise ValueError(f"{plural(layers, 'layer')}: only a cube has layers")
    if width < 1 or height < 1 or layers < 1:
        raise ValueError(f"board size {width}x{height}: must be at least 1x1")
    return make_topology(kind, width, height * layers, layers=layers, offsets=offsets)


def _checked_offsets(offsets: Sequence[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    found = set(offsets)
    if not found:
        raise ValueError("an offsets neighbourhood needs at least one offset")
    if len(found) != len(offsets):
        raise ValueError("an offset is given twice")
    if (0, 0) in found:
        raise ValueError("the offset 0,0 is the cell itself")
    lonely = sorted(o for o in found if (-o[0], -o[1]) not in found)
    if lonely:
        dr, dc = lonely[0]
        raise ValueError(f"the offsets must be symmetric: {dr},{dc} is given without "
                         f"{-dr},{-dc}")
    if len(found) > MAX_OFFSETS:
        raise ValueError(f"{len(found)} offsets: at most {MAX_OFFSETS} (numbers are written "
                         "0-9, a-z)")
    return tuple(sorted(found))


_ASCII_INT = re.compile(r"[+-]?[0-9]{1,18}")
_OFFSETS_WORD = re.compile(r"offsets:(-?\d+,-?\d+(?:;-?\d+,-?\d+)*)", re.ASCII)


def parse_topology_word(word: str) -> tuple[str, tuple[tuple[int, int], ...]]:
    """A header's topology word -> ``(kind, offsets)``: a word of :data:`GRID_KINDS`
    (``torus``, ``cylinder``, ``hex``, ``triangle``, ``cube``, ``knight``, ``square``) or
    ``offsets:DR,DC;DR,DC;...``.

    Raises
    ------
    ValueError
        For an unknown word or malformed offsets (the message says which).
    """
    if word in GRID_KINDS and word != "offsets":
        return word, ()
    match = _OFFSETS_WORD.fullmatch(word)
    if match is None:
        if word.startswith("offsets"):
            raise ValueError(f"bad offsets {word!r}: expected offsets:DR,DC;DR,DC;...")
        raise ValueError(f"unknown topology {word!r}: choose one of "
                         f"{', '.join(k for k in GRID_KINDS if k != 'offsets')} or "
                         "offsets:DR,DC;...")
    pairs = tuple((int(a), int(b)) for a, b in
                  (item.split(",") for item in match.group(1).split(";")))
    return "offsets", _checked_offsets(pairs)


def graph_topology(labels: Sequence[Hashable],
                   edges: Sequence[tuple[int, int]]) -> Topology:
    """The topology of an undirected graph whose nodes are cells ``0 .. len(labels) - 1``
    (``labels[i]`` the name of cell ``i``) and whose ``edges`` join pairs of them.

    Self-loops and repeated edges are dropped (a cell is not its own neighbour).

    Raises
    ------
    ValueError
        For a graph without nodes, or an edge to a node that is not there.
    """
    n = len(labels)
    if n == 0:
        raise ValueError("a graph needs at least one node")
    around: list[set[int]] = [set() for _ in range(n)]
    for a, b in edges:
        if not (0 <= a < n and 0 <= b < n):
            raise ValueError(f"edge {a}-{b} joins a node that is not there")
        if a != b:
            around[a].add(b)
            around[b].add(a)
    return Topology("graph", n, 1, labels=tuple(labels),
                    table=tuple(tuple(sorted(s)) for s in around))


#: Graphs up to this many nodes are drawn with a spring layout, larger ones on a circle.
_SPRING_NODES = 500


def graph_layout(topology: Topology) -> list[tuple[float, float]]:
    """Drawing positions of a graph's nodes (networkx: a spring layout with a fixed seed up
    to :data:`_SPRING_NODES` nodes, a circle beyond), scaled to about 1.6 units per node
    across; deterministic. networkx (and numpy) are imported here, on first use."""
    return list(_layout(topology))


@lru_cache(maxsize=8)
def _layout(topology: Topology) -> tuple[tuple[float, float], ...]:
    import networkx as nx

    graph = nx.Graph()
    graph.add_nodes_from(range(topology.cells))
    graph.add_edges_from((i, j) for i, around in enumerate(topology.neighbour_table)
                         for j in around if i < j)
    if topology.cells <= _SPRING_NODES:
        place = nx.spring_layout(graph, seed=1)
    else:  # (networkx's force layouts need scipy past 500 nodes)
        place = nx.circular_layout(graph)
    xs = [place[i][0] for i in range(topology.cells)]
    ys = [place[i][1] for i in range(topology.cells)]
    span = max(max(xs) - min(xs), max(ys) - min(ys)) or 1.0
    scale = 1.6 * math.sqrt(topology.cells) / span
    return tuple(((x - min(xs)) * scale + 0.5, (y - min(ys)) * scale + 0.5)
                 for x, y in zip(xs, ys, strict=True))
