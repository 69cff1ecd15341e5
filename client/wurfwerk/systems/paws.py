"""Paws (``client.paws``): trait pools of d6, successes on 4-6, bonus and rescue dice."""

from __future__ import annotations

from typing import Any

from wurfwerk.result import Result
from wurfwerk.systems import Namespace


class Paws(Namespace):
    name = "paws"

    def test(self, **body: Any) -> Result:
        """Test (Probe) of one pool. ``POST /v1/paws/test``"""
        return self._post("/v1/paws/test", body)

    def test_odds(self, **body: Any) -> Result:
        """Exact odds of a test. ``POST /v1/paws/test/odds``"""
        return self._post("/v1/paws/test/odds", body)

    def comparison(self, **body: Any) -> Result:
        """Comparison (Vergleich) of pools ``a`` and ``b``, ``mode`` contest or defense.
        ``POST /v1/paws/comparison``"""
        return self._post("/v1/paws/comparison", body)

    def comparison_odds(self, **body: Any) -> Result:
        """Exact odds of a comparison. ``POST /v1/paws/comparison/odds``"""
        return self._post("/v1/paws/comparison/odds", body)

    def rescue(self, **body: Any) -> Result:
        """The group's one-shot rescue dice (Rettungswürfel). ``POST /v1/paws/rescue``"""
        return self._post("/v1/paws/rescue", body)

    def rescue_odds(self, **body: Any) -> Result:
        """Exact odds of the group's rescue dice. ``POST /v1/paws/rescue/odds``"""
        return self._post("/v1/paws/rescue/odds", body)

    def validate_character(self, **body: Any) -> Result:
        """Check a character against potential and power (no randomness).
        ``POST /v1/paws/validate-character``"""
        return self._post("/v1/paws/validate-character", body)
