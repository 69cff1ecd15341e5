"""Malmsturm over HTTP and through the SDK: envelope, ladder, summaries, replay, odds, bad input."""

from __future__ import annotations

import pytest

from service.platform.dice.randomness import manual_values

STRESS = {"physical": {"current": 3, "max": 3}, "mental": {"current": 2, "max": 2}}
ATTACK = {"attacker": {"name": "Ragna", "skill": 3, "attack": "harm"},
          "defender": {"name": "Ork", "skill": 2, "stress": STRESS}}
ROLLING = [
    ("/v1/malmsturm/action", {"skill": 3, "difficulty": 2}),
    ("/v1/malmsturm/contest", {"a": {"name": "Dieb", "skill": 3}, "b": {"name": "Händler", "skill": 2}}),
    ("/v1/malmsturm/initiative", {"participants": [{"name": n, "intuition": 1} for n in "ABCDEF"]}),
    ("/v1/malmsturm/attack", ATTACK),
]


@pytest.mark.parametrize("path,body", ROLLING)
def test_every_rolling_operation_replays_from_its_events(post, path, body):
    first = post(path, {**body, "seed": 12345})[1]
    assert first["randomness"]["source"] == "seeded"
    assert all(event["kind"] == "dF" and len(event["values"]) == 4 for event in first["randomness"]["events"])
    again = post(path, {**body, "seed": 12345})[1]
    assert again["result"] == first["result"]
    status, replay = post(path, {**body, "manual": manual_values(first["randomness"]["events"])})
    assert status == 200 and replay["result"] == first["result"]
    assert replay["randomness"]["source"] == "manual"


def test_initiative_roll_offs_are_recorded_and_replayable(post):
    body = {"participants": [{"name": n, "intuition": 0} for n in "ABCDEFGHIJKL"]}
    first = post("/v1/malmsturm/initiative", {**body, "seed": 3})[1]
    events = first["randomness"]["events"]
    assert len(events) > 12  # twelve equal intuitions: some totals tie and are rolled off
    assert sum(len(entry["roll_offs"]) for entry in first["result"]["order"]) == len(events) - 12
    replay = post("/v1/malmsturm/initiative", {**body, "manual": manual_values(events)})[1]
    assert replay["result"] == first["result"]


def test_action_envelope_and_summaries(post, client):
    body = {"skill": 3, "difficulty": 2, "manual": [1, 0, 0, 0]}
    status, en = post("/v1/malmsturm/action", body)
    assert status == 200
    assert en["operation"] == "malmsturm.action" and en["request"]["modifier"] == 0
    assert en["result"] == {"dice": [1, 0, 0, 0], "total": 4, "label": "great", "success": True,
                            "shifts": 2, "margin": 2}
    assert en["summary"] == "Simple action against fair (+2): [+ 0 0 0] → great (+4). Success with 2 shifts."
    de = post("/v1/malmsturm/action?lang=de", body)[1]
    assert de["result"]["label"] == "hervorragend"
    assert de["summary"] == ("Einfache Aktion gegen passabel (+2): [+ 0 0 0] → hervorragend (+4). "
                             "Gelungen mit 2 Erfolgen.")
    by_header = client.post("/v1/malmsturm/action", json=body, headers={"Accept-Language": "de"}).get_json()
    assert by_header["lang"] == "de"


def test_contest_summary_names_the_winner_or_the_tie(post):
    body = {"a": {"name": "Dieb", "skill": 3}, "b": {"name": "Händler", "skill": 2}}
    won = post("/v1/malmsturm/contest", {**body, "manual": [0, 0, 0, 0, -1, 0, 0, 0]})[1]
    assert won["result"]["winner"] == "a" and won["result"]["shifts"] == 2
    assert won["summary"] == ("Contest: Dieb [0 0 0 0] good (+3) against Händler [− 0 0 0] average (+1). "
                              "Dieb wins with 2 shifts.")
    tie = post("/v1/malmsturm/contest?lang=de", {**body, "manual": [-1, 0, 0, 0, 0, 0, 0, 0]})[1]
    assert tie["result"]["winner"] is None
    assert tie["summary"].endswith("Gleichstand, niemand gewinnt.")


@pytest.mark.parametrize("lang,low,good,high", [("de", "hoffnungslos", "gut", "unvergleichlich"),
                                                ("en", "hopeless", "good", "legendary")])
def test_ladder_lookup_in_the_requested_language(client, lang, low, good, high):
    response = client.get(f"/v1/malmsturm/ladder?lang={lang}")
    assert response.status_code == 200
    body = response.get_json()
    levels = body["result"]["levels"]
    assert body["operation"] == "malmsturm.ladder" and "receipt" in body
    assert levels[0] == {"value": -4, "label": low, "open_end": "below"}
    assert {"value": 3, "label": good, "open_end": None} in levels
    assert levels[-1] == {"value": 7, "label": high, "open_end": "above"}


def test_catalogue_lists_consequences_and_the_ladder(client):
    systems = {s["id"]: s for s in client.get("/v1/systems").get_json()["systems"]}
    malmsturm = systems["malmsturm"]
    assert {(op["id"], op["method"], op["path"]) for op in malmsturm["operations"]} == {
        ("malmsturm.ladder", "GET", "/v1/malmsturm/ladder"),
        ("malmsturm.action", "POST", "/v1/malmsturm/action"),
        ("malmsturm.action.odds", "POST", "/v1/malmsturm/action/odds"),
        ("malmsturm.contest", "POST", "/v1/malmsturm/contest"),
        ("malmsturm.contest.odds", "POST", "/v1/malmsturm/contest/odds"),
        ("malmsturm.initiative", "POST", "/v1/malmsturm/initiative"),
        ("malmsturm.initiative.odds", "POST", "/v1/malmsturm/initiative/odds"),
        ("malmsturm.attack", "POST", "/v1/malmsturm/attack"),
        ("malmsturm.attack.odds", "POST", "/v1/malmsturm/attack/odds"),
        ("malmsturm.encounter", "POST", "/v1/malmsturm/encounter"),
        ("malmsturm.encounter.odds", "POST", "/v1/malmsturm/encounter/odds"),
        ("malmsturm.encounter.advice", "POST", "/v1/malmsturm/encounter/advice"),
    }
    severities = {c["severity"]: c for c in malmsturm["consequences"]}
    assert severities["mild"]["recovery"] == "after a short breather"
    assert severities["moderate"]["recovery"] == "after about half a day"
    assert severities["severe"]["recovery"] == "after several days"
    assert malmsturm["enums"]["ladder"][3]["de"] == "unterdurchschnittlich"
    assert malmsturm["enums"]["attack_track"]["push"] == "physical"


def test_odds_twins_return_exact_fractions(post):
    status, body = post("/v1/malmsturm/action/odds", {"skill": 2, "difficulty": 2})
    assert status == 200 and body["operation"] == "malmsturm.action.odds"
    outcomes = {o["outcome"]: o["exact"] for o in body["odds"]["outcomes"]}
    assert outcomes == {"success": "50/81", "failure": "31/81"}  # P(4dF >= 0) = (19+16+10+4+1)/81
    contest = post("/v1/malmsturm/contest/odds", {"a": {"skill": 1}, "b": {"skill": 1}})[1]
    names = {o["outcome"]: o["exact"] for o in contest["odds"]["outcomes"]}
    assert names["a"] == names["b"] and set(names) == {"a", "b", "tie"}
    first = post("/v1/malmsturm/initiative/odds", {"participants": [{"name": "A", "intuition": 1},
                                                                    {"name": "B", "intuition": 1}]})[1]
    assert [o["outcome"] for o in first["odds"]["outcomes"]] == ["first:A", "first:B"]
    attack = post("/v1/malmsturm/attack/odds", ATTACK)[1]
    assert {o["outcome"] for o in attack["odds"]["outcomes"]} == {"hit", "miss", "consequence", "taken_out"}


def test_openapi_states_the_rulings(client):
    spec = client.get("/openapi.json").get_json()
    attack = spec["paths"]["/v1/malmsturm/attack"]["post"]
    assert attack["operationId"] == "malmsturm.attack"
    assert "Ruling 5" in attack["description"] and "take_consequence_early" in attack["description"]
    assert "Ruling 4" in spec["paths"]["/v1/malmsturm/initiative"]["post"]["description"]
    assert spec["paths"]["/v1/malmsturm/ladder"]["get"]["operationId"] == "malmsturm.ladder"


def _attack(**changes):
    body = {"attacker": dict(ATTACK["attacker"]), "defender": {**ATTACK["defender"], "stress": {
        "physical": dict(STRESS["physical"]), "mental": dict(STRESS["mental"])}}}
    for path, value in changes.items():
        *parents, leaf = path.split("__")
        target = body
        for parent in parents:
            target = target[parent]
        target[leaf] = value
    return body


@pytest.mark.parametrize("path,body,field", [
    ("/v1/malmsturm/attack", _attack(attacker__attack="stab"), "attacker.attack"),
    ("/v1/malmsturm/attack", _attack(defender__stress__physical__current=4), "defender.stress.physical.current"),
    ("/v1/malmsturm/attack", _attack(defender__stress__mental__max=0), "defender.stress.mental.max"),
    ("/v1/malmsturm/attack", _attack(defender__consequences=3), "defender.consequences"),
    ("/v1/malmsturm/attack", _attack(defender__consequences=-1), "defender.consequences"),
    ("/v1/malmsturm/attack", _attack(attacker__skill=21), "attacker.skill"),
    ("/v1/malmsturm/attack", _attack(defender__wounds=1), "defender.wounds"),
    ("/v1/malmsturm/attack", _attack(take_consequence_early="yes"), "take_consequence_early"),
    ("/v1/malmsturm/action", {"skill": 50, "difficulty": 2}, "skill"),
    ("/v1/malmsturm/action", {"skill": 2, "difficulty": -11}, "difficulty"),
    ("/v1/malmsturm/action", {"skill": 2, "difficulty": 2, "modifier": 21}, "modifier"),
    ("/v1/malmsturm/action", {"skill": "3", "difficulty": 2}, "skill"),
    ("/v1/malmsturm/action", {"skill": 2}, "difficulty"),
    ("/v1/malmsturm/action", {"skill": 2, "difficulty": 2, "seed": 1, "manual": [0, 0, 0, 0]}, "manual"),
    ("/v1/malmsturm/action", {"skill": 2, "difficulty": 2, "manual": [0, 0, 2, 0]}, "manual.2"),
    ("/v1/malmsturm/action", {"skill": 2, "difficulty": 2, "manual": [0, 0, 0]}, "manual"),
    ("/v1/malmsturm/action", {"skill": 2, "difficulty": 2, "manual": [0, 0, 0, 0, 1]}, "manual.4"),
    ("/v1/malmsturm/action/odds", {"skill": 2, "difficulty": 2, "seed": 1}, "seed"),
    ("/v1/malmsturm/contest", {"a": {"skill": 2}}, "b"),
    ("/v1/malmsturm/contest", {"a": {"skill": 2}, "b": {"skill": 2, "intuition": 1}}, "b.intuition"),
    ("/v1/malmsturm/initiative", {"participants": []}, "participants"),
    ("/v1/malmsturm/initiative", {"participants": [{"name": f"P{i}", "intuition": 0} for i in range(21)]},
     "participants"),
    ("/v1/malmsturm/initiative", {"participants": [{"name": "Ork", "intuition": 1}, {"name": "Ork", "intuition": 2}]},
     "participants.1.name"),
    ("/v1/malmsturm/initiative", {"participants": [{"name": "", "intuition": 1}]}, "participants.0.name"),
    ("/v1/malmsturm/initiative", {"participants": [{"name": "Ork", "intuition": 99}]}, "participants.0.intuition"),
])
def test_bad_bodies_are_422_naming_the_field(post, path, body, field):
    status, problem = post(path, body)
    assert status == 422, problem
    assert field in problem["errors"], problem
    assert problem["type"].startswith("https://wurfwerk.dev/problems/")


def test_skill_limit_message_explains_the_range(post):
    problem = post("/v1/malmsturm/action", {"skill": 21, "difficulty": 2})[1]
    message = problem["errors"]["skill"][0]
    assert "-10" in message and "+20" in message and "ladder" in message


def test_participants_limit_message_names_the_limit(post):
    problem = post("/v1/malmsturm/initiative",
                   {"participants": [{"name": f"P{i}", "intuition": 0} for i in range(21)]})[1]
    assert "the most participants in one contest or party" in problem["errors"]["participants"][0]
    assert problem["limit"]["setting"] == "WURFWERK_MAX_PARTICIPANTS"


def test_malformed_json_and_wrong_method(client):
    bad = client.post("/v1/malmsturm/action", data="{", content_type="application/json")
    assert bad.status_code == 400
    assert client.get("/v1/malmsturm/action").status_code == 405
    assert client.post("/v1/malmsturm/ladder", json={}).status_code == 405


def test_sdk_methods_cover_every_malmsturm_operation(sdk):
    m = sdk.malmsturm
    assert m.ladder().result.levels[0].value == -4
    assert m.action(skill=3, difficulty=2, seed=4).result.total in range(-1, 8)
    assert m.action_odds(skill=3, difficulty=2).operation == "malmsturm.action.odds"
    assert m.contest(a={"skill": 2}, b={"skill": 2}, seed=1).operation == "malmsturm.contest"
    assert m.contest_odds(a={"skill": 2}, b={"skill": 2}).odds.outcomes
    assert len(m.initiative(participants=[{"name": "A", "intuition": 1}], seed=2).result.order) == 1
    assert m.initiative_odds(participants=[{"name": "A", "intuition": 1}]).odds.outcomes[0].exact == "1/1"
    assert m.attack(seed=3, **ATTACK).result.track == "physical"
    assert m.attack_odds(**ATTACK).odds.distributions["shifts"]


def test_an_undefended_attack_over_http(post):
    """Ruling 5: „kann sich mit einem Fertigkeitswurf verteidigen“ – `defend: false` rolls no defense dice."""
    body = {"attacker": {"name": "Ragna", "skill": 3, "attack": "harm"},
            "defender": {"name": "Ork", "stress": {"physical": {"current": 2, "max": 3},
                                                   "mental": {"current": 2, "max": 2}}},
            "defend": False, "manual": [0, 0, 0, 0]}
    status, response = post("/v1/malmsturm/attack?lang=de", body)
    assert status == 200, response
    result = response["result"]
    assert result["defended"] is False and result["defender"]["dice"] == [] and result["shifts"] == 3
    assert result["consequence_reason"] == "stress_spent"
    assert result["suggested_consequences"] == [
        {"de": "Körperliche Verwundung", "en": "physical wound", "label": "Körperliche Verwundung"}]
    assert response["summary"] == (
        "Angriff: Ragna [0 0 0 0] gut (+3) gegen Ork ohne Verteidigung, Schwierigkeit mäßig (±0). Treffer mit "
        "3 Erfolgen: Ork verliert 3 körperliche Belastungspunkte. Die Belastung ist aufgebraucht: Ork erleidet eine "
        "Konsequenz, die Belastungspunkte werden wieder auf 3 aufgefüllt. Vorschlag: Körperliche Verwundung.")


@pytest.mark.parametrize("body, field", [
    ({"attacker": {"skill": 3, "attack": "harm"},
      "defender": {"stress": {"physical": {"current": 2, "max": 3}, "mental": {"current": 2, "max": 2}}}},
     "defender.skill"),
    ({"attacker": {"skill": 3, "attack": "harm"}, "difficulty": 2,
      "defender": {"skill": 1, "stress": {"physical": {"current": 2, "max": 3}, "mental": {"current": 2, "max": 2}}}},
     "difficulty"),
    ({"skill": 1, "difficulty": 0, "dice": 9}, "dice"),
    ({"skill": 1, "difficulty": 0, "dice": 0}, "dice"),
])
def test_defense_and_dice_are_checked(post, body, field):
    path = "/v1/malmsturm/attack" if "attacker" in body else "/v1/malmsturm/action"
    status, problem = post(path, body)
    assert status == 422 and field in str(problem), problem


def test_dice_on_a_rolling_operation_and_its_odds(post):
    """Ruling 7: „meistens 4“ – two dF roll two values, and the odds follow."""
    status, response = post("/v1/malmsturm/action", {"skill": 1, "difficulty": 2, "dice": 2, "manual": [1, 0]})
    assert status == 200, response
    assert response["result"]["dice"] == [1, 0] and response["result"]["success"] is True
    status, odds = post("/v1/malmsturm/action/odds", {"skill": 1, "difficulty": 2, "dice": 2})
    assert status == 200
    success = next(o for o in odds["odds"]["outcomes"] if o["outcome"] == "success")
    assert success["exact"] == "1/3"  # 2dF ≥ +1: (+,0), (0,+), (+,+) of nine
