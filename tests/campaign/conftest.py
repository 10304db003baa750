"""Scenario documents for the campaign tests: the Korona file, and variants of it."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

KORONA = Path(__file__).resolve().parents[2] / "fixtures" / "scenarios" / "korona.json"


# The rulings' starting forces (section 2): the tests' Korona, whatever balance the
# shipped file is tuned to (docs/campaign.md, "The reference scenario's balance").
RULINGS_FORCES = {
    "A Company": ("trained", "Korona"),
    "B Company": ("trained", "Korona"),
    "C Company (militia)": ("raw", "Isura"),
    "1st Supply Company": (None, "Port Murray"),
    "1st Company": ("veteran", "Oivi"),
    "2nd Company": ("veteran", "Oivi"),
    "3rd Company": ("trained", "Kilu"),
    "Supply Company": (None, "Kilu"),
}


def korona_doc(standing_order: str | None = "hold") -> dict[str, Any]:
    """A fresh copy of the Korona scenario document, to change at will, with the rulings'
    starting forces (``RULINGS_FORCES``). Its companies hold (``standing_order``; None
    keeps the file's ``sensible``, the AI), so that a test's campaign stands still unless
    the test orders it: most were written for that map."""
    doc = json.loads(KORONA.read_text(encoding="utf-8"))
    for company in doc["companies"]:
        quality, area = RULINGS_FORCES[company["name"]]
        company["area"] = area
        if quality is not None:
            company["quality"] = quality
        if standing_order is not None:
            company["standing_order"] = standing_order
    return doc


def with_more_companies(doc: dict[str, Any], *, times: int) -> dict[str, Any]:
    """The document with every company there ``times`` over (copies get new names)."""
    bigger = copy.deepcopy(doc)
    bigger["companies"] = [
        {**copy.deepcopy(company), "name": f"{company['name']} #{n}" if n else company["name"]}
        for n in range(times)
        for company in doc["companies"]
    ]
    return bigger
