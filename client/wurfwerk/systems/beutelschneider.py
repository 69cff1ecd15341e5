"""Beutelschneider (``client.beutelschneider``): marble bags of red, green, blue, white and black."""

from __future__ import annotations

from typing import Any

from wurfwerk.result import Result
from wurfwerk.systems import Namespace


class Beutelschneider(Namespace):
    name = "beutelschneider"

    def validate_bag(self, **body: Any) -> Result:
        """Check a starting bag against the creation rule. ``POST /v1/beutelschneider/validate-bag``"""
        return self._post("/v1/beutelschneider/validate-bag", body)

    def challenge(self, **body: Any) -> Result:
        """Challenge (Herausforderung). ``POST /v1/beutelschneider/challenge``"""
        return self._post("/v1/beutelschneider/challenge", body)

    def challenge_odds(self, **body: Any) -> Result:
        """Exact odds of a challenge. ``POST /v1/beutelschneider/challenge/odds``"""
        return self._post("/v1/beutelschneider/challenge/odds", body)

    def contest(self, **body: Any) -> Result:
        """Contest of 2..20 participants. ``POST /v1/beutelschneider/contest``"""
        return self._post("/v1/beutelschneider/contest", body)

    def contest_odds(self, **body: Any) -> Result:
        """Exact odds of a contest. ``POST /v1/beutelschneider/contest/odds``"""
        return self._post("/v1/beutelschneider/contest/odds", body)

    def combat(self, **body: Any) -> Result:
        """Exchange of blows with the injury applied. ``POST /v1/beutelschneider/combat``"""
        return self._post("/v1/beutelschneider/combat", body)

    def combat_odds(self, **body: Any) -> Result:
        """Exact odds of an exchange of blows. ``POST /v1/beutelschneider/combat/odds``"""
        return self._post("/v1/beutelschneider/combat/odds", body)

    def injury(self, **body: Any) -> Result:
        """Injury: drawn marbles become black. ``POST /v1/beutelschneider/injury``"""
        return self._post("/v1/beutelschneider/injury", body)

    def injury_odds(self, **body: Any) -> Result:
        """Exact odds of an injury. ``POST /v1/beutelschneider/injury/odds``"""
        return self._post("/v1/beutelschneider/injury/odds", body)

    def mortal_danger(self, **body: Any) -> Result:
        """Mortal danger (Lebensgefahr). ``POST /v1/beutelschneider/mortal-danger``"""
        return self._post("/v1/beutelschneider/mortal-danger", body)

    def mortal_danger_odds(self, **body: Any) -> Result:
        """Exact odds of mortal danger. ``POST /v1/beutelschneider/mortal-danger/odds``"""
        return self._post("/v1/beutelschneider/mortal-danger/odds", body)

    def healing(self, **body: Any) -> Result:
        """Healing draw (Heilung). ``POST /v1/beutelschneider/healing``"""
        return self._post("/v1/beutelschneider/healing", body)

    def healing_odds(self, **body: Any) -> Result:
        """Exact odds of a healing draw. ``POST /v1/beutelschneider/healing/odds``"""
        return self._post("/v1/beutelschneider/healing/odds", body)

    def healing_apply(self, **body: Any) -> Result:
        """Apply healing choices to a signed draw (``draw=``, ``replacements=``).
        ``POST /v1/beutelschneider/healing/apply``"""
        return self._post("/v1/beutelschneider/healing/apply", body)

    def experience(self, **body: Any) -> Result:
        """Experience draw (Erfahrung). ``POST /v1/beutelschneider/experience``"""
        return self._post("/v1/beutelschneider/experience", body)

    def experience_odds(self, **body: Any) -> Result:
        """Exact odds of an experience draw. ``POST /v1/beutelschneider/experience/odds``"""
        return self._post("/v1/beutelschneider/experience/odds", body)

    def experience_apply(self, **body: Any) -> Result:
        """Apply experience choices to a signed draw (``draw=``, ``replacements=``).
        ``POST /v1/beutelschneider/experience/apply``"""
        return self._post("/v1/beutelschneider/experience/apply", body)

    def first_aid(self, **body: Any) -> Result:
        """First aid: the healer's skill challenge. ``POST /v1/beutelschneider/first-aid``"""
        return self._post("/v1/beutelschneider/first-aid", body)

    def first_aid_odds(self, **body: Any) -> Result:
        """Exact odds of first aid. ``POST /v1/beutelschneider/first-aid/odds``"""
        return self._post("/v1/beutelschneider/first-aid/odds", body)
