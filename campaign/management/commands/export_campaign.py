"""python manage.py export_campaign ID [--output FILE]"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from campaign.models import Campaign
from campaign.services.scenarios import export_campaign


class Command(BaseCommand):
    help = "Write a campaign as it stands as a scenario file (JSON) to stdout or a file."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("campaign_id", type=int, metavar="ID", help="the campaign's id")
        parser.add_argument("--output", help="the file to write (default: standard output)")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            campaign = Campaign.objects.get(pk=options["campaign_id"])
        except Campaign.DoesNotExist as error:
            raise CommandError(f"no campaign with id {options['campaign_id']}") from error
        text = json.dumps(export_campaign(campaign=campaign), sort_keys=True, indent=2) + "\n"
        if options["output"]:
            try:
                Path(options["output"]).write_text(text, encoding="utf-8")
            except OSError as error:
                raise CommandError(f"{options['output']}: {error.strerror}") from error
        else:
            self.stdout.write(text, ending="")
