"""The luck report (issue 41, item 6): mid-percentiles from the exact odds twins, the seat test of
maths/luck.py, and the report's words in German and English."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from service.platform.maths.luck import mid_percentile, seat_test
from tests.conftest import make_app
from tests.platform.dice.vectors import CASES, VECTORS, case_inputs


@pytest.fixture(scope="module")
def vector_client():
    return make_app(VECTORS["signing_key_pem"]).test_client()


def test_mid_percentile_of_two_d6_sums_by_enumeration():
    counts: dict[int, int] = {}
    for a, b in itertools.product(range(1, 7), repeat=2):
        counts[a + b] = counts.get(a + b, 0) + 1
    distribution = {value: Fraction(count, 36) for value, count in counts.items()}
    mid, variance = mid_percentile(distribution, 7)
    assert mid == Fraction(15, 36) + Fraction(6, 72)  # 15 sums below 7, half of the 6 sevens
    assert mid_percentile(distribution, 7, higher=False)[0] == Fraction(15, 36) + Fraction(6, 72)
    assert mid_percentile(distribution, 2)[0] == Fraction(1, 72)
    assert variance == (1 - sum(p ** 3 for p in distribution.values())) / 12
    assert mid_percentile(distribution, 13) is None


@given(st.lists(st.integers(min_value=1, max_value=20), min_size=1, max_size=8))
def test_under_fair_dice_the_mid_percentile_has_mean_one_half_and_the_documented_variance(weights):
    """E[M] = 1/2 and Var[M] = (1 - sum p^3)/12 exactly, for any distribution (luck.py's docstring)."""
    total = sum(weights)
    distribution = {value: Fraction(weight, total) for value, weight in enumerate(weights)}
    mids = {value: mid_percentile(distribution, value)[0] for value in distribution}
    mean = sum(distribution[value] * mids[value] for value in distribution)
    variance = sum(distribution[value] * (mids[value] - mean) ** 2 for value in distribution)
    assert mean == Fraction(1, 2)
    assert variance == mid_percentile(distribution, 0)[1]


def test_the_seat_test_flags_a_run_of_bad_rolls_and_not_an_average_one():
    # 4d6 needing 5+: the chance of no success is (2/3)^4; twenty such rolls in a row are unusual
    distribution = {k: Fraction(math.comb(4, k)) * Fraction(1, 3) ** k * Fraction(2, 3) ** (4 - k) for k in range(5)}
    bad = [mid_percentile(distribution, 0) for _ in range(20)]
    test = seat_test([float(mid) for mid, _ in bad], [float(variance) for _, variance in bad])
    assert test["count"] == 20 and test["mean"] < 0.2 and test["z"] < -3 and test["unusual"]
    average = [mid_percentile(distribution, value) for value in (0, 1, 1, 2, 1, 2, 0, 1, 3, 1)]
    test = seat_test([float(mid) for mid, _ in average], [float(variance) for _, variance in average])
    assert 0.3 < test["mean"] < 0.7 and not test["unusual"]
    assert seat_test([], []) == {"count": 0, "mean": None, "z": None, "p_value": None, "unusual": False}


def test_the_report_measures_each_card_with_its_odds_twin(vector_client):
    cards, reveal, seeds = case_inputs(CASES["complete"])
    luck = vector_client.post("/v1/sessions/report", json={"reveal": reveal, "cards": cards,
                                                           "seeds": seeds}).get_json()["luck"]
    measured = {point["card"]: point for point in luck["cards"]}
    assert set(measured) == {0, 1, 3, 4, 5, 7}  # Weltenbuch's conflict declares no quantity
    assert luck["unmeasured"] == [2]
    for position, point in measured.items():
        card = cards[position]
        body = {name: value for name, value in card["request"].items() if name != "session"}
        path = "/v1/" + card["operation"].replace(".", "/", 1) + "/odds"
        odds = vector_client.post(path, json=body).get_json()["odds"]["distributions"][point["quantity"]]
        distribution = {entry["value"]: Fraction(entry["exact"]) for entry in odds}
        assert point["value"] in distribution
        higher = card["operation"] not in ("proben.extended", "beutelschneider.healing", "beutelschneider.injury")
        expected = sum((p for value, p in distribution.items() if (value < point["value"] if higher
                                                                    else value > point["value"])), Fraction(0)) \
            + distribution[point["value"]] / 2
        assert Fraction(point["exact"]) == expected and point["percentile"] == pytest.approx(float(expected))
    seats = {seat["seat"]: seat for seat in luck["seats"]}
    assert [seat["seat"] for seat in luck["seats"]] == VECTORS["session"]["seats"]
    assert seats["Rynn"]["count"] == 2 and seats["Alva"]["count"] == 2 and seats["GM"]["count"] == 2
    rynn = [measured[0]["percentile"], measured[1]["percentile"]]
    assert seats["Rynn"]["mean"] == pytest.approx(sum(rynn) / 2)


def test_the_seats_are_summed_up_in_german_and_english(vector_client):
    cards, reveal, seeds = case_inputs(CASES["complete"])
    body = {"reveal": reveal, "cards": cards, "seeds": seeds}
    en = vector_client.post("/v1/sessions/report?lang=en", json=body).get_json()["luck"]["seats"]
    de = vector_client.post("/v1/sessions/report?lang=de", json=body).get_json()["luck"]["seats"]
    for english, german in zip(en, de, strict=True):
        assert english["summary"].startswith(english["seat"]) and german["summary"].startswith(german["seat"])
        assert ("luck" in english["summary"]) and ("Glück" in german["summary"] or "Pech" in german["summary"])
        assert f"{round(english['mean'] * 100)} %" in english["summary"]


def test_the_luck_line_reads_aloud_and_counts_marble_draws_as_draws(vector_client):
    """Issue 53: "Rynn hatte Pech: …" in plain words; a Beutelschneider card is a draw ("Zug"), not a roll."""
    cards, reveal, seeds = case_inputs(CASES["complete"])
    body = {"reveal": reveal, "cards": cards, "seeds": seeds}
    de = {seat["seat"]: seat for seat in
          vector_client.post("/v1/sessions/report?lang=de", json=body).get_json()["luck"]["seats"]}
    en = {seat["seat"]: seat for seat in
          vector_client.post("/v1/sessions/report?lang=en", json=body).get_json()["luck"]["seats"]}
    assert "(1 Wurf und 1 Zug)" in de["Alva"]["summary"] and "(1 dice roll and 1 marble draw)" in en["Alva"]["summary"]
    assert "(2 Würfe)" in de["Rynn"]["summary"] and "(2 dice rolls)" in en["Rynn"]["summary"]
    for seat in de.values():
        mood = ("hatte Pech: Im Schnitt wären nur" if seat["mean"] < 0.4 else
                "hatte Glück: Im Schnitt wären" if seat["mean"] > 0.6 else "hatte weder Glück noch Pech")
        assert seat["summary"].startswith(f"{seat['seat']} {mood}"), seat["summary"]
        assert "Würfel geben konnten" not in seat["summary"]


def test_cards_the_verdict_refuses_are_not_measured(vector_client):
    cards, reveal, _seeds = case_inputs(CASES["alter"])
    luck = vector_client.post("/v1/sessions/report", json={"reveal": reveal, "cards": cards}).get_json()["luck"]
    assert 0 not in {point["card"] for point in luck["cards"]}
    cards, reveal, _seeds = case_inputs(CASES["repeat"])
    luck = vector_client.post("/v1/sessions/report", json={"reveal": reveal, "cards": cards}).get_json()["luck"]
    assert 9 not in {point["card"] for point in luck["cards"]}  # a copy counts once


def _declared(app):
    from service.platform.operations.operations import Kind, operations_of

    with app.app_context():
        return [operation for operation in operations_of(app).values()
                if operation.kind is Kind.ROLLING and operation.luck is not None]


def test_every_declared_quantity_is_a_distribution_of_the_twin_holding_the_rolled_value(app, client):
    declared = _declared(app)
    assert len(declared) >= 12
    for operation in declared:
        odds = client.post(operation.url + "/odds", json=dict(operation.example)).get_json()["odds"]
        values = {entry["value"] for entry in odds["distributions"][operation.luck.distribution]}
        for seed in range(5):
            result = client.post(operation.url, json={**operation.example, "seed": seed}).get_json()["result"]
            assert operation.luck.rolled(result) in values, (operation.id, seed)
