"""The chat lines of Proben results. Every sentence is a message of the catalogs
(``service/locale``), counts use the catalog's plural forms."""

from __future__ import annotations

from service.platform.words.catalogs import Catalog, marked, translations
from service.platform.words.phrases import faces, grouped, number, spoken_by, successes
from service.systems.proben.encounter import EncounterResult
from service.systems.proben.rules import CooperationResult, ExtendedResult, OpposedResult, Outcome, TestResult

# Ruling 7: the text's names of the difficulties ("Einfach", "Standard", "Fordernd", "Schwer": 4 and more).
DIFFICULTY_NAMES = (marked("difficulty", "easy"), marked("difficulty", "standard"),
                    marked("difficulty", "demanding"), marked("difficulty", "hard"))


def difficulty_name(difficulty: int, t: Catalog) -> str:
    return t.pgettext("difficulty", DIFFICULTY_NAMES[min(difficulty, len(DIFFICULTY_NAMES)) - 1])


def _verdict(result: TestResult, t: Catalog) -> str:
    if result.outcome is Outcome.SUCCESS:
        if result.quality:
            return t.gettext("Success with quality +%(quality)d.") % {"quality": result.quality}
        return t.gettext("Success.")
    if result.outcome is Outcome.PARTIAL:
        # "Solange mindestens ein Erfolg erzielt wurde, kann der Spielleiter Teilerfolge werten": the GM's option.
        return t.gettext("Failed; with at least one success the GM may count a partial success.")
    return t.gettext("Failure.")


def test(result: TestResult, difficulty: int, name: str | None, lang: str, attempt: int = 1) -> str:
    return _test(result, difficulty, name, translations(lang), attempt)


def _test(result: TestResult, difficulty: int, name: str | None, t: Catalog, attempt: int = 1) -> str:
    values = {"difficulty": difficulty, "named": difficulty_name(difficulty, t)}
    if result.outcome is Outcome.NO_DICE:
        if attempt > 1:
            line = t.gettext("Test against difficulty %(difficulty)d (%(named)s): no dice left, no further "
                             "attempt.") % values
        else:
            line = t.gettext("Test against difficulty %(difficulty)d (%(named)s): no dice, the test cannot "
                             "succeed.") % values
        return spoken_by(name, line, t)
    roll = t.gettext("Test with %(dice)dd6 against difficulty %(difficulty)d (%(named)s): %(faces)s → "
                     "%(successes)s.") % {
        **values, "dice": result.dice_count, "faces": faces(result.dice),
        "successes": successes(result.successes, t)}
    sentences = [spoken_by(name, roll, t), _verdict(result, t)]
    if result.impossible:
        sentences.append(t.gettext("The test could not have succeeded (too few dice)."))
    return " ".join(sentences)


def opposed(result: OpposedResult, a_name: str | None, b_name: str | None, lang: str) -> str:
    t = translations(lang)
    last = result.rounds[-1]
    names = {"a": a_name or "A", "b": b_name or "B"}
    repeats = len(result.rounds) - 1  # "wird die Probe wiederholt"
    after = "" if not repeats else " " + t.ngettext("after one repetition", "after %(count)d repetitions",
                                                    repeats) % {"count": repeats}
    values = {**names, "winner": names.get(result.winner or "", ""),
              "score": f"{last.a.successes}:{last.b.successes}", "after": after}
    if result.winner is None:
        return t.gettext("Opposed test, %(a)s vs. %(b)s: a tie (%(score)s)%(after)s.") % values
    if result.decided_by == "base":
        return t.gettext("Opposed test, %(a)s vs. %(b)s: %(winner)s wins on the higher base value "
                         "(%(score)s)%(after)s.") % values
    return t.gettext("Opposed test, %(a)s vs. %(b)s: %(winner)s wins (%(score)s)%(after)s.") % values


def cooperation(result: CooperationResult, difficulty: int, leader_name: str | None, lang: str) -> str:
    t = translations(lang)
    helpers = len(result.helpers)
    helped = sum(1 for helper in result.helpers if helper.helped)
    values = {"helped": helped, "helpers": helpers, "number": number(helpers, t)}
    if helped == 0:
        if helpers == 1:
            intro = t.gettext("Cooperation: the helper grants no advantage.")
        elif helpers == 2:
            intro = t.gettext("Cooperation: neither helper grants an advantage.")
        else:
            intro = t.gettext("Cooperation: none of the %(number)s helpers grants an advantage.") % values
    elif helped == helpers:
        if helpers == 1:
            intro = t.gettext("Cooperation: the helper grants an advantage.")
        elif helpers == 2:
            intro = t.gettext("Cooperation: both helpers grant an advantage each.")
        else:
            intro = t.gettext("Cooperation: all %(number)s helpers grant an advantage each.") % values
    elif helpers == 2:
        intro = t.gettext("Cooperation: one of the two helpers grants an advantage.")
    else:
        intro = t.ngettext("Cooperation: %(helped)d of %(helpers)d helpers grants an advantage.",
                           "Cooperation: %(helped)d of %(helpers)d helpers grant an advantage each.", helped) % values
    return f"{intro} {_test(result.leader, difficulty, leader_name, t)}"


def extended(result: ExtendedResult, required: int, name: str | None, lang: str) -> str:
    t = translations(lang)
    total = result.rolls[-1].cumulative if result.rolls else 0
    values = {"total": total, "required": required,
              "rolls": t.ngettext("%(count)d roll", "%(count)d rolls", result.rolls_used)
              % {"count": result.rolls_used},
              "duration": duration(result.elapsed.amount, result.elapsed.unit, t) if result.elapsed else ""}
    # The count that agrees with "success(es)" is the one rolled, not the one required ("2 of 1 success").
    if result.elapsed:
        line = t.ngettext("Extended test: %(total)d success of %(required)d needed in %(rolls)s (%(duration)s).",
                          "Extended test: %(total)d successes of %(required)d needed in %(rolls)s (%(duration)s).",
                          total) % values
    else:
        line = t.ngettext("Extended test: %(total)d success of %(required)d needed in %(rolls)s.",
                          "Extended test: %(total)d successes of %(required)d needed in %(rolls)s.", total) % values
    verdict = t.gettext("Success.") if result.success else t.gettext("Failure: the dice are used up.")
    return f"{spoken_by(name, line, t)} {verdict}"


# Ruling 6: the known interval units, by every form a client may send (English and German, singular
# and plural, any case); any other unit is echoed as given.
UNITS = {form: unit for unit, forms in {
    "minute": ("minute", "minutes", "min", "minute", "minuten"),
    "hour": ("hour", "hours", "h", "stunde", "stunden"),
    "day": ("day", "days", "tag", "tage"),
    "week": ("week", "weeks", "woche", "wochen"),
    "month": ("month", "months", "monat", "monate"),
    "round": ("round", "rounds", "runde", "runden"),
}.items() for form in forms}


def duration(amount: int, unit: str, t: Catalog) -> str:
    """``3 hours`` / ``3 Stunden``, ``1 hour`` / ``1 Stunde``; an unknown unit as given."""
    known = UNITS.get(unit.strip().casefold())
    values = {"count": amount}
    if known == "minute":
        return t.npgettext("duration", "%(count)d minute", "%(count)d minutes", amount) % values
    if known == "hour":
        return t.npgettext("duration", "%(count)d hour", "%(count)d hours", amount) % values
    if known == "day":
        return t.npgettext("duration", "%(count)d day", "%(count)d days", amount) % values
    if known == "week":
        return t.npgettext("duration", "%(count)d week", "%(count)d weeks", amount) % values
    if known == "month":
        return t.npgettext("duration", "%(count)d month", "%(count)d months", amount) % values
    if known == "round":
        return t.npgettext("duration", "%(count)d round", "%(count)d rounds", amount) % values
    return f"{amount} {unit}"


def encounter(result: EncounterResult, lang: str) -> str:
    """"The chain of tests succeeds after 4 attempts." / "... fails at step 2 after 5 attempts.";
    a chain that fails before any die is rolled says so, never "after 0 attempts" (review kind 3),
    and a step that ran out of dice says that it did (ruling 3: "keine weiteren Versuche")."""
    t = translations(lang)
    rolled = sum(1 for step in result.steps if step.outcome is not Outcome.NO_DICE)
    values: dict[str, object] = {"count": grouped(rolled, lang)}
    if result.outcome == "success":
        return t.ngettext("The chain of tests succeeds after %(count)s attempt.",
                          "The chain of tests succeeds after %(count)s attempts.", rolled) % values
    if result.outcome.startswith("failure:"):
        values["step"] = int(result.outcome[len("failure:"):]) + 1
        if rolled == 0:
            return t.gettext("The chain of tests fails at step %(step)d before a die is rolled: no dice.") % values
        line = t.ngettext("The chain of tests fails at step %(step)d after %(count)s attempt.",
                          "The chain of tests fails at step %(step)d after %(count)s attempts.", rolled) % values
        if result.steps and result.steps[-1].outcome is Outcome.NO_DICE:
            line += " " + t.gettext("No dice are left for a further attempt.")
        return line
    return t.ngettext("After %(count)s attempt the chain of tests is still undecided.",
                      "After %(count)s attempts the chain of tests is still undecided.", rolled) % values
