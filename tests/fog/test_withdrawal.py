"""Why a side withdrew from a battle (the result's ``withdrawal``), as the turn pages,
the campaign's list of battles, the emails and the feed word it, tells nothing a reader
may not know (rulings section 6).

Its words are the battle's own facts ("they faced more than three times their fighting
strength"), which the battle's report shows in full to the two sides that fought it, and
to no one else until the campaign ends. So two campaigns that differ only in why the
Japanese withdrew at Korona must look the same, byte for byte, to a spectator under the
fog of war; the sides that fought read the difference (the test can fail)."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from battles.models import Battle
from campaign.models import SPECTATOR, Campaign, Membership, Turn
from campaign.services.visibility import open_campaign
from notifications.services import turn_words
from tests.fog.crawl import normalise
from tests.web.conftest import *  # noqa: F403
from tests.web.conftest import aussie, japanese, login, played  # noqa: F401

pytestmark = pytest.mark.django_db


def seen_by(user: Any, campaign: Campaign, sign_in: Any) -> dict[str, bytes]:
    """The pages and the email that carry the turn's summary, as ``user`` reads them
    (without the CSRF tokens, new in every answer)."""
    client = sign_in(user)
    seen = {
        url: normalise(client.get(url).content)
        for url in (
            reverse("turns", args=[campaign.pk]),
            reverse("turn", args=[campaign.pk, 1]),
            reverse("turn-map", args=[campaign.pk, 1]),
            reverse("battles", args=[campaign.pk]),
        )
    }
    turn = Turn.objects.get(campaign=campaign, number=1)
    seen["email"] = turn_words(open_campaign(user=user, campaign=campaign), turn).body.encode()
    return seen


def twins(campaign: Campaign, user: Any, sign_in: Any) -> list[dict[str, bytes]]:
    """What ``user`` reads when the Japanese withdrew from Korona from a hopeless
    position, and when they withdrew beaten by the clock."""
    battle = Battle.objects.get(campaign=campaign, key="1:Korona:1")
    assert battle.result["winner"] == "defender"
    seen = []
    for withdrawal in ("hopeless", "beaten_by_the_clock"):
        battle.result = {**battle.result, "reason": "withdrew", "withdrawal": withdrawal}
        battle.save(update_fields=["result"])
        seen.append(seen_by(user, campaign, sign_in))
    return seen


def test_why_a_side_withdrew_tells_a_spectator_nothing(
    played: Campaign,  # noqa: F811
    aussie: Any,  # noqa: F811
    japanese: Any,  # noqa: F811
    login: Any,  # noqa: F811
    django_user_model: Any,
) -> None:
    assert played.get_settings().fog_of_war
    spectator = django_user_model.objects.create_user("spectator", "s@example.com", "pw")
    Membership.objects.create(user=spectator, campaign=played, side=SPECTATOR)
    hopeless, clock = twins(played, spectator, login)
    assert hopeless == clock
    assert not any(b"hopeless" in page or b"the clock" in page for page in hopeless.values())
    # The sides that fought may read why: there, the twins differ.
    for side in (aussie, japanese):
        hopeless, clock = twins(played, side, login)
        assert {k for k in hopeless if hopeless[k] != clock[k]} == set(hopeless), side
