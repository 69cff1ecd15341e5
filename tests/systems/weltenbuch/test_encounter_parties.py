"""Weltenbuch scenes of three parties and more (RULINGS.md "Encounters", Weltenbuch E3, 2026-12-03):
"an encounter takes 2..8 parties, as a conflict does; `targeting` picks among the members of every
other party. Obstacles overcome (ruling 7) are named in the summary."

Oracles: every roll of a small scene played out by the rolling twin (`rules.conflict` and
`rules.narration` of the policy's ledger) against the exact odds, Fraction for Fraction; and a
sampler written here from the text, 100,000 scenes within 3σ.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from fractions import Fraction
from itertools import product

import pytest

from service.platform.dice.randomness import GeneratorSource, ManualSource
from service.systems.weltenbuch import encounter
from service.systems.weltenbuch.encounter import Scene
from service.systems.weltenbuch.rules import Member, Party, Role, Toughness, narration_order

HEROES = Party("Die Helden", (Member("Toran", Role.PLAYER, 2, seat=1), Member("Fayla", Role.PLAYER, 1, seat=2)))
ORCS = Party("Orks", (Member("Ork", Role.NPC, 2),))
GATE = Party("Das Tor", (Member("Tor", Role.OBSTACLE, 1),))
TOUGHNESS = {"Toran": Toughness(2, 2), "Fayla": Toughness(1, 2, equipment=1), "Ork": Toughness(2, 2),
             "Tor": Toughness(1, 1)}


def _all_rolls(scene: Scene):
    """Every roll of the scene's dice on a d2 (face 2 is even: a success), each with chance 2^-n."""
    dice = sum(party.dice for party in scene.parties)
    for faces in product((1, 2), repeat=dice):
        yield list(faces), Fraction(1, 2**dice)


@pytest.mark.parametrize("targeting", ["weakest", "strongest", "spread"])
@pytest.mark.parametrize("held", [{}, {"Fayla": 1}])
def test_three_parties_odds_are_every_roll_played_out(targeting, held):
    scene = Scene((HEROES, ORCS, GATE), TOUGHNESS, targeting, held, die=2)
    ours = encounter.odds(scene)
    consequence: Counter = Counter()
    hero_point: Counter = Counter()
    outcomes: Counter = Counter()
    per_party = {party.name: Counter() for party in scene.parties}
    for faces, chance in _all_rolls(scene):
        played = encounter.play(scene, ManualSource(faces))
        outcomes[played.outcome] += chance
        for name in played.end.consequences:
            consequence[name] += chance
        for name in played.end.hero_points_spent:
            hero_point[name] += chance
        for party in scene.parties:
            taken = sum(1 for m in party.members if m.name in played.end.consequences)
            per_party[party.name][taken] += chance
    assert ours.outcomes == {name: outcomes.get(name, 0) for name in ours.outcomes}
    assert sum(ours.outcomes.values()) == 1
    for name in ("Toran", "Fayla", "Ork"):
        assert ours.expected[f"consequence:{name}"] == consequence[name], name
    assert "consequence:Tor" not in ours.expected  # an obstacle is overcome, never takes one
    for name in held:
        assert ours.expected[f"hero_point:{name}"] == hero_point[name]
    for party in scene.parties:
        assert ours.distributions[f"consequences:{party.name}"] == {k: p for k, p in per_party[party.name].items()}


def test_two_parties_answer_as_before_and_more_count_every_member():
    """The bound: Σ (dice + 1) over two parties as before, Π (dice + 1) over the members for more."""
    assert encounter.state_bound(Scene((HEROES, ORCS), TOUGHNESS)) == (3 + 1) + (2 + 1)
    assert encounter.state_bound(Scene((HEROES, ORCS, GATE), TOUGHNESS)) == 3 * 2 * 3 * 2


# --- a sampler from the text ----------------------------------------------------------------------

BIG = (Party("Helden", (Member("Toran", Role.PLAYER, 4, seat=1), Member("Fayla", Role.PLAYER, 3, seat=2))),
       Party("Wölfe", (Member("Wolf 1", Role.NPC, 2), Member("Wolf 2", Role.NPC, 2))),
       Party("Die Schlucht", (Member("Schlucht", Role.OBSTACLE, 2),)))
BIG_TOUGHNESS = {"Toran": Toughness(4, 4), "Fayla": Toughness(3, 3), "Wolf 1": Toughness(2, 2),
                 "Wolf 2": Toughness(3, 3), "Schlucht": Toughness(3, 3)}


def sample(rng: random.Random, parties, toughness) -> tuple[str, frozenset]:
    """One scene: every die even with chance 1/2; the most successes wins ("Die Partei mit den meisten
    Erfolgen gewinnt den Konflikt"); then turn by turn in the narration order, each success of a
    member lowers the weakest member (lowest toughness at the start, body order on a tie) of the
    other parties that still has toughness; at 0 a character takes a consequence."""
    successes = {m.name: sum(rng.random() < 0.5 for _ in range(m.dice)) for p in parties for m in p.members}
    totals = [sum(successes[m.name] for m in p.members) for p in parties]
    best = max(totals)
    outcome = f"wins:{parties[totals.index(best)].name}" if totals.count(best) == 1 else "tie"
    left = {name: value.current + value.equipment for name, value in toughness.items()}
    start = dict(left)
    party_of = {m.name: i for i, p in enumerate(parties) for m in p.members}
    for turn in narration_order(list(parties)):
        for name in turn.members:
            for _ in range(successes[name]):
                others = [m.name for i, p in enumerate(parties) if i != party_of[name] for m in p.members
                          if left[m.name] > 0]
                if others:
                    left[min(others, key=lambda n: start[n])] -= 1
    roles = {m.name: m.role for p in parties for m in p.members}
    return outcome, frozenset(n for n, v in left.items() if v == 0 and roles[n] is not Role.OBSTACLE)


def test_a_three_party_scene_matches_100000_sampled_scenes():
    scene = Scene(BIG, BIG_TOUGHNESS, "weakest")
    fractions = encounter.odds(scene)
    floats = encounter.odds(scene, exact=False)
    for name, p in fractions.expected.items():
        assert floats.expected[name] == pytest.approx(float(p), abs=1e-15)
    rng = random.Random(20261203)
    runs = 100_000
    outcomes: Counter = Counter()
    taken: Counter = Counter()
    for _ in range(runs):
        outcome, fallen = sample(rng, BIG, BIG_TOUGHNESS)
        outcomes[outcome] += 1
        taken.update(fallen)
    checks = [(outcomes[name], p) for name, p in fractions.outcomes.items()]
    checks += [(taken[name], fractions.expected[f"consequence:{name}"])
               for name in ("Toran", "Fayla", "Wolf 1", "Wolf 2")]
    for count, p in checks:
        p = float(p)
        assert abs(count - runs * p) <= 3 * math.sqrt(runs * p * (1 - p)) + 1e-9, (count, p)


# --- the summary and HTTP --------------------------------------------------------------------------

PARTIES = [{"name": "Die Helden", "members": [{"name": "Toran", "role": "player", "seat": 1, "profile": 3}]},
           {"name": "Orks", "members": [{"name": "Ork", "role": "npc", "profile": 2}]},
           {"name": "Das Tor", "members": [{"name": "Tor", "role": "obstacle", "profile": 1}]}]
BODY = {"die": 2, "parties": PARTIES, "toughness": {"Toran": {"current": 3, "max": 3},
                                                    "Ork": {"current": 1, "max": 2}, "Tor": {"current": 1, "max": 1}}}


def test_a_three_party_scene_over_http_names_the_obstacle_overcome(post):
    # Toran 2 2 2 (3 successes), Ork 2 1, Tor 1: Toran's dice hit the weakest of Ork and Tor (Ork 1, Tor 1:
    # body order), Ork first, then Tor, the third die has nobody left; the Ork's success hits Toran.
    status, body = post("/v1/weltenbuch/encounter?lang=de", {**BODY, "manual": [2, 2, 2, 2, 1, 1]})
    assert status == 200, body
    assert body["result"]["outcome"] == "wins:Die Helden"
    assert body["result"]["end"]["overcome"] == ["Tor"] and body["result"]["end"]["consequences"] == ["Ork"]
    assert body["summary"] == "Sieger der Szene: Die Helden. Ork trägt eine Konsequenz davon. Überwunden: Tor."
    status, english = post("/v1/weltenbuch/encounter?lang=en", {**BODY, "manual": [2, 2, 2, 2, 1, 1]})
    assert english["summary"] == "The scene goes to Die Helden. Ork takes a consequence. Overcome: Tor."
    status, odds = post("/v1/weltenbuch/encounter/odds", BODY)
    assert status == 200 and odds["solver"]["precision"] == "exact"
    assert {entry["outcome"] for entry in odds["odds"]["outcomes"]} >= {"wins:Die Helden", "wins:Orks", "tie"}


def test_nine_parties_are_refused(post):
    parties = [{"name": f"P{i}", "members": [{"name": f"M{i}", "role": "npc", "profile": 1}]} for i in range(9)]
    status, body = post("/v1/weltenbuch/encounter/odds", {"parties": parties,
                                                           "toughness": {f"M{i}": {"current": 1, "max": 1}
                                                                         for i in range(9)}})
    assert status == 422 and "parties" in body["errors"]


def test_seeded_rolling_scenes_agree_with_the_odds():
    scene = Scene(BIG, BIG_TOUGHNESS, "spread", {"Fayla": 1})
    odds = encounter.odds(scene)
    source = GeneratorSource(random.Random(3), "seeded")
    runs = 3000
    counts: Counter = Counter(encounter.play(scene, source).outcome for _ in range(runs))
    for name, p in odds.outcomes.items():
        p = float(p)
        assert abs(counts[name] - runs * p) <= 4 * math.sqrt(runs * p * (1 - p)) + 1e-9, (name, counts)
