"""Helpers shared by the campaign management commands."""

from __future__ import annotations

from typing import TextIO

from django.core.management.base import CommandError, OutputWrapper

from campaign.models import Campaign
from config.numbers import whole_number


def find_campaign(ref: str) -> Campaign:
    """A campaign by id or by name; a clear error when there is none."""
    number = whole_number(ref)
    found = Campaign.objects.filter(pk=number) if number is not None else Campaign.objects.none()
    campaign = found.first() or Campaign.objects.filter(name=ref).first()
    if campaign is None:
        raise CommandError(f"there is no campaign {ref!r}")
    return campaign


def print_report(out: TextIO | OutputWrapper, report) -> None:  # noqa: ANN001 - a TurnReport
    turn = report.turn
    out.write(f"== {turn.campaign.name}, turn {turn.number}: {turn.status}")
    for record in turn.log:
        if record["kind"] != "event_check" or record["outcome"] == "event":
            out.write(f"  {record['text']}")
    for battle in report.battles:
        if battle.status == "pending":
            out.write(f"  waiting for the tabletop result of the battle at {battle.area.name}")
