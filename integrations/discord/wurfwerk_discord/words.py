"""The app's own words, in German and English: what the service's catalogs do not say (option hints,
buttons, errors of the app itself). The rolls' chat lines, labels and problem texts come from the
service, in the language Discord reports for the user."""

from __future__ import annotations

from typing import Any

WORDS: dict[str, dict[str, str]] = {
    "de": {
        "command": "Würfeln nach {system}: jede Probe, jeder Wurf, ihre Chancen",
        "odds_option": "Statt zu würfeln: die genauen Chancen als kleine Tabelle",
        "secret_option": "Nur du siehst die Antwort",
        "compact_hint": "Kurzform, z. B.: {example}",
        "better": "So gut oder besser",
        "worse": "So schlecht oder schlechter",
        "this_outcome": "Chance dieses Ausgangs",
        "odds_title": "Chancen: {operation}",
        "expected": "Erwartungswert",
        "verify": "Im Browser geprüft ansehen",
        "receipt": "Signiert · Beleg {id}",
        "rescue": "{n} Rettungswürfel",
        "retry": "Noch ein Versuch ({dice} Würfel)",
        "injury": "Verletzung: {severity}",
        "healing": "Heilung: {chances}",
        "narration": "Erzählung: Was ist geschehen?",
        "narration_title": "Erzählung: Was ist geschehen?",
        "toughness_label": "Zähigkeit zu Beginn (leer: ohne)",
        "toughness_field": "Zähigkeit",
        "roll": "Wurf",
        "bad_signature": "Ungültige Signatur",
        "unknown_command": "Diesen Befehl kenne ich nicht (mehr): „{name}“. Bitte die Befehle neu registrieren.",
        "bad_input": "„{option}“ verstehe ich nicht: {detail}",
        "service_down": "Der Würfeldienst ist gerade nicht erreichbar; es wurde nichts gewürfelt. Bitte gleich noch einmal.",
        "service_error": "Der Würfeldienst hat abgelehnt: {title}",
        "card_unreadable": "Diese Karte trägt keinen lesbaren, signierten Wurf mehr; bitte neu würfeln.",
        "no_card_link": "Der signierte Wurf war zu groß für einen Link.",
        "button_expired": "Dieser Knopf ist veraltet; bitte neu würfeln.",
        "app_error": "Hier ist etwas schiefgegangen (in der App, nicht beim Würfeldienst). Bitte noch einmal versuchen.",
        "unknown_word": "„{word}“ passt hier nicht",
        "want_counts": "erwartet Anzahlen wie „rot 3“",
        "want_parts": "bitte die Teile mit Namen angeben",
        "want_value": "der Wert fehlt",
        "want_choice": "„{word}“ ist keins von: {choices}",
        "want_integer": "„{word}“ ist keine ganze Zahl",
        "want_number": "„{word}“ ist keine Zahl",
        "want_boolean": "„{word}“ ist weder ja noch nein",
        "want_name": "der Name ist leer",
        "not_your_roll": "Das ist nicht dein Wurf.",
        "field_error": "„{option}“: {message}",
    },
    "en": {
        "command": "Roll for {system}: every test and roll, and their odds",
        "odds_option": "Instead of rolling: the exact odds as a short table",
        "secret_option": "Only you see the answer",
        "compact_hint": "Compact form, e.g.: {example}",
        "better": "As good or better",
        "worse": "As bad or worse",
        "this_outcome": "Chance of this outcome",
        "odds_title": "Odds: {operation}",
        "expected": "Expected",
        "verify": "See it verified in the browser",
        "receipt": "Signed · receipt {id}",
        "rescue": "{n} rescue dice",
        "retry": "Try again ({dice} dice)",
        "injury": "Injury: {severity}",
        "healing": "Healing: {chances}",
        "narration": "Narration: what happened?",
        "narration_title": "Narration: what happened?",
        "toughness_label": "Toughness at the start (empty: none)",
        "toughness_field": "toughness",
        "roll": "Roll",
        "bad_signature": "invalid request signature",
        "unknown_command": "I do not know this command (any more): '{name}'. Please register the commands again.",
        "bad_input": "I do not understand '{option}': {detail}",
        "service_down": "The dice service cannot be reached right now; nothing was rolled. Please try again in a moment.",
        "service_error": "The dice service refused: {title}",
        "card_unreadable": "This card no longer carries a readable signed roll; please roll again.",
        "no_card_link": "The signed roll was too large for a link.",
        "button_expired": "This button is out of date; please roll again.",
        "app_error": "Something went wrong here (in the app, not in the dice service). Please try again.",
        "unknown_word": "'{word}' does not fit here",
        "want_counts": "expected counts such as 'red 3'",
        "want_parts": "please give its parts by name",
        "want_value": "the value is missing",
        "want_choice": "'{word}' is none of: {choices}",
        "want_integer": "'{word}' is not a whole number",
        "want_number": "'{word}' is not a number",
        "want_boolean": "'{word}' is neither yes nor no",
        "want_name": "the name is empty",
        "not_your_roll": "That is not your roll.",
        "field_error": "'{option}': {message}",
    },
}


def lang_of(locale: str | None) -> str:
    """Discord's locale (``de``, ``en-US``, ...) as the service's language: German or English."""
    return "de" if (locale or "").lower().startswith("de") else "en"


def say(key: str, lang: str, **params: Any) -> str:
    text = WORDS.get(lang, WORDS["en"]).get(key) or WORDS["en"][key]
    for name, value in params.items():
        text = text.replace("{" + name + "}", str(value))
    return text
