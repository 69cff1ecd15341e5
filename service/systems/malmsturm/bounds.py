"""The states a Malmsturm conflict's solve can reach, bounded from the body before solving (API.md
§1.7 limits; the conflict: service/systems/malmsturm/encounter.py). Pure: no Flask, no JSON."""

from __future__ import annotations

import math
from collections import deque

from service.systems.malmsturm import rules
from service.systems.malmsturm.encounter import (
    FIRST_OUT,
    FOCUS,
    OUT,
    Conflict,
    Member,
    MemberState,
    State,
    attacker_kind,
)

# --- the bound, before solving ----------------------------------------------------------------------


def tracks_against(conflict: Conflict, side: int) -> tuple[int, ...]:
    """The stress tracks (0 physical, 1 mental) the other side's attacks can hit."""
    kinds = {0 if m.track is rules.Track.PHYSICAL else 1 for m in conflict.members if m.side != side}
    return tuple(sorted(kinds))


def stress_left(stress: int) -> int:
    """Values a track's stress left can take before the next consequence: current..1, or just 0 when
    it starts empty (a hit on an empty or emptied track takes a consequence and refills it)."""
    return max(stress, 1)


def _member_bound(member: Member, tracks: tuple[int, ...]) -> int:
    """States of one member: taken out, or any stress on the tracks attacked at each consequence level
    left (at its starting level at most its current stress, after that at most the max)."""
    maxima = (member.stress.physical.max, member.stress.mental.max)
    now, full = 1, 1
    for track in tracks:
        now *= stress_left(member.start()[track])
        full *= maxima[track]
    return 1 + now + (rules.CONSEQUENCES_TO_TAKE_OUT - 1 - member.consequences) * full


FOCUS_COUNT_CAP = 150  # side states counted one by one at most (a refusal stays a few milliseconds)


def _spread_side_bound(conflict: Conflict, side: int) -> int:
    bound = 1
    tracks = tracks_against(conflict, side)
    for index in conflict.side_members[side]:
        bound *= _member_bound(conflict.members[index], tracks)
    return bound


def _focus_side_bound(conflict: Conflict, side: int) -> int:
    """Side states under focus (E5). When every attacked track ranks the side's members alike (one
    track; or both, e.g. members that start alike), every attacker takes the same target, which
    stays the target until it is out (a hit only lowers its key on every track), and the untouched
    members keep their order: so the members fall in a fixed order, one of them hurt at a time.
    Otherwise the side's states are counted one by one (up to FOCUS_COUNT_CAP, else every combination)."""
    tracks = tracks_against(conflict, side)
    members = conflict.side_members[side]
    rankings = {tuple(sorted(members, key=lambda index: _focus_key(conflict.members[index].start(), track, index)))
                for track in tracks}
    if len(rankings) <= 1:
        if conflict.ends == FIRST_OUT:  # E8: the conflict ends when its first target is out
            return _member_bound(conflict.members[next(iter(rankings))[0]], tracks)
        return 1 + sum(_member_bound(conflict.members[index], tracks) - 1 for index in members)
    counted = _focus_count(conflict, side, FOCUS_COUNT_CAP)
    return counted if counted <= FOCUS_COUNT_CAP else _spread_side_bound(conflict, side)


def _focus_key(member: MemberState, track: int, index: int) -> tuple[int, int, int]:
    """E5 ``focus``: the most consequences, then the least stress left on the track, then body order."""
    return -member[2], member[track], index


def _focus_count(conflict: Conflict, side: int, cap: int) -> int:
    """Side states reachable when the other side focuses, counted on the side alone: from each
    state, a hit of any size on the focused member of each attacked track. Stops above ``cap``."""
    members = conflict.side_members[side]
    tracks = tracks_against(conflict, side)
    maxima = [(conflict.members[i].stress.physical.max, conflict.members[i].stress.mental.max) for i in members]
    start: State = tuple(conflict.members[i].start() for i in members)
    threshold = conflict.concede_at[side]
    seen, queue = {start}, deque([start])
    while queue and len(seen) <= cap:
        current = queue.popleft()
        standing = [k for k, member in enumerate(current) if member[2] < rules.CONSEQUENCES_TO_TAKE_OUT]
        if not standing or (threshold is not None and any(m[2] >= threshold for m in current)):
            continue
        if conflict.ends == FIRST_OUT and len(standing) < len(current):
            continue  # E8: the first member out ends the conflict
        for track in tracks:
            k = min(standing, key=lambda k: _focus_key(current[k], track, k))
            for shifts in range(1, stress_left(current[k][track]) + 1):
                reached = current[:k] + (hit_on_track(current[k], track, shifts, maxima[k][track]),) + current[k + 1:]
                if reached not in seen:
                    seen.add(reached)
                    queue.append(reached)
    return len(seen)


def hit_on_track(member: MemberState, track: int, shifts: int, track_max: int) -> MemberState:
    """``shifts`` on ``track``: stress lost, or a consequence that refills the track, or out."""
    physical, mental, consequences = member
    if shifts < member[track]:
        return (physical - shifts, mental, consequences) if track == 0 else (physical, mental - shifts, consequences)
    if consequences + 1 >= rules.CONSEQUENCES_TO_TAKE_OUT:
        return OUT
    return (track_max, mental, consequences + 1) if track == 0 else (physical, track_max, consequences + 1)


def turns_per_round(conflict: Conflict) -> int:
    return len(conflict.order) if conflict.order is not None else len(conflict.members)


def state_bound(conflict: Conflict, *, orders_together: bool = False) -> int:
    """States the solve can reach, bounded before solving: from the member states of each side
    (``spread``: every combination; ``focus``: as ``_focus_side_bound``), every pair of side states
    once, and the pairs where both sides still stand once per turn of a round (the solve runs turn
    by turn, see below; a side's bound holds at least one lost state: all out, or conceded); under
    ``initiative`` once per order of action (E6: a solve per order, at most n! of n members).
    ``orders_together``: the orders' chains walked side by side (service/systems/malmsturm/every_order.py),
    a state visited once for all its turns, so every pair of side states once per order."""
    side_bound = _focus_side_bound if conflict.targeting == FOCUS else _spread_side_bound
    first, second = side_bound(conflict, 0), side_bound(conflict, 1)
    if orders_together:
        return first * second * _solved_orders(conflict)
    turn_states = first * second + (first - 1) * (second - 1) * (turns_per_round(conflict) - 1)
    return turn_states * (_solved_orders(conflict) if conflict.order is None else 1)


def initiative_work(conflict: Conflict) -> int:
    """The (tie structure, order) pairs ``initiative_orders`` sums over, at most: only members of one
    intuition can tie, and a group of g such members has at most g! × 2^(g-1) ordered partitions
    with their orders; n! × Π 2^(g-1) in all (0 for a given order, and for 1 v 1, which rolls once)."""
    if conflict.order is not None or len(conflict.members) <= 2:
        return 0
    alike: dict[int, int] = {}
    for member in conflict.members:
        alike[member.intuition] = alike.get(member.intuition, 0) + 1
    return math.factorial(len(conflict.members)) * math.prod(2 ** (count - 1) for count in alike.values())


def _solved_orders(conflict: Conflict) -> int:
    """Orders solved under ``initiative``: every order of the members, or under E8 ``first_out``
    one per sequence of attacker kinds (``alike_orders``): n! / Π (members alike)!."""
    if conflict.ends != FIRST_OUT:
        return math.factorial(len(conflict.members))
    alike: dict[tuple[int, str, int], int] = {}
    for member in conflict.members:
        alike[attacker_kind(member)] = alike.get(attacker_kind(member), 0) + 1
    return math.factorial(len(conflict.members)) // math.prod(math.factorial(count) for count in alike.values())
