"""Exact odds at the limits of API.md §1.6, ours against icepool computing the same distribution,
side by side in one run.

Ours: the operation's own handler in-process (exact odds and their JSON form) on the validated body,
every lru_cache cleared first, so nothing from an earlier call helps; validating the body is timed
apart (it is not part of computing a distribution, and icepool does none). icepool: the general-purpose dice
library (our test oracle) computing the same probabilities the way its documentation suggests
(binomial pools with `@`, `highest` for the best of the others, an absorbing running total for the
extended test, `Deck.deal` for marbles).

Beside them, ``LIMITS``: the rules' own odds functions at the limits, and compiling the message
catalogs as the service does at start, which older tests asserted in wall time (moved here by the
house rule, each with the budget its test held): each the median of ``LIMIT_RUNS`` cold runs, in wall
and in the thread's CPU time, against icepool where it computes the same distribution.
"""

from __future__ import annotations

import importlib
import pkgutil
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass

import icepool

from oracles.beutelschneider import LARGEST_CONTEST_BODY, largest_contenders
from service import create_app
from service.platform.dice.receipts import generate_private_key_pem
from service.platform.http.http_json import json_response
from service.platform.maths.odds import as_json
from service.platform.operations.operations import odds_document, operations_of
from service.platform.words import catalogs
from service.systems.beutelschneider import odds as beutelschneider_odds
from service.systems.beutelschneider.rules import Contender
from service.systems.malmsturm import odds as malmsturm_odds
from service.systems.malmsturm.rules import Participant
from service.systems.paws import odds as paws_odds
from service.systems.paws.rules import Advantage, Advantages, Mode, Pool
from service.systems.weltenbuch import odds as weltenbuch_odds
from service.systems.weltenbuch.rules import Member, Party, Role

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


# --- the limits of the rules' own functions (formerly timed tests) ------------------------------------

@dataclass(frozen=True)
class Limit:
    case: str
    compute: Callable[[], object] | None  # None: ``post`` through the app's test client, the whole request
    budget_ms: float  # what the former test asserted
    icepool: Callable[[], object] | None = None
    post: tuple[str, dict] | None = None


LIMIT_RUNS = 5


def _contest_oracle(contenders: tuple[Contender, ...]) -> Callable[[], object]:
    def matching(contender: Contender):
        count = contender.bag.counts()[contender.ability.colour]
        return icepool.Deck({1: count, 0: contender.bag.total - count}).deal(contender.difficulty.draws).sum()
    return lambda: _wins([matching(contender) for contender in contenders])


CONTENDERS = largest_contenders()
BIG_PAWS_POOL = Pool(rank=10, extra_bonus_dice=90, advantages=Advantages(*[Advantage.PASSIVE] * 3),
                     extra_rescue_dice=97)  # 100 dice and 100 rescue dice
WELTENBUCH_LARGEST = [Party(f"p{p}", tuple(Member(f"p{p}{i}", Role.NPC, 25 - p) for i in range(20)))
                      for p in range(8)]  # 8 parties x 20 members x 18..25 dice: 4000 dice, all parties different
MALMSTURM_LIMIT = [Participant(f"P{i}", 0) for i in range(20)]


def _compile_catalogs() -> None:
    for lang in catalogs.LANGUAGES:
        catalogs.translations.__wrapped__(lang)  # uncached: read the .po, compile it, load it


LIMITS: list[Limit] = [
    Limit("malmsturm initiative, 20 participants, 4 dF", lambda: malmsturm_odds.initiative(MALMSTURM_LIMIT), 1000),
    Limit("malmsturm initiative, 20 participants, 8 dF",
          lambda: malmsturm_odds.initiative(MALMSTURM_LIMIT, dice=8), 1000),
    Limit("weltenbuch conflict, 8 parties x 20 members x 18-25 dice",
          lambda: weltenbuch_odds.conflict(WELTENBUCH_LARGEST).check(), 1000,
          icepool=lambda: _wins([sum(member.profile for member in party.members) @ EVEN_FACE
                                 for party in WELTENBUCH_LARGEST])),
    Limit("beutelschneider contest, 20 random bags of 100", lambda: beutelschneider_odds.contest(CONTENDERS), 25,
          icepool=_contest_oracle(CONTENDERS)),
    Limit("beutelschneider contest, whole request (test client), 20 bags of 100", None, 200,
          post=("/v1/beutelschneider/contest/odds", LARGEST_CONTEST_BODY)),
    Limit("paws test, 100 + 100 rescue dice", lambda: as_json(paws_odds.test(BIG_PAWS_POOL)), 50),
    Limit("paws comparison, 100 v 100", lambda: as_json(paws_odds.comparison(BIG_PAWS_POOL, BIG_PAWS_POOL)), 50),
    Limit("paws comparison (defense), 100 v 100",
          lambda: as_json(paws_odds.comparison(BIG_PAWS_POOL, BIG_PAWS_POOL, mode=Mode.DEFENSE)), 50),
    Limit("paws rescue, 100 dice", lambda: as_json(paws_odds.rescue(100)), 50),
    Limit("compile every message catalog (as at start)", _compile_catalogs, 500),
]


def _cold_runs(function: Callable[[], object], runs: int) -> tuple[float, float]:
    """Median wall and thread-CPU seconds of ``function`` over ``runs`` calls, caches cleared before each."""
    walls, cpus = [], []
    for _ in range(runs):
        _clear_caches()
        wall, cpu = time.perf_counter(), time.thread_time()
        function()
        cpus.append(time.thread_time() - cpu)
        walls.append(time.perf_counter() - wall)
    return statistics.median(walls), statistics.median(cpus)


def limits(runs: int = LIMIT_RUNS) -> list[dict]:
    app = create_app({"signing_key_pem": generate_private_key_pem()})
    client = app.test_client()
    report = []
    for limit in LIMITS:
        compute = limit.compute
        if compute is None:
            def compute(path=limit.post[0], body=limit.post[1]):
                response = client.post(path, json=body)
                assert response.status_code == 200, response.get_data(as_text=True)
        wall, cpu = _cold_runs(compute, runs)
        row = {"case": limit.case, "ours_ms": round(wall * 1000, 2), "ours_cpu_ms": round(cpu * 1000, 2),
               "budget_ms": limit.budget_ms, "of_budget": round(wall * 1000 / limit.budget_ms, 3)}
        if limit.icepool is not None:
            icepool_seconds = _seconds(limit.icepool)
            row["icepool_ms"] = round(icepool_seconds * 1000, 2)
            row["icepool_over_ours"] = round(icepool_seconds / wall, 1)
        report.append(row)
    return report


def _clear_caches() -> None:
    import service.systems as systems

    modules = [importlib.import_module("service.platform.maths.odds")]
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
    return report + limits()


if __name__ == "__main__":
    import json

    print(json.dumps(run(), indent=2))
