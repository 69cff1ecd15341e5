"""wurfwerk benchmarks (run by hand: `make bench`, i.e. `python -m bench.run` from the repository root;
never part of `make test`).

Every figure is a ratio measured in one run on this machine, against a floor measured in the same
run: throughput and p99 of every target against the bare Flask reference (bench/bare_app.py) served
beside it on the service's worker (vs_bare) and on gunicorn's stock gevent worker (vs_stock), the
service's `/livez` and `sign-only` (and, with --before, an earlier checkout); exact odds against
icepool computing the same distribution, a 500-item batch against 500 single requests, worker RSS
after 100,000 requests against after 1,000. Results go to stdout and bench/results.json (with
--only, the parts of the file this run does not measure are kept).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# The in-process parts count metrics across processes as production does; prometheus_client picks
# its mode when it is imported, so before the imports below.
os.environ.setdefault("PROMETHEUS_MULTIPROC_DIR", tempfile.mkdtemp(prefix="wurfwerk-bench-metrics-"))

import requests  # noqa: E402

from bench import discord_speed, encounter_speed, odds_speed  # noqa: E402
from bench.load import cpu_seconds  # noqa: E402
from bench.profile import gunicorn_environ, seconds_per_call  # noqa: E402
from service.platform.dice.receipts import generate_private_key_pem  # noqa: E402
from tests.deploy.processes import Gunicorn  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]

OPERATIONS = {
    "proben.test": ("/v1/proben/test", {"attribute": 4, "skill": 2, "difficulty": 2}),
    "paws.test": ("/v1/paws/test", {"rank": 3}),
    "beutelschneider.challenge": ("/v1/beutelschneider/challenge",
                                  {"bag": {"red": 9, "green": 6, "white": 5}, "ability": "combat",
                                   "difficulty": "normal"}),
    "weltenbuch.conflict": ("/v1/weltenbuch/conflict", {"parties": [
        {"name": "Helden", "members": [{"name": "Toran", "role": "player", "seat": 1, "profile": 5}]},
        {"name": "Orks", "members": [{"name": "Ork", "role": "npc", "profile": 3}]}]}),
    "malmsturm.action": ("/v1/malmsturm/action", {"skill": 2, "difficulty": 1}),
}


def wrk(url: str, *, body: dict | None, seconds: int, connections: int) -> dict:
    script = Path(tempfile.mkstemp(suffix=".lua")[1])
    lines = []
    if body is not None:
        lines = ['wrk.method = "POST"', f"wrk.body = {json.dumps(json.dumps(body))}",
                 'wrk.headers["Content-Type"] = "application/json"']
    script.write_text("\n".join(lines) + "\n")
    output = subprocess.run(["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--latency", "-s", str(script), url],
                            capture_output=True, text=True, check=True).stdout
    script.unlink()
    answered = int(re.search(r"(\d+) requests in", output).group(1))
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))
    p99 = _ms(re.search(r"99%\s+([\d.]+\w+)", output).group(1))
    non_2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    errors = re.search(r"Socket errors: (.*)", output)
    return {"rps": rps, "answered": answered, "p99_ms": p99, "non_2xx": int(non_2xx.group(1)) if non_2xx else 0,
            "socket_errors": errors.group(1) if errors else ""}


def _ms(text: str) -> float:
    value, unit = re.match(r"([\d.]+)(\w+)", text).groups()
    return float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60000.0}[unit]


# The ceiling of a signed operation (bench/reference_app.py): a POST with a parsed body and a fixed
# paws.test-sized response, without and with its Ed25519 receipt.
REFERENCES = {
    "reference.parse_only": ("/bench/parse-only", OPERATIONS["paws.test"][1]),
    "reference.sign_only": ("/bench/sign-only", OPERATIONS["paws.test"][1]),
}
# The same signed answer from bench/bare_app.py: Flask without the service around it.
BARE_SIGNED = "/bench/sign-only"


def throughput(servers: dict, seconds: int, connections: int, rounds: int) -> dict:
    """Every target beside the runs it is held to, ``rounds`` times over: the bare reference
    (bench/bare_app.py: bare `/livez` for `/livez`, the bare signed answer for every POST), the
    service's `/livez` (the floor) and, for operations, the service's `sign-only`; with servers of
    earlier checkouts (``servers["before"]``, ``servers["before2"]``, …), the same target on each
    too. Each round gives a ratio per pair and the median is reported, because this machine's speed
    drifts by tens of per cent within minutes: a ratio is only as good as the closeness in time of
    its two runs. The order of a target's runs reverses from round to round, so none always runs first.

    Beside requests per second, each run records the server's CPU time per request (master and
    workers, from /proc): wrk shares the two cores, so requests per second also move with the share
    the scheduler gives the server, while CPU per request is what capacity is made of."""
    service, bare, stock = servers["service"], servers["bare"], servers.get("stock")
    befores = {role: server for role, server in servers.items() if role.startswith("before")}
    sign_path, sign_body = REFERENCES["reference.sign_only"]
    targets = {"livez": ("/livez", None), **REFERENCES, **OPERATIONS}
    rounds_of: dict[str, list[dict[str, dict]]] = {name: [] for name in targets}
    for index in range(rounds):
        for name, (path, body) in targets.items():
            plan = {"measured": (service, path, body)}
            if name == "livez":
                plan["bare"] = (bare, "/livez", None)
            else:
                plan["floor"] = (service, "/livez", None)
                plan["bare"] = (bare, BARE_SIGNED, sign_body)
            if stock is not None:  # the same bare app on gunicorn's own gevent worker
                plan["stock"] = (stock, *plan["bare"][1:])
            if name in OPERATIONS:
                plan["sign"] = (service, sign_path, sign_body)
            for role, before in befores.items():
                plan[role] = (before, path, body)
            order = list(plan.items())
            if index % 2:  # which run goes first alternates from round to round
                order.reverse()
            rounds_of[name].append({role: _wrk_with_cpu(server, target_path, target_body, seconds, connections)
                                    for role, (server, target_path, target_body) in order})
    return {name: _summary(runs) for name, runs in rounds_of.items()}


def _wrk_with_cpu(server, path: str, body: dict | None, seconds: int, connections: int) -> dict:
    before = cpu_seconds(server.process.pid)
    row = wrk(server.url + path, body=body, seconds=seconds, connections=connections)
    row["cpu_us_per_request"] = round((cpu_seconds(server.process.pid) - before) * 1e6 / max(row["answered"], 1))
    return row


def _summary(runs: list[dict[str, dict]]) -> dict:
    """Medians of one target's rounds; ``vs_<role>`` is its requests per second over those of the
    run of that role in the same round, ``capacity_vs_<role>`` the same from CPU per request."""
    def median(values):
        return statistics.median(list(values))

    report = {
        "rps": round(median(run["measured"]["rps"] for run in runs)),
        "p99_ms": round(median(run["measured"]["p99_ms"] for run in runs), 2),
        "cpu_us_per_request": round(median(run["measured"]["cpu_us_per_request"] for run in runs)),
        "bare_rps": round(median(run["bare"]["rps"] for run in runs)),
        "bare_p99_ms": round(median(run["bare"]["p99_ms"] for run in runs), 2),
        "bare_cpu_us_per_request": round(median(run["bare"]["cpu_us_per_request"] for run in runs)),
    }
    befores = sorted(role for role in runs[0] if role.startswith("before"))
    for role, key in (("bare", "vs_bare"), ("stock", "vs_stock"), ("floor", "throughput_ratio"),
                      ("sign", "vs_sign_only"), *((before, f"vs_{before}") for before in befores)):
        if role not in runs[0]:
            continue
        ratios = [run["measured"]["rps"] / run[role]["rps"] for run in runs]
        report[key] = round(median(ratios), 3)
        report[f"{key}_range"] = [round(min(ratios), 3), round(max(ratios), 3)]
        report[f"capacity_{key}"] = round(median(
            run[role]["cpu_us_per_request"] / run["measured"]["cpu_us_per_request"] for run in runs), 3)
    report["p99_vs_bare"] = round(median(run["measured"]["p99_ms"] / run["bare"]["p99_ms"] for run in runs), 3)
    if "stock" in runs[0]:
        report["p99_vs_stock"] = round(median(run["measured"]["p99_ms"] / run["stock"]["p99_ms"] for run in runs), 3)
    for before in befores:
        report[f"{before}_vs_bare"] = round(median(run[before]["rps"] / run["bare"]["rps"] for run in runs), 3)
        report[f"{before}_p99_vs_bare"] = round(median(run[before]["p99_ms"] / run["bare"]["p99_ms"] for run in runs),
                                                3)
    report["non_2xx"] = sum(row["non_2xx"] for run in runs for row in run.values())
    report["socket_errors"] = sorted({row["socket_errors"] for run in runs for row in run.values()} - {""})
    return report


def _wsgi_caller(app, path: str, body: dict | None, headers: dict | None = None):
    """A function making one WSGI call of ``path`` into ``app`` (no sockets; the body read as
    gunicorn hands it over)."""
    import orjson
    from werkzeug.test import EnvironBuilder

    data = orjson.dumps(body) if body is not None else None
    template = EnvironBuilder(path=path, method="POST" if data else "GET", data=data, headers=headers,
                              content_type="application/json" if data else None).get_environ()

    def call():
        return b"".join(app(gunicorn_environ(template, data or b""), lambda status, headers: None))

    return call


def in_process(calls: int = 500, rounds: int = 9) -> dict:
    """The same comparison without sockets, wrk or gunicorn: WSGI calls into one app, so the ratio
    shows what the service itself costs per operation, undisturbed by the load generator sharing
    the two cores. Floor, target and the bare reference (bench/bare_app.py: bare `/livez` for
    `/livez`, the bare signed answer otherwise) alternate in blocks of ``calls``; each round gives
    ratios and their median counts, as over HTTP. Metrics count in multiprocess mode, as in
    production (see the top of this module)."""
    from bench.bare_app import make as make_bare
    from bench.reference_app import make

    pem = generate_private_key_pem()
    app = make({"signing_key_pem": pem})
    bare = make_bare(pem)
    floor_call = _wsgi_caller(app, "/livez", None)
    seconds_per_call(floor_call, calls)  # warm up
    report = {}
    for name, (path, body) in {"livez": ("/livez", None), **REFERENCES, **OPERATIONS}.items():
        call = _wsgi_caller(app, path, body)
        bare_call = _wsgi_caller(bare, "/livez", None) if body is None else _wsgi_caller(bare, BARE_SIGNED, body)
        seconds_per_call(call, calls)
        seconds_per_call(bare_call, calls)
        blocks = [(seconds_per_call(floor_call, calls), seconds_per_call(call, calls),
                   seconds_per_call(bare_call, calls)) for _ in range(rounds)]
        report[name] = {"us": round(statistics.median(seconds for _, seconds, _ in blocks) * 1e6),
                        "livez_us": round(statistics.median(floor for floor, _, _ in blocks) * 1e6),
                        "bare_us": round(statistics.median(bare for _, _, bare in blocks) * 1e6),
                        "throughput_ratio": round(statistics.median(floor / seconds for floor, seconds, _ in blocks),
                                                  3),
                        "vs_bare": round(statistics.median(bare / seconds for _, seconds, bare in blocks), 3)}
    return report


def derived_vs_secure(calls: int = 500, rounds: int = 9) -> dict:
    """What a derived roll costs against a secure one (issue 14), in-process as above: the same
    paws.test body rolled from the CSPRNG, with an `Idempotency-Key` header, with a ticket
    (whose signature is checked on every call) and in a session (issues 41 and 48: its header's
    signature and the seat's key checked, the seat's stream derived), alternating in blocks; the
    median of the per-round ratios, and a session roll against a ticket roll. Also the source
    alone, without the request around it: 3 d6 from each source."""
    from bench.reference_app import make
    from service.platform.dice.derived_randomness import derived_source, idempotency_label
    from service.platform.dice.randomness import SecureSource

    app = make({"signing_key_pem": generate_private_key_pem()})
    path, body = OPERATIONS["paws.test"]
    ticket = app.test_client().post("/v1/tickets", json={"operation": "paws.test"}).get_json()["tickets"][0]
    secure = _wsgi_caller(app, path, body)
    opened = app.test_client().post("/v1/sessions", json={"seats": ["bench"]}).get_json()
    seat = {"header": opened["session"], "seat": "bench", "seat_key": opened["seat_keys"]["bench"]}
    variants = {"idempotency_key": _wsgi_caller(app, path, body, {"Idempotency-Key": "bench-retry-0001"}),
                "ticket": _wsgi_caller(app, path, {**body, "ticket": ticket}),
                "session": _wsgi_caller(app, path, {**body, "session": {**seat, "index": 0, "prev": None}})}
    report: dict = {}
    for name, call in variants.items():
        seconds_per_call(call, calls)
        pairs = [(seconds_per_call(secure, calls), seconds_per_call(call, calls)) for _ in range(rounds)]
        report[f"paws.test.{name}"] = {
            "us": round(statistics.median(derived for _, derived in pairs) * 1e6),
            "secure_us": round(statistics.median(plain for plain, _ in pairs) * 1e6),
            "cost_ratio": round(statistics.median(derived / plain for plain, derived in pairs), 3)}
    # issue 41: a roll in a session against the same roll with a ticket (target: cost_ratio <= 1.10)
    pairs = [(seconds_per_call(variants["ticket"], calls), seconds_per_call(variants["session"], calls))
             for _ in range(rounds)]
    report["paws.test.session_vs_ticket"] = {
        "us": round(statistics.median(session for _, session in pairs) * 1e6),
        "ticket_us": round(statistics.median(ticket for ticket, _ in pairs) * 1e6),
        "cost_ratio": round(statistics.median(session / ticket for ticket, session in pairs), 3)}
    keys = app.extensions["wurfwerk"].keys
    label = idempotency_label("paws.test", "bench-retry-0001", body)
    source_pairs = [(seconds_per_call(lambda: SecureSource().roll(3, 6), calls * 10),
                     seconds_per_call(lambda: derived_source(keys, label, "secure").roll(3, 6), calls * 10))
                    for _ in range(rounds)]
    report["source_only.3d6"] = {
        "us": round(statistics.median(derived for _, derived in source_pairs) * 1e6, 2),
        "secure_us": round(statistics.median(plain for plain, _ in source_pairs) * 1e6, 2),
        "cost_ratio": round(statistics.median(derived / plain for plain, derived in source_pairs), 3)}
    return report


def batch_vs_single(server) -> dict:
    path, body = OPERATIONS["paws.test"]
    with requests.Session() as session:
        started = time.perf_counter()
        for _ in range(500):
            assert session.post(server.url + path, json=body, timeout=10).status_code == 200
        singles = time.perf_counter() - started
        items = [{"operation": "paws.test", "body": body}] * 500
        started = time.perf_counter()
        response = session.post(server.url + "/v1/batch", json={"requests": items}, timeout=60)
        batched = time.perf_counter() - started
    assert response.status_code == 200 and all(r["status"] == 200 for r in response.json()["results"])
    return {"singles_s": round(singles, 3), "batch_s": round(batched, 3), "ratio": round(singles / batched, 2)}


def worker_rss_kib(server) -> list[int]:
    children = subprocess.run(["pgrep", "-P", str(server.process.pid)], capture_output=True, text=True).stdout.split()
    sizes = []
    for pid in children:
        status = Path(f"/proc/{pid}/status").read_text()
        sizes.append(int(re.search(r"VmRSS:\s+(\d+)", status).group(1)))
    return sizes


def memory(server, total: int) -> dict:
    path, body = OPERATIONS["proben.test"]
    _drive_until(server, path, body, 1000)
    after_1k = worker_rss_kib(server)
    served = _drive_until(server, path, body, total)
    after_total = worker_rss_kib(server)
    growth = max(b / a - 1 for a, b in zip(after_1k, after_total))
    return {"rss_kib_after_1000": after_1k, "requests_served": int(served),
            f"rss_kib_after_{total}": after_total, "max_growth": round(growth, 4)}


def _served(server, endpoint: str) -> float:
    """Requests the server answered for ``endpoint``, from its own (multi-worker) metrics."""
    text = requests.get(server.url + "/metrics", timeout=10).text
    return sum(float(line.rsplit(" ", 1)[1]) for line in text.splitlines()
               if line.startswith(f'wurfwerk_requests_total{{endpoint="{endpoint}"'))


def _drive_until(server, path: str, body: dict, count: int) -> float:
    """Load with wrk in short bursts until the server has answered ``count`` requests of ``path``."""
    endpoint = "proben.proben_test"
    while (served := _served(server, endpoint)) < count:
        wrk(server.url + path, body=body, seconds=2, connections=16)
    return served


def _kept_parts(only: list[str] | None) -> dict:
    """With ``--only``, the parts of the last results.json this run does not measure, so a run of
    one part does not wipe the others; a full run starts afresh."""
    path = ROOT / "bench" / "results.json"
    if not only or not path.is_file():
        return {}
    return json.loads(path.read_text())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    # Many short runs rather than a few long ones: a ratio is only as good as the closeness in time
    # of its two runs, and the median of ten is steadier than that of five.
    parser.add_argument("--seconds", type=int, default=2, help="length of each wrk run")
    parser.add_argument("--rounds", type=int, default=10, help="rounds of every target and its references")
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--memory-requests", type=int, default=100_000)
    parser.add_argument("--only", action="append",
                        choices=["throughput", "in_process", "derived", "odds", "encounters", "batch", "memory",
                                 "discord"])
    parser.add_argument("--before", type=Path, metavar="CHECKOUT", action="append", default=[],
                        help="also serve this earlier checkout and report each target against it (vs_before; "
                             "repeat for several: vs_before2, …, in the order given)")
    args = parser.parse_args()
    if not shutil.which("wrk"):
        sys.exit("wrk is not installed: apt-get install wrk")
    wanted = set(args.only or ["throughput", "in_process", "derived", "odds", "encounters", "batch", "memory",
                               "discord"])
    results: dict = {**_kept_parts(args.only), "machine": {"cpus": os.cpu_count()}}
    if "in_process" in wanted:
        results["in_process"] = in_process()
        print(json.dumps({"in_process": results["in_process"]}, indent=2), flush=True)
    if "derived" in wanted:
        results["derived"] = derived_vs_secure()
        print(json.dumps({"derived": results["derived"]}, indent=2), flush=True)
    if "odds" in wanted:
        results["odds"] = odds_speed.run()
        print(json.dumps({"odds": results["odds"]}, indent=2), flush=True)
    if "encounters" in wanted:  # in-process, over HTTP and fairness, each with its own servers
        results["encounters"] = encounter_speed.run_all()
    if "discord" in wanted:  # the Discord app in front of the service, each under gunicorn
        results["discord"] = discord_speed.run()
        print(json.dumps({"discord": results["discord"]}, indent=2), flush=True)
    tmp = Path(tempfile.mkdtemp(prefix="wurfwerk-bench-"))
    key = tmp / "key.pem"
    key.write_text(generate_private_key_pem())
    # Capacity is measured at saturation (wrk keeps 32 requests in flight), where load shedding would
    # answer part of them with 503: it is switched off here (`python -m bench.load overload` measures it).
    env = {"WURFWERK_SIGNING_KEY_FILE": str(key), "WURFWERK_MAX_QUEUE_DELAY": "3600"}
    workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
    servers = {"service": Gunicorn(tmp, env=env, workers=workers, app="bench.reference_app:make()")}
    if wanted & {"throughput"}:
        servers["bare"] = Gunicorn(tmp, env={**env, "GUNICORN_WORKER_CLASS": "bench.bare_app.BareWorker"},
                                   workers=workers, name="bare", app="bench.bare_app:make()")
        # gunicorn's stock gevent worker, same config (access log included), same bare app: vs_stock.
        servers["stock"] = Gunicorn(tmp, env={**env, "GUNICORN_WORKER_CLASS": "gevent"},
                                    workers=workers, name="stock", app="bench.bare_app:make()")
        for index, checkout in enumerate(args.before, start=1):  # earlier checkouts, served by this .venv
            role = "before" if index == 1 else f"before{index}"
            servers[role] = Gunicorn(tmp, env={**env, "PYTHONPATH": str(checkout)}, workers=workers,
                                     name=role, app="bench.reference_app:make()", root=checkout)
            results.setdefault("checkouts", {})[role] = str(checkout)
    try:
        for server in servers.values():
            server.start()
        for name, (path, body) in {**REFERENCES, **OPERATIONS}.items():  # fail fast on a wrong body
            for server in [server for role, server in servers.items() if role not in ("bare", "stock")]:
                response = requests.post(server.url + path, json=body, timeout=10)
                assert response.status_code == 200, (name, response.text)
        if "throughput" in wanted:
            results["throughput"] = throughput(servers, args.seconds, args.connections, args.rounds)
            print(json.dumps({"throughput": results["throughput"]}, indent=2), flush=True)
        if "batch" in wanted:
            results["batch"] = batch_vs_single(servers["service"])
            print(json.dumps({"batch": results["batch"]}, indent=2), flush=True)
        if "memory" in wanted:
            results["memory"] = memory(servers["service"], args.memory_requests)
            print(json.dumps({"memory": results["memory"]}, indent=2), flush=True)
    finally:
        for server in servers.values():
            server.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    (ROOT / "bench" / "results.json").write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
