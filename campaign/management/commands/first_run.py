"""python manage.py first_run [--address HOST:PORT] [--email ADDRESS]

``python3 dev.py run`` calls this after ``migrate``. On a fresh database (no user and no
campaign yet) it gives a newcomer a way in: the game master's account ``gm`` with a
generated password, printed once here and stored only hashed; the campaign "Korona" from
the Korona scenario; and one invitation link per side for the players. On any other
database it does nothing, so a second run never makes a second account; with
``KORONA_PRODUCTION=1`` it never does anything. The account's email address (where the
game master is told that a battle waits for its tabletop result) is ``--email``, else
``KORONA_GM_EMAIL``; with neither it has none, and the output says so.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.core.validators import validate_email
from django.db import transaction

from campaign.models import Campaign
from campaign.services.scenarios import create_campaign
from notifications.invitations import invite_every_side
from rules.campaign.scenario import read_scenario

SCENARIO = Path(settings.BASE_DIR) / "fixtures" / "scenarios" / "korona.json"
GM_USERNAME = "gm"
CAMPAIGN_NAME = "Korona"


def fresh_database() -> bool:
    return not get_user_model().objects.exists() and not Campaign.objects.exists()


def email_given(given: str | None) -> str:
    """The account's email address: ``--email``, else ``KORONA_GM_EMAIL``, else none."""
    email = (given if given is not None else os.environ.get("KORONA_GM_EMAIL", "")).strip()
    if email:
        try:
            validate_email(email)
        except ValidationError:
            raise CommandError(f"not an email address: {email!r}") from None
    return email


def email_lines(email: str) -> list[str]:
    """The account's email address, or where to give one: the admin home's link (its top
    right has no "your account", only View site, Change password and Log out)."""
    if email:
        return [f"  Its email address: {email} (a battle waiting for its result is told there)."]
    return [
        "  The account has no email address, so it gets no email when a battle waits for its",
        "  tabletop result: give one on the admin's home page (its link",
        '  "give your email address"), or next time run first_run with --email or',
        "  KORONA_GM_EMAIL set.",
    ]


class Command(BaseCommand):
    help = (
        "On a fresh database: the game master's account, the Korona campaign and invitation links."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--address", default="127.0.0.1:8000", help="where the server answers (for links)"
        )
        parser.add_argument(
            "--email",
            default=None,
            help="the game master's email address (else KORONA_GM_EMAIL; else none)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if settings.KORONA_PRODUCTION or not fresh_database():
            return
        email = email_given(options.get("email"))
        password = secrets.token_urlsafe(12)
        with transaction.atomic():
            gm = get_user_model().objects.create_superuser(GM_USERNAME, email, password)
            campaign = create_campaign(data=read_scenario(SCENARIO), name=CAMPAIGN_NAME)
            links = invite_every_side(campaign=campaign, user=gm, note="first run")
        host = options["address"]
        if host.startswith("0.0.0.0:"):
            host = "127.0.0.1:" + host.split(":", 1)[1]
        base = f"http://{host}"
        lines = [
            "",
            "=" * 72,
            "First run: a fresh database, so Korona made a way in (shown only this once).",
            "",
            f"  The game master's account:  user {GM_USERNAME}   password {password}",
            f"  Sign in at {base}/admin/ (change the password there: top right).",
            *email_lines(email),
            "",
            f"  A ready campaign, {campaign.name!r}, from the Korona scenario: turn "
            f"{campaign.turn + 1} is played once every side with a player is ready, or when "
            "you press 'Advance turn now' on its page.",
            "",
            "  Links for the players, one per side (each works once, for 14 days;",
            "  open one in a private window to play that side yourself):",
        ]
        lines += [f"    {name}: {base}/invite/{link.token}/" for name, link in links]
        lines += ["=" * 72, ""]
        self.stdout.write("\n".join(lines))
