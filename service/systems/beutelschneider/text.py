"""German and English chat lines, worded like the rules text: "zieht eine grüne und eine weiße
Murmel", "draws two red marbles"."""

from __future__ import annotations

from collections.abc import Sequence

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

# German adjective stems: "eine rote Murmel", "zwei rote Murmeln" (same ending after a numeral).
COLOUR = {
    "de": {Colour.RED: "rote", Colour.GREEN: "grüne", Colour.BLUE: "blaue", Colour.WHITE: "weiße",
           Colour.BLACK: "schwarze"},
    "en": {colour: colour.value for colour in Colour},
}
NUMBER = {
    "de": ["keine", "eine", "zwei", "drei", "vier", "fünf", "sechs", "sieben", "acht", "neun", "zehn"],
    "en": ["no", "a", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"],
}
ABILITY = {"de": {Ability.COMBAT: "Kampf", Ability.SKILL: "Geschick", Ability.MAGIC: "Magie"},
           "en": {Ability.COMBAT: "combat", Ability.SKILL: "skill", Ability.MAGIC: "magic"}}
CHALLENGE = {
    # dative after "bei einer": "bei einer besonders schweren Herausforderung"
    "de": {Difficulty.EASY: "besonders einfachen", Difficulty.NORMAL: "gewöhnlichen",
           Difficulty.HARD: "besonders schweren"},
    "en": {Difficulty.EASY: "especially easy", Difficulty.NORMAL: "normal", Difficulty.HARD: "especially hard"},
}
SEVERITY = {"de": {Severity.LIGHT: "leichte", Severity.SERIOUS: "ernsthafte", Severity.GRAVE: "sehr schwere"},
            "en": {Severity.LIGHT: "light", Severity.SERIOUS: "serious", Severity.GRAVE: "grave"}}
AND = {"de": "und", "en": "and"}


def number(count: int, lang: str) -> str:
    return NUMBER[lang][count] if count < len(NUMBER[lang]) else str(count)


def marbles(drawn: Sequence[Colour], lang: str) -> str:
    """"eine grüne und eine weiße Murmel" / "two red and a green marble" (noun agrees with the last)."""
    groups: dict[Colour, int] = {}
    for colour in drawn:
        groups[colour] = groups.get(colour, 0) + 1
    if not groups:
        return "keine Murmel" if lang == "de" else "no marble"
    parts = [f"{number(count, lang)} {COLOUR[lang][colour]}" for colour, count in groups.items()]
    listed = parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} {AND[lang]} {parts[-1]}"
    plural = list(groups.values())[-1] > 1
    noun = {"de": ("Murmel", "Murmeln"), "en": ("marble", "marbles")}[lang][plural]
    return f"{listed} {noun}"


def count_marbles(count: int, lang: str) -> str:
    if lang == "de":
        return f"{number(count, lang)} Murmel" if count == 1 else f"{number(count, lang)} Murmeln"
    return "one marble" if count == 1 else f"{number(count, lang)} marbles"


def bag(value: Bag, lang: str) -> str:
    parts = [f"{count} {COLOUR[lang][colour]}" for colour in Colour if (count := value.count(colour))]
    return ", ".join(parts)


def _who(name: str | None, lang: str) -> str:
    return name or ("Der Charakter" if lang == "de" else "The character")


def validate_bag(findings: Sequence[Finding], lang: str) -> str:
    if not findings:
        return ("Der Beutel entspricht den Regeln der Charaktererschaffung." if lang == "de"
                else "The bag follows the character creation rules.")
    return ("Der Beutel entspricht nicht den Regeln der Charaktererschaffung: " if lang == "de"
            else "The bag breaks the character creation rules: ") + "; ".join(problems(findings, lang)) + "."


PROBLEM = {
    "de": {BagProblem.SIZE: "{expected} Murmeln insgesamt verlangt, {actual} im Beutel",
           BagProblem.WHITE: "{expected} weiße Murmeln verlangt, {actual} im Beutel",
           BagProblem.FREE: "{expected} rote, grüne und blaue Murmeln verlangt, {actual} im Beutel",
           BagProblem.BLACK: "ein neuer Charakter hat keine schwarzen Murmeln, {actual} im Beutel"},
    "en": {BagProblem.SIZE: "{expected} marbles in all required, the bag holds {actual}",
           BagProblem.WHITE: "{expected} white marbles required, the bag holds {actual}",
           BagProblem.FREE: "{expected} red, green and blue marbles required, the bag holds {actual}",
           BagProblem.BLACK: "a new character has no black marbles, the bag holds {actual}"},
}


def problems(findings: Sequence[Finding], lang: str) -> list[str]:
    return [PROBLEM[lang][f.problem].format(expected=f.expected, actual=f.actual) for f in findings]


def _challenge_verdict(result: ChallengeResult | FirstAidResult, lang: str) -> str:
    if result.unconscious:
        return ("Nur schwarze Murmeln: handlungsunfähig (Ohnmacht)." if lang == "de"
                else "Only black marbles: unconscious.")
    if lang == "de":
        return "Bestanden." if result.success else "Nicht bestanden."
    return "Success." if result.success else "Failed."


def challenge(result: ChallengeResult, ability: Ability, difficulty: Difficulty, name: str | None,
              lang: str) -> str:
    if lang == "de":
        return (f"{_who(name, lang)} zieht bei einer {CHALLENGE[lang][difficulty]} Herausforderung auf "
                f"{ABILITY[lang][ability]} {marbles(result.drawn, lang)}. {_challenge_verdict(result, lang)}")
    return (f"{_who(name, lang)} draws {marbles(result.drawn, lang)} in an {CHALLENGE[lang][difficulty]} "
            f"{ABILITY[lang][ability]} challenge. {_challenge_verdict(result, lang)}"
            ).replace(" an normal", " a normal")


def first_aid(result: FirstAidResult, difficulty: Difficulty, name: str | None, lang: str) -> str:
    line = challenge(result, Ability.SKILL, difficulty, name, lang)
    if not result.success:
        return line
    if lang == "de":
        return line + f" Der Versorgte darf bei der Heilung {count_marbles(result.healing_draws, lang)} ziehen."
    return line + f" The patient may draw {count_marbles(result.healing_draws, lang)} for healing."


def _contestants(result: ContestResult, lang: str) -> str:
    return "; ".join(f"{p.name} ({ABILITY[lang][p.ability]}): {marbles(p.drawn, lang)}"
                     + (" – ohnmächtig" if lang == "de" and p.unconscious else "")
                     + (" – unconscious" if lang == "en" and p.unconscious else "")
                     for p in result.participants)


def _contest_verdict(result: ContestResult, lang: str) -> str:
    if result.winner is None:
        return "Gleichstand, niemand setzt sich durch." if lang == "de" else "A tie: nobody prevails."
    lead = count_marbles(result.margin, lang)
    if lang == "de":
        lead = lead.replace("eine Murmel", "einer Murmel")  # dative: "mit einer Murmel Vorsprung"
        return f"{result.winner} setzt sich mit {lead} Vorsprung durch."
    return f"{result.winner} prevails by {lead}."


def contest(result: ContestResult, lang: str) -> str:
    intro = "Auseinandersetzung" if lang == "de" else "Contest"
    return f"{intro}: {_contestants(result, lang)}. {_contest_verdict(result, lang)}"


def combat(result: CombatResult, lang: str) -> str:
    intro = "Schlagabtausch" if lang == "de" else "Exchange of blows"
    line = f"{intro}: {_contestants(result, lang)}. {_contest_verdict(result, lang)}"
    wound = result.injury
    if wound is None:
        if result.winner is not None:
            line += (" Der Sieger hat nicht gekämpft, es gibt keine Verletzung." if lang == "de"
                     else " The winner did not fight, nobody is injured.")
        return line
    single = len(wound.drawn) == 1
    if lang == "de":
        by_black = "durch eine schwarze" if single else "durch schwarze"
        return (line + f" {wound.target} erleidet eine {SEVERITY[lang][wound.severity]} Verletzung: "
                f"{marbles(wound.drawn, lang)} {by_black} ersetzt.")
    by_black = "a black one" if single else "black ones"
    return (line + f" {wound.target} suffers a {SEVERITY[lang][wound.severity]} injury: "
            f"{marbles(wound.drawn, lang)} replaced by {by_black}.")


def injury(result: InjuryResult, severity: Severity, name: str | None, lang: str) -> str:
    blacks = result.bag_after.black
    if lang == "de":
        return (f"{_who(name, lang)} erleidet eine {SEVERITY[lang][severity]} Verletzung und zieht "
                f"{marbles(result.drawn, lang)}; alle werden durch schwarze ersetzt, jetzt "
                f"{blacks} schwarze im Beutel.")
    return (f"{_who(name, lang)} suffers a {SEVERITY[lang][severity]} injury and draws "
            f"{marbles(result.drawn, lang)}; each is replaced by a black one, now {blacks} black in the bag.")


def mortal_danger(result: MortalDangerResult, name: str | None, lang: str) -> str:
    if lang == "de":
        who = name or "der Charakter"
        verdict = (f"Eine schwarze Murmel ist darunter: {who} stirbt." if result.dies
                   else f"Keine schwarze Murmel ist darunter: {who} überlebt.")
        return f"{_who(name, lang)} ist in Lebensgefahr und zieht {marbles(result.drawn, lang)}. {verdict}"
    who = name or "the character"
    verdict = (f"A black marble is among them: {who} dies." if result.dies
               else f"No black marble among them: {who} survives.")
    return f"{_who(name, lang)} is in mortal danger and draws {marbles(result.drawn, lang)}. {verdict}"


def healing(result: HealingResult, name: str | None, lang: str) -> str:
    blacks = result.black_drawn
    if lang == "de":
        line = f"{_who(name, lang)} zieht zur Heilung {marbles(result.drawn, lang)}."
        if not blacks:
            return line + " Keine schwarze Murmel darunter, keine Heilung."
        if result.bag_after is None:
            if blacks == 1:
                return line + " Die schwarze Murmel darf durch eine farbige ersetzt werden."
            return line + f" Die {blacks} schwarzen Murmeln dürfen durch farbige ersetzt werden."
        replaced = "Die schwarze Murmel wird" if blacks == 1 else "Die schwarzen Murmeln werden"
        return line + f" {replaced} ersetzt; Beutel jetzt: {bag(result.bag_after, lang)}."
    line = f"{_who(name, lang)} draws {marbles(result.drawn, lang)} for healing."
    if not blacks:
        return line + " No black marble among them, no healing."
    if result.bag_after is None:
        if blacks == 1:
            return line + " The black marble may be replaced by a red, green or blue one."
        return line + f" The {blacks} black marbles may be replaced by red, green or blue ones."
    replaced = "The black marble is" if blacks == 1 else "The black marbles are"
    return line + f" {replaced} replaced; the bag now holds {bag(result.bag_after, lang)}."


def experience(result: ExperienceResult, amount: Amount, name: str | None, lang: str) -> str:
    if lang == "de":
        line = f"{_who(name, lang)} zieht für seine Erfahrung {marbles(result.drawn, lang)}."
        if result.bag_after is None:
            return line + " Jede darf gegen eine Murmel einer anderen Farbe getauscht werden."
        return line + f" Beutel jetzt: {bag(result.bag_after, lang)}."
    line = f"{_who(name, lang)} draws {marbles(result.drawn, lang)} for experience."
    if result.bag_after is None:
        return line + " Each may be exchanged for a marble of another colour."
    return line + f" The bag now holds {bag(result.bag_after, lang)}."


def applied(kind: str, before: Bag, after: Bag, lang: str) -> str:
    if lang == "de":
        what = "Heilung" if kind == "healing" else "Erfahrung"
        return f"{what} angewandt: Beutel vorher {bag(before, lang)}, jetzt {bag(after, lang)}."
    return f"{kind.capitalize()} applied: the bag held {bag(before, lang)}, now {bag(after, lang)}."
