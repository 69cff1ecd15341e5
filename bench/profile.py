"""Where a request's cost goes, in-process (run by hand; bench/README.md has the figures).

    .venv/bin/python -m bench.profile              # instructions per request under callgrind, by target and part
    .venv/bin/python -m bench.profile --cprofile TARGET   # cProfile of one kind of request, by function
    .venv/bin/python -m bench.profile --time       # microseconds per part, and their share of a request over HTTP

Over HTTP this shared 2-core machine moves figures by tens of per cent within minutes; callgrind
counts the instructions a request executes, which barely move from run to run. One process under
valgrind builds the apps and warms each target up outside the count, then counts ``calls`` WSGI
calls of each target and divides by ``calls``. callgrind collects only inside ``sys.call_tracing``
(which nothing else calls) and writes a count out whenever ``sys.getswitchinterval`` is called (nor
that). The service's app is wrapped as the service's gunicorn worker wraps it (load shedder and body
deadline), with metrics in multiprocess mode (as in production), and every request's body comes
from gunicorn's own reader (``gunicorn_environ``).

A `sign-only` request is then split into its parts: the Flask app without the worker's middleware,
each request hook, and the view, each counted alone by running it inside ``sys.call_tracing``
while the rest of the request runs uncounted. The same for the bare app (bench/bare_app.py).

Instructions weigh every part alike; over HTTP a request also spends time in gunicorn, the socket
and the access log, and a part's instructions are not its time. ``--time`` splits the same requests
into the same parts by the clock (each part timed alone, the best of ``ROUNDS`` rounds) and divides
each by the server's CPU time per request over HTTP that the last ``throughput`` run of
``bench/run.py`` recorded (``bench/results.json``): the share of a served request a part takes.
"""

from __future__ import annotations

import argparse
import dataclasses
import gc
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
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
    "proben.test": ("service", "POST", "/v1/proben/test", {"attribute": 4, "skill": 2, "difficulty": 2}, None),
    "beutelschneider.challenge": ("service", "POST", "/v1/beutelschneider/challenge",
                                  {"bag": {"red": 9, "green": 6, "white": 5}, "ability": "combat",
                                   "difficulty": "normal"}, None),
    "weltenbuch.conflict": ("service", "POST", "/v1/weltenbuch/conflict", {"parties": [
        {"name": "Helden", "members": [{"name": "Toran", "role": "player", "seat": 1, "profile": 5}]},
        {"name": "Orks", "members": [{"name": "Ork", "role": "npc", "profile": 3}]}]}, None),
    "malmsturm.action": ("service", "POST", "/v1/malmsturm/action", {"skill": 2, "difficulty": 1}, None),
}
DEFAULT_TARGETS = ("bare /livez", "bare sign-only", "/livez", "sign-only", "sign-only with Origin", "preflight",
                   "paws.test")
APPS = ("bare", "service")
# The requests split into parts: name -> (app, endpoint, path, body: a GET without one). /livez and
# sign-only in both apps (hooks and view); an operation also by phase of its request path
# (operations.respond).
SPLITS = {
    "bare /livez": ("bare", "livez", "/livez", None),
    "/livez": ("service", "platform.livez", "/livez", None),
    "bare sign-only": ("bare", "bench_sign_only", "/bench/sign-only", PAWS_BODY),
    "sign-only": ("service", "bench_sign_only", "/bench/sign-only", PAWS_BODY),
    "paws.test": ("service", "paws.paws_test", "/v1/paws/test", PAWS_BODY),
    "proben.test": ("service", "proben.proben_test", "/v1/proben/test",
                    {"attribute": 4, "skill": 2, "difficulty": 2}),
    "beutelschneider.challenge": ("service", "beutelschneider.beutelschneider_challenge",
                                  "/v1/beutelschneider/challenge",
                                  {"bag": {"red": 9, "green": 6, "white": 5}, "ability": "combat",
                                   "difficulty": "normal"}),
}
DEFAULT_SPLITS = ("bare sign-only", "sign-only")
DEFAULT_TIME_SPLITS = ("bare /livez", "/livez", "bare sign-only", "paws.test")


def build(app_name: str):
    """(the WSGI app to count, the Flask app inside it): the bare app, or the service wrapped as
    its worker wraps it."""
    from service.platform.dice.receipts import generate_private_key_pem

    pem = generate_private_key_pem()
    if app_name == "bare":
        from bench.bare_app import make as make_bare

        app = make_bare(pem)
        return app, app
    from bench.reference_app import make
    from service.serving.overload import LoadShedder, SheddingPolicy
    from service.serving.worker import BodyDeadline

    class QuietMonitor:  # the shedder's decision without the monitor thread's own work in the count
        def delay(self) -> float:
            return 0.0

    app = make({"signing_key_pem": pem})
    shedder = LoadShedder(app, SheddingPolicy(max_queue_delay=1.0, retry_after=1), QuietMonitor())
    return BodyDeadline(shedder, 10.0), app


def parts(app, endpoint: str) -> list[tuple[str, object, str]]:
    """The parts of a request of ``endpoint`` in ``app``, each as (name, owner, attribute) where
    ``owner.attribute`` is the function to count: the Flask app as a whole (``wsgi_app``, inside the
    worker's middleware), each request hook and each of its steps (service/platform/http/request_steps.py),
    the view; for a declared operation also the phases of
    its request path (operations.respond), each inclusive of what it calls."""
    app.__dict__.setdefault("wsgi_app", app.wsgi_app)  # Flask.__call__ calls it: an instance's own can be wrapped
    found: list[tuple[str, object, str]] = [("Flask app (wsgi_app, without the worker's middleware)", app, "wsgi_app")]
    steps = app.extensions.get("wurfwerk.request_steps", {})  # service/platform/http/request_steps.py
    for kind, functions in (("before", app.before_request_funcs.get(None, [])),
                            ("after", app.after_request_funcs.get(None, []))):
        found += [(f"{kind}_request {_name(function)}", _Slot(functions, index), "function")
                  for index, function in enumerate(functions)]
        found += [(f"  step {_name(step)}", _Slot(steps[kind], index), "function")
                  for index, step in enumerate(steps.get(kind, []))]
    view = app.view_functions[endpoint]
    found.append((f"view {_name(getattr(view, 'func', view))}", _Slot(app.view_functions, endpoint), "function"))
    operation = getattr(view, "args", (None,))[0]
    if operation is None:
        return found
    from service.platform.dice import receipts
    from service.platform.http import http_json
    from service.platform.http.runtime import Runtime
    from service.platform.operations import operations

    keys = next(value for value in app.extensions.values() if isinstance(value, Runtime)).keys
    operation.load  # noqa: B018  # the cached loader, made now so that it can be wrapped
    return found + [
        ("  phase: Call.of_request (the call on this request)", operations.Call, "of_request"),
        ("  phase: load (operation.load: validate the body)", operation, "load"),
        ("  phase: answer (lang, source, view, envelope)", operations, "answer"),
        ("    Call.lang (language negotiation)", operations.Call, "lang"),
        ("    randomness_source", operations, "randomness_source"),
        ("    the rules (operation.view)", operation, "view"),
        ("    envelope", operations, "envelope"),
        ("  phase: sign (KeyRing.sign)", keys, "sign"),
        ("    canonical_bytes (the signed payload's JSON)", receipts, "canonical_bytes"),
        ("    crypto_sign (Ed25519)", receipts, "crypto_sign"),
        ("  phase: json_response (the response's JSON)", operations, "json_response"),
        ("    http_json.dumps", http_json, "dumps"),
    ]


class _Slot:
    """An item of a list or dict as an attribute ``function``, so that every part is (owner, attribute)."""

    def __init__(self, holder, key) -> None:
        self.holder, self.key = holder, key

    @property
    def function(self):
        return self.holder[self.key]

    @function.setter
    def function(self, value) -> None:
        self.holder[self.key] = value


def _wrapped(owner, attribute: str, wrapper):
    """Replace ``owner.attribute`` by ``wrapper(original)`` (frozen dataclasses included); returns the undo."""
    missing = object()
    stored = missing if isinstance(owner, _Slot) else vars(owner).get(attribute, missing)
    original = getattr(owner, attribute)
    _set(owner, attribute, wrapper(original))  # on a class, called through the class or an instance alike

    def undo() -> None:
        if stored is not missing:
            _set(owner, attribute, stored)
        elif isinstance(owner, _Slot):
            _set(owner, attribute, original)
        else:
            object.__delattr__(owner, attribute)

    return undo


def _set(owner, attribute: str, value) -> None:
    try:
        setattr(owner, attribute, value)
    except dataclasses.FrozenInstanceError:
        object.__setattr__(owner, attribute, value)


def _name(function) -> str:
    return f"{function.__module__}.{function.__qualname__}".replace(".<locals>", "")


class WsgiCall:
    """One kind of WSGI call into ``app``; its environs (gunicorn's, with a fresh reader of the body
    each) are made by ``prepare`` ahead of the calls that are counted, so that they are not."""

    def __init__(self, app, method: str, path: str, body, headers) -> None:
        import orjson
        from werkzeug.test import EnvironBuilder

        self.app = app
        self.data = orjson.dumps(body) if body is not None else b""
        self.template = EnvironBuilder(path=path, method=method, data=self.data or None, headers=headers,
                                       content_type="application/json" if self.data else None).get_environ()
        self._environs: list[dict] = []

    def prepare(self, calls: int) -> WsgiCall:
        self._environs = [gunicorn_environ(self.template, self.data) for _ in range(calls)]
        return self

    def __call__(self) -> bytes:
        environ = self._environs.pop() if self._environs else gunicorn_environ(self.template, self.data)
        status = []
        chunks = b"".join(self.app(environ, lambda line, _headers: status.append(line)))
        assert status[0].startswith("2"), (status, chunks)
        return chunks


def gunicorn_environ(template: dict, data: bytes) -> dict:
    """``template`` with the body as gunicorn hands it to an app: its own reader of the body, and
    ``wsgi.input_terminated`` (werkzeug then reads up to ``max_content_length`` rather than to
    Content-Length, and reads until the body's reader says it has ended)."""
    from gunicorn.http.body import Body, LengthReader
    from gunicorn.http.unreader import IterUnreader

    return {**template, "wsgi.input": Body(LengthReader(IterUnreader([data]), len(data))),
            "wsgi.input_terminated": True}


def count(calls: int, targets: list[str], splits: list[str]) -> None:
    """Inside valgrind: the counts of ``plan()``, in its order."""
    apps = {name: build(name) for name in APPS}
    for target in targets:
        app_name, method, path, body, headers = TARGETS[target]
        call = _warm(WsgiCall(apps[app_name][0], method, path, body, headers))
        sys.call_tracing(_repeat, (call.prepare(calls), calls))
        sys.getswitchinterval()  # callgrind writes the count out
    for split in splits:
        app_name, endpoint, path, body = SPLITS[split]
        wsgi, app = apps[app_name]
        call = _warm(WsgiCall(wsgi, "GET" if body is None else "POST", path, body, None))
        for _name_of_part, owner, attribute in parts(app, endpoint):
            undo = _wrapped(owner, attribute, _counted)
            try:
                _repeat(call.prepare(calls), calls)
            finally:
                undo()
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


ROUNDS = 5
# The request of each split in the throughput part of bench/run.py (bench/results.json): its key and
# whether its figure is the bare app's.
THROUGHPUT_KEYS = {"bare /livez": ("livez", True), "/livez": ("livez", False),
                   "bare sign-only": ("reference.sign_only", True), "sign-only": ("reference.sign_only", False)}


def timed_parts(calls: int, splits: list[str]) -> list[tuple[str, str, float, float | None]]:
    """(split, part, microseconds per request, share of the request's CPU time over HTTP) for every
    part of ``splits``, the whole WSGI call first."""
    throughput = _last_throughput()
    apps = {name: build(name) for name in APPS}
    rows = []
    for split in splits:
        app_name, endpoint, path, body = SPLITS[split]
        wsgi, app = apps[app_name]
        call = _warm(WsgiCall(wsgi, "GET" if body is None else "POST", path, body, None))
        key, bare = THROUGHPUT_KEYS.get(split, (split, False))
        served = throughput.get(key, {}).get("bare_cpu_us_per_request" if bare else "cpu_us_per_request")
        whole = _best_of_rounds(lambda call=call: seconds_per_call(call.prepare(calls), calls) * 1e6)
        rows.append((split, "the whole WSGI call (as the worker calls the app)", whole, served))
        for part, owner, attribute in parts(app, endpoint):
            rows.append((split, part, _part_time(call, calls, owner, attribute), served))
    return [(split, part, us, us / served if served else None) for split, part, us, served in rows]


def _last_throughput() -> dict:
    try:
        return json.loads((ROOT / "bench" / "results.json").read_text()).get("throughput", {})
    except FileNotFoundError:
        return {}


def _part_time(call, calls: int, owner, attribute: str) -> float:
    """Microseconds per request inside ``owner.attribute``, the best of ``ROUNDS`` rounds."""
    spent = [0.0]

    def clocked(function):
        def timed(*args, **kwargs):
            started = time.perf_counter()
            try:
                return function(*args, **kwargs)
            finally:
                spent[0] += time.perf_counter() - started

        return timed

    undo = _wrapped(owner, attribute, clocked)
    try:
        def one_round() -> float:
            spent[0] = 0.0
            _repeat(call.prepare(calls), calls)
            return spent[0] / calls * 1e6

        return _best_of_rounds(one_round)
    finally:
        undo()


def seconds_per_call(call, calls: int) -> float:
    """Seconds per call over ``calls`` calls (bench/run.py times its blocks with it too)."""
    started = time.perf_counter()
    _repeat(call, calls)
    return (time.perf_counter() - started) / calls


def _best_of_rounds(one_round) -> float:
    # The least of several rounds: what the part costs when nothing else takes the core.
    return min(one_round() for _ in range(ROUNDS))


def plan(targets: list[str], splits: list[str]) -> list[tuple[str, str]]:
    """The counts ``count`` writes, in order: (app, what)."""
    rows = [(TARGETS[target][0], target) for target in targets]
    apps = {name: build(name)[1] for name in APPS}
    for split in splits:
        app_name, endpoint, _path, _body = SPLITS[split]
        rows += [(split, name) for name, _owner, _attribute in parts(apps[app_name], endpoint)]
    return rows


def instructions(calls: int, targets: list[str], splits: list[str]) -> list[tuple[str, str, float]]:
    """Instructions per call of every count of ``plan()``, from one valgrind run."""
    out = Path(tempfile.mkdtemp(prefix="wurfwerk-callgrind-"))
    command = ["valgrind", "--tool=callgrind", "--collect-atstart=no", "--toggle-collect=sys_call_tracing",
               "--dump-before=sys_getswitchinterval", f"--callgrind-out-file={out}/counts",
               sys.executable, "-m", "bench.profile", "--count", "--calls", str(calls),
               *(f"--target={target}" for target in targets), *(f"--split={split}" for split in splits)]
    env = {**os.environ, "PROMETHEUS_MULTIPROC_DIR": str(out / "metrics"), "WURFWERK_LOG_LEVEL": "WARNING"}
    (out / "metrics").mkdir()
    try:
        rows = plan(targets, splits)
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
    call = _warm(WsgiCall(build(app_name)[0], method, path, body, headers)).prepare(calls)
    profiler = cProfile.Profile()
    profiler.enable()
    _repeat(call, calls)
    profiler.disable()
    pstats.Stats(profiler).sort_stats("cumulative").print_stats(60)


def print_timed_parts(calls: int, splits: list[str]) -> None:
    print(f"microseconds per request ({calls} WSGI calls, best of {ROUNDS} rounds) and the share of the "
          "server's CPU time per request over HTTP (bench/results.json)")
    for split, part, us, share in timed_parts(calls, splits):
        print(f"{split:26s} {part:70s} {us:7.1f}  {f'{share:6.1%}' if share is not None else '     -'}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--calls", type=int, default=500)
    parser.add_argument("--cprofile", metavar="TARGET", choices=list(TARGETS))
    parser.add_argument("--split", action="append", choices=list(SPLITS),
                        help="a request to split into parts (repeat for several; default: "
                             + ", ".join(DEFAULT_SPLITS) + ")")
    parser.add_argument("--target", action="append", choices=list(TARGETS),
                        help="a whole request to count (repeat for several; default: " + ", ".join(DEFAULT_TARGETS)
                             + "); with --target and without --split, no request is split")
    parser.add_argument("--time", action="store_true",
                        help="microseconds per part of each --split (default: " + ", ".join(DEFAULT_TIME_SPLITS)
                             + ") and their share of the request's CPU time over HTTP (bench/results.json)")
    parser.add_argument("--count", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    targets = args.target or list(DEFAULT_TARGETS)
    splits = args.split or ([] if args.target else list(DEFAULT_SPLITS))
    # prometheus_client picks its (multiprocess) mode when it is imported: before any app is built.
    os.environ.setdefault("PROMETHEUS_MULTIPROC_DIR", tempfile.mkdtemp(prefix="wurfwerk-profile-"))
    if args.count:
        count(args.calls, targets, splits)
        return
    if args.cprofile:
        profile_functions(args.cprofile, args.calls)
        return
    if args.time:
        print_timed_parts(args.calls, args.split or list(DEFAULT_TIME_SPLITS))
        return
    if not shutil.which("valgrind"):
        sys.exit("valgrind is not installed: apt-get install valgrind")
    print(f"k instructions per request ({args.calls} WSGI calls each, callgrind)")
    for app_name, what, value in instructions(args.calls, targets, splits):
        print(f"{app_name:26s} {what:70s} {value / 1000:8.1f}", flush=True)


if __name__ == "__main__":
    main()
