"""German and English chat lines for Malmsturm results; totals read as "gut (+3)"."""

from __future__ import annotations

from service.systems.malmsturm.rules import (
    ActionResult,
    AttackResult,
    ConsequenceReason,
    ContestResult,
    ContestSide,
    InitiativeResult,
    LadderResult,
    Track,
)

TRACK = {
    "de": {Track.PHYSICAL: "körperliche Belastung", Track.MENTAL: "mentale Belastung"},
    "en": {Track.PHYSICAL: "physical stress", Track.MENTAL: "mental stress"},
}


def signed(value: int) -> str:
    return f"+{value}" if value > 0 else ("±0" if value == 0 else f"−{-value}")


def rated(total: int, label: str) -> str:
    return f"{label} ({signed(total)})"


def faces(dice: list[int]) -> str:
    return " ".join({1: "+", 0: "0", -1: "−"}[face] for face in dice)


def _who(name: str | None, fallback: str) -> str:
    return name or fallback


def _shifts(count: int, lang: str) -> str:
    if lang == "de":
        return f"{count} Erfolg" if count == 1 else f"{count} Erfolge"
    return f"{count} shift" if count == 1 else f"{count} shifts"


def ladder(result: LadderResult, lang: str) -> str:
    low, high = result.levels[0], result.levels[-1]
    if lang == "de":
        return f"Stufenleiter von {low.label} ({signed(low.value)} und darunter) bis {high.label} (mehr als +6)."
    return f"Ladder from {low.label} ({signed(low.value)} and below) to {high.label} (above +6)."


def action(result: ActionResult, difficulty: int, lang: str) -> str:
    outcome = rated(result.total, result.label)
    if lang == "de":
        verdict = f"gelungen, {_shifts(result.shifts, lang)}" if result.success else "misslungen"
        return f"Einfache Aktion gegen {signed(difficulty)}: [{faces(result.dice)}] → {outcome}, {verdict}."
    verdict = f"success, {_shifts(result.shifts, lang)}" if result.success else "failure"
    return f"Simple action against {signed(difficulty)}: [{faces(result.dice)}] → {outcome}, {verdict}."


def _side(side: ContestSide, fallback: str) -> str:
    return f"{_who(side.name, fallback)} [{faces(side.dice)}] {rated(side.total, side.label)}"


def contest(result: ContestResult, lang: str) -> str:
    names = {"a": _who(result.a.name, "A"), "b": _who(result.b.name, "B")}
    sides = f"{_side(result.a, 'A')} : {_side(result.b, 'B')}"
    if lang == "de":
        verdict = (f"{names[result.winner]} gewinnt mit {_shifts(result.shifts, lang)}"
                   if result.winner else "Gleichstand, niemand gewinnt")
        return f"Wettstreit {sides}: {verdict}."
    verdict = (f"{names[result.winner]} wins with {_shifts(result.shifts, lang)}"
               if result.winner else "tie, nobody wins")
    return f"Contest {sides}: {verdict}."


def initiative(result: InitiativeResult, lang: str) -> str:
    order = ", ".join(f"{position}. {entry.name} {rated(entry.total, entry.label)}"
                      for position, entry in enumerate(result.order, start=1))
    return f"Reihenfolge: {order}." if lang == "de" else f"Initiative: {order}."


def attack(result: AttackResult, lang: str) -> str:
    defender = _who(result.defender.name, "B")
    sides = f"{_side(result.attacker, 'A')} → {_side(result.defender, 'B')}"
    track = result.stress_after.track(result.track)
    if lang == "de":
        return f"Angriff {sides}: " + _attack_de(result, defender, track.current, track.max) + "."
    return f"Attack {sides}: " + _attack_en(result, defender, track.current, track.max) + "."


def _attack_de(result: AttackResult, defender: str, current: int, maximum: int) -> str:
    if not result.hit:
        return "daneben" + (f"; {defender} ist bereits ausgeschieden" if result.taken_out else "")
    line = f"Treffer mit {_shifts(result.shifts, 'de')} auf {TRACK['de'][result.track]}"
    if result.consequence_reason is ConsequenceReason.TAKEN_EARLY:
        line += f"; {defender} nimmt stattdessen eine Konsequenz hin"
    elif result.consequence_reason is ConsequenceReason.STRESS_SPENT:
        line += f"; Belastung aufgebraucht, {defender} erleidet eine Konsequenz ({current}/{maximum} aufgefüllt)"
    elif not result.taken_out:
        line += f" ({current}/{maximum} übrig)"
    if result.taken_out:
        line += (f"; {defender} scheidet aus dem Konflikt aus" if result.consequence_required
                 else f"; {defender} ist bereits ausgeschieden")
    return line


def _attack_en(result: AttackResult, defender: str, current: int, maximum: int) -> str:
    if not result.hit:
        return "miss" + (f"; {defender} is already out" if result.taken_out else "")
    line = f"hit with {_shifts(result.shifts, 'en')} of {TRACK['en'][result.track]}"
    if result.consequence_reason is ConsequenceReason.TAKEN_EARLY:
        line += f"; {defender} takes a consequence instead"
    elif result.consequence_reason is ConsequenceReason.STRESS_SPENT:
        line += f"; stress spent, {defender} takes a consequence ({current}/{maximum} refilled)"
    elif not result.taken_out:
        line += f" ({current}/{maximum} left)"
    if result.taken_out:
        line += (f"; {defender} is taken out of the conflict" if result.consequence_required
                 else f"; {defender} is already out")
    return line
