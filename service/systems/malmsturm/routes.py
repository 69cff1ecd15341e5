"""Malmsturm endpoints: load the body, call the rules, write the summary. Nothing else."""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from service.platform.dice.randomness import RandomSource
from service.platform.http.limits import STATE_BY_STATE, encounter_precision
from service.platform.maths.luck import Luck
from service.platform.maths.odds import Odds
from service.platform.operations import advice as platform_advice
from service.platform.operations.operations import Body, Operation, System, quoting
from service.platform.values.plain_data import plain
from service.platform.words.glossary import api_glossary
from service.systems.malmsturm import (
    advice,
    bounds,
    encounter,
    every_order,
    odds,
    play_out,
    rules,
    schemas,
    solver,
    text,
)

# What one state of the conflict's chain costs its solver (numpy over states numbered as ints), in
# states of a swept reduced space (service/platform/http/limits.py; the figures: bench/README.md).
# Rounds pushed one by one cost a state by state walk's; every order of an initiative side by side
# (every_order.py) costs a few swept states per state and order.
STATE_COST = 16
EVERY_ORDER_COST = 3
INITIATIVE_COST = 20  # one (tie structure, order) pair of the initiative's exact odds

ACTION_EXAMPLE = {"skill": 3, "difficulty": 2, "modifier": 0}
CONTEST_EXAMPLE = {"a": {"name": "Taschendieb", "skill": 3}, "b": {"name": "Händler", "skill": 2}}
INITIATIVE_EXAMPLE = {"participants": [{"name": "Ragna", "intuition": 2}, {"name": "Brok", "intuition": 1},
                                       {"name": "Ork", "intuition": 1}]}
ATTACK_EXAMPLE = {
    "attacker": {"name": "Ragna", "skill": 3, "attack": "harm"},
    "defender": {"name": "Ork", "skill": 2, "stress": {"physical": {"current": 3, "max": 3},
                                                        "mental": {"current": 2, "max": 2}},
                 "consequences": 0},
    "take_consequence_early": False,
}


def contender(side: Body) -> rules.Contender:
    return rules.Contender(side["skill"], side["modifier"], side.get("name"))


def attacker(body: Body) -> rules.Attacker:
    side = body["attacker"]
    return rules.Attacker(side["skill"], rules.AttackType(side["attack"]), side["modifier"], side.get("name"))


def defender(body: Body) -> rules.Defender:
    side = body["defender"]
    stress = rules.Stress(**{name: rules.StressTrack(**track) for name, track in side["stress"].items()})
    return rules.Defender(side["skill"], stress, side["consequences"], side["modifier"], side.get("name"))


def ladder(lang: str) -> tuple[rules.LadderResult, str]:
    """The ladder (Stufenleiter) with its labels

    Ruling 1: −4 hoffnungslos, −3 erbärmlich, −2 dilettantisch, −1 unterdurchschnittlich, 0 mäßig,
    +1 durchschnittlich, +2 passabel, +3 gut, +4 hervorragend, +5 überwältigend, +6 Weltklasse, above
    +6 unvergleichlich; below −4 stays hoffnungslos. The ends are open: `open_end: below` on −4,
    `open_end: above` on +7 (every total above +6). English labels: hopeless, terrible, poor, below
    average, mediocre, average, fair, good, great, superb, fantastic, legendary.
    """
    result = rules.ladder(lang)
    return result, text.ladder(result, lang)


def action(body: Body, source: RandomSource, lang: str) -> tuple[rules.ActionResult, str]:
    """Roll a simple action (Einfache Aktion)

    Total = skill + modifier + 4dF (`dice` dF: 1..8, "meistens 4", ruling 7), read on the ladder
    (ruling 1). Ruling 2: success when the total is
    at least the difficulty ("Für einen Erfolg muss man mindestens den DC getroffen haben"); `shifts`
    (Erfolge) = total − difficulty when ≥ 0, else 0; `margin` is total − difficulty either way.
    """
    result = rules.action(body["skill"], body["difficulty"], source, modifier=body["modifier"], lang=lang,
                          dice=body["dice"])
    return result, text.action(result, body["difficulty"], lang)


def action_odds(body: Body) -> Odds:
    """Exact odds of a simple action

    Outcomes `success` (total ≥ difficulty, ruling 2) and `failure`; distributions `shifts` (0 on a
    failure) and `total`; `dice` dF as in `malmsturm.action`.
    """
    return odds.action(body["skill"], body["difficulty"], modifier=body["modifier"], dice=body["dice"])


def contest(body: Body, source: RandomSource, lang: str) -> tuple[rules.ContestResult, str]:
    """Roll a contest (Wettstreit)

    Each side rolls skill + modifier + 4dF (a first, then b; `dice` dF instead of four, ruling 7).
    Ruling 3: a side wins only with a total at least one step above the other's; equal totals are a
    tie (`winner: null`). `shifts` is the difference of the totals.
    """
    result = rules.contest(contender(body["a"]), contender(body["b"]), source, lang=lang, dice=body["dice"])
    return result, text.contest(result, lang)


def contest_odds(body: Body) -> Odds:
    """Exact odds of a contest

    Outcomes `a`, `b` (a total at least one step above the other's, ruling 3) and `tie`; distribution
    `margin` (a's total − b's).
    """
    return odds.contest(contender(body["a"]), contender(body["b"]), dice=body["dice"])


def initiative(body: Body, source: RandomSource, lang: str) -> tuple[rules.InitiativeResult, str]:
    """Roll the order of a conflict (Reihenfolge)

    "Die Reihenfolge wird über einen Intuitions-Wurf ermittelt." Ruling 4: each participant rolls
    4dF + intuition (in request order), highest total first; equal totals: higher intuition first;
    still equal: roll-offs of 4dF each (higher first), a group still tied rolls again. Roll-offs
    are rolled group by group from the top of the order, members in request order, so their dice
    are recorded and replayable via `manual`; they are listed per participant in `roll_offs`.
    After 20 tied roll-offs the request order stands. Names must be unique. `dice` dF (1..8, default
    4, ruling 7) for every roll, the roll-offs too.
    """
    participants = [rules.Participant(p["name"], p["intuition"]) for p in body["participants"]]
    result = rules.initiative(participants, source, lang=lang, dice=body["dice"])
    return result, text.initiative(result, lang)


def initiative_odds(body: Body) -> Odds:
    """Exact odds of the order of a conflict

    One outcome `first:<name>` per participant: the probability of acting first under ruling 4
    (highest 4dF + intuition; equal totals: higher intuition; still equal: roll-offs, at most 20,
    after which the request order stands); `expected` gives each participant's mean total.
    """
    return odds.initiative([rules.Participant(p["name"], p["intuition"]) for p in body["participants"]],
                           dice=body["dice"])


def attack(body: Body, source: RandomSource, lang: str) -> tuple[rules.AttackResult, str]:
    """Roll an attack in a conflict (Angriff)

    The attacker rolls skill + modifier + 4dF, then the defender. Ruling 5: a hit when the attacker's
    total beats the defender's by at least 1; the defender loses `shifts` (the difference) stress on
    the attack's track (harm, push: physical; deceive, intimidate, charm, persuade: mental). At 0 or
    below a consequence is required (`consequence_reason: stress_spent`) and the track refills to its
    max; excess shifts are lost. With `take_consequence_early` a hit causes a consequence instead of
    the stress loss (`taken_early`, the track is unchanged); it has no effect on a miss. The second
    consequence takes the defender out (`taken_out`); a defender who already has two is out, and
    nothing changes. Ruling 5: the defender may choose not to defend ("der angegriffene kann sich mit
    einem Fertigkeitswurf verteidigen"): with `defend: false` no defense dice are rolled (its
    `skill` may be left out) and the attack meets the fixed `difficulty` (default 0, mäßig) instead;
    `defended` is false and `defender` shows that difficulty. A result requiring a consequence
    carries `suggested_consequences`, the text's examples for that kind of attack ("Beispiele für
    Konsequenzen": harm Körperliche Verwundung; deceive Getäuscht, Verwirrt, Verunsichert,
    Unkonzentriert; intimidate Eingeschüchtert, Verunsichert, Verängstigt; charm Kooperativ, Verliebt;
    push Aus dem Gleichgewicht gebracht, Stolpern; persuade Überredet, ein Auge zudrücken), in German,
    English and `lang`. Ruling 6: the consequences and their recovery times are listed in
    `/v1/systems`. Ruling 7: `dice` dF per roll (1..8, default 4). Ruling 8: a consequence's severity
    (leicht/mittel/schwer) is the defender's choice with the GM ("Normalerweise bestimmt der
    Verteidiger selbst"); it changes no numbers, only the recovery time, and the count decides;
    invoking one ("Eine Konsequenz funktioniert wie ein Aspekt") is entered as `modifier`. Ruling 9:
    `/v1/systems` lists the defender's skills per attack kind (`attack_skills`, the text's table:
    Ausweichen, Menschenkenntnis/Wahrnehmung, Nerven behalten, Körperbeherrschung).
    """
    result = rules.attack(attacker(body), defender(body), source,
                          take_consequence_early=body["take_consequence_early"], lang=lang, dice=body["dice"],
                          defend=body["defend"], difficulty=body["difficulty"])
    return result, text.attack(result, lang)


def attack_odds(body: Body) -> Odds:
    """Exact odds of an attack

    Mutually exclusive outcomes (ruling 5): `taken_out` (the defender is out after the attack),
    `consequence` (a consequence without being taken out), `hit` (a hit without a consequence) and
    `miss`; distribution `shifts` (0 on a miss).
    """
    return odds.attack(attacker(body), defender(body), take_consequence_early=body["take_consequence_early"],
                       dice=body["dice"], defend=body["defend"], difficulty=body["difficulty"])


ENCOUNTER_EXAMPLE = {
    "sides": [
        {"name": "Helden", "members": [{"name": "Alrik", "attack": {"skill": 3, "type": "harm"}, "defense": 2,
                                        "stress": {"physical": {"current": 4, "max": 4},
                                                   "mental": {"current": 3, "max": 3}},
                                        "intuition": 2}]},
        {"name": "Orks", "members": [{"name": "Ork", "attack": {"skill": 2, "type": "harm"}, "defense": 1,
                                      "stress": {"physical": {"current": 3, "max": 3},
                                                 "mental": {"current": 2, "max": 2}},
                                      "intuition": 1}]},
    ],
    "order": "initiative",
    "policy": {"targeting": "focus", "concede_at_consequences": {}, "defend": True},
}


def conflict(body: Body) -> encounter.Conflict:
    sides = body["sides"]
    members = []
    for side_index, side in enumerate(sides):
        for member in side["members"]:
            stress = rules.Stress(**{name: rules.StressTrack(**track) for name, track in member["stress"].items()})
            members.append(encounter.Member(
                member["name"], side_index, member["attack"]["skill"], rules.AttackType(member["attack"]["type"]),
                member["defense"], member["modifier"], stress, member["consequences"], member["intuition"],
                tuple((rules.AttackType(kind), value) for kind, value in sorted(member["defenses"].items()))))
    names = [member.name for member in members]
    policy = body["policy"]
    concede = policy["concede_at_consequences"]
    return encounter.Conflict(
        side_names=(sides[0]["name"], sides[1]["name"]), members=tuple(members),
        order=None if body["order"] == schemas.INITIATIVE else tuple(names.index(name) for name in body["order"]),
        targeting=policy["targeting"], concede_at=(concede.get(sides[0]["name"]), concede.get(sides[1]["name"])),
        defend=policy["defend"], dice=body["dice"], ends=body["ends"])


ENCOUNTER_RULINGS = """Ruling Malmsturm E1: "Die Reihenfolge wird über einen Intuitions-Wurf ermittelt": the order is
rolled once per conflict (`order: initiative`, ruling 4; E6: for sides of any size, every member rolls
and all act in that order) or given as every member's name once; it is the same every round. E2: every
turn is an attack (`malmsturm.attack`, ruling 5) of the member's `attack` (skill + modifier) against
the target's defence (+ modifier): E7 its `defenses` entry for the attack's kind (the text's table of
defending skills), else its `defense`; with `policy.defend: false` nobody defends and every attack
meets the fixed difficulty 0 (mäßig); aspects and invocations are not modelled; no consequence is
taken early. The attack's track loses the shifts; "Wenn seine Belastungspunkte verbraucht sind, dann
erleidet er eine Konsequenz und die Belastungspunkte werden wieder aufgefüllt"; "Wer zwei
Konseuenzen hingenommen hat, scheidet aus dem Konflikt aus", and a member taken out acts no more. A
side loses when all its members are out (E8 `ends: side_out`, the default; `ends: first_out`: as
soon as any of its members is out, "bis einer der Konkurrenten freiwillig oder unfreiwillig
ausscheidet"; echoed in the answer), or (E3) concedes ("eine Partei nachgiebt") as soon as one of
its members holds `policy.concede_at_consequences[<side>]` consequences, and loses at once, even mid-round. E4: when
no attack can ever hit, the outcome is `stalemate`. E5 (`policy.targeting`): `focus` attacks the
standing opponent with the most consequences, then the least stress left on the attack's track, then
the first in the body; `spread`: a side's members, in their order of action, take its standing
opponents in body order in turn (the side's first to act the first standing opponent, its second the
second, wrapping around). A round is every standing member's turn once; `max_rounds` cuts after that
many rounds (`undecided`). Members: names unique over both sides; tracks up to 10; `consequences`
0..1 at the start; `dice` dF per roll (ruling 7)."""


@quoting(ENCOUNTER_RULINGS)
def encounter_play(body: Body, source: RandomSource, lang: str) -> tuple[play_out.EncounterResult, str]:
    """Play out a whole conflict (Konflikt), turn by turn

    The body of `malmsturm.encounter.odds` (its `curve_rounds` and `exact` are ignored). With `order:
    initiative` the order is rolled first (`result.initiative` is exactly what `malmsturm.initiative`
    reports); then every turn is one `malmsturm.attack`, and `result.steps[].attack` is exactly that
    operation's `result`. `result.outcome` is one of the odds' outcomes, `result.end` every member's
    stress and consequences at the end. Without `max_rounds` a conflict stops after 1000 rounds
    (`undecided`).

    {rulings}
    """
    result = play_out.play(conflict(body), source, lang, max_rounds=body["max_rounds"])
    return result, text.encounter(result, lang)


def _bound(chain: encounter.Conflict, cost: int, *, orders_together: bool = False, rounds: int = 0) -> int:
    """The states, and the initiative's exact odds of every order as states of the same cost (they
    are computed once, not per round)."""
    initiative = bounds.initiative_work(chain) * INITIATIVE_COST // (cost * max(1, rounds))
    return bounds.state_bound(chain, orders_together=orders_together) + initiative


@quoting(ENCOUNTER_RULINGS)
def encounter_odds(body: Body) -> Odds:
    """Exact odds of a whole conflict (Konflikt)

    Outcomes `wins:<side>` for each side, `stalemate` (E4) and, with `max_rounds`, `undecided`;
    distributions `consequences:<member>` at the end (2 = taken out); expected `rounds` and
    `consequences:<member>`; with `curve_rounds`, the cumulative chances per round. The chain is
    solved turn by turn; its states (member states × turns of a round, a solve per order under
    `initiative`, one per class of alike orders under `first_out`) are bounded from the body before
    solving (`spread`: every combination of the members' stress and consequences; `focus`: the
    members fall one after another when attacked on one track, counted when attacked on both); with
    four members or more under `initiative` (and no rounds pushed, not exact) every order is walked
    side by side, each state once for all its orders (states × orders); the initiative's exact odds
    count too. With `max_rounds` or `curve_rounds` the rounds are pushed one by one, and the bound
    is states × rounds; over the limit (WURFWERK_MAX_ENCOUNTER_STATES, this solver's share) the
    answer is a 422 `encounter-too-large`. Exact fractions under `exact: auto` up to
    WURFWERK_MAX_ENCOUNTER_EXACT_STATES, float64 above.

    {rulings}
    """
    chain = conflict(body)
    rounds = max(body["max_rounds"] or 0, body["curve_rounds"])  # pushed one by one
    if not rounds and every_order.worth_it(chain):
        exact = encounter_precision(_bound(chain, EVERY_ORDER_COST, orders_together=True), body["exact"],
                                    cost=EVERY_ORDER_COST)
        if not exact:
            return every_order.encounter_odds(chain)
        return solver.encounter_odds(chain, exact=True)
    cost = STATE_BY_STATE if rounds else STATE_COST
    exact = encounter_precision(_bound(chain, cost, rounds=rounds), body["exact"], rounds=rounds, cost=cost)
    return solver.encounter_odds(chain, exact=exact, max_rounds=body["max_rounds"],
                                     curve_rounds=body["curve_rounds"])


# --- advice (RULINGS.md "Advice", Malmsturm) ---------------------------------------------------------

def _advice_choices(body: Body, side: str) -> dict[str, list[Any]]:
    """`concede_at_consequences` of the side ("oder eine Partei nachgiebt", E3; null: never, else a
    count above what its members already hold), `defend` ("kann sich ... verteidigen") and `targeting`
    (E5), the last two for the whole conflict as the body's policy sets them."""
    members = next(given["members"] for given in body["sides"] if given["name"] == side)
    held = max(member["consequences"] for member in members)
    return {"concede_at_consequences": [None, *range(held + 1, rules.CONSEQUENCES_TO_TAKE_OUT + 1)],
            "defend": [True, False], "targeting": [encounter.FOCUS, encounter.SPREAD]}


def _advice_default(body: Body, side: str) -> dict[str, Any]:
    """The documented defaults (API.md §1.10), whatever the body's policy gives: never concede (E3),
    defend, `focus` (E5)."""
    return {"concede_at_consequences": None, "defend": True, "targeting": encounter.FOCUS}


def _advice_apply(body: Body, side: str, policy: Mapping[str, Any]) -> dict:
    changed = copy.deepcopy(dict(body))
    if "concede_at_consequences" in policy:
        concede = changed["policy"]["concede_at_consequences"]
        concede.pop(side, None)
        if policy["concede_at_consequences"] is not None:
            concede[side] = policy["concede_at_consequences"]
    for name in ("defend", "targeting"):
        if name in policy:
            changed["policy"][name] = policy[name]
    return changed


def _adaptive(body: Body, side: str, asked: Mapping[str, Sequence[Any]]) -> platform_advice.Adaptive | None:
    """Concede, take a consequence early or fight on, in every state (the other choices as the body
    gives them); null with `max_rounds` (the best play would depend on the round too)."""
    if body["max_rounds"] is not None:
        return None
    chain = conflict(body)
    index = [given["name"] for given in body["sides"]].index(side)
    exact = encounter_precision(_bound(chain, STATE_BY_STATE), body["exact"])
    solved = advice.solve(chain, index, exact=exact)
    return platform_advice.Adaptive(solved.win, advice.rules_of(solved), solved.states,
                                    0.0 if exact else solved.states * 2.0 ** -48)


ADVISOR = platform_advice.Advisor(
    sides=lambda body: [given["name"] for given in body["sides"]], choices=_advice_choices,
    default=_advice_default, apply=_advice_apply, odds=lambda body: encounter_odds(body), adaptive=_adaptive,
    describe=advice.policy_words)


@quoting(ENCOUNTER_RULINGS)
def encounter_advice(body: Body, lang: str) -> tuple[dict[str, Any], str]:
    """What a side's choices in a whole conflict are worth (advice)

    RULINGS.md "Advice", Malmsturm: `concede_at_consequences` of the side ("oder eine Partei
    nachgiebt", E3), `defend` and `targeting` (E5; for the whole conflict, as the body's policy sets
    them). Every combination is one fixed option, answered as `malmsturm.encounter.odds` answers the
    body with it; ranked by the chance to win, then not to lose (a stalemate is no loss), then fewer
    rounds ("gleich gut" within 0.1 percentage points). `adaptive`: concede, take a consequence early
    instead of the stress ("man kann schon vorher eine Konsequenz hinnehmen, wenn man will") or fight
    on, decided anew in every state (backward induction on the conflict's chain turn by turn; the
    other side plays by the body; conceding loses at once and is never chosen); null with
    `max_rounds`. The states of every option and of the adaptive solve count together against
    WURFWERK_MAX_ENCOUNTER_STATES (422 `encounter-too-large` before solving).

    {rulings}
    """
    return platform_advice.answer(ADVISOR, body, lang)


SYSTEM = System(
    "malmsturm",
    manual_value={"type": "integer", "minimum": -1, "maximum": 1, "description": "A dF face: -1, 0 or +1."},
    title="Malmsturm",
    tagline="FATE, 4dF",
    rules_file="004_c170d2e352f902aa.txt",
    description="FATE/FUDGE: four dF read on the ladder; simple actions, contests, initiative, "
                "attacks with stress and consequences.",
    enums={
        "attack": [a.value for a in rules.AttackType],
        "track": [t.value for t in rules.Track],
        "attack_track": {a.value: t.value for a, t in rules.TRACK_OF.items()},
        "winner": ["a", "b", None],
        "consequence_reason": [r.value for r in rules.ConsequenceReason] + [None],
        "severity": [s.severity for s in rules.SEVERITIES],
        "ladder": [plain(rung) for rung in rules.LADDER],
    },
    glossary=api_glossary("malmsturm"),  # service/locale/glossary.json, the one glossary
    extra={"consequences": [plain(severity) for severity in rules.SEVERITIES],
           "attack_skills": {attack.value: skills for attack, skills in rules.ATTACK_SKILLS.items()},
           "consequence_examples": {attack.value: [plain(example) for example in examples]
                                    for attack, examples in rules.CONSEQUENCE_EXAMPLES.items()}},
    operations=(
        Operation.lookup("/ladder", ladder, operation="ladder", result=schemas.MalmLadderResult),
        Operation.rolling("/action", action, operation="action", request=schemas.MalmActionRequest,
                          result=schemas.MalmActionResult, example=ACTION_EXAMPLE, odds=action_odds,
                          luck=Luck("total")),
        Operation.rolling("/contest", contest, operation="contest", request=schemas.MalmContestRequest,
                          result=schemas.MalmContestResult, example=CONTEST_EXAMPLE, odds=contest_odds,
                          luck=Luck("margin", lambda result: result["a"]["total"] - result["b"]["total"])),
        Operation.rolling("/initiative", initiative, operation="initiative",
                          request=schemas.MalmInitiativeRequest, result=schemas.MalmInitiativeResult,
                          example=INITIATIVE_EXAMPLE, odds=initiative_odds,
                          unmeasured="an order of everyone's rolls: no one seat's ordered quantity"),
        Operation.rolling("/attack", attack, operation="attack", request=schemas.MalmAttackRequest,
                          result=schemas.MalmAttackResult, example=ATTACK_EXAMPLE, odds=attack_odds,
                          luck=Luck("shifts")),
        Operation.rolling("/encounter", encounter_play, operation="encounter", request=schemas.MalmEncounterRequest,
                          result=schemas.MalmEncounterResult, example=ENCOUNTER_EXAMPLE,
                          odds=encounter_odds, encounter=True, advice=encounter_advice),
    ),
)
