"""The chat lines of Proben results. Every sentence is a message of the catalogs
(``service/locale``), counts use the catalog's plural forms."""

from __future__ import annotations

from service.platform.catalogs import translations
from service.platform.phrases import faces, spoken_by, successes
from service.systems.proben.rules import CooperationResult, ExtendedResult, OpposedResult, Outcome, TestResult


def _verdict(result: TestResult, lang: str) -> str:
    t = translations(lang)
    if result.outcome is Outcome.SUCCESS:
        if result.quality:
            return t.gettext("Success with quality +%(quality)d.") % {"quality": result.quality}
        return t.gettext("Success.")
    if result.outcome is Outcome.PARTIAL:
        return t.gettext("Partial success.")
    return t.gettext("Failure.")


def test(result: TestResult, difficulty: int, name: str | None, lang: str) -> str:
    t = translations(lang)
    if result.outcome is Outcome.NO_DICE:
        line = t.gettext("Test against difficulty %(difficulty)d: no dice left, no further attempt.") % {
            "difficulty": difficulty}
        return spoken_by(name, line, lang)
    roll = t.gettext("Test with %(dice)dd6 against difficulty %(difficulty)d: %(faces)s → %(successes)s.") % {
        "dice": result.dice_count, "difficulty": difficulty, "faces": faces(result.dice),
        "successes": successes(result.successes, lang)}
    sentences = [spoken_by(name, roll, lang), _verdict(result, lang)]
    if result.impossible:
        sentences.append(t.gettext("It could not succeed."))
    return " ".join(sentences)


def opposed(result: OpposedResult, a_name: str | None, b_name: str | None, lang: str) -> str:
    t = translations(lang)
    last = result.rounds[-1]
    names = {"a": a_name or "A", "b": b_name or "B"}
    values = {**names, "winner": names.get(result.winner or "", ""),
              "score": f"{last.a.successes}:{last.b.successes}"}
    if result.winner is None:
        line = t.gettext("Opposed test %(a)s against %(b)s: a tie (%(score)s).") % values
    elif result.decided_by == "base":
        line = t.gettext("Opposed test %(a)s against %(b)s: %(winner)s wins on the higher base value "
                         "(%(score)s).") % values
    else:
        line = t.gettext("Opposed test %(a)s against %(b)s: %(winner)s wins (%(score)s).") % values
    rounds = len(result.rounds)
    if rounds > 1:
        line += " " + t.ngettext("It took %(count)d round.", "It took %(count)d rounds.", rounds) % {"count": rounds}
    return line


def cooperation(result: CooperationResult, difficulty: int, leader_name: str | None, lang: str) -> str:
    t = translations(lang)
    helpers = len(result.helpers)
    helped = sum(1 for helper in result.helpers if helper.helped)
    values = {"helped": helped, "helpers": helpers}
    if helped == 0:
        intro = t.ngettext("Cooperation: the helper grants no advantage.",
                           "Cooperation: none of the %(helpers)d helpers grants an advantage.", helpers) % values
    elif helped == helpers:
        intro = t.ngettext("Cooperation: the helper grants an advantage.",
                           "Cooperation: all %(helpers)d helpers grant an advantage each.", helpers) % values
    else:
        intro = t.ngettext("Cooperation: %(helped)d of %(helpers)d helpers grants an advantage.",
                           "Cooperation: %(helped)d of %(helpers)d helpers grant an advantage each.", helped) % values
    return f"{intro} {test(result.leader, difficulty, leader_name, lang)}"


def extended(result: ExtendedResult, required: int, name: str | None, lang: str) -> str:
    t = translations(lang)
    total = result.rolls[-1].cumulative if result.rolls else 0
    values = {"total": total, "required": required,
              "rolls": t.ngettext("%(count)d roll", "%(count)d rolls", result.rolls_used)
              % {"count": result.rolls_used},
              "amount": result.elapsed.amount if result.elapsed else 0,
              "unit": result.elapsed.unit if result.elapsed else ""}
    if result.elapsed:
        line = t.ngettext("Extended test: %(total)d of %(required)d success in %(rolls)s (%(amount)d %(unit)s).",
                          "Extended test: %(total)d of %(required)d successes in %(rolls)s (%(amount)d %(unit)s).",
                          required) % values
    else:
        line = t.ngettext("Extended test: %(total)d of %(required)d success in %(rolls)s.",
                          "Extended test: %(total)d of %(required)d successes in %(rolls)s.", required) % values
    verdict = t.gettext("Success.") if result.success else t.gettext("Failure: the dice are used up.")
    return f"{spoken_by(name, line, lang)} {verdict}"


def encounter(result, lang: str) -> str:
    """"The chain of tests succeeds after 4 attempts." / "... fails at step 2 after 5 attempts."."""
    t = translations(lang)
    count = len(result.steps)
    values = {"count": count}
    if result.outcome == "success":
        return t.ngettext("The chain of tests succeeds after %(count)d attempt.",
                          "The chain of tests succeeds after %(count)d attempts.", count) % values
    if result.outcome.startswith("failure:"):
        values["step"] = int(result.outcome[len("failure:"):]) + 1
        return t.ngettext("The chain of tests fails at step %(step)d after %(count)d attempt.",
                          "The chain of tests fails at step %(step)d after %(count)d attempts.", count) % values
    return t.ngettext("After %(count)d attempt the chain of tests is still undecided.",
                      "After %(count)d attempts the chain of tests is still undecided.", count) % values
