"""Fair play over HTTP (issue 14): `Idempotency-Key` makes a retry give the same dice, a roll ticket
makes rolling again gain nothing, on every app instance that shares the key configuration."""

from __future__ import annotations

import copy
from datetime import UTC, datetime, timedelta

import pytest
import schemathesis
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from service.config import ConfigError, config_from_env
from service.platform.dice.receipts import generate_private_key_pem
from service.platform.dice.tickets import issue_tickets
from tests.conftest import make_app

PAWS = "/v1/paws/test"
PROBEN = "/v1/proben/test"
PROBEN_BODY = {"attribute": 4, "skill": 2, "difficulty": 2}
INVALID_TICKET = "https://wurfwerk.dev/problems/invalid-ticket"
VALIDATION = "https://wurfwerk.dev/problems/validation-error"


def roll(client, path, body, key=None, **headers):
    if key is not None:
        headers["Idempotency-Key"] = key
    response = client.post(path, json=body, headers=headers)
    return response.status_code, response.get_json()


def tickets(client, **body):
    response = client.post("/v1/tickets", json=body)
    assert response.status_code == 200, response.get_json()
    return response.get_json()["tickets"]


def dice_of(response):
    return response["result"], response["randomness"]["events"]


@pytest.fixture(scope="module")
def twin_apps():
    """Two app instances (two replicas) sharing one signing key, and one with another key."""
    shared = generate_private_key_pem()
    return (make_app(shared).test_client(), make_app(shared).test_client(),
            make_app(generate_private_key_pem()).test_client())


# -- Idempotency-Key ------------------------------------------------------------------------------

def test_a_retry_with_the_same_key_gives_the_same_dice_on_every_replica(twin_apps):
    first, second, stranger = twin_apps
    _, original = roll(first, PROBEN, PROBEN_BODY, key="retry-7f3a")
    _, retried = roll(second, PROBEN, PROBEN_BODY, key="retry-7f3a")
    assert original["randomness"]["source"] == "secure"
    assert original["randomness"]["idempotency_key"] == "retry-7f3a"
    assert dice_of(retried) == dice_of(original)
    assert retried["receipt"]["id"] != original["receipt"]["id"]  # a new receipt for the same roll
    # Another key configuration derives other dice (over 40 dice a match by chance is out of reach).
    many = {"attribute": 20, "skill": 20, "difficulty": 2}
    _, ours = roll(first, PROBEN, many, key="retry-7f3a")
    _, theirs = roll(stranger, PROBEN, many, key="retry-7f3a")
    assert ours["randomness"]["events"] != theirs["randomness"]["events"]


def test_another_key_or_another_body_derives_other_dice(client):
    many = {"attribute": 20, "skill": 20, "difficulty": 2}
    _, one = roll(client, PROBEN, many, key="a")
    _, other_key = roll(client, PROBEN, many, key="b")
    _, other_body = roll(client, PROBEN, {**many, "name": "Alrik"}, key="a")
    events = one["randomness"]["events"]
    assert other_key["randomness"]["events"] != events and other_body["randomness"]["events"] != events
    # The key and the body are both in the signed response, so the difference is visible.
    assert other_body["request"]["name"] == "Alrik" and other_body["randomness"]["idempotency_key"] == "a"


def test_the_language_does_not_change_the_derived_dice(client):
    _, english = roll(client, PROBEN, PROBEN_BODY, key="lang")
    _, german = roll(client, PROBEN + "?lang=de", PROBEN_BODY, key="lang")
    assert dice_of(german) == dice_of(english) and german["summary"] != english["summary"]


def test_without_a_key_every_roll_is_fresh(client):
    many = {"attribute": 20, "skill": 20, "difficulty": 2}
    _, one = roll(client, PROBEN, many)
    _, two = roll(client, PROBEN, many)
    assert one["randomness"]["events"] != two["randomness"]["events"]
    assert "idempotency_key" not in one["randomness"]


@pytest.mark.parametrize("extra", [{"seed": 3}, {"manual": [6, 6, 1, 2, 3, 4]}])
def test_a_key_with_seed_or_manual_is_refused(client, extra):
    status, problem = roll(client, PROBEN, {**PROBEN_BODY, **extra}, key="k")
    assert status == 422 and problem["type"] == VALIDATION
    assert "reproducible already" in problem["errors"]["Idempotency-Key"][0]


@pytest.mark.parametrize("key", ["", "with space", "x" * 256, "tab\there", "caf\u00e9"])
def test_a_malformed_key_is_refused(client, key):
    response = client.post(PROBEN, json=PROBEN_BODY, headers={"Idempotency-Key": key})
    assert response.status_code == 422
    assert response.get_json()["errors"]["Idempotency-Key"] == ["must be 1 to 255 visible ASCII characters (! to ~)"]


def test_the_longest_key_and_every_visible_character_are_accepted(client):
    visible = "".join(chr(code) for code in range(0x21, 0x7F))
    for key in ("x" * 255, visible):
        status, body = roll(client, PROBEN, PROBEN_BODY, key=key)
        assert status == 200 and body["randomness"]["idempotency_key"] == key


# -- roll tickets ---------------------------------------------------------------------------------

def test_a_ticket_roll_replays_instead_of_rolling_again(twin_apps):
    first, second, stranger = twin_apps
    (ticket,) = tickets(first, operation="paws.test", context="world-7/message-42")
    _, rolled = roll(first, PAWS, {"rank": 5, "ticket": ticket})
    assert rolled["randomness"]["source"] == "ticket"
    assert rolled["request"]["ticket"] == ticket  # echoed with its context, under the receipt
    _, replayed = roll(second, PAWS, {"rank": 5, "ticket": ticket})
    assert dice_of(replayed) == dice_of(rolled)
    # Another body is a second roll of the ticket (README "Fair play"): its dice derive from the request
    # as understood, and its card carries the same ticket id, which is how a table sees the reuse.
    _, other_body = roll(first, PAWS, {"rank": 1, "ticket": ticket})
    assert other_body["request"]["ticket"]["id"] == rolled["request"]["ticket"]["id"]
    assert other_body["randomness"]["events"] != rolled["randomness"]["events"]
    # A replica with another key did not issue it and refuses it.
    status, problem = roll(stranger, PAWS, {"rank": 5, "ticket": ticket})
    assert status == 422 and problem["type"] == INVALID_TICKET


def test_the_receipt_covers_the_ticket_and_the_key(client):
    (ticket,) = tickets(client, context="table 3")
    _, by_ticket = roll(client, PAWS, {"rank": 3, "ticket": ticket})
    _, by_key = roll(client, PAWS, {"rank": 3}, key="covered")
    for document, path in ((by_ticket, ("request", "ticket", "context")),
                           (by_ticket, ("request", "ticket", "id")),
                           (by_ticket, ("randomness", "source")),
                           (by_key, ("randomness", "idempotency_key"))):
        assert client.post("/v1/receipts/verify", json=document).get_json()["valid"]
        altered = copy.deepcopy(document)
        target = altered
        for name in path[:-1]:
            target = target[name]
        target[path[-1]] += "x"
        assert not client.post("/v1/receipts/verify", json=altered).get_json()["valid"], path


def _refused(client, path, body):
    response = client.post(path, json=body)
    assert response.status_code == 422 and response.mimetype == "application/problem+json"
    problem = response.get_json()
    assert problem["type"] == INVALID_TICKET
    return problem


def test_forged_altered_expired_and_wrong_operation_tickets_are_refused(app, client):
    (ticket,) = tickets(client, operation="paws.test", context="world")
    altered = {**ticket, "context": "another world"}
    assert "ticket.signature" in _refused(client, PAWS, {"rank": 3, "ticket": altered})["errors"]
    forged = issue_tickets(make_app(generate_private_key_pem()).extensions["wurfwerk"].keys)[0]
    claiming_our_kid = {**forged, "kid": ticket["kid"]}
    assert "ticket.signature" in _refused(client, PAWS, {"rank": 3, "ticket": claiming_our_kid})["errors"]
    long_ago = datetime.now(UTC) - timedelta(days=2)
    (expired,) = issue_tickets(app.extensions["wurfwerk"].keys, ttl_s=60, now=long_ago)
    assert "ticket.expires_at" in _refused(client, PAWS, {"rank": 3, "ticket": expired})["errors"]
    problem = _refused(client, PROBEN, {**PROBEN_BODY, "ticket": ticket})
    assert problem["errors"] == {"ticket.operation": ["the ticket is for paws.test, not for proben.test"]}


def test_a_ticket_that_is_not_a_ticket_object_is_a_validation_error(client):
    (ticket,) = tickets(client)
    response = client.post(PAWS, json={"rank": 3, "ticket": {k: v for k, v in ticket.items() if k != "context"}})
    assert response.status_code == 422 and "ticket.context" in response.get_json()["errors"]


@pytest.mark.parametrize("extra", [{"seed": 1}, {"manual": [1, 2, 3]}])
def test_a_ticket_with_seed_or_manual_is_refused(client, extra):
    (ticket,) = tickets(client)
    response = client.post(PAWS, json={"rank": 3, "ticket": ticket, **extra})
    assert response.status_code == 422
    assert "give at most one of seed, manual and ticket" in str(response.get_json()["errors"])


def test_with_a_ticket_the_key_is_recorded_but_the_ticket_decides(client):
    (ticket,) = tickets(client)
    _, plain = roll(client, PAWS, {"rank": 6, "ticket": ticket})
    _, keyed = roll(client, PAWS, {"rank": 6, "ticket": ticket}, key="sdk-retry-1")
    assert dice_of(keyed) == dice_of(plain)
    assert keyed["randomness"] == {**plain["randomness"], "idempotency_key": "sdk-retry-1"}


def test_ticket_keys_limit_who_may_issue_tickets(signing_key_pem):
    client = make_app(signing_key_pem, api_keys=("gm-key", "player-key"), ticket_keys=("gm-key",)).test_client()
    refused = client.post("/v1/tickets", json={}, headers={"Authorization": "Bearer player-key"})
    assert refused.status_code == 403
    assert refused.get_json()["type"] == "https://wurfwerk.dev/problems/forbidden"
    issued = client.post("/v1/tickets", json={}, headers={"Authorization": "Bearer gm-key"})
    (ticket,) = issued.get_json()["tickets"]
    # The game master hands the ticket to a player, whose own key may roll with it.
    rolled = client.post(PAWS, json={"rank": 3, "ticket": ticket}, headers={"Authorization": "Bearer player-key"})
    assert rolled.status_code == 200 and rolled.get_json()["randomness"]["source"] == "ticket"


def test_a_ticket_key_must_be_an_api_key():
    with pytest.raises(ConfigError, match="WURFWERK_TICKET_KEYS"):
        config_from_env({"WURFWERK_API_KEYS": "a,b", "WURFWERK_TICKET_KEYS": "gm"})
    with pytest.raises(ConfigError, match="WURFWERK_TICKET_KEYS"):
        config_from_env({"WURFWERK_TICKET_KEYS": "gm"})
    assert config_from_env({"WURFWERK_API_KEYS": "gm,b", "WURFWERK_TICKET_KEYS": "gm"}).ticket_keys == ("gm",)


# -- batch and odds -------------------------------------------------------------------------------

def _batch(client, items, **headers):
    response = client.post("/v1/batch", json={"requests": items}, headers=headers)
    assert response.status_code == 200, response.get_json()
    return [result["body"] if result["status"] == 200 else result for result in response.get_json()["results"]]


def test_a_batch_item_key_is_the_single_call_header(client):
    _, single = roll(client, PROBEN, PROBEN_BODY, key="item-key")
    (ticket,) = tickets(client, operation="proben.test")
    _, by_ticket = roll(client, PROBEN, {**PROBEN_BODY, "ticket": ticket})
    first, second, third, refused = _batch(client, [
        {"operation": "proben.test", "body": {**PROBEN_BODY, "idempotency_key": "item-key"}},
        {"operation": "proben.test", "body": {**PROBEN_BODY, "idempotency_key": "item-key"}},
        {"operation": "proben.test", "body": {**PROBEN_BODY, "ticket": ticket}},
        {"operation": "proben.test", "body": {**PROBEN_BODY, "seed": 1, "idempotency_key": "x"}},
    ])
    assert dice_of(first) == dice_of(second) == dice_of(single)
    assert first["randomness"]["idempotency_key"] == "item-key" and first["request"]["idempotency_key"] == "item-key"
    assert dice_of(third) == dice_of(by_ticket)
    assert refused["status"] == 422 and "idempotency_key" in refused["body"]["errors"]


def test_a_batch_key_makes_the_whole_batch_retry_safe(client):
    items = [{"operation": "proben.test", "body": PROBEN_BODY}] * 3 + [
        {"operation": "proben.test", "body": {**PROBEN_BODY, "seed": 4}}]
    original = _batch(client, items, **{"Idempotency-Key": "batch-1"})
    retried = _batch(client, items, **{"Idempotency-Key": "batch-1"})
    assert [dice_of(body) for body in retried] == [dice_of(body) for body in original]
    item_keys = [body["randomness"].get("idempotency_key") for body in original]
    assert item_keys == ["batch-1#0", "batch-1#1", "batch-1#2", None]
    _, single = roll(client, PROBEN, PROBEN_BODY, key="batch-1#1")  # the item key, spelled out
    assert dice_of(single) == dice_of(original[1])
    malformed = client.post("/v1/batch", json={"requests": items}, headers={"Idempotency-Key": "a b"})
    assert malformed.status_code == 422 and "Idempotency-Key" in malformed.get_json()["errors"]


def test_odds_twins_ignore_ticket_and_key(client):
    (ticket,) = tickets(client)
    plain = client.post(PROBEN + "/odds", json=PROBEN_BODY).get_json()
    given_both = client.post(PROBEN + "/odds", json={**PROBEN_BODY, "ticket": ticket, "idempotency_key": "k"},
                             headers={"Idempotency-Key": "k"})
    assert given_both.status_code == 200 and given_both.get_json() == plain


def test_the_spec_documents_the_header_and_the_odds_ignoring_it(client):
    spec = client.get("/openapi.json").get_json()
    for path, item in spec["paths"].items():
        operation = item.get("post")
        if operation is None or not operation["operationId"].count(".") == 1:
            continue
        body_ref = operation["requestBody"]["content"]["application/json"]["schema"].get("$ref", "")
        members = spec["components"]["schemas"].get(body_ref.rsplit("/", 1)[-1], {}).get("properties", {})
        headers = {p["name"] for p in operation.get("parameters", []) if p["in"] == "header"}
        if "seed" in members:
            assert "Idempotency-Key" in headers and "ticket" in members, path
    odds = spec["paths"][PROBEN + "/odds"]["post"]
    assert "Idempotency-Key" in odds["description"] and "ticket" in odds["description"]


# -- property: a ticket replay reproduces the result, for any valid body --------------------------

# One or two operations of each system; bodies of a whole conflict take the generator too long.
ROLLING_PATHS = ["/v1/paws/test", "/v1/paws/comparison", "/v1/proben/test", "/v1/malmsturm/action",
                 "/v1/beutelschneider/challenge", "/v1/weltenbuch/resurrection"]
RANDOMNESS_MEMBERS = ("seed", "manual", "ticket", "idempotency_key")


@pytest.fixture(scope="module")
def spec_and_client():
    app = make_app(generate_private_key_pem())
    return schemathesis.openapi.from_wsgi("/openapi.json", app), app.test_client()


@pytest.mark.parametrize("path", ROLLING_PATHS)
@settings(max_examples=20, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_a_ticket_replay_reproduces_the_response(spec_and_client, path, data):
    schema, client = spec_and_client
    case = data.draw(schema[path]["POST"].as_strategy())
    assume(isinstance(case.body, dict))
    body = {name: value for name, value in case.body.items() if name not in RANDOMNESS_MEMBERS}
    (ticket,) = tickets(client)
    first = client.post(path, json={**body, "ticket": ticket})
    assume(first.status_code == 200)  # a body the rules refuse has no dice to reproduce
    again = client.post(path, json={**body, "ticket": ticket})
    assert again.status_code == 200
    assert dice_of(again.get_json()) == dice_of(first.get_json())
    assert again.get_json()["request"] == first.get_json()["request"]
