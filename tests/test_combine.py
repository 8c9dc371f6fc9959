"""The exact combination step: polynomial products, binomials, feasible mine numbers."""

from __future__ import annotations

from itertools import product
from math import comb

from hypothesis import given
from hypothesis import strategies as st

from exactmines.combine import allowed_mine_numbers, binomials, feasible_sums, fits, poly_mul

coefficients = st.lists(st.integers(0, 10**30), min_size=1, max_size=60)


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
