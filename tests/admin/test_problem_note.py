"""Every change form of the GM's admin says what is wrong the project's way, at its top:
"Please correct the problem below." or "Please correct the N problems below.", counting
the problems the page lists, not the boxes that have them (Django's stock note said
"Please correct the errors below." for one box holding two problems)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from notifications.models import Invitation
from tests.admin.conftest import new_campaign

pytestmark = pytest.mark.django_db

DJANGO_NOTES = ("Please correct the error below.", "Please correct the errors below.")


def note(response: Any) -> str:
    """The page's note above the form, Django's words checked absent."""
    assert response.status_code == 200
    page = response.content.decode()
    for words in DJANGO_NOTES:
        assert words not in page
    assert page.count('class="errornote"') == 1
    start = page.index('class="errornote"')
    return page[page.index(">", start) + 1 : page.index("</p>", start)].strip()


def test_an_invitation_sent_back_with_one_problem_says_the_problem(gm: Client) -> None:
    campaign = new_campaign()
    response = gm.post("/admin/notifications/invitation/add/", {"campaign": campaign.pk})
    assert note(response) == "Please correct the problem below."


def test_an_invitation_sent_back_empty_counts_its_problems(gm: Client) -> None:
    response = gm.post("/admin/notifications/invitation/add/", {})
    assert note(response) == "Please correct the 2 problems below."


def test_an_invitation_changed_to_nothing_says_the_problem(gm: Client, gm_user: Any) -> None:
    campaign = new_campaign()
    gm.post("/admin/notifications/invitation/add/", {"campaign": campaign.pk, "side": "japanese"})
    invitation = Invitation.objects.get()
    response = gm.post(f"/admin/notifications/invitation/{invitation.pk}/change/", {"side": ""})
    assert note(response) == "Please correct the 2 problems below."


def test_an_order_sent_back_empty_counts_its_problems(gm: Client) -> None:
    new_campaign()
    response = gm.post("/admin/campaign/order/add/", {})
    assert note(response) == "Please correct the 2 problems below."


def test_one_box_with_two_problems_is_two_problems(gm: Client) -> None:
    """A channel's address too long and no address at all: one box, two problems."""
    campaign = new_campaign()
    response = gm.post(
        "/admin/notifications/webhook/add/",
        {"campaign": campaign.pk, "url": "x" * 600, "active": "on"},
    )
    assert note(response) == "Please correct the 2 problems below."
    assert response.context["adminform"].form.errors.keys() == {"url"}


def test_a_form_wide_problem_is_listed_under_the_note(gm: Client) -> None:
    """An order the rules refuse: the refusal under the note, counted once."""
    campaign = new_campaign()
    company = campaign.companies.get(name="3rd Company")
    area = campaign.areas.get(name="Oivi")  # linked to its Kilu, but away from its base
    response = gm.post(
        "/admin/campaign/order/add/",
        {"company": company.pk, "kind": "withdraw", "target": area.pk},
    )
    assert note(response) == "Please correct the problem below."
    page = response.content.decode()
    assert page.index('class="errornote"') < page.index('class="errorlist nonfield"')
    assert page.count('class="errorlist nonfield"') == 1
