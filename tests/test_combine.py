"""The exact combination step: polynomial products, binomials, feasible mine numbers."""

from __future__ import annotations

import copy
import pickle
from fractions import Fraction
from itertools import product
from math import comb

from hypothesis import given
from hypothesis import strategies as st

from exactmines.analysis.combine import (
    allowed_mine_numbers,
    binomials,
    feasible_sums,
    fits,
    fraction_of,
    poly_mul,
)

coefficients = st.lists(st.integers(0, 10**30), min_size=1, max_size=60)


@given(st.integers(1, 10**40), st.data())
def test_fraction_of_is_the_fraction_in_every_way(denominator, data):
    # Made without Fraction.__new__ (its two slots filled): it must be the same object in
    # value, type, hash, parts, text, arithmetic, pickling and copying.
    numerator = data.draw(st.integers(0, denominator))
    made, true = fraction_of(numerator, denominator), Fraction(numerator, denominator)
    assert type(made) is Fraction
    assert (made.numerator, made.denominator) == (true.numerator, true.denominator)
    assert made == true and hash(made) == hash(true) and str(made) == str(true)
    assert made + Fraction(1, 3) == true + Fraction(1, 3) and made * 7 == true * 7
    assert float(made) == float(true) and repr(made) == repr(true)
    assert pickle.loads(pickle.dumps(made)) == true and copy.deepcopy(made) == true


def schoolbook(a, b):
    out = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            out[i + j] += x * y
    return out


@given(coefficients, coefficients)
def test_kronecker_product_is_exact(a, b):
    assert poly_mul(a, b) == schoolbook(a, b)


def test_kronecker_product_on_long_sparse_polynomials():
    a = [0] * 200 + [7, 0, 3]
    b = [1] * 100
    assert poly_mul(a, b) == schoolbook(a, b)


@given(st.integers(0, 300))
def test_binomial_row(n):
    assert binomials(n) == [comb(n, k) for k in range(n + 1)]


@given(st.lists(st.frozensets(st.integers(0, 6), min_size=1, max_size=4), max_size=4),
       st.integers(0, 8), st.integers(0, 30))
def test_allowed_mine_numbers_by_brute_force(numbers, outside, left):
    allowed = allowed_mine_numbers(numbers, outside, left)
    expected = [set() for _ in numbers]
    for pick in product(*[sorted(n) for n in numbers]):
        if 0 <= left - sum(pick) <= outside:
            for c, k in enumerate(pick):
                expected[c].add(k)
    assert [set(a) for a in allowed] == expected
    sums = {sum(p) for p in product(*[sorted(n) for n in numbers])}
    mask = feasible_sums(numbers)
    assert {s for s in range(mask.bit_length()) if mask >> s & 1} == sums
    assert fits(mask, left - outside, left) == any(0 <= left - s <= outside for s in sums)


# --- combine() against the definition, including boards far larger than the frontier ----

def naive_combine(counts, sizes, outside, left):
    """Every choice of mine numbers, one per component, weighted by C(outside, rest)."""
    from fractions import Fraction

    layouts = 0
    mines = [[0] * len(s) for s in sizes]
    outside_hits = 0
    ranges = [[k for k, n in enumerate(c.layouts) if n] for c in counts]
    for pick in product(*ranges):
        rest = left - sum(pick)
        if not 0 <= rest <= outside:
            continue
        ways = comb(outside, rest)
        for c, k in enumerate(pick):
            ways *= counts[c].layouts[k]
        layouts += ways
        outside_hits += ways * rest
        for c, k in enumerate(pick):
            for b in range(len(sizes[c])):
                mines[c][b] += ways // counts[c].layouts[k] * counts[c].box_mines[k][b]
    if not layouts:
        return 0, None, None
    boxes = [tuple(Fraction(m, size * layouts) for m, size in zip(row, s, strict=True))
             for row, s in zip(mines, sizes, strict=True)]
    return layouts, boxes, Fraction(outside_hits, outside * layouts) if outside else None


@given(st.lists(st.tuples(st.lists(st.integers(1, 3), min_size=1, max_size=4),
                          st.lists(st.tuples(st.integers(0, 3), st.integers(0, 4)),
                                   max_size=3)), min_size=0, max_size=4),
       st.sampled_from([0, 1, 5, 40, 10**4]), st.integers(0, 3000))
def test_combine_matches_the_definition(shapes, outside, left):
    from exactmines.analysis.backends.brute import BruteForceBackend
    from exactmines.analysis.combine import combine
    from exactmines.analysis.frontier import Component, Constraint

    comps = []
    for sizes, rules in shapes:
        n = len(sizes)
        comps.append(Component(tuple(sizes), tuple(
            Constraint(tuple(sorted({a % n, (a + 1) % n})), m) for a, m in rules)))
    counts = [BruteForceBackend().count(c) for c in comps]
    left = left % (sum(c.cells for c in comps) + outside + 1)
    result = combine(counts, [c.sizes for c in comps], outside, left)
    layouts, boxes, out = naive_combine(counts, [c.sizes for c in comps], outside, left)
    assert result.layouts == layouts
    if layouts:
        assert [list(b) for b in result.box_probability] == [list(b) for b in boxes]
        assert result.outside_probability == out


@given(st.integers(0, 2000), st.integers(0, 2000), st.integers(0, 60))
def test_relative_binomials_are_proportional(outside, low, width):
    from fractions import Fraction

    from exactmines.analysis.combine import relative_binomials

    low = min(low, outside)
    high = min(outside, low + width)
    e = relative_binomials(outside, low, high)
    ratio = Fraction(comb(outside, high), e[-1])
    assert all(Fraction(comb(outside, m), e[m - low]) == ratio for m in range(low, high + 1))


@given(st.integers(0, 60_000), st.integers(-5, 60_005))
def test_binomial_by_prime_factors(n, k):
    from exactmines.analysis.combine import binomial

    assert binomial(n, k) == (comb(n, k) if 0 <= k <= n else 0)


@given(st.integers(0, 40), st.integers(-2, 45))
def test_nothing_left_to_count_combines_as_through_the_frame(outside, left):
    # A position whose frontier is all settled has no parts: combined in closed form, it
    # must say what the frame says of a part with one empty layout.
    from exactmines.analysis.combine import weigh
    from exactmines.analysis.counts import ComponentCounts

    alone = weigh([], [], outside, left)
    framed = weigh([ComponentCounts((1,), ((),))], [()], outside, left)
    assert alone.layouts == framed.layouts == (comb(outside, left) if 0 <= left <= outside
                                               else 0)
    assert (alone.box is None) == (framed.box is None)
    if alone.layouts:
        assert (alone.outside is None) == (framed.outside is None) == (outside == 0)
        if outside:
            assert Fraction(*alone.outside) == Fraction(*framed.outside) == Fraction(left,
                                                                                      outside)
