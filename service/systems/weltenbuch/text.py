"""The chat lines of Weltenbuch results. Every sentence is a message of the catalogs
(``service/locale``), counts use the catalog's plural forms."""

from __future__ import annotations

from collections.abc import Sequence

from service.platform.words.catalogs import Catalog, marked, translations
from service.platform.words.phrases import capitalized
from service.systems.weltenbuch.encounter import EncounterResult
from service.systems.weltenbuch.rules import Actor, ConflictResult, NarrationResult, ResurrectionResult, Turn


def _turn(turn: Turn, t: Catalog) -> str:
    if turn.actor is Actor.GM:
        return t.pgettext("turn", "GM")
    return turn.members[0]


def conflict(result: ConflictResult, lang: str) -> str:
    t = translations(lang)
    scores = ", ".join(t.ngettext("%(party)s with %(count)d success", "%(party)s with %(count)d successes",
                                  party.successes) % {"party": party.name, "count": party.successes}
                       for party in result.parties)
    order = " → ".join(_turn(turn, t) for turn in result.narration_order)
    head = t.gettext("Conflict scene: %(scores)s.") % {"scores": scores}
    if result.winner:
        verdict = t.gettext("The scene goes to %(winner)s.") % {"winner": result.winner}
    else:
        verdict = t.gettext("A tie: nobody wins, each party reaches only part of its goal.")
    if order:
        narrators = t.gettext("Narration order: %(order)s.") % {"order": order}
    else:
        narrators = t.gettext("Narration order: nobody, no one has dice.")
    return " ".join([head, verdict, narrators])


def narration(result: NarrationResult, lang: str) -> str:
    t = translations(lang)
    spent = len(result.spent)
    lost = sum(1 for die in result.spent if die.lowered)
    points = len(result.hero_points_spent)
    values = {
        "spent": t.ngettext("%(count)d die spent", "%(count)d dice spent", spent) % {"count": spent},
        "lost": t.ngettext("%(count)d point of toughness lost", "%(count)d points of toughness lost",
                           lost) % {"count": lost},
        "points": t.ngettext("%(count)d hero point spent", "%(count)d hero points spent", points) % {"count": points},
    }
    if points:
        sentences = [t.gettext("Narration: %(spent)s, %(lost)s, %(points)s.") % values]
    else:
        sentences = [t.gettext("Narration: %(spent)s, %(lost)s.") % values]
    left = len(result.unspent)
    if result.complete:
        sentences.append(t.gettext("All dice are spent."))
    else:
        sentences.append(t.ngettext("%(count)d die is left.", "%(count)d dice are left.", left) % {"count": left})
    if result.consequences:
        sentences.append(t.ngettext("A consequence for %(names)s.", "Consequences for %(names)s.",
                                    len(result.consequences)) % {"names": ", ".join(result.consequences)})
    sentences += _overcome(getattr(result, "overcome", []), t)
    return " ".join(sentences)


def _overcome(overcome: Sequence[str], t: Catalog) -> list[str]:
    """Ruling 7 (and E3 in the encounter's summary): the obstacles overcome, as a label, so that a
    name in the plural ("die Wölfe") and one in the singular read alike."""
    return [t.gettext("Overcome: %(names)s.") % {"names": _listed(overcome, t)}] if overcome else []


def _listed(names: Sequence[str], t: Catalog) -> str:
    if len(names) == 1:
        return names[0]
    return t.gettext("%(first)s and %(last)s") % {"first": ", ".join(names[:-1]), "last": names[-1]}


# "Einer der acht Götter": the god a d8 names, when the table gave no names.
GODS = (marked("god", "the first god"), marked("god", "the second god"), marked("god", "the third god"),
        marked("god", "the fourth god"), marked("god", "the fifth god"), marked("god", "the sixth god"),
        marked("god", "the seventh god"), marked("god", "the eighth god"))


def resurrection(result: ResurrectionResult, lang: str) -> str:
    t = translations(lang)
    god = result.name or capitalized(t.pgettext("god", GODS[result.god - 1]))
    return t.gettext("Resurrection (d8: %(roll)d): %(god)s intervened in the character's fate.") % {
        "roll": result.god, "god": god}


def encounter(result: EncounterResult, lang: str) -> str:
    """"The scene goes to Heroes. Toran takes a consequence. Overcome: Gate." A party's name may be
    singular or plural, so it is never a verb's subject (review 2026-12-03, kind 1); members are people."""
    t = translations(lang)
    if result.outcome.startswith("wins:"):
        line = t.gettext("The scene goes to %(party)s.") % {"party": result.outcome[len("wins:"):]}
    else:
        line = t.gettext("A tie: every party reaches only part of its goal.")
    consequences = result.end.consequences
    if not consequences:
        tail = t.gettext("Nobody takes a consequence.")
    else:
        tail = t.ngettext("%(names)s takes a consequence.", "%(names)s take a consequence each.",
                          len(consequences)) % {"names": _listed(consequences, t)}
    sentences = [line, tail, *_overcome(result.end.overcome, t)]
    for name in result.end.hero_points_spent:
        sentences.append(t.gettext("%(name)s spends a held-back hero point and avoids a consequence.")
                         % {"name": name})
    return " ".join(sentences)
