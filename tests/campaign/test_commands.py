"""manage.py create_campaign and export_campaign."""

from __future__ import annotations

import io
import json
from dataclasses import replace
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from campaign.models import Campaign, Company
from campaign.services.snapshot import load_snapshot
from tests.campaign.conftest import KORONA, korona_doc

pytestmark = pytest.mark.django_db


def create(*args: str) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    call_command("create_campaign", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def export(*args: str) -> str:
    out = io.StringIO()
    call_command("export_campaign", *args, stdout=out)
    return out.getvalue()


def test_create_campaign_prints_the_id_and_a_summary() -> None:
    out, err = create("--scenario", str(KORONA), "--name", "Korona 1", "--seed", "42")
    campaign = Campaign.objects.get()
    assert out == (f"Created campaign {campaign.pk}: 'Korona 1', 10 areas, 8 companies, seed 42\n")
    assert err == ""
    assert campaign.seed == 42


def test_create_campaign_lists_every_problem_and_creates_nothing(tmp_path: Path) -> None:
    doc = korona_doc()
    doc["links"].append(["Korona", "Kokoda"])
    doc["companies"][0]["stands"]["tiger_tank"] = 1
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    err = io.StringIO()
    with pytest.raises(CommandError, match="2 problems; no campaign created"):
        call_command("create_campaign", "--scenario", str(path), "--name", "Bad", stderr=err)
    lines = err.getvalue().splitlines()
    assert lines[0] == "links[10]: unknown area 'Kokoda'"
    assert lines[1].startswith("companies[0] (A Company).stands.tiger_tank: unknown unit type")
    assert len(lines) == 2
    assert Campaign.objects.count() == Company.objects.count() == 0


def test_create_campaign_reports_a_file_that_is_not_json(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text('{"name": ', encoding="utf-8")
    err = io.StringIO()
    with pytest.raises(CommandError, match="1 problem; no campaign created"):
        call_command("create_campaign", "--scenario", str(path), "--name", "Bad", stderr=err)
    assert err.getvalue().startswith(f"{path}: not valid JSON at line 1, column 10")
    assert Campaign.objects.count() == 0


def test_create_campaign_refuses_a_taken_name() -> None:
    create("--scenario", str(KORONA), "--name", "Korona 1")
    with pytest.raises(CommandError, match="a campaign named 'Korona 1' exists already"):
        create("--scenario", str(KORONA), "--name", "Korona 1")
    assert Campaign.objects.count() == 1


def test_export_campaign_writes_sorted_indented_json() -> None:
    create("--scenario", str(KORONA), "--name", "Korona 1", "--seed", "42")
    campaign = Campaign.objects.get()
    text = export(str(campaign.pk))
    doc = json.loads(text)
    assert text == json.dumps(doc, sort_keys=True, indent=2) + "\n"
    assert (doc["name"], doc["seed"], len(doc["companies"])) == ("Korona 1", 42, 8)


def test_export_campaign_refuses_an_unknown_id() -> None:
    with pytest.raises(CommandError, match="no campaign with id 999"):
        export("999")


def test_a_campaign_round_trips_through_an_exported_file(tmp_path: Path) -> None:
    create("--scenario", str(KORONA), "--name", "Korona 1")
    first = Campaign.objects.get()
    path = tmp_path / "export.json"
    assert export(str(first.pk), "--output", str(path)) == ""
    create("--scenario", str(path), "--name", "Korona 2")
    second = Campaign.objects.get(name="Korona 2")
    assert second.seed == first.seed
    assert load_snapshot(campaign=second) == replace(load_snapshot(campaign=first), name="Korona 2")
