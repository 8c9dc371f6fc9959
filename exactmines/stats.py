"""Summaries of success counts: exact fractions and Wilson 95 % intervals."""

from __future__ import annotations

from fractions import Fraction
from math import sqrt

__all__ = ["wilson_interval", "rate_summary"]

_Z95 = 1.959963984540054


def wilson_interval(successes: int, trials: int, z: float = _Z95) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion (well-behaved near 0 and 1).

    Floats: an interval estimate is for reading, not for exact arithmetic.
    """
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    # At 0 or n successes the bound is exactly 0 or 1; rounding must not move it.
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return (low, high)


def rate_summary(successes: int, trials: int) -> dict[str, object]:
    """``{"fraction": "k/n", "rate": float, "ci95": [lo, hi]}`` for JSON output."""
    low, high = wilson_interval(successes, trials)
    exact = Fraction(successes, trials) if trials else Fraction(0)
    return {"fraction": str(exact), "rate": float(exact), "ci95": [round(low, 6), round(high, 6)]}
