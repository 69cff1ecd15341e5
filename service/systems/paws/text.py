"""The chat lines of Paws results and the wording of character problems.

Every sentence is a message of the catalogs (``service/locale``): English here, other languages in
their ``.po``; counts use the catalog's plural forms."""

from __future__ import annotations

from service.platform.words.catalogs import Catalog, translations
from service.platform.words.phrases import capitalized, faces, grouped, number, spoken_by, successes
from service.systems.paws.encounter import EncounterResult
from service.systems.paws.rules import (
    GM,
    MEASURED_POTENTIAL,
    POWER_PER_POTENTIAL,
    UNNAMED_PLAYER,
    CharacterCheck,
    CharacterResult,
    ComparisonRescue,
    ComparisonResult,
    Hint,
    Mode,
    Problem,
    ProblemKind,
    RescueResult,
    Side,
    TestRescue,
    TestResult,
    guidance,
)


def _narrator(narrator: str, t: Catalog, names: dict[str, str] | None = None) -> str:
    """Ruling 7: who narrates the outcome (Erzählrecht); ``names`` shows an unnamed side's key as A/B."""
    narrator = (names or {}).get(narrator, narrator)
    if narrator == GM:
        return t.gettext("The GM narrates.")
    if narrator == UNNAMED_PLAYER:
        return t.gettext("The player narrates.")
    return t.gettext("%(name)s narrates.") % {"name": narrator}


# --- test ---------------------------------------------------------------------------------------

def _test_verdict(result: TestResult, t: Catalog) -> str:
    if result.success:
        if not result.effects:
            return t.gettext("The test succeeds.")
        return t.ngettext("The test succeeds with %(count)d effect.", "The test succeeds with %(count)d effects.",
                          result.effects) % {"count": result.effects}
    if result.catastrophe or (result.rescue is not None and result.rescue.rescued):
        return t.gettext("Catastrophe!")  # said before the rescue dice avert it (ruling 8)
    return t.gettext("The test fails.")


def _test_rescue(rescue: TestRescue, t: Catalog) -> str:
    """What each rescue success did (ruling 3): the first averts a catastrophe, the others (all of
    them after a plain failure) avert one negative effect each."""
    dice = t.gettext("Rescue dice: %(faces)s → %(successes)s.") % {
        "faces": faces(rescue.dice), "successes": successes(rescue.successes, t)}
    if rescue.successes == 0:
        did = t.gettext("Nothing is averted.")
    elif rescue.rescued and rescue.averted == 0:
        did = t.gettext("It averts the catastrophe; the test merely fails.")
    elif rescue.rescued:
        did = t.ngettext("The first averts the catastrophe, the second one negative effect; the test merely fails.",
                         "The first averts the catastrophe, the others avert %(count)d negative effects; the test "
                         "merely fails.", rescue.averted) % {"count": rescue.averted}
    else:
        did = t.ngettext("It averts one negative effect.", "They avert %(count)d negative effects.",
                         rescue.averted) % {"count": rescue.averted}
    return f"{dice} {did}"


def test(result: TestResult, name: str | None, lang: str) -> str:
    t = translations(lang)
    values = {"dice": result.pool.dice, "faces": faces(result.dice), "successes": successes(result.successes, t)}
    if result.pool.dice:
        roll = t.gettext("Test with %(dice)dd6: %(faces)s → %(successes)s.") % values
    else:
        roll = t.gettext("Test without dice (0d6): %(successes)s.") % values
    parts = [spoken_by(name, roll, t), _test_verdict(result, t)]
    if result.rescue:
        parts.append(_test_rescue(result.rescue, t))
    parts.append(_narrator(result.narrator, t))
    return " ".join(parts)


# --- comparison ---------------------------------------------------------------------------------

def _side_name(side: Side, key: str) -> str:
    return side.name or key.upper()


def _comparison_rescue(rescue: ComparisonRescue, loser: str, winner: str, t: Catalog, lang: str) -> str:
    """What each rescue success of the loser did (ruling 3). Names stand after "for" and "of", never
    as possessives ("die Wölfe' Rettungswürfel", "Jess' lead": review 2026-12-03, kind 2)."""
    dice = t.gettext("Rescue dice for %(loser)s: %(faces)s → %(successes)s.") % {
        "loser": loser, "faces": faces(rescue.dice), "successes": successes(rescue.successes, t)}
    values = {"count": rescue.cancelled, "winner": winner, "number": number(rescue.cancelled, t)}
    if rescue.successes == 0:
        return " ".join([dice, t.gettext("Nothing is averted.")])
    if rescue.rescued:
        if rescue.catastrophe_averted:
            did = [capitalized(t.ngettext("That cancels the lead of %(winner)s; the tie averts the catastrophe too.",
                                          "%(number)s successes cancel the lead of %(winner)s; the tie averts the "
                                          "catastrophe too.", rescue.cancelled) % values)]
        else:
            did = [capitalized(t.ngettext("That cancels the lead of %(winner)s.",
                                          "%(number)s successes cancel the lead of %(winner)s.",
                                          rescue.cancelled) % values)]
        unused = rescue.successes - rescue.cancelled
        if unused:
            did.append(t.ngettext("One more success is not needed.", "%(count)d more successes are not needed.",
                                  unused) % {"count": unused})
        return " ".join([dice, *did])
    if rescue.catastrophe_averted and rescue.cancelled == 0:
        outcome = t.gettext("It averts the catastrophe; the loss stands.")
    elif rescue.catastrophe_averted:
        outcome = t.ngettext("The first averts the catastrophe, the second cancels one success of %(winner)s.",
                             "The first averts the catastrophe, the others cancel %(count)d successes of %(winner)s.",
                             rescue.cancelled) % values
    else:
        outcome = t.ngettext("It cancels one success of %(winner)s.", "They cancel %(count)d successes of %(winner)s.",
                             rescue.cancelled) % values
    return f"{dice} {outcome}"


def _comparison_verdict(result: ComparisonResult, t: Catalog) -> str:
    if result.winner is None:
        if result.mode is Mode.DEFENSE:
            return t.gettext("The attack is repelled.")
        return t.gettext("A tie.")
    winner = _side_name(getattr(result, result.winner), result.winner)
    values = {"winner": winner, "net": result.net, "count": result.effects}
    if result.mode is Mode.DEFENSE:
        if not result.effects:
            return t.gettext("The attack lands by one success.")
        return t.ngettext("The attack lands by %(net)d successes; %(winner)s chooses %(count)d effect.",
                          "The attack lands by %(net)d successes; %(winner)s chooses %(count)d effects.",
                          result.effects) % values
    if not result.effects:
        return t.gettext("%(winner)s wins by one success.") % values
    return t.ngettext("%(winner)s wins by %(net)d successes and chooses %(count)d effect.",
                      "%(winner)s wins by %(net)d successes and chooses %(count)d effects.",
                      result.effects) % values


def comparison(result: ComparisonResult, lang: str) -> str:
    t = translations(lang)
    names = {"a": _side_name(result.a, "a"), "b": _side_name(result.b, "b"),
             "score": f"{result.a.successes}:{result.b.successes}"}
    if result.mode is Mode.DEFENSE:
        parts = [t.gettext("%(a)s attacks %(b)s: %(score)s.") % names]
    else:
        parts = [t.gettext("Comparison, %(a)s vs. %(b)s: %(score)s.") % names]
    for key, other in (("a", "b"), ("b", "a")):
        side = getattr(result, key)
        if side.catastrophe or (side.rescue is not None and side.rescue.catastrophe_averted):
            # ruling 8: a catastrophe that stands is said before anything averts it
            parts.append(t.gettext("Catastrophe for %(name)s!") % {"name": names[key]})
        if side.rescue is not None:
            parts.append(_comparison_rescue(side.rescue, names[key], names[other], t, lang))
    parts.append(_comparison_verdict(result, t))
    unnamed = {key: names[key] for key in ("a", "b") if getattr(result, key).name is None}
    parts.append(_narrator(result.narrator, t, unnamed))
    return " ".join(parts)


# --- rescue -------------------------------------------------------------------------------------

def rescue(result: RescueResult, lang: str) -> str:
    t = translations(lang)
    values = {"dice": len(result.dice), "faces": faces(result.dice), "count": result.successes,
              "successes": successes(result.successes, t)}
    if result.successes == 0:
        return t.gettext("Rescue dice (%(dice)dd6): %(faces)s → %(successes)s, nothing is averted.") % values
    return t.ngettext("Rescue dice (%(dice)dd6): %(faces)s → %(successes)s, it averts one negative effect.",
                      "Rescue dice (%(dice)dd6): %(faces)s → %(successes)s, they avert %(count)d "
                      "negative effects.", result.successes) % values


# --- character ----------------------------------------------------------------------------------

def _problem(problem: Problem, t: Catalog) -> str:
    values = {"trait": problem.trait, "value": problem.value, "limit": problem.limit,
              "category": problem.category}
    if problem.kind is ProblemKind.OVER_POTENTIAL:
        if problem.category and problem.bad:
            message = t.gettext("bad trait “%(trait)s” has rank %(value)d, above the potential of category "
                                "“%(category)s” (%(limit)d)")
        elif problem.category:
            message = t.gettext("trait “%(trait)s” has rank %(value)d, above the potential of category "
                                "“%(category)s” (%(limit)d)")
        elif problem.bad:
            message = t.gettext("bad trait “%(trait)s” has rank %(value)d, above the potential (%(limit)d)")
        else:
            message = t.gettext("trait “%(trait)s” has rank %(value)d, above the potential (%(limit)d)")
    elif problem.kind is ProblemKind.OVER_POWER:
        message = t.gettext("good minus bad ranks come to %(value)d, more than the power (%(limit)d)")
    elif problem.kind is ProblemKind.CATEGORY_OVER_POWER:
        message = t.gettext("category “%(category)s”: good minus bad ranks come to %(value)d, more than its "
                            "power (%(limit)d)")
    else:
        message = t.gettext("trait “%(trait)s” is listed more than once")
    return message % values


def _hint(hint: Hint, potential: int, t: Catalog) -> str:
    values = {"measured": MEASURED_POTENTIAL, "power": POWER_PER_POTENTIAL * potential, "potential": potential}
    if hint is Hint.POTENTIAL_DIVINE:
        return t.gettext("from a potential of 5 the characters become gods and can achieve practically anything "
                         "(“Ab einem Potenzial von 5 werden die Charaktere zu Göttern”)")
    if hint is Hint.POTENTIAL_HIGH:
        return t.gettext("a potential above %(measured)d tends to a heroic style of play "
                         "(“mit 3 gut bemessen”)") % values
    if hint is Hint.POTENTIAL_LOW:
        return t.gettext("a potential below %(measured)d makes more ordinary characters "
                         "(“mit 3 gut bemessen”)") % values
    if hint is Hint.POWER_LOW:
        return t.gettext("a power well below %(power)d, five times the potential, makes specialists with few good "
                         "traits (“etwa dem fünffachen”)") % values
    return t.gettext("a power well above %(power)d, five times the potential, makes more versatile characters "
                     "(“etwa dem fünffachen”)") % values


def character_result(check: CharacterCheck, lang: str, potential: int = MEASURED_POTENTIAL,
                     power: int = POWER_PER_POTENTIAL * MEASURED_POTENTIAL) -> CharacterResult:
    """The check with every problem worded in ``lang``, and the text's guidance as hints (ruling 10)."""
    t = translations(lang)
    return CharacterResult(check.valid, [_problem(problem, t) for problem in check.issues], check.issues,
                           check.power_used, check.categories,
                           [_hint(hint, potential, t) for hint in guidance(potential, power)])


def character(result: CharacterResult, power: int, lang: str) -> str:
    t = translations(lang)
    values = {"used": result.power_used, "power": power, "problems": "; ".join(result.problems)}
    if result.valid:
        return t.gettext("The character is valid; power used: %(used)d of %(power)d.") % values
    return t.gettext("The character is not valid (power used: %(used)d of %(power)d): %(problems)s.") % values


# --- encounters ---------------------------------------------------------------------------------

def encounter(result: EncounterResult, names: dict[str, str], lang: str) -> str:
    """"Victory for Ryan after 3 rounds; Jack is out of the fight (2 wounds)." – the outcome, then
    what the duel cost each side (``result``: encounter.EncounterResult; ``names``: a and b as named).
    A side that gives up is said first, before the victory it gives away (review 2026-12-03 kind 4);
    a fight whose loser is out or gives up before the first round is said not to happen (kind 3)."""
    t = translations(lang)
    values = {"count": grouped(result.rounds, lang), "side": names.get(result.winner or "", "")}
    if result.winner is not None and result.rounds == 0:
        first_out = "b" if result.winner == "a" else "a"
        given_up = {"name": names[first_out], "side": values["side"]}
        if result.end.gave_up[first_out]:
            return t.gettext("There is no fight: %(name)s gives up before it starts; victory for %(side)s.") % given_up
        return t.gettext("There is no fight: %(name)s is out of the fight before it starts; victory for "
                         "%(side)s.") % given_up
    loser = {"a": "b", "b": "a"}.get(result.winner or "")
    if loser is not None and result.end.gave_up[loser] and result.end.wounds_taken[loser]:
        taken = result.end.wounds_taken[loser]
        head = t.ngettext("%(name)s takes %(wounds)s and gives up after %(count)s round: victory for %(side)s.",
                          "%(name)s takes %(wounds)s and gives up after %(count)s rounds: victory for %(side)s.",
                          result.rounds) % {**values, "name": names[loser], "wounds": _wounds(taken, t)}
    elif result.winner is not None:
        head = t.ngettext("Victory for %(side)s after %(count)s round.", "Victory for %(side)s after %(count)s rounds.",
                          result.rounds) % values
    elif result.outcome == "stalemate":
        head = t.gettext("Stalemate: both sides are out before the fight.")
    else:
        head = t.ngettext("Still undecided after %(count)s round.", "Still undecided after %(count)s rounds.",
                          result.rounds) % values
    sentences = [head]
    for side in ("a", "b"):
        taken = result.end.wounds_taken[side]
        values = {"name": names[side], "wounds": _wounds(taken, t)}
        if result.end.out[side] and taken:
            sentences.append(t.gettext("%(name)s takes %(wounds)s and is out of the fight.") % values)
        elif result.end.gave_up[side] and taken:
            continue  # said first, in the head
        elif taken:
            sentences.append(t.gettext("%(name)s takes %(wounds)s.") % values)
    return " ".join(sentences)


def _wounds(count: int, t: Catalog) -> str:
    """"one wound", "two wounds" (Paws E5: each costs the fighting pool a die)."""
    return t.ngettext("%(count)s wound", "%(count)s wounds", count) % {"count": number(count, t)}
