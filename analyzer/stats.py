"""Intervals: Wilson for proportions, mean ± 1.96·SE for points (95%)."""

from __future__ import annotations

import math

Z95 = 1.959963984540054


def wilson(successes: float, n: float, z: float = Z95) -> tuple[float, float, float]:
    """``(p, low, high)``: the proportion and its Wilson score interval."""
    if n <= 0:
        return math.nan, math.nan, math.nan
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return p, max(0.0, centre - half), min(1.0, centre + half)


def mean_interval(total: float, total_sq: float, n: float,
                  z: float = Z95) -> tuple[float, float, float]:
    """``(mean, low, high)`` from the sum and the sum of squares of ``n`` values."""
    if n <= 0:
        return math.nan, math.nan, math.nan
    mean = total / n
    if n < 2:
        return mean, math.nan, math.nan
    var = max(0.0, (total_sq - total * total / n) / (n - 1))
    half = z * math.sqrt(var / n)
    return mean, mean - half, mean + half
