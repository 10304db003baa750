"""Orders and standing orders in the GM's admin, through give_order and
set_standing_order; turns, their logs and orders of past turns are read-only."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.test import Client

from campaign.models import Area, Company, Order, Turn
from campaign.services.turns import advance_turn
from tests.admin.conftest import assert_refused, new_campaign, waiting_campaign

pytestmark = pytest.mark.django_db

ADD = "/admin/campaign/order/add/"


def company(campaign: Any, name: str) -> Company:
    return Company.objects.get(campaign=campaign, name=name)


def area(campaign: Any, name: str) -> Area:
    return Area.objects.get(campaign=campaign, name=name)


def test_the_gm_gives_an_order(gm: Client, gm_user: Any) -> None:
    campaign = new_campaign()
    third = company(campaign, "3rd Company")
    response = gm.post(
        ADD, {"company": third.pk, "kind": "advance", "target": area(campaign, "Oivi").pk}
    )
    assert response.status_code == 302
    order = Order.objects.get()
    assert (order.company, order.turn_number, order.kind, order.target.name) == (
        third,
        1,
        "advance",
        "Oivi",
    )
    assert order.given_by == gm_user


def test_the_order_form_offers_only_campaigns_still_played_each_named(gm: Client) -> None:
    playing = new_campaign("Korona 1")
    ended = new_campaign("Korona 2")
    ended.status = "finished"
    ended.save()
    page = gm.get(ADD).content.decode()
    assert "Korona 1 · A Company (Australians, in Korona)" in page
    assert '<optgroup label="Korona 1">' in page and "Oivi" in target_choices(page)
    assert "Korona 2 ·" not in page and '<optgroup label="Korona 2">' not in page
    narrowed = gm.get(f"{ADD}?campaign={playing.pk}").content.decode()
    assert "Korona 1 · A Company" in narrowed
    other = new_campaign("Korona 3")
    assert "Korona 3 ·" not in gm.get(f"{ADD}?campaign={playing.pk}").content.decode()
    assert "Korona 3 · A Company" in gm.get(f"{ADD}?campaign={other.pk}").content.decode()
    # The target says what it is for (it had no help at all), and which it accepts.
    assert "Advance or withdraw: the area the company moves to" in page
    assert "Only an area linked to the company's own is accepted" in page


def target_choices(page: str) -> list[str]:
    """The labels of the order form's Target list."""
    select = re.search(r'<select name="target"[^>]*>(.*?)</select>', page, re.S)
    assert select is not None
    return [
        html.unescape(label)
        for label in re.findall(r"<option[^>]*>([^<]*)</option>", select.group(1))
    ]


def target_groups(page: str) -> dict[str, list[str]]:
    """The order form's Target list, each campaign's group of areas by its name."""
    return {
        label: [html.unescape(a) for a in re.findall(r"<option[^>]*>([^<]*)</option>", body)]
        for label, body in re.findall(r'<optgroup label="([^"]*)">(.*?)</optgroup>', page, re.S)
    }


def test_the_targets_are_grouped_by_campaign_until_the_company_is_known(gm: Client) -> None:
    """A walk-through's Target list gave every area of every campaign in one list."""
    campaign = new_campaign("Korona 1")
    new_campaign("Kokoda table")
    groups = target_groups(gm.get(ADD).content.decode())
    names = list(Area.objects.filter(campaign=campaign).order_by("zone", "name"))
    assert groups == {
        "Kokoda table": [a.name for a in names],
        "Korona 1": [a.name for a in names],
    }


def test_a_known_company_narrows_the_targets_to_the_areas_linked_to_its_own(
    gm: Client,
) -> None:
    """The walk-through's Target list mixed every campaign's areas ("Korona · Korona"),
    and "Kilu is not linked to Korona" came only once saved."""
    campaign = new_campaign("Korona 1")
    new_campaign("Kokoda table")
    third = company(campaign, "3rd Company")  # in Kilu, linked to Oivi alone
    page = gm.get(f"{ADD}?company={third.pk}").content.decode()
    assert target_choices(page) == ["---------", "Oivi"]
    assert "<optgroup" not in page.split('name="target"')[1].split("</select>")[0]
    in_korona = company(campaign, "A Company")
    page = gm.get(f"{ADD}?company={in_korona.pk}").content.decode()
    assert target_choices(page) == ["---------", "Isura", "Oivi"]  # by zone
    # Choosing a company asks for the page with it, for its Target list (htmx).
    assert 'hx-get="/admin/campaign/order/add/"' in page and 'hx-select="#id_target"' in page
    assert "campaign/htmx-2.0.11.min.js" in page


def test_a_target_of_another_campaign_is_refused(gm: Client) -> None:
    campaign = new_campaign("Korona 1")
    other = new_campaign("Kokoda table")
    third = company(campaign, "3rd Company")
    response = gm.post(
        ADD, {"company": third.pk, "kind": "advance", "target": area(other, "Oivi").pk}
    )
    assert response.status_code == 200
    assert (
        "That area is not on the map of Korona 1, the campaign of 3rd Company"
        in response.content.decode()
    )
    assert target_choices(response.content.decode())[1:] == ["Oivi"]
    assert not Order.objects.exists()


def test_an_orders_page_opens_read_only(gm: Client) -> None:
    """ "Save and view" leads there: the form, left with no field to offer, ended in a
    server error (a KeyError on its company)."""
    campaign = new_campaign("Korona 1")
    gm.post(ADD, {"company": company(campaign, "3rd Company").pk, "kind": "hold"})
    page = gm.get(f"/admin/campaign/order/{Order.objects.get().pk}/change/")
    assert page.status_code == 200
    assert '<div class="readonly"><a href="/admin/campaign/company/' in page.content.decode()


def test_an_area_not_linked_is_refused_on_the_target_with_the_reason(gm: Client) -> None:
    campaign = new_campaign("Korona 1")
    third = company(campaign, "3rd Company")
    response = gm.post(
        ADD, {"company": third.pk, "kind": "advance", "target": area(campaign, "Korona").pk}
    )
    assert response.status_code == 200
    problems = response.context["adminform"].form.errors["target"]
    assert problems == [
        "Korona is not linked to Kilu, where 3rd Company is: choose one of the list."
    ]
    assert not Order.objects.exists()


def test_a_hold_with_a_target_is_given_without_it_and_says_so(gm: Client) -> None:
    """It was refused: "a hold order names no area"."""
    campaign = new_campaign("Korona 1")
    third = company(campaign, "3rd Company")
    response = gm.post(
        ADD,
        {"company": third.pk, "kind": "hold", "target": area(campaign, "Oivi").pk},
        follow=True,
    )
    order = Order.objects.get()
    assert (order.kind, order.target) == ("hold", None)
    said = [str(m) for m in response.context["messages"]]
    assert said == [
        "Korona 1: the order “3rd Company: hold (turn 1)” is given. A hold names no area: "
        "the target you chose (Oivi) was left out."
    ]


def test_the_order_given_is_said_with_its_campaign(gm: Client) -> None:
    """Every campaign has its "A Company": Django's "The order “A Company: hold (turn 1)”
    was added successfully." did not say which."""
    new_campaign("Korona 1")
    campaign = new_campaign("Korona 2")
    third = company(campaign, "3rd Company")
    for button in ("_save", "_addanother", "_continue"):
        response = gm.post(
            ADD,
            {
                "company": third.pk,
                "kind": "advance",
                "target": area(campaign, "Oivi").pk,
                button: "1",
            },
            follow=True,
        )
        said = [str(m) for m in response.context["messages"]]
        assert "Korona 2: the order “3rd Company: advance to Oivi (turn 1)” is given." in said
        assert not any("added successfully" in m for m in said), said


def company_problems(response: Any) -> list[str]:
    assert response.status_code == 200
    return list(response.context["adminform"].form.errors.get("company", []))


def test_a_company_of_an_ended_campaign_is_refused_with_the_reason(gm: Client) -> None:
    """Django's "Select a valid choice. That choice is not one of the available
    choices." said nothing of why (the campaign ended while the page was open, say)."""
    ended = new_campaign("Korona 2")
    ended.status = "finished"
    ended.save()
    response = gm.post(ADD, {"company": company(ended, "A Company").pk, "kind": "hold"})
    assert company_problems(response) == ["Korona 2 has ended: its companies take no more orders."]
    assert "Select a valid choice" not in response.content.decode()
    assert not Order.objects.exists()


def test_an_area_of_an_ended_campaign_is_refused_with_the_reason(gm: Client) -> None:
    new_campaign("Korona 1")
    ended = new_campaign("Korona 2")
    ended.status = "finished"
    ended.save()
    data = {"company": company(ended, "A Company").pk, "kind": "advance"}
    response = gm.post(ADD, {**data, "target": area(ended, "Oivi").pk})
    problems = response.context["adminform"].form.errors
    assert list(problems["target"]) == ["Korona 2 has ended: no order moves to its areas."]
    assert "Select a valid choice" not in response.content.decode()
    assert not Order.objects.exists()


def test_a_company_gone_from_the_game_is_refused_with_the_reason(gm: Client) -> None:
    campaign = new_campaign()
    gone = company(campaign, "A Company")
    pk = gone.pk
    gone.delete()
    response = gm.post(ADD, {"company": pk, "kind": "hold"})
    assert company_problems(response) == [
        "That company is no longer in any campaign: choose one of the list."
    ]
    assert not Order.objects.exists()


def test_a_new_order_replaces_the_old(gm: Client) -> None:
    campaign = new_campaign()
    third = company(campaign, "3rd Company")
    gm.post(ADD, {"company": third.pk, "kind": "advance", "target": area(campaign, "Oivi").pk})
    gm.post(ADD, {"company": third.pk, "kind": "hold"})
    assert list(Order.objects.values_list("kind", flat=True)) == ["hold"]


def test_a_new_order_says_which_earlier_order_it_replaced(gm: Client) -> None:
    campaign = new_campaign()
    third = company(campaign, "3rd Company")
    first = gm.post(
        ADD,
        {"company": third.pk, "kind": "advance", "target": area(campaign, "Oivi").pk},
        follow=True,
    )
    assert not any("replaced" in str(m) for m in first.context["messages"])
    second = gm.post(ADD, {"company": third.pk, "kind": "hold"}, follow=True)
    said = [str(m) for m in second.context["messages"]]
    assert (
        "This order replaced the earlier order “3rd Company: advance to Oivi (turn 1)”, "
        "given by gm: a company has one order a turn." in said
    )


def test_an_order_the_rules_refuse_is_a_form_error(gm: Client) -> None:
    campaign = new_campaign()
    third = company(campaign, "3rd Company")
    # Oivi is linked to Kilu, but farther from the Japanese base.
    response = gm.post(
        ADD, {"company": third.pk, "kind": "withdraw", "target": area(campaign, "Oivi").pk}
    )
    assert response.status_code == 200
    assert response.context["adminform"].form.non_field_errors() == [
        "Oivi is not closer to 3rd Company's base: that is not a withdrawal."
    ]
    assert Order.objects.count() == 0


def test_no_order_while_a_turn_waits_for_its_battles(gm: Client) -> None:
    campaign, _ = waiting_campaign()
    response = gm.post(ADD, {"company": company(campaign, "3rd Company").pk, "kind": "hold"})
    assert "waiting for its tabletop battles" in str(
        response.context["adminform"].form.non_field_errors()
    )


def test_giving_an_order_is_refused_to_a_player(player: Client) -> None:
    campaign = new_campaign()
    assert_refused(player.post(ADD, {"company": company(campaign, "3rd Company").pk}))
    assert Order.objects.count() == 0


def test_cancel_the_order_action(gm: Client) -> None:
    """Named "Cancel the order", not "Withdraw": withdraw is an order's kind (a retreat)."""
    campaign = new_campaign()
    gm.post(ADD, {"company": company(campaign, "3rd Company").pk, "kind": "hold"})
    listed = gm.get("/admin/campaign/order/").content.decode()
    assert "Cancel the order (the company follows its standing order)" in listed
    assert "Withdraw" not in listed
    response = gm.post(
        "/admin/campaign/order/",
        {"action": "cancel_order", "_selected_action": [Order.objects.get().pk]},
        follow=True,
    )
    assert Order.objects.count() == 0
    said = [str(m) for m in response.context["messages"]]
    assert said == [
        "3rd Company: hold (turn 1): cancelled; the company follows its standing order."
    ]


def test_standing_order_actions(gm: Client) -> None:
    campaign = new_campaign()
    ids = list(Company.objects.filter(campaign=campaign).values_list("pk", flat=True)[:3])
    gm.post(
        "/admin/campaign/company/",
        {"action": "standing_order_aggressive", "_selected_action": ids},
    )
    assert set(Company.objects.filter(pk__in=ids).values_list("standing_order", flat=True)) == {
        "aggressive"
    }
    gm.post("/admin/campaign/company/", {"action": "standing_order_hold", "_selected_action": ids})
    assert set(Company.objects.filter(pk__in=ids).values_list("standing_order", flat=True)) == {
        "hold"
    }
    gm.post(
        "/admin/campaign/company/", {"action": "standing_order_sensible", "_selected_action": ids}
    )
    assert set(Company.objects.filter(pk__in=ids).values_list("standing_order", flat=True)) == {
        "sensible"
    }


def test_a_standing_order_action_says_what_it_did_in_words(gm: Client) -> None:
    """Not "1 companies now hold." (a walk-through)."""
    campaign = new_campaign()
    company = Company.objects.get(campaign=campaign, name="A Company")
    page = gm.post(
        "/admin/campaign/company/",
        {"action": "standing_order_hold", "_selected_action": [company.pk]},
        follow=True,
    ).content.decode()
    assert "A Company: standing order now hold." in page
    ids = list(Company.objects.filter(campaign=campaign).values_list("pk", flat=True)[:3])
    page = gm.post(
        "/admin/campaign/company/",
        {"action": "standing_order_aggressive", "_selected_action": ids},
        follow=True,
    ).content.decode()
    assert "3 companies: standing order now aggressive." in page


def test_standing_order_action_is_refused_to_a_player(player: Client) -> None:
    campaign = new_campaign()
    ids = list(Company.objects.filter(campaign=campaign).values_list("pk", flat=True))
    assert_refused(
        player.post(
            "/admin/campaign/company/",
            {"action": "standing_order_aggressive", "_selected_action": ids},
        )
    )
    assert not Company.objects.filter(standing_order="aggressive").exists()


def test_a_turn_is_read_only_with_its_log_in_words(gm: Client) -> None:
    campaign = new_campaign()
    advance_turn(campaign_id=campaign.pk)
    turn = Turn.objects.get()
    response = gm.get(f"/admin/campaign/turn/{turn.pk}/change/")
    page = response.content.decode()
    said = turn.log[0]["text"]  # "naval events: rolled 2, ...", read from a capital
    assert said[0].upper() + said[1:] in page
    assert 'name="_save"' not in page
    # The players' page of the turn (by phase, with its battles) is one click away, and
    # opens for the GM.
    link = f'href="/campaigns/{campaign.pk}/turns/1/"'
    assert link in page and "its rolls by phase, and its battles" in page
    assert gm.get(f"/campaigns/{campaign.pk}/turns/1/").status_code == 200
    before = turn.status
    gm.post(f"/admin/campaign/turn/{turn.pk}/change/", {"status": "failed"})
    assert Turn.objects.get().status == before


def test_a_failure_reason_is_shown_only_on_a_turn_that_failed(gm: Client) -> None:
    campaign = new_campaign()
    advance_turn(campaign_id=campaign.pk)
    done = Turn.objects.get()
    page = gm.get(f"/admin/campaign/turn/{done.pk}/change/").content.decode()
    assert "Failure reason" not in page
    failed = Turn.objects.create(
        campaign=campaign, number=2, seed=1, status=Turn.Status.FAILED,
        failure_reason="database went away mid-turn",
    )  # fmt: skip
    page = gm.get(f"/admin/campaign/turn/{failed.pk}/change/").content.decode()
    assert "Failure reason" in page and "database went away mid-turn" in page


def test_company_and_area_pages_show_their_inlines(gm: Client) -> None:
    campaign = new_campaign()
    a = company(campaign, "A Company")
    page = gm.get(f"/admin/campaign/company/{a.pk}/change/").content.decode()
    assert "rifle squads" in page and "Adjust (with a reason)" in page
    assert "rifle_squad" not in page
    korona = area(campaign, a.area.name)
    page = gm.get(f"/admin/campaign/area/{korona.pk}/change/").content.decode()
    assert "companies in the area" in page.lower() and "A Company" in page


def test_the_order_form_sets_the_sniper_option(gm: Client) -> None:
    campaign = new_campaign()
    a = company(campaign, "A Company")
    response = gm.post(ADD, {"company": a.pk, "kind": "hold", "sniper": "on"})
    assert response.status_code == 302
    assert Order.objects.get().sniper is True
    gm.post(ADD, {"company": a.pk, "kind": "hold"})  # a new order, unticked: none
    assert Order.objects.get().sniper is False


def test_banzai_is_shown_in_words_on_japanese_companies_only(gm: Client) -> None:
    campaign = new_campaign()
    japanese = company(campaign, "1st Company")
    page = gm.get(f"/admin/campaign/company/{japanese.pk}/change/").content.decode()
    assert "Banzai!" in page and "counts as in supply next turn whatever its roll" in page
    page = gm.get(f"/admin/campaign/company/{company(campaign, 'A Company').pk}/change/")
    assert "Banzai" not in page.content.decode()


def test_an_advance_with_no_target_says_so_in_plain_words_only(gm: Client) -> None:
    """The rules' refusal alone: not the database's constraint repeating it."""
    campaign = new_campaign()
    response = gm.post(ADD, {"company": company(campaign, "3rd Company").pk, "kind": "advance"})
    assert response.status_code == 200
    errors = response.context["adminform"].form.non_field_errors()
    assert len(errors) == 1, errors
    assert "Constraint" not in response.content.decode()
    assert Order.objects.count() == 0
