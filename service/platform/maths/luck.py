"""The luck report: how lucky each roll was, from the exact odds, and whether a seat's dice look fair.

Each rolling operation declares the ordered quantity its luck is measured by (``Luck`` in its
system's ``SYSTEM`` table): a distribution of its odds twin and the result member that holds the
value rolled. A roll's *mid-percentile* is P(X < x) + ½·P(X = x) (with ``higher=False``, P(X > x) +
½·P(X = x)): 0.5 for a perfectly average roll, near 0 for the worst, near 1 for the best.

The fairness test: under fair dice the mid-percentile M of one roll has mean exactly ½ and variance
exactly (1 − Σ pᵢ³)/12, where pᵢ are the probabilities of the quantity's values (the discreteness
correction: a continuous quantity has variance 1/12; a roll with a single possible value, 0, and is
left out). Rolls are independent, so the sum of a seat's n mid-percentiles has mean n/2 and variance
Σ (1 − Σ pᵢ³)/12; the report gives z = (Σ M − n/2) / √(Σ variance) and the two-sided p-value
erfc(|z|/√2) of the normal approximation (good from about ten rolls). A p-value below 0.01 says
"unusual": dice this lucky or unlucky turn up on fewer than one fair evening in a hundred.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

UNUSUAL_BELOW = 0.01  # the p-value under which a seat's dice are called unusual


@dataclass(frozen=True)
class Luck:
    """``distribution``: the odds twin's distribution; ``value``: the rolled value from the card's
    result (JSON), by default ``result[distribution]``; ``higher``: whether more is luckier."""

    distribution: str
    value: Callable[[Mapping[str, Any]], object] | None = None
    higher: bool = True

    def rolled(self, result: Mapping[str, Any]) -> object:
        return self.value(result) if self.value is not None else result.get(self.distribution)


def mid_percentile(distribution: Mapping[Any, Fraction | float], value: object,
                   higher: bool = True) -> tuple[Fraction, Fraction] | None:
    """(mid-percentile, its variance under fair dice) of ``value``; None when ``value`` is not one
    the distribution has or the distribution is not ordered numbers."""
    points = {key: Fraction(probability) for key, probability in distribution.items()}
    if value not in points or not all(isinstance(key, (int, float)) and not isinstance(key, bool) for key in points):
        return None
    below = sum((p for key, p in points.items() if (key < value if higher else key > value)), Fraction(0))
    mid = below + points[value] / 2
    variance = (1 - sum((p ** 3 for p in points.values()), Fraction(0))) / 12
    return mid, variance


def seat_test(mids: list[float], variances: list[float]) -> dict[str, Any]:
    """count, mean, z and the two-sided p-value of a seat's mid-percentiles (module docstring)."""
    count = len(mids)
    mean = sum(mids) / count if count else None
    spread = math.sqrt(sum(variances))
    z = (sum(mids) - count / 2) / spread if count and spread > 0 else None
    p_value = math.erfc(abs(z) / math.sqrt(2)) if z is not None else None
    return {"count": count, "mean": mean, "z": z, "p_value": p_value,
            "unusual": p_value is not None and p_value < UNUSUAL_BELOW}
