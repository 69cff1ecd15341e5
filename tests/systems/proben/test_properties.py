"""Property tests for Proben over HTTP: any valid body gives a 200 that obeys the rules, any invalid
one a 4xx problem; seeds and recorded events reproduce results."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.platform.dice.randomness import manual_values

SETTINGS = settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@st.composite
def pools(draw, most: int = 30):
    skill = draw(st.integers(0, 10))
    pool = {"attribute": draw(st.integers(0, most)), "skill": skill,
            "skill_dice": draw(st.integers(0, skill)), "advantages": draw(st.integers(0, 5)),
            "disadvantages": draw(st.integers(0, 8))}
    if draw(st.booleans()):
        pool["name"] = draw(st.text(min_size=1, max_size=20))
    return pool


def dice_of(pool: dict) -> int:
    return max(0, pool["attribute"] + pool["skill_dice"] + pool["advantages"] - pool["disadvantages"])


tests = st.builds(lambda pool, difficulty, attempt, rule, seed: {
    **pool, "difficulty": difficulty, "attempt": attempt, "success_rule": rule, "seed": seed},
    pools(), st.integers(1, 10), st.integers(1, 6), st.sampled_from(["meet", "exceed"]), st.integers(0, 2**53 - 1))


@SETTINGS
@given(body=tests)
def test_any_valid_test_obeys_the_rules(post, body):
    status, response = post("/v1/proben/test", body)
    assert status == 200
    result = response["result"]
    assert result["dice_count"] == max(0, dice_of(body) - (body["attempt"] - 1)) == len(result["dice"])
    assert all(1 <= face <= 6 for face in result["dice"])
    assert result["successes"] == sum(face >= 5 for face in result["dice"]) <= result["dice_count"]
    needed = body["difficulty"] + (body["success_rule"] == "exceed")
    expected = ("no_dice" if not result["dice"] else "success" if result["successes"] >= needed
                else "partial" if result["successes"] else "failure")
    assert result["outcome"] == expected
    assert result["impossible"] == (result["dice_count"] < needed)
    assert result["quality"] == (result["successes"] - needed if expected == "success" else 0)


def _replays(post, path, body, response):
    replay = {key: value for key, value in body.items() if key != "seed"}
    replay["manual"] = manual_values(response["randomness"]["events"])
    status, again = post(path, replay)
    return status == 200 and again["result"] == response["result"]


@SETTINGS
@given(a=pools(), b=pools(), allow_tie=st.booleans(), seed=st.integers(0, 2**53 - 1))
def test_opposed_winner_follows_successes_then_base(post, a, b, allow_tie, seed):
    body = {"a": a, "b": b, "allow_tie": allow_tie, "seed": seed}
    status, response = post("/v1/proben/opposed", body)
    assert status == 200
    result = response["result"]
    last = result["rounds"][-1]
    if result["decided_by"] == "successes":
        assert result["winner"] == ("a" if last["a"]["successes"] > last["b"]["successes"] else "b")
    elif result["decided_by"] == "base":
        assert last["a"]["successes"] == last["b"]["successes"]
        base_a, base_b = a["attribute"] + a["skill"], b["attribute"] + b["skill"]
        assert base_a != base_b and result["winner"] == ("a" if base_a > base_b else "b")
    else:
        assert result["winner"] is None and (allow_tie or len(result["rounds"]) == 20)
    assert all(r["a"]["successes"] == r["b"]["successes"] for r in result["rounds"][:-1])
    assert post("/v1/proben/opposed", body)[1]["result"] == result  # same seed, same result
    assert _replays(post, "/v1/proben/opposed", body, response)


@SETTINGS
@given(leader=pools(), helpers=st.lists(pools(most=10), min_size=1, max_size=5),
       difficulty=st.integers(1, 8), seed=st.integers(0, 2**53 - 1))
def test_cooperation_each_successful_helper_adds_a_die(post, leader, helpers, difficulty, seed):
    body = {"leader": leader, "helpers": helpers, "difficulty": difficulty, "seed": seed}
    status, response = post("/v1/proben/cooperation", body)
    assert status == 200
    result = response["result"]
    helped = 0
    for helper, outcome in zip(helpers, result["helpers"]):
        assert len(outcome["dice"]) == dice_of(helper)
        assert outcome["helped"] == (outcome["successes"] >= 1)
        helped += outcome["helped"]
    assert result["leader"]["dice_count"] == dice_of({**leader, "advantages": leader["advantages"] + helped})
    assert _replays(post, "/v1/proben/cooperation", body, response)


@SETTINGS
@given(pool=pools(), required=st.integers(1, 30), seed=st.integers(0, 2**53 - 1))
def test_extended_removes_one_die_per_roll_and_stops_at_the_target(post, pool, required, seed):
    body = {**pool, "required": required, "seed": seed}
    status, response = post("/v1/proben/extended", body)
    assert status == 200
    result = response["result"]
    sizes = [len(roll["dice"]) for roll in result["rolls"]]
    assert sizes == list(range(dice_of(pool), dice_of(pool) - len(sizes), -1))
    cumulative = 0
    for roll in result["rolls"]:
        cumulative += roll["successes"]
        assert roll["cumulative"] == cumulative
    assert result["success"] == (cumulative >= required)
    assert result["success"] or sizes == list(range(dice_of(pool), 0, -1))
    assert result["rolls_used"] == len(sizes)
    assert _replays(post, "/v1/proben/extended", body, response)


invalid_values = st.one_of(st.none(), st.booleans(), st.text(max_size=5).filter(lambda t: t not in ("meet", "exceed")),
                           st.floats(allow_nan=False).filter(lambda x: not x.is_integer()),  # 2.0 is 2
                           st.integers(-10**6, -1), st.integers(101, 2**63 - 1),
                           st.lists(st.integers(-1000, 1000), max_size=2))


@SETTINGS
@given(body=tests, field=st.sampled_from(["attribute", "skill", "difficulty", "attempt", "advantages",
                                           "disadvantages", "success_rule", "seed"]),
       value=invalid_values)
def test_any_invalid_test_body_is_a_problem_naming_the_field(post, body, field, value):
    if field == "seed" and isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 2**53:
        return  # a valid seed
    if value is None and field != "attribute":
        return  # null for an optional field means "not given" (platform-wide), which is valid
    body = {**body, field: value}
    if field == "skill":
        body.pop("skill_dice")
    status, problem = post("/v1/proben/test", body)
    assert 400 <= status < 500
    assert problem["type"].startswith("https://wurfwerk.dev/problems/") and problem["errors"]
