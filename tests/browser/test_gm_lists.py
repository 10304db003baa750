"""The admin's lists on a 390x844 phone and at 1280x800, beside the admin's menu and
filters: every column of a list is inside its frame, not cut at its edge (a walk-through
found the Companies list's last column, its standing orders, out of sight at 1280 px, and
the lists wider than a phone's screen). On a phone a list keeps the columns read at a
glance; the page itself never scrolls sideways."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token

from campaign.models import Campaign, Company, Membership
from campaign.services.adjustments import set_control
from campaign.services.turns import advance_turn, give_order
from notifications.invitations import accept, invite_every_side
from notifications.models import Notice, Preference, Webhook
from tests.admin.conftest import new_campaign, play_sunday_evenings, waiting_campaign
from tests.browser.test_safe_defaults import SIZES, sign_in

pytestmark = pytest.mark.django_db(transaction=True)

LISTS = [
    "campaign/campaign", "campaign/area", "campaign/company", "campaign/ship",
    "campaign/airgroup", "campaign/link", "campaign/turn", "campaign/order",
    "campaign/gmadjustment", "campaign/membership", "battles/battle", "notifications/notice",
    "notifications/invitation", "notifications/webhook", "notifications/preference",
    "auth/user", "authtoken/tokenproxy",
]  # fmt: skip
# The lists with a time on the campaign's clock in every row (at 1280 px).
TIMED = {
    "campaign/turn", "campaign/gmadjustment", "notifications/notice", "notifications/invitation",
    "campaign/campaign",  # its next deadline (Sunday evenings)
}  # fmt: skip

# The list's table and its frame (the admin's .results, which scrolls what it cannot fit):
# how wide the table is, how wide the frame shows, the columns reaching past it, and the
# times on the campaign's clock ("Sun 20 Dec 2026, 22:15 AEDT") with the lines each takes
# (squeezed beside an invitation's link, its expiry took five).
MEASURE = """() => {
  const table = document.querySelector('#result_list');
  const frame = table.closest('.results');
  const edge = frame.getBoundingClientRect().right + 0.5;
  const cut = [...table.querySelectorAll('thead th')]
    .filter(th => th.getBoundingClientRect().width > 0 && th.getBoundingClientRect().right > edge)
    .map(th => th.innerText.trim());
  const lines = cell => {
    const range = document.createRange();
    range.selectNodeContents(cell);
    return new Set([...range.getClientRects()].map(r => Math.round(r.top))).size;
  };
  const times = [...table.querySelectorAll('tbody :is(td, th)')]
    .filter(td => td.getBoundingClientRect().width > 0
      && /^(\\w+ )?\\w{3} \\d{1,2} \\w{3} \\d{4}, \\d{2}:\\d{2} \\S+$/.test(td.innerText.trim()))
    .map(td => [td.innerText.trim(), lines(td)]);
  return {page: document.documentElement.scrollWidth, table: table.scrollWidth,
          frame: frame.clientWidth, cut: cut, times: times};
}"""


def campaigns_with_a_row_in_every_list(gm: Any) -> Campaign:
    """Two campaigns, with a turn played, a GM change, orders, a member, a webhook and its
    notice, invitations (one of them used, by a player with a long user name), a player's
    preferences and an API token."""
    campaign = new_campaign()
    play_sunday_evenings(campaign, gm)
    oivi = campaign.areas.get(name="Oivi")
    set_control(area=oivi, side="australian", reason="a patrol's report", user=gm)
    advance_turn(campaign_id=campaign.pk)
    give_order(company=campaign.companies.get(name="A Company"), kind="hold", user=gm)
    give_order(company=campaign.companies.get(name="B Company"), kind="hold", sniper=True)
    Membership.objects.create(user=gm, campaign=campaign, side="australian")
    hook = Webhook.objects.create(
        campaign=campaign, url="https://discord.example.com/api/webhooks/123456789/" + "x" * 60
    )
    Notice.objects.create(
        webhook=hook, kind="turn_played", campaign=campaign, turn=1, subject="Turn 1", body="."
    )
    invitations = invite_every_side(
        campaign=campaign, user=gm, note="for the club's Thursday players"
    )
    player = get_user_model().objects.create_user("margaret.hollingworth", "mh@example.com")
    accept(invitation=invitations[0][1], user=player)
    Preference.objects.create(user=gm, time_zone="Australia/Sydney")
    Token.objects.create(user=gm)
    waiting_campaign("Korona 2")  # its battles waiting for their tabletop results
    return campaign


@pytest.mark.parametrize("size", SIZES, ids=["desktop", "phone"])
def test_every_list_fits_its_frame_on_a_phone_and_at_1280(
    page: Any, live_server: Any, django_user_model: Any, shot: Any, size: tuple[int, int]
) -> None:
    tag = sign_in(page, live_server, django_user_model, size)
    campaigns_with_a_row_in_every_list(get_user_model().objects.get(username="gm"))
    for name in LISTS:
        page.goto(f"{live_server.url}/admin/{name}/")
        shot(f"list-{tag}-{name.replace('/', '-')}")
        measured = page.evaluate(MEASURE)
        assert measured["page"] <= size[0], name  # the page never scrolls sideways
        assert measured["table"] <= measured["frame"], (name, measured)
        assert measured["cut"] == [], (name, measured)
        if tag == "desktop":  # a phone's narrow columns wrap a time as they must
            # A time reads as a turn's does: its date, and its hour below it at most.
            assert (name in TIMED) == bool(measured["times"]), (name, measured)
            assert all(lines <= 2 for _, lines in measured["times"]), (name, measured)


def test_the_companies_list_shows_its_standing_orders_at_1280(
    page: Any, live_server: Any, django_user_model: Any, shot: Any
) -> None:
    """Its last column, in sight beside the menu and the filters."""
    sign_in(page, live_server, django_user_model, (1280, 800))
    campaigns_with_a_row_in_every_list(get_user_model().objects.get(username="gm"))
    # The longest words: the campaign AI's standing order, on a side with and without a
    # player ("sensible (its side has no player: the campaign AI chooses)").
    Company.objects.update(standing_order="sensible")
    page.goto(f"{live_server.url}/admin/campaign/company/")
    shot("list-desktop-companies")
    measured = page.evaluate(MEASURE)
    assert measured["table"] <= measured["frame"], measured
    last = page.locator("#result_list tbody tr").first.locator("td").last
    assert last.get_attribute("class") == "field-standing_words"
    frame = page.locator("#changelist-form .results").bounding_box()
    box = last.bounding_box()
    assert box["x"] + box["width"] <= frame["x"] + frame["width"]
    # Kind and quality in one column: "fighting (trained)", a supply company's "supply".
    kinds = page.locator("#result_list td.field-kind_words").all_inner_texts()
    assert "fighting (trained)" in [" ".join(k.split()) for k in kinds] and "supply" in kinds


def test_a_phone_keeps_the_columns_read_at_a_glance(
    page: Any, live_server: Any, django_user_model: Any, shot: Any
) -> None:
    """What a list leaves out on a phone is on the row's page; what it keeps is in sight."""
    sign_in(page, live_server, django_user_model, (390, 844))
    campaigns_with_a_row_in_every_list(get_user_model().objects.get(username="gm"))
    kept = {
        # Every campaign has its "A Company": the campaign tells their rows apart.
        "campaign/company": (["name", "campaign", "area", "stands", "supply_words"], ["side"]),
        "campaign/order": (
            ["company", "campaign", "turn", "kind", "target"],
            ["sniper", "given_by"],
        ),
        "campaign/turn": (["__str__", "status", "battles", "finished_when"], ["number"]),
        "campaign/gmadjustment": (["created_when", "what_words", "reason"], ["user", "turn_words"]),
        # Two campaigns' battles read the same ("At Oivi: the Australians' A Company attacks"):
        # the campaign tells them apart.
        "battles/battle": (["battle_shown", "campaign", "turn_number", "status_shown"], []),
        # An invitation is for a campaign: that stays, with its link.
        "notifications/invitation": (["campaign", "side", "link", "used_by"], ["note"]),
        "campaign/membership": (["user", "campaign", "side"], []),
    }
    for name, (shown, hidden) in kept.items():
        page.goto(f"{live_server.url}/admin/{name}/")
        row = page.locator("#result_list tbody tr").first
        for column in shown:
            assert row.locator(f".field-{column}").is_visible(), (name, column)
        for column in hidden:
            assert not row.locator(f".field-{column}").is_visible(), (name, column)


def test_the_campaigns_list_on_a_phone_keeps_its_next_deadline_heading_in_sight(
    page: Any, live_server: Any, django_user_model: Any, shot: Any
) -> None:
    """A walk-through's list, with an ended campaign ("20 played; the campaign has ended")
    beside one on a schedule: its last heading, "next deadline", was cut at the phone's
    right edge."""
    sign_in(page, live_server, django_user_model, (390, 844))
    gm = get_user_model().objects.get(username="gm")
    new_campaign("Korona")
    ended = new_campaign("Korona 2", turn_limit=1)
    advance_turn(campaign_id=ended.pk)
    Campaign.objects.filter(pk=ended.pk).update(turn=20)  # its turns' words at their longest
    play_sunday_evenings(new_campaign("Korona 3"), gm)
    page.goto(f"{live_server.url}/admin/campaign/campaign/")
    shot("list-phone-campaigns-ended")
    assert "the campaign has ended" in page.locator("#result_list").inner_text()
    measured = page.evaluate(MEASURE)
    assert measured["table"] <= measured["frame"], measured
    assert measured["cut"] == [], measured
    heading = page.locator("#result_list thead th.column-deadline_shown")
    frame = page.locator("#changelist-form .results").bounding_box()
    box = heading.bounding_box()
    assert box["x"] + box["width"] <= frame["x"] + frame["width"] + 0.5
