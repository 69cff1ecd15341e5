"""Malmsturm (``client.malmsturm``): FATE/FUDGE, four dF read on the ladder."""

from __future__ import annotations

from typing import Any

from wurfwerk.result import Result
from wurfwerk.systems import Namespace


class Malmsturm(Namespace):
    name = "malmsturm"

    def ladder(self) -> Result:
        """The ladder with its labels in the client's language. ``GET /v1/malmsturm/ladder``"""
        return self._get("/v1/malmsturm/ladder")

    def action(self, **body: Any) -> Result:
        """Simple action against a difficulty. ``POST /v1/malmsturm/action``"""
        return self._post("/v1/malmsturm/action", body)

    def action_odds(self, **body: Any) -> Result:
        """Exact odds of a simple action. ``POST /v1/malmsturm/action/odds``"""
        return self._post("/v1/malmsturm/action/odds", body)

    def contest(self, **body: Any) -> Result:
        """Contest of two sides. ``POST /v1/malmsturm/contest``"""
        return self._post("/v1/malmsturm/contest", body)

    def contest_odds(self, **body: Any) -> Result:
        """Exact odds of a contest. ``POST /v1/malmsturm/contest/odds``"""
        return self._post("/v1/malmsturm/contest/odds", body)

    def initiative(self, **body: Any) -> Result:
        """Order of a conflict from intuition rolls. ``POST /v1/malmsturm/initiative``"""
        return self._post("/v1/malmsturm/initiative", body)

    def initiative_odds(self, **body: Any) -> Result:
        """Exact odds of who acts first. ``POST /v1/malmsturm/initiative/odds``"""
        return self._post("/v1/malmsturm/initiative/odds", body)

    def attack(self, **body: Any) -> Result:
        """Attack with stress and consequences. ``POST /v1/malmsturm/attack``"""
        return self._post("/v1/malmsturm/attack", body)

    def attack_odds(self, **body: Any) -> Result:
        """Exact odds of an attack. ``POST /v1/malmsturm/attack/odds``"""
        return self._post("/v1/malmsturm/attack/odds", body)
