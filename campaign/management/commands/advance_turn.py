"""python manage.py advance_turn CAMPAIGN [--json]: play one turn and print its report."""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError, CommandParser

from campaign.management.campaigns import find_campaign, print_report
from campaign.services.turns import TurnRefused, advance_turn


class Command(BaseCommand):
    help = "Play the next turn of a campaign (by id or name) and print its report."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("campaign", help="the campaign's id or name")
        parser.add_argument("--json", action="store_true", help="print the report as JSON")

    def handle(self, *args: object, **options: object) -> None:
        campaign = find_campaign(str(options["campaign"]))
        try:
            report = advance_turn(campaign_id=campaign.pk)
        except TurnRefused as refused:
            raise CommandError(str(refused)) from refused
        if options["json"]:
            self.stdout.write(json.dumps(report_json(report), indent=2, sort_keys=True))
        else:
            print_report(self.stdout, report)


def report_json(report) -> dict:  # noqa: ANN001 - a TurnReport
    turn = report.turn
    return {
        "campaign": turn.campaign.name,
        "turn": turn.number,
        "status": turn.status,
        "report": turn.report,
        "log": turn.log,
        "battles": [
            {
                "key": b.key,
                "mode": b.mode,
                "status": b.status,
                "winner": (b.result or {}).get("winner"),
            }
            for b in report.battles
        ],
    }
