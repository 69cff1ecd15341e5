"""A Malmsturm conflict rolled out turn by turn, the rolling twin of its odds (the conflict:
service/systems/malmsturm/encounter.py): initiative, then ``rules.attack`` per turn. Pure: no Flask,
no JSON."""

from __future__ import annotations

from dataclasses import dataclass

from service.platform.dice.randomness import RandomSource
from service.platform.maths import chains
from service.systems.malmsturm import rules
from service.systems.malmsturm.encounter import (
    FIRST_OUT,
    OUT,
    ROLLING_ROUND_CAP,
    SIDE_OUT,
    UNDEFENDED_DIFFICULTY,
    Conflict,
    MemberState,
    State,
)

# --- the rolling twin -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Turn:
    round: int
    attack: rules.AttackResult  # exactly what malmsturm.attack reports


@dataclass(frozen=True)
class MemberEnd:
    name: str
    side: str
    stress: rules.Stress
    consequences: int
    consequences_taken: int  # in this conflict
    taken_out: bool


@dataclass(frozen=True)
class EndState:
    members: list[MemberEnd]
    conceded: str | None  # the side that conceded (E3)


@dataclass(frozen=True)
class EncounterResult:
    outcome: str
    winner: str | None
    rounds: int
    initiative: rules.InitiativeResult | None  # as malmsturm.initiative reports it, with order: initiative
    order: list[str]
    steps: list[Turn]
    end: EndState
    ends: str = SIDE_OUT  # E8: side_out or first_out, as the body said


def play(conflict: Conflict, source: RandomSource, lang: str, *, max_rounds: int | None = None) -> EncounterResult:
    """One conflict rolled turn by turn with ``rules.initiative`` and ``rules.attack``."""
    initiative = None
    order = conflict.order
    if order is None:
        participants = [rules.Participant(member.name, member.intuition) for member in conflict.members]
        initiative = rules.initiative(participants, source, lang=lang, dice=conflict.dice)
        names = [member.name for member in conflict.members]
        order = tuple(names.index(entry.name) for entry in initiative.order)
    state = list(conflict.start())
    steps: list[Turn] = []
    rounds, cap = 0, ROLLING_ROUND_CAP if max_rounds is None else max_rounds
    while conflict.outcome(tuple(state)) is None and rounds < cap and conflict.can_change(tuple(state), order):
        rounds += 1
        for attacker, rank in conflict.slots(order):
            if state[attacker][2] >= rules.CONSEQUENCES_TO_TAKE_OUT or conflict.outcome(tuple(state)) is not None:
                continue
            target = conflict.target(attacker, rank, tuple(state))
            result = _attack(conflict, attacker, target, state[target], source, lang)
            state[target] = OUT if result.taken_out else (
                result.stress_after.physical.current, result.stress_after.mental.current, result.consequences_after)
            steps.append(Turn(rounds, result))
    final = tuple(state)
    name = conflict.outcome(final) or (chains.UNDECIDED if conflict.can_change(final, order) else chains.STALEMATE)
    return EncounterResult(name, name.removeprefix("wins:") if name.startswith("wins:") else None, rounds,
                           initiative, [conflict.members[index].name for index in order], steps,
                           _end(conflict, final), conflict.ends)


def _attack(conflict: Conflict, attacker: int, defender: int, before: MemberState, source: RandomSource,
            lang: str) -> rules.AttackResult:
    a, d = conflict.members[attacker], conflict.members[defender]
    stress = rules.Stress(rules.StressTrack(before[0], d.stress.physical.max),
                          rules.StressTrack(before[1], d.stress.mental.max))
    return rules.attack(rules.Attacker(a.skill, a.attack, a.modifier, a.name),
                        rules.Defender(d.defense_against(a.attack) if conflict.defend else None, stress, before[2],
                                       d.modifier, d.name),
                        source, take_consequence_early=False, lang=lang, dice=conflict.dice,
                        defend=conflict.defend, difficulty=UNDEFENDED_DIFFICULTY)


def _end(conflict: Conflict, state: State) -> EndState:
    members = []
    for member, (physical, mental, consequences) in zip(conflict.members, state, strict=True):
        out = consequences >= rules.CONSEQUENCES_TO_TAKE_OUT
        stress = rules.Stress(rules.StressTrack(physical, member.stress.physical.max),
                              rules.StressTrack(mental, member.stress.mental.max))
        members.append(MemberEnd(member.name, conflict.side_names[member.side], stress, consequences,
                                 consequences - member.consequences, out))
    conceded = None
    for side in (0, 1):
        threshold = conflict.concede_at[side]
        outs = [state[i][2] >= rules.CONSEQUENCES_TO_TAKE_OUT for i in conflict.side_members[side]]
        out = any(outs) if conflict.ends == FIRST_OUT else all(outs)
        if conflict.lost(state, side) and threshold is not None and not out:
            conceded = conflict.side_names[side]
    return EndState(members, conceded)
