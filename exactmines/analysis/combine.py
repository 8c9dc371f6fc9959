"""Per-component counts -> exact probabilities under the total mine count.

With ``L`` mines left and ``U`` covered cells off the frontier, a global layout picks ``k_c``
mines in each component and puts the other ``L - sum k_c`` on the ``U`` outside cells in
C(U, L - sum k_c) ways. In polynomial terms: with ``P_c(x) = sum_k layouts_c[k] x^k`` and
``T = prod P_c``, the number of layouts is ``sum_s T[s] C(U, L - s)``, and component ``c``
with ``k`` mines is weighted by ``w_c[k] = sum_j O_c[j] C(U, L - k - j)`` where ``O_c`` is
the product of the *other* components. All ``w_c`` come out of one pass down a product tree
(each node passes its children the weight vector correlated with the sibling's product),
so thousands of components cost O(D^2 log C) coefficient work, not O(C * D^2).

:func:`weigh` is the one place probabilities are made from counts: the analysis
(:func:`combine_ratios`) and the player (its view's estimate) both call it.

Everything is Python ``int`` and ``Fraction``; polynomial products pack coefficients into
one big integer (Kronecker substitution) so the multiplication runs in C.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import compress, repeat
from math import comb, gcd
from math import prod as math_prod
from operator import mul
from typing import NamedTuple

from exactmines.analysis.counts import ComponentCounts

__all__ = [
    "Combined",
    "Ratios",
    "fraction_of",
    "combine",
    "combine_ratios",
    "combine_without_count",
    "combine_ratios_without_count",
    "weigh",
    "count_layouts",
    "poly_mul",
    "binomials",
    "binomial",
    "relative_binomials",
    "feasible_sums",
    "allowed_mine_numbers",
    "fits",
    "Scale",
    "tail_binomials",
    "correlate",
]

_SCHOOLBOOK = 24


def poly_mul(a: Sequence[int], b: Sequence[int]) -> list[int]:
    """The product of two polynomials with non-negative integer coefficients."""
    if not a or not b:
        return []
    if min(len(a), len(b)) <= _SCHOOLBOOK:
        out = [0] * (len(a) + len(b) - 1)
        for i, x in enumerate(a):
            if x:
                for j, y in enumerate(b):
                    out[i + j] += x * y
        return out
    # Kronecker substitution: evaluate both at 2**bits, multiply once, read the digits.
    bits = (max(a).bit_length() + max(b).bit_length() + min(len(a), len(b)).bit_length() + 1)
    width = (bits + 7) // 8
    pack = lambda p: int.from_bytes(b"".join(x.to_bytes(width, "little") for x in p), "little")  # noqa: E731
    product = pack(a) * pack(b)
    raw = product.to_bytes((len(a) + len(b) - 1) * width, "little")
    return [int.from_bytes(raw[i:i + width], "little") for i in range(0, len(raw), width)]


@lru_cache(maxsize=64)
def binomials(n: int) -> list[int]:
    """``[C(n, 0), ..., C(n, n)]`` by the multiplicative recurrence (no factorials): the
    ways a box of ``n`` cells holds each number of mines. Kept for the last 64 sizes (the
    DP asks for the same few box sizes over and over); the list is shared, never change it."""
    row = [1] * (n + 1)
    for k in range(1, n + 1):
        row[k] = row[k - 1] * (n - k + 1) // k
    return row


def correlate(poly: Sequence[int], weights: Sequence[int], length: int) -> list[int]:
    """``out[k] = sum_j poly[j] * weights[k + j]`` for ``k < length`` (one product): the
    weight of each mine number of a part, given the others' polynomial ``poly`` and the
    weights of the whole (the ways to finish a layout off the frontier)."""
    d = len(poly) - 1
    full = poly_mul(poly[::-1], weights)
    out = full[d:d + length]
    return out + [0] * (length - len(out))


def _weights_down(polys: Sequence[Sequence[int]], weights: list[int]) -> tuple[list[int],
                                                                             list[list[int]]]:
    """Product of ``polys`` and, for each, its weight vector given the others."""
    if len(polys) == 1:
        return list(polys[0]), [weights[:len(polys[0])]]
    half = len(polys) // 2
    # Products first (bottom-up), then each half gets the weights seen through the other.
    left = _product(polys[:half])
    right = _product(polys[half:])
    _, left_weights = _weights_down(polys[:half], correlate(right, weights, len(left)))
    _, right_weights = _weights_down(polys[half:], correlate(left, weights, len(right)))
    return poly_mul(left, right), left_weights + right_weights


def _product(polys: Sequence[Sequence[int]]) -> list[int]:
    if len(polys) == 1:
        return list(polys[0])
    half = len(polys) // 2
    return poly_mul(_product(polys[:half]), _product(polys[half:]))


@dataclass(frozen=True, slots=True)
class Combined:
    """Exact answers for a whole position.

    Attributes
    ----------
    layouts:
        Consistent layouts of all remaining mines (0 when inconsistent).
    box_probability:
        ``box_probability[c][b]``: probability that a given cell of box ``b`` of component
        ``c`` is a mine (``None`` entries only when the position is inconsistent).
    outside_probability:
        Probability for each cell off the frontier; ``None`` when the count is unknown or
        there are no such cells.
    """

    layouts: int
    box_probability: tuple[tuple[Fraction | None, ...], ...]
    outside_probability: Fraction | None

    def __reduce__(self) -> tuple[object, ...]:
        # Spelled out: compiled by mypyc (setup.py), a frozen dataclass does not unpickle.
        return (Combined, (self.layouts, self.box_probability, self.outside_probability))


#: ``(numerator, denominator)`` of a probability, not reduced (denominator > 0).
Ratio = tuple[int, int]


class Ratios(NamedTuple):
    """What :class:`Combined` holds, before any fraction is made (:func:`combine_ratios`).

    A :class:`~fractions.Fraction` costs a gcd and an object per box, paid for every box of
    every position analysed; the analysis keeps these integers and makes the fractions of
    the cells only when they are read. (A named tuple, made at C speed by
    ``tuple.__new__``: a compiled frozen dataclass is made by the Python ``__init__`` that
    ``dataclasses`` writes, a tenth of the combination of a small position.)

    Attributes
    ----------
    layouts:
        As :attr:`Combined.layouts` (0 when inconsistent).
    box:
        ``box[c][b]``: the probability of a cell of box ``b`` of component ``c``, as a
        ratio; ``None`` when the position is inconsistent.
    outside:
        The probability of each cell off the frontier, or ``None`` (see
        :attr:`Combined.outside_probability`).
    """

    layouts: int
    box: tuple[tuple[Ratio, ...], ...] | None
    outside: Ratio | None

    def combined(self, sizes: Sequence[Sequence[int]]) -> Combined:
        """The same answers as exact fractions."""
        if self.box is None:
            return Combined(self.layouts, tuple(tuple(None for _ in s) for s in sizes),
                            None)
        return Combined(self.layouts,
                        tuple(tuple(fraction_of(*r) for r in box) for box in self.box),
                        None if self.outside is None else fraction_of(*self.outside))


def _support(layouts: Sequence[int]) -> tuple[int, list[int]]:
    """``(lo, coefficients lo..hi)``: the polynomial without its zero ends (``[]`` if 0)."""
    nonzero = [k for k, n in enumerate(layouts) if n]
    if not nonzero:
        return 0, []
    return nonzero[0], list(layouts[nonzero[0]:nonzero[-1] + 1])


def binomial(n: int, k: int) -> int:
    """``C(n, k)``, exactly; for large ``n`` from its prime factorisation.

    ``math.comb`` divides big numbers on the way, quadratic in CPython: about 1 s for
    ``C(587392, 150000)`` (366,000 bits). Here Legendre's formula gives the exponent of every
    prime up to ``n`` (the carries of ``k + (n - k)`` in base ``p``) and a product tree
    multiplies the prime powers, multiplications only: about 0.07 s for the same number.
    """
    if not 0 <= k <= n:
        return 0
    k = min(k, n - k)
    if n < 20_000 or k < 64:
        return comb(n, k)
    sieve = bytearray([1]) * (n + 1)
    sieve[0:2] = b"\x00\x00"
    for p in range(2, int(n**0.5) + 1):
        if sieve[p]:
            sieve[p * p::p] = bytes(len(range(p * p, n + 1, p)))
    powers = []
    for p in compress(range(n + 1), sieve):
        e, a, b, c = 0, n, k, n - k
        while a:
            a, b, c = a // p, b // p, c // p
            e += a - b - c
        if e:
            powers.append(p**e)
    while len(powers) > 1:
        powers = [math_prod(powers[i:i + 2]) for i in range(0, len(powers), 2)]
    return powers[0] if powers else 1


def relative_binomials(outside: int, low: int, high: int) -> list[int]:
    """Integers ``e[m - low]`` proportional to ``C(outside, m)`` for ``low <= m <= high``.

    ``e(m) = (high!/m!) * ((outside-low)!/(outside-m)!)``, so ``C(outside, m) = K * e(m)``
    with one rational ``K`` for the whole range. Their size grows with the width of the range
    (about ``log2(outside)`` bits a step), not with ``outside``: on a 10**6-cell board
    ``C(U, m)`` has hundreds of thousands of bits and the whole row millions of numbers.
    Cost: O(width) multiplications and exact divisions by small integers.
    """
    assert 0 <= low <= high <= outside
    top = 1
    for i in range(outside - high + 1, outside - low + 1):
        top *= i
    out = [0] * (high - low + 1)
    out[-1] = top
    for m in range(high, low, -1):
        # e(m-1) = e(m) * m / (outside-m+1): exact, as (outside-m+1) divides e(m)'s product.
        top = top * m // (outside - m + 1)
        out[m - 1 - low] = top
    return out


#: Up to this many cells off the frontier, layout counts are exact; beyond, they are scaled
#: (:class:`Scale`): ``C(U, L)`` grows with ``U`` (600,000 bits for 15% mines on a 1000x1000
#: board), and so would every count and every gcd of a probability.
_EXACT_OUTSIDE = 1024

#: How far a :class:`Scale`'s window reaches below the position's cells off the frontier and
#: its mines left less the frontier's: past what a hypothetical reveal (at most 9 cells
#: leave the outside, 9 mine numbers join the frontier, 4 more for the next candidates) or
#: a long-term risk pattern (at most 6 cells, 5 mines) asks for.
_SLACK = 32


@dataclass(frozen=True, slots=True)
class Scale:
    """A divisor common to every layout count of one decision, for positions with many cells
    off the frontier.

    The counts are sums of ``C(U', m)`` times products of the components' counts, for ``U'``
    within ``low_outside..outside`` and ``m`` within ``low..high``. Each binomial is divided
    by ``B = low_outside! / (high! (outside - low)!)``, which leaves the integer
    ``prod(low_outside+1..U') * prod(m+1..high) * prod(U'-m+1..outside-low)``: a product of
    ``outside - low_outside + high - low`` factors, so its size follows the width of the
    window, not ``U'`` (a few thousand bits where ``C(U', m)`` has hundreds of thousands).
    The player only compares counts of one decision with each other (probabilities, shares
    of layouts, bounds in layouts), which a common divisor leaves as they are; the one
    absolute test, the endgame's limit, reads the true count
    (:meth:`exactmines.play.strategy.Estimate.layouts_at_most`).
    """

    outside: int
    low_outside: int
    low: int
    high: int

    @classmethod
    def around(cls, outside: int, left: int, top: int) -> Scale | None:
        """The scale of a position with ``outside`` cells off the frontier, ``left`` mines
        and at most ``top`` mines on the frontier; ``None`` (exact counts) when ``outside``
        is small."""
        if outside <= _EXACT_OUTSIDE:
            return None
        return cls(outside, max(outside - _SLACK, 0), max(left - top - _SLACK, 0), left)

    def row(self, outside: int, left: int, top: int) -> tuple[int, ...]:
        """``C(outside, left - s) / B`` for ``s = 0..top`` (see :func:`tail_binomials`).

        Raises
        ------
        AssertionError
            When a binomial is asked for outside the window (a bug: the counts would not
            share the divisor).
        """
        out = [0] * (top + 1)
        low, high = max(left - top, 0), min(left, outside)
        if low > high:
            return tuple(out)
        if not (self.low_outside <= outside <= self.outside
                and self.low <= low and high <= self.high):
            raise AssertionError(f"C({outside}, {low}..{high}) is outside the window of {self} "
                                 "(a bug: the counts would not share one divisor)")
        # C(outside, m) = relative[m - low] * outside! / (high! (outside - low)!).
        relative = relative_binomials(outside, low, high)
        factor = (math_prod(range(self.low_outside + 1, outside + 1))
                  * math_prod(range(high + 1, self.high + 1))
                  * math_prod(range(outside - low + 1, self.outside - self.low + 1)))
        for m in range(low, high + 1):
            out[left - m] = relative[m - low] * factor
        return tuple(out)


def tail_binomials(outside: int, left: int, top: int, scale: Scale | None = None
                    ) -> tuple[int, ...]:
    """``C(outside, left - s)`` for ``s = 0..top`` (0 where ``left - s`` is not in
    ``0..outside``): the ways to put the other mines off the frontier when it holds ``s``;
    each divided by ``scale``'s divisor when there is one (:meth:`Scale.row`). Cached: the
    same rows recur all game (exact ones) or all decision (scaled ones, fewer and larger)."""
    if scale is not None:
        return _scaled_row(scale, outside, left, top)
    return _exact_row(outside, left, top)


@lru_cache(maxsize=8192)
def _exact_row(outside: int, left: int, top: int) -> tuple[int, ...]:
    return tuple(comb(outside, left - s) if 0 <= left - s <= outside else 0
                 for s in range(top + 1))


@lru_cache(maxsize=256)
def _scaled_row(scale: Scale, outside: int, left: int, top: int) -> tuple[int, ...]:
    return scale.row(outside, left, top)


_ZERO = Fraction(0)
_ONE = Fraction(1)


def fraction_of(numerator: int, denominator: int) -> Fraction:
    """``Fraction(numerator, denominator)`` (``denominator > 0``); 0 and 1 without the gcd
    (most cells of a big board are settled, and their numbers are big).

    The others are reduced by one ``math.gcd`` and made without ``Fraction.__new__``, whose
    argument parsing and normalisation, in Python, cost twice the rest: every distinct
    probability of every analysis is one (:func:`_coprime`)."""
    if numerator == 0:
        return _ZERO
    if numerator == denominator:
        return _ONE
    g = gcd(numerator, denominator)
    if g != 1:
        numerator //= g
        denominator //= g
    return _coprime(numerator, denominator)


def _coprime(numerator: int, denominator: int) -> Fraction:
    """The :class:`~fractions.Fraction` of coprime ``numerator`` and ``denominator > 0``:
    its two slots filled, as ``Fraction._from_coprime_ints`` (Python 3.12 and later) does.
    Equal, in value, hash and type, to ``Fraction(numerator, denominator)`` (a test checks
    it)."""
    made = object.__new__(Fraction)
    made._numerator = numerator  # type: ignore[attr-defined]
    made._denominator = denominator  # type: ignore[attr-defined]
    return made


def combine(counts: Sequence[ComponentCounts], sizes: Sequence[Sequence[int]], outside: int,
            mines_left: int) -> Combined:
    """Exact probabilities with a known number of mines left (see module notes and
    :func:`combine_ratios`)."""
    return combine_ratios(counts, sizes, outside, mines_left).combined(sizes)


def combine_ratios(counts: Sequence[ComponentCounts], sizes: Sequence[Sequence[int]],
                   outside: int, mines_left: int) -> Ratios:
    """Exact probabilities with a known number of mines left, as ratios of integers: the
    analysis' front-end of :func:`weigh` (true layout count)."""
    return weigh(counts, sizes, outside, mines_left)


def combine_without_count(counts: Sequence[ComponentCounts],
                          sizes: Sequence[Sequence[int]]) -> Combined:
    """Exact frontier probabilities when the total is unknown: components independent."""
    return combine_ratios_without_count(counts, sizes).combined(sizes)


def combine_ratios_without_count(counts: Sequence[ComponentCounts],
                                 sizes: Sequence[Sequence[int]]) -> Ratios:
    """:func:`combine_without_count` as ratios of integers (:func:`weigh` with no count)."""
    return weigh(counts, sizes, 0, None)


def weigh(counts: Sequence[ComponentCounts], sizes: Sequence[Sequence[int]], outside: int,
          mines_left: int | None, scale: Scale | None = None) -> Ratios:
    """The combination: every box's probability from the components' counts by mine number
    (``counts``, boxes of ``sizes`` cells), with ``outside`` cells off the frontier and
    ``mines_left`` mines, or with no count (``None``: the components are independent).

    The one place probabilities are made: the analysis (:func:`combine_ratios`, exact
    fractions of the cells) and the player (its view's estimate, :mod:`exactmines.play`)
    both read them here. ``layouts`` is the true number of layouts, or, with a ``scale``
    (the player on a board with many cells off the frontier), that number divided by the
    scale's divisor, as every count of the player's decision is (:class:`Scale`); the
    ratios are the same either way.

    Notes
    -----
    Factors common to every layout cancel in every probability, so the work is done on
    reduced numbers: a component with one possible mine number only shifts the total (its
    boxes' probabilities are its own ratios), and ``C(U, L - s)`` is replaced by the
    :func:`relative_binomials` of the mine numbers the frontier can leave (or the scaled
    row of :func:`tail_binomials`). Only the true layout count needs the true scale, one
    :func:`binomial` at the end. The product tree then runs over the components whose mine
    number varies, with weights whose size is set by the total width ``D`` of their mine
    numbers, not by ``U``. Without a count every component is its own: no product at all.
    """
    if mines_left is None:
        return _independent(counts, sizes)
    if not counts and scale is None:
        # Nothing on the frontier left to count (every cell next to a number settled: half
        # the small boards): the mines left lie among the cells off it, C(U, L) ways, each
        # of those cells a mine in L of U (the ratios the frame below gives, without it).
        if not 0 <= mines_left <= outside:
            return _INCONSISTENT
        return tuple.__new__(Ratios, (binomial(outside, mines_left), (),
                                      (mines_left, outside) if outside else None))
    frame = _frame(counts, outside, mines_left, scale)
    if frame is None:
        return _INCONSISTENT
    supports, base, varying, weights, factor, divisor = frame
    polys = [supports[c][1] for c in varying]
    if polys:
        total_poly, per_component = _weights_down(polys, weights)
    else:
        total_poly, per_component = [1], []
    reduced = sum(map(mul, total_poly, weights))  # (both of length top + 1)
    if reduced == 0:
        return _INCONSISTENT
    layouts = factor * reduced // divisor

    weight_of = dict(zip(varying, per_component, strict=True))
    box_probability = []
    for c, (counts_c, box_sizes) in enumerate(zip(counts, sizes, strict=True)):
        lo, poly = supports[c]
        w = weight_of.get(c)
        if w is not None:
            numerators = []
            full: dict[int, tuple[int, ...]] = {}  # per box size: the column of a sure mine
            # Columns at C speed (zip, any, ==): most boxes of a big component are settled,
            # and only the others need the dot product with the weights.
            for size, column in zip(box_sizes, zip(*counts_c.box_mines[lo:lo + len(poly)],
                                                   strict=True), strict=True):
                if not any(column):
                    numerators.append(0)
                    continue
                if size not in full:
                    full[size] = tuple(size * n for n in poly)
                numerators.append(size * reduced if column == full[size]
                                  else sum(map(mul, column, w)))
            denominator = reduced
        else:
            numerators = list(counts_c.box_mines[lo])
            denominator = poly[0]
        box_probability.append(tuple(zip(numerators, map(mul, box_sizes, repeat(denominator)),
                                         strict=True)))
    outside_probability = None
    if outside:
        # A given outside cell is a mine in C(U-1, m-1) = C(U, m) * m / U of the placements.
        hits = 0
        for i, (t, e) in enumerate(zip(total_poly, weights, strict=True)):
            hits += t * e * (mines_left - base - i)
        outside_probability = (hits, outside * reduced)
    return tuple.__new__(Ratios, (layouts, tuple(box_probability), outside_probability))


def count_layouts(counts: Sequence[ComponentCounts], outside: int, mines_left: int,
                  scale: Scale | None = None) -> int:
    """The ``layouts`` of :func:`weigh` alone (the products, no weights per component)."""
    frame = _frame(counts, outside, mines_left, scale)
    if frame is None:
        return 0
    supports, _, varying, weights, factor, divisor = frame
    total_poly = _product([supports[c][1] for c in varying]) if varying else [1]
    return factor * sum(t * w for t, w in zip(total_poly, weights, strict=True)) // divisor


#: What :func:`weigh` and :func:`count_layouts` start from: per component ``(lo, its
#: layouts by mine number lo..hi)``, the fewest mines the frontier holds, the components
#: whose mine number varies, the weight of each number of mines ``base + t`` on the
#: frontier (proportional to ``C(U, L - base - t)``), and ``(factor, divisor)``: the
#: layouts are ``factor * sum_t T[t] weights[t] // divisor``, ``T`` the product of the
#: varying components' layouts (``factor`` holds those of the others).
_Frame = tuple[list[tuple[int, list[int]]], int, list[int], list[int], int, int]


def _frame(counts: Sequence[ComponentCounts], outside: int, mines_left: int,
           scale: Scale | None) -> _Frame | None:
    """:data:`_Frame` of a combination, ``None`` when no layout can fit."""
    # One pass (no generator per sum: each costs more than its work on a small position).
    supports = []
    base = 0  # fewest mines the frontier can hold
    single = 1  # layouts of the single-mine-number components
    varying = []
    top = 0  # the most mines the varying components hold beyond their fewest
    for c, counted in enumerate(counts):
        lo, poly = _support(counted.layouts)
        if not poly:
            return None
        supports.append((lo, poly))
        base += lo
        if len(poly) == 1:
            single *= poly[0]
        else:
            varying.append(c)
            top += len(poly) - 1
    # The frontier holds base + t mines (0 <= t <= top), leaving m = mines_left - base - t.
    left = mines_left - base
    if scale is not None:  # the scaled binomials themselves: the layouts need no factor
        return (supports, base, varying, list(tail_binomials(outside, left, top, scale)),
                single, 1)
    high = min(outside, left)
    low = max(0, left - top)
    if low > high:
        return None
    # weights[t] = e(m) for m = left - t in low..high (relative_binomials), 0 elsewhere;
    # C(U, m) = C(U, high) * e(m) / e(high), so the layouts scale by C(U, high) / e(high).
    weights = [0] * (top + 1)
    weights[left - high:left - low + 1] = relative_binomials(outside, low, high)[::-1]
    return (supports, base, varying, weights, single * binomial(outside, high),
            weights[left - high])


def _independent(counts: Sequence[ComponentCounts],
                 sizes: Sequence[Sequence[int]]) -> Ratios:
    """:func:`weigh` without a count: each component's boxes by its own layouts."""
    layouts = 1
    box_probability: list[tuple[Ratio, ...]] = []
    for c, box_sizes in zip(counts, sizes, strict=True):
        total = c.total
        layouts *= total
        if total == 0:
            return _INCONSISTENT
        sums = map(sum, zip(*c.box_mines, strict=True)) if c.box_mines else ()
        box_probability.append(tuple(zip(sums, map(mul, box_sizes, repeat(total)),
                                         strict=True)))
    return tuple.__new__(Ratios, (layouts, tuple(box_probability), None))


_INCONSISTENT = Ratios(0, None, None)


def feasible_sums(numbers: Sequence[frozenset[int]]) -> int:
    """The sums reachable by picking one number from each set, as a bitmask (bit s set)."""
    mask = 1
    for options in numbers:
        mask = _sumset(mask, options)
    return mask


def _sumset(mask: int, options: frozenset[int]) -> int:
    if options and len(options) > 64:
        low, high = min(options), max(options)
        if len(options) == high - low + 1:  # a run (a component not decided takes them all)
            return _dilated(mask, high - low) << low
    out = 0
    for k in options:
        out |= mask << k
    return out


def _dilated(mask: int, width: int) -> int:
    """``mask | mask << 1 | ... | mask << width``, by doubling: a few dozen big-integer
    operations where a loop over the shifts costs one each (quadratic on a component of
    hundreds of thousands of cells)."""
    out, span = mask, 1  # out holds the shifts 0 .. span - 1
    while span <= width:
        step = min(span, width + 1 - span)
        out |= out << step
        span += step
    return out


def fits(mask: int, low: int, high: int) -> bool:
    """Does ``mask`` have a set bit in ``low..high``?"""
    low = max(low, 0)
    if high < low:
        return False
    return (mask >> low) & ((1 << (high - low + 1)) - 1) != 0


def allowed_mine_numbers(numbers: Sequence[frozenset[int]], outside: int,
                         mines_left: int) -> list[frozenset[int]]:
    """For each component, the mine numbers that extend to a full layout of the position.

    Component ``c`` may hold ``k`` mines when the other components can hold some ``t`` with
    ``0 <= mines_left - k - t <= outside``. Prefix and suffix sumsets (bitmasks) make this
    one sumset product per component.
    """
    prefix = [1]
    for options in numbers:
        prefix.append(_sumset(prefix[-1], options))
    suffix = [1]
    for options in reversed(numbers):
        suffix.append(_sumset(suffix[-1], options))
    suffix.reverse()
    allowed = []
    for c, options in enumerate(numbers):
        others = _sumset_masks(prefix[c], suffix[c + 1])
        # k fits when the others hold some t with t + u = mines_left - k, 0 <= u <= outside:
        # mines_left - k is a bit of the others' sums dilated by the outside cells.
        reach = _dilated(others, outside)
        if len(options) <= 64:
            allowed.append(frozenset(k for k in options if mines_left - k >= 0
                                     and reach >> (mines_left - k) & 1))
        else:  # one pass over the reachable sums, not a big-integer shift per option
            flags = format(reach, "b")[::-1]
            allowed.append(options.intersection(
                mines_left - s for s in range(min(len(flags), mines_left + 1))
                if flags[s] == "1"))
    return allowed


def _sumset_masks(a: int, b: int) -> int:
    """Sumset of two bitmasks: the support of the product of their 0/1 polynomials."""
    bits_a = [int(ch) for ch in reversed(bin(a)[2:])]
    bits_b = [int(ch) for ch in reversed(bin(b)[2:])]
    product = poly_mul(bits_a, bits_b)
    return int("".join("1" if x else "0" for x in reversed(product)), 2)
