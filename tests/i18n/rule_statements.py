"""Every help text, option description and button that states a rule, with the German sentence (or
ruling) it states (issue 53 item 4). ``STATEMENTS`` maps a surface's key to the quoted sentence, where
it comes from, and the words the statement must keep in each language: a statement that drops the
text's condition ("nur", "die diese Probe betreffen", "je gezogener grüner Murmel") fails. The quote is
copied here, so the test runs on a clean clone; where ../shared/rules is present, the test also finds
each quote in its source. ``STATES_NO_RULE`` lists the help texts that describe a field, not a rule."""

from __future__ import annotations

# (surface, key): (source, quoted sentence, {lang: [phrases the statement keeps]})
STATEMENTS: dict[tuple[str, str], tuple[str, str, dict[str, list[str]]]] = {
    # --- Beutelschneider ------------------------------------------------------------------------
    ("labels", "operations.beutelschneider.validate-bag"): (
        "RULINGS", "checks a starting bag against the creation rule", {"de": ["Regeln der Charaktererschaffung"]}),
    ("labels", "operations.beutelschneider.challenge"): (
        "000", "Die übrigen 15 Murmeln können beliebig auf die drei Fähigkeiten Kampf (rote Murmeln), Geschick "
               "(grüne Murmeln) und Magie (blaue Murmeln) verteilt werden.",
        {"de": ["rot Kampf, grün Geschick, blau Magie"]}),
    ("labels", "operations.beutelschneider.first-aid"): (
        "000", "wobei für jede bei der Versorgung gezogene grüne Murmel dann entsprechend eine Murmel bei der "
               "Heilung gezogen werden darf",
        {"de": ["bei Erfolg", "je gezogener grüner Murmel ein Zug zur Heilung"],
         "en": ["on success", "one healing draw per green marble drawn"]}),
    ("labels", "operations.beutelschneider.contest"): (
        "000", "Wer die meisten passenden Murmeln gezogen hat, der konnte sich durchsetzen",
        {"de": ["mehr passende Murmeln", "setzt sich durch"]}),
    ("labels", "operations.beutelschneider.combat"): (
        "RULINGS", "a winner with another ability (flight, escape) inflicts nothing",
        {"de": ["verletzenden Fähigkeit", "so schwer wie der Vorsprung", "verletzt niemanden"]}),
    ("labels", "operations.beutelschneider.injury"): (
        "000", "Bei einer ernsthaften Verletzung zieht der Spieler zwei Murmeln aus dem Beutel, bei einer weniger "
               "schweren nur eine Murmel, und bei einer sehr schweren sogar drei Murmeln.",
        {"de": ["weniger schwer 1, ernsthaft 2, sehr schwer 3"]}),
    ("labels", "operations.beutelschneider.mortal-danger"): (
        "000", "Wenn mindestens eine der gezogenen Murmeln schwarz ist, so stirbt der Charakter.",
        {"de": ["mindestens eine der gezogenen Murmeln schwarz"],
         "en": ["at least one of the marbles drawn is black"]}),
    ("labels", "operations.beutelschneider.healing"): (
        "RULINGS", "each black marble drawn may be replaced by `red`, `green` or `blue`",
        {"de": ["jede schwarze darf durch eine farbige ersetzt werden"]}),
    ("labels", "operations.beutelschneider.experience"): (
        "RULINGS", "each drawn marble may be replaced by a different colour among red, green, blue,\n   white (never "
                   "black), or kept", {"de": ["jede darf gegen eine anderer Farbe getauscht werden"]}),
    ("labels", "operations.beutelschneider.encounter"): (
        "RULINGS", "both sides draw only black in one\n  exchange → `both_out`",
        {"de": ["eine Seite in Ohnmacht fällt", "entkommt", "beide Seiten in Ohnmacht fallen"],
         "en": ["one side falls unconscious", "gets away", "both sides fall unconscious"]}),
    ("labels", "fields.beutelschneider.difficulty"): (
        "000", "Bei einer besonders einfachen Herausforderung zieht er drei Murmeln, und bei einer besonders "
               "schweren eine Murmel.", {"de": ["besonders einfach 3, gewöhnlich 2, besonders schwer 1"]}),
    ("labels", "fields.injuring_abilities"): (
        "RULINGS", "Ruling 3 reads \"the winner used an injuring ability\"",
        {"de": ["erleidet der Verlierer eine Verletzung", "Magie nur, wenn sie in dieser Welt verletzt"]}),
    ("labels", "fields.side"): (
        "RULINGS", "the side of the participant with the most matching marbles\n   wins",
        {"de": ["gewinnt oder verliert gemeinsam"]}),
    # --- Paws -----------------------------------------------------------------------------------
    ("labels", "operations.paws.test"): (
        "001", "Jeder Würfel, der eine 4, 5 oder 6 zeigt, zählt als Erfolg.", {"de": ["jede 4, 5 oder 6"]}),
    ("labels", "operations.paws.rescue"): (
        "001", "die eingesetzt werden können, um negative Effekte von verlorenen Proben oder Vergleichen abzuwenden",
        {"de": ["negative Effekte von verlorenen Proben oder Vergleichen abzuwenden"]}),
    ("labels", "operations.paws.test.advice"): (
        "001", "Jeder Rettungswürfel darf nur einmal gewürfelt werden und ist danach verbraucht.",
        {"de": ["Einmalige Rettungswürfel", "würfeln oder für spätere behalten"],
         "en": ["one-shot rescue dice", "or keep them for later"]}),
    ("labels", "operations.paws.comparison.advice"): (
        "001", "Jeder Rettungswürfel darf nur einmal gewürfelt werden und ist danach verbraucht.",
        {"de": ["Einmalige Rettungswürfel", "würfeln oder für spätere behalten"],
         "en": ["one-shot rescue dice", "or keep them for later"]}),
    ("labels", "fields.lost_by"): (
        "RULINGS", "each rescue success cancels one of the winner's net successes",
        {"de": ["nach den eigenen Rettungswürfeln", "hebt einen auf"],
         "en": ["after the side's own rescue dice", "cancels one"]}),
    ("labels", "operations.paws.encounter"): (
        "001", "Der Verlierer erleidet eine neue Wunde die zur Natur des Angriffs passt und der Sieger bleibt "
               "unverletzt.", {"de": ["wer verliert, erleidet eine Wunde"]}),
    ("labels", "operations.proben.encounter.advice"): (
        "003", "Möchte ein Spieler eine misslungene Probe wiederholen, wird hierfür ein Würfel entfernt.",
        {"de": ["Mit einem Würfel weniger wiederholen"]}),
    ("labels", "operations.weltenbuch.encounter.advice"): (
        "002", "Pro investierten Heldenpunkt erhält man 2 Würfel",
        {"de": ["Heldenpunkt einsetzen oder zurückhalten"]}),
    ("labels", "fields.winners_draw"): (
        "000", "wenn die Blutenden und Bewusstlosen auf dem Schlachtfeld zurückgelassen werden",
        {"de": ["die nicht verloren hat", "versorgt sie die eigene Seite"],
         "en": ["did not lose", "their own side tends them"]}),
    ("labels", "operations.beutelschneider.encounter.advice"): (
        "000", "Flucht wird über Geschick abgehandelt", {"de": ["fliehen (Geschick)"]}),
    ("labels", "operations.malmsturm.encounter.advice"): (
        "004", "man kann schon vorher eine Konsequenz hinnehmen, wenn man will",
        {"de": ["früh eine Konsequenz nehmen"]}),
    ("labels", "operations.paws.encounter.advice"): (
        "001", "Jeder Rettungswürfel darf nur einmal gewürfelt werden und ist danach verbraucht.",
        {"de": ["Einmalige Rettungswürfel würfeln oder behalten"]}),
    ("labels", "fields.rank"): ("001", "Jeder Würfel, der eine 4, 5 oder 6 zeigt, zählt als Erfolg.",
                                {"de": ["Ein Würfel je Rang"]}),
    ("labels", "fields.paws.advantages"): (
        "RULINGS", "One advantage per category (`equipment`, `personal` = spells/drugs/elixirs, `situation`), "
                   "either\n   active (bonus die) or passive (rescue die)",
        {"de": ["Je Kategorie ein Vorteil", "aktiv gibt einen Bonuswürfel, passiv einen Rettungswürfel"]}),
    ("labels", "fields.extra_rescue_dice"): (
        "001", "Schutz: Du bekommst bei der nächsten Kampfhandlung einen zusätzlichen Rettungswürfel",
        {"de": ["Schutz"]}),
    ("labels", "fields.penalty_dice"): (
        "001", "Gegner schwächen: Ein bestimmter Gegner bekommt das nächste mal, wenn er eine bestimmte Probe ab "
               "legen will, einen Abzug von einem Würfel.",
        {"de": ["ein Gegner diesen Charakter geschwächt hat", "Gegner schwächen"],
         "en": ["an opponent weakened this character"]}),
    ("labels", "fields.wounds"): (
        "001", "Das Unangenehme an Wunden ist, das sie von jeder Probe, die von der Wunde beeinflusst wird, einen "
               "Würfel ab ziehen.", {"de": ["Nur Wunden, die diese Probe betreffen", "einen Würfel"],
                                    "en": ["Only wounds that affect this test"]}),
    ("labels", "fields.potential"): ("RULINGS", "every trait has rank ≥ 1 and ≤ potential",
                                     {"de": ["Höchster Rang einer Eigenschaft"]}),
    ("labels", "fields.power"): ("RULINGS", "good ranks minus bad ranks ≤ power",
                                 {"de": ["Gute minus schlechte Ränge"]}),
    # --- Proben ---------------------------------------------------------------------------------
    ("labels", "operations.proben.test"): (
        "003", "Jeder Würfel, der eine 5 oder 6 zeigt, wird als Erfolg gewertet.", {"de": ["jede 5 oder 6"]}),
    ("labels", "operations.proben.opposed"): (
        "003", "Der Charakter mit den meisten Erfolgen gewinnt.", {"de": ["mehr Erfolge gewinnen"]}),
    ("labels", "operations.proben.cooperation"): (
        "003", "Hat der Unterstützer mindestens 1 Erfolg erzielt, erhält der Hauptakteur einen Vorteil.",
        {"de": ["jeder Unterstützer mit mindestens 1 Erfolg gibt dem Hauptakteur einen Vorteil"]}),
    ("labels", "operations.proben.extended"): (
        "003", "mit jeder weiteren Probe wird ein Würfel aus dem Würfelpool des Spielers entfernt",
        {"de": ["jeder weitere Versuch hat einen Würfel weniger"]}),
    ("labels", "fields.attempt"): (
        "003", "Möchte ein Spieler eine misslungene Probe wiederholen, wird hierfür ein Würfel entfernt.",
        {"de": ["jeder weitere kostet einen Würfel"]}),
    ("labels", "fields.allow_tie"): (
        "003", "Bei Gleichstand entscheidet der höhere Basiswert (Attribut + Fertigkeit).",
        {"de": ["der höhere Basiswert (Attribut plus Fertigkeit)"]}),
    ("labels", "fields.proben.advantages"): (
        "003", "Für jeden Vorteil erhält der Spieler einen Bonuswürfel für seine Probe.",
        {"de": ["Je Vorteil ein Würfel mehr"]}),
    ("labels", "fields.disadvantages"): (
        "003", "Analog wird für jeden Nachteil ein Würfel abgezogen.", {"de": ["Je Nachteil ein Würfel weniger"]}),
    ("labels", "fields.skill_dice"): (
        "003", "kann der Spielleiter ggf. auch nur einen Teil der Bonuswürfel zulassen",
        {"de": ["0 bis Fertigkeit"]}),
    ("labels", "fields.carry_partial"): (
        "003", "Solange mindestens ein Erfolg erzielt wurde, kann der Spielleiter Teilerfolge werten.",
        {"de": ["Nur wenn der Spielleiter Teilerfolge wertet"], "en": ["Only where the GM counts partial successes"]}),
    ("labels", "outcomes.partial"): (
        "003", "Solange mindestens ein Erfolg erzielt wurde, kann der Spielleiter Teilerfolge werten.",
        {"de": ["misslungen", "Teilerfolg möglich"], "en": ["failure", "partial success possible"]}),
    ("foundry", "WURFWERK.Outcome.partial"): (
        "003", "Solange mindestens ein Erfolg erzielt wurde, kann der Spielleiter Teilerfolge werten.",
        {"de": ["Misslungen", "Teilerfolg möglich"], "en": ["Failure", "partial success possible"]}),
    ("foundry", "WURFWERK.Odds.partial"): (
        "003", "Solange mindestens ein Erfolg erzielt wurde, kann der Spielleiter Teilerfolge werten.",
        {"de": ["misslungen", "Teilerfolg möglich"], "en": ["failure", "partial success possible"]}),
    ("catalog", "Failed; with at least one success the GM may count a partial success."): (
        "003", "Solange mindestens ein Erfolg erzielt wurde, kann der Spielleiter Teilerfolge werten.",
        {"de": ["kann der Spielleiter einen Teilerfolg werten"], "en": ["the GM may count a partial success"]}),
    ("discord", "retry"): (
        "003", "Möchte ein Spieler eine misslungene Probe wiederholen, wird hierfür ein Würfel entfernt.",
        {"de": ["Noch ein Versuch ({dice} Würfel)"]}),
    # --- Weltenbuch -----------------------------------------------------------------------------
    ("labels", "operations.weltenbuch.conflict"): (
        "002", "zeigt er eine gerade Zahl, dann ist dieser Würfel ein Erfolg",
        {"de": ["die Partei mit mehr Erfolgen (gerade Augen)"]}),
    ("labels", "operations.weltenbuch.resurrection"): ("RULINGS", "Resurrection: one of eight gods by a d8",
                                                       {"de": ["Ein W8", "acht Götter"]}),
    ("labels", "fields.die"): ("002", "zeigt er eine gerade Zahl, dann ist dieser Würfel ein Erfolg",
                               {"de": ["gerade Augen sind Erfolge"]}),
    ("labels", "fields.equipment_bonuses"): ("RULINGS", "Only the largest equipment bonus counts",
                                             {"de": ["Nur der größte zählt"]}),
    ("labels", "fields.hero_points"): ("002", "Pro investierten Heldenpunkt erhält man 2 Würfel.",
                                       {"de": ["Je Heldenpunkt zwei Würfel"]}),
    ("labels", "fields.seat"): ("RULINGS", "Turns then go clockwise by seat, the GM taking one\n   turn at seat 0",
                                {"de": ["im Uhrzeigersinn vom Spielleiter (0) aus"]}),
    ("catalog", "A tie: nobody wins, each party reaches only part of its goal."): (
        "002", "Bei einem Patt gewinnt niemand und jede Partei erreicht nur einen Teil ihres Ziels.",
        {"de": ["nur einen Teil ihres Ziels"], "en": ["only part of its goal"]}),
    ("catalog", "A tie: every party reaches only part of its goal."): (
        "002", "Bei einem Patt gewinnt niemand und jede Partei erreicht nur einen Teil ihres Ziels.",
        {"de": ["nur einen Teil ihres Ziels"], "en": ["only part of its goal"]}),
    # --- Malmsturm ------------------------------------------------------------------------------
    ("labels", "operations.malmsturm.initiative"): ("004", "Die Reihenfolge wird über einen Intuitions-Wurf ermittelt",
                                                    {"de": ["Alle würfeln auf Intuition"]}),
    ("labels", "operations.malmsturm.encounter"): (
        "004", "bis einer der Konkurrenten freiwillig oder unfreiwillig ausscheidet oder eine Partei nachgiebt",
        {"de": ["ausscheidet oder nachgibt"]}),
    ("labels", "fields.malmsturm.dice"): ("RULINGS", "\"meistens 4\" FUDGE dice", {"de": ["Meistens 4"]}),
    ("labels", "fields.consequences"): ("004", "Wer zwei Konseuenzen hingenommen hat, scheidet aus dem Konflikt aus.",
                                        {"de": ["bei 2 scheidet der Verteidiger aus"]}),
    ("labels", "fields.take_consequence_early"): (
        "004", "man kann schon vorher eine Konsequenz hinnehmen, wenn man will",
        {"de": ["eine Konsequenz statt der Belastung"]}),
    ("labels", "fields.defend"): ("RULINGS", "The defender may choose\n   not to defend",
                                  {"de": ["keine Verteidigungswürfel"]}),
    ("labels", "fields.concede_at_consequences"): (
        "RULINGS", "a side concedes (\"eine Partei nachgiebt\") as soon as one of its members holds its\n  "
                   "`concede_at_consequences`, and loses at once", {"de": ["gibt die Seite nach und verliert"]}),
    ("labels", "fields.order"): ("RULINGS", "`order: initiative` works for sides of any size",
                                 {"de": ["alle würfeln auf Intuition, auch in Gruppen"]}),
    ("labels", "fields.defenses"): (
        "RULINGS", "Ausweichen\n  against harm, Menschenkenntnis/Wahrnehmung against deceive, Nerven behalten against "
                   "intimidate and\n  charm, Körperbeherrschung against push, Menschenkenntnis against persuade",
        {"de": ["Ausweichen gegen körperlich verletzen", "Menschenkenntnis oder Wahrnehmung gegen täuschen",
                "Nerven behalten gegen einschüchtern und becircen", "Körperbeherrschung gegen wegstoßen",
                "Menschenkenntnis gegen überreden"],
         "en": ["Dodge against harm", "against deceive", "against intimidate and charm", "against push",
                "against persuade"]}),
    ("labels", "fields.ends"): (
        "RULINGS", "`ends: first_out` (the literal reading of \"einer der Konkurrenten\") ends the\n  conflict when "
                   "the first member of any side is taken out, and the other side wins",
        {"de": ["ganze Seite ausgeschieden ist oder nachgibt", "schon beim Ersten, der ausscheidet"],
         "en": ["a whole side is out or gives in", "already at the first one out"]}),
    ("labels", "choices.ends.first_out"): (
        "RULINGS", "ends the\n  conflict when the first member of any side is taken out, and the other side wins",
        {"de": ["sobald der Erste ausscheidet", "die andere Seite gewinnt"]}),
    ("catalog", "After %(count)s round %(name)s is taken out, and with the first one out the conflict ends: victory "
                "for %(side)s."): (
        "RULINGS", "Say which one was used in the answer.",
        {"de": ["mit dem Ersten, der ausscheidet, endet der Konflikt"],
         "en": ["with the first one out the conflict ends"]}),
}

# Statements longer than Discord's 100 characters for a description (Discord then shows the label alone),
# written before issue 53 and still to be rewritten to fit; every other statement reaches Discord whole.
LONGER_THAN_DISCORD = frozenset({
    "fields.defenses", "fields.injuring_abilities", "operations.beutelschneider.combat"})

# Help texts of /play (and Discord's option descriptions, which are the same texts) that describe a field
# or a tool, and state no rule of a text.
STATES_NO_RULE = frozenset({
    "operations.beutelschneider.healing-apply", "operations.beutelschneider.experience-apply",
    "operations.malmsturm.ladder", "operations.malmsturm.action", "operations.malmsturm.contest",
    "operations.malmsturm.attack", "operations.paws.comparison", "operations.paws.validate-character",
    "operations.weltenbuch.narration", "operations.weltenbuch.encounter", "operations.proben.encounter",
    "operations.proben.cooperation.advice", "fields.advise", "fields.advise.choices",
    "fields.name", "fields.bag", "fields.draws", "fields.replacements", "fields.malmsturm.skill",
    "fields.malmsturm.difficulty", "fields.modifier", "fields.extra_bonus_dice", "fields.attribute",
    "fields.proben.difficulty", "fields.toughness", "fields.spends", "fields.gods", "fields.max_rounds",
    "fields.curve_rounds", "fields.defense", "fields.pairs", "fields.beutelschneider.members",
    "fields.out_at_wounds", "fields.spend", "fields.future_losses",
    "fields.seed", "fields.manual", "fields.ticket", "fields.idempotency_key",
})
