"""Exact odds for Paws. Every die succeeds with probability 1/2 (faces 4, 5, 6 of six).

With p = 1/2 every count of successes is C(n, k) / 2^n, and a difference of two counts has a closed
form: if A ~ Bin(n, 1/2) and B ~ Bin(m, 1/2) then m - B ~ Bin(m, 1/2) as well, so A - B + m ~
Bin(n + m, 1/2). The loser's rescue successes R ~ Bin(r, 1/2) enter the same way: the winner keeps
net k >= 1 exactly when A - B - R = k, and A - B - R + m + r ~ Bin(n + m + r, 1/2). So every
probability here is one binomial coefficient over a power of two: O(n) integer arithmetic.

One case breaks the closed form (ruling 3): a loser whose dice all show 1 (probability 6^-m) and
whose rescue successes fall short of a tie spends the first of them on the catastrophe, so the
winner keeps one net success more. That case moves weight from net k to k + 1, again in closed
form (Vandermonde's identity), in integers over 3^m * 2^(n + m + r).
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from math import comb, lcm

from service.platform.maths.odds import Odds, mean
from service.systems.paws.rules import Mode, Pool, effects_for

P_SUCCESS = Fraction(1, 2)
P_ONE = Fraction(1, 6)


@lru_cache(maxsize=1024)
def successes(dice: int) -> dict[int, Fraction]:
    """P(k successes) for k = 0..dice."""
    return {k: Fraction(comb(dice, k), 2**dice) for k in range(dice + 1)}


def _effects_of(distribution: dict[int, Fraction]) -> dict[int, Fraction]:
    """The effects distribution of any successes (or net) distribution."""
    out: dict[int, Fraction] = {}
    for value, p in distribution.items():
        out[effects_for(value)] = out.get(effects_for(value), Fraction(0)) + p
    return out


@lru_cache(maxsize=1024)
def _effects(dice: int) -> dict[int, Fraction]:
    """P(e effects) for the successes of ``dice`` dice, summed as integers over 2^dice."""
    counts: dict[int, int] = {}
    for k in range(dice + 1):
        counts[effects_for(k)] = counts.get(effects_for(k), 0) + comb(dice, k)
    return {effects: Fraction(count, 2**dice) for effects, count in counts.items()}


def _all_ones(dice: int) -> Fraction:
    return P_ONE**dice if dice else Fraction(0)  # ruling 2: 0 dice is a plain failure


def _averted(dice: int, rescue_dice: int) -> dict[int, Fraction]:
    """Negative effects averted by rescue dice after a failure (ruling 3): every rescue success after
    a plain failure, all but the first after a catastrophe; none after a success."""
    rescue = successes(rescue_dice)
    all_ones = _all_ones(dice)
    plain_failure = Fraction(1, 2**dice) - all_ones
    averted = {0: 1 - Fraction(1, 2**dice)}
    for k, p in rescue.items():
        averted[k] = averted.get(k, Fraction(0)) + plain_failure * p
        averted[max(k - 1, 0)] = averted.get(max(k - 1, 0), Fraction(0)) + all_ones * p
    return averted


@lru_cache(maxsize=1024)
def _test(dice: int, rescue_dice: int) -> Odds:
    no_success = Fraction(1, 2**dice)
    catastrophe = _all_ones(dice) / 2**rescue_dice  # ruling 3: the first rescue success averts it
    effects = _effects(dice)
    averted = _averted(dice, rescue_dice)
    return Odds(
        outcomes={"success": 1 - no_success, "failure": no_success - catastrophe, "catastrophe": catastrophe},
        distributions={"successes": successes(dice), "effects": effects, "averted": averted},
        expected={"successes": dice * P_SUCCESS, "effects": mean(effects), "averted": mean(averted)},
    )


def test(pool: Pool) -> Odds:
    return _test(pool.dice, pool.rescue_dice)


def _wins_by_net(winner_dice: int, loser_dice: int, loser_rescue: int) -> tuple[dict[int, int], int]:
    """The ways the winner keeps net k, k >= 1, after the loser's rescue dice (closed form above, with
    the catastrophe correction), and their denominator. Integers: summing Fractions with
    denominators of hundreds of digits would cost a gcd per addition."""
    trials = winner_dice + loser_dice + loser_rescue
    offset = loser_dice + loser_rescue
    thirds = 3**loser_dice if loser_dice else 1  # the denominator is thirds * 2^trials
    ways = {k: comb(trials, k + offset) * thirds for k in range(1, winner_dice + 1)}
    if loser_dice:
        # All ones (weight 1 of 6^m, i.e. 1 of thirds * 2^m), winner a successes, j >= 1 rescue
        # successes short of a tie: the closed form counted net k = a - j, the rule gives k + 1. The
        # ways to land on k that way, sum over j >= 1 of C(n, k + j) * C(r, j), are by Vandermonde's
        # identity C(n + r, n - k) less the j = 0 term C(n, k).
        for k in range(1, winner_dice):
            moved = comb(winner_dice + loser_rescue, winner_dice - k) - comb(winner_dice, k)
            ways[k] -= moved
            ways[k + 1] += moved
    return ways, thirds * 2**trials


def _catastrophe_stays(dice: int, opponent_dice: int, rescue_dice: int, rescues: bool) -> dict[int, Fraction]:
    """P(a side ends with a catastrophe): its dice all show 1 (so it has no success), it loses (the
    opponent has a success: ruling 8, a 0:0 tie is no failure, so no catastrophe for either side),
    and no rescue die succeeds. ``rescues``: the side rolls its rescue dice after the loss (not the
    attacker whose attack is repelled in defense mode). Value 1 = a catastrophe."""
    opponent_succeeds = 1 - Fraction(1, 2**opponent_dice)
    unrescued = Fraction(1, 2**rescue_dice) if rescues else Fraction(1)
    p = _all_ones(dice) * opponent_succeeds * unrescued
    return {0: 1 - p, 1: p}


@lru_cache(maxsize=1024)
def _comparison(a_dice: int, a_rescue: int, b_dice: int, b_rescue: int, mode: Mode) -> Odds:
    a_wins, a_denominator = _wins_by_net(a_dice, b_dice, b_rescue)
    # Ruling 4: in defense mode the defender never wins, so b "wins" only in a contest.
    b_wins, b_denominator = _wins_by_net(b_dice, a_dice, a_rescue) if mode is Mode.CONTEST else ({}, 1)
    denominator = lcm(a_denominator, b_denominator)
    a_scale, b_scale = denominator // a_denominator, denominator // b_denominator
    ways = {k: count * a_scale for k, count in a_wins.items()}
    for k, count in b_wins.items():
        ways[k] = ways.get(k, 0) + count * b_scale
    a_ways, b_ways = sum(a_wins.values()) * a_scale, sum(b_wins.values()) * b_scale
    p_a, p_b = Fraction(a_ways, denominator), Fraction(b_ways, denominator)
    tie = Fraction(denominator - a_ways - b_ways, denominator)
    net = {0: tie, **{k: Fraction(count, denominator) for k, count in ways.items()}}
    a_successes, b_successes = successes(a_dice), successes(b_dice)
    return Odds(
        outcomes={"a": p_a, "b": p_b, "tie": tie},
        distributions={"net": net, "effects": _effects_of(net),
                       "successes_a": a_successes, "successes_b": b_successes,
                       "catastrophe_a": _catastrophe_stays(a_dice, b_dice, a_rescue, mode is Mode.CONTEST),
                       "catastrophe_b": _catastrophe_stays(b_dice, a_dice, b_rescue, True)},
        expected={"net": mean(net), "effects": mean(_effects_of(net)),
                  "successes_a": a_dice * P_SUCCESS, "successes_b": b_dice * P_SUCCESS},
    )


def comparison(a: Pool, b: Pool, *, mode: Mode = Mode.CONTEST) -> Odds:
    return _comparison(a.dice, a.rescue_dice, b.dice, b.rescue_dice, mode)


def loss_margins(loser: Pool, winner: Pool) -> dict[int, Fraction]:
    """P(the loser ends k net successes behind, k >= 1 | it loses), after its own rescue dice: what
    one-shot rescue dice would have to make up (empty: it cannot lose). Defense mode alike: a
    defender loses just as a contest's side does (ruling 4)."""
    ways, _ = _wins_by_net(winner.dice, loser.dice, loser.rescue_dice)
    losing = sum(ways.values())
    return {k: Fraction(count, losing) for k, count in ways.items() if count} if losing else {}


@lru_cache(maxsize=256)
def rescue(dice: int) -> Odds:
    distribution = successes(dice)
    return Odds(
        outcomes={"success": 1 - distribution[0], "failure": distribution[0]},
        distributions={"successes": distribution},
        expected={"successes": dice * P_SUCCESS},
    )


# --- who wins a comparison, for encounters ------------------------------------------------------

@lru_cache(maxsize=65536)
def win_ways(dice: int, against: int) -> int:
    """Ways (of 2^(dice + against)) that ``dice`` dice win a contest against ``against`` = the
    loser's dice + its rescue dice, after rescue. By the closed form above the winner wins exactly
    when Bin(dice + against, 1/2) > against; the catastrophe correction only moves weight between
    net k and k + 1 (both wins), so it changes no total. Adding a die doubles the ways and adds the
    ways of an exact draw before it, C(dice - 1 + against, against)."""
    if dice == 0:
        return 0
    return 2 * win_ways(dice - 1, against) + comb(dice - 1 + against, against)


def contest_winner(a_dice: int, a_rescue: int, b_dice: int, b_rescue: int, *,
                   exact: bool = True) -> tuple[Fraction, Fraction] | tuple[float, float]:
    """P(a wins), P(b wins) of a contest comparison after rescue: the outcomes ``a`` and ``b`` of
    ``comparison`` in one binomial tail each (an encounter asks this for every state); correctly
    rounded floats unless ``exact``."""
    a_against, b_against = b_dice + b_rescue, a_dice + a_rescue
    ways = (win_ways(a_dice, a_against), 2 ** (a_dice + a_against),
            win_ways(b_dice, b_against), 2 ** (b_dice + b_against))
    if exact:
        return Fraction(ways[0], ways[1]), Fraction(ways[2], ways[3])
    return ways[0] / ways[1], ways[2] / ways[3]
