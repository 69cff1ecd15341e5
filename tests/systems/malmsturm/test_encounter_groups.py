"""Malmsturm conflicts of groups, the rulings of 2026-12-03 (RULINGS.md "Encounters", Malmsturm E6-E8):
E6 `order: initiative` for sides of any size ("Die Reihenfolge wird über einen Intuitions-Wurf
ermittelt"), E7 `defenses` per attack kind (the text's table of defending skills), E8 `ends:
side_out | first_out` ("bis einer der Konkurrenten freiwillig oder unfreiwillig ausscheidet oder eine
Partei nachgiebt"). Oracles: `malmsturm.initiative`'s own odds of who acts first, icepool's chain of
a duel, and an independent simulation of 100,000 conflicts written from the text."""

from __future__ import annotations

import functools
import itertools
import math
import random
from fractions import Fraction

import pytest

from service.platform.dice.randomness import GeneratorSource
from service.systems.malmsturm import bounds, encounter, initiative, odds, play_out, rules, solver
from tests.stats import chi_square_sf
from tests.systems.malmsturm.test_encounter import DUEL, body_member, exact, icepool_duel, member, side

HELDEN, ORKS = "wins:Helden", "wins:Orks"
MENTAL_KINDS = {"deceive", "intimidate", "charm", "persuade"}


# --- E6: the order of every member, from one initiative roll each ---------------------------------

@pytest.mark.parametrize("intuitions", [[2, 1, 0], [1, 1, 0], [1, 1, 1], [3, 0, 0, 1], [2, 2, 2, 2]])
def test_every_order_sums_to_one_and_its_first_places_are_the_initiative_odds(intuitions):
    """Ruling 4 (4dF + intuition, ties by intuition, then roll-offs): summed over the orders, who
    acts first is exactly `malmsturm.initiative`'s odds (its own code, `_p_first`)."""
    chances = dict(initiative.initiative_orders(intuitions, rules.DICE))
    assert sum(chances.values()) == 1 and all(isinstance(p, Fraction) for p in chances.values())
    participants = [rules.Participant(f"m{i}", value) for i, value in enumerate(intuitions)]
    first = odds.initiative(participants).outcomes
    for index in range(len(intuitions)):
        assert sum(p for order, p in chances.items() if order[0] == index) == first[f"first:m{index}"]


def test_a_tied_group_is_ordered_alike_in_every_order():
    """Roll-offs are exchangeable: three members alike take each of the 6 orders with chance 1/6,
    but for the last roll-off's cap (p < 1e-15), which keeps the request order."""
    chances = dict(initiative.initiative_orders([0, 0, 0], rules.DICE))
    assert len(chances) == 6
    for order, p in chances.items():
        assert abs(p - Fraction(1, 6)) < Fraction(1, 10**14), order
    assert chances[(0, 1, 2)] > Fraction(1, 6)


def test_the_orders_match_100000_rolled_initiatives():
    """`rules.initiative` (what the rolling twin uses) against the exact orders: one chi-square over
    the six orders (six separate 3σ bounds would fail one seed in sixty)."""
    intuitions = [2, 1, 1]
    chances = dict(initiative.initiative_orders(intuitions, rules.DICE))
    participants = [rules.Participant(f"m{i}", value) for i, value in enumerate(intuitions)]
    source = GeneratorSource(random.Random(20261203), "seeded")
    runs = 100_000
    counts: dict[tuple, int] = {}
    for _ in range(runs):
        rolled = rules.initiative(participants, source)
        order = tuple(int(entry.name[1:]) for entry in rolled.order)
        counts[order] = counts.get(order, 0) + 1
    assert set(counts) <= set(chances)
    statistic = sum((counts.get(order, 0) - runs * float(p)) ** 2 / (runs * float(p)) for order, p in chances.items())
    assert chi_square_sf(statistic, len(chances) - 1) > 1e-3, counts


def _with_order(conflict: encounter.Conflict, order) -> encounter.Conflict:
    return encounter.Conflict(conflict.side_names, conflict.members, order=order, targeting=conflict.targeting,
                              concede_at=conflict.concede_at, defend=conflict.defend, dice=conflict.dice,
                              ends=conflict.ends)


TWO_ON_ONE = (member("Alrik", 0, skill=2, defense=1, boxes=2, intuition=1),
              member("Wulf", 0, skill=1, defense=2, boxes=2, kind="intimidate"),
              member("Troll", 1, skill=3, defense=1, boxes=3, mental=2, intuition=2))


def test_e6_initiative_odds_are_every_given_orders_odds_mixed_exactly():
    conflict = encounter.Conflict(("Helden", "Orks"), TWO_ON_ONE)
    result = exact(conflict)
    mixed = {HELDEN: Fraction(0), ORKS: Fraction(0)}
    for order, chance in initiative.initiative_orders([m.intuition for m in TWO_ON_ONE], rules.DICE):
        for name, p in exact(_with_order(conflict, order)).outcomes.items():
            mixed[name] += chance * p
    assert result.outcomes == mixed and sum(result.outcomes.values()) == 1
    assert result.solver.states <= bounds.state_bound(conflict)


# --- an independent simulation: initiative, attacks per kind, both ways to end ----------------------

def _fudge(rng: random.Random, count: int) -> int:
    return sum(rng.choice((-1, 0, 1)) for _ in range(count))


def simulate(rng: random.Random, members: list[dict], ends: str, order: list[int] | None = None) -> str:
    """One conflict from the text: members as dicts (side, attack, kind, defense, defenses, boxes,
    mental, intuition); initiative "über einen Intuitions-Wurf" (ties: intuition, then at random);
    every turn an attack against the focused opponent (most consequences, then least stress on the
    attack's track, then body order); two consequences take a member out."""
    if order is None:
        rolled = [(m["intuition"] + _fudge(rng, 4), m["intuition"], rng.random(), i) for i, m in enumerate(members)]
        order = [entry[3] for entry in sorted(rolled, reverse=True)]
    stress = [[m["boxes"], m["mental"]] for m in members]
    taken = [0] * len(members)
    while True:
        for index in order:
            me = members[index]
            if taken[index] >= 2:
                continue
            track = 1 if me["kind"] in MENTAL_KINDS else 0
            standing = [j for j, m in enumerate(members) if m["side"] != me["side"] and taken[j] < 2]
            target = min(standing, key=lambda j: (-taken[j], stress[j][track], j))
            defence = members[target]["defenses"].get(me["kind"], members[target]["defense"])
            shifts = me["attack"] + _fudge(rng, 4) - (defence + _fudge(rng, 4))
            if shifts < 1:
                continue
            stress[target][track] -= shifts
            if stress[target][track] <= 0:
                taken[target] += 1
                stress[target][track] = (members[target]["boxes"], members[target]["mental"])[track]
            side_members = [j for j, m in enumerate(members) if m["side"] == members[target]["side"]]
            out = [taken[j] >= 2 for j in side_members]
            if (any(out) if ends == "first_out" else all(out)):
                return HELDEN if me["side"] == 0 else ORKS


def _as_member(d: dict, name: str) -> encounter.Member:
    stress = rules.Stress(rules.StressTrack(d["boxes"], d["boxes"]), rules.StressTrack(d["mental"], d["mental"]))
    return encounter.Member(name, d["side"], d["attack"], rules.AttackType(d["kind"]), d["defense"], 0, stress, 0,
                            d["intuition"], tuple((rules.AttackType(k), v) for k, v in sorted(d["defenses"].items())))


GROUP = [dict(side=0, attack=2, kind="harm", defense=1, defenses={"intimidate": 3}, boxes=2, mental=2, intuition=1),
         dict(side=0, attack=2, kind="intimidate", defense=2, defenses={}, boxes=2, mental=2, intuition=0),
         dict(side=1, attack=3, kind="harm", defense=0, defenses={"harm": 2}, boxes=3, mental=2, intuition=2)]


@pytest.mark.parametrize("ends, seed", [("side_out", 1), ("first_out", 2)])
def test_e6_e7_e8_agree_with_100000_simulated_conflicts(ends, seed):
    """Initiative for 2 v 1 (E6), the Troll's Ausweichen 2 against harm but 0 against intimidation,
    Alrik's Nerven behalten 3 against it (E7), both ways to end (E8): float64 and the exact Fractions
    agree, and within 3σ of 100,000 simulated conflicts."""
    conflict = encounter.Conflict(("Helden", "Orks"), tuple(_as_member(d, f"m{i}") for i, d in enumerate(GROUP)),
                                  ends=ends)
    fractions = exact(conflict).outcomes
    floats = solver.encounter_odds(conflict, exact=False)
    for name, p in fractions.items():
        assert floats.outcomes[name] == pytest.approx(float(p), abs=floats.solver.max_error + 1e-15)
    rng = random.Random(seed)
    runs = 100_000
    won = sum(simulate(rng, GROUP, ends) == HELDEN for _ in range(runs))
    p = float(fractions[HELDEN])
    assert abs(won - runs * p) <= 3 * math.sqrt(runs * p * (1 - p)), (won, p)


# --- E7 and E8 against icepool and each other ------------------------------------------------------

@pytest.mark.parametrize("first", [0, 1])
def test_e7_the_defence_of_the_attacks_kind_is_used(first):
    """icepool's duel with the Ork's defence 3: the same when it is its `defenses` entry for harm
    (its `defense` 0 then holds only for other kinds), unchanged by an entry for another kind."""
    expected = icepool_duel((3, 2, 3, 0), (2, 3, 3, 0), first)
    ork = encounter.Member("Ork", 1, 2, rules.AttackType.HARM, 0, 0, member("x", 1, boxes=3).stress, 0, 0,
                           ((rules.AttackType.HARM, 3), (rules.AttackType.CHARM, -2)))
    alrik = member("Alrik", 0, skill=3, defense=2, boxes=3)
    assert exact(encounter.Conflict(("Helden", "Orks"), (alrik, ork), order=(first, 1 - first))).outcomes == expected


@pytest.mark.parametrize("order", [(0, 1), (1, 0)])
def test_e8_one_member_a_side_ends_alike(order):
    a, b = member("Alrik", 0, skill=3, boxes=3), member("Ork", 1, skill=2, boxes=2)
    side_out = exact(encounter.Conflict(("Helden", "Orks"), (a, b), order=order))
    first_out = exact(encounter.Conflict(("Helden", "Orks"), (a, b), order=order, ends=encounter.FIRST_OUT))
    assert side_out.outcomes == first_out.outcomes


def test_e8_first_out_ends_at_the_first_member_taken_out():
    """With first_out nobody ends with a second member out, and the side that lost a member lost."""
    members = (member("Alrik", 0, skill=3, boxes=2), member("Brok", 0, skill=1, boxes=2),
               member("Ork", 1, skill=3, boxes=3))
    conflict = encounter.Conflict(("Helden", "Orks"), members, order=(0, 2, 1), ends=encounter.FIRST_OUT)
    result = exact(conflict)
    both = sum(p for end, p in solver.solve_turns(conflict, (0, 2, 1), exact=True).ends.items()
               if sum(m[2] >= 2 for m in end) > 1)
    assert both == 0
    side_out = exact(_with_order(encounter.Conflict(("Helden", "Orks"), members), (0, 2, 1)))
    assert result.outcomes[ORKS] > side_out.outcomes[ORKS]  # one of two out is enough now
    played = play_out.play(conflict, GeneratorSource(random.Random(5), "seeded"), "en")
    assert played.ends == "first_out" and sum(m.taken_out for m in played.end.members) == 1


# --- over HTTP -----------------------------------------------------------------------------------

THREE = {"sides": [side("Helden", body_member("Alrik", intuition=2, boxes=2),
                        body_member("Wulf", 1, 2, 2, defenses={"harm": 3, "intimidate": 1})),
                   side("Der Troll", body_member("Troll", 3, 1, 3, intuition=1))],
         "ends": "first_out"}


def test_initiative_defenses_and_ends_over_http(post):
    status, body = post("/v1/malmsturm/encounter/odds", THREE)
    assert status == 200, body
    assert body["request"]["order"] == "initiative" and body["request"]["ends"] == "first_out"
    assert body["request"]["sides"][0]["members"][1]["defenses"] == {"harm": 3, "intimidate": 1}
    total = sum(entry["probability"] for entry in body["odds"]["outcomes"])
    assert abs(total - 1) <= body["solver"]["max_error"] + 1e-12
    status, played = post("/v1/malmsturm/encounter?lang=de", {**THREE, "seed": 4})
    assert status == 200, played
    result = played["result"]
    assert result["ends"] == "first_out" and len(result["initiative"]["order"]) == 3
    assert sorted(result["order"]) == ["Alrik", "Troll", "Wulf"]
    assert [entry["name"] for entry in result["initiative"]["order"]] == result["order"]


def test_the_default_ends_is_side_out_and_echoed(post):
    status, body = post("/v1/malmsturm/encounter/odds", DUEL)
    assert status == 200 and body["request"]["ends"] == "side_out"


def test_initiative_for_many_members_is_refused_before_solving_when_too_large(post, monkeypatch):
    monkeypatch.setattr(solver, "encounter_odds", lambda *a, **k: pytest.fail("solved"))
    big = {"sides": [side("A", *(body_member(f"a{i}", boxes=4) for i in range(4))),
                     side("B", *(body_member(f"b{i}", boxes=4) for i in range(4)))]}
    status, body = post("/v1/malmsturm/encounter/odds", big)
    assert status == 422 and body["type"].endswith("/encounter-too-large")
    assert body["states"] >= math.factorial(8)


def test_orders_for_four_members_are_quick():
    """Informal (no benchmark): the orders of 2 v 2 by initiative in well under a second."""
    import time
    began = time.perf_counter()
    chances = initiative.initiative_orders([1, 0, 2, 1], rules.DICE)
    assert time.perf_counter() - began < 1.0 and len(chances) == 24
    assert sum(p for _, p in chances) == 1
    assert list(itertools.permutations(range(4))) == sorted(order for order, _ in chances)


# --- E6's orders, counted two ways --------------------------------------------------------------------

def _rolled_structures(intuitions: tuple[int, ...], dice: int) -> dict[tuple[tuple[int, ...], ...], int]:
    """Ruling 4 roll by roll: every member's dF sum, ranked by total, then intuition; equal keys tie."""
    faces = odds.fudge_ways(dice)
    found: dict[tuple[tuple[int, ...], ...], int] = {}
    for rolled in itertools.product(sorted(faces), repeat=len(intuitions)):
        keys = [(-(intuition + value), -intuition) for intuition, value in zip(intuitions, rolled, strict=True)]
        ranked = sorted(range(len(intuitions)), key=keys.__getitem__)
        groups: list[list[int]] = [[ranked[0]]]
        for index in ranked[1:]:
            if keys[index] == keys[groups[-1][0]]:
                groups[-1].append(index)
            else:
                groups.append([index])
        structure = tuple(tuple(group) for group in groups)
        found[structure] = found.get(structure, 0) + math.prod(faces[value] for value in rolled)
    return found


@pytest.mark.parametrize("intuitions", [(2, 1, 0), (1, 1, 0), (0, 0, 0, 0), (3, 1, 1, 0), (2, 2, 1, 1, 0)])
@pytest.mark.parametrize("dice", [4, 2])
def test_the_tie_structures_are_the_rolls_counted_one_by_one(intuitions, dice):
    """Ruling 4 ("bei Gleichstand ... Intuition, dann Stechen"): the ways of every tie structure,
    counted from the keys (a sum over decreasing keys per block), equal the 9^n rolls enumerated."""
    assert initiative._tie_structures(intuitions, dice) == _rolled_structures(intuitions, dice)


@functools.cache
def _rolled_off(size: int, rounds: int, dice: int) -> dict[tuple[int, ...], Fraction]:
    """Roll-offs as `rules._roll_off` rolls them, every roll of the group enumerated: higher first,
    groups still tied roll again, after `rounds` roll-offs a group keeps the request order."""
    if size == 1 or rounds == 0:
        return {tuple(range(size)): Fraction(1)}
    faces = odds.fudge_ways(dice)
    chances: dict[tuple[int, ...], Fraction] = {}
    for rolled in itertools.product(sorted(faces), repeat=size):
        weight = Fraction(math.prod(faces[value] for value in rolled), 3 ** (dice * size))
        partial = {(): weight}
        for value in sorted(set(rolled), reverse=True):
            block = [member for member in range(size) if rolled[member] == value]
            inner = _rolled_off(len(block), rounds - 1, dice)
            partial = {prefix + tuple(block[rank] for rank in ranks): chance * p
                       for prefix, chance in partial.items() for ranks, p in inner.items()}
        for order, chance in partial.items():
            chances[order] = chances.get(order, Fraction(0)) + chance
    return chances


@pytest.mark.parametrize("size, rounds, dice", [(2, 20, 4), (3, 3, 4), (3, 2, 2), (4, 2, 2), (4, 1, 4)])
def test_roll_offs_by_block_sizes_are_the_rolls_enumerated(size, rounds, dice):
    """The roll-offs' orders from their block sizes alone (the members roll alike) equal every roll of
    every roll-off enumerated, the cap included."""
    assert initiative.roll_off_orders(size, rounds, dice) == _rolled_off(size, rounds, dice)
