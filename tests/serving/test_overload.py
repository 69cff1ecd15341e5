"""The load shedder in front of the app (service/serving/overload.py), with a queue delay set by hand."""

from __future__ import annotations

import orjson
import pytest
from werkzeug.test import Client

from service.serving.overload import LoadShedder, QueueDelayMonitor, SheddingPolicy


class FixedDelay(QueueDelayMonitor):
    def __init__(self, seconds: float):  # no sleeper thread: the delay is what the test says
        self.seconds = seconds

    def delay(self) -> float:
        return self.seconds


def _app(environ, start_response):
    start_response("200 OK", [("Content-Type", "text/plain")])
    return [b"served"]


def _client(delay: float, **policy) -> Client:
    policy = {"max_queue_delay": 0.1, "retry_after": 2, **policy}
    return Client(LoadShedder(_app, SheddingPolicy(**policy), monitor=FixedDelay(delay)))


def test_within_the_bound_every_request_is_served():
    client = _client(delay=0.1)
    assert all(client.post("/v1/paws/test").status_code == 200 for _ in range(50))


def test_at_twice_the_bound_every_v1_request_is_refused_with_a_problem_and_retry_after():
    response = _client(delay=0.2).post("/v1/paws/test", headers={"X-Request-ID": "abc-1"})
    assert response.status_code == 503
    assert response.headers["Retry-After"] == "2"
    assert response.headers["Content-Type"] == "application/problem+json"
    assert response.headers["X-Request-ID"] == "abc-1"
    problem = orjson.loads(response.data)
    assert problem == {"type": "https://wurfwerk.dev/problems/overloaded", "title": "Service Unavailable",
                       "status": 503, "detail": problem["detail"], "instance": "/v1/paws/test", "request_id": "abc-1"}
    assert "retry after 2 s" in problem["detail"]


def test_between_one_and_two_times_the_bound_a_share_is_refused_growing_with_the_delay():
    refused = {delay: sum(_client(delay).get("/v1/keys").status_code == 503 for _ in range(400))
               for delay in (0.125, 0.175)}
    assert 40 < refused[0.125] < 160  # (0.125 - 0.1) / 0.1 = a quarter of 400
    assert 240 < refused[0.175] < 360  # three quarters


@pytest.mark.parametrize("path", ["/livez", "/readyz", "/metrics", "/docs"])
def test_health_readiness_and_metrics_are_never_refused(path):
    assert _client(delay=10).get(path).status_code == 200


def test_a_browser_can_read_the_refusal_and_its_retry_after():
    response = _client(delay=1, cors_origins=("https://table.example",)).get(
        "/v1/keys", headers={"Origin": "https://table.example"})
    assert response.headers["Access-Control-Allow-Origin"] == "https://table.example"
    assert "Retry-After" in response.headers["Access-Control-Expose-Headers"]
    other = _client(delay=1, cors_origins=("https://table.example",)).get(
        "/v1/keys", headers={"Origin": "https://elsewhere.example"})
    assert "Access-Control-Allow-Origin" not in other.headers


@pytest.mark.parametrize(("ask", "lang", "words"), [
    ({"query_string": "lang=de-AT"}, "de", "bitte nach 2 s erneut versuchen"),
    ({"headers": {"Accept-Language": "fr;q=1, de;q=0.8"}}, "de", "bitte nach 2 s erneut versuchen"),
    ({"query_string": "lang=fr"}, "en", "retry after 2 s"),
    ({}, "en", "retry after 2 s"),
])
def test_the_refusal_is_in_the_language_every_other_problem_would_be(ask, lang, words):
    """API.md §1 (issue 29): ``?lang`` in any case and with a region, else Accept-Language, else English."""
    response = _client(delay=0.2).post("/v1/paws/test", **ask)
    problem = orjson.loads(response.data)
    assert response.headers["Content-Language"] == lang
    assert "Accept-Language" in response.headers["Vary"]
    assert words in problem["detail"]
    assert problem["title"] == {"de": "Dienst nicht verfügbar", "en": "Service Unavailable"}[lang]
