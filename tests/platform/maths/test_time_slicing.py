"""Turns for long computations (service/platform/maths/time_slicing.py; issue 30 "Fair to everyone else on
the worker"): a solve gives the worker's other requests a turn between passes, once per slice, with the
cyclic garbage collector paused. What it buys is measured in bench/README.md ("fairness"), not here."""

from __future__ import annotations

import gc
import sys
from dataclasses import dataclass

import gevent
import pytest
from gunicorn.workers.ggevent import GeventWorker

from service.platform.maths import time_slicing
from service.serving.worker import Worker


@dataclass(frozen=True)
class Turn:
    by: str  # the function that called cooperate()
    collecting: bool  # whether the cyclic collector was running


@pytest.fixture
def turns(monkeypatch):
    """Every ``cooperate`` call yields (no slice), recording who called it and whether the collector
    ran meanwhile."""
    taken: list[Turn] = []
    monkeypatch.setattr(time_slicing, "SLICE_SECONDS", 0.0)
    time_slicing.install(lambda: taken.append(Turn(sys._getframe(2).f_code.co_name, gc.isenabled())))
    yield taken
    time_slicing.install(None)


def _member(name: str, skill: int) -> dict:
    return {"name": name, "attack": {"skill": skill, "type": "harm"}, "defense": 2,
            "stress": {"physical": {"current": 3, "max": 3}, "mental": {"current": 3, "max": 3}}}


LONG_SOLVES = {
    "beutelschneider": {"sides": [{"name": "A", "bag": {"red": 5, "green": 3, "white": 3}},
                                  {"name": "B", "bag": {"red": 6, "green": 2, "white": 3}}]},
    "malmsturm": {"sides": [{"name": "H", "members": [_member("H0", 3), _member("H1", 2)]},
                            {"name": "O", "members": [_member("O0", 2), _member("O1", 2)]}],
                  "order": ["H0", "O0", "H1", "O1"], "policy": {"targeting": "focus"}},
    "paws": {"a": {"rank": 0, "extra_bonus_dice": 30}, "b": {"rank": 0, "extra_bonus_dice": 30}},
    "weltenbuch": {"parties": [{"name": "A", "members": [{"name": "a", "role": "npc", "profile": 40}]},
                               {"name": "B", "members": [{"name": "b", "role": "npc", "profile": 40}]}],
                   "toughness": {"a": {"current": 3, "max": 3}, "b": {"current": 3, "max": 3}}, "exact": "never"},
    "proben": {"steps": [{"pool": {"attribute": 30}, "difficulty": 20}] * 2, "carry_partial": True,
               "exact": "never", "curve_rounds": 10},
}


@pytest.mark.parametrize("system", sorted(LONG_SOLVES))
def test_a_long_solve_gives_turns_with_the_collector_paused(post, turns, system):
    status, body = post(f"/v1/{system}/encounter/odds", LONG_SOLVES[system])
    assert status == 200, body
    assert len(turns) >= 10  # between passes, not once per request
    # The platform's: before the body's loading, before the solve and after it, the collector running ...
    assert [turn.by for turn in turns[:2]] == ["respond", "odds_document"] and turns[-1].by == "odds_document"
    assert turns[0].collecting and turns[1].collecting and turns[-1].collecting
    assert not any(turn.collecting for turn in turns[2:-1])  # ... the solve's own: collector paused ...
    assert gc.isenabled()  # ... and running again after it


# The passes a solver makes after its last loop (distributions, curves, freeing its graph) each
# held the worker for several slices at the caps (bench/history/2026-12-01-to-03.md, "Around the solves").
PASSES_AFTER_THE_SOLVE = {
    "beutelschneider": {"_black_after", "_reached"},
    "paws": {"_release"},
    "proben": {"_curve"},
    "weltenbuch": {"_float_outcomes"},
}


@pytest.mark.parametrize("system", sorted(PASSES_AFTER_THE_SOLVE))
def test_the_passes_after_a_solve_give_turns_too(post, turns, system):
    status, body = post(f"/v1/{system}/encounter/odds", LONG_SOLVES[system])
    assert status == 200, body
    assert PASSES_AFTER_THE_SOLVE[system] <= {turn.by for turn in turns}


def test_a_turn_comes_once_per_slice(post, turns, monkeypatch):
    monkeypatch.setattr(time_slicing, "SLICE_SECONDS", 3600.0)
    post("/v1/paws/encounter/odds", LONG_SOLVES["paws"])
    assert [turn.by for turn in turns] == ["respond"]  # the platform's first: no turn had been taken before


def test_without_a_worker_nothing_yields(post):
    time_slicing.install(None)
    status, _ = post("/v1/paws/encounter/odds", LONG_SOLVES["paws"])
    assert status == 200


def test_nested_computations_restore_the_collector_once():
    with time_slicing.long_computation():
        with time_slicing.long_computation():
            assert not gc.isenabled()
        assert not gc.isenabled()  # another greenlet's solve is still under way
    assert gc.isenabled()
    gc.disable()
    try:
        with time_slicing.long_computation():
            pass
        assert not gc.isenabled()  # left as it was found
    finally:
        gc.enable()


def test_the_service_worker_yields_by_gevent_idle_and_freezes_the_app(monkeypatch):
    """idle, not sleep(0): gevent resumes a greenlet's sleep(0) before it polls for ready sockets."""
    monkeypatch.setattr(GeventWorker, "load_wsgi", lambda self: None)
    worker = Worker.__new__(Worker)
    worker.wsgi = lambda environ, start_response: []
    monkeypatch.setattr(gc, "freeze", lambda: frozen.append(True))
    frozen: list[bool] = []
    try:
        worker.load_wsgi()
        assert time_slicing._yield_now is gevent.idle
        assert frozen  # the loaded app out of the collector's full scans
    finally:
        time_slicing.install(None)
