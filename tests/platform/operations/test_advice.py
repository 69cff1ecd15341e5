"""The advice twins (API.md §1.10, RULINGS.md "Advice"), what the platform does for every system:
options = every combination of the asked choices, each exactly the encounter odds of the body with
that policy, ranked, "gleich gut" within 0.1 percentage points, refused with problem details before
solving, signed, and in a batch. Paws is the system the requests go to (its Advisor, routes.py)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from service.config import Limits
from service.platform.maths.odds import Odds
from service.platform.operations import advice
from service.platform.values.errors import EncounterTooLarge, InputError
from tests.conftest import make_app

DUEL = {"a": {"name": "Ryan", "rank": 2}, "b": {"name": "Jack", "rank": 2}, "one_shot_rescue": {"a": 2, "b": 1}}


def _fraction(probability: dict) -> Fraction:
    return Fraction(probability["exact"])


def test_every_fixed_option_is_exactly_the_encounter_odds_of_its_body(post):
    """§1.10: "every fixed option with its exact … chance to win": the odds twin of the same body with
    that policy, outcome for outcome."""
    status, answer = post("/v1/paws/encounter/advice", DUEL)
    assert status == 200, answer
    options = answer["advice"]["options"]
    assert len(options) == 3 * 2  # one_shot_rescue 0..2 × give_up_at_wounds null or 1 (out at 2 anyway)
    for option in options:
        policy = option["policy"]
        body = {**DUEL, "one_shot_rescue": {**DUEL["one_shot_rescue"], "a": policy["one_shot_rescue"]},
                "a": {**DUEL["a"], "give_up_at_wounds": policy["give_up_at_wounds"]}}
        status, odds = post("/v1/paws/encounter/odds", body)
        assert status == 200
        assert option["outcomes"] == {point["outcome"]: {"probability": point["probability"],
                                                         "exact": point["exact"]}
                                      for point in odds["odds"]["outcomes"]}
        assert option["win"] == option["outcomes"]["wins:a"]
        assert option["expected_rounds"] == odds["odds"]["expected"]["rounds"]


def test_options_are_ranked_best_first_with_their_distance_to_the_best(post):
    """RULINGS "Advice": by the chance to win, ties by the chance not to lose, then the expected rounds."""
    _, answer = post("/v1/paws/encounter/advice", {**DUEL, "advise": {"side": "b"}})
    options = answer["advice"]["options"]
    keys = [(-_fraction(o["win"]), -_fraction(o["not_lose"]), o["expected_rounds"]) for o in options]
    assert keys == sorted(keys)
    best = _fraction(options[0]["win"])
    assert all(_fraction(o["vs_best"]) == _fraction(o["win"]) - best for o in options)
    assert answer["advice"]["best"] == {"policy": options[0]["policy"], "win": options[0]["win"]}
    assert answer["advice"]["side"] == "b" and answer["summary"].startswith("Advice for Jack: best ")


def test_every_combination_of_the_asked_choices_is_an_option():
    """§1.10: "`options` are the fixed policies (every combination of the asked choices)"; a choice made
    per member or per step has one value per combination of its members' or steps' values."""
    assert advice.policies({"x": [0, 1], "y": [None, 2]}) == [
        {"x": 0, "y": None}, {"x": 0, "y": 2}, {"x": 1, "y": None}, {"x": 1, "y": 2}]
    assert advice.per_member(["Alrik", "Bea"], [0, 1]) == [
        {"Alrik": 0, "Bea": 0}, {"Alrik": 0, "Bea": 1}, {"Alrik": 1, "Bea": 0}, {"Alrik": 1, "Bea": 1}]
    assert advice.combinations([[None, 1], [None]]) == [(None, None), (1, None)]


def test_default_answer_names_the_default_policy(post):
    """E3 and E2: every one-shot die given is spent, and a side never gives up, unless asked otherwise."""
    _, answer = post("/v1/paws/encounter/advice", {**DUEL, "advise": {"choices": ["one_shot_rescue"]}})
    assert answer["advice"]["default"]["policy"] == {"one_shot_rescue": 2}
    assert [o["policy"] for o in answer["advice"]["options"]] == [
        {"one_shot_rescue": 2}, {"one_shot_rescue": 1}, {"one_shot_rescue": 0}]


def _fixed(*wins: Fraction) -> advice.Advisor:
    """An advisor of one choice whose options win with the given chances (to test the ranking alone)."""
    def odds(body):
        win = wins[body["pick"]]
        return Odds({"wins:a": win, "wins:b": 1 - win})
    return advice.Advisor(sides=lambda body: ["a", "b"],
                          choices=lambda body, side: {"pick": list(range(len(wins)))},
                          default=lambda body, side: {"pick": 0},
                          apply=lambda body, side, policy: {**body, **policy}, odds=odds)


def test_options_less_than_a_tenth_of_a_point_apart_are_gleich_gut():
    """RULINGS "Advice": "says 'gleich gut' when options differ by less than 0.1 percentage points"."""
    wins = (Fraction(1, 2), Fraction(1, 2) + Fraction(9, 10000), Fraction(1, 2) + Fraction(1, 1000))
    advised = advice.advise(_fixed(*wins), {"advise": {"side": None, "choices": None}})
    by_pick = {option.policy["pick"]: option for option in advised.options}
    assert advised.best.policy == {"pick": 2}
    assert by_pick[1].equal_to_best and by_pick[1].vs_best == Fraction(-1, 10000)
    assert not by_pick[0].equal_to_best and by_pick[0].vs_best == Fraction(-1, 1000)
    assert advice.summary(advised, "A", "de") == (
        "Rat für A: am besten pick = 2, 50,1\u00a0% Siegchance. Die Voreinstellung (pick = 0): 50,0\u00a0%.")


@pytest.mark.parametrize("advise, field, says", [
    ({"side": "c"}, "advise.side", "must be one of: a, b"),
    ({"choices": ["flee"]}, "advise.choices.0", "must be one of: one_shot_rescue, give_up_at_wounds"),
    ({"choices": ["one_shot_rescue", "one_shot_rescue"]}, "advise.choices.1", "is asked twice"),
])
def test_a_bad_advise_is_a_422_naming_the_field(post, advise, field, says):
    status, problem = post("/v1/paws/encounter/advice", {**DUEL, "advise": advise})
    assert status == 422 and problem["type"].endswith("/invalid-input")
    assert problem["errors"] == {field: [says]}


def test_too_many_options_are_refused_before_solving(post):
    status, problem = post("/v1/paws/encounter/advice", {**DUEL, "one_shot_rescue": {"a": 70, "b": 0},
                                                         "advise": {"choices": ["one_shot_rescue"]}})
    assert status == 422 and problem["errors"] == {
        "advise.choices": ["give 71 fixed options, more than 64: ask for fewer choices"]}


def test_the_limit_counts_every_option_together():
    """§1.10 "Limits: the encounter limits, counted over every option; refusals before solving": four
    options each within the limit, together over it; nothing is solved."""
    solved = []

    def odds(body):
        solved.append(body)
        return Odds({"wins:a": Fraction(1), "wins:b": Fraction(0)})

    def priced_odds(body):
        from service.platform.http.limits import encounter_precision
        encounter_precision(6000, "auto", cost=1000)  # 6,000,000 of 8,000,000 each
        return odds(body)

    advisor = advice.Advisor(sides=lambda body: ["a"], choices=lambda body, side: {"n": [0, 1]},
                             default=lambda body, side: {"n": 0},
                             apply=lambda body, side, policy: {**body, **policy}, odds=priced_odds)
    with pytest.raises(EncounterTooLarge) as refused:
        advice.advise(advisor, {"advise": {}})
    assert refused.value.field == "advise" and refused.value.members["states"] == 12_000_000
    assert solved == []


def test_unknown_choice_is_an_input_error_without_http():
    with pytest.raises(InputError):
        advice.asked_choices(_fixed(Fraction(1)), {"advise": {"choices": ["nothing"]}})


def test_the_answer_is_signed_and_verifies(post):
    status, answer = post("/v1/paws/encounter/advice", DUEL)
    assert status == 200 and answer["receipt"]["alg"] == "Ed25519"
    status, verdict = post("/v1/receipts/verify", answer)
    assert verdict["valid"], verdict
    tampered = {**answer, "advice": {**answer["advice"], "side": "b"}}
    assert not post("/v1/receipts/verify", tampered)[1]["valid"]


def test_a_batch_answers_advice_as_the_single_call(post):
    _, single = post("/v1/paws/encounter/advice", DUEL)
    status, batch = post("/v1/batch", {"requests": [{"operation": "paws.encounter.advice", "body": DUEL}]})
    assert status == 200 and batch["results"][0]["status"] == 200
    item = batch["results"][0]["body"]
    assert item["advice"] == single["advice"] and item["summary"] == single["summary"]


def test_a_batch_prices_advice_with_all_its_options(signing_key_pem):
    """The batch's work budget (batch.py) counts an advice's options and its adaptive solve: an advice
    whose options fit alone, twice in one batch, goes over a budget that one fits into."""
    big = {"a": {"rank": 10, "extra_bonus_dice": 20}, "b": {"rank": 10, "extra_bonus_dice": 20},
           "one_shot_rescue": {"a": 1, "b": 0}, "advise": {"choices": ["one_shot_rescue"]}}
    app = make_app(signing_key_pem, limits=Limits(encounter_states=3_000_000))
    client = app.test_client()
    assert client.post("/v1/paws/encounter/advice", json=big).status_code == 200
    twice = client.post("/v1/batch", json={"requests": [{"operation": "paws.encounter.advice", "body": big}] * 2})
    assert twice.status_code == 422 and twice.get_json()["type"].endswith("/encounter-too-large")
