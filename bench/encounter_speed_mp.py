"""Encounter odds of Malmsturm and Paws (API.md §1.7, issue 30 "Speed"): p50/p99 in-process, every
cache cleared before each call, and the same encounters written with icepool's absorbing solver
(`map(..., repeat="inf")`) in the same run.

Ours: the operation's own handler on the validated body (as bench/odds_speed.py), the 422 refusals
too (through the whole request path: loading the body, bounding, refusing). Wall time and the
process's CPU time: on a shared host the difference is time spent waiting for a core.
Run `python -m bench.encounter_speed_mp` from the repository root; `CASES` lists
(name, operation id, body, target) and `ICEPOOL` the cases icepool solves as well.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from collections.abc import Callable

import icepool
from gevent import monkey

from bench.odds_speed import _clear_caches
from service import create_app
from service.platform.http_json import json_response
from service.platform.operations import EXAMPLE_CALL, odds_document, operations_of, respond
from service.platform.receipts import generate_private_key_pem

DF = icepool.Die([-1, 0, 1])
SUCCESS = icepool.d6.map(lambda face: 1 if face >= 4 else 0)
REALISTIC = {"p50_ms": 20, "p99_ms": 50}
ACCEPTED = {"p99_ms": 500, "max_ms": 1000}
REFUSAL = {"max_ms": 5}


def malm_member(name: str, skill: int = 3, defense: int = 2, boxes: int = 4, kind: str = "harm",
                intuition: int = 1) -> dict:
    return {"name": name, "attack": {"skill": skill, "type": kind}, "defense": defense, "intuition": intuition,
            "stress": {"physical": {"current": boxes, "max": boxes}, "mental": {"current": boxes, "max": boxes}}}


def malm_groups(size: int, boxes: int, targeting: str, kinds: tuple[str, ...] = ("harm",)) -> dict:
    heroes = [malm_member(f"H{i}", 3, 2, boxes, kinds[i % len(kinds)]) for i in range(size)]
    orcs = [malm_member(f"O{i}", 2, 2, boxes, kinds[i % len(kinds)]) for i in range(size)]
    return {"sides": [{"name": "Helden", "members": heroes}, {"name": "Orks", "members": orcs}],
            "order": [m["name"] for pair in zip(heroes, orcs) for m in pair], "policy": {"targeting": targeting}}


def malm_duel(boxes: int, **extra) -> dict:
    return {"sides": [{"name": "Helden", "members": [malm_member("Alrik", 3, 2, boxes, intuition=2)]},
                      {"name": "Orks", "members": [malm_member("Ork", 2, 1, boxes)]}], **extra}


def paws_duel(a: int, b: int, *, armour: int = 0, one_shot: int = 0, one_shot_b: int | None = None) -> dict:
    return {"a": {"rank": 0, "extra_bonus_dice": a, "extra_rescue_dice": armour},
            "b": {"rank": 0, "extra_bonus_dice": b},
            "one_shot_rescue": {"a": one_shot, "b": one_shot if one_shot_b is None else one_shot_b}}


CASES: list[tuple[str, str, dict, dict]] = [
    ("malmsturm 1v1, 3 boxes, initiative (exact)", "malmsturm.encounter.odds", malm_duel(3), REALISTIC),
    ("malmsturm 1v1, 4 boxes, initiative", "malmsturm.encounter.odds", malm_duel(4), REALISTIC),
    ("malmsturm 1v1, 4 boxes, curve 20 rounds", "malmsturm.encounter.odds", malm_duel(4, curve_rounds=20), REALISTIC),
    ("malmsturm 2v2 focus, 4 boxes", "malmsturm.encounter.odds", malm_groups(2, 4, "focus"), ACCEPTED),
    ("malmsturm 4v4 focus, 4 boxes", "malmsturm.encounter.odds", malm_groups(4, 4, "focus"), ACCEPTED),
    ("malmsturm 4v4 focus, 6 boxes (bound 18,529)", "malmsturm.encounter.odds", malm_groups(4, 6, "focus"), ACCEPTED),
    ("malmsturm 3v3 focus, 8 boxes (bound 13,921)", "malmsturm.encounter.odds", malm_groups(3, 8, "focus"), ACCEPTED),
    ("malmsturm 2v2 spread, 3 boxes (bound 9,313)", "malmsturm.encounter.odds", malm_groups(2, 3, "spread"), ACCEPTED),
    ("malmsturm 2v2 focus both tracks, 3 boxes", "malmsturm.encounter.odds",
     malm_groups(2, 3, "focus", ("harm", "deceive")), ACCEPTED),
    ("malmsturm refused: 4v4 focus, 10 boxes", "malmsturm.encounter.odds", malm_groups(4, 10, "focus"), REFUSAL),
    ("malmsturm refused: 4v4 focus both tracks, 10 boxes", "malmsturm.encounter.odds",
     malm_groups(4, 10, "focus", ("harm", "deceive")), REFUSAL),
    ("paws 8v8 (exact)", "paws.encounter.odds", paws_duel(8, 8), REALISTIC),
    ("paws 8v7, armour, 2 one-shot each", "paws.encounter.odds", paws_duel(8, 7, armour=1, one_shot=2), REALISTIC),
    ("paws 8v8, curve 30 rounds", "paws.encounter.odds", {**paws_duel(8, 8), "curve_rounds": 30}, REALISTIC),
    ("paws 100v100 (bound 10,201)", "paws.encounter.odds", paws_duel(100, 100), ACCEPTED),
    ("paws 99v99, 1 one-shot die for a (bound 10,200)", "paws.encounter.odds",
     paws_duel(99, 99, one_shot=1, one_shot_b=0), ACCEPTED),
    ("paws refused: 100v100, 50 one-shot each", "paws.encounter.odds", paws_duel(100, 100, one_shot=50), REFUSAL),
]


# --- the same encounters for icepool ----------------------------------------------------------------

def icepool_malmsturm_duel(boxes: int) -> Callable[[], object]:
    """1 v 1 of harm attacks (Alrik 3/2, Ork 2/1, `boxes` each), both orders as ours mixes them."""
    def solve(first: int):
        sides = ((3, 2), (2, 1))

        def hit(stress, consequences, shifts):
            if shifts <= 0:
                return stress, consequences
            return (stress - shifts, consequences) if stress - shifts > 0 else (boxes, consequences + 1)

        margins = [sides[i][0] - sides[1 - i][1] + 8 @ DF for i in (0, 1)]

        def repl(state):
            if state[1] >= 2 or state[3] >= 2:
                return state

            def round_(x, y):
                after = list(state)
                defender = 1 - first
                after[2 * defender:2 * defender + 2] = hit(state[2 * defender], state[2 * defender + 1], x)
                if after[2 * defender + 1] >= 2:
                    return tuple(after)
                after[2 * first:2 * first + 2] = hit(after[2 * first], after[2 * first + 1], y)
                return tuple(after)

            return icepool.map(round_, margins[first], margins[1 - first])

        return icepool.map(repl, icepool.Die([(boxes, 0, boxes, 0)]), repeat="inf")

    return lambda: (solve(0), solve(1))


def icepool_paws_duel(a: int, b: int, armour: int = 0, one_shot: int = 0) -> Callable[[], object]:
    def count(dice):
        return dice @ SUCCESS if dice else icepool.Die([0])

    def repl(state):
        if state[0] >= a or state[1] >= b:
            return state
        winner = icepool.map(lambda x, y, r: "a" if x - y > 0 else "b" if y - x > r else "tie",
                             count(a - state[0]), count(b - state[1]), count(armour))

        def after(name):
            if name == "tie":
                return state
            loser = 1 if name == "a" else 0
            shots = state[2 + loser]
            spent = icepool.Die({j: 2 ** (shots - j) for j in range(1, shots + 1)} | {0: 1})

            def land(j):
                following = list(state)
                if j == 0:
                    following[loser] += 1
                    following[2 + loser] = 0
                else:
                    following[2 + loser] -= j
                return tuple(following)

            return spent.map(land)

        return winner.map(after)

    return lambda: icepool.map(repl, icepool.Die([(0, 0, one_shot, one_shot)]), repeat="inf")


ICEPOOL = {
    "malmsturm 1v1, 3 boxes, initiative (exact)": icepool_malmsturm_duel(3),
    "malmsturm 1v1, 4 boxes, initiative": icepool_malmsturm_duel(4),
    "paws 8v8 (exact)": icepool_paws_duel(8, 8),
    "paws 8v7, armour, 2 one-shot each": icepool_paws_duel(8, 7, armour=1, one_shot=2),
}


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def _met(target: dict, p50: float, p99: float, worst: float) -> bool:
    return (p50 <= target.get("p50_ms", float("inf")) and p99 <= target.get("p99_ms", float("inf"))
            and worst <= target.get("max_ms", float("inf")))


def run(repeats: int = 41, cap_repeats: int = 7) -> list[dict]:
    monkey.patch_time()  # as in the gevent worker (and bench/encounter_speed.py): sleep(0) switches greenlets
    app = create_app({"signing_key_pem": generate_private_key_pem()})
    operations = operations_of(app)
    report = []
    with app.test_request_context():
        for name, operation_id, body, target in CASES:
            operation = operations[operation_id]
            loaded = operation.load(body)
            times, cpu = [], []
            status = None
            for _ in range(cap_repeats if target is ACCEPTED else repeats):
                _clear_caches()
                started, started_cpu = time.perf_counter(), time.process_time()
                if target is REFUSAL:  # the whole request path: load, bound, refuse
                    response = respond(operation, body, EXAMPLE_CALL)
                else:  # what respond answers, after loading (as bench/odds_speed.py)
                    response = json_response(odds_document(operation, dict(loaded)))
                times.append((time.perf_counter() - started) * 1000)
                cpu.append((time.process_time() - started_cpu) * 1000)
                status = response.status_code
            document = json.loads(response.get_data())
            p50, p99, worst = statistics.median(times), _percentile(times, 0.99), max(times)
            row = {"case": name, "status": status, "p50_ms": round(p50, 2), "p99_ms": round(p99, 2),
                   "max_ms": round(worst, 2), "cpu_p50_ms": round(statistics.median(cpu), 2),
                   "cpu_max_ms": round(max(cpu), 2), "target": target, "met": _met(target, p50, p99, worst),
                   "states": (document.get("solver") or {}).get("states", document.get("states")),
                   "precision": (document.get("solver") or {}).get("precision")}
            if name in ICEPOOL:
                started = time.perf_counter()
                ICEPOOL[name]()
                row["icepool_ms"] = round((time.perf_counter() - started) * 1000, 1)
                row["icepool_over_ours_p50"] = round(row["icepool_ms"] / p50, 1)
            report.append(row)
            print(json.dumps(row), file=sys.stderr, flush=True)
    return report


def table(report: list[dict]) -> str:
    lines = ["| case | states | precision | p50 ms | p99 ms | max ms | CPU p50 / max ms | target | met | icepool ms | "
             "icepool / ours |", "|---|---|---|---|---|---|---|---|---|---|---|"]
    for row in report:
        target = ", ".join(f"{key.removesuffix('_ms')} ≤ {value}" for key, value in row["target"].items())
        lines.append(f"| {row['case']} | {row['states']} | {row['precision'] or row['status']} | {row['p50_ms']} | "
                     f"{row['p99_ms']} | {row['max_ms']} | {row['cpu_p50_ms']} / {row['cpu_max_ms']} | {target} | "
                     f"{'yes' if row['met'] else 'NO'} | "
                     f"{row.get('icepool_ms', '')} | {row.get('icepool_over_ours_p50', '')} |")
    return "\n".join(lines)


if __name__ == "__main__":
    result = run()
    print(table(result))
    if "--json" in sys.argv:
        print(json.dumps(result, indent=2))
