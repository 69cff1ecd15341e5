"""Exact odds for Malmsturm: sums of dF (each -1, 0, +1 with probability 1/3) by convolution."""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from math import comb, lcm

from service.platform.maths.odds import Odds, from_pairs, mean
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
def fudge_ways(count: int) -> dict[int, int]:
    """Ways (of 3**count equally likely rolls) of each sum of ``count`` dF, counted in integers."""
    ways = {0: 1}
    for _ in range(count):
        following: dict[int, int] = {}
        for total, n in ways.items():
            for face in ONE_DIE:
                following[total + face] = following.get(total + face, 0) + n
        ways = following
    return ways


@lru_cache(maxsize=16)
def fudge_sum(count: int) -> dict[int, Fraction]:
    """Distribution of the sum of ``count`` dF."""
    return {total: Fraction(n, 3**count) for total, n in fudge_ways(count).items()}


def _difference(a_base: int, b_base: int, dice: int = DICE) -> dict[int, Fraction]:
    """Distribution of (a_base + NdF) - (b_base + NdF): the other side's dice are symmetric, so the
    difference of two NdF sums is the sum of 2N dF."""
    return {a_base - b_base + value: p for value, p in fudge_sum(2 * dice).items()}


def action(skill: int, difficulty: int, *, modifier: int = 0, dice: int = DICE) -> Odds:
    totals = {skill + modifier + value: p for value, p in fudge_sum(dice).items()}
    success = sum((p for total, p in totals.items() if total >= difficulty), Fraction(0))
    shifts = from_pairs((max(total - difficulty, 0), p) for total, p in totals.items())
    return Odds(outcomes={"success": success, "failure": 1 - success},
                distributions={"shifts": shifts, "total": totals},
                expected={"shifts": mean(shifts), "total": mean(totals)})


def contest(a: Contender, b: Contender, *, dice: int = DICE) -> Odds:
    margins = _difference(a.skill + a.modifier, b.skill + b.modifier, dice)
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


def attack(attacker: Attacker, defender: Defender, *, take_consequence_early: bool = False,
           dice: int = DICE, defend: bool = True, difficulty: int = 0) -> Odds:
    attack_base = attacker.skill + attacker.modifier
    if defend and defender.skill is not None:
        margins = _difference(attack_base, defender.skill + defender.modifier, dice)
    else:  # ruling 5: no defense roll, the attack meets a fixed difficulty
        margins = {attack_base + value - difficulty: p for value, p in fudge_sum(dice).items()}
    track = TRACK_OF[attacker.attack]
    outcome_pairs, shift_pairs = [], []
    for margin, p in margins.items():
        shifts = max(margin, 0)
        hit = damage(defender, track, shifts, take_consequence_early=take_consequence_early)
        outcome_pairs.append((_attack_outcome(shifts >= 1, hit.taken_out, hit.consequence is not None), p))
        shift_pairs.append((shifts, p))
    outcomes = from_pairs(outcome_pairs)
    shift_distribution = from_pairs(shift_pairs)
    return Odds(
        outcomes={name: outcomes.get(name, Fraction(0))
                  for name in ("hit", "miss", "consequence", "taken_out")},
        distributions={"shifts": shift_distribution},
        expected={"shifts": mean(shift_distribution)},
    )


# --- initiative ------------------------------------------------------------------------------------

def _roll_off_outcomes(dice: int) -> int:
    return 3**dice  # equally likely roll-offs per member: 81 with four dF


@lru_cache(maxsize=64)
def _tie_at_top(size: int, dice: int = DICE) -> dict[int, int]:
    """One roll-off of ``size`` members: how many of the 81**size equally likely outcomes (four dF)
    leave exactly ``tied`` members sharing the highest sum (integers: fractions would be slow here)."""
    ways = {value: p * _roll_off_outcomes(dice) for value, p in fudge_sum(dice).items()}
    below = 0
    out: dict[int, int] = {}
    for value in sorted(ways):
        for tied in range(1, size + 1):
            out[tied] = out.get(tied, 0) + comb(size, tied) * int(ways[value]) ** tied * below ** (size - tied)
        below += int(ways[value])
    return out


@lru_cache(maxsize=64)
def roll_off_winner(size: int, rounds: int = MAX_ROLL_OFF_ROUNDS, dice: int = DICE) -> tuple[Fraction, ...]:
    """P(the member with request rank i wins the roll-offs of a tied group), i = 0..size-1.

    Roll-offs are exchangeable, so after the last round the top group still tied is a uniformly random
    subset of its size m; m = 1 leaves a uniform winner, m ≥ 2 lets the request order stand (its first
    member wins). So only the Markov chain of the top group's size matters; it runs on integer counts
    over the common denominator 81**(size * rounds)."""
    outcomes = _roll_off_outcomes(dice)
    counts = {size: 1}
    for _ in range(rounds):
        step: dict[int, int] = {}
        for current, count in counts.items():
            scale = outcomes ** (size - current)  # bring every state to 81**size
            transitions = _tie_at_top(current, dice) if current > 1 else {1: outcomes}
            for tied, ways in transitions.items():
                step[tied] = step.get(tied, 0) + count * ways * scale
        counts = step
    # One Fraction per rank over a common denominator (adding Fractions of this size, a gcd each
    # time, is what would make eight dice slow).
    scale = lcm(size, *(comb(size, m) for m in counts if m > 1))
    denominator = outcomes ** (size * rounds) * scale
    return tuple(
        Fraction(counts.get(1, 0) * (scale // size)
                 + sum(count * comb(size - 1 - rank, m - 1) * (scale // comb(size, m))
                       for m, count in counts.items() if m > 1), denominator)
        for rank in range(size)
    )


def _ways_below(intuition: int, value: int, *, inclusive: bool, dice: int = DICE) -> int:
    """Ways (of 3**dice) that intuition + dice dF ends below ``value`` (or at it, ``inclusive``)."""
    return sum(ways for d, ways in fudge_ways(dice).items()
               if intuition + d < value or (inclusive and intuition + d == value))


@lru_cache(maxsize=1024)
def _peer_weights(before: int, after: int, dice: int = DICE) -> tuple[Fraction, ...]:
    """For k-1 peers tying with a participant who has ``before``/``after`` same-intuition peers earlier
    and later in the request: sum over the ways the tie splits of their count times P(winning)."""
    return tuple(
        sum((comb(before, x) * comb(after, k - 1 - x) * roll_off_winner(k, MAX_ROLL_OFF_ROUNDS, dice)[x]
             for x in range(max(0, k - 1 - after), min(before, k - 1) + 1)), Fraction(0))
        for k in range(1, before + after + 2)
    )


@lru_cache(maxsize=1024)
def _peer_weight_numerators(before: int, after: int, dice: int = DICE) -> tuple[tuple[int, ...], int]:
    """``_peer_weights`` as integer numerators over one common denominator."""
    weights = _peer_weights(before, after, dice)
    denominator = lcm(*(weight.denominator for weight in weights))
    return tuple(weight.numerator * (denominator // weight.denominator) for weight in weights), denominator


def _p_first(index: int, participants: list[Participant], dice: int = DICE) -> Fraction:
    """Ruling 4 for one participant: nobody ranks above them, and they win the roll-offs among those
    with the same total and intuition (i.i.d. peers, so only how many tie before and after matters).
    Counted in integers: every roll is a number of ways out of 3**dice, so one Fraction is made at
    the end instead of thousands of additions of huge ones."""
    me = participants[index]
    before = sum(1 for p in participants[:index] if p.intuition == me.intuition)
    after = sum(1 for p in participants[index + 1:] if p.intuition == me.intuition)
    peers_count = before + after
    weights, weight_denominator = _peer_weight_numerators(before, after, dice)
    others_list = [other for other in participants if other.intuition != me.intuition]
    total = 0
    for d, ways_me in fudge_ways(dice).items():
        value = me.intuition + d
        others = 1
        for other in others_list:  # equal totals go to the higher intuition
            others *= _ways_below(other.intuition, value, inclusive=other.intuition < me.intuition, dice=dice)
        if not others:
            continue
        below = _ways_below(me.intuition, value, inclusive=False, dice=dice)
        peers = sum(weight * ways_me ** (k - 1) * below ** (peers_count - k + 1)
                    for k, weight in enumerate(weights, start=1))
        total += ways_me * others * peers
    rolls = 1 + len(others_list) + peers_count  # every participant's roll, each out of 3**dice
    return Fraction(total, weight_denominator * 3 ** (dice * rolls))


def initiative(participants: list[Participant], *, dice: int = DICE) -> Odds:
    return Odds(
        outcomes={f"first:{p.name}": _p_first(i, participants, dice) for i, p in enumerate(participants)},
        expected={f"total:{p.name}": Fraction(p.intuition) for p in participants},
    )
