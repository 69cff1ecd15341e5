"""Where a request's cost goes, in-process (run by hand; bench/README.md has the figures).

    .venv/bin/python -m bench.profile              # instructions per request under callgrind, by target and part
    .venv/bin/python -m bench.profile --cprofile TARGET   # cProfile of one kind of request, by function

Over HTTP this shared 2-core machine moves figures by tens of per cent within minutes; callgrind
counts the instructions a request executes, which barely move from run to run. One process under
valgrind builds the apps and warms each target up outside the count, then counts ``calls`` WSGI
calls of each target and divides by ``calls``. callgrind collects only inside ``sys.call_tracing``
(which nothing else calls) and writes a count out whenever ``sys.getswitchinterval`` is called (nor
that). The service's app is wrapped as the service's gunicorn worker wraps it (load shedder and body
deadline), with metrics in multiprocess mode (as in production).

A `sign-only` request is then split into its parts: the Flask app without the worker's middleware,
each request hook, and the view, each counted alone by running it inside ``sys.call_tracing``
while the rest of the request runs uncounted. The same for the bare app (bench/bare_app.py).
"""

from __future__ import annotations

import argparse
import gc
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
APPS = ("bare", "service")
SPLIT_ENDPOINT = "bench_sign_only"  # the request split into parts, in both apps


def build(app_name: str):
    """(the WSGI app to count, the Flask app inside it): the bare app, or the service wrapped as
    its worker wraps it."""
    from service.platform.receipts import generate_private_key_pem

    pem = generate_private_key_pem()
    if app_name == "bare":
        from bench.bare_app import make as make_bare

        app = make_bare(pem)
        return app, app
    from bench.reference_app import make
    from service.platform.overload import LoadShedder, SheddingPolicy
    from service.platform.worker import BodyDeadline

    class QuietMonitor:  # the shedder's decision without the monitor thread's own work in the count
        def delay(self) -> float:
            return 0.0

    app = make({"signing_key_pem": pem})
    shedder = LoadShedder(app, SheddingPolicy(max_queue_delay=1.0, retry_after=1), QuietMonitor())
    return BodyDeadline(shedder, 10.0), app


def parts(app) -> list[tuple[str, dict | list, object]]:
    """The parts of a request of ``SPLIT_ENDPOINT`` in ``app``, each as (name, holder, key) where
    ``holder[key]`` is the function to count: the Flask app as a whole (``wsgi_app``, inside the
    worker's middleware), each request hook, the view."""
    app.__dict__.setdefault("wsgi_app", app.wsgi_app)  # Flask.__call__ calls it: an instance's own can be wrapped
    found = [("Flask app (wsgi_app, without the worker's middleware)", app.__dict__, "wsgi_app")]
    for kind, functions in (("before", app.before_request_funcs.get(None, [])),
                            ("after", app.after_request_funcs.get(None, []))):
        found += [(f"{kind}_request {_name(function)}", functions, index) for index, function in enumerate(functions)]
    found.append((f"view {_name(app.view_functions[SPLIT_ENDPOINT])}", app.view_functions, SPLIT_ENDPOINT))
    return found


def _name(function) -> str:
    return f"{function.__module__}.{function.__qualname__}".replace(".<locals>", "")


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
    """Inside valgrind: the counts of ``plan()``, in its order."""
    apps = {name: build(name) for name in APPS}
    for app_name, method, path, body, headers in TARGETS.values():
        call = _warm(wsgi_call(apps[app_name][0], method, path, body, headers))
        sys.call_tracing(_repeat, (call, calls))
        sys.getswitchinterval()  # callgrind writes the count out
    for app_name in APPS:
        wsgi, app = apps[app_name]
        call = _warm(wsgi_call(wsgi, "POST", "/bench/sign-only", PAWS_BODY, None))
        for _name_of_part, holder, key in parts(app):
            original = holder[key]
            holder[key] = _counted(original)
            try:
                _repeat(call, calls)
            finally:
                holder[key] = original
            sys.getswitchinterval()


def _counted(function):
    """``function``, run inside ``sys.call_tracing`` (so counted) whenever it is called."""
    def counted(*args):
        return sys.call_tracing(function, args)

    return counted


def _warm(call):
    for _ in range(200):
        call()
    gc.collect()
    gc.freeze()  # a full collection of the start-up objects would fall into a count at random
    return call


def _repeat(call, times: int) -> None:
    for _ in range(times):
        call()


def plan() -> list[tuple[str, str]]:
    """The counts ``count`` writes, in order: (app, what)."""
    rows = [(app_name, target) for target, (app_name, *_request) in TARGETS.items()]
    for app_name in APPS:
        rows += [(app_name, name) for name, _holder, _key in parts(build(app_name)[1])]
    return rows


def instructions(calls: int) -> list[tuple[str, str, float]]:
    """Instructions per call of every count of ``plan()``, from one valgrind run."""
    out = Path(tempfile.mkdtemp(prefix="wurfwerk-callgrind-"))
    command = ["valgrind", "--tool=callgrind", "--collect-atstart=no", "--toggle-collect=sys_call_tracing",
               "--dump-before=sys_getswitchinterval", f"--callgrind-out-file={out}/counts",
               sys.executable, "-m", "bench.profile", "--count", "--calls", str(calls)]
    env = {**os.environ, "PROMETHEUS_MULTIPROC_DIR": str(out / "metrics"), "WURFWERK_LOG_LEVEL": "WARNING"}
    (out / "metrics").mkdir()
    try:
        rows = plan()
        subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, check=True)
        dumps = sorted(out.glob("counts.*"), key=lambda path: int(path.suffix[1:]))
        totals = [int(re.search(r"^summary: (\d+)", path.read_text(), re.M).group(1)) for path in dumps]
    finally:
        shutil.rmtree(out, ignore_errors=True)
    if len(totals) != len(rows):
        raise RuntimeError(f"expected {len(rows)} counts from callgrind, got {len(totals)}")
    return [(app_name, what, total / calls) for (app_name, what), total in zip(rows, totals)]


def profile_functions(target: str, calls: int) -> None:
    import cProfile
    import pstats

    app_name, method, path, body, headers = TARGETS[target]
    call = _warm(wsgi_call(build(app_name)[0], method, path, body, headers))
    profiler = cProfile.Profile()
    profiler.enable()
    _repeat(call, calls)
    profiler.disable()
    pstats.Stats(profiler).sort_stats("cumulative").print_stats(60)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--calls", type=int, default=500)
    parser.add_argument("--cprofile", metavar="TARGET", choices=list(TARGETS))
    parser.add_argument("--count", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    # prometheus_client picks its (multiprocess) mode when it is imported: before any app is built.
    os.environ.setdefault("PROMETHEUS_MULTIPROC_DIR", tempfile.mkdtemp(prefix="wurfwerk-profile-"))
    if args.count:
        count(args.calls)
        return
    if args.cprofile:
        profile_functions(args.cprofile, args.calls)
        return
    if not shutil.which("valgrind"):
        sys.exit("valgrind is not installed: apt-get install valgrind")
    print(f"k instructions per request ({args.calls} WSGI calls each, callgrind)")
    for app_name, what, value in instructions(args.calls):
        print(f"{app_name:8s} {what:75s} {value / 1000:8.1f}", flush=True)


if __name__ == "__main__":
    main()
