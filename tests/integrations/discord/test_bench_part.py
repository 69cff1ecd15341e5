"""bench/discord_speed.py's measuring loop, on the running replicas with three calls a command: the
benchmark part answers what it says (its figures come from `make bench`, not from here)."""

from __future__ import annotations

from bench.discord_speed import BUTTONS, COMMANDS, SESSION_COMMANDS, measure


def test_the_bench_part_measures_every_command_it_names(replicas, application_key):
    results = measure(replicas[0].url, application_key, calls=3)
    assert set(results) == set(COMMANDS) | set(BUTTONS) | set(SESSION_COMMANDS)
    assert all(0 < entry["p50_ms"] <= entry["p99_ms"] for entry in results.values())
