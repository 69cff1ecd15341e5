"""Bad input over HTTP: every client mistake is a 4xx problem that names the field; the two-phase
choices; the SDK; responses against their documented result schemas."""

from __future__ import annotations

import copy

import pytest

from service.systems.beutelschneider import schemas

BASE = "/v1/beutelschneider"
BAG = {"red": 9, "green": 6, "blue": 0, "white": 5, "black": 0}
WOUNDED = {"red": 8, "green": 6, "white": 3, "black": 3}
PROBLEM = "https://wurfwerk.dev/problems/"


def problem(post, path, body, field, slug="validation-error"):
    status, response = post(f"{BASE}/{path}", body)
    assert status == 422, response
    assert response["type"] == PROBLEM + slug, response
    assert field in response["errors"], response["errors"]
    return response["errors"][field]


@pytest.mark.parametrize("path", ["challenge", "challenge/odds"])
@pytest.mark.parametrize("bag, field, says", [
    ({**BAG, "red": -1}, "bag.red", "at least 0"),
    ({**BAG, "purple": 2}, "bag.purple", "is not a field of this request"),
    ({"red": 1}, "bag", "2 must be drawn"),
    ({"red": 0}, "bag", "at least one marble"),
    ({"red": 60, "white": 41}, "bag", "the most marbles in one bag"),
    ({"red": 101}, "bag.red", "the most marbles in one bag"),
    ({**BAG, "red": "9"}, "bag.red", "integer"),
])
def test_bad_bags(post, path, bag, field, says):
    messages = problem(post, path, {"bag": bag, "ability": "skill"}, field)
    assert says in " ".join(messages)


@pytest.mark.parametrize("path, body, field", [
    ("injury", {"bag": {"red": 2}, "severity": "grave"}, "bag"),
    ("mortal-danger", {"bag": {"red": 1}, "danger": "clear"}, "bag"),
    ("experience", {"bag": {"red": 2}, "amount": "much"}, "bag"),
    ("healing", {"bag": {"red": 2, "black": 2}, "draws": 5}, "bag"),
    ("healing", {"bag": BAG, "draws": 21}, "draws"),
    ("healing", {"bag": BAG, "draws": 2, "chances": "fair"}, "chances"),
    ("healing", {"bag": BAG}, "chances"),
    ("first-aid", {"bag": {"green": 2}, "difficulty": "easy"}, "bag"),
    ("challenge", {"bag": BAG, "ability": "charm"}, "ability"),
    ("challenge", {"bag": BAG, "ability": "skill", "luck": 3}, "luck"),
    ("validate-bag", {"bag": BAG, "rules": {"size": 20, "white": 5, "free": 10}}, "rules.size"),
])
def test_bad_operation_fields(post, path, body, field):
    problem(post, path, body, field)


def participant(name, **extra):
    return {"name": name, "bag": BAG, "ability": "skill", **extra}


def test_contest_needs_two_participants(post):
    assert "at least 2" in problem(post, "contest", {"participants": [participant("a")]}, "participants")[0]


def test_contest_names_must_be_unique(post):
    body = {"participants": [participant("a"), participant("b"), participant("a")]}
    assert "unique" in problem(post, "contest/odds", body, "participants.2.name")[0]


def test_contest_participant_limit(post):
    body = {"participants": [participant(f"p{i}") for i in range(21)]}
    assert "participants" in problem(post, "contest", body, "participants")[0]


def test_contest_participant_with_too_few_marbles(post):
    body = {"participants": [participant("a"), participant("b", bag={"green": 2}, difficulty="easy")]}
    problem(post, "contest", body, "participants.1.bag")


def test_combat_names_must_differ(post):
    fighter = {"name": "a", "bag": BAG}
    problem(post, "combat", {"attacker": fighter, "defender": fighter}, "defender.name")


def test_seed_and_manual_together(post):
    problem(post, "challenge", {"bag": BAG, "ability": "skill", "seed": 1, "manual": ["red", "red"]}, "manual")


def test_manual_marble_not_in_the_bag(post):
    messages = problem(post, "challenge", {"bag": BAG, "ability": "magic", "manual": ["blue", "red"]},
                       "manual.0", slug="invalid-input")
    assert '"blue": no such marble is left in the bag' in messages[0]


def test_manual_draws_are_without_replacement(post):
    bag = {"red": 1, "white": 5}
    problem(post, "challenge", {"bag": bag, "ability": "combat", "manual": ["red", "red"]},
            "manual.1", slug="invalid-input")


def test_manual_too_many_values(post):
    problem(post, "mortal-danger", {"bag": BAG, "danger": "low", "manual": ["red", "red"]},
            "manual.1", slug="invalid-input")


# --- two-phase choices --------------------------------------------------------------------------

@pytest.fixture
def healing_draw(post):
    status, draw = post(f"{BASE}/healing", {"bag": WOUNDED, "chances": "good",
                                            "manual": ["black", "green", "black"]})
    assert status == 200
    return draw


@pytest.fixture
def experience_draw(post):
    status, draw = post(f"{BASE}/experience", {"bag": WOUNDED, "amount": "some", "manual": ["black", "red"]})
    assert status == 200
    return draw


def test_healing_apply(post, healing_draw):
    status, response = post(f"{BASE}/healing/apply?lang=de", {"draw": healing_draw, "replacements": ["blue", "red"]})
    assert status == 200, response
    assert response["result"] == {"bag_after": {"red": 9, "green": 6, "blue": 1, "white": 3, "black": 1}}
    assert response["summary"] == ("Heilung angewandt: Der Beutel enthielt 8 rote, 6 grüne, 3 weiße und 3 schwarze "
                                   "Murmeln, jetzt 9 rote, 6 grüne, 1 blaue, 3 weiße und 1 schwarze Murmel.")
    status, verdict = post("/v1/receipts/verify", response)
    assert verdict["valid"] is True


@pytest.mark.parametrize("replacements, field, says", [
    (["red"], "replacements", "ruling 4"),
    (["red", "red", "red"], "replacements", "ruling 4"),
    (["red", "black"], "replacements.1", "ruling 4"),
    (["white", "red"], "replacements.0", "ruling 4"),
])
def test_healing_apply_rule_violations(post, healing_draw, replacements, field, says):
    messages = problem(post, "healing/apply", {"draw": healing_draw, "replacements": replacements}, field,
                       slug="rule-violation")
    assert says in messages[0]


def test_healing_apply_unknown_colour(post, healing_draw):
    problem(post, "healing/apply", {"draw": healing_draw, "replacements": ["red", "gold"]}, "replacements.1")


def test_healing_up_front_needs_one_colour_per_draw(post):
    problem(post, "healing", {"bag": WOUNDED, "draws": 3, "replacements": ["red"]}, "replacements",
            slug="rule-violation")
    problem(post, "healing", {"bag": WOUNDED, "draws": 1, "replacements": ["black"]}, "replacements.0",
            slug="rule-violation")


def test_apply_refuses_a_draw_of_another_operation(post, healing_draw, experience_draw):
    problem(post, "healing/apply", {"draw": experience_draw, "replacements": ["red"]}, "draw.operation",
            slug="invalid-receipt")
    problem(post, "experience/apply", {"draw": healing_draw, "replacements": ["red", "red", "red"]},
            "draw.operation", slug="invalid-receipt")


@pytest.mark.parametrize("alter", [
    lambda draw: draw["result"]["drawn"].__setitem__(1, "black"),
    lambda draw: draw["request"]["bag"].__setitem__("red", 20),
    lambda draw: draw["receipt"].__setitem__("signature", draw["receipt"]["signature"][::-1]),
    lambda draw: draw.__setitem__("summary", "forged"),
])
def test_apply_refuses_an_altered_draw(post, healing_draw, alter):
    forged = copy.deepcopy(healing_draw)
    alter(forged)
    problem(post, "healing/apply", {"draw": forged, "replacements": ["red", "red"]}, "draw.receipt",
            slug="invalid-receipt")


def test_apply_refuses_what_is_not_a_response(post):
    problem(post, "healing/apply", {"draw": {"operation": "beutelschneider.healing"}, "replacements": []},
            "draw", slug="invalid-receipt")
    problem(post, "healing/apply", {"draw": "draw", "replacements": []}, "draw")


def test_apply_refuses_a_draw_applied_up_front(post):
    status, draw = post(f"{BASE}/healing", {"bag": WOUNDED, "draws": 1, "replacements": ["red"],
                                            "manual": ["black"]})
    assert status == 200
    problem(post, "healing/apply", {"draw": draw, "replacements": ["red"]}, "draw.result.bag_after",
            slug="rule-violation")


def test_experience_apply(post, experience_draw):
    status, response = post(f"{BASE}/experience/apply", {"draw": experience_draw, "replacements": ["white", None]})
    assert status == 200, response
    assert response["result"]["bag_after"] == {"red": 8, "green": 6, "blue": 0, "white": 4, "black": 2}


@pytest.mark.parametrize("replacements, field", [
    (["red"], "replacements"),
    (["red", "red", None], "replacements"),
    (["black", None], "replacements.0"),   # ruling 5: never black
    (["green", "red"], "replacements.1"),  # ruling 5: a different colour than drawn
])
def test_experience_apply_rule_violations(post, experience_draw, replacements, field):
    messages = problem(post, "experience/apply", {"draw": experience_draw, "replacements": replacements}, field,
                       slug="rule-violation")
    assert "ruling 5" in messages[0]


# --- SDK ----------------------------------------------------------------------------------------

def test_sdk_healing_in_two_steps(sdk):
    draw = sdk.beutelschneider.healing(bag=WOUNDED, chances="fair", manual=["green", "black"])
    assert draw.result.black_drawn == 1
    applied = sdk.beutelschneider.healing_apply(draw=draw, replacements=["red"])
    assert applied.result.bag_after.red == 9
    assert sdk.verify(applied).valid is True


def test_sdk_experience_and_odds(sdk):
    draw = sdk.beutelschneider.experience(bag=WOUNDED, amount="little", seed=3)
    applied = sdk.beutelschneider.experience_apply(draw=draw, replacements=[None])
    assert applied.result.bag_after.to_dict() == {"blue": 0, **WOUNDED}
    chances = sdk.beutelschneider.mortal_danger_odds(bag=WOUNDED, danger="grave")
    assert [o.outcome for o in chances.odds.outcomes] == ["dies", "survives"]


def test_sdk_every_operation(sdk):
    api = sdk.beutelschneider
    assert api.validate_bag(bag={"red": 20}).result.valid is False
    assert api.challenge(bag=BAG, ability="combat", seed=1).operation == "beutelschneider.challenge"
    assert api.challenge_odds(bag=BAG, ability="combat").operation == "beutelschneider.challenge.odds"
    contest = {"participants": [participant("a"), participant("b")]}
    assert len(api.contest(**contest).result.participants) == 2
    assert api.contest_odds(**contest).odds.outcomes[-1].outcome == "tie"
    fight = {"attacker": {"name": "a", "bag": BAG}, "defender": {"name": "b", "bag": BAG}}
    assert api.combat(**fight).operation == "beutelschneider.combat"
    assert api.combat_odds(**fight).operation == "beutelschneider.combat.odds"
    assert api.injury(bag=BAG, severity="light").result.bag_after.black == 1
    assert api.injury_odds(bag=BAG, severity="light").operation == "beutelschneider.injury.odds"
    assert api.mortal_danger(bag=BAG, danger="low").result.dies is False
    assert api.healing_odds(bag=WOUNDED, draws=4).operation == "beutelschneider.healing.odds"
    assert api.experience_odds(bag=WOUNDED, amount="much").operation == "beutelschneider.experience.odds"
    aid = api.first_aid(bag=BAG, difficulty="easy", manual=["green", "green", "red"])
    assert aid.result.healing_draws == 2
    assert api.first_aid_odds(bag=BAG).operation == "beutelschneider.first-aid.odds"


def test_sdk_raises_invalid_request_naming_the_field(sdk):
    from wurfwerk import InvalidRequest

    with pytest.raises(InvalidRequest) as raised:
        sdk.beutelschneider.healing_apply(draw={"result": {}}, replacements=[])
    assert raised.value.status == 422
    assert "draw.receipt" in raised.value.problem["errors"]


# --- responses match their documented schemas ---------------------------------------------------

RESULT_SCHEMAS = [
    ("validate-bag", {"bag": {"red": 3, "black": 1}}, schemas.BeutelValidateBagResult),
    ("challenge", {"bag": {"black": 3}, "ability": "magic"}, schemas.BeutelChallengeResult),
    ("first-aid", {"bag": BAG}, schemas.BeutelFirstAidResult),
    ("contest", {"participants": [participant("a"), participant("b")]}, schemas.BeutelContestResult),
    ("combat", {"attacker": {"name": "a", "bag": {"red": 5}}, "defender": {"name": "b", "bag": {"white": 1},
                                                                         "difficulty": "hard"}},
     schemas.BeutelCombatResult),
    ("combat", {"attacker": {"name": "a", "bag": {"white": 5}}, "defender": {"name": "b", "bag": {"white": 2}}},
     schemas.BeutelCombatResult),
    ("injury", {"bag": BAG, "severity": "grave"}, schemas.BeutelInjuryResult),
    ("mortal-danger", {"bag": BAG, "danger": "grave"}, schemas.BeutelMortalDangerResult),
    ("healing", {"bag": WOUNDED, "draws": 4}, schemas.BeutelHealingResult),
    ("healing", {"bag": WOUNDED, "draws": 2, "replacements": ["red", "red"]}, schemas.BeutelHealingResult),
    ("experience", {"bag": WOUNDED, "amount": "some"}, schemas.BeutelExperienceResult),
]


@pytest.mark.parametrize("path, body, schema", RESULT_SCHEMAS)
def test_results_match_their_schema(post, path, body, schema):
    status, response = post(f"{BASE}/{path}", body)
    assert status == 200, response
    assert schema().validate(response["result"]) == {}
    assert set(response["result"]) == set(schema().fields)


def test_a_bag_with_one_marble_loses_it_whole_in_combat(post):
    """Decision: a loser whose bag holds fewer marbles than the severity has all of them drawn."""
    status, response = post(f"{BASE}/combat", {
        "attacker": {"name": "a", "bag": {"red": 5}, "difficulty": "easy"},
        "defender": {"name": "b", "bag": {"white": 1}, "difficulty": "hard"}})
    assert status == 200
    injury = response["result"]["injury"]
    assert (injury["severity"], injury["drawn"], injury["bag_after"]["black"]) == ("grave", ["white"], 1)
