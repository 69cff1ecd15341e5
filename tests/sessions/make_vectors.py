"""Writes tests/sessions/vectors.json: one session's log and the ways a log goes wrong, each with the
verdict it must get. Run after a deliberate change of the session format:

    PYTHONPATH=$PWD:$PWD/client python tests/sessions/make_vectors.py

The file is shared by the Python SDK's tests, the JavaScript client's and the report's (the service
is started with the key it holds, a key for these tests only). Each case's expected verdict is
written here by hand from what the case does, never read back from a verifier.

A case's ``cards`` are indices into ``log`` (the cards as rolled) or card objects of its own;
``reveal`` is ``"reveal"`` (the session's reveal) or an object of its own.
"""

from __future__ import annotations

import copy
import json
import time
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
EMPTY = {"complete": True, "gaps": [], "duplicates": [], "invalid": [], "after_reveal": [], "unshown": []}


def verdict(**changes: object) -> dict:
    result = {**copy.deepcopy(EMPTY), **changes}
    result["complete"] = not any(result[name] for name in EMPTY if name != "complete")
    return result


def main() -> None:
    pem = generate_private_key_pem()
    app = create_app({"signing_key_pem": pem})
    client = app.test_client()
    header = client.post("/v1/sessions", json={"seats": ["GM", "Rynn", "Alva"], "context": "vectors",
                                               "ttl_s": 604_800}).get_json()["session"]
    other = client.post("/v1/sessions", json={"seats": ["GM", "Rynn", "Alva"]}).get_json()["session"]
    links: dict[str, str | None] = {"GM": None, "Rynn": None, "Alva": None}
    counters = {"GM": 0, "Rynn": 0, "Alva": 0}

    def roll(path: str, body: dict, seat: str, *, hidden: bool = False, session: dict | None = None,
             prev: str | None = "auto", index: int | None = None) -> dict:
        use = {"header": session or header, "seat": seat,
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
    extras = {
        # Alva's slot 1 rolled a second time, with another operation: other dice for the same slot
        "reroll": roll("/v1/proben/test", TEST_EXAMPLE, "Alva", index=1,
                       prev=log[3]["receipt"]["signature"]),
        # Rynn's slot 1 rolled with a made-up prev (the service cannot know the previous card)
        "bad_prev": roll("/v1/proben/test", TEST_EXAMPLE, "Rynn", index=1,
                         prev="bm90IHRoZSBwcmV2aW91cyBjYXJk"),
        # a card of another session of the same service
        "other_session": roll("/v1/proben/test", TEST_EXAMPLE, "Rynn", session=other,
                              index=3, prev="eA"),
    }
    with app.app_context():
        keys: KeyRing = current_runtime().keys
        reveal = sessions.reveal(keys, header)
        time.sleep(0.01)
        late = roll("/v1/paws/test", POOL_EXAMPLE, "Rynn")                                            # Rynn 3, after
        # The service as an adversary: a card it signed with dice that are not the committed ones, and
        # a hidden card whose result is not the one its public part committed to.
        wrong_dice = copy.deepcopy(log[4])
        wrong_dice.pop("receipt")
        wrong_dice["randomness"]["events"][0]["values"][0] = wrong_dice["randomness"]["events"][0]["values"][0] % 6 + 1
        keys.sign(wrong_dice)
        wrong_commitment = copy.deepcopy(log[7])
        wrong_commitment.pop("receipt")
        wrong_commitment["result"]["successes"] += 1
        keys.sign(wrong_commitment)
        # a reveal with another secret, signed by the service: the commit shows it
        wrong_secret = {name: value for name, value in reveal.items() if name != "signature"}
        wrong_secret["secret"] = "A" * 43
        wrong_secret = {**wrong_secret, "signature": keys.signature_of(sessions.canonical_bytes(wrong_secret))}
        # a reveal the service signed over an altered session header: the header's own signature fails
        altered_header = {name: value for name, value in copy.deepcopy(reveal).items() if name != "signature"}
        altered_header["session"]["seats"].append("Mallory")
        altered_header = {**altered_header,
                          "signature": keys.signature_of(sessions.canonical_bytes(altered_header))}
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

    base = list(range(9))
    cases = [
        {"name": "complete", "note": "every card, in the order rolled", "cards": base, "expect": verdict()},
        {"name": "reorder", "note": "the log's order does not matter: links and indices decide",
         "cards": base[::-1], "expect": verdict()},
        {"name": "table-log", "note": "what the table saw: hidden rolls only as their public parts",
         "cards": [0, 1, 2, 3, 4, 6, 8], "expect": verdict(unshown=[{"seat": "GM", "index": 0},
                                                                   {"seat": "GM", "index": 1}])},
        {"name": "drop", "note": "Rynn's roll 1 left out: a gap before roll 2",
         "cards": [0, 2, 3, 4, 5, 6, 7, 8], "expect": verdict(gaps=[{"seat": "Rynn", "index": 1}])},
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
        {"name": "after-reveal", "note": "a card issued after the reveal is never valid",
         "cards": [*base, late], "expect": verdict(after_reveal=[9])},
        {"name": "malformed", "note": "something that is no card",
         "cards": [*base, "hello", {"receipt": 1}], "expect": verdict(invalid=[{"card": 9, "reason": "malformed"},
                                                                               {"card": 10, "reason": "malformed"}])},
        {"name": "forge-reveal", "note": "a reveal with its secret replaced", "cards": base,
         "reveal": forged_reveal, "expect_error": "signature"},
        {"name": "alter-session", "note": "a reveal, signed, of a session header that was altered", "cards": base,
         "reveal": altered_header, "expect_error": "session"},
        {"name": "wrong-secret", "note": "a reveal the service signed with a secret that is not the commit's",
         "cards": base, "reveal": wrong_secret, "expect_error": "secret"},
    ]
    OUT.write_text(json.dumps({
        "about": "Session logs and their verdicts (issue 41); written by make_vectors.py. The key is for these "
                 "tests only.",
        "signing_key_pem": pem, "jwks": jwks, "session": header, "reveal": reveal, "log": log, "cases": cases,
    }, ensure_ascii=False, indent=1) + "\n")


if __name__ == "__main__":
    main()
