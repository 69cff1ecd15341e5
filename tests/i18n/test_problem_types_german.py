"""Every problem type in German (issue 40, Deliver 5: golden tables with "every problem type in German"):
one row per type of README's "Problem types" table (``PROBLEM_TYPES``), each answered to a `lang=de`
request through the app, or, for the types said before a request reaches the app, by the code that says
them (the gunicorn worker's refusals, the load shedder, the balancer's haproxy.cfg). The golden file
tests/i18n/golden/problem_types.md is what a reviewer reads; `make golden` rewrites it."""

from __future__ import annotations

import io
import json
import os
import re
from pathlib import Path
from types import SimpleNamespace

import orjson
import pytest
from gunicorn.http import errors as http_errors
from werkzeug.test import EnvironBuilder

from service import create_app
from service.platform.http.problems import PROBLEM_TYPES, problem_document, problem_title
from service.serving import worker
from service.serving.overload import LoadShedder, SheddingPolicy
from service.serving.worker import BodyDeadline
from tests.conftest import make_app
from tests.i18n.test_encounter_problems_german import _malm_member, english_words

GOLDEN = Path(__file__).parent / "golden" / "problem_types.md"
TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ")  # a session's end: the golden file holds no clock
HAPROXY = Path(__file__).parents[2] / "deploy" / "balancer" / "haproxy.cfg"
GM, PLAYER = "gm-key", "player-key"
# Only the balancer's 429 is not German yet: haproxy answers it with one fixed body (issue 40 gap).
ENGLISH_ONLY = {"rate-limited"}


@pytest.fixture(scope="module")
def apps(signing_key_pem):
    keyed = make_app(signing_key_pem, api_keys=(GM, PLAYER), ticket_keys=(GM,))
    failing = make_app(signing_key_pem)

    @failing.post("/v1/fails")
    def fails():  # a fault in the service, as any route could have one
        raise RuntimeError("a bug")

    return SimpleNamespace(plain=make_app(signing_key_pem), keyed=keyed, failing=failing,
                           keyless=create_app({"require_signing_key": True}))


def _de(client, path, *, method="POST", body=None, data=None, content_type="application/json", headers=None):
    response = client.open(f"{path}?lang=de", method=method, data=data if data is not None else json.dumps(body),
                           content_type=content_type, headers=headers or {})
    return json.loads(response.get_data(as_text=True))


def _worker_problem(exc: BaseException) -> dict:
    """The problem the service's gunicorn worker answers to a request gunicorn could not parse."""
    fake = SimpleNamespace(cfg=SimpleNamespace(limit_request_line=4094, limit_request_field_size=8190,
                                               limit_request_fields=100))
    fake._headers_detail = lambda error: worker.Worker._headers_detail(fake, error)
    status, slug, detail = worker.Worker._problem_of(fake, exc)
    return problem_document(status, detail.say("de"), slug=slug, title=problem_title(status, "de"),
                            instance="/v1/paws/test", request_id="-")


def _late_body(app) -> dict:
    """A body that arrives after WURFWERK_READ_TIMEOUT (the worker's BodyDeadline around the app)."""
    import gevent

    class Slow(io.BytesIO):
        def read(self, size=-1):
            gevent.sleep(0.2)
            return super().read(size)

    environ = EnvironBuilder(path="/v1/paws/test", method="POST", query_string="lang=de", data=b'{"rank": 3}',
                             content_type="application/json").get_environ()
    environ["wsgi.input"] = Slow(b'{"rank": 3}')
    environ["gunicorn.socket"] = SimpleNamespace(shutdown=lambda how: None)
    return orjson.loads(b"".join(BodyDeadline(app.wsgi_app, 0.05)(environ, lambda *_: None)))


def _shed() -> dict:
    shedder = LoadShedder(lambda *_: [], SheddingPolicy(max_queue_delay=0.1, retry_after=2),
                          monitor=SimpleNamespace(delay=lambda: 1.0))
    return orjson.loads(b"".join(shedder._refuse({"QUERY_STRING": "lang=de", "PATH_INFO": "/v1/paws/test"},
                                                 lambda *_: None)))


def _balancer() -> dict:
    """The 429 body of deploy/balancer/haproxy.cfg, its variables filled in."""
    body = re.search(r'http-request return status 429 .*? lf-string "(.*?)" if', HAPROXY.read_text()).group(1)
    body = body.replace('\\"', '"').replace("${WURFWERK_RATE_LIMIT_REQUESTS}", "600").replace(
        "${WURFWERK_RATE_LIMIT_PERIOD_SECONDS}", "60")
    body = re.sub(r"%\[[^\]]*\]", "-", body)
    return json.loads(body)


def problems(apps) -> dict[str, tuple[str, dict]]:
    """Problem type -> (the request, its German problem)."""
    plain, keyed = apps.plain.test_client(), apps.keyed.test_client()
    gm, player = {"Authorization": f"Bearer {GM}"}, {"Authorization": f"Bearer {PLAYER}"}
    ticket = keyed.post("/v1/tickets", json={"count": 1, "operation": "paws.test"}, headers=gm).get_json()
    session = keyed.post("/v1/sessions", json={"seats": ["GM", "Rynn"]}, headers=gm).get_json()["session"]
    healing = plain.post("/v1/beutelschneider/healing", json={"bag": {"red": 3, "black": 2}, "chances": "fair",
                                                             "manual": ["black", "red"]}).get_json()
    healing["result"]["drawn"] = ["red", "red"]
    group = [_malm_member(f"a{i}") for i in range(4)]
    return {
        "malformed-json": ("POST /v1/paws/test `{\"rank\": 1`", _de(plain, "/v1/paws/test", data='{"rank": 1')),
        "bad-request": ("a request line that is not HTTP/1.1 (the worker)",
                        _worker_problem(http_errors.InvalidRequestLine("GET /v1 HTTP/9"))),
        "unauthorized": ("POST /v1/paws/test without a key (API keys configured)",
                         _de(keyed, "/v1/paws/test", body={"rank": 1})),
        "forbidden": ("POST /v1/tickets with a player's key",
                      _de(keyed, "/v1/tickets", body={"count": 1}, headers=player)),
        "not-found": ("GET /nowhere", _de(plain, "/nowhere", method="GET")),
        "method-not-allowed": ("GET /v1/paws/test", _de(plain, "/v1/paws/test", method="GET")),
        "payload-too-large": ("POST /v1/paws/test with 2 MB", _de(plain, "/v1/paws/test",
                                                                  body={"rank": 1, "name": "x" * 2_000_000})),
        "unsupported-media-type": ("POST /v1/paws/test as text/plain",
                                   _de(plain, "/v1/paws/test", body={"rank": 1}, content_type="text/plain")),
        "validation-error": ("POST /v1/paws/test `{\"rank\": 99}`", _de(plain, "/v1/paws/test", body={"rank": 99})),
        "invalid-input": ("POST /v1/paws/test `{\"rank\": 2, \"manual\": [4]}`",
                          _de(plain, "/v1/paws/test", body={"rank": 2, "manual": [4]})),
        "rule-violation": ("POST /v1/beutelschneider/healing, a black replacement",
                           _de(plain, "/v1/beutelschneider/healing", body={
                               "bag": {"red": 3, "black": 2}, "chances": "fair", "manual": ["black", "red"],
                               "replacements": ["black", "red"]})),
        "invalid-receipt": ("POST /v1/beutelschneider/healing/apply, the draw altered",
                            _de(plain, "/v1/beutelschneider/healing/apply",
                                body={"draw": healing, "replacements": ["red"]})),
        "encounter-too-large": ("POST /v1/malmsturm/encounter/odds, four against four",
                                _de(plain, "/v1/malmsturm/encounter/odds", body={"sides": [
                                    {"name": "Helden", "members": group},
                                    {"name": "Orks", "members": [{**m, "name": f"b{i}"} for i, m in
                                                                 enumerate(group)]}]})),
        "invalid-ticket": ("POST /v1/proben/test with a ticket for paws.test",
                           _de(keyed, "/v1/proben/test", headers=gm, body={
                               "attribute": 2, "difficulty": 2, "ticket": ticket["tickets"][0]})),
        "invalid-session": ("POST /v1/paws/test, a seat the session does not have",
                            _de(keyed, "/v1/paws/test", headers=gm, body={"rank": 1, "session": {
                                "header": session, "seat": "Alva", "seat_key": "x", "index": 0, "prev": None}})),
        "session-open": ("POST /v1/sessions/reveal before the end, without API keys",
                         _de(plain, "/v1/sessions/reveal", body={"session": plain.post(
                             "/v1/sessions", json={"seats": ["GM"]}).get_json()["session"]})),
        "request-timeout": ("a body later than WURFWERK_READ_TIMEOUT (the worker's deadline)",
                            _late_body(apps.plain)),
        "uri-too-long": ("a request line of 5000 bytes (the worker)",
                         _worker_problem(http_errors.LimitRequestLine(5000, 4094))),
        "header-fields-too-large": ("a header of 9000 bytes (the worker)",
                                    _worker_problem(http_errors.LimitRequestHeaders("limit request headers "
                                                                                    "fields size"))),
        "rate-limited": ("more requests than the balancer allows (haproxy.cfg)", _balancer()),
        "internal-error": ("a fault in the service", _de(apps.failing.test_client(), "/v1/fails", body={})),
        "overloaded": ("a request while the queue is too long (the load shedder)", _shed()),
        "not-ready": ("GET /readyz, WURFWERK_REQUIRE_SIGNING_KEY=1 and no key",
                      _de(apps.keyless.test_client(), "/readyz", method="GET")),
        "http-error": ("a transfer coding the server does not support (the worker)",
                       _worker_problem(http_errors.UnsupportedTransferCoding("gzip"))),
    }


def _messages(problem: dict) -> list[str]:
    return [problem["title"], problem["detail"], *(m for ms in problem.get("errors", {}).values() for m in ms)]


def render(rows: dict[str, tuple[str, dict]]) -> str:
    lines = []
    for slug in PROBLEM_TYPES:
        request, problem = rows[slug]
        said = TIME.sub("…", problem["detail"])
        cells = [f"`{slug}`", str(problem["status"]), request, f"**{problem['title']}** – {said}"]
        lines.append("| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |")
    return ("# Every problem type in German\n\nOne row per type of README's \"Problem types\", each answered to a "
            "`lang=de` request (title – detail); `make golden` rewrites this file.\n\n"
            "| type | status | request | de |\n|---|---|---|---|\n" + "\n".join(lines) + "\n")


@pytest.fixture(scope="module")
def rows(apps):
    return problems(apps)


def test_every_problem_type_has_its_row(rows):
    assert sorted(rows) == sorted(PROBLEM_TYPES)
    for slug, (_, problem) in rows.items():
        assert problem["type"].endswith("/" + slug), (slug, problem)


def test_every_problem_type_is_german(rows):
    english = {slug: [m for m in _messages(problem) if english_words(m)] for slug, (_, problem) in rows.items()
               if slug not in ENGLISH_ONLY}
    assert {slug: found for slug, found in english.items() if found} == {}


def test_the_golden_problem_types_hold(rows):
    current = render(rows)
    if os.environ.get("WURFWERK_UPDATE_GOLDEN") == "1":
        GOLDEN.write_text(current, encoding="utf-8")
    assert GOLDEN.read_text(encoding="utf-8") == current, (
        "a problem changed: read the difference, then `make golden` rewrites tests/i18n/golden/problem_types.md")
