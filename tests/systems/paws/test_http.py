"""Paws over HTTP and through the SDK: envelopes, replay, languages, odds documents, bad input."""

from __future__ import annotations

from fractions import Fraction

import pytest

from service.platform.dice.randomness import manual_values

RYNN = {"name": "Rynn", "rank": 2, "advantages": {"equipment": "active", "situation": "active"}}
OPPONENT = {"name": "Gegner", "rank": 2, "advantages": {"personal": "passive", "equipment": "passive"}}
CHARACTER = {"potential": 3, "power": 15,
             "traits": [{"name": f"gut{i}", "rank": 3} for i in range(6)] + [{"name": "gut6", "rank": 2}]
             + [{"name": "feige", "rank": 3, "bad": True}, {"name": "gierig", "rank": 2, "bad": True}]}


def test_ryans_jump_over_http(post):
    status, body = post("/v1/paws/test", {"name": "Ryan", "rank": 2, "manual": [4, 6]})
    assert status == 200, body
    assert body["operation"] == "paws.test"
    assert body["result"] == {"pool": {"dice": 2, "rescue_dice": 0}, "dice": [4, 6], "successes": 2,
                              "success": True, "effects": 1, "catastrophe": False, "rescue": None,
                              "narrator": "gm"}
    assert body["randomness"] == {"source": "manual", "events": [{"kind": "d6", "values": [4, 6]}]}
    assert body["request"]["fit"] == "matching" and body["request"]["manual"] == [4, 6]
    assert body["summary"] == ("Ryan: Test with 2d6: 4, 6 → 2 successes. The test succeeds with 1 effect. "
                               "The GM narrates.")


def test_german_summary(post):
    status, body = post("/v1/paws/test?lang=de", {"name": "Ryan", "rank": 2, "manual": [1, 1]})
    assert status == 200 and body["lang"] == "de"
    assert body["summary"] == "Ryan – Probe mit 2W6: 1, 1 → kein Erfolg. Katastrophe! Ryan erzählt."  # review row 34
    assert body["result"]["catastrophe"] is True


@pytest.mark.parametrize("path, body", [
    ("/v1/paws/test", {"rank": 3, "fit": "specialized", "extra_rescue_dice": 2, "wounds": 1}),
    ("/v1/paws/comparison", {"a": RYNN, "b": OPPONENT}),
    ("/v1/paws/comparison", {"a": RYNN, "b": OPPONENT, "mode": "defense"}),
    ("/v1/paws/rescue", {"dice": 4}),
])
def test_events_fed_back_as_manual_reproduce_the_result(post, path, body):
    for seed in range(12):  # several seeds, so rescue dice are rolled in some of them
        status, rolled = post(path, {**body, "seed": seed})
        assert status == 200, rolled
        assert rolled["randomness"]["source"] == "seeded"
        status, replayed = post(path, {**body, "manual": manual_values(rolled["randomness"]["events"])})
        assert status == 200, replayed
        assert replayed["result"] == rolled["result"]


def test_seeded_requests_repeat(post):
    first = post("/v1/paws/comparison", {"a": RYNN, "b": OPPONENT, "seed": 99})[1]
    second = post("/v1/paws/comparison", {"a": RYNN, "b": OPPONENT, "seed": 99})[1]
    assert first["result"] == second["result"]


def test_rynn_against_her_opponent_over_http(post):
    body = {"a": RYNN, "b": OPPONENT, "manual": [4, 5, 1, 2, 1, 3, 6, 5]}
    status, response = post("/v1/paws/comparison?lang=de", body)
    assert status == 200, response
    result = response["result"]
    assert (result["winner"], result["net"], result["effects"], result["attack_lands"]) == (None, 0, 0, None)
    assert result["b"]["rescue"] == {"dice": [6, 5], "successes": 2, "cancelled": 2, "rescued": True,
                                     "catastrophe_averted": False}
    assert result["a"]["pool"] == {"dice": 4, "rescue_dice": 0}
    assert "Gleichstand" in response["summary"]


def test_defense_over_http(post):
    body = {"a": {"name": "Ryan", "rank": 3}, "b": {"name": "Jack", "rank": 2}, "mode": "defense",
            "manual": [4, 6, 1, 5, 2]}
    status, response = post("/v1/paws/comparison", body)
    assert status == 200
    assert response["result"]["attack_lands"] is True and response["result"]["winner"] == "a"
    assert response["summary"] == "Ryan attacks Jack: 2:1. The attack lands by one success. Jack narrates."


def test_group_rescue_over_http(post):
    status, response = post("/v1/paws/rescue?lang=de", {"dice": 3, "manual": [6, 3, 4]})
    assert status == 200
    assert response["result"] == {"dice": [6, 3, 4], "successes": 2}
    assert response["summary"] == "Rettungswürfel (3W6): 6, 3, 4 → 2 Erfolge, sie wenden 2 negative Effekte ab."


def test_validate_character_with_twenty_good_and_five_bad_ranks(post):
    status, response = post("/v1/paws/validate-character", CHARACTER)
    assert status == 200, response
    assert response["result"]["valid"] is True and response["result"]["power_used"] == 15
    assert response["result"]["problems"] == [] and "randomness" not in response


def test_validate_character_lists_every_problem_in_the_language(post):
    # 23 good ranks, bad "feige" 3 and again "feige" 4: 23 - 7 = 16.
    body = {**CHARACTER, "traits": CHARACTER["traits"][:-1] + [{"name": "feige", "rank": 4, "bad": True},
                                                             {"name": "stark", "rank": 3}]}
    status, response = post("/v1/paws/validate-character?lang=de", body)
    assert status == 200
    assert response["result"]["valid"] is False
    assert response["result"]["problems"] == [
        "Eigenschaft „feige“ ist mehrfach aufgeführt",
        "schlechte Eigenschaft „feige“ hat Rang 4, über dem Potenzial (3)",
        "gute minus schlechte Ränge ergeben 16, mehr als die Macht (15)",
    ]
    assert [issue["kind"] for issue in response["result"]["issues"]] == [
        "duplicate_trait", "over_potential", "over_power"]


def test_validate_character_with_categories(post):
    body = {"potential": 3, "power": 0,
            "categories": [{"name": "Magie", "potential": 2, "power": 3}],
            "traits": [{"name": "Feuer", "rank": 2, "category": "Magie"},
                       {"name": "Eis", "rank": 2, "category": "Magie"}]}
    status, response = post("/v1/paws/validate-character", body)
    assert status == 200
    assert response["result"]["categories"] == [{"name": "Magie", "potential": 2, "power": 3, "power_used": 4}]
    assert response["result"]["problems"] == [
        "category “Magie”: good minus bad ranks come to 4, more than its power (3)"]


def test_the_rescued_catastrophe_of_the_issue(post):
    """„Durch Rettungswürfel kann eine Katastrophe abgewendet oder ein Vergleich zum Unentschieden
    gerettet … werden“ (ruling Paws 3) and „Bei … unentschiedenen Vergleichen übernimmt diese Aufgabe
    der Spielleiter.“ (ruling Paws 7): the tie carries no catastrophe, the line says what the rescue
    success did and who narrates."""
    body = {"a": {"name": "Rynn", "rank": 1},
            "b": {"name": "Gegner", "rank": 2, "advantages": {"equipment": "passive"}},
            "manual": [5, 1, 1, 6]}
    status, response = post("/v1/paws/comparison?lang=de", body)
    assert status == 200, response
    result = response["result"]
    assert (result["winner"], result["b"]["catastrophe"], result["narrator"]) == (None, False, "gm")
    assert result["b"]["rescue"]["catastrophe_averted"] is True
    assert response["summary"] == (
        "Vergleich Rynn gegen Gegner: 1:0. Katastrophe für Gegner! Rettungswürfel für Gegner: 6 → 1 Erfolg. Das hebt "
        "den Vorsprung von Rynn auf; der Gleichstand wendet auch die Katastrophe ab. Gleichstand. "
        "Der Spielleiter erzählt.")


def test_a_category_with_only_a_potential(post):
    """„für bestimmte Kategorien ein eigenes Potenzial oder eine eigene Machtstufe fest zu legen“
    (ruling Paws 6): a category with only `potential` is no longer a 422."""
    body = {"potential": 3, "power": 4, "categories": [{"name": "Magie", "potential": 2}],
            "traits": [{"name": "athletisch", "rank": 2}, {"name": "Feuer", "rank": 2, "category": "Magie"}]}
    status, response = post("/v1/paws/validate-character", body)
    assert status == 200, response
    assert response["result"]["valid"] is True and response["result"]["power_used"] == 4
    assert response["result"]["categories"] == [{"name": "Magie", "potential": 2, "power": None, "power_used": 2}]


# --- odds ---------------------------------------------------------------------------------------

def _exact(entries) -> dict:
    return {entry.get("outcome", entry.get("value")): Fraction(entry["exact"]) for entry in entries}


def test_test_odds_document(post):
    status, response = post("/v1/paws/test/odds", {"rank": 2})
    assert status == 200 and response["operation"] == "paws.test.odds"
    outcomes = _exact(response["odds"]["outcomes"])
    assert outcomes == {"success": Fraction(3, 4), "failure": Fraction(2, 9), "catastrophe": Fraction(1, 36)}
    assert sum(outcomes.values()) == 1
    assert response["odds"]["expected"]["successes"] == 1.0


def test_comparison_odds_document(post):
    status, response = post("/v1/paws/comparison/odds", {"a": RYNN, "b": OPPONENT, "mode": "defense"})
    assert status == 200
    outcomes = _exact(response["odds"]["outcomes"])
    assert set(outcomes) == {"a", "b", "tie"} and outcomes["b"] == 0 and sum(outcomes.values()) == 1
    assert sum(_exact(response["odds"]["distributions"]["net"]).values()) == 1


def test_odds_refuse_seed_and_manual(post):
    status, response = post("/v1/paws/test/odds", {"rank": 2, "seed": 1})
    assert status == 422 and "seed" in response["errors"]


def test_odds_of_the_largest_comparison_over_http(post):
    big = {"rank": 10, "extra_bonus_dice": 90, "extra_rescue_dice": 100}
    status, response = post("/v1/paws/comparison/odds", {"a": big, "b": big})
    assert status == 200
    assert sum(_exact(response["odds"]["outcomes"]).values()) == 1


# --- the SDK ------------------------------------------------------------------------------------

def test_sdk_methods(sdk):
    assert sdk.paws.test(rank=2, manual=[4, 6]).result.effects == 1
    assert sdk.paws.test_odds(rank=1).odds.outcomes[0].outcome == "success"
    assert sdk.paws.comparison(a=RYNN, b=OPPONENT, manual=[4, 5, 6, 2, 1, 3, 6, 2]).result.net == 2
    assert sdk.paws.comparison_odds(a=RYNN, b=OPPONENT).operation == "paws.comparison.odds"
    assert sdk.paws.rescue(dice=2, manual=[1, 6]).result.successes == 1
    assert sdk.paws.rescue_odds(dice=2).odds.distributions["successes"][0].exact == "1/4"
    assert sdk.paws.validate_character(**CHARACTER).result.valid is True


def test_sdk_raises_invalid_request(sdk):
    from wurfwerk.errors import InvalidRequest

    with pytest.raises(InvalidRequest) as raised:
        sdk.paws.test(rank=11)
    assert "rank" in raised.value.errors


# --- bad input ----------------------------------------------------------------------------------

@pytest.mark.parametrize("path, body, field", [
    ("/v1/paws/test", {"rank": 11}, "rank"),
    ("/v1/paws/test", {"rank": -1}, "rank"),
    ("/v1/paws/test", {"rank": 2.5}, "rank"),
    ("/v1/paws/test", {"rank": "2"}, "rank"),
    ("/v1/paws/test", {}, "rank"),
    ("/v1/paws/test", {"rank": 2, "advantages": {"equipment": ["active", "passive"]}}, "advantages.equipment"),
    ("/v1/paws/test", {"rank": 2, "advantages": {"equipment": "active+passive"}}, "advantages.equipment"),
    ("/v1/paws/test", {"rank": 2, "advantages": {"equipment": 2}}, "advantages.equipment"),
    ("/v1/paws/test", {"rank": 2, "advantages": {"magic": "active"}}, "advantages.magic"),
    ("/v1/paws/test", {"rank": 2, "fit": "perfect"}, "fit"),
    ("/v1/paws/test", {"rank": 2, "wounds": -1}, "wounds"),
    ("/v1/paws/test", {"rank": 2, "extra_bonus_dice": -1}, "extra_bonus_dice"),
    ("/v1/paws/test", {"rank": 2, "colour": "red"}, "colour"),
    ("/v1/paws/test", {"rank": 2, "seed": 1, "manual": [4, 4]}, "manual"),
    ("/v1/paws/test", {"rank": 2, "manual": [4]}, "manual"),
    ("/v1/paws/test", {"rank": 2, "manual": [4, 7]}, "manual.1"),
    ("/v1/paws/test", {"rank": 2, "manual": [4, 4, 4]}, "manual.2"),
    ("/v1/paws/test", {"rank": 10, "extra_bonus_dice": 91}, "extra_bonus_dice"),
    ("/v1/paws/test", {"rank": 10, "extra_bonus_dice": 101}, "extra_bonus_dice"),
    ("/v1/paws/test", {"rank": 1, "advantages": {"equipment": "passive"}, "extra_rescue_dice": 100},
     "extra_rescue_dice"),
    ("/v1/paws/test/odds", {"rank": 10, "extra_bonus_dice": 91}, "extra_bonus_dice"),
    ("/v1/paws/comparison", {"a": {"rank": 2}}, "b"),
    ("/v1/paws/comparison", {"b": {"rank": 2}}, "a"),
    ("/v1/paws/comparison", {"a": {"rank": 2}, "b": {"rank": 2}, "mode": "duel"}, "mode"),
    ("/v1/paws/comparison", {"a": {"rank": 2}, "b": {"rank": 2, "wounds": -2}}, "b.wounds"),
    ("/v1/paws/comparison/odds", {"a": {"rank": 2}, "b": {"rank": 2, "extra_bonus_dice": 100}},
     "b.extra_bonus_dice"),
    ("/v1/paws/rescue", {"dice": 0}, "dice"),
    ("/v1/paws/rescue", {"dice": 101}, "dice"),
    ("/v1/paws/validate-character", {"potential": 3, "power": 15, "traits": [{"name": "x", "rank": 0}]},
     "traits.0.rank"),
    ("/v1/paws/validate-character", {"potential": 3, "power": 15,
                                     "traits": [{"name": "x", "rank": 1, "category": "Magie"}]},
     "traits.0.category"),
    ("/v1/paws/validate-character", {"potential": 3, "power": 15, "traits": [],
                                     "categories": [{"name": "M", "potential": 2, "power": 5},
                                                    {"name": "M", "potential": 2, "power": 5}]},
     "categories.1.name"),
    ("/v1/paws/validate-character", {"potential": 0, "power": 15, "traits": []}, "potential"),
    ("/v1/paws/validate-character", {"potential": 3, "traits": []}, "power"),
])
def test_bad_input_is_a_422_naming_the_field(post, path, body, field):
    status, problem = post(path, body)
    assert status == 422, problem
    assert problem["type"].startswith("https://wurfwerk.dev/problems/")
    assert field in problem["errors"], problem["errors"]


def test_pool_limit_message_names_the_limit(post):
    status, problem = post("/v1/paws/test", {"rank": 10, "extra_bonus_dice": 91})
    assert status == 422
    assert "the most dice in one pool" in problem["errors"]["extra_bonus_dice"][0]
    assert problem["limit"]["name"] == "pool_dice"


def test_two_advantages_in_one_category_name_the_ruling(post):
    status, problem = post("/v1/paws/test", {"rank": 2, "advantages": {"situation": ["active", "active"]}})
    assert status == 422
    assert "one advantage per category" in problem["errors"]["advantages.situation"][0]


def test_the_dice_limit_counts_the_dice_rolled_after_wounds(post):
    # The limit is on the dice rolled: 110 gross dice with 10 wounds roll 100.
    status, response = post("/v1/paws/test/odds", {"rank": 10, "extra_bonus_dice": 100, "wounds": 10})
    assert status == 200, response


def test_malformed_json_is_a_400(client):
    response = client.post("/v1/paws/test", data="{", content_type="application/json")
    assert response.status_code == 400


# --- the catalogue and the spec -----------------------------------------------------------------

def test_catalogue_lists_paws(client):
    systems = client.get("/v1/systems").get_json()["systems"]
    paws = next(entry for entry in systems if entry["id"] == "paws")
    assert {operation["id"] for operation in paws["operations"]} == {
        "paws.test", "paws.test.odds", "paws.test.advice", "paws.comparison", "paws.comparison.odds",
        "paws.comparison.advice", "paws.rescue",
        "paws.rescue.odds", "paws.validate-character", "paws.encounter", "paws.encounter.odds",
        "paws.encounter.advice"}
    assert paws["glossary"]["Rettungswürfel"] and paws["enums"]["fit"] == ["fallback", "matching", "specialized"]


def test_spec_documents_the_rulings(client):
    spec = client.get("/openapi.json").get_json()
    operations = {operation["operationId"]: operation
                  for item in spec["paths"].values() for operation in item.values()
                  if isinstance(operation, dict) and "operationId" in operation}
    for operation_id in ("paws.test", "paws.test.odds", "paws.comparison", "paws.comparison.odds",
                         "paws.rescue", "paws.rescue.odds", "paws.validate-character"):
        assert operation_id in operations
    assert "Ruling 3" in operations["paws.test"]["description"]
    assert "Ruling 4" in operations["paws.comparison"]["description"]
    assert "Ruling 6" in operations["paws.validate-character"]["description"]
