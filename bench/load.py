"""Load benchmarks (run by hand, never by `make test`): worker models under slow clients, and overload.

    .venv/bin/python -m bench.load workers    # sync vs gthread vs gevent: slow-client p99, throughput, memory
    .venv/bin/python -m bench.load overload   # capacity, then 1x, 2x, 4x of it: throughput, p99, share refused

Each figure comes from one run on this machine (2 shared cores, wrk and the server on the same cores),
so compare the rows of one run with each other, not with another day's. Results also land in
bench/load-results.json.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from service.platform.dice.receipts import generate_private_key_pem
from tests.deploy.hostile import LIVEZ, PAWS_TEST, SlowConnections, probe, wrk
from tests.deploy.processes import Gunicorn

ROOT = Path(__file__).resolve().parents[1]

RESULTS = ROOT / "bench" / "load-results.json"

WORKER_MODELS = {
    "sync": {"GUNICORN_WORKER_CLASS": "sync", "GUNICORN_THREADS": "1"},
    "gthread-32": {"GUNICORN_WORKER_CLASS": "gthread", "GUNICORN_THREADS": "32"},
    "gthread-256": {"GUNICORN_WORKER_CLASS": "gthread", "GUNICORN_THREADS": "256"},
    "gevent": {"GUNICORN_WORKER_CLASS": "gevent"},
    # The production worker (service/serving/worker.py): gevent with deadlines and shedding. Shedding
    # is off here, so the wrk runs measure throughput flat out as for the others (`overload` measures
    # shedding); it never refuses /livez, and the slow-client probes are far from overloading it.
    "service-worker": {"WURFWERK_MAX_QUEUE_DELAY": "3600"},
}


def rss_mib(master_pid: int) -> float:
    """Resident memory of the gunicorn master and its workers together."""
    pids = [master_pid] + [int(p) for p in os.listdir("/proc") if p.isdigit() and _parent(int(p)) == master_pid]
    total_kib = 0
    for pid in pids:
        try:
            status = Path(f"/proc/{pid}/status").read_text()
        except OSError:
            continue
        total_kib += int(re.search(r"VmRSS:\s+(\d+)", status).group(1))
    return round(total_kib / 1024, 1)


def cpu_seconds(master_pid: int) -> float:
    """User and system CPU time of the master and its workers so far. CPU time per request is what
    a worker model costs whatever share of this shared machine the scheduler gives it (a process with
    many threads gets a bigger share than one with one, which tilts requests per second)."""
    ticks = os.sysconf("SC_CLK_TCK")
    pids = [master_pid] + [int(p) for p in os.listdir("/proc") if p.isdigit() and _parent(int(p)) == master_pid]
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / ticks


def measured(server: Gunicorn, path: str, body: dict | None, seconds: int, connections: int, **options) -> dict:
    """wrk's figures plus the server's CPU milliseconds per answered request."""
    before = cpu_seconds(server.process.pid)
    row = wrk(server.url + path, body=body, seconds=seconds, connections=connections, **options)
    answered = sum(row["statuses"].values())
    spent_ms = (cpu_seconds(server.process.pid) - before) * 1000
    row["cpu_ms_per_request"] = round(spent_ms / answered, 2) if answered else None
    return row


def _parent(pid: int) -> int:
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return -1


def start_server(tmp: Path, env: dict[str, str], name: str) -> Gunicorn:
    key = tmp / "key.pem"
    if not key.exists():
        key.write_text(generate_private_key_pem())
    return Gunicorn(tmp, env={"WURFWERK_SIGNING_KEY_FILE": str(key), **env}, name=name,
                    workers=int(os.environ.get("WEB_CONCURRENCY", "2")), app="bench.reference_app:make()").start()


def compare_workers(tmp: Path, slow: int, probes: int, seconds: int, rounds: int, models: list[str]) -> dict:
    """All models' servers run side by side; throughput takes turns between them round by round (the
    machine's speed drifts within minutes), then each faces the slow-client flood alone."""
    servers = {name: start_server(tmp, WORKER_MODELS[name], name) for name in models}
    try:
        results = {name: {"rss_idle_mib": rss_mib(server.process.pid)} for name, server in servers.items()}
        runs: dict[str, list[tuple[dict, dict]]] = {name: [] for name in models}
        for _ in range(rounds):
            for name, server in servers.items():
                sign_only = measured(server, "/bench/sign-only", PAWS_TEST[2], seconds, 32)
                paws = measured(server, PAWS_TEST[1], PAWS_TEST[2], seconds, 32)
                runs[name].append((sign_only, paws))
        for name, pairs in runs.items():
            results[name]["throughput"] = {
                "sign_only_rps": round(statistics.median(a["rps"] for a, _ in pairs)),
                "paws_test_rps": round(statistics.median(b["rps"] for _, b in pairs)),
                "paws_test_p99_ms": round(statistics.median(b["p99_ms"] for _, b in pairs), 1),
                "paws_over_sign_only": round(statistics.median(b["rps"] / a["rps"] for a, b in pairs), 3),
                "sign_only_cpu_ms": statistics.median(a["cpu_ms_per_request"] for a, _ in pairs),
                "paws_test_cpu_ms": statistics.median(b["cpu_ms_per_request"] for _, b in pairs),
                "non_2xx": sum(count for pair in pairs for run in pair
                               for status, count in run["statuses"].items() if status != "200"),
            }
        for name, server in servers.items():
            results[name]["slow_client"] = _slow_clients(server, slow, probes)
            print(json.dumps({name: results[name]}), flush=True)
        return results
    finally:
        for server in servers.values():
            server.stop()


def _slow_clients(server: Gunicorn, slow: int, probes: int) -> dict:
    flood = SlowConnections("127.0.0.1", server.port, slow).open()
    try:
        time.sleep(1.0)
        livez = probe("127.0.0.1", server.port, probes, LIVEZ, timeout=5, give_up_after=3)
        paws = probe("127.0.0.1", server.port, probes, PAWS_TEST, timeout=5, give_up_after=3)
        row = {
            "connections": slow, "refused_at_connect": flood.refused,
            "rss_under_flood_mib": rss_mib(server.process.pid),
            "livez_p99_ms": _rounded_ms(livez.p99), "livez_failures": len(livez.failures),
            "paws_p99_ms": _rounded_ms(paws.p99), "paws_failures": len(paws.failures),
        }
        flood.wait_closed(timeout=40)
        row["closed_after_s"] = {kind: (round(max(values), 1) if values else None)
                                 for kind, values in flood.lifetimes().items()}
        row["still_open_after_40s"] = flood.still_open()
        return row
    finally:
        flood.close()


def overload(tmp: Path, seconds: int, delay_ms: int) -> dict:
    """Capacity first: what one replica (the production config with shedding switched off) serves to
    32 connections without pause. Then clients with a pause of ``delay_ms`` between requests, as many
    as offer 1x, 2x and 4x that capacity, against the production config and, for contrast, the same
    without shedding (a queue delay no request reaches); the two take turns at each level."""
    servers = {"shedding": start_server(tmp, {}, "shedding"),
               "no_shedding": start_server(tmp, {"WURFWERK_MAX_QUEUE_DELAY": "3600"}, "no-shedding")}
    try:
        capacity = measured(servers["no_shedding"], PAWS_TEST[1], PAWS_TEST[2], seconds, 32)
        # What two cores would serve with nothing else on them (no wrk, no neighbours).
        capacity["two_core_estimate_rps"] = round(2000 / capacity["cpu_ms_per_request"])
        results: dict = {"capacity": capacity, "shedding": {}, "no_shedding": {}}
        for factor in (1, 2, 4):
            connections = max(1, round(factor * capacity["ok_rps"] * delay_ms / 1000))
            for label, server in servers.items():
                row = measured(server, PAWS_TEST[1], PAWS_TEST[2], seconds, connections, delay_ms=delay_ms)
                row["connections"] = connections
                row["offered_rps"] = round(connections * 1000 / delay_ms)
                results[label][f"{factor}x"] = row
                print(json.dumps({label: {f"{factor}x": row}}), flush=True)
        return results
    finally:
        for server in servers.values():
            server.stop()


def _rounded_ms(seconds: float) -> float | None:
    return None if seconds == float("inf") else round(seconds * 1000, 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", choices=["workers", "overload"])
    parser.add_argument("--slow", type=int, default=200, help="slow connections held open")
    parser.add_argument("--probes", type=int, default=100, help="requests of the normal client per target")
    parser.add_argument("--seconds", type=int, default=5, help="length of each wrk run")
    parser.add_argument("--rounds", type=int, default=3, help="throughput rounds per worker model")
    parser.add_argument("--delay-ms", type=int, default=100, help="pause of each overload client between requests")
    parser.add_argument("--models", default=",".join(WORKER_MODELS))
    args = parser.parse_args()
    if not shutil.which("wrk"):
        sys.exit("wrk is not installed: apt-get install wrk")
    tmp = Path(tempfile.mkdtemp(prefix="wurfwerk-load-"))
    results = json.loads(RESULTS.read_text()) if RESULTS.exists() else {}
    results["machine"] = {"cpus": os.cpu_count()}
    try:
        if args.what == "workers":
            results["workers"] = compare_workers(tmp, args.slow, args.probes, args.seconds, args.rounds,
                                                 args.models.split(","))
        else:
            results["overload"] = overload(tmp, args.seconds, args.delay_ms)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    RESULTS.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
