"""A GM's reason names what the fog of war hides from a reader: the form asks first.

Every side and spectator reads a GM change's reason word for word (the turns page, the
API, the emails). A walk-through's "The Japanese 3rd Company in Korona was hit by
dysentery" went to the Australians as written; now each GM form whose reason players
read shows the warning, what and to whom, and saves nothing until the GM ticks "Save it
anyway" for that very warning."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.test import Client

from campaign.models import Area, Campaign, Company, CompanyStands, GmAdjustment, SeedCommitment
from campaign.services.fogwords import hidden_in_text
from campaign.services.turns import advance_turn
from tests.admin.conftest import new_campaign, opened
from tests.admin.test_campaign_admin import url
from tests.campaign.conftest import korona_doc

pytestmark = pytest.mark.django_db

DYSENTERY = "The Japanese 3rd Company in Korona was hit by dysentery (house rule)."
WARNING = (
    "Nothing was saved: every side and spectator reads this reason word for word, and it "
    "names the Japanese 3rd Company, which the Australians and spectators do not see. "
    'Change the reason, or tick "Save it anyway" below and save again.'
)


def hidden_fields(response: Any) -> dict[str, str]:
    """What the page sent back sends again unseen (the warning it showed, ``warned``)."""
    found = {}
    for tag in re.findall(r'<input type="hidden"[^>]*>', response.content.decode()):
        name = re.search(r'name="([^"]+)"', tag)
        value = re.search(r'value="([^"]*)"', tag)
        if name and value and name.group(1) != "csrfmiddlewaretoken":
            found[name.group(1)] = html.unescape(value.group(1))
    return found


def rifles(company: Company) -> int:
    return CompanyStands.objects.get(company=company, unit_type="rifle_squad").held


def adjust_third(gm: Client, campaign: Campaign, reason: str, **more: str) -> tuple[Any, str]:
    company = Company.objects.get(campaign=campaign, name="3rd Company")
    address = f"/admin/campaign/company/{company.pk}/adjust/"
    data = {**opened(gm, address), "unit_type": "rifle_squad", "held": "5", "reason": reason}
    return gm.post(address, {**data, **more}), address


def test_a_reason_naming_a_hidden_enemy_company_is_shown_again_and_saves_nothing(
    gm: Client,
) -> None:
    campaign = new_campaign()
    third = Company.objects.get(campaign=campaign, name="3rd Company")
    before = rifles(third)

    response, _ = adjust_third(gm, campaign, DYSENTERY)

    assert response.status_code == 200
    assert list(response.context["form"].errors["reason"]) == [WARNING]
    page = response.content.decode()
    assert "Save it anyway" in page
    assert "I mean every side and spectator to read this reason as written." in page
    assert 'type="checkbox" name="reveal"' in page
    assert DYSENTERY in html.unescape(page)  # the GM's words kept in the box
    assert rifles(third) == before
    assert not GmAdjustment.objects.exists()


def test_ticking_save_it_anyway_saves_the_reason_as_written(gm: Client) -> None:
    campaign = new_campaign()
    asked, address = adjust_third(gm, campaign, DYSENTERY)

    response = gm.post(
        address,
        {
            **hidden_fields(asked),
            "unit_type": "rifle_squad",
            "held": "5",
            "reason": DYSENTERY,
            "reveal": "on",
        },
    )

    assert response.status_code == 302
    line = GmAdjustment.objects.get()
    assert (line.what, line.reason) == ("3rd Company: rifle squads from 9 to 5", DYSENTERY)


def test_a_box_ticked_without_the_warning_being_read_saves_nothing(gm: Client) -> None:
    """The box counts only for the warning the page showed: ticked on a page that showed
    none (sent by hand, or a form from before), it asks first."""
    campaign = new_campaign()

    response, _ = adjust_third(gm, campaign, DYSENTERY, reveal="on")

    assert list(response.context["form"].errors["reason"]) == [WARNING]
    assert 'name="reveal" checked' not in response.content.decode()
    assert not GmAdjustment.objects.exists()


def test_a_reason_changed_after_the_warning_is_asked_about_again(gm: Client) -> None:
    campaign = new_campaign()
    asked, address = adjust_third(gm, campaign, DYSENTERY)

    response = gm.post(
        address,
        {
            **hidden_fields(asked),
            "unit_type": "rifle_squad",
            "held": "5",
            "reason": "Dysentery in Kilu: the Japanese 1st Company and 3rd Company.",
            "reveal": "on",
        },
    )

    assert response.status_code == 200
    [warning] = response.context["form"].errors["reason"]
    assert "the Japanese 1st Company, which the Australians and spectators do not see" in warning
    assert not GmAdjustment.objects.exists()


def test_a_reason_naming_nothing_hidden_saves_at_once(gm: Client) -> None:
    campaign = new_campaign()

    response, _ = adjust_third(gm, campaign, "dysentery (house rule)")

    assert response.status_code == 302
    assert GmAdjustment.objects.get().reason == "dysentery (house rule)"


def test_with_fog_of_war_off_every_company_is_seen_and_nothing_is_asked(gm: Client) -> None:
    campaign = new_campaign(fog_of_war=False)

    response, _ = adjust_third(gm, campaign, DYSENTERY)

    assert response.status_code == 302
    assert GmAdjustment.objects.get().reason == DYSENTERY


def test_a_sides_own_company_is_not_hidden_from_it() -> None:
    """A Company is the Australians': they read its name; the Japanese do not."""
    campaign = new_campaign()

    [found] = hidden_in_text(campaign=campaign, text="A Company lost its mortar.")

    assert found.what == "the Australian A Company"
    assert found.readers == ("the Japanese", "spectators")


@pytest.mark.parametrize(
    "text",
    [
        "a company of engineers repaired the track",  # "a company", not "A Company"
        "The third company of the regiment",  # words, not the name "3rd Company"
        "Kilu flooded: the Australians lose a turn of supply",  # no Australian in Kilu
        "house rule: 2nd edition tables",
        # Not the Japanese "Supply Company": a name of ordinary words keeps its capitals.
        "the Australian supply company ran out of trucks",
        # Where a side's base is, is public: naming it tells nobody who stands there.
        "Kilu is the Japanese base: the track to it is flooded",
    ],
)
def test_ordinary_words_are_not_read_as_a_hidden_fact(text: str) -> None:
    assert hidden_in_text(campaign=new_campaign(), text=text) == []


def test_a_name_is_read_whole_and_in_its_short_form() -> None:
    """ "1st Supply Company" (Australian) is not also the Japanese "Supply Company";
    "C Company" is "C Company (militia)" as a GM writes it."""
    campaign = new_campaign()

    found = hidden_in_text(campaign=campaign, text="1st supply company and c company swapped.")

    assert [item.what for item in found] == [
        "the Australian 1st Supply Company",
        "the Australian C Company (militia)",
    ]


def test_an_enemy_side_named_with_an_area_it_stands_in_unseen_is_a_position() -> None:
    """No company named, but "Japanese ... Munara" tells the Australians the Japanese
    stand in Munara, out of their sight. Oivi, next to Korona, is in their sight: its
    Japanese are glimpsed there, so only the spectators (who see no company) are told."""
    doc = korona_doc()
    for company in doc["companies"]:
        if company["name"] == "3rd Company":
            company["area"] = "Munara"
    campaign = new_campaign(doc=doc)

    [munara] = hidden_in_text(campaign=campaign, text="Japanese in Munara caught fever.")
    [oivi] = hidden_in_text(campaign=campaign, text="japanese in oivi caught fever.")

    assert (munara.what, munara.readers) == (
        "that Japanese companies are in Munara",
        ("the Australians", "spectators"),
    )
    assert (oivi.what, oivi.readers) == ("that Japanese companies are in Oivi", ("spectators",))


def test_control_given_out_of_a_sides_sight_asks_before_naming_the_holder(gm: Client) -> None:
    """Munara is out of the Australians' sight (the Japanese in Oivi, next to it, see it):
    their log says only that who holds it changed; a reason naming the new holder would
    tell them."""
    campaign = new_campaign()
    area = Area.objects.get(campaign=campaign, name="Munara")
    address = f"/admin/campaign/area/{area.pk}/adjust/"

    asked = gm.post(
        address,
        {**opened(gm, address), "controller": "japanese", "reason": "The Japanese marched in."},
    )

    [warning] = asked.context["form"].errors["reason"]
    assert "who holds Munara now (the Japanese), which the Australians and spectators" in warning
    area.refresh_from_db()
    assert area.controller == "australian"
    assert not GmAdjustment.objects.exists()
    plain = gm.post(
        address, {**opened(gm, address), "controller": "japanese", "reason": "a ruling"}
    )
    assert plain.status_code == 302


def test_the_settings_page_asks_first(gm: Client) -> None:
    campaign = new_campaign()
    page = gm.get(url(campaign, "settings"))
    data = {f.name: f.value() for f in page.context["form"] if f.value() not in (None, False)}
    data.update(turn_limit="9", reason="Longer, as the 3rd Company is still in Kilu.")

    asked = gm.post(url(campaign, "settings"), data)

    assert asked.status_code == 200
    [warning] = asked.context["form"].errors["reason"]
    assert "the Japanese 3rd Company, which the Australians and spectators do not see" in warning
    assert 'type="checkbox" name="reveal"' in asked.content.decode()
    campaign.refresh_from_db()
    assert campaign.get_settings().turn_limit != 9
    saved = gm.post(url(campaign, "settings"), {**data, **hidden_fields(asked), "reveal": "on"})
    assert saved.status_code == 302
    campaign.refresh_from_db()
    assert campaign.get_settings().turn_limit == 9


def test_the_schedule_page_asks_first(gm: Client) -> None:
    campaign = new_campaign()
    data = {
        **opened(gm, url(campaign, "schedule")),
        "kind": "every_hours",
        "every_hours": "48",
        "timezone": "UTC",
        "reason": "2nd Company's player is away",
    }

    asked = gm.post(url(campaign, "schedule"), data)

    assert "the Japanese 2nd Company" in asked.context["form"].errors["reason"][0]
    campaign.refresh_from_db()
    assert campaign.schedule_kind != "every_hours"
    saved = gm.post(url(campaign, "schedule"), {**data, **hidden_fields(asked), "reveal": "on"})
    assert saved.status_code == 302
    assert GmAdjustment.objects.get().reason == "2nd Company's player is away"


def test_the_seed_page_asks_first(gm: Client) -> None:
    campaign = new_campaign()
    before = SeedCommitment.objects.get(campaign=campaign, number=1).commitment
    data = {
        **opened(gm, url(campaign, "seed")),
        "seed": "",
        "reason": "the seed leaked to 1st Company's player",
        "confirm": "on",
    }

    asked = gm.post(url(campaign, "seed"), data)

    assert "the Japanese 1st Company" in asked.context["form"].errors["reason"][0]
    assert SeedCommitment.objects.get(campaign=campaign, number=1).commitment == before
    saved = gm.post(url(campaign, "seed"), {**data, **hidden_fields(asked), "reveal": "on"})
    assert saved.status_code == 302


def test_the_roll_back_page_asks_first(gm: Client) -> None:
    campaign = new_campaign()
    advance_turn(campaign_id=campaign.pk)
    advance_turn(campaign_id=campaign.pk)
    data = {
        **opened(gm, url(campaign, "rollback")),
        "number": "2",
        "reason": "3rd Company was given the wrong order",
        "confirm": "on",
    }

    asked = gm.post(url(campaign, "rollback"), data)

    assert "the Japanese 3rd Company" in asked.context["form"].errors["reason"][0]
    campaign.refresh_from_db()
    assert campaign.turn == 2
    saved = gm.post(url(campaign, "rollback"), {**data, **hidden_fields(asked), "reveal": "on"})
    assert saved.status_code == 302
    campaign.refresh_from_db()
    assert campaign.turn == 1
