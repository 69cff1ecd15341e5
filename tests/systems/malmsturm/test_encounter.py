"""A whole Malmsturm conflict (malmsturm.encounter, malmsturm.encounter.odds): exact against icepool's
absorbing chain, against 100,000 independently simulated conflicts, against its own rolling twin, and
its properties.

"Konflikte entstehen dann, wenn zwei oder mehr Konkurrenten über mehrere Runden im Widerstreit liegen
..., bis einer der Konkurrenten freiwillig oder unfreiwillig ausscheidet oder eine Partei nachgiebt."
"Wer zwei Konseuenzen hingenommen hat, scheidet aus dem Konflikt aus." (rules file 004; RULINGS.md
"Encounters", Malmsturm E1–E5)
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from fractions import Fraction

import icepool
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from oracles.malmsturm import icepool_duel
from service.platform.dice.randomness import make_source
from service.platform.maths import chains
from service.systems.malmsturm import bounds, encounter, play_out, rules, solver
from tests.stats import chi_square_sf

DF = icepool.Die([-1, 0, 1])


def member(name: str, side: int, *, skill: int = 3, defense: int = 2, boxes: int = 4, mental: int = 3,
           kind: str = "harm", consequences: int = 0, intuition: int = 0, modifier: int = 0) -> encounter.Member:
    stress = rules.Stress(rules.StressTrack(boxes, boxes), rules.StressTrack(mental, mental))
    return encounter.Member(name, side, skill, rules.AttackType(kind), defense, modifier, stress, consequences,
                            intuition)


def duel(a: encounter.Member, b: encounter.Member, **kwargs) -> encounter.Conflict:
    return encounter.Conflict(("Helden", "Orks"), (a, b), **kwargs)


def exact(conflict: encounter.Conflict, **kwargs):
    return solver.encounter_odds(conflict, exact=True, **kwargs)


# --- icepool's absorbing chain as the oracle ------------------------------------------------------


@pytest.mark.parametrize("a, b", [((3, 2, 3, 0), (2, 1, 2, 0)), ((2, 2, 2, 1), (3, 3, 3, 0)),
                                  ((1, 1, 4, 0), (1, 1, 3, 1))])
@pytest.mark.parametrize("first", [0, 1])
def test_a_given_order_matches_icepools_absorbing_chain(a, b, first):
    """E1 (the order given), E2 (every turn an attack), "Wer zwei Konseuenzen hingenommen hat,
    scheidet aus": the same Fractions as icepool."""
    conflict = duel(member("Alrik", 0, skill=a[0], defense=a[1], boxes=a[2], consequences=a[3]),
                    member("Ork", 1, skill=b[0], defense=b[1], boxes=b[2], consequences=b[3]),
                    order=(first, 1 - first))
    assert exact(conflict).outcomes == icepool_duel(a, b, first)


def test_initiative_mixes_both_orders_by_the_intuition_roll():
    """"Die Reihenfolge wird über einen Intuitions-Wurf ermittelt" (E1, ruling 4: equal totals go to the
    higher intuition): icepool's chance of Alrik first times his chain, plus the other order's."""
    a, b = (3, 2, 3, 0), (2, 1, 3, 0)
    alrik_first = (4 @ DF + 2 >= 4 @ DF + 1).probability(True)
    conflict = duel(member("Alrik", 0, skill=3, defense=2, boxes=3, intuition=2),
                    member("Ork", 1, skill=2, defense=1, boxes=3, intuition=1))
    expected = {name: alrik_first * p + (1 - alrik_first) * icepool_duel(a, b, 1)[name]
                for name, p in icepool_duel(a, b, 0).items()}
    result = exact(conflict)
    assert result.outcomes == expected
    assert result.solver.states <= bounds.state_bound(conflict)


CHAIN_CASES = [
    ("1 v 1, initiative", lambda: duel(member("Alrik", 0), member("Ork", 1, skill=2, intuition=1))),
    ("2 v 2 focus, both tracks", lambda: encounter.Conflict(("Helden", "Orks"), (
        member("A", 0, boxes=2), member("B", 0, skill=2, boxes=2), member("C", 1, boxes=2, kind="deceive"),
        member("D", 1, skill=2, boxes=2)), order=(0, 2, 1, 3))),
    ("2 v 2 spread", lambda: encounter.Conflict(("Helden", "Orks"), (
        member("A", 0, boxes=2), member("B", 0, skill=2, boxes=2), member("C", 1, boxes=2, kind="deceive"),
        member("D", 1, skill=2, boxes=2)), order=(0, 2, 1, 3), targeting="spread")),
    ("a side that concedes", lambda: duel(member("Alrik", 0), member("Ork", 1), order=(1, 0), concede_at=(1, None))),
    ("a stalemate", lambda: duel(member("Alrik", 0, skill=-5, defense=9), member("Ork", 1, skill=3, defense=9),
                                 order=(0, 1))),
    ("2 v 1 starting hurt, both tracks", lambda: encounter.Conflict(("Helden", "Orks"), (
        encounter.Member("A", 0, 3, rules.AttackType.HARM, 2, 0,
                         rules.Stress(rules.StressTrack(1, 3), rules.StressTrack(0, 2)), 1, 0),
        member("B", 0, skill=2, boxes=2, mental=1, kind="deceive"),
        member("C", 1, boxes=3, mental=2, consequences=1)), order=(2, 0, 1))),
]


@pytest.mark.parametrize("name, make", CHAIN_CASES, ids=[name for name, _ in CHAIN_CASES])
@pytest.mark.parametrize("rounds", [{}, {"max_rounds": 3, "curve_rounds": 5}, {"curve_rounds": 4}])
def test_turn_by_turn_is_the_round_chain(name, make, rounds):
    """The solver walks the chain turn by turn; ``chains.solve`` over whole rounds (``round_step``,
    every standing member's attack in order) must give the same Fractions, curve and rounds."""
    conflict = make()
    for order, _ in solver.orders(conflict):
        by_rounds = chains.solve(conflict.start(),
                                 lambda s, order=order: encounter.round_step(conflict, order, s, True),
                                 conflict.outcome, **rounds)
        by_turns = solver.solve_turns(conflict, order, exact=True, **rounds)
        assert (by_turns.outcomes, by_turns.ends) == (by_rounds.outcomes, by_rounds.ends)
        assert by_turns.expected_rounds == by_rounds.expected_rounds
        assert len(by_turns.curve) == len(by_rounds.curve)
        for turns_point, rounds_point in zip(by_turns.curve, by_rounds.curve):  # floats, for a chart
            assert turns_point == pytest.approx(rounds_point, abs=1e-12)


def hits_on(conflict: encounter.Conflict, index: int, before: encounter.MemberState):
    """Every state one hit of any size on either track can leave member ``index`` in (rules.damage)."""
    m = conflict.members[index]
    stress = rules.Stress(rules.StressTrack(before[0], m.stress.physical.max),
                          rules.StressTrack(before[1], m.stress.mental.max))
    defender = rules.Defender(m.defense, stress, before[2], m.modifier, m.name)
    return {encounter.after_attack(defender, track, shifts)
            for track in rules.Track for shifts in range(1, max(m.stress.physical.max, m.stress.mental.max) + 2)}


def test_state_codes_rise_with_every_hit_and_decode_back():
    """The solver numbers states as ints; every hit ("Der Verteidigende verliert so viele
    Belastungspunkte ...", or a consequence that refills the track, or out) must raise the number, and
    a code must decode to the state it was made from. Checked over every state rules.damage can reach
    from the start, member by member, and over every combination of them for a 1 v 2."""
    hurt = rules.Stress(rules.StressTrack(1, 3), rules.StressTrack(0, 2))
    conflict = encounter.Conflict(("Helden", "Orks"), (
        encounter.Member("A", 0, 3, rules.AttackType.HARM, 2, 0, hurt, 1, 0),
        member("B", 1, boxes=2, mental=1), member("C", 1, boxes=1, mental=3, consequences=1)), order=(0, 1, 2))
    codes = solver._Codes(conflict)
    reachable = []
    for index, start in enumerate(conflict.start()):
        seen, todo = {start}, [start]
        while todo:
            before = todo.pop()
            if before == encounter.OUT:
                continue
            for after in hits_on(conflict, index, before) - {before}:
                assert codes.numbers[index][after] > codes.numbers[index][before], (index, before, after)
                if after not in seen:
                    seen.add(after)
                    todo.append(after)
        assert encounter.OUT in seen
        reachable.append(sorted(seen))
    for state in itertools.product(*reachable):
        code = codes.encode(state)
        assert codes.decode(code) == state
        for index, member_state in enumerate(state):
            assert codes.is_out(code, index) == (member_state == encounter.OUT)
        assert codes.part(code, 1) * codes.split + codes.part(code, 0) == code


@pytest.mark.parametrize("rounds", [{}, {"max_rounds": 4}, {"curve_rounds": 3}])
def test_exact_answers_are_fractions(rounds):
    """The platform writes exact numbers as Fractions (API.md §1.3); the solver's own rationals
    (gmpy2) never leave it."""
    conflict = duel(member("Alrik", 0, boxes=2), member("Ork", 1, skill=2, boxes=2, intuition=1))
    result = exact(conflict, **rounds)
    numbers = [*result.outcomes.values(), *result.expected.values()]
    numbers += [p for distribution in result.distributions.values() for p in distribution.values()]
    assert numbers and all(type(p) is Fraction for p in numbers)
    for order, _ in solver.orders(conflict):
        chain = solver.solve_turns(conflict, order, exact=True, **rounds)
        assert all(type(p) is Fraction for p in [*chain.outcomes.values(), *chain.ends.values(),
                                                  chain.expected_rounds])


# --- an independent simulation --------------------------------------------------------------------

EIGHT_DF = [sum(faces) for faces in itertools.product((-1, 0, 1), repeat=8)]  # two 4dF rolls, all 3^8 ways


def simulate(rng: random.Random, heroes: list[tuple], orcs: list[tuple]) -> str:
    """One group conflict with plain random numbers, focus targeting, fixed order hero, orc, hero,
    orc ...; members (attack, defence, boxes), harm only."""
    sides = [heroes, orcs]
    stress = [[m[2] for m in heroes], [m[2] for m in orcs]]
    taken = [[0] * len(heroes), [0] * len(orcs)]
    order = [(side, index) for index in range(max(len(heroes), len(orcs))) for side in (0, 1)
             if index < len(sides[side])]
    while True:
        for side, index in order:
            if taken[side][index] >= 2:
                continue
            other = 1 - side
            standing = [j for j in range(len(sides[other])) if taken[other][j] < 2]
            target = min(standing, key=lambda j: (-taken[other][j], stress[other][j], j))
            shifts = sides[side][index][0] - sides[other][target][1] + EIGHT_DF[rng.randrange(6561)]
            if shifts >= 1:
                stress[other][target] -= shifts
                if stress[other][target] <= 0:
                    taken[other][target] += 1
                    stress[other][target] = sides[other][target][2]
                if all(t >= 2 for t in taken[other]):
                    return "wins:Helden" if side == 0 else "wins:Orks"


def test_odds_agree_with_100000_simulated_group_conflicts():
    """A realistic 2 v 2 with focus (E5): within 3σ of 100,000 conflicts."""
    heroes, orcs = [(3, 2, 3), (2, 2, 4)], [(2, 1, 3), (3, 1, 2)]
    members = (member("Alrik", 0, skill=3, defense=2, boxes=3), member("Brok", 0, skill=2, defense=2, boxes=4),
               member("Ork", 1, skill=2, defense=1, boxes=3), member("Goblin", 1, skill=3, defense=1, boxes=2))
    conflict = encounter.Conflict(("Helden", "Orks"), members, order=(0, 2, 1, 3))
    p = float(solver.encounter_odds(conflict, exact=False).outcomes["wins:Helden"])
    rng = random.Random(20261202)
    runs = 100_000
    won = sum(simulate(rng, heroes, orcs) == "wins:Helden" for _ in range(runs))
    sigma = (p * (1 - p) / runs) ** 0.5
    assert abs(won / runs - p) < 3 * sigma


def test_the_rolling_twin_agrees_with_the_odds():
    """Seeded play-outs of `malmsturm.encounter` (initiative, then `malmsturm.attack` per turn) against
    the exact odds: chi-square over the outcome × Alrik's consequences at the end."""
    conflict = duel(member("Alrik", 0, skill=3, defense=2, boxes=3, intuition=1),
                    member("Ork", 1, skill=2, defense=1, boxes=3, intuition=1))
    result = exact(conflict)
    runs = 2000
    seen = Counter()
    for seed in range(runs):
        played = play_out.play(conflict, make_source(seed, None), "en")
        seen[(played.outcome, played.end.members[0].consequences)] += 1
    expected = Counter()
    for order, chance in solver.orders(conflict):
        solved = chains.solve(conflict.start(), lambda s, order=order: encounter.round_step(conflict, order, s, True),
                              conflict.outcome)
        for end, p in solved.ends.items():
            expected[(conflict.outcome(end), end[0][2])] += chance * p
    cells = [key for key in expected if expected[key] * runs >= 5]
    statistic = sum((seen[key] - runs * float(expected[key])) ** 2 / (runs * float(expected[key])) for key in cells)
    assert chi_square_sf(statistic, len(cells) - 1) > 1e-4
    assert sum(float(p) for p in result.outcomes.values()) == pytest.approx(1)


def test_each_step_is_the_attack_as_reported():
    """E2: every turn is one `malmsturm.attack`; a member taken out acts no more; the end is the
    stress and consequences after the last attack."""
    members = (member("Alrik", 0), member("Brok", 0, skill=2), member("Ork", 1, skill=3), member("Goblin", 1))
    conflict = encounter.Conflict(("Helden", "Orks"), members, order=(0, 2, 1, 3), targeting="spread")
    for seed in range(30):
        played = play_out.play(conflict, make_source(seed, None), "en")
        out: set[str] = set()
        for turn in played.steps:
            assert isinstance(turn.attack, rules.AttackResult)
            assert turn.attack.attacker.name not in out and turn.attack.defender.name not in out
            if turn.attack.taken_out:
                out.add(turn.attack.defender.name)
        assert {m.name for m in played.end.members if m.taken_out} == out
        assert played.outcome in ("wins:Helden", "wins:Orks")


# --- rulings ----------------------------------------------------------------------------------------

def test_a_side_concedes_at_its_threshold():
    """E3: "eine Partei nachgiebt": conceding at one consequence is losing as a member with one already
    would at the next."""
    fresh = member("Ork", 1, skill=2, defense=1, boxes=3)
    conceding = exact(duel(member("Alrik", 0), fresh, order=(0, 1), concede_at=(None, 1)))
    hurt = exact(duel(member("Alrik", 0), member("Ork", 1, skill=2, defense=1, boxes=3, consequences=1), order=(0, 1)))
    assert conceding.outcomes == hurt.outcomes
    assert conceding.distributions["consequences:Ork"][1] == conceding.outcomes["wins:Helden"]


def test_no_attack_can_hit_is_a_stalemate():
    """E4: no attack can ever hit → `stalemate`; the rolling twin says so too."""
    conflict = duel(member("Alrik", 0, skill=-5, defense=10), member("Ork", 1, skill=-5, defense=10))
    assert exact(conflict).outcomes == {chains.STALEMATE: 1}
    played = play_out.play(conflict, make_source(1, None), "de")
    assert played.outcome == chains.STALEMATE and played.steps == []


def test_focus_attacks_the_most_hurt_then_the_least_stress():
    """E5: focus = most consequences, then least stress left on the attack's track, then body order."""
    members = (member("Alrik", 0), member("Ork", 1, boxes=4), member("Goblin", 1, boxes=2),
               member("Troll", 1, consequences=1))
    conflict = encounter.Conflict(("Helden", "Orks"), members, order=(0, 1, 2, 3))
    start = conflict.start()
    assert conflict.target(0, 0, start) == 3  # Troll: one consequence already
    without_troll = start[:3] + (encounter.OUT,)
    assert conflict.target(0, 0, without_troll) == 2  # Goblin: 2 boxes left
    spread = encounter.Conflict(("Helden", "Orks"), members, order=(0, 1, 2, 3), targeting="spread")
    assert [spread.target(1, rank, start) for rank in range(3)] == [0, 0, 0]  # the one opponent
    assert spread.target(0, 0, start) == 1 and spread.target(0, 1, start) == 2 and spread.target(0, 3, start) == 1


def test_undefended_attacks_meet_difficulty_zero():
    """Ruling 5 with `defend: false`: every attack meets 0 (mäßig) instead of a defence roll."""
    a, b = member("Alrik", 0, skill=1, defense=9), member("Ork", 1, skill=1, defense=9)
    defended = exact(duel(a, b, order=(0, 1)))
    undefended = exact(duel(a, b, order=(0, 1), defend=False))
    assert defended.outcomes == {chains.STALEMATE: 1}
    assert undefended.outcomes["wins:Helden"] > undefended.outcomes["wins:Orks"] > 0


# --- properties -------------------------------------------------------------------------------------

SKILL = st.integers(min_value=0, max_value=4)
BOXES = st.integers(min_value=1, max_value=3)


@settings(max_examples=25)  # each example solves exactly; the cases repeat little
@given(SKILL, SKILL, BOXES, BOXES, st.integers(1, 2))
def test_a_stronger_side_never_has_a_lower_chance(skill_a, skill_b, boxes_a, boxes_b, more):
    base = exact(duel(member("A", 0, skill=skill_a, boxes=boxes_a), member("B", 1, skill=skill_b, boxes=boxes_b),
                      order=(0, 1))).outcomes
    stronger = exact(duel(member("A", 0, skill=skill_a + more, boxes=boxes_a),
                          member("B", 1, skill=skill_b, boxes=boxes_b), order=(0, 1))).outcomes
    tougher = exact(duel(member("A", 0, skill=skill_a, boxes=boxes_a + more),
                         member("B", 1, skill=skill_b, boxes=boxes_b), order=(0, 1))).outcomes
    assert stronger.get("wins:Helden", 0) >= base.get("wins:Helden", 0)
    assert tougher.get("wins:Helden", 0) >= base.get("wins:Helden", 0)


@settings(max_examples=25)  # each example solves exactly; the cases repeat little
@given(SKILL, st.integers(0, 3), BOXES, st.sampled_from(["harm", "persuade"]))
def test_a_symmetric_duel_is_symmetric(skill, defense, boxes, kind):
    """Two equal members: whoever acts first, the mirror order gives the mirror odds; under `initiative`
    (equal intuition: roll-offs, ruling 4, the request order standing after 20 of them) an even fight
    but for that last 1e-17."""
    a = member("A", 0, skill=skill, defense=defense, boxes=boxes, mental=boxes, kind=kind)
    b = member("B", 1, skill=skill, defense=defense, boxes=boxes, mental=boxes, kind=kind)
    first_a, first_b = exact(duel(a, b, order=(0, 1))).outcomes, exact(duel(a, b, order=(1, 0))).outcomes
    assert first_a["wins:Helden"] == first_b["wins:Orks"] and first_a["wins:Orks"] == first_b["wins:Helden"]
    rolled = exact(duel(a, b)).outcomes
    assert abs(rolled["wins:Helden"] - Fraction(1, 2)) < Fraction(1, 10**15)


@settings(max_examples=25)  # each example solves exactly; the cases repeat little
@given(SKILL, SKILL, BOXES, st.integers(1, 10))
def test_max_rounds_leaves_the_curves_running_mass_undecided(skill_a, skill_b, boxes, rounds):
    conflict = duel(member("A", 0, skill=skill_a, boxes=boxes, intuition=1), member("B", 1, skill=skill_b))
    curve = exact(conflict, curve_rounds=rounds).curve
    cut = exact(conflict, max_rounds=rounds)
    assert sum(cut.outcomes.values()) == 1
    assert float(cut.outcomes.get(chains.UNDECIDED, 0)) == pytest.approx(curve[rounds - 1]["running"], abs=1e-12)


@settings(max_examples=12)  # each example solves exactly; the cases repeat little
@given(st.sampled_from(["focus", "spread"]), BOXES, BOXES, st.sampled_from(["harm", "deceive"]))
def test_the_bound_holds_and_float64_agrees(targeting, boxes_a, boxes_b, kind):
    members = (member("A", 0, boxes=boxes_a, mental=2), member("B", 0, skill=2, boxes=boxes_b, kind=kind),
               member("C", 1, boxes=boxes_b, mental=1), member("D", 1, skill=2, boxes=2, kind=kind))
    conflict = encounter.Conflict(("Helden", "Orks"), members, order=(0, 2, 1, 3), targeting=targeting)
    exact_odds = exact(conflict)
    floating = solver.encounter_odds(conflict, exact=False)
    assert exact_odds.solver.states <= bounds.state_bound(conflict)
    assert sum(exact_odds.outcomes.values()) == 1
    assert abs(sum(floating.outcomes.values()) - 1) <= floating.solver.max_error <= 1e-9
    for name, p in exact_odds.outcomes.items():
        assert floating.outcomes[name] == pytest.approx(float(p), abs=floating.solver.max_error)


@settings(max_examples=30)
@given(st.lists(st.tuples(st.integers(1, 4), st.integers(0, 1)), min_size=1, max_size=4), st.sampled_from([None, 1, 2]))
def test_the_focus_bound_on_one_track_counts_every_state(members, concede):
    """E5 on one track: the members fall in a fixed order, one hurt at a time; the closed form is
    at least what counting the side's states one by one finds."""
    heroes = tuple(member(f"H{i}", 0, boxes=boxes, consequences=cons) for i, (boxes, cons) in enumerate(members))
    conflict = encounter.Conflict(("Helden", "Orks"), heroes + (member("Ork", 1),),
                                  order=tuple(range(len(heroes) + 1)), concede_at=(concede, None))
    assert bounds._focus_side_bound(conflict, 0) >= bounds._focus_count(conflict, 0, 10**6)


@settings(max_examples=30)
@given(st.lists(st.tuples(st.integers(1, 3), st.integers(1, 3), st.integers(0, 1)), min_size=1, max_size=3),
       st.sampled_from([None, 1]))
def test_the_focus_bound_on_both_tracks_counts_every_state(members, concede):
    """E5 on both tracks: where the tracks rank the members alike they fall in a fixed order (closed
    form); elsewhere counted. Either is at least what counting the side's states one by one finds."""
    heroes = tuple(encounter.Member(f"H{i}", 0, 3, rules.AttackType.HARM, 2, 0,
                                    rules.Stress(rules.StressTrack(physical, 3), rules.StressTrack(mental, 3)), cons, 0)
                   for i, (physical, mental, cons) in enumerate(members))
    orcs = (member("Ork", 1), member("Hexe", 1, kind="deceive"))
    conflict = encounter.Conflict(("Helden", "Orks"), heroes + orcs, order=tuple(range(len(heroes) + 2)),
                                  concede_at=(concede, None))
    assert bounds._focus_side_bound(conflict, 0) >= bounds._focus_count(conflict, 0, 10**6)


def test_a_track_that_starts_empty_still_counts_its_start():
    """"Wenn seine Belastungspunkte verbraucht sind, dann erleidet er eine Konsequenz": a member with
    no stress left takes a consequence from any hit; its start is a state of its own in the bound."""
    empty = rules.Stress(rules.StressTrack(0, 3), rules.StressTrack(3, 3))
    alrik = encounter.Member("Alrik", 0, 3, rules.AttackType.HARM, 2, 0, empty, 0, 2)
    for targeting in ("focus", "spread"):
        conflict = duel(alrik, member("Ork", 1, skill=2, intuition=1), targeting=targeting)
        assert exact(conflict).solver.states <= bounds.state_bound(conflict)


# --- over HTTP --------------------------------------------------------------------------------------

def side(name: str, *members: dict) -> dict:
    return {"name": name, "members": list(members)}


def body_member(name: str, skill: int = 3, defense: int = 2, boxes: int = 4, **extra) -> dict:
    return {"name": name, "attack": {"skill": skill, "type": "harm"}, "defense": defense,
            "stress": {"physical": {"current": boxes, "max": boxes}, "mental": {"current": 3, "max": 3}}, **extra}


DUEL = {"sides": [side("Helden", body_member("Alrik", intuition=2)), side("Orks", body_member("Ork", 2, 1, 3))]}


def test_odds_over_http_echo_every_policy(post):
    status, body = post("/v1/malmsturm/encounter/odds", {**DUEL, "curve_rounds": 1})
    assert status == 200, body
    assert body["operation"] == "malmsturm.encounter.odds"
    assert body["request"]["order"] == "initiative" and body["request"]["dice"] == 4
    assert body["request"]["policy"] == {"targeting": "focus", "concede_at_consequences": {}, "defend": True}
    assert body["request"]["sides"][0]["members"][0]["modifier"] == 0
    assert body["solver"]["precision"] == "exact" and body["solver"]["max_error"] == 0
    outcomes = {o["outcome"]: Fraction(o["exact"]) for o in body["odds"]["outcomes"]}
    assert set(outcomes) == {"wins:Helden", "wins:Orks"} and sum(outcomes.values()) == 1
    assert len(body["odds"]["curve"]) == 1 and "consequences:Alrik" in body["odds"]["distributions"]


def test_rounds_pushed_one_by_one_count_in_the_bound(post):
    """Every state is met every round of a cut (or charted) solve: the bound is states × rounds."""
    status, body = post("/v1/malmsturm/encounter/odds", {**DUEL, "curve_rounds": 20})
    assert status == 200 and body["solver"]["precision"] == "float64" and len(body["odds"]["curve"]) == 20
    status, body = post("/v1/malmsturm/encounter/odds", {**DUEL, "max_rounds": 999})
    # side states 7 and 9 (E5 focus); all 63 pairs once, the 6 × 8 where both stand once more for the
    # second turn; two orders (initiative)
    assert status == 422 and body["states"] == (63 + 6 * 8) * 2 * 999 and body["limit"]["value"] == 20000


def test_a_cut_solve_in_float64_answers_plain_json_numbers(post):
    """Rounds pushed as float vectors (``max_rounds`` under ``exact: never``) answer Python floats:
    a numpy scalar reached the JSON writer once and made a 500 (schemathesis found it)."""
    status, body = post("/v1/malmsturm/encounter/odds", {**DUEL, "exact": "never", "max_rounds": 5, "curve_rounds": 5})
    assert status == 200, body
    assert body["solver"]["precision"] == "float64"
    outcomes = {entry["outcome"]: entry["probability"] for entry in body["odds"]["outcomes"]}
    assert sum(outcomes.values()) == pytest.approx(1, abs=1e-12) and outcomes["undecided"] > 0


def test_rolling_over_http_in_german(post):
    status, body = post("/v1/malmsturm/encounter?lang=de", {**DUEL, "seed": 11})
    assert status == 200, body
    result = body["result"]
    assert result["initiative"]["order"][0]["name"] in ("Alrik", "Ork")
    assert all(step["attack"]["attacker"]["name"] != step["attack"]["defender"]["name"] for step in result["steps"])
    assert body["summary"].startswith(f"Sieg für {result['winner']} nach {result['rounds']} Runde")
    assert "scheidet aus" in body["summary"] and body["summary"].endswith(".")
    assert post("/v1/malmsturm/encounter?lang=de", {**DUEL, "seed": 11})[1]["result"] == result


@pytest.mark.parametrize("change, field", [
    ({"ends": "all_out"}, "ends"),
    ({"sides": [side("Helden", body_member("Alrik", defenses={"bite": 2})), side("Orks", body_member("Ork"))]},
     "sides"),
    ({"order": ["Alrik"]}, "order"),
    ({"sides": [side("Helden", body_member("Alrik")), side("Orks", body_member("Alrik"))]}, "sides"),
    ({"policy": {"concede_at_consequences": {"Elfen": 1}}}, "policy"),
])
def test_bad_bodies_are_422(post, change, field):
    status, body = post("/v1/malmsturm/encounter/odds", {**DUEL, **change})
    assert status == 422 and any(key.split(".")[0] == field for key in body["errors"]), body


def test_too_large_is_refused_before_solving(post, monkeypatch):
    """Limits before work: 422 `encounter-too-large` with `states` and `limit`, without solving."""
    monkeypatch.setattr(chains, "solve", lambda *args, **kwargs: pytest.fail("solved a refused encounter"))
    names = [f"H{i}" for i in range(4)], [f"O{i}" for i in range(4)]
    big = {"sides": [side("Helden", *(body_member(n, boxes=10) for n in names[0])),
                     side("Orks", *(body_member(n, boxes=10) for n in names[1]))],
           "order": [n for pair in zip(*names) for n in pair], "policy": {"targeting": "spread"}}
    status, body = post("/v1/malmsturm/encounter/odds", big)
    assert status == 422 and body["type"].endswith("/encounter-too-large")
    assert body["states"] > body["limit"]["value"] == 500_000  # the default limit's share of this solver
    both_tracks = {**big, "sides": [side("Helden", *({**body_member(n, boxes=10), "attack": {"skill": 3, "type": kind}}
                                                     for n, kind in zip(names[0], ["harm", "deceive"] * 2))),
                                    side("Orks", *({**body_member(n, boxes=10), "attack": {"skill": 3, "type": kind}}
                                                   for n, kind in zip(names[1], ["harm", "deceive"] * 2)))],
                   "max_rounds": 1000}
    status, body = post("/v1/malmsturm/encounter/odds", both_tracks)  # a bound past 2^64 once came back as a 500
    assert status == 422 and body["states"] == 2**53 - 1
    status, body = post("/v1/malmsturm/encounter/odds", {**DUEL, "exact": "required",
                                                          "sides": [side("Helden", body_member("Alrik", boxes=10)),
                                                                    side("Orks", body_member("Ork", boxes=10))]})
    # (1 + 10 + 10) states per member: every pair once, the pairs where both stand once more for the
    # second turn of a round; two orders
    assert status == 422 and body["limit"]["value"] == 300 and body["states"] == (21 * 21 + 20 * 20) * 2
