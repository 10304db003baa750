"""python manage.py create_campaign --scenario FILE --name NAME [--seed N]"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from campaign.services.scenarios import create_campaign
from rules.campaign.scenario import ScenarioError, read_scenario


class Command(BaseCommand):
    help = "Create a campaign from a scenario file (e.g. fixtures/scenarios/korona.json)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--scenario", required=True, help="the scenario JSON file")
        parser.add_argument("--name", required=True, help="the campaign's name (unique)")
        parser.add_argument(
            "--seed", type=int, help="the campaign's seed (default: the scenario's, or random)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            campaign = create_campaign(
                data=read_scenario(options["scenario"]),
                name=options["name"],
                seed=options["seed"],
            )
        except ScenarioError as error:
            for problem in error.problems:
                self.stderr.write(problem)
            count = len(error.problems)
            raise CommandError(
                f"{options['scenario']}: {count} problem{'s' if count != 1 else ''}; "
                "no campaign created"
            ) from error
        except ValueError as error:  # a taken name, a bad seed
            raise CommandError(str(error)) from error
        areas = campaign.areas.count()
        companies = campaign.companies.count()
        self.stdout.write(
            f"Created campaign {campaign.pk}: {campaign.name!r}, {areas} areas, "
            f"{companies} companies, seed {campaign.seed}"
        )
