"""Paws advice on the group's one-shot rescue dice after a loss (RULINGS.md "Advice", Paws: "Single
roll: `paws.test/advice` and `paws.comparison/advice` for spending rescue dice on this loss, pricing a
kept die by the chance it averts a later loss of the same kind"; rules text 001: "Jeder Rettungswürfel
darf nur einmal gewürfelt werden und ist danach verbraucht. Zeigt er einen Erfolg, kann man damit
einen negativen Effekt abwenden."), service/systems/paws/rescue_advice.py."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import pytest

from service.systems.paws import odds, rescue_advice, rules
from service.systems.paws.rescue_advice import TEST_LOSS, Loss, worth

HALF = Fraction(1, 2)


# -- an independent model: every sequence of die results, played out -------------------------------

def _averted_in_sequence(bits: tuple[bool, ...], spend: int, margins: list[int]) -> int:
    """Losses averted when the dice come up ``bits`` in order: at most ``spend`` on the first loss, every
    die left on each later one; a loss stops taking dice once averted or out of reach."""
    position, averted = 0, 0
    for index, margin in enumerate(margins):
        budget = min(spend, len(bits)) if index == 0 else len(bits) - position
        used = successes = 0
        while successes < margin and budget - used >= margin - successes:
            successes += bits[position]
            position, used = position + 1, used + 1
        averted += successes == margin
    return averted


def _brute_force(dice: int, spend: int, now: dict[int, Fraction], future: int,
                 later: dict[int, Fraction]) -> Fraction:
    """Expected losses averted, over every sequence of results and every margin of every loss."""
    total = Fraction(0)
    for margins in itertools.product(now.items(), *[later.items()] * future):
        weight = Fraction(1)
        for _, p in margins:
            weight *= p
        for bits in itertools.product((False, True), repeat=dice):
            total += weight * HALF**dice * _averted_in_sequence(bits, spend, [m for m, _ in margins])
    return total


CASES = [(1, TEST_LOSS, 1, TEST_LOSS), (2, TEST_LOSS, 1, TEST_LOSS), (3, TEST_LOSS, 2, TEST_LOSS),
         (4, {2: Fraction(1)}, 1, {1: Fraction(2, 3), 2: Fraction(1, 3)}),
         (5, {1: Fraction(1, 2), 3: Fraction(1, 2)}, 2, {1: Fraction(1, 4), 2: Fraction(3, 4)}),
         (3, {1: Fraction(1)}, 0, {})]


@pytest.mark.parametrize(("dice", "now", "future", "later"), CASES, ids=range(len(CASES)))
def test_every_option_matches_playing_out_every_sequence_of_dice(dice, now, future, later):
    loss = Loss(dice, now, future, later)
    for spend in range(dice + 1):
        expected = _brute_force(dice, spend, now, future, later)
        assert worth(loss, spend).averted == expected / (1 + future), spend
    assert worth(loss, None) == worth(loss, dice)  # null: all of them


def test_hand_worked_one_die_is_as_good_now_as_later():
    """One die, one later loss: rolled now it averts this loss half the time, kept the later one half
    the time; either way 1/2 of a loss in 2, 1/4 each: "gleich gut"."""
    loss = Loss(1, TEST_LOSS, 1, TEST_LOSS)
    assert worth(loss, 0).averted == worth(loss, 1).averted == Fraction(1, 4)


def test_hand_worked_two_dice_keeping_both_loses_a_quarter():
    """Two dice, one later loss. Keep both: the later loss is averted unless both fail, 3/4. Spend at
    most one now: 1/2 now, and the other die 1/2 later, 1 in all. Spend both: 3/4 now (the first or
    the second succeeds), and a die is left only after a first success, 1/2 · 1/2 = 1/4 later: 1."""
    loss = Loss(2, TEST_LOSS, 1, TEST_LOSS)
    assert [worth(loss, spend).averted_now + worth(loss, spend).averted_later for spend in (0, 1, 2)] == [
        Fraction(3, 4), 1, 1]
    assert worth(loss, 2).dice_spent_now == Fraction(3, 2) and worth(loss, 1).dice_spent_now == 1


def test_hand_worked_keeping_beats_spending_on_a_comparison_lost_by_two():
    """Lost by 2 (ruling 3: two successes save it to a tie), two dice, and a later loss by 1. Spend both:
    both succeed 1/4; the first fails 1/2, and the second, out of reach now, is kept and averts the later
    loss 1/2: 1/4 + 1/4 = 1/2 of a loss. Keep both: the later loss unless both fail, 3/4. Keeping wins:
    3/8 of the two losses against 1/4."""
    loss = Loss(2, {2: Fraction(1)}, 1, {1: Fraction(1)})
    spend, keep = worth(loss, 2), worth(loss, 0)
    assert (spend.averted_now, spend.averted_later, spend.averted) == (Fraction(1, 4), Fraction(1, 4), Fraction(1, 4))
    assert (keep.averted_now, keep.averted_later, keep.averted) == (0, Fraction(3, 4), Fraction(3, 8))


def test_a_margin_out_of_reach_rolls_nothing():
    """A lost comparison needs as many successes as the winner's net (ruling 3: saved to a tie); with
    fewer dice allowed than that, none is rolled and every die is kept."""
    loss = Loss(3, {3: Fraction(1)}, 1, {1: Fraction(1)})
    kept = worth(loss, 2)
    assert kept.averted_now == 0 and kept.dice_spent_now == 0
    assert kept.averted_later == 1 - HALF**3


# -- the loss margins of a comparison, against the rules played out face by face --------------------

class _Faces:
    """A random source that gives the faces of one enumerated roll, in order."""

    def __init__(self, faces: tuple[int, ...]) -> None:
        self.faces = list(faces)

    def roll(self, count: int, sides: int) -> list[int]:
        rolled, self.faces = self.faces[:count], self.faces[count:]
        return rolled


@pytest.mark.parametrize(("loser", "winner"), [
    (rules.Pool(rank=2), rules.Pool(rank=2)),
    (rules.Pool(rank=1, extra_rescue_dice=1), rules.Pool(rank=3)),
    (rules.Pool(rank=2, extra_rescue_dice=2), rules.Pool(rank=2)),
])
def test_loss_margins_are_the_comparisons_own(loser, winner):
    """P(net = k | b loses), enumerated over every face of every die with rules.comparison (b's rescue
    dice included: ruling 3, only the loser rolls them)."""
    counts: dict[int, int] = {}
    dice = winner.dice + loser.dice + loser.rescue_dice
    for faces in itertools.product(range(1, 7), repeat=dice):
        result = rules.comparison(winner, loser, _Faces(faces))  # type: ignore[arg-type]
        if result.winner == "a":
            counts[result.net] = counts.get(result.net, 0) + 1
    losing = sum(counts.values())
    assert odds.loss_margins(loser, winner) == {k: Fraction(n, losing) for k, n in counts.items()}


def test_a_side_that_cannot_lose_has_no_margins():
    assert odds.loss_margins(rules.Pool(rank=2), rules.Pool(rank=0)) == {}


# -- seeded sampling of the whole advice ------------------------------------------------------------

def test_seeded_sampling_agrees_with_the_exact_share():
    """10,000 seeded evenings: a lost comparison (3 against 2 dice and a rescue die), three one-shot
    dice, one later loss; each option's averted share within four standard errors of the exact one."""
    sampler = random.Random(51)
    loser, winner = rules.Pool(rank=2, extra_rescue_dice=1), rules.Pool(rank=3)

    class Dice:
        def roll(self, count: int, sides: int) -> list[int]:
            return [sampler.randint(1, sides) for _ in range(count)]

    def a_loss() -> int:
        while True:
            result = rules.comparison(winner, loser, Dice())  # type: ignore[arg-type]
            if result.winner == "a":
                return result.net

    margins = odds.loss_margins(loser, winner)
    loss = Loss(3, margins, 1, margins)
    samples = 10_000
    for spend in range(4):
        averted = sum(_averted_in_sequence(tuple(sampler.random() < 0.5 for _ in range(3)), spend,
                                           [a_loss(), a_loss()]) for _ in range(samples))
        share = averted / (2 * samples)
        exact = float(worth(loss, spend).averted)
        assert abs(share - exact) < 4 * (0.25 / samples) ** 0.5, (spend, share, exact)


# -- over HTTP: signed, in words, refused where it cannot be -----------------------------------------

def test_over_http_a_failed_test_with_two_dice(post, client):
    """The hand-worked two dice: spending at most one and spending both are "gleich gut" (1/2), keeping
    both worse (3/8); equal options list fewer dice first; the default (null: all) is as good."""
    status, answer = post("/v1/paws/test/advice?lang=de", {"name": "Rynn", "rank": 1, "one_shot_rescue": 2})
    assert status == 200, answer
    block = answer["advice"]
    assert [(o["policy"], o["win"]["exact"], o["vs_best"]["equal"]) for o in block["options"]] == [
        ({"spend": 1}, "1/2", True), ({"spend": 2}, "1/2", True), ({"spend": 0}, "3/8", False)]
    assert block["default"]["policy"] == {"spend": 2} and block["adaptive"] is None
    assert answer["summary"] == (
        "Rat für Rynn: am besten auf diese Niederlage höchstens 1 einmaligen Rettungswürfel einsetzen, 50,0\u00a0% "
        "dieser Niederlagen abgewendet. Die Voreinstellung (auf diese Niederlage höchstens 2 einmalige "
        "Rettungswürfel einsetzen) ist gleich gut.")
    assert client.post("/v1/receipts/verify", json=answer).get_json()["valid"] is True


def test_over_http_a_known_margin_and_the_sides(post):
    body = {"a": {"rank": 3}, "b": {"rank": 2, "name": "Ryan"}, "one_shot_rescue": 2, "lost_by": 2,
            "advise": {"side": "b"}}
    status, answer = post("/v1/paws/comparison/advice", body)
    assert status == 200, answer
    options = {o["policy"]["spend"]: o for o in answer["advice"]["options"]}
    assert options[2]["expected"]["averted_now"] == pytest.approx(0.25)  # both dice must succeed
    assert answer["summary"].startswith("Advice for Ryan: best ")
    status, problem = post("/v1/paws/comparison/advice", {**body, "mode": "defense", "advise": {"side": "a"}})
    assert status == 422 and problem["errors"] == {"advise.side": ["must be one of: b"]}


@pytest.mark.parametrize(("body", "field"), [
    ({"a": {"rank": 2}, "b": {"rank": 2}, "lost_by": 3}, "lost_by"),  # b rolls 2 dice: a loses by 1 or 2
    ({"a": {"rank": 2}, "b": {"rank": 0}}, "advise.side"),  # b rolls no dice: a cannot lose
    ({"a": {"rank": 2}, "b": {"rank": 2}, "one_shot_rescue": 21}, "one_shot_rescue"),
    ({"a": {"rank": 2}, "b": {"rank": 2}, "future_losses": 11}, "future_losses"),
    ({"a": {"rank": 2}, "b": {"rank": 2}, "spend": -1}, "spend"),
])
def test_over_http_refusals_name_the_field(post, body, field):
    status, problem = post("/v1/paws/comparison/advice", body)
    assert status == 422 and field in problem["errors"], problem


def test_the_limits_stay_exact():
    """The largest body the limits allow is answered in exact fractions (the time is in bench/)."""
    margins = odds.loss_margins(rules.Pool(rank=10, extra_bonus_dice=10), rules.Pool(rank=10, extra_bonus_dice=10))
    loss = Loss(rescue_advice.MAX_DICE, margins, rescue_advice.MAX_FUTURE_LOSSES, margins)
    assert isinstance(worth(loss, 3).averted, Fraction)
