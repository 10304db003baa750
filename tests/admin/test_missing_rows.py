"""A row that is not there, asked for on one of the game master's own admin pages
(Settings, Report, Enter result...), is answered inside the admin as its own change page
answers it: "campaign with ID “999” doesn’t exist" (Django's words) and back to the
admin's home, never the players' "not found" page (a walk-through found their top bar and
words there)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tests.admin.conftest import waiting_campaign

pytestmark = pytest.mark.django_db

ROW_PAGES = [
    "campaign/campaign/999/settings/",
    "campaign/campaign/999/schedule/",
    "campaign/campaign/999/rollback/",
    "campaign/campaign/999/seed/",
    "campaign/campaign/999/export/",
    "campaign/area/999/adjust/",
    "campaign/company/999/adjust/",
    "campaign/ship/999/adjust/",
    "battles/battle/999/report/",
    "battles/battle/999/sheet/",
    "battles/battle/999/result/",
]
BUTTONS = [
    "campaign/campaign/999/advance/",
    "campaign/campaign/999/pause/",
    "campaign/campaign/999/resume/",
]


def messages_of(response: Any) -> list[str]:
    return [str(m) for m in response.context["messages"]]


def missing(model: str) -> list[str]:
    return [f"{model} with ID “999” doesn’t exist. Perhaps it was deleted?"]


def assert_said_in_the_admin(response: Any, model: str) -> None:
    assert response.redirect_chain == [("/admin/", 302)]
    assert response.status_code == 200
    assert messages_of(response) == missing(model)
    page = response.content.decode()
    assert "a campaign you do not play" not in page
    assert "What needs you, and every campaign" in page  # the admin's home


@pytest.mark.parametrize("page", ROW_PAGES)
def test_a_missing_row_on_a_gm_page_is_said_as_the_admin_says_it(gm: Client, page: str) -> None:
    model = page.split("/")[1]
    assert_said_in_the_admin(gm.get(f"/admin/{page}", follow=True), model)


@pytest.mark.parametrize("page", BUTTONS)
def test_a_button_for_a_missing_campaign_is_said_as_the_admin_says_it(
    gm: Client, page: str
) -> None:
    assert_said_in_the_admin(gm.post(f"/admin/{page}", {}, follow=True), "campaign")


def test_the_result_form_of_a_battle_that_never_existed_says_no_such_battle(gm: Client) -> None:
    waiting_campaign()
    response = gm.get("/admin/battles/battle/999/result/", follow=True)
    assert_said_in_the_admin(response, "battle")
    assert "rolled back" not in response.content.decode()


def test_the_admins_own_change_page_says_the_same(gm: Client) -> None:
    response = gm.get("/admin/campaign/campaign/999/change/", follow=True)
    assert_said_in_the_admin(response, "campaign")
