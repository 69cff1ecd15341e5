"""Weltenbuch encounters: one conflict scene, its roll and its narration (API.md §1.7, RULINGS.md
"Encounters"). Pure: no Flask, no JSON.

"Sobald in einer Szene klar ist, wer die einzelnen Parteien sind und was das jeweilige Ziel ist, wird
die siegreiche Partei bestimmt. Danach wird gemeinsam beschrieben, wie es genau dazu gekommen ist und
dabei auch der Schaden verteilt. Im letzten Schritt werden eventuelle Konsequenzen abgehandelt." The
encounter is the scene: one roll, then every success die of each party (the losers' too) lowers the
toughness of a member of the other party, chosen by the ``targeting`` policy; E1: toughness stops at
0, further dice go to the next target of the policy. "Beträgt die Zähigkeit eines Profils nach einem
Konflikt null, erleidet der Charakter eine Konsequenz" (an obstacle at 0 is overcome). E2: a held-back
hero point is spent at the end ("Natürlich kann der Spieler immer einen Heldenpunkt ausgeben, um die
Zähigkeit um drei Punkte zu regenerieren und dadurch eine Konsequenz vermeiden").

Since the policy fixes which member the k-th success die on a party hits, each member takes a
consequence exactly when the other party rolls at least its threshold of successes; the successes of
a party are Binomial(its dice, 1/2) whatever the die ("zeigt er eine gerade Zahl, dann ist dieser
Würfel ein Erfolg"). So the scene of two parties needs no chain: two binomials and the thresholds.

E3 (2..8 parties): a party's success dice hit the members of every other party, picked by the
policy among all of them (body order across the parties); a member at 0 is skipped (E1), so the
parties' dice meet on the same members and the order they are spent in counts: turn by turn in the
narration order, each member spending all its dice at once. The odds then count every member's
successes (Binomial(its dice, 1/2) each): Π over the members of (dice + 1) cases, each one ledger.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from itertools import accumulate, product
from math import comb, prod

from service.platform.dice.randomness import RandomSource
from service.platform.maths.odds import Odds, Solver
from service.platform.maths.time_slicing import cooperate
from service.platform.values.results import described
from service.systems.weltenbuch import odds as conflict_odds
from service.systems.weltenbuch import rules
from service.systems.weltenbuch.rules import HeroPoints, Party, Role, Spend, Toughness

WEAKEST, STRONGEST, SPREAD = "weakest", "strongest", "spread"
TARGETINGS = (WEAKEST, STRONGEST, SPREAD)
TIE = "tie"
UNDECIDED = "undecided"


@dataclass(frozen=True)
class Scene:
    parties: tuple[Party, ...]  # E3: 2..8
    toughness: Mapping[str, Toughness]
    targeting: str = WEAKEST
    hold_hero_points: Mapping[str, int] = field(default_factory=dict)
    die: int = rules.DEFAULT_DIE


def state_bound(scene: Scene) -> int:
    """Two parties: the successes each party can roll, (dice + 1) per party. More (E3): every
    member's successes, Π over the members of (dice + 1)."""
    if len(scene.parties) == 2:
        return sum(party.dice + 1 for party in scene.parties)
    return prod(member.dice + 1 for party in scene.parties for member in party.members)


def others(scene: Scene, index: int) -> list[rules.Member]:
    """The members party ``index``'s success dice can hit (E3: of every other party, in body order)."""
    return [member for other, party in enumerate(scene.parties) if other != index for member in party.members]


def targets(members: Sequence[rules.Member], toughness: Mapping[str, Toughness], targeting: str) -> list[str]:
    """The member hit by the 1st, 2nd, ... success die spent on this party. ``weakest``: the lowest
    current + equipment toughness first (ties: body order), until it is at 0; ``strongest``: the
    highest first; ``spread``: one die each in body order, in turn; E1: a member at 0 is skipped.
    Dice beyond the list have no one left to hit."""
    left = {member.name: toughness[member.name].current + toughness[member.name].equipment for member in members}
    order = [member.name for member in members]
    if targeting == SPREAD:
        sequence = []
        while any(left.values()):
            for name in order:
                if left[name]:
                    sequence.append(name)
                    left[name] -= 1
        return sequence
    ranked = sorted(order, key=lambda name: left[name], reverse=targeting == STRONGEST)  # stable: body order
    return [name for name in ranked for _ in range(left[name])]


@dataclass(frozen=True)
class Threshold:
    """The successes of the other party at which ``member`` ends the scene at toughness 0."""
    member: str
    party: str
    at: int | None  # None: never
    saved: bool  # a held hero point lifts it from 0 at the end (E2)


def thresholds(scene: Scene, index: int) -> list[Threshold]:
    party, held = scene.parties[index], scene.hold_hero_points
    state = {member.name: scene.toughness[member.name] for member in party.members}
    reached = {name: 0 for name, value in state.items() if value.current == 0}
    for hits, name in enumerate(targets(party.members, scene.toughness, scene.targeting), start=1):
        cooperate()
        state[name], _ = state[name].hit()
        if state[name].current == 0:
            reached.setdefault(name, hits)
    found = []
    for member in party.members:
        if member.role is Role.OBSTACLE:
            continue  # overcome at 0, no consequence
        saved = held.get(member.name, 0) > 0 and Toughness(0, scene.toughness[member.name].max).healed(1).current > 0
        found.append(Threshold(member.name, party.name, reached.get(member.name), saved))
    return found


@lru_cache(maxsize=64)
def _ways(dice: int) -> tuple[int, ...]:
    """Ways to roll k successes with ``dice`` dice, k = 0..dice, out of 2^dice (one row of Pascal's
    triangle, each entry from the one before)."""
    row = [1]
    for k in range(dice):
        cooperate()
        row.append(row[-1] * (dice - k) // (k + 1))
    return tuple(row)


@lru_cache(maxsize=64)
def _at_least(dice: int) -> tuple[int, ...]:
    """Ways (out of 2^dice) to roll at least k successes, k = 0..dice + 1."""
    return (*accumulate(reversed(_ways(dice))),)[::-1] + (0,)


def _chances(dice: int) -> list[float]:
    """P(k successes), k = 0..dice, in float64: one correctly rounded division each."""
    chances = []
    for ways in _ways(dice):
        cooperate()  # a division of integers of hundreds of digits each
        chances.append(ways / 2**dice)
    return chances


def _float_outcomes(scene: Scene) -> dict[str, float]:
    """wins and tie of two binomials in float64: sums of non-negative products, no cancellation."""
    (first, dice_a), (second, dice_b) = ((party.name, party.dice) for party in scene.parties)
    p_a, p_b = _chances(dice_a), _chances(dice_b)
    below_b = [0.0, *accumulate(p_b)]  # below_b[k] = P(B < k)
    below_a = [0.0, *accumulate(p_a)]
    cooperate()  # each sum is a pass over every die of a party
    wins_a = sum(p * below_b[min(k, len(p_b))] for k, p in enumerate(p_a))
    cooperate()
    wins_b = sum(p * below_a[min(k, len(p_a))] for k, p in enumerate(p_b))
    cooperate()
    tie = sum(p * p_b[k] for k, p in enumerate(p_a) if k < len(p_b))
    return {f"wins:{first}": wins_a, f"wins:{second}": wins_b, TIE: tie}


def odds(scene: Scene, *, exact: bool = True, max_rounds: int | None = None, curve_rounds: int = 0) -> Odds:
    """Outcomes ``wins:<party>`` and ``tie`` (the conflict's); distributions ``consequences:<party>``
    (``weltenbuch.conflict.odds`` has the successes); expected ``consequence:<member>`` (its chance
    to take one) and, for a held hero point, ``hero_point:<member>`` (the chance it is needed: what
    holding it is worth)."""
    def number(ways: int, dice: int) -> Fraction | float:
        return Fraction(ways, 2**dice) if exact else ways / 2**dice  # int / int rounds correctly

    zero = number(0, 0)
    if len(scene.parties) > 2:
        return _many_odds(scene, exact=exact, max_rounds=max_rounds, curve_rounds=curve_rounds)
    outcomes: dict[str, Fraction | float] = (dict(conflict_odds.conflict(list(scene.parties)).outcomes) if exact
                                             else dict(_float_outcomes(scene)))
    if max_rounds is not None:
        outcomes[UNDECIDED] = zero  # the scene is one round: any cut (at least 1) comes after it
    distributions: dict = {}
    expected: dict = {}
    for index, party in enumerate(scene.parties):
        opponent = scene.parties[1 - index]
        ways, at_least = _ways(opponent.dice), _at_least(opponent.dice)
        found = thresholds(scene, index)
        count: dict[int, int] = {}
        for successes, way in enumerate(ways):
            cooperate()  # the worker's other requests get a turn (service/platform/maths/time_slicing.py)
            taken = sum(1 for t in found if not t.saved and t.at is not None and t.at <= successes)
            count[taken] = count.get(taken, 0) + way
        distributions[f"consequences:{party.name}"] = {k: number(w, opponent.dice) for k, w in count.items()}
        for t in found:
            reached = number(at_least[t.at] if t.at is not None and t.at <= opponent.dice else 0, opponent.dice)
            expected[f"consequence:{t.member}"] = zero if t.saved else reached
            if scene.hold_hero_points.get(t.member, 0):
                expected[f"hero_point:{t.member}"] = reached if t.saved else zero
    precision = "exact" if exact else "float64"
    curve = _curve(outcomes, curve_rounds, max_rounds)
    # Every float is one correctly rounded division or a sum of non-negative products of them.
    max_error = 0.0 if exact else abs(1.0 - sum(outcomes.values())) + 8 * _all_dice(scene) * 2.0**-53
    return Odds(outcomes=outcomes, distributions=distributions, expected=expected,
                solver=Solver(states=state_bound(scene), precision=precision, max_error=max_error),
                curve=curve)


def _all_dice(scene: Scene) -> int:
    return sum(party.dice for party in scene.parties) + 1


def _curve(outcomes: Mapping[str, Fraction | float], curve_rounds: int,
           max_rounds: int | None) -> tuple[dict[str, float], ...] | None:
    return tuple({"round": r, "running": 0.0, **{k: float(v) for k, v in outcomes.items()}}
                 for r in range(1, min(curve_rounds, max_rounds or curve_rounds) + 1)) or None


def _many_odds(scene: Scene, *, exact: bool, max_rounds: int | None, curve_rounds: int) -> Odds:
    """E3, three parties or more: every member's successes counted, each case one ledger (``_spent``).
    Integer ways over 2^(all dice), one division per figure at the end."""
    rolling = [member for party in scene.parties for member in party.members if member.dice > 0]
    total_dice = sum(member.dice for member in rolling)
    saved = {t.member for index in range(len(scene.parties)) for t in thresholds(scene, index) if t.saved}
    characters = [member for party in scene.parties for member in party.members if member.role is not Role.OBSTACLE]
    consequence = dict.fromkeys((member.name for member in characters), 0)
    needed = dict.fromkeys((name for name in consequence if scene.hold_hero_points.get(name, 0)), 0)
    counts: list[dict[int, int]] = [{} for _ in scene.parties]
    party_of = {member.name: index for index, party in enumerate(scene.parties) for member in party.members}
    turns = [name for turn in rules.narration_order(list(scene.parties)) for name in turn.members]
    queues = [targets(others(scene, index), scene.toughness, scene.targeting) for index in range(len(scene.parties))]
    for case in product(*(range(member.dice + 1) for member in rolling)):
        cooperate()
        ways = prod(comb(member.dice, k) for member, k in zip(rolling, case))
        successes = {member.name: k for member, k in zip(rolling, case)}
        left = _spent(scene, turns, party_of, queues, successes)
        at_zero = [member.name for member in characters if left[member.name][0] == 0]
        taken = [name for name in at_zero if name not in saved]
        for name in taken:
            consequence[name] += ways
        for name in at_zero:
            if name in needed:
                needed[name] += ways
        for index, party in enumerate(scene.parties):
            count = sum(1 for member in party.members if member.name in taken)
            counts[index][count] = counts[index].get(count, 0) + ways
    denominator = 2**total_dice

    def number(ways: int) -> Fraction | float:
        return Fraction(ways, denominator) if exact else ways / denominator

    conflict = conflict_odds.conflict(list(scene.parties)).outcomes
    outcomes: dict[str, Fraction | float] = {name: p if exact else float(p) for name, p in conflict.items()}
    if max_rounds is not None:
        outcomes[UNDECIDED] = number(0)
    distributions: dict = {f"consequences:{party.name}": {k: number(w) for k, w in sorted(counts[index].items())}
                           for index, party in enumerate(scene.parties)}
    expected: dict = {f"consequence:{name}": number(ways) for name, ways in consequence.items()}
    expected.update({f"hero_point:{name}": number(ways) for name, ways in needed.items()})
    max_error = 0.0 if exact else abs(1.0 - sum(outcomes.values())) + 8 * _all_dice(scene) * 2.0**-53
    return Odds(outcomes=outcomes, distributions=distributions, expected=expected,
                solver=Solver(states=state_bound(scene), precision="exact" if exact else "float64",
                              max_error=max_error),
                curve=_curve(outcomes, curve_rounds, max_rounds))


def _spent(scene: Scene, turns: Sequence[str], party_of: Mapping[str, int], queues: Sequence[Sequence[str]],
           successes: Mapping[str, int]) -> dict[str, tuple[int, int]]:
    """(toughness, equipment) left per member once every member has spent its ``successes`` in its
    turn, each on the next target of its party's queue that is not at 0 (E1); what ``spends`` and
    ``rules.narration`` do with the dice, counted."""
    left = {name: (value.current, value.equipment) for name, value in scene.toughness.items()}
    used = [0] * len(scene.parties)
    for name in turns:
        index = party_of[name]
        queue = queues[index]
        for _ in range(successes.get(name, 0)):
            while used[index] < len(queue) and sum(left[queue[used[index]]]) == 0:
                used[index] += 1
            if used[index] == len(queue):
                break
            target = queue[used[index]]
            used[index] += 1
            current, equipment = left[target]
            left[target] = (current, equipment - 1) if equipment else (current - 1, 0)
    return left


# --- the rolling twin ---------------------------------------------------------------------------

@dataclass(frozen=True)
class SceneEnd:
    toughness: dict[str, Toughness]
    consequences: list[str]
    hero_points_spent: list[str] = field(metadata=described("Players whose held hero point saved them."))
    overcome: list[str] = field(default_factory=list, metadata=described(
        "Obstacles whose toughness reached 0: overcome (ruling 7, E3), named in the summary."))


@dataclass(frozen=True)
class SceneRound:
    conflict: rules.ConflictResult = field(metadata=described("As `weltenbuch.conflict` reports it."))
    narration: rules.NarrationResult = field(metadata=described(
        "As `weltenbuch.narration` reports it, for the policy's spends and the held hero points spent at the end."))


@dataclass(frozen=True)
class EncounterResult:
    steps: list[SceneRound] = field(metadata=described("The scene's one round: its roll and its narration."))
    outcome: str = field(metadata=described("wins:<party> or tie."))
    end: SceneEnd


def spends(scene: Scene, conflict: rules.ConflictResult) -> list[Spend]:
    """The ledger the policy writes: turn by turn in the narration order, every member spends all its
    dice; a success hits the next target of its party's queue over the members of every other party
    (E3) that is not at 0 (E1), a failure is narration only."""
    party_of = {m.name: index for index, party in enumerate(scene.parties) for m in party.members}
    queues = [targets(others(scene, index), scene.toughness, scene.targeting) for index in range(len(scene.parties))]
    used = [0] * len(scene.parties)
    left = {name: value.current + value.equipment for name, value in scene.toughness.items()}
    rolls = {roll.name: roll for roll in conflict.members}
    ledger = []
    for turn in conflict.narration_order:
        for name in turn.members:
            index = party_of[name]
            queue = queues[index]
            for die, face in enumerate(rolls[name].dice):
                target = None
                if rules.is_success(face):
                    while used[index] < len(queue) and left[queue[used[index]]] == 0:
                        used[index] += 1
                    if used[index] < len(queue):
                        target, used[index] = queue[used[index]], used[index] + 1
                        left[target] -= 1
                ledger.append(Spend(name, die, target))
    return ledger


def play(scene: Scene, source: RandomSource) -> EncounterResult:
    """The scene played out: ``rules.conflict``, then ``rules.narration`` of the policy's ledger, with
    a held hero point spent at the end by each player it saves from a consequence (E2)."""
    conflict = rules.conflict(list(scene.parties), source, die=scene.die)
    members = [rules.RolledMember(m.name, m.party, m.role, tuple(m.dice)) for m in conflict.members]
    ledger = spends(scene, conflict)
    without = rules.narration(members, scene.toughness, ledger)
    saved = {t.member for index in range(len(scene.parties)) for t in thresholds(scene, index) if t.saved}
    hero_points = [HeroPoints(name, 1) for name in without.consequences if name in saved]
    narration = rules.narration(members, scene.toughness, ledger, hero_points)
    outcome = f"wins:{conflict.winner}" if conflict.winner is not None else TIE
    end = SceneEnd(narration.toughness_after, narration.consequences, [h.member for h in hero_points],
                   list(narration.overcome))
    return EncounterResult([SceneRound(conflict, narration)], outcome, end)
