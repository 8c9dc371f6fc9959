"""The player: which cell to click next, from exact probabilities.

A move is either every cell proved safe (revealed at once, never a risk) or, when there is
none, one guess. Certain cells come from cheap local rules first and, when those are stuck,
from the exact analysis (:func:`estimate`), which is complete: a guess is made only when no
covered cell is safe in every layout consistent with the numbers and the mine count.

A guess is chosen by named parts, each switchable (:class:`Strategy`) so that its gain can
be measured:

``endgame`` (:func:`endgame_guess`)
    with at most ``endgame_layouts`` layouts left, every layout is listed and the game tree
    searched exactly (:mod:`exactmines.endgame`): the click with the highest probability of
    winning the whole game. Before that, the same search runs on any isolated region (a
    component that touches no other unknown cell and whose mine number is fixed).
``fifty`` (:func:`forced_fifty_fifty`)
    a pair of cells of which exactly one is a mine and that no other cell can ever tell
    apart must be guessed sooner or later at 1/2: guess it now, before any avoidable risk.
``secondary`` (:func:`secondary_safety`, :func:`progress_chance`)
    among the near-safest cells, the one that maximises P(it is safe and the best next click
    is safe too) -- for each value it could show, the safety of the best cell after it,
    weighted by the exact probability of that value -- plus ``progress`` times the chance
    that it leaves a certainly safe cell.
``dead`` (:func:`value_chances`)
    a cell whose value can be only one thing when safe tells nothing: click it last.
``openings``
    when scores tie exactly, prefer the cell most likely to show 0 (it opens an area).
``risk`` (:mod:`exactmines.fifty_patterns`)
    long-term risk: a candidate that could otherwise end up in a 50/50 no click resolves
    (a pair or a 2x2 block walled by mines) is worth settling now; its score is multiplied
    by ``1 + risk_weight * influence / safe layouts``, the influence an exact count of the
    layouts in which such a pattern forms around it.

With every part off, the player clicks the safest cell (the first in row-major order among
equals): the baseline of the ablation table.

All decisions are made on Python ``int`` and :class:`~fractions.Fraction`; there is no
float anywhere in this module.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import lru_cache
from itertools import combinations
from math import comb
from typing import Any

from .backends import ComponentCounts, get_backend
from .combine import allowed_mine_numbers, poly_mul
from .endgame import Endgame, SearchBudgetExceeded
from .errors import InputError, TimeLimitExceeded
from .fifty_patterns import Risk
from .frontier import Component, Constraint
from .position import dilate, neighbour_masks
from .position import indices_of as _bits

__all__ = [
    "PARTS",
    "GUESS_KINDS",
    "TUNABLE",
    "Strategy",
    "STRATEGIES",
    "strategy_named",
    "View",
    "local_deductions",
    "Estimate",
    "After",
    "estimate",
    "value_chances",
    "secondary_safety",
    "progress_chance",
    "forced_fifty_fifty",
    "list_layouts",
    "endgame_guess",
    "choose_guess",
    "dominating_cell",
    "Player",
]

#: The switchable parts of the guessing strategy, in the order the ablation table lists them.
PARTS = ("secondary", "dead", "fifty", "openings", "endgame", "risk")

#: How a guess was chosen, for the risk accounting of :class:`Player`: by the exact endgame
#: search, as a forced 50/50, or by the scores, next to a number (``frontier``) or not.
GUESS_KINDS = ("frontier", "off_frontier", "fifty", "endgame")

#: The strategy's numeric parameters, which :meth:`Strategy.tuned` may set: each one's type
#: (fraction or whole number) and largest value (none: unbounded; all are at least 0).
TUNABLE: dict[str, tuple[type, int | None]] = {
    "candidate_ratio": (Fraction, 1),  # a share of the best safety
    "progress": (Fraction, None), "risk_weight": (Fraction, None),
    "endgame_layouts": (int, None), "endgame_nodes": (int, None)}


@dataclass(frozen=True, slots=True)
class Strategy:
    """Which parts of the guessing strategy are on, and their exact parameters.

    Attributes
    ----------
    name:
        For reports and results files.
    secondary, dead, fifty, openings, endgame, risk:
        The parts (see the module notes).
    candidate_ratio:
        Cells whose safety is at least this fraction of the best safety are scored by the
        secondary safety; the others are never chosen (JSMinesweeper's cutoff too). 4/5
        instead, paired on the same 20,000 expert SFAR boards (seed 11): -0.10 points (+-
        0.15, 95 %; 234 boards differ), 2 ms more per game; 19/20: -0.21 and -0.19 (+- 0.25,
        0.26; seeds 11 and 12, 627 and 690 boards differ).
    endgame_layouts:
        Search the game tree when at most this many layouts are left. The search is an
        exact optimum, so a larger limit can only win more often; it costs time. Paired on
        the same 20,000 expert SFAR boards (seed 11) against 1000 (JSMinesweeper's limit):
        2000 +0.05 points (+- 0.05, 95 %) for 9 ms more per game, 4000 +0.10 (+- 0.07) for
        33 ms more (a search past its node budget costs about 2.5 s), 3000 +0.04 and +0.00
        (+- 0.04, seeds 11 and 12) for 6-8 ms more; on 9x9/10 (100,000 boards) even 20,000
        layouts changed nothing. Since the search splits independent regions, 4000 costs
        16 ms more (39.8 against 23.7 ms per game) for +0.05 (+- 0.05) against 2000 (seed
        11): a search of 3000-4000 layouts still takes 1-3 s. Elsewhere the limit matters
        less: 4000 on expert SNR +0.02 (+- 0.06; 34 boards of 20,000 differ, seed 2026)
        for 22 ms more per game (48.4 against 26.7), 8000 on 16x16/40 +0.01 (+- 0.02; 5
        boards differ). 2000 is the default.
    endgame_nodes:
        Positions the endgame search may visit before it gives up (then the other parts
        decide). A count, not a time: the player stays deterministic.
    progress:
        Weight, in the secondary part's score, of the chance that the click leaves a
        certainly safe cell (*progress*): a revealed 0 opens an area and a number often
        settles its neighbours, which one click of look-ahead values at most as a safe next
        click. With it the first guess after a corner that shows a number goes to a far
        corner (likely to open an area) instead of next to the number. Paired on the same
        20,000 expert SFAR boards (seed 11) against 1/10: 0 +0.15, 1/40 +0.11, 1/5 -0.16
        points (95 % half-widths 0.55, 0.54, 0.17); seed 12 (with ``risk``): 0 -0.04
        (+- 0.29); seeds 13 and 14: 0 -0.03 and -0.03 (+- 0.56; a sixth of the boards play
        differently from the first guess on). No weight measurably better; 1/10 is kept.
    risk_weight:
        The ``risk`` part's multiplier per unit of influence (JSMinesweeper's 0.9). Paired
        on the same 20,000 expert SFAR boards (seed 11) against 9/10: 1/2 -0.10, 3/2 +0.07,
        2 -0.02, 3 -0.20 points (95 % half-widths 0.15, 0.19, 0.23, 0.28): none measurably
        better.
    """

    name: str = "best"
    secondary: bool = True
    dead: bool = True
    fifty: bool = True
    openings: bool = True
    endgame: bool = True
    candidate_ratio: Fraction = Fraction(9, 10)
    endgame_layouts: int = 2000
    endgame_nodes: int = 200_000
    progress: Fraction = Fraction(1, 10)
    risk: bool = True
    risk_weight: Fraction = Fraction(9, 10)

    def without(self, *parts: str) -> Strategy:
        """This strategy with ``parts`` switched off (named after them)."""
        for part in parts:
            if part not in PARTS:
                raise InputError(f"unknown strategy part {part!r}: choose from "
                                 f"{', '.join(PARTS)}", source="--without")
        if not parts:
            return self
        off: dict[str, Any] = {p: False for p in parts}
        return replace(self, name=f"{self.name}-without-{'-'.join(parts)}", **off)

    def tuned(self, *assignments: str) -> Strategy:
        """This strategy with parameters set by ``"name=value"`` assignments (a name of
        :data:`TUNABLE`; a fraction such as ``9/10`` or a whole number), named after them:
        how a parameter's effect is measured, on the same boards as the default.

        Examples
        --------
        >>> Strategy().tuned("risk_weight=3/2", "endgame_layouts=4000").name
        'best-risk_weight=3/2-endgame_layouts=4000'
        """
        values: dict[str, Any] = {}
        for assignment in assignments:
            name, sep, text = (part.strip() for part in assignment.partition("="))
            if not sep or name not in TUNABLE:
                raise InputError(f"cannot set {assignment!r}: write NAME=VALUE with NAME one "
                                 f"of {', '.join(TUNABLE)}", source="--set")
            kind, most = TUNABLE[name]
            try:
                value = kind(text)
            except (ValueError, ZeroDivisionError):
                raise InputError(f"cannot set {assignment!r}: {text!r} is not "
                                 f"{'a fraction' if kind is Fraction else 'a whole number'}",
                                 source="--set") from None
            if value < 0 or (most is not None and value > most):
                raise InputError(f"cannot set {assignment!r}: it must be at least 0"
                                 + ("" if most is None else f" and at most {most}"),
                                 source="--set")
            values[name] = value
        if not values:
            return self
        label = "-".join(f"{k}={v}" for k, v in values.items())
        return replace(self, name=f"{self.name}-{label}", **values)


#: Named strategies: ``best`` (every part) and ``safest`` (the safest cell, nothing else).
STRATEGIES: dict[str, Strategy] = {
    "best": Strategy(),
    "safest": Strategy(name="safest", secondary=False, dead=False, fifty=False,
                       openings=False, endgame=False, risk=False),
}


def strategy_named(name: str, without: tuple[str, ...] | list[str] = (),
                   tuning: tuple[str, ...] | list[str] = ()) -> Strategy:
    """The strategy called ``name`` with the parts in ``without`` switched off and the
    parameters set by ``tuning`` (:meth:`Strategy.tuned`)."""
    if name not in STRATEGIES:
        raise InputError(f"unknown strategy {name!r}: choose one of {', '.join(STRATEGIES)}",
                         source="--strategy")
    return STRATEGIES[name].without(*without).tuned(*tuning)


# -- what the player knows -------------------------------------------------------------


class View:
    """What the player knows, as bitmasks over flat indices ``r * width + c``.

    Attributes
    ----------
    revealed:
        Revealed cells; ``numbers[i]`` is what cell ``i`` shows (meaningless elsewhere).
    mines:
        Cells proved to be mines (the player's flags).
    total:
        Mines on the board.
    dirty, pair_dirty:
        Revealed cells near a change since the single-clue / the pair rules last looked at
        them: only those can yield a new local deduction.
    """

    __slots__ = ("width", "height", "total", "masks", "everything", "numbers", "revealed",
                 "mines", "dirty", "pair_dirty", "pairs")

    def __init__(self, width: int, height: int, total: int) -> None:
        self.width, self.height, self.total = width, height, total
        self.masks = neighbour_masks(width, height)
        self.pairs = _pair_masks(width, height)
        self.everything = (1 << (width * height)) - 1
        self.numbers = [0] * (width * height)
        self.revealed = 0
        self.mines = 0
        self.dirty = 0
        self.pair_dirty = 0

    @property
    def unknown(self) -> int:
        """Covered cells not proved to be mines."""
        return self.everything & ~(self.revealed | self.mines)

    @property
    def mines_left(self) -> int:
        return self.total - self.mines.bit_count()

    def show(self, shown: list[tuple[int, int]]) -> None:
        """Cells newly revealed, as ``(index, number)``."""
        changed = 0
        for index, number in shown:
            self.numbers[index] = number
            changed |= 1 << index
        self.revealed |= changed
        self._touch(changed)

    def mark_mines(self, mask: int) -> None:
        """Cells proved to be mines."""
        mask &= ~self.mines
        if mask:
            self.mines |= mask
            self._touch(mask)

    def _touch(self, changed: int) -> None:
        near = dilate(changed, self.width, self.height) & self.revealed
        self.dirty |= near
        self.pair_dirty |= near


@lru_cache(maxsize=64)
def _pair_masks(width: int, height: int) -> tuple[int, ...]:
    """Per cell, the cells within two steps (their neighbourhoods can overlap)."""
    out = []
    for r in range(height):
        for c in range(width):
            mask = 0
            for rr in range(max(r - 2, 0), min(r + 3, height)):
                for cc in range(max(c - 2, 0), min(c + 3, width)):
                    if (rr, cc) != (r, c):
                        mask |= 1 << (rr * width + cc)
            out.append(mask)
    return tuple(out)


def local_deductions(view: View) -> tuple[int, int]:
    """Cells proved safe and proved mines by one clue, else by two overlapping clues.

    Only clues near a change since the last call are examined (``view.dirty``), so a call
    costs a few bitmask operations per such clue. Sound but incomplete: :func:`estimate`
    finds the rest.
    """
    unknown = view.unknown
    active = view.revealed & dilate(unknown, view.width, view.height)
    masks, numbers, known = view.masks, view.numbers, view.mines
    safe = mines = 0
    dirty = view.dirty & active
    view.dirty = 0
    while dirty:
        low = dirty & -dirty
        dirty ^= low
        i = low.bit_length() - 1
        around = masks[i]
        free = around & unknown
        need = numbers[i] - (around & known).bit_count()
        if need == 0:
            safe |= free
        elif need == free.bit_count():
            mines |= free
    if safe or mines:
        return safe, mines
    # Two clues: mines(only j) - mines(only i) = need_j - need_i; at an extreme the larger
    # side is full and the other empty.
    clue: dict[int, tuple[int, int, int]] = {}

    def facts(i: int) -> tuple[int, int, int]:
        found = clue.get(i)
        if found is None:
            around = masks[i]
            free = around & unknown
            found = (free, numbers[i] - (around & known).bit_count(), free.bit_count())
            clue[i] = found
        return found

    dirty = view.pair_dirty & active
    view.pair_dirty = 0
    done = 0
    while dirty:
        low = dirty & -dirty
        dirty ^= low
        done |= low
        i = low.bit_length() - 1
        free_i, need_i, size_i = facts(i)
        others = view.pairs[i] & active & ~done
        while others:
            low = others & -others
            others ^= low
            free_j, need_j, size_j = facts(low.bit_length() - 1)
            shared = (free_i & free_j).bit_count()
            if not shared:
                continue
            diff = need_j - need_i
            if diff == size_j - shared:
                mines |= free_j & ~free_i
                safe |= free_i & ~free_j
            elif -diff == size_i - shared:
                mines |= free_i & ~free_j
                safe |= free_j & ~free_i
    return safe, mines


# -- exact analysis on bitmasks ----------------------------------------------------------

Rule = tuple[int, int]  # (covered cells as a bitmask, mines among them)


def _rules(view: View) -> list[Rule]:
    """One rule per revealed number that still touches an unknown cell."""
    unknown = view.unknown
    masks, numbers, known = view.masks, view.numbers, view.mines
    out = []
    for i in _bits(view.revealed & dilate(unknown, view.width, view.height)):
        around = masks[i]
        out.append((around & unknown, numbers[i] - (around & known).bit_count()))
    return out


def _group(rules: list[Rule]) -> list[tuple[int, tuple[Rule, ...]]]:
    """Rules linked by shared cells, as ``(cells, sorted rules)`` (duplicates dropped)."""
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


class _TooBig(Exception):
    """The built-in enumeration went past its node budget."""


#: Search nodes the built-in box enumeration may take before the DP counter takes over
#: (it is faster on the small components of ordinary play, where the DP's planning costs
#: more than the count).
_SMALL_NODES = 3000


#: One solution of a component's rules over its boxes: ``(mines, mines per box, cell
#: layouts it stands for)``, the last the product of ``C(size, mines)`` over the boxes.
Solution = tuple[int, tuple[int, ...], int]


@dataclass(frozen=True, slots=True)
class _Part:
    """Counted cells of the frontier: their boxes (cells under the same rules) and exact
    counts. Usually one component; the pieces a hypothetical reveal rebuilds may be several
    (counts of a union of independent pieces are their product, which is all the
    combination needs). The parts :func:`_probed` and :func:`_revealed` make count only the
    layouts with a given number of mines in the probe, which ``rule_boxes`` and ``needs`` do
    not say (:func:`_revealed` leaves them empty): they are combined, never listed.
    ``solutions`` lists the box solutions when the box search counted the part (``None``
    when the DP engine did); ``profile`` is :func:`_profile` of a component (``None`` for
    the parts of a reveal)."""

    box_masks: tuple[int, ...]
    sizes: tuple[int, ...]
    rule_boxes: tuple[tuple[int, ...], ...]
    needs: tuple[int, ...]
    counts: ComponentCounts
    solutions: tuple[Solution, ...] | None = None
    profile: _Profile | None = None


def _boxes(rules: tuple[Rule, ...], probe: int = 0
           ) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """Cells under the same rules (and, with ``probe``, on the same side of it) form a box:
    ``(box masks, boxes of each rule, boxes inside the probe)``, boxes row-major."""
    probe_bit = 1 << len(rules)
    under: dict[int, int] = {}
    for j, (free, _) in enumerate(rules):
        for i in _bits(free):
            under[i] = under.get(i, 0) | (1 << j)
    for i in _bits(probe):
        under[i] = under.get(i, 0) | probe_bit
    boxes: dict[int, int] = {}
    for i in sorted(under):
        boxes[under[i]] = boxes.get(under[i], 0) | (1 << i)
    keys = list(boxes)
    rule_boxes = tuple(tuple(b for b, key in enumerate(keys) if (key >> j) & 1)
                       for j in range(len(rules)))
    inside = tuple(b for b, key in enumerate(keys) if key & probe_bit)
    return tuple(boxes[k] for k in keys), rule_boxes, inside


def _counted_large(sizes: tuple[int, ...], rule_boxes: tuple[tuple[int, ...], ...],
                   needs: tuple[int, ...]) -> ComponentCounts:
    """Exact counts by the DP engine (by an unbounded box search when it is too wide)."""
    component = Component(sizes, tuple(Constraint(b, n)
                                       for b, n in zip(rule_boxes, needs, strict=True)))
    try:
        return get_backend("auto").count(component)
    except TimeLimitExceeded:
        # Too wide for the DP: count by search after all, with no budget.
        return _count_boxes(sizes, rule_boxes, needs, None)


def _part(rules: tuple[Rule, ...]) -> _Part:
    """Boxes and exact counts of one component (no cache: see :class:`Cache`), with its box
    solutions when the box search finds them within its budget."""
    box_masks, rule_boxes, _ = _boxes(rules)
    sizes = tuple(m.bit_count() for m in box_masks)
    needs = tuple(need for _, need in rules)
    solutions: list[Solution] | None = []
    try:
        counts = _count_boxes(sizes, rule_boxes, needs, _SMALL_NODES, solutions)
    except _TooBig:
        counts, solutions = _counted_large(sizes, rule_boxes, needs), None
    return _Part(box_masks, sizes, rule_boxes, needs, counts,
                 None if solutions is None else tuple(solutions), _profile(sizes, counts))


#: ``(lowest, support)`` of :func:`_profile`.
_Profile = tuple[tuple[int, ...], tuple[int, ...]]


def _profile(sizes: tuple[int, ...], counts: ComponentCounts) -> _Profile:
    """``(lowest, support)``: the boxes that can hold a component's least mine probability
    however its mine numbers are weighted, and per box the mine numbers ``k`` at which it
    holds a mine in some layout (bit ``k`` of a mask).

    A box whose mines per cell are at least another's at every mine number has, under any
    non-negative weights of the mine numbers, a probability at least that box's, so only
    the boxes nothing undercuts everywhere (one per equal profile) are ``lowest``. Boxes are
    swept by their mines per cell summed over the mine numbers (a box's dominators come
    first), each compared with the few kept before it. Cost: boxes x mine numbers x kept.
    """
    box_mines = counts.box_mines
    columns = [[row[b] for row in box_mines] for b in range(len(sizes))]
    support = tuple(sum(1 << k for k, m in enumerate(column) if m) for column in columns)
    order = sorted(range(len(sizes)), key=lambda b: (Fraction(sum(columns[b]), sizes[b]), b))
    lowest: list[int] = []
    for b in order:
        column, size = columns[b], sizes[b]
        if not any(all(x * size <= y * sizes[p] for x, y in zip(columns[p], column, strict=True))
                   for p in lowest):
            lowest.append(b)
    return tuple(sorted(lowest)), support


def _probed(rules: tuple[Rule, ...], probe: int) -> dict[int, _Part]:
    """Counts of the cells of ``rules`` and ``probe`` by the number of mines in ``probe``:
    ``{m: part}``, leaving out the ``m`` no layout has.

    One search serves every ``m`` (the probe is tallied at the leaves, not imposed); when
    that search is too big, the DP engine counts once per ``m`` with the probe as a rule.
    """
    box_masks, rule_boxes, inside = _boxes(rules, probe)
    sizes = tuple(m.bit_count() for m in box_masks)
    needs = tuple(need for _, need in rules)
    n = len(sizes)
    layouts: dict[int, dict[int, int]] = {}
    mines: dict[int, dict[int, list[int]]] = {}

    def leaf(chosen: list[int], weight: int, k: int) -> None:
        m = 0
        for b in inside:
            m += chosen[b]
        by_k = layouts.setdefault(m, {})
        by_k[k] = by_k.get(k, 0) + weight
        rows = mines.setdefault(m, {})
        row = rows.get(k)
        if row is None:
            row = rows[k] = [0] * n
        for box, j in enumerate(chosen):
            if j:
                row[box] += weight * j

    out: dict[int, _Part] = {}
    try:
        _box_search(sizes, rule_boxes, needs, _SMALL_NODES, leaf)
    except _TooBig:
        # Straight to the DP: a bounded search per m, on the same boxes, mostly fails too.
        for m in range(probe.bit_count() + 1):
            counts = _counted_large(sizes, (*rule_boxes, inside), (*needs, m))
            if counts.total:
                out[m] = _Part(box_masks, sizes, rule_boxes, needs, counts)
        return out
    for m in sorted(layouts):
        by_k, rows = layouts[m], mines[m]
        top = max(by_k)
        counts = ComponentCounts(tuple(by_k.get(k, 0) for k in range(top + 1)),
                                 tuple(tuple(rows.get(k, [0] * n)) for k in range(top + 1)))
        out[m] = _Part(box_masks, sizes, rule_boxes, needs, counts)
    return out


#: Layouts and mines per box of some boxes, at one ``(mines in the probe, mines)``.
_Table = dict[tuple[int, int], tuple[int, list[int]]]


class _Reveal:
    """Counts of a hypothetical reveal by the number ``m`` of mines in the probe: each
    value's layouts by mine number at once (``polys``, :func:`_poly` of each part, only the
    ``m`` some layout has, increasing), its part (with the mines per box) only when asked
    (:meth:`part`): most values of most candidates are never combined (a candidate is
    dropped once it cannot win).

    Built from a table over the merged components' boxes, ``rows[j]`` = ``(k, layouts,
    mines per box)`` with ``j`` mines in the probe, and ``fresh`` cells (in the probe, in no
    component): one more box, of which ``q`` cells hold mines in ``C(f, q)`` ways, so value
    ``m`` gathers the rows ``j = m - q`` shifted by ``q`` mines.
    """

    __slots__ = ("polys", "_rows", "_masks", "_sizes", "_fresh", "_parts")

    def __init__(self, masks: tuple[int, ...], sizes: tuple[int, ...],
                 rows: dict[int, list[tuple[int, int, list[int]]]], fresh: int) -> None:
        self._rows, self._fresh = rows, fresh
        f = fresh.bit_count()
        self._masks = masks + (fresh,) if f else masks
        self._sizes = sizes + (f,) if f else sizes
        self._parts: dict[int, _Part] = {}
        self.polys: dict[int, list[int]] = {}
        ways = [comb(f, q) for q in range(f + 1)]
        for m in range(max(rows, default=-1) + f + 1):
            poly: list[int] = []
            for q, w in enumerate(ways):
                for k, count, _ in rows.get(m - q, ()):
                    if k + q >= len(poly):
                        poly.extend([0] * (k + q + 1 - len(poly)))
                    poly[k + q] += count * w
            if poly:
                self.polys[m] = poly

    @classmethod
    def of_parts(cls, parts: dict[int, _Part]) -> _Reveal:
        """The reveal of parts already made (by :func:`_probed`)."""
        reveal = cls((), (), {}, 0)
        reveal.polys = {m: _poly(part) for m, part in sorted(parts.items())}
        reveal._parts = parts
        return reveal

    def part(self, m: int) -> _Part:
        found = self._parts.get(m)
        if found is None:
            found = self._parts[m] = self._make(m)
        return found

    def _make(self, m: int) -> _Part:
        f = self._fresh.bit_count()
        n = len(self._sizes)
        layouts = self.polys[m]
        box_mines: list[list[int] | None] = [None] * len(layouts)
        for q in range(f + 1):
            w = comb(f, q)
            for k, count, vec in self._rows.get(m - q, ()):
                row = box_mines[k + q]
                if row is None:
                    row = box_mines[k + q] = [0] * n
                for t, x in enumerate(vec):
                    row[t] += x * w
                if f:
                    row[n - 1] += q * count * w
        zero = (0,) * n
        return _Part(self._masks, self._sizes, (), (), ComponentCounts(
            tuple(layouts), tuple(tuple(row) if row else zero for row in box_mines)))


def _revealed(parts: list[_Part], index: int, probe: int, fresh: int) -> _Reveal:
    """What :func:`_probed` computes for revealing cell ``index``, from the listed solutions
    of the components it merges (``parts``, none with ``solutions`` missing): by the number
    ``m`` of mines in ``probe``, the counts over the cells of ``parts`` but ``index`` and the
    ``fresh`` cells (of ``probe``, in no component), as a :class:`_Reveal`.

    No new search: revealing the cell only makes it safe and cuts each box it touches into
    the cells inside the probe and the others, and the ways a solution's mines of a box
    spread over its two pieces are binomial products (a hypergeometric split). So each
    part's solutions, found once when the part was counted, are weighted anew, grouped by
    their mines and those of the cut boxes; the pieces (with the fresh cells, one box) are
    independent apart from the shared tallies, and multiply. Cost: one pass over the
    solutions of the merged parts, plus a product of small tables.
    """
    tables = [_split_solutions(part, index, probe) for part in parts]
    if not tables:  # no component: the fresh cells alone (if any)
        tables.append(((), (), {(0, 0): (1, [])}))
    masks, sizes, table = tables[0]
    for more_masks, more_sizes, more in tables[1:]:
        product: dict[tuple[int, int], tuple[int, list[int]]] = {}
        for (j1, k1), (c1, v1) in table.items():
            for (j2, k2), (c2, v2) in more.items():
                key = (j1 + j2, k1 + k2)
                vec = [x * c2 for x in v1] + [c1 * y for y in v2]
                found = product.get(key)
                if found is not None:
                    vec = [x + y for x, y in zip(found[1], vec, strict=True)]
                    product[key] = (found[0] + c1 * c2, vec)
                else:
                    product[key] = (c1 * c2, vec)
        masks, sizes, table = masks + more_masks, sizes + more_sizes, product
    rows: dict[int, list[tuple[int, int, list[int]]]] = {}
    for (j, k), (count, vec) in sorted(table.items()):
        if count:
            rows.setdefault(j, []).append((k, count, vec))
    return _Reveal(masks, sizes, rows, fresh)


def _split_solutions(part: _Part, index: int, probe: int
                     ) -> tuple[tuple[int, ...], tuple[int, ...], _Table]:
    """One part's table for :func:`_revealed`: ``(box masks, sizes, {(j, k): (layouts,
    mines per box)})``, ``j`` the mines in ``probe``, ``k`` all its mines, over its boxes
    with cell ``index`` removed and each box touching ``probe`` cut in two."""
    assert part.solutions is not None
    cut = probe | (1 << index)
    kept: list[int] = []
    split: list[tuple[int, int, int]] = []  # (box, cells inside the probe, cells outside)
    masks: list[int] = []
    for b, mask in enumerate(part.box_masks):
        if mask & cut:
            split.append((b, (mask & probe).bit_count(), (mask & ~cut).bit_count()))
        else:
            kept.append(b)
            masks.append(mask)
    for b, inside, outside in split:
        mask = part.box_masks[b]
        if inside:
            masks.append(mask & probe)
        if outside:
            masks.append(mask & ~cut)
    sizes = tuple(m.bit_count() for m in masks)
    # Solutions with the same mines and the same mines in every cut box share the split;
    # sum their weights without the cut boxes' binomials, and their mines per kept box.
    part_sizes = part.sizes
    grouped: dict[tuple[int, tuple[int, ...]], list] = {}
    for k, chosen, weight in part.solutions:
        cut_mines = tuple(chosen[b] for b, _, _ in split)
        for (b, _, _), m in zip(split, cut_mines, strict=True):
            weight //= comb(part_sizes[b], m)
        key = (k, cut_mines)
        found = grouped.get(key)
        if found is None:
            found = grouped[key] = [0, [0] * len(kept)]
        found[0] += weight
        row = found[1]
        for t, b in enumerate(kept):
            m = chosen[b]
            if m:
                row[t] += m * weight
    table: _Table = {}
    shape = tuple((inside, outside) for _, inside, outside in split)
    for (k, cut_mines), (weight, row) in grouped.items():
        ways, inside_mines = _spread(shape, cut_mines)
        for j, w in enumerate(ways):
            if not w:
                continue
            vec = [x * w for x in row]
            for (_, inside, outside), m, ins in zip(split, cut_mines, inside_mines,
                                                    strict=True):
                if inside:
                    vec.append(weight * ins[j])
                if outside:
                    vec.append(weight * (m * w - ins[j]))
            count = weight * w
            found_entry = table.get((j, k))
            if found_entry is not None:
                count += found_entry[0]
                vec = [x + y for x, y in zip(found_entry[1], vec, strict=True)]
            table[(j, k)] = (count, vec)
    return tuple(masks), sizes, table


@lru_cache(maxsize=8192)
def _spread(shape: tuple[tuple[int, int], ...], cut_mines: tuple[int, ...]
            ) -> tuple[list[int], list[list[int]]]:
    """Ways the mines of the cut boxes (``(cells inside the probe, outside)`` each, holding
    ``cut_mines``) spread over their two pieces, by the mines ``j`` inside the probe:
    ``(ways[j], per cut box the mines in its inside piece summed over those ways)``. Cached:
    the same few shapes recur all game (the lists are never modified)."""
    pieces = []
    for (inside, outside), m in zip(shape, cut_mines, strict=True):
        pieces.append([comb(inside, t) * comb(outside, m - t) if m - t <= outside else 0
                       for t in range(min(inside, m) + 1)])
    ways = [1]
    for piece in pieces:
        ways = poly_mul(ways, piece)
    inside_mines = []
    for c, piece in enumerate(pieces):
        others = [1]
        for d, other in enumerate(pieces):
            if d != c:
                others = poly_mul(others, other)
        tallied = poly_mul(others, [t * w for t, w in enumerate(piece)])
        inside_mines.append(tallied + [0] * (len(ways) - len(tallied)))
    return ways, inside_mines


def _box_search(sizes: tuple[int, ...], rule_boxes: tuple[tuple[int, ...], ...],
                needs: tuple[int, ...], limit: int | None,
                leaf: Callable[[list[int], int, int], None]) -> None:
    """Every mine number per box that satisfies the rules: ``leaf(chosen, weight, k)`` for
    each, with ``chosen[b]`` the mines of box ``b``, ``weight`` the cell layouts it stands
    for (a product of binomials) and ``k`` its mines.

    Depth-first over the boxes (row-major by first cell). A box's mine number is bounded by
    each of its rules: at most what the rule still needs, at least what the rule's cells
    after this box cannot hold; a rule's last box therefore meets it exactly, and every
    leaf satisfies every rule. Cost: the search nodes, at most ``limit`` (then
    :class:`_TooBig`).
    """
    n = len(sizes)
    rules_of: list[list[int]] = [[] for _ in range(n)]
    for j, boxes in enumerate(rule_boxes):
        for b in boxes:
            rules_of[b].append(j)
    need = list(needs)
    room = [sum(sizes[b] for b in boxes) for boxes in rule_boxes]
    if any(x < 0 or x > r for x, r in zip(need, room, strict=True)):
        return
    binomials = [[comb(s, m) for m in range(s + 1)] for s in sizes]
    chosen = [0] * n
    nodes = 0

    def visit(b: int, weight: int, k: int) -> None:
        nonlocal nodes
        nodes += 1
        if limit is not None and nodes > limit:
            raise _TooBig
        if b == n:
            leaf(chosen, weight, k)
            return
        size = sizes[b]
        low, high = 0, size
        mine_rules = rules_of[b]
        for j in mine_rules:
            if need[j] < high:
                high = need[j]
            left = room[j] - size
            if need[j] - left > low:
                low = need[j] - left
        if low > high:
            return
        for j in mine_rules:
            room[j] -= size
        row_weights = binomials[b]
        for m in range(low, high + 1):
            for j in mine_rules:
                need[j] -= m
            chosen[b] = m
            visit(b + 1, weight * row_weights[m], k + m)
            for j in mine_rules:
                need[j] += m
        chosen[b] = 0
        for j in mine_rules:
            room[j] += size

    visit(0, 1, 0)


def _count_boxes(sizes: tuple[int, ...], rule_boxes: tuple[tuple[int, ...], ...],
                 needs: tuple[int, ...], limit: int | None,
                 solutions: list[Solution] | None = None) -> ComponentCounts:
    """Exact counts of a component by :func:`_box_search` (at most ``limit`` nodes); each
    box solution is appended to ``solutions`` when given."""
    n = len(sizes)
    layouts: dict[int, int] = {}
    mines: dict[int, list[int]] = {}

    def leaf(chosen: list[int], weight: int, k: int) -> None:
        if solutions is not None:
            solutions.append((k, tuple(chosen), weight))
        layouts[k] = layouts.get(k, 0) + weight
        row = mines.get(k)
        if row is None:
            row = mines[k] = [0] * n
        for box, m in enumerate(chosen):
            if m:
                row[box] += weight * m

    _box_search(sizes, rule_boxes, needs, limit, leaf)
    top = max(layouts, default=0)
    return ComponentCounts(tuple(layouts.get(k, 0) for k in range(top + 1)),
                           tuple(tuple(mines.get(k, [0] * n)) for k in range(top + 1)))


class Cache:
    """Components already counted, keyed by their rules: a game revisits most of them (a
    guess changes one component, and the hypothetical reveals of the guessing parts recur
    from one guess to the next). Cleared when it grows past ``limit`` entries."""

    def __init__(self, limit: int = 20_000) -> None:
        self.parts: dict[tuple[Rule, ...], _Part] = {}
        self.probes: dict[tuple[tuple[Rule, ...], int], dict[int, _Part]] = {}
        self.reveals: dict[tuple[tuple[tuple[Rule, ...], ...], int, int], _Reveal] = {}
        self.limit = limit

    def part(self, rules: tuple[Rule, ...]) -> _Part:
        found = self.parts.get(rules)
        if found is None:
            if len(self.parts) >= self.limit:
                self.parts.clear()
            found = self.parts[rules] = _part(rules)
        return found

    def probed(self, rules: tuple[Rule, ...], probe: int) -> dict[int, _Part]:
        key = (rules, probe)
        found = self.probes.get(key)
        if found is None:
            if len(self.probes) >= self.limit:
                self.probes.clear()
            found = self.probes[key] = _probed(rules, probe)
        return found

    def revealed(self, groups: tuple[tuple[Rule, ...], ...], parts: list[_Part], index: int,
                 probe: int, fresh: int) -> _Reveal:
        """:func:`_revealed`, keyed by the merged components' rules (which fix ``parts``)."""
        key = (groups, index, probe)
        found = self.reveals.get(key)
        if found is None:
            if len(self.reveals) >= self.limit:
                self.reveals.clear()
            found = self.reveals[key] = _revealed(parts, index, probe, fresh)
        return found


@lru_cache(maxsize=8192)
def _tail_binomials(outside: int, left: int, top: int) -> tuple[int, ...]:
    """``C(outside, left - s)`` for ``s = 0..top`` (0 where ``left - s`` is not in
    ``0..outside``): the ways to put the other mines off the frontier when it holds ``s``."""
    return tuple(comb(outside, left - s) if 0 <= left - s <= outside else 0
                 for s in range(top + 1))


def _correlate(poly: list[int], weights: Sequence[int], length: int) -> list[int]:
    """``out[k] = sum_j poly[j] * weights[k + j]`` for ``k < length`` (one product)."""
    d = len(poly) - 1
    out = poly_mul(poly[::-1], weights)[d:d + length]
    return out + [0] * (length - len(out))


@dataclass(frozen=True, slots=True)
class _Weighed:
    """Exact results of combining parts under the count, as integers.

    ``layouts``: all layouts. ``numerators[c][b]``: mines in box ``b`` of part ``c`` summed
    over all layouts (the probability of one of its cells is that over ``size * layouts``).
    ``hits``: layouts with a mine on one given outside cell.
    """

    layouts: int
    numerators: list[list[int]]
    hits: int


def _poly(part: _Part) -> list[int]:
    """A part's layouts by mine number, without trailing zeros."""
    layouts = list(part.counts.layouts)
    while len(layouts) > 1 and not layouts[-1]:
        layouts.pop()
    return layouts


def _numerators(part: _Part, weights: Sequence[int]) -> list[int]:
    """Mines in each box of ``part`` summed over all layouts, given the weight of each of its
    mine numbers (the ways to complete the layout elsewhere)."""
    box_mines = part.counts.box_mines
    nums = [0] * len(part.sizes)
    for k, wk in enumerate(weights):
        if wk and k < len(box_mines):
            for b, m in enumerate(box_mines[k]):
                if m:
                    nums[b] += m * wk
    return nums


class _Kept:
    """A fixed list of parts, ready to be combined under the count with one more part, many
    times (once per value of each candidate cell).

    The formula of :func:`exactmines.combine.combine` (see its module notes): a part with
    ``k`` mines weighs ``W[k] = sum_j O[j] C(U, L - k - j)``, ``O`` the product of the other
    parts' polynomials. Here the products of the kept parts without each one (prefix times
    suffix) are made once (:meth:`weigh` combines them alone), and what they contribute to a
    combination with an extra part once per number ``U`` of outside cells (:class:`_Tails`),
    so each extra part costs a few dot products (:meth:`after`). Only the binomials the
    frontier can reach are computed, cached per ``(U, L)``.
    """

    def __init__(self, parts: list[_Part]) -> None:
        self.parts = parts
        self.polys = [_poly(p) for p in parts]
        n = len(parts)
        prefix = [[1]]
        for poly in self.polys:
            prefix.append(poly_mul(prefix[-1], poly))
        self.total = prefix[n]
        self.others: list[list[int]] = [[] for _ in range(n)]
        suffix = [1]
        for c in range(n - 1, -1, -1):
            self.others[c] = poly_mul(prefix[c], suffix)
            suffix = poly_mul(self.polys[c], suffix)
        self.profiles = [p.profile or _profile(p.sizes, p.counts) for p in parts]
        self.tails: dict[int, _Tails] = {}

    def tails_for(self, outside: int, mines_left: int, reach: int) -> _Tails:
        """The :class:`_Tails` for ``outside`` cells off the frontier, reaching at least
        ``reach`` mine numbers of an extra part (made once, not again for each longer
        polynomial when they reach far enough)."""
        tails = self.tails.get(outside)
        if tails is None or tails.reach < reach:
            tails = self.tails[outside] = _Tails(self, outside, mines_left, reach)
        return tails

    def after(self, extra: _Part, poly: list[int], layouts: int, outside: int,
              tails: _Tails) -> After:
        """The position left when ``extra`` (``poly``: :func:`_poly` of it, ``layouts``: its
        layouts with the kept parts, ``poly . tails.extra``, not 0) joins the kept parts,
        ``outside`` (a mask) the cells off the frontier: its layouts, least mine probability
        and, when that is 0, certainly safe cells.

        Everything the kept parts contribute is linear in the extra part's polynomial ``X``
        (:class:`_Tails`), so a value costs a few dot products with ``X``: for the layouts,
        for the extra part's boxes, the outside cells, and the kept parts' ``lowest`` boxes
        (:func:`_profile`) -- the other kept boxes cannot hold the least probability, and
        can be certainly safe only where the mine numbers they need get no weight.
        """
        # The tails run to ``reach`` >= len(poly): zip stops at the polynomial's end.
        hits = sum(x * h for x, h in zip(poly, tails.hits, strict=False)) if outside else 0
        # A cell's probability is numerator / (size * layouts): a / sa < b / sb compares as
        # a * sb < b * sa, in integers, and one Fraction is made at the end.
        best_num, best_size = (hits, 1) if outside else (None, 1)
        nums = _numerators(extra, tails.extra[:len(poly)])
        for num, cells in zip(nums, extra.sizes, strict=True):
            if best_num is None or num * best_size < best_num * cells:
                best_num, best_size = num, cells
        if best_num != 0:  # else the least is 0 whatever the kept parts hold
            for part, lowest in zip(self.parts, tails.lowest, strict=True):
                for b, by_mines in lowest:
                    num = sum(x * n for x, n in zip(poly, by_mines, strict=False))
                    cells = part.sizes[b]
                    if best_num is None or num * best_size < best_num * cells:
                        best_num, best_size = num, cells
        if best_num:
            return After(layouts, Fraction(best_num, best_size * layouts))
        safe = outside if outside and not hits else 0
        for box, num in zip(extra.box_masks, nums, strict=True):
            if not num:
                safe |= box
        # A kept box is safe when no mine number at which it holds a mine gets weight.
        given = 0
        for j, x in enumerate(poly):
            if x:
                given |= 1 << j
        for part, poly_c, (_, support), reach in zip(self.parts, self.polys, self.profiles,
                                                     tails.reached, strict=True):
            weighted = 0
            for j in _bits(given):
                weighted |= reach >> j
            weighted &= (1 << len(poly_c)) - 1
            for box, mines_at in zip(part.box_masks, support, strict=True):
                if not mines_at & weighted:
                    safe |= box
        return After(layouts, Fraction(0), safe)

    def weigh(self, outside: int, mines_left: int) -> _Weighed:
        """Combine the kept parts with ``outside`` cells off the frontier and ``mines_left``
        mines: integers only."""
        total = self.total
        weights = _tail_binomials(outside, mines_left, len(total) - 1)
        layouts = sum(t * w for t, w in zip(total, weights, strict=True))
        if layouts == 0:
            return _Weighed(0, [], 0)
        numerators = [_numerators(part, _correlate(others, weights, len(poly)))
                      for part, poly, others in zip(self.parts, self.polys, self.others,
                                                    strict=True)]
        hits = 0
        if outside:
            inner = _tail_binomials(outside - 1, mines_left - 1, len(total) - 1)
            hits = sum(t * w for t, w in zip(total, inner, strict=True))
        return _Weighed(layouts, numerators, hits)


class _Tails:
    """What the kept parts of a :class:`_Kept` contribute to a combination with one extra
    part of fewer than ``reach`` possible mine numbers, ``U`` cells off the frontier and
    ``L`` mines: each a vector over the extra part's mine number ``l``, to be dotted with its
    polynomial ``X``.

    With ``T[t] = C(U, L - t)`` and ``K`` the kept parts' product: the extra part with ``l``
    mines weighs ``extra[l] = sum_s K[s] T[s + l]`` (so the layouts are ``X . extra``), and
    ``hits[l]`` likewise with ``C(U - 1, L - 1 - t)`` (layouts with a mine on one outside
    cell). Kept part ``c`` with ``k`` mines weighs ``sum_l X[l] R_c[k + l]``, ``R_c[m] =
    sum_j O_c[j] T[m + j]`` (``O_c`` the other kept parts), so the mines of its box ``b``
    summed over all layouts are ``X . N_cb`` with ``N_cb[l] = sum_k mines_cb[k] R_c[k + l]``:
    made once, when first needed, for the ``lowest`` boxes. ``reached[c]``: the ``m`` with
    ``R_c[m] > 0`` (a mask). Cost: one correlation per kept part and per lowest box, once per
    ``U`` and ``_Kept``.
    """

    __slots__ = ("reach", "extra", "hits", "by_sum", "_lowest", "_reached", "_kept")

    def __init__(self, kept: _Kept, outside: int, mines_left: int, reach: int) -> None:
        self.reach = reach
        top = len(kept.total) + reach - 2
        tail = _tail_binomials(outside, mines_left, top)
        self.extra = _correlate(kept.total, tail, reach)
        self.hits = (_correlate(kept.total, _tail_binomials(outside - 1, mines_left - 1, top),
                                reach) if outside else [0] * reach)
        # R_c per kept part; the rest only when a value needs it (often the extra part
        # alone shows a certainly safe cell, and then the least is 0 whatever the others).
        self.by_sum = [_correlate(others, tail, len(poly) + reach - 1)
                       for poly, others in zip(kept.polys, kept.others, strict=True)]
        self._kept = kept
        self._lowest: list[list[tuple[int, list[int]]]] | None = None
        self._reached: list[int] | None = None

    @property
    def lowest(self) -> list[list[tuple[int, list[int]]]]:
        """Per kept part, ``(box, N_cb)`` for its lowest boxes."""
        if self._lowest is None:
            kept, reach = self._kept, self.reach
            self._lowest = []
            for part, poly, by_sum, (lowest, _) in zip(kept.parts, kept.polys, self.by_sum,
                                                       kept.profiles, strict=True):
                box_mines = part.counts.box_mines
                self._lowest.append([(b, _correlate([box_mines[k][b]
                                                     for k in range(len(poly))],
                                                    by_sum, reach)) for b in lowest])
        return self._lowest

    @property
    def reached(self) -> list[int]:
        """Per kept part, the ``m`` with ``R_c[m] > 0`` (a mask)."""
        if self._reached is None:
            self._reached = []
            for by_sum in self.by_sum:
                reached = 0
                for m, r in enumerate(by_sum):
                    if r:
                        reached |= 1 << m
                self._reached.append(reached)
        return self._reached


@dataclass(frozen=True)
class Estimate:
    """The exact analysis of a view.

    Attributes
    ----------
    layouts:
        Consistent layouts of the remaining mines over the unknown cells (0: inconsistent).
    unknown, outside:
        Unknown cells; those of them next to no number.
    groups, parts:
        The frontier's components: ``(cells, rules)`` and their counted boxes.
    boxes:
        ``(cells, probability)`` for every box of every component and, last, the outside
        cells (when there are any): each cell's exact mine probability.
    safe, mines:
        Unknown cells with probability 0 / 1.
    least:
        The smallest mine probability of any unknown cell.
    mines_left:
        Mines not yet proved.
    extra:
        What the guessing parts found out (the endgame's exact win probability).
    kept:
        Combination products of its components without those a hypothetical reveal merges
        (built on demand by :func:`value_chances`, keyed by the merged components).
    """

    layouts: int
    unknown: int
    outside: int
    groups: tuple[tuple[int, tuple[Rule, ...]], ...]
    parts: tuple[_Part, ...]
    boxes: tuple[tuple[int, Fraction], ...]
    safe: int
    mines: int
    least: Fraction
    mines_left: int
    extra: dict[str, object] = field(default_factory=dict, compare=False)
    kept: dict[tuple[int, ...], _Kept] = field(default_factory=dict, compare=False,
                                               repr=False)

    def probability(self, index: int) -> Fraction:
        bit = 1 << index
        for cells, p in self.boxes:
            if cells & bit:
                return p
        raise KeyError(f"cell {index} is not unknown")


def _counted(rules: list[Rule], unknown: int, left: int, cache: Cache
             ) -> tuple[tuple[tuple[int, tuple[Rule, ...]], ...], list[_Part], int, _Weighed]:
    """The rules' components, their counted parts, the ``unknown`` cells no rule touches
    and the combination of it all under ``left`` mines."""
    groups = tuple(_group(rules))
    parts = [cache.part(group) for _, group in groups]
    frontier = 0
    for cells, _ in groups:
        frontier |= cells
    outside = unknown & ~frontier
    return groups, parts, outside, _Kept(parts).weigh(outside.bit_count(), left)


def estimate(view: View, cache: Cache) -> Estimate:
    """Exact probabilities of every unknown cell of ``view`` (counts from ``cache``).

    Cost: grouping the rules (linear in the active clues times the components), counting
    the components not in the cache, and one combination (:class:`_Kept`).
    """
    unknown, left = view.unknown, view.mines_left
    groups, parts, outside, weighed = _counted(_rules(view), unknown, left, cache)
    layouts = weighed.layouts
    boxes: list[tuple[int, Fraction]] = []
    if layouts:
        for part, nums in zip(parts, weighed.numerators, strict=True):
            for mask, num, size in zip(part.box_masks, nums, part.sizes, strict=True):
                boxes.append((mask, Fraction(num, size * layouts)))
        if outside:
            boxes.append((outside, Fraction(weighed.hits, layouts)))
    safe = mines = 0
    for mask, p in boxes:
        if p == 0:
            safe |= mask
        elif p == 1:
            mines |= mask
    least = min((p for _, p in boxes), default=Fraction(0))
    return Estimate(layouts, unknown, outside, groups, tuple(parts), tuple(boxes), safe, mines,
                    least, left)


@dataclass(frozen=True, slots=True)
class After:
    """The position after a hypothetical reveal: its layouts (those of the position before
    in which the cell is safe and shows that value), its smallest mine probability and its
    certainly safe cells."""

    layouts: int
    least: Fraction
    safe: int = 0


def value_chances(view: View, base: Estimate, index: int, cache: Cache
                  ) -> list[tuple[int, After]]:
    """Each value unknown cell ``index`` can show, with the position it leaves (exact), by
    increasing value.

    ``After.layouts / base.layouts`` is the probability that the cell is safe and shows
    that value; over the values they add up to the layouts in which the cell is safe. A
    single value means the cell is *dead*: revealing it tells nothing but that it was safe.
    """
    values = _Values.of(view, base, index, cache)
    return [(v, values.after(i)) for i, v in enumerate(values.values)]


class _Values:
    """The values a cell can show, with their layouts, before the positions they leave are
    combined (:meth:`after`, one at a time: a caller may stop early).

    Incremental: the components that touch the cell or its neighbours are merged with the
    new number's cells and counted once for every value, from their listed solutions
    (:func:`_revealed`) or, for a component the DP engine counted, by a new search
    (:func:`_probed`), cached; the other components keep their counts (:class:`_Kept`), so
    a value's layouts cost one dot product and its position a few more.
    """

    __slots__ = ("values", "mines", "layouts", "polys", "reveal", "kept", "outside", "tails")

    def __init__(self) -> None:
        self.values: list[int] = []  # increasing
        self.mines: list[int] = []  # in the probe, per value
        self.layouts: list[int] = []
        self.polys: list[list[int]] = []
        self.reveal: _Reveal | None = None
        self.kept: _Kept | None = None
        self.outside = 0
        self.tails: _Tails | None = None

    @classmethod
    def of(cls, view: View, base: Estimate, index: int, cache: Cache) -> _Values:
        values = cls()
        bit = 1 << index
        around = view.masks[index]
        touch = around | bit
        probe = around & base.unknown & ~bit
        known = (around & view.mines).bit_count()
        merged: list[int] = []
        listed = True
        merged_cells = 0
        for g, (cells, group_rules) in enumerate(base.groups):
            if not cells & touch:
                continue
            merged.append(g)
            merged_cells |= cells
            listed = listed and base.parts[g].solutions is not None
            for free, need in group_rules:
                if free == bit and need:
                    return values  # the cell is a mine in every layout: no value
        if listed:
            reveal = cache.revealed(tuple(base.groups[g][1] for g in merged),
                                    [base.parts[g] for g in merged], index, probe,
                                    probe & ~merged_cells)
        else:
            rules: list[Rule] = []
            for g in merged:
                for free, need in base.groups[g][1]:
                    free &= ~bit
                    if free:
                        rules.append((free, need))
            reveal = _Reveal.of_parts(cache.probed(tuple(sorted(set(rules))), probe))
        values.reveal = reveal
        # The other components' products, shared by every candidate that merges the same
        # ones.
        key = tuple(merged)
        kept = base.kept.get(key)
        if kept is None:
            kept = base.kept[key] = _Kept([p for g, p in enumerate(base.parts)
                                           if g not in merged])
        values.kept = kept
        values.outside = base.outside & ~touch
        # Every value's polynomial fits the tails, with room for the next candidates.
        reach = max((len(poly) for poly in reveal.polys.values()), default=0) + 4
        tails = values.tails = kept.tails_for(values.outside.bit_count(), base.mines_left,
                                              reach)
        for m, poly in reveal.polys.items():
            # The tails run to ``reach`` >= len(poly): zip stops at the polynomial's end.
            layouts = sum(x * e for x, e in zip(poly, tails.extra, strict=False))
            if layouts:
                values.values.append(known + m)
                values.mines.append(m)
                values.layouts.append(layouts)
                values.polys.append(poly)
        return values

    def after(self, i: int) -> After:
        """The position left by value ``i`` (in the order of ``values``)."""
        assert self.kept is not None and self.tails is not None and self.reveal is not None
        return self.kept.after(self.reveal.part(self.mines[i]), self.polys[i],
                               self.layouts[i], self.outside, self.tails)


# -- the parts of the guessing strategy ---------------------------------------------------


def secondary_safety(base: Estimate, chances: list[tuple[int, After]]) -> Fraction:
    """P(the cell is safe, and so is the safest cell of the position it leaves).

    ``sum over values v of P(v) * (1 - least mine probability after v)``: a certain safe
    cell after ``v`` counts as safety 1 (the next click is free), and so does a position
    where every unknown cell left is a mine (the game is won).

    Also tried: when every certain safe cell after ``v`` is dead (its other covered
    neighbours all certain, so its number is known before the click), counting the safest
    uncertain cell instead, as JSMinesweeper's "best living safety" does: it changed 36-59
    of 20,000 expert SFAR boards and +0.03, +0.03, -0.01, +0.01 points (95 % half-widths
    0.06-0.08; seeds 2026, 11, 12, 13), +0.02 over the 80,000 paired boards: not kept.
    """
    total = Fraction(0)
    for _, after in chances:
        after_safety = Fraction(1) if after.least == 1 else 1 - after.least
        total += Fraction(after.layouts, base.layouts) * after_safety
    return total


def progress_chance(base: Estimate, chances: list[tuple[int, After]]) -> Fraction:
    """P(the cell is safe and the position it leaves has a certainly safe cell, or is won
    (nothing but mines left))."""
    ahead = sum(after.layouts for _, after in chances if after.least in (0, 1))
    return Fraction(ahead, base.layouts)


def forced_fifty_fifty(view: View, base: Estimate) -> tuple[int, int] | None:
    """Two cells that must be guessed between at 1/2 sooner or later, or ``None``.

    Cells ``a`` and ``b`` qualify when a number says exactly one mine lies in ``{a, b}``
    (they are its only unknown neighbours) and every cell next to one of them but not the
    other is a proved mine (flagged, or found so by ``base``). Then swapping the mine
    between them keeps every number and the count, and no cell that could ever be revealed
    sees the difference: each is a mine with probability exactly 1/2, now and after any
    other click. A winning game must guess the
    pair at 1/2 whenever it does, so guessing it first costs nothing and may inform the
    rest. The pair with the smallest indices is returned, smaller index first.
    """
    masks = view.masks
    found: list[tuple[int, int]] = []
    for _, rules in base.groups:
        for free, need in rules:
            if need != 1 or free.bit_count() != 2:
                continue
            a, b = _bits(free)
            differ = (masks[a] ^ masks[b]) & ~free
            if differ & ~(view.mines | base.mines):
                continue
            found.append((a, b))
    return min(found) if found else None


def _part_layouts(part: _Part, allowed: frozenset[int], limit: int
                  ) -> list[tuple[int, int]] | None:
    """Every cell layout of a component with a mine number in ``allowed``, as ``(mines,
    bitmask)``, or ``None`` past ``limit`` layouts (or a search of ``50 * limit`` nodes)."""
    found: list[tuple[int, int]] = []
    cells_of = [_bits(m) for m in part.box_masks]

    def leaf(chosen: list[int], weight: int, k: int) -> None:
        if k not in allowed:
            return
        if len(found) + weight > limit:
            raise _TooBig
        masks = [0]
        for b, m in enumerate(chosen):
            if m:
                masks = [x | sum(1 << i for i in pick) for x in masks
                         for pick in combinations(cells_of[b], m)]
        found.extend((k, mask) for mask in masks)

    try:
        _box_search(part.sizes, part.rule_boxes, part.needs, 50 * limit + 1000, leaf)
    except _TooBig:
        return None
    return found


def list_layouts(view: View, base: Estimate, limit: int) -> list[int] | None:
    """Every layout of the remaining mines over the unknown cells, as bitmasks (row-major
    by component, then outside cells), or ``None`` past ``limit`` layouts.

    Each component's layouts come from its boxes (:func:`_box_search`, then every choice of
    cells inside each box), keeping only the mine numbers that fit the count
    (:func:`~exactmines.combine.allowed_mine_numbers`); the outside cells take the rest.
    """
    numbers = [p.counts.mine_numbers() for p in base.parts]
    outside_cells = _bits(base.outside)
    allowed = allowed_mine_numbers(numbers, len(outside_cells), base.mines_left)
    per_part: list[list[tuple[int, int]]] = []
    for part, ok in zip(base.parts, allowed, strict=True):
        found = _part_layouts(part, ok, limit)
        if found is None:
            return None
        per_part.append(found)
    layouts: list[int] = []
    left = base.mines_left

    def extend(g: int, mask: int, k: int) -> None:
        if g == len(per_part):
            rest = left - k
            if 0 <= rest <= len(outside_cells):
                for pick in combinations(outside_cells, rest):
                    layouts.append(mask | sum(1 << i for i in pick))
                    if len(layouts) > limit:
                        raise _TooBig
            return
        for mines, part_mask in per_part[g]:
            if mines <= left - k:
                extend(g + 1, mask | part_mask, k + mines)

    try:
        extend(0, 0, 0)
    except _TooBig:
        return None
    return layouts


def endgame_guess(view: View, base: Estimate, strategy: Strategy) -> int | None:
    """The click that maximises the probability of winning, found by exact search, or
    ``None`` when there are too many layouts or the search runs out of nodes.

    The whole position is searched when it has at most ``endgame_layouts`` layouts
    (:func:`list_layouts`); otherwise each *isolated region* is tried: a component whose
    cells touch no other unknown cell and whose number of mines the count fixes. Its layouts
    are then independent of everything else (no click elsewhere can inform it, nor it
    anything else), so the game is won with probability (win probability of the region) x
    (of the rest) whatever the order of play, and the region's best click is the one that
    maximises the former. Both are exact optima, by :class:`~exactmines.endgame.Endgame`.
    """
    if base.layouts <= strategy.endgame_layouts:
        layouts = list_layouts(view, base, strategy.endgame_layouts)
        if layouts is not None:
            found = _search(layouts, base.unknown, view, strategy.endgame_nodes)
            if found is not None:
                base.extra["endgame_win"] = Fraction(found[1], len(layouts))
                return found[0]
    numbers = [p.counts.mine_numbers() for p in base.parts]
    allowed = allowed_mine_numbers(numbers, base.outside.bit_count(), base.mines_left)
    known = view.mines | base.mines  # proved mines, flagged or found by this estimate
    for (cells, _), part, ok in zip(base.groups, base.parts, allowed, strict=True):
        region = cells & ~known
        if not region or len(ok) != 1 or (dilate(region, view.width, view.height)
                                          & base.unknown & ~region & ~known):
            continue
        region_layouts = _part_layouts(part, ok, strategy.endgame_layouts)
        if region_layouts is None:
            continue
        found = _search([mask & ~known for _, mask in region_layouts], region, view,
                        strategy.endgame_nodes, known)
        if found is not None:
            base.extra["endgame_win"] = Fraction(found[1], len(region_layouts))
            return found[0]
    return None


def _search(layouts: list[int], cells: int, view: View, budget: int,
            known: int | None = None) -> tuple[int, int] | None:
    """:meth:`Endgame.best_move` over ``layouts`` of ``cells`` (``known``: mines outside
    them, the view's by default), ``None`` past the budget."""
    known = view.mines if known is None else known
    try:
        return Endgame(layouts, _bits(cells), view.masks, known, budget).best_move()
    except SearchBudgetExceeded:
        return None


def _outside_candidates(view: View, base: Estimate) -> list[int]:
    """Cells off the frontier worth scoring, one per class of equivalent cells.

    A cell whose unknown neighbours are all off the frontier leaves, when revealed, a new
    separate component of those neighbours: the position after it depends only on how many
    they are and how many proved mines touch it, so one cell per such class is scored (the
    first in row-major order; the last instead, paired on 80,000 expert SFAR boards, seeds
    11-14: -0.14 +- 0.24 points). Cells with a frontier neighbour are scored one by one.
    """
    masks, outside, unknown = view.masks, base.outside, base.unknown
    width, height = view.width, view.height
    near = outside & dilate(unknown & ~outside, width, height)
    out = _bits(near)
    # The others touch only outside cells and flags (a revealed neighbour would put them on
    # the frontier): a cell with n neighbours and f flags among them has the class
    # (n - f, f). Those with a flag are classed one by one, the others by n in bulk.
    far = outside & ~near
    flagged = far & dilate(view.mines, width, height)
    seen: set[tuple[int, int]] = set()
    for i in _bits(flagged):
        key = ((masks[i] & unknown).bit_count(), (masks[i] & view.mines).bit_count())
        if key not in seen:
            seen.add(key)
            out.append(i)
    free = far & ~flagged
    for cells in _by_neighbour_count(width, height):
        first = free & cells
        if first:
            out.append((first & -first).bit_length() - 1)
    return out


@lru_cache(maxsize=64)
def _by_neighbour_count(width: int, height: int) -> tuple[int, ...]:
    """The cells of the board grouped by their number of neighbours, as bitmasks."""
    groups: dict[int, int] = {}
    for i, mask in enumerate(neighbour_masks(width, height)):
        n = mask.bit_count()
        groups[n] = groups.get(n, 0) | (1 << i)
    return tuple(groups[n] for n in sorted(groups))


def choose_guess(view: View, base: Estimate, strategy: Strategy, cache: Cache) -> int:
    """The cell to click when no cell is certainly safe (see the module notes).

    The parts are tried in order: the endgame search; a forced 50/50; then each candidate
    (safety within ``candidate_ratio`` of the best) gets the key (living, secondary safety
    plus progress, chance of a 0, safety), each entry present only when its part is on, and
    the highest key wins (ties: the first cell in row-major order).
    """
    if strategy.endgame:
        move = endgame_guess(view, base, strategy)
        if move is not None:
            return move
    if strategy.fifty:
        pair = forced_fifty_fifty(view, base)
        if pair is not None:
            base.extra["fifty"] = pair
            return pair[0]
    best_safety = 1 - base.least
    threshold = strategy.candidate_ratio * best_safety
    candidates: list[tuple[Fraction, int]] = []
    for mask, p in base.boxes:
        safety = 1 - p
        if safety < threshold or p == 1:
            continue
        cells = _outside_candidates(view, base) if mask == base.outside else _bits(mask)
        candidates.extend((safety, i) for i in cells)
    risk = _risk(view, base, cache) if strategy.risk else None
    if risk is not None:
        # A cell a pattern may trap is a candidate when its safe layouts and its patterns'
        # together reach the threshold.
        chosen = {i for _, i in candidates}
        for cell in set(risk.inside) | set(risk.enablers):  # unknown cells, never mines
            if cell in chosen:
                continue
            safety = 1 - base.probability(cell)
            if safety * base.layouts + risk.scanned(cell) >= threshold * base.layouts:
                candidates.append((safety, cell))
    if not (strategy.secondary or strategy.dead or strategy.openings):
        return min(candidates, key=lambda c: (-c[0], c[1]))[1]
    # Safest first, so that bounds prune the rest early.
    candidates.sort(key=lambda c: (-c[0], c[1]))
    best_key: tuple | None = None
    best_cell = candidates[0][1]
    best_chances: list[tuple[int, After]] = []
    for safety, index in candidates:
        gain = _risk_gain(risk, base, safety, index, strategy) if risk else Fraction(1)
        if best_key is not None and not _may_beat(best_key, safety, strategy, gain):
            continue
        chances = _chances_to_beat(view, base, index, cache, strategy, safety, best_key, gain)
        if chances is None:
            continue
        key = _score(base, safety, index, chances, strategy, gain)
        if best_key is None or key > best_key:
            best_key, best_cell, best_chances = key, index, chances
    if strategy.secondary and best_chances:
        return dominating_cell(base, best_cell, best_chances)
    return best_cell


def _risk(view: View, base: Estimate, cache: Cache) -> Risk:
    """The 50/50 patterns of ``base`` (:mod:`exactmines.fifty_patterns`), counted exactly."""
    known = view.mines | base.mines
    hidden = base.unknown & ~base.mines
    left = view.mines_left - (base.mines & ~view.mines).bit_count()
    return Risk(view.width, view.height, hidden, view.revealed, known, left,
                lambda mines, safe: _layouts_with(base, cache, mines, safe))


def _risk_gain(risk: Risk, base: Estimate, safety: Fraction, index: int,
               strategy: Strategy) -> Fraction:
    """``1 + risk_weight * influence / safe layouts``: what the candidate's score is
    multiplied by for the 50/50s it can settle now (1 when it is in no pattern)."""
    safe_layouts = safety * base.layouts  # an integer: a cell's safe layouts
    assert safe_layouts.denominator == 1
    influence = risk.influence(index, base.layouts - int(safe_layouts), base.layouts)
    return 1 + strategy.risk_weight * Fraction(influence, int(safe_layouts))


def _layouts_with(base: Estimate, cache: Cache, mines: int, safe: int) -> int:
    """Layouts of ``base`` in which every cell of ``mines`` is a mine and every cell of
    ``safe`` is safe (both unknown cells), exactly: the rules lose those cells (and the
    mines among them), the components they split or change are counted again (cached)."""
    unknown = base.unknown & ~mines & ~safe
    rules: list[Rule] = []
    for _, group in base.groups:
        for free, need in group:
            need -= (free & mines).bit_count()
            free &= unknown
            if need < 0 or need > free.bit_count():
                return 0
            if free:
                rules.append((free, need))
    return _counted(rules, unknown, base.mines_left - mines.bit_count(), cache)[3].layouts


def dominating_cell(base: Estimate, cell: int, chances: list[tuple[int, After]]) -> int:
    """A strictly safer cell that is safe whenever ``cell`` is, if there is one (the safest,
    first in row-major order), else ``cell``.

    Such a cell ``b`` dominates: clicking ``b`` first survives as often as clicking ``cell``
    and then ``b`` (``cell`` safe implies ``b`` safe), and shows ``b``'s number before
    ``cell`` is risked, which can only help. ``chances`` are ``cell``'s value chances: ``b``
    must be certainly safe after every value.
    """
    if not chances:  # a certain mine: nothing is implied
        return cell
    common = base.unknown & ~(1 << cell)
    for _, after in chances:
        common &= after.safe
    best, best_p = cell, base.probability(cell)
    for i in _bits(common):
        p = base.probability(i)
        if p < best_p:
            best, best_p = i, p
    return best


def _score(base: Estimate, safety: Fraction, index: int, chances: list[tuple[int, After]],
           strategy: Strategy, gain: Fraction = Fraction(1)) -> tuple:
    """The ranking key of a candidate; higher is better, ``-index`` breaks exact ties."""
    key: list = []
    if strategy.dead:
        key.append(len(chances) > 1)
    if strategy.secondary:
        score = secondary_safety(base, chances)
        if strategy.progress:
            score += strategy.progress * progress_chance(base, chances)
        key.append(score * gain)
    else:
        key.append(safety)
    if strategy.openings:
        zero = next((after.layouts for value, after in chances if value == 0), 0)
        key.append(Fraction(zero, base.layouts))
    key.append(safety)
    key.append(-index)
    return tuple(key)


def _chances_to_beat(view: View, base: Estimate, index: int, cache: Cache,
                     strategy: Strategy, safety: Fraction, best_key: tuple | None,
                     gain: Fraction = Fraction(1)) -> list[tuple[int, After]] | None:
    """The value chances of a candidate, or ``None`` as soon as the values seen so far
    prove its key below ``best_key`` (the rest are then never combined).

    In layouts, the secondary score with progress is at most ``(1 + progress) * safety``
    times the layouts, and exactly that less, for each value whose least mine probability
    is neither 0 nor 1, ``layouts * (least + progress)`` (0 and 1 count as a free next
    click); the values' layouts add up to the candidate's safe layouts. Once these deficits
    exceed the room above the best score the candidate loses, whatever the other values.
    As in :func:`_may_beat`, this prunes only against a living best, or when dead cells
    are not told apart.
    """
    values = _Values.of(view, base, index, cache)
    if best_key is None or not strategy.secondary or (strategy.dead and not best_key[0]):
        return [(v, values.after(i)) for i, v in enumerate(values.values)]
    position = 1 if strategy.dead else 0
    room = ((1 + strategy.progress) * safety - best_key[position] / gain) * base.layouts
    deficit: Fraction | int = 0
    # Likeliest values first (their deficits weigh most); no mine in the probe last (its
    # neighbours are then certainly safe: no deficit).
    order = sorted(range(len(values.values)),
                   key=lambda i: (values.mines[i] == 0, -values.layouts[i], i))
    afters: dict[int, After] = {}
    for i in order:
        after = afters[i] = values.after(i)
        if after.least != 0 and after.least != 1:
            deficit += after.layouts * (after.least + strategy.progress)
            if deficit > room:
                return None
    return [(values.values[i], afters[i]) for i in range(len(values.values))]


def _may_beat(best_key: tuple, safety: Fraction, strategy: Strategy,
              gain: Fraction = Fraction(1)) -> bool:
    """Can a candidate of this safety still reach a key above ``best_key``?

    Secondary safety never exceeds safety, and a living cell beats a dead one whatever its
    score, so a bound on the score prunes only against a best that is living (or when dead
    cells are not told apart).
    """
    position = 1 if strategy.dead else 0
    if strategy.dead and not best_key[0]:
        return True
    bound = safety * (1 + strategy.progress) * gain if strategy.secondary else safety
    return bound >= best_key[position]


# -- the player ---------------------------------------------------------------------------


class Player:
    """Plays one game: feed it what the board shows, ask it what to click.

    Examples
    --------
    >>> player = Player(3, 1, 1, STRATEGIES["best"])
    >>> player.show([(1, 1)])        # the middle cell shows 1
    >>> player.next_clicks()          # one mine in cells 0 and 2: a guess
    ([0], True)
    >>> player.show([(0, 1)])        # cell 0 was safe and shows 1
    >>> player.next_clicks()          # cell 2 is the mine: nothing left to click but it
    ([], False)
    """

    def __init__(self, width: int, height: int, mines: int, strategy: Strategy) -> None:
        self.view = View(width, height, mines)
        self.strategy = strategy
        self.cache = Cache()
        self.analyses = 0
        self.endgame_searches = 0
        #: Per kind of guess (:data:`GUESS_KINDS`), the sum of the mine probabilities of
        #: the cells guessed: the risk taken there. Its total over a game is the chance of
        #: losing along the game's path, so its mean over games estimates the loss rate.
        self.risks: dict[str, Fraction] = {}

    def show(self, shown: list[tuple[int, int]]) -> None:
        """Cells newly revealed by the game, as ``(index, number)``."""
        self.view.show(shown)

    def next_clicks(self) -> tuple[list[int], bool]:
        """The cells to click next and whether that is a guess.

        Either every cell found certainly safe (a list, in row-major order) or one guess.
        Certain mines found on the way are recorded in the view (flagged).
        """
        view = self.view
        safe, mines = local_deductions(view)
        view.mark_mines(mines)
        if safe:
            return _bits(safe), False
        if mines:
            safe, mines = local_deductions(view)
            view.mark_mines(mines)
            if safe:
                return _bits(safe), False
        base = estimate(view, self.cache)
        self.analyses += 1
        if base.layouts == 0:
            raise AssertionError("the player's view is inconsistent: a bug in the game or "
                                 "the deductions")
        if base.safe or base.mines == base.unknown:  # the second: only mines left (won)
            view.mark_mines(base.mines)
            return _bits(base.safe), False
        # The guessing parts read ``base`` against the view it came from: flag afterwards.
        guess = choose_guess(view, base, self.strategy, self.cache)
        view.mark_mines(base.mines)
        if "endgame_win" in base.extra:
            self.endgame_searches += 1
            kind = "endgame"
        elif "fifty" in base.extra:
            kind = "fifty"
        else:
            kind = "off_frontier" if base.outside >> guess & 1 else "frontier"
        self.risks[kind] = self.risks.get(kind, Fraction(0)) + base.probability(guess)
        return [guess], True
