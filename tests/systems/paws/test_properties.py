"""Property tests for Paws over HTTP, and seeded sampling of the rules against the exact odds.

Part 1: any valid body gives a 200 that obeys the rules (API.md §3, RULINGS.md "Paws"); any invalid one
(generated mutations of a valid body) a 422 problem with ``errors``; the same seed gives the same result
and the recorded events fed back as ``manual`` reproduce it. The pool formula and every invariant are
computed here independently of ``service.systems.paws``.

Part 2: seeded sampling (fixed seeds, so it cannot flake) of the operations and distributions that
test_odds.py does not sample yet: the group's rescue dice, the test's ``successes``/``effects``
distributions and further pools, further comparisons. Each is a chi-square goodness-of-fit test that
rejects at p < 1e-6; the chi-square survival function is computed here (scipy is not a dependency).
"""

from __future__ import annotations

import math
import random
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from service.platform.dice.randomness import GeneratorSource, manual_values
from service.systems.paws import odds, rules
from service.systems.paws.rules import Advantage, Advantages, Fit, Mode, Pool
from tests.stats import chi_square_sf as chi2_sf

SETTINGS = settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])

CATEGORIES = ("equipment", "personal", "situation")
FITS = {"fallback": -1, "matching": 0, "specialized": 1}
PROBLEM = "application/problem+json"
SEEDS = st.integers(0, 2**53 - 1)  # the service refuses larger seeds: they are not exact in JSON


# --- the pool, independently of the system code -------------------------------------------------

def dice_of(pool: dict) -> int:
    """rank + fit + active advantages + extra bonus dice - wounds - penalty dice, not below 0 (API.md §3,
    rulings 5 and 9)."""
    advantages = pool.get("advantages") or {}
    active = sum(1 for value in advantages.values() if value == "active")
    gross = pool["rank"] + FITS[pool.get("fit", "matching")] + active + pool.get("extra_bonus_dice", 0)
    return max(0, gross - pool.get("wounds", 0) - pool.get("penalty_dice", 0))


def rescue_dice_of(pool: dict) -> int:
    advantages = pool.get("advantages") or {}
    return sum(1 for value in advantages.values() if value == "passive") + pool.get("extra_rescue_dice", 0)


def hits(faces: list[int]) -> int:
    return sum(1 for face in faces if 4 <= face <= 6)


def all_ones(faces: list[int]) -> bool:
    return bool(faces) and all(face == 1 for face in faces)


# --- strategies for valid bodies ----------------------------------------------------------------

NAMES = st.text(min_size=1, max_size=20)


@st.composite
def pools(draw):
    pool: dict = {"rank": draw(st.integers(0, 10))}
    if draw(st.booleans()):
        pool["fit"] = draw(st.sampled_from(sorted(FITS)))
    if draw(st.booleans()):
        advantages = {}
        for category in CATEGORIES:
            choice = draw(st.sampled_from(["omit", None, "active", "passive"]))
            if choice != "omit":
                advantages[category] = choice
        pool["advantages"] = advantages
    for field, most in (("extra_bonus_dice", 12), ("extra_rescue_dice", 4), ("wounds", 16)):
        if draw(st.booleans()):
            pool[field] = draw(st.integers(0, most))
    if draw(st.booleans()):
        pool["name"] = draw(NAMES)
    return pool


@st.composite
def faces(draw, count: int) -> list[int]:
    """``count`` d6 faces, often all ones or all failures so catastrophes and rescues are explored."""
    style = draw(st.sampled_from(["any", "ones", "low", "high"]))
    face = {"any": st.integers(1, 6), "ones": st.just(1), "low": st.integers(1, 3), "high": st.integers(4, 6)}[style]
    return draw(st.lists(face, min_size=count, max_size=count))


@st.composite
def manual_test_bodies(draw):
    """A test body with ``manual`` faces: exactly the dice the pool formula rolls, then the rescue dice
    when the test failed (ruling 3)."""
    pool = draw(pools())
    rolled = draw(faces(dice_of(pool)))
    values = list(rolled)
    if hits(rolled) == 0 and rescue_dice_of(pool):
        values += draw(faces(rescue_dice_of(pool)))
    return {**pool, "manual": values}


def _leader(a_successes: int, b_successes: int, mode: str) -> tuple[str | None, int]:
    if a_successes > b_successes:
        return "a", a_successes - b_successes
    if b_successes > a_successes and mode == "contest":
        return "b", b_successes - a_successes
    return None, 0


@st.composite
def comparison_bodies(draw, mode=None):
    body = {"a": draw(pools()), "b": draw(pools())}
    chosen = draw(st.sampled_from(["contest", "defense"])) if mode is None else mode
    if chosen != "contest" or draw(st.booleans()):  # contest is the default
        body["mode"] = chosen
    return body


@st.composite
def manual_comparison_bodies(draw):
    body = draw(comparison_bodies())
    a_faces, b_faces = draw(faces(dice_of(body["a"]))), draw(faces(dice_of(body["b"])))
    values = a_faces + b_faces
    leader, _ = _leader(hits(a_faces), hits(b_faces), body.get("mode", "contest"))
    if leader is not None:
        loser = body["b" if leader == "a" else "a"]
        values += draw(faces(rescue_dice_of(loser)))
    return {**body, "manual": values}


@st.composite
def characters(draw):
    category_names = draw(st.lists(st.sampled_from(["Magie", "Kampf", "Wissen"]), unique=True, max_size=3))
    body: dict = {"potential": draw(st.integers(1, 10)), "power": draw(st.integers(0, 40))}
    if category_names or draw(st.booleans()):
        # ruling 6: a category sets its potential, its power, both or neither
        body["categories"] = [{"name": name,
                               **({"potential": draw(st.integers(1, 10))} if draw(st.booleans()) else {}),
                               **({"power": draw(st.integers(0, 20))} if draw(st.booleans()) else {})}
                              for name in category_names]
    traits = []
    for _ in range(draw(st.integers(0, 8))):
        trait: dict = {"name": draw(st.sampled_from(["stark", "klug", "flink", "feige", "gierig", "zäh"])),
                       "rank": draw(st.integers(1, 10))}
        if draw(st.booleans()):
            trait["bad"] = draw(st.booleans())
        category = draw(st.sampled_from([None, *category_names]))
        if category is not None:  # an explicit null category is refused (Name is not nullable)
            trait["category"] = category
        traits.append(trait)
    body["traits"] = traits
    return body


# --- invariants -----------------------------------------------------------------------------------

def check_test(body: dict, result: dict) -> None:
    dice, rescue_dice = dice_of(body), rescue_dice_of(body)
    assert result["pool"] == {"dice": dice, "rescue_dice": rescue_dice}
    rolled = result["dice"]
    assert len(rolled) == dice and all(1 <= face <= 6 for face in rolled)
    assert result["successes"] == hits(rolled) <= dice
    assert result["success"] == (result["successes"] >= 1)
    assert result["effects"] == (max(0, result["successes"] - 1) if result["success"] else 0)
    rescue = result["rescue"]
    if result["successes"] == 0 and rescue_dice:
        assert rescue is not None
        assert len(rescue["dice"]) == rescue_dice and all(1 <= face <= 6 for face in rescue["dice"])
        assert rescue["successes"] == hits(rescue["dice"])
        assert rescue["rescued"] == (all_ones(rolled) and rescue["successes"] >= 1)
        # ruling 3: every success not spent on the catastrophe averts one negative effect
        assert rescue["averted"] == rescue["successes"] - rescue["rescued"]
    else:
        assert rescue is None  # rescue dice are rolled only after a failed test
    assert not (rescue is not None and result["success"])  # rescue never turns failure into success
    averted = rescue is not None and rescue["rescued"]
    assert result["catastrophe"] == (all_ones(rolled) and not averted)
    assert not (result["catastrophe"] and result["success"])
    # ruling 7: the GM narrates a success, the acting player a failure
    assert result["narrator"] == ("gm" if result["success"] else body.get("name") or "player")


def check_comparison(body: dict, result: dict) -> None:
    mode = body.get("mode", "contest")
    assert result["mode"] == mode
    for key in "ab":
        side, pool = result[key], body[key]
        assert side["name"] == pool.get("name")
        assert side["pool"] == {"dice": dice_of(pool), "rescue_dice": rescue_dice_of(pool)}
        assert len(side["dice"]) == dice_of(pool) and all(1 <= face <= 6 for face in side["dice"])
        assert side["successes"] == hits(side["dice"]) <= dice_of(pool)
        averted = side["rescue"] is not None and side["rescue"]["catastrophe_averted"]
        other = result["b" if key == "a" else "a"]
        # ruling 8: only the loser suffers a catastrophe (a repelled attacker loses to more defender successes)
        lost = (result["winner"] not in (None, key)) or (
            mode == "defense" and key == "a" and result["winner"] is None and other["successes"] > side["successes"])
        assert side["catastrophe"] == (lost and all_ones(side["dice"]) and not averted)
    a_successes, b_successes = result["a"]["successes"], result["b"]["successes"]
    leader, gross = _leader(a_successes, b_successes, mode)
    loser = {"a": "b", "b": "a", None: None}[leader]
    cancelled = 0
    for key in "ab":
        rescue = result[key]["rescue"]
        if key == loser and rescue_dice_of(body[key]):
            assert rescue is not None
            assert len(rescue["dice"]) == rescue_dice_of(body[key])
            assert rescue["successes"] == hits(rescue["dice"])
            catastrophe = all_ones(result[key]["dice"])
            # ruling 3: a tie when the successes reach the lead (and the catastrophe is gone with it);
            # short of that the first success averts a catastrophe and the others cancel
            rescued = rescue["successes"] >= gross
            averting = catastrophe and not rescued and rescue["successes"] >= 1
            assert rescue["rescued"] == rescued
            assert rescue["cancelled"] == (gross if rescued else rescue["successes"] - averting)
            assert rescue["catastrophe_averted"] == (catastrophe and (rescued or averting))
            cancelled = rescue["cancelled"]
            assert result["winner"] != key  # a rescue never produces a win
        else:
            assert rescue is None  # only the loser rolls rescue dice
    assert result["net"] == gross - cancelled >= 0
    assert result["winner"] == (leader if result["net"] else None)
    if result["winner"] is not None:
        other = "b" if result["winner"] == "a" else "a"
        assert result[result["winner"]]["successes"] > result[other]["successes"]
        assert result["net"] <= result[result["winner"]]["successes"] - result[other]["successes"]
    else:
        assert result["net"] == 0
    assert result["effects"] == max(0, result["net"] - 1)
    # ruling 7: the loser narrates (a repelled attack: the attacker), the GM a tie
    if result["winner"] is None and mode == "defense":
        assert result["narrator"] == (body["a"].get("name") or "a")
    elif result["winner"] is None:
        assert result["narrator"] == "gm"
    else:
        loser = "b" if result["winner"] == "a" else "a"
        assert result["narrator"] == (body[loser].get("name") or loser)
    if mode == "defense":
        assert result["winner"] != "b"  # the defender never wins
        assert result["attack_lands"] == (result["winner"] == "a") == (result["net"] >= 1)
    else:
        assert result["attack_lands"] is None


def rolled_in_order_test(result: dict) -> list[int]:
    return result["dice"] + (result["rescue"]["dice"] if result["rescue"] else [])


def rolled_in_order_comparison(result: dict) -> list[int]:
    """a, then b, then the loser's rescue dice."""
    rescues = [result[key]["rescue"]["dice"] for key in "ab" if result[key]["rescue"]]
    return result["a"]["dice"] + result["b"]["dice"] + [face for dice in rescues for face in dice]


def check_envelope(response: dict, operation: str, source: str) -> None:
    assert response["operation"] == operation
    assert response["randomness"]["source"] == source
    assert all(event["kind"] == "d6" and event["values"] for event in response["randomness"]["events"])
    assert isinstance(response["summary"], str) and response["summary"]
    assert response["receipt"]["signature"]


def check_seed_and_replay(http, path: str, body: dict, response: dict) -> None:
    """The same seed gives the same result; the recorded events fed back as ``manual`` (no seed) too."""
    status, _, again = http(path, body)
    assert status == 200 and again["result"] == response["result"]
    replay = {key: value for key, value in body.items() if key != "seed"}
    replay["manual"] = manual_values(response["randomness"]["events"])
    status, _, replayed = http(path, replay)
    assert status == 200, replayed
    assert replayed["randomness"]["source"] == "manual"
    assert replayed["result"] == response["result"]


# --- valid bodies ---------------------------------------------------------------------------------

@SETTINGS
@given(pool=pools(), seed=SEEDS)
def test_any_seeded_test_obeys_the_rules_and_replays(http, pool, seed):
    body = {**pool, "seed": seed}
    status, media, response = http("/v1/paws/test", body)
    assert status == 200, response
    assert media == "application/json"
    check_envelope(response, "paws.test", "seeded")
    check_test(pool, response["result"])
    assert manual_values(response["randomness"]["events"]) == rolled_in_order_test(response["result"])
    check_seed_and_replay(http, "/v1/paws/test", body, response)


@SETTINGS
@given(body=manual_test_bodies())
def test_any_manual_test_obeys_the_rules(http, body):
    status, _, response = http("/v1/paws/test", body)
    assert status == 200, response
    check_envelope(response, "paws.test", "manual")
    check_test(body, response["result"])
    assert rolled_in_order_test(response["result"]) == body["manual"]


@SETTINGS
@given(body=comparison_bodies(), seed=SEEDS)
def test_any_seeded_comparison_obeys_the_rules_and_replays(http, body, seed):
    body = {**body, "seed": seed}
    status, _, response = http("/v1/paws/comparison", body)
    assert status == 200, response
    check_envelope(response, "paws.comparison", "seeded")
    check_comparison(body, response["result"])
    assert manual_values(response["randomness"]["events"]) == rolled_in_order_comparison(response["result"])
    check_seed_and_replay(http, "/v1/paws/comparison", body, response)


@SETTINGS
@given(body=manual_comparison_bodies())
def test_any_manual_comparison_obeys_the_rules(http, body):
    status, _, response = http("/v1/paws/comparison", body)
    assert status == 200, response
    check_envelope(response, "paws.comparison", "manual")
    check_comparison(body, response["result"])
    assert rolled_in_order_comparison(response["result"]) == body["manual"]


@settings(SETTINGS, max_examples=40)
@given(body=comparison_bodies(mode="defense"), seed=SEEDS)
def test_the_defender_never_wins(http, body, seed):
    # Make b stronger than a: b still never wins, more successes only repel the attack.
    body = {**body, "b": {**body["b"], "extra_bonus_dice": body["b"].get("extra_bonus_dice", 0) + 6}}
    status, _, response = http("/v1/paws/comparison", {**body, "seed": seed})
    assert status == 200, response
    check_comparison(body, response["result"])


@SETTINGS
@given(dice=st.integers(1, 100), seed=SEEDS, data=st.data())
def test_any_group_rescue_obeys_the_rules_and_replays(http, dice, seed, data):
    body = {"dice": dice, "seed": seed}
    status, _, response = http("/v1/paws/rescue", body)
    assert status == 200, response
    check_envelope(response, "paws.rescue", "seeded")
    result = response["result"]
    assert len(result["dice"]) == dice and all(1 <= face <= 6 for face in result["dice"])
    assert result["successes"] == hits(result["dice"]) <= dice
    assert manual_values(response["randomness"]["events"]) == result["dice"]
    check_seed_and_replay(http, "/v1/paws/rescue", body, response)
    rolled = data.draw(faces(dice))
    status, _, manual = http("/v1/paws/rescue", {"dice": dice, "manual": rolled})
    assert status == 200 and manual["result"] == {"dice": rolled, "successes": hits(rolled)}


def expected_character(body: dict) -> tuple[bool, int]:
    """Ruling 6, independently: (valid, power used of the traits the character's power governs).
    What a category does not set, the character's value governs."""
    categories = {category["name"]: category for category in body.get("categories", [])}
    names = [trait["name"] for trait in body["traits"]]
    valid = len(names) == len(set(names))
    for trait in body["traits"]:
        own = categories.get(trait.get("category"), {}).get("potential")
        valid = valid and trait["rank"] <= (own if own is not None else body["potential"])

    def used(category_names):
        return sum(-trait["rank"] if trait.get("bad") else trait["rank"]
                   for trait in body["traits"] if trait.get("category") in category_names)

    governed = [None, *(name for name, category in categories.items() if "power" not in category)]
    valid = valid and used(governed) <= body["power"]
    valid = valid and all(used([name]) <= category["power"]
                          for name, category in categories.items() if "power" in category)
    return valid, used(governed)


@SETTINGS
@given(body=characters(), lang=st.sampled_from(["en", "de"]))
def test_any_character_is_valid_iff_it_has_no_problems(http, body, lang):
    status, _, response = http(f"/v1/paws/validate-character?lang={lang}", body)
    assert status == 200, response
    assert "randomness" not in response
    result = response["result"]
    assert result["valid"] == (result["problems"] == [])
    assert len(result["issues"]) == len(result["problems"])
    assert all(isinstance(problem, str) and problem for problem in result["problems"])
    assert (result["valid"], result["power_used"]) == expected_character(body)
    assert [use["name"] for use in result["categories"]] == [c["name"] for c in body.get("categories", [])]


# --- invalid bodies -------------------------------------------------------------------------------

# No null: an optional field given as null means "not given"
# (platform-wide, tests/platform/operations/test_null_as_unset.py).
WRONG_TYPES = st.one_of(
    st.text(max_size=5), st.booleans(), st.lists(st.integers(0, 3), max_size=2),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
    st.floats(allow_nan=False, allow_infinity=False).filter(lambda x: not x.is_integer()),  # 2.0 is 2
)
OUT_OF_RANK = st.one_of(st.integers(max_value=-1, min_value=-2**40), st.integers(min_value=11, max_value=2**64))
NEGATIVE = st.integers(min_value=-2**40, max_value=-1)


@st.composite
def broken_pool(draw, pool: dict) -> tuple[dict, str]:
    """A valid pool with one mistake, and the field path the 422 must name."""
    pool = dict(pool)
    kind = draw(st.sampled_from(["rank range", "rank missing", "unknown fit", "two advantages",
                                 "unknown category", "wrong type", "negative", "unknown field",
                                 "over the limit"]))
    if kind == "rank range":
        pool["rank"] = draw(OUT_OF_RANK)
        return pool, "rank"
    if kind == "rank missing":
        del pool["rank"]
        return pool, "rank"
    if kind == "unknown fit":
        pool["fit"] = draw(st.text(max_size=12).filter(lambda fit: fit not in FITS))
        return pool, "fit"
    if kind == "two advantages":
        category = draw(st.sampled_from(CATEGORIES))
        two = draw(st.sampled_from([["active", "passive"], ["active", "active"], ["passive", "passive"],
                                    "active+passive", "active,passive", {"active": 1, "passive": 1}]))
        pool["advantages"] = {**(pool.get("advantages") or {}), category: two}
        return pool, f"advantages.{category}"
    if kind == "unknown category":
        category = draw(st.text(min_size=1, max_size=10).filter(lambda name: name not in CATEGORIES))
        pool["advantages"] = {**(pool.get("advantages") or {}), category: "active"}
        return pool, "advantages"
    if kind == "wrong type":
        field = draw(st.sampled_from(["rank", "extra_bonus_dice", "extra_rescue_dice", "wounds", "fit",
                                      "advantages", "name"]))
        value = draw(WRONG_TYPES)
        assume(value is not None or field == "rank")  # null for an optional field means "not given"
        if field == "fit":
            assume(value not in tuple(FITS))
        if field == "advantages":
            assume(not isinstance(value, dict) and value is not None)
        if field == "name":
            assume(not isinstance(value, str) or value == "")
        if field in ("rank", "extra_bonus_dice", "extra_rescue_dice", "wounds"):
            assume(not (isinstance(value, int) and not isinstance(value, bool)))
        pool[field] = value
        return pool, field
    if kind == "negative":
        field = draw(st.sampled_from(["wounds", "extra_bonus_dice", "extra_rescue_dice"]))
        pool[field] = draw(NEGATIVE)
        return pool, field
    if kind == "unknown field":
        field = draw(st.sampled_from(["colour", "dice", "bonus", "Rank", "advantage"]))
        pool[field] = 1
        return pool, field
    # over the limit: more than 100 dice rolled or more than 100 rescue dice
    field = draw(st.sampled_from(["extra_bonus_dice", "extra_rescue_dice"]))
    pool[field] = 101
    return pool, field


@st.composite
def broken_requests(draw) -> tuple[str, dict, str]:
    operation = draw(st.sampled_from(["test", "comparison", "rescue", "validate-character", "randomness"]))
    if operation == "test":
        body, field = draw(broken_pool(draw(pools())))
        return "/v1/paws/test", body, field
    if operation == "comparison":
        body = draw(comparison_bodies())
        kind = draw(st.sampled_from(["side", "side", "missing side", "mode"]))
        if kind == "side":
            key = draw(st.sampled_from("ab"))
            body[key], field = draw(broken_pool(body[key]))
            return "/v1/paws/comparison", body, f"{key}.{field}"
        if kind == "missing side":
            key = draw(st.sampled_from("ab"))
            del body[key]
            return "/v1/paws/comparison", body, key
        body["mode"] = draw(st.one_of(st.text(max_size=10), WRONG_TYPES)
                            .filter(lambda m: m not in ("contest", "defense")))
        return "/v1/paws/comparison", body, "mode"
    if operation == "rescue":
        dice = draw(st.one_of(st.integers(-2**40, 0), st.integers(101, 2**64), WRONG_TYPES, st.just("missing")))
        return "/v1/paws/rescue", ({} if dice == "missing" else {"dice": dice}), "dice"
    if operation == "validate-character":
        body = draw(characters())
        kind = draw(st.sampled_from(["potential", "power", "traits", "trait rank", "trait category"]))
        if kind == "potential":
            body["potential"] = draw(st.one_of(st.integers(-100, 0), st.integers(11, 10**6), WRONG_TYPES))
            return "/v1/paws/validate-character", body, "potential"
        if kind == "power":
            body["power"] = draw(st.one_of(NEGATIVE, st.integers(1001, 10**9), WRONG_TYPES))
            return "/v1/paws/validate-character", body, "power"
        if kind == "traits":
            del body["traits"]
            return "/v1/paws/validate-character", body, "traits"
        body["traits"] = body["traits"] or [{"name": "stark", "rank": 1}]
        index = draw(st.integers(0, len(body["traits"]) - 1))
        trait = dict(body["traits"][index])
        if kind == "trait rank":
            trait["rank"] = draw(st.one_of(st.integers(-100, 0), st.integers(11, 1000), WRONG_TYPES))
            body["traits"][index] = trait
            return "/v1/paws/validate-character", body, f"traits.{index}.rank"
        trait["category"] = "Unbekannt"
        body["traits"][index] = trait
        return "/v1/paws/validate-character", body, f"traits.{index}.category"
    # randomness: a bad seed, seed and manual together, or manual that does not fit the pool
    pool = draw(pools())
    kind = draw(st.sampled_from(["seed", "both", "too few", "too many", "bad face"]))
    dice = dice_of(pool)
    if kind == "seed":
        pool["seed"] = draw(st.one_of(NEGATIVE, st.integers(2**63, 2**64), st.text(max_size=5), st.floats(0.5, 9.5)))
        return "/v1/paws/test", pool, "seed"
    if kind == "both":
        return "/v1/paws/test", {**pool, "seed": 1, "manual": [4] * dice}, "manual"
    if kind == "too few":
        assume(dice >= 1)
        return "/v1/paws/test", {**pool, "manual": [4] * (dice - 1)}, "manual"
    if kind == "too many":
        assume(dice >= 1 or not rescue_dice_of(pool))  # 0 dice and a failure: the rescue dice take values
        return "/v1/paws/test", {**pool, "manual": [4] * (dice + 1)}, f"manual.{dice}"
    assume(dice >= 1)
    index = draw(st.integers(0, dice - 1))
    manual = [4] * dice
    manual[index] = draw(st.sampled_from([0, 7, -1, 100]))
    return "/v1/paws/test", {**pool, "manual": manual}, f"manual.{index}"


@settings(SETTINGS, max_examples=60)
@given(request=broken_requests())
def test_any_invalid_body_is_a_422_problem_naming_the_field(http, request):
    path, body, field = request
    status, media, problem = http(path, body)
    assert 400 <= status < 500, (status, problem)
    assert status == 422, problem
    assert media == PROBLEM
    assert problem["status"] == status and problem["type"].startswith("https://wurfwerk.dev/problems/")
    assert isinstance(problem["errors"], dict) and problem["errors"]
    assert any(path == field or path.startswith(field + ".") for path in problem["errors"]), problem["errors"]


# --- sampling against the exact odds --------------------------------------------------------------

SAMPLES = 12_000
REJECT_BELOW = 1e-6


@pytest.mark.parametrize("statistic, degrees, expected", [
    (3.841458820694124, 1, 0.05), (6.634896601021214, 1, 0.01), (18.307038053275146, 10, 0.05),
    (2.0, 2, math.exp(-1)), (40.0, 2, math.exp(-20)), (0.5, 3, 0.9188914117),
    (124.342113404, 100, 0.05), (30.0, 4, 4.894437128e-06),
])
def test_chi2_survival_function(statistic, degrees, expected):
    assert chi2_sf(statistic, degrees) == pytest.approx(expected, rel=1e-6)


def chi_square_p(observed: Counter, exact: dict, samples: int = SAMPLES) -> float:
    """Goodness of fit of ``observed`` counts to the exact distribution; cells expecting fewer than 5
    are pooled with their neighbours (in the order of the keys). A count in a cell of probability 0
    gives p = 0."""
    assert sum(observed.values()) == samples
    assert sum(exact.values()) == 1
    if any(exact.get(key, 0) == 0 for key, count in observed.items() if count):
        return 0.0
    bins: list[list[float]] = []  # [expected, observed]
    current = [0.0, 0.0]
    for key in sorted(exact, key=str):
        current[0] += float(exact[key]) * samples
        current[1] += observed.get(key, 0)
        if current[0] >= 5:
            bins.append(current)
            current = [0.0, 0.0]
    if current[0] or current[1]:
        if bins:
            bins[-1][0] += current[0]
            bins[-1][1] += current[1]
        else:
            bins.append(current)
    if len(bins) < 2:
        return 1.0
    statistic = sum((seen - expected) ** 2 / expected for expected, seen in bins)
    return chi2_sf(statistic, len(bins) - 1)


def assert_fits(observed: Counter, exact: dict, what: str) -> None:
    p = chi_square_p(observed, exact)
    assert p >= REJECT_BELOW, (what, p, dict(observed), {key: float(value) for key, value in exact.items()})


def source(seed: int) -> GeneratorSource:
    return GeneratorSource(random.Random(seed), "seeded")


def sized(dice: int, rescue: int = 0, **kwargs) -> Pool:
    return Pool(rank=0, extra_bonus_dice=dice, extra_rescue_dice=rescue, **kwargs)


@pytest.mark.parametrize("dice", [1, 2, 5, 30])
def test_group_rescue_sampling_matches_exact_odds(dice):
    randomness = source(7_000 + dice)
    successes, outcomes = Counter(), Counter()
    for _ in range(SAMPLES):
        result = rules.rescue(dice, randomness)
        successes[result.successes] += 1
        outcomes["success" if result.successes else "failure"] += 1
    exact = odds.rescue(dice)
    assert_fits(successes, exact.distributions["successes"], "successes")
    assert_fits(outcomes, exact.outcomes, "outcomes")


TEST_POOLS = [
    sized(0, 2),  # 0 dice: a plain failure, never a catastrophe
    sized(1),
    Pool(rank=1, fit=Fit.FALLBACK, advantages=Advantages(Advantage.ACTIVE, Advantage.PASSIVE)),  # 1 die, 1 rescue
    Pool(rank=2, wounds=1, extra_rescue_dice=2),
    Pool(rank=3, fit=Fit.SPECIALIZED, advantages=Advantages(situation=Advantage.ACTIVE), wounds=1),
    sized(9, 3),
]


@pytest.mark.parametrize("pool", TEST_POOLS, ids=lambda pool: f"{pool.dice}d{pool.rescue_dice}r")
def test_test_sampling_matches_exact_odds_and_distributions(pool):
    randomness = source(31_000 + 10 * pool.dice + pool.rescue_dice)
    outcomes, successes, effects = Counter(), Counter(), Counter()
    for _ in range(SAMPLES):
        result = rules.test(pool, randomness)
        outcomes["success" if result.success else "catastrophe" if result.catastrophe else "failure"] += 1
        successes[result.successes] += 1
        effects[result.effects] += 1
    exact = odds.test(pool)
    assert_fits(outcomes, exact.outcomes, "outcomes")
    assert_fits(successes, exact.distributions["successes"], "successes")
    assert_fits(effects, exact.distributions["effects"], "effects")


COMPARISON_PAIRS = [
    (sized(2, 2), sized(0, 0), Mode.CONTEST),
    (sized(0, 1), sized(3, 1), Mode.CONTEST),
    (sized(4, 0), sized(4, 3), Mode.CONTEST),
    (sized(2, 1), sized(4, 2), Mode.DEFENSE),
    (sized(6, 0), sized(2, 2), Mode.DEFENSE),
]


@pytest.mark.parametrize("a, b, mode", COMPARISON_PAIRS,
                         ids=lambda value: (f"{value.dice}d{value.rescue_dice}r" if isinstance(value, Pool)
                                            else value.value))
def test_comparison_sampling_matches_exact_odds_and_distributions(a, b, mode):
    randomness = source(53_000 + 1000 * a.dice + 100 * a.rescue_dice + 10 * b.dice + b.rescue_dice)
    winners, nets, effects, a_successes, b_successes = Counter(), Counter(), Counter(), Counter(), Counter()
    for _ in range(SAMPLES):
        result = rules.comparison(a, b, randomness, mode=mode)
        winners[result.winner or "tie"] += 1
        nets[result.net] += 1
        effects[result.effects] += 1
        a_successes[result.a.successes] += 1
        b_successes[result.b.successes] += 1
    exact = odds.comparison(a, b, mode=mode)
    assert_fits(winners, exact.outcomes, "outcomes")
    assert_fits(nets, exact.distributions["net"], "net")
    assert_fits(effects, exact.distributions["effects"], "effects")
    assert_fits(a_successes, exact.distributions["successes_a"], "successes_a")
    assert_fits(b_successes, exact.distributions["successes_b"], "successes_b")


# --- the sampling tests can fail --------------------------------------------------------------------

def test_the_chi_square_check_rejects_a_wrong_distribution():
    randomness = source(99)
    successes = Counter(rules.rescue(5, randomness).successes for _ in range(SAMPLES))
    assert chi_square_p(successes, odds.rescue(5).distributions["successes"]) >= REJECT_BELOW
    assert chi_square_p(successes, odds.rescue(6).distributions["successes"]) < REJECT_BELOW
    # A subtle mistake: catastrophe odds that forget the rescue die (1/6 instead of 1/12 on one die).
    pool = sized(1, 1)
    outcomes = Counter()
    for _ in range(SAMPLES):
        result = rules.test(pool, randomness)
        outcomes["success" if result.success else "catastrophe" if result.catastrophe else "failure"] += 1
    wrong = {"success": Fraction(1, 2), "failure": Fraction(1, 3), "catastrophe": Fraction(1, 6)}
    assert chi_square_p(outcomes, wrong) < REJECT_BELOW
    assert chi_square_p(Counter({0: SAMPLES - 1, 7: 1}), {0: Fraction(1)}) == 0.0  # impossible value seen
