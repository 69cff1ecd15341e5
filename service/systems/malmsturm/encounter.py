"""A Malmsturm encounter, the conflict as the rules see it (rules file 004, RULINGS.md "Encounters", Malmsturm E1–E8):
its members, its policies (order, targeting, conceding, defending, when it ends) and one round of it.
Pure: no Flask, no JSON. Its odds: service/systems/malmsturm/solver.py; its state bound before
solving: service/systems/malmsturm/bounds.py; its play-out: service/systems/malmsturm/play_out.py.

"Konflikte entstehen dann, wenn zwei oder mehr Konkurrenten über mehrere Runden im Widerstreit liegen
und versuchen, den anderen zu übetrumpfen, bis einer der Konkurrenten freiwillig oder unfreiwillig
ausscheidet oder eine Partei nachgiebt. Die Reihenfolge wird über einen Intuitions-Wurf ermittelt."
"Sobald ein Charakter an der Reihe ist, kann er einen Angriff durchführen und der angegriffene kann
sich mit einem Fertigkeitswurf verteidigen." "Wer zwei Konseuenzen hingenommen hat, scheidet aus dem
Konflikt aus."

A state is every member's (physical stress left, mental stress left, consequences) at the start of a
round. Within a member, consequences only grow and stress only shrinks until a consequence refills
it, so the chain only moves forward (a round without a hit stays). A round is every member's turn in
order, one attack each (E2); ``round_step`` expands it in integers (ways out of 3^(2 × dice) per
attack) for service/platform/maths/chains.py, the reference the tests hold the solver to.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from service.platform.maths.odds import Probability
from service.systems.malmsturm import odds as malm_odds
from service.systems.malmsturm import rules

OUT = (0, 0, rules.CONSEQUENCES_TO_TAKE_OUT)  # a member taken out: its stress no longer matters
UNDEFENDED_DIFFICULTY = 0  # ruling 5: an attack nobody defends meets mäßig (0)
ROLLING_ROUND_CAP = 1000  # a rolled conflict without max_rounds stops here (undecided)
FOCUS, SPREAD = "focus", "spread"
SIDE_OUT, FIRST_OUT = "side_out", "first_out"  # E8: when a conflict of groups ends

MemberState = tuple[int, int, int]  # physical stress left, mental stress left, consequences
State = tuple[MemberState, ...]  # every member, side 0 first, in body order
Order = tuple[int, ...]  # member indices in order of action
Ways = Callable[[int], Probability]  # ways (of one attack's equally likely outcomes) -> probability
TurnMoves = tuple[int, int, tuple[tuple[MemberState, int], ...]]  # target, ways it misses, its states if hit


@dataclass(frozen=True)
class Member:
    name: str
    side: int  # 0 or 1
    skill: int  # the attack's skill
    attack: rules.AttackType
    defense: int  # the defence skill
    modifier: int  # "added to both its attack and its defence" (API.md §1.7)
    stress: rules.Stress
    consequences: int
    intuition: int
    defenses: tuple[tuple[rules.AttackType, int], ...] = ()  # E7: per attack kind, beside ``defense``

    @property
    def track(self) -> rules.Track:
        return rules.TRACK_OF[self.attack]

    def defense_against(self, kind: rules.AttackType) -> int:
        """E7: the defence against an attack kind (the text's table of defending skills), ``defense``
        for every kind not listed."""
        return next((value for listed, value in self.defenses if listed is kind), self.defense)

    def start(self) -> MemberState:
        return (self.stress.physical.current, self.stress.mental.current, self.consequences)


@dataclass(frozen=True, eq=False)
class Conflict:
    """The body as the rules see it. ``order``: member indices in order of action, or None for
    ``initiative`` (E6: every order, weighted by the exact initiative odds). ``ends``: E8."""

    side_names: tuple[str, str]
    members: tuple[Member, ...]
    order: Order | None = None
    targeting: str = FOCUS
    concede_at: tuple[int | None, int | None] = (None, None)
    defend: bool = True
    dice: int = rules.DICE
    ends: str = SIDE_OUT
    _memo: dict[Any, Any] = field(default_factory=dict, repr=False)  # per-conflict caches, keyed by kind

    def start(self) -> State:
        return tuple(member.start() for member in self.members)

    @functools.cached_property
    def per_attack(self) -> int:
        """Equally likely outcomes of one attack: 3^dice per roll, two rolls unless nobody defends."""
        return 3 ** (self.dice * (2 if self.defend else 1))

    @functools.cached_property
    def side_members(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        first, second = (tuple(i for i, member in enumerate(self.members) if member.side == side) for side in (0, 1))
        return first, second

    def opponents(self, side: int) -> tuple[int, ...]:
        return self.side_members[1 - side]

    def lost(self, state: State, side: int) -> bool:
        """Every member out ("scheidet aus"; E8 ``first_out``: any member out, "bis einer der
        Konkurrenten ... ausscheidet"), or E3: a member holds the side's concede_at consequences
        ("eine Partei nachgiebt")."""
        members = self.side_members[side]
        out = (any if self.ends == FIRST_OUT else all)
        if out(state[index][2] >= rules.CONSEQUENCES_TO_TAKE_OUT for index in members):
            return True
        threshold = self.concede_at[side]
        return threshold is not None and any(state[index][2] >= threshold for index in members)

    def outcome(self, state: State) -> str | None:
        known = self._memo.setdefault("outcome", {})
        if state not in known:
            known[state] = (f"wins:{self.side_names[1]}" if self.lost(state, 0) else
                            f"wins:{self.side_names[0]}" if self.lost(state, 1) else None)
        return known[state]

    # -- targeting, E5 --------------------------------------------------------------------------

    def slots(self, order: Order) -> tuple[tuple[int, int], ...]:
        """Per turn of a round: the attacker and its rank among its side's members in the order."""
        seen = [0, 0]
        slots = []
        for index in order:
            side = self.members[index].side
            slots.append((index, seen[side]))
            seen[side] += 1
        return tuple(slots)

    def target(self, attacker: int, rank: int, state: State) -> int:
        """``focus``: the standing opponent with the most consequences, then the least stress left on
        the attack's track, then the first in the body; ``spread``: a side's members, in their order
        of action, take its standing opponents in body order in turn (wrapping around). Asked only
        while the conflict runs, so some opponent stands."""
        standing = [index for index in self.opponents(self.members[attacker].side)
                    if state[index][2] < rules.CONSEQUENCES_TO_TAKE_OUT]
        if self.targeting == SPREAD:
            return standing[rank % len(standing)]
        track = 0 if self.members[attacker].track is rules.Track.PHYSICAL else 1
        return min(standing, key=lambda index: (-state[index][2], state[index][track], index))

    # -- one attack, E2 -------------------------------------------------------------------------

    def margins(self, attacker: int, defender: int) -> dict[int, int]:
        """Ways (of ``per_attack``) of each margin of attack total over defence total (or over the
        fixed difficulty when nobody defends): the odds of ``malmsturm.attack``."""
        key = ("margins", attacker, defender)
        if key not in self._memo:
            a, d = self.members[attacker], self.members[defender]
            base = a.skill + a.modifier
            if self.defend:
                base -= d.defense_against(a.attack) + d.modifier
                rolls = malm_odds.fudge_ways(2 * self.dice)
            else:
                base -= UNDEFENDED_DIFFICULTY
                rolls = malm_odds.fudge_ways(self.dice)
            self._memo[key] = {base + value: ways for value, ways in rolls.items()}
        return self._memo[key]

    def shifts(self, attacker: int, defender: int) -> tuple[tuple[int, int], ...]:
        """Ways of each number of shifts the attack scores (a margin below 1 scores none)."""
        key = ("shifts", attacker, defender)
        if key not in self._memo:
            ways_of: dict[int, int] = {}
            for margin, ways in self.margins(attacker, defender).items():
                ways_of[max(margin, 0)] = ways_of.get(max(margin, 0), 0) + ways
            self._memo[key] = tuple(sorted(ways_of.items()))
        return self._memo[key]

    def hits(self, attacker: int, defender: int, before: MemberState) -> tuple[tuple[MemberState, int], ...]:
        """The defender's state after the attack, with its ways: ``rules.damage`` of each number of
        shifts (ruling 5). Attackers alike (the same track and shifts) share it."""
        track, shifts = self.members[attacker].track, self.shifts(attacker, defender)
        key = ("hits", track, shifts, defender, before)
        if key not in self._memo:
            member = self.members[defender]
            stress = rules.Stress(rules.StressTrack(before[0], member.stress.physical.max),
                                  rules.StressTrack(before[1], member.stress.mental.max))
            target = rules.Defender(member.defense, stress, before[2], member.modifier, member.name)
            after: dict[MemberState, int] = {}
            for scored, ways in shifts:
                state = after_attack(target, track, scored)
                after[state] = after.get(state, 0) + ways
            self._memo[key] = tuple(after.items())
        return self._memo[key]

    def turn_moves(self, attacker: int, rank: int, state: State) -> TurnMoves:
        """The standing ``attacker``'s turn: its target, the ways it misses (the target stays as it
        is) and the target's other states with their ways. It depends on the opponents' states only,
        which many states share (cached: the exploration asks for every state and turn)."""
        opponents = self.opponents(self.members[attacker].side)
        key = ("turn", attacker, rank, tuple(state[index] for index in opponents))
        if key not in self._memo:
            target = self.target(attacker, rank, state)
            before = state[target]
            hits = self.hits(attacker, target, before)
            self._memo[key] = (target, sum(ways for after, ways in hits if after == before),
                               tuple((after, ways) for after, ways in hits if after != before))
        return self._memo[key]

    def can_change(self, state: State, order: Order) -> bool:
        """E4: whether any attack of the round can hit at all (else nothing can ever change); asked
        while the conflict runs."""
        for attacker, rank in self.slots(order):
            if state[attacker][2] >= rules.CONSEQUENCES_TO_TAKE_OUT:
                continue
            target = self.target(attacker, rank, state)
            if any(after != state[target] for after, _ in self.hits(attacker, target, state[target])):
                return True
        return False


def after_attack(defender: rules.Defender, track: rules.Track, shifts: int) -> MemberState:
    """The defender's state after ``shifts`` on ``track``: ``rules.damage`` (no consequence taken early)."""
    hit = rules.damage(defender, track, shifts, take_consequence_early=False)
    if hit.taken_out:
        return OUT
    return (hit.stress_after.physical.current, hit.stress_after.mental.current, hit.consequences_after)


def round_step(conflict: Conflict, order: Order, state: State, exact: bool) -> list[tuple[State, Probability]]:
    """One round from ``state``: every standing member attacks once, in order; the conflict can end
    mid-round ("A member taken out acts no more", E3, E5). Counted in integer ways, then divided once."""
    per_attack = conflict.per_attack
    partial: dict[State, int] = {state: 1}
    for attacker, rank in conflict.slots(order):
        following: dict[State, int] = {}
        for current, ways in partial.items():
            if current[attacker][2] >= rules.CONSEQUENCES_TO_TAKE_OUT or conflict.outcome(current) is not None:
                following[current] = following.get(current, 0) + ways * per_attack
                continue
            target = conflict.target(attacker, rank, current)
            for after, hit_ways in conflict.hits(attacker, target, current[target]):
                reached = current if after == current[target] else current[:target] + (after,) + current[target + 1:]
                following[reached] = following.get(reached, 0) + ways * hit_ways
        partial = following
    denominator = per_attack ** len(order)
    if exact:
        return [(reached, Fraction(ways, denominator)) for reached, ways in partial.items()]
    return [(reached, ways / denominator) for reached, ways in partial.items()]


def attacker_kind(member: Member) -> tuple[int, str, int]:
    """What a turn depends on of its attacker under E8 ``first_out``: its side, attack kind and
    attack (skill + modifier); see ``solver.alike_orders``."""
    return member.side, member.attack.value, member.skill + member.modifier
