"""Exact odds for Malmsturm: sums of dF (each -1, 0, +1 with probability 1/3) by convolution."""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from math import comb

from service.platform.odds import Odds, convolve, from_pairs, mean
from service.systems.malmsturm.rules import (
    DICE,
    MAX_ROLL_OFF_ROUNDS,
    TRACK_OF,
    Attacker,
    Contender,
    Defender,
    Participant,
    damage,
    winner_of,
)

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


# --- initiative ------------------------------------------------------------------------------------

ROLL_OFF_OUTCOMES = 3 ** DICE  # 81 equally likely roll-offs per member


@lru_cache(maxsize=64)
def _tie_at_top(size: int) -> dict[int, int]:
    """One roll-off of ``size`` members: how many of the 81**size equally likely outcomes leave
    exactly ``tied`` members sharing the highest 4dF sum (integers: fractions would be slow here)."""
    ways = {value: p * ROLL_OFF_OUTCOMES for value, p in fudge_sum(DICE).items()}
    below = 0
    out: dict[int, int] = {}
    for value in sorted(ways):
        for tied in range(1, size + 1):
            out[tied] = out.get(tied, 0) + comb(size, tied) * int(ways[value]) ** tied * below ** (size - tied)
        below += int(ways[value])
    return out


@lru_cache(maxsize=64)
def roll_off_winner(size: int, rounds: int = MAX_ROLL_OFF_ROUNDS) -> tuple[Fraction, ...]:
    """P(the member with request rank i wins the roll-offs of a tied group), i = 0..size-1.

    Roll-offs are exchangeable, so after the last round the top group still tied is a uniformly random
    subset of its size m; m = 1 leaves a uniform winner, m ≥ 2 lets the request order stand (its first
    member wins). So only the Markov chain of the top group's size matters; it runs on integer counts
    over the common denominator 81**(size * rounds)."""
    counts = {size: 1}
    for _ in range(rounds):
        step: dict[int, int] = {}
        for current, count in counts.items():
            scale = ROLL_OFF_OUTCOMES ** (size - current)  # bring every state to 81**size
            transitions = _tie_at_top(current) if current > 1 else {1: ROLL_OFF_OUTCOMES}
            for tied, ways in transitions.items():
                step[tied] = step.get(tied, 0) + count * ways * scale
        counts = step
    denominator = ROLL_OFF_OUTCOMES ** (size * rounds)
    sizes = {m: Fraction(count, denominator) for m, count in counts.items()}
    return tuple(
        sizes.get(1, Fraction(0)) / size
        + sum((p * Fraction(comb(size - 1 - rank, m - 1), comb(size, m))
               for m, p in sizes.items() if m > 1), Fraction(0))
        for rank in range(size)
    )


def _p_below(intuition: int, value: int, *, inclusive: bool) -> Fraction:
    return sum((p for d, p in fudge_sum(DICE).items()
                if intuition + d < value or (inclusive and intuition + d == value)), Fraction(0))


@lru_cache(maxsize=1024)
def _peer_weights(before: int, after: int) -> tuple[Fraction, ...]:
    """For k-1 peers tying with a participant who has ``before``/``after`` same-intuition peers earlier
    and later in the request: sum over the ways the tie splits of their count times P(winning)."""
    return tuple(
        sum((comb(before, x) * comb(after, k - 1 - x) * roll_off_winner(k)[x]
             for x in range(max(0, k - 1 - after), min(before, k - 1) + 1)), Fraction(0))
        for k in range(1, before + after + 2)
    )


def _p_first(index: int, participants: list[Participant]) -> Fraction:
    """Ruling 4 for one participant: nobody ranks above them, and they win the roll-offs among those
    with the same total and intuition (i.i.d. peers, so only how many tie before and after matters)."""
    me = participants[index]
    before = sum(1 for p in participants[:index] if p.intuition == me.intuition)
    after = sum(1 for p in participants[index + 1:] if p.intuition == me.intuition)
    weights = _peer_weights(before, after)
    total = Fraction(0)
    for d, p_me in fudge_sum(DICE).items():
        value = me.intuition + d
        others = Fraction(1)
        for other in participants:
            if other.intuition != me.intuition:  # equal totals go to the higher intuition
                others *= _p_below(other.intuition, value, inclusive=other.intuition < me.intuition)
        if not others:
            continue
        below = _p_below(me.intuition, value, inclusive=False)
        peers = sum((weight * p_me ** (k - 1) * below ** (before + after - k + 1)
                     for k, weight in enumerate(weights, start=1)), Fraction(0))
        total += p_me * others * peers
    return total


def initiative(participants: list[Participant]) -> Odds:
    return Odds(
        outcomes={f"first:{p.name}": _p_first(i, participants) for i, p in enumerate(participants)},
        expected={f"total:{p.name}": Fraction(p.intuition) for p in participants},
    )
