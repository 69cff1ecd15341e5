"""Beutelschneider endpoints: load the body, call the rules, write the summary. Nothing else."""

from __future__ import annotations

import copy
import itertools
from collections.abc import Callable, Mapping, Sequence
from typing import Any, overload

from service.platform.dice.randomness import ManualSource, RandomSource
from service.platform.http.limits import STATE_BY_STATE, SWEPT, encounter_precision
from service.platform.maths.luck import Luck
from service.platform.maths.odds import Odds
from service.platform.operations import advice as platform_advice
from service.platform.operations.operations import EXAMPLE_RECEIPT, Body, Operation, System, quoting, verified_response
from service.platform.values.errors import ReceiptError, RuleViolation
from service.platform.values.plain_data import plain
from service.platform.words.glossary import api_glossary
from service.platform.words.messages import say
from service.systems.beutelschneider import advice, encounter, groups, odds, rules, schemas, text

MATTHAEUS = {"red": 9, "green": 6, "blue": 0, "white": 5, "black": 0}
WOUNDED = {"red": 8, "green": 6, "blue": 0, "white": 3, "black": 3}
LEGIONARY = {"red": 8, "green": 4, "blue": 0, "white": 5, "black": 3}
CHALLENGE_EXAMPLE = {"name": "Matthäus", "bag": MATTHAEUS, "ability": "skill", "difficulty": "hard"}
CONTEST_EXAMPLE = {"participants": [
    {"name": "Matthäus", "bag": MATTHAEUS, "ability": "skill", "difficulty": "normal"},
    {"name": "Bartholomäus", "bag": {"red": 7, "green": 5, "blue": 3, "white": 5}, "ability": "skill",
     "difficulty": "normal"}]}
COMBAT_EXAMPLE = {"attacker": {"name": "Legionär", "bag": LEGIONARY, "difficulty": "easy"},
                  "defender": {"name": "Affenmensch", "bag": {"red": 10, "green": 5, "white": 5},
                               "difficulty": "easy"}}
INJURY_EXAMPLE = {"name": "Legionär", "bag": LEGIONARY, "severity": "serious"}
MORTAL_DANGER_EXAMPLE = {"name": "Legionär", "bag": LEGIONARY, "danger": "clear"}
HEALING_EXAMPLE = {"name": "Matthäus", "bag": WOUNDED, "chances": "fair"}
EXPERIENCE_EXAMPLE = {"name": "Legionär", "bag": LEGIONARY, "amount": "much"}
FIRST_AID_EXAMPLE = {"name": "Bartholomäus", "bag": MATTHAEUS, "difficulty": "normal"}
VALIDATE_EXAMPLE = {"name": "Matthäus", "bag": MATTHAEUS}


# --- body -> rules values -----------------------------------------------------------------------

def bag(body: Body) -> rules.Bag:
    return rules.Bag.of(body)


def contender(body: Body) -> rules.Contender:
    return rules.Contender(body["name"], bag(body["bag"]), rules.Ability(body["ability"]),
                           rules.Difficulty(body["difficulty"]), body.get("side"))


def injuring(body: Body) -> frozenset[rules.Ability]:
    return frozenset(rules.Ability(value) for value in body["injuring_abilities"])


@overload
def colours(values: Sequence[str]) -> Sequence[rules.Colour]: ...
@overload
def colours(values: Sequence[str | None]) -> Sequence[rules.Colour | None]: ...
@overload
def colours(values: None) -> None: ...
def colours(values: Sequence[str | None] | None) -> Sequence[rules.Colour | None] | None:
    """The colours named by ``values`` (a kept marble, null, stays None)."""
    if values is None:
        return None
    return [None if value is None else rules.Colour(value) for value in values]


def recorded(draw: Body) -> tuple[rules.Bag, tuple[rules.Colour, ...]]:
    """The bag and the marbles of a verified draw, refusing one whose choice was already made."""
    try:
        recorded_bag = bag(draw["request"]["bag"])
        drawn = tuple(rules.Colour(value) for value in draw["result"]["drawn"])
        applied_up_front = draw["result"].get("bag_after") is not None
    except (KeyError, TypeError, ValueError) as error:
        raise ReceiptError("draw", say("is not a draw response of this release")) from error
    if applied_up_front:
        raise RuleViolation("draw.result.bag_after",
                            say("the replacements of this draw were already given up front"))
    return recorded_bag, drawn


# --- creation -----------------------------------------------------------------------------------

def validate_bag(body: Body, lang: str) -> tuple[rules.BagCheck, str]:
    """Check a starting bag (Charaktererschaffung)

    "Ein neuer Charakter ... wird erschaffen, indem ein leerer Beutel mit insgesamt 20 Murmeln gefüllt
    wird. 5 dieser Murmeln müssen weiß sein. Die übrigen 15 Murmeln können beliebig auf die drei
    Fähigkeiten ... verteilt werden." Ruling 7: bags of other sizes are accepted everywhere else; this
    checks a starting bag against `rules` (default 20 marbles: 5 white, 15 among red/green/blue, and so
    no black). `problems` are in the requested language, `codes` name them for programs.
    """
    findings = rules.check_creation(bag(body["bag"]), rules.CreationRules(**body["rules"]))
    result = rules.BagCheck(not findings, tuple(text.problems(findings, lang)),
                            tuple(finding.problem for finding in findings))
    return result, text.validate_bag(findings, lang)


# --- challenges ---------------------------------------------------------------------------------

def challenge(body: Body, source: RandomSource, lang: str) -> tuple[rules.ChallengeResult, str]:
    """Draw for a challenge (Herausforderung)

    Draws 3 (easy), 2 (normal) or 1 (hard) marbles at once; success when at least one has the
    ability's colour (combat red, skill green, magic blue). Ruling 1: `unconscious` when every marble
    drawn is black. The marbles go back into the bag. Ruling 10: waking an unconscious character
    ("durch eine geeignete Handlung (und Herausforderung) eines anderen Charakters") is a challenge of
    the helper with the ability the act needs; it has no operation of its own.
    """
    ability, difficulty = rules.Ability(body["ability"]), rules.Difficulty(body["difficulty"])
    result = rules.challenge(bag(body["bag"]), ability, difficulty, source)
    return result, text.challenge(result, ability, difficulty, body.get("name"), lang)


def challenge_odds(body: Body) -> Odds:
    """Exact odds of a challenge

    Outcomes `success`, `failure` (no matching marble, not all black) and `unconscious` (ruling 1:
    all black); distribution `matching` (hypergeometric).
    """
    return odds.challenge(bag(body["bag"]), rules.Ability(body["ability"]), rules.Difficulty(body["difficulty"]))


def first_aid(body: Body, source: RandomSource, lang: str) -> tuple[rules.FirstAidResult, str]:
    """Tend a wounded character (Versorgung von Verletzungen)

    Ruling 6: a `skill` challenge of the healer (draws from the healer's bag); on a success every
    green marble drawn grants the patient one healing draw (`healing_draws`, to send as `draws` to
    `/healing`). Ruling 1 applies to the healer.
    """
    difficulty = rules.Difficulty(body["difficulty"])
    result = rules.first_aid(bag(body["bag"]), difficulty, source)
    return result, text.first_aid(result, difficulty, body.get("name"), lang)


def first_aid_odds(body: Body) -> Odds:
    """Exact odds of first aid

    Outcomes `success`, `failure`, `unconscious` of the healer's skill challenge; distribution
    `healing_draws` (ruling 6: green marbles drawn, 0 on a failure).
    """
    return odds.first_aid(bag(body["bag"]), rules.Difficulty(body["difficulty"]))


# --- contests and combat ------------------------------------------------------------------------

def contest(body: Body, source: RandomSource, lang: str) -> tuple[rules.ContestResult, str]:
    """Draw for a contest (Auseinandersetzung)

    Every participant draws for their own ability and difficulty (in the order given); the
    marbles of each one's ability colour are compared. Ruling 2: most matching marbles wins;
    `margin` = winner's matching minus the next best; a tie at the top has no winner (`winner`
    null, `margin` 0). Ruling 8: participants may name a `side` ("nur einer von ihnen – beziehungsweise
    nur eine Seite"): the side of the participant with the most matching marbles wins
    (`winning_side`), a tie at the top within one side is that side's win, and `margin` is that best
    count minus the best of any other side. Ruling 1: `unconscious` per participant. Ruling 11:
    "niedrigere Schwierigkeiten sorgen für einen schnelleren und entscheidenderen Ausgang" speaks of one
    contest (more marbles drawn, fewer ties, larger margins). Contests inflict no injury; use `/combat`
    for a fight. Names must be unique.
    """
    result = rules.contest([contender(p) for p in body["participants"]], source)
    return result, text.contest(result, lang)


def contest_odds(body: Body) -> Odds:
    """Exact odds of a contest

    Outcomes `wins:<side>` per side and `tie` (ruling 2; ruling 8: a participant without `side` is a
    side of its own, so without sides these are `wins:<name>` per participant), over all draws of all
    participants (computed per participant, each side scoring its best, then combined); distribution
    `margin` (0 = tie); expected
    `matching:<name>` and `unconscious:<name>` (probability, ruling 1).
    """
    return odds.contest(tuple(contender(p) for p in body["participants"]))


def combat(body: Body, source: RandomSource, lang: str) -> tuple[rules.CombatResult, str]:
    """One exchange of blows (Schlagabtausch), or an uneven contest

    A contest of two (ruling 2) where `ability` defaults to `combat`. Ruling 3: the loser suffers an
    injury of severity = margin (1 light, 2 serious, 3 grave) only if the winner used an injuring
    ability; a winner using another ability (flight, escape) inflicts nothing. Ruling 9: the injuring
    abilities are `injuring_abilities`, `[combat]` by default; a world where magic wounds adds `magic`.
    Combat stays a pair (ruling 8: "ein Charakter durchaus Teil mehrerer solcher Paare"). The injury
    is drawn from the loser's bag at once (after both draws) and each marble drawn becomes black
    (`injury.bag_after`); a bag holding fewer marbles than the severity has all of them drawn.
    """
    result = rules.combat(contender(body["attacker"]), contender(body["defender"]), source, injuring(body))
    return result, text.combat(result, lang, injuring(body))


def combat_odds(body: Body) -> Odds:
    """Exact odds of an exchange of blows

    Mutually exclusive outcomes: `injury:<loser>:<severity>` (a win by a side using an injuring ability,
    rulings 3 and 9),
    `wins:<name>` (a win that inflicts no injury: the winner used another ability; 0 for a side using
    combat), and `tie`. So P(<name> wins) = `wins:<name>` + the `injury:<other>:*` outcomes.
    Distributions `margin` (0 = tie) and `severity` (0 = no injury).
    """
    return odds.combat(contender(body["attacker"]), contender(body["defender"]), injuring(body))


# --- injury and death ---------------------------------------------------------------------------

def injury(body: Body, source: RandomSource, lang: str) -> tuple[rules.InjuryResult, str]:
    """Suffer an injury (Verletzung)

    Draws 1 (light), 2 (serious) or 3 (grave) marbles; "Alle gezogenen Murmeln werden vom Spieler
    entfernt, und stattdessen eine gleiche Zahl an schwarzen Murmeln in den Beutel gelegt" (a black
    marble drawn stays black). The bag must hold at least that many marbles.
    """
    severity = rules.Severity(body["severity"])
    result = rules.injury(bag(body["bag"]), severity, source)
    return result, text.injury(result, severity, body.get("name"), lang)


def injury_odds(body: Body) -> Odds:
    """Exact odds of an injury

    Distribution `black_after`: black marbles in the bag afterwards (no outcomes).
    """
    return odds.injury(bag(body["bag"]), rules.Severity(body["severity"]))


def mortal_danger(body: Body, source: RandomSource, lang: str) -> tuple[rules.MortalDangerResult, str]:
    """Face mortal danger (Lebensgefahr)

    Draws 1 (low), 2 (clear) or 3 (grave) marbles; "Wenn mindestens eine der gezogenen Murmeln
    schwarz ist, so stirbt der Charakter." The marbles go back into the bag.
    """
    result = rules.mortal_danger(bag(body["bag"]), rules.Danger(body["danger"]), source)
    return result, text.mortal_danger(result, body.get("name"), lang)


def mortal_danger_odds(body: Body) -> Odds:
    """Exact odds of mortal danger

    Outcomes `dies` (at least one black marble drawn) and `survives`.
    """
    return odds.mortal_danger(bag(body["bag"]), rules.Danger(body["danger"]).draws)


# --- healing ------------------------------------------------------------------------------------

def healing(body: Body, source: RandomSource, lang: str) -> tuple[rules.HealingResult, str]:
    """Draw for healing (Heilung)

    Draws 1 (poor), 2 (fair) or 3 (good) marbles, or `draws` (e.g. first aid's `healing_draws`).
    Ruling 4: each black marble drawn may be replaced by `red`, `green` or `blue`. Two-phase: send
    this signed response to `/healing/apply` with one colour per black marble (`choices_required`).
    One step: give `replacements` up front, one colour per marble drawn (the number of black marbles
    is unknown before the draw); the k-th black marble drawn takes the k-th colour, the rest are
    unused, and `bag_after` is filled in.
    """
    replacements = colours(body.get("replacements"))
    result = rules.healing(bag(body["bag"]), schemas.healing_draws(body), source, replacements)
    return result, text.healing(result, body.get("name"), lang)


def healing_odds(body: Body) -> Odds:
    """Exact odds of a healing draw

    Distribution `black_drawn` (black marbles that may be replaced, ruling 4); no outcomes.
    """
    return odds.healing(bag(body["bag"]), schemas.healing_draws(body))


def _apply_example(view: Callable[[Body, RandomSource, str], tuple[rules.HealingResult | rules.ExperienceResult, str]],
                   draw_request: dict, manual: list, apply: Callable[..., rules.Bag],
                   replacements: list) -> tuple:
    """A request and response example for an apply operation: a real draw made offline (with a
    placeholder receipt, since a fixed example cannot carry a valid signature) and its result."""
    operation, source = view.__name__, ManualSource(manual)
    draw_result, summary = view(dict(draw_request), source, "en")
    draw = {"operation": f"beutelschneider.{operation}", "request": {**draw_request, "manual": manual},
            "result": plain(draw_result), "randomness": {"source": "manual", "events": source.events},
            "summary": summary, "lang": "en", "receipt": dict(EXAMPLE_RECEIPT)}
    request = {"draw": draw, "replacements": replacements}
    after = apply(bag(draw_request["bag"]), draw_result.drawn, colours(replacements))
    response = {"operation": f"beutelschneider.{operation}-apply", "request": request,
                "result": plain(rules.Applied(after)),
                "summary": text.applied(operation, bag(draw_request["bag"]), after, "en"),
                "lang": "en", "receipt": dict(EXAMPLE_RECEIPT)}
    return request, response


HEALING_APPLY_EXAMPLE, HEALING_APPLY_RESPONSE = _apply_example(
    healing, HEALING_EXAMPLE, ["green", "black"], rules.healed, ["red"])


def healing_apply(body: Body, lang: str) -> tuple[rules.Applied, str]:
    """Apply the healing choices to a signed draw

    `draw` is the complete signed `/healing` response. Ruling 4: `replacements` names exactly one
    colour among red, green and blue per black marble drawn (else 422 `rule-violation`); each black
    marble drawn leaves the recorded bag and its colour goes in. The draw is not stored on the
    server: send it back whole. It must verify with this service's keys and be a
    `beutelschneider.healing` response, else 422 `invalid-receipt` naming `draw`; a draw whose
    replacements were given up front is refused.
    """
    draw = verified_response(body["draw"], operation="beutelschneider.healing", field="draw")
    before, drawn = recorded(draw)
    after = rules.healed(before, drawn, colours(body["replacements"]))
    return rules.Applied(after), text.applied("healing", before, after, lang)


# --- experience ---------------------------------------------------------------------------------

def experience(body: Body, source: RandomSource, lang: str) -> tuple[rules.ExperienceResult, str]:
    """Draw for experience (Erfahrung)

    Draws 1 (little), 2 (some) or 3 (much) marbles. Ruling 5: each may be exchanged for a different
    colour among red, green, blue and white (never black), or kept (null). Two-phase: send this signed
    response to `/experience/apply` with one entry per marble drawn. One step: give `replacements` up
    front (one per marble drawn, in draw order); a colour equal to the one drawn is then a 422
    `rule-violation` like in the apply step, so decide after the draw when that matters.
    """
    amount = rules.Amount(body["amount"])
    result = rules.experience(bag(body["bag"]), amount.draws, source, colours(body.get("replacements")))
    return result, text.experience(result, amount, body.get("name"), lang)


def experience_odds(body: Body) -> Odds:
    """Exact odds of an experience draw

    Distributions `drawn:<colour>` (how many marbles of each colour are drawn); no outcomes.
    """
    return odds.experience(bag(body["bag"]), rules.Amount(body["amount"]).draws)


EXPERIENCE_APPLY_EXAMPLE, EXPERIENCE_APPLY_RESPONSE = _apply_example(
    experience, EXPERIENCE_EXAMPLE, ["white", "green", "red"], rules.experienced, ["red", "red", None])


def experience_apply(body: Body, lang: str) -> tuple[rules.Applied, str]:
    """Apply the experience choices to a signed draw

    `draw` is the complete signed `/experience` response. Ruling 5: `replacements` has one entry per
    marble drawn, in draw order: a different colour among red, green, blue and white, or null to keep
    it (else 422 `rule-violation`). The draw is not stored on the server: send it back whole. It
    must verify with this service's keys and be a `beutelschneider.experience` response, else 422
    `invalid-receipt` naming `draw`; a draw whose replacements were given up front is refused.
    """
    draw = verified_response(body["draw"], operation="beutelschneider.experience", field="draw")
    before, drawn = recorded(draw)
    after = rules.experienced(before, drawn, colours(body["replacements"]))
    return rules.Applied(after), text.applied("experience", before, after, lang)


# --- encounters ---------------------------------------------------------------------------------

ENCOUNTER_EXAMPLE = {"sides": [{"name": "Legionär", "bag": LEGIONARY, "difficulty": "easy"},
                               {"name": "Affenmensch", "bag": {"red": 10, "green": 5, "white": 5},
                                "difficulty": "easy"}],
                     "aftermath": {"mortal_danger": "clear"}, "curve_rounds": 10}
ENCOUNTER_RULINGS = """Each exchange is one `combat` (ruling 3) of the two sides, the first attacking: "Im Kampf
wird jeweils ein Schlagabtausch zwischen zwei Charakteren als eine Auseinandersetzung behandelt" and
"Danach geht der Kampf gegebenenfalls mit neuerlichen Auseinandersetzungen weiter"; the fight ends
when a side falls unconscious (ruling 1: "jemals nur schwarze Murmeln ziehen sollte"). Rulings
"Encounters": E1 the injury of the exchange in which someone falls unconscious still applies (it
changes only the end bags); E2 both draw only black in one exchange: `both_out`; E3 a state that can
never change (e.g. no marble of an injuring ability's colour and no black left on either side):
`stalemate`; E4 both sides keep the ability and difficulty of the body for the whole fight ("sind es
auf beiden Seiten jeweils drei Murmeln"); E5 the `aftermath` ("kommt es zur Lebensgefahr am ehesten
nach deren Ende"): one mortal-danger draw of each side unconscious at the end; amended 2026-12-04 for
sides of several, only the unconscious "auf dem Schlachtfeld zurückgelassen" draw: those of the losing
side (both after `both_out`, the fleeing side's after `escapes:<name>`, nobody's after a stalemate or
an undecided end), those of the other side only with `aftermath.winners_draw` (else they are `tended`
by their own); E6 a side that wins an
exchange with an ability that does not injure gets away ("Hat beispielsweise der Fliehende mehr grüne
Murmeln ... gezogen als der Angreifer rote, so ist die Flucht gelungen"): the fight ends with
`escapes:<name>` (an exchange in which the loser falls unconscious stays a win); E8
`injuring_abilities` (ruling 9, default [combat]) holds in every exchange as in a single `combat`;
E7 a side may have several `members` ("Kämpft beispielsweise ein Legionär gegen zwei Affenmenschen, so
gibt es zwei Auseinandersetzungen"; "ein Charakter durchaus Teil mehrerer solcher Paare sein kann"):
each round every pairing of standing opponents is one exchange, in the order of `pairs` (default:
each member of the first side against each member of the other, in order), its injury applied at
once, before the next exchange ("Im ersten Durchgang ... Gegen den zweiten Affenmenschen ..."); a
member who falls unconscious takes part in no further exchange, a side is out when all its members
are; a member winning with an ability that does not injure gets its side away (`escapes:<side>`).
`max_rounds` counts exchanges between two characters and rounds (every pairing once) between sides
of several. Such a fight is solved on a reduced space: a member who falls leaves the state with its
bag; its state bound is, summed over every set of standing members with someone on each side, the
product of their (matching + 1)(other + 1), times the pairings of a round. Rounds pushed one by one
(`max_rounds`, `curve_rounds`) go over every member's bag: Π over the members of
2 (matching + 1)(other + 1), times the pairings, times the rounds."""


def encounter_sides(body: Body) -> list[encounter.Side]:
    injuring = frozenset(rules.Ability(ability) for ability in body["injuring_abilities"])
    return [encounter.Side(s["name"], bag(s["bag"]), rules.Ability(s["ability"]), rules.Difficulty(s["difficulty"]),
                           injuring)
            for s in body["sides"]]


def is_group_fight(body: Body) -> bool:
    """E7: a side with `members`, or `pairs`; otherwise the fight of two characters as before."""
    return body.get("pairs") is not None or any("members" in side for side in body["sides"])


def group_fight(body: Body) -> groups.Fight:
    injuring = frozenset(rules.Ability(ability) for ability in body["injuring_abilities"])
    sides = tuple(groups.Group(side["name"], tuple(
        encounter.Side(m["name"], bag(m["bag"]), rules.Ability(m["ability"]), rules.Difficulty(m["difficulty"]),
                       injuring) for m in side.get("members") or [side])) for side in body["sides"])
    names = [member.name for side in sides for member in side.members]
    if body.get("pairs") is None:
        pairs = groups.default_pairs(len(sides[0].members), len(sides[1].members))
    else:
        pairs = tuple((names.index(a), names.index(b)) for a, b in body["pairs"])
    return groups.Fight((sides[0], sides[1]), pairs)


def aftermath(body: Body) -> rules.Danger | None:
    danger = body["aftermath"]["mortal_danger"]
    return None if danger is None else rules.Danger(danger)


@quoting(ENCOUNTER_RULINGS)
def encounter_play(body: Body, source: RandomSource, lang: str) -> tuple[encounter.EncounterResult, str]:
    """Play a whole fight out, exchange by exchange

    {rulings}

    `steps` lists every exchange as `beutelschneider.combat` reports it; `end` the bags at the end,
    `aftermath` the mortal-danger draws. Without `max_rounds` the fight stops at 1000 exchanges
    (`undecided`). `curve_rounds` and `exact` are accepted and ignored.
    """
    if is_group_fight(body):
        result = groups.play(group_fight(body), source, aftermath=aftermath(body),
                             winners_draw=body["aftermath"]["winners_draw"], max_rounds=body["max_rounds"])
    else:
        result = encounter.play(encounter_sides(body), source, aftermath=aftermath(body),
                                max_rounds=body["max_rounds"])
    return result, text.encounter(result, lang)


@quoting(ENCOUNTER_RULINGS)
def encounter_odds(body: Body) -> Odds:
    """Chances of a whole fight, in float64

    {rulings}

    Outcomes `wins:<name>` per side, `escapes:<name>` per side whose ability does not injure (E6),
    `both_out`, `stalemate`, and `undecided` with `max_rounds`;
    distributions `black_after:<name>` (black marbles at the end); expected `exchanges`,
    `black_after:<name>` and, with an aftermath, `dies:<name>`. The state is the two bags, and only
    the marbles of a side's ability colour and its other non-black marbles matter: the bound is
    Π over sides of (matching + 1)(other non-black + 1), refused over WURFWERK_MAX_ENCOUNTER_STATES
    with 422 `encounter-too-large`. Answered in float64 (exact fractions grow about a digit per
    state): every `exact` is null, `exact: required` is a 422, the outcomes sum to 1 within
    `solver.max_error` (every term non-negative, no cancellation).
    """
    if is_group_fight(body):
        fight = group_fight(body)
        rounds = max(body["max_rounds"] or 0, body["curve_rounds"])
        if rounds:
            encounter_precision(groups.rounds_state_bound(fight), body["exact"], float_only=True, rounds=rounds)
        else:
            encounter_precision(groups.state_bound(fight), body["exact"], float_only=True, cost=SWEPT)
        return groups.odds(fight, aftermath=aftermath(body), winners_draw=body["aftermath"]["winners_draw"],
                           max_rounds=body["max_rounds"],
                           curve_rounds=body["curve_rounds"])
    sides = encounter_sides(body)
    encounter_precision(encounter.state_bound(sides), body["exact"], float_only=True)
    return encounter.odds(sides, aftermath=aftermath(body), max_rounds=body["max_rounds"],
                          curve_rounds=body["curve_rounds"])


# --- advice (RULINGS.md "Advice", Beutelschneider) ----------------------------------------------------

def _side_of(body: Body, name: str) -> dict:
    return next(side for side in body["sides"] if side["name"] == name)


def _abilities(body: Body) -> list[str]:
    """Combat, skill (the flight, "Flucht wird über Geschick abgehandelt") and magic where the world
    lets it injure (ruling 9)."""
    return [rules.Ability.COMBAT.value, rules.Ability.SKILL.value,
            *([rules.Ability.MAGIC.value] if rules.Ability.MAGIC.value in body["injuring_abilities"] else [])]


def _advice_choices(body: Body, side: str) -> dict[str, list[Any]]:
    """`ability` of each of the side's members (one character: its ability; members: one per member);
    between sides of several with at most three on the other side, `pairs`: the order in which the
    round's exchanges meet the second side's members (E7, "Im ersten Durchgang ..."), null the
    default."""
    given = _side_of(body, side)
    if "members" in given:
        names = [member["name"] for member in given["members"]]
        per_member = [list(dict.fromkeys([*_abilities(body), member["ability"]])) for member in given["members"]]
        abilities: list[Any] = [dict(zip(names, chosen, strict=True)) for chosen in itertools.product(*per_member)]
    else:
        abilities = list(dict.fromkeys([*_abilities(body), given["ability"]]))
    choices: dict[str, list[Any]] = {"ability": abilities}
    if is_group_fight(body):
        first, second = ([member["name"] for member in s.get("members") or [s]] for s in body["sides"])
        if 1 < len(second) <= 3:
            orders = [[[a, b] for a in first for b in order] for order in itertools.permutations(second)][1:]
            choices["pairs"] = [None, *([body["pairs"]] if body.get("pairs") not in (None, *orders) else []),
                                *orders]
    return choices


def _advice_default(body: Body, side: str) -> dict[str, Any]:
    """The documented defaults (API.md §1.10), whatever the body gives: combat (E4) for every member,
    E7's order of who meets whom (`pairs` null)."""
    given = _side_of(body, side)
    combat = rules.Ability.COMBAT.value
    ability = {member["name"]: combat for member in given["members"]} if "members" in given else combat
    return {"ability": ability, "pairs": None}


def _advice_apply(body: Body, side: str, policy: Mapping[str, Any]) -> dict:
    changed = copy.deepcopy(dict(body))
    given = _side_of(changed, side)
    if "ability" in policy:
        if "members" in given:
            for member in given["members"]:
                member["ability"] = policy["ability"][member["name"]]
        else:
            given["ability"] = policy["ability"]
    if "pairs" in policy:
        changed["pairs"] = policy["pairs"]
    return changed


# The adaptive solve sweeps its states level by level with numpy: per state about a third of what the
# fight's own odds cost per state (priced STATE_BY_STATE), measured on the text's fight (bench/README.md).
ADAPTIVE_COST = STATE_BY_STATE // 3


def _adaptive(body: Body, side: str, asked: Mapping[str, Sequence[Any]]) -> platform_advice.Adaptive | None:
    """The ability chosen anew before every exchange, given both bags; a fight of two characters
    without `max_rounds` only (between sides of several: null)."""
    if body["max_rounds"] is not None or is_group_fight(body) or "ability" not in asked:
        return None
    sides = encounter_sides(body)
    index = [s.name for s in sides].index(side)
    me, them = sides[index], sides[1 - index]
    abilities = tuple(rules.Ability(value) for value in asked["ability"])
    encounter_precision(advice.state_bound(me, them, abilities), body["exact"], float_only=True,
                        cost=ADAPTIVE_COST)
    solved = advice.solve(me, them, abilities)
    return platform_advice.Adaptive(solved.win, advice.rules(solved, me.ability), solved.states, solved.max_error,
                                    not_lose=solved.not_lose)


# A thief caught by a guard: fight or flee ("Flucht wird über Geschick abgehandelt")? Smaller than the
# text's fight, whose every option is priced like its odds and two of them fill the encounter limit.
ADVICE_EXAMPLE = {"sides": [{"name": "Dieb", "bag": {"red": 3, "green": 6, "white": 5, "black": 1}},
                            {"name": "Wache", "bag": {"red": 7, "green": 3, "white": 5}}],
                  "advise": {"side": "Dieb"}}

ADVISOR = platform_advice.Advisor(
    sides=lambda body: [side["name"] for side in body["sides"]], choices=_advice_choices, default=_advice_default,
    apply=_advice_apply, odds=lambda body: encounter_odds(body), adaptive=_adaptive, rounds="exchanges",
    describe=advice.policy_words)


@quoting(ENCOUNTER_RULINGS)
def encounter_advice(body: Body, lang: str) -> tuple[dict[str, Any], str]:
    """What a side's choices in a whole fight are worth (advice)

    RULINGS.md "Advice", Beutelschneider: `ability` of each member of the side (combat; skill, the
    flight: "Flucht wird über Geschick abgehandelt", E6; magic where `injuring_abilities` lets it
    injure, ruling 9) and, between sides of several, `pairs` (who meets whom first, E7). Every
    combination is one fixed option, answered as `beutelschneider.encounter.odds` answers the body
    with it (float64); ranked by the chance to win, then not to lose (an escape of either side and a
    stalemate are no loss, `both_out` is), then fewer exchanges ("gleich gut" within 0.1 percentage
    points). `adaptive`: the ability chosen anew before every exchange given both bags (backward
    induction on the fight's chain, the other side as the body gives it), for a fight of two
    characters without `max_rounds` (else null). The states of every option and of the adaptive
    solve count together against WURFWERK_MAX_ENCOUNTER_STATES (422 `encounter-too-large` before
    solving).

    {rulings}
    """
    return platform_advice.answer(ADVISOR, body, lang)


SYSTEM = System(
    "beutelschneider",
    manual_value={"type": "string", "enum": schemas.COLOURS, "description": "The colour of a marble drawn."},
    title="Beutelschneider",
    tagline="marble bag",
    rules_file="000_617633d4e2bd3e3f.txt",
    description="A marble-bag RPG: each character is a bag of red (combat), green (skill), blue (magic), "
                "white (potential) and black (wounds) marbles, drawn without replacement.",
    enums={"colour": schemas.COLOURS, "ability": schemas.ABILITIES, "difficulty": schemas.DIFFICULTIES,
           "severity": [s.value for s in rules.Severity], "danger": [d.value for d in rules.Danger],
           "chances": [c.value for c in rules.Chances], "amount": [a.value for a in rules.Amount],
           "bag_problem": [p.value for p in rules.BagProblem]},
    glossary=api_glossary("beutelschneider"),  # service/locale/glossary.json, the one glossary
    operations=(
        Operation.resolving("/validate-bag", validate_bag, operation="validate-bag",
                            request=schemas.BeutelValidateBagRequest, result=schemas.BeutelValidateBagResult,
                            example=VALIDATE_EXAMPLE),
        Operation.rolling("/challenge", challenge, operation="challenge",
                          request=schemas.BeutelChallengeRequest, result=schemas.BeutelChallengeResult,
                          example=CHALLENGE_EXAMPLE, odds=challenge_odds, luck=Luck("matching")),
        Operation.rolling("/first-aid", first_aid, operation="first-aid",
                          request=schemas.BeutelFirstAidRequest, result=schemas.BeutelFirstAidResult,
                          example=FIRST_AID_EXAMPLE, odds=first_aid_odds, luck=Luck("matching")),
        Operation.rolling("/contest", contest, operation="contest", request=schemas.BeutelContestRequest,
                          result=schemas.BeutelContestResult, example=CONTEST_EXAMPLE, odds=contest_odds,
                          unmeasured="several bags drawn at once: the winner is no luck of one seat"),
        Operation.rolling("/combat", combat, operation="combat", request=schemas.BeutelCombatRequest,
                          result=schemas.BeutelCombatResult, example=COMBAT_EXAMPLE, odds=combat_odds,
                          unmeasured="two bags drawn at once: the winner is no luck of one seat"),
        Operation.rolling("/injury", injury, operation="injury", request=schemas.BeutelInjuryRequest,
                          result=schemas.BeutelInjuryResult, example=INJURY_EXAMPLE, odds=injury_odds,
                          luck=Luck("black_after", lambda result: result["bag_after"].get("black"), higher=False)),
        Operation.rolling("/mortal-danger", mortal_danger, operation="mortal-danger",
                          request=schemas.BeutelMortalDangerRequest, result=schemas.BeutelMortalDangerResult,
                          example=MORTAL_DANGER_EXAMPLE, odds=mortal_danger_odds,
                          unmeasured="two outcomes, lives or dies: no ordered quantity to place a draw in"),
        Operation.rolling("/healing", healing, operation="healing", request=schemas.BeutelHealingRequest,
                          result=schemas.BeutelHealingResult, example=HEALING_EXAMPLE, odds=healing_odds,
                          luck=Luck("black_drawn", higher=False)),
        Operation.resolving("/healing/apply", healing_apply, operation="healing-apply",
                            request=schemas.BeutelHealingApplyRequest, result=schemas.BeutelApplyResult,
                            example=HEALING_APPLY_EXAMPLE, response_example=HEALING_APPLY_RESPONSE),
        Operation.rolling("/experience", experience, operation="experience",
                          request=schemas.BeutelExperienceRequest, result=schemas.BeutelExperienceResult,
                          example=EXPERIENCE_EXAMPLE, odds=experience_odds,
                          unmeasured="the colours drawn are the player's to choose from: none is better"),
        Operation.resolving("/experience/apply", experience_apply, operation="experience-apply",
                            request=schemas.BeutelExperienceApplyRequest, result=schemas.BeutelApplyResult,
                            example=EXPERIENCE_APPLY_EXAMPLE, response_example=EXPERIENCE_APPLY_RESPONSE),
        Operation.rolling("/encounter", encounter_play, operation="encounter", request=schemas.BeutelEncounterRequest,
                          result=schemas.BeutelEncounterResult, example=ENCOUNTER_EXAMPLE,
                          odds=encounter_odds, encounter=True, advice=encounter_advice,
                          advice_example=ADVICE_EXAMPLE),
    ),
)
