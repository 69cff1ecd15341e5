"""Exact odds at the limits: our `/odds` (in-process, through the app) against icepool computing the
same distribution, side by side in one run. icepool is the general-purpose oracle; where it cannot
finish a case at the limits in reasonable time, a smaller case both can compute is timed instead."""

from __future__ import annotations

import time
from typing import Callable

import icepool

from service import create_app
from service.platform.receipts import generate_private_key_pem

HIT_D6_456 = icepool.Die([0, 0, 0, 1, 1, 1])  # Paws: success on 4-6
HIT_D6_56 = icepool.Die([0, 0, 0, 0, 1, 1])  # Proben: success on 5-6
HIT_EVEN_D10 = icepool.Die([0, 1] * 5)  # Weltenbuch: even faces
FUDGE = icepool.Die([-1, 0, 1])


def _pool(n: int) -> dict:
    return {"attribute": n}


def _paws_comparison():
    a, b = 100 @ HIT_D6_456, 100 @ HIT_D6_456
    return (a - b).probabilities()


def _weltenbuch_two_parties():
    return (100 @ HIT_EVEN_D10 - 100 @ HIT_EVEN_D10).probabilities()


def _extended_first_rolls(rolls: int = 20):
    """Cumulative successes over the first ``rolls`` rolls (100, 99, ... dice), added roll by roll."""
    total = 100 @ HIT_D6_56
    for dice in range(99, 100 - rolls, -1):
        total = total + dice @ HIT_D6_56
    return total.probability(">=", 100)


def _bag_contest_two():
    deck = icepool.Deck({"red": 50, "other": 50})
    deal = deck.deal(3)
    return deal.count_subset({"red": 1}).probabilities() if hasattr(deal, "count_subset") else deal.probabilities()


def _malmsturm_attack():
    return (4 @ FUDGE + 20 - (4 @ FUDGE + 20)).probabilities()


BAG_100 = {"red": 30, "green": 25, "blue": 20, "white": 20, "black": 5}
CASES: list[tuple[str, str, dict, Callable[[], object], str]] = [
    ("paws.test 100 dice", "/v1/paws/test/odds", {"rank": 10, "extra_bonus_dice": 89},
     lambda: (100 @ HIT_D6_456).probabilities(), "same"),
    ("paws.comparison 100 vs 100", "/v1/paws/comparison/odds",
     {"a": {"rank": 10, "extra_bonus_dice": 89}, "b": {"rank": 10, "extra_bonus_dice": 89, "extra_rescue_dice": 100},
      "mode": "contest"}, _paws_comparison, "same pools, without rescue"),
    ("proben.test 100 dice", "/v1/proben/test/odds", {"attribute": 100, "difficulty": 40},
     lambda: (100 @ HIT_D6_56).probabilities(), "same"),
    ("proben.extended 100 dice, target 100", "/v1/proben/extended/odds", {"attribute": 100, "required": 100},
     _extended_first_rolls, "first 20 of 100 rolls"),
    ("proben.opposed 100 vs 100", "/v1/proben/opposed/odds", {"a": _pool(100), "b": _pool(100)},
     lambda: (100 @ HIT_D6_56 - 100 @ HIT_D6_56).probabilities(), "one round"),
    ("weltenbuch.conflict 8 parties x 20 members", "/v1/weltenbuch/conflict/odds",
     {"parties": [{"name": f"P{p}", "members": [{"name": f"m{p}-{i}", "role": "npc", "profile": 5} for i in range(20)]}
                  for p in range(8)]}, _weltenbuch_two_parties, "2 parties of 100 dice"),
    ("beutelschneider.contest 20 bags of 100", "/v1/beutelschneider/contest/odds",
     {"participants": [{"name": f"p{i}", "bag": BAG_100, "ability": "combat", "difficulty": "easy"} for i in range(20)]},
     _bag_contest_two, "one bag's draw"),
    ("malmsturm.attack", "/v1/malmsturm/attack/odds",
     {"attacker": {"name": "A", "skill": 3, "attack": "harm"},
      "defender": {"name": "D", "skill": 2, "stress": {"physical": {"current": 3, "max": 3},
                                                       "mental": {"current": 3, "max": 3}}, "consequences": 1}},
     _malmsturm_attack, "the roll difference"),
]


def _best_of(function: Callable[[], object], repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        function()
        best = min(best, time.perf_counter() - started)
    return best


def _cold_then_warm(client, path, body) -> tuple[float, float, int]:
    started = time.perf_counter()
    response = client.post(path, json=body)
    cold = time.perf_counter() - started
    warm = _best_of(lambda: client.post(path, json=body))
    return cold, warm, response.status_code


def run() -> list[dict]:
    app = create_app({"signing_key_pem": generate_private_key_pem()})
    client = app.test_client()
    report = []
    for name, path, body, oracle, oracle_scope in CASES:
        cold, warm, status = _cold_then_warm(client, path, body)
        icepool_seconds = _best_of(oracle, repeat=1)
        report.append({
            "case": name, "status": status, "ours_cold_ms": round(cold * 1000, 2),
            "ours_warm_ms": round(warm * 1000, 2), "icepool_ms": round(icepool_seconds * 1000, 2),
            "icepool_scope": oracle_scope, "icepool_over_ours_cold": round(icepool_seconds / cold, 1),
        })
    return report


if __name__ == "__main__":
    import json

    print(json.dumps(run(), indent=2))
