"""Helpers of the SDK tests: the repository root and the committed spec."""

from functools import cache
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
SPEC_PATH = ROOT / "openapi.yaml"


@cache
def load_spec() -> dict:
    """openapi.yaml, parsed once per test run (the C loader when PyYAML has it: the spec is large)."""
    return yaml.load(SPEC_PATH.read_text(encoding="utf-8"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


def example_answer(path: str, method: str = "post") -> dict:
    """The documented answer of an operation: a complete, valid body for a mocked service."""
    return load_spec()["paths"][path][method]["responses"]["200"]["content"]["application/json"]["example"]
