"""Weltenbuch over HTTP: envelopes, odds, languages, the SDK, and every bad input as a 4xx problem
that names the field."""

from __future__ import annotations

import copy

import pytest

from service.platform.dice.randomness import manual_values
from tests.systems.weltenbuch.test_worked_examples import AMBUSH, MANUAL, ROUND_1, TOUGHNESS
from wurfwerk import InvalidRequest

CONFLICT = "/v1/weltenbuch/conflict"
NARRATION = "/v1/weltenbuch/narration"


def two_parties(*first, second=None):
    second = second or [{"name": "Orc", "role": "npc", "profile": 2}]
    return {"parties": [{"name": "Heroes", "members": list(first)}, {"name": "Orcs", "members": second}]}


HERO = {"name": "Hero", "role": "player", "seat": 1, "profile": 3}


def problem_fields(status, body):
    assert 400 <= status < 500, body
    assert body["type"].startswith("https://wurfwerk.dev/problems/")
    return set(body.get("errors", {}))


def test_seeded_conflict_repeats_and_events_replay(post):
    request = {**AMBUSH, "die": 20, "seed": 42}
    status, first = post(CONFLICT, request)
    assert status == 200 and first["randomness"]["source"] == "seeded"
    assert post(CONFLICT, request)[1]["result"] == first["result"]
    assert first["request"]["die"] == 20 and first["request"]["seed"] == 42
    assert all(face <= 20 for m in first["result"]["members"] for face in m["dice"])
    _, replay = post(CONFLICT, {**AMBUSH, "die": 20, "manual": manual_values(first["randomness"]["events"])})
    assert replay["result"] == first["result"] and replay["randomness"]["source"] == "manual"


def test_summary_in_german_and_english(post):
    _, german = post(CONFLICT + "?lang=de", {**AMBUSH, "manual": MANUAL})
    _, english = post(CONFLICT, {**AMBUSH, "manual": MANUAL})
    assert german["lang"] == "de" and "Sieger der Szene: Heroes." in german["summary"]  # review row 16
    assert "Toran → Fayla → Spielleiter" in german["summary"]
    assert english["lang"] == "en" and "The scene goes to Heroes." in english["summary"]
    assert german["result"] == english["result"]


def test_conflict_odds_over_http(post):
    status, body = post(CONFLICT + "/odds", AMBUSH)
    assert status == 200 and body["operation"] == "weltenbuch.conflict.odds"
    outcomes = {o["outcome"]: o["exact"] for o in body["odds"]["outcomes"]}
    assert set(outcomes) == {"wins:Heroes", "wins:Orcs", "tie"}
    assert outcomes["wins:Heroes"] == "1/2"  # 10 dice against 9: P(X > Y) = 1/2 by symmetry
    assert len(body["odds"]["distributions"]["successes:Orcs"]) == 10


def test_narration_response_is_signed_and_verifies(post, client):
    _, conflict = post(CONFLICT, {**AMBUSH, "manual": MANUAL})
    status, body = post(NARRATION, {"conflict": conflict, "toughness": TOUGHNESS, "spends": ROUND_1})
    assert status == 200 and body["operation"] == "weltenbuch.narration"
    verdict = client.post("/v1/receipts/verify", json=body).get_json()
    assert verdict["valid"] is True


def test_resurrection_and_its_odds(post):
    gods = ["Alvar", "Belra", "Cyrus", "Dunja", "Eldor", "Fenna", "Garm", "Hesta"]
    status, body = post("/v1/weltenbuch/resurrection", {"gods": gods, "manual": [5]})
    assert status == 200 and body["result"] == {"god": 5, "name": "Eldor"}
    assert "Eldor" in body["summary"]
    status, body = post("/v1/weltenbuch/resurrection", {"seed": 1})
    assert status == 200 and body["result"]["name"] is None and 1 <= body["result"]["god"] <= 8
    status, body = post("/v1/weltenbuch/resurrection/odds", {})
    assert status == 200 and [o["exact"] for o in body["odds"]["outcomes"]] == ["1/8"] * 8


def test_sdk_round_trip(sdk):
    conflict = sdk.weltenbuch.conflict(**AMBUSH, manual=MANUAL)
    assert conflict.result.winner == "Heroes"
    narration = sdk.weltenbuch.narration(conflict=conflict, toughness=TOUGHNESS, spends=ROUND_1)
    assert narration.result.toughness_after["Toran"].current == 3
    assert sdk.weltenbuch.conflict_odds(**AMBUSH).odds.outcomes[0].outcome == "wins:Heroes"
    assert sdk.weltenbuch.resurrection(manual=[2]).result.god == 2
    assert len(sdk.weltenbuch.resurrection_odds().odds.outcomes) == 8
    with pytest.raises(InvalidRequest):
        sdk.weltenbuch.conflict(**AMBUSH, die=9)


# --- bad input ----------------------------------------------------------------------------------

@pytest.mark.parametrize("body, field", [
    ({**two_parties(HERO), "die": 9}, "die"),
    (two_parties(HERO, second=[{"name": "Orc", "role": "npc", "profile": 2, "hero_points": 1}]),
     "parties.1.members.0.hero_points"),
    (two_parties(HERO, second=[{"name": "Rock", "role": "obstacle", "profile": 2, "hero_points": 1}]),
     "parties.1.members.0.hero_points"),
    (two_parties(HERO, second=[{"name": "Hero", "role": "npc", "profile": 2}]), "parties.1.members.0.name"),
    (two_parties(HERO, {**HERO, "name": "Other"}), "parties.0.members.1.seat"),
    (two_parties({"name": "Hero", "role": "player", "profile": 3}), "parties.0.members.0.seat"),
    (two_parties(HERO, second=[{"name": "Orc", "role": "npc", "seat": 3, "profile": 2}]), "parties.1.members.0.seat"),
    ({**two_parties(HERO), "seed": 1, "manual": [2, 2, 2, 2, 2]}, "manual"),
    ({"parties": [{"name": f"P{i}", "members": [{"name": f"M{i}", "role": "npc", "profile": 1}]} for i in range(9)]},
     "parties"),
    ({"parties": [{"name": "Alone", "members": [HERO]}]}, "parties"),
    ({"parties": [{"name": "A", "members": [HERO]}, {"name": "A", "members": [{**HERO, "name": "B", "seat": 2}]}]},
     "parties.1.name"),
    (two_parties({**HERO, "profile": 99, "hero_points": 1}), "parties.0.members.0.profile"),
    (two_parties({**HERO, "charisma": 3}), "parties.0.members.0.charisma"),
    (two_parties({**HERO, "profile": "3"}), "parties.0.members.0.profile"),
])
def test_bad_conflicts_are_refused_naming_the_field(post, body, field):
    status, problem = post(CONFLICT, body)
    assert status == 422
    assert field in problem_fields(status, problem)


def test_a_pool_over_the_limit_is_refused_with_its_bonuses_and_hero_points(post):
    """The pool is rules.pool: "Die Summe aus Profilwert und eventuellen Boni ergibt die Anzahl an
    Würfeln", the largest equipment bonus, 2 dice per hero point; its total is held to pool_dice
    (100 by default) even where each part is within its own range."""
    at_limit = {**HERO, "profile": 90, "equipment_bonuses": [3, 5], "magic_bonus": 1, "hero_points": 2}
    assert post(CONFLICT + "/odds", two_parties(at_limit))[0] == 200  # 90 + 5 + 1 + 2 * 2 = 100
    status, problem = post(CONFLICT + "/odds", two_parties({**at_limit, "situation_bonus": 1}))
    assert status == 422 and "parties.0.members.0.profile" in problem_fields(status, problem)
    assert problem["limit"]["name"] == "pool_dice"


def test_bad_conflict_odds_are_refused_too(post):
    status, problem = post(CONFLICT + "/odds", {**two_parties(HERO), "die": 7})
    assert status == 422 and "die" in problem_fields(status, problem)
    status, problem = post(CONFLICT + "/odds", {**two_parties(HERO), "seed": 3})
    assert status == 422 and "seed" in problem_fields(status, problem)


def test_manual_faces_must_fit_the_die(post):
    status, problem = post(CONFLICT, {**two_parties(HERO), "die": 6, "manual": [1, 2, 7, 1, 1]})
    assert status == 422 and "manual.2" in problem_fields(status, problem)


@pytest.fixture
def signed_conflict(post):
    return post(CONFLICT, {**AMBUSH, "manual": MANUAL})[1]


@pytest.mark.parametrize("spends, field", [
    ([{"member": "Toran", "die": 7}], "spends.0.die"),
    ([{"member": "Nobody", "die": 0}], "spends.0.member"),
    ([{"member": "Toran", "die": 1}, {"member": "Toran", "die": 1}], "spends.1.die"),
    ([{"member": "Toran", "die": 0, "target": "Orc 1"}], "spends.0.target"),  # a 1 is a failure
    ([{"member": "Toran", "die": 1, "target": "Fayla"}], "spends.0.target"),  # own party
    ([{"member": "Toran", "die": -1}], "spends.0.die"),
])
def test_bad_spends_are_refused(post, signed_conflict, spends, field):
    status, problem = post(NARRATION, {"conflict": signed_conflict, "toughness": TOUGHNESS, "spends": spends})
    assert status == 422
    assert field in problem_fields(status, problem)


def test_hero_points_of_an_npc_are_refused(post, signed_conflict):
    status, problem = post(NARRATION, {"conflict": signed_conflict, "toughness": TOUGHNESS,
                                       "hero_points": [{"member": "Orc 1", "count": 1}]})
    assert status == 422 and "hero_points.0.member" in problem_fields(status, problem)


@pytest.mark.parametrize("tamper", [
    lambda doc: doc["result"]["members"][2].__setitem__("dice", [4, 4, 10]),
    lambda doc: doc["result"].__setitem__("winner", "Orcs"),
    lambda doc: doc["randomness"]["events"][0]["values"].__setitem__(0, 2),
    lambda doc: doc["receipt"].__setitem__("signature", doc["receipt"]["signature"][::-1]),
])
def test_an_altered_conflict_is_refused(post, signed_conflict, tamper):
    altered = copy.deepcopy(signed_conflict)
    tamper(altered)
    status, problem = post(NARRATION, {"conflict": altered, "toughness": TOUGHNESS, "spends": ROUND_1})
    assert status == 422 and "conflict.receipt" in problem_fields(status, problem)
    assert problem["type"].endswith("/invalid-receipt")


def test_a_response_of_another_operation_is_refused(post):
    _, resurrection = post("/v1/weltenbuch/resurrection", {"manual": [1]})
    status, problem = post(NARRATION, {"conflict": resurrection, "spends": []})
    assert status == 422 and "conflict.operation" in problem_fields(status, problem)


def test_toughness_of_strangers_and_above_max_are_refused(post, signed_conflict):
    status, problem = post(NARRATION, {"conflict": signed_conflict,
                                       "toughness": {"Gandalf": {"current": 1, "max": 1}}})
    assert status == 422 and "toughness.Gandalf" in problem_fields(status, problem)
    status, problem = post(NARRATION, {"conflict": signed_conflict,
                                       "toughness": {"Toran": {"current": 7, "max": 6}}})
    assert status == 422 and any(f.startswith("toughness.Toran") for f in problem_fields(status, problem))


def test_gods_must_be_eight(post):
    status, problem = post("/v1/weltenbuch/resurrection", {"gods": ["Alvar", "Belra"]})
    assert status == 422 and "gods" in problem_fields(status, problem)
