"""Schemathesis against the app for every operation in the spec, with all its default checks.

A finding is fixed in the code or the spec, never excluded here."""

from __future__ import annotations

import pytest
import schemathesis
from hypothesis import HealthCheck, settings

from pathlib import Path

from schemathesis.config import SchemathesisConfig

from service import create_app
from service.platform.receipts import generate_private_key_pem

ROOT = Path(__file__).resolve().parents[1]
# A module-level app: schemathesis' fixture-based loader does not work with this pytest version.
APP = create_app({"signing_key_pem": generate_private_key_pem()})
SCHEMA = schemathesis.openapi.from_wsgi("/openapi.json", APP,
                                        config=SchemathesisConfig.from_path(ROOT / "schemathesis.toml"))


@schemathesis.check
def rejections_are_problems_naming_a_field(ctx, response, case):
    """Every 422 is an RFC 9457 problem whose `errors` name at least one field."""
    if response.status_code == 422:
        problem = response.json()
        assert response.headers.get("content-type", [""])[0].startswith("application/problem+json")
        assert problem.get("errors") and all(problem["errors"].values()), problem


@pytest.mark.slow
@SCHEMA.parametrize()
@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
def test_every_operation_keeps_its_contract(case):
    case.call_and_validate()
