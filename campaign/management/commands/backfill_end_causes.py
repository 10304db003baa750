"""python manage.py backfill_end_causes: fill in why each campaign that finished before
its end causes were kept ended, where it can be worked out exactly (docs/campaign.md,
"The end"). Running it again changes nothing."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from campaign.services.backfill import backfill_end_causes


class Command(BaseCommand):
    help = (
        "Fill in why each campaign that finished before its end causes were kept ended, "
        "where its stored state tells it exactly; the others keep their reason as written."
    )

    def handle(self, *args: object, **options: object) -> None:
        done = backfill_end_causes()
        self.stdout.write(f"Filled in why {_campaigns(len(done.filled))} ended.")
        for name in done.filled:
            self.stdout.write(f"- {name}")
        if done.kept:
            self.stdout.write(
                f"Kept the reason as written for {_campaigns(len(done.kept))} "
                "(it could not be worked out exactly):"
            )
            for name in done.kept:
                self.stdout.write(f"- {name}")


def _campaigns(count: int) -> str:
    return f"{count} campaign{'' if count == 1 else 's'}"
