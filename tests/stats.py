"""Statistics the sampling tests share (scipy is not a dependency)."""

from __future__ import annotations

import math


def chi_square_sf(statistic: float, df: int) -> float:
    """P(X >= statistic) for X ~ chi-square with ``df`` degrees of freedom: the regularised upper
    incomplete gamma function Q(df/2, statistic/2), in closed form for integer df."""
    if df < 1:
        return 1.0
    half = statistic / 2
    if df % 2 == 0:
        term, total = 1.0, 1.0
        for i in range(1, df // 2):
            term *= half / i
            total += term
        return math.exp(-half) * total
    total = math.erfc(math.sqrt(half))
    term = math.sqrt(half) / math.gamma(1.5)  # (x/2)^(1/2) / Gamma(3/2)
    for i in range((df - 1) // 2):
        total += math.exp(-half) * term
        term *= half / (i + 1.5)
    return total
