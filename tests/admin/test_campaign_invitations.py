"""The invitations waiting for a campaign are on its admin page (a walk-through's game
master, who lost the first run's console, found Memberships empty and no link there),
and the admin's home says a campaign with invitations out is waiting for its players,
not "no player: the campaign AI plays every side". No player page shows a link."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from campaign.models import Membership
from notifications.invitations import invite_every_side
from notifications.models import Invitation
from tests.admin.conftest import new_campaign

pytestmark = pytest.mark.django_db


def test_the_campaigns_page_shows_the_invitations_waiting(gm: Client, gm_user: Any) -> None:
    campaign = new_campaign()
    links = dict(invite_every_side(campaign=campaign, user=gm_user))
    used = links["Japanese"]
    used.used_at = timezone.now()
    used.save()
    old = Invitation.objects.create(
        campaign=campaign, side="japanese", expires_at=timezone.now() - timedelta(days=1)
    )
    page = gm.get(f"/admin/campaign/campaign/{campaign.pk}/change/").content.decode()
    assert "Invitations waiting" in page
    waiting = links["Australians"]
    assert f">http://127.0.0.1:8000/invite/{waiting.token}/</textarea>" in page
    assert "Australians (the campaign AI plays it; " in page and "until " in page
    assert used.token not in page and old.token not in page
    assert f"/admin/notifications/invitation/?campaign__id__exact={campaign.pk}" in page


def test_a_solo_campaigns_other_side_is_the_campaign_ais_not_a_player_waited_for(
    gm: Client, gm_user: Any, django_user_model: Any
) -> None:
    """A solo campaign: alice joined the Australians; the Japanese invitation, which the
    GM never needs, was listed as one more waiting. It still gives the side to a player
    who uses it (``player_joined``), so it stays, said as what it does."""
    from notifications.invitations import accept

    campaign = new_campaign()
    links = dict(invite_every_side(campaign=campaign, user=gm_user))
    alice = django_user_model.objects.create_user("alice", "alice@example.com", "pw")
    accept(invitation=links["Australians"], user=alice)
    teammate = Invitation.objects.create(
        campaign=campaign, side="australian", expires_at=timezone.now() + timedelta(days=1)
    )
    page = gm.get(f"/admin/campaign/campaign/{campaign.pk}/change/").content.decode()
    assert (
        "Japanese (the campaign AI plays it; send this link to give the side to a player): "
    ) in page
    assert links["Japanese"].token in page
    assert "Australians (played by alice; this link adds a teammate): " in page
    assert teammate.token in page


def test_a_campaign_without_invitations_says_how_to_make_one(gm: Client) -> None:
    campaign = new_campaign()
    page = gm.get(f"/admin/campaign/campaign/{campaign.pk}/change/").content.decode()
    assert "none waiting" in page
    assert "/admin/notifications/invitation/add/" in page


def test_the_home_page_says_the_campaign_waits_for_its_invited_players(
    gm: Client, gm_user: Any
) -> None:
    campaign = new_campaign()
    invite_every_side(campaign=campaign, user=gm_user)
    page = gm.get("/admin/").content.decode()
    assert (
        "no player has joined yet: 2 invitations waiting; until someone joins, the campaign "
        "AI plays every side"
    ) in page
    assert "no player: the campaign AI plays every side" not in page


def test_without_invitations_the_home_page_says_the_ai_plays(gm: Client) -> None:
    new_campaign()
    assert "no player: the campaign AI plays every side" in gm.get("/admin/").content.decode()


def test_no_player_page_shows_an_invitation_link(gm_user: Any, django_user_model: Any) -> None:
    campaign = new_campaign()
    links = invite_every_side(campaign=campaign, user=gm_user)
    player = django_user_model.objects.create_user("p", "p@example.com", "pw")
    Membership.objects.create(campaign=campaign, user=player, side="australian")
    client = Client()
    client.force_login(player)
    for address in ("/campaigns/", f"/campaigns/{campaign.pk}/"):
        page = client.get(address).content.decode()
        for _, link in links:
            assert link.token not in page, address
