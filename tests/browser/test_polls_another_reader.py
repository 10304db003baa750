"""A page left open by one player while another signs in in the same browser, on a
desktop and a phone.

The Australian player's map stays open in a tab; the Japanese player signs in in another
tab. The Australian page kept polling with the Japanese player's session cookie, and
when the campaign changed it swapped the Japanese side's map (its companies by name)
into a page drawn for the Australians. Now the page names the reader it was drawn for
on each poll (``X-Korona-Reader``), and a poll answered for someone else brings nothing
but the order to open the page again whole, for the reader signed in now, who is told
why (``config.signedout``).
"""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client

from campaign.models import Campaign, Membership
from campaign.services.scenarios import create_campaign
from config.signedout import SIGNED_IN_AS
from tests.campaign.conftest import korona_doc

pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "a long password for the browser"
SIZES = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}
POLLS = ("/map/live/", "/messages/latest/")


@pytest.fixture
def campaign(django_user_model: Any) -> Campaign:
    cache.clear()
    campaign = create_campaign(data=korona_doc(), name="Korona two readers", seed=5)
    for name, side in (("aussie", "australian"), ("japanese", "japanese")):
        user = django_user_model.objects.create_user(name, password=PASSWORD)
        Membership.objects.create(user=user, campaign=campaign, side=side)
    return campaign


def sign_in(page: Any, name: str) -> None:
    page.fill("#id_username", name)
    page.fill("#id_password", PASSWORD)
    with page.expect_navigation():
        page.click("main button[type=submit]")


@pytest.mark.parametrize("size", SIZES)
def test_a_map_left_open_never_shows_the_next_players_side(
    page: Any, live_server: Any, campaign: Campaign, shot: Any, settings: Any, size: str
) -> None:
    settings.KORONA_MAP_POLL_SECONDS = 1
    japanese_only = list(
        campaign.companies.filter(side="japanese")
        .exclude(name="Supply Company")
        .values_list("name", flat=True)
    )
    assert japanese_only
    page.set_viewport_size(SIZES[size])
    page.goto(f"{live_server.url}/accounts/login/?next=/campaigns/{campaign.pk}/")
    sign_in(page, "aussie")
    assert page.locator("#live-map").count() == 1

    # What the page drawn for the Australian player is answered by its polls, until it is
    # drawn again (a navigation of the tab).
    drawn_for_aussie = [True]
    answers: list[tuple[str, int, dict[str, str], str]] = []

    def record(route: Any) -> None:
        drawn_for = drawn_for_aussie[0]
        answer = route.fetch()
        body = answer.body()
        if drawn_for:
            answers.append((route.request.url, answer.status, answer.headers, body.decode()))
        route.fulfill(status=answer.status, headers=answer.headers, body=body)

    for poll in POLLS:
        page.route(f"**{poll}**", record)
    page.on(
        "framenavigated",
        lambda frame: drawn_for_aussie.__setitem__(0, False) if frame == page.main_frame else None,
    )

    # The Japanese player signs in in another tab. (Their session cookie handed to the
    # browser at once: signing out and in there leaves a moment signed out, in which a
    # poll would send the page to the sign-in page instead, test_orders_signed_out.py.)
    client = Client()
    client.force_login(campaign.memberships.get(side="japanese").user)
    page.context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )
    Campaign.objects.get(pk=campaign.pk).save()  # the map changes: its poll brings it

    # Until the page is opened again, or shows the Japanese side: whichever comes first.
    page.wait_for_function(
        "names => document.querySelector('.messages')"
        " || names.some(name => document.body.innerText.includes(name))",
        arg=japanese_only,
        timeout=15_000,
    )
    # Not one answer to the Australian page held anything of the Japanese side, and the
    # last told it to open again.
    assert answers
    for url, _status, _headers, body in answers:
        for name in japanese_only:
            assert name not in body, f"{name} in the answer to {url}"
    url, status, headers, body = answers[-1]
    assert (status, headers.get("hx-refresh"), body) == (204, "true", ""), url

    # Opened again for the Japanese player, who is told why.
    said = page.locator(".messages")
    assert said.inner_text() == SIGNED_IN_AS.format(name="japanese")
    assert page.locator("#live-map").count() == 1
    shot(f"polls-another-reader-{size}")
