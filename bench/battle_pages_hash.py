"""Same battles, same pages: one SHA-256 over the battle report, replay and sheet pages.

    .venv/bin/python -m pytest bench/battle_pages_hash.py -q -s [--campaigns 6]

Plays campaigns of the Korona scenario (the Japanese companies of Oivi start in Korona,
so every turn has battles) under each rule set, with the Old Breed options off and on,
for seeds 1..N, and renders every battle's report page (with its replay) and sheet page
for the GM and for both sides, and the admin's report and sheet. Prints one hash per
rule set and option set, and one over all pages: run it before and after a change that
must keep the pages (the hashes must be equal). CSRF tokens and CSP nonces are blanked.
A benchmark prints figures; it asserts nothing.
"""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from battles.models import Battle
from campaign.models import Membership
from campaign.services.scenarios import create_campaign
from campaign.services.turns import advance_turn
from tests.web.conftest import meeting_doc

SEEDS = int(os.environ.get("PAGES_SEEDS", "6"))
DUMP = os.environ.get("PAGES_DUMP")  # a directory to write every page into, to diff
TURNS = 2
VARIANTS = [
    ("korona", {}),
    ("korona", {"combat_events": True, "fog_of_war_cup": True}),
    ("force_on_force", {}),
    ("force_on_force", {"combat_events": True, "fog_of_war_cup": True}),
]
_VOLATILE = re.compile(
    r"(csrfmiddlewaretoken\" value=\"|nonce=\"|X-CSRFToken\": \"|csrftoken=)[^\"&;]*"
)


def _normal(html: bytes) -> bytes:
    return _VOLATILE.sub(r"\1-", html.decode()).encode()


@pytest.mark.django_db
def test_battle_pages_hash(django_user_model: Any) -> None:
    gm = django_user_model.objects.create_user("gm", "gm@example.com", "x" * 20, is_staff=True,
                                               is_superuser=True)  # fmt: skip
    players = {
        side: django_user_model.objects.create_user(side, f"{side}@example.com", "x" * 20)
        for side in ("australian", "japanese")
    }
    clients = {}
    for who, user in [("gm", gm), *players.items()]:
        clients[who] = Client()
        clients[who].force_login(user)
    every = hashlib.sha256()
    pages = 0
    for ruleset, options in VARIANTS:
        digest = hashlib.sha256()
        for seed in range(1, SEEDS + 1):
            doc = meeting_doc()
            doc["settings"] = {"ruleset": ruleset, **options}
            campaign = create_campaign(data=doc, name=f"{ruleset} {options} {seed}", seed=seed)
            for side, user in players.items():
                Membership.objects.create(user=user, campaign=campaign, side=side)
            for _ in range(TURNS):
                advance_turn(campaign_id=campaign.pk)
            for battle in Battle.objects.filter(campaign=campaign).order_by("id"):
                urls = [
                    (who, reverse(name, args=[campaign.pk, battle.pk]))
                    for name in ("battle", "battle-sheet")
                    for who in clients
                ] + [
                    ("gm", reverse(f"admin:battles_battle_{name}", args=[battle.pk]))
                    for name in ("report", "sheet")
                ]
                for who, url in urls:
                    response = clients[who].get(url)
                    body = _normal(response.content) if response.status_code == 200 else b""
                    digest.update(f"{seed} {battle.key} {who} {response.status_code}".encode())
                    digest.update(body)
                    if DUMP:
                        name = f"{ruleset}-{len(options)}-{seed}-{battle.key}-{who}-{url}"
                        path = Path(DUMP) / re.sub(r"[^A-Za-z0-9_.-]", "_", name)
                        path.write_bytes(body)
                    pages += 1
        every.update(digest.digest())
        print(f"{ruleset:15} {options}: {digest.hexdigest()}")
    print(f"all {pages} pages: {every.hexdigest()}")
