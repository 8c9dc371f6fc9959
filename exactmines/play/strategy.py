"""The player: which cell to click next, from exact probabilities.

A move is either every cell proved safe (revealed at once, never a risk) or, when there is
none, one guess. Certain cells come from cheap local rules first and, when those are stuck,
from the exact analysis (:func:`estimate`, counted incrementally and cached by
:mod:`exactmines.play.lookahead`), which is complete: a guess is made only when no covered cell
is safe in every layout consistent with the numbers and the mine count.

A guess is chosen by named parts, each switchable (:class:`Strategy`) so that its gain can
be measured:

``endgame`` (:func:`endgame_guess`)
    with at most ``endgame_layouts`` layouts left, every layout is listed and the game tree
    searched exactly (:mod:`exactmines.play.endgame`): the click with the highest probability of
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
``risk`` (:mod:`exactmines.play.fifty_patterns`)
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

from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import lru_cache
from itertools import combinations
from typing import Any

from exactmines.analysis.backends import Backend
from exactmines.analysis.combine import Scale, allowed_mine_numbers, fraction_of
from exactmines.analysis.frontier import Rule
from exactmines.budget import UNLIMITED, Budget
from exactmines.deduction import NODES, KnownGrid, box_search, local_deductions, new_grid
from exactmines.errors import ParameterError, TooLarge
from exactmines.play.endgame import Endgame
from exactmines.play.fifty_patterns import Risk, shape
from exactmines.play.lookahead import (
    After,
    Cache,
    Counting,
    Kept,
    Part,
    Values,
    counted,
)
from exactmines.play.shared import SharedCounts
from exactmines.position import indices_of as _bits
from exactmines.topology import Topology, square
from exactmines.words import plural

__all__ = [
    "PARTS",
    "GUESS_KINDS",
    "TUNABLE",
    "Strategy",
    "STRATEGIES",
    "strategy_named",
    "Estimate",
    "estimate",
    "value_chances",
    "secondary_safety",
    "progress_chance",
    "forced_fifty_fifty",
    "forced_fifty_fifties",
    "list_layouts",
    "EndgameSearch",
    "endgame_search",
    "endgame_guess",
    "Guess",
    "Score",
    "Candidate",
    "choose_guess",
    "ranked_candidates",
    "dead_cells",
    "fifty_fifties",
    "Explanation",
    "chance_all_safe",
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
        33 ms more (a search past its node limit costs about 2.5 s), 3000 +0.04 and +0.00
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
                raise ParameterError("without", part, "unknown strategy part: choose from "
                                     f"{', '.join(PARTS)}")
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
                raise ParameterError("tuning", None, f"cannot set {assignment!r}: write "
                                     f"NAME=VALUE with NAME one of {', '.join(TUNABLE)}")
            kind, most = TUNABLE[name]
            try:
                value = kind(text)
            except (ValueError, ZeroDivisionError):
                raise ParameterError("tuning", None, f"cannot set {assignment!r}: {text!r} is "
                                     f"not {'a fraction' if kind is Fraction else 'a whole number'}"
                                     ) from None
            if value < 0 or (most is not None and value > most):
                raise ParameterError("tuning", None, f"cannot set {assignment!r}: it must be at "
                                     "least 0" + ("" if most is None else f" and at most {most}"))
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
        raise ParameterError("strategy", name, "unknown strategy: choose one of "
                                               f"{', '.join(STRATEGIES)}")
    return STRATEGIES[name].without(*without).tuned(*tuning)


# -- exact analysis on bitmasks ----------------------------------------------------------


@dataclass(frozen=True)
class Estimate:
    """The exact analysis of a view.

    Attributes
    ----------
    layouts:
        Consistent layouts of the remaining mines over the unknown cells (0: inconsistent),
        divided by ``scale``'s divisor when there is one: every count the guessing parts
        read from this estimate shares it, so shares and comparisons of counts are exact;
        :meth:`layouts_at_most` reads the true count.
    scale:
        ``None`` (exact counts) or, with many cells off the frontier, the
        :class:`~exactmines.analysis.combine.Scale` of this estimate's counts.
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
    kept:
        A memo, not a result: combination products of its components without those a
        hypothetical reveal merges, built on demand by :func:`value_chances` and keyed by
        the merged components (they depend on the estimate alone, so every candidate that
        merges the same components shares them).
    """

    layouts: int
    unknown: int
    outside: int
    groups: tuple[tuple[int, tuple[Rule, ...]], ...]
    parts: tuple[Part, ...]
    boxes: tuple[tuple[int, Fraction], ...]
    safe: int
    mines: int
    least: Fraction
    mines_left: int
    scale: Scale | None = None
    kept: dict[tuple[int, ...], Kept] = field(default_factory=dict, compare=False,
                                               repr=False)

    def probability(self, index: int) -> Fraction:
        bit = 1 << index
        for cells, p in self.boxes:
            if cells & bit:
                return p
        raise KeyError(f"cell {index} is not unknown")

    def layouts_at_most(self, limit: int) -> bool:
        """Whether the true number of layouts is at most ``limit``. With a scale, the
        binomials of the outside cells are computed only as far as needed to exceed
        ``limit`` (:func:`_binomial_at_most`)."""
        if self.scale is None:
            return self.layouts <= limit
        outside, left = self.outside.bit_count(), self.mines_left
        total = 0
        for s, count in enumerate(Kept(list(self.parts)).total):
            if count:
                ways = _binomial_at_most(outside, left - s, limit)
                if ways is None:
                    return False
                total += count * ways
                if total > limit:
                    return False
        return True


def _binomial_at_most(n: int, k: int, limit: int) -> int | None:
    """``C(n, k)`` when it is at most ``limit``, else ``None``; 0 when ``k`` is not in
    ``0..n``. Stops as soon as a partial product passes ``limit`` (the binomials
    ``C(n, j)``, ``j <= min(k, n - k)``, never decrease)."""
    if not 0 <= k <= n:
        return 0
    k = min(k, n - k)
    ways = 1
    for j in range(1, k + 1):
        ways = ways * (n - j + 1) // j  # C(n, j), exactly
        if ways > limit:
            return None
    return ways


def estimate(view: KnownGrid, cache: Counting) -> Estimate:
    """Exact probabilities of every unknown cell of ``view`` (counts from ``cache``).

    Cost: grouping the rules (linear in the active clues times the components), counting
    the components not in the cache, and one combination, the analysis' own
    (:meth:`~exactmines.play.lookahead.Counted.weighed`).
    """
    unknown, left = view.unknown, view.mines_left
    frontier = counted(view.rules(), unknown, cache)
    groups, parts, outside = frontier.groups, frontier.parts, frontier.outside
    scale = Scale.around(outside.bit_count(), left, frontier.top())
    ratios = frontier.weighed(left, scale)
    layouts = ratios.layouts
    boxes: list[tuple[int, Fraction]] = []
    if layouts and ratios.box is not None:
        for part, box in zip(parts, ratios.box, strict=True):
            for mask, ratio in zip(part.box_masks, box, strict=True):
                boxes.append((mask, fraction_of(*ratio)))
        if outside and ratios.outside is not None:
            boxes.append((outside, fraction_of(*ratios.outside)))
    safe = mines = 0
    for mask, p in boxes:
        if p == 0:
            safe |= mask
        elif p == 1:
            mines |= mask
    least = min((p for _, p in boxes), default=Fraction(0))
    return Estimate(layouts, unknown, outside, groups, tuple(parts), tuple(boxes), safe, mines,
                    least, left, scale)


def value_chances(view: KnownGrid, base: Estimate, index: int, cache: Counting
                  ) -> list[tuple[int, After]]:
    """Each value unknown cell ``index`` can show, with the position it leaves (exact), by
    increasing value.

    ``After.layouts / base.layouts`` is the probability that the cell is safe and shows
    that value; over the values they add up to the layouts in which the cell is safe. A
    single value means the cell is *dead*: revealing it tells nothing but that it was safe.
    """
    values = _values(view, base, index, cache)
    return [(v, values.after(i)) for i, v in enumerate(values.values)]


def _values(view: KnownGrid, base: Estimate, index: int, cache: Counting) -> Values:
    """:meth:`Values.of <exactmines.play.lookahead.Values.of>` for unknown cell ``index`` of
    ``view``, analysed as ``base``."""
    return Values.of(index, around=view.masks[index], flagged=view.mines,
                     unknown=base.unknown, outside=base.outside, mines_left=base.mines_left,
                     groups=base.groups, parts=base.parts, kept_by_merged=base.kept,
                     cache=cache, scale=base.scale)


# -- the parts of the guessing strategy ---------------------------------------------------


@dataclass(frozen=True, slots=True)
class Guess:
    """A guess and how it was chosen.

    Attributes
    ----------
    cell:
        The cell to click (flat index).
    kind:
        How it was chosen (:data:`GUESS_KINDS`): by the exact endgame search, as a forced
        50/50, or by the scores, next to a number (``frontier``) or not.
    probability:
        Its exact mine probability.
    win:
        For an endgame guess, the exact probability that best play wins the layouts searched
        (the whole position, or the isolated region the cell is in); else ``None``.
    """

    cell: int
    kind: str
    probability: Fraction
    win: Fraction | None = None


@dataclass(frozen=True, slots=True, order=True)
class Score:
    """The ranking of a candidate guess: compared field by field, the higher wins.

    A part that is off gives every candidate the same value in its field (``False``, 0),
    so the field decides nothing.

    Attributes
    ----------
    living:
        Part ``dead``: the cell can show more than one value (a dead cell is clicked last).
    value:
        Part ``secondary``: the secondary safety plus ``progress`` times the progress
        chance, times the ``risk`` part's gain; with ``secondary`` off, the safety.
    opening:
        Part ``openings``: the probability that the cell is safe and shows 0.
    safety:
        The probability that the cell is safe.
    earlier:
        Minus the cell's index: among exact ties, the first cell in row-major order wins.
    """

    living: bool
    value: Fraction
    opening: Fraction
    safety: Fraction
    earlier: int

    @property
    def cell(self) -> int:
        return -self.earlier


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


def forced_fifty_fifty(view: KnownGrid, base: Estimate) -> tuple[int, int] | None:
    """The first pair of :func:`forced_fifty_fifties`, or ``None``."""
    pairs = forced_fifty_fifties(view, base)
    return pairs[0] if pairs else None


def forced_fifty_fifties(view: KnownGrid, base: Estimate) -> list[tuple[int, int]]:
    """Every two cells that must be guessed between at 1/2 sooner or later, in order.

    Cells ``a`` and ``b`` qualify when a number says exactly one mine lies in ``{a, b}``
    (they are its only unknown neighbours) and every cell next to one of them but not the
    other is a proved mine (flagged, or found so by ``base``). Then swapping the mine
    between them keeps every number and the count, and no cell that could ever be revealed
    sees the difference: each is a mine with probability exactly 1/2, now and after any
    other click. A winning game must guess the
    pair at 1/2 whenever it does, so guessing it first costs nothing and may inform the
    rest. Each pair is smaller index first, the pairs sorted (each listed once).
    """
    masks = view.masks
    found: set[tuple[int, int]] = set()
    for _, rules in base.groups:
        for free, need in rules:
            if need != 1 or free.bit_count() != 2:
                continue
            a, b = _bits(free)
            differ = (masks[a] ^ masks[b]) & ~free
            if differ & ~(view.mines | base.mines):
                continue
            found.add((a, b))
    return sorted(found)


def _part_layouts(part: Part, allowed: frozenset[int], limit: int
                  ) -> list[tuple[int, int]] | None:
    """Every cell layout of a component with a mine number in ``allowed``, as ``(mines,
    bitmask)``, or ``None`` past ``limit`` layouts (or a search of the usual
    :data:`~exactmines.deduction.search.NODES` plus 50 nodes per layout allowed)."""
    found: list[tuple[int, int]] = []
    cells_of = [_bits(m) for m in part.box_masks]

    def leaf(chosen: list[int], weight: int, k: int) -> None:
        if k not in allowed:
            return
        if len(found) + weight > limit:
            raise TooLarge(f"more than {plural(limit, 'layout')}")
        masks = [0]
        for b, m in enumerate(chosen):
            if m:
                masks = [x | sum(1 << i for i in pick) for x in masks
                         for pick in combinations(cells_of[b], m)]
        found.extend((k, mask) for mask in masks)

    try:
        box_search(part.sizes, part.rule_boxes, part.needs, NODES + 50 * limit, leaf)
    except TooLarge:
        return None
    return found


def list_layouts(view: KnownGrid, base: Estimate, limit: int) -> list[int] | None:
    """Every layout of the remaining mines over the unknown cells, as bitmasks (row-major
    by component, then outside cells), or ``None`` past ``limit`` layouts.

    Each component's layouts come from its boxes
    (:func:`~exactmines.deduction.search.box_search`, then every choice of cells inside each box),
    keeping only the mine numbers that fit the count
    (:func:`~exactmines.analysis.combine.allowed_mine_numbers`); the outside cells take the rest.
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
                        raise TooLarge(f"more than {plural(limit, 'layout')}")
            return
        for mines, part_mask in per_part[g]:
            if mines <= left - k:
                extend(g + 1, mask | part_mask, k + mines)

    try:
        extend(0, 0, 0)
    except TooLarge:
        return None
    return layouts


def endgame_guess(view: KnownGrid, base: Estimate, strategy: Strategy) -> Guess | None:
    """The click that maximises the probability of winning, found by exact search (a
    :class:`Guess` of kind ``endgame`` with that probability), or ``None`` when there are
    too many layouts or the search runs out of nodes: :func:`endgame_search`'s guess."""
    found = endgame_search(view, base, strategy)
    return None if found is None else found.guess


@dataclass(frozen=True, slots=True)
class EndgameSearch:
    """What :func:`endgame_search` found.

    Attributes
    ----------
    guess:
        The best click, with its exact probability of winning the layouts searched.
    search:
        The search, to ask what another click of the layouts' cells wins
        (:meth:`~exactmines.play.endgame.Endgame.wins_after`; its memo is kept).
    layouts:
        How many layouts were searched.
    whole:
        Whether they are the whole position's (else an isolated region's: the win
        probability is then the region's).
    """

    guess: Guess
    search: Endgame
    layouts: int
    whole: bool


def endgame_search(view: KnownGrid, base: Estimate, strategy: Strategy) -> EndgameSearch | None:
    """The exact endgame search behind :func:`endgame_guess`, or ``None`` when there are
    too many layouts or the search runs out of nodes.

    The whole position is searched when it has at most ``endgame_layouts`` layouts
    (:func:`list_layouts`); otherwise each *isolated region* is tried: a component whose
    cells touch no other unknown cell and whose number of mines the count fixes. Its layouts
    are then independent of everything else (no click elsewhere can inform it, nor it
    anything else), so the game is won with probability (win probability of the region) x
    (of the rest) whatever the order of play, and the region's best click is the one that
    maximises the former. Both are exact optima, by :class:`~exactmines.play.endgame.Endgame`.
    """
    if base.layouts_at_most(strategy.endgame_layouts):
        layouts = list_layouts(view, base, strategy.endgame_layouts)
        if layouts is not None:
            found = _search(layouts, base.unknown, view, strategy.endgame_nodes)
            if found is not None:
                cell, wins, search = found
                return EndgameSearch(Guess(cell, "endgame", base.probability(cell),
                                           Fraction(wins, len(layouts))),
                                     search, len(layouts), True)
    numbers = [p.counts.mine_numbers() for p in base.parts]
    allowed = allowed_mine_numbers(numbers, base.outside.bit_count(), base.mines_left)
    known = view.mines | base.mines  # proved mines, flagged or found by this estimate
    for (cells, _), part, ok in zip(base.groups, base.parts, allowed, strict=True):
        region = cells & ~known
        if not region or len(ok) != 1 or (view.topology.dilate(region)
                                          & base.unknown & ~region & ~known):
            continue
        region_layouts = _part_layouts(part, ok, strategy.endgame_layouts)
        if region_layouts is None:
            continue
        found = _search([mask & ~known for _, mask in region_layouts], region, view,
                        strategy.endgame_nodes, known)
        if found is not None:
            cell, wins, search = found
            return EndgameSearch(Guess(cell, "endgame", base.probability(cell),
                                       Fraction(wins, len(region_layouts))),
                                 search, len(region_layouts), False)
    return None


def _search(layouts: list[int], cells: int, view: KnownGrid, node_limit: int,
            known: int | None = None) -> tuple[int, int, Endgame] | None:
    """:meth:`Endgame.best_move` over ``layouts`` of ``cells`` (``known``: mines outside
    them, the view's by default) and the search, ``None`` past ``node_limit`` states."""
    known = view.mines if known is None else known
    search = Endgame(layouts, _bits(cells), view.masks, known, node_limit)
    try:
        cell, wins = search.best_move()
    except TooLarge:
        return None
    return cell, wins, search


def _outside_candidates(view: KnownGrid, base: Estimate) -> list[int]:
    """Cells off the frontier worth scoring, one per class of equivalent cells
    (:func:`_outside_classes`)."""
    return [first for first, _ in _outside_classes(view, base)]


def _outside_classes(view: KnownGrid, base: Estimate) -> list[tuple[int, int]]:
    """The cells off the frontier in classes of equivalent cells, as ``(first cell,
    cells)``: the first in row-major order stands for its class.

    A cell whose unknown neighbours are all off the frontier leaves, when revealed, a new
    separate component of those neighbours: the position after it depends only on how many
    they are and how many proved mines touch it, so one cell per such class is scored (the
    first in row-major order; the last instead, paired on 80,000 expert SFAR boards, seeds
    11-14: -0.14 +- 0.24 points). Cells with a frontier neighbour are classes of their own.
    """
    masks, outside, unknown = view.masks, base.outside, base.unknown
    width, height, dilate = view.width, view.height, view.topology.dilate
    near = outside & dilate(unknown & ~outside)
    out = [(i, 1 << i) for i in _bits(near)]
    # The others touch only outside cells and flags (a revealed neighbour would put them on
    # the frontier): a cell with n neighbours and f flags among them has the class
    # (n - f, f). Those with a flag are classed one by one, the others by n in bulk.
    far = outside & ~near
    flagged = far & dilate(view.mines)
    classes: dict[tuple[int, int], tuple[int, int]] = {}
    for i in _bits(flagged):
        key = ((masks[i] & unknown).bit_count(), (masks[i] & view.mines).bit_count())
        first, cells = classes.get(key, (i, 0))
        classes[key] = (first, cells | 1 << i)
    out.extend(classes.values())
    free = far & ~flagged
    groups = (_by_neighbour_count(width, height) if view.topology.is_square
              else _by_degree(view.topology))
    for cells in groups:
        members = free & cells
        if members:
            out.append(((members & -members).bit_length() - 1, members))
    return out


@lru_cache(maxsize=64)
def _by_neighbour_count(width: int, height: int) -> tuple[int, ...]:
    """The cells of the board grouped by their number of neighbours, as bitmasks, by
    increasing number. A cell's neighbours are the rows around it times the columns around
    it, less itself; each group's mask is read from a string of binary digits (linear)."""
    rows = [min(r + 2, height) - max(r - 1, 0) for r in range(height)]
    columns = [min(c + 2, width) - max(c - 1, 0) for c in range(width)]
    counts = {a * b - 1 for a in rows for b in columns}
    groups = []
    for n in sorted(counts):
        # The last cell first (the most significant digit); rows differ only at the edges.
        row_digits = {a: "".join("1" if a * b - 1 == n else "0" for b in reversed(columns))
                      for a in set(rows)}
        groups.append(int("".join(row_digits[a] for a in reversed(rows)), 2))
    return tuple(groups)


@lru_cache(maxsize=8)
def _by_degree(topology: Topology) -> tuple[int, ...]:
    """:func:`_by_neighbour_count` on any topology: the cells grouped by their degree."""
    groups: dict[int, int] = {}
    for i, around in enumerate(topology.neighbour_table):
        groups[len(around)] = groups.get(len(around), 0) | 1 << i
    return tuple(groups[n] for n in sorted(groups))


def choose_guess(view: KnownGrid, base: Estimate, strategy: Strategy, cache: Counting) -> Guess:
    """The guess when no cell is certainly safe (see the module notes).

    The parts are tried in order: the endgame search; a forced 50/50; then each candidate
    (safety within ``candidate_ratio`` of the best) gets a :class:`Score`, and the highest
    wins (ties: the first cell in row-major order).
    """
    return _decide(view, base, strategy, cache)[0]


def _decide(view: KnownGrid, base: Estimate, strategy: Strategy, cache: Counting
            ) -> tuple[Guess, EndgameSearch | None]:
    """:func:`choose_guess`, with the endgame search when it made the choice."""
    if strategy.endgame:
        found = endgame_search(view, base, strategy)
        if found is not None:
            return found.guess, found
    if strategy.fifty:
        pair = forced_fifty_fifty(view, base)
        if pair is not None:
            return Guess(pair[0], "fifty", base.probability(pair[0])), None
    cell = _scored_guess(view, base, strategy, cache)
    return Guess(cell, "off_frontier" if base.outside >> cell & 1 else "frontier",
                 base.probability(cell)), None


def _scored_guess(view: KnownGrid, base: Estimate, strategy: Strategy, cache: Counting) -> int:
    """The candidate with the highest :class:`Score` (or, with every scoring part off, the
    safest), replaced by a cell that dominates it (:func:`dominating_cell`)."""
    candidates, risk = _candidates(view, base, strategy, cache)
    if not (strategy.secondary or strategy.dead or strategy.openings):
        return candidates[0][1]
    best = _ranked(view, base, strategy, cache, candidates, risk, 1)[0]
    if strategy.secondary and best.chances:
        return dominating_cell(base, best.cell, best.chances)
    return best.cell


def _candidates(view: KnownGrid, base: Estimate, strategy: Strategy, cache: Counting
                ) -> tuple[list[tuple[Fraction, int]], Risk | None]:
    """The cells the strategy scores, as ``(safety, cell)``, safest first (ties in
    row-major order), and the 50/50 patterns when the ``risk`` part is on: every cell whose
    safety is within ``candidate_ratio`` of the best (one per class off the frontier), and
    the cells a pattern may trap whose safe layouts and patterns' together reach that."""
    best_safety = 1 - base.least
    threshold = strategy.candidate_ratio * best_safety
    candidates: list[tuple[Fraction, int]] = []
    for mask, p in base.boxes:
        safety = 1 - p
        if safety < threshold or p == 1:
            continue
        cells = _outside_candidates(view, base) if mask == base.outside else _bits(mask)
        candidates.extend((safety, i) for i in cells)
    # (The 50/50 patterns are the square grid's shapes.)
    risk = _risk(view, base, cache) if strategy.risk and view.topology.is_square else None
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
    # Safest first, so that bounds prune the rest early.
    candidates.sort(key=lambda c: (-c[0], c[1]))
    return candidates, risk


@dataclass(frozen=True, slots=True)
class _Scored:
    """A candidate scored in full: its score and its value chances."""

    score: Score
    chances: list[tuple[int, After]]

    @property
    def cell(self) -> int:
        return self.score.cell


def _ranked(view: KnownGrid, base: Estimate, strategy: Strategy, cache: Counting,
            candidates: list[tuple[Fraction, int]], risk: Risk | None, keep: int
            ) -> list[_Scored]:
    """The ``keep`` candidates with the highest scores, highest first.

    A candidate is scored only if it may still beat the ``keep``-th best so far
    (:func:`_may_beat`, :func:`_chances_to_beat`): with ``keep`` 1, only the best is
    computed in full and the others are pruned as soon as they cannot beat it.
    """
    kept: list[_Scored] = []  # highest first
    for safety, index in candidates:
        bar = kept[-1].score if len(kept) == keep else None
        gain = _risk_gain(risk, base, safety, index, strategy) if risk else Fraction(1)
        if bar is not None and not _may_beat(bar, safety, strategy, gain):
            continue
        chances = _chances_to_beat(view, base, index, cache, strategy, safety, bar, gain)
        if chances is None:
            continue
        score = _score(base, safety, index, chances, strategy, gain)
        if bar is None or score > bar:
            kept.append(_Scored(score, chances))
            kept.sort(key=lambda s: s.score, reverse=True)
            del kept[keep:]
    return kept


@dataclass(frozen=True, slots=True)
class Candidate:
    """A guess as the strategy sees it, for people to read (:func:`ranked_candidates`).

    Attributes
    ----------
    cell:
        The cell (flat index).
    probability:
        Its exact mine probability.
    progress:
        :func:`progress_chance`: the chance it is safe and leaves a certainly safe cell.
    secondary:
        :func:`secondary_safety`: the chance it is safe and so is the safest next click.
    score:
        Its :class:`Score`, as the strategy compares it.
    considered:
        Whether the strategy scores it at all (safety within ``candidate_ratio`` of the
        best, or admitted by the ``risk`` part); the others are listed only to fill a list.
    """

    cell: int
    probability: Fraction
    progress: Fraction
    secondary: Fraction
    score: Score
    considered: bool


def ranked_candidates(view: KnownGrid, base: Estimate, strategy: Strategy, cache: Counting,
                      keep: int = 5, first: int | None = None) -> list[Candidate]:
    """The ``keep`` best guesses of ``base`` as the strategy ranks them, best first.

    Read-only: the strategy's own candidates, gains and :class:`Score`, so without
    ``first`` the list starts with the cell its scores choose (before
    :func:`dominating_cell`, the endgame search and a forced 50/50 have their say, see
    :func:`choose_guess`). ``first``: a cell to list first whatever its score (the guess
    chosen), the others following in the strategy's order. When the strategy scores fewer
    than ``keep`` cells, the list goes on with the safest others (one per class off the
    frontier), safest first, scored the same way but marked not ``considered``.

    Cost: the strategy's scoring with ``keep`` cells computed in full instead of one.
    """
    candidates, risk = _candidates(view, base, strategy, cache)
    scored = {i for _, i in candidates}
    ranked = _ranked(view, base, strategy, cache, candidates, risk, keep)
    out = [_candidate(base, s, True) for s in ranked if s.cell != first]
    if first is not None:
        top = next((s for s in ranked if s.cell == first), None)
        if top is None:
            top = _scored_cell(view, base, strategy, cache, risk, first)
        out.insert(0, _candidate(base, top, first in scored))
    if len(out) < keep:
        listed = {c.cell for c in out}
        others: list[tuple[Fraction, int]] = []
        for mask, p in base.boxes:
            if p == 1:
                continue
            cells = _outside_candidates(view, base) if mask == base.outside else _bits(mask)
            others.extend((1 - p, i) for i in cells if i not in scored and i not in listed)
        others.sort(key=lambda c: (-c[0], c[1]))
        out.extend(_candidate(base, _scored_cell(view, base, strategy, cache, risk, index),
                              False) for _, index in others[:keep - len(out)])
    return out[:keep]


def _scored_cell(view: KnownGrid, base: Estimate, strategy: Strategy, cache: Counting,
                 risk: Risk | None, index: int) -> _Scored:
    """Cell ``index`` scored in full, as :func:`_ranked` scores a candidate."""
    safety = 1 - base.probability(index)
    gain = _risk_gain(risk, base, safety, index, strategy) if risk else Fraction(1)
    chances = value_chances(view, base, index, cache)
    return _Scored(_score(base, safety, index, chances, strategy, gain), chances)


def _candidate(base: Estimate, scored: _Scored, considered: bool) -> Candidate:
    return Candidate(scored.cell, 1 - scored.score.safety,
                     progress_chance(base, scored.chances),
                     secondary_safety(base, scored.chances), scored.score, considered)


def dead_cells(view: KnownGrid, base: Estimate, cache: Counting) -> int:
    """The unknown cells, neither safe nor mines for certain, that can show only one value
    when safe (opening one tells nothing but that it was safe), as a bitmask.

    Exact: each frontier cell's values are listed (:func:`value_chances`'s first step,
    without the positions they leave); off the frontier, one cell per class of equivalent
    cells (:func:`_outside_classes`) answers for its class. Cost: one value listing per
    frontier cell and class.
    """
    dead = 0
    undecided = base.unknown & ~base.safe & ~base.mines
    for first, cells in [(i, 1 << i) for i in _bits(undecided & ~base.outside)] + \
            _outside_classes(view, base):
        if undecided >> first & 1 and len(_values(view, base, first, cache).values) == 1:
            dead |= cells & undecided
    return dead


def fifty_fifties(view: KnownGrid, base: Estimate, cache: Counting) -> list[tuple[int, ...]]:
    """The 50/50s of ``base`` that no click can ever resolve, each as its cells (sorted),
    in order: the forced pairs (:func:`forced_fifty_fifties`) and the pairs and 2x2 blocks
    of :mod:`exactmines.play.fifty_patterns` that have formed (every outer cell a proved
    mine, and one of the two orientations in every layout: each is then exactly as likely);
    the patterns on the square grid only (they are its shapes).
    """
    found: set[tuple[int, ...]] = set(forced_fifty_fifties(view, base))
    patterns = _risk(view, base, cache).patterns if view.topology.is_square else []
    for kind, cell, tally, missing in patterns:
        if not missing and 2 * tally == base.layouts:
            pattern = shape(view.width, view.height, kind, cell)
            if pattern is not None:
                found.add(tuple(_bits(pattern[0])))
    return sorted(found)


def chance_all_safe(base: Estimate, cache: Counting, cells: int) -> Fraction:
    """The exact probability that every unknown cell of ``cells`` (a bitmask) is safe:
    layouts with all of them safe over all layouts (the risk of opening them at once)."""
    return Fraction(_layouts_with(base, cache, 0, cells & base.unknown), base.layouts)


def _risk(view: KnownGrid, base: Estimate, cache: Counting) -> Risk:
    """The 50/50 patterns of ``base`` (:mod:`exactmines.play.fifty_patterns`), counted exactly."""
    known = view.mines | base.mines
    hidden = base.unknown & ~base.mines
    left = view.mines_left - (base.mines & ~view.mines).bit_count()
    return Risk(view.width, view.height, hidden, view.revealed, known, left,
                lambda mines, safe: _layouts_with(base, cache, mines, safe))


def _risk_gain(risk: Risk, base: Estimate, safety: Fraction, index: int,
               strategy: Strategy) -> Fraction:
    """``1 + risk_weight * influence / safe layouts``: what the candidate's score is
    multiplied by for the 50/50s it can settle now (1 when it is in no pattern)."""
    safe_layouts = safety * base.layouts
    if safe_layouts.denominator != 1:
        # A cell's safe layouts are a whole number: the cells of a box have equal counts.
        raise AssertionError(f"cell {index} is safe in {safe_layouts} layouts, not a whole "
                             "number: the counts of its box are wrong (a bug)")
    influence = risk.influence(index, base.layouts - int(safe_layouts), base.layouts)
    return 1 + strategy.risk_weight * Fraction(influence, int(safe_layouts))


def _layouts_with(base: Estimate, cache: Counting, mines: int, safe: int) -> int:
    """Layouts of ``base`` in which every cell of ``mines`` is a mine and every cell of
    ``safe`` is safe (both unknown cells), exactly (divided by ``base.scale``'s divisor,
    like ``base.layouts``): the rules lose those cells (and the mines among them), the
    components they split or change are counted again (cached)."""
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
    return counted(rules, unknown, cache).layouts(base.mines_left - mines.bit_count(),
                                                  base.scale)


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
           strategy: Strategy, gain: Fraction = Fraction(1)) -> Score:
    """The :class:`Score` of a candidate of this safety with these value chances."""
    if strategy.secondary:
        value = secondary_safety(base, chances)
        if strategy.progress:
            value += strategy.progress * progress_chance(base, chances)
        value *= gain
    else:
        value = safety
    opening = Fraction(0)
    if strategy.openings:
        zero = next((after.layouts for v, after in chances if v == 0), 0)
        opening = Fraction(zero, base.layouts)
    return Score(strategy.dead and len(chances) > 1, value, opening, safety, -index)


def _chances_to_beat(view: KnownGrid, base: Estimate, index: int, cache: Counting,
                     strategy: Strategy, safety: Fraction, best: Score | None,
                     gain: Fraction = Fraction(1)) -> list[tuple[int, After]] | None:
    """The value chances of a candidate, or ``None`` as soon as the values seen so far
    prove its score below ``best`` (the rest are then never combined).

    In layouts, the secondary score with progress is at most ``(1 + progress) * safety``
    times the layouts, and exactly that less, for each value whose least mine probability
    is neither 0 nor 1, ``layouts * (least + progress)`` (0 and 1 count as a free next
    click); the values' layouts add up to the candidate's safe layouts. Once these deficits
    exceed the room above the best score the candidate loses, whatever the other values.
    As in :func:`_may_beat`, this prunes only against a living best, or when dead cells
    are not told apart.
    """
    values = _values(view, base, index, cache)
    if best is None or not strategy.secondary or (strategy.dead and not best.living):
        return [(v, values.after(i)) for i, v in enumerate(values.values)]
    room = ((1 + strategy.progress) * safety - best.value / gain) * base.layouts
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


def _may_beat(best: Score, safety: Fraction, strategy: Strategy,
              gain: Fraction = Fraction(1)) -> bool:
    """Can a candidate of this safety still score above ``best``?

    Secondary safety never exceeds safety, and a living cell beats a dead one whatever its
    value, so a bound on the value prunes only against a best that is living (or when dead
    cells are not told apart).
    """
    if strategy.dead and not best.living:
        return True
    bound = safety * (1 + strategy.progress) * gain if strategy.secondary else safety
    return bound >= best.value


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

    def __init__(self, width: int, height: int, mines: int, strategy: Strategy, *,
                 engine: Backend | None = None, topology: Topology | None = None,
                 counts: SharedCounts | None = None) -> None:
        self.view = new_grid(topology or square(width, height), mines)
        self.strategy = strategy
        #: Counts components too big for the box search (a new ``auto`` engine by default),
        #: through ``counts`` when given: the counts of the analysis of the same position
        #: (:class:`~exactmines.play.shared.SharedCounts`), which the player then takes
        #: instead of counting its components again.
        self.cache = Cache(engine=engine, shared=counts)
        self.analyses = 0
        self.endgame_searches = 0
        #: Per kind of guess (:data:`GUESS_KINDS`), the sum of the mine probabilities of
        #: the cells guessed: the risk taken there. Its total over a game is the chance of
        #: losing along the game's path, so its mean over games estimates the loss rate.
        self.risks: dict[str, Fraction] = {}
        #: Every guess in order.
        self.guesses: list[Guess] = []

    def show(self, shown: list[tuple[int, int]]) -> None:
        """Cells newly revealed by the game, as ``(index, number)``."""
        self.view.show(shown)

    def next_clicks(self, *, budget: Budget = UNLIMITED) -> tuple[list[int], bool]:
        """The cells to click next and whether that is a guess.

        Either every cell found certainly safe (a list, in row-major order) or one guess.
        Certain mines found on the way are recorded in the view (flagged).

        ``budget`` bounds the counting of components past the box search's node limit.
        Everything else a move does is bounded by counts (nodes, layouts), so the choice
        never depends on the clock: a move either is the one made without a limit or
        raises :class:`~exactmines.errors.OutOfTime`.

        Raises
        ------
        OutOfTime
            When ``budget`` runs out: no move is made, and asking again starts afresh.
        """
        counting = self.cache.under(budget)
        view = self.view
        safe = _local_safe(view)
        if safe:
            return safe, False
        base = _checked_estimate(view, counting)
        self.analyses += 1
        if base.safe or base.mines == base.unknown:  # the second: only mines left (won)
            view.mark_mines(_bits(base.mines))
            return _bits(base.safe), False
        # The guessing parts read ``base`` against the view it came from: flag afterwards.
        guess = choose_guess(view, base, self.strategy, counting)
        view.mark_mines(_bits(base.mines))
        if guess.kind == "endgame":
            self.endgame_searches += 1
        self.risks[guess.kind] = self.risks.get(guess.kind, Fraction(0)) + guess.probability
        self.guesses.append(guess)
        return [guess.cell], True

    def explain(self, keep: int = 5, *, budget: Budget = UNLIMITED) -> Explanation:
        """What :meth:`next_clicks` would play now and why, for people, without playing it:
        the certainly safe cells, or the guess with the ``keep`` best candidates
        (:func:`ranked_candidates`) and the endgame search behind it; and, either way, the
        dead cells and the 50/50s of the position.

        The same steps as :meth:`next_clicks` (local rules, then the exact analysis, then
        :func:`choose_guess`'s parts in order), so the move is the one it plays; they run
        on a copy of the view, so the player is left as it was (only its cache of counts
        grows) and plays the same game whether it was asked or not.

        Raises
        ------
        OutOfTime
            When ``budget`` runs out.
        """
        counting = self.cache.under(budget)
        view = self.view.copy()
        safe = _local_safe(view)
        base = _checked_estimate(view, counting)
        dead = dead_cells(view, base, counting)
        fifties = fifty_fifties(view, base, counting)
        if safe or base.safe or base.mines == base.unknown:
            return Explanation(safe or _bits(base.safe), None, base, [], None, dead, fifties)
        guess, search = _decide(view, base, self.strategy, counting)
        candidates = ranked_candidates(view, base, self.strategy, counting, keep, guess.cell)
        return Explanation([guess.cell], guess, base, candidates, search, dead, fifties)

    def chance_all_safe(self, cells: list[int], *, budget: Budget = UNLIMITED) -> Fraction:
        """The exact chance that every one of these unknown cells is safe, in what the
        player knows now: the risk of opening them at once, as a chord does
        (:func:`chance_all_safe`). Raises ``OutOfTime`` when ``budget`` runs out."""
        counting = self.cache.under(budget)
        base = _checked_estimate(self.view, counting)
        return chance_all_safe(base, counting, sum(1 << i for i in cells))


def _local_safe(view: KnownGrid) -> list[int]:
    """The cells the local rules prove safe in ``view``; the mines they prove are recorded
    in it (a second pass when mines alone were found: they may settle more)."""
    safe, mines = local_deductions(view)
    view.mark_mines(mines)
    if mines and not safe:
        safe, mines = local_deductions(view)
        view.mark_mines(mines)
    return safe


def _checked_estimate(view: KnownGrid, cache: Counting) -> Estimate:
    """:func:`estimate`, refusing a view no layout fits (a bug, never a move)."""
    base = estimate(view, cache)
    if base.layouts == 0:
        raise AssertionError("the player's view is inconsistent: a bug in the game or "
                             "the deductions")
    return base


@dataclass(frozen=True, slots=True)
class Explanation:
    """The player's next move and what it rests on (:meth:`Player.explain`).

    Attributes
    ----------
    cells:
        The move: every certainly safe cell found, or the one guess.
    guess:
        The guess, or ``None`` when the move is certain.
    base:
        The exact analysis of the player's view.
    candidates:
        The best guesses: the guess first, then the others in the strategy's order (empty
        when the move is certain).
    endgame:
        The endgame search, when it chose the guess.
    dead:
        :func:`dead_cells`, a bitmask.
    fifties:
        :func:`fifty_fifties`.
    """

    cells: list[int]
    guess: Guess | None
    base: Estimate
    candidates: list[Candidate]
    endgame: EndgameSearch | None
    dead: int
    fifties: list[tuple[int, ...]]
