"""Weltenbuch endpoints: load the body, call the rules, write the summary. Nothing else."""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from service.platform.dice.randomness import ManualSource, RandomSource
from service.platform.http.limits import encounter_precision
from service.platform.maths.odds import Odds
from service.platform.operations import advice as platform_advice
from service.platform.operations.operations import EXAMPLE_RECEIPT, Body, Operation, System, quoting, verified_response
from service.platform.values.errors import ReceiptError
from service.platform.values.plain_data import plain
from service.platform.words.glossary import api_glossary
from service.platform.words.messages import say
from service.systems.weltenbuch import advice, encounter, odds, rules, schemas, text

CONFLICT_EXAMPLE = {
    "die": 10,
    "parties": [
        {"name": "Heroes", "members": [
            {"name": "Toran", "role": "player", "seat": 1, "profile": 5, "hero_points": 1},
            {"name": "Fayla", "role": "player", "seat": 2, "profile": 2, "magic_bonus": 1},
        ]},
        {"name": "Orcs", "members": [
            {"name": f"Orc {n}", "role": "npc", "profile": 3} for n in (1, 2, 3)
        ]},
    ],
}
ORC_AMBUSH_MANUAL = [1, 2, 5, 6, 8, 9, 10, 1, 6, 10, 3, 4, 10, 2, 3, 9, 2, 6, 7]
NARRATION_EXAMPLE = {
    "conflict": None,  # a real conflict of CONFLICT_EXAMPLE, made below (_conflict_example)
    "toughness": {"Toran": {"current": 6, "max": 6}, "Fayla": {"current": 4, "max": 4},
                  "Orc 1": {"current": 2, "max": 2}, "Orc 2": {"current": 2, "max": 2},
                  "Orc 3": {"current": 2, "max": 2}},
    "spends": [{"member": "Toran", "die": 1, "target": "Orc 1"}, {"member": "Toran", "die": 3, "target": "Orc 2"},
               {"member": "Fayla", "die": 0},
               {"member": "Orc 1", "die": 1, "target": "Toran"}, {"member": "Orc 2", "die": 0, "target": "Fayla"},
               {"member": "Orc 3", "die": 2}],
    "hero_points": [],
}
RESURRECTION_EXAMPLE = {"gods": ["Alvar", "Belra", "Cyrus", "Dunja", "Eldor", "Fenna", "Garm", "Hesta"]}


def parties(body: Body) -> list[rules.Party]:
    return [rules.Party(party["name"], tuple(member(m) for m in party["members"])) for party in body["parties"]]


def member(body: Body) -> rules.Member:
    return rules.Member(name=body["name"], role=rules.Role(body["role"]), profile=body["profile"],
                        seat=body.get("seat"), equipment_bonuses=tuple(body["equipment_bonuses"]),
                        magic_bonus=body["magic_bonus"], situation_bonus=body["situation_bonus"],
                        hero_points=body["hero_points"])


def rolled_members(document: dict) -> list[rules.RolledMember]:
    """The members of a verified conflict response; a signed document of another shape (an older
    release) is refused rather than guessed at."""
    try:
        return [rules.RolledMember(m["name"], m["party"], rules.Role(m["role"]), tuple(m["dice"]))
                for m in document["result"]["members"]]
    except (KeyError, TypeError, ValueError) as error:
        raise ReceiptError("conflict.result", say("is not a conflict result this service can narrate (%(error)s)",
                                                  error=str(error))) from error


def conflict(body: Body, source: RandomSource, lang: str) -> tuple[rules.ConflictResult, str]:
    """Roll a conflict scene (Konfliktszene)

    Every member rolls profile + the single largest equipment bonus (it may be negative) + magic bonus +
    situation bonus + 2 dice per hero point (players only), never fewer than 0 (ruling 2), on any
    even-sided die `die` (default 10; faces reported 1..die); an even face is a success (ruling 1).
    `manual` values of a d10 may be 0 for the ten, as the text writes its example ("(1 2 5 6 8 9 0)");
    events record 10.
    Members roll in request order, parties first to last, so `randomness.events` holds one event per
    member with dice. Party successes are added; the party with the most wins, equal top totals are a
    tie (`winner: null`, ruling 3). `narration_order` is one round of turns (ruling 4): the player
    (never the GM) who rolled the most dice starts, on a tie the one nearer the GM counter-clockwise
    (highest seat); then clockwise by rising seat, the GM taking one turn at seat 0 for all npcs and
    obstacles; members without dice have no turn; without players the GM is the only turn.
    Member names, party names and player seats must be unique; only players have a seat (required)
    and hero points.
    """
    result = rules.conflict(parties(body), source, die=body["die"])
    return result, text.conflict(result, lang)


def conflict_odds(body: Body) -> Odds:
    """Exact odds of a conflict scene

    Half the faces of an even-sided die are even, so each party's successes are Binomial(its dice, 1/2)
    whatever the die (distributions `successes:<party>`, expected values alike). Outcomes `wins:<party>`
    (strictly more successes than every other party) and `tie` (equal top totals, ruling 3). Exact odds
    are computed for at most 8000 dice in the whole conflict (422 naming `parties` beyond).
    """
    return odds.conflict(parties(body))


def _conflict_example() -> dict:
    """The conflict of CONFLICT_EXAMPLE with the dice of ORC_AMBUSH_MANUAL, made offline, with a
    placeholder receipt: the spec the service serves signs it with the service's key (so the
    narration example verifies in /docs' "Try it out")."""
    body = schemas.WeltenConflictRequest().load(CONFLICT_EXAMPLE)
    source = ManualSource(ORC_AMBUSH_MANUAL)
    result, summary = conflict(body, source, "en")
    source.finish()
    return {"operation": "weltenbuch.conflict", "request": {**body, "manual": ORC_AMBUSH_MANUAL},
            "result": plain(result), "randomness": {"source": "manual", "events": source.events},
            "summary": summary, "lang": "en", "receipt": dict(EXAMPLE_RECEIPT)}


NARRATION_EXAMPLE["conflict"] = _conflict_example()
NARRATION_RESPONSE_EXAMPLE = {
    "operation": "weltenbuch.narration",
    "request": NARRATION_EXAMPLE,
    "result": {
        "spent": [
            {"member": "Toran", "die": 1, "face": 2, "success": True, "target": "Orc 1", "lowered": "toughness"},
            {"member": "Toran", "die": 3, "face": 6, "success": True, "target": "Orc 2", "lowered": "toughness"},
            {"member": "Fayla", "die": 0, "face": 1, "success": False, "target": None, "lowered": None},
            {"member": "Orc 1", "die": 1, "face": 4, "success": True, "target": "Toran", "lowered": "toughness"},
            {"member": "Orc 2", "die": 0, "face": 2, "success": True, "target": "Fayla", "lowered": "toughness"},
            {"member": "Orc 3", "die": 2, "face": 7, "success": False, "target": None, "lowered": None},
        ],
        "toughness_after": {"Toran": {"current": 5, "max": 6, "equipment": 0},
                            "Fayla": {"current": 3, "max": 4, "equipment": 0},
                            "Orc 1": {"current": 1, "max": 2, "equipment": 0},
                            "Orc 2": {"current": 1, "max": 2, "equipment": 0},
                            "Orc 3": {"current": 2, "max": 2, "equipment": 0}},
        "hero_points_spent": [],
        "consequences": [],
        "unspent": [{"member": "Toran", "die": i} for i in (0, 2, 4, 5, 6)]
                   + [{"member": "Fayla", "die": 1}, {"member": "Fayla", "die": 2},
                      {"member": "Orc 1", "die": 0}, {"member": "Orc 1", "die": 2},
                      {"member": "Orc 2", "die": 1}, {"member": "Orc 2", "die": 2},
                      {"member": "Orc 3", "die": 0}, {"member": "Orc 3", "die": 1}],
        "overcome": [],
        "complete": False,
    },
    "summary": "Narration: 6 dice spent, 4 toughness lost; 13 dice left.",
    "lang": "en",
    "receipt": dict(EXAMPLE_RECEIPT),
}


def narration(body: Body, lang: str) -> tuple[rules.NarrationResult, str]:
    """Apply the dice spent in the narration (Was genau ist geschehen?)

    Takes the complete signed `weltenbuch.conflict` response (`conflict`, its receipt must verify and
    nothing in it may be changed), the toughness of the members at the start of the scene, every die
    spent so far and the hero points spent; it is stateless, so send all spends again each time.
    A spend names a die by `member` and `die`, the 0-based index into that member's `dice`; each die
    can be spent once. With `target` (an opponent, i.e. a member of another party, with a toughness
    entry) a success lowers that opponent's toughness by 1, equipment toughness first, never below 0
    (ruling 5); a failure cannot have a target, it is spent on narration only, as is any die without
    one. The turn order is not enforced (a player may sit a round out). Hero points (players only)
    restore 3 toughness each, not above max, at the moment they are spent (ruling 5: "kann der Spieler
    immer einen Heldenpunkt ausgeben"): an entry `{"member": ..., "hero_point": true}` in `spends`
    applies between the dice around it (`hero_points_spent` says what each restored); the
    `hero_points` list applies after all spends. Once every die is spent (`complete`),
    toughness 0 means a consequence and full toughness again (ruling 5) for players and npcs (an
    obstacle at 0 is overcome, stays at 0 and is not listed); until then
    `consequences` is empty. `unspent` lists the dice still in front of the members.
    """
    document = verified_response(body["conflict"], operation="weltenbuch.conflict", field="conflict")
    toughness = {name: rules.Toughness(**value) for name, value in body["toughness"].items()}
    spends = [rules.HeroPointSpend(s["member"]) if s["hero_point"]
              else rules.Spend(s["member"], s["die"], s.get("target"))
              for s in body["spends"]]
    hero_points = [rules.HeroPoints(h["member"], h["count"]) for h in body["hero_points"]]
    result = rules.narration(rolled_members(document), toughness, spends, hero_points)
    return result, text.narration(result, lang)


def resurrection(body: Body, source: RandomSource, lang: str) -> tuple[rules.ResurrectionResult, str]:
    """Find the god who brought a character back (Wiederauferstehung)

    Ruling 6: one of the eight gods, by a d8 (`god` 1..8). When the table gives its eight `gods`
    (exactly 8, in d8 order), `name` is the god's name, else null.
    """
    result = rules.resurrection(source, body.get("gods"))
    return result, text.resurrection(result, lang)


def resurrection_odds(body: Body) -> Odds:
    """Exact odds of a resurrection

    Outcomes `god:1` .. `god:8`, 1/8 each (ruling 6); distribution `god`.
    """
    return odds.resurrection(body.get("gods"))


# --- encounters ---------------------------------------------------------------------------------

ENCOUNTER_EXAMPLE = {**CONFLICT_EXAMPLE, "toughness": NARRATION_EXAMPLE["toughness"],
                     "policy": {"targeting": "weakest", "hold_hero_points": {"Fayla": 1}}}
ENCOUNTER_RULINGS = """The scene is one `conflict` and its `narration` (rulings 1-5): "Sobald in einer Szene klar
ist, wer die einzelnen Parteien sind und was das jeweilige Ziel ist, wird die siegreiche Partei
bestimmt. Danach wird gemeinsam beschrieben, wie es genau dazu gekommen ist und dabei auch der
Schaden verteilt." 2..8 parties (E3, as a conflict); every success die of each party (the losers'
too) lowers the toughness of a member of the other parties chosen by `policy.targeting` among the
members of every other party, in body order (every member needs a `toughness` entry); the dice are
spent turn by turn in the narration order, each member spending all its dice. Rulings
"Encounters": E1 toughness stops at 0, further dice go to the next target of the policy (none left:
narration only); "Beträgt die Zähigkeit eines Profils nach einem Konflikt null, erleidet der
Charakter eine Konsequenz" (an obstacle at 0 is overcome instead). E2 a held-back hero point
(`policy.hold_hero_points`) is spent at the end ("Natürlich kann der Spieler immer einen
Heldenpunkt ausgeben, um die Zähigkeit um drei Punkte zu regenerieren und dadurch eine Konsequenz
vermeiden"), +3 toughness not above max, by a player it saves from a consequence; so it prices "2
dice now or insurance later". E3: obstacles overcome (ruling 7) are named in `end.overcome` and in
the summary. `max_rounds` has nothing to cut: the scene is one round."""


def scene(body: Body) -> encounter.Scene:
    toughness = {name: rules.Toughness(**value) for name, value in body["toughness"].items()}
    return encounter.Scene(tuple(parties(body)), toughness, body["policy"]["targeting"],
                           dict(body["policy"]["hold_hero_points"]), body["die"])


@quoting(ENCOUNTER_RULINGS)
def encounter_play(body: Body, source: RandomSource, lang: str) -> tuple[encounter.EncounterResult, str]:
    """Play a conflict scene out: the roll and the policy's narration

    {rulings}

    `steps` holds the one round: `conflict` as `weltenbuch.conflict` reports it and `narration` as
    `weltenbuch.narration` reports it for the policy's spends (turn by turn in the narration order,
    each member spending all its dice). `curve_rounds` and `exact` are accepted and ignored.
    """
    result = encounter.play(scene(body), source)
    return result, text.encounter(result, lang)


@quoting(ENCOUNTER_RULINGS)
def encounter_odds(body: Body) -> Odds:
    """Exact odds of a conflict scene and its consequences

    {rulings}

    Outcomes `wins:<party>` and `tie`; distribution `consequences:<party>` (how many of its members
    take one; `weltenbuch.conflict.odds` gives the successes); expected `consequence:<member>` (its
    chance to take one) and, per held hero point, `hero_point:<member>` (the chance it is needed).
    The bound is Σ over the parties of (dice + 1) for two parties, Π over the members of (dice + 1)
    for more (E3: the dice of several parties meet on the same members, so every member's successes
    count); exact up to WURFWERK_MAX_ENCOUNTER_EXACT_STATES
    under `exact: auto`.
    """
    encounter_scene = scene(body)
    exact = encounter_precision(encounter.state_bound(encounter_scene), body["exact"])
    return encounter.odds(encounter_scene, exact=exact, max_rounds=body["max_rounds"],
                          curve_rounds=body["curve_rounds"])


def _players(body: Body, side: str) -> list[tuple[str, int]]:
    """The side's players with the hero points they may invest or hold (both together, E2)."""
    party = next(party for party in body["parties"] if party["name"] == side)
    held = body["policy"]["hold_hero_points"]
    return [(m["name"], m["hero_points"] + held.get(m["name"], 0)) for m in party["members"]
            if m["role"] == rules.Role.PLAYER.value and m["hero_points"] + held.get(m["name"], 0) > 0]


def _advice_choices(body: Body, side: str) -> dict[str, list[Any]]:
    """RULINGS.md "Advice", Weltenbuch: `hold_hero_points` per player of the side (0 or 1: one held point
    saves the one consequence a scene can bring, E2; the rest invested for 2 dice each) and `targeting`."""
    players = [(name, min(points, advice.HOLD_AT_MOST)) for name, points in _players(body, side)]
    holds = platform_advice.combinations([range(points + 1) for _, points in players])
    return {"hold_hero_points": [{name: held for (name, _), held in zip(players, values, strict=True)}
                                 for values in holds],
            "targeting": list(encounter.TARGETINGS)}


def _advice_default(body: Body, side: str) -> dict[str, Any]:
    """The documented defaults: every hero point invested (none held), `weakest` first."""
    return {"hold_hero_points": {name: 0 for name, _ in _players(body, side)}, "targeting": encounter.WEAKEST}


def _advice_apply(body: Body, side: str, policy: Mapping[str, Any]) -> dict:
    changed = copy.deepcopy(dict(body))
    if "hold_hero_points" in policy:
        points = dict(_players(body, side))
        held = changed["policy"]["hold_hero_points"]
        for party in changed["parties"]:
            for m in party["members"]:
                if m["name"] in policy["hold_hero_points"]:
                    keep = policy["hold_hero_points"][m["name"]]
                    m["hero_points"], held[m["name"]] = points[m["name"]] - keep, keep
        changed["policy"]["hold_hero_points"] = {name: value for name, value in held.items() if value}
    if "targeting" in policy:
        changed["policy"]["targeting"] = policy["targeting"]
    return changed


def _adaptive(body: Body, side: str, asked: Mapping[str, Sequence[Any]]) -> platform_advice.Adaptive:
    """E2: the scene is one roll, decided before it: the best is every point invested (more dice never
    win less); targeting moves no win."""
    invested = _advice_apply(body, side, {"hold_hero_points": {name: 0 for name, _ in _players(body, side)}})
    odds = encounter_odds(invested)
    solver = odds.solver
    assert solver is not None
    said = advice.rules(hold="hold_hero_points" in asked, targeting="targeting" in asked)
    return platform_advice.Adaptive(odds.outcomes[f"wins:{side}"], said, solver.states, solver.max_error)


ADVISOR = platform_advice.Advisor(
    sides=lambda body: [party["name"] for party in body["parties"]], choices=_advice_choices,
    default=_advice_default, apply=_advice_apply, odds=lambda body: encounter_odds(body), adaptive=_adaptive,
    describe=advice.policy_words)


@quoting(ENCOUNTER_RULINGS)
def encounter_advice(body: Body, lang: str) -> tuple[dict[str, Any], str]:
    """What a party's choices in a conflict scene are worth (advice)

    {rulings}

    RULINGS.md "Advice", Weltenbuch: `hold_hero_points` per player of the party (`advise.side`: a party
    name; 0 or 1 held, the rest invested: "Pro investierten Heldenpunkt erhält man 2 Würfel" now, or
    "die Zähigkeit um drei Punkte zu regenerieren" later, E2) and `policy.targeting`; each option's
    `policy.hold_hero_points` moves the player's points between `hero_points` and the held ones. Every
    combination is one fixed option, answered exactly as `weltenbuch.encounter.odds` answers the body
    with it (its `expected` gives the consequences each option costs); ranked by the chance to win.
    `adaptive`: the scene is one roll, so nothing is decided anew: it is the best fixed option, and
    its rules say so.
    """
    return platform_advice.answer(ADVISOR, body, lang)


SYSTEM = System(
    "weltenbuch",
    manual_value={"type": "integer", "minimum": 1, "maximum": 100,
                  "description": "A face of the die rolled: 1..`die` in a conflict, 1..8 for resurrection."},
    title="Weltenbuch",
    tagline="conflict scenes, even faces",
    rules_file="002_610240ae8bf5cc8e.txt",
    description="Conflict scenes: parties roll even-sided dice (an even face is a success), the party with "
                "more successes wins, then the table narrates by spending the dice; toughness, "
                "consequences, resurrection.",
    enums={"role": [role.value for role in rules.Role], "actor": [actor.value for actor in rules.Actor],
           "lowered": ["equipment", "toughness", None]},
    glossary=api_glossary("weltenbuch"),  # service/locale/glossary.json, the one glossary
    operations=(
        Operation.rolling("/conflict", conflict, operation="conflict", request=schemas.WeltenConflictRequest,
                          result=schemas.WeltenConflictResult, example=CONFLICT_EXAMPLE, odds=conflict_odds,
                          unmeasured="every party's dice in one card: no one seat's ordered quantity"),
        Operation.resolving("/narration", narration, operation="narration",
                            request=schemas.WeltenNarrationRequest, result=schemas.WeltenNarrationResult,
                            example=NARRATION_EXAMPLE, response_example=NARRATION_RESPONSE_EXAMPLE),
        Operation.rolling("/resurrection", resurrection, operation="resurrection",
                          request=schemas.WeltenResurrectionRequest, result=schemas.WeltenResurrectionResult,
                          example=RESURRECTION_EXAMPLE, odds=resurrection_odds,
                          unmeasured="one god of eight, none better than another: nothing is lucky"),
        Operation.rolling("/encounter", encounter_play, operation="encounter", request=schemas.WeltenEncounterRequest,
                          result=schemas.WeltenEncounterResult, example=ENCOUNTER_EXAMPLE,
                          odds=encounter_odds, encounter=True, advice=encounter_advice),
    ),
)
