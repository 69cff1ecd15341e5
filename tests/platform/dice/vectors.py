"""The shared session vectors (vectors.json, written by make_vectors.py), case by case."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

VECTORS: dict[str, Any] = json.loads(Path(__file__).with_name("vectors.json").read_text())


def case_inputs(case: dict[str, Any]) -> tuple[list[Any], dict[str, Any], dict[str, str]]:
    """A case's cards (indices resolved into the log), its reveal and the seeds handed over."""
    cards = [VECTORS["log"][card] if isinstance(card, int) else card for card in case["cards"]]
    reveal = VECTORS["reveal"] if case.get("reveal", "reveal") == "reveal" else case["reveal"]
    return cards, reveal, case.get("seeds", VECTORS["seeds"])


CASES = {case["name"]: case for case in VECTORS["cases"]}
