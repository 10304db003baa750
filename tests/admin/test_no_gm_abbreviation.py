"""The game master reads "game master", never "GM" (the project's word rule): a
walk-through found "GM adjustments" in the admin's menu, "none: the GM plays each turn"
on Create a campaign and "another GM change was made" in a message. Every admin page of
a campaign with a battle waiting is scanned for a standalone "GM", its attributes too
(a confirmation's words), so the abbreviation does not come back."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from campaign.models import Area, Company, Ship
from tests.admin.conftest import waiting_campaign

pytestmark = pytest.mark.django_db


def pages(campaign_pk: int, battle_pk: int, turn_pk: int) -> list[str]:
    campaign = f"/admin/campaign/campaign/{campaign_pk}"
    rows = [
        (model._meta.model_name, model.objects.filter(campaign_id=campaign_pk).first())
        for model in (Area, Company, Ship)
    ]
    lists = [
        f"/admin/{app}/{model}/"
        for app, model in [
            ("campaign", "campaign"), ("campaign", "area"), ("campaign", "company"),
            ("campaign", "ship"), ("campaign", "airgroup"), ("campaign", "link"),
            ("campaign", "turn"), ("campaign", "order"), ("campaign", "gmadjustment"),
            ("campaign", "membership"), ("battles", "battle"), ("notifications", "invitation"),
            ("notifications", "notice"), ("notifications", "message"),
        ]
    ]  # fmt: skip
    return [
        "/admin/",
        *lists,
        "/admin/campaign/campaign/create/",
        *(f"{campaign}/{page}/" for page in ("change", "settings", "schedule", "rollback", "seed")),
        f"{campaign}/history/",
        *(f"/admin/campaign/{name}/{row.pk}/{page}/" for name, row in rows if row
          for page in ("change", "adjust")),
        f"/admin/campaign/turn/{turn_pk}/change/",
        *(f"/admin/battles/battle/{battle_pk}/{page}/" for page in ("change", "report", "result")),
    ]  # fmt: skip


def test_no_admin_page_says_gm(gm: Client) -> None:
    campaign, battles = waiting_campaign()
    battle = next(iter(battles.values()))
    found = {}
    for address in pages(campaign.pk, battle.pk, campaign.turns.get(number=1).pk):
        response = gm.get(address)
        if response.status_code == 404:
            continue  # a list of a model not registered
        assert response.status_code == 200, address
        # A quotation of the rulings (<q>, on Settings) is word for word, "GM" and all.
        text = re.sub(r"<(script|style|q)\b.*?</\1>", "", response.content.decode(), flags=re.S)
        said = re.findall(r".{0,40}\bGM\b.{0,40}", text)
        if said:
            found[address] = said
    assert found == {}
