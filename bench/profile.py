"""Where a request's cost goes, in-process (run by hand; bench/README.md has the figures).

    .venv/bin/python -m bench.profile              # instructions per request under callgrind, by target and hook
    .venv/bin/python -m bench.profile --cprofile   # cProfile of one kind of request, by function

Over HTTP this shared 2-core machine moves figures by tens of per cent within minutes; callgrind
counts the instructions a request executes, which barely move from run to run. One process
under valgrind builds the apps and warms each target up outside the count; then ``calls`` WSGI calls
of each target are counted (callgrind collects only inside ``sys.call_tracing``, which nothing else
calls, and writes a count each time it returns) and divided by ``calls``. The service's app is
wrapped as the service's gunicorn worker wraps it (load shedder and body deadline), with metrics in
multiprocess mode (as in production).

The hooks are attributed by taking them out one at a time (``VARIANTS``): the difference to the
whole service is what that hook costs a request.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAWS_BODY = {"rank": 3}
ORIGIN = {"Origin": "https://foundry.example"}
PREFLIGHT = {"Origin": "https://foundry.example", "Access-Control-Request-Method": "POST",
             "Access-Control-Request-Headers": "content-type"}

# name -> (app, method, path, body, headers)
TARGETS = {
    "bare /livez": ("bare", "GET", "/livez", None, None),
    "bare sign-only": ("bare", "POST", "/bench/sign-only", PAWS_BODY, None),
    "/livez": ("service", "GET", "/livez", None, None),
    "sign-only": ("service", "POST", "/bench/sign-only", PAWS_BODY, None),
    "sign-only with Origin": ("service", "POST", "/bench/sign-only", PAWS_BODY, ORIGIN),
    "preflight": ("service", "OPTIONS", "/v1/paws/test", None, PREFLIGHT),
    "paws.test": ("service", "POST", "/v1/paws/test", PAWS_BODY, None),
}

# What is taken out of the service for an attribution run of `sign-only`.
VARIANTS = ("metrics", "cors", "request_hooks", "middleware")


def build(app_name: str, without: str | None = None):
    """The WSGI app to count: the bare app, or the service wrapped as its worker wraps it."""
    from service.platform.receipts import generate_private_key_pem

    pem = generate_private_key_pem()
    if app_name == "bare":
        from bench.bare_app import make as make_bare

        return make_bare(pem)
    from bench.reference_app import make
    from service.platform.overload import LoadShedder, SheddingPolicy
    from service.platform.worker import BodyDeadline

    app = make({"signing_key_pem": pem})
    if without is not None:
        _take_out(app, without)
    if without == "middleware":
        return app

    class QuietMonitor:  # the shedder's decision without the monitor thread's own work in the count
        def delay(self) -> float:
            return 0.0

    return BodyDeadline(LoadShedder(app, SheddingPolicy(max_queue_delay=1.0, retry_after=1), QuietMonitor()), 10.0)


def _take_out(app, part: str) -> None:
    from service.platform import metrics

    def keep(functions, test):
        functions[:] = [function for function in functions if not test(function)]

    names = {
        "metrics": lambda f: f.__module__ == metrics.__name__,
        "cors": lambda f: f.__module__.startswith("flask_cors") or f.__module__ == "service.platform.cors",
        "request_hooks": lambda f: f.__module__ == "service.platform.hooks",
    }
    if part in names:
        keep(app.before_request_funcs.setdefault(None, []), names[part])
        keep(app.after_request_funcs.setdefault(None, []), names[part])


def wsgi_call(app, method: str, path: str, body, headers):
    import io

    import orjson
    from werkzeug.test import EnvironBuilder

    data = orjson.dumps(body) if body is not None else None
    template = EnvironBuilder(path=path, method=method, data=data, headers=headers,
                              content_type="application/json" if data else None).get_environ()

    def call():
        environ = dict(template)
        environ["wsgi.input"] = io.BytesIO(data or b"")
        status = []
        chunks = b"".join(app(environ, lambda line, _headers: status.append(line)))
        assert status[0].startswith("200"), (status, chunks)
        return chunks

    return call


def count(calls: int) -> None:
    """Inside valgrind: build every app, then each target's counted calls, each in a
    ``sys.call_tracing`` of its own (callgrind writes the count when it returns)."""
    runs = [(target, None) for target in TARGETS] + [("sign-only", part) for part in VARIANTS]
    apps = {}
    for target, without in runs:
        app_name, method, path, body, headers = TARGETS[target]
        if (app_name, without) not in apps:
            apps[app_name, without] = build(app_name, without)
        call = wsgi_call(apps[app_name, without], method, path, body, headers)
        for _ in range(200):
            call()

        sys.call_tracing(_repeat, (call, calls))


def _repeat(call, times: int) -> None:
    for _ in range(times):
        call()


def instructions(calls: int) -> dict[tuple[str, str | None], float]:
    """Instructions per call of every target and variant, from one valgrind run."""
    runs = [(target, None) for target in TARGETS] + [("sign-only", part) for part in VARIANTS]
    out = Path(tempfile.mkdtemp(prefix="wurfwerk-callgrind-"))
    command = ["valgrind", "--tool=callgrind", "--collect-atstart=no", "--toggle-collect=sys_call_tracing",
               "--dump-after=sys_call_tracing", f"--callgrind-out-file={out}/counts",
               sys.executable, "-m", "bench.profile", "--count", "--calls", str(calls)]
    env = {**os.environ, "PROMETHEUS_MULTIPROC_DIR": str(out / "metrics"), "WURFWERK_LOG_LEVEL": "WARNING"}
    (out / "metrics").mkdir()
    try:
        subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, check=True)
        dumps = sorted(out.glob("counts.*"), key=lambda path: int(path.suffix[1:]))
        totals = [int(re.search(r"^summary: (\d+)", path.read_text(), re.M).group(1)) for path in dumps]
    finally:
        shutil.rmtree(out, ignore_errors=True)
    return {run: total / calls for run, total in zip(runs, totals)}


def profile_functions(target: str, calls: int) -> None:
    import cProfile
    import pstats

    os.environ.setdefault("PROMETHEUS_MULTIPROC_DIR", tempfile.mkdtemp(prefix="wurfwerk-profile-"))
    app_name, method, path, body, headers = TARGETS[target]
    call = wsgi_call(build(app_name), method, path, body, headers)
    for _ in range(200):
        call()
    profiler = cProfile.Profile()
    profiler.enable()
    for _ in range(calls):
        call()
    profiler.disable()
    pstats.Stats(profiler).sort_stats("cumulative").print_stats(60)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--calls", type=int, default=300)
    parser.add_argument("--cprofile", metavar="TARGET", choices=list(TARGETS))
    parser.add_argument("--count", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.count:
        count(args.calls)
        return
    if args.cprofile:
        profile_functions(args.cprofile, args.calls)
        return
    if not shutil.which("valgrind"):
        sys.exit("valgrind is not installed: apt-get install valgrind")
    counts = instructions(args.calls)
    for (target, without), value in counts.items():
        if without is None:
            print(f"{target:28s} {value / 1000:8.1f} k instructions per request")
    whole = counts["sign-only", None]
    print(f"sign-only over bare sign-only {(whole - counts['bare sign-only', None]) / 1000:8.1f} k")
    for part in VARIANTS:
        cost = whole - counts["sign-only", part]
        print(f"sign-only: {part:18s} {cost / 1000:8.1f} k ({cost / whole:.0%} of sign-only)")


if __name__ == "__main__":
    main()
