"""Exact odds at the limits of API.md §1.6, ours against icepool computing the same distribution,
side by side in one run.

Ours: the operation's own handler in-process (exact odds and their JSON form) on the validated body,
every lru_cache cleared first, so nothing from an earlier call helps; validating the body is timed
apart (it is not part of computing a distribution, and icepool does none). icepool: the general-purpose dice
library (our test oracle) computing the same probabilities the way its documentation suggests
(binomial pools with `@`, `highest` for the best of the others, an absorbing running total for the
extended test, `Deck.deal` for marbles).
"""

from __future__ import annotations

import importlib
import pkgutil
import time
from collections.abc import Callable

import icepool

from service import create_app
from service.platform.http_json import json_response
from service.platform.operations import odds_document, operations_of
from service.platform.receipts import generate_private_key_pem

PAWS_DIE = icepool.Die([0, 0, 0, 1, 1, 1])  # success on 4-6
PROBEN_DIE = icepool.Die([0, 0, 0, 0, 1, 1])  # success on 5-6
EVEN_FACE = icepool.Die([0, 1])  # Weltenbuch: an even face of any even die


def _wins(contestants: list) -> list:
    """P(contestant i is strictly above every other), as icepool computes it."""
    return [(die - icepool.highest(*(contestants[:i] + contestants[i + 1:]))).probability(">", 0)
            for i, die in enumerate(contestants)]


def _extended(dice: int, required: int) -> list:
    total, done = icepool.Die([0]), []
    for size in range(dice, 0, -1):
        total = (total + size @ PROBEN_DIE).map(lambda t: min(t, required))
        done.append(total.probability(required))
    return done


def _bag(index: int) -> dict:
    return {"red": 20 + index, "green": 25, "blue": 20, "white": 30 - index, "black": 5}


def _matching(bag: dict):
    return icepool.Deck({1: bag["red"], 0: 100 - bag["red"]}).deal(3).sum()


WELTENBUCH_PARTIES = [{"name": f"P{p}", "members": [
    {"name": f"m{p}-{i}", "role": "npc", "profile": 5 + (p + i) % 2} for i in range(20)]} for p in range(8)]

CASES: list[tuple[str, str, dict, Callable[[], object]]] = [
    ("paws.test, 100 dice", "paws.test.odds", {"rank": 10, "extra_bonus_dice": 90},
     lambda: (100 @ PAWS_DIE).probabilities()),
    ("proben.test, 100 dice", "proben.test.odds", {"attribute": 100, "difficulty": 40},
     lambda: (100 @ PROBEN_DIE).probabilities()),
    ("proben.extended, 100 dice, required 100", "proben.extended.odds", {"attribute": 100, "required": 100},
     lambda: _extended(100, 100)),
    ("weltenbuch.conflict, 8 parties x 20 members", "weltenbuch.conflict.odds", {"parties": WELTENBUCH_PARTIES},
     lambda: _wins([sum(5 + (p + i) % 2 for i in range(20)) @ EVEN_FACE for p in range(8)])),
    ("beutelschneider.contest, 20 bags of 100", "beutelschneider.contest.odds",
     {"participants": [{"name": f"p{i}", "bag": _bag(i), "ability": "combat", "difficulty": "easy"}
                       for i in range(20)]},
     lambda: _wins([_matching(_bag(i)) for i in range(20)])),
]


def _clear_caches() -> None:
    import service.systems as systems

    modules = [importlib.import_module("service.platform.odds")]
    for module in pkgutil.iter_modules(systems.__path__):
        for part in ("odds", "rules"):
            modules.append(importlib.import_module(f"service.systems.{module.name}.{part}"))
    for module in modules:
        for value in vars(module).values():
            if hasattr(value, "cache_clear"):
                value.cache_clear()


def _seconds(function: Callable[[], object]) -> float:
    started = time.perf_counter()
    function()
    return time.perf_counter() - started


def run() -> list[dict]:
    app = create_app({"signing_key_pem": generate_private_key_pem()})
    operations = operations_of(app)
    report = []
    with app.test_request_context():
        for name, operation_id, body, oracle in CASES:
            operation = operations[operation_id]

            started = time.perf_counter()
            loaded = operation.load(body)  # as the service loads it
            validation = time.perf_counter() - started

            def ours(operation=operation, loaded=loaded):
                json_response(odds_document(operation, dict(loaded)))  # what respond answers, after loading

            _clear_caches()
            cold = _seconds(ours)
            icepool_seconds = _seconds(oracle)
            report.append({"case": name, "ours_ms": round(cold * 1000, 2),
                           "validation_ms": round(validation * 1000, 2),
                           "icepool_ms": round(icepool_seconds * 1000, 2),
                           "icepool_over_ours": round(icepool_seconds / cold, 1)})
    return report


if __name__ == "__main__":
    import json

    print(json.dumps(run(), indent=2))
