"""Exact distributions as Fractions, their JSON form, and small helpers the systems share.

A system's odds function returns ``Odds``: mutually exclusive ``outcomes`` (their probabilities sum
to exactly 1), named ``distributions`` (each sums to 1) and ``expected`` values. ``as_json`` turns it
into the contract's form with a float and a reduced fraction string for every probability.
An encounter's odds also carry its ``solver`` (states, precision, error bound) and, on request, a
per-round ``curve``; in float64 precision every ``exact`` is null and sums hold within ``max_error``.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from math import comb, lcm
from typing import Any, cast

Distribution = Mapping[Any, Fraction]  # value -> probability (values: ints, strings, ...)
Probability = Fraction | float  # float only where a solver says precision "float64"


@dataclass(frozen=True)
class Solver:
    """How an encounter was solved: the states reached, and the precision of its numbers."""

    states: int
    precision: str = "exact"  # or "float64"
    max_error: float = 0.0  # a bound on |sum of outcomes - 1| and on each probability's error

    @property
    def exact(self) -> bool:
        return self.precision == "exact"


@dataclass(frozen=True)
class Odds:
    outcomes: Mapping[str, Probability]
    distributions: Mapping[str, Mapping[Any, Probability]] = field(default_factory=dict)
    expected: Mapping[str, Probability] = field(default_factory=dict)
    solver: Solver | None = None
    curve: tuple[Mapping[str, float], ...] | None = None  # per round: round, running, cumulative outcomes

    def check(self) -> Odds:
        """Refuse to publish numbers that do not add up (a bug, never a client error)."""
        if self.solver is not None and not self.solver.exact:
            return self._check_within(self.solver.max_error)
        # Exact precision: every probability is a Fraction.
        outcomes = cast(Mapping[str, Fraction], self.outcomes)
        if outcomes and exact_sum(outcomes.values()) != 1:
            raise AssertionError(f"outcomes sum to {exact_sum(outcomes.values())}, not 1")
        for name, distribution in cast(Mapping[str, Distribution], self.distributions).items():
            if exact_sum(distribution.values()) != 1:
                raise AssertionError(f"distribution {name} sums to {exact_sum(distribution.values())}")
        return self

    def _check_within(self, max_error: float) -> Odds:
        sums = {"outcomes": float(sum(self.outcomes.values())),
                **{name: float(sum(d.values())) for name, d in self.distributions.items()}}
        for name, total in sums.items():
            if abs(total - 1) > max_error:
                raise AssertionError(f"{name} sum to {total!r}, more than {max_error!r} from 1")
        return self


def probability_json(value: Probability) -> dict:
    """A probability as the answers write it: float64, and the exact fraction where there is one."""
    if isinstance(value, float):
        return {"probability": value, "exact": None}
    value = Fraction(value)
    return {"probability": float(value), "exact": f"{value.numerator}/{value.denominator}"}


def as_json(odds: Odds) -> dict:
    odds.check()
    document = {
        "outcomes": [{"outcome": name, **probability_json(p)} for name, p in odds.outcomes.items()],
        "distributions": {
            name: [{"value": value, **probability_json(p)} for value, p in _sorted_items(distribution)]
            for name, distribution in odds.distributions.items()
        },
        "expected": {name: float(value) for name, value in odds.expected.items()},
    }
    if odds.curve is not None:
        document["curve"] = [dict(point) for point in odds.curve]
    return document


def solver_json(solver: Solver) -> dict:
    return {"states": solver.states, "precision": solver.precision, "max_error": solver.max_error}


def _sorted_items(distribution: Mapping[Any, Probability]) -> list[tuple[Any, Probability]]:
    try:
        return sorted(distribution.items())
    except TypeError:  # mixed value types: keep the order the system gave
        return list(distribution.items())


def mean(distribution: Distribution) -> Fraction:
    values = [(Fraction(value), p) for value, p in distribution.items()]
    return _sum_over_common_denominator([(v.numerator * p.numerator, v.denominator * p.denominator)
                                         for v, p in values])


def exact_sum(fractions: Iterable[Fraction]) -> Fraction:
    """The sum of Fractions. ``sum()`` reduces after every addition, a gcd of numbers with hundreds
    of digits each time; this adds integers over one common denominator and reduces once."""
    return _sum_over_common_denominator([(f.numerator, f.denominator) for f in fractions])


def _sum_over_common_denominator(terms: list[tuple[int, int]]) -> Fraction:
    denominator = lcm(*(term_denominator for _, term_denominator in terms)) if terms else 1
    return Fraction(sum(numerator * (denominator // term_denominator) for numerator, term_denominator in terms),
                    denominator)


# --- building blocks ---------------------------------------------------------------------------

@lru_cache(maxsize=4096)
def binomial_weights(n: int, p: Fraction) -> tuple[tuple[int, ...], int]:
    """Integer weights w_k and one denominator D with P(k successes of n) = w_k / D.

    Integers with a common denominator are far faster than Fractions, which reduce (a gcd of
    numbers with hundreds of digits) after every operation; convert once at the end."""
    success, failure, denominator = p.numerator, p.denominator - p.numerator, p.denominator
    return tuple(comb(n, k) * success**k * failure ** (n - k) for k in range(n + 1)), denominator**n


@lru_cache(maxsize=4096)
def binomial(n: int, p: Fraction) -> tuple[Fraction, ...]:
    """P(k successes) for k = 0..n, each of n independent trials succeeding with probability p."""
    weights, denominator = binomial_weights(n, p)
    return tuple(Fraction(weight, denominator) for weight in weights)


def hypergeometric(population: int, marked: int, draws: int) -> tuple[Fraction, ...]:
    """P(k marked) for k = 0..draws, drawing without replacement."""
    total = comb(population, draws)
    return tuple(
        Fraction(comb(marked, k) * comb(population - marked, draws - k), total)
        for k in range(draws + 1)
    )


def convolve(a: Distribution, b: Distribution) -> dict:
    """Distribution of the sum of two independent values."""
    out: dict = defaultdict(Fraction)
    for x, px in a.items():
        for y, py in b.items():
            out[x + y] += px * py
    return dict(out)


def from_pairs(pairs: Iterable[tuple[Any, Fraction]]) -> dict:
    """Accumulate (value, probability) pairs into a distribution."""
    out: dict = defaultdict(Fraction)
    for value, probability in pairs:
        out[value] += probability
    return dict(out)
