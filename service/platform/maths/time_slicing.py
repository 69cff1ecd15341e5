"""Turns for long computations on a cooperative worker.

The service's gevent worker serves all its connections on one thread: a solve that computes without
a pause holds every other request of that worker as long (the target, a roll beside solves at the
caps within 2 x its p99 alone, is in bench/README.md). Long computations call ``cooperate()`` between passes
of bounded size; once the thread has been held for ``SLICE_SECONDS`` since the last turn, the
installed ``yield_now`` runs. The worker installs one that lets every ready request run first
(service/serving/worker.py); without one (tests, scripts, a batch in a thread) it does nothing.
Rules code knows only this hook, no gevent.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

# Long enough that a turn's own cost is lost in a solve's, short against a roll's own latency
# (bench/README.md, encounters: the figures).
SLICE_SECONDS = 0.002

_yield_now: Callable[[], None] | None = None
_due = 0.0
_computing = 0  # long computations under way (greenlets of one worker interleave)
_collector_was_enabled = True


def install(yield_now: Callable[[], None] | None) -> None:
    """Make ``cooperate`` call ``yield_now`` once a slice is used up (None: never)."""
    global _yield_now, _due
    _yield_now, _due = yield_now, 0.0


def cooperate() -> None:
    """A point where a long computation may give the worker's other requests a turn."""
    global _due
    if _yield_now is None:
        return
    if time.perf_counter() >= _due:
        _yield_now()
        _due = time.perf_counter() + SLICE_SECONDS


@contextmanager
def long_computation() -> Iterator[None]:
    """The cyclic garbage collector paused while a long computation runs: no turn can break a full
    collection, which scans every object of a solve's graph at once (hundreds of ms at the caps,
    bench/README.md), and what a solve builds holds no cycles, so reference counting frees it."""
    global _computing, _collector_was_enabled
    if _computing == 0:
        _collector_was_enabled = gc.isenabled()
        gc.disable()
    _computing += 1
    try:
        yield
    finally:
        _computing -= 1
        if _computing == 0 and _collector_was_enabled:
            gc.enable()
