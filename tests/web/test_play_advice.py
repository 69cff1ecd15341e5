"""Issue 51 item 3, where people decide: /play shows "Was lohnt sich?" under a fight's odds.

The section asks the live service's `<system>.encounter.advice` for the same body as the odds (the side
chosen above it, the first by default) in the page's language and shows every option as a row with a
bar and its chance in text, the best marked, "gleich gut" where the service says an option is as good,
the documented default marked "Voreinstellung", each option's distance to the best, the adaptive
optimum's gain and rules, a float64 note where the answer is not exact, and the honest sentence. The
options' words are the page's (labels.js `advice`), the same words as the service's chat line. A
refusal (422, too large) is a line in the section, never the page's error. The `.advice` operations
are no operation to pick. Nothing is faked: every number is compared with the service's own answer."""

from __future__ import annotations

import json
from urllib.parse import quote

import pytest

from tests.web.accessibility import describe, violations
from tests.web.test_play import DESKTOP, PHONE, RAW, _open, _roll, _sideways

# A small fight per system (the Beutelschneider text's own fight is too large for advice: its two
# options fill the encounter limit; the spec's advice example is a thief and a guard).
FIGHTS = {
    "beutelschneider": {"sides": [{"name": "Dieb", "bag": {"red": 3, "green": 6, "white": 5, "black": 1}},
                                  {"name": "Wache", "bag": {"red": 7, "green": 3, "white": 5}}]},
    "paws": {"a": {"name": "Ryan", "rank": 3}, "b": {"name": "Jack", "rank": 2}, "one_shot_rescue": {"a": 2, "b": 0}},
    "weltenbuch": None,  # the encounter's documented example (three targetings, all "gleich gut")
    "proben": None,  # the example chain: 32 options, the default not the best
    "malmsturm": None,
}
HEADING = {"de": "Was lohnt sich?", "en": "What is worth it?"}
HONEST = {"de": "Die Empfehlung nimmt an, dass beide Seiten sonst nach den Einstellungen dieser Anfrage spielen; "
                "sie ändert keinen Wurf.",
          "en": "The advice assumes both sides otherwise play by this request's settings; it never changes a roll."}
BEST = {"de": "am besten", "en": "best"}
EQUAL = {"de": "gleich gut", "en": "equally good"}
DEFAULT = {"de": "Voreinstellung", "en": "default"}


def _wait_for_advice(page):
    """The advice answered (or refused): the section shows no "loading" line any more."""
    page.wait_for_function("""() => {
        const section = document.getElementById('advice');
        return !section.hidden && !document.querySelector('[data-testid=advice-loading]')
            && document.querySelector('[data-testid=advice-view], [data-testid=advice-refused]');
    }""")


def _wait_for_summary(page, start: str) -> None:
    page.wait_for_function("(start) => document.querySelector('[data-testid=advice-summary]')"
                           "?.textContent.startsWith(start)", arg=start)


def _example(spec, system: str) -> dict:
    return spec["paths"][f"/v1/{system}/encounter"]["post"]["requestBody"]["content"]["application/json"]["example"]


@pytest.fixture(scope="module")
def spec(app):
    with app.test_client() as client:
        return client.get("/openapi.json").get_json()


def _service_advice(app, system: str, request: dict, lang: str, side: str | None = None) -> dict:
    body = {key: value for key, value in request.items() if key not in ("seed", "manual", "ticket", "idempotency_key")}
    if side is not None:
        body["advise"] = {"side": side}
    answer = app.test_client().post(f"/v1/{system}/encounter/advice?lang={lang}", json=body)
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()


def _percent(probability: float, lang: str) -> str:
    digits = 2 if 0 < probability < 0.01 else 1
    text = f"{probability * 100:.{digits}f}"
    return f"{text.replace('.', ',')}\u00a0%" if lang == "de" else f"{text}%"


def _rows(page) -> list[dict]:
    return page.locator("[data-testid=advice-option]").evaluate_all("""rows => rows.map(row => ({
        words: row.querySelector('.advice-policy').textContent, value: row.querySelector('.advice-value').textContent,
        best: row.dataset.best === 'true', equal: row.dataset.equal === 'true', default: row.dataset.default === 'true',
        exact: row.dataset.exact, rank: Number(row.getAttribute('value')),
        marks: [...row.querySelectorAll('.advice-mark')].map(mark => mark.textContent),
        distance: row.querySelector('[data-testid=advice-distance]')?.textContent ?? null,
    }))""")


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("system", list(FIGHTS))
def test_each_fight_shows_what_is_worth_it_under_its_odds(page, live_url, app, spec, system, lang, screenshots):
    fight = FIGHTS[system] or _example(spec, system)
    viewport = PHONE if lang == "de" else DESKTOP
    _open(page, f"{live_url}/play?operation={system}.encounter&lang={lang}&body={quote(json.dumps(fight))}", viewport)
    asked = []
    page.on("request", lambda request: asked.append(request) if "/encounter/advice" in request.url else None)
    _roll(page)
    _wait_for_advice(page)
    section = page.locator("[data-testid=advice]")
    assert section.is_visible()
    assert page.inner_text("#advice-heading") == HEADING[lang]
    # under the odds: the section follows the odds chart
    assert page.evaluate("document.getElementById('odds').compareDocumentPosition(document.getElementById('advice'))"
                         " & Node.DOCUMENT_POSITION_FOLLOWING")
    request = json.loads(page.text_content("#raw"))["request"]
    sent = asked[-1].post_data_json
    assert "seed" not in sent and "session" not in sent
    sides = page.locator("[data-testid=advice-side] option").evaluate_all("os => os.map(o => o.value)")
    side = sent.get("advise", {}).get("side")
    assert side == (sides[0] if sides else None), (sent, sides)
    answer = _service_advice(app, system, request, lang, side)
    advice = answer["advice"]

    # the service's own words first: its chat line, in the page's language
    assert page.inner_text("[data-testid=advice-summary]") == answer["summary"]
    page.click("[data-testid=advice-more] summary") if page.locator("[data-testid=advice-more]").count() else None
    rows = sorted(_rows(page), key=lambda row: row["rank"])
    assert len(rows) == len(advice["options"]), (len(rows), len(advice["options"]))
    for row, option in zip(rows, advice["options"], strict=True):
        assert row["value"] == _percent(option["win"]["probability"], lang), (row, option["win"])
        assert row["exact"] == (option["win"]["exact"] or "")
        assert row["equal"] == (option is not advice["options"][0] and option["vs_best"]["equal"])
        assert row["default"] == (option["policy"] == advice["default"]["policy"])
        assert (EQUAL[lang] in row["marks"]) == row["equal"] and (DEFAULT[lang] in row["marks"]) == row["default"]
        assert (row["distance"] is not None) == (option["vs_best"]["probability"] < 0), row
        if row["distance"]:
            assert ("Prozentpunkte weniger" if lang == "de" else "percentage points below") in row["distance"]
    assert [row["best"] for row in rows] == [True] + [False] * (len(rows) - 1)
    assert rows[0]["marks"][0] == BEST[lang]
    # the options' words are the service's: the best's (and the default's) as its chat line says them
    assert rows[0]["words"] in answer["summary"], (rows[0]["words"], answer["summary"])
    default_row = next(row for row in rows if row["default"])
    if not default_row["best"] and not default_row["equal"]:
        assert default_row["words"] in answer["summary"], (default_row["words"], answer["summary"])
    if system in ("weltenbuch", "malmsturm"):
        assert any(row["equal"] for row in rows), "two options with the best's chance are marked gleich gut"
    # the adaptive optimum: its gain in one sentence and the service's rules, one sentence each
    adaptive = page.inner_text("[data-testid=advice-adaptive]")
    assert _percent(advice["adaptive"]["win"]["probability"], lang) in adaptive, adaptive
    assert page.locator("[data-testid=advice-rules] li").all_inner_texts() == advice["adaptive"]["rules"]
    exact = all(option["win"]["exact"] is not None for option in advice["options"])
    assert page.locator("[data-testid=advice-float]").count() == (0 if exact else 1)
    if not exact:
        assert "float64" in page.inner_text("[data-testid=advice-float]")
    assert page.inner_text("[data-testid=advice-honest]") == HONEST[lang]
    text = page.inner_text("#advice")
    assert not RAW.search(text), RAW.search(text).group(0)
    assert _sideways(page) == 0
    found = violations(page, {"include": [["#advice"]]})
    assert found == [], describe(found)
    section.screenshot(path=str(screenshots / f"advice-{system}-{lang}.png"))
    assert page.problems == []


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_fight_too_large_for_advice_says_so_in_a_line(page, live_url, app, spec, lang):
    """The Beutelschneider text's fight: its odds answer, its advice is refused (422) before solving."""
    fight = _example(spec, "beutelschneider")
    refused = app.test_client().post(f"/v1/beutelschneider/encounter/advice?lang={lang}", json=fight).get_json()
    assert refused["status"] == 422 and refused["type"].endswith("/encounter-too-large"), refused
    _open(page, f"{live_url}/play?operation=beutelschneider.encounter&lang={lang}&body={quote(json.dumps(fight))}")
    _roll(page)
    _wait_for_advice(page)
    line = page.inner_text("[data-testid=advice-refused]")
    states = f"{refused['states']:,}".replace(",", "." if lang == "de" else ",")
    limit = f"{refused['limit']['value']:,}".replace(",", "." if lang == "de" else ",")
    assert ("zu groß" if lang == "de" else "too large") in line and states in line and limit in line, line
    assert "WURFWERK_" not in line and "advise" not in line, line
    assert page.locator("[data-testid=advice-option]").count() == 0
    assert page.is_hidden("[data-testid=error]")
    assert page.locator("[data-testid=receipt]").get_attribute("data-state") == "verified"
    assert page.locator("[data-testid=odds-chart] table.bars tr").count() >= 2  # float64: no data-exact
    found = violations(page, {"include": [["#advice"]]})
    assert found == [], describe(found)
    assert page.problems == []


def test_the_side_picker_asks_for_the_other_side_and_the_language_switch_asks_again(page, live_url, app):
    fight = FIGHTS["paws"]
    _open(page, f"{live_url}/play?operation=paws.encounter&lang=de&body={quote(json.dumps(fight))}")
    _roll(page)
    _wait_for_advice(page)
    picker = page.locator("[data-testid=advice-side]")
    assert picker.is_visible()
    assert picker.locator("option").all_inner_texts() == ["Ryan", "Jack"]
    assert page.inner_text("[data-testid=advice-summary]").startswith("Rat für Ryan:")
    picker.select_option("b")
    _wait_for_summary(page, "Rat für Jack")
    request = json.loads(page.text_content("#raw"))["request"]
    expected = _service_advice(app, "paws", request, "de", "b")["summary"]
    assert page.inner_text("[data-testid=advice-summary]") == expected
    page.select_option("[data-testid=lang]", "en")
    _wait_for_summary(page, "Advice for Jack")
    assert page.inner_text("#advice-heading") == HEADING["en"]
    assert page.input_value("[data-testid=advice-side]") == "b"
    assert page.inner_text("[data-testid=advice-honest]") == HONEST["en"]
    assert page.problems == []


def test_a_chain_of_tests_has_one_side_and_says_chance_of_success(page, live_url):
    _open(page, f"{live_url}/play?operation=proben.encounter&lang=de")
    _roll(page)
    _wait_for_advice(page)
    assert page.is_hidden("[data-testid=advice-side]")
    assert "Erfolgschance je Wahl" in page.inner_text("#advice")
    # 32 options: six and the default in view, the rest folded
    assert page.locator("[data-testid=advice-more]").count() == 1
    assert page.locator("[data-testid=advice-option][data-default=true]").first.is_visible()
    assert page.problems == []


def test_advice_operations_are_no_operation_to_pick_and_their_links_open_the_fight(page, live_url, app):
    with app.test_client() as client:
        systems = client.get("/v1/systems").get_json()
    twins = [op["id"] for system in systems["systems"] for op in system["operations"] if op["id"].endswith(".advice")]
    assert "paws.encounter.advice" in twins
    _open(page, f"{live_url}/play?lang=de")
    for system in page.evaluate("() => [...document.querySelectorAll('#system option')].map((o) => o.value)"):
        page.select_option("[data-testid=system]", system)
        picked = page.evaluate("() => [...document.querySelectorAll('#operation option')].map((o) => o.value)")
        assert not [operation for operation in picked if operation.endswith((".advice", ".odds"))], picked
    for twin in twins:
        _open(page, f"{live_url}/play?operation={twin}&lang=de")
        assert page.is_hidden("[data-testid=error]"), (twin, page.inner_text("[data-testid=error]"))
        assert page.input_value("[data-testid=operation]") == twin.removesuffix(".advice"), twin
    assert page.problems == []


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_cooperation_and_a_cut_fight_say_why_nothing_is_decided_anew(page, live_url, app, lang):
    """`adaptive` is null for a single roll (who helps) and for a fight cut by `max_rounds`: a sentence
    says so instead of the rules."""
    cooperation = {"leader": {"name": "Alrik", "attribute": 3, "skill": 1},
                   "helpers": [{"name": "Mira", "attribute": 2}], "difficulty": 3}
    _open(page, f"{live_url}/play?operation=proben.cooperation&lang={lang}&body={quote(json.dumps(cooperation))}")
    _roll(page)
    _wait_for_advice(page)
    words = _rows(page)
    assert [row["words"] for row in words] == (["mit Unterstützung von Mira", "ohne Unterstützer"] if lang == "de"
                                                else ["with the help of Mira", "without helpers"])
    one_roll = "Ein einzelner Wurf" if lang == "de" else "A single roll"
    assert page.inner_text("[data-testid=advice-adaptive]").startswith(one_roll)
    assert page.locator("[data-testid=advice-rules]").count() == 0
    cut = {**FIGHTS["paws"], "max_rounds": 3}
    _open(page, f"{live_url}/play?operation=paws.encounter&lang={lang}&body={quote(json.dumps(cut))}")
    _roll(page)
    _wait_for_advice(page)
    assert ("Rundengrenze" if lang == "de" else "round limit") in page.inner_text("[data-testid=advice-adaptive]")
    request = json.loads(page.text_content("#raw"))["request"]
    expected = _service_advice(app, "paws", request, lang, "a")["summary"]
    assert page.inner_text("[data-testid=advice-summary]") == expected
    found = violations(page, {"include": [["#advice"]]})
    assert found == [], describe(found)
    assert page.problems == []


def _policy_cases():
    from service.systems.beutelschneider import advice as beutelschneider
    from service.systems.malmsturm import advice as malmsturm
    from service.systems.paws import advice as paws
    from service.systems.paws import rescue_advice as paws_rescue
    from service.systems.proben import advice as proben
    from service.systems.weltenbuch import advice as weltenbuch

    # (the service's words for a policy, the page's labels.js keys and values for the same policy)
    return [
        (paws.policy_words, {"one_shot_rescue": 0}, [("one_shot_rescue.keep", {})]),
        (paws.policy_words, {"one_shot_rescue": 1}, [("one_shot_rescue.one", {"count": "1"})]),
        (paws.policy_words, {"one_shot_rescue": 2}, [("one_shot_rescue.other", {"count": "2"})]),
        (paws_rescue.policy_words, {"spend": 0}, [("spend.keep", {})]),
        (paws_rescue.policy_words, {"spend": 1}, [("spend.one", {"count": "1"})]),
        (paws_rescue.policy_words, {"spend": 2}, [("spend.other", {"count": "2"})]),
        (paws.policy_words, {"give_up_at_wounds": None}, [("give_up_at_wounds.never", {})]),
        (paws.policy_words, {"give_up_at_wounds": 1}, [("give_up_at_wounds.one", {"count": "1"})]),
        (paws.policy_words, {"give_up_at_wounds": 3}, [("give_up_at_wounds.other", {"count": "3"})]),
        *[(beutelschneider.policy_words, {"ability": ability}, [(f"ability.{ability}", {})])
          for ability in ("combat", "skill", "magic")],
        (beutelschneider.policy_words, {"ability": {"Alrik": "skill"}},
         [("ability.member", {"name": "Alrik", "ability": ("ability.skill", {})})]),
        (beutelschneider.policy_words, {"pairs": None}, [("pairs.given", {})]),
        (beutelschneider.policy_words, {"pairs": [["A", "X"], ["A", "Y"]]}, [("pairs.order", {"names": "X, Y"})]),
        (weltenbuch.policy_words, {"hold_hero_points": {"Toran": 0}}, [("hold_hero_points.none", {})]),
        *[(weltenbuch.policy_words, {"hold_hero_points": {"Toran": count}},
           [(f"hold_hero_points.{form}", {"name": "Toran", "count": str(count)})])
          for count, form in ((1, "one"), (2, "other"))],
        *[(weltenbuch.policy_words, {"targeting": how}, [(f"weltenbuch.targeting.{how}", {})])
          for how in ("weakest", "strongest", "spread")],
        (proben.policy_words, {"max_attempts": [None, None]}, [("max_attempts.all", {})]),
        (proben.policy_words, {"max_attempts": [1]}, [("max_attempts.one", {"count": "1"})]),
        (proben.policy_words, {"max_attempts": [1, None]},
         [("max_attempts.step", {"step": "1", "what": ("max_attempts.one", {"count": "1"})}),
          ("max_attempts.step", {"step": "2", "what": ("max_attempts.while_dice", {})})]),
        (proben.policy_words, {"max_attempts": [None, 3]},
         [("max_attempts.step", {"step": "1", "what": ("max_attempts.while_dice", {})}),
          ("max_attempts.step", {"step": "2", "what": ("max_attempts.other", {"count": "3"})})]),
        (proben.policy_words, {"carry_partial": True}, [("carry_partial.true", {})]),
        (proben.policy_words, {"carry_partial": False}, [("carry_partial.false", {})]),
        (proben.helpers_words, {"helpers": ["Mira", "Bo"]}, [("helpers.some", {"names": "Mira, Bo"})]),
        (proben.helpers_words, {"helpers": []}, [("helpers.none", {})]),
        (malmsturm.policy_words, {"concede_at_consequences": None}, [("concede_at_consequences.never", {})]),
        (malmsturm.policy_words, {"concede_at_consequences": 1}, [("concede_at_consequences.one", {"count": "1"})]),
        (malmsturm.policy_words, {"concede_at_consequences": 2}, [("concede_at_consequences.other", {"count": "2"})]),
        (malmsturm.policy_words, {"defend": True}, [("defend.true", {})]),
        (malmsturm.policy_words, {"defend": False}, [("defend.false", {})]),
        (malmsturm.policy_words, {"targeting": "focus"}, [("malmsturm.targeting.focus", {})]),
        (malmsturm.policy_words, {"targeting": "spread"}, [("malmsturm.targeting.spread", {})]),
    ]


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_pages_words_for_every_choice_are_the_services(lang):
    """labels.js `advice` against each system's advice.policy_words (the chat line's words), value by
    value: the page never names a choice otherwise than the service does."""
    from service.platform.words.messages import localized
    from tests.web.test_play import ROOT
    from wurfwerk_discord.catalog import parse_labels

    table = parse_labels((ROOT / "service" / "web" / "labels.js").read_text(encoding="utf-8"))[lang]["advice"]

    def page_words(key, values):
        text = table[key]
        for name, value in values.items():
            text = text.replace(f"{{{name}}}", page_words(*value) if isinstance(value, tuple) else value)
        return text

    for words, policy, keys in _policy_cases():
        service = [localized(word, lang) for word in words(policy)]
        assert [page_words(key, values) for key, values in keys] == service, policy
    used = {key for _, _, keys in _policy_cases() for key, _ in keys}
    assert used | {"max_attempts.while_dice", "max_attempts.other"} >= set(table), set(table) - used


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_lost_paws_test_weighs_the_rescue_die_and_a_won_one_shows_nothing(page, live_url, app, lang):
    """RULINGS.md "Advice", Paws: after a lost test, the group's one-shot rescue die rolled now or kept for
    the next loss ("Jeder Rettungswürfel darf nur einmal gewürfelt werden"): one die, one more loss to
    come, 1/4 of the two losses either way, "gleich gut". A won test has nothing to avert: no section."""
    lost = {"name": "Rynn", "rank": 0}  # no die: the test is lost (rules 001: one die per rank)
    _open(page, f"{live_url}/play?operation=paws.test&lang={lang}&body={quote(json.dumps(lost))}")
    asked = []
    page.on("request", lambda request: asked.append(request) if "/test/advice" in request.url else None)
    _roll(page)
    _wait_for_advice(page)
    assert asked[-1].post_data_json == {key: value for key, value in json.loads(page.text_content("#raw"))[
        "request"].items() if key not in ("seed", "manual", "ticket", "idempotency_key", "session")}
    assert page.is_hidden("[data-testid=advice-side-box]")
    caption = page.inner_text(".advice-caption")
    assert caption.startswith("Anteil abgewendeter Niederlagen" if lang == "de" else "Share of losses averted")
    rows = sorted(_rows(page), key=lambda row: row["rank"])
    one, keep = (("auf diese Niederlage höchstens 1 einmaligen Rettungswürfel einsetzen",
                  "die einmaligen Rettungswürfel für spätere Niederlagen behalten") if lang == "de"
                 else ("spend at most 1 one-shot rescue die on this loss",
                       "keep the one-shot rescue dice for later losses"))
    assert [(row["words"], row["exact"]) for row in rows] == [(keep, "1/4"), (one, "1/4")]
    assert rows[1]["equal"] and rows[1]["default"]
    assert page.inner_text("[data-testid=advice-adaptive]").startswith(
        "Ein einzelner Wurf" if lang == "de" else "A single roll")
    found = violations(page, {"include": [["#advice"]]})
    assert found == [], describe(found)
    won = {"rank": 3, "seed": 1, "extra_bonus_dice": 20}  # 23 dice: a success
    _open(page, f"{live_url}/play?operation=paws.test&lang={lang}&body={quote(json.dumps(won))}")
    _roll(page)
    assert json.loads(page.text_content("#raw"))["result"]["success"] is True
    assert page.is_hidden("[data-testid=advice]")
    assert page.problems == []


def test_a_lost_comparison_is_weighed_by_its_net_for_the_side_that_lost(page, live_url, app):
    fight = {"a": {"name": "Rynn", "rank": 4}, "b": {"name": "Jack", "rank": 0}}  # b rolls nothing: b loses
    _open(page, f"{live_url}/play?operation=paws.comparison&lang=en&body={quote(json.dumps(fight))}")
    asked = []
    page.on("request", lambda request: asked.append(request) if "/comparison/advice" in request.url else None)
    for _ in range(4):  # until a wins (a tie, all four dice failing, has nothing to avert)
        _roll(page)
        if json.loads(page.text_content("#raw"))["result"]["winner"] == "a":
            break
    roll = json.loads(page.text_content("#raw"))
    assert roll["result"]["winner"] == "a"
    _wait_for_advice(page)
    sent = asked[-1].post_data_json
    assert sent["advise"] == {"side": "b"} and sent["lost_by"] == roll["result"]["net"]
    expected = app.test_client().post("/v1/paws/comparison/advice?lang=en", json=sent).get_json()
    assert page.inner_text("[data-testid=advice-summary]") == expected["summary"]
    assert page.problems == []
