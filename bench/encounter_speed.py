"""Encounter odds (API.md §1.7, issue 30 "Speed"), all five systems in one table: in-process, over
HTTP, and what solves at the caps do to the other requests of their worker.

- In-process (``run``): each case through the operation's own request path (loading the body, the
  state bound, solving, the JSON form), every cache cleared before each call, p50 and p99 over
  repeated calls, in wall time and in the thread's CPU time (the machine's cores are shared:
  preemption shows in the wall time only); against icepool solving the same encounter written with
  its absorbing-chain solver (``map(..., repeat="inf")``), in the same run, CPU time in a fresh
  process against the CPU time of answering the loaded body.
- Over HTTP (``over_http``): the cases marked ``http`` (the realistic ones, one at each system's
  caps, the refusals) posted one after another on one keep-alive connection to the service served by
  gunicorn with its own worker, as bench/run.py serves it.
- Fairness (``fairness``): one worker; a client posts a system's cap case back to back while
  another sends ``paws.test`` at a steady rate; the roll's p99 against its p99 with no solve running,
  in alternating phases of the same run (issue 30: at most 2 x).

Run as ``python -m bench.encounter_speed`` (``--only in_process|http|fairness``); ``bench.run``
runs it as its ``encounters`` part. ``CASES`` is the table of cases, one ``Case`` each. A case with
``icepool`` None has no comparison; ``icepool_timeout`` stops a comparison that would run for
minutes (reported as ">").
"""

from __future__ import annotations

import argparse
import gc
import importlib
import json
import math
import multiprocessing
import pkgutil
import shutil
import socket
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from math import comb
from pathlib import Path
from urllib.parse import urlsplit

import gevent
import icepool

from oracles.malmsturm import icepool_duel as malmsturm_icepool_duel
from oracles.paws import icepool_duel as paws_icepool_duel
from service import create_app
from service.platform.dice.receipts import generate_private_key_pem
from service.platform.http.http_json import json_response
from service.platform.maths import time_slicing
from service.platform.operations.operations import EXAMPLE_CALL, odds_document, operations_of, respond

EVEN_FACE = icepool.Die([0, 1])  # Weltenbuch: an even face of any even die
PROBEN_DIE = icepool.Die([0, 0, 0, 0, 1, 1])  # success on 5-6
REALISTIC = {"target_p50_ms": 20, "target_p99_ms": 50}  # issue 30 item 6
REFUSAL = {"target_p99_ms": 5, "refused": True}
ROLL = ("/v1/paws/test", {"rank": 3})  # a normal roll: the floor over HTTP and in fairness


@dataclass(frozen=True)
class Case:
    name: str
    operation: str  # the odds operation's id
    body: dict
    target_p50_ms: float | None = None
    target_p99_ms: float = 500.0  # anything accepted (issue 30); never over 1 s but where a case says more (issue 50)
    refused: bool = False
    icepool: Callable[[], object] | None = None
    icepool_timeout: float = 120.0
    icepool_runs: int = 3
    calls: int = 20
    http: bool = False  # also over HTTP
    cap: bool = False  # its system's case at the caps: posted back to back in ``fairness``

    @property
    def path(self) -> str:
        system, *_ = self.operation.split(".")
        return f"/v1/{system}/encounter/odds"

    @property
    def system(self) -> str:
        return self.operation.split(".")[0]


# --- the same encounters written for icepool -------------------------------------------------------

def _draw_weights(matching: int, other: int, black: int, draws: int):
    """(matching drawn, other drawn, all black?) -> ways, out of C(n, draws)."""
    for m in range(draws + 1):
        for o in range(draws - m + 1):
            b = draws - m - o
            ways = comb(matching, m) * comb(other, o) * comb(black, b)
            if ways:
                yield m, o, b == draws, ways


def beutelschneider_icepool(sides: list[tuple[int, int, int, int]]) -> Callable[[], object]:
    """sides: (matching, other, black, draws) per side, both using combat. The state is the same
    reduced pair of bags the service uses, plus who is out; icepool solves the absorbing chain."""
    size = [s[0] + s[1] + s[2] for s in sides]
    scale = math.lcm(*(comb(n, k) for n in size for k in (1, 2, 3) if k <= n))  # integer weights

    def step(state):
        a0, o0, a1, o1, out = state
        if out:
            return state
        black = (size[0] - a0 - o0, size[1] - a1 - o1)
        following: dict = {}
        for m0, _, u0, w0 in _draw_weights(a0, o0, black[0], sides[0][3]):
            for m1, _, u1, w1 in _draw_weights(a1, o1, black[1], sides[1][3]):
                status = 3 if u0 and u1 else 1 if u0 else 2 if u1 else 0
                weight = w0 * w1
                if m0 == m1:
                    following[(a0, o0, a1, o1, status)] = following.get((a0, o0, a1, o1, status), 0) + weight * scale
                    continue
                loser = 1 if m0 > m1 else 0
                bag = (a1, o1, black[1]) if loser else (a0, o0, black[0])
                count = min(abs(m0 - m1), sum(bag))
                total = comb(sum(bag), count)
                for x, y, _, ways in _draw_weights(*bag, count):
                    hurt = (a0, o0, a1 - x, o1 - y) if loser else (a0 - x, o0 - y, a1, o1)
                    key = (*hurt, status)
                    following[key] = following.get(key, 0) + weight * ways * (scale // total)
        return icepool.Die(following)

    start = (sides[0][0], sides[0][1], sides[1][0], sides[1][1], 0)
    return lambda: icepool.map(step, start, repeat="inf")


def proben_icepool(steps: list[tuple[int, int]]) -> Callable[[], object]:
    """steps: (dice, difficulty), carry_partial, until no dice are left."""
    done = len(steps)

    def step(state):
        index, attempt, carried = state
        if index < 0 or index == done:
            return state
        dice, needed = steps[index][0] - (attempt - 1), steps[index][1]

        def after(successes):
            if carried + successes >= needed:
                return (index + 1, 1, 0) if index + 1 < done else (done, 0, 0)
            return (-1, index, 0) if dice == 1 else (index, attempt + 1, carried + successes)

        return (dice @ PROBEN_DIE).map(after)

    return lambda: icepool.map(step, (0, 1, 0), repeat="inf")


def weltenbuch_icepool(first: list[int], second: list[int], toughness: int) -> Callable[[], object]:
    """Two parties of npcs (profiles), every toughness equal, weakest first: who wins, and how many
    of each party take a consequence, from the joint successes."""
    def consequences(members: int, hits: int) -> int:
        return min(members, hits // toughness)

    def scene(a, b):
        return (int(a > b) - int(b > a), consequences(len(second), a), consequences(len(first), b))

    return lambda: icepool.map(scene, sum(first) @ EVEN_FACE, sum(second) @ EVEN_FACE)


# --- the cases ------------------------------------------------------------------------------------

MATTHAEUS = {"red": 9, "green": 6, "white": 5}
ROBBER = {"red": 10, "green": 5, "white": 5}
LEGIONARY = {"red": 8, "green": 4, "white": 5, "black": 3}
APE_MAN = {"red": 10, "green": 5, "white": 5}
SMALL = ({"red": 3, "green": 1, "white": 3, "black": 1}, {"red": 4, "white": 3, "black": 1})
SLOW = {"red": 1, "white": 68, "black": 1}  # (1 + 1)(68 + 1) per side: 19,044 states, long fights
PARTY = [{"name": f"m{i}", "role": "npc", "profile": 5} for i in range(5)]
CAP_PARTY = [{"name": f"c{i}", "role": "npc", "profile": 100} for i in range(20)]


def _scene(first: list[dict], second: list[dict], toughness: int, **extra) -> dict:
    other = [{**m, "name": m["name"] + "'"} for m in second]
    members = first + other
    return {"parties": [{"name": "A", "members": first}, {"name": "B", "members": other}],
            "toughness": {m["name"]: {"current": toughness, "max": toughness} for m in members}, **extra}


def _fight(first: dict, second: dict, difficulty: str = "normal", **extra) -> dict:
    return {"sides": [{"name": "A", "bag": first, "difficulty": difficulty},
                      {"name": "B", "bag": second, "difficulty": difficulty}], **extra}


PROBEN_REALISTIC = {"steps": [{"pool": {"attribute": 6, "skill": 2, "advantages": 2}, "difficulty": 3},
                              {"pool": {"attribute": 7, "skill": 3}, "difficulty": 4},
                              {"pool": {"attribute": 8, "skill": 2}, "difficulty": 3}], "carry_partial": True}


def malm_member(name: str, skill: int = 3, defense: int = 2, boxes: int = 4, kind: str = "harm",
                intuition: int = 1) -> dict:
    return {"name": name, "attack": {"skill": skill, "type": kind}, "defense": defense, "intuition": intuition,
            "stress": {"physical": {"current": boxes, "max": boxes}, "mental": {"current": boxes, "max": boxes}}}


def malm_groups(size: int, boxes: int, targeting: str, kinds: tuple[str, ...] = ("harm",)) -> dict:
    heroes = [malm_member(f"H{i}", 3, 2, boxes, kinds[i % len(kinds)]) for i in range(size)]
    orcs = [malm_member(f"O{i}", 2, 2, boxes, kinds[i % len(kinds)]) for i in range(size)]
    return {"sides": [{"name": "Helden", "members": heroes}, {"name": "Orks", "members": orcs}],
            "order": [m["name"] for pair in zip(heroes, orcs) for m in pair], "policy": {"targeting": targeting}}


def text_fight(**extra) -> dict:
    """The text's fight: "Kämpft beispielsweise ein Legionär gegen zwei Affenmenschen" with 20-marble
    bags, three draws each ("auf beiden Seiten jeweils drei Murmeln"), issue 50."""
    apes = [{"name": f"Affenmensch {i}", "bag": APE_MAN, "difficulty": "easy"} for i in (1, 2)]
    return {"sides": [{"name": "Legionär", "bag": LEGIONARY, "difficulty": "easy"},
                      {"name": "Affenmenschen", "members": apes}], **extra}


def malm_party(size: int, kinds: tuple[str, ...] = ("harm", "deceive"), **extra) -> dict:
    """Issue 50: a modest party, three physical and three mental stress, two consequences to go out,
    both tracks attacked, defences per attack kind (E7), in initiative order (E6)."""
    def member(name: str, skill: int, index: int) -> dict:
        return {**malm_member(name, skill, 2, 3, kinds[index % len(kinds)]), "defenses": {"deceive": 1}}
    return {"sides": [{"name": "Helden", "members": [member(f"H{i}", 3, i) for i in range(size)]},
                      {"name": "Orks", "members": [member(f"O{i}", 2, i) for i in range(size)]}],
            "order": "initiative", **extra}


def malm_duel(boxes: int, **extra) -> dict:
    """Alrik (attack 3, defence 2, intuition 2) against an Ork (2, 1), in initiative order."""
    return {"sides": [{"name": "Helden", "members": [malm_member("Alrik", 3, 2, boxes, intuition=2)]},
                      {"name": "Orks", "members": [malm_member("Ork", 2, 1, boxes)]}], **extra}


def malmsturm_icepool(boxes: int) -> Callable[[], object]:
    """``malm_duel`` for icepool: both orders, as initiative mixes them (tests/systems/malmsturm)."""
    alrik, ork = (3, 2, boxes, 0), (2, 1, boxes, 0)
    return lambda: (malmsturm_icepool_duel(alrik, ork, 0), malmsturm_icepool_duel(alrik, ork, 1))


def paws_duel(a: int, b: int, *, armour: int = 0, one_shot: int = 0, one_shot_b: int | None = None) -> dict:
    return {"a": {"rank": 0, "extra_bonus_dice": a, "extra_rescue_dice": armour},
            "b": {"rank": 0, "extra_bonus_dice": b},
            "one_shot_rescue": {"a": one_shot, "b": one_shot if one_shot_b is None else one_shot_b}}


def paws_icepool(a: int, b: int, *, armour: int = 0, one_shot: int = 0) -> Callable[[], object]:
    """``paws_duel`` for icepool (tests/systems/paws: dice, armour, one-shot, out at, give up at)."""
    return lambda: paws_icepool_duel((a, armour, one_shot, None, None), (b, 0, one_shot, None, None))


CASES: list[Case] = [
    # Beutelschneider
    Case("beutelschneider 1v1, 20-marble bags, 2 draws", "beutelschneider.encounter.odds",
         _fight(MATTHAEUS, ROBBER), target_p50_ms=150,
         icepool=beutelschneider_icepool([(9, 11, 0, 2), (10, 10, 0, 2)]), icepool_timeout=60, icepool_runs=1,
         calls=15, http=True),
    Case("beutelschneider 1v1, 20-marble bags, 2 draws, curve 100", "beutelschneider.encounter.odds",
         _fight(MATTHAEUS, ROBBER, curve_rounds=100), calls=10),
    Case("beutelschneider Legionär v Affenmensch, 3 draws, aftermath", "beutelschneider.encounter.odds",
         _fight(LEGIONARY, {"red": 10, "green": 5, "white": 5}, "easy", aftermath={"mortal_danger": "clear"}),
         calls=10),
    Case("beutelschneider small bags (8 marbles), 2 draws", "beutelschneider.encounter.odds", _fight(*SMALL),
         icepool=beutelschneider_icepool([(3, 4, 1, 2), (4, 3, 1, 2)]), icepool_runs=1, calls=20),
    Case("beutelschneider at the cap: 19,044 states, 1 draw, max_rounds 1000, curve 100",
         "beutelschneider.encounter.odds", _fight(SLOW, SLOW, "hard", max_rounds=1000, curve_rounds=100), calls=5,
         http=True, cap=True),
    Case("beutelschneider the text's fight: Legionär v two Affenmenschen, 20 marbles, 3 draws (issue 50)",
         "beutelschneider.encounter.odds", text_fight(aftermath={"mortal_danger": "clear"}), target_p99_ms=1000,
         calls=5, http=True),
    Case("beutelschneider at the cap: one v two swept, 20/22-marble bags, 3 draws (bound 4,561,700)",
         "beutelschneider.encounter.odds",
         {"sides": [{"name": "L", "bag": {"red": 10, "green": 9, "black": 4}, "difficulty": "easy"},
                    {"name": "A", "members": [{"name": f"A{i}", "bag": {"red": 10, "green": 12}, "difficulty": "easy"}
                                              for i in (1, 2)]}]},
         target_p99_ms=2000, calls=3, http=True, cap=True),
    Case("beutelschneider refused: 6,255,001 states", "beutelschneider.encounter.odds",
         _fight({"red": 40, "green": 30, "white": 30}, {"red": 40, "green": 30, "white": 30}),
         calls=400, http=True, **REFUSAL),
    # Malmsturm
    Case("malmsturm 1v1, 3 boxes, initiative (exact)", "malmsturm.encounter.odds", malm_duel(3),
         icepool=malmsturm_icepool(3), icepool_runs=1, calls=40, http=True, **REALISTIC),
    Case("malmsturm 1v1, 4 boxes, initiative", "malmsturm.encounter.odds", malm_duel(4),
         icepool=malmsturm_icepool(4), icepool_runs=1, calls=40, http=True, **REALISTIC),
    Case("malmsturm 1v1, 4 boxes, curve 20 rounds", "malmsturm.encounter.odds", malm_duel(4, curve_rounds=20),
         calls=40, http=True, **REALISTIC),
    Case("malmsturm 2v2 focus, 4 boxes", "malmsturm.encounter.odds", malm_groups(2, 4, "focus"), calls=10),
    Case("malmsturm 4v4 focus, 4 boxes", "malmsturm.encounter.odds", malm_groups(4, 4, "focus"), calls=5),
    Case("malmsturm at the cap: 4v4 focus, 6 boxes (bound 18,529)", "malmsturm.encounter.odds",
         malm_groups(4, 6, "focus"), calls=5, http=True, cap=True),
    Case("malmsturm 3v3 focus, 8 boxes (bound 13,921)", "malmsturm.encounter.odds", malm_groups(3, 8, "focus"),
         calls=5),
    Case("malmsturm 2v2 spread, 3 boxes (bound 9,313)", "malmsturm.encounter.odds", malm_groups(2, 3, "spread"),
         calls=5),
    Case("malmsturm 2v2 focus on both tracks, 3 boxes", "malmsturm.encounter.odds",
         malm_groups(2, 3, "focus", ("harm", "deceive")), calls=5),
    Case("malmsturm 2v2, 3/3 stress, both tracks, defenses, initiative (issue 50)", "malmsturm.encounter.odds",
         malm_party(2), calls=5, http=True),
    Case("malmsturm 2v2, 3/3 stress, both tracks, defenses, initiative, first_out (issue 50)",
         "malmsturm.encounter.odds", malm_party(2, ends="first_out"), calls=5, http=True),
    Case("malmsturm 3v3, 3/3 stress, both tracks, defenses, initiative, first_out (issue 50)",
         "malmsturm.encounter.odds", malm_party(3, ends="first_out"), target_p99_ms=2000, calls=3, http=True),
    Case("malmsturm 3v3, 3/3 stress, one track, initiative, first_out (issue 50)",
         "malmsturm.encounter.odds", malm_party(3, ("harm",), ends="first_out"), calls=5),
    Case("malmsturm 3v3, 3/3 stress, both tracks, defenses, initiative, side_out (issue 50)",
         "malmsturm.encounter.odds", malm_party(3), target_p99_ms=2000, calls=3, http=True, cap=True),
    Case("malmsturm 3v3, 3/3 stress, one track, initiative, side_out (issue 50)",
         "malmsturm.encounter.odds", malm_party(3, ("harm",)), calls=5),
    Case("malmsturm refused: 4v4, 3/3 stress, initiative (issue 50)", "malmsturm.encounter.odds",
         malm_party(4), calls=400, **REFUSAL),
    Case("malmsturm refused: 4v4 focus, 10 boxes, initiative", "malmsturm.encounter.odds",
         {**malm_groups(4, 10, "focus"), "order": "initiative"},
         calls=400, http=True, **REFUSAL),
    Case("malmsturm refused: 4v4 focus on both tracks, 10 boxes, initiative", "malmsturm.encounter.odds",
         {**malm_groups(4, 10, "focus", ("harm", "deceive")), "order": "initiative"}, calls=400, http=True, **REFUSAL),
    # Paws
    Case("paws 8v8 (exact)", "paws.encounter.odds", paws_duel(8, 8), icepool=paws_icepool(8, 8), calls=40,
         http=True, **REALISTIC),
    Case("paws 8v7, armour, 2 one-shot each", "paws.encounter.odds", paws_duel(8, 7, armour=1, one_shot=2),
         icepool=paws_icepool(8, 7, armour=1, one_shot=2), calls=40, http=True, **REALISTIC),
    Case("paws 8v8, curve 30 rounds", "paws.encounter.odds", {**paws_duel(8, 8), "curve_rounds": 30}, calls=40,
         http=True, **REALISTIC),
    Case("paws at the cap: 100v100 (bound 10,201)", "paws.encounter.odds", paws_duel(100, 100), calls=5,
         http=True, cap=True),
    Case("paws 99v99, one one-shot die (bound 10,200)", "paws.encounter.odds",
         paws_duel(99, 99, one_shot=1, one_shot_b=0), calls=5),
    Case("paws refused: 100v100, 50 one-shot each", "paws.encounter.odds", paws_duel(100, 100, one_shot=50),
         calls=400, http=True, **REFUSAL),
    # Weltenbuch
    Case("weltenbuch 5 v 5 (25 dice a side)", "weltenbuch.encounter.odds",
         _scene(PARTY, PARTY, 3, policy={"targeting": "weakest"}),
         icepool=weltenbuch_icepool([5] * 5, [5] * 5, 3), calls=50, http=True, **REALISTIC),
    Case("weltenbuch at the cap: 20 v 20 members of 100 dice (float64)", "weltenbuch.encounter.odds",
         _scene(CAP_PARTY, CAP_PARTY, 100, policy={"targeting": "spread"}), calls=5, http=True, cap=True),
    Case("weltenbuch refused: exact required over 300 states", "weltenbuch.encounter.odds",
         _scene(CAP_PARTY[:3], CAP_PARTY[:3], 3, exact="required"), calls=400, http=True, **REFUSAL),
    # Proben
    Case("proben 10 dice x 3 steps, carry_partial", "proben.encounter.odds", PROBEN_REALISTIC,
         icepool=proben_icepool([(10, 3), (10, 4), (10, 3)]), calls=50, http=True, **REALISTIC),
    Case("proben at the cap: 2 steps of 100 dice, difficulty 99, carry (float64), curve 100",
         "proben.encounter.odds",
         {"steps": [{"pool": {"attribute": 100}, "difficulty": 99}] * 2, "carry_partial": True,
          "curve_rounds": 100}, calls=5, http=True, cap=True),
    Case("proben refused: over 20,000 states", "proben.encounter.odds",
         {"steps": [{"pool": {"attribute": 100}, "difficulty": 100}] * 5, "carry_partial": True},
         calls=400, http=True, **REFUSAL),
]


# --- in-process -----------------------------------------------------------------------------------

def _clear_caches() -> None:
    import service.systems as systems

    modules = [importlib.import_module("service.platform.maths.odds")]
    for module in pkgutil.iter_modules(systems.__path__):
        for part in ("odds", "rules", "encounter", "initiative", "rescue_advice"):
            try:
                modules.append(importlib.import_module(f"service.systems.{module.name}.{part}"))
            except ModuleNotFoundError:
                continue
    for module in modules:
        for value in vars(module).values():
            if hasattr(value, "cache_clear"):
                value.cache_clear()


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(share * len(ordered)) - 1)]


def _icepool_seconds(oracle: Callable[[], object], timeout: float) -> float | None:
    """Seconds icepool takes, in a child process so a run over ``timeout`` can be stopped (None)."""
    context = multiprocessing.get_context("fork")
    queue = context.Queue()

    def child():
        started = time.process_time()  # CPU seconds, like ours: the shared cores' preemption left out
        oracle()
        queue.put(time.process_time() - started)

    process = context.Process(target=child)
    process.start()
    process.join(timeout)
    if process.is_alive():
        process.kill()
        process.join()
        return None
    return queue.get()


def _solving_cpu_ms(operation, case: Case) -> float:
    """The median CPU time of answering the loaded body (the odds and their JSON), as bench/odds_speed.py
    times ours against icepool."""
    loaded = operation.load(dict(case.body))
    cpu = []
    for _ in range(case.calls):
        _clear_caches()
        started = time.thread_time()
        json_response(odds_document(operation, dict(loaded)))
        cpu.append((time.thread_time() - started) * 1000)
    return statistics.median(cpu)


def _row(case: Case, times: list[float], document: dict) -> dict:
    p50, p99 = statistics.median(times), _percentile(times, 0.99)
    solver = document.get("solver") or {}
    return {"case": case.name, "p50_ms": round(p50, 2), "p99_ms": round(p99, 2), "max_ms": round(max(times), 2),
            "states": solver.get("states", document.get("states")),
            "precision": solver.get("precision") or ("422" if case.refused else None),
            "meets": (case.target_p50_ms is None or p50 <= case.target_p50_ms) and p99 <= case.target_p99_ms
            and max(times) <= max(1000, case.target_p99_ms),
            "target": f"p50 <= {case.target_p50_ms} ms, " * (case.target_p50_ms is not None)
            + f"p99 <= {case.target_p99_ms} ms"}


def run(cases: list[Case] = CASES) -> list[dict]:
    """Every case in-process, with icepool beside the cases that have it; a solve's turns cost what
    they cost in the service's worker (``gevent.idle`` once per slice, no other greenlet waiting)."""
    time_slicing.install(gevent.idle)
    try:
        return _in_process(cases)
    finally:
        time_slicing.install(None)


def _in_process(cases: list[Case]) -> list[dict]:
    app = create_app({"signing_key_pem": generate_private_key_pem()})
    operations = operations_of(app)
    report = []
    with app.test_request_context():
        for case in cases:
            operation = operations[case.operation]
            respond(operation, dict(case.body), EXAMPLE_CALL)  # warm: the code path, not the results
            times, cpu = [], []
            for _ in range(case.calls):
                _clear_caches()
                started, started_cpu = time.perf_counter(), time.thread_time()
                response = respond(operation, dict(case.body), EXAMPLE_CALL)
                times.append((time.perf_counter() - started) * 1000)
                cpu.append((time.thread_time() - started_cpu) * 1000)
                assert response.status_code == (422 if case.refused else 200), response.get_data()
            row = _row(case, times, json.loads(response.get_data()))
            row["cpu_p50_ms"] = round(statistics.median(cpu), 2)
            row["cpu_p99_ms"] = round(_percentile(cpu, 0.99), 2)
            if case.icepool is not None:
                solving = _solving_cpu_ms(operation, case)
                # The median of fresh processes (icepool keeps caches of its own within one).
                runs = [_icepool_seconds(case.icepool, case.icepool_timeout) for _ in range(case.icepool_runs)]
                seconds = None if None in runs else statistics.median(runs)
                row["icepool_ms"] = None if seconds is None else round(seconds * 1000, 1)
                row["solving_cpu_ms"] = round(solving, 2)  # the body's validation apart (icepool does none)
                row["icepool_over_ours"] = (f"> {case.icepool_timeout * 1000 / solving:.0f}" if seconds is None
                                            else round(seconds * 1000 / solving, 1))
            report.append(row)
            print(json.dumps(row, ensure_ascii=False), flush=True)
    return report


# --- over HTTP ------------------------------------------------------------------------------------

class Client:
    """One keep-alive HTTP/1.1 connection posting JSON; ``post`` answers (status, milliseconds,
    document), timed from the request's first byte sent to the response's last byte read. The
    request is encoded before and the JSON parsed after; the response's head is read by hand:
    http.client parses it with email.parser, which costs the client about as much CPU per response as
    a refusal's own work in the service (bench/history/2026-12-01-to-03.md, "Refusals over HTTP")."""

    def __init__(self, url: str):
        parts = urlsplit(url)
        self.host = f"{parts.hostname}:{parts.port}"
        self.socket = socket.create_connection((parts.hostname, parts.port), timeout=30)
        self.socket.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.reader = self.socket.makefile("rb")

    def post(self, path: str, body: dict) -> tuple[int, float, dict]:
        payload = json.dumps(body).encode()
        message = (f"POST {path} HTTP/1.1\r\nHost: {self.host}\r\nContent-Type: application/json\r\n"
                   f"Content-Length: {len(payload)}\r\n\r\n").encode() + payload
        started = time.perf_counter()
        self.socket.sendall(message)
        status = int(self.reader.readline().split()[1])
        length = None
        while (line := self.reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value)
        if length is None:
            raise ConnectionError(f"an answer without Content-Length to {path} (status {status})")
        data = self.reader.read(length)
        return status, (time.perf_counter() - started) * 1000, json.loads(data)

    def close(self) -> None:
        self.reader.close()
        self.socket.close()


@contextmanager
def _client_collector_paused() -> Iterator[None]:
    """The benchmark's own cyclic collector paused while it times requests (its collections are not
    the service's), run after."""
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
        gc.collect()


def over_http(url: str, cases: list[Case] = CASES) -> list[dict]:
    """The ``http`` cases, one request after another on one connection (the service's caches warm, as
    a worker's are: small tables of binomials and draws, no encounter results). A refusal takes turns
    with a normal roll, so that its p99 has the floor of the same minutes beside it."""
    client = Client(url)
    report = [_floor_over_http(client)]
    try:
        for case in (c for c in cases if c.http):
            client.post(case.path, case.body)  # warm
            times, rolls = [], []
            with _client_collector_paused():
                for _ in range(case.calls):
                    status, elapsed, document = client.post(case.path, case.body)
                    assert status == (422 if case.refused else 200), document
                    times.append(elapsed)
                    if case.refused:
                        rolls.append(client.post(*ROLL)[1])
            row = _row(case, times, document)
            if rolls:
                row["roll_p99_ms"] = round(_percentile(rolls, 0.99), 2)
            report.append(row)
            print(json.dumps({"http": row}, ensure_ascii=False), flush=True)
    finally:
        client.close()
    return report


def _floor_over_http(client: Client, calls: int = 200) -> dict:
    """A normal roll (``paws.test``) on the same connection: what this host gives any request."""
    client.post(*ROLL)
    with _client_collector_paused():
        times = [client.post(*ROLL)[1] for _ in range(calls)]
    return {"case": "paws.test, a normal roll (the floor)", "p50_ms": round(statistics.median(times), 2),
            "p99_ms": round(_percentile(times, 0.99), 2), "max_ms": round(max(times), 2), "states": None,
            "precision": "", "meets": True, "target": "none (reference)"}


# --- fairness -------------------------------------------------------------------------------------

def _rolls(url: str, seconds: float, interval: float) -> list[float]:
    """``paws.test`` every ``interval`` seconds (a steady rate: a late answer does not delay the
    schedule beyond sending the next at once) for ``seconds``; the latencies in ms."""
    client = Client(url)
    times = []
    try:
        started = time.perf_counter()
        due = started
        while due < started + seconds:
            pause = due - time.perf_counter()
            if pause > 0:
                time.sleep(pause)
            status, elapsed, _ = client.post(*ROLL)
            assert status == 200
            times.append(elapsed)
            due = max(due + interval, time.perf_counter() - interval)
    finally:
        client.close()
    return times


def _solving(url: str, case: Case, stop: threading.Event, solved: list[float]) -> None:
    client = Client(url)
    try:
        while not stop.is_set():
            status, elapsed, document = client.post(case.path, case.body)
            assert status == 200, document
            solved.append(elapsed)
    finally:
        client.close()


def fairness(urls: dict[str, str], cases: list[Case] = CASES, *, rounds: int = 3, seconds: float = 3.0,
             interval: float = 0.02) -> list[dict]:
    """Per system and server (``urls``: a name for each, one worker each): rolls with no solve
    running (the floor) and rolls while its cap case is posted back to back, ``rounds`` times, the
    servers taking turns and the order of the two phases alternating."""
    report = []
    for case in (c for c in cases if c.cap):
        phases = {name: {"quiet": [], "busy": [], "solves": []} for name in urls}
        for index in range(rounds):
            for name, url in urls.items():
                for solving in ((False, True) if index % 2 == 0 else (True, False)):
                    measured = phases[name]
                    with _client_collector_paused():
                        if solving:
                            measured["busy"] += _rolls_beside_solves(url, case, seconds, interval, measured["solves"])
                        else:
                            measured["quiet"] += _rolls(url, seconds, interval)
        for name, measured in phases.items():
            row = _fairness_row(case, **measured)
            row["server"] = name
            report.append(row)
            print(json.dumps({"fairness": row}, ensure_ascii=False), flush=True)
    return report


def _rolls_beside_solves(url: str, case: Case, seconds: float, interval: float, solves: list[float]) -> list[float]:
    stop = threading.Event()
    solver = threading.Thread(target=_solving, args=(url, case, stop, solves))
    solver.start()
    time.sleep(0.05)  # the first solve under way
    try:
        return _rolls(url, seconds, interval)
    finally:
        stop.set()
        solver.join()


def _fairness_row(case: Case, quiet: list[float], busy: list[float], solves: list[float]) -> dict:
    row = {"case": case.name, "rolls": len(busy), "solves": len(solves),
           "solve_p50_ms": round(statistics.median(solves), 1),
           "floor_p50_ms": round(statistics.median(quiet), 2), "floor_p99_ms": round(_percentile(quiet, 0.99), 2),
           "p50_ms": round(statistics.median(busy), 2), "p99_ms": round(_percentile(busy, 0.99), 2),
           "max_ms": round(max(busy), 2)}
    row["p99_vs_floor"] = round(row["p99_ms"] / row["floor_p99_ms"], 2)
    row["meets"] = row["p99_vs_floor"] <= 2
    return row


def loop_holds(cases: list[Case] = CASES, calls: int = 5) -> list[dict]:
    """Per cap case: the stretches its whole request holds the event loop between turns
    (service/platform/maths/time_slicing.py): the app called as the worker calls it, in a greenlet, from
    the body's parsing and loading through the bound, the solve and the JSON to the response's
    last byte. As in the worker: ``gevent.idle`` for the turns, the collector running and the loaded
    app frozen (``Worker.load_wsgi``), the caches warm as solves posted back to back find them (the
    first call fills them, untraced). In the thread's CPU time, which the other processes of a
    shared host do not lengthen; each stretch is named by the turns it lies between, and its
    garbage collections are counted in it."""
    app = create_app({"signing_key_pem": generate_private_key_pem()})
    tracer = _HoldsTracer()
    time_slicing.install(tracer.turn)
    gc.collect()
    gc.freeze()
    gc.callbacks.append(tracer.collection)
    report = []
    try:
        for case in (c for c in cases if c.cap):
            stretches = tracer.trace(app, case, calls)
            times = [stretch.cpu_ms for stretch in stretches]
            longest = max(stretches, key=lambda stretch: stretch.cpu_ms)
            row = {"case": case.name, "turns_per_request": round(len(stretches) / calls),
                   "hold_p50_ms": round(statistics.median(times), 2), "hold_p99_ms": round(_percentile(times, 0.99), 2),
                   "hold_max_ms": round(longest.cpu_ms, 2), "longest": f"{longest.began} → {longest.ended}",
                   "gc_ms_in_longest": round(longest.gc_ms, 2),
                   "gc_max_ms": round(max(stretch.gc_ms for stretch in stretches), 2),
                   "longest_kinds": _longest_kinds(stretches)}
            report.append(row)
            print(json.dumps({"holds": row}, ensure_ascii=False), flush=True)
    finally:
        gc.callbacks.remove(tracer.collection)
        gc.unfreeze()
        time_slicing.install(None)
    return report


@dataclass
class _Stretch:
    cpu_ms: float
    gc_ms: float
    began: str  # the turn (or the request's start) it followed
    ended: str  # the turn (or the request's end) that ended it


class _HoldsTracer:
    """Greenlet switches of one greenlet answering requests, each stretch between them named by the
    ``cooperate`` calls it lies between (the installed turn records its caller)."""

    REQUEST_START, REQUEST_END = "the request's start", "the response's end"

    def __init__(self):
        self.turned_at: str | None = None
        self.gc_ms = 0.0
        self._gc_started = 0.0

    def turn(self) -> None:
        self.turned_at = _caller_in_service(sys._getframe(2))  # 1: cooperate, 2: its caller
        gevent.idle()

    def collection(self, phase: str, info: dict) -> None:
        if phase == "start":
            self._gc_started = time.thread_time()
        else:
            self.gc_ms += (time.thread_time() - self._gc_started) * 1000

    def trace(self, app, case: Case, calls: int) -> list[_Stretch]:
        import greenlet

        def answer():
            for _ in range(calls):
                self.turned_at = self.REQUEST_START
                gevent.sleep(0)
                assert _call_wsgi(app, case) == 200
                self.turned_at = self.REQUEST_END
                gevent.sleep(0)  # the worker's turn after each answer (Worker.handle_request)

        _call_wsgi(app, case)  # untraced: the caches as a worker has them after its first solve
        stretches: list[_Stretch] = []
        began: list[tuple[float, float]] = []
        follows = [self.REQUEST_START]
        solver = gevent.spawn(answer)

        def trace(event, args):
            origin, target = args
            if target is solver:
                began.append((time.thread_time(), self.gc_ms))
            elif origin is solver and began:
                started, gc_before = began.pop()
                ended, self.turned_at = self.turned_at or "a blocking call", None
                if ended != self.REQUEST_START:  # else the driver's own step between two requests
                    stretches.append(_Stretch((time.thread_time() - started) * 1000, self.gc_ms - gc_before,
                                              follows[0], ended))
                follows[0] = ended

        previous = greenlet.settrace(trace)
        try:
            solver.join()
        finally:
            greenlet.settrace(previous)
        return stretches


def _call_wsgi(app, case: Case) -> int:
    """POST the case's body to the WSGI app as a server does; the response's status."""
    from werkzeug.test import EnvironBuilder

    environ = EnvironBuilder(path=case.path, method="POST", data=json.dumps(case.body),
                             content_type="application/json").get_environ()
    status = []
    body = app(environ, lambda line, headers, exc_info=None: status.append(int(line.split()[0])))
    try:
        for _chunk in body:
            pass
    finally:
        getattr(body, "close", lambda: None)()
    return status[0]


def _caller_in_service(frame) -> str:
    """``path:line function`` of the innermost frame in service/ outside the time-slicing module."""
    root = Path(time_slicing.__file__).parent.parent
    while frame is not None:
        path = Path(frame.f_code.co_filename)
        if path.is_relative_to(root) and path.name != "time_slicing.py":
            return f"{path.relative_to(root)}:{frame.f_lineno} {frame.f_code.co_name}"
        frame = frame.f_back
    return "?"


def _longest_kinds(stretches: list[_Stretch], count: int = 3) -> list[dict]:
    """The ``count`` longest kinds of stretch (the same pair of turns), longest first."""
    kinds: dict[tuple[str, str], list[_Stretch]] = {}
    for stretch in stretches:
        kinds.setdefault((stretch.began, stretch.ended), []).append(stretch)
    ranked = sorted(kinds.items(), key=lambda item: -max(s.cpu_ms for s in item[1]))[:count]
    return [{"from": began, "to": ended, "n": len(found), "max_ms": round(max(s.cpu_ms for s in found), 2),
             "gc_max_ms": round(max(s.gc_ms for s in found), 2)} for (began, ended), found in ranked]


# --- the report -----------------------------------------------------------------------------------

def table(rows: list[dict]) -> str:
    """One markdown table of in-process or HTTP rows (HTTP rows have no CPU and no icepool)."""
    lines = ["| case | states | precision | p50 ms | p99 ms | max ms | CPU p50 ms | target | met | icepool ms | "
             "icepool / ours |", "|---|---|---|---|---|---|---|---|---|---|---|"]
    for row in rows:
        lines.append(f"| {row['case']} | {row['states'] or '–'} | {row['precision']} | {row['p50_ms']} | "
                     f"{row['p99_ms']}{_beside(row)} | {row['max_ms']} | {row.get('cpu_p50_ms', '')} | "
                     f"{row['target']} | "
                     f"{'yes' if row['meets'] else '**no**'} | {_icepool_cell(row)} | "
                     f"{row.get('icepool_over_ours', '')} |")
    return "\n".join(lines)


def _beside(row: dict) -> str:
    return f" (a roll beside: {row['roll_p99_ms']})" if "roll_p99_ms" in row else ""


def _icepool_cell(row: dict) -> str:
    if "icepool_ms" not in row:
        return ""
    return "stopped" if row["icepool_ms"] is None else str(row["icepool_ms"])


def fairness_table(rows: list[dict]) -> str:
    lines = ["| solves posted back to back | server | solves | solve p50 ms | rolls | roll p50 / p99 ms alone | "
             "p50 / p99 / max ms beside the solves | p99 ÷ alone | ≤ 2 |", "|---|---|---|---|---|---|---|---|---|"]
    for row in rows:
        lines.append(f"| {row['case']} | {row['server']} | {row['solves']} | {row['solve_p50_ms']} | {row['rolls']} | "
                     f"{row['floor_p50_ms']} / {row['floor_p99_ms']} | {row['p50_ms']} / {row['p99_ms']} / "
                     f"{row['max_ms']} | {row['p99_vs_floor']} | {'yes' if row['meets'] else '**no**'} |")
    return "\n".join(lines)


def holds_table(rows: list[dict]) -> str:
    lines = ["| request at the cap | turns per request | CPU ms between turns: p50 / p99 / max | "
             "the longest: between | gc ms in it (most in any) |", "|---|---|---|---|---|"]
    for row in rows:
        lines.append(f"| {row['case']} | {row['turns_per_request']} | {row['hold_p50_ms']} / {row['hold_p99_ms']} / "
                     f"{row['hold_max_ms']} | {row['longest']} | {row['gc_ms_in_longest']} ({row['gc_max_ms']}) |")
    return "\n".join(lines)


def serving(workers: int, root: Path | None = None):
    """A started gunicorn (the service's worker, production config, load shedding off as in
    bench/run.py; ``root``: an earlier checkout served by this .venv) and its temporary directory;
    stop it and remove the directory after."""
    from tests.deploy.processes import ROOT, Gunicorn

    tmp = Path(tempfile.mkdtemp(prefix="wurfwerk-bench-encounters-"))
    key = tmp / "key.pem"
    key.write_text(generate_private_key_pem())
    env = {"WURFWERK_SIGNING_KEY_FILE": str(key), "WURFWERK_MAX_QUEUE_DELAY": "3600"}
    if root is not None:
        env["PYTHONPATH"] = str(root)
    name = f"encounters-{workers}" + ("-before" if root else "")
    return Gunicorn(tmp, env=env, workers=workers, name=name, root=root or ROOT).start(), tmp


def run_all(parts: set[str] | None = None, cases: list[Case] = CASES, before: Path | None = None) -> dict:
    """In-process, the loop's holds, over HTTP (2 workers, as bench/run.py serves) and fairness (1
    worker; with ``before``, an earlier checkout's worker beside it); the tables printed at the end."""
    parts = parts or {"in_process", "holds", "http", "fairness"}
    results: dict = {}
    if "in_process" in parts:
        results["in_process"] = run(cases)
    if "holds" in parts:
        results["holds"] = loop_holds(cases)
    started = []
    try:
        if "http" in parts:
            started.append(serving(2))
            results["http"] = over_http(started[-1][0].url, cases)
        if "fairness" in parts:
            started.append(serving(1))
            urls = {"this checkout": started[-1][0].url}
            if before is not None:
                started.append(serving(1, before))
                urls["before"] = started[-1][0].url
            results["fairness"] = fairness(urls, cases)
    finally:
        for server, tmp in started:
            server.stop()
            shutil.rmtree(tmp, ignore_errors=True)
    for part, rows in results.items():
        tabulate = {"fairness": fairness_table, "holds": holds_table}.get(part, table)
        print(f"\n{part}\n" + tabulate(rows), flush=True)
    return results


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", action="append", choices=["in_process", "holds", "http", "fairness"])
    parser.add_argument("--case", action="append", help="only the cases whose name contains this")
    parser.add_argument("--before", type=Path, metavar="CHECKOUT",
                        help="fairness also on this earlier checkout's worker, taking turns with this one")
    arguments = parser.parse_args()
    run_all(set(arguments.only or ()),
            [case for case in CASES if not arguments.case or any(part in case.name for part in arguments.case)],
            arguments.before)
