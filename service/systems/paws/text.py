"""German and English chat lines for Paws results, and the wording of character problems."""

from __future__ import annotations

from service.systems.paws.rules import (
    CharacterCheck,
    CharacterResult,
    ComparisonResult,
    Mode,
    Problem,
    ProblemKind,
    RescueResult,
    Side,
    TestResult,
)


def _faces(dice: list[int]) -> str:
    return ", ".join(map(str, dice)) if dice else "–"


def _count(number: int, singular: str, plural: str) -> str:
    return f"{number} {singular if number == 1 else plural}"


def _successes(number: int, lang: str) -> str:
    return _count(number, "Erfolg", "Erfolge") if lang == "de" else _count(number, "success", "successes")


def _effects(number: int, lang: str) -> str:
    return _count(number, "Effekt", "Effekte") if lang == "de" else _count(number, "effect", "effects")


def _who(name: str | None) -> str:
    return f"{name}: " if name else ""


# --- test ---------------------------------------------------------------------------------------

def _test_verdict(result: TestResult, lang: str) -> str:
    de = lang == "de"
    if result.success:
        verdict = "gelungen" if de else "success"
        return verdict + (f", {_effects(result.effects, lang)}" if result.effects else "")
    if result.catastrophe:
        return "Katastrophe!" if de else "catastrophe!"
    if result.rescue and result.rescue.rescued:
        return "misslungen, die Katastrophe ist abgewendet" if de else "failure, the catastrophe is averted"
    return "misslungen" if de else "failure"


def test(result: TestResult, name: str | None, lang: str) -> str:
    count = result.pool.dice
    if lang == "de":
        head = f"{_who(name)}Probe mit {count}W6: {_faces(result.dice)} → {_successes(result.successes, lang)}"
        rescue = (f" Rettungswürfel: {_faces(result.rescue.dice)} → {_successes(result.rescue.successes, lang)}."
                  if result.rescue else "")
    else:
        head = f"{_who(name)}Test with {count}d6: {_faces(result.dice)} → {_successes(result.successes, lang)}"
        rescue = (f" Rescue dice: {_faces(result.rescue.dice)} → {_successes(result.rescue.successes, lang)}."
                  if result.rescue else "")
    return f"{head}, {_test_verdict(result, lang)}.{rescue}"


# --- comparison ---------------------------------------------------------------------------------

def _side_name(side: Side, key: str) -> str:
    return side.name or key.upper()


def _rescue_note(result: ComparisonResult, lang: str) -> str:
    for key in ("a", "b"):
        rescue = getattr(result, key).rescue
        if rescue is None:
            continue
        who = _side_name(getattr(result, key), key)
        if lang == "de":
            return (f" Rettungswürfel von {who}: {_faces(rescue.dice)} → {_successes(rescue.successes, lang)}, "
                    f"{rescue.cancelled} aufgehoben.")
        return (f" {who}'s rescue dice: {_faces(rescue.dice)} → {_successes(rescue.successes, lang)}, "
                f"{rescue.cancelled} cancelled.")
    return ""


def _comparison_verdict(result: ComparisonResult, lang: str) -> str:
    de = lang == "de"
    if result.mode is Mode.DEFENSE:
        if not result.attack_lands:
            return "der Angriff wird abgewehrt" if de else "the attack is repelled"
        head = "der Angriff trifft" if de else "the attack lands"
    elif result.winner is None:
        return "Gleichstand" if de else "tie"
    else:
        winner = _side_name(getattr(result, result.winner), result.winner)
        head = f"{winner} gewinnt" if de else f"{winner} wins"
    return f"{head} ({'netto' if de else 'net'} {result.net}, {_effects(result.effects, lang)})"


def comparison(result: ComparisonResult, lang: str) -> str:
    a, b = _side_name(result.a, "a"), _side_name(result.b, "b")
    score = f"{result.a.successes}:{result.b.successes}"
    de = lang == "de"
    if result.mode is Mode.DEFENSE:
        title = f"Angriff {a} auf {b}" if de else f"Attack {a} on {b}"
    else:
        title = f"Vergleich {a} gegen {b}" if de else f"Comparison {a} vs {b}"
    label = "Ergebnis" if de else "Result"
    return f"{title}: {score}.{_rescue_note(result, lang)} {label}: {_comparison_verdict(result, lang)}."


# --- rescue -------------------------------------------------------------------------------------

def rescue(result: RescueResult, lang: str) -> str:
    if lang == "de":
        return (f"Rettungswürfel ({len(result.dice)}W6): {_faces(result.dice)} → "
                f"{_count(result.successes, 'negativer Effekt', 'negative Effekte')} abgewendet.")
    return (f"Rescue dice ({len(result.dice)}d6): {_faces(result.dice)} → "
            f"{_count(result.successes, 'negative effect', 'negative effects')} averted.")


# --- character ----------------------------------------------------------------------------------

def _problem_de(problem: Problem) -> str:
    if problem.kind is ProblemKind.OVER_POTENTIAL:
        kind = "Schlechte Eigenschaft" if problem.bad else "Eigenschaft"
        where = f" der Kategorie „{problem.category}“" if problem.category else ""
        return f"{kind} „{problem.trait}“ hat Rang {problem.value}, über dem Potenzial{where} von {problem.limit}"
    if problem.kind is ProblemKind.OVER_POWER:
        return f"gute minus schlechte Ränge ergeben {problem.value}, mehr als die Macht von {problem.limit}"
    if problem.kind is ProblemKind.CATEGORY_OVER_POWER:
        return (f"Kategorie „{problem.category}“: gute minus schlechte Ränge ergeben {problem.value}, "
                f"mehr als ihre Macht von {problem.limit}")
    return f"Eigenschaft „{problem.trait}“ ist mehrfach aufgeführt"


def _problem_en(problem: Problem) -> str:
    if problem.kind is ProblemKind.OVER_POTENTIAL:
        kind = "bad trait" if problem.bad else "trait"
        where = f" of category {problem.category!r}" if problem.category else ""
        return f"{kind} {problem.trait!r} has rank {problem.value}, above the potential{where} of {problem.limit}"
    if problem.kind is ProblemKind.OVER_POWER:
        return f"good ranks minus bad ranks is {problem.value}, above the power of {problem.limit}"
    if problem.kind is ProblemKind.CATEGORY_OVER_POWER:
        return (f"category {problem.category!r}: good ranks minus bad ranks is {problem.value}, "
                f"above its power of {problem.limit}")
    return f"trait {problem.trait!r} is listed more than once"


def character_result(check: CharacterCheck, lang: str) -> CharacterResult:
    """The check with every problem worded in ``lang``."""
    word = _problem_de if lang == "de" else _problem_en
    return CharacterResult(check.valid, [word(problem) for problem in check.issues], check.issues,
                           check.power_used, check.categories)


def character(result: CharacterResult, power: int, lang: str) -> str:
    if lang == "de":
        head = f"Charakter {'gültig' if result.valid else 'ungültig'}, Macht genutzt {result.power_used}/{power}"
        return head + (f": {'; '.join(result.problems)}." if result.problems else ".")
    head = f"Character {'valid' if result.valid else 'not valid'}, power used {result.power_used}/{power}"
    return head + (f": {'; '.join(result.problems)}." if result.problems else ".")
