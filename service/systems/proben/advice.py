"""Advice for a chain of tests (RULINGS.md "Advice", Proben): retry a failed step with one die fewer or
stop ("Möchte ein Spieler eine misslungene Probe wiederholen, wird hierfür ein Würfel entfernt", ruling
3, E1), and count partial successes toward the next attempt where the GM allows it (``carry_partial``,
"sodass eine weitere Probe nur 1 Erfolg benötigt", E2). Pure: no Flask, no JSON.

The adaptive optimum is backward induction over the chain's states (step, attempt, successes
carried), as encounter.py walks them: after a failed attempt the player retries (the next attempt's
value) or stops (the chain fails: 0). Steps are independent, so the chain succeeds with the product
of its steps' chances. Stopping never succeeds, so the optimum retries while dice are left: its rule
says so, and the platform adds that it gains nothing over the fixed "until no dice are left".
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cache
from typing import Any

from service.platform.maths.odds import Probability, binomial
from service.platform.words.messages import Message, advised, advised_n
from service.systems.proben.encounter import Chain, Step
from service.systems.proben.odds import P_SUCCESS
from service.systems.proben.rules import dice_for_attempt


@dataclass(frozen=True)
class Solved:
    win: Probability
    carry_partial: bool  # the table rule the optimum plays by
    states: int


def step_chance(step: Step, required: int, carry_partial: bool, exact: bool) -> tuple[Probability, int]:
    """The step's best chance to succeed when the player decides after every failed attempt to retry
    (one die fewer) or stop, and the states solved. ``step.max_attempts`` is ignored: it is the choice."""
    zero: Probability = Fraction(0) if exact else 0.0

    @cache
    def value(attempt: int, carried: int) -> Probability:
        dice = dice_for_attempt(step.pool.dice, attempt)
        if dice == 0:  # "Hat der Spieler keinen Würfel mehr übrig, kann er auch keine weiteren Versuche unternehmen."
            return zero
        total = zero
        for successes, chance in enumerate(binomial(dice, P_SUCCESS)):
            if carried + successes >= required:
                total += chance if exact else float(chance)
            else:
                retry = value(attempt + 1, carried + successes if carry_partial else 0)
                total += (chance if exact else float(chance)) * max(retry, zero)  # stopping: the chain fails
        return total

    return value(1, 0), value.cache_info().currsize


def solve(chain: Chain, *, exact: bool, carry_choices: tuple[bool, ...]) -> Solved:
    """The chain's best chance, retrying or stopping in every state, under the best of ``carry_choices``
    (the table rules the GM allows); steps are independent, so their chances multiply."""
    best: Solved | None = None
    for carry in carry_choices:
        win: Probability = Fraction(1) if exact else 1.0
        states = 0
        for index, step in enumerate(chain.steps):
            chance, solved = step_chance(step, chain.required(index), carry, exact)
            win *= chance
            states += solved
        if best is None or win > best.win:
            best = Solved(win, carry, states)
    assert best is not None
    return best


def unlimited(chain: Chain) -> Chain:
    """The chain with every step retried until no dice are left (E1 without ``max_attempts``)."""
    return replace(chain, steps=tuple(replace(step, max_attempts=None) for step in chain.steps))


def rules(solved: Solved, *, retry: bool, carry: bool) -> tuple[Message, ...]:
    said: list[Message] = []
    if retry:
        said.append(advised("Retry every failed test with one die fewer while dice are left: stopping never "
                            "succeeds more."))
    if carry:
        said.append(advised("Count partial successes toward the next attempt where the GM allows it.")
                    if solved.carry_partial else
                    advised("Counting partial successes changes nothing here."))
    return tuple(said)


def policy_words(policy: Mapping[str, Any]) -> list[Message]:
    """A Proben chain's policy in the chat line's words: how often each step is tried, partial
    successes carried or not."""
    words: list[Message] = []
    attempts = policy.get("max_attempts")
    if attempts is not None:
        if all(limit is None for limit in attempts):
            words.append(advised("retry every failed step while dice are left"))
        else:
            for step, limit in enumerate(attempts, start=1):
                what = (advised("retry while dice are left") if limit is None
                        else advised_n("at most %(count)d attempt", "at most %(count)d attempts", limit))
                words.append(advised("step %(step)d: %(what)s", step=step, what=what) if len(attempts) > 1 else what)
    if "carry_partial" in policy:
        words.append(advised("count partial successes toward the next attempt") if policy["carry_partial"]
                     else advised("partial successes do not carry over"))
    return words


def helpers_words(policy: Mapping[str, Any]) -> list[Message]:
    """A cooperation's policy in the chat line's words: who helps."""
    helpers = policy.get("helpers", [])
    return [advised("with the help of %(names)s", names=list(helpers)) if helpers else advised("without helpers")]
