"""The SDK against the real app in-process: typed results, the exact JSON, request ids, verification."""

from __future__ import annotations

import dataclasses
import json

import pytest
import requests

from tests.wsgi_session import WsgiSession
from wurfwerk import Client, InvalidRequest, Model, Result
from wurfwerk._operations import OPERATIONS
from wurfwerk.models import Event, Jwks, ProbenTestResponse, ProbenTestResult, Verification

from .support import load_spec


class RecordingSession(WsgiSession):
    """Keeps the raw body of every answer, to compare the SDK's ``to_dict()`` with what was sent."""

    def __init__(self, app):
        super().__init__(app)
        self.bodies: list[bytes] = []
        self.requests: list[dict] = []

    def request(self, method, url, **kwargs):
        response = super().request(method, url, **kwargs)
        self.bodies.append(response.content)
        self.requests.append({"headers": dict(kwargs.get("headers") or {}), "json": kwargs.get("json")})
        return response


@pytest.fixture
def recording(app):
    return RecordingSession(app)


@pytest.fixture
def recorded(recording):
    return Client("http://wurfwerk.test", session=recording, max_retries=0)


def test_results_are_typed_frozen_and_to_dict_is_the_exact_json(recorded, recording):
    roll = recorded.proben.test(attribute=3, difficulty=2, seed=1)
    assert isinstance(roll, ProbenTestResponse) and isinstance(roll.result, ProbenTestResult)
    assert roll.result.dice_count == 3 and len(roll.result.dice) == 3
    assert roll.to_dict() == json.loads(recording.bodies[-1])
    assert roll.result.to_dict() == json.loads(recording.bodies[-1])["result"]
    with pytest.raises(dataclasses.FrozenInstanceError):
        roll.result = None  # type: ignore[misc]
    copy = roll.to_dict()
    copy["result"]["dice"].append(99)
    assert roll.to_dict() == json.loads(recording.bodies[-1]), "to_dict() hands out an independent copy"


def test_no_member_is_shadowed_by_the_model(sdk):
    """A randomness event's ``values`` and the JWKS's ``keys`` are the data, not mapping methods."""
    roll = sdk.proben.test(attribute=4, difficulty=2, seed=7)
    event = roll.randomness.events[0]
    assert isinstance(event, Event) and event.values == roll.result.dice
    jwks = sdk.keys()
    assert isinstance(jwks, Jwks) and jwks.keys[0].kty == "OKP"
    for base in (Model, Result):
        public = {name for name in dir(base) if not name.startswith("_")}
        assert public <= {"to_dict", "request_id"}, "a new public name on the bases may shadow a JSON member"


# A session or its reveal, signed: tests/client/test_sessions.py sends real ones.
SIGNED_SESSION_INPUTS = {"sessions.reveal", "sessions.report"}


def test_every_operation_answers_its_documented_example_with_its_typed_result(recorded, recording):
    """Each operation of openapi.yaml, called through the SDK with the spec's request example."""
    spec = load_spec()
    called = set()
    for path, item in spec["paths"].items():
        for operation in item.values():
            example = operation.get("requestBody", {}).get("content", {}).get("application/json", {}).get("example")
            if "receipt" in json.dumps(example) or operation["operationId"] in SIGNED_SESSION_INPUTS:
                continue  # takes a signed response, which an example cannot hold: see the round trips
            target = method_for(recorded, path, operation["operationId"])
            result = target(**(example or {}))
            assert isinstance(result, OPERATIONS[operation["operationId"]].parse.__self__)
            assert result.to_dict() == json.loads(recording.bodies[-1])
            assert result.request_id
            called.add(operation["operationId"])
    signed_inputs = {"receipts.verify", "beutelschneider.healing-apply", "beutelschneider.experience-apply",
                     "weltenbuch.narration", *SIGNED_SESSION_INPUTS}  # each has a round trip with real signatures
    assert called | signed_inputs == set(OPERATIONS)


def method_for(client, path, operation_id):
    """The naming rule of the generator: /v1/<namespace>/<rest> -> client.<namespace>.<rest with _>;
    /v1/<name> is client.<name>, or, where <name> is a namespace too, named by its operation id in it
    (/v1/sessions, sessions.open -> client.sessions.open)."""
    segments = [segment.replace("-", "_") for segment in path.strip("/").split("/")]
    segments = segments[1:] if segments[0] == "v1" else segments
    if len(segments) == 1:
        target = getattr(client, segments[0])
        return target if callable(target) else getattr(target, operation_id.split(".", 1)[1].replace("-", "_"))
    return getattr(getattr(client, segments[0]), "_".join(segments[1:]))


def test_results_can_be_sent_back(sdk):
    draw = sdk.beutelschneider.healing(bag={"red": 2, "green": 1, "black": 2}, chances="fair",
                                       manual=["green", "black"])
    applied = sdk.beutelschneider.healing_apply(draw=draw, replacements=["red"])
    assert applied.result.bag_after.red == 3 and sdk.verify(applied).valid


def test_request_id_on_results_and_errors(app):
    session = RecordingSession(app)
    client = Client("http://wurfwerk.test", session=session, max_retries=0, headers={"X-Request-ID": "trace-42"})
    assert client.proben.test_odds(attribute=2, difficulty=1).request_id == "trace-42"
    with pytest.raises(InvalidRequest) as error:
        client.proben.test(attribute=-1, difficulty=2)
    assert error.value.request_id == "trace-42" and error.value.problem["request_id"] == "trace-42"


def test_request_id_is_the_services_own_when_none_is_sent(sdk):
    first, second = sdk.systems(), sdk.systems()
    assert first.request_id and second.request_id and first.request_id != second.request_id


def test_verify_offline_and_online_typed(sdk):
    roll = sdk.proben.test(attribute=3, difficulty=2)
    for offline in (True, False):
        verification = sdk.verify(roll, offline=offline)
        assert isinstance(verification, Verification) and verification.valid is True
        tampered = roll.to_dict()
        tampered["result"]["successes"] += 1
        assert sdk.verify(tampered, offline=offline).valid is False
    assert sdk.verify(roll, offline=True).request_id is None, "computed locally, no request"


def test_verify_fetches_the_keys_again_for_an_unknown_kid(app, recording):
    client = Client("http://wurfwerk.test", session=recording, max_retries=0)
    roll = client.proben.test(attribute=2, difficulty=1)
    client._keys.jwks = Jwks.from_json({"keys": []})  # keys cached before a rotation
    assert client.verify(roll, offline=True).valid is True
    assert sum(b'"keys"' in body for body in recording.bodies) == 1


def test_systems_keys_batch_typed(sdk):
    assert any(system["id"] == "proben" for system in sdk.systems().systems)
    results = sdk.batch(requests=[{"operation": "proben.test", "body": {"attribute": 2, "difficulty": 1}}]).results
    assert results[0].status == 200 and results[0].body["operation"] == "proben.test"


def test_validation_errors_are_typed_with_the_problem(sdk):
    with pytest.raises(InvalidRequest) as error:
        sdk.proben.test(attribute=-1, difficulty=2)
    assert error.value.status == 422 and "attribute" in error.value.errors
    assert error.value.method == "POST" and error.value.url.endswith("/v1/proben/test")


def test_lang_per_client_and_per_call(app):
    german = Client("http://wurfwerk.test", session=WsgiSession(app), lang="de")
    assert german.proben.test(attribute=1, difficulty=1, manual=[5]).lang == "de"
    assert german.proben.test(attribute=1, difficulty=1, manual=[5], lang="en").lang == "en"
    assert german.with_options(lang="en").proben.test(attribute=1, difficulty=1, manual=[5]).lang == "en"


def test_parameters_left_unset_are_not_sent_and_defaults_are(recorded, recording):
    recorded.proben.test(attribute=3, difficulty=2, seed=5)
    assert recording.requests[-1]["json"] == {"advantages": 0, "attempt": 1, "attribute": 3, "difficulty": 2,
                                              "disadvantages": 0, "seed": 5, "skill": 0, "success_rule": "meet"}


def test_client_is_a_context_manager_that_closes_only_its_own_session(app, monkeypatch):
    closed = []
    monkeypatch.setattr(requests.Session, "close", lambda session: closed.append(session))
    session = WsgiSession(app)
    with Client("http://wurfwerk.test", session=session) as client:
        client.systems()
    assert closed == [], "a session handed in is left open"
    with Client("http://wurfwerk.test") as own:
        pass
    assert closed == [own._session]


def test_tickets_are_typed(sdk):
    issued = sdk.tickets(count=2, operation="proben.test", context="chat-1")
    assert [ticket.operation for ticket in issued.tickets] == ["proben.test", "proben.test"]
    assert issued.tickets[0].context == "chat-1" and issued.tickets[0].id != issued.tickets[1].id
    assert issued.request_id
