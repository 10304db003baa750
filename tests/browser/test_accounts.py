"""Accounts in a real browser: a player who forgot their password gets a link by email
(Django's test outbox) and sets a new one."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core import mail

from tests.web.conftest import PASSWORD

pytestmark = pytest.mark.django_db(transaction=True)

NEW_PASSWORD = "jungle track at dawn 1942"


def test_a_player_resets_a_forgotten_password(
    page: Any, live_server: Any, django_user_model: Any, shot: Any
) -> None:
    player = django_user_model.objects.create_user("aussie", "a@example.com", PASSWORD)
    page.goto(f"{live_server.url}/accounts/login/")
    page.click("text=Forgotten your password?")
    page.fill("#id_email", "a@example.com")
    shot("reset-1-ask")
    page.click("main button[type=submit]")
    page.wait_for_url("**/accounts/password/reset/sent/")
    assert page.locator("h1").text_content() == "Check your email"

    (message,) = mail.outbox
    assert message.to == ["a@example.com"]
    assert message.subject == "Korona: choose a new password"
    link = re.search(r"(http://\S+/accounts/password/reset/\S+/)", message.body)[1]
    page.goto(link)
    page.wait_for_url("**/set-password/")
    page.fill("#id_new_password1", NEW_PASSWORD)
    page.fill("#id_new_password2", NEW_PASSWORD)
    shot("reset-2-new")
    page.click("main button[type=submit]")
    page.wait_for_url("**/accounts/password/reset/done/")
    player.refresh_from_db()
    assert player.check_password(NEW_PASSWORD)

    page.goto(link)  # a link works once
    assert page.locator("h1").text_content() == "This link does not work"
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", "aussie")
    page.fill("#id_password", NEW_PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url("**/campaigns/")
    shot("reset-3-signed-in")


def test_an_unknown_address_gets_the_same_answer_and_no_email(
    page: Any, live_server: Any, django_user_model: Any
) -> None:
    django_user_model.objects.create_user("aussie", "a@example.com", PASSWORD)
    page.goto(f"{live_server.url}/accounts/password/reset/")
    page.fill("#id_email", "nobody@example.com")
    page.click("main button[type=submit]")
    page.wait_for_url("**/accounts/password/reset/sent/")
    assert mail.outbox == []


def test_a_new_player_accepts_an_invitation(
    page: Any, live_server: Any, django_user_model: Any, settings: Any, shot: Any
) -> None:
    from campaign.models import Membership
    from campaign.services.scenarios import create_campaign
    from notifications.invitations import invitation_url, invite
    from tests.web.conftest import meeting_doc

    settings.KORONA_SITE_URL = live_server.url
    campaign = create_campaign(data=meeting_doc(), name="Korona invites", seed=7)
    link = invitation_url(invite(campaign=campaign, side="japanese", note="for Kenji"))

    # Nobody has joined: the invitation says the campaign AI plays the Australians, and
    # that the invitee's "ready" plays each turn at once (solo play), at both sizes.
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(link)
    solo = (
        "Nobody plays the Australians yet: the campaign AI plays them, always ready. Once you "
        'join, your "ready" plays each turn at once.'
    )
    assert page.locator("#invitation-solo").inner_text() == solo
    shot("invite-0-solo-desktop")
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(link)
    assert page.locator("h1").text_content() == "You are invited"
    assert "the Japanese" in page.locator("main").inner_text()
    assert page.locator("#invitation-solo").inner_text() == solo
    page.fill("#id_username", "kenji")
    page.fill("#id_email", "k@example.com")
    page.fill("#id_password1", NEW_PASSWORD)
    page.fill("#id_password2", NEW_PASSWORD)
    shot("invite-1-account")
    page.click("#new-account button[type=submit]")
    page.wait_for_url(f"**/campaigns/{campaign.pk}/")
    assert "you play the Japanese" in page.locator(".messages").inner_text()
    assert "kenji · Japanese" in page.locator("header").inner_text()
    shot("invite-2-joined")
    user = django_user_model.objects.get(username="kenji")
    assert Membership.objects.get(campaign=campaign, user=user).side == "japanese"

    page.goto(link)  # spent: its player, back on it, is told they joined (8ea08a7)
    assert page.locator("h1").text_content() == "You have joined"
    page.context.clear_cookies()  # anyone else finds it spent
    page.goto(link)
    assert page.locator("h1").text_content() == "This invitation does not work"


@pytest.mark.parametrize(("size", "width", "height"), [("desktop", 1280, 800), ("phone", 390, 844)])
def test_a_player_changes_their_email_address_on_the_account_page(
    page: Any,
    live_server: Any,
    django_user_model: Any,
    signed_in: Any,
    shot: Any,
    size: str,
    width: int,
    height: int,
) -> None:
    player = django_user_model.objects.create_user("aussie", "a@example.com", PASSWORD)
    django_user_model.objects.create_user("japanese", "j@example.com", PASSWORD)
    page.set_viewport_size({"width": width, "height": height})
    signed_in(player).goto(f"{live_server.url}/accounts/")
    assert "Korona emails you at a@example.com" in page.locator("main").inner_text()
    # The other player's address: refused, the address kept in the box, focus on it.
    page.fill("#id_email", "J@example.com")
    page.fill("#id_password", PASSWORD)
    page.click("text=Change my email address")
    page.wait_for_load_state()
    error = page.locator("#id_email_error")
    assert "cannot be used for your account" in error.inner_text()
    assert page.locator("#id_email").input_value() == "J@example.com"
    assert page.evaluate("document.activeElement.id") == "id_email"
    assert "japanese" not in page.content()
    no_sideways_scroll = page.evaluate(
        "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    )
    assert no_sideways_scroll
    shot(f"email-change-1-refused-{size}")

    # A long address wraps on a phone rather than pushing the page sideways.
    long_address = "the.commanding.officer.of.the.thirty.ninth.battalion@example.com"
    page.fill("#id_email", long_address)
    page.fill("#id_password", PASSWORD)
    page.click("text=Change my email address")
    page.wait_for_url(f"{live_server.url}/accounts/")
    assert page.evaluate(
        "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    )
    shot(f"email-change-2-long-{size}")

    page.fill("#id_email", "bluey@example.com")
    page.fill("#id_password", PASSWORD)
    page.click("text=Change my email address")
    page.wait_for_url(f"{live_server.url}/accounts/")
    said = page.locator(".messages").inner_text()
    assert said == "Your email address is now bluey@example.com: Korona's emails go there."
    assert "Korona emails you at bluey@example.com" in page.locator("main").inner_text()
    shot(f"email-change-3-changed-{size}")
    player.refresh_from_db()
    assert player.email == "bluey@example.com"


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)], ids=["desktop", "phone"])
def test_a_player_of_one_side_pressing_another_sides_invitation_reads_why_and_no_button(
    page: Any,
    live_server: Any,
    django_user_model: Any,
    settings: Any,
    signed_in: Any,
    shot: Any,
    size: tuple[int, int],
) -> None:
    from campaign.models import Membership
    from campaign.services.scenarios import create_campaign
    from notifications.invitations import invitation_url, invite
    from tests.web.conftest import meeting_doc

    settings.KORONA_SITE_URL = live_server.url
    campaign = create_campaign(data=meeting_doc(), name="Korona", seed=7)
    sam = django_user_model.objects.create_user("sam", "s@example.com", PASSWORD)
    Membership.objects.create(user=sam, campaign=campaign, side="australian")
    link = invitation_url(invite(campaign=campaign, side="japanese"))
    page.set_viewport_size({"width": size[0], "height": size[1]})
    signed_in(sam)
    page.goto(link)
    page.click("main button[type=submit]")  # "Join as the Japanese"
    alert = page.locator("main [role=alert]")
    assert alert.inner_text() == "You play the Australians in Korona already."
    assert page.locator("main button").count() == 0
    assert page.locator("main").get_by_role("link", name="Your campaigns").count() == 1
    assert page.evaluate("document.documentElement.scrollWidth") <= size[0]
    shot(f"invite-refused-{'phone' if size[0] < 600 else 'desktop'}")
