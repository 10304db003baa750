"""Turn speed: one Korona campaign turn, with its battles and without, and its queries.

    python bench/turns.py [--turns 30]

Runs on a scratch database: a temporary SQLite file unless DATABASE_URL is set, when it
migrates and fills that database, so give it one you can spare (CI-like:
DATABASE_URL=postgres://postgres@127.0.0.1:5432/korona_bench). Prints the median time of
one turn without battles and with them, and the database queries per turn for the
Korona scenario and for one with ten times the companies. A benchmark prints figures;
it asserts nothing.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
if "DATABASE_URL" not in os.environ:
    os.environ["DATABASE_URL"] = f"sqlite:///{tempfile.mkdtemp()}/bench-turns.sqlite3"
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from campaign.services.scenarios import create_campaign  # noqa: E402
from campaign.services.turns import advance_turn  # noqa: E402

KORONA = ROOT / "fixtures" / "scenarios" / "korona.json"


def korona(times: int = 1, *, meet: bool = False) -> dict[str, Any]:
    """The Korona scenario, its companies ``times`` over; with ``meet``, the Japanese
    rifle companies start in Korona beside the Australians, so every turn has battles."""
    doc = json.loads(KORONA.read_text())
    companies = []
    for n in range(times):
        for company in doc["companies"]:
            copy_ = copy.deepcopy(company)
            copy_["name"] = f"{company['name']} #{n}" if n else company["name"]
            if meet and company["side"] == "japanese" and company["kind"] == "fighting":
                copy_["area"] = "Korona"
            companies.append(copy_)
    doc["companies"] = companies
    return doc


def play(doc: dict[str, Any], *, name: str, turns: int) -> tuple[list[float], list[int], int]:
    """Fresh campaigns of ``doc``, one turn each (turn 1 from the same start). Each run's
    turn is timed on one campaign and its queries counted on a twin (the same scenario and
    seed, so the same turn): Django's ``CaptureQueriesContext`` turns on the debug cursor,
    which formats and times every query, and so was a part of the time measured."""
    times, queries, battles = [], [], 0
    for run in range(turns):
        timed, counted = (
            create_campaign(data=doc, name=f"{name} {run} {uuid.uuid4().hex[:8]}", seed=run)
            for _ in range(2)
        )
        started = time.perf_counter()
        report = advance_turn(campaign_id=timed.pk)
        times.append(time.perf_counter() - started)
        with CaptureQueriesContext(connection) as captured:
            advance_turn(campaign_id=counted.pk)
        queries.append(len(captured.captured_queries))
        battles += len(report.battles)
    return times, queries, battles


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=30)
    args = parser.parse_args()
    call_command("migrate", verbosity=0)
    print(f"database: {connection.vendor} ({connection.settings_dict['NAME']})")
    for label, doc in [
        ("Korona, no battles", korona()),
        ("Korona, with battles", korona(meet=True)),
        ("10x companies, no battles", korona(10)),
        ("10x companies, with battles", korona(10, meet=True)),
    ]:
        times, queries, battles = play(doc, name=label, turns=args.turns)
        print(
            f"{label:28s} median {statistics.median(times) * 1000:7.1f} ms per turn, "
            f"{battles / args.turns:4.1f} battles per turn, "
            f"queries per turn {min(queries)}-{max(queries)} (median {statistics.median(queries)})"
        )


if __name__ == "__main__":
    main()
