"""The chat lines of Malmsturm results; totals read as "gut (+3)". Every sentence is a message of
the catalogs (``service/locale``), counts use the catalog's plural forms."""

from __future__ import annotations

from service.platform.words.catalogs import Catalog, translations
from service.platform.words.phrases import grouped
from service.systems.malmsturm.play_out import EncounterResult
from service.systems.malmsturm.rules import (
    ActionResult,
    AttackResult,
    ConsequenceReason,
    ContestResult,
    ContestSide,
    InitiativeResult,
    LadderResult,
    Track,
    label_in,
)


def _track(track: Track, t: Catalog) -> str:
    if track is Track.PHYSICAL:
        return t.pgettext("track", "physical stress")
    return t.pgettext("track", "mental stress")


def signed(value: int) -> str:
    return f"+{value}" if value > 0 else ("±0" if value == 0 else f"−{-value}")


def rated(total: int, label: str) -> str:
    return f"{label} ({signed(total)})"


def faces(dice: list[int]) -> str:
    return " ".join({1: "+", 0: "0", -1: "−"}[face] for face in dice)


def ladder(result: LadderResult, lang: str) -> str:
    low, high = result.levels[0], result.levels[-1]
    return translations(lang).gettext(
        "Ladder from %(low)s (%(low_value)s and below) to %(high)s (above %(below_high)s).") % {
        "low": low.label, "low_value": signed(low.value), "high": high.label, "below_high": signed(high.value - 1)}


def action(result: ActionResult, difficulty: int, lang: str) -> str:
    t = translations(lang)
    roll = t.gettext("Simple action against %(difficulty)s: [%(faces)s] → %(total)s.") % {
        "difficulty": rated(difficulty, label_in(difficulty, t)), "faces": faces(result.dice),
        "total": rated(result.total, result.label)}
    if not result.success:
        verdict = t.gettext("Failure.")
    elif not result.shifts:
        verdict = t.gettext("Just made it (no shifts).")
    else:
        verdict = t.ngettext("Success with one shift.", "Success with %(count)d shifts.",
                             result.shifts) % {"count": result.shifts}
    return f"{roll} {verdict}"


def _side(side: ContestSide, fallback: str) -> str:
    return f"{side.name or fallback} [{faces(side.dice)}] {rated(side.total, side.label)}"


def contest(result: ContestResult, lang: str) -> str:
    t = translations(lang)
    sides = t.gettext("Contest: %(a)s against %(b)s.") % {"a": _side(result.a, "A"), "b": _side(result.b, "B")}
    if result.winner is None:
        verdict = t.gettext("A tie, nobody wins.")
    else:
        winner = getattr(result, result.winner).name or result.winner.upper()
        verdict = t.ngettext("%(winner)s wins with one shift.", "%(winner)s wins with %(count)d shifts.",
                             result.shifts) % {"winner": winner, "count": result.shifts}
    return f"{sides} {verdict}"


def initiative(result: InitiativeResult, lang: str) -> str:
    order = ", ".join(f"{position}. {entry.name} {rated(entry.total, entry.label)}"
                      for position, entry in enumerate(result.order, start=1))
    return translations(lang).gettext("Initiative: %(order)s.") % {"order": order}


def attack(result: AttackResult, lang: str) -> str:
    t = translations(lang)
    defender = result.defender.name or "B"
    if result.defended:
        head = t.gettext("Attack: %(attacker)s against %(defender)s.") % {
            "attacker": _side(result.attacker, "A"), "defender": _side(result.defender, "B")}
    else:
        head = t.gettext("Attack: %(attacker)s against %(defender)s, undefended, difficulty %(difficulty)s.") % {
            "attacker": _side(result.attacker, "A"), "defender": defender,
            "difficulty": rated(result.defender.total, result.defender.label)}
    return " ".join([head, *_attack_outcome(result, defender, t)])


def _attack_outcome(result: AttackResult, defender: str, t: Catalog) -> list[str]:
    if result.taken_out and not result.consequence_required:
        # Review 2026-12-03 kind 11: a defender already out loses nothing; the line says so, no stress.
        return [t.gettext("A hit.") if result.hit else t.gettext("A miss."),
                t.gettext("%(defender)s is already out: the attack changes nothing.") % {"defender": defender}]
    if not result.hit:
        return [t.gettext("A miss.")]
    track = result.stress_after.track(result.track)
    values = {"count": result.shifts, "track": _track(result.track, t), "defender": defender,
              "current": track.current, "max": track.max}
    if result.consequence_reason is ConsequenceReason.TAKEN_EARLY:
        sentences = [t.ngettext("A hit with one shift.", "A hit with %(count)d shifts.", result.shifts) % values]
    elif result.track is Track.PHYSICAL:
        sentences = [t.ngettext("A hit with one shift: %(defender)s loses one point of physical stress.",
                                "A hit with %(count)d shifts: %(defender)s loses %(count)d points of physical "
                                "stress.", result.shifts) % values]
    else:
        sentences = [t.ngettext("A hit with one shift: %(defender)s loses one point of mental stress.",
                                "A hit with %(count)d shifts: %(defender)s loses %(count)d points of mental "
                                "stress.", result.shifts) % values]
    if result.consequence_reason is ConsequenceReason.TAKEN_EARLY:
        sentences.append(t.gettext("%(defender)s takes a consequence instead.") % values)
    elif result.consequence_reason is ConsequenceReason.STRESS_SPENT:
        sentences.append(t.gettext("The stress is spent: %(defender)s takes a consequence, and the track "
                                   "refills to %(max)d.") % values)
    elif not result.taken_out and result.track is Track.PHYSICAL:
        sentences.append(t.ngettext("%(defender)s has %(current)d of %(max)d point of physical stress left.",
                                    "%(defender)s has %(current)d of %(max)d points of physical stress left.",
                                    track.max) % values)
    elif not result.taken_out:
        sentences.append(t.ngettext("%(defender)s has %(current)d of %(max)d point of mental stress left.",
                                    "%(defender)s has %(current)d of %(max)d points of mental stress left.",
                                    track.max) % values)
    suggested = result.suggested_consequences
    if suggested:
        sentences.append(t.ngettext("Suggested: %(consequences)s.", "Suggested: %(consequences)s.",
                                    len(suggested)) % {
            "consequences": ", ".join(suggestion.label for suggestion in suggested)})
    if result.taken_out:
        sentences.append(t.gettext("%(defender)s is taken out of the conflict.") % values)
    return sentences


# --- encounters -----------------------------------------------------------------------------------

def encounter(result: EncounterResult, lang: str) -> str:
    """A whole conflict as sentences a player reads aloud (issue 53): how it ended (a side gives in,
    the first member out under ruling E8's ``first_out``, a side out), who won, then what it cost each
    member (``result``: encounter.EncounterResult). A side's name may be singular or plural, so it
    follows "für" or "die Seite", never stands as a subject by itself."""
    t = translations(lang)
    values = {"count": grouped(result.rounds, lang), "side": result.winner}
    out = [member.name for member in result.end.members if member.taken_out and member.consequences_taken]
    said_out: set[str] = set()
    if result.winner is not None and result.end.conceded:
        # Review kind 4: the concession first (it causes the victory).
        head = t.ngettext("After %(count)s round the side “%(conceded)s” gives in: victory for %(side)s.",
                          "After %(count)s rounds the side “%(conceded)s” gives in: victory for %(side)s.",
                          result.rounds) % {**values, "conceded": result.end.conceded}
    elif result.winner is not None and result.ends == "first_out" and len(out) == 1:
        # Ruling E8: with `ends: first_out` the conflict ends at the first member taken out, and says so.
        head = t.ngettext("After %(count)s round %(name)s is taken out, and with the first one out the conflict "
                          "ends: victory for %(side)s.",
                          "After %(count)s rounds %(name)s is taken out, and with the first one out the conflict "
                          "ends: victory for %(side)s.", result.rounds) % {**values, "name": out[0]}
        said_out.add(out[0])
    elif result.winner is not None:
        head = t.ngettext("Victory for %(side)s after %(count)s round.", "Victory for %(side)s after %(count)s rounds.",
                          result.rounds) % values
    elif result.outcome == "stalemate" and result.rounds == 0:
        # Review kind 3: a conflict that never starts says why, not "after 0 rounds".
        head = t.gettext("There is no conflict: no attack can ever hit.")
    elif result.outcome == "stalemate":
        head = t.ngettext("Stalemate after %(count)s round: no attack can hit any more.",
                          "Stalemate after %(count)s rounds: no attack can hit any more.", result.rounds) % values
    else:
        head = t.ngettext("Still undecided after %(count)s round.", "Still undecided after %(count)s rounds.",
                          result.rounds) % values
    sentences = [head]
    for member in result.end.members:
        if member.name in said_out:
            continue
        if member.taken_out and member.consequences_taken:
            sentences.append(t.gettext("%(name)s is taken out of the conflict.") % {"name": member.name})
        elif member.consequences_taken:
            sentences.append(t.ngettext("%(name)s takes a consequence.", "%(name)s takes %(count)s consequences.",
                                        member.consequences_taken) % {"name": member.name,
                                                                      "count": member.consequences_taken})
    return " ".join(sentences)
