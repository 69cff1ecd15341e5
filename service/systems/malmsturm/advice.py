"""Advice for a Malmsturm conflict (RULINGS.md "Advice", Malmsturm): the advised side may concede
("oder eine Partei nachgiebt", E3), take a consequence early instead of the stress ("man kann schon
vorher eine Konsequenz hinnehmen, wenn man will", ruling 5) or fight on, decided anew in every state.
Pure: no Flask, no JSON.

The adaptive optimum is backward induction on the conflict's own chain, turn by turn
(service/systems/malmsturm/encounter.py, as the solver walks it): a state is every member's (stress
left, consequences) before a turn of the round. Every hit moves a state forward (consequences only
grow, stress only shrinks until a consequence refills it), so a state's values need only states
further on; N misses in a row come back to the same state a round later, divided out in closed form
(value_0 = (g_0 + m_0 g_1 + m_0 m_1 g_2 + ...) / P(the round changes something)). When an attack hits
a member of the advised side for fewer shifts than its stress left, it takes the stress or a
consequence early, whichever is worth more. The aim: the chance to win, ties by the chance not to
lose (a stalemate is no loss). Conceding loses at once, so it is never worth more than fighting on:
the optimum never concedes (the advised side's own ``concede_at_consequences`` is dropped).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import gmpy2

from service.platform.maths.odds import Probability
from service.platform.maths.time_slicing import cooperate
from service.platform.words.messages import Message, advised, advised_n
from service.systems.malmsturm import rules, solver
from service.systems.malmsturm.encounter import OUT, Conflict, MemberState, Order, State, after_attack

TIE = 1e-12  # float64: two choices' chances closer than this are equal (exact: equal only when equal)


@dataclass(frozen=True)
class Early:
    """A state and hit where the optimum takes a consequence early: the member, its state before the
    hit, and the shifts."""

    member: str
    before: MemberState
    shifts: int


@dataclass(frozen=True)
class Solved:
    win: Probability
    not_lose: Probability
    early: tuple[Early, ...]  # every (member, state, shifts) where the optimum takes it early
    states: int


def never_conceding(conflict: Conflict, side: int) -> Conflict:
    concede = list(conflict.concede_at)
    concede[side] = None
    return dataclasses.replace(conflict, concede_at=(concede[0], concede[1]), _memo={})


def solve(conflict: Conflict, side: int, *, exact: bool) -> Solved:
    """The advised ``side``'s best chance to win when it may take a consequence early on every hit
    (and concede, never worth it); the order of action as the conflict gives it or by initiative
    (every order with its exact chance, the side deciding once it knows the order)."""
    conflict = never_conceding(conflict, side)
    win: Any = gmpy2.mpq(0) if exact else 0.0
    not_lose: Any = gmpy2.mpq(0) if exact else 0.0
    early: dict[Early, None] = {}
    states = 0
    for order, chance in solver.orders(conflict):
        if not chance:
            continue
        walk = _Backward(conflict, order, side, exact)
        first = walk.values(conflict.start())[0]
        weight = gmpy2.mpq(Fraction(chance).numerator, Fraction(chance).denominator) if exact else float(chance)
        win, not_lose = win + weight * first[0], not_lose + weight * first[1]
        early.update(dict.fromkeys(walk.early))
        states += len(walk.known)
    if exact:
        win, not_lose = Fraction(int(win.numerator), int(win.denominator)), Fraction(int(not_lose.numerator),
                                                                                      int(not_lose.denominator))
    return Solved(win, not_lose, tuple(early), states)


Value = tuple[Probability, Probability]  # (win, not lose)


class _Backward:
    def __init__(self, conflict: Conflict, order: Order, side: int, exact: bool) -> None:
        self.conflict, self.side, self.exact = conflict, side, exact
        self.slots = conflict.slots(order)
        self.turns = len(self.slots)
        self.one: Probability = gmpy2.mpq(1) if exact else 1.0
        self.zero: Probability = self.one - self.one
        self.winning = f"wins:{conflict.side_names[side]}"
        self.known: dict[State, list[Value]] = {}
        self.early: list[Early] = []
        self._hit_table: dict[tuple[int, int, MemberState], list] = {}
        self._shifts: dict[tuple[int, int, MemberState, MemberState], int] = {}
        per_attack = conflict.per_attack
        # exact: GMP's rationals (gmpy2), as the conflict's own solver sums them; Fractions at the end
        self.number: Callable[[int], Probability] = ((lambda ways: gmpy2.mpq(ways, per_attack)) if exact
                                                     else (lambda ways: ways / per_attack))

    def values(self, state: State) -> list[Value]:
        """Per turn of the round: (win, not lose) before that turn from ``state``."""
        if state in self.known:
            return self.known[state]
        cooperate()
        ended = self.conflict.outcome(state)
        if ended is not None:
            value = (self.one, self.one) if ended == self.winning else (self.zero, self.zero)
            self.known[state] = [value] * self.turns
            return self.known[state]
        misses, gains = [], []
        for turn in range(self.turns):
            miss, gain = self._turn(state, turn)
            misses.append(miss)
            gains.append(gain)
        self.known[state] = _round_values(misses, gains, self.one)
        return self.known[state]

    def _turn(self, state: State, turn: int) -> tuple[Probability, Value]:
        """The turn's chance to change nothing, and what its hits are worth (each hit at its value
        in the state it leads to, before the next turn)."""
        attacker, rank = self.slots[turn]
        if state[attacker][2] >= rules.CONSEQUENCES_TO_TAKE_OUT:
            return self.one, (self.zero, self.zero)
        target = self.conflict.target(attacker, rank, state)
        following = (turn + 1) % self.turns
        miss, win, safe = self.zero, self.zero, self.zero
        for chance, after, early in self._hits(attacker, target, state[target]):
            if after is None:
                miss += chance
                continue
            value = self._after(state, target, after, following)
            if early is not None:
                other = self._after(state, target, early, following)
                if self._better(other, value):
                    self.early.append(Early(self.conflict.members[target].name, state[target],
                                            self._shifts[(attacker, target, state[target], after)]))
                    value = other
            win, safe = win + chance * value[0], safe + chance * value[1]
        return miss, (win, safe)

    def _hits(self, attacker: int, target: int, before: MemberState) -> list[tuple[Probability, MemberState | None,
                                                                                  MemberState | None]]:
        """Per number of shifts: its chance, the target's state after (None: a miss) and, where the
        advised side may take a consequence early instead (fewer shifts than its stress left), the
        state after that; shared by every state with the same attacker, target and target state."""
        key = (attacker, target, before)
        if key not in self._hit_table:
            conflict = self.conflict
            member = conflict.members[target]
            defender = rules.Defender(member.defense, rules.Stress(
                rules.StressTrack(before[0], member.stress.physical.max),
                rules.StressTrack(before[1], member.stress.mental.max)), before[2], member.modifier, member.name)
            track = conflict.members[attacker].track
            table: list[tuple[Probability, MemberState | None, MemberState | None]] = []
            for shifts, ways in conflict.shifts(attacker, target):
                chance = self.number(ways)
                after = after_attack(defender, track, shifts)
                if after == before:
                    table.append((chance, None, None))
                    continue
                early = None
                if member.side == self.side and after != OUT and after[2] == before[2]:
                    taken = rules.damage(defender, track, shifts, take_consequence_early=True)
                    early = OUT if taken.taken_out else (taken.stress_after.physical.current,
                                                         taken.stress_after.mental.current, taken.consequences_after)
                    self._shifts[(attacker, target, before, after)] = shifts
                table.append((chance, after, early))
            self._hit_table[key] = table
        return self._hit_table[key]

    def _after(self, state: State, target: int, after: MemberState, turn: int) -> Value:
        return self.values(state[:target] + (after,) + state[target + 1:])[turn]

    def _better(self, first: Value, second: Value) -> bool:
        tie: Probability = Fraction(0) if self.exact else TIE
        gain = first[0] - second[0]
        return bool(gain > tie or (-tie <= gain <= tie and first[1] - second[1] > tie))


def _round_values(misses: list[Probability], gains: list[Value], one: Probability) -> list[Value]:
    """value_k = gain_k + miss_k value_(k+1), the round closing on itself; a state where no turn can
    change anything (E4, a stalemate) is no win and no loss."""
    turns = len(misses)
    changes, win, safe, staying = one - one, one - one, one - one, one
    for miss, gain in zip(misses, gains):
        changes += staying * (one - miss)
        win, safe = win + staying * gain[0], safe + staying * gain[1]
        staying *= miss
    if changes == 0:
        return [(one - one, one)] * turns
    values: list[Value] = [(win / changes, safe / changes)] * turns
    following = values[0]
    for k in range(turns - 1, 0, -1):
        values[k] = (gains[k][0] + misses[k] * following[0], gains[k][1] + misses[k] * following[1])
        following = values[k]
    return values


# --- the optimum in words ---------------------------------------------------------------------------

def rules_of(solved: Solved) -> tuple[Message, ...]:
    said = [advised("Never concede: conceding loses at once, fighting on never wins less.")]
    if not solved.early:
        said.append(advised("Never take a consequence early: taking the stress never wins less."))
        return tuple(said)
    for early in solved.early[:3]:
        said.append(advised("Take a consequence early instead of the stress when %(name)s, with %(physical)s "
                            "physical and %(mental)s mental stress left and %(consequences)s consequences, is "
                            "hit for %(shifts)s.", name=early.member, physical=str(early.before[0]),
                            mental=str(early.before[1]), consequences=str(early.before[2]),
                            shifts=str(early.shifts)))
    return tuple(said)


def policy_words(policy: Mapping[str, Any]) -> list[Message]:
    """A Malmsturm policy in the chat line's words: when to concede, whether to defend, whom to attack."""
    words: list[Message] = []
    if "concede_at_consequences" in policy:
        at = policy["concede_at_consequences"]
        words.append(advised("never concede") if at is None
                     else advised_n("concede at %(count)d consequence", "concede at %(count)d consequences", at))
    if "defend" in policy:
        words.append(advised("defend") if policy["defend"] else advised("do not defend"))
    if "targeting" in policy:
        words.append(advised("all attacks on one") if policy["targeting"] == "focus" else advised("spread the attacks"))
    return words
