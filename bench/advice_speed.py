"""Advice twins (API.md §1.10, issue 51 "Speed"): the same targets as the odds where the options are
few: ≤ 8 options of a realistic fight answered with p99 ≤ 50 ms, and the adaptive optimum ≤ 4 × the
fight's own odds.

Each case goes through the advice operation's own request path (``respond``: loading the body,
pricing every option, solving each, ranking, the adaptive solve, signing), every cache cleared before
each call; beside it, in the same run and the same alternation, the odds twin of the body as given
(the floor) and the system's adaptive solve alone. Reported: p50 and p99 of the advice, and the
ratios advice / odds and adaptive / odds of the medians. No timed asserts: figures go to
bench/README.md.

Run as ``python -m bench.advice_speed`` (``--calls N``).
"""

from __future__ import annotations

import argparse
import functools
import json
import statistics
import time
from dataclasses import dataclass
from typing import Any

from bench.encounter_speed import _clear_caches, _percentile
from service import create_app
from service.platform.dice.receipts import generate_private_key_pem
from service.platform.operations.operations import EXAMPLE_CALL, operations_of, respond


@dataclass(frozen=True)
class Case:
    name: str
    system: str
    body: dict[str, Any]
    operation: str = "encounter"


CASES = (
    Case("paws 4 v 4, 2 one-shot dice: one_shot_rescue (3 options)", "paws",
         {"a": {"name": "Ryan", "rank": 4}, "b": {"name": "Jack", "rank": 4}, "one_shot_rescue": {"a": 2, "b": 1},
          "advise": {"choices": ["one_shot_rescue"]}}),
    Case("paws 4 v 4, 2 one-shot dice: every choice (12 options)", "paws",
         {"a": {"name": "Ryan", "rank": 4}, "b": {"name": "Jack", "rank": 4}, "one_shot_rescue": {"a": 2, "b": 1}}),
    Case("paws 6 v 5 with armour, 3 one-shot dice: every choice (24 options)", "paws",
         {"a": {"rank": 5, "advantages": {"equipment": "active"}}, "b": {"rank": 5, "extra_rescue_dice": 1},
          "one_shot_rescue": {"a": 3, "b": 0}, "advise": {"choices": ["one_shot_rescue", "give_up_at_wounds"]},
          }),
    Case("proben 2 steps, 3 and 2 dice: max_attempts (6 options)", "proben",
         {"steps": [{"pool": {"attribute": 2, "skill": 1}, "difficulty": 2},
                    {"pool": {"attribute": 2}, "difficulty": 1}], "advise": {"choices": ["max_attempts"]}}),
    Case("proben 2 steps, 3 and 2 dice: max_attempts × carry_partial (12 options)", "proben",
         {"steps": [{"pool": {"attribute": 3}, "difficulty": 2}, {"pool": {"attribute": 2}, "difficulty": 1}],
          "carry_partial": True}),
    Case("weltenbuch 2 heroes v 3 orcs: hold_hero_points (4 options)", "weltenbuch", {}),
    Case("proben cooperation, 3 helpers (8 options)", "proben",
         {"leader": {"name": "Alrik", "attribute": 3, "skill": 1}, "difficulty": 3,
          "helpers": [{"name": "Mira", "attribute": 2}, {"name": "Bo", "attribute": 1},
                      {"name": "Kai", "attribute": 3}]},
         operation="cooperation"),
    Case("paws lost comparison 3 v 2, 3 one-shot dice, 1 later loss (4 options)", "paws",
         {"a": {"rank": 3}, "b": {"rank": 2, "extra_rescue_dice": 1}, "one_shot_rescue": 3,
          "advise": {"side": "b"}}, operation="comparison"),
    Case("paws lost comparison 10 v 10 at the limits: 20 one-shot dice, 10 later losses (21 options)", "paws",
         {"a": {"rank": 10}, "b": {"rank": 10}, "one_shot_rescue": 20, "future_losses": 10},
         operation="comparison"),
    Case("beutelschneider thief v guard: ability (2 options), adaptive flee or fight", "beutelschneider",
         {"sides": [{"name": "Dieb", "bag": {"red": 3, "green": 6, "white": 5, "black": 1}},
                    {"name": "Wache", "bag": {"red": 7, "green": 3, "white": 5}}], "advise": {"side": "Dieb"}}),
    Case("malmsturm example duel: every choice (12 options), adaptive early consequence", "malmsturm",
         {"advise": {"side": "Helden"}}),
)


def _weltenbuch_body() -> dict[str, Any]:
    from service.systems.weltenbuch.routes import ENCOUNTER_EXAMPLE
    return {**ENCOUNTER_EXAMPLE, "advise": {"choices": ["hold_hero_points"]}}


def _body(case: Case) -> dict[str, Any]:
    """The case's body; the Malmsturm case is the operation's example duel."""
    if case.system == "malmsturm":
        from service.systems.malmsturm.routes import ENCOUNTER_EXAMPLE
        return {**ENCOUNTER_EXAMPLE, **case.body}
    return case.body or _weltenbuch_body()


def _timed(call) -> float:
    _clear_caches()
    start = time.perf_counter()
    call()
    return time.perf_counter() - start


def run(calls: int) -> list[dict[str, Any]]:
    app = create_app({"signing_key_pem": generate_private_key_pem()})
    operations = operations_of(app)
    rows = []
    with app.test_request_context():
        for case in CASES:
            body = _body(case)
            advice = operations[f"{case.system}.{case.operation}.advice"]
            odds = operations[f"{case.system}.{case.operation}.odds"]
            # the odds twin's body: the advice body without what only advice takes (advise, a roll's choice)
            plain = {name: value for name, value in body.items() if name in odds.schema.fields}
            loaded = advice.load(dict(body))
            advisor = _advisor(case)
            asked_side, asked = _asked(advisor, loaded)
            adaptive = advisor.adaptive
            response = respond(advice, dict(body), EXAMPLE_CALL)
            assert response.status_code == 200, response.get_data()
            options = len(json.loads(response.get_data())["advice"]["options"])
            solves = {"advice": functools.partial(respond, advice, body, EXAMPLE_CALL),
                      "odds": functools.partial(respond, odds, plain, EXAMPLE_CALL)}
            if adaptive is not None:
                solves["adaptive"] = functools.partial(adaptive, loaded, asked_side, asked)
            times: dict[str, list[float]] = {"advice": [], "odds": [], "adaptive": []}
            for index in range(calls):
                order = list(solves) if index % 2 == 0 else list(reversed(solves))
                for part in order:
                    times[part].append(_timed(solves[part]))
            median = {part: statistics.median(values) if values else None for part, values in times.items()}
            rows.append({
                "case": case.name, "options": options,
                "advice_p50_ms": round(median["advice"] * 1000, 2),
                "advice_p99_ms": round(_percentile(times["advice"], 0.99) * 1000, 2),
                "odds_p50_ms": round(median["odds"] * 1000, 2),
                "advice_vs_odds": round(median["advice"] / median["odds"], 2),
                "adaptive_vs_odds": None if median["adaptive"] is None
                else round(median["adaptive"] / median["odds"], 2),
            })
            print(json.dumps(rows[-1], ensure_ascii=False), flush=True)
    return rows


def _advisor(case: Case):
    import importlib
    routes = importlib.import_module(f"service.systems.{case.system}.routes")
    return {"cooperation": getattr(routes, "COOPERATION_ADVISOR", None),
            "comparison": getattr(routes, "COMPARISON_RESCUE_ADVISOR", None)}.get(case.operation) or routes.ADVISOR


def _asked(advisor, body):
    from service.platform.operations import advice
    return advice.asked_choices(advisor, body)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--calls", type=int, default=60)
    run(parser.parse_args().calls)


if __name__ == "__main__":
    main()
