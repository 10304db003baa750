"""The Battles page of a long campaign: what it reads, how long it takes, and its hash.

    .venv/bin/python -m pytest bench/battle_list.py -q -s

Plays campaigns of Korona with every company twice over and every company aggressive
(the Japanese of Oivi start in Korona), for seeds 1..N (``LIST_SEEDS``, 3) and up to
``LIST_TURNS`` turns (30), under fog of war, then opens the campaign's Battles page
(``/campaigns/<id>/battles/``) as each side, the GM and a spectator (while it is
played, even when a side has won, and once it has ended). Prints, for the Australian
player's page: the battles listed, the characters of the turns' JSON its queries read
(whole logs, only the logs' battle records, the start states), its queries and its
time; then one SHA-256 per campaign over every reader's page and one over all: run it
before and after a change that must keep the page (the hashes must be equal). CSRF
tokens and CSP nonces are blanked.
A benchmark prints figures; it asserts nothing.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import time
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from battles.models import Battle
from campaign.models import SPECTATOR, Campaign, Membership, Turn
from campaign.services.scenarios import create_campaign
from campaign.services.turns import advance_turn
from tests.campaign.conftest import with_more_companies
from tests.web.conftest import meeting_doc, whole_json_read

SEEDS = int(os.environ.get("LIST_SEEDS", "3"))
TURNS = int(os.environ.get("LIST_TURNS", "30"))
_VOLATILE = re.compile(
    r"(csrfmiddlewaretoken\" value=\"|nonce=\"|X-CSRFToken\": \"|csrftoken=)[^\"&;]*"
)


def _normal(html: bytes) -> bytes:
    return _VOLATILE.sub(r"\1-", html.decode()).encode()


def _campaign(seed: int) -> Campaign:
    doc = with_more_companies(meeting_doc(), times=2)
    for company in doc["companies"]:
        company["standing_order"] = "aggressive"
    doc["settings"] = {"fog_of_war": True, "turn_limit": TURNS + 10}
    campaign = create_campaign(data=doc, name=f"Long campaign {seed}", seed=seed)
    for _ in range(TURNS):
        campaign.refresh_from_db()
        if campaign.status != Campaign.Status.ACTIVE:
            break
        advance_turn(campaign_id=campaign.pk)
    campaign.refresh_from_db()
    return campaign


def _reads(client: Client, url: str) -> tuple[float, int, dict[str, int]]:
    """The page's time (ms), its queries, and the bytes of the JSON columns it read."""
    started = time.perf_counter()
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    took = (time.perf_counter() - started) * 1000
    sql = [q["sql"] for q in queries.captured_queries]
    read: dict[str, int] = {}
    turns = Turn.objects.filter(campaign_id=int(url.split("/")[2]))
    for column in ("log", "start_state"):
        if any(whole_json_read(one, "campaign_turn", (column,)) for one in sql):
            read[f"whole {column}"] = sum(
                len(json.dumps(value)) for value in turns.values_list(column, flat=True)
            )
    if any("json_each" in one or "jsonb_array_elements" in one for one in sql):
        read["battle records"] = sum(
            len(json.dumps(record))
            for log in turns.values_list("log", flat=True)
            for record in log
            if record.get("kind") == "battle"
        )
    return took, len(queries.captured_queries), read


@pytest.mark.django_db
def test_battle_list(django_user_model: Any) -> None:
    gm = django_user_model.objects.create_user("gm", "gm@example.com", "x" * 20, is_staff=True,
                                               is_superuser=True)  # fmt: skip
    users = {
        who: django_user_model.objects.create_user(who, f"{who}@example.com", "x" * 20)
        for who in ("australian", "japanese", "spectator")
    }
    clients = {"gm": Client()}
    clients["gm"].force_login(gm)
    for who, user in users.items():
        clients[who] = Client()
        clients[who].force_login(user)
    every = hashlib.sha256()
    for seed in range(1, SEEDS + 1):
        campaign = _campaign(seed)
        for who, user in users.items():
            side = SPECTATOR if who == "spectator" else who
            Membership.objects.create(user=user, campaign=campaign, side=side)
        ended = campaign.status
        # Measured while played (under the fog of war), even when a side has won.
        Campaign.objects.filter(pk=campaign.pk).update(
            status=Campaign.Status.ACTIVE, winner=None, end_reason=""
        )
        url = reverse("battles", args=[campaign.pk])
        battles = Battle.objects.filter(campaign=campaign).count()
        every_log = Turn.objects.filter(campaign=campaign).values_list("log", flat=True)
        logs = sum(len(json.dumps(log)) for log in every_log)
        clients["australian"].get(url)  # the first request's session and user
        times = []
        for _ in range(5):
            took, count, read = _reads(clients["australian"], url)
            times.append(took)
        print(
            f"seed {seed}: {campaign.turn} turns ({ended}), {battles} battles,"
            f" turn logs {logs:,} chars;"
            f" the Australians' page: {count} queries, reads {read or 'no turn JSON'},"
            f" {sorted(times)[2]:.1f} ms (median of 5)"
        )
        digest = hashlib.sha256()
        for finished in (False, True):
            if finished:
                Campaign.objects.filter(pk=campaign.pk).update(
                    status=Campaign.Status.FINISHED,
                    winner=campaign.winner or "draw",
                    end_reason=campaign.end_reason or "turn limit",
                )
            for who, client in clients.items():
                body = _normal(client.get(url).content)
                digest.update(f"{finished} {who}".encode() + body)
        every.update(digest.digest())
        print(f"seed {seed}: pages {digest.hexdigest()}")
    print(f"all: {every.hexdigest()}")
