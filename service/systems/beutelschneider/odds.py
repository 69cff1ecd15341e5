"""Exact odds for Beutelschneider: every draw is hypergeometric (without replacement).

Contests are not enumerated jointly: participants draw independently, so each one's distribution
of matching marbles is computed alone and the winner/margin probabilities are combined from
cumulative distributions ("order statistics"), in integer arithmetic over one common denominator.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import lru_cache
from math import comb, prod
from typing import cast

from service.platform.maths.odds import Distribution, Odds, hypergeometric, mean
from service.systems.beutelschneider.rules import (
    DEFAULT_INJURING,
    Ability,
    Bag,
    Colour,
    Contender,
    Difficulty,
    Severity,
    sides,
)

MAX_DRAWS = 3  # the most marbles a challenge or contest draws ("besonders einfach": drei)


@lru_cache(maxsize=8192)
def _counts(population: int, marked: int, draws: int) -> tuple[int, ...]:
    """Number of draws (out of C(population, draws)) with k marked marbles, k = 0..draws."""
    return tuple(comb(marked, k) * comb(population - marked, draws - k) for k in range(draws + 1))


@lru_cache(maxsize=8192)
def drawn_count(bag: Bag, colour: Colour, draws: int) -> dict[int, Fraction]:
    return dict(enumerate(hypergeometric(bag.total, bag.count(colour), draws)))


def all_black(bag: Bag, draws: int) -> Fraction:
    """Ruling 1: every marble drawn is black."""
    return Fraction(comb(bag.black, draws), comb(bag.total, draws))


def at_least_one(bag: Bag, colour: Colour, draws: int) -> Fraction:
    return 1 - Fraction(comb(bag.total - bag.count(colour), draws), comb(bag.total, draws))


# --- challenges ---------------------------------------------------------------------------------

@lru_cache(maxsize=4096)
def challenge(bag: Bag, ability: Ability, difficulty: Difficulty) -> Odds:
    """Unconsciousness excludes success (no marble of the ability's colour is black)."""
    draws = difficulty.draws
    success = at_least_one(bag, ability.colour, draws)
    unconscious = all_black(bag, draws)
    matching = drawn_count(bag, ability.colour, draws)
    return Odds(outcomes={"success": success, "failure": 1 - success - unconscious,
                          "unconscious": unconscious},
                distributions={"matching": matching},
                expected={"matching": mean(matching)})


@lru_cache(maxsize=4096)
def first_aid(bag: Bag, difficulty: Difficulty) -> Odds:
    """Healing draws = green marbles drawn; a failure has none, so both distributions coincide."""
    odds = challenge(bag, Ability.SKILL, difficulty)
    draws = cast(Distribution, odds.distributions["matching"])  # exact odds: Fractions
    return Odds(outcomes=odds.outcomes,
                distributions={"matching": draws, "healing_draws": draws},
                expected={"matching": mean(draws), "healing_draws": mean(draws)})


# --- contests -----------------------------------------------------------------------------------

def _matching_counts(contender: Contender) -> tuple[tuple[int, ...], int]:
    """Integer weights of 0..3 matching marbles and their common denominator C(n, k)."""
    bag, draws = contender.bag, contender.difficulty.draws
    weights = _counts(bag.total, bag.count(contender.ability.colour), draws)
    return weights + (0,) * (MAX_DRAWS + 1 - len(weights)), comb(bag.total, draws)


def _cumulative(weights: Sequence[int]) -> list[int]:
    """at_most[t + 1] = weight of <= t matching, for t = -1..3."""
    at_most = [0]
    for weight in weights:
        at_most.append(at_most[-1] + weight)
    return at_most


def _others(values: Sequence[int]) -> list[int]:
    """For each index, the product of all the other values (prefix and suffix products)."""
    prefix, suffix = [1], [1]
    for value in values:
        prefix.append(prefix[-1] * value)
    for value in reversed(values):
        suffix.append(suffix[-1] * value)
    return [prefix[i] * suffix[len(values) - 1 - i] for i in range(len(values))]


def _best_of(scores: Sequence[tuple[tuple[int, ...], int]]) -> tuple[tuple[int, ...], int]:
    """The weights of a side's best count (ruling 8): the maximum of independent members has the
    product of their cumulative distributions."""
    cumulative = [_cumulative(w) for w, _ in scores]
    at_most = [prod(c[t + 1] for c in cumulative) for t in range(MAX_DRAWS + 1)]
    return (tuple(at_most[t] - (at_most[t - 1] if t else 0) for t in range(MAX_DRAWS + 1)),
            prod(d for _, d in scores))


@lru_cache(maxsize=1024)
def contest_table(contenders: tuple[Contender, ...]) -> dict[tuple[int, int], Fraction]:
    """P(participant i wins with margin d), d = 1..3; the tie is what is left."""
    return _table(tuple(_matching_counts(c) for c in contenders))


def _table(scores: tuple[tuple[tuple[int, ...], int], ...]) -> dict[tuple[int, int], Fraction]:
    """P(score i wins with margin d), d = 1..3, for independent scores given as integer weights of
    0..3 and their denominators.

    i wins with j matching and margin d when every other participant has at most j - d and at
    least one has exactly j - d: prod(F_l(j-d)) - prod(F_l(j-d-1)) over l != i (ruling 2)."""
    weights, denominators = zip(*scores)
    cumulative = [_cumulative(w) for w in weights]
    # others[t + 1][i] = product over l != i of weight(X_l <= t)
    others = [_others([at_most[t + 1] for at_most in cumulative]) for t in range(-1, MAX_DRAWS + 1)]
    denominator = prod(denominators)
    table = {}
    for i, own in enumerate(weights):
        for margin in range(1, MAX_DRAWS + 1):
            numerator = sum(own[j] * (others[j - margin + 1][i] - others[j - margin][i])
                            for j in range(margin, MAX_DRAWS + 1))
            table[(i, margin)] = Fraction(numerator, denominator)
    return table


@lru_cache(maxsize=1024)
def contest(contenders: tuple[Contender, ...]) -> Odds:
    """Ruling 8: one ``wins:<side>`` per side (a participant without a side is a side of its own,
    named by its name): each side scores its best member's count."""
    grouped = sides(contenders)
    table = _table(tuple(_best_of([_matching_counts(contenders[i]) for i in members])
                         for members in grouped.values()))
    wins = {f"wins:{side}": sum((table[(i, d)] for d in range(1, MAX_DRAWS + 1)), Fraction(0))
            for i, side in enumerate(grouped)}
    tie = 1 - sum(wins.values())
    margin = {0: tie, **{d: sum((table[(i, d)] for i in range(len(grouped))), Fraction(0))
                         for d in range(1, MAX_DRAWS + 1)}}
    return Odds(outcomes={**wins, "tie": tie}, distributions={"margin": margin},
                expected=_contender_expectations(contenders))


def _contender_expectations(contenders: Sequence[Contender]) -> dict[str, Fraction]:
    expected = {}
    for c in contenders:
        draws = c.difficulty.draws
        expected[f"matching:{c.name}"] = Fraction(draws * c.bag.count(c.ability.colour), c.bag.total)
        expected[f"unconscious:{c.name}"] = all_black(c.bag, draws)
    return expected


@lru_cache(maxsize=1024)
def combat(attacker: Contender, defender: Contender, injuring: frozenset[Ability] = DEFAULT_INJURING) -> Odds:
    """Ruling 3: a win inflicts an injury of severity = margin when the winner used an injuring
    ability (ruling 9: ``injuring``, combat by default). Such a
    win is listed as ``injury:<loser>:<severity>``; ``wins:<name>`` is a win without an injury
    (a winner using another ability), so all outcomes stay mutually exclusive."""
    pair = (attacker, defender)
    table = contest_table(pair)
    outcomes: dict[str, Fraction] = {}
    severity = {0: Fraction(1)}
    for i, (winner, loser) in enumerate((pair, pair[::-1])):
        won = {d: table[(i, d)] for d in range(1, MAX_DRAWS + 1)}
        if winner.ability in injuring:
            outcomes[f"wins:{winner.name}"] = Fraction(0)
            for d, p in won.items():
                outcomes[f"injury:{loser.name}:{Severity.of_margin(d).value}"] = p
                severity[d] = severity.get(d, Fraction(0)) + p
                severity[0] -= p
        else:
            outcomes[f"wins:{winner.name}"] = sum(won.values(), Fraction(0))
    tie = 1 - sum(outcomes.values())
    margin = contest(pair).distributions["margin"]
    return Odds(outcomes={**_wins_first(outcomes, pair), "tie": tie},
                distributions={"margin": margin, "severity": severity},
                expected=_contender_expectations(pair))


def _wins_first(outcomes: dict[str, Fraction], pair: Sequence[Contender]) -> dict[str, Fraction]:
    """wins:<attacker>, wins:<defender>, then the injuries."""
    wins = {f"wins:{c.name}": outcomes[f"wins:{c.name}"] for c in pair}
    return {**wins, **{k: v for k, v in outcomes.items() if k not in wins}}


# --- injury, death, healing, experience ---------------------------------------------------------

@lru_cache(maxsize=4096)
def injury(bag: Bag, severity: Severity) -> Odds:
    """Each non-black marble drawn becomes black: black_after = black + drawn - black drawn."""
    blacks = drawn_count(bag, Colour.BLACK, severity.draws)
    black_after = {bag.black + severity.draws - k: p for k, p in blacks.items()}
    return Odds(outcomes={}, distributions={"black_after": black_after},
                expected={"black_after": mean(black_after)})


@lru_cache(maxsize=4096)
def mortal_danger(bag: Bag, draws: int) -> Odds:
    dies = at_least_one(bag, Colour.BLACK, draws)
    return Odds(outcomes={"dies": dies, "survives": 1 - dies})


@lru_cache(maxsize=4096)
def healing(bag: Bag, draws: int) -> Odds:
    blacks = drawn_count(bag, Colour.BLACK, draws)
    return Odds(outcomes={}, distributions={"black_drawn": blacks},
                expected={"black_drawn": mean(blacks)})


@lru_cache(maxsize=4096)
def experience(bag: Bag, draws: int) -> Odds:
    """The marginal of each colour is hypergeometric."""
    distributions = {f"drawn:{colour.value}": drawn_count(bag, colour, draws) for colour in Colour}
    return Odds(outcomes={}, distributions=distributions,
                expected={name: mean(d) for name, d in distributions.items()})
