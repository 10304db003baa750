"""The account pages (``/accounts/``, ``/accounts/notices/``, the password page) are under
no campaign, yet keep a campaign's menu and the reader's side: the campaign they came
from, else their only one, else a short list of theirs; never one they are not in."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from campaign.models import Campaign
from campaign.services.scenarios import create_campaign
from tests.campaign.conftest import korona_doc
from tests.web.conftest import join

pytestmark = pytest.mark.django_db

ACCOUNT_PAGES = ["account", "notice-preferences", "password-change"]


def menu_of(campaign: Campaign) -> list[str]:
    return [
        f'<a href="{reverse(name, args=[campaign.pk])}">{words}</a>'
        for name, words in (
            ("campaign-map", "Map"),
            ("turns", "Turns"),
            ("orders", "Orders"),
            ("messages", "Messages"),
        )
    ]


def another(name: str) -> Campaign:
    return create_campaign(data=korona_doc(), name=name, seed=2)


@pytest.mark.parametrize("page", ACCOUNT_PAGES)
def test_an_account_page_keeps_the_players_only_campaigns_menu_and_side(
    campaign: Campaign, aussie: Any, login: Any, page: str
) -> None:
    html = login(aussie).get(reverse(page)).content.decode()
    assert all(link in html for link in menu_of(campaign))
    assert "<span>aussie · Australians</span>" in html


def test_the_top_bar_takes_the_campaign_to_the_account_pages_and_they_keep_it(
    campaign: Campaign, aussie: Any, login: Any
) -> None:
    second = another("Kokoda")
    join(aussie, second, "japanese")
    client = login(aussie)
    html = client.get(reverse("turns", args=[second.pk])).content.decode()
    account = f"{reverse('account')}?campaign={second.pk}"
    assert f'<a href="{account}">Account</a>' in html
    for page in ACCOUNT_PAGES:
        html = client.get(f"{reverse(page)}?campaign={second.pk}").content.decode()
        assert all(link in html for link in menu_of(second)), page
        assert reverse("campaign-map", args=[campaign.pk]) not in html, page
        assert "<span>aussie · Japanese</span>" in html, page
    # Saving the settings or revoking the token comes back to the same menu.
    saved = client.post(
        f"{reverse('notice-preferences')}?campaign={second.pk}",
        {"email": "on", "reminder_hours": "12", "time_zone": "UTC"},
    )
    assert saved.url == f"{reverse('notice-preferences')}?campaign={second.pk}"
    revoked = client.post(f"{reverse('revoke-token')}?campaign={second.pk}")
    assert revoked.url == account


def test_with_several_campaigns_and_none_named_the_account_page_lists_them(
    campaign: Campaign, aussie: Any, login: Any
) -> None:
    second = another("Kokoda")
    join(aussie, second, "japanese")
    html = login(aussie).get(reverse("account")).content.decode()
    for listed in (campaign, second):
        assert f'<a href="{reverse("campaign-map", args=[listed.pk])}">{listed.name}</a>' in html
    assert reverse("orders", args=[campaign.pk]) not in html
    assert "<span>aussie</span>" in html  # no side: which campaign's would it be?


@pytest.mark.parametrize("named", ["stranger", "missing", "nonsense"])
def test_a_campaign_the_player_is_not_in_is_never_shown_on_an_account_page(
    campaign: Campaign, aussie: Any, login: Any, named: str
) -> None:
    stranger = another("Secret Kokoda")
    number = {"stranger": str(stranger.pk), "missing": "999999", "nonsense": "1x"}[named]
    for page in ACCOUNT_PAGES:
        html = login(aussie).get(f"{reverse(page)}?campaign={number}").content.decode()
        assert "Secret Kokoda" not in html
        assert f"/campaigns/{stranger.pk}/" not in html
        # As if none were named: the player's only campaign.
        assert all(link in html for link in menu_of(campaign))


def test_a_spectator_and_a_finished_campaign_have_no_orders_on_the_account_page(
    campaign: Campaign, outsider: Any, aussie: Any, login: Any
) -> None:
    join(outsider, campaign, "spectator")
    html = login(outsider).get(reverse("account")).content.decode()
    assert reverse("orders", args=[campaign.pk]) not in html
    assert reverse("messages", args=[campaign.pk]) in html
    Campaign.objects.filter(pk=campaign.pk).update(status="finished")
    html = login(aussie).get(reverse("account")).content.decode()
    assert reverse("orders", args=[campaign.pk]) not in html
    assert reverse("turns", args=[campaign.pk]) in html


def test_the_game_master_reads_game_master_on_the_account_page(
    campaign: Campaign, gm_user: Any, login: Any
) -> None:
    html = login(gm_user).get(f"{reverse('account')}?campaign={campaign.pk}").content.decode()
    assert all(link in html for link in menu_of(campaign))
    assert "<span>gm · game master</span>" in html


def test_a_player_in_no_campaign_gets_no_campaign_menu(outsider: Any, login: Any) -> None:
    html = login(outsider).get(reverse("account")).content.decode()
    assert 'class="campaign-nav"' not in html


def test_the_account_page_tells_a_player_of_the_api_in_words_not_addresses(
    aussie: Any, login: Any
) -> None:
    html = login(aussie).get(reverse("account")).content.decode()
    assert "POST /api/token/" not in html and ">/api/docs/<" not in html
    assert f'<a href="{reverse("api:docs")}">the API\'s documentation</a>' in html


def test_the_time_zone_says_it_is_for_the_emails_and_the_pages_keep_the_campaigns_clock(
    aussie: Any, login: Any
) -> None:
    html = login(aussie).get(reverse("notice-preferences")).content.decode()
    assert 'aria-describedby="id_time_zone_helptext"' in html
    assert '<span class="muted" id="id_time_zone_helptext">' in html
    words = " ".join(html.split('id_time_zone_helptext">')[1].split("</span>")[0].split())
    assert "Empty: each campaign&#x27;s own clock, the one its pages give." in words
    assert (
        "deadlines in three emails instead: when a turn is played, before a deadline, and "
        "when one of your battles waits for the table." in words
    )
    assert "The campaign&#x27;s pages keep the campaign&#x27;s clock" in words
    assert "calendar shows it on its own clock" in words


def test_the_gms_time_zone_says_the_battles_waiting_email_keeps_the_campaigns_clock(
    gm_user: Any, login: Any
) -> None:
    """The due time is on the campaign's clock, as the admin's; the GM's zone adds theirs."""
    html = login(gm_user).get(reverse("notice-preferences")).content.decode()
    words = " ".join(html.split('id_time_zone_helptext">')[1].split("</span>")[0].split())
    assert (
        "When a battle waits for its tabletop result, the email gives its due time on the "
        "campaign&#x27;s clock, as the admin does, and on yours beside it when they differ."
        in words
    )
    assert "The campaign&#x27;s pages keep the campaign&#x27;s clock" in words


def test_the_top_bar_calls_the_readers_side_by_its_name_in_the_campaign(
    campaign: Campaign, aussie: Any, login: Any
) -> None:
    """The walk-through's top bar read "bob · Australian" over a page that said
    "Australians": the side's name in the campaign, as the pages call it, here and on
    the account pages (a scenario may name its sides as it likes)."""
    campaign.sides.filter(key="australian").update(name="Diggers")
    client = login(aussie)
    html = client.get(reverse("campaign-map", args=[campaign.pk])).content.decode()
    assert "<span>aussie · Diggers</span>" in html
    html = client.get(f"{reverse('account')}?campaign={campaign.pk}").content.decode()
    assert "<span>aussie · Diggers</span>" in html
