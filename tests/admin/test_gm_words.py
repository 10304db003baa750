"""Django's words where the GM reads them, said as Korona says things (a walk-through):
the lists and a row's page by their names, not "Select campaign to change" and "Change
campaign"; a missing reason said as what to give, not "reason: This field is required."."""

from __future__ import annotations

import re
from typing import Any

from django.contrib.auth.models import User
from django.test import Client
from django.utils.html import escape

from battles.web.forces import battle_words
from tests.admin.conftest import new_campaign, waiting_campaign
from tests.admin.test_campaign_admin import url


def heading(page: str) -> tuple[str, str]:
    """The page's <title> (before " | Korona: game master") and its first <h1>."""
    title = re.search(r"<title>(.*?)</title>", page, re.S)
    h1 = re.search(r"<h1>(.*?)</h1>", page, re.S)
    assert title is not None and h1 is not None
    return title[1].split(" | ")[0].strip(), h1[1].strip()


def test_the_lists_and_a_rows_page_are_titled_by_their_names(gm: Client) -> None:
    campaign, battles = waiting_campaign("Kokoda table")
    battle = next(iter(battles.values()))
    turn = campaign.turns.get(number=1)
    pages = {
        "/admin/campaign/campaign/": "Campaigns",
        "/admin/battles/battle/": "Battles",
        "/admin/campaign/turn/": "Turns",
        f"/admin/campaign/campaign/{campaign.pk}/change/": "Campaign: Kokoda table",
        # By who attacks whom, as the Battles list names it ("battle 1 at Korona" told
        # two battles in one area apart by number only).
        f"/admin/battles/battle/{battle.pk}/change/": f"Battle: {escape(battle_words(battle))}",
        f"/admin/campaign/turn/{turn.pk}/change/": "Turn: Kokoda table, turn 1",
    }
    for address, words in pages.items():
        page = gm.get(address).content.decode()
        assert heading(page) == (words, words), address
        django_words = r"Select \w+ to (change|view)|Change campaign|View (turn|battle)"
        assert not re.search(django_words, page)
    # An add page says what it adds.
    assert heading(gm.get("/admin/campaign/membership/add/").content.decode()) == (
        "Add membership", "Add membership",
    )  # fmt: skip


def test_a_missing_reason_is_said_as_what_to_give(gm: Client) -> None:
    campaign = new_campaign()
    page = gm.get(url(campaign, "settings"))
    data = {f.name: f.value() for f in page.context["form"] if f.value() not in (None, False)}
    data["turn_limit"] = "15"
    data.pop("reason", None)
    response = gm.post(url(campaign, "settings"), data)
    assert response.status_code == 200
    page = response.content.decode()
    assert ">Reason</a>: Give a reason for this change." in page
    assert "This field is required" not in page
    # With a setting refused too, both are said on the first Save (a walk-through was
    # asked for the reason only once the other box was right).
    data["turn_limit"] = "0"
    response = gm.post(url(campaign, "settings"), data)
    errors = response.context["form"].errors
    assert errors["turn_limit"] == ["Give a whole number from 1 to 1000."]
    assert errors["reason"] == ["Give a reason for this change."]


# The project's own words for an entry refused, each a sentence as the forms' own are
# ("Give a reason for this change."), never Django's beside them.
DJANGO_WORDS = ("This field is required", "Ensure this value", "Select a valid choice")


def test_enter_result_without_a_winner_says_to_choose_one(gm: Client) -> None:
    _, battles = waiting_campaign()
    battle = next(iter(battles.values()))
    response = gm.post(f"/admin/battles/battle/{battle.pk}/result/", {"winner": ""})
    assert response.context["form"].errors["winner"] == ["Choose the winner from the list."]
    assert not any(words in response.content.decode() for words in DJANGO_WORDS)
    battle.refresh_from_db()
    assert battle.status == "pending"


def test_stands_adjusted_below_none_are_said_in_the_forms_words(gm: Client) -> None:
    campaign = new_campaign()
    company = campaign.companies.get(name="A Company")
    page = f"/admin/campaign/company/{company.pk}/adjust/"
    seen = gm.get(page).context["form"]["seen"].value()
    sent = {"seen": seen, "unit_type": "rifle_squad", "held": "-1", "reason": "r"}
    response = gm.post(page, sent)
    errors = response.context["form"].errors
    assert errors["held"] == ["Give the stands held as a whole number, 0 or more."]
    sent = {**sent, "held": "1", "unit_type": "tank"}
    errors = gm.post(page, sent).context["form"].errors
    assert errors["unit_type"] == ["Choose a type of stand from the list."]
    assert not any(words in response.content.decode() for words in DJANGO_WORDS)
    assert not campaign.adjustments.exists()


def test_a_refusal_from_a_service_is_said_as_a_sentence(gm: Client) -> None:
    """The services word a refusal as a clause ("a campaign named 'Korona 1' exists
    already"); on the GM's form it is a sentence, as the form's own words are."""
    new_campaign("Korona 1")
    response = gm.post("/admin/campaign/campaign/create/", {
        "name": "Korona 1", "battle_mode": "auto", "ruleset": "korona", "kind": "none",
        "timezone": "UTC"})  # fmt: skip
    assert response.context["form"].errors["name"] == [
        "A campaign named 'Korona 1' exists already."
    ]


def test_a_missing_weekday_is_said_as_a_sentence(gm: Client) -> None:
    campaign = new_campaign()
    page = url(campaign, "schedule")
    seen = gm.get(page).context["form"]["seen"].value()
    sent = {"seen": seen, "kind": "weekly", "timezone": "UTC", "reason": "weekly now"}
    errors = gm.post(page, sent).context["form"].errors
    assert errors["weekday"] == ["Give the weekday of the turn."]
    assert errors["time_of_day"] == ["Give the time of the turn."]


def test_the_add_forms_say_a_box_left_empty_in_the_gms_words(gm: Client) -> None:
    """An invitation, a membership, an order, a webhook or a player's preferences added
    with its lists left empty: each box says what to choose, not Django's "This field is
    required." (a walk-through added each so and read Django's words)."""
    campaign = new_campaign()
    expected = {
        "/admin/notifications/invitation/add/": {
            "campaign": "Choose the campaign from the list.",
            "side": "Choose the side from the list.",
        },
        "/admin/campaign/membership/add/": {
            "user": "Choose the user from the list.",
            "campaign": "Choose the campaign from the list.",
            "side": "Choose the side from the list.",
        },
        "/admin/campaign/order/add/": {
            "company": "Choose the company from the list.",
            "kind": "Choose the kind from the list.",
        },
        "/admin/notifications/webhook/add/": {
            "campaign": "Choose the campaign from the list.",
            "url": "Give the URL.",
        },
        "/admin/notifications/preference/add/": {"user": "Choose the user from the list."},
    }
    for address, errors in expected.items():
        response = gm.post(address, {"_save": "Save"})
        assert response.status_code == 200, address
        form_errors = response.context["adminform"].form.errors
        for name, words in errors.items():
            assert form_errors[name] == [words], (address, name)
        assert not any(words in response.content.decode() for words in DJANGO_WORDS), address
    # One no longer there (a page left open while it was deleted): the same words.
    response = gm.post(
        "/admin/notifications/invitation/add/",
        {"campaign": "999999", "side": "nobody", "_save": "Save"},
    )
    form_errors = response.context["adminform"].form.errors
    assert form_errors["campaign"] == ["Choose the campaign from the list."]
    assert form_errors["side"] == ["Choose the side from the list."]
    assert not campaign.invitations.exists()


def test_no_admin_form_or_list_says_an_abbreviation_in_lower_case(gm: Client) -> None:
    """A walk-through read "Give the url." under an empty webhook address, "Url:" beside it
    and "Gm news" among a player's choices: a field's name is said as a word ("URL",
    "Game master's changes"), in the labels, the errors and the lists' headings."""
    from notifications.models import Preference, Webhook

    campaign = new_campaign()
    Webhook.objects.create(campaign=campaign, url="https://discord.example/api/webhooks/1")
    Preference.objects.create(user=User.objects.get(username="gm"))
    pages = [
        "/admin/notifications/webhook/add/",
        "/admin/notifications/preference/add/",
        "/admin/notifications/webhook/",
        "/admin/notifications/preference/",
    ]
    found = []
    for address in pages:
        for answer in (gm.get(address), gm.post(address, {"_save": "Save"})):
            assert answer.status_code == 200, address
            text = re.sub(r"<(script|style)\b.*?</\1>", "", answer.content.decode(), flags=re.S)
            text = re.sub(r"<[^>]+>", " ", text)  # the words shown, not the markup's names
            found += [
                f"{address}: {m[0]}"
                for m in re.finditer(r".{0,30}\b(url|Url|Gm|gm news)\b.{0,30}", text)
            ]
    assert found == []
    errors = gm.post(pages[0], {"_save": "Save"}).content.decode()
    assert "URL:</label>" in errors and "Give the URL." in errors
    choices = gm.get(pages[1]).content.decode()
    assert "Game master&#x27;s changes</label>" in choices
    webhooks = gm.get(pages[2]).content.decode()
    assert re.search(r'column-url">\s*<div class="text"><a [^>]*>URL</a>', webhooks)


def test_the_admins_side_lists_name_each_side_as_the_campaign_does(
    gm: Client, django_user_model: Any
) -> None:
    """The lists, their filters and the boxes to choose a side said "Australian", the
    adjective, where the campaign and every other page say "the Australians"."""
    from campaign.models import Membership
    from notifications.invitations import invite

    campaign = new_campaign()
    assert dict(campaign.sides.values_list("key", "name"))["australian"] == "Australians"
    bill = django_user_model.objects.create_user("bill", password="pw")
    membership = Membership.objects.create(campaign=campaign, user=bill, side="australian")
    invite(campaign=campaign, side="australian")
    pages = [
        "/admin/campaign/membership/",
        f"/admin/campaign/membership/{membership.pk}/change/",
        "/admin/notifications/invitation/",
        "/admin/notifications/invitation/add/",
        "/admin/notifications/webhook/add/",
        "/admin/campaign/company/",
        "/admin/campaign/ship/",
        "/admin/campaign/area/",
        f"/admin/campaign/campaign/{campaign.pk}/change/",
    ]
    for address in pages:
        text = re.sub(
            r"<(script|style)\b.*?</\1>", "", gm.get(address).content.decode(), flags=re.S
        )
        text = re.sub(r"<[^>]+>", " ", text)
        assert "Australians" in text, address
        # "an Australian air group" stays an adjective, before its noun.
        assert not re.search(r"\bAustralian\b(?! air)", text), (address, text)
