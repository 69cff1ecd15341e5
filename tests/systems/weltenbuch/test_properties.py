"""Weltenbuch properties over HTTP (hypothesis) and seeded sampling against the exact odds.

The strategies build valid conflict, narration and resurrection bodies; the properties restate the
rules (file 002, RULINGS.md "Weltenbuch") independently of the implementation: dice counts, faces,
successes, party totals, winner, narration order, the narration's toughness book-keeping,
reproducibility by seed and by manual replay, and refusals of invalid or altered input.

The sampling tests draw from ``GeneratorSource(random.Random(<fixed seed>), "seeded")``, so their
counts are deterministic and cannot flake; they reject at p < 1e-6 (chi-square, survival function
computed here: scipy is not a dependency). Each has a twin that shows the check rejects a subtly
wrong distribution, so it can fail.
"""

from __future__ import annotations

import copy
import math
import random
from collections import Counter
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.platform.dice.randomness import GeneratorSource
from service.systems.weltenbuch import odds, rules
from service.systems.weltenbuch.rules import Member, Party, Role
from tests.stats import chi_square_sf as chi2_sf

CONFLICT = "/v1/weltenbuch/conflict"
NARRATION = "/v1/weltenbuch/narration"
RESURRECTION = "/v1/weltenbuch/resurrection"
PROBLEM = "application/problem+json"
# The service takes seeds up to 2^53-1 (exact in JSON numbers, see service/platform; API.md says 2^63-1).
SEEDS = st.integers(min_value=0, max_value=2**53 - 1)

PROPERTY = settings(max_examples=50, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
FEW = settings(PROPERTY, max_examples=40)


def call(client, path: str, body: Any) -> tuple[int, Any, str]:
    response = client.post(path, json=body)
    return response.status_code, response.get_json(force=True, silent=True), response.content_type


def assert_problem(status: int, problem: Any, content_type: str) -> dict:
    """A client error as an RFC 9457 problem with field errors; returns ``errors``."""
    assert 400 <= status < 500, (status, problem)
    assert content_type.startswith(PROBLEM), content_type
    assert isinstance(problem, dict) and problem["status"] == status
    assert {"type", "title", "status", "detail"} <= set(problem)
    assert isinstance(problem.get("errors"), dict) and problem["errors"], problem
    return problem["errors"]


# --- strategies ---------------------------------------------------------------------------------

# Any Unicode (astral characters included, lone surrogates excluded: JSON cannot carry them), so the
# names also exercise JSON round trips and the RFC 8785 key order of the signed responses.
NAMES = st.text(st.characters(codec="utf-8"), min_size=1, max_size=12)


@st.composite
def conflict_bodies(draw, max_profile: int = 12, max_members: int = 4, max_parties: int = 4) -> dict:
    """A valid /conflict body: 2..max_parties parties of 1..max_members members, unique names,
    players on distinct seats, optional fields sometimes left to their defaults."""
    shape = draw(st.lists(st.integers(1, max_members), min_size=2, max_size=max_parties))
    total = sum(shape)
    party_names = draw(st.lists(NAMES, min_size=len(shape), max_size=len(shape), unique=True))
    member_names = draw(st.lists(NAMES, min_size=total, max_size=total, unique=True))
    roles = draw(st.lists(st.sampled_from(["player", "npc", "obstacle"]), min_size=total, max_size=total))
    players = roles.count("player")
    # Small seat ranges make starter ties likelier; any seat up to 100 is valid.
    seat_range = draw(st.sampled_from([players, 2 * players + 1, 100]))
    seats = iter(draw(st.lists(st.integers(1, max(1, seat_range)), min_size=players, max_size=players,
                               unique=True)))
    members = []
    for name, role in zip(member_names, roles):
        member: dict[str, Any] = {"name": name, "role": role, "profile": draw(st.integers(0, max_profile))}
        if role == "player":
            member["seat"] = next(seats)
        if draw(st.booleans()):
            member["equipment_bonuses"] = draw(st.lists(st.integers(-8, 6), max_size=4))
        if draw(st.booleans()):
            member["magic_bonus"] = draw(st.integers(0, 4))
        if draw(st.booleans()):
            member["situation_bonus"] = draw(st.integers(0, 4))
        if draw(st.booleans()):
            member["hero_points"] = draw(st.integers(0, 3)) if role == "player" else 0
        members.append(member)
    it = iter(members)
    body: dict[str, Any] = {"parties": [{"name": name, "members": [next(it) for _ in range(count)]}
                                        for name, count in zip(party_names, shape)]}
    die = draw(st.integers(1, 50)) * 2
    if die != 10 or draw(st.booleans()):
        body["die"] = die
    return body


def all_members(body: dict) -> list[tuple[str, dict]]:
    return [(party["name"], member) for party in body["parties"] for member in party["members"]]


def expected_dice(member: dict) -> int:
    """Ruling 2: profile + the best equipment bonus (may be negative; none = 0) + magic + situation
    + 2 per hero point, never below 0."""
    best_equipment = max(member.get("equipment_bonuses") or [0])
    total = (member["profile"] + best_equipment + member.get("magic_bonus", 0)
             + member.get("situation_bonus", 0) + 2 * member.get("hero_points", 0))
    return max(0, total)


def expected_order(body: dict) -> list[dict]:
    """Ruling 4, restated: players with dice and one GM turn (seat 0, all npcs and obstacles with
    dice, in request order), clockwise by seat from the player with the most dice (ties: highest
    seat); the GM sits between the highest seat and seat 1. Without players the GM is alone."""
    with_dice = [member for _, member in all_members(body) if expected_dice(member) > 0]
    players = [m for m in with_dice if m["role"] == "player"]
    turns = [{"seat": m["seat"], "actor": "player", "members": [m["name"]]} for m in players]
    gm = [m["name"] for m in with_dice if m["role"] != "player"]
    if gm:
        turns.append({"seat": 0, "actor": "gm", "members": gm})
    if not players:
        return turns
    start = max(players, key=lambda m: (expected_dice(m), m["seat"]))["seat"]
    return sorted(turns, key=lambda turn: (turn["seat"] - start) % 101)  # seats are 0..100


# --- conflict -----------------------------------------------------------------------------------

@PROPERTY
@given(body=conflict_bodies(), seed=SEEDS)
def test_conflict_invariants_seed_and_manual_replay(app, body, seed):
    client = app.test_client()
    status, first, content_type = call(client, CONFLICT, {**body, "seed": seed})
    assert status == 200, first
    assert content_type.startswith("application/json")
    assert first["operation"] == "weltenbuch.conflict" and first["randomness"]["source"] == "seeded"
    die = body.get("die", 10)
    assert first["request"]["die"] == die and first["request"]["seed"] == seed
    result = first["result"]

    # Members in request order, each rolling exactly its pool.
    members = all_members(body)
    assert [(m["name"], m["party"], m["role"]) for m in result["members"]] == \
           [(member["name"], party, member["role"]) for party, member in members]
    for rolled, (_, member) in zip(result["members"], members):
        assert rolled["dice_count"] == expected_dice(member) >= 0
        assert len(rolled["dice"]) == rolled["dice_count"]
        assert all(isinstance(face, int) and 1 <= face <= die for face in rolled["dice"])
        assert rolled["successes"] == sum(1 for face in rolled["dice"] if face % 2 == 0)
        assert 0 <= rolled["successes"] <= rolled["dice_count"]

    # Party totals and the winner (ruling 3).
    totals = {party["name"]: sum(m["successes"] for m in result["members"] if m["party"] == party["name"])
              for party in body["parties"]}
    assert result["parties"] == [{"name": name, "successes": s} for name, s in totals.items()]
    best = max(totals.values())
    leaders = [name for name, s in totals.items() if s == best]
    assert result["winner"] == (leaders[0] if len(leaders) == 1 else None)

    # Narration order (ruling 4), as explicit properties and against the restatement.
    order = result["narration_order"]
    dice_of = {member["name"]: expected_dice(member) for _, member in members}
    role_of = {member["name"]: member["role"] for _, member in members}
    gm_turns = [turn for turn in order if turn["actor"] == "gm"]
    player_turns = [turn for turn in order if turn["actor"] == "player"]
    assert len(gm_turns) == (1 if any(dice_of[n] and role_of[n] != "player" for n in dice_of) else 0)
    assert all(turn["seat"] == 0 for turn in gm_turns)
    assert sorted(n for turn in player_turns for n in turn["members"]) == \
           sorted(n for n in dice_of if dice_of[n] and role_of[n] == "player")
    assert all(len(turn["members"]) == 1 and turn["seat"] >= 1 for turn in player_turns)
    if player_turns:
        starter = order[0]
        assert starter["actor"] == "player"
        most = max(dice_of[turn["members"][0]] for turn in player_turns)
        assert dice_of[starter["members"][0]] == most
        assert starter["seat"] == max(t["seat"] for t in player_turns if dice_of[t["members"][0]] == most)
    assert order == expected_order(body)

    # Every value consumed is recorded, one d<die> event per member with dice.
    events = first["randomness"]["events"]
    assert events == [{"kind": f"d{die}", "values": m["dice"]} for m in result["members"] if m["dice"]]

    # Same seed, same result; the recorded values fed back as manual (no seed) reproduce it.
    status, again, _ = call(client, CONFLICT, {**body, "seed": seed})
    assert status == 200 and again["result"] == result
    manual = [value for event in events for value in event["values"]]
    status, replay, _ = call(client, CONFLICT, {**body, "manual": manual})
    assert status == 200, replay
    assert replay["randomness"]["source"] == "manual" and replay["result"] == result
    assert replay["randomness"]["events"] == events


@st.composite
def invalid_conflicts(draw) -> tuple[str, dict, str]:
    """A valid body with exactly one thing broken; returns (what, body, the field path refused)."""
    body = copy.deepcopy(draw(conflict_bodies(max_profile=6, max_members=3)))
    located = [(p, i) for p, party in enumerate(body["parties"]) for i in range(len(party["members"]))]
    p, i = draw(st.sampled_from(located))
    member = body["parties"][p]["members"][i]
    at = f"parties.{p}.members.{i}"
    kind = draw(st.sampled_from([
        "odd die", "die out of range", "hero points on npc", "duplicate member name", "duplicate party name",
        "shared seat", "player without seat", "seat on npc", "wrong type", "missing field", "unknown field",
        "one party", "no members", "negative value", "unknown role",
    ]))
    if kind == "odd die":
        body["die"] = draw(st.integers(0, 49)) * 2 + 1
        return kind, body, "die"
    if kind == "die out of range":
        body["die"] = draw(st.sampled_from([0, -2, 102, 1000]))
        return kind, body, "die"
    if kind == "hero points on npc":
        member["role"] = draw(st.sampled_from(["npc", "obstacle"]))
        member.pop("seat", None)
        member["hero_points"] = draw(st.integers(1, 3))
        return kind, body, f"{at}.hero_points"
    if kind in ("duplicate member name", "shared seat"):
        q, j = draw(st.sampled_from([loc for loc in located if loc != (p, i)]))
        other = body["parties"][q]["members"][j]
        if kind == "duplicate member name":
            other["name"] = member["name"]
            return kind, body, f"parties.{q}.members.{j}.name"
        member["role"] = other["role"] = "player"
        member["seat"] = other["seat"] = draw(st.integers(1, 100))
        return kind, body, f"parties.{q}.members.{j}.seat"
    if kind == "duplicate party name":
        body["parties"][1]["name"] = body["parties"][0]["name"]
        return kind, body, "parties.1.name"
    if kind == "player without seat":
        member["role"] = "player"
        member.pop("seat", None)
        return kind, body, f"{at}.seat"
    if kind == "seat on npc":
        member["role"] = draw(st.sampled_from(["npc", "obstacle"]))
        member.pop("hero_points", None)
        member["seat"] = draw(st.integers(1, 100))
        return kind, body, f"{at}.seat"
    if kind == "wrong type":
        where, key, valid_type = draw(st.sampled_from([
            (body, "die", int), (body, "parties", list),
            (body["parties"][p], "name", str), (body["parties"][p], "members", list),
            (member, "name", str), (member, "role", str), (member, "profile", int), (member, "seat", int),
            (member, "equipment_bonuses", list), (member, "magic_bonus", int),
            (member, "situation_bonus", int), (member, "hero_points", int),
        ]))
        wrong = {int: ["3", 2.5, True, None, [3], {"n": 3}], str: [3, None, True, ["x"], {}],
                 list: ["x", 3, None, {"a": 1}]}[valid_type]
        path = {id(body): "", id(body["parties"][p]): f"parties.{p}.", id(member): f"{at}."}[id(where)]
        where[key] = draw(st.sampled_from(wrong))
        return kind, body, path + key
    if kind == "missing field":
        where, key, path = draw(st.sampled_from([
            (body, "parties", "parties"), (body["parties"][p], "name", f"parties.{p}.name"),
            (body["parties"][p], "members", f"parties.{p}.members"), (member, "name", f"{at}.name"),
            (member, "role", f"{at}.role"), (member, "profile", f"{at}.profile"),
        ]))
        del where[key]
        return kind, body, path
    if kind == "unknown field":
        where, path = draw(st.sampled_from([(body, ""), (body["parties"][p], f"parties.{p}."), (member, f"{at}.")]))
        where["charisma"] = 3
        return kind, body, path + "charisma"
    if kind == "one party":
        body["parties"] = body["parties"][:1]
        return kind, body, "parties"
    if kind == "no members":
        body["parties"][p]["members"] = []
        return kind, body, f"parties.{p}.members"
    if kind == "negative value":
        key = draw(st.sampled_from(["profile", "magic_bonus", "situation_bonus", "hero_points"]))
        member[key] = draw(st.integers(-5, -1))
        return kind, body, f"{at}.{key}"
    member["role"] = draw(st.sampled_from(["gm", "Player", "", "monster"]))
    return kind, body, f"{at}.role"


@PROPERTY
@given(case=invalid_conflicts(), seed=st.none() | SEEDS)
def test_invalid_conflicts_are_problems_naming_the_field(app, case, seed):
    kind, body, field = case
    if seed is not None:
        body = {**body, "seed": seed}
    client = app.test_client()
    for path in (CONFLICT, CONFLICT + "/odds") if seed is None else (CONFLICT,):
        status, problem, content_type = call(client, path, body)
        errors = assert_problem(status, problem, content_type)
        assert status == 422, (kind, problem)
        assert field in errors, (kind, field, errors)


@pytest.mark.parametrize("body", [[], "parties", 3, None, {"parties": []}, {}])
def test_non_object_or_empty_conflict_bodies_are_problems(client, body):
    status, problem, content_type = call(client, CONFLICT, body)
    assert_problem(status, problem, content_type)


# --- resurrection -------------------------------------------------------------------------------

@PROPERTY
@given(gods=st.none() | st.lists(NAMES, min_size=8, max_size=8), seed=SEEDS, face=st.integers(1, 8))
def test_resurrection_invariants_seed_and_manual(app, gods, seed, face):
    client = app.test_client()
    body = {} if gods is None else {"gods": gods}
    status, first, _ = call(client, RESURRECTION, {**body, "seed": seed})
    assert status == 200, first
    god = first["result"]["god"]
    assert 1 <= god <= 8
    assert first["result"]["name"] == (gods[god - 1] if gods else None)
    assert first["randomness"] == {"source": "seeded", "events": [{"kind": "d8", "values": [god]}]}
    assert call(client, RESURRECTION, {**body, "seed": seed})[1]["result"] == first["result"]
    replay = call(client, RESURRECTION, {**body, "manual": [god]})[1]
    assert replay["result"] == first["result"] and replay["randomness"]["source"] == "manual"
    chosen = call(client, RESURRECTION, {**body, "manual": [face]})[1]["result"]
    assert chosen == {"god": face, "name": gods[face - 1] if gods else None}


@FEW
@given(body=st.one_of(
    st.fixed_dictionaries({"gods": st.lists(NAMES, max_size=12).filter(lambda g: len(g) != 8)}),
    # Integers within 64 bits: the test client's orjson cannot serialize larger ones.
    st.fixed_dictionaries({"gods": st.lists(st.one_of(st.integers(-2**63, 2**63 - 1), st.none(), st.booleans()),
                                            min_size=8, max_size=8)}),
    # (null is no case here: for the optional `gods` it means "not given", which is valid)
    st.fixed_dictionaries({"gods": st.sampled_from(["Alvar", 8, {}])}),
    st.fixed_dictionaries({"manual": st.lists(st.integers(-3, 12), max_size=3).filter(
        lambda m: len(m) != 1 or not 1 <= m[0] <= 8)}),
    st.fixed_dictionaries({"die": st.just(8)}),
))
def test_invalid_resurrections_are_problems(app, body):
    status, problem, content_type = call(app.test_client(), RESURRECTION, body)
    assert status == 422
    assert_problem(status, problem, content_type)


# --- narration ----------------------------------------------------------------------------------

def reference_narration(members: list[dict], toughness: Mapping[str, dict], spends: list[dict],
                        hero_points: list[dict]) -> dict:
    """Ruling 5 restated: spends in order (a targeted success lowers equipment toughness first, then
    toughness, never below 0), then hero points (+3 each, not above max), then, once every die is
    spent, toughness 0 of a player or npc is a consequence and full toughness again."""
    state = {name: {"current": t["current"], "max": t["max"], "equipment": t.get("equipment", 0)}
             for name, t in toughness.items()}
    faces = {m["name"]: m["dice"] for m in members}
    spent = []
    for spend in spends:
        face = faces[spend["member"]][spend["die"]]
        lowered = None
        target = spend.get("target")
        if target is not None:
            if state[target]["equipment"] > 0:
                state[target]["equipment"] -= 1
                lowered = "equipment"
            elif state[target]["current"] > 0:
                state[target]["current"] -= 1
                lowered = "toughness"
        spent.append({"member": spend["member"], "die": spend["die"], "face": face, "success": face % 2 == 0,
                      "target": target, "lowered": lowered})
    for points in hero_points:
        t = state[points["member"]]
        t["current"] = min(t["max"], t["current"] + 3 * points["count"])
    taken = {(s["member"], s["die"]) for s in spends}
    unspent = [{"member": m["name"], "die": i} for m in members for i in range(len(m["dice"]))
               if (m["name"], i) not in taken]
    role = {m["name"]: m["role"] for m in members}
    consequences = [name for name, t in state.items()
                    if not unspent and t["current"] == 0 and role[name] != "obstacle"]
    for name in consequences:
        state[name]["current"] = state[name]["max"]
    return {"spent": spent, "toughness_after": state, "consequences": consequences, "unspent": unspent,
            "complete": not unspent}


@PROPERTY
@given(body=conflict_bodies(max_profile=6, max_members=3, max_parties=3), seed=SEEDS, data=st.data())
def test_narration_spending_random_dice(app, body, seed, data):
    client = app.test_client()
    status, conflict, _ = call(client, CONFLICT, {**body, "seed": seed})
    assert status == 200, conflict
    members = conflict["result"]["members"]
    party_of = {m["name"]: m["party"] for m in members}

    toughness: dict[str, dict] = {}
    for m in members:
        if data.draw(st.integers(0, 4), label=f"has toughness {m['name']}"):  # mostly yes
            top = data.draw(st.integers(0, 6))
            entry = {"current": data.draw(st.integers(0, top)), "max": top}
            if data.draw(st.booleans()):
                entry["equipment"] = data.draw(st.integers(0, 3))
            toughness[m["name"]] = entry

    dice = [(m["name"], i) for m in members for i in range(len(m["dice"]))]
    if not dice:
        chosen = []
    elif data.draw(st.booleans(), label="spend every die"):
        chosen = data.draw(st.permutations(dice))
    else:
        chosen = data.draw(st.lists(st.sampled_from(dice), unique=True))
    faces = {m["name"]: m["dice"] for m in members}
    spends = []
    for name, index in chosen:
        spend: dict[str, Any] = {"member": name, "die": index}
        opponents = sorted(n for n in toughness if party_of[n] != party_of[name])
        if faces[name][index] % 2 == 0 and opponents and data.draw(st.integers(0, 3)):
            spend["target"] = data.draw(st.sampled_from(opponents))
        spends.append(spend)
    players = sorted(n for n in toughness if next(m["role"] for m in members if m["name"] == n) == "player")
    hero_points = data.draw(st.lists(st.fixed_dictionaries(
        {"member": st.sampled_from(players), "count": st.integers(1, 3)}), max_size=3)) if players else []

    request = {"conflict": conflict, "toughness": toughness, "spends": spends, "hero_points": hero_points}
    status, narration, _ = call(client, NARRATION, request)
    assert status == 200, narration
    assert narration["operation"] == "weltenbuch.narration" and "receipt" in narration
    result = narration["result"]

    # Invariants, stated directly.
    after = result["toughness_after"]
    assert set(after) == set(toughness)
    for name, t in after.items():
        assert 0 <= t["current"] <= t["max"] == toughness[name]["max"]
        assert 0 <= t["equipment"] <= toughness[name].get("equipment", 0)
    spent = {(s["member"], s["die"]) for s in result["spent"]}
    unspent = {(u["member"], u["die"]) for u in result["unspent"]}
    assert len(spent) == len(result["spent"]) and len(unspent) == len(result["unspent"])
    assert spent.isdisjoint(unspent) and spent | unspent == set(dice)
    assert result["complete"] is (not result["unspent"])
    if not result["complete"]:
        assert result["consequences"] == []
    for name in result["consequences"]:
        assert next(m["role"] for m in members if m["name"] == name) != "obstacle"
    for s in result["spent"]:
        assert s["face"] == faces[s["member"]][s["die"]] and s["success"] is (s["face"] % 2 == 0)
        if s["lowered"] is not None:
            assert s["success"] and party_of[s["target"]] != party_of[s["member"]]

    # And the whole result against the restated rule.
    expected = reference_narration(members, toughness, spends, hero_points)
    assert result["spent"] == expected["spent"]
    assert result["toughness_after"] == expected["toughness_after"]
    assert sorted(result["consequences"]) == sorted(expected["consequences"])
    assert result["unspent"] == expected["unspent"]
    assert result["complete"] is expected["complete"]


def scalar_paths(value: Any, path: tuple = ()) -> list[tuple]:
    if isinstance(value, dict):
        return [p for key, item in value.items() for p in scalar_paths(item, path + (key,))]
    if isinstance(value, list):
        return [p for index, item in enumerate(value) for p in scalar_paths(item, path + (index,))]
    return [path]


@FEW
@given(body=conflict_bodies(max_profile=4, max_members=2, max_parties=3), seed=SEEDS, data=st.data())
def test_narration_refuses_a_conflict_with_any_value_changed(app, body, seed, data):
    client = app.test_client()
    conflict = call(client, CONFLICT, {**body, "seed": seed})[1]
    assert call(client, NARRATION, {"conflict": conflict})[0] == 200  # untouched, it is accepted
    path = data.draw(st.sampled_from(scalar_paths(conflict)), label="path")
    altered = copy.deepcopy(conflict)
    holder = altered
    for key in path[:-1]:
        holder = holder[key]
    old = holder[path[-1]]
    if isinstance(old, bool):
        new: Any = not old
    elif isinstance(old, int):
        new = old + data.draw(st.integers(-3, 3).filter(bool))
    elif isinstance(old, str):
        new = data.draw(st.one_of(st.just(old + "x"), st.just(old[:-1]), NAMES).filter(lambda s: s != old))
    elif old is None:
        new = data.draw(st.sampled_from([0, "", False]))
    else:  # pragma: no cover - the conflict response holds no floats
        new = old + 1
    holder[path[-1]] = new
    status, problem, content_type = call(client, NARRATION, {"conflict": altered})
    errors = assert_problem(status, problem, content_type)
    assert any(field.startswith("conflict") for field in errors), (path, errors)


# --- sampling against the exact odds ------------------------------------------------------------

def chi_square(observed: Counter, probabilities: Mapping[Any, Fraction]) -> tuple[float, int]:
    """Pearson's statistic and degrees of freedom; bins expected below 5 are pooled into one
    (and that one into the smallest other bin if it is still below 5). A value outside the support
    is an immediate failure."""
    outside = set(observed) - {value for value, p in probabilities.items() if p}
    assert not outside, f"values the odds call impossible were sampled: {sorted(outside, key=str)}"
    n = sum(observed.values())
    bins = [(float(p) * n, observed.get(value, 0)) for value, p in probabilities.items() if p]
    big = [b for b in bins if b[0] >= 5]
    small = [b for b in bins if b[0] < 5]
    if small:
        pooled = (sum(e for e, _ in small), sum(o for _, o in small))
        if pooled[0] < 5 and big:
            smallest = min(big)
            big.remove(smallest)
            pooled = (pooled[0] + smallest[0], pooled[1] + smallest[1])
        big.append(pooled)
    statistic = sum((o - e) ** 2 / e for e, o in big)
    return statistic, len(big) - 1


def assert_fits(observed: Counter, probabilities: Mapping[Any, Fraction], level: float = 1e-6) -> float:
    statistic, df = chi_square(observed, probabilities)
    p = chi2_sf(statistic, df)
    assert p >= level, f"chi-square {statistic:.1f} with {df} df, p = {p:.3g}"
    return p


@pytest.mark.parametrize("x, df, p", [
    (3.841459, 1, 0.05), (5.991465, 2, 0.05), (7.814728, 3, 0.05), (14.06714, 7, 0.05),
    (24.32189, 7, 0.001), (18.30704, 10, 0.05), (6.634897, 1, 0.01), (0.0, 4, 1.0), (1.0, 2, math.exp(-0.5)),
])
def test_chi2_survival_function_matches_tables(x, df, p):
    assert chi2_sf(x, df) == pytest.approx(p, rel=1e-5)


def sample_resurrections(seed: int, trials: int, gods=None) -> Counter:
    source = GeneratorSource(random.Random(seed), "seeded")
    return Counter(rules.resurrection(source, gods).god for _ in range(trials))


@pytest.mark.parametrize("seed", [20240611, 424242])
def test_resurrection_sampling_matches_exact_odds(seed):
    """Ruling 6 / odds.resurrection: 80,000 seeded d8 gods, chi-square against 1/8 each."""
    exact = odds.resurrection()
    assert_fits(sample_resurrections(seed, 80_000), exact.distributions["god"])
    outcomes = {int(name.split(":")[1]): p for name, p in exact.outcomes.items()}
    assert_fits(sample_resurrections(seed + 1, 80_000), outcomes)


def test_resurrection_names_follow_the_sampled_god():
    gods = ["Alvar", "Belra", "Cyrus", "Dunja", "Eldor", "Fenna", "Garm", "Hesta"]
    source = GeneratorSource(random.Random(99), "seeded")
    names = Counter()
    for _ in range(40_000):
        result = rules.resurrection(source, gods)
        assert result.name == gods[result.god - 1]
        names[result.name] += 1
    assert_fits(names, {name: Fraction(1, 8) for name in gods})


def test_resurrection_check_rejects_a_slightly_biased_die():
    """The same check has teeth: a d8 that turns one 8 in ten into a 1 is refused."""
    biased = Counter()
    for god, count in sample_resurrections(20240611, 80_000).items():
        moved = count // 10 if god == 8 else 0
        biased[god] += count - moved
        biased[1] += moved
    with pytest.raises(AssertionError, match="chi-square"):
        assert_fits(biased, odds.resurrection().distributions["god"])


SAMPLED_CONFLICTS = [
    # Negative equipment, hero points, magic and situation bonuses go through Member.dice.
    ([[Member("a0", Role.PLAYER, 3, seat=1, equipment_bonuses=(-2, 1), hero_points=1),
       Member("a1", Role.NPC, 2, equipment_bonuses=(-3,))],
      [Member("b0", Role.OBSTACLE, 4, magic_bonus=1), Member("b1", Role.NPC, 0, situation_bonus=2)]], 2),
    ([[Member("a0", Role.NPC, 5)], [Member("b0", Role.NPC, 3, situation_bonus=2)],
      [Member("c0", Role.PLAYER, 1, seat=3, hero_points=2, equipment_bonuses=(-1, -4))]], 100),
    ([[Member("a0", Role.NPC, 1, equipment_bonuses=(-5,))], [Member("b0", Role.NPC, 2)]], 12),
]


def sample_conflicts(members, die, seed, trials):
    parties = [Party(f"p{i}", tuple(group)) for i, group in enumerate(members)]
    source = GeneratorSource(random.Random(seed), "seeded")
    outcomes, successes = Counter(), {party.name: Counter() for party in parties}
    for _ in range(trials):
        result = rules.conflict(parties, source, die=die)
        outcomes["tie" if result.winner is None else f"wins:{result.winner}"] += 1
        for total in result.parties:
            successes[total.name][total.successes] += 1
    return parties, outcomes, successes


@pytest.mark.parametrize("members, die", SAMPLED_CONFLICTS)
def test_conflict_distributions_sampling_matches_exact_odds(members, die):
    """test_odds.py samples the conflict outcomes on a d10 and a d6; this adds a d2, a d12 and a d100,
    pools built from bonuses (negative equipment, hero points) and the `successes:<party>`
    distributions, all by chi-square."""
    parties, outcomes, successes = sample_conflicts(members, die, seed=31337 + die, trials=20_000)
    exact = odds.conflict(parties)
    assert_fits(outcomes, exact.outcomes)
    for party in parties:
        assert_fits(successes[party.name], exact.distributions[f"successes:{party.name}"])


def test_conflict_check_rejects_a_pool_one_die_off():
    """Teeth: the samples of a party are refused against the odds of a pool with one die more."""
    members, die = SAMPLED_CONFLICTS[1]
    parties, _, successes = sample_conflicts(members, die, seed=5, trials=20_000)
    wrong = odds.party_successes(parties[0].dice + 1)
    with pytest.raises(AssertionError, match="chi-square"):
        assert_fits(successes["p0"], wrong)
