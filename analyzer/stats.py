"""Intervals: Wilson for proportions, mean ± 1.96·SE for points (95%). Both take numbers or
numpy arrays (or pandas Series) and return the same shape; with scalars they return floats."""

from __future__ import annotations

import numpy as np

Z95 = 1.959963984540054


def _out(*arrays):
    return tuple(float(a) if np.ndim(a) == 0 else a for a in arrays)


def wilson(successes, n, z: float = Z95):
    """``(p, low, high)``: the proportion and its Wilson score interval (NaN where n is 0)."""
    k = np.asarray(successes, dtype=np.float64)
    n = np.asarray(n, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = np.where(n > 0, k / n, np.nan)
        denom = 1 + z * z / n
        centre = (p + z * z / (2 * n)) / denom
        half = z * np.sqrt(np.maximum(p * (1 - p) / n + z * z / (4 * n * n), 0.0)) / denom
    # none or all: the bound is exactly 0 or 1 (the formula leaves a rounding error, 5.6e-17)
    low = np.where((k == 0) & (n > 0), 0.0, np.clip(centre - half, 0.0, 1.0))
    high = np.where((k == n) & (n > 0), 1.0, np.clip(centre + half, 0.0, 1.0))
    return _out(p, low, high)


def mean_interval(total, total_sq, n, z: float = Z95):
    """``(mean, low, high)`` from the sum and the sum of squares of ``n`` values (NaN where
    n is 0; the interval is NaN where n is 1)."""
    total = np.asarray(total, dtype=np.float64)
    total_sq = np.asarray(total_sq, dtype=np.float64)
    n = np.asarray(n, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        mean = np.where(n > 0, total / n, np.nan)
        var = np.maximum(0.0, (total_sq - total * total / n) / (n - 1))
        half = np.where(n >= 2, z * np.sqrt(var / n), np.nan)
    return _out(mean, mean - half, mean + half)


def percent_text(share: float) -> str:
    """``share`` (0..1) as a percentage with a tenth, or with two significant figures below 1%
    (an unusual auction's 0.03%, a --tremble of 0.001, are not printed as 0.0%)."""
    return f"{100 * share:.1f}%" if share >= 0.01 or share == 0 else f"{100 * share:.2g}%"
