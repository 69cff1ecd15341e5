"""Issue 50 item 3 (and issue 48 item 6, "Work budgets"): a batch's encounter odds are priced before
any of them is solved; their work together over WURFWERK_MAX_ENCOUNTER_STATES refuses the whole batch
with the 422 `encounter-too-large` a single encounter over it gets, naming the states and the limit."""

from __future__ import annotations

import pytest

from service.config import Limits
from service.platform.http.limits import STATE_BY_STATE
from service.systems.beutelschneider import sweep
from service.systems.paws import encounter as paws_encounter
from tests.conftest import make_app

FIGHT = {"sides": [{"name": "L", "members": [{"name": "L", "bag": {"red": 5, "green": 4, "black": 1}}]},
                   {"name": "A", "members": [{"name": "A1", "bag": {"red": 4, "white": 4}},
                                             {"name": "A2", "bag": {"red": 4, "white": 4}}]}]}
FIGHT_STATES = (6 * 5) * ((1 + 5 * 5) ** 2 - 1) * 2  # Σ over sets of standing members of Π grids, × pairings
PAWS = {"a": {"rank": 3}, "b": {"rank": 3}}


def batch(*items):
    return {"requests": [{"operation": operation, "body": body} for operation, body in items]}


def test_the_work_of_a_batchs_encounters_is_summed_and_refused_before_solving(signing_key_pem, monkeypatch):
    monkeypatch.setattr(sweep, "odds", lambda *a, **k: pytest.fail("solved"))
    limit = 3 * FIGHT_STATES - 1  # two fit, three do not
    client = make_app(signing_key_pem, limits=Limits(encounter_states=limit)).test_client()
    response = client.post("/v1/batch", json=batch(*[("beutelschneider.encounter.odds", FIGHT)] * 3,
                                                    ("paws.test", {"rank": 2})))
    problem = response.get_json()
    assert response.status_code == 422 and problem["type"].endswith("/encounter-too-large"), problem
    assert problem["states"] == 3 * FIGHT_STATES
    assert problem["limit"] == {"name": "encounter_states", "value": limit, "setting": "WURFWERK_MAX_ENCOUNTER_STATES"}


def test_a_state_by_state_solver_costs_its_share(signing_key_pem, monkeypatch):
    client = make_app(signing_key_pem, limits=Limits(encounter_states=STATE_BY_STATE * 100)).test_client()
    one = client.post("/v1/paws/encounter/odds", json=PAWS)
    assert one.status_code == 200, one.get_json()
    states = one.get_json()["solver"]["states"]
    monkeypatch.setattr(paws_encounter, "encounter_odds", lambda *a, **k: pytest.fail("solved"))
    many = client.post("/v1/batch", json=batch(*[("paws.encounter.odds", PAWS)] * 200)).get_json()
    assert many["type"].endswith("/encounter-too-large") and many["limit"]["value"] == STATE_BY_STATE * 100
    assert many["states"] >= 200 * states * STATE_BY_STATE


def test_a_batch_within_the_budget_is_answered_item_by_item(signing_key_pem):
    client = make_app(signing_key_pem, limits=Limits(encounter_states=2 * FIGHT_STATES)).test_client()
    response = client.post("/v1/batch", json=batch(("beutelschneider.encounter.odds", FIGHT),
                                                   ("beutelschneider.encounter.odds", FIGHT),
                                                   ("beutelschneider.encounter.odds", {"sides": []})))
    results = response.get_json()["results"]
    assert response.status_code == 200 and [r["status"] for r in results] == [200, 200, 422]
    assert results[0]["body"] == results[1]["body"]
