"""The chat lines of Beutelschneider results, worded like the rules text: "zieht eine grüne und eine
weiße Murmel", "draws two red marbles". Every sentence is a message of the catalogs
(``service/locale``), counts use the catalog's plural forms; the colours, numbers, abilities and
severities are messages too, so a language can inflect them (German adjective endings)."""

from __future__ import annotations

from collections.abc import Sequence

from service.platform.words.catalogs import Catalog, marked, translations
from service.platform.words.phrases import grouped, number
from service.systems.beutelschneider.encounter import EncounterResult
from service.systems.beutelschneider.rules import (
    Ability,
    Amount,
    Bag,
    BagProblem,
    ChallengeResult,
    Colour,
    CombatResult,
    ContestResult,
    Difficulty,
    ExperienceResult,
    Finding,
    FirstAidResult,
    HealingResult,
    InjuryResult,
    MortalDangerResult,
    Severity,
)

# Adjectives before "marble(s)" ("rote" in German, after "eine" and after a numeral alike).
COLOURS = {Colour.RED: marked("colour", "red"), Colour.GREEN: marked("colour", "green"),
           Colour.BLUE: marked("colour", "blue"), Colour.WHITE: marked("colour", "white"),
           Colour.BLACK: marked("colour", "black")}
ABILITIES = {Ability.COMBAT: marked("ability", "combat"), Ability.SKILL: marked("ability", "skill"),
             Ability.MAGIC: marked("ability", "magic")}
# Adjectives before "injury" ("eine leichte Verletzung").
SEVERITIES = {Severity.LIGHT: marked("severity", "light"), Severity.SERIOUS: marked("severity", "serious"),
              Severity.GRAVE: marked("severity", "grave")}


def _colour(colour: Colour, t: Catalog) -> str:
    return t.pgettext("colour", COLOURS[colour])


def marbles(drawn: Sequence[Colour], t: Catalog) -> str:
    """"eine grüne und eine weiße Murmel" / "two red and a green marble" (noun agrees with the last)."""
    groups: dict[Colour, int] = {}
    for colour in drawn:
        groups[colour] = groups.get(colour, 0) + 1
    if not groups:
        return t.gettext("no marble")
    parts = [t.npgettext("marbles", "a %(colour)s", "%(number)s %(colour)s", count)
             % {"colour": _colour(colour, t), "number": number(count, t)} for colour, count in groups.items()]
    listed = parts[0] if len(parts) == 1 else t.gettext("%(first)s and %(last)s") % {
        "first": ", ".join(parts[:-1]), "last": parts[-1]}
    last = list(groups.values())[-1]
    return t.ngettext("%(marbles)s marble", "%(marbles)s marbles", last) % {"marbles": listed}


def count_marbles(count: int, t: Catalog) -> str:
    return t.ngettext("one marble", "%(number)s marbles", count) % {"number": number(count, t)}


def bag(value: Bag, t: Catalog) -> str:
    """"9 rote, 6 grüne, 3 weiße und 3 schwarze Murmeln" (digits: a bag holds up to a hundred)."""
    counts = [(colour, count) for colour in Colour if (count := value.count(colour))]
    if not counts:
        return t.gettext("no marble")
    parts = [f"{count} {_colour(colour, t)}" for colour, count in counts]
    listed = parts[0] if len(parts) == 1 else t.gettext("%(first)s and %(last)s") % {
        "first": ", ".join(parts[:-1]), "last": parts[-1]}
    return t.ngettext("%(marbles)s marble", "%(marbles)s marbles", counts[-1][1]) % {"marbles": listed}


def _who(name: str | None, t: Catalog) -> str:
    return name or t.gettext("The character")


def validate_bag(findings: Sequence[Finding], lang: str) -> str:
    t = translations(lang)
    if not findings:
        return t.gettext("The bag follows the character creation rules.")
    return t.gettext("The bag breaks the character creation rules: %(problems)s.") % {
        "problems": "; ".join(_problem(finding, t) for finding in findings)}


def _problem(finding: Finding, t: Catalog) -> str:
    values = {"expected": finding.expected, "actual": finding.actual}
    if finding.problem is BagProblem.SIZE:
        return t.ngettext("%(expected)d marble in all required, the bag holds %(actual)d",
                          "%(expected)d marbles in all required, the bag holds %(actual)d", finding.expected) % values
    if finding.problem is BagProblem.WHITE:
        return t.ngettext("%(expected)d white marble required, the bag holds %(actual)d",
                          "%(expected)d white marbles required, the bag holds %(actual)d", finding.expected) % values
    if finding.problem is BagProblem.FREE:
        return t.ngettext("%(expected)d red, green or blue marble required, the bag holds %(actual)d",
                          "%(expected)d red, green and blue marbles in all required, the bag holds %(actual)d",
                          finding.expected) % values
    return t.gettext("a new character has no black marbles, the bag holds %(actual)d") % values


def problems(findings: Sequence[Finding], lang: str) -> list[str]:
    t = translations(lang)
    return [_problem(finding, t) for finding in findings]


def _subject(name: str | None, t: Catalog) -> str:
    """The character as the subject after a colon ("Nur Schwarz gezogen: Konstantin wird …")."""
    return name or t.pgettext("subject after a colon", "the character")


def _challenge_verdict(result: ChallengeResult | FirstAidResult, name: str | None, t: Catalog) -> str:
    if result.unconscious:  # ruling 1
        return t.gettext("Only black drawn: %(name)s falls unconscious.") % {"name": _subject(name, t)}
    return t.pgettext("challenge", "Success.") if result.success else t.pgettext("challenge", "Failure.")


def challenge(result: ChallengeResult | FirstAidResult, ability: Ability, difficulty: Difficulty, name: str | None,
              lang: str) -> str:
    return _challenge(result, ability, difficulty, name, translations(lang))


def _challenge(result: ChallengeResult | FirstAidResult, ability: Ability, difficulty: Difficulty, name: str | None,
               t: Catalog) -> str:
    values = {"who": _who(name, t), "marbles": marbles(result.drawn, t),
              "ability": t.pgettext("ability", ABILITIES[ability])}
    if difficulty is Difficulty.EASY:
        line = t.gettext("%(who)s draws %(marbles)s in an especially easy %(ability)s challenge.") % values
    elif difficulty is Difficulty.HARD:
        line = t.gettext("%(who)s draws %(marbles)s in an especially hard %(ability)s challenge.") % values
    else:
        line = t.gettext("%(who)s draws %(marbles)s in a normal %(ability)s challenge.") % values
    return f"{line} {_challenge_verdict(result, name, t)}"


def first_aid(result: FirstAidResult, difficulty: Difficulty, name: str | None, lang: str) -> str:
    t = translations(lang)
    line = _challenge(result, Ability.SKILL, difficulty, name, t)
    if not result.success:
        return line
    draws = t.gettext("The patient may draw %(marbles)s for healing.") % {
        "marbles": count_marbles(result.healing_draws, t)}
    return f"{line} {draws}"


def _contestants(result: ContestResult | CombatResult, t: Catalog) -> str:
    lines = []
    for participant in result.participants:
        values = {"name": participant.name, "ability": t.pgettext("ability", ABILITIES[participant.ability]),
                  "marbles": marbles(participant.drawn, t)}
        if participant.unconscious:
            lines.append(t.gettext("%(name)s (%(ability)s): %(marbles)s – unconscious") % values)
        else:
            lines.append(t.pgettext("contestant", "%(name)s (%(ability)s): %(marbles)s") % values)
    return "; ".join(lines)


def _contest_verdict(result: ContestResult | CombatResult, t: Catalog) -> str:
    if result.winner is None:
        return t.gettext("A tie: nobody prevails.")
    values = {"winner": result.winner, "number": number(result.margin, t),
              "side": getattr(result, "winning_side", None)}
    if values["side"] and values["side"] != result.winner:  # ruling 8: the winner's side prevails
        return t.ngettext("%(winner)s prevails for the side “%(side)s” by one marble.",
                          "%(winner)s prevails for the side “%(side)s” by %(number)s marbles.",
                          result.margin) % values
    return t.ngettext("%(winner)s prevails by one marble.", "%(winner)s prevails by %(number)s marbles.",
                      result.margin) % values


def contest(result: ContestResult, lang: str) -> str:
    t = translations(lang)
    # One colon a line (review row 34): the kind of draw is a heading before a dash.
    head = t.gettext("Contest – %(contestants)s.") % {"contestants": _contestants(result, t)}
    return f"{head} {_contest_verdict(result, t)}"


def combat(result: CombatResult, lang: str, injuring: frozenset[Ability] = frozenset({Ability.COMBAT})) -> str:
    t = translations(lang)
    sentences = [t.gettext("Exchange of blows – %(contestants)s.") % {"contestants": _contestants(result, t)}]
    wound = result.injury
    if wound is None:
        if result.winner is None:
            sentences.append(_contest_verdict(result, t))
        else:
            sentences.append(_harmless_win(result, injuring, t))
        return " ".join(sentences)
    sentences.append(_contest_verdict(result, t))
    values = {"target": wound.target, "severity": t.pgettext("severity", SEVERITIES[wound.severity]),
              "marbles": marbles(wound.drawn, t)}
    if all(colour is Colour.BLACK for colour in wound.drawn):  # "da eine ja bereits schwarz war"
        sentences.append(t.ngettext("%(target)s suffers a %(severity)s injury: %(marbles)s drawn, it stays black.",
                                    "%(target)s suffers a %(severity)s injury: %(marbles)s drawn, they stay black.",
                                    len(wound.drawn)) % values)
    else:
        sentences.append(t.ngettext("%(target)s suffers a %(severity)s injury: %(marbles)s replaced by a black one.",
                                    "%(target)s suffers a %(severity)s injury: %(marbles)s replaced by black ones.",
                                    len(wound.drawn)) % values)
    return " ".join(sentences)


def _harmless_win(result: CombatResult, injuring: frozenset[Ability], t: Catalog) -> str:
    """Rulings 3 and 9: the winner used an ability that does not injure (fled, dodged)."""
    ability = next(p.ability for p in result.participants if p.name == result.winner)
    values = {"winner": result.winner, "ability": t.pgettext("ability", ABILITIES[ability])}
    if injuring == frozenset({Ability.COMBAT}):
        return t.gettext("%(winner)s wins with %(ability)s, not combat: nobody is injured.") % values
    return t.gettext("%(winner)s wins with %(ability)s, which injures nobody here: nobody is injured.") % values


def injury(result: InjuryResult, severity: Severity, name: str | None, lang: str) -> str:
    t = translations(lang)
    drawn = len(result.drawn)
    values = {"who": _who(name, t), "severity": t.pgettext("severity", SEVERITIES[severity]),
              "marbles": marbles(result.drawn, t), "number": number(drawn, t)}
    head = t.gettext("%(who)s suffers a %(severity)s injury and draws %(marbles)s") % values
    if all(colour is Colour.BLACK for colour in result.drawn):
        replaced = t.ngettext("it stays black", "they stay black", drawn)
    elif drawn == 1:
        replaced = t.gettext("it is replaced by a black one")
    elif drawn == 2:
        replaced = t.gettext("both are replaced by black ones")
    else:
        replaced = t.gettext("all %(number)s are replaced by black ones") % values
    blacks = result.bag_after.black
    tail = t.ngettext("so the bag now holds %(count)d black marble", "so the bag now holds %(count)d black marbles",
                      blacks) % {"count": blacks}
    return t.gettext("%(head)s; %(replaced)s, %(tail)s.") % {"head": head, "replaced": replaced, "tail": tail}


def mortal_danger(result: MortalDangerResult, name: str | None, lang: str) -> str:
    t = translations(lang)
    values = {"who": _who(name, t), "name": name or t.pgettext("subject after a colon", "the character"),
              "marbles": marbles(result.drawn, t)}
    head = t.gettext("%(who)s is in mortal danger and draws %(marbles)s.") % values
    drawn = len(result.drawn)
    if result.dies:
        verdict = t.ngettext("It is black: %(name)s dies.", "There is black among them: %(name)s dies.",
                             drawn) % values
    else:
        verdict = t.ngettext("It is not black: %(name)s survives.",
                             "No black marble is among them: %(name)s survives.", drawn) % values
    return f"{head} {verdict}"


def healing(result: HealingResult, name: str | None, lang: str) -> str:
    t = translations(lang)
    line = t.gettext("%(who)s draws %(marbles)s for healing.") % {"who": _who(name, t),
                                                                   "marbles": marbles(result.drawn, t)}
    blacks = result.black_drawn
    if not blacks:
        outcome = t.ngettext("It is not black: no healing.", "No black marble among them: no healing.",
                             len(result.drawn))
    elif result.bag_after is None:
        if blacks == 1:
            outcome = t.gettext("The black marble may be replaced by a red, green or blue one.")
        elif blacks == 2:
            outcome = t.gettext("Both black marbles may be replaced by red, green or blue ones.")
        else:
            outcome = t.gettext("All %(number)s black marbles may be replaced by red, green or blue ones.") % {
                "number": number(blacks, t)}
    else:
        outcome = t.ngettext("The black marble is replaced; the bag now holds %(bag)s.",
                             "The black marbles are replaced; the bag now holds %(bag)s.",
                             blacks) % {"bag": bag(result.bag_after, t)}
    return f"{line} {outcome}"


def experience(result: ExperienceResult, amount: Amount, name: str | None, lang: str) -> str:
    t = translations(lang)
    line = t.gettext("%(who)s draws %(marbles)s for experience.") % {"who": _who(name, t),
                                                                      "marbles": marbles(result.drawn, t)}
    if result.bag_after is None:
        outcome = t.ngettext("It may be exchanged for a marble of another colour.",
                             "Each may be exchanged for a marble of another colour.", len(result.drawn))
    else:
        outcome = t.gettext("The bag now holds %(bag)s.") % {"bag": bag(result.bag_after, t)}
    return f"{line} {outcome}"


def applied(kind: str, before: Bag, after: Bag, lang: str) -> str:
    t = translations(lang)
    values = {"before": bag(before, t), "after": bag(after, t)}
    if kind == "healing":
        return t.gettext("Healing applied: the bag held %(before)s, now %(after)s.") % values
    return t.gettext("Experience applied: the bag held %(before)s, now %(after)s.") % values


def encounter(result: EncounterResult, lang: str) -> str:
    """A whole fight as sentences a player reads aloud (issue 53): who won and how (knocked out,
    a flight, a way out by another ability, both out), then what the fight cost (every injury, the
    ones before an escape too), then the aftermath draws. Side names may be singular or plural
    ("Brunhild", "Die Wölfe"), so a name follows "für" or stands as an object, never as a subject."""
    t = translations(lang)
    values: dict[str, object] = {"count": grouped(result.exchanges, lang)}
    fallen = [side.name for side in result.end if side.unconscious]
    if result.outcome == "both_out":
        line = t.ngettext("After %(count)s exchange both sides fall unconscious.",
                          "After %(count)s exchanges both sides fall unconscious.", result.exchanges) % values
    elif result.outcome.startswith("wins:"):
        values.update(winner=result.outcome[len("wins:"):], names=_listed(fallen, t))
        line = t.ngettext("Victory for %(winner)s after %(count)s exchange: for %(names)s the fight ends "
                          "unconscious.",
                          "Victory for %(winner)s after %(count)s exchanges: for %(names)s the fight ends "
                          "unconscious.", result.exchanges) % values
    elif result.outcome.startswith("escapes:"):
        values.update(name=result.outcome[len("escapes:"):])
        line = _way_out(result, values, t)
    elif result.outcome == "stalemate" and result.exchanges == 0:
        # Review kind 3: a fight that never starts says why, not "after 0 exchanges".
        line = t.gettext("There is no fight: no exchange could change anything (nobody can injure, win or fall "
                         "unconscious).")
    elif result.outcome == "stalemate":
        line = t.ngettext("After %(count)s exchange nothing can change any more: a stalemate.",
                          "After %(count)s exchanges nothing can change any more: a stalemate.",
                          result.exchanges) % values
    else:
        line = t.ngettext("After %(count)s exchange the fight is still undecided.",
                          "After %(count)s exchanges the fight is still undecided.", result.exchanges) % values
    sentences = [line, *_cost(result.steps, t), *_who_draws(result, t)]
    for draw in result.aftermath:
        values = {"name": draw.name, "marbles": marbles(draw.drawn, t)}
        sentences.append(t.gettext("In mortal danger %(name)s draws %(marbles)s and dies.") % values if draw.dies
                         else t.gettext("In mortal danger %(name)s draws %(marbles)s and survives.") % values)
    return " ".join(sentences)


def _who_draws(result: EncounterResult, t: Catalog) -> list[str]:
    """E5 as amended: between sides of several, the line names who is "auf dem Schlachtfeld
    zurückgelassen" (they draw) and who is tended by their own (no draw). A fight of two characters
    reads as before: the unconscious side has always lost."""
    sentences = []
    if result.aftermath and len(result.end) > 2:
        sentences.append(t.gettext("Left on the battlefield: %(names)s.") % {
            "names": _listed([draw.name for draw in result.aftermath], t)})
    if result.tended:
        sentences.append(t.gettext("No mortal danger for %(names)s: tended by their own side.") % {
            "names": _listed(result.tended, t)})
    return sentences


def _way_out(result: EncounterResult, values: dict[str, object], t: Catalog) -> str:
    """Ruling E6: a side that wins an exchange with an ability that does not injure leaves the fight;
    with Geschick that is a flight ("so ist die Flucht gelungen"), with another ability (magic where it
    does not wound) a way out, never a flight."""
    ability = _winning_ability(result.steps)
    if ability is None or ability is Ability.SKILL:
        return t.ngettext("After %(count)s exchange the flight succeeds for %(name)s.",
                          "After %(count)s exchanges the flight succeeds for %(name)s.", result.exchanges) % values
    return t.ngettext("After %(count)s exchange a win with %(ability)s ends the fight for %(name)s: this win "
                      "injures nobody.",
                      "After %(count)s exchanges a win with %(ability)s ends the fight for %(name)s: this win "
                      "injures nobody.", result.exchanges) % {
        **values, "ability": t.pgettext("ability", ABILITIES[ability])}


def _winning_ability(steps: Sequence[CombatResult]) -> Ability | None:
    if not steps or steps[-1].winner is None:
        return None
    last = steps[-1]
    return next((part.ability for part in last.participants if part.name == last.winner), None)


def _cost(steps: Sequence[CombatResult], t: Catalog) -> list[str]:
    """"The fight costs Brunhild a light and a serious injury, Affenmensch two grave injuries.": every
    injury of the fight, by whom it hit, in the order the names were first hurt."""
    taken: dict[str, dict[Severity, int]] = {}
    for step in steps:
        if step.injury is not None:
            counts = taken.setdefault(step.injury.target, {})
            counts[step.injury.severity] = counts.get(step.injury.severity, 0) + 1
    if not taken:
        return []
    parts = [t.gettext("%(name)s %(injuries)s") % {"name": name, "injuries": _injuries(counts, t)}
             for name, counts in taken.items()]
    return [t.gettext("The fight costs %(parts)s.") % {"parts": ", ".join(parts)}]


def _injuries(counts: dict[Severity, int], t: Catalog) -> str:
    """"a light and two serious injuries": the noun once, in the number of the last count."""
    said = [(count, t.pgettext("severity", SEVERITIES[severity])) for severity, count in counts.items()]
    heads = [t.ngettext("a %(severity)s", "%(count)s %(severity)s", count) % {
        "count": number(count, t), "severity": severity} for count, severity in said[:-1]]
    count, severity = said[-1]
    last = t.ngettext("a %(severity)s injury", "%(count)s %(severity)s injuries", count) % {
        "count": number(count, t), "severity": severity}
    return _listed([*heads, last], t)


def _listed(names: Sequence[str], t: Catalog) -> str:
    """``A``, ``A and B``, ``A, B and C``."""
    if len(names) <= 1:
        return "".join(names)
    return t.gettext("%(first)s and %(last)s") % {"first": ", ".join(names[:-1]), "last": names[-1]}
