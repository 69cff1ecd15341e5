"""Advice on spending the group's one-shot rescue dice on a loss (RULINGS.md "Advice", Paws:
`paws.test/advice`, `paws.comparison/advice`). Pure: no Flask, no JSON.

"Jeder Rettungswürfel darf nur einmal gewürfelt werden und ist danach verbraucht. Zeigt er einen
Erfolg, kann man damit einen negativen Effekt abwenden."

A loss needs ``margin`` rescue successes to be averted as a whole: a failed test one (ruling 3: the
first averts the catastrophe where there is one, else the failure's negative effect), a lost
comparison its net (ruling 3: each cancels one of the winner's net successes, and a tie is no
loss). The group holds ``dice`` one-shot dice; the policy ``spend`` rolls at most that many on this
loss, one at a time, and stops when the loss is averted or when the dice it may still roll cannot
reach the margin any more. (A partial rescue averts some effects but not the loss: this advice
counts whole losses.) The dice kept go to ``future`` later losses of the same kind, taken as
certain (RULINGS.md "Advice"), each spent on the same way with every die left, its margin drawn
from ``later_margins``.

A policy's worth is the expected number of losses averted out of the 1 + ``future``; divided by
them, it is the chance that a loss among them is averted, the ``averted`` outcome the advice ranks.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction

from service.platform.maths.odds import Odds
from service.platform.words.messages import Message, advised, advised_n

HALF = Fraction(1, 2)  # a die succeeds on 4–6
MAX_DICE = 20  # one-shot dice at hand; the exact sums grow with dice × later losses × margins
MAX_FUTURE_LOSSES = 10
Margins = Mapping[int, Fraction]  # P(a loss needs k successes), k >= 1
TEST_LOSS: Margins = {1: Fraction(1)}  # a failed test: one success averts it (ruling 3)


@functools.lru_cache(maxsize=4096)
def attempt(dice: int, margin: int) -> dict[tuple[bool, int], Fraction]:
    """Rolling at most ``dice`` dice one at a time for ``margin`` successes, stopping when they are
    reached or out of reach: P(averted, dice left)."""
    outcomes: dict[tuple[bool, int], Fraction] = {}
    rolling = {(dice, margin): Fraction(1)}  # (dice left, successes still needed) -> probability
    while rolling:
        next_rolls: dict[tuple[int, int], Fraction] = {}
        for (left, needed), p in rolling.items():
            if needed == 0 or left < needed:
                key = (needed == 0, left)
                outcomes[key] = outcomes.get(key, Fraction(0)) + p
                continue
            for state in ((left - 1, needed - 1), (left - 1, needed)):
                next_rolls[state] = next_rolls.get(state, Fraction(0)) + p * HALF
        rolling = next_rolls
    return outcomes


@dataclass(frozen=True)
class Loss:
    """The loss at hand and what the group's one-shot dice may still meet."""

    dice: int  # the group's one-shot rescue dice at hand
    margin_now: Margins  # this loss's margin: known ({k: 1}) or its distribution
    future: int  # later losses of the same kind
    later_margins: Margins

    def __post_init__(self) -> None:
        if not self.margin_now or (self.future and not self.later_margins):
            raise ValueError("a loss needs a margin distribution")


@dataclass(frozen=True)
class Worth:
    """What spending at most ``spend`` dice on this loss gives, in expectation."""

    averted_now: Fraction  # P(this loss is averted)
    averted_later: Fraction  # later losses averted
    dice_spent_now: Fraction
    losses: int  # 1 + future

    @property
    def averted(self) -> Fraction:
        """The chance that a loss among them is averted."""
        return (self.averted_now + self.averted_later) / self.losses

    def odds(self) -> Odds:
        """As the advice ranks it: ``averted`` or ``stands``, with what it costs now."""
        return Odds(outcomes={"averted": self.averted, "stands": 1 - self.averted},
                    expected={"losses_averted": self.averted_now + self.averted_later,
                              "averted_now": self.averted_now, "dice_spent_now": self.dice_spent_now})


def worth(loss: Loss, spend: int | None) -> Worth:
    """Spending at most ``spend`` dice (None: all) on this loss, the rest kept for the later ones."""
    allowed = loss.dice if spend is None else min(spend, loss.dice)
    later = _later_value(tuple(sorted(loss.later_margins.items())))
    averted_now = spent = averted_later = Fraction(0)
    for margin, p in loss.margin_now.items():
        for (averted, left), q in attempt(allowed, margin).items():
            weight = p * q
            averted_now += weight * averted
            spent += weight * (allowed - left)
            averted_later += weight * later(loss.dice - allowed + left, loss.future)
    return Worth(averted_now, averted_later, spent, 1 + loss.future)


@functools.lru_cache(maxsize=64)
def _later_value(margins: tuple[tuple[int, Fraction], ...]) -> Callable[[int, int], Fraction]:
    """Expected later losses averted with ``dice`` kept and ``losses`` to come, every die left spent
    on each in turn (a margin beyond the dice left is out of reach: the loss is let stand)."""
    @functools.cache
    def value(dice: int, losses: int) -> Fraction:
        if dice == 0 or losses == 0:
            return Fraction(0)
        out_of_reach = Fraction(0)
        total = Fraction(0)
        for margin, p in margins:
            if margin > dice:  # no die is rolled: one sum for all of them
                out_of_reach += p
                continue
            for (averted, left), q in attempt(dice, margin).items():
                total += p * q * (averted + value(left, losses - 1))
        return total + out_of_reach * value(dice, losses - 1)
    return value


# -- the chat line's words ---------------------------------------------------------------------------

def averted_headline(**words: object) -> Message:
    """The chat line's first sentence: the best policy and the share of the losses it averts."""
    return advised("Advice for %(side)s: best %(policy)s, %(win)s of these losses averted.", **words)


def policy_words(policy: Mapping[str, object]) -> list[Message]:
    spend = policy.get("spend")
    if not isinstance(spend, int):
        return []
    if spend == 0:
        return [advised("keep the one-shot rescue dice for later losses")]
    return [advised_n("spend at most %(count)d one-shot rescue die on this loss",
                      "spend at most %(count)d one-shot rescue dice on this loss", spend)]
