"""The SDK (API.md §7): real app in-process, and mocked HTTP for errors, retries and timeouts."""

from __future__ import annotations

import json

import pytest
import requests
import responses

from wurfwerk import Client, InvalidRequest, NotFound, Result, ServerError, TransportError, Unauthorized, WurfwerkError

BASE = "http://svc.test"
PROBLEM = {"type": "https://wurfwerk.dev/problems/validation-error", "title": "Unprocessable Entity",
           "status": 422, "detail": "attribute: must be at least 0", "instance": "/v1/proben/test",
           "errors": {"attribute": ["must be at least 0"]}}


def _client(**kwargs):
    kwargs.setdefault("retries", 2)
    client = Client(BASE, **kwargs)
    client._transport.backoff = 0  # keep the tests fast; the schedule itself is tested below
    return client


def test_results_have_attributes_and_are_mappings_and_read_only(sdk):
    roll = sdk.proben.test(attribute=3, difficulty=2, seed=1)
    assert roll.result.dice_count == roll["result"]["dice_count"] == 3
    assert isinstance(roll, Result) and dict(roll)["operation"] == "proben.test"
    with pytest.raises(AttributeError):
        roll.result = None
    assert json.loads(json.dumps(roll.to_dict()))["result"]["dice"] == list(roll.result.dice)


def test_verify_offline_and_online(sdk):
    roll = sdk.proben.test(attribute=3, difficulty=2)
    assert sdk.verify(roll).valid is True
    assert sdk.verify(roll, offline=False).valid is True
    tampered = roll.to_dict()
    tampered["result"]["successes"] += 1
    assert sdk.verify(tampered).valid is False
    assert sdk.verify(tampered, offline=False).valid is False


def test_systems_keys_batch(sdk):
    assert any(system.id == "proben" for system in sdk.systems().systems)
    # `keys`, `items`, `values` and `get` are mapping methods, so such members are read by item.
    assert sdk.keys()["keys"][0].kty == "OKP"
    results = sdk.batch([{"operation": "proben.test", "body": {"attribute": 2, "difficulty": 1}}]).results
    assert results[0].status == 200


def test_validation_errors_are_typed_with_the_problem(sdk):
    with pytest.raises(InvalidRequest) as error:
        sdk.proben.test(attribute=-1, difficulty=2)
    assert error.value.status == 422 and "attribute" in error.value.errors
    assert error.value.method == "POST" and error.value.url.endswith("/v1/proben/test")


def test_lang_is_sent(app):
    from tests.wsgi_session import WsgiSession

    german = Client("http://wurfwerk.test", session=WsgiSession(app), lang="de")
    assert german.proben.test(attribute=1, difficulty=1, manual=[5]).lang == "de"


@pytest.mark.parametrize("status,error_class", [(400, InvalidRequest), (401, Unauthorized),
                                                (404, NotFound), (500, ServerError), (418, WurfwerkError)])
@responses.activate
def test_status_codes_map_to_exceptions(status, error_class):
    responses.add(responses.POST, f"{BASE}/v1/proben/test", json=PROBLEM, status=status)
    with pytest.raises(error_class) as error:
        _client(retries=0).proben.test(attribute=1, difficulty=1)
    assert error.value.status == status and error.value.problem["title"] == PROBLEM["title"]


@responses.activate
def test_retries_502_503_504_then_succeeds():
    url = f"{BASE}/v1/proben/test"
    responses.add(responses.POST, url, status=503)
    responses.add(responses.POST, url, status=502)
    responses.add(responses.POST, url, json={"operation": "proben.test"}, status=200)
    assert _client().proben.test(attribute=1, difficulty=1).operation == "proben.test"
    assert len(responses.calls) == 3


@responses.activate
def test_gives_up_after_the_retries_with_server_error():
    responses.add(responses.POST, f"{BASE}/v1/proben/test", status=504)
    with pytest.raises(ServerError):
        _client(retries=2).proben.test(attribute=1, difficulty=1)
    assert len(responses.calls) == 3


@responses.activate
def test_never_retries_4xx_or_500():
    responses.add(responses.POST, f"{BASE}/v1/proben/test", json=PROBLEM, status=422)
    with pytest.raises(InvalidRequest):
        _client().proben.test(attribute=1, difficulty=1)
    responses.replace(responses.POST, f"{BASE}/v1/proben/test", status=500)
    with pytest.raises(ServerError):
        _client().proben.test(attribute=1, difficulty=1)
    assert len(responses.calls) == 2


@responses.activate
def test_connection_errors_are_retried_then_transport_error():
    responses.add(responses.POST, f"{BASE}/v1/proben/test", body=requests.ConnectionError("refused"))
    with pytest.raises(TransportError) as error:
        _client(retries=1).proben.test(attribute=1, difficulty=1)
    assert isinstance(error.value.__cause__, requests.ConnectionError)
    assert len(responses.calls) == 2


def test_default_timeout_is_always_passed():
    seen = {}

    class Recording(requests.Session):
        def request(self, method, url, **kwargs):
            seen.update(kwargs)
            raise requests.Timeout("slow")

    client = Client(BASE, session=Recording(), retries=0)
    with pytest.raises(TransportError):
        client.proben.test(attribute=1, difficulty=1)
    assert seen["timeout"] == 10.0


def test_backoff_doubles(monkeypatch):
    sleeps = []
    monkeypatch.setattr("wurfwerk._http.time.sleep", sleeps.append)

    class Failing(requests.Session):
        def request(self, method, url, **kwargs):
            raise requests.ConnectionError("down")

    with pytest.raises(TransportError):
        Client(BASE, session=Failing(), retries=3).proben.test(attribute=1, difficulty=1)
    assert sleeps == [0.2, 0.4, 0.8]


def test_api_key_is_sent_as_bearer():
    client = Client(BASE, api_key="k")
    assert client._transport.headers["Authorization"] == "Bearer k"


def test_every_operation_id_has_an_sdk_method(sdk, app):
    """One method per operation id (API.md §7), hyphens as underscores, `_odds` for twins."""
    for operation_id in app.extensions["wurfwerk"].operations:
        system, _, rest = operation_id.partition(".")
        method = rest.replace(".odds", "_odds").replace("-", "_").replace("/", "_").replace(".", "_")
        namespace = getattr(sdk, system)
        assert callable(getattr(namespace, method, None)), f"{operation_id} -> {system}.{method}"
