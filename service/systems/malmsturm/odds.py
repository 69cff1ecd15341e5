"""Exact odds for Malmsturm: sums of dF (each -1, 0, +1 with probability 1/3) by convolution."""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from service.platform.odds import Odds, convolve, from_pairs, mean
from service.systems.malmsturm.rules import (DICE, TRACK_OF, Attacker, Contender, Defender, damage,
                                             winner_of)

ONE_DIE = {face: Fraction(1, 3) for face in (-1, 0, 1)}


@lru_cache(maxsize=16)
def fudge_sum(count: int) -> dict[int, Fraction]:
    """Distribution of the sum of ``count`` dF."""
    distribution = {0: Fraction(1)}
    for _ in range(count):
        distribution = convolve(distribution, ONE_DIE)
    return distribution


def _difference(a_base: int, b_base: int) -> dict[int, Fraction]:
    """Distribution of (a_base + 4dF) - (b_base + 4dF): the other side's dice are symmetric, so the
    difference of two 4dF sums is the sum of eight dF."""
    return {a_base - b_base + value: p for value, p in fudge_sum(2 * DICE).items()}


def action(skill: int, difficulty: int, *, modifier: int = 0) -> Odds:
    totals = {skill + modifier + value: p for value, p in fudge_sum(DICE).items()}
    success = sum((p for total, p in totals.items() if total >= difficulty), Fraction(0))
    shifts = from_pairs((max(total - difficulty, 0), p) for total, p in totals.items())
    return Odds(outcomes={"success": success, "failure": 1 - success},
                distributions={"shifts": shifts, "total": totals},
                expected={"shifts": mean(shifts), "total": mean(totals)})


def contest(a: Contender, b: Contender) -> Odds:
    margins = _difference(a.skill + a.modifier, b.skill + b.modifier)
    outcomes = from_pairs(
        (winner_of(margin, 0) or "tie", p) for margin, p in margins.items()
    )
    return Odds(outcomes={name: outcomes.get(name, Fraction(0)) for name in ("a", "b", "tie")},
                distributions={"margin": margins}, expected={"margin": mean(margins)})


def _attack_outcome(hit: bool, taken_out: bool, consequence: bool) -> str:
    """Mutually exclusive: taken_out beats consequence beats hit beats miss."""
    if taken_out:
        return "taken_out"
    if consequence:
        return "consequence"
    return "hit" if hit else "miss"


def attack(attacker: Attacker, defender: Defender, *, take_consequence_early: bool = False) -> Odds:
    margins = _difference(attacker.skill + attacker.modifier, defender.skill + defender.modifier)
    track = TRACK_OF[attacker.attack]
    outcome_pairs, shift_pairs = [], []
    for margin, p in margins.items():
        shifts = max(margin, 0)
        hit = damage(defender, track, shifts, take_consequence_early=take_consequence_early)
        outcome_pairs.append((_attack_outcome(shifts >= 1, hit.taken_out, hit.consequence is not None), p))
        shift_pairs.append((shifts, p))
    outcomes = from_pairs(outcome_pairs)
    shifts = from_pairs(shift_pairs)
    return Odds(
        outcomes={name: outcomes.get(name, Fraction(0))
                  for name in ("hit", "miss", "consequence", "taken_out")},
        distributions={"shifts": shifts},
        expected={"shifts": mean(shifts)},
    )
