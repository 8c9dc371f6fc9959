"""Position -> constraints -> boxes -> independent components.

Every revealed number says "exactly k of these covered cells are mines". Covered cells
that sit under exactly the same set of numbers are interchangeable: they form a *box*, one
variable counted with a binomial weight C(size, mines). Boxes linked through shared numbers
form a *component*; components are independent except through the total mine count.

Backends see only :class:`Component` (box sizes and "exactly k of these boxes" rules): no
grid, no cells. The cells behind each box stay here, in :class:`Frontier`.
"""

from __future__ import annotations

import gc
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import accumulate, chain, compress, count, pairwise, repeat
from operator import add, itemgetter
from typing import TYPE_CHECKING, NamedTuple

from exactmines.budget import UNLIMITED, Budget
from exactmines.errors import BudgetExceeded
from exactmines.position import COVERED, FLAG, Cell, Position
from exactmines.topology import char_number, is_number_char
from exactmines.words import plural

if TYPE_CHECKING:
    import networkx as nx

__all__ = ["Constraint", "Component", "Frontier", "build_frontier", "box_graph", "Split",
           "split_forced", "Rule", "group_rules"]


class Constraint(NamedTuple):
    """Exactly ``mines`` of the cells in ``boxes`` (indices into the component) are mines.

    A named tuple, not a frozen dataclass: a position has one per revealed number on the
    frontier (about 170 on an expert mid-game position), and :func:`build_frontier` makes
    them all at C speed (``tuple.__new__``), several times cheaper than a frozen
    dataclass's ``__init__``.
    """

    boxes: tuple[int, ...]
    mines: int


@dataclass(frozen=True, slots=True)
class Component:
    """A connected set of boxes and the rules over them: all a backend ever sees.

    Attributes
    ----------
    sizes:
        Number of cells in each box.
    constraints:
        One rule per revealed number that touches the component.
    forced:
        Optional, and not part of the component's identity (equality, hash): what the rules
        force on their own, ``forced[b]`` the mines of box ``b`` or -1, as a rule that needs
        no more mines clearing its other boxes and one that needs all its free cells filling
        them, repeated until nothing changes. :func:`build_frontier` finds it for the whole
        board at once, with bitmasks, on boards up to :data:`FORCED_CELLS` cells (on an
        expert mid-game position most boxes are forced); a backend may use it instead of
        working it out again. ``None`` when not given, or when the rules contradict each
        other on their face.
    """

    sizes: tuple[int, ...]
    constraints: tuple[Constraint, ...]
    forced: tuple[int, ...] | None = field(default=None, compare=False, hash=False,
                                           repr=False)

    @property
    def cells(self) -> int:
        return sum(self.sizes)

    def __reduce__(self) -> tuple[object, ...]:
        # Spelled out: compiled by mypyc (setup.py), a frozen dataclass does not unpickle.
        return (Component, (self.sizes, self.constraints, self.forced))


@dataclass(frozen=True, slots=True)
class Frontier:
    """A position cut into independent pieces.

    Attributes
    ----------
    components:
        Independent components, ordered by their smallest cell.
    box_cells:
        ``box_cells[i][b]``: the cells of box ``b`` of component ``i``, row-major.
    clue_cells:
        ``clue_cells[i][j]``: the revealed cell behind constraint ``j`` of component ``i``.
    outside:
        Covered, unflagged cells next to no number, row-major.
    mines_left:
        Total mines minus flags, or ``None`` when the total is unknown.
    contradiction:
        Why the position is inconsistent on its face (a number with too many flags around it,
        say), or ``None``.
    contradiction_at:
        The number at fault when the contradiction is a number that cannot hold on its face
        (the first one, row-major); ``None`` otherwise (no contradiction, or the total's).
    """

    components: tuple[Component, ...]
    box_cells: tuple[tuple[tuple[Cell, ...], ...], ...]
    clue_cells: tuple[tuple[Cell, ...], ...]
    outside: tuple[Cell, ...]
    mines_left: int | None
    contradiction: str | None
    contradiction_at: Cell | None = None

    @property
    def frontier_cells(self) -> int:
        return sum(c.cells for c in self.components)

    def __reduce__(self) -> tuple[object, ...]:
        # Spelled out: compiled by mypyc (setup.py), a frozen dataclass does not unpickle.
        return (Frontier, (self.components, self.box_cells, self.clue_cells, self.outside,
                           self.mines_left, self.contradiction, self.contradiction_at))


#: Items a loop of :func:`build_frontier` handles between two looks at its budget.
_CHUNK = 1 << 13

#: What a budget's message says the work was doing.
BUILDING = "building the frontier"


def _boxes_by_key(keys: list[tuple[int, ...]], cells: list[int], budget: Budget = UNLIMITED
                  ) -> dict[tuple[int, ...], list[int]]:
    """Cells grouped by their key (the clues around them): the boxes, in order of first
    cell."""
    boxes: dict[tuple[int, ...], list[int]] = {}
    get = boxes.get
    for start in range(0, len(cells), _CHUNK):
        budget.check(BUILDING)
        for key, p in zip(keys[start:start + _CHUNK], cells[start:start + _CHUNK],
                          strict=True):
            box = get(key)
            if box is None:
                boxes[key] = [p]
            else:
                box.append(p)
    return boxes


def _mask(text: str, chars: str) -> int:
    """Bit ``i`` set where ``text[i]`` is one of ``chars`` (one C-speed pass).

    ASCII text (every real position) goes through a 256-byte table: a byte translation
    costs a few machine instructions a character, a mapping from a dict many more.
    """
    if text.isascii():
        return int(text.encode().translate(_byte_table(chars))[::-1] or b"0", 2)
    table = str.maketrans({ch: "1" if ch in chars else "0" for ch in set(text)})
    return int(text.translate(table)[::-1] or "0", 2)


def _masks(text: str, sets: Sequence[str]) -> list[int]:
    """:func:`_mask` of ``text`` for each of ``sets``, the text encoded and reversed once
    (the seven masks of a 30x16 position: a quarter less time than one by one)."""
    if not text.isascii():
        return [_mask(text, chars) for chars in sets]
    data = text.encode()[::-1]
    # (A single character absent from the text, flags or 8s most often, is no pass.)
    return [0 if len(chars) == 1 and chars not in text
            else int(data.translate(_byte_table(chars)) or b"0", 2) for chars in sets]


@lru_cache(maxsize=32)
def _byte_table(chars: str) -> bytes:
    """``bytes.translate`` table: ``'1'`` for the bytes of ``chars``, ``'0'`` for the rest."""
    return bytes(49 if chr(i) in chars else 48 for i in range(256))


def _count_around(mask: int, stride: int) -> tuple[int, int, int, int]:
    """How many of each cell's 8 neighbours are in ``mask``, as bit planes (1, 2, 4, 8).

    Bit-sliced addition of the 8 shifted masks: a few dozen big-integer operations for the
    whole board instead of a loop over cells.
    """
    planes = [0, 0, 0, 0]
    for d in (1, stride - 1, stride, stride + 1):
        for shifted in (mask << d, mask >> d):
            carry = shifted
            for k in range(4):
                planes[k], carry = planes[k] ^ carry, planes[k] & carry
                if not carry:
                    break
    return planes[0], planes[1], planes[2], planes[3]


def _greater(a: Sequence[int], b: Sequence[int], within: int) -> int:
    """Bits of ``within`` where the number with bit planes ``a`` exceeds the one with
    planes ``b``. (Every mask stays non-negative: ``m & ~x`` is spelled ``(m | x) ^ x``, as
    Python's bitwise operations on a negative integer cost a third more.)"""
    # From the top plane down (unrolled: no iterators to make, twice a propagation).
    x, y = a[3], b[3]
    above = within & ((x | y) ^ y)
    differ = x ^ y
    same = (within | differ) ^ differ
    x, y = a[2], b[2]
    above |= same & ((x | y) ^ y)
    differ = x ^ y
    same = (same | differ) ^ differ
    x, y = a[1], b[1]
    above |= same & ((x | y) ^ y)
    differ = x ^ y
    same = (same | differ) ^ differ
    x, y = a[0], b[0]
    return above | same & ((x | y) ^ y)


#: The digits whose value has bit 1, 2, 4, 8 set.
_DIGIT_PLANES = ("1357", "2367", "4567", "8")
_DIGIT_VALUE = {str(d): d for d in range(9)}
#: The masks :func:`split_forced` reads: covered cells, flags, numbers, the value's planes.
_SPLIT_MASKS = (COVERED, FLAG, "012345678", *_DIGIT_PLANES)


#: ``bytes.translate`` table: the digits ``0`` and ``1`` to the bytes 0 and 1.
_ZERO_ONE = bytes.maketrans(b"01", b"\x00\x01")


#: Up to this many set bits :func:`_bits` reads a mask bit by bit.
_FEW_BITS = 32


def _bits(mask: int) -> list[int]:
    """The set bits of ``mask``, ascending (C-speed passes, not a loop per bit).

    A sparse mask (the forced cells, the frontier of a board, a few bits in a hundred) is
    read from the runs of zeros between its bits: the work is per set bit, and no integer
    is made for a place without one (``compress`` over a ``range`` makes one for every
    place: half the split of an expert position went to that and a character-by-character
    ``str.translate``). A dense one is one pass over its places. A mask of a few bits (the
    forced cells and the free ones of a small board) is read bit by bit from the top: the
    passes' half a dozen calls and objects cost more than three operations a bit (up to
    about 40 bits in pure Python, more compiled).
    """
    n = mask.bit_count()
    if n <= _FEW_BITS:
        out = [0] * n
        while n:
            n -= 1
            top = mask.bit_length() - 1
            out[n] = top
            mask ^= 1 << top
        return out
    digits = format(mask, "b").encode()[::-1]
    if n * 4 > len(digits):
        return list(compress(range(len(digits)), digits.translate(_ZERO_ONE)))
    runs = digits.split(b"1")
    runs.pop()  # (the zeros above the top bit: none, format starts at it)
    # Bit k sits after the first k runs and the k bits between them.
    return list(map(add, accumulate(map(len, runs)), count()))


def padded_cells(mask: int, width: int, height: int) -> list[Cell]:
    """The cells of a mask over the padded grid (``width + 2`` to a row, a blank row and
    column around the board), row-major."""
    stride = width + 2
    text = format(mask, "b")[::-1].ljust((height + 2) * stride, "0")
    inner = "".join(text[r * stride + 1:r * stride + 1 + width] for r in range(1, height + 1))
    flags = inner.encode().translate(_ZERO_ONE)
    return list(map(divmod, compress(range(len(flags)), flags), repeat(width)))


def build_frontier(position: Position, budget: Budget = UNLIMITED) -> Frontier:
    """Cut ``position`` into boxes and independent components.

    ``budget`` is checked between the stages and every few thousand items of the loops
    (:class:`~exactmines.errors.OutOfTime` "... while building the frontier" past it): a
    board of millions of cells is stopped within a fraction of a second.

    Notes
    -----
    The grid is one string with a border of blanks, ``W = width + 2`` to a row, so every
    cell has its 8 neighbours at fixed offsets. Whole-board questions (which covered cells
    touch a number, which numbers touch a covered cell) are big-integer bitmask shifts,
    linear in the cells but at C speed; the Python loops run only over the covered cells
    that touch a number, the numbers they touch and the flags. The components come from a
    union-find over the boxes, each number joining the boxes under it (nearly linear in the
    rule-box incidences): the connected components of :func:`box_graph`, without building a
    graph object for each position (on an expert mid-game position networkx's graph cost
    more than all the rest of this function). The rules are then dealt to their components
    in one row-major pass. Other topologies than the square grid are cut from their
    neighbour table (:func:`_table_frontier`); the square
    grid's fast path and the table path give equal frontiers on the same graph.
    """
    # Millions of tuples and lists, none in a cycle: the cyclic collector, which would walk
    # them all again and again as they are made, is paused meanwhile (half the time of a
    # board of 1.7 million cells went to it).
    collecting = gc.isenabled()
    gc.disable()
    stopped: BudgetExceeded | None = None
    try:
        if not position.topology.is_square:
            return _table_frontier(position, budget)
        return _square_frontier(position, budget)
    except BudgetExceeded as exc:
        # Its traceback holds the stopped stage's half-made tables: let go of here, with
        # the collector still paused, they are freed by their counts, not walked first by
        # the collection that resuming it starts (a second past the limit on a loaded
        # machine, on a board of 300,000 cells).
        stopped = exc.with_traceback(None)
    finally:
        if collecting:
            gc.enable()
    assert stopped is not None  # (the try returns otherwise)
    raise stopped


def _square_frontier(position: Position, budget: Budget) -> Frontier:
    """:func:`build_frontier` on the square grid."""
    budget.check(BUILDING)
    width, height = position.width, position.height
    stride = width + 2
    blank = " " * stride
    grid = blank + "".join(f" {row} " for row in position.rows) + blank
    digits = "012345678"
    covered_mask = _mask(grid, COVERED)
    flag_mask = _mask(grid, FLAG)
    number_mask = _mask(grid, digits)

    def around(mask: int) -> int:
        row = mask | mask << 1 | mask >> 1
        return row | row << stride | row >> stride

    # Covered cells next to a number, and the numbers next to them (the clues), row-major
    # (a padded index orders cells exactly as (row, col) does).
    offsets = (-stride - 1, -stride, -stride + 1, -1, 1, stride - 1, stride, stride + 1)
    touched_mask = covered_mask & around(number_mask)
    clue_mask = number_mask & around(covered_mask)
    budget.check(BUILDING)
    clue_list = _bits(clue_mask)
    budget.check(BUILDING)
    is_clue = frozenset(clue_list).__contains__
    budget.check(BUILDING)
    # Each cell's clues, as padded indices in increasing order (a C-speed filter per cell);
    # the cells under the same clues make a box, boxes in order of first cell.
    touched = _bits(touched_mask)
    budget.check(BUILDING)
    keys: list[tuple[int, ...]] = []
    for start in range(0, len(touched), _CHUNK):
        budget.check(BUILDING)
        keys += map(tuple, map(filter, repeat(is_clue),
                               _around(touched[start:start + _CHUNK], width, height)))
    budget.check(BUILDING)
    boxes = _boxes_by_key(keys, touched, budget)
    budget.check(BUILDING)
    flagged: dict[int, int] = {}
    for f in _bits(flag_mask):
        for d in offsets:
            q = f + d
            if grid[q] in digits:
                flagged[q] = flagged.get(q, 0) + 1
    budget.check(BUILDING)
    clue_needs = list(map(_DIGIT_VALUE.__getitem__, map(grid.__getitem__, clue_list)))
    if flagged:
        clue_needs = [need - flagged.get(q, 0) for q, need in zip(clue_list, clue_needs,
                                                                    strict=True)]

    # Numbers that cannot be met on their face: with F flags and C covered cells around it,
    # a number D needs F <= D <= F + C. Compared for all numbers at once (bit planes); the
    # first failing one, row-major, is reported.
    contradiction: str | None = None
    contradiction_at: Cell | None = None
    value = tuple(_mask(grid, chars) for chars in _DIGIT_PLANES)
    budget.check(BUILDING)
    bad = _greater(value, _count_around(covered_mask | flag_mask, stride), number_mask)
    if flag_mask:
        bad |= _greater(_count_around(flag_mask, stride), value, number_mask)
    budget.check(BUILDING)
    if bad:
        q = (bad & -bad).bit_length() - 1
        near = [grid[q + d] for d in offsets]
        contradiction_at = (q // stride - 1, q % stride - 1)
        contradiction = (f"the {grid[q]} at row {q // stride - 1}, col {q % stride - 1} has "
                         f"{plural(near.count(FLAG), 'flag')} and "
                         f"{plural(near.count(COVERED), 'covered cell')} around it")
    mines_left = None if position.mines is None else position.mines - flag_mask.bit_count()
    contradiction = contradiction or _count_contradiction(
        position.mines, flag_mask.bit_count(), covered_mask.bit_count())

    forced = None
    if contradiction is None and width * height <= FORCED_CELLS:
        forced = _forced(boxes, touched_mask, clue_mask, flag_mask, value, stride,
                         len(grid))

    budget.check(BUILDING)
    members, component_of, local, boxes_of = _join(boxes, budget)
    budget.check(BUILDING)
    # Every number's boxes lie in one component: deal the rules out in row-major order
    # (made at C speed, then sorted into their components by one loop, if there are several).
    unders = list(map(boxes_of.__getitem__, clue_list))
    made: list[Constraint] = []
    for start in range(0, len(unders), _CHUNK):
        budget.check(BUILDING)
        made += map(tuple.__new__, repeat(Constraint), zip(
            map(tuple, map(map, repeat(local.__getitem__), unders[start:start + _CHUNK])),
            clue_needs[start:start + _CHUNK], strict=True))
    if len(members) == 1:
        rules, clues = [made], [clue_list]
    else:
        rules = [[] for _ in members]
        clues = [[] for _ in members]
        for i, rule, q in zip(map(component_of.__getitem__, map(itemgetter(0), unders)), made,
                              clue_list, strict=True):
            rules[i].append(rule)
            clues[i].append(q)

    budget.check(BUILDING)
    cells_of = _cells_of(width, height)
    # The last steps are linear too (a tenth of a second each on a board of millions of
    # cells, several on a loaded machine): each looks at the clock.
    box_cells: list[tuple[Cell, ...]] = []
    listed = list(boxes.values())
    for start in range(0, len(listed), _CHUNK):
        budget.check(BUILDING)
        box_cells += map(cells_of, listed[start:start + _CHUNK])
    budget.check(BUILDING)
    outside_mask = covered_mask & ~around(number_mask)
    outside = cells_of(_bits(outside_mask)) if outside_mask else ()
    budget.check(BUILDING)
    components = tuple(Component(tuple(len(box_cells[b]) for b in nodes), tuple(r),
                                 None if forced is None else tuple(map(forced.__getitem__,
                                                                       nodes)))
                       for nodes, r in zip(members, rules, strict=True))
    budget.check(BUILDING)
    clue_cells = tuple(cells_of(qs) for qs in clues)
    budget.check(BUILDING)
    return Frontier(
        components=components,
        box_cells=tuple(tuple(box_cells[b] for b in nodes) for nodes in members),
        clue_cells=clue_cells,
        outside=outside,
        mines_left=mines_left,
        contradiction=contradiction,
        contradiction_at=contradiction_at,
    )


def _table_frontier(position: Position, budget: Budget = UNLIMITED) -> Frontier:
    """``position`` cut into boxes and independent components, on any topology, from its
    neighbour table: the same :class:`Frontier` as :func:`_square_frontier` gives on the
    square grid (boxes, components, rules, contradiction, cells off the frontier, in the
    same orders), found by looking each cell's neighbours up in the topology's table
    instead of the square grid's shifts and fixed offsets. What the rules force is left to
    the backends (``forced`` is ``None``); the part-by-part split of :func:`split_forced`
    is the square grid's alone.

    Notes
    -----
    Two passes over the cells and their neighbours (linear in the cells and the table):
    the first sorts every cell into covered, flagged and numbered and counts each number's
    covered and flagged neighbours; the second groups the covered cells next to a number
    by the numbers around them (the boxes, in order of first cell). Components come from
    the frontier's union-find, rules are dealt to them in cell order.
    """
    budget.check(BUILDING)
    topology = position.topology
    table = topology.neighbour_table
    width = position.width
    text = "".join(position.rows)
    covered = [ch == COVERED for ch in text]
    flagged = [ch == FLAG for ch in text]
    number = [char_number(ch) if is_number_char(ch) else -1 for ch in text]

    # Each number's covered and flagged neighbours; the first impossible one, in cell order.
    contradiction: str | None = None
    contradiction_at: Cell | None = None
    clue_list: list[int] = []
    clue_needs: list[int] = []
    for q, value in enumerate(number):
        if value < 0:
            continue
        if not q & (_CHUNK - 1):
            budget.check(BUILDING)
        around = table[q]
        free = sum(covered[n] for n in around)
        flags = sum(flagged[n] for n in around)
        if contradiction is None and not flags <= value <= flags + free:
            contradiction_at = divmod(q, width)
            contradiction = (f"the {value} at {topology.cell_text(divmod(q, width))} has "
                             f"{plural(flags, 'flag')} and {plural(free, 'covered cell')} "
                             "around it")
        if free:
            clue_list.append(q)
            clue_needs.append(value - flags)
    flags_total = sum(flagged)
    mines_left = None if position.mines is None else position.mines - flags_total
    contradiction = contradiction or _count_contradiction(position.mines, flags_total,
                                                          sum(covered))

    # The covered cells next to a number, keyed by those numbers (ascending indices).
    is_clue = [False] * len(text)
    for q in clue_list:
        is_clue[q] = True
    touched: list[int] = []
    keys: list[tuple[int, ...]] = []
    outside: list[int] = []
    for p, is_covered in enumerate(covered):  # (not ``free``: an int above; mypyc types
        if not is_covered:                    # a name once per function)
            continue
        if not p & (_CHUNK - 1):
            budget.check(BUILDING)
        key = tuple(n for n in table[p] if is_clue[n])
        if key:
            touched.append(p)
            keys.append(key)
        else:
            outside.append(p)
    boxes = _boxes_by_key(keys, touched, budget)
    members, component_of, local, boxes_of = _join(boxes, budget)
    budget.check(BUILDING)
    rules: list[list[Constraint]] = [[] for _ in members]
    clues: list[list[int]] = [[] for _ in members]
    to_local = local.__getitem__
    for q, need in zip(clue_list, clue_needs, strict=True):
        under = boxes_of[q]
        i = component_of[under[0]]
        rules[i].append(tuple.__new__(Constraint, (tuple(map(to_local, under)), need)))
        clues[i].append(q)

    def cells(indices: list[int]) -> tuple[Cell, ...]:
        return tuple(map(divmod, indices, repeat(width)))

    budget.check(BUILDING)
    box_cells = [cells(box) for box in boxes.values()]
    return Frontier(
        components=tuple(Component(tuple(len(box_cells[b]) for b in nodes), tuple(r))
                         for nodes, r in zip(members, rules, strict=True)),
        box_cells=tuple(tuple(box_cells[b] for b in nodes) for nodes in members),
        clue_cells=tuple(cells(qs) for qs in clues),
        outside=cells(outside),
        mines_left=mines_left,
        contradiction=contradiction,
        contradiction_at=contradiction_at,
    )


def _count_contradiction(mines: int | None, flags: int, covered: int) -> str | None:
    """Why ``mines`` in all cannot be with ``flags`` flags and ``covered`` covered cells,
    or ``None`` when they can (or the total is unknown)."""
    if mines is None:
        return None
    if mines < flags:
        return f"{plural(flags, 'flag')} but only {plural(mines, 'mine')}"
    if mines - flags > covered:
        return f"{plural(mines - flags, 'mine')} left for {plural(covered, 'covered cell')}"
    return None


class Split(NamedTuple):
    """A position cut for counting with what the rules force on their own already settled
    (:func:`split_forced`): the forced cells, and the other boxes of the frontier in
    independent parts.

    A forced box holds its mines in one way only, so a component has the layouts of its
    unforced parts together, and the components combine under the total mine count as
    their parts do: counted part by part, a position has the same layouts and
    probabilities as counted component by component. On an expert mid-game position the
    parts hold about a quarter of the frontier's boxes and a tenth of its rules.

    Attributes
    ----------
    components, frontier_cells, largest_component:
        The frontier's shape, as :func:`build_frontier` would find it.
    parts:
        The unforced boxes in independent parts: each a :class:`Component` over its boxes,
        with a rule for each number over them that needs the mines the number still lacks
        (none of them forced: ``forced`` all -1).
    part_cells:
        ``part_cells[i][b]``: the cells of box ``b`` of part ``i``, row-major.
    forced_mines, forced_safe:
        The cells forced to be mines, to be safe, as bitmasks over the padded grid (see
        :meth:`mines` and :meth:`safe` for the cells).
    width, height:
        The board's.
    outside:
        How many covered cells are next to no number.
    mines_left:
        The total less the flags and the forced mines; ``None`` when the total is unknown.

    A named tuple, not a frozen dataclass, as :class:`Constraint` is: one is made per
    position analysed, and a compiled frozen dataclass is made by the ``__init__`` that
    ``dataclasses`` writes, in Python, a field at a time (2 us of a 50 us analysis of a
    9x9 position); :func:`split_forced` makes it at C speed (``tuple.__new__``).
    """

    components: int
    frontier_cells: int
    largest_component: int
    parts: tuple[Component, ...]
    part_cells: tuple[tuple[tuple[Cell, ...], ...], ...]
    forced_mines: int
    forced_safe: int
    width: int
    height: int
    outside: int
    mines_left: int | None

    def mines(self) -> tuple[Cell, ...]:
        """The cells forced to be mines, row-major."""
        return tuple(padded_cells(self.forced_mines, self.width, self.height))

    def safe(self) -> tuple[Cell, ...]:
        """The cells forced to be safe, row-major."""
        return tuple(padded_cells(self.forced_safe, self.width, self.height))


def split_forced(position: Position) -> Split | None:
    """``position`` cut as :class:`Split` describes, or ``None`` when that does not apply:
    on boards over :data:`FORCED_CELLS` cells or of another topology than the square grid,
    and when the numbers contradict each other or the mine count (on their face, or once
    propagated), which :func:`build_frontier` reports.

    Notes
    -----
    Whole-board bitmask work (the masks, the propagation of :func:`_settle`, and the shape:
    each component grown from its first cell, one step a round through the numbers around
    it) and Python loops over the unforced cells and the numbers next to them only.
    """
    width, height = position.width, position.height
    if width * height > FORCED_CELLS or not position.topology.is_square:
        return None
    stride = width + 2
    blank = " " * stride
    grid = blank + "".join(f" {row} " for row in position.rows) + blank
    covered_mask, flag_mask, number_mask, *planes = _masks(grid, _SPLIT_MASKS)
    value = tuple(planes)
    mines_left = None
    if position.mines is not None:
        mines_left = position.mines - flag_mask.bit_count()
        if not 0 <= mines_left <= covered_mask.bit_count():
            return None
    touched_mask = covered_mask & _dilate(number_mask, stride)
    clue_mask = number_mask & _dilate(covered_mask, stride)
    # (A number impossible on its face fails the final check of the propagation.)
    settled = _settle(touched_mask, clue_mask, flag_mask, value, stride, number_mask)
    if settled is None:
        return None
    mines, safe = settled
    free = touched_mask ^ (mines | safe)  # (both within it)

    # The shape: each component grown from its first cell through the numbers around it.
    # It is whole when its cells, or the numbers around them, are the same as a step
    # before (the numbers then reach no other cell): whichever comes first, which saves the
    # last dilation of most components.
    sizes = []
    rest = touched_mask
    while rest:
        reach = rest & -rest
        clues = clue_mask & _dilate(reach, stride)
        while True:
            grown = touched_mask & _dilate(clues, stride)
            if grown == reach:
                break
            reach = grown
            more = clue_mask & _dilate(reach, stride)
            if more == clues:
                break
            clues = more
        sizes.append(reach.bit_count())
        rest ^= reach  # (a component of what is left)

    if not free:  # every cell settled (half the small boards): no parts, no tables
        return tuple.__new__(Split, (
            len(sizes), touched_mask.bit_count(), max(sizes, default=0), (), (), mines, safe,
            width, height, (covered_mask ^ touched_mask).bit_count(),
            None if mines_left is None else mines_left - mines.bit_count()))

    # The unforced boxes and the numbers over them, joined into parts. (Plain loops and
    # comprehensions over a neighbour table: the fastest form in Python, and the form the
    # compiled module turns into C.)
    is_clue = _byte_flags(clue_mask, len(grid))
    table = _neighbour_table(width, height)  # (FORCED_CELLS: always within the table's)
    free_cells = _bits(free)
    keys = [tuple([q for q in table[p] if is_clue[q]]) for p in free_cells]
    free_clues = sorted(set(chain.from_iterable(keys)))
    boxes = _boxes_by_key(keys, free_cells)
    members, component_of, local, boxes_of = _join(boxes)
    # A number's rule needs its value less the flags and forced mines around it.
    is_mine = _byte_flags(mines | flag_mask, len(grid))
    rules: list[list[Constraint]] = [[] for _ in members]
    for q in free_clues:
        under = boxes_of[q]
        need = _DIGIT_VALUE[grid[q]]
        for near in table[q]:
            need -= is_mine[near]
        rules[component_of[under[0]]].append(
            tuple.__new__(Constraint, (tuple([local[b] for b in under]), need)))
    cell_of = _padded_cells(width, height)
    box_cells = [tuple(map(cell_of, box)) for box in boxes.values()]
    return tuple.__new__(Split, (
        len(sizes),  # components
        touched_mask.bit_count(),  # frontier_cells
        max(sizes, default=0),  # largest_component
        tuple(Component(tuple(len(box_cells[b]) for b in nodes), tuple(r), (-1,) * len(nodes))
              for nodes, r in zip(members, rules, strict=True)),  # parts
        tuple(tuple(box_cells[b] for b in nodes) for nodes in members),  # part_cells
        mines, safe, width, height,
        (covered_mask ^ touched_mask).bit_count(),  # outside
        None if mines_left is None else mines_left - mines.bit_count()))  # mines_left


def _byte_flags(mask: int, size: int) -> bytes:
    """Byte ``i`` is 1 where bit ``i`` of ``mask`` is set, else 0, for ``i < size``: a
    C-speed membership test by index."""
    return format(mask, "b").encode()[::-1].translate(_ZERO_ONE).ljust(size, b"\0")


def _join(boxes: Iterable[tuple[int, ...]], budget: Budget = UNLIMITED
          ) -> tuple[list[list[int]], list[int], list[int], dict[int, list[int]]]:
    """Boxes (given by their clues, in order) joined into components by a union-find, each
    clue joining the boxes under it: the components' boxes (ordered by smallest box), each
    box's component and index in it, and each clue's boxes in order.

    The root of a set is its smallest box (path halving keeps the trees shallow), so the
    components come out ordered by smallest box, hence by smallest cell.
    """
    parent: list[int] = []
    boxes_of: dict[int, list[int]] = {}
    for b, key in enumerate(boxes):
        parent.append(b)
        if not b & (_CHUNK - 1):
            budget.check(BUILDING)
        for q in key:
            under = boxes_of.get(q)
            if under is None:
                boxes_of[q] = [b]
                continue
            under.append(b)
            x = under[0]
            while parent[x] != x:
                parent[x] = x = parent[parent[x]]
            y = b
            while parent[y] != y:
                parent[y] = y = parent[parent[y]]
            if x < y:
                parent[y] = x
            elif y < x:
                parent[x] = y
    component_of = [0] * len(parent)
    local = [0] * len(parent)
    members: list[list[int]] = []
    for b in range(len(parent)):
        if not b & (_CHUNK - 1):
            budget.check(BUILDING)
        x = b
        while parent[x] != x:
            x = parent[x]
        if x == b:
            component_of[b] = len(members)
            members.append([b])
        else:
            nodes = members[component_of[x]]
            component_of[b] = component_of[x]
            local[b] = len(nodes)
            nodes.append(b)
    return members, component_of, local, boxes_of


#: Boards up to this many cells get :attr:`Component.forced` from :func:`build_frontier`
#: (on bigger ones a round of whole-board bitmask operations costs more than the backend's
#: own propagation over the rules).
FORCED_CELLS = 4096


def _forced(boxes: dict[tuple[int, ...], list[int]], touched: int, clues: int, flags: int,
            value: Sequence[int], stride: int, size: int) -> list[int] | None:
    """:attr:`Component.forced` of every box, in order, or ``None`` on a contradiction
    (see :func:`_settle`)."""
    settled = _settle(touched, clues, flags, value, stride, clues)
    if settled is None:
        return None
    mines, safe = settled
    is_mine = format(mines, "b")[::-1].ljust(size, "0")
    is_safe = format(safe, "b")[::-1].ljust(size, "0")
    firsts = list(map(itemgetter(0), boxes.values()))
    return [len(box) if m == "1" else 0 if z == "1" else -1
            for box, m, z in zip(boxes.values(), map(is_mine.__getitem__, firsts),
                                 map(is_safe.__getitem__, firsts), strict=True)]


def _settle(touched: int, clues: int, flags: int, value: Sequence[int], stride: int,
            numbers: int) -> tuple[int, int] | None:
    """The cells of ``touched`` forced to be mines and safe, as masks, or ``None`` on a
    contradiction.

    Single-rule propagation on the whole board at once, in bit planes: a number needs no
    more mines when the mines and flags around it make its value (its unsettled neighbours
    are safe), and all of them when its value is what the mines, flags and unsettled cells
    around it make (they are mines). A few dozen big-integer operations a round, however
    many numbers. At the fixed point, a number (any of ``numbers``, touching a covered cell
    or not) with more mines around it than its value, or fewer cells that may hold one, is
    a contradiction (no further round could mend it), left to the backend.
    """
    mines, safe, unknown = flags, 0, touched
    settled = _block_count(mines, stride)  # mines and flags around each number
    possible = _block_count(mines | unknown, stride)  # cells around it that may hold one
    # A test is asked again only when its count changed: with the same count, the same
    # numbers pass it, and their unsettled cells were all settled by the round before.
    ask_safe = ask_mines = True
    while True:
        new_safe = unknown & _dilate(_equal(clues, value, settled), stride) if ask_safe else 0
        new_mines = (unknown & _dilate(_equal(clues, value, possible), stride) if ask_mines
                     else 0)
        if new_safe & new_mines:
            return None
        if not new_safe | new_mines:
            break
        unknown ^= new_safe | new_mines  # (both within it)
        ask_safe = ask_mines = False
        if new_mines:
            mines |= new_mines
            settled = _block_count(mines, stride)
            ask_safe = True
        if new_safe:
            safe |= new_safe
            possible = _block_count(mines | unknown, stride)
            ask_mines = True
    if _greater(settled, value, numbers) or _greater(value, possible, numbers):
        return None
    return mines & touched, safe


def _block_count(mask: int, stride: int) -> tuple[int, int, int, int]:
    """How many bits of ``mask`` lie in each cell's 3x3 block (itself and its neighbours),
    as bit planes (1, 2, 4, 8): three in a row, then three rows, by bit-sliced adders."""
    if not mask:  # (no flags: the first count of a position without any, for nothing)
        return 0, 0, 0, 0
    left, right = mask << 1, mask >> 1
    pair = mask ^ left
    r0, r1 = pair ^ right, (mask & left) | (pair & right)  # each row of three: 0..3
    u0, u1, d0, d1 = r0 << stride, r1 << stride, r0 >> stride, r1 >> stride
    t = r0 ^ u0
    s0 = t ^ d0
    c0 = (r0 & u0) | (t & d0)  # carry into the twos
    p, q = r1 ^ u1, d1 ^ c0
    k1, k2, k3 = r1 & u1, d1 & c0, p & q  # carries into the fours (at most two of them)
    return s0, p ^ q, k1 ^ k2 ^ k3, (k1 & k2) | (k3 & (k1 | k2))


def _equal(within: int, a: Sequence[int], b: Sequence[int]) -> int:
    """Bits of ``within`` where the numbers with bit planes ``a`` and ``b`` are equal."""
    differ = (a[0] ^ b[0]) | (a[1] ^ b[1]) | (a[2] ^ b[2]) | (a[3] ^ b[3])
    return (within | differ) ^ differ


def _dilate(mask: int, stride: int) -> int:
    """``mask`` and every neighbour of its bits."""
    row = mask | mask << 1 | mask >> 1
    return row | row << stride | row >> stride


def _around(cells: list[int], width: int, height: int) -> Iterator[tuple[int, ...]]:
    """The 8 neighbours of each padded index of ``cells``, in increasing order: from a table
    kept per board size up to 4096 cells (a C-speed lookup), else computed."""
    if width * height <= 4096:
        return map(_neighbour_table(width, height).__getitem__, cells)
    stride = width + 2
    up, down = stride + 1, stride - 1
    return ((p - up, p - stride, p - down, p - 1, p + 1, p + down, p + stride, p + up)
            for p in cells)


@lru_cache(maxsize=16)
def _neighbour_table(width: int, height: int) -> tuple[tuple[int, ...], ...]:
    stride = width + 2
    up, down = stride + 1, stride - 1
    return tuple((p - up, p - stride, p - down, p - 1, p + 1, p + down, p + stride, p + up)
                 for p in range(stride * (height + 2)))


def _padded_cells(width: int, height: int):  # type: ignore[no-untyped-def]
    """Padded index (``width + 2`` to a row, one blank row and column around) -> cell:
    a table's ``__getitem__`` for boards up to 4096 cells (kept, the same few sizes recur),
    else a function."""
    if width * height <= 4096:
        return _cell_table(width, height).__getitem__
    stride = width + 2

    def cell(p: int) -> Cell:
        r, c = divmod(p, stride)
        return (r - 1, c - 1)

    return cell


def _cells_of(width: int, height: int):  # type: ignore[no-untyped-def]
    """Padded indices -> a tuple of their cells: :func:`_padded_cells` for each on small
    boards, else at C speed (padded index ``p`` is cell ``divmod(p - stride - 1, stride)``:
    no Python call per cell, a third of the time on a board of millions of cells)."""
    if width * height <= 4096:
        cell_of = _padded_cells(width, height)
        return lambda indices: tuple(map(cell_of, indices))
    stride = width + 2
    shift = (-stride - 1).__add__
    return lambda indices: tuple(map(divmod, map(shift, indices), repeat(stride)))


@lru_cache(maxsize=16)
def _cell_table(width: int, height: int) -> tuple[Cell | None, ...]:
    stride = width + 2
    return tuple((p // stride - 1, p % stride - 1)
                 if 0 < p // stride <= height and 0 < p % stride <= width else None
                 for p in range(stride * (height + 2)))


def box_graph(frontier: Frontier) -> nx.Graph:
    """The frontier's boxes as a networkx graph, for looking at its structure.

    Nodes are ``(component, box)``; two boxes are joined when some number lies over both.
    Its connected components are exactly ``frontier.components`` (a test checks this);
    :func:`build_frontier` finds them with a union-find of its own, cheaper per position
    than building the graph. networkx is imported here, on first use.
    """
    import networkx as nx

    graph = nx.Graph()
    for i, component in enumerate(frontier.components):
        graph.add_nodes_from((i, b) for b in range(len(component.sizes)))
        for rule in component.constraints:
            graph.add_edges_from(((i, a), (i, b)) for a, b in pairwise(rule.boxes))
    return graph


# -- the same split on bitmasks, for the player and the no-guess check ----------------------

Rule = tuple[int, int]  # (covered cells as a bitmask over flat indices, mines among them)


def group_rules(rules: Sequence[Rule]) -> list[tuple[int, tuple[Rule, ...]]]:
    """Rules linked by shared cells, as ``(cells, sorted rules)`` (duplicates dropped).

    The bitmask form of the components of :func:`build_frontier`, for callers that keep
    their own view of the board as integers (the player, the no-guess check): no boxes, no
    graph. Components come in the order their last rule arrives (a merged component moves
    to the end). Cost: O(rules x components) mask operations.

    Examples
    --------
    >>> group_rules([(0b0011, 1), (0b1000, 0), (0b0110, 1)])
    [(8, ((8, 0),)), (7, ((3, 1), (6, 1)))]
    """
    groups: list[tuple[int, list[Rule]]] = []
    for rule in rules:
        cells, members = rule[0], [rule]
        kept = []
        for group in groups:
            if group[0] & cells:
                cells |= group[0]
                members.extend(group[1])
            else:
                kept.append(group)
        kept.append((cells, members))
        groups = kept
    return [(cells, tuple(sorted(set(members)))) for cells, members in groups]
