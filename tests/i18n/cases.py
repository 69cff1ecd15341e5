"""Every text path of every operation, for the counts 0, 1 and 2 and 5, as results built directly.

Each case is ``(name, render)`` where ``render(lang)`` returns the chat line (or the worded problem)
in that language. A path whose count cannot be 0 (a win by no success) leaves that count out; the
name says which path and which count, so the golden file reads like a table of every sentence."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from fractions import Fraction

from service.systems.beutelschneider import rules as beutel
from service.systems.beutelschneider import text as beutel_text
from service.systems.malmsturm import rules as malm
from service.systems.malmsturm import text as malm_text
from service.systems.paws import rules as paws
from service.systems.paws import text as paws_text
from service.systems.proben import encounter as proben_encounter
from service.systems.proben import rules as proben
from service.systems.proben import text as proben_text
from service.systems.weltenbuch import rules as welten
from service.systems.weltenbuch import text as welten_text

COUNTS = (0, 1, 2, 5)
Case = tuple[str, Callable[[str], str]]


def cases() -> list[Case]:
    return [*_paws(), *_proben(), *_weltenbuch(), *_malmsturm(), *_beutelschneider(), *_encounters(),
            *_encounters_of_issue_40(), *_encounter_sentences(), *_advice(),
            *_advice_of_proben(), *_advice_of_weltenbuch(), *_advice_of_beutelschneider(),
            *_advice_of_malmsturm(), *_policies_in_words()]


def said(render: Callable[..., str], *args: object) -> Callable[[str], str]:
    """The line ``render(*args, lang)`` in whichever language is asked for."""
    return lambda lang: render(*args, lang)


def _each(name: str, make: Callable[[int], Callable[[str], str] | None], *, least: int = 0) -> Iterator[Case]:
    for count in COUNTS:
        if count >= least:
            render = make(count)
            if render is not None:
                yield f"{name} / {count}", render


# --- Paws ---------------------------------------------------------------------------------------

def _paws_test(successes: int, *, rescue: paws.TestRescue | None = None, catastrophe: bool = False,
               all_ones: bool = False, dice: int = 3, name: str | None = "Ryan") -> Callable[[str], str]:
    rolled = [5] * successes + [1 if catastrophe or all_ones else 2] * max(dice - successes, 0)
    result = paws.TestResult(paws.PoolSize(len(rolled), 2), rolled, successes, successes >= 1,
                             max(successes - 1, 0), catastrophe, rescue,
                             paws.narrator_of_test(successes >= 1, name))
    return lambda lang: paws_text.test(result, name, lang)


def _paws_side(name: str | None, successes: int, rescue: paws.ComparisonRescue | None = None,
               catastrophe: bool = False) -> paws.Side:
    dice = [6] * successes or [1, 1]
    return paws.Side(name, paws.PoolSize(len(dice), 2), dice, successes, catastrophe, rescue)


def _paws_comparison(a: paws.Side, b: paws.Side, winner: str | None, net: int,
                     mode: paws.Mode = paws.Mode.CONTEST) -> Callable[[str], str]:
    narrator = paws.narrator_of_comparison(winner, paws.Pool(0, name=a.name), paws.Pool(0, name=b.name), mode)
    result = paws.ComparisonResult(mode, a, b, winner, net, max(net - 1, 0),
                                   (winner == "a") if mode is paws.Mode.DEFENSE else None, narrator)
    return lambda lang: paws_text.comparison(result, lang)


def _paws() -> Iterator[Case]:
    yield from _each("paws.test success", lambda n: _paws_test(n), least=1)
    yield from _each("paws.test failure without a name", lambda n: _paws_test(0, dice=n, name=None))
    yield from _each("paws.test catastrophe", lambda n: _paws_test(0, dice=n, catastrophe=True), least=1)
    yield from _each("paws.test catastrophe, rescue dice without a success",
                     lambda n: _paws_test(0, catastrophe=True, rescue=paws.TestRescue([2] * n, 0, False, 0)), least=1)
    yield from _each("paws.test catastrophe rescued, n rescue successes",
                     lambda n: _paws_test(0, all_ones=True, rescue=paws.TestRescue([5] * n, n, True, n - 1)),
                     least=1)
    yield from _each("paws.test plain failure, n rescue successes avert",
                     lambda n: _paws_test(0, rescue=paws.TestRescue([5] * n + [2], n, False, n)))
    rynn, foe = "Rynn", "Gegner"
    yield from _each("paws.comparison a wins by n",
                     lambda n: _paws_comparison(_paws_side(rynn, n + 1), _paws_side(foe, 1), "a", n), least=1)
    yield from _each("paws.comparison b wins by n, unnamed sides",
                     lambda n: _paws_comparison(_paws_side(None, 1), _paws_side(None, n + 1), "b", n), least=1)
    yield from _each("paws.comparison tie at n",
                     lambda n: _paws_comparison(_paws_side(rynn, n), _paws_side(foe, n), None, 0))
    yield from _each("paws.comparison defense lands by n", lambda n: _paws_comparison(
        _paws_side(rynn, n), _paws_side(foe, 0), "a", n, paws.Mode.DEFENSE), least=1)
    yield from _each("paws.comparison defense repelled, defender n", lambda n: _paws_comparison(
        _paws_side(rynn, 0), _paws_side(foe, n), None, 0, paws.Mode.DEFENSE))
    yield from _each("paws.comparison rescue: no success against a lead of n", lambda n: _paws_comparison(
        _paws_side(rynn, n), _paws_side(foe, 0, paws.ComparisonRescue([2, 3], 0, 0, False, False), True),
        "a", n), least=1)
    yield from _each("paws.comparison rescue: n successes cancel the whole lead", lambda n: _paws_comparison(
        _paws_side(rynn, n + 1), _paws_side(foe, 1, paws.ComparisonRescue([5] * n, n, n, True, False)),
        None, 0), least=1)
    yield from _each("paws.comparison rescue: n successes cancel the lead, the tie averts the catastrophe",
                     lambda n: _paws_comparison(_paws_side(rynn, n), _paws_side(
                         foe, 0, paws.ComparisonRescue([5] * n, n, n, True, True)), None, 0), least=1)
    yield from _each("paws.comparison rescue: a lead of 1, n successes (the rest not needed)",
                     lambda n: _paws_comparison(_paws_side(rynn, 2), _paws_side(
                         foe, 1, paws.ComparisonRescue([5] * n, n, 1, True, False)), None, 0), least=2)
    yield from _each("paws.comparison rescue: short of a tie, n successes, the first averts the catastrophe",
                     lambda n: _paws_comparison(_paws_side(rynn, n + 3), _paws_side(
                         foe, 0, paws.ComparisonRescue([5] * n, n, n - 1, False, True)), "a", 4), least=1)
    yield from _each("paws.comparison rescue: short of a tie, n successes cancel", lambda n: _paws_comparison(
        _paws_side(rynn, n + 3), _paws_side(foe, 1, paws.ComparisonRescue([5] * n, n, n, False, False)), "a", 2),
        least=1)
    yield from _each("paws.rescue n successes", lambda n: said(paws_text.rescue, paws.RescueResult([5] * n + [1], n)))
    valid = paws.validate_character(3, 15, [paws.Trait("athletisch", 2)])
    yield "paws.validate-character valid", lambda lang: paws_text.character(paws_text.character_result(valid, lang),
                                                                            15, lang)
    categories = [paws.Category("Magie", potential=2, power=1)]
    invalid = paws.validate_character(
        3, 2, [paws.Trait("stark", 3), paws.Trait("stark", 4), paws.Trait("feige", 4, bad=True),
               paws.Trait("Feuer", 3, category="Magie"), paws.Trait("Fluch", 3, bad=True, category="Magie")],
        categories)
    yield "paws.validate-character every problem", lambda lang: paws_text.character(
        paws_text.character_result(invalid, lang), 2, lang)


# --- Proben -------------------------------------------------------------------------------------

def _proben_test(outcome: proben.Outcome, successes: int, *, quality: int = 0, impossible: bool = False,
                 name: str | None = "Alrik") -> Callable[[str], str]:
    dice = [6] * successes + [2]
    result = proben.TestResult(len(dice), dice, successes, outcome, impossible, quality)
    return lambda lang: proben_text.test(result, 2, name, lang)


def _proben() -> Iterator[Case]:
    success, partial, failure = proben.Outcome.SUCCESS, proben.Outcome.PARTIAL, proben.Outcome.FAILURE
    yield from _each("proben.test success with quality n", lambda n: _proben_test(success, 2 + n, quality=n))
    yield from _each("proben.test partial success with n", lambda n: _proben_test(partial, n), least=1)
    yield from _each("proben.test failure, unnamed", lambda n: _proben_test(failure, 0, name=None) if n == 0 else None)
    yield from _each("proben.test impossible, n successes",
                     lambda n: _proben_test(partial if n else failure, n, impossible=True))
    no_dice = proben.TestResult(0, [], 0, proben.Outcome.NO_DICE, True, 0)
    yield "proben.test no dice left", lambda lang: proben_text.test(no_dice, 2, "Alrik", lang)

    def opposed(winner: str | None, decided_by: str | None, rounds: int) -> Callable[[str], str]:
        side = proben.SideRoll([5, 2], 1)
        result = proben.OpposedResult([proben.OpposedRound(side, side)] * rounds, winner, decided_by)
        return lambda lang: proben_text.opposed(result, "Alrik", "Ulf", lang)

    yield from _each("proben.opposed won in n rounds", lambda n: opposed("a", "successes", n), least=1)
    yield from _each("proben.opposed won on the base value in n rounds", lambda n: opposed("b", "base", n), least=1)
    yield from _each("proben.opposed tie after n rounds", lambda n: opposed(None, None, n), least=1)

    def cooperation(helpers: int, helped: int) -> Callable[[str], str]:
        result = proben.CooperationResult(
            [proben.HelperResult(f"H{i}", [5 if i < helped else 2], int(i < helped), i < helped)
             for i in range(helpers)], proben.TestResult(3, [5, 2, 2], 1, success, False, 0))
        return lambda lang: proben_text.cooperation(result, 1, "Alrik", lang)

    yield from _each("proben.cooperation n helpers, none helps", lambda n: cooperation(n, 0), least=1)
    yield from _each("proben.cooperation n helpers, all help", lambda n: cooperation(n, n), least=1)
    yield from _each("proben.cooperation n helpers of 6 help", lambda n: cooperation(6, n), least=1)
    yield "proben.cooperation one of two helpers helps", cooperation(2, 1)

    def extended(required: int, rolls: int, ok: bool, elapsed: bool) -> Callable[[str], str]:
        result = proben.ExtendedResult([proben.ExtendedRoll([5], 1, min(i + 1, required)) for i in range(rolls)],
                                       ok, rolls, proben.Elapsed(rolls * 10, "Minuten") if elapsed else None)
        return lambda lang: proben_text.extended(result, required, "Alrik", lang)

    yield from _each("proben.extended n required, reached in n rolls, with time",
                     lambda n: extended(n, n, True, True), least=1)
    yield from _each("proben.extended n required, out of dice", lambda n: extended(n + 1, n, False, False))


# --- Weltenbuch ---------------------------------------------------------------------------------

def _weltenbuch() -> Iterator[Case]:
    order = [welten.Turn(1, welten.Actor.PLAYER, ["Toran"]), welten.Turn(0, welten.Actor.GM, ["Orc 1"])]

    def conflict(heroes: int, orcs: int) -> Callable[[str], str]:
        parties = [welten.PartyTotal("Heroes", heroes), welten.PartyTotal("Orcs", orcs)]
        result = welten.ConflictResult([], parties, welten.winner(parties), order)
        return lambda lang: welten_text.conflict(result, lang)

    yield from _each("weltenbuch.conflict won with n against 0", lambda n: conflict(n, 0), least=1)
    yield from _each("weltenbuch.conflict tie at n", lambda n: conflict(n, n))

    def narration(spent: int, lost: int, points: int, left: int, consequences: int) -> Callable[[str], str]:
        dice = [welten.SpentDie("Toran", i, 2, True, "Orc 1" if i < lost else None, "toughness" if i < lost else None)
                for i in range(spent)]
        result = welten.NarrationResult(
            dice, [welten.HeroPointApplied("Toran", i, 3) for i in range(points)], {},
            [f"Orc {i + 1}" for i in range(consequences)], [welten.DieRef("Toran", i) for i in range(left)], not left)
        return lambda lang: welten_text.narration(result, lang)

    yield from _each("weltenbuch.narration n dice spent, n lost, n left", lambda n: narration(n, n, 0, n, 0))
    yield from _each("weltenbuch.narration n hero points, all spent, n consequences",
                     lambda n: narration(5, 2, n, 0, n), least=1)

    def overcome(count: int) -> Callable[[str], str]:
        result = welten.NarrationResult([], [welten.HeroPointApplied("Toran", None, 3)], {}, [], [], True,
                                        [f"Felsklippe {i + 1}" for i in range(count)])
        return lambda lang: welten_text.narration(result, lang)

    yield from _each("weltenbuch.narration an end-of-scene hero point, n obstacles overcome (ruling 7)",
                     overcome, least=1)
    for name in (None, "Alvar"):
        result = welten.ResurrectionResult(3, name)
        yield f"weltenbuch.resurrection {'named' if name else 'by number'}", said(welten_text.resurrection, result)


# --- Malmsturm ----------------------------------------------------------------------------------

def _malm_side(name: str | None, total: int, lang: str, dice: int = 4) -> malm.ContestSide:
    return malm.ContestSide(name, [0] * dice, total, malm.label(total, lang))


def _malmsturm() -> Iterator[Case]:
    yield "malmsturm.ladder", lambda lang: malm_text.ladder(malm.ladder(lang), lang)

    def action(total: int, difficulty: int) -> Callable[[str], str]:
        def render(lang: str) -> str:
            margin = total - difficulty
            result = malm.ActionResult([1, 0, 0, -1], total, malm.label(total, lang), margin >= 0, max(margin, 0),
                                       margin)
            return malm_text.action(result, difficulty, lang)
        return render

    yield from _each("malmsturm.action n shifts", lambda n: action(2 + n, 2))
    yield from _each("malmsturm.action failure by n", lambda n: action(2 - n, 2), least=1)

    def contest(a: int, b: int, named: bool) -> Callable[[str], str]:
        def render(lang: str) -> str:
            result = malm.ContestResult(_malm_side("Dieb" if named else None, a, lang),
                                        _malm_side("Händler" if named else None, b, lang),
                                        malm.winner_of(a, b), abs(a - b))
            return malm_text.contest(result, lang)
        return render

    yield from _each("malmsturm.contest won by n", lambda n: contest(1 + n, 1, True), least=1)
    yield from _each("malmsturm.contest lost by n, unnamed", lambda n: contest(1, 1 + n, False), least=1)
    yield "malmsturm.contest tie", contest(2, 2, True)

    def initiative(size: int) -> Callable[[str], str]:
        def render(lang: str) -> str:
            order = [malm.InitiativeEntry(f"P{i}", 1, [0] * 4, 3 - i, malm.label(3 - i, lang), []) for i in range(size)]
            return malm_text.initiative(malm.InitiativeResult(order), lang)
        return render

    yield from _each("malmsturm.initiative n participants", initiative, least=1)

    stress = malm.Stress(malm.StressTrack(3, 3), malm.StressTrack(2, 2))
    roomy = 9  # a track long enough to take every hit without a consequence

    def attack(shifts: int, *, attack_type: malm.AttackType = malm.AttackType.HARM,
               reason: malm.ConsequenceReason | None = None, taken_out: bool = False, defended: bool = True,
               left: int = 2, size: int = 3) -> Callable[[str], str]:
        def render(lang: str) -> str:
            track = malm.TRACK_OF[attack_type]
            after = stress.with_track(track, malm.StressTrack(left, size))
            defender = _malm_side("Ork", 2, lang) if defended else malm.ContestSide("Ork", [], 0, malm.label(0, lang))
            required = reason is not None
            result = malm.AttackResult(
                _malm_side("Ragna", 2 + shifts, lang), defender, shifts >= 1, shifts, track, after, required,
                reason, 2 if taken_out else 1, taken_out, defended,
                malm.suggested_consequences(attack_type, lang) if required else [])
            return malm_text.attack(result, lang)
        return render

    yield "malmsturm.attack miss", attack(0)
    yield "malmsturm.attack miss, already out", attack(0, taken_out=True)
    yield from _each("malmsturm.attack hit with n shifts", lambda n: attack(n, left=roomy - n, size=roomy), least=1)
    yield from _each("malmsturm.attack undefended, n shifts",
                     lambda n: attack(n, defended=False, left=roomy - n, size=roomy))
    for kind in malm.AttackType:
        yield from _each(f"malmsturm.attack {kind.value}: stress spent with n shifts", lambda n, kind=kind: attack(
            n, attack_type=kind, reason=malm.ConsequenceReason.STRESS_SPENT, left=3), least=1)
    yield "malmsturm.attack consequence taken early", attack(1, reason=malm.ConsequenceReason.TAKEN_EARLY)
    yield "malmsturm.attack second consequence takes the defender out", attack(
        3, attack_type=malm.AttackType.PUSH, reason=malm.ConsequenceReason.STRESS_SPENT, taken_out=True, left=3)
    yield "malmsturm.attack hit, already out", attack(2, taken_out=True)


# --- Beutelschneider ----------------------------------------------------------------------------

RED, GREEN, BLUE, WHITE, BLACK = (beutel.Colour.RED, beutel.Colour.GREEN, beutel.Colour.BLUE, beutel.Colour.WHITE,
                                  beutel.Colour.BLACK)
BAG = beutel.Bag(8, 6, 0, 3, 3)


def _beutelschneider() -> Iterator[Case]:
    yield "beutelschneider.validate-bag valid", said(beutel_text.validate_bag, [])
    yield from _each("beutelschneider.validate-bag every problem, n expected", lambda n: said(
        beutel_text.validate_bag, [beutel.Finding(problem, n, n + 2) for problem in beutel.BagProblem]))
    for difficulty in beutel.Difficulty:
        for ability in beutel.Ability:
            yield f"beutelschneider.challenge {difficulty.value} {ability.value} success", said(
                beutel_text.challenge, beutel.ChallengeResult((RED, WHITE), 1, True, False), ability, difficulty,
                "Matthäus")
    yield from _each("beutelschneider.challenge failure, n white marbles, unnamed", lambda n: said(
        beutel_text.challenge, beutel.ChallengeResult((WHITE,) * n, 0, False, False), beutel.Ability.MAGIC,
        beutel.Difficulty.NORMAL, None), least=1)
    yield from _each("beutelschneider.challenge unconscious, n black marbles", lambda n: said(
        beutel_text.challenge, beutel.ChallengeResult((BLACK,) * n, 0, False, True), beutel.Ability.COMBAT,
        beutel.Difficulty.HARD, "Matthäus"), least=1)
    yield from _each("beutelschneider.challenge n red, a green and n white marbles", lambda n: said(
        beutel_text.challenge, beutel.ChallengeResult((RED,) * n + (GREEN,) + (WHITE,) * n, n, n >= 1, False),
        beutel.Ability.COMBAT, beutel.Difficulty.EASY, "Matthäus"))
    yield from _each("beutelschneider.first-aid n healing draws", lambda n: said(
        beutel_text.first_aid, beutel.FirstAidResult((GREEN,) * n + (WHITE,), n, True, False, n),
        beutel.Difficulty.NORMAL, "Sani"))

    def participants(unconscious: bool = False) -> tuple:
        return (beutel.ContestantResult("Matthäus", beutel.Ability.COMBAT, (RED, RED), 2, False),
                beutel.ContestantResult("Ulf", beutel.Ability.SKILL, (BLACK,) if unconscious else (GREEN, WHITE), 1,
                                        unconscious))

    yield from _each("beutelschneider.contest won by n marbles", lambda n: said(
        beutel_text.contest, beutel.ContestResult(participants(), "Matthäus", n)), least=1)
    yield "beutelschneider.contest tie, one unconscious", said(
        beutel_text.contest, beutel.ContestResult(participants(True), None, 0))
    yield "beutelschneider.combat winner did not fight", said(
        beutel_text.combat, beutel.CombatResult(participants(), "Ulf", 1, None))
    yield "beutelschneider.combat tie", said(beutel_text.combat, beutel.CombatResult(participants(), None, 0, None))
    yield "beutelschneider.contest won for a side (ruling 8)", said(beutel_text.contest, beutel.ContestResult(
        participants(), "Matthäus", 1, "Helden"))
    mage = beutel.ContestantResult("Mage", beutel.Ability.MAGIC, (BLUE,), 1, False)
    yield "beutelschneider.combat won with magic where magic does not wound (ruling 9)", lambda lang: (
        beutel_text.combat(beutel.CombatResult((mage, participants()[1]), "Mage", 1, None), lang,
                           frozenset({beutel.Ability.COMBAT, beutel.Ability.SKILL})))
    yield from _each("beutelschneider.combat injury, n black marbles drawn stay black", lambda n: said(
        beutel_text.combat, beutel.CombatResult(participants(), "Matthäus", 1, beutel.CombatInjury(
            "Ulf", beutel.Severity.SERIOUS, (BLACK,) * n, BAG))), least=1)
    for severity in beutel.Severity:
        yield from _each(f"beutelschneider.combat {severity.value} injury, n marbles replaced",
                         lambda n, s=severity: said(beutel_text.combat, beutel.CombatResult(
                             participants(), "Matthäus", 1, beutel.CombatInjury("Ulf", s, (GREEN,) * n, BAG))),
                         least=1)
        yield from _each(f"beutelschneider.injury {severity.value}, n marbles drawn", lambda n, s=severity: said(
            beutel_text.injury, beutel.InjuryResult((RED,) * n, beutel.Bag(8, 6, 0, 3, 3 + n)), s, "Matthäus"),
            least=1)
    for dies in (True, False):
        last = BLACK if dies else RED
        yield from _each(f"beutelschneider.mortal-danger {'dies' if dies else 'survives'}, n marbles",
                         lambda n, dies=dies, last=last: said(
                             beutel_text.mortal_danger, beutel.MortalDangerResult((WHITE,) * (n - 1) + (last,), dies),
                             None if n == 2 else "Matthäus"), least=1)
    yield from _each("beutelschneider.healing without black, n marbles", lambda n: said(
        beutel_text.healing, beutel.HealingResult((WHITE,) * n, 0, 0, None), "Matthäus"), least=1)
    yield from _each("beutelschneider.healing n black to replace", lambda n: said(
        beutel_text.healing, beutel.HealingResult((BLACK,) * n + (WHITE,), n, n, None), "Matthäus"), least=1)
    yield from _each("beutelschneider.healing n black replaced", lambda n: said(
        beutel_text.healing, beutel.HealingResult((BLACK,) * n, n, 0, beutel.Bag(8 + n, 6, 0, 3, 3)), None), least=1)
    yield from _each("beutelschneider.experience n marbles to exchange", lambda n: said(
        beutel_text.experience, beutel.ExperienceResult((BLUE,) * n, n, None), beutel.Amount.SOME, "Matthäus"),
        least=1)
    yield "beutelschneider.experience applied", said(
        beutel_text.experience, beutel.ExperienceResult((RED, WHITE), 0, BAG), beutel.Amount.SOME, "Matthäus")
    for kind in ("healing", "experience"):
        yield f"beutelschneider.{kind}-apply", said(beutel_text.applied, kind, BAG, beutel.Bag(9, 6, 1, 3, 1))


# --- encounters (Malmsturm and Paws) --------------------------------------------------------------

def _malm_encounter(outcome: str, rounds: int, taken: tuple[int, int], conceded: str | None = None):
    from service.systems.malmsturm import play_out

    track = malm.Stress(malm.StressTrack(3, 3), malm.StressTrack(2, 2))
    members = [play_out.MemberEnd("Alrik", "Helden", track, taken[0], taken[0], taken[0] >= 2),
               play_out.MemberEnd("Ork", "Orks", track, taken[1], taken[1], taken[1] >= 2)]
    winner = outcome.removeprefix("wins:") if outcome.startswith("wins:") else None
    result = play_out.EncounterResult(outcome, winner, rounds, None, ["Alrik", "Ork"], [],
                                            play_out.EndState(members, conceded))
    return said(malm_text.encounter, result)


def _paws_encounter(outcome: str, rounds: int, taken: tuple[int, int], *, out: bool = True, gave_up: bool = False):
    from service.systems.paws import encounter as paws_encounter

    loser = "b" if outcome == "wins:a" else "a"
    end = paws_encounter.EndState(
        {"a": taken[0], "b": taken[1]}, {"a": taken[0], "b": taken[1]}, {"a": 3 - taken[0], "b": 2 - taken[1]},
        {"a": 0, "b": 0}, {side: out and side == loser for side in "ab"},
        {side: gave_up and side == loser for side in "ab"})
    winner = outcome.removeprefix("wins:") if outcome.startswith("wins:") else None
    result = paws_encounter.EncounterResult(outcome, winner, rounds, [], end)
    return lambda lang: paws_text.encounter(result, {"a": "Ryan", "b": "Jack"}, lang)


def _encounters() -> Iterator[Case]:
    yield from _each("malmsturm.encounter won after n rounds, Alrik hurt, Ork out",
                     lambda n: _malm_encounter("wins:Helden", n, (1, 2)), least=1)
    yield from _each("malmsturm.encounter won after n rounds, n consequences", lambda n: _malm_encounter(
        "wins:Orks", 3, (min(n, 1), 0)) if n <= 1 else None)
    yield "malmsturm.encounter conceded", _malm_encounter("wins:Helden", 4, (0, 1), conceded="Orks")
    # a side named in the singular concedes in a clause as grammatical as the plural "Orks"
    yield "malmsturm.encounter conceded after 1 round", _malm_encounter("wins:Helden", 1, (0, 1), conceded="Orks")
    yield "malmsturm.encounter conceded by a singular side", _malm_encounter("wins:Orks", 4, (1, 0), conceded="Alrik")
    yield from _each("malmsturm.encounter stalemate after n rounds", lambda n: _malm_encounter("stalemate", n, (0, 0)))
    yield from _each("malmsturm.encounter undecided after n rounds",
                     lambda n: _malm_encounter("undecided", n, (1, 1)), least=1)
    yield from _each("paws.encounter won after n rounds, loser out", lambda n: _paws_encounter(
        "wins:a", n, (min(n, 1), 2)), least=1)
    yield from _each("paws.encounter won, loser gives up with n wounds", lambda n: _paws_encounter(
        "wins:b", 4, (n, 1), out=False, gave_up=True), least=1)
    yield from _each("paws.encounter winner takes n wounds", lambda n: _paws_encounter(
        "wins:a", 6, (n, 2)), least=1)
    yield "paws.encounter gives up after 1 round", _paws_encounter("wins:b", 1, (1, 0), out=False, gave_up=True)
    # review 2026-12-03 kind 3: a fight that never starts is said not to happen, not "after 0 rounds"
    yield "paws.encounter never starts, the loser gives up before", _paws_encounter(
        "wins:b", 0, (0, 0), out=False, gave_up=True)
    yield "paws.encounter never starts, the loser is out before", _paws_encounter("wins:a", 0, (0, 0))
    yield "paws.encounter stalemate", _paws_encounter("stalemate", 0, (0, 0), out=False)
    yield from _each("paws.encounter undecided after n rounds", lambda n: _paws_encounter(
        "undecided", n, (1, 1), out=False), least=1)
    yield from _each("proben.encounter succeeds after n attempts", lambda n: _proben_chain("success", n), least=1)
    yield from _each("proben.encounter fails at step 2 after n attempts",
                     lambda n: _proben_chain("failure:1", n), least=2)
    yield from _each("proben.encounter undecided after n attempts", lambda n: _proben_chain("undecided", n), least=1)


def _proben_chain(outcome: str, attempts: int) -> Callable[[str], str]:
    """A chain of tests (Proben E1, E2) that ends ``outcome`` after ``attempts`` attempts."""
    test = proben.TestResult(2, [6, 2], 1, proben.Outcome.FAILURE, False, 0)
    result = proben_encounter.EncounterResult([test] * attempts, [], outcome, [])
    return said(proben_text.encounter, result)


# --- encounters (Beutelschneider and Weltenbuch, issue 40) ------------------------------------------

def _beutel_encounter(outcome: str, exchanges: int, fallen: tuple[str, ...], standing: tuple[str, ...] = (),
                      drawing: tuple[str, ...] = (), tended: tuple[str, ...] = ()):
    from service.systems.beutelschneider import encounter as beutel_encounter

    end = [beutel_encounter.SideEnd(name, BAG, True) for name in fallen]
    end += [beutel_encounter.SideEnd(name, BAG, False) for name in standing]
    after = [beutel_encounter.AftermathDraw(name, (WHITE, BLACK) if index % 2 else (WHITE, RED), index % 2 == 1)
             for index, name in enumerate(drawing)]
    result = beutel_encounter.EncounterResult([], outcome, exchanges, end, after, list(tended))
    return said(beutel_text.encounter, result)


def _welten_encounter(outcome: str, consequences: list[str], overcome: list[str], spent: list[str] = ()):
    from service.systems.weltenbuch import encounter as welten_encounter

    end = welten_encounter.SceneEnd({}, consequences, list(spent), overcome)
    return said(welten_text.encounter, welten_encounter.EncounterResult([], outcome, end))


def _encounters_of_issue_40() -> Iterator[Case]:
    # Side and party names in the singular and the plural, with s, x, z and spaces: labels, never subjects.
    for side in ("Brunhild", "Die Wölfe", "Max", "Hans", "Fritz"):
        yield (f"beutelschneider.encounter won by “{side}”",
               _beutel_encounter(f"wins:{side}", 4, ("Affenmensch",), (side,)))
        yield f"beutelschneider.encounter escape of “{side}”", _beutel_encounter(f"escapes:{side}", 2, (), (side,))
        yield (f"weltenbuch.encounter won by “{side}”",
               _welten_encounter(f"wins:{side}", ["Toran"], []))
    yield from _each("beutelschneider.encounter won after n exchanges",
                     lambda n: _beutel_encounter("wins:Legionär", n, ("Affenmensch",)), least=1)
    yield from _each("beutelschneider.encounter escape after n exchanges",
                     lambda n: _beutel_encounter("escapes:Dieb", n, ()), least=1)
    yield ("beutelschneider.encounter one against several, two fallen",
           _beutel_encounter("wins:Legionär", 7, ("Affenmensch 1", "Affenmensch 2"), ("Legionär",)))
    # E5 as amended: who is left on the battlefield draws, the winners' unconscious are tended
    yield ("beutelschneider.encounter aftermath, the losers left behind, a winner tended",
           _beutel_encounter("wins:Die Legion", 9, ("Affenmensch 1", "Affenmensch 2", "Gaius"), ("Legionär",),
                             drawing=("Affenmensch 1", "Affenmensch 2"), tended=("Gaius",)))
    yield ("beutelschneider.encounter aftermath, a flight leaves one behind",
           _beutel_encounter("escapes:Die Diebe", 3, ("Dieb",), ("Hehler", "Wolf 1", "Wolf 2"), drawing=("Dieb",)))
    yield ("beutelschneider.encounter aftermath, a stalemate tends both",
           _beutel_encounter("stalemate", 5, ("A", "C"), ("B", "D"), tended=("A", "C")))
    # a fight that never starts says why (review kind 3)
    yield from _each("beutelschneider.encounter stalemate after n exchanges",
                     lambda n: _beutel_encounter("stalemate", n, ()))
    yield from _each("beutelschneider.encounter both out after n exchanges",
                     lambda n: _beutel_encounter("both_out", n, ("A", "B")), least=1)
    yield ("weltenbuch.encounter three parties, an obstacle overcome",
           _welten_encounter("wins:Die Helden", ["Ork"], ["Das Tor"]))
    yield ("weltenbuch.encounter tie, two obstacles overcome, a hero point",
           _welten_encounter("tie", [], ["Felsklippe", "Die Wölfe"], ["Fayla"]))
    yield from _each("weltenbuch.encounter n consequences",
                     lambda n: _welten_encounter("wins:Heroes", [f"Orc {i}" for i in range(1, n + 1)], []))


# --- encounter lines as sentences (issue 53): every ending of every system -------------------------

def _exchange(winner: str, loser: str, ability: str = "combat", severity: str | None = None,
              target: str | None = None):
    """One exchange of a whole fight, as ``beutelschneider.combat`` reports it."""
    ability_of = beutel.Ability(ability)
    parts = (beutel.ContestantResult(winner, ability_of, (beutel.Colour.RED,), 1, False),
             beutel.ContestantResult(loser, beutel.Ability.COMBAT, (beutel.Colour.WHITE,), 0, False))
    injury = None if severity is None else beutel.CombatInjury(target or loser, beutel.Severity(severity),
                                                              (beutel.Colour.GREEN,), BAG)
    return beutel.CombatResult(parts, winner, 1, injury)


def _beutel_fight(outcome: str, steps: list, fallen: tuple[str, ...] = (), standing: tuple[str, ...] = ()):
    from service.systems.beutelschneider import encounter as beutel_encounter

    end = [beutel_encounter.SideEnd(name, BAG, True) for name in fallen]
    end += [beutel_encounter.SideEnd(name, BAG, False) for name in standing]
    return said(beutel_text.encounter, beutel_encounter.EncounterResult(steps, outcome, len(steps), end, []))


def _proben_chain_of(outcome: str, outcomes: list[str]):
    from service.systems.proben import encounter as proben_encounter

    steps = [proben.TestResult(0, [], 0, proben.Outcome.NO_DICE, True, 0) if kind == "no_dice"
             else proben.TestResult(3, [5, 2, 2], 1, proben.Outcome(kind), False, 0) for kind in outcomes]
    return said(proben_text.encounter, proben_encounter.EncounterResult(steps, [], outcome, []))


def _encounter_sentences() -> Iterator[Case]:
    # Beutelschneider: the wounds before an escape are said (review: "an escape hides the wounds")
    yield ("beutelschneider.encounter escape after a light injury", _beutel_fight(
        "escapes:Dieb", [_exchange("Wache", "Dieb", severity="light"), _exchange("Dieb", "Wache", "skill")],
        standing=("Dieb", "Wache")))
    yield ("beutelschneider.encounter escape after two injuries of each kind", _beutel_fight(
        "escapes:Die Wölfe", [_exchange("Jäger", "Die Wölfe", severity="serious"),
                              _exchange("Jäger", "Die Wölfe", severity="serious"),
                              _exchange("Jäger", "Die Wölfe", severity="grave"),
                              _exchange("Die Wölfe", "Jäger", "skill")], standing=("Die Wölfe", "Jäger")))
    # a winner by magic (where magic does not wound) leaves the fight; it does not flee (ruling E6)
    yield ("beutelschneider.encounter a way out by magic", _beutel_fight(
        "escapes:Hexe", [_exchange("Ritter", "Hexe", severity="light"), _exchange("Hexe", "Ritter", "magic")],
        standing=("Hexe", "Ritter")))
    yield ("beutelschneider.encounter won, both hurt", _beutel_fight(
        "wins:Legionär", [_exchange("Affenmensch", "Legionär", severity="light"),
                          _exchange("Legionär", "Affenmensch", severity="grave")],
        fallen=("Affenmensch",), standing=("Legionär",)))
    yield ("beutelschneider.encounter both out, the last exchange wounds", _beutel_fight(
        "both_out", [_exchange("A", "B", severity="serious")], fallen=("A", "B")))
    # Malmsturm, ruling E8: with `ends: first_out` the line says the conflict ended at the first one out
    yield "malmsturm.encounter first one out ends the conflict", _malm_ends("first_out")
    yield "malmsturm.encounter a whole side out (side_out)", _malm_ends("side_out")
    # Proben: every ending of a chain, and none "after 0 attempts"
    yield "proben.encounter the chain succeeds", _proben_chain_of("success", ["failure", "success", "success"])
    yield "proben.encounter the chain fails at a step", _proben_chain_of("failure:1", ["success", "partial", "failure"])
    yield ("proben.encounter the dice run out", _proben_chain_of("failure:0", ["failure", "failure", "no_dice"]))
    yield "proben.encounter no dice at the first step", _proben_chain_of("failure:0", ["no_dice"])
    yield "proben.encounter undecided", _proben_chain_of("undecided", ["failure", "failure"])
    # typography: a count of a thousand is grouped as the language writes it (1.000 / 1,000)
    yield "beutelschneider.encounter undecided at the cap", _beutel_encounter("undecided", 1000, ())
    yield "malmsturm.encounter undecided at the cap", _malm_encounter("undecided", 1000, (1, 1))
    yield "paws.encounter undecided at the cap", _paws_encounter("undecided", 1000, (1, 1), out=False)


def _malm_ends(ends: str):
    from service.systems.malmsturm import play_out

    track = malm.Stress(malm.StressTrack(3, 3), malm.StressTrack(2, 2))
    members = [play_out.MemberEnd("Alrik", "Helden", track, 1, 1, False),
               play_out.MemberEnd("Fayla", "Helden", track, 0, 0, False),
               play_out.MemberEnd("Ork 1", "Orks", track, 2, 2, True),
               play_out.MemberEnd("Ork 2", "Orks", track, 2 if ends == "side_out" else 1,
                                        2 if ends == "side_out" else 1, ends == "side_out")]
    result = play_out.EncounterResult("wins:Helden", "Helden", 3, None, [], [],
                                            play_out.EndState(members, None), ends)
    return said(malm_text.encounter, result)


# --- advice (API.md §1.10): the chat line of every advice and the rules in words ----------------------

def _summary_line(policies: list[dict], wins: tuple[Fraction, ...], default: int, adaptive: Fraction | None, *,
                  name: str, headline: Callable[..., object], describe: Callable[..., object],
                  not_lose: Fraction | None = None) -> Callable[[str], str]:
    """The platform's chat line of an advice whose options (``policies``) win ``wins``, the first the best."""
    from service.platform.maths.odds import Odds
    from service.platform.operations import advice

    options = tuple(advice.Option(policy, Odds({}), win, win, None, win - wins[0])
                    for policy, win in zip(policies, wins, strict=True))
    solved = None if adaptive is None else advice.Adaptive(adaptive, (), 1, not_lose=not_lose)
    advised = advice.Advice("a", options, options[default], solved, advice.Solver(1))
    return lambda lang: advice.summary(advised, name, lang, headline=headline, describe=describe)


def _advice_line(wins: tuple[Fraction, ...], default: int, adaptive: Fraction | None,
                 headline: Callable[..., object] | None = None,
                 not_lose: Fraction | None = None) -> Callable[[str], str]:
    """A Paws duel's advice line, its options spending 0, 1, … one-shot dice."""
    from service.platform.operations import advice
    from service.systems.paws import advice as paws_advice

    return _summary_line([{"one_shot_rescue": index} for index in range(len(wins))], wins, default, adaptive,
                         name="Ryan", headline=headline or advice.to_win, describe=paws_advice.policy_words,
                         not_lose=not_lose)


def _paws_rule(*decisions: tuple[str, int], give_up: bool = False) -> Callable[[str], str]:
    from service.systems.paws import advice as paws_advice

    made = tuple(paws_advice.Decision((0, 0, 1, 0), choice, dice, 2) for choice, dice in decisions)
    said = paws_advice.rules(paws_advice.Solved(Fraction(1), made, 1), rescue=True, give_up=give_up)
    return lambda lang: " ".join(line.say(lang) for line in said)


def _advice() -> Iterator[Case]:
    from service.platform.operations import advice

    half, more = Fraction(1, 2), Fraction(5, 8)
    yield "advice the default is the best, adaptive gains nothing", _advice_line((more, half), 0, more)
    yield "advice the default is gleich gut", _advice_line((more, more - Fraction(1, 10000)), 1, None)
    yield "advice the default is worse, adaptive gains", _advice_line((more, half), 1, Fraction(2, 3))
    yield "advice of a test (chance of success)", _advice_line((more, half), 0, None,
                                                                      headline=advice.to_succeed)
    yield "advice adaptive gains nothing (rule)", lambda lang: advice.NO_GAIN.say(lang)
    yield "advice adaptive wins no more but loses less", _advice_line((more, half), 0, more, not_lose=Fraction(3, 4))
    yield "advice adaptive wins no more but loses less (rule)", lambda lang: advice.loses_less(
        Fraction(3, 4), more).say(lang)
    yield from _each("paws.encounter.advice keep while n dice or more",
                     lambda n: _paws_rule(("keep", n), ("spend", n - 1)) if n else None)
    yield "paws.encounter.advice spend after every lost round", _paws_rule(("spend", 3), ("spend", 2))
    yield "paws.encounter.advice keep them all", _paws_rule(("keep", 3))
    yield "paws.encounter.advice nothing to decide, never give up", _paws_rule(give_up=True)
    yield "paws.encounter.advice keep in some states", _paws_rule(("keep", 2), ("spend", 3))
    yield "paws.test.advice spend at most one, the default as good", _rescue_line(
        (1, 2, 0), (Fraction(1, 2), Fraction(1, 2), Fraction(3, 8)))
    yield "paws.comparison.advice keep them all", _rescue_line((0, 1), (Fraction(3, 8), Fraction(1, 4)))


def _rescue_line(spends: tuple[int, ...], averted: tuple[Fraction, ...]) -> Callable[[str], str]:
    """The chat line of the advice on one-shot rescue dice after a loss (the default: all of them)."""
    from service.systems.paws import rescue_advice

    return _summary_line([{"spend": spend} for spend in spends], averted, spends.index(max(spends)), None,
                         name="Rynn", headline=rescue_advice.averted_headline, describe=rescue_advice.policy_words)


def _proben_rule(carry: bool, carried: bool) -> Callable[[str], str]:
    from service.systems.proben import advice as proben_advice

    said = proben_advice.rules(proben_advice.Solved(Fraction(1), carried, 1), retry=True, carry=carry)
    return lambda lang: " ".join(line.say(lang) for line in said)


def _advice_of_proben() -> Iterator[Case]:
    yield "proben.encounter.advice retry, no table rule asked", _proben_rule(False, False)
    yield "proben.encounter.advice retry, carry partial successes", _proben_rule(True, True)
    yield "proben.encounter.advice retry, carrying changes nothing", _proben_rule(True, False)


def _beutel_rule(chosen: list[int], left: list[int], abilities=("combat", "skill")) -> Callable[[str], str]:
    """The optimum's rule from its choices per reached state (indices into ``abilities``) and the
    marbles of the kept ability's colour left there."""
    import numpy as np

    from service.systems.beutelschneider import advice as beutel_advice

    kinds = tuple(beutel.Ability(name) for name in abilities)
    lumps = beutel_advice.lumps_of(kinds)
    solved = beutel_advice.Solved(0.5, 0.5, kinds, lumps, np.array([left] + [[1] * len(left)] * (len(lumps) - 1)),
                                  np.zeros((2, len(left))),
                                  np.array(chosen), len(left), 0.0)
    said = beutel_advice.rules(solved, beutel.Ability.COMBAT)
    return lambda lang: " ".join(line.say(lang) for line in said)


def _advice_of_beutelschneider() -> Iterator[Case]:
    yield "beutelschneider.encounter.advice never change", _beutel_rule([0, 0, 0], [3, 2, 1])
    yield from _each("beutelschneider.encounter.advice flee at n marbles left",
                     lambda n: _beutel_rule([0, 0, 1], [n + 2, n + 1, n]))
    yield "beutelschneider.encounter.advice flee in some states", _beutel_rule([1, 0, 1], [3, 2, 1])
    yield ("beutelschneider.encounter.advice magic or flight", _beutel_rule([1, 2, 0], [3, 2, 1],
                                                                             ("combat", "skill", "magic")))


def _advice_of_malmsturm() -> Iterator[Case]:
    from service.systems.malmsturm import advice as malm_advice

    for name, early in (("never early", ()), ("early for Alrik", (malm_advice.Early("Alrik", (3, 2, 0), 2),))):
        said = malm_advice.rules_of(malm_advice.Solved(Fraction(1, 2), Fraction(1, 2), early, 1))
        yield f"malmsturm.encounter.advice {name}", lambda lang, said=said: " ".join(line.say(lang) for line in said)


def _advice_of_weltenbuch() -> Iterator[Case]:
    from service.systems.weltenbuch import advice as welten_advice

    for hold, targeting in ((True, True), (False, False)):
        said = welten_advice.rules(hold=hold, targeting=targeting)
        yield (f"weltenbuch.encounter.advice one roll{', hold' if hold else ''}{', targeting' if targeting else ''}",
               lambda lang, said=said: " ".join(line.say(lang) for line in said))


def _policy_words(system: str, policy: dict, words: str = "policy_words") -> Callable[[str], str]:
    """A policy as the advice's chat line names it (each system's ``advice.policy_words``)."""
    import importlib

    described = getattr(importlib.import_module(f"service.systems.{system}.advice"), words)(policy)
    return lambda lang: ", ".join(part.say(lang) for part in described)


def _policies_in_words() -> Iterator[Case]:
    """Every choice's words in the advice's chat line (RULINGS "Advice"): never the API's fields."""
    policies = {
        "paws.encounter": [("keep, never give up", {"one_shot_rescue": 0, "give_up_at_wounds": None}),
                           ("spend one, give up at 1", {"one_shot_rescue": 1, "give_up_at_wounds": 1}),
                           ("spend two, give up at 2", {"one_shot_rescue": 2, "give_up_at_wounds": 2})],
        "proben.encounter": [("retry all, carry", {"max_attempts": [None, None], "carry_partial": True}),
                             ("one attempt first", {"max_attempts": [1, None], "carry_partial": False}),
                             ("one step, two attempts", {"max_attempts": [2]}),
                             ("one step, retry", {"max_attempts": [None]})],
        "weltenbuch.encounter": [("invest all, weakest", {"hold_hero_points": {"Toran": 0, "Fayla": 0},
                                                          "targeting": "weakest"}),
                                 ("hold one, strongest", {"hold_hero_points": {"Toran": 1, "Fayla": 0},
                                                          "targeting": "strongest"}),
                                 ("hold two, spread", {"hold_hero_points": {"Toran": 2}, "targeting": "spread"})],
        "beutelschneider.encounter": [("combat", {"ability": "combat"}), ("skill", {"ability": "skill"}),
                                      ("magic", {"ability": "magic"}),
                                      ("per member", {"ability": {"Legionär": "combat", "Affenmensch": "skill"},
                                                      "pairs": None}),
                                      ("order", {"ability": "combat",
                                                 "pairs": [["Legionär", "Affe 2"], ["Legionär", "Affe 1"]]})],
        "malmsturm.encounter": [("never concede, defend, focus", {"concede_at_consequences": None, "defend": True,
                                                                  "targeting": "focus"}),
                                ("concede at 1, no defence, spread", {"concede_at_consequences": 1, "defend": False,
                                                                      "targeting": "spread"}),
                                ("concede at 2", {"concede_at_consequences": 2})],
    }
    for operation, named in policies.items():
        system = operation.split(".")[0]
        for label, policy in named:
            yield f"{operation}.advice policy: {label}", _policy_words(system, policy)
    for label, helpers in (("two helpers", ["Mira", "Alrik"]), ("nobody", [])):
        yield (f"proben.cooperation.advice policy: {label}",
               _policy_words("proben", {"helpers": helpers}, "helpers_words"))
