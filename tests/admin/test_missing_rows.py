"""A row that is not there, asked for on one of the game master's own admin pages
(Settings, Report, Enter result...), is answered inside the admin as its own change page
answers it: "Campaign with ID “999” doesn’t exist" (Django's words, the model's name
capitalised) and back to the admin's home, never the players' "not found" page (a
walk-through found their top bar and words there). So is an id that is no number
("abc"), opened or sent: no row has it."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib import admin
from django.test import Client

from battles.models import Battle
from battles.services.results import fight_battle_now
from campaign.services.rollback import rollback_to_turn
from campaign.services.turns import advance_turn, set_standing_order
from tests.admin.conftest import waiting_campaign

pytestmark = pytest.mark.django_db

ROW_PAGES = [
    "campaign/campaign/{}/settings/",
    "campaign/campaign/{}/schedule/",
    "campaign/campaign/{}/rollback/",
    "campaign/campaign/{}/seed/",
    "campaign/campaign/{}/export/",
    "campaign/area/{}/adjust/",
    "campaign/company/{}/adjust/",
    "campaign/ship/{}/adjust/",
    "battles/battle/{}/report/",
    "battles/battle/{}/sheet/",
    "battles/battle/{}/result/",
    "battles/battle/{}/correct/",
]
BUTTONS = [
    "campaign/campaign/{}/advance/",
    "campaign/campaign/{}/pause/",
    "campaign/campaign/{}/resume/",
    "battles/battle/{}/fight/",
]
# A row that was never there, and an id that no row can have (the admin's own change
# page answers both the same way).
KEYS = ["999", "abc", "1 2", "%00"]


def messages_of(response: Any) -> list[str]:
    return [str(m) for m in response.context["messages"]]


def missing(model: str, key: str = "999") -> list[str]:
    shown = {"%00": "\x00"}.get(key, key)
    return [f"{model.capitalize()} with ID “{shown}” doesn’t exist. Perhaps it was deleted?"]


def assert_said_in_the_admin(response: Any, model: str, key: str = "999") -> None:
    assert response.redirect_chain == [("/admin/", 302)]
    assert response.status_code == 200
    assert messages_of(response) == missing(model, key)
    page = response.content.decode()
    assert "a campaign you do not play" not in page
    assert "What needs you, and every campaign" in page  # the admin's home


def test_every_row_page_of_the_admin_is_checked_here() -> None:
    """The lists above are every page of one row the apps' model admins add (``row_pages``):
    a new one is checked for a missing row, and for an id that is no number, by adding
    it here."""
    found = {
        f"{meta.app_label}/{meta.model_name}/{{}}/{str(url.pattern).split('/')[1]}/"
        for model_admin in admin.site._registry.values()
        for meta in [model_admin.model._meta]
        for url in model_admin.get_urls()
        if str(url.pattern).startswith("<int:pk>/")
    }
    assert found == set(ROW_PAGES) | set(BUTTONS)


@pytest.mark.parametrize("key", KEYS)
@pytest.mark.parametrize("page", ROW_PAGES)
def test_a_missing_row_on_a_gm_page_is_said_as_the_admin_says_it(
    gm: Client, page: str, key: str
) -> None:
    model = page.split("/")[1]
    assert_said_in_the_admin(gm.get(f"/admin/{page.format(key)}", follow=True), model, key)


@pytest.mark.parametrize("key", KEYS)
@pytest.mark.parametrize("page", ROW_PAGES + BUTTONS)
def test_a_form_sent_for_a_missing_row_is_said_as_the_admin_says_it(
    gm: Client, page: str, key: str
) -> None:
    model = page.split("/")[1]
    assert_said_in_the_admin(gm.post(f"/admin/{page.format(key)}", {}, follow=True), model, key)


@pytest.mark.parametrize("page", ROW_PAGES + BUTTONS)
def test_an_id_that_is_no_number_is_refused_to_a_player(player: Client, page: str) -> None:
    response = player.post(f"/admin/{page.format('abc')}", {})
    assert response.status_code == 302
    assert response.url.startswith("/admin/login/")


@pytest.mark.parametrize("action", ["result", "fight"])
def test_a_battle_that_never_existed_is_said_not_found_not_rolled_back(
    gm: Client, action: str
) -> None:
    """A form sent for a battle no turn ever had (no roll-back removed it): the admin's
    answer for a missing row, not "its turn was rolled back"."""
    _, battles = waiting_campaign()
    never = max(b.pk for b in battles.values()) + 100
    response = gm.post(f"/admin/battles/battle/{never}/{action}/", {}, follow=True)
    assert_said_in_the_admin(response, "battle", str(never))
    assert "rolled back" not in response.content.decode()
    assert set(Battle.objects.values_list("status", flat=True)) == {"pending"}


@pytest.mark.parametrize("action", ["result", "fight"])
def test_a_battle_of_a_deleted_campaign_is_not_said_rolled_back(gm: Client, action: str) -> None:
    """Its campaign deleted, not rolled back: the battle is simply not there."""
    campaign, battles = waiting_campaign()
    battle = battles["1:Korona:1"]
    rollback_to_turn(campaign=campaign, number=1, reason="wrong setup")
    campaign.delete()
    response = gm.post(f"/admin/battles/battle/{battle.pk}/{action}/", {}, follow=True)
    assert_said_in_the_admin(response, "battle", str(battle.pk))


def test_a_battle_removed_by_a_roll_back_undone_since_is_still_said_rolled_back(
    gm: Client,
) -> None:
    """A roll-back to turn 1 undoes an earlier roll-back to turn 3 (its line in the log
    goes with it): the battles that one removed are still known as rolled back."""
    campaign, battles = waiting_campaign()
    for company in campaign.companies.all():
        set_standing_order(company=company, standing_order="aggressive")
    for battle in battles.values():
        fight_battle_now(battle_id=battle.pk)
    advance_turn(campaign_id=campaign.pk)  # turn 2: no battles
    advance_turn(campaign_id=campaign.pk)  # turn 3: its battles wait
    third = Battle.objects.filter(turn__number=3).first()
    assert third is not None
    rollback_to_turn(campaign=campaign, number=3, reason="wrong setup")
    rollback_to_turn(campaign=campaign, number=1, reason="wrong from the start")
    for action in ("result", "fight"):
        response = gm.post(f"/admin/battles/battle/{third.pk}/{action}/", {}, follow=True)
        done = "fought" if action == "fight" else "entered"
        assert messages_of(response) == [
            f"Nothing was {done}: this battle no longer exists (its turn was rolled back "
            "since the page was opened). The battles as they are now are listed below."
        ]


def test_the_result_form_of_a_battle_that_never_existed_says_no_such_battle(gm: Client) -> None:
    waiting_campaign()
    response = gm.get("/admin/battles/battle/999/result/", follow=True)
    assert_said_in_the_admin(response, "battle")
    assert "rolled back" not in response.content.decode()


@pytest.mark.parametrize("key", ["999", "abc"])
def test_the_admins_own_change_page_says_the_same(gm: Client, key: str) -> None:
    response = gm.get(f"/admin/campaign/campaign/{key}/change/", follow=True)
    assert_said_in_the_admin(response, "campaign", key)


@pytest.mark.parametrize("page", ["change", "delete", "history"])
def test_a_third_party_admins_own_pages_say_it_capitalised_too(gm: Client, page: str) -> None:
    response = gm.get(f"/admin/auth/user/999/{page}/", follow=True)
    assert_said_in_the_admin(response, "user")


@pytest.mark.parametrize(
    ("model", "said"),
    [
        ("campaign", "campaign"),
        ("area", "area"),
        ("company", "company"),
        ("ship", "ship"),
        ("airgroup", "air group"),
    ],  # fmt: skip
)
def test_the_history_of_a_missing_row_is_said_as_the_admin_says_it(
    gm: Client, model: str, said: str
) -> None:
    """The walk-through: /admin/campaign/campaign/999/history/ showed the players' "not
    found" page, where every other missing row is said inside the admin."""
    response = gm.get(f"/admin/campaign/{model}/999/history/", follow=True)
    assert_said_in_the_admin(response, said)


def test_the_history_of_an_id_that_is_no_id_is_said_as_the_admin_says_it(gm: Client) -> None:
    response = gm.get("/admin/campaign/company/x/history/", follow=True)
    assert_said_in_the_admin(response, "company", "x")


def test_the_history_of_a_deleted_campaign_is_still_read(gm: Client) -> None:
    campaign, _ = waiting_campaign()
    pk = campaign.pk
    campaign.delete()
    response = gm.get(f"/admin/campaign/campaign/{pk}/history/")
    assert response.status_code == 200
    assert "Korona 1" in response.content.decode()
