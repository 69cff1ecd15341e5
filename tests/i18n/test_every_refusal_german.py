"""Every refusal of every operation, in German (issue 40, Deliver 3: "a test that fails when any problem
text under lang=de contains English, run over a corpus that reaches every refusal of every operation
(encounters included)").

What "every refusal" is comes from the code, not from this file: Babel extracts every message a problem
can say (the keywords `say`, `say_n`, `Template`, `plural_template`, `LimitMessage` of `make messages`),
each with its place. The corpus is the spec-built one of tests/test_bad_input_corpus.py, the encounter
refusals of tests/i18n/test_encounter_problems_german.py and the bodies below; every request is sent with
`lang=de` and the message ids its problem says are recorded. The test fails when a message id of the code
is reached by no body (add a body that reaches it, or, when no request can, an entry of UNREACHABLE with
its reason) and when any German problem of the corpus holds an English word."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from service import create_app
from service.platform.dice import sessions
from service.platform.dice.receipts import generate_private_key_pem
from service.platform.words import messages as words
from tests.conftest import make_app
from tests.i18n.test_encounter_problems_german import ENCOUNTER_REFUSALS, GROUP, MALM, _malm_member, english_words
from tests.systems.weltenbuch.test_worked_examples import AMBUSH, MANUAL, TOUGHNESS
from tests.test_bad_input_corpus import _corpus

SERVICE = Path(__file__).parents[2] / "service"
RYNN_SEED = sessions.b64url(bytes(range(32)))  # a seat's seed, as its own client makes one
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]")
# The keywords of the Makefile's `messages` recipe that make a problem message (not `marked` labels or
# the gettext calls of chat lines).
PROBLEM_KEYWORDS = {"say": None, "say_n": (1, 2), "Template": None, "plural_template": (1, 2), "LimitMessage": None}

# Message ids no request to the Flask app can bring into a problem, each with its reason (checked below
# to be still in the code, so the list cannot go stale).
UNREACHABLE = {
    # Said by the gunicorn worker (service/serving/worker.py) before a request reaches the app; their
    # German is checked by tests/serving and, for English words, by test_unreachable_messages_are_german.
    "The request line is longer than %(request_line)s bytes (WURFWERK_MAX_REQUEST_LINE).": "gunicorn worker",
    "This server does not support that transfer coding: %(error)s.": "gunicorn worker",
    "Unsupported Expect header: %(error)s.": "gunicorn worker",
    "Proxy requests from this address are not allowed.": "gunicorn worker",
    "The request is not valid HTTP/1.1: %(error)s.": "gunicorn worker",
    "A header field is longer than %(bytes)s bytes (WURFWERK_MAX_HEADER_BYTES).": "gunicorn worker",
    "The request has more than %(count)s header fields (WURFWERK_MAX_HEADER_FIELDS).": "gunicorn worker",
    "The request body did not arrive within %(seconds)s s (WURFWERK_READ_TIMEOUT).": "gunicorn worker",
    "The service is at capacity and refused this request unprocessed; retry after %(seconds)s s.":
        "the overload guard in front of the app (service/serving/overload.py)",
    "The service failed to handle this request; it has been logged.": "only a bug in the service says it (500)",
    # marshmallow's messages that no field of a request schema can give (test_the_request_schemas_have_no_such_field)
    "must be a number": "fields.Float/Number: only response schemas have such fields",
    "is too large a number": "fields.Float/Number: only response schemas have such fields",
    "must be a finite number": "fields.Float/Number: only response schemas have such fields",
    "must be more than %(min)s": "no request field has an exclusive bound",
    "must be less than %(max)s": "no request field has an exclusive bound",
    "must be more than %(min)s and less than %(max)s": "no request field has an exclusive bound",
    "must be at least %(min)s character long": "no request string has a minimum length without a maximum",
    "must be at most %(max)s": "no request number has an upper bound without a lower one",
    "must be exactly %(equal)s character long": "no request string has an exact length",
    "must be valid UTF-8 text": "marshmallow says it for bytes; a JSON body gives text only",
    "is not a valid value": "marshmallow's validator_failed, for a validator that returns False: every "
                            "validator of the service raises its own message",
    # Checks behind another that refuses first: each guards a caller in the code, not a request.
    "must have an even number of sides, got %(die)s (“Es können beliebige Würfel mit einer geraden Seitenzahl "
    "verwendet werden.”)": "the rules' check behind the schema's „must have an even number of sides“",
    "the player “%(name)s” needs a seat": "the rules' check behind the schema's „a player needs a seat“",
    "must be a session exactly as POST /v1/sessions opened it (members %(members)s)":
        "behind the session header's schema, which names each missing member",
    "must be a ticket object exactly as POST /v1/tickets issued it (members %(members)s)":
        "behind the ticket's schema, which names each missing member",
    "the secret is not the one the session committed to": "behind the reveal's signature: only a reveal this "
                                                          "service signed gets here, and its secret is right",
    "the session does not verify with this service's keys": "behind the reveal's signature, which covers the "
                                                            "session it signed",
    "is not a conflict result this service can narrate (%(error)s)":
        "behind the receipt and operation checks: a conflict this release signed always reads back",
    "is not a draw response of this release": "behind the receipt and operation checks: a draw this release "
                                              "signed always reads back",
    "the document cannot be canonicalized (RFC 8785)": "a JSON body always canonicalizes (integers past 2^53 "
                                                       "become doubles, orjson refuses NaN and 65-bit integers)",
    # Not problems: the luck report of POST /v1/sessions/report says them in a 200 answer.
    "%(seat)s: no measured rolls or draws": "a line of the luck report, not a problem",
    "%(seat)s had bad luck: on average only %(percent)s %% of the possible results would have been worse "
    "(%(counted)s).": "a line of the luck report, not a problem",
    "%(seat)s had good luck: on average %(percent)s %% of the possible results would have been worse "
    "(%(counted)s).": "a line of the luck report, not a problem",
    "%(seat)s had neither good nor bad luck: on average %(percent)s %% of the possible results would have "
    "been worse (%(counted)s).": "a line of the luck report, not a problem",
    "%(line)s With fair chance that would be unusual (p = %(p)s).": "a line of the luck report, not a problem",
    "%(line)s That fits fair chance (p = %(p)s).": "a line of the luck report, not a problem",
    "%(count)d marble draw": "a part of the luck report's line, not a problem",
    "%(count)d dice roll": "a part of the luck report's line, not a problem",
    "%(rolls)s and %(draws)s": "a part of the luck report's line, not a problem",
}


@dataclass(frozen=True)
class Case:
    """One request of the corpus: a JSON body, or raw `data` of a `content_type`."""

    path: str
    body: Any = None
    method: str = "POST"
    data: str | None = None
    content_type: str = "application/json"
    headers: dict = field(default_factory=dict)
    keyed: bool = False  # sent to the app with API keys and ticket keys configured

    def send(self, client) -> Any:
        data = self.data if self.data is not None else json.dumps(self.body)
        separator = "&" if "?" in self.path else "?"
        return client.open(f"{self.path}{separator}lang=de", method=self.method,
                           data=data.encode("utf-8", "surrogatepass") if self.method == "POST" else None,
                           content_type=self.content_type, headers=self.headers)


GM, PLAYER = "gm-key", "player-key"
BEUTEL_BAG = {"red": 3, "green": 2, "white": 2}
PAWS = {"rank": 2}
PROBE = {"attribute": 2, "difficulty": 2}


def _party(name: str, member: str) -> dict:
    return {"name": name, "members": [{"name": member, "role": "npc", "profile": 1}]}


def _bodies() -> list[Case]:
    """Bodies that reach the refusals the spec-built corpus does not."""
    return [Case(path, body) for path, body in [
        # platform: advice (API.md §1.10): a choice asked twice, too many options, too many states in all
        ("/v1/paws/encounter/advice", {"a": {"rank": 2}, "b": {"rank": 2},
                                       "advise": {"choices": ["one_shot_rescue", "one_shot_rescue"]}}),
        ("/v1/paws/encounter/advice", {"a": {"rank": 2}, "b": {"rank": 2}, "one_shot_rescue": {"a": 70, "b": 0},
                                       "advise": {"choices": ["one_shot_rescue"]}}),
        ("/v1/paws/encounter/advice", {"a": {"rank": 10, "extra_bonus_dice": 90},
                                       "b": {"rank": 10, "extra_bonus_dice": 90},
                                       "one_shot_rescue": {"a": 3, "b": 0},
                                       "advise": {"choices": ["one_shot_rescue"]}}),
        # paws: advice on one-shot rescue dice after a lost comparison the side cannot lose, or not by that much
        ("/v1/paws/comparison/advice", {"a": {"rank": 2}, "b": {"rank": 0}}),
        ("/v1/paws/comparison/advice", {"a": {"rank": 2}, "b": {"rank": 2}, "advise": {"side": "b"}, "lost_by": 3}),
        # platform: randomness and manual entries
        ("/v1/paws/test", {**PAWS, "manual": [4]}),
        ("/v1/proben/test", {"attribute": 1, "difficulty": 1, "manual": [1, 2, 3]}),
        ("/v1/paws/test", {"rank": 0, "manual": [7]}),
        ("/v1/malmsturm/action", {"skill": 1, "difficulty": 1, "manual": [2, 0, 0, 0]}),
        ("/v1/malmsturm/action", {"skill": 1, "difficulty": 1, "manual": [0]}),
        ("/v1/beutelschneider/challenge", {"bag": BEUTEL_BAG, "ability": "combat", "difficulty": "easy",
                                           "manual": ["blue", "red", "red"]}),
        ("/v1/beutelschneider/challenge", {"bag": BEUTEL_BAG, "ability": "combat", "difficulty": "easy",
                                           "manual": [True]}),
        ("/v1/beutelschneider/challenge", {"bag": BEUTEL_BAG, "ability": "combat", "difficulty": "easy",
                                           "manual": ["r" * 40]}),
        ("/v1/paws/test", {**PAWS, "manual": [2**40]}),
        ("/v1/paws/test", {**PAWS, "seed": 1, "manual": [4, 4, 4]}),
        ("/v1/paws/test", {**PAWS, "seed": 1, "idempotency_key": "k"}),
        ("/v1/paws/test", {**PAWS, "seed": 2**60}),
        ("/v1/paws/test", {**PAWS, "ticket": {"id": "x"}}),
        ("/v1/paws/test", {**PAWS, "session": {"header": {"id": "x"}, "seat": "GM", "index": 0, "prev": None}}),
        ("/v1/paws/test", {**PAWS, "seed": 1, "session": {"header": {"id": "x"}, "seat": "GM", "index": 0}}),
        ("/v1/receipts/verify", {"operation": "proben.test", "receipt": {"kid": "x"}}),
        ("/v1/paws/test", {**PAWS, "extra_bonus_dice": 101}),
        ("/v1/paws/test", {**PAWS, "extra_rescue_dice": 101}),
        ("/v1/paws/test", {**PAWS, "name": ""}),
        ("/v1/paws/test", {**PAWS, "rank": 1.5}),
        ("/v1/paws/test", {**PAWS, "rank": 1e400}),
        # proben
        ("/v1/proben/test", {"attribute": 2, "skill": 1, "skill_dice": 2, "difficulty": 2}),
        ("/v1/proben/test", {"attribute": 100, "skill": 10, "advantages": 10, "difficulty": 2}),
        ("/v1/proben/cooperation", {"leader": {"attribute": 100}, "helpers": [{"attribute": 1}], "difficulty": 3}),
        ("/v1/proben/encounter", {"steps": []}),
        # paws
        ("/v1/paws/validate-character", {"potential": 3, "power": 15, "categories": [{"name": "a"}, {"name": "a"}]}),
        ("/v1/paws/validate-character", {"potential": 3, "power": 15,
                                         "traits": [{"name": "x", "rank": 2, "category": "zzz"}]}),
        ("/v1/paws/test", {**PAWS, "advantages": {"equipment": "both"}}),
        # beutelschneider
        ("/v1/beutelschneider/challenge", {"bag": {"red": 0}, "ability": "combat"}),
        ("/v1/beutelschneider/challenge", {"bag": {"red": 101}, "ability": "combat"}),
        ("/v1/beutelschneider/validate-bag", {"bag": BEUTEL_BAG, "rules": {"size": 20, "white": 5, "free": 10}}),
        ("/v1/beutelschneider/contest", {"participants": [
            {"name": "A", "bag": BEUTEL_BAG, "ability": "combat"},
            {"name": "B", "bag": BEUTEL_BAG, "ability": "combat", "side": "A"}]}),
        ("/v1/beutelschneider/contest", {"participants": [
            {"name": "A", "bag": BEUTEL_BAG, "ability": "combat"}, {"name": "A", "bag": BEUTEL_BAG,
                                                                    "ability": "combat"}]}),
        ("/v1/beutelschneider/combat", {"attacker": {"name": "A", "bag": BEUTEL_BAG},
                                        "defender": {"name": "A", "bag": BEUTEL_BAG}}),
        ("/v1/beutelschneider/healing", {"bag": BEUTEL_BAG, "chances": "fair", "draws": 2}),
        ("/v1/beutelschneider/healing", {"bag": {"red": 3, "black": 2}, "chances": "fair",
                                         "replacements": ["black", "red"]}),
        ("/v1/beutelschneider/experience", {"bag": BEUTEL_BAG, "amount": "much", "replacements": ["red"]}),
        ("/v1/beutelschneider/experience", {"bag": BEUTEL_BAG, "amount": "much", "manual": ["red", "red", "green"],
                                            "replacements": ["red", "green", "blue"]}),
        ("/v1/beutelschneider/experience", {"bag": BEUTEL_BAG, "amount": "much", "replacements": ["black", None,
                                                                                                   None]}),
        ("/v1/beutelschneider/encounter/odds", {"sides": [{"name": "A", "bag": BEUTEL_BAG, "members": []},
                                                          {"name": "B", "bag": BEUTEL_BAG}]}),
        ("/v1/beutelschneider/encounter/odds", {"sides": [{"name": "A", "bag": BEUTEL_BAG},
                                                          {"name": "A", "bag": BEUTEL_BAG}]}),
        # malmsturm
        ("/v1/malmsturm/contest", {"a": {"name": "A", "skill": 1}, "b": {"name": "A", "skill": 1}}),
        ("/v1/malmsturm/initiative", {"participants": [{"name": "A", "intuition": 1}, {"name": "A", "intuition": 1}]}),
        ("/v1/malmsturm/attack", {"attacker": {"skill": 2, "attack": "harm"}, "defender": {
            "skill": 1, "stress": {"physical": {"current": 4, "max": 3}, "mental": {"current": 2, "max": 2}}}}),
        ("/v1/malmsturm/attack", {"attacker": {"skill": 2, "attack": "harm"}, "defender": {"defend": True}}),
        ("/v1/malmsturm/attack", {"attacker": {"skill": 2, "attack": "harm"}, "defender": {"skill": 1},
                                  "difficulty": 2}),
        # weltenbuch
        ("/v1/weltenbuch/conflict", {"die": 7, "parties": AMBUSH["parties"]}),
        ("/v1/weltenbuch/conflict", {"parties": [{"name": "P", "members": [{"name": "A", "role": "player",
                                                                            "profile": 1}]},
                                                 {"name": "Q", "members": [{"name": "B", "role": "npc", "seat": 1,
                                                                            "profile": 1}]}]}),
        ("/v1/weltenbuch/conflict", {"parties": [{"name": "P", "members": [{"name": "A", "role": "npc",
                                                                            "profile": 1, "hero_points": 1}]},
                                                 {"name": "P", "members": [{"name": "A", "role": "npc",
                                                                            "profile": 1}]}]}),
        ("/v1/weltenbuch/conflict", {"parties": [{"name": "P", "members": [{"name": "A", "role": "player", "seat": 1,
                                                                            "profile": 1}]},
                                                 {"name": "Q", "members": [{"name": "B", "role": "player", "seat": 1,
                                                                            "profile": 100}]}]}),
        ("/v1/weltenbuch/conflict", {"parties": [_party("P", "A"), _party("P", "B")]}),
        ("/v1/weltenbuch/conflict", {"parties": [_party("P", "A"), _party("Q", "A")]}),
        ("/v1/malmsturm/attack", {"attacker": {"skill": 2, "attack": "harm"}, "defender": {
            "defend": True, "stress": {"physical": {"current": 3, "max": 3}, "mental": {"current": 2, "max": 2}}}}),
        ("/v1/malmsturm/attack", {"attacker": {"skill": 2, "attack": "harm"}, "difficulty": 2, "defender": {
            "skill": 1, "stress": {"physical": {"current": 3, "max": 3}, "mental": {"current": 2, "max": 2}}}}),
        ("/v1/paws/test", {"rank": None}),
        ("/v1/paws/test", {"rank": 1, "manual": [7]}),
        ("/v1/beutelschneider/challenge", {"bag": BEUTEL_BAG, "ability": "combat", "difficulty": "easy",
                                           "manual": ["red"]}),
        ("/v1/weltenbuch/conflict", {**AMBUSH, "manual": [1, 2]}),
        ("/v1/weltenbuch/conflict", {"parties": []}),
        ("/v1/weltenbuch/conflict", {"parties": [{"name": "P", "members": [{"name": "A", "role": "npc",
                                                                            "profile": -1}]}] * 2}),
        ("/v1/beutelschneider/encounter/odds", {"sides": [{"name": "A", "bag": BEUTEL_BAG}]}),
        ("/v1/beutelschneider/encounter/odds", {"sides": [{"name": "L", "bag": {"red": 2}}, GROUP],
                                                "pairs": [["L"]]}),
        ("/v1/beutelschneider/experience/apply", {"draw": {}, "replacements": [None] * 4}),
        ("/v1/malmsturm/attack", {"attacker": {"skill": 2, "attack": "harm"}, "defender": {
            "skill": None, "stress": {"physical": {"current": 3, "max": 3}, "mental": {"current": 2, "max": 2}}}}),
        ("/v1/malmsturm/encounter/odds", {**MALM, "exact": "required", "sides": [
            {"name": "A", "members": [_malm_member("a0"), _malm_member("a1")]},
            {"name": "B", "members": [_malm_member("b0")]}]}),
        ("/v1/paws/encounter/odds", {"a": {"rank": 10, "extra_bonus_dice": 40},
                                     "b": {"rank": 10, "extra_bonus_dice": 40}, "exact": "required"}),
        ("/v1/paws/test", {"rank": 10, "extra_bonus_dice": 100}),
        ("/v1/paws/test", {"rank": 1, "advantages": {"equipment": "passive"}, "extra_rescue_dice": 100}),
        ("/v1/beutelschneider/challenge", {"bag": {"red": 60, "white": 50}, "ability": "combat"}),
        ("/v1/weltenbuch/conflict", {"parties": [
            {"name": "P", "members": [{"name": "A", "role": "player", "seat": 1, "profile": 100, "hero_points": 1}]},
            {"name": "Q", "members": [{"name": "B", "role": "npc", "profile": 1}]}]}),
        ("/v1/paws/validate-character", {"potential": 3, "power": 15, "traits": [],
                                         "categories": [{"name": "a"}, {"name": "a"}]}),
        ("/v1/weltenbuch/conflict/odds", {"parties": [
            {"name": f"P{p}", "members": [{"name": f"M{p}.{m}", "role": "npc", "profile": 100} for m in range(11)]}
            for p in range(8)]}),
        ("/v1/malmsturm/encounter/odds", {**MALM, "exact": "required", "sides": [
            {"name": "A", "members": [_malm_member(f"a{i}") for i in range(3)]},
            {"name": "B", "members": [_malm_member(f"b{i}") for i in range(3)]}]}),
        ("/v1/weltenbuch/conflict/odds", {"parties": [{"name": "P", "members": [{"name": "A", "role": "npc",
                                                                                 "profile": 40}]},
                                                      {"name": "Q", "members": [{"name": "B", "role": "npc",
                                                                                 "profile": 40}]}]}),
        ("/v1/weltenbuch/encounter/odds", {**AMBUSH, "toughness": {**TOUGHNESS, "Toran": {"current": 9, "max": 1}}}),
    ]]


def _signed(client) -> list[Case]:
    """Refusals of signed objects handed back: a draw to apply, a conflict to narrate, tickets, sessions."""
    conflict = client.post("/v1/weltenbuch/conflict", json={**AMBUSH, "manual": MANUAL}).get_json()
    healing = client.post("/v1/beutelschneider/healing", json={"bag": {"red": 3, "black": 2}, "chances": "fair",
                                                             "manual": ["black", "red"]}).get_json()
    experience = client.post("/v1/beutelschneider/experience", json={"bag": BEUTEL_BAG, "amount": "much",
                                                                    "manual": ["red", "green", "white"]}).get_json()
    walled = {"parties": [AMBUSH["parties"][0], {"name": "Orcs", "members": [
        *AMBUSH["parties"][1]["members"], {"name": "Wall", "role": "obstacle", "profile": 0}]}]}
    walled = client.post("/v1/weltenbuch/conflict", json={**walled, "manual": MANUAL}).get_json()
    up_front = client.post("/v1/beutelschneider/healing", json={
        "bag": {"red": 3, "black": 2}, "chances": "fair", "manual": ["black", "red"], "replacements": ["red", "red"]})
    tampered = json.loads(json.dumps(healing))
    tampered["result"]["drawn"] = ["red", "red"]
    narration = {"conflict": conflict, "toughness": TOUGHNESS, "spends": []}

    def receipt(**changes):  # the healing draw with its receipt changed: each reason it does not verify
        draw = json.loads(json.dumps(healing))
        draw["receipt"] = {**draw["receipt"], **changes}
        return Case("/v1/beutelschneider/healing/apply", {"draw": draw, "replacements": ["red"]})

    def spend(**entry):
        return Case("/v1/weltenbuch/narration", {**narration, "spends": [entry]})

    return [
        Case("/v1/beutelschneider/healing/apply", {"draw": healing, "replacements": []}),
        Case("/v1/beutelschneider/healing/apply", {"draw": healing, "replacements": ["black"]}),
        Case("/v1/beutelschneider/healing/apply", {"draw": tampered, "replacements": ["red"]}),
        Case("/v1/beutelschneider/healing/apply", {"draw": experience, "replacements": ["red"]}),
        Case("/v1/beutelschneider/healing/apply", {"draw": {"result": "x"}, "replacements": ["red"]}),
        Case("/v1/beutelschneider/healing/apply", {"draw": {"result": {}}, "replacements": ["red"]}),
        receipt(alg="RS256"), receipt(kid="nobody"), receipt(signature=None),
        Case("/v1/beutelschneider/healing/apply", {"draw": {**healing, "result": {**healing["result"], "n": 2**60}},
                                                   "replacements": ["red"]}),
        Case("/v1/beutelschneider/experience/apply", {"draw": experience, "replacements": [None]}),
        Case("/v1/beutelschneider/experience/apply", {"draw": experience, "replacements": ["red", None, None]}),
        Case("/v1/beutelschneider/experience/apply", {"draw": experience, "replacements": ["black", None, None]}),
        Case("/v1/weltenbuch/narration", {**narration, "toughness": {**TOUGHNESS, "Ghost": {"current": 1, "max": 1}}}),
        Case("/v1/weltenbuch/narration", {"conflict": healing, "toughness": TOUGHNESS, "spends": []}),
        spend(member="Ghost", die=0, target="Orc 1"),
        spend(member="Toran", die=40, target="Orc 1"),
        spend(member="Toran", die=0, target="Toran"),
        spend(member="Toran", die=0, target="Fayla"),
        spend(member="Toran", die=0, target="Ghost"),
        Case("/v1/weltenbuch/narration", {**narration, "spends": [{"member": "Toran", "die": 0, "target": "Orc 1"},
                                                                  {"member": "Toran", "die": 0, "target": "Orc 2"}]}),
        spend(member="Toran", die=3, target="Toran"),
        spend(member="Toran", die=3, target="Fayla"),
        Case("/v1/weltenbuch/narration", {**narration, "toughness": {k: v for k, v in TOUGHNESS.items()
                                                                     if k != "Orc 3"},
                                          "spends": [{"member": "Toran", "die": 3, "target": "Orc 3"}]}),
        Case("/v1/weltenbuch/narration", {**narration, "toughness": {k: v for k, v in TOUGHNESS.items()
                                                                     if k != "Toran"},
                                          "hero_points": [{"member": "Toran", "count": 1}]}),
        Case("/v1/weltenbuch/narration", {"conflict": walled, "toughness": {**TOUGHNESS, "Wall": {"current": 1,
                                                                                                   "max": 1}},
                                          "spends": [{"member": "Wall", "die": 0, "target": "Toran"}]}),
        Case("/v1/weltenbuch/narration", {"conflict": walled, "toughness": {**TOUGHNESS, "Wall": {"current": 1,
                                                                                                   "max": 1}},
                                          "spends": [], "hero_points": [{"member": "Wall", "count": 1}]}),
        Case("/v1/beutelschneider/healing/apply", {"draw": up_front.get_json(), "replacements": ["red"]}),
        spend(member="Toran", hero_point=True, die=0),
        spend(member="Toran"),
        Case("/v1/weltenbuch/narration", {**narration, "hero_points": [{"member": "Orc 1", "count": 1}]}),
    ]


def _keyed(client) -> list[Case]:
    """The refusals of API keys, tickets and sessions, on an app with keys configured."""
    gm = {"Authorization": f"Bearer {GM}"}
    player = {"Authorization": f"Bearer {PLAYER}"}
    ticket = client.post("/v1/tickets", json={"count": 1, "operation": "paws.test"}, headers=gm).get_json()
    ticket = ticket["tickets"][0]
    rynn_commit = sessions.seed_commit(sessions.seed_bytes(RYNN_SEED) or b"")
    opened = client.post("/v1/sessions", json={"seats": ["GM", {"name": "Rynn", "commit": rynn_commit}]},
                         headers=gm).get_json()
    session, gm_key = opened["session"], opened["seat_keys"]["GM"]
    short = client.post("/v1/sessions", json={"seats": ["GM"], "ttl_s": 1}, headers=gm).get_json()
    brief = client.post("/v1/tickets", json={"count": 1, "ttl_s": 1}, headers=gm).get_json()["tickets"][0]
    time.sleep(1.1)  # both have ended (the service's clock, to the second)
    forged = {**session, "context": "other"}
    use = {"header": session, "seat": "GM", "seat_key": gm_key, "index": 0, "prev": None}
    version_1 = {name: value for name, value in session.items() if name not in ("version", "seat_commits",
                                                                              "open_seats")}
    ended = client.post("/v1/sessions/reveal", json={"session": short["session"]}, headers=gm).get_json()["reveal"]
    unsigned_reveal = {**ended, "signature": "A" * 86}
    return [Case(path, body, headers=headers, keyed=True) for path, body, headers in [
        ("/v1/paws/test", PAWS, {}),
        ("/v1/tickets", {"count": 1}, player),
        ("/v1/sessions", {"seats": ["GM"]}, player),
        ("/v1/sessions", {"seats": ["GM", "GM"]}, gm),
        ("/v1/sessions", {"seats": [" "]}, gm),
        ("/v1/sessions", {"seats": [{"name": "GM"}]}, gm),
        ("/v1/sessions", {"seats": [{"name": "GM", "commit": "x"}]}, gm),
        ("/v1/proben/test", {**PROBE, "ticket": ticket}, gm),
        ("/v1/paws/test", {**PAWS, "ticket": {**ticket, "context": "other"}}, gm),
        ("/v1/paws/test", {**PAWS, "ticket": {"id": "x"}}, gm),
        ("/v1/paws/test", {**PAWS, "session": {**use, "header": forged}}, gm),
        ("/v1/paws/test", {**PAWS, "session": {**use, "header": version_1}}, gm),
        ("/v1/paws/test", {**PAWS, "session": {**use, "seat": "Alva"}}, gm),
        ("/v1/paws/test", {**PAWS, "session": {**use, "seat_key": RYNN_SEED}}, gm),
        ("/v1/paws/test", {**PAWS, "session": {**use, "seed": RYNN_SEED, "seat_key": None}}, gm),
        ("/v1/paws/test", {**PAWS, "session": {**use, "seat": "Rynn"}}, gm),
        ("/v1/paws/test", {**PAWS, "session": {**use, "seed": RYNN_SEED}}, gm),
        ("/v1/paws/test", {**PAWS, "session": {**use, "seat_key": None}}, gm),
        ("/v1/paws/test", {**PAWS, "session": {**use, "index": -1}}, gm),
        ("/v1/paws/test", {**PAWS, "session": {**use, "prev": "abc"}}, gm),
        ("/v1/paws/test", {**PAWS, "session": {**use, "index": 1}}, gm),
        ("/v1/paws/test", {**PAWS, "session": {**use, "index": 10_001, "prev": "abc"}}, gm),
        ("/v1/paws/test", {**PAWS, "session": {**use, "index": 10**7}}, gm),
        ("/v1/paws/test", {**PAWS, "seed": 1, "session": use}, gm),
        ("/v1/paws/test", {**PAWS, "ticket": brief}, gm),
        ("/v1/paws/test", {**PAWS, "session": {"header": short["session"], "seat": "GM",
                                               "seat_key": short["seat_keys"]["GM"], "index": 0, "prev": None}}, gm),
        ("/v1/sessions/reveal", {"session": session}, player),
        ("/v1/sessions/report", {"reveal": {"session": session}, "cards": []}, gm),
        ("/v1/sessions/report", {"reveal": unsigned_reveal, "cards": []}, gm),
        ("/v1/sessions/report", {"reveal": {"session": forged, "secret": "x", "revealed_at": "x", "kid": "x",
                                            "signature": "x"}, "cards": []}, gm),
        ("/v1/receipts/verify", nested_body(40), gm),
    ]]


def nested_body(depth: int) -> dict:
    body: dict = {"receipt": {}}
    for _ in range(depth):
        body = {"operation": body}
    return body


def _rotated(client, signing_key_pem: str) -> list[Case]:
    """A ticket and a session of a key since retired: the app signs with a new key and only verifies with
    the old one (WURFWERK_VERIFY_KEYS)."""
    ticket = client.post("/v1/tickets", json={"count": 1}).get_json()["tickets"][0]
    opened = client.post("/v1/sessions", json={"seats": ["GM"], "ttl_s": 1}).get_json()
    time.sleep(1.1)  # ended: a reveal is asked for, and the private key is gone
    use = {"header": opened["session"], "seat": "GM", "seat_key": opened["seat_keys"]["GM"], "index": 0, "prev": None}
    return [Case("/v1/paws/test", {**PAWS, "ticket": ticket}),
            Case("/v1/paws/test", {**PAWS, "session": use}),
            Case("/v1/sessions/reveal", {"session": opened["session"]})]


def _public_pem(private_pem: str) -> str:
    from cryptography.hazmat.primitives import serialization

    key = serialization.load_pem_private_key(private_pem.encode(), password=None)
    return key.public_key().public_bytes(serialization.Encoding.PEM,
                                         serialization.PublicFormat.SubjectPublicKeyInfo).decode()


def _raw() -> list[Case]:
    """Requests that are wrong before their body is read."""
    return [
        Case("/nowhere", method="GET"),
        Case("/v1/paws/test", method="GET"),
        Case("/v1/paws/test", data="{}", content_type=""),
        Case("/v1/paws/test", data=""),
        Case("/v1/paws/test", data=json.dumps({**PAWS, "name": "x" * 2_000_000})),
        Case("/v1/paws/test", PAWS, headers={"Idempotency-Key": "\u00e4"}),
        Case("/v1/paws/test", {**PAWS, "seed": 1}, headers={"Idempotency-Key": "k"}),
        Case("/v1/paws/test", {**PAWS, "idempotency_key": "j"}, headers={"Idempotency-Key": "k"}),
    ]


# --- the run ---------------------------------------------------------------------------------------


@cache
def problem_messages() -> dict[str, list[str]]:
    """Every message id a problem can say -> where the code says it."""
    found: dict[str, list[str]] = {}
    for filename, line, message, _comments, _context in extract_from_dir(SERVICE, keywords=PROBLEM_KEYWORDS):
        msgid = message[0] if isinstance(message, tuple) else message
        found.setdefault(msgid, []).append(f"service/{filename}:{line}")
    return found


@dataclass
class Run:
    said: set[str] = field(default_factory=set)
    english: list[tuple[str, str]] = field(default_factory=list)
    requests: int = 0


def _messages(body: dict) -> list[str]:
    return [body["title"], body["detail"], *(m for messages in body.get("errors", {}).values() for m in messages)]


def _cases(app, keyed_app, rotated_app, signing_key_pem) -> Iterator[tuple[Any, Case]]:
    client, keyed_client = app.test_client(), keyed_app.test_client()
    for path, data, content_type in _corpus(client.get("/openapi.json").get_json()):
        yield client, Case(path, data=data, content_type=content_type)
    for path, body in ENCOUNTER_REFUSALS:
        yield client, Case(path, body)
    for case in [*_bodies(), *_raw(), *_signed(client)]:
        yield client, case
    for case in [*_keyed(keyed_client), Case("/metrics", method="GET", headers={"Authorization": f"Bearer {GM}"})]:
        yield keyed_client, case
    rotated_client = rotated_app.test_client()
    for case in _rotated(client, signing_key_pem):
        yield rotated_client, case


@pytest.fixture(scope="module")
def run(signing_key_pem) -> Run:
    app = make_app(signing_key_pem)
    keyed_app = make_app(signing_key_pem, api_keys=(GM, PLAYER), ticket_keys=(GM,), metrics_token="scrape")
    keyless_app = create_app({"require_signing_key": True})
    rotated_app = make_app(generate_private_key_pem(), verify_keys_pem=_public_pem(signing_key_pem))
    result = Run()
    originals = {kind: kind.__dict__["say"] for kind in (words.Message, words.Choices)}

    def recording(original):
        def say(self, lang, glossary=None):
            if lang == "de":
                result.said.add(self.msgid)
            return original(self, lang, glossary)
        return say

    for kind, original in originals.items():
        kind.say = recording(original)
    try:
        for client, case in _cases(app, keyed_app, rotated_app, signing_key_pem):
            response = case.send(client)
            result.requests += 1
            if response.status_code < 400:
                continue
            body = json.loads(response.get_data(as_text=True))
            result.english += [(case.path, message) for message in _messages(body) if english_words(message)]
        readyz = keyless_app.test_client().get("/readyz?lang=de")
        result.english += [("/readyz", m) for m in _messages(readyz.get_json()) if english_words(m)]
    finally:
        for kind, original in originals.items():
            kind.say = original
    return result


def test_the_corpus_reaches_every_refusal_of_the_code(run):
    unreached = {msgid: places for msgid, places in problem_messages().items()
                 if msgid not in run.said and msgid not in UNREACHABLE}
    assert unreached == {}, f"{len(unreached)} refusals no body of the corpus reaches: add bodies to this file"


def test_the_unreachable_list_names_only_messages_of_the_code(run):
    stale = [msgid for msgid in UNREACHABLE if msgid not in problem_messages()]
    reached = [msgid for msgid in UNREACHABLE if msgid in run.said]
    assert stale == [] and reached == []


def test_no_german_problem_of_the_corpus_holds_english(run):
    assert run.requests >= 1500
    assert run.english == []


def test_the_request_schemas_have_no_such_field(spec):
    """The reasons of UNREACHABLE for marshmallow's messages, checked in the spec's request bodies."""
    found = []

    def walk(node, where):
        if isinstance(node, dict):
            if node.get("type") == "number" or "exclusiveMinimum" in node or "exclusiveMaximum" in node:
                found.append(where)
            if node.get("type") == "string" and "minLength" in node and (
                    "maxLength" not in node or node["minLength"] == node["maxLength"]):
                found.append(where)
            for key, value in node.items():
                walk(value, f"{where}/{key}")
        elif isinstance(node, list):
            for index, value in enumerate(node):
                walk(value, f"{where}/{index}")

    requests = {name for path in spec["paths"].values() for operation in path.values()
                if isinstance(operation, dict) and "requestBody" in operation
                for name in [operation["requestBody"]["content"]["application/json"]["schema"]["$ref"].rsplit("/")[-1]]}
    referenced, todo = set(), list(requests)
    while todo:  # the request schemas and every schema they refer to
        name = todo.pop()
        if name in referenced:
            continue
        referenced.add(name)
        todo += [ref.rsplit("/")[-1] for ref in _refs(spec["components"]["schemas"][name])]
    for name in sorted(referenced):
        walk(spec["components"]["schemas"][name], name)
    assert found == []


def _refs(node) -> Iterator[str]:
    if isinstance(node, dict):
        if isinstance(node.get("$ref"), str):
            yield node["$ref"]
        for value in node.values():
            yield from _refs(value)
    elif isinstance(node, list):
        for value in node:
            yield from _refs(value)


def test_unreachable_messages_are_german():
    """What no request reaches is still read: its German holds no English word."""
    with (SERVICE / "locale" / "de" / "LC_MESSAGES" / "wurfwerk.po").open("rb") as po:
        catalog = {(m.id[0] if isinstance(m.id, tuple) else m.id): m.string for m in read_po(po) if m.id}
    found = []
    for msgid in UNREACHABLE:
        forms = catalog[msgid] if isinstance(catalog[msgid], tuple) else (catalog[msgid],)
        found += [(msgid, form) for form in forms if not form or english_words(PLACEHOLDER.sub(" ", form))]
    assert found == []
