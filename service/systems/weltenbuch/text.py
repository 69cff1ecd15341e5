"""German and English chat lines for Weltenbuch results."""

from __future__ import annotations

from service.systems.weltenbuch.rules import Actor, ConflictResult, NarrationResult, ResurrectionResult, Turn


def _successes(count: int, lang: str) -> str:
    if lang == "de":
        return f"{count} Erfolg" if count == 1 else f"{count} Erfolge"
    return f"{count} success" if count == 1 else f"{count} successes"


def _turn(turn: Turn, lang: str) -> str:
    if turn.actor is Actor.GM:
        return "Spielleiter" if lang == "de" else "GM"
    return turn.members[0]


def conflict(result: ConflictResult, lang: str) -> str:
    scores = ", ".join(f"{party.name} {party.successes}" for party in result.parties)
    order = " → ".join(_turn(turn, lang) for turn in result.narration_order)
    if lang == "de":
        verdict = (f"{result.winner} entscheidet die Szene für sich" if result.winner
                   else "Patt: niemand gewinnt, jede Partei erreicht einen Teil ihres Ziels")
        return f"Konfliktszene: {scores}. {verdict}. Erzählreihenfolge: {order or '–'}."
    verdict = (f"{result.winner} win the scene" if result.winner
               else "a tie: nobody wins, each party reaches part of its goal")
    return f"Conflict scene: {scores}. {verdict}. Narration order: {order or '–'}."


def narration(result: NarrationResult, lang: str) -> str:
    hits = sum(1 for die in result.spent if die.lowered)
    left = len(result.unspent)
    points = len(result.hero_points_spent)
    if lang == "de":
        line = f"Erzählung: {len(result.spent)} Würfel ausgegeben, {hits} Zähigkeitsverluste"
        line += f", {points} Heldenpunkte" if points else ""
        state = "alle Würfel ausgegeben" if result.complete else f"{left} Würfel übrig"
        consequences = (f"; Konsequenz für {', '.join(result.consequences)}" if result.consequences else "")
        return f"{line}; {state}{consequences}."
    line = f"Narration: {len(result.spent)} dice spent, {hits} toughness lost"
    line += f", {points} hero points" if points else ""
    state = "all dice spent" if result.complete else f"{left} dice left"
    consequences = f"; consequence for {', '.join(result.consequences)}" if result.consequences else ""
    return f"{line}; {state}{consequences}."


def resurrection(result: ResurrectionResult, lang: str) -> str:
    god = f"{result.god} ({result.name})" if result.name else str(result.god)
    if lang == "de":
        return f"Wiederauferstehung: Gott {god} hat in das Schicksal eingegriffen."
    return f"Resurrection: god {god} intervened in the character's fate."
