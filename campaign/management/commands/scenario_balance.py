"""python manage.py scenario_balance FILE --campaigns N [--seed S] [--json]"""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from rules.campaign.balance import MAX_CAMPAIGNS, simulate
from rules.campaign.scenario import ScenarioError, parse_scenario, read_scenario
from rules.campaign.state import STANDING_ORDERS


class Command(BaseCommand):
    help = (
        "Simulate campaigns of a scenario with the sensible AI on both sides and print each "
        "side's win share (95% Wilson interval), the mean length and how often each area "
        "changed hands."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the scenario JSON file")
        parser.add_argument("--campaigns", type=int, default=100, help="how many (default 100)")
        parser.add_argument("--seed", type=int, default=0, help="the root seed (default 0)")
        for side in ("australian", "japanese"):
            parser.add_argument(
                f"--{side}",
                choices=STANDING_ORDERS,
                help=f"the {side} side's standing order (default: sensible)",
            )
        parser.add_argument("--json", action="store_true", help="print the figures as JSON")

    def handle(self, *args: Any, **options: Any) -> None:
        campaigns = options["campaigns"]
        if not 1 <= campaigns <= MAX_CAMPAIGNS:
            raise CommandError(f"--campaigns must be 1 to {MAX_CAMPAIGNS}, not {campaigns}")
        try:
            state = parse_scenario(read_scenario(options["file"]))
        except ScenarioError as error:
            for problem in error.problems:
                self.stderr.write(problem)
            raise CommandError(f"{options['file']}: not a scenario that can be played") from error
        orders: dict[str, str] = {
            side: options[side]
            for side in ("australian", "japanese")
            if options.get(side) and side in state.sides
        }

        def progress(done: int, total: int) -> None:
            width = 30
            filled = width * done // total
            bar = f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} campaigns"
            self.stderr.write(bar, ending="\n" if done == total else "")
            self.stderr.flush()

        try:
            balance = simulate(
                state,
                campaigns=campaigns,
                seed=options["seed"],
                standing_orders=orders,
                progress=None if options["json"] else progress,
            )
        except ValueError as error:
            raise CommandError(str(error)) from error
        if options["json"]:
            self.stdout.write(json.dumps(balance.to_json(), indent=2, sort_keys=True))
        else:
            self.stdout.write("\n".join(balance.lines()))
