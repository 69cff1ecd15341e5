"""Advice for a Paws duel (RULINGS.md "Advice", Paws): spend a one-shot rescue die after a lost round
or keep it ("Jeder Rettungswürfel darf nur einmal gewürfelt werden und ist danach verbraucht", E3),
and give up or fight on ("oder auf gibt", E2), decided anew in every state. Pure: no Flask, no JSON.

The adaptive optimum is backward induction on the duel's own chain (encounter.py): a state is
(wounds of a, wounds of b, one-shot dice left to a, to b) as there, and each move raises a wound or
spends a die, so the states are solved from the last to the first; a tie repeats the round, so a
state's value is its moves' values over 1 − P(tie). After a lost round the advised side decides die
by die: keep the rest and take the wound, or roll one more (4–6 averts the wound). The other side
plays by the body (E3: rolls until one succeeds). Giving up loses at once, so fighting on is never
worse: the optimum never gives up.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from service.platform.maths.odds import Probability
from service.platform.words.messages import Message, advised, advised_n
from service.systems.paws import encounter
from service.systems.paws.encounter import Duel, State

SPEND, KEEP = "spend", "keep"


@dataclass(frozen=True)
class Decision:
    """What the advised side does with its one-shot dice after losing a round in ``state``."""

    state: State
    choice: str  # SPEND or KEEP
    dice: int  # its pool's dice in that state (after its wounds)
    against: int  # the other side's


@dataclass(frozen=True)
class Solved:
    win: Probability
    decisions: tuple[Decision, ...]  # where a die is left and the side lost a round, as reached by the optimum
    states: int


def state_bound(duel: Duel, side: int) -> int:
    """States the adaptive solve may meet: the advised side may keep dice at any wounds, so its part is
    (wounds it can take + 1) × (one-shot dice + 1), each weighed by its ways to end a lost round as
    there ((S + 1)(S + 2) / 2 in all); the other side's is as in ``encounter.state_bound``."""
    me, other = (duel.a, duel.b) if side == 0 else (duel.b, duel.a)
    mine = (me.last_wounds() - me.pool.wounds + 1) * (me.one_shot_rescue + 1) * (me.one_shot_rescue + 2) // 2
    shots = other.one_shot_rescue
    theirs = (shots + 1) * (shots + 2) // 2 + (other.last_wounds() - other.pool.wounds)
    return mine * theirs


def never_giving_up(duel: Duel, side: int) -> Duel:
    fighter = dataclasses.replace(duel.fighter("ab"[side]), give_up_at_wounds=None)
    return Duel(fighter, duel.b) if side == 0 else Duel(duel.a, fighter)


def solve(duel: Duel, side: int, *, exact: bool, decide: bool = True) -> Solved:
    """The advised side's best chance to win, deciding after every lost round die by die, and its
    decisions in the states the optimum reaches; ``decide`` False: it rolls its one-shot dice as the
    body does (E3: until one succeeds)."""
    one: Probability = Fraction(1) if exact else 1.0
    half: Probability = Fraction(1, 2) if exact else 0.5
    winning = f"wins:{'ab'[side]}"

    @functools.cache
    def value(state: State) -> Probability:
        ended = encounter.outcome(duel, state)
        if ended is not None:
            return one if ended == winning else one - one
        a_wins, b_wins = encounter._win_chances(duel, state[0], state[1], exact)
        mine, theirs = (a_wins, b_wins) if side == 0 else (b_wins, a_wins)
        won = sum((p * value(after) for after, p in encounter._wounded(state, 1 - side, one, half)), one - one)
        return (mine * won + theirs * lost(state)) / (mine + theirs) if mine + theirs else one - one

    @functools.cache
    def lost(state: State) -> Probability:
        """The value after losing a round in ``state``, deciding die by die (best of keep and spend)."""
        keep = value(encounter._after(state, side, wounds=1, shots_left=state[2 + side]))
        if not state[2 + side]:
            return keep
        spend = spent(state)
        return spend if spend >= keep or not decide else keep

    def spent(state: State) -> Probability:
        shots = state[2 + side] - 1
        return half * value(encounter._after(state, side, wounds=0, shots_left=shots)) + \
            half * lost(encounter._after(state, side, wounds=0, shots_left=shots))

    _fill(duel, side, value)
    win = value(duel.start())
    decisions = _decisions(duel, side, value, spent, exact, decide)
    return Solved(win, decisions, value.cache_info().currsize + lost.cache_info().currsize)


def _fill(duel: Duel, side: int, value: Callable[[State], Probability]) -> None:
    """Solve the states deepest first, so that the recursion of ``value`` stays a few calls deep (a long
    duel has hundreds of states in a row): the other side's wounds from the last, its dice from none
    (it keeps dice only before its first wound, E3), then the advised side's wounds from the last and
    its dice from none; every move leads to a state solved before."""
    start = duel.start()
    for theirs in range(duel.down_at[1 - side], start[1 - side] - 1, -1):
        for their_shots in range(0, start[3 - side] + 1 if theirs == start[1 - side] else 1):
            for mine in range(duel.down_at[side], start[side] - 1, -1):
                for my_shots in range(0, start[2 + side] + 1):
                    state = [0, 0, 0, 0]
                    state[side], state[1 - side], state[2 + side], state[3 - side] = mine, theirs, my_shots, their_shots
                    value((state[0], state[1], state[2], state[3]))


def _decisions(duel: Duel, side: int, value: Callable[[State], Probability], spent: Callable[[State], Probability],
               exact: bool, decide: bool) -> tuple[Decision, ...]:
    """The decision states the optimum reaches from the start, in the order met."""
    one: Probability = Fraction(1) if exact else 1.0
    half: Probability = Fraction(1, 2) if exact else 0.5
    seen: set[State] = set()
    decisions: list[Decision] = []
    queue = [duel.start()]
    while queue:
        state = queue.pop(0)
        if state in seen or encounter.outcome(duel, state) is not None:
            continue
        seen.add(state)
        a_wins, b_wins = encounter._win_chances(duel, state[0], state[1], exact)
        if a_wins or b_wins:
            queue.extend(after for after, _ in encounter._wounded(state, 1 - side, one, half))
        pending = state
        while pending[2 + side]:
            keep = value(encounter._after(pending, side, wounds=1, shots_left=pending[2 + side]))
            choice = SPEND if spent(pending) >= keep or not decide else KEEP
            me, other = duel.fighter("ab"[side]), duel.fighter("ab"[1 - side])
            decisions.append(Decision(pending, choice, me.dice(pending[side]), other.dice(pending[1 - side])))
            if choice == KEEP:
                break
            pending = encounter._after(pending, side, wounds=0, shots_left=pending[2 + side] - 1)
            queue.append(pending)
        queue.append(encounter._after(pending, side, wounds=1, shots_left=pending[2 + side]))
    return tuple(decisions)


# -- the rule in words ----------------------------------------------------------------------------------

def rules(solved: Solved, *, rescue: bool, give_up: bool) -> tuple[Message, ...]:
    """What the optimum does, as a player reads it aloud."""
    said: list[Message] = []
    if rescue:
        said.append(_rescue_rule(solved.decisions))
    if give_up:
        said.append(advised("Never give up: giving up loses at once, fighting on never wins less."))
    return tuple(said)


def _rescue_rule(decisions: tuple[Decision, ...]) -> Message:
    if not decisions:
        return advised("No one-shot rescue die comes to be rolled: nothing to decide.")
    kept = [decision for decision in decisions if decision.choice == KEEP]
    if not kept:
        return advised("Spend a one-shot rescue die after every lost round, one at a time until one succeeds.")
    if len(kept) == len(decisions):
        return advised("Keep the one-shot rescue dice: in this fight they win nothing.")
    keep_from = min(decision.dice for decision in kept)
    spent_below = [decision for decision in decisions if decision.choice == SPEND]
    if all(decision.dice < keep_from for decision in spent_below):
        return advised_n("Keep the one-shot rescue dice while you still have %(count)d die or more; spend them "
                     "after a lost round once you have fewer.",
                     "Keep the one-shot rescue dice while you still have %(count)d dice or more; spend them "
                     "after a lost round once you have fewer.", keep_from)
    states = ", ".join(f"{decision.dice}:{decision.against}" for decision in kept[:6])
    return advised("Spend a one-shot rescue die after a lost round, but keep it when your dice against the "
               "other's stand at %(states)s.", states=states)


def policy_words(policy: Mapping[str, Any]) -> list[Message]:
    """A Paws policy in the chat line's words: the one-shot dice spent or kept, when to give up."""
    words: list[Message] = []
    if "one_shot_rescue" in policy:
        spent = policy["one_shot_rescue"]
        words.append(advised_n("spend %(count)d one-shot rescue die", "spend %(count)d one-shot rescue dice", spent)
                     if spent else advised("keep the one-shot rescue dice"))
    if "give_up_at_wounds" in policy:
        wounds = policy["give_up_at_wounds"]
        words.append(advised("never give up") if wounds is None
                     else advised_n("give up at %(count)d wound", "give up at %(count)d wounds", wounds))
    return words
