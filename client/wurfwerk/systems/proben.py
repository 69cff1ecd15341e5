"""Proben (``client.proben``): attribute pools of d6, successes on 5-6."""

from __future__ import annotations

from typing import Any

from wurfwerk.result import Result
from wurfwerk.systems import Namespace


class Proben(Namespace):
    name = "proben"

    def test(self, **body: Any) -> Result:
        """Simple test. ``POST /v1/proben/test``"""
        return self._post("/v1/proben/test", body)

    def test_odds(self, **body: Any) -> Result:
        """Exact odds of a simple test. ``POST /v1/proben/test/odds``"""
        return self._post("/v1/proben/test/odds", body)

    def opposed(self, **body: Any) -> Result:
        """Opposed test. ``POST /v1/proben/opposed``"""
        return self._post("/v1/proben/opposed", body)

    def opposed_odds(self, **body: Any) -> Result:
        """Exact odds of an opposed test. ``POST /v1/proben/opposed/odds``"""
        return self._post("/v1/proben/opposed/odds", body)

    def cooperation(self, **body: Any) -> Result:
        """Cooperation of a leader and helpers. ``POST /v1/proben/cooperation``"""
        return self._post("/v1/proben/cooperation", body)

    def cooperation_odds(self, **body: Any) -> Result:
        """Exact odds of a cooperation. ``POST /v1/proben/cooperation/odds``"""
        return self._post("/v1/proben/cooperation/odds", body)

    def extended(self, **body: Any) -> Result:
        """Extended test. ``POST /v1/proben/extended``"""
        return self._post("/v1/proben/extended", body)

    def extended_odds(self, **body: Any) -> Result:
        """Exact odds of an extended test. ``POST /v1/proben/extended/odds``"""
        return self._post("/v1/proben/extended/odds", body)
