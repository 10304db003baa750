"""GM adjustments by hand: each needs a reason, leaves a GmAdjustment row (the players'
log) and the changed row's history (who, when, why); through the admin and the service."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from campaign.models import Area, Campaign, Company, CompanyStands, GmAdjustment, Ship
from campaign.services.adjustments import (
    AdjustmentRefused,
    adjust_stands,
    set_control,
    set_ship_present,
)
from campaign.services.turns import advance_turn
from tests.admin.conftest import assert_refused, new_campaign, opened, waiting_campaign
from tests.campaign.conftest import korona_doc

pytestmark = pytest.mark.django_db


def a_company(campaign: Campaign) -> Company:
    return Company.objects.get(campaign=campaign, name="A Company")


def rifles(company: Company) -> CompanyStands:
    return CompanyStands.objects.get(company=company, unit_type="rifle_squad")


def test_adjusting_stands_through_the_admin(gm: Client, gm_user: Any) -> None:
    campaign = new_campaign()
    advance_turn(campaign_id=campaign.pk)
    company = a_company(campaign)
    before = rifles(company).held
    response = gm.post(
        f"/admin/campaign/company/{company.pk}/adjust/",
        {
            **opened(gm, f"/admin/campaign/company/{company.pk}/adjust/"),
            "unit_type": "rifle_squad",
            "held": before - 2,
            "reason": "lost in the post",
        },
    )
    assert response.status_code == 302
    row = rifles(company)
    assert row.held == before - 2
    adjustment = GmAdjustment.objects.get()
    assert adjustment.campaign == campaign
    assert adjustment.before_turn == 2
    assert adjustment.user == gm_user
    assert adjustment.what == f"A Company: rifle squads from {before} to {before - 2}"
    assert adjustment.reason == "lost in the post"
    last = row.history.latest()
    assert (last.held, last.history_user, last.history_change_reason) == (
        before - 2,
        gm_user,
        "lost in the post",
    )
    assert last.prev_record.held == before


def test_an_adjustment_needs_a_reason(gm: Client) -> None:
    company = a_company(new_campaign())
    response = gm.post(
        f"/admin/campaign/company/{company.pk}/adjust/",
        {
            **opened(gm, f"/admin/campaign/company/{company.pk}/adjust/"),
            "unit_type": "rifle_squad",
            "held": 1,
            "reason": "  ",
        },
    )
    assert "reason" in response.context["form"].errors
    with pytest.raises(AdjustmentRefused, match="needs a reason"):
        adjust_stands(company=company, unit_type="rifle_squad", held=1, reason=" ")
    assert GmAdjustment.objects.count() == 0
    assert rifles(company).held == rifles(company).establishment


def test_stands_stay_within_the_establishment(gm: Client) -> None:
    company = a_company(new_campaign())
    full = rifles(company).establishment
    response = gm.post(
        f"/admin/campaign/company/{company.pk}/adjust/",
        {
            **opened(gm, f"/admin/campaign/company/{company.pk}/adjust/"),
            "unit_type": "rifle_squad",
            "held": full + 1,
            "reason": "reinforcements",
        },
    )
    assert f"can hold 0 to {full} rifle squads, not {full + 1}" in str(
        response.context["form"].non_field_errors()
    )
    with pytest.raises(AdjustmentRefused):
        adjust_stands(company=company, unit_type="rifle_squad", held=-1, reason="r")
    with pytest.raises(AdjustmentRefused, match="has no tanks"):
        adjust_stands(company=company, unit_type="tank", held=1, reason="r")
    assert GmAdjustment.objects.count() == 0


def test_an_adjustment_that_changes_nothing_is_refused_and_recorded_nowhere(gm: Client) -> None:
    campaign = new_campaign()
    company = a_company(campaign)
    adjust = f"/admin/campaign/company/{company.pk}/adjust/"
    held = rifles(company).held
    response = gm.post(
        adjust,
        {**opened(gm, adjust), "unit_type": "rifle_squad", "held": held, "reason": "a check"},
    )
    assert response.status_code == 200
    assert list(response.context["form"].non_field_errors()) == [
        f"Nothing changed: A Company already holds {held} rifle squads."
    ]
    korona = Area.objects.get(campaign=campaign, name="Korona")
    with pytest.raises(AdjustmentRefused, match="Nothing changed: Korona is already held by"):
        set_control(area=korona, side=korona.controller, reason="r")
    ship = Ship.objects.filter(campaign=campaign).first()
    assert ship is not None
    with pytest.raises(AdjustmentRefused, match=f"Nothing changed: {ship.name} is already"):
        set_ship_present(ship=ship, present=ship.present, reason="r")
    assert GmAdjustment.objects.count() == 0
    assert rifles(company).history.count() == 1  # its creation only


def test_adjusting_stands_is_refused_to_a_player(player: Client) -> None:
    company = a_company(new_campaign())
    assert_refused(
        player.post(
            f"/admin/campaign/company/{company.pk}/adjust/",
            {"unit_type": "rifle_squad", "held": 1, "reason": "x"},
        )
    )
    assert GmAdjustment.objects.count() == 0


def test_setting_control_through_the_admin(gm: Client, gm_user: Any) -> None:
    campaign = new_campaign()
    area = Area.objects.get(campaign=campaign, name="Korona")
    adjust = f"/admin/campaign/area/{area.pk}/adjust/"
    response = gm.post(adjust, {**opened(gm, adjust), "controller": "japanese", "reason": "ruling"})
    assert response.status_code == 302
    area.refresh_from_db()
    assert area.controller == "japanese"
    adjustment = GmAdjustment.objects.get()
    assert adjustment.what.startswith("Korona: held by ")
    assert area.history.latest().history_user == gm_user
    gm.post(
        f"/admin/campaign/area/{area.pk}/adjust/",
        {
            **opened(gm, f"/admin/campaign/area/{area.pk}/adjust/"),
            "controller": "",
            "reason": "undo",
        },
    )
    area.refresh_from_db()
    assert area.controller is None
    assert GmAdjustment.objects.count() == 2


def test_setting_control_is_refused_to_a_player(player: Client) -> None:
    area = Area.objects.get(campaign=new_campaign(), name="Korona")
    before = area.controller
    assert_refused(
        player.post(f"/admin/campaign/area/{area.pk}/adjust/", {"controller": "japanese"})
    )
    area.refresh_from_db()
    assert area.controller == before


def test_control_goes_to_a_side_or_nobody() -> None:
    area = Area.objects.get(campaign=new_campaign(), name="Korona")
    with pytest.raises(AdjustmentRefused, match="is not a side"):
        set_control(area=area, side="american", reason="r")


def test_sending_a_ship_away_through_the_admin(gm: Client) -> None:
    ship = Ship.objects.filter(campaign=new_campaign()).first()
    assert ship.present
    response = gm.post(
        f"/admin/campaign/ship/{ship.pk}/adjust/",
        {**opened(gm, f"/admin/campaign/ship/{ship.pk}/adjust/"), "reason": "storm"},
    )
    assert response.status_code == 302
    ship.refresh_from_db()
    assert not ship.present
    assert GmAdjustment.objects.get().what == f"{ship.name}: away"
    assert ship.history.latest().history_change_reason == "storm"


def test_ship_adjustment_is_refused_to_a_player(player: Client) -> None:
    ship = Ship.objects.filter(campaign=new_campaign()).first()
    assert_refused(player.post(f"/admin/campaign/ship/{ship.pk}/adjust/", {"reason": "x"}))
    ship.refresh_from_db()
    assert ship.present


def test_a_finished_campaign_takes_no_adjustment() -> None:
    doc = korona_doc()
    doc.update(finished=True, winner="japanese", end_reason="base_taken")
    campaign = new_campaign(doc=doc)
    ship = Ship.objects.filter(campaign=campaign).first()
    with pytest.raises(AdjustmentRefused, match="has ended"):
        set_ship_present(ship=ship, present=False, reason="r")


def test_adjustments_are_listed_read_only_on_the_campaign_page(gm: Client) -> None:
    campaign = new_campaign()
    set_control(area=Area.objects.get(campaign=campaign, name="Korona"), side=None, reason="r1")
    page = gm.get(f"/admin/campaign/campaign/{campaign.pk}/change/").content.decode()
    assert "Korona: held by" in page and "r1" in page
    assert gm.get(f"/admin/campaign/gmadjustment/{GmAdjustment.objects.get().pk}/change/")


def test_a_turn_writes_no_history_rows() -> None:
    campaign = new_campaign()
    company = a_company(campaign)
    rows = company.history.count()
    advance_turn(campaign_id=campaign.pk)
    assert company.history.count() == rows


def test_a_change_made_while_the_turn_waits_for_its_battles_reads_as_during_that_turn(
    gm: Client,
) -> None:
    campaign, _ = waiting_campaign()  # turn 1 rolled, waiting for its tabletop battles
    set_control(area=campaign.areas.get(name="Ioro"), side=None, reason="villagers rose")
    line = "Ioro: held by the Australian side, now by nobody"

    turn_page = gm.get(reverse("turn", args=[campaign.pk, 1])).content.decode()
    assert "Before the turn: the game master" not in turn_page
    assert "During turn 1, after its dice were rolled: the game master" in turn_page
    assert "they count from turn 2" in turn_page and line in turn_page
    turns_page = gm.get(reverse("turns", args=[campaign.pk])).content.decode()
    assert "Before this turn, the game master" not in turns_page
    assert (
        "During this turn, after its dice were rolled, the game master (counting from turn 2)"
        in turns_page
    )

    admin_list = gm.get("/admin/campaign/gmadjustment/").content.decode()
    assert "during turn 1, after its dice were rolled (counts from turn 2)" in admin_list
    assert "before turn 1" not in admin_list
    campaign_page = gm.get(f"/admin/campaign/campaign/{campaign.pk}/change/").content.decode()
    assert "during turn 1, after its dice were rolled" in campaign_page


def test_a_change_made_before_the_turn_reads_as_before_it(gm: Client) -> None:
    campaign = new_campaign()
    set_control(area=campaign.areas.get(name="Ioro"), side=None, reason="villagers rose")
    advance_turn(campaign_id=campaign.pk)
    turn_page = gm.get(reverse("turn", args=[campaign.pk, 1])).content.decode()
    assert "Before the turn: the game master" in turn_page and "During turn 1" not in turn_page
    assert "before turn 1" in gm.get("/admin/campaign/gmadjustment/").content.decode()


def test_the_gm_adjustments_list_shows_the_newest_first(gm: Client) -> None:
    campaign = new_campaign()
    set_control(area=campaign.areas.get(name="Ioro"), side=None, reason="first change")
    set_control(area=campaign.areas.get(name="Ioro"), side="japanese", reason="second change")
    page = gm.get("/admin/campaign/gmadjustment/").content.decode()
    assert page.index("second change") < page.index("first change")
