"""The service with two reference endpoints, for the throughput benchmark only (never deployed).

They show where the ceiling of a signed operation lies on this machine: the floor (`/livez`)
goes through the same Flask stack and hooks, so each step from `/livez` to a real roll is measured:

- ``POST /bench/parse-only``: the body read and parsed by the request hook, a fixed paws.test-sized
  response written; what any POST costs beyond a GET;
- ``POST /bench/sign-only``: the same, plus the Ed25519 receipt every real operation carries.
  No operation can be faster than this without giving up its signature.
"""

from __future__ import annotations

from service import create_app
from service.platform.http.hooks import request_body
from service.platform.http.http_json import json_response
from service.platform.http.runtime import current_runtime

# A paws.test response of the benchmark's body, without its receipt.
PAWS_TEST_DOCUMENT = {
    "operation": "paws.test",
    "request": {"rank": 3, "fit": "matching", "advantages": {"equipment": None, "personal": None, "situation": None},
                "extra_bonus_dice": 0, "extra_rescue_dice": 0, "wounds": 0},
    "result": {"pool": {"dice": 3, "rescue_dice": 0}, "dice": [4, 1, 6], "successes": 2, "success": True,
               "effects": 1, "catastrophe": False, "rescue": None},
    "randomness": {"source": "secure", "events": [{"kind": "d6", "values": [4, 1, 6]}]},
    "summary": "3 dice: 2 successes, success with 1 effect.",
    "lang": "en",
}


def make(test_config=None):
    """The app of ``create_app(test_config)`` with the two reference endpoints."""
    app = create_app(test_config)

    def parse_only():
        request_body()
        return json_response(PAWS_TEST_DOCUMENT)

    def sign_only():
        request_body()
        return json_response(current_runtime().keys.sign(dict(PAWS_TEST_DOCUMENT)))

    app.add_url_rule("/bench/parse-only", "bench_parse_only", parse_only, methods=["POST"])
    app.add_url_rule("/bench/sign-only", "bench_sign_only", sign_only, methods=["POST"])
    return app
