"""Scenario documents for the campaign tests: the Korona file, and variants of it."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

KORONA = Path(__file__).resolve().parents[2] / "fixtures" / "scenarios" / "korona.json"


def korona_doc() -> dict[str, Any]:
    """A fresh copy of the Korona scenario document, to change at will."""
    return json.loads(KORONA.read_text(encoding="utf-8"))


def with_more_companies(doc: dict[str, Any], *, times: int) -> dict[str, Any]:
    """The document with every company there ``times`` over (copies get new names)."""
    bigger = copy.deepcopy(doc)
    bigger["companies"] = [
        {**copy.deepcopy(company), "name": f"{company['name']} #{n}" if n else company["name"]}
        for n in range(times)
        for company in doc["companies"]
    ]
    return bigger
