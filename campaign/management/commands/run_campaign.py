"""python manage.py run_campaign CAMPAIGN --turns N [--json]: play on, standing orders."""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError, CommandParser

from campaign.management.campaigns import find_campaign, print_report
from campaign.management.commands.advance_turn import report_json
from campaign.models import Campaign
from campaign.services.turns import TurnRefused, run_campaign, set_standing_order
from campaign.web import ending
from rules.campaign.state import STANDING_ORDERS


class Command(BaseCommand):
    help = (
        "Play up to N turns of a campaign, every company without an order following its "
        "standing order, and say who won and when."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("campaign", help="the campaign's id or name")
        parser.add_argument("--turns", type=int, required=True)
        parser.add_argument("--json", action="store_true", help="print the reports as JSON")
        parser.add_argument("--quiet", action="store_true", help="print only the ending")
        parser.add_argument(
            "--standing-order",
            choices=STANDING_ORDERS,
            help="first set every company's standing order to this",
        )

    def handle(self, *args: object, **options: object) -> None:
        campaign = find_campaign(str(options["campaign"]))
        turns = int(str(options["turns"]))  # argparse's type=int
        if turns < 1:
            raise CommandError("--turns must be at least 1")
        if campaign.status == Campaign.Status.FINISHED:
            raise CommandError(f"{campaign.name} has ended: no more turns are played")
        if options["standing_order"]:
            for company in campaign.companies.all():
                set_standing_order(company=company, standing_order=str(options["standing_order"]))
        try:
            reports = run_campaign(campaign_id=campaign.pk, turns=turns)
        except TurnRefused as refused:
            raise CommandError(str(refused)) from refused
        campaign = Campaign.objects.get(pk=campaign.pk)
        finished = campaign.status == Campaign.Status.FINISHED
        # Who won and why, in the sentence the players' pages read (not the engine's
        # ``end_reason``, kept in the JSON for the scripts that read it).
        sides = dict(campaign.sides.values_list("key", "name"))
        outcome = ending.outcome(campaign, campaign.get_settings(), sides)
        if options["json"]:
            said = {
                "campaign": campaign.name,
                "turns_played": campaign.turn,
                "finished": finished,
                "winner": campaign.winner,
                "end_reason": campaign.end_reason,
                "outcome": outcome,
            }
            payload = {"turns": [report_json(r) for r in reports], "ending": said}
            self.stdout.write(json.dumps(payload, indent=2, sort_keys=True))
            return
        if not options["quiet"]:
            for report in reports:
                print_report(self.stdout, report)
        if finished:
            self.stdout.write(f"{campaign.name} ended after turn {campaign.turn}. {outcome}")
        else:
            self.stdout.write(f"{campaign.name}: {campaign.turn} turns played, still going.")
