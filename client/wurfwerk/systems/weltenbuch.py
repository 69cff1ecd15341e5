"""Weltenbuch (``client.weltenbuch``): conflict scenes with even-die successes, narration, resurrection."""

from __future__ import annotations

from typing import Any

from wurfwerk.result import Result
from wurfwerk.systems import Namespace


class Weltenbuch(Namespace):
    name = "weltenbuch"

    def conflict(self, **body: Any) -> Result:
        """Conflict scene: parties roll, the one with more successes wins. ``POST /v1/weltenbuch/conflict``"""
        return self._post("/v1/weltenbuch/conflict", body)

    def conflict_odds(self, **body: Any) -> Result:
        """Exact odds of a conflict scene. ``POST /v1/weltenbuch/conflict/odds``"""
        return self._post("/v1/weltenbuch/conflict/odds", body)

    def narration(self, **body: Any) -> Result:
        """Apply the dice spent in the narration of a signed conflict (pass ``conflict=<the conflict
        result>``). ``POST /v1/weltenbuch/narration``"""
        return self._post("/v1/weltenbuch/narration", body)

    def resurrection(self, **body: Any) -> Result:
        """The god (d8) who brought a character back. ``POST /v1/weltenbuch/resurrection``"""
        return self._post("/v1/weltenbuch/resurrection", body)

    def resurrection_odds(self, **body: Any) -> Result:
        """Exact odds of a resurrection. ``POST /v1/weltenbuch/resurrection/odds``"""
        return self._post("/v1/weltenbuch/resurrection/odds", body)
