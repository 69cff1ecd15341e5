"""Malmsturm odds against icepool (exact) and against seeded sampling (fixed seeds: deterministic)."""

from __future__ import annotations

import random

import icepool
import pytest

from service.platform.dice.randomness import GeneratorSource
from service.systems.malmsturm import odds, rules
from service.systems.malmsturm.rules import Attacker, AttackType, Contender, Defender, Stress, StressTrack

DF = icepool.Die([-1, 0, 1])
FOUR_DF = 4 @ DF


def stress(physical: int, mental: int, *, physical_max: int | None = None, mental_max: int | None = None):
    return Stress(StressTrack(physical, physical_max or physical), StressTrack(mental, mental_max or mental))


def test_four_fudge_dice_match_icepool():
    """"verwendet Malmsturm FUDGE-Würfel und zwar meistens 4 davon ... ein Spektrum von -4 bis +4"."""
    ours = odds.fudge_sum(4)
    assert set(ours) == set(range(-4, 5))
    for value, p in ours.items():
        assert p == FOUR_DF.probability(value)


ACTION_CASES = [(3, 2, 0), (0, 0, 0), (2, 5, 1), (-2, 2, 0), (4, -1, -2), (1, 6, 0), (5, 3, 2), (0, 9, 0)]


@pytest.mark.parametrize("skill,difficulty,modifier", ACTION_CASES)
def test_action_odds_match_icepool(skill, difficulty, modifier):
    """Ruling 2: success when total ≥ difficulty; shifts = total − difficulty when ≥ 0."""
    total = FOUR_DF + skill + modifier
    ours = odds.action(skill, difficulty, modifier=modifier)
    assert ours.outcomes["success"] == total.probability(">=", difficulty)
    assert ours.outcomes["failure"] == total.probability("<", difficulty)
    shifts = total.map(lambda t: max(t - difficulty, 0))
    assert ours.distributions["shifts"] == {v: shifts.probability(v) for v in shifts.outcomes()}
    assert ours.expected["shifts"] == shifts.mean()
    ours.check()


CONTEST_CASES = [(2, 2, 0, 0), (3, 2, 0, 0), (1, 4, 0, 0), (2, 2, 1, -1), (0, 6, 0, 0), (5, -3, 0, 0)]


@pytest.mark.parametrize("a,b,a_mod,b_mod", CONTEST_CASES)
def test_contest_odds_match_icepool(a, b, a_mod, b_mod):
    """Ruling 3: a side wins only at least one step above the other; else a tie."""
    margin = (FOUR_DF + a + a_mod) - (FOUR_DF + b + b_mod)
    ours = odds.contest(Contender(a, a_mod), Contender(b, b_mod))
    assert ours.outcomes["a"] == margin.probability(">=", 1)
    assert ours.outcomes["b"] == margin.probability("<=", -1)
    assert ours.outcomes["tie"] == margin.probability(0)
    ours.check()


def _reference_attack(shifts: int, current: int, consequences: int, early: bool) -> str:
    """Ruling 5 written out once more, independently, for icepool to map over."""
    if consequences >= 2:
        return "taken_out"
    if shifts < 1:
        return "miss"
    if early or current - shifts <= 0:
        return "taken_out" if consequences + 1 >= 2 else "consequence"
    return "hit"


ATTACK_CASES = [
    # attacker skill, attack, defender skill, physical current, mental current, consequences, early
    (3, "harm", 2, 3, 2, 0, False),
    (3, "harm", 2, 1, 2, 0, False),
    (3, "deceive", 1, 3, 2, 1, False),
    (2, "push", 2, 2, 4, 1, False),
    (1, "intimidate", 3, 5, 1, 0, False),
    (4, "charm", 0, 2, 3, 0, True),
    (2, "persuade", 2, 1, 6, 1, True),
    (0, "harm", 0, 4, 4, 2, False),
    (6, "push", -2, 10, 1, 0, False),
]


@pytest.mark.parametrize("att,kind,dfn,physical,mental,consequences,early", ATTACK_CASES)
def test_attack_odds_match_icepool(att, kind, dfn, physical, mental, consequences, early):
    attack = AttackType(kind)
    current = physical if rules.TRACK_OF[attack] is rules.Track.PHYSICAL else mental
    shifts = ((FOUR_DF + att) - (FOUR_DF + dfn)).map(lambda m: max(m, 0))
    outcome = shifts.map(lambda s: _reference_attack(s, current, consequences, early))
    ours = odds.attack(Attacker(att, attack), Defender(dfn, stress(physical, mental, physical_max=10,
                                                                   mental_max=10), consequences),
                       take_consequence_early=early)
    for name in ("hit", "miss", "consequence", "taken_out"):
        assert ours.outcomes[name] == outcome.probability(name), name
    assert sum(ours.outcomes.values()) == 1
    assert ours.distributions["shifts"] == {v: shifts.probability(v) for v in shifts.outcomes()}


def test_attack_outcomes_are_mutually_exclusive_and_named_per_the_contract():
    ours = odds.attack(Attacker(3, AttackType.HARM), Defender(2, stress(3, 2)))
    assert list(ours.outcomes) == ["hit", "miss", "consequence", "taken_out"]
    assert sum(ours.outcomes.values()) == 1 and ours.outcomes["taken_out"] == 0


def test_odds_at_the_extremes_sum_to_one():
    assert odds.action(-10, 20, modifier=-10).outcomes["success"] == 0
    assert odds.action(20, -10, modifier=20).outcomes["failure"] == 0
    assert odds.contest(Contender(20, 20), Contender(-10, -10)).outcomes["a"] == 1
    assert sum(odds.attack(Attacker(-10, AttackType.HARM, -10),
                           Defender(20, stress(100, 100), 0, 20)).outcomes.values()) == 1


# --- seeded sampling: same seeds every run, so the test is deterministic and cannot flake ---------

def _sample(run, seed: int, trials: int) -> dict:
    counts: dict = {}
    rng = random.Random(seed)
    for _ in range(trials):
        outcome = run(GeneratorSource(random.Random(rng.getrandbits(64)), "seeded"))
        counts[outcome] = counts.get(outcome, 0) + 1
    return counts


def _attack_outcome(result: rules.AttackResult) -> str:
    if result.taken_out:
        return "taken_out"
    if result.consequence_required:
        return "consequence"
    return "hit" if result.hit else "miss"


SAMPLED = [
    ("action", lambda s: "success" if rules.action(2, 3, s).success else "failure",
     lambda: odds.action(2, 3).outcomes),
    ("contest", lambda s: rules.contest(Contender(3), Contender(2), s).winner or "tie",
     lambda: odds.contest(Contender(3), Contender(2)).outcomes),
    ("attack", lambda s: _attack_outcome(rules.attack(Attacker(3, AttackType.HARM),
                                                      Defender(2, stress(2, 2), 1), s)),
     lambda: odds.attack(Attacker(3, AttackType.HARM), Defender(2, stress(2, 2), 1)).outcomes),
    ("attack-mental", lambda s: _attack_outcome(rules.attack(Attacker(2, AttackType.PERSUADE),
                                                             Defender(2, stress(2, 3)), s)),
     lambda: odds.attack(Attacker(2, AttackType.PERSUADE), Defender(2, stress(2, 3))).outcomes),
]


@pytest.mark.parametrize("name,run,exact", SAMPLED, ids=[case[0] for case in SAMPLED])
def test_seeded_sampling_agrees_with_exact_odds(name, run, exact):
    trials = 20000
    counts = _sample(run, seed=20261129, trials=trials)
    for outcome, probability in exact().items():
        p = float(probability)
        sigma = (trials * p * (1 - p)) ** 0.5
        assert abs(counts.get(outcome, 0) - trials * p) <= 4 * sigma + 1e-9, (outcome, counts, p)
    assert sum(counts.values()) == trials


def test_initiative_roll_off_probability_by_sampling():
    """Two equal participants: each comes first half the time (roll-offs are fair)."""
    people = [rules.Participant("A", 1), rules.Participant("B", 1)]
    counts = _sample(lambda s: rules.initiative(people, s).order[0].name, seed=5, trials=20000)
    sigma = (20000 * 0.25) ** 0.5
    assert abs(counts["A"] - 10000) <= 4 * sigma
    assert counts["A"] + counts["B"] == 20000


# --- initiative -------------------------------------------------------------------------------------

def _direct_roll_off(size: int, rounds: int) -> list:
    """Ruling 4's roll-offs by plain recursion over the top group (only feasible for few rounds)."""
    if size == 1:
        return [1]
    if rounds == 0:
        return [1] + [0] * (size - 1)
    sums = odds.fudge_sum(4)
    win = [0] * size
    from itertools import product
    for faces in product(sorted(sums), repeat=size):
        p = 1
        for face in faces:
            p *= sums[face]
        top = [i for i, face in enumerate(faces) if face == max(faces)]
        for j, q in enumerate(_direct_roll_off(len(top), rounds - 1)):
            win[top[j]] += p * q
    return win


@pytest.mark.parametrize("size,rounds", [(2, 1), (2, 3), (3, 2), (4, 1)])
def test_roll_off_winner_matches_a_direct_recursion(size, rounds):
    assert list(odds.roll_off_winner(size, rounds)) == _direct_roll_off(size, rounds)


def test_initiative_odds_of_two_match_icepool():
    """Ruling 4: highest total first; equal totals: higher intuition; then roll-offs."""
    margin = (FOUR_DF + 2) - (FOUR_DF + 1)
    ours = odds.initiative([rules.Participant("Ragna", 2), rules.Participant("Ork", 1)])
    assert ours.outcomes["first:Ragna"] == margin.probability(">=", 0)
    equal = (FOUR_DF - FOUR_DF).probability(0)
    same = odds.initiative([rules.Participant("A", 1), rules.Participant("B", 1)])
    # a tie rolls off; after 20 tied roll-offs the request order stands, favouring A by equal**20
    assert same.outcomes["first:A"] - same.outcomes["first:B"] == equal * equal**20
    assert sum(same.outcomes.values()) == 1


def test_initiative_odds_by_seeded_sampling():
    people = [rules.Participant("A", 1), rules.Participant("B", 2), rules.Participant("C", 1),
              rules.Participant("D", 0), rules.Participant("E", 1)]
    trials = 20000
    counts = _sample(lambda s: "first:" + rules.initiative(people, s).order[0].name, seed=11, trials=trials)
    for outcome, probability in odds.initiative(people).outcomes.items():
        p = float(probability)
        sigma = (trials * p * (1 - p)) ** 0.5
        assert abs(counts.get(outcome, 0) - trials * p) <= 4 * sigma + 1e-9, (outcome, counts, p)


def test_initiative_odds_at_the_participant_limit_sum_to_one():
    """Its speed is a case of bench/odds_speed.py."""
    ours = odds.initiative([rules.Participant(f"P{i}", 0) for i in range(20)])
    assert sum(ours.outcomes.values()) == 1


# --- ruling 7: "meistens 4" FUDGE dice, any operation may set 1..8 ----------------------------------

@pytest.mark.parametrize("dice", [1, 2, 3, 5, 8])
def test_action_and_contest_odds_follow_the_number_of_dice(dice):
    """„verwendet Malmsturm FUDGE-Würfel und zwar meistens 4 davon“ (ruling Malmsturm 7): `dice` dF."""
    pool = dice @ DF
    ours = odds.action(2, 3, dice=dice)
    assert ours.outcomes["success"] == (pool + 2).probability(">=", 3)
    margin = (pool + 3) - (pool + 2)
    contest = odds.contest(Contender(3), Contender(2), dice=dice)
    assert contest.outcomes["a"] == margin.probability(">=", 1) and contest.outcomes["tie"] == margin.probability(0)


@pytest.mark.parametrize("dice", [1, 3, 8])
def test_attack_odds_follow_the_number_of_dice(dice):
    pool = dice @ DF
    shifts = ((pool + 3) - (pool + 2)).map(lambda m: max(m, 0))
    outcome = shifts.map(lambda s: _reference_attack(s, 3, 0, False))
    ours = odds.attack(Attacker(3, AttackType.HARM), Defender(2, stress(3, 2)), dice=dice)
    for name in ("hit", "miss", "consequence", "taken_out"):
        assert ours.outcomes[name] == outcome.probability(name), name


@pytest.mark.parametrize("dice", [1, 2, 6])
def test_initiative_odds_follow_the_number_of_dice(dice):
    """Ruling 4 with `dice` dF for the rolls and the roll-offs (ruling 7)."""
    pool = dice @ DF
    margin = (pool + 2) - (pool + 1)
    ours = odds.initiative([rules.Participant("Ragna", 2), rules.Participant("Ork", 1)], dice=dice)
    assert ours.outcomes["first:Ragna"] == margin.probability(">=", 0)
    same = odds.initiative([rules.Participant("A", 1), rules.Participant("B", 1)], dice=dice)
    equal = (pool - pool).probability(0)
    assert same.outcomes["first:A"] - same.outcomes["first:B"] == equal * equal**20


def test_initiative_sampling_with_two_dice_agrees_with_exact_odds():
    people = [rules.Participant("A", 1), rules.Participant("B", 2), rules.Participant("C", 1)]
    trials = 20000
    counts = _sample(lambda s: "first:" + rules.initiative(people, s, dice=2).order[0].name, seed=17, trials=trials)
    for outcome, probability in odds.initiative(people, dice=2).outcomes.items():
        p = float(probability)
        sigma = (trials * p * (1 - p)) ** 0.5
        assert abs(counts.get(outcome, 0) - trials * p) <= 4 * sigma + 1e-9, (outcome, counts, p)


def test_initiative_odds_with_eight_dice_at_the_participant_limit_sum_to_one():
    """Its speed is a case of bench/odds_speed.py."""
    ours = odds.initiative([rules.Participant(f"P{i}", 0) for i in range(20)], dice=8)
    assert sum(ours.outcomes.values()) == 1


# --- ruling 5: a defender who does not defend -------------------------------------------------------

@pytest.mark.parametrize("skill,difficulty,dice", [(3, 0, 4), (1, 2, 4), (2, -1, 2), (0, 0, 8)])
def test_undefended_attack_odds_match_icepool(skill, difficulty, dice):
    """„der angegriffene kann sich mit einem Fertigkeitswurf verteidigen“ – when it does not, the
    attack meets a fixed difficulty (ruling Malmsturm 5) and no defense dice are rolled."""
    shifts = ((dice @ DF) + skill - difficulty).map(lambda m: max(m, 0))
    outcome = shifts.map(lambda s: _reference_attack(s, 3, 0, False))
    ours = odds.attack(Attacker(skill, AttackType.HARM), Defender(None, stress(3, 2)), dice=dice,
                       defend=False, difficulty=difficulty)
    for name in ("hit", "miss", "consequence", "taken_out"):
        assert ours.outcomes[name] == outcome.probability(name), name
    assert ours.distributions["shifts"] == {v: shifts.probability(v) for v in shifts.outcomes()}


def test_undefended_attack_sampling_agrees_with_exact_odds():
    trials = 20000
    defender = Defender(None, stress(2, 2))
    counts = _sample(lambda s: _attack_outcome(rules.attack(Attacker(1, AttackType.HARM), defender, s,
                                                            defend=False, difficulty=1, dice=3)),
                     seed=23, trials=trials)
    exact = odds.attack(Attacker(1, AttackType.HARM), defender, defend=False, difficulty=1, dice=3).outcomes
    for outcome, probability in exact.items():
        p = float(probability)
        sigma = (trials * p * (1 - p)) ** 0.5
        assert abs(counts.get(outcome, 0) - trials * p) <= 4 * sigma + 1e-9, (outcome, counts, p)
