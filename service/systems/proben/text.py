"""German and English chat lines for Proben results."""

from __future__ import annotations

from service.systems.proben.rules import CooperationResult, ExtendedResult, OpposedResult, Outcome, TestResult

OUTCOME = {
    "en": {Outcome.SUCCESS: "success", Outcome.PARTIAL: "partial success", Outcome.FAILURE: "failure",
           Outcome.NO_DICE: "no dice left, no further attempt"},
    "de": {Outcome.SUCCESS: "gelungen", Outcome.PARTIAL: "Teilerfolg", Outcome.FAILURE: "misslungen",
           Outcome.NO_DICE: "keine Würfel mehr, kein weiterer Versuch"},
}


def _faces(dice: list[int]) -> str:
    return ", ".join(map(str, dice)) if dice else "–"


def _successes(count: int, lang: str) -> str:
    if lang == "de":
        return f"{count} Erfolg" if count == 1 else f"{count} Erfolge"
    return f"{count} success" if count == 1 else f"{count} successes"


def _who(name: str | None, lang: str) -> str:
    return f"{name}: " if name else ""


def test(result: TestResult, difficulty: int, name: str | None, lang: str) -> str:
    outcome = OUTCOME[lang][result.outcome]
    if result.outcome is Outcome.NO_DICE:
        return f"{_who(name, lang)}{'Probe' if lang == 'de' else 'Test'} ({difficulty}): {outcome}."
    if lang == "de":
        line = (f"{_who(name, lang)}Probe mit {result.dice_count} W6 gegen Schwierigkeit {difficulty}: "
                f"{_faces(result.dice)} → {_successes(result.successes, lang)}, {outcome}")
        extra = f" (Qualität +{result.quality})" if result.quality else ""
        return line + extra + (" – nicht zu schaffen." if result.impossible else ".")
    line = (f"{_who(name, lang)}Test with {result.dice_count}d6 against difficulty {difficulty}: "
            f"{_faces(result.dice)} → {_successes(result.successes, lang)}, {outcome}")
    extra = f" (quality +{result.quality})" if result.quality else ""
    return line + extra + (" – it could not succeed." if result.impossible else ".")


def opposed(result: OpposedResult, a_name: str | None, b_name: str | None, lang: str) -> str:
    names = {"a": a_name or "A", "b": b_name or "B"}
    last = result.rounds[-1]
    score = f"{last.a.successes}:{last.b.successes}"
    rounds = len(result.rounds)
    if lang == "de":
        where = f" nach {rounds} Runden" if rounds > 1 else ""
        if result.winner is None:
            return f"Vergleichende Probe {names['a']} gegen {names['b']}: Gleichstand{where} ({score})."
        how = " durch den höheren Basiswert" if result.decided_by == "base" else ""
        return (f"Vergleichende Probe {names['a']} gegen {names['b']}: {names[result.winner]} gewinnt"
                f"{how}{where} ({score}).")
    where = f" after {rounds} rounds" if rounds > 1 else ""
    if result.winner is None:
        return f"Opposed test {names['a']} vs {names['b']}: tie{where} ({score})."
    how = " on the higher base value" if result.decided_by == "base" else ""
    return f"Opposed test {names['a']} vs {names['b']}: {names[result.winner]} wins{how}{where} ({score})."


def cooperation(result: CooperationResult, difficulty: int, leader_name: str | None, lang: str) -> str:
    helped = sum(1 for helper in result.helpers if helper.helped)
    if lang == "de":
        intro = f"Zusammenarbeit: {helped} von {len(result.helpers)} Unterstützern geben einen Vorteil. "
    else:
        intro = f"Cooperation: {helped} of {len(result.helpers)} helpers grant an advantage. "
    return intro + test(result.leader, difficulty, leader_name, lang)


def extended(result: ExtendedResult, required: int, name: str | None, lang: str) -> str:
    total = result.rolls[-1].cumulative if result.rolls else 0
    elapsed = f", {result.elapsed.amount} {result.elapsed.unit}" if result.elapsed else ""
    if lang == "de":
        verdict = "gelungen" if result.success else "misslungen, die Würfel sind aufgebraucht"
        return (f"{_who(name, lang)}Erweiterte Probe: {total} von {required} Erfolgen in "
                f"{result.rolls_used} Würfen{elapsed}: {verdict}.")
    verdict = "success" if result.success else "failed, out of dice"
    return (f"{_who(name, lang)}Extended test: {total} of {required} successes in "
            f"{result.rolls_used} rolls{elapsed}: {verdict}.")
