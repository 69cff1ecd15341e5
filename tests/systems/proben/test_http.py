"""Proben over HTTP and through the SDK: envelope, summaries, replay, bad input."""

from __future__ import annotations

import pytest

from service.platform.dice.randomness import manual_values


def test_test_envelope_and_replay(post):
    status, body = post("/v1/proben/test", {"attribute": 4, "skill": 2, "difficulty": 2, "seed": 99})
    assert status == 200
    assert body["operation"] == "proben.test"
    assert body["request"]["skill_dice"] == 2  # defaults filled in
    assert body["randomness"]["source"] == "seeded"
    assert body["result"]["dice"] == body["randomness"]["events"][0]["values"]
    again = post("/v1/proben/test", {"attribute": 4, "skill": 2, "difficulty": 2, "seed": 99})[1]
    assert again["result"] == body["result"]
    replay = post("/v1/proben/test", {"attribute": 4, "skill": 2, "difficulty": 2,
                                      "manual": manual_values(body["randomness"]["events"])})[1]
    assert replay["result"] == body["result"] and replay["randomness"]["source"] == "manual"


def test_summary_in_german_and_english(post, client):
    body = {"name": "Alrik", "attribute": 3, "difficulty": 2, "manual": [5, 6, 1]}
    en = post("/v1/proben/test", body)[1]
    de = post("/v1/proben/test?lang=de", body)[1]
    # ruling 7: the difficulty's name; review row 34: one colon per German sentence
    assert en["summary"] == "Alrik: Test with 3d6 against difficulty 2 (standard): 5, 6, 1 → 2 successes. Success."
    assert de["summary"] == "Alrik – Probe mit 3W6 gegen Schwierigkeit 2 (Standard): 5, 6, 1 → 2 Erfolge. Gelungen."
    by_header = client.post("/v1/proben/test", json=body, headers={"Accept-Language": "de-DE,de;q=0.9"})
    assert by_header.get_json()["lang"] == "de"
    assert en["result"] == de["result"]


@pytest.mark.parametrize("path,body", [
    ("/v1/proben/opposed", {"a": {"attribute": 2}, "b": {"attribute": 3}, "seed": 1}),
    ("/v1/proben/cooperation", {"leader": {"attribute": 2}, "helpers": [{"attribute": 1}], "difficulty": 2, "seed": 1}),
    ("/v1/proben/extended", {"attribute": 3, "required": 2, "interval": {"amount": 10, "unit": "minutes"}, "seed": 1}),
])
def test_every_rolling_operation_replays_from_its_events(post, path, body):
    first = post(path, body)[1]
    manual = dict(body)
    manual.pop("seed")
    manual["manual"] = manual_values(first["randomness"]["events"])
    status, replay = post(path, manual)
    assert status == 200 and replay["result"] == first["result"]


def test_odds_twins_return_exact_fractions(post):
    status, body = post("/v1/proben/opposed/odds", {"a": {"attribute": 2}, "b": {"attribute": 2}, "allow_tie": True})
    assert status == 200
    outcomes = {o["outcome"]: o for o in body["odds"]["outcomes"]}
    assert set(outcomes) == {"a", "b", "tie"}
    assert outcomes["a"]["exact"] == outcomes["b"]["exact"]


@pytest.mark.parametrize("body,field", [
    ({"attribute": -1, "difficulty": 1}, "attribute"),
    ({"attribute": "3", "difficulty": 1}, "attribute"),
    ({"attribute": True, "difficulty": 1}, "attribute"),
    ({"attribute": 3}, "difficulty"),
    ({"attribute": 3, "difficulty": 0}, "difficulty"),
    ({"attribute": 3, "difficulty": 1, "colour": "red"}, "colour"),
    ({"attribute": 101, "difficulty": 1}, "attribute"),
    ({"attribute": 60, "skill": 50, "difficulty": 1}, "body"),
    ({"attribute": 3, "skill": 1, "skill_dice": 2, "difficulty": 1}, "skill_dice"),
    ({"attribute": 3, "difficulty": 1, "success_rule": "beat"}, "success_rule"),
    ({"attribute": 3, "difficulty": 1, "seed": 1, "manual": [1, 2, 3]}, "manual"),
    ({"attribute": 3, "difficulty": 1, "seed": -1}, "seed"),
    ({"attribute": 3, "difficulty": 1, "manual": [1, 2]}, "manual"),
    ({"attribute": 3, "difficulty": 1, "manual": [1, 2, 3, 4]}, "manual.3"),
    ({"attribute": 3, "difficulty": 1, "manual": [1, 2, 7]}, "manual.2"),
    ({"attribute": 3, "difficulty": 1, "manual": [1, "red", 3]}, "manual.1"),
])
def test_bad_test_bodies_name_the_field(post, body, field):
    status, problem = post("/v1/proben/test", body)
    assert status == 422
    assert field in problem["errors"], problem
    assert problem["type"].startswith("https://wurfwerk.dev/problems/")


def test_limit_message_names_the_limit(post):
    problem = post("/v1/proben/test", {"attribute": 101, "difficulty": 1})[1]
    assert "the most dice in one pool" in problem["errors"]["attribute"][0]
    assert problem["limit"] == {"name": "pool_dice", "value": 100, "setting": "WURFWERK_MAX_POOL_DICE"}


def test_missing_side_of_an_opposed_test(post):
    status, problem = post("/v1/proben/opposed", {"a": {"attribute": 2}})
    assert status == 422 and "b" in problem["errors"]


def test_sdk_methods_cover_every_proben_operation(sdk):
    assert sdk.proben.test(attribute=3, difficulty=2, seed=4).result.dice_count == 3
    assert sdk.proben.test_odds(attribute=3, difficulty=2).odds.outcomes[0].outcome == "success"
    assert sdk.proben.opposed(a={"attribute": 2}, b={"attribute": 2}, seed=1).result.decided_by
    assert sdk.proben.opposed_odds(a={"attribute": 2}, b={"attribute": 2}).operation == "proben.opposed.odds"
    cooperation = sdk.proben.cooperation(leader={"attribute": 2}, helpers=[{"attribute": 1}], difficulty=1, seed=2)
    assert cooperation.result.leader
    assert sdk.proben.cooperation_odds(leader={"attribute": 2}, helpers=[{"attribute": 1}], difficulty=1).odds
    assert sdk.proben.extended(attribute=3, required=2, seed=3).result.rolls_used >= 1
    assert sdk.proben.extended_odds(attribute=3, required=2).odds.distributions["rolls_used"]


def test_extended_with_no_dice_fails_at_once(post):
    """Found by schemathesis: a pool of no dice makes no roll, and no time passes."""
    status, body = post("/v1/proben/extended", {"attribute": 3, "disadvantages": 5, "required": 2,
                                                "interval": {"amount": 1, "unit": "hours"}})
    assert status == 200
    assert body["result"] == {"rolls": [], "success": False, "rolls_used": 0,
                              "elapsed": {"amount": 0, "unit": "hours"}}
