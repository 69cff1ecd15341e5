"""Malmsturm properties: hypothesis over HTTP (valid and invalid bodies, seed and manual replay) and
seeded sampling against exact odds with a strict chi-square test (fixed seeds: cannot flake).

The invariants are written out here from API.md §6 and RULINGS.md "Malmsturm" on their own (ladder
labels, attack tracks, the damage rule), not imported from the code under test, so they can fail.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction
from itertools import permutations, product

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.platform.dice.randomness import GeneratorSource, manual_values
from service.platform.operations.schemas import MAX_SEED
from service.systems.malmsturm import odds, rules
from service.systems.malmsturm.rules import Attacker, AttackType, Contender, Defender, Participant, Stress, StressTrack
from tests.stats import chi_square_sf as chi2_sf

BASE = "/v1/malmsturm"
PROPERTY = settings(max_examples=50, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])

# Ruling 1, written out again: below −4 stays hoffnungslos, above +6 is unvergleichlich.
LADDER_LABELS = {
    "de": {-4: "hoffnungslos", -3: "erbärmlich", -2: "dilettantisch", -1: "unterdurchschnittlich",
           0: "mäßig", 1: "durchschnittlich", 2: "passabel", 3: "gut", 4: "hervorragend",
           5: "überwältigend", 6: "Weltklasse", 7: "unvergleichlich"},
    "en": {-4: "hopeless", -3: "terrible", -2: "poor", -1: "below average", 0: "mediocre",
           1: "average", 2: "fair", 3: "good", 4: "great", 5: "superb", 6: "fantastic", 7: "legendary"},
}
# Ruling 5: harm, push: physical; deceive, intimidate, charm, persuade: mental.
TRACK = {"harm": "physical", "push": "physical", "deceive": "mental", "intimidate": "mental",
         "charm": "mental", "persuade": "mental"}


def expected_label(total: int, lang: str) -> str:
    return LADDER_LABELS[lang][min(max(total, -4), 7)]


def call(http, path: str, body, lang: str = "en"):
    return http(f"{BASE}{path}?lang={lang}", body)


# --- strategies for valid bodies -------------------------------------------------------------------

levels = st.integers(-10, 20)  # the accepted range around the ladder (schemas.LEVEL_MIN/MAX)
near_ladder = st.integers(-4, 7)
names = st.text(min_size=1, max_size=16)
langs = st.sampled_from(["en", "de"])
# API.md says 0..2^63-1; the service caps seeds at 2^53-1 (exact in JSON, so receipts sign them exactly)
seeds = st.integers(0, 9) | st.integers(0, MAX_SEED)


def optional(body: dict, key: str, strategy, draw):
    """Leave the key out (default applies) or give it a value."""
    if draw(st.booleans()):
        body[key] = draw(strategy)
    return body


@st.composite
def action_bodies(draw):
    body = {"skill": draw(st.one_of(near_ladder, levels)), "difficulty": draw(st.one_of(near_ladder, levels))}
    return optional(body, "modifier", st.integers(-3, 3) | levels, draw)


@st.composite
def contenders(draw):
    side = {"skill": draw(st.one_of(near_ladder, levels))}
    optional(side, "name", st.none() | names, draw)
    return optional(side, "modifier", st.integers(-3, 3) | levels, draw)


@st.composite
def contest_bodies(draw):
    return {"a": draw(contenders()), "b": draw(contenders())}


@st.composite
def initiative_bodies(draw):
    people = draw(st.lists(names, min_size=1, max_size=8, unique=True))
    # a narrow band of intuitions makes equal totals (and roll-offs) common
    intuition = draw(st.sampled_from([st.integers(0, 1), st.integers(-2, 3), levels]))
    return {"participants": [{"name": name, "intuition": draw(intuition)} for name in people]}


@st.composite
def tracks(draw):
    maximum = draw(st.integers(1, 6) | st.integers(1, 100))
    return {"current": draw(st.integers(0, maximum)), "max": maximum}


@st.composite
def attack_bodies(draw):
    attacker = {"skill": draw(st.integers(-2, 6) | levels), "attack": draw(st.sampled_from(sorted(TRACK)))}
    optional(attacker, "name", st.none() | names, draw)
    optional(attacker, "modifier", st.integers(-2, 2), draw)
    defender = {"skill": draw(st.integers(-2, 6) | levels),
                "stress": {"physical": draw(tracks()), "mental": draw(tracks())}}
    optional(defender, "name", st.none() | names, draw)
    optional(defender, "modifier", st.integers(-2, 2), draw)
    optional(defender, "consequences", st.integers(0, 2), draw)
    body = {"attacker": attacker, "defender": defender}
    return optional(body, "take_consequence_early", st.booleans(), draw)


VALID = {"action": action_bodies(), "contest": contest_bodies(), "initiative": initiative_bodies(),
         "attack": attack_bodies()}


def check_envelope(status, content_type, body, operation: str) -> None:
    assert status == 200, body
    assert content_type == "application/json"
    assert body["operation"] == f"malmsturm.{operation}"
    assert body["randomness"]["source"] == "seeded"
    assert all(e["kind"] == "dF" and len(e["values"]) == 4 and set(e["values"]) <= {-1, 0, 1}
               for e in body["randomness"]["events"])
    assert isinstance(body["summary"], str) and body["summary"]
    assert body["receipt"]["signature"]


def check_roll(side: dict, base: int, lang: str) -> None:
    """Four dF in −1..1, total = skill + modifier + sum(dice), label read on the ladder."""
    assert len(side["dice"]) == 4 and all(d in (-1, 0, 1) for d in side["dice"])
    assert side["total"] == base + sum(side["dice"])
    assert side["label"] == expected_label(side["total"], lang)


# --- valid bodies: invariants ------------------------------------------------------------------------

@PROPERTY
@given(body=action_bodies(), seed=seeds, lang=langs)
def test_action_invariants(http, body, seed, lang):
    status, content_type, out = call(http, "/action", {**body, "seed": seed}, lang)
    check_envelope(status, content_type, out, "action")
    result, modifier = out["result"], body.get("modifier", 0)
    assert out["request"]["modifier"] == modifier
    check_roll(result, body["skill"] + modifier, lang)
    assert [e["values"] for e in out["randomness"]["events"]] == [result["dice"]]
    assert result["success"] is (result["total"] >= body["difficulty"])
    assert result["shifts"] >= 0
    assert result["shifts"] == (result["total"] - body["difficulty"] if result["success"] else 0)
    assert result["margin"] == result["total"] - body["difficulty"]


@PROPERTY
@given(body=contest_bodies(), seed=seeds, lang=langs)
def test_contest_invariants(http, body, seed, lang):
    status, content_type, out = call(http, "/contest", {**body, "seed": seed}, lang)
    check_envelope(status, content_type, out, "contest")
    result = out["result"]
    for key in "ab":
        check_roll(result[key], body[key]["skill"] + body[key].get("modifier", 0), lang)
        assert result[key]["name"] == body[key].get("name")
    assert [e["values"] for e in out["randomness"]["events"]] == [result["a"]["dice"], result["b"]["dice"]]
    a, b = result["a"]["total"], result["b"]["total"]
    assert result["shifts"] == abs(a - b)
    assert result["winner"] in ("a", "b", None)
    if result["winner"] == "a":
        assert a - b >= 1
    elif result["winner"] == "b":
        assert b - a >= 1
    else:
        assert a == b  # a margin of at least one step always wins, so a tie means equal totals


@PROPERTY
@given(body=initiative_bodies(), seed=seeds, lang=langs)
def test_initiative_invariants(http, body, seed, lang):
    status, content_type, out = call(http, "/initiative", {**body, "seed": seed}, lang)
    check_envelope(status, content_type, out, "initiative")
    order = out["result"]["order"]
    given_intuition = {p["name"]: p["intuition"] for p in body["participants"]}
    request_rank = {p["name"]: i for i, p in enumerate(body["participants"])}
    # every participant exactly once
    assert sorted(entry["name"] for entry in order) == sorted(given_intuition)
    assert len(order) == len(body["participants"])
    for entry in order:
        assert entry["intuition"] == given_intuition[entry["name"]]
        check_roll(entry, entry["intuition"], lang)
    # sorted by total, then intuition (both descending)
    keys = [(entry["total"], entry["intuition"]) for entry in order]
    assert keys == sorted(keys, reverse=True)
    # within an equal (total, intuition) group: higher roll-offs first, depth first; only tied members
    # roll off; after 20 tied roll-offs the request order stands
    for entry in order:
        tied = keys.count((entry["total"], entry["intuition"])) > 1
        assert bool(entry["roll_offs"]) is tied
        assert all(len(dice) == 4 and set(dice) <= {-1, 0, 1} for dice in entry["roll_offs"])
    for earlier, later in zip(order, order[1:]):
        if (earlier["total"], earlier["intuition"]) != (later["total"], later["intuition"]):
            continue
        first = [sum(d) for d in earlier["roll_offs"]]
        second = [sum(d) for d in later["roll_offs"]]
        common = next((i for i, (x, y) in enumerate(zip(first, second)) if x != y), None)
        if common is None:
            assert len(first) == len(second) == rules.MAX_ROLL_OFF_ROUNDS
            assert request_rank[earlier["name"]] < request_rank[later["name"]]
        else:
            assert first[common] > second[common]
    # every random value consumed is an entry's roll or roll-off
    rolled = sum(1 + len(entry["roll_offs"]) for entry in order)
    assert len(out["randomness"]["events"]) == rolled
    first_rolls = [e["values"] for e in out["randomness"]["events"][:len(order)]]
    by_name = {entry["name"]: entry["dice"] for entry in order}
    assert first_rolls == [by_name[p["name"]] for p in body["participants"]]


@PROPERTY
@given(body=attack_bodies(), seed=seeds, lang=langs)
def test_attack_invariants(http, body, seed, lang):
    status, content_type, out = call(http, "/attack", {**body, "seed": seed}, lang)
    check_envelope(status, content_type, out, "attack")
    result = out["result"]
    att, dfn = body["attacker"], body["defender"]
    check_roll(result["attacker"], att["skill"] + att.get("modifier", 0), lang)
    check_roll(result["defender"], dfn["skill"] + dfn.get("modifier", 0), lang)
    margin = result["attacker"]["total"] - result["defender"]["total"]
    assert result["hit"] is (margin >= 1)
    assert result["shifts"] == max(margin, 0)

    track = TRACK[att["attack"]]
    other = "mental" if track == "physical" else "physical"
    assert result["track"] == track
    before, after = dfn["stress"], result["stress_after"]
    for name in ("physical", "mental"):
        assert after[name]["max"] == before[name]["max"]
        assert 0 <= after[name]["current"] <= after[name]["max"]
    assert after[other] == before[other]  # only the attack's track changes

    consequences = dfn.get("consequences", 0)
    early = body.get("take_consequence_early", False)
    assert consequences <= result["consequences_after"] <= min(consequences + 1, 2)
    assert result["taken_out"] is (result["consequences_after"] >= 2)
    assert result["consequence_required"] is (result["consequence_reason"] is not None)
    assert result["consequences_after"] == consequences + int(result["consequence_required"])

    if not result["hit"] or consequences >= 2:  # a miss, or a defender already out: nothing changes
        assert after == before
        assert result["consequences_after"] == consequences and not result["consequence_required"]
    elif early:  # the consequence instead of the stress
        assert result["consequence_reason"] == "taken_early" and after == before
    elif before[track]["current"] - result["shifts"] > 0:
        assert after[track]["current"] == before[track]["current"] - result["shifts"]
        assert not result["consequence_required"]
    else:  # stress spent: a consequence, and the track refills
        assert result["consequence_reason"] == "stress_spent"
        assert after[track]["current"] == before[track]["max"]


# --- reproducibility: same seed, and events fed back as manual -------------------------------------

@pytest.mark.parametrize("operation", sorted(VALID))
@settings(max_examples=40, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data(), seed=seeds, lang=langs)
def test_same_seed_same_result_and_manual_replay(http, operation, data, seed, lang):
    body = data.draw(VALID[operation], label="body")
    path = f"/{operation}"
    status, _, first = call(http, path, {**body, "seed": seed}, lang)
    assert status == 200, first
    assert first["request"]["seed"] == seed
    status, _, again = call(http, path, {**body, "seed": seed}, lang)
    assert status == 200 and again["result"] == first["result"]
    assert again["randomness"]["events"] == first["randomness"]["events"]
    manual = manual_values(first["randomness"]["events"])
    status, _, replay = call(http, path, {**body, "manual": manual}, lang)
    assert status == 200, replay
    assert replay["randomness"]["source"] == "manual"
    assert replay["result"] == first["result"]
    assert replay["randomness"]["events"] == first["randomness"]["events"]
    assert "seed" not in replay["request"] or replay["request"]["seed"] is None


# --- invalid bodies: 4xx problem details with errors ------------------------------------------------

out_of_ladder = st.integers(21, 10**6) | st.integers(-(10**6), -11)
# No null: an optional field given as null means "not given"
# (platform-wide, tests/platform/operations/test_null_as_unset.py).
wrong_types = st.sampled_from(["3", 2.5, 3.5, True, [1], {"v": 1}])  # 3.0 is the integer 3 (JSON Schema)


@st.composite
def invalid_cases(draw):
    """(path, body, field expected in errors): one valid body with one thing made wrong."""
    kind = draw(st.sampled_from(["attack_type", "stress_above_max", "too_many_consequences",
                                 "negative_consequences", "skill_off_ladder", "wrong_type",
                                 "missing_field", "unknown_field", "early_not_bool", "stress_max_zero",
                                 "no_participants", "duplicate_names", "seed_and_manual"]))
    if kind == "attack_type":
        body = draw(attack_bodies())
        body["attacker"]["attack"] = draw(st.text(max_size=12).filter(lambda s: s not in TRACK))
        return "/attack", body, "attacker.attack"
    if kind == "stress_above_max":
        body = draw(attack_bodies())
        name = draw(st.sampled_from(["physical", "mental"]))
        track = body["defender"]["stress"][name]
        track["current"] = draw(st.integers(track["max"] + 1, track["max"] + 200))
        return "/attack", body, f"defender.stress.{name}.current"
    if kind == "stress_max_zero":
        body = draw(attack_bodies())
        body["defender"]["stress"]["mental"] = {"current": 0, "max": draw(st.integers(-5, 0))}
        return "/attack", body, "defender.stress.mental.max"
    if kind == "too_many_consequences":
        body = draw(attack_bodies())
        body["defender"]["consequences"] = draw(st.integers(3, 1000))
        return "/attack", body, "defender.consequences"
    if kind == "negative_consequences":
        body = draw(attack_bodies())
        body["defender"]["consequences"] = draw(st.integers(-1000, -1))
        return "/attack", body, "defender.consequences"
    if kind == "early_not_bool":
        body = draw(attack_bodies())
        body["take_consequence_early"] = draw(st.sampled_from(["yes", "true", 1, 0]))  # null: not given
        return "/attack", body, "take_consequence_early"
    if kind == "no_participants":
        return "/initiative", {"participants": []}, "participants"
    if kind == "duplicate_names":
        body = draw(initiative_bodies())
        body["participants"].append({"name": body["participants"][0]["name"], "intuition": 0})
        return "/initiative", body, f"participants.{len(body['participants']) - 1}.name"
    if kind == "seed_and_manual":
        return "/action", {**draw(action_bodies()), "seed": draw(seeds), "manual": [0, 0, 0, 0]}, "manual"

    # the remaining kinds pick any integer field of any operation
    operation = draw(st.sampled_from(sorted(VALID)))
    body = draw(VALID[operation])
    integer_fields = {
        "action": [("skill",), ("difficulty",), ("modifier",)],
        "contest": [("a", "skill"), ("b", "skill"), ("a", "modifier"), ("b", "modifier")],
        "initiative": [("participants", 0, "intuition")],
        "attack": [("attacker", "skill"), ("defender", "skill"), ("attacker", "modifier"),
                   ("defender", "modifier")],
    }
    required = {"action": [("skill",), ("difficulty",)], "contest": [("a",), ("b",), ("a", "skill")],
                "initiative": [("participants",), ("participants", 0, "name"),
                               ("participants", 0, "intuition")],
                "attack": [("attacker",), ("defender",), ("attacker", "attack"), ("attacker", "skill"),
                           ("defender", "stress"), ("defender", "skill"),
                           ("defender", "stress", "physical"), ("defender", "stress", "mental", "max")]}
    if kind == "missing_field":
        path = draw(st.sampled_from(required[operation]))
    else:
        path = draw(st.sampled_from(integer_fields[operation]))
    target = body
    for step in path[:-1]:
        target = target[step]
    if kind == "skill_off_ladder":
        target[path[-1]] = draw(out_of_ladder)
    elif kind == "wrong_type":
        # null for an optional field (a modifier) means "not given", which is valid
        optional = path[-1] == "modifier"
        target[path[-1]] = draw(wrong_types.filter(lambda value: value is not None or not optional))
    elif kind == "missing_field":
        del target[path[-1]]
    else:  # unknown_field: a field the schema does not know, next to a real one
        target["bonus"] = draw(st.integers())
        path = (*path[:-1], "bonus")
    return f"/{operation}", body, ".".join(str(step) for step in path)


@settings(max_examples=60, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(case=invalid_cases(), lang=langs)
def test_invalid_bodies_are_problem_details_naming_the_field(http, case, lang):
    path, body, field = case
    status, content_type, problem = call(http, path, body, lang)
    assert 400 <= status < 500, (status, problem)
    assert status == 422
    assert content_type == "application/problem+json"
    assert problem["status"] == status and problem["type"].startswith("https://")
    assert isinstance(problem["errors"], dict) and problem["errors"]
    assert field in problem["errors"], (field, problem["errors"])
    assert "result" not in problem and "Traceback" not in str(problem)


@settings(max_examples=40, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(operation=st.sampled_from(sorted(VALID)),
       body=st.one_of(st.lists(st.integers(), max_size=3), st.integers(), st.text(max_size=5), st.none()))
def test_non_object_bodies_are_refused(http, operation, body):
    status, content_type, problem = call(http, f"/{operation}", body)
    assert 400 <= status < 500 and content_type == "application/problem+json"
    assert problem["errors"]


# --- sampling against exact odds: chi-square at p < 1e-6 --------------------------------------------

def chi_square_p(counts: dict, exact: dict) -> float:
    """Pearson's chi-square of sampled ``counts`` against ``exact`` probabilities (summing to 1).
    Outcomes with an expected count below 5 are pooled into one bin; an outcome of probability 0 that
    was sampled fails at once."""
    trials = sum(counts.values())
    assert sum(exact.values()) == 1
    impossible = {k: n for k, n in counts.items() if not exact.get(k)}
    assert not impossible, f"sampled outcomes the exact odds call impossible: {impossible}"
    bins, pooled_o, pooled_e = [], 0, 0.0
    for outcome, p in exact.items():
        expected = trials * float(p)
        if expected == 0:
            continue
        if expected < 5:
            pooled_o += counts.get(outcome, 0)
            pooled_e += expected
        else:
            bins.append((counts.get(outcome, 0), expected))
    if pooled_e:
        bins.append((pooled_o, pooled_e))
    if len(bins) < 2:
        return 1.0
    statistic = sum((o - e) ** 2 / e for o, e in bins)
    return chi2_sf(statistic, len(bins) - 1)


STRICT = 1e-6
TRIALS = 20000


def sample(run, seed: int, trials: int = TRIALS) -> dict:
    rng = random.Random(seed)
    counts: dict = {}
    for _ in range(trials):
        outcome = run(GeneratorSource(rng, "seeded"))
        counts[outcome] = counts.get(outcome, 0) + 1
    return counts


def test_chi2_survival_function_against_known_values():
    assert chi2_sf(3.841458820694124, 1) == pytest.approx(0.05, rel=1e-9)
    assert chi2_sf(10.0, 2) == pytest.approx(math.exp(-5), rel=1e-12)  # df 2: exp(-x/2)
    assert chi2_sf(1.0, 4) == pytest.approx(math.exp(-0.5) * 1.5, rel=1e-12)  # df 4: e^-x/2 (1 + x/2)
    assert chi2_sf(16.918977604620448, 9) == pytest.approx(0.05, rel=1e-9)
    assert chi2_sf(0.0, 3) == 1.0 and chi2_sf(500.0, 3) < 1e-100


def test_the_chi_square_check_rejects_a_wrong_distribution():
    """Power: the same samples against slightly wrong odds (3/100 moved from total 2 to total 3) are
    rejected, and a total the odds call impossible fails at once."""
    counts = sample(lambda s: rules.action(2, 3, s).total, seed=1)
    right = {2 + v: p for v, p in odds.fudge_sum(4).items()}
    wrong = {**right, 2: right[2] - Fraction(3, 100), 3: right[3] + Fraction(3, 100)}
    assert chi_square_p(counts, right) >= STRICT
    assert chi_square_p(counts, wrong) < STRICT
    shifted = {3 + v: p for v, p in odds.fudge_sum(4).items()}
    with pytest.raises(AssertionError, match="impossible"):
        chi_square_p(counts, shifted)


def eight_dice_margin() -> dict[int, Fraction]:
    """Distribution of (4dF) − (4dF), by enumerating all 3**8 faces (independent of odds.py)."""
    out: dict[int, Fraction] = {}
    for faces in product((-1, 0, 1), repeat=8):
        margin = sum(faces[:4]) - sum(faces[4:])
        out[margin] = out.get(margin, 0) + Fraction(1, 3**8)
    return out


MARGIN = eight_dice_margin()


@pytest.mark.parametrize("skill,difficulty,modifier,seed", [(2, 3, 0, 101), (1, 1, 2, 102), (5, 2, -1, 103)])
def test_action_total_and_shifts_distribution_by_sampling(skill, difficulty, modifier, seed):
    exact = odds.action(skill, difficulty, modifier=modifier)
    totals = sample(lambda s: rules.action(skill, difficulty, s, modifier=modifier).total, seed)
    assert chi_square_p(totals, exact.distributions["total"]) >= STRICT, totals
    shifts = {}
    for total, n in totals.items():
        shifts[max(total - difficulty, 0)] = shifts.get(max(total - difficulty, 0), 0) + n
    assert chi_square_p(shifts, exact.distributions["shifts"]) >= STRICT, shifts


@pytest.mark.parametrize("a,b,seed", [((2, 1), (3, 0), 201), ((0, 0), (4, 0), 202), ((1, -1), (-1, 2), 203)])
def test_contest_margin_and_winner_by_sampling(a, b, seed):
    exact = odds.contest(Contender(*a), Contender(*b))
    assert exact.distributions["margin"] == {a[0] + a[1] - b[0] - b[1] + m: p for m, p in MARGIN.items()}

    def run(source):
        result = rules.contest(Contender(*a), Contender(*b), source)
        return result.a.total - result.b.total, result.winner or "tie"

    counts = sample(run, seed)
    margins, winners = {}, {}
    for (margin, winner), n in counts.items():
        assert winner == ("a" if margin >= 1 else "b" if margin <= -1 else "tie")
        margins[margin] = margins.get(margin, 0) + n
        winners[winner] = winners.get(winner, 0) + n
    assert chi_square_p(margins, exact.distributions["margin"]) >= STRICT, margins
    assert chi_square_p(winners, exact.outcomes) >= STRICT, winners


def reference_attack(shifts: int, current: int, maximum: int, consequences: int, early: bool):
    """Ruling 5 once more: (shifts, reason, track current after, consequences after)."""
    if shifts < 1 or consequences >= 2:
        return shifts, None, current, consequences
    if early:
        return shifts, "taken_early", current, consequences + 1
    if current - shifts > 0:
        return shifts, None, current - shifts, consequences
    return shifts, "stress_spent", maximum, consequences + 1


ATTACK_SAMPLED = [
    # attacker skill, attack, defender skill, physical (current, max), mental (current, max),
    # consequences, take_consequence_early, seed
    (3, "harm", 2, (2, 4), (3, 3), 0, True, 301),
    (2, "charm", 2, (4, 4), (1, 3), 1, True, 302),
    (3, "push", 1, (3, 5), (2, 2), 1, False, 303),
    (4, "intimidate", 2, (5, 5), (3, 4), 0, False, 304),
    (1, "deceive", 1, (2, 2), (0, 3), 1, False, 305),
    (2, "persuade", 0, (2, 2), (2, 2), 2, True, 306),
]


@pytest.mark.parametrize("att,kind,dfn,physical,mental,consequences,early,seed", ATTACK_SAMPLED)
def test_attack_with_consequences_by_sampling(att, kind, dfn, physical, mental, consequences, early, seed):
    """The whole dice-free part of the result (shifts, reason, stress after, consequences, taken out)
    against exact odds derived from the 8dF margin, and the outcomes against odds.attack."""
    attack = AttackType(kind)
    stress = Stress(StressTrack(*physical), StressTrack(*mental))
    defender = Defender(dfn, stress, consequences)
    track = TRACK[kind]
    current, maximum = physical if track == "physical" else mental

    exact: dict = {}
    outcome_odds: dict = {}
    for margin, p in MARGIN.items():
        key = reference_attack(max(att - dfn + margin, 0), current, maximum, consequences, early)
        exact[key] = exact.get(key, 0) + p
        shifts, reason, _, after = key
        outcome = "taken_out" if after >= 2 else "consequence" if reason else "hit" if shifts else "miss"
        outcome_odds[outcome] = outcome_odds.get(outcome, 0) + p
    ours = odds.attack(Attacker(att, attack), defender, take_consequence_early=early)
    assert {k: v for k, v in ours.outcomes.items() if v} == outcome_odds

    def run(source):
        result = rules.attack(Attacker(att, attack), defender, source, take_consequence_early=early)
        assert result.track.value == track
        assert result.stress_after.track(rules.Track("mental" if track == "physical" else "physical")) \
            == stress.track(rules.Track("mental" if track == "physical" else "physical"))
        assert result.taken_out is (result.consequences_after >= 2)
        reason = result.consequence_reason.value if result.consequence_reason else None
        return (result.shifts, reason, result.stress_after.track(result.track).current,
                result.consequences_after)

    counts = sample(run, seed)
    assert chi_square_p(counts, exact) >= STRICT, counts
    outcomes = {}
    for (shifts, reason, _, after), n in counts.items():
        outcome = "taken_out" if after >= 2 else "consequence" if reason else "hit" if shifts else "miss"
        outcomes[outcome] = outcomes.get(outcome, 0) + n
    assert chi_square_p(outcomes, ours.outcomes) >= STRICT, outcomes


def test_initiative_roll_off_rounds_follow_the_tie_probability():
    """Two equal intuitions: the totals tie with q = P(4dF = 4dF); each roll-off ties again with q.
    So the number of roll-off rounds R has P(R = k) = q^k (1 − q) for k < 20 and P(R = 20) = q^20."""
    q = MARGIN[0]
    exact = {k: q**k * (1 - q) for k in range(rules.MAX_ROLL_OFF_ROUNDS)}
    exact[rules.MAX_ROLL_OFF_ROUNDS] = q**rules.MAX_ROLL_OFF_ROUNDS
    people = [Participant("A", 2), Participant("B", 2)]

    def run(source):
        result = rules.initiative(people, source)
        rounds = {len(entry.roll_offs) for entry in result.order}
        assert len(rounds) == 1 and len(source.events) == 2 + 2 * rounds.copy().pop()
        return rounds.pop()

    counts = sample(run, seed=401)
    assert chi_square_p(counts, exact) >= STRICT, counts


def reference_order(people: list[tuple[str, int]]) -> dict[tuple[str, ...], Fraction]:
    """Exact distribution of the whole initiative order under ruling 4 by enumerating every 4dF sum:
    total, then intuition, then roll-offs, which order a tied group uniformly. (The 20-round cap
    favours the request order only with probability below q**20 < 1e-15: negligible here.)"""
    four = odds.fudge_sum(4)
    out: dict[tuple[str, ...], Fraction] = {}
    for sums in product(sorted(four), repeat=len(people)):
        p = Fraction(1)
        for value in sums:
            p *= four[value]
        keyed = [(intuition + value, intuition, name) for (name, intuition), value in zip(people, sums)]
        groups: dict = {}
        for total, intuition, name in keyed:
            groups.setdefault((total, intuition), []).append(name)
        ordered = [groups[key] for key in sorted(groups, reverse=True)]
        arrangements = [list(permutations(group)) for group in ordered]
        weight = p / math.prod(len(a) for a in arrangements)
        for choice in product(*arrangements):
            order = tuple(name for group in choice for name in group)
            out[order] = out.get(order, 0) + weight
    return out


@pytest.mark.parametrize("people,seed", [
    ([("A", 1), ("B", 1), ("C", 0), ("D", 1)], 501),
    ([("A", 0), ("B", 0), ("C", 0)], 502),
    ([("A", 2), ("B", 0), ("C", 1), ("D", 0)], 503),
])
def test_initiative_whole_order_with_ties_by_sampling(people, seed):
    exact = reference_order(people)
    participants = [Participant(name, intuition) for name, intuition in people]
    counts = sample(lambda s: tuple(entry.name for entry in rules.initiative(participants, s).order), seed)
    assert chi_square_p(counts, exact) >= STRICT, counts
    first = {}
    for order, p in exact.items():
        first[f"first:{order[0]}"] = first.get(f"first:{order[0]}", 0) + p
    ours = odds.initiative(participants).outcomes
    for name, p in first.items():  # the exact odds differ from uniform tie-breaking only by the cap
        assert abs(ours[name] - p) < Fraction(1, 10**12), name
    sampled_first = {}
    for order, n in counts.items():
        sampled_first[f"first:{order[0]}"] = sampled_first.get(f"first:{order[0]}", 0) + n
    assert chi_square_p(sampled_first, ours) >= STRICT, sampled_first
