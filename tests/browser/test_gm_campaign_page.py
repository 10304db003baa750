"""The campaign's page in the GM's admin, in a real browser on a desktop and on a 390x844
phone: its tools (two buttons, six links) stand clear of the campaign's title."""

from __future__ import annotations

from typing import Any

import pytest

from campaign.services.turns import advance_turn
from tests.admin.conftest import new_campaign, play_sunday_evenings
from tests.browser.conftest import ARTIFACTS
from tests.browser.test_gm_battle_page import WIDTHS, assert_title_whole_and_clear_of_tools
from tests.browser.test_safe_defaults import SIZES, sign_in

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("size", WIDTHS, ids=["1280", "1024", "phone"])
def test_the_campaign_pages_tools_do_not_cover_its_title(
    page: Any, live_server: Any, django_user_model: Any, shot: Any, size: tuple[int, int]
) -> None:
    sign_in(page, live_server, django_user_model, size)
    campaign = new_campaign("Table Test campaign")
    page.goto(f"{live_server.url}/admin/campaign/campaign/{campaign.pk}/change/")
    shot(f"campaign-page-{size[0]}")
    assert page.locator(".object-tools li").count() == 8  # advance, pause, 5 links, history
    assert_title_whole_and_clear_of_tools(page, size[0])
    # Nothing wider than the screen.
    assert page.evaluate("document.documentElement.scrollWidth") <= size[0]


def test_a_membership_and_its_side_are_in_sight_on_a_phone(
    page: Any, live_server: Any, django_user_model: Any, shot: Any
) -> None:
    """A walk-through found the Memberships table reaching past a phone's screen, each
    player's side out of sight (the GM had to scroll the table sideways to find it)."""
    sign_in(page, live_server, django_user_model, (390, 844))
    campaign = new_campaign()
    player = django_user_model.objects.create_user("alice", "a@example.com", "pw")
    campaign.memberships.create(user=player, side="australian")
    page.goto(f"{live_server.url}/admin/campaign/campaign/{campaign.pk}/change/")
    shot("campaign-memberships-phone")
    for field in ("#id_memberships-0-user + .select2", "#id_memberships-0-side",
                  "#memberships-0 .field-remove a"):  # fmt: skip
        box = page.locator(field).bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390, field
    # The template row of "Add another Membership" stays hidden until asked for.
    assert not page.locator("#memberships-empty").is_visible()


@pytest.mark.parametrize("size", SIZES, ids=["desktop", "phone"])
def test_the_gm_adjustments_read_whole_on_the_campaigns_page(
    page: Any, live_server: Any, django_user_model: Any, shot: Any, size: tuple[int, int]
) -> None:
    """A walk-through read a bold line above each GM adjustment cut mid-sentence ("...
    Next deadline: Fri 11 Dec 2026,"), and on a phone "USER" and "CREATED AT" past the
    screen's edge: each adjustment is read whole, each cell named, on the screen."""
    tag = sign_in(page, live_server, django_user_model, size)
    campaign = new_campaign()
    play_sunday_evenings(campaign, django_user_model.objects.get(username="gm"))
    page.goto(f"{live_server.url}/admin/campaign/campaign/{campaign.pk}/change/")
    group = page.locator("#adjustments-group")
    group.scroll_into_view_if_needed()
    shot(f"campaign-adjustments-{tag}")
    group.screenshot(path=str(ARTIFACTS / f"campaign-adjustments-group-{tag}.png"))
    # Every piece of text shown in the group: none cut by its box, none past the screen.
    cut = group.evaluate(
        """(g, width) => [...g.querySelectorAll('p, th, td')]
            .filter(e => e.getClientRects().length && e.innerText.trim())
            .filter(e => e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1
                         || e.getBoundingClientRect().right > width + .5)
            .map(e => e.innerText.trim())""",
        size[0],
    )
    assert cut == []
    row = group.locator("tbody tr.form-row").first
    text = row.inner_text()
    assert "Schedule changed: a turn every Sunday at 19:00" in text
    assert "we play Sunday evenings" in text and "gm" in text
    assert text.count("Schedule changed") == 1  # said once, not again in a line above it
    if tag == "phone":  # no headings there: each cell says what it is
        labels = row.locator("td[class^=field-]").evaluate_all(
            "tds => tds.map(td => getComputedStyle(td, '::before').content)"
        )
        assert labels == [
            '"When in the campaign: "', '"What: "', '"Reason: "', '"By: "', '"Created at: "',
        ]  # fmt: skip


@pytest.mark.parametrize("size", SIZES, ids=["desktop", "phone"])
def test_each_turn_on_the_campaigns_page_is_one_line_high(
    page: Any, live_server: Any, django_user_model: Any, shot: Any, size: tuple[int, int]
) -> None:
    """A walk-through found each Turns row two lines high: the admin's line above each
    row ("Korona 1 turn 1" and its View link) over the number, status and time. At
    desktop size each turn reads on one line, its View link in it; on a phone too."""
    tag = sign_in(page, live_server, django_user_model, size)
    campaign = new_campaign()
    for _ in range(2):
        advance_turn(campaign_id=campaign.pk)
    page.goto(f"{live_server.url}/admin/campaign/campaign/{campaign.pk}/change/")
    group = page.locator("#turns-group")
    group.scroll_into_view_if_needed()
    shot(f"campaign-turns-{tag}")
    group.screenshot(path=str(ARTIFACTS / f"campaign-turns-group-{tag}.png"))
    rows = group.locator("tbody tr.form-row:not(.empty-form)")
    assert rows.count() == 2
    for index in range(2):
        row = rows.nth(index)
        text = row.inner_text()
        assert "View" in text and "played" in text, text
        # One line: the row under two lines of its text with a cell's usual padding (8px
        # above and below; the line above each row was 61px high in all, at 16px a line).
        line = row.locator("td.field-number").evaluate(
            "td => parseFloat(getComputedStyle(td).lineHeight)"
        )
        height = row.bounding_box()["height"]
        if tag == "desktop":
            assert height < 2 * line + 16, (height, line)
        view = row.get_by_role("link", name="View")
        assert view.is_visible()
        box = view.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= size[0]


@pytest.mark.parametrize("size", SIZES, ids=["desktop", "phone"])
def test_the_gm_removes_a_player_with_a_reason_from_the_players_list(
    page: Any, live_server: Any, django_user_model: Any, shot: Any, size: tuple[int, int]
) -> None:
    """The walk-through ticked Delete and pressed Save: no question, nothing in the log.
    Now the row's "Remove from the campaign…" asks for a reason and a tick first."""
    from campaign.models import GmAdjustment, Membership

    tag = sign_in(page, live_server, django_user_model, size)
    campaign = new_campaign()
    bob = django_user_model.objects.create_user("bob", "b@example.com", "pw")
    campaign.memberships.create(user=bob, side="japanese")
    page.goto(f"{live_server.url}/admin/campaign/campaign/{campaign.pk}/change/")
    page.get_by_role("link", name="Remove from the campaign…").click()
    page.wait_for_load_state()
    assert "bob is the only player of the Japanese." in page.content()
    page.fill("textarea[name=reason]", "moved to Perth")
    shot(f"remove-player-{tag}")
    page.get_by_role("button", name="Remove the player").click()
    page.wait_for_load_state()
    assert "Tick this box to remove the player" in page.content()  # not ticked: nothing done
    assert Membership.objects.filter(user=bob).exists()
    page.check("input[name=confirm]")
    page.get_by_role("button", name="Remove the player").click()
    page.wait_for_load_state()
    shot(f"removed-player-{tag}")
    assert not Membership.objects.filter(user=bob).exists()
    assert GmAdjustment.objects.get().reason == "moved to Perth"
    said = page.locator(".messagelist").inner_text()
    assert "The player bob no longer plays the Japanese: from turn 1 the campaign AI" in said
    assert page.evaluate("document.documentElement.scrollWidth") <= size[0]


@pytest.mark.parametrize("size", SIZES, ids=["desktop", "phone"])
def test_the_campaigns_page_leads_to_each_sides_orders_page(
    page: Any, live_server: Any, django_user_model: Any, shot: Any, size: tuple[int, int]
) -> None:
    """A walk-through found nothing in the admin leading to the orders page as a side
    sees it (the look before playing a turn): a link per side, on the screen, opens it."""
    tag = sign_in(page, live_server, django_user_model, size)
    campaign = new_campaign()
    page.goto(f"{live_server.url}/admin/campaign/campaign/{campaign.pk}/change/")
    line = page.locator(".side-orders")
    shot(f"campaign-side-orders-{tag}")
    assert "See the orders for turn 1 as each side's players do" in line.inner_text()
    box = line.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= size[0]
    line.get_by_role("link", name="Japanese").click()
    page.wait_for_url(f"**/campaigns/{campaign.pk}/orders/?side=japanese")
    shot(f"campaign-side-orders-japanese-{tag}")
    assert "1st Company" in page.locator("main").inner_text()
