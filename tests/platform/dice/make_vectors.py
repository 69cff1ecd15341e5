"""Writes tests/platform/dice/vectors.json: one session's log and the ways a log goes wrong, honest and
hostile, each with the verdict it must get. Run after a deliberate change of the session format:

    PYTHONPATH=$PWD:$PWD/client python tests/platform/dice/make_vectors.py

The file is shared by the Python SDK's tests, the JavaScript client's and the report's (the service
is started with the key it holds, a key for these tests only), so the three verifiers give one
verdict on every entry. Each case's expected verdict is written here by hand from what the case
does, never read back from a verifier.

A case's ``cards`` are indices into ``log`` (the cards as rolled) or card objects of its own;
``reveal`` is ``"reveal"`` (the session's reveal) or an object of its own; ``seeds`` (default: the
file's ``seeds``) the seats' seeds handed to the verifier. ``service_status`` 422: the service
refuses the whole report (a body nested too deeply), where the offline verifiers find the card
``malformed``. The hostile corpus (issue 48): number spellings (``1.0`` for 1, float marble counts),
null cards, alias base64url spellings of a signature, deep nesting, far indices, foreign sessions,
missing, wrong and mis-spelt seeds.
"""

from __future__ import annotations

import copy
import json
from datetime import timedelta
from pathlib import Path

from service import create_app
from service.platform.dice import sessions
from service.platform.dice.receipts import KeyRing, generate_private_key_pem
from service.platform.http.runtime import current_runtime
from service.systems.beutelschneider.routes import CHALLENGE_EXAMPLE
from service.systems.malmsturm.routes import ACTION_EXAMPLE
from service.systems.paws.routes import POOL_EXAMPLE
from service.systems.proben.routes import TEST_EXAMPLE
from service.systems.weltenbuch.routes import CONFLICT_EXAMPLE

OUT = Path(__file__).with_name("vectors.json")
EMPTY = {"complete": True, "gaps": [], "duplicates": [], "invalid": [], "after_reveal": [], "unshown": [],
         "unverified": []}
DEEP_PLACEHOLDER = "<500 levels of nesting>"
B64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"


def verdict(**changes: object) -> dict:
    result = {**copy.deepcopy(EMPTY), **changes}
    result["complete"] = not any(result[name] for name in EMPTY if name != "complete")
    return result


def alias_spelling(signature: str) -> str:
    """Another base64url spelling of the same 64 bytes: the last character carries 2 bits of the
    signature and 4 unused ones, which a lenient decoder ignores."""
    last = B64URL.index(signature[-1])
    return signature[:-1] + B64URL[last ^ 0b0001]


def nested(depth: int) -> dict:
    value: dict = {}
    for _ in range(depth):
        value = {"a": value}
    return value


def main() -> None:  # noqa: PLR0915  # one evening, told in order
    pem = generate_private_key_pem()
    app = create_app({"signing_key_pem": pem})
    client = app.test_client()
    seeds = {"Rynn": sessions.make_seed(), "Alva": sessions.make_seed()}
    commits = {seat: sessions.seed_commit(sessions.seed_bytes(seed) or b"") for seat, seed in seeds.items()}
    opened = client.post("/v1/sessions", json={
        "seats": ["GM", {"name": "Rynn", "commit": commits["Rynn"]}, {"name": "Alva", "commit": commits["Alva"]}],
        "context": "vectors", "ttl_s": 604_800}).get_json()
    header, proofs = opened["session"], {"GM": {"seat_key": opened["seat_keys"]["GM"]},
                                         "Rynn": {"seed": seeds["Rynn"]}, "Alva": {"seed": seeds["Alva"]}}
    other = client.post("/v1/sessions", json={"seats": ["GM", "Rynn", "Alva"]}).get_json()
    links: dict[str, str | None] = {"GM": None, "Rynn": None, "Alva": None}
    counters = {"GM": 0, "Rynn": 0, "Alva": 0}

    def roll(path: str, body: dict, seat: str, *, hidden: bool = False, prev: str | None = "auto",
             index: int | None = None, session: dict | None = None) -> dict:
        proof = {"seat_key": session["seat_keys"][seat]} if session else proofs[seat]
        use = {"header": session["session"] if session else header, "seat": seat, **proof,
               "index": counters[seat] if index is None else index,
               "prev": links[seat] if prev == "auto" else prev}
        if hidden:
            use["hidden"] = True
        response = client.post(path, json={**body, "session": use})
        assert response.status_code == 200, response.get_json()
        card = response.get_json()
        if session is None and prev == "auto" and index is None:
            links[seat] = card["public"]["signature"] if hidden else card["receipt"]["signature"]
            counters[seat] += 1
        return card

    log = [
        roll("/v1/proben/test", TEST_EXAMPLE, "Rynn"),                 # 0 Rynn 0 d6
        roll("/v1/malmsturm/action", ACTION_EXAMPLE, "Rynn"),          # 1 Rynn 1 dF
        roll("/v1/weltenbuch/conflict", CONFLICT_EXAMPLE, "Rynn"),     # 2 Rynn 2 d10
        roll("/v1/beutelschneider/challenge", CHALLENGE_EXAMPLE, "Alva"),  # 3 Alva 0 draw
        roll("/v1/paws/test", POOL_EXAMPLE, "Alva"),                   # 4 Alva 1 d6
    ]
    hidden0 = roll("/v1/proben/test", TEST_EXAMPLE, "GM", hidden=True)
    log += [hidden0, hidden0["public"]]                                                              # 5, 6 GM 0
    hidden1 = roll("/v1/paws/test", POOL_EXAMPLE, "GM", hidden=True)
    log += [hidden1, hidden1["public"]]                                                              # 7, 8 GM 1
    some_link = log[0]["receipt"]["signature"]
    extras = {
        # Alva's slot 1 rolled a second time, with another operation: other dice for the same slot
        "reroll": roll("/v1/proben/test", TEST_EXAMPLE, "Alva", index=1, prev=log[3]["receipt"]["signature"]),
        # Rynn's slot 1 rolled with a prev that is not Rynn's roll 0 (the service cannot know it)
        "bad_prev": roll("/v1/proben/test", TEST_EXAMPLE, "Rynn", index=1, prev=log[4]["receipt"]["signature"]),
        # a card of another session of the same service
        "other_session": roll("/v1/proben/test", TEST_EXAMPLE, "Rynn", session=other, index=3, prev=some_link),
        # Rynn, calling the API directly, rolls the last slot the service allows: a gap of 9,997 slots
        "far_slot": roll("/v1/paws/test", POOL_EXAMPLE, "Rynn", index=10_000, prev=some_link),
    }
    with app.app_context():
        keys: KeyRing = current_runtime().keys
        reveal = sessions.reveal(keys, header, now=sessions.parse_time(header["expires_at"]) + timedelta(seconds=1))

        def signed_by_service(card: dict, change: object) -> dict:
            """The service as an adversary: ``card`` changed by ``change`` and signed again."""
            forged = copy.deepcopy(card)
            forged.pop("receipt")
            change(forged)
            return keys.sign(forged)

        # dice that are not the committed ones; a hidden card whose result is not the committed one
        wrong_dice = signed_by_service(log[4], lambda card: card["randomness"]["events"][0]["values"].__setitem__(
            0, card["randomness"]["events"][0]["values"][0] % 6 + 1))
        wrong_commitment = signed_by_service(
            log[7], lambda card: card["result"].__setitem__("successes", card["result"]["successes"] + 1))
        # a slot far beyond the limit, as a service that ignored it would sign it
        beyond_limit = signed_by_service(
            extras["far_slot"], lambda card: card["request"]["session"].__setitem__("index", 999_999))
        # a reveal with another secret, signed by the service: the commit shows it
        wrong_secret = {name: value for name, value in reveal.items() if name != "signature"}
        wrong_secret["secret"] = "A" * 43
        wrong_secret = {**wrong_secret, "signature": keys.signature_of(sessions.canonical_bytes(wrong_secret))}
        # a reveal the service signed over an altered session header: the header's own signature fails
        altered_header = {name: value for name, value in copy.deepcopy(reveal).items() if name != "signature"}
        altered_header["session"]["seats"].append("Mallory")
        altered_header = {**altered_header, "signature": keys.signature_of(sessions.canonical_bytes(altered_header))}
        # a second reveal of the same session with another time (version 1 let the game master make one)
        early_reveal = {name: value for name, value in copy.deepcopy(reveal).items() if name != "signature"}
        early_reveal["revealed_at"] = header["opened_at"]
        early_reveal = {**early_reveal, "signature": keys.signature_of(sessions.canonical_bytes(early_reveal))}
        jwks = keys.jwks()
    # a card signed by a key the JWKS does not list (a forger's own service)
    forger = create_app({"signing_key_pem": generate_private_key_pem()})
    with forger.app_context():
        forged = copy.deepcopy(log[0])
        forged.pop("receipt")
        current_runtime().keys.sign(forged)
    altered = copy.deepcopy(log[0])
    altered["result"]["successes"] += 1
    altered_public = copy.deepcopy(log[6])
    altered_public["commitment"] = "A" + altered_public["commitment"][1:]
    forged_reveal = copy.deepcopy(reveal)
    forged_reveal["secret"] = "B" * 43
    # the same values, other spellings: 1.0 for the index 1, marble counts as floats
    index_as_float = copy.deepcopy(log[1])
    index_as_float["request"]["session"]["index"] = 1.0
    marbles_as_floats = copy.deepcopy(log[3])
    for event in marbles_as_floats["randomness"]["events"]:
        event["bag"] = {colour: float(count) for colour, count in event["bag"].items()}
    alias_card = copy.deepcopy(log[4])
    alias_card["receipt"]["signature"] = alias_spelling(alias_card["receipt"]["signature"])
    alias_public = copy.deepcopy(log[6])
    alias_public["signature"] = alias_spelling(alias_public["signature"])
    alias_reveal = copy.deepcopy(reveal)
    alias_reveal["signature"] = alias_spelling(alias_reveal["signature"])
    deep_card = copy.deepcopy(log[0])
    deep_card["result"]["effects"] = DEEP_PLACEHOLDER  # written compactly below

    base = list(range(9))
    cases = [
        {"name": "complete", "note": "every card, in the order rolled, with both players' seeds",
         "cards": base, "expect": verdict()},
        {"name": "reorder", "note": "the log's order does not matter: links and indices decide",
         "cards": base[::-1], "expect": verdict()},
        {"name": "table-log", "note": "what the table saw: hidden rolls only as their public parts",
         "cards": [0, 1, 2, 3, 4, 6, 8], "expect": verdict(unshown=[{"seat": "GM", "index": 0},
                                                                   {"seat": "GM", "index": 1}])},
        {"name": "drop", "note": "Rynn's roll 1 left out: a gap before roll 2",
         "cards": [0, 2, 3, 4, 5, 6, 7, 8], "expect": verdict(gaps=[{"seat": "Rynn", "from": 1, "to": 1}])},
        {"name": "drop-last", "note": "Rynn's last roll withheld: no later card names it, so nobody can tell "
                                      "(the guarantee's limit)",
         "cards": [0, 1, 3, 4, 5, 6, 7, 8], "expect": verdict()},
        {"name": "repeat", "note": "Alva's roll 1 posted twice",
         "cards": [*base, 4], "expect": verdict(duplicates=[{"seat": "Alva", "index": 1, "cards": [4, 9],
                                                              "repeat": True}])},
        {"name": "reroll", "note": "Alva's slot 1 rolled again with another operation",
         "cards": [*base, extras["reroll"]],
         "expect": verdict(duplicates=[{"seat": "Alva", "index": 1, "cards": [4, 9], "repeat": False}])},
        {"name": "alter", "note": "Rynn's roll 0 with one more success written in",
         "cards": [altered, *base[1:]], "expect": verdict(invalid=[{"card": 0, "reason": "signature"}])},
        {"name": "alter-public", "note": "a public part with its commitment changed",
         "cards": [0, 1, 2, 3, 4, altered_public, 7, 8],
         "expect": verdict(invalid=[{"card": 5, "reason": "signature"}])},
        {"name": "forge-card", "note": "Rynn's roll 0 signed by a key the service never had",
         "cards": [forged, *base[1:]], "expect": verdict(invalid=[{"card": 0, "reason": "signature"}])},
        {"name": "forge-session", "note": "a card of another session of the same service",
         "cards": [*base, extras["other_session"]], "expect": verdict(invalid=[{"card": 9, "reason": "session"}])},
        {"name": "wrong-dice", "note": "a card the service signed with dice the secret does not give",
         "cards": [0, 1, 2, 3, wrong_dice, 5, 6, 7, 8], "expect": verdict(invalid=[{"card": 4, "reason": "dice"}])},
        {"name": "wrong-commitment", "note": "a hidden card whose result differs from what its public part "
                                             "committed to",
         "cards": [0, 1, 2, 3, 4, 5, 6, wrong_commitment, 8],
         "expect": verdict(invalid=[{"card": 7, "reason": "commitment"}], unshown=[{"seat": "GM", "index": 1}])},
        {"name": "broken-link", "note": "a second card for Rynn's slot 1 whose prev is not Rynn's roll 0",
         "cards": [*base, extras["bad_prev"]], "expect": verdict(invalid=[{"card": 9, "reason": "link"}])},
        {"name": "malformed", "note": "something that is no card",
         "cards": [*base, "hello", {"receipt": 1}], "expect": verdict(invalid=[{"card": 9, "reason": "malformed"},
                                                                               {"card": 10, "reason": "malformed"}])},
        {"name": "forge-reveal", "note": "a reveal with its secret replaced", "cards": base,
         "reveal": forged_reveal, "expect_error": "signature"},
        {"name": "alter-session", "note": "a reveal, signed, of a session header that was altered", "cards": base,
         "reveal": altered_header, "expect_error": "session"},
        {"name": "wrong-secret", "note": "a reveal the service signed with a secret that is not the commit's",
         "cards": base, "reveal": wrong_secret, "expect_error": "secret"},
        # -- the hostile corpus --------------------------------------------------------------------
        {"name": "no-seeds", "note": "the players kept their seeds: their dice are unverified, the open GM "
                                     "seat's are checked from the secret",
         "cards": base, "seeds": {}, "expect": verdict(unverified=["Rynn", "Alva"])},
        {"name": "wrong-seed", "note": "Rynn hands over a seed that is not the one committed to",
         "cards": base, "seeds": {"Rynn": seeds["Alva"], "Alva": seeds["Alva"]},
         "expect": verdict(unverified=["Rynn"])},
        {"name": "seed-alias", "note": "Rynn's seed in another base64url spelling of other bytes is not Rynn's",
         "cards": base, "seeds": {"Rynn": seeds["Rynn"] + "=", "Alva": seeds["Alva"]},
         "expect": verdict(unverified=["Rynn"])},
        {"name": "number-spelling", "note": "Rynn's roll 1 with its index written 1.0: the same JSON value, "
                                            "signed alike",
         "cards": [0, index_as_float, *base[2:]], "expect": verdict()},
        {"name": "float-marbles", "note": "Alva's draw with its bag's counts written as floats (9.0)",
         "cards": [0, 1, 2, marbles_as_floats, *base[4:]], "expect": verdict()},
        {"name": "null-card", "note": "null in the log", "cards": [*base, None],
         "expect": verdict(invalid=[{"card": 9, "reason": "malformed"}])},
        {"name": "signature-alias", "note": "an exact copy of Alva's roll 1 with its signature in an alias "
                                            "spelling: malformed, not a re-roll",
         "cards": [*base, alias_card], "expect": verdict(invalid=[{"card": 9, "reason": "malformed"}])},
        {"name": "public-alias", "note": "the GM's public part with its signature in an alias spelling",
         "cards": [0, 1, 2, 3, 4, alias_public, 7, 8],
         "expect": verdict(invalid=[{"card": 5, "reason": "malformed"}], gaps=[{"seat": "GM", "from": 0, "to": 0}])},
        {"name": "deep-nesting", "note": "a card nested 500 levels deep: malformed (the service refuses the "
                                         "whole body, 422)",
         "cards": [*base, deep_card], "service_status": 422,
         "expect": verdict(invalid=[{"card": 9, "reason": "malformed"}])},
        {"name": "far-slot", "note": "Rynn rolled slot 10,000 directly: the gap is one run, not 9,997 slots",
         "cards": [*base, extras["far_slot"]],
         "expect": verdict(gaps=[{"seat": "Rynn", "from": 3, "to": 9_999}])},
        {"name": "beyond-limit", "note": "a card claiming slot 999,999, signed as a careless service would",
         "cards": [*base, *[beyond_limit] * 12],
         "expect": verdict(invalid=[{"card": position, "reason": "malformed"} for position in range(9, 21)])},
        {"name": "reveal-alias", "note": "the reveal with its signature in an alias spelling", "cards": base,
         "reveal": alias_reveal, "expect_error": "malformed"},
        {"name": "second-reveal", "note": "a reveal dated before the end (version 1 let one be made early): "
                                          "only the reveal at the end is valid",
         "cards": base, "reveal": early_reveal, "expect_error": "malformed"},
    ]
    text = json.dumps({
        "about": "Session logs and their verdicts (issues 41 and 48); written by make_vectors.py. The key is for "
                 "these tests only.",
        "signing_key_pem": pem, "jwks": jwks, "session": header, "seeds": seeds, "reveal": reveal, "log": log,
        "cases": cases,
    }, ensure_ascii=False, indent=1)
    OUT.write_text(text.replace(json.dumps(DEEP_PLACEHOLDER), json.dumps(nested(500), separators=(",", ":"))) + "\n")


if __name__ == "__main__":
    main()
