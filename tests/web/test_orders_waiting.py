"""The orders page, the company page and the ready box while a turn waits for its
tabletop results: the turn is under way (its supply rolled, its companies moved), its
battles are at the table, and the next turn's orders are not open yet."""

from __future__ import annotations

import html
import re
from datetime import time, timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from battles.models import Battle
from campaign.models import Campaign
from campaign.services.campaigns import set_paused
from campaign.services.deadlines import Schedule, moment_words, next_deadline_after
from campaign.services.schedule import set_schedule
from campaign.services.turns import advance_turn, give_order
from tests.admin.conftest import new_campaign
from tests.web.conftest import join, meeting_doc


def words(response: Any) -> str:
    """The words of the page's main part, tags, styles and scripts taken out."""
    assert response.status_code == 200
    body = response.content.decode().split("<main", 1)[-1]
    body = re.sub(r"<(style|script)[^>]*>.*?</\1>", " ", body, flags=re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", body)).replace(" .", ".").replace(" ,", ",")


def said(response: Any) -> str:
    """``words``, its escaped quotes read back ("turn 2's") and no space before a colon
    after a tag ("19:00 AEDT</time>: if none")."""
    return html.unescape(words(response)).replace(" :", ":")


def waiting(aussie: Any, battle_mode: str = "tabletop") -> Campaign:
    """Korona at the table: C Company ordered to advance to Korona in turn 1, whose two
    battles at Korona then wait for the game master. ``battle_mode`` "auto": they wait
    for the workers instead (``defer_battles``)."""
    campaign = new_campaign("Korona 1", doc=meeting_doc(), battle_mode=battle_mode)
    join(aussie, campaign, "australian")
    give_order(
        company=campaign.companies.get(name="C Company (militia)"),
        kind="advance",
        target=campaign.areas.get(name="Korona"),
    )
    advance_turn(campaign_id=campaign.pk, defer_battles=battle_mode == "auto")
    return campaign


def test_the_orders_page_says_turn_1_is_under_way_at_the_table(
    db: Any, aussie: Any, login: Any
) -> None:
    campaign = waiting(aussie)
    page = words(login(aussie).get(f"/campaigns/{campaign.pk}/orders/"))
    # What was false: the turn under way read as the coming one.
    assert "Orders for turn 1" not in page
    assert "in supply in turn 0" not in page
    assert "supply will be rolled again at the start of turn 1" not in page
    assert "Turn 1: advance to Korona" not in page and "Turn 1: no order given" not in page
    assert "Turn 1's supply roll" not in page
    assert "No deadline: the turn is played" not in page
    assert "not ready yet" not in page
    # What is true.
    # No order is open while it waits: the heading said "Orders for turn 2: Australians".
    assert "Orders for turn 2: Australians" not in page
    assert "Turn 1 waits for its battles at the table: Australians" in page
    assert "Turn 1 is under way." in page
    # The campaign's length as the map says it: the turn under way, not "Turn 1 of 20"
    # beside "Orders for turn 2" as if it were the coming one.
    assert "Turn 1 of 20 is under way." in page
    assert (
        "its battles are being fought at the table: Korona (battle 1) — waiting for the game "
        "master, Korona (battle 2) — waiting for the game master." in page
    )
    assert "Orders for turn 2 open when the game master has entered the results." in page
    # A Company's turn 1 roll was 2 against 4 (the turn's log); C Company moved to Korona.
    assert "out of supply in turn 1 · supply will be rolled again at the start of turn 2" in page
    assert re.search(
        r"C Company \(militia\) fighting · raw · 12 of 12 stands · in supply in turn 1 · "
        r"supply will be rolled again at the start of turn 2 In Korona\.",
        page,
    ), page
    assert "Orders for turn 2 are not open yet: turn 1 ends when the game master" in page


def test_a_scheduled_campaign_waiting_promises_no_deadline_it_will_not_keep(
    db: Any, aussie: Any, login: Any
) -> None:
    campaign = waiting(aussie)
    # The deadline turn 1 was played at has passed; the next counts from the turn's end.
    Campaign.objects.filter(pk=campaign.pk).update(
        schedule_kind="every_hours",
        every_hours=24,
        next_deadline=timezone.now() - timedelta(hours=1),
    )
    page = said(login(aussie).get(f"/campaigns/{campaign.pk}/orders/"))
    assert "The turn is due now" not in page and "Next deadline" not in page
    assert "The deadline for turn 2 will be 24 hours after turn 1 ends." in page


def test_the_company_page_promises_no_roll_as_things_stand_while_its_turn_waits(
    db: Any, aussie: Any, login: Any
) -> None:
    campaign = waiting(aussie)
    a = campaign.companies.get(name="A Company").pk
    page = words(login(aussie).get(f"/campaigns/{campaign.pk}/companies/{a}/"))
    assert "supply roll, as things stand" not in page
    assert "supply roll 2 against distance 4 to Port Murray" in page  # turn 1's, as rolled


def test_a_battle_waiting_for_the_game_master_is_marked_without_two_brackets_in_a_row(
    db: Any, aussie: Any, login: Any
) -> None:
    """ "Korona (battle 1) (waiting for the game master)" read as two asides; the turn
    pages and the orders page mark a waiting battle the same way, after a dash."""
    campaign = waiting(aussie)
    client = login(aussie)
    marked = (
        "Korona (battle 1) — waiting for the game master, "
        "Korona (battle 2) — waiting for the game master"
    )
    for url in ("orders/", "turns/", "turns/1/"):
        page = words(client.get(f"/campaigns/{campaign.pk}/{url}"))
        assert marked in page, url
        assert ") (" not in page, url


def test_a_battle_fought_by_the_workers_waits_for_its_result_not_the_game_master(
    db: Any, aussie: Any, login: Any
) -> None:
    """Battles fought by the rules on a worker (``defer_battles``) wait a moment for their
    result; nobody waits for the game master, on the turn pages as on the orders page."""
    campaign = waiting(aussie, battle_mode="auto")
    client = login(aussie)
    for url in ("orders/", "turns/", "turns/1/"):
        page = words(client.get(f"/campaigns/{campaign.pk}/{url}"))
        assert "Korona (battle 1) — waiting for its result" in page, url
        assert "waiting for the game master" not in page, url
        assert "at the table" not in page, url
    orders = words(client.get(f"/campaigns/{campaign.pk}/orders/"))
    assert "Turn 1 waits for its battles: Australians" in orders


def test_a_paused_campaign_whose_turn_waits_says_the_turn_waits_and_the_pause_holds_the_next(
    db: Any, aussie: Any, login: Any
) -> None:
    """Paused while its turn waits for its tabletop results, the map and the campaigns
    list said only "no turn is played when every side is ready until they resume it"
    (no side could be ready: the turn under way waits for the game master's results),
    and the orders page promised the next deadline "set then", which a pause does not
    count down."""
    campaign = waiting(aussie)
    set_schedule(campaign=campaign, kind="every_hours", every_hours=24)
    Campaign.objects.filter(pk=campaign.pk).update(next_deadline=None)
    set_paused(campaign=campaign, paused=True, reason="holidays")
    client = login(aussie)
    held = (
        "The game master has paused the campaign: turn 2 is not played until they resume it, "
        "though they may play it by hand."
    )
    waits = (
        "Turn 1 waits for its battles to be fought on the table: it ends when the game master "
        "has entered their results."
    )
    for url in (f"/campaigns/{campaign.pk}/", "/campaigns/"):
        page = words(client.get(url))
        assert f"{waits} {held}" in page, url
        assert "when every side is ready" not in page and "none until" not in page, url
    page = words(client.get(f"/campaigns/{campaign.pk}/orders/"))
    assert (
        "Orders for turn 2 are not open yet: turn 1 ends when the game master has entered its "
        "battles' results. The campaign is paused: turn 2 is not played until the game master "
        "resumes it, though they may play it by hand." in page
    )
    assert "The deadline for turn 2" not in page


def test_a_battle_whose_result_is_in_is_told_apart_from_one_still_waiting(
    db: Any, aussie: Any, login: Any
) -> None:
    """The walk's turn page, battle 1's result in: "Korona (battle 1), Korona (battle 2)
    — waiting for the game master" read as if both still waited."""
    from battles.models import Battle
    from battles.services.results import enter_battle_result

    campaign = waiting(aussie)
    first = Battle.objects.filter(campaign=campaign).order_by("id").first()
    enter_battle_result(battle_id=first.pk, winner="defender", losses={})
    client = login(aussie)
    marked = "Korona (battle 1) — result in, Korona (battle 2) — waiting for the game master"
    for url in ("orders/", "turns/", "turns/1/"):
        page = words(client.get(f"/campaigns/{campaign.pk}/{url}"))
        assert marked in page, (url, page)


def test_a_turn_whose_battles_are_all_in_marks_none(db: Any, aussie: Any, login: Any) -> None:
    """Once no battle of the turn waits, none is marked "result in": every one is."""
    from battles.models import Battle
    from battles.services.results import enter_battle_result

    campaign = waiting(aussie)
    for battle in Battle.objects.filter(campaign=campaign).order_by("id"):
        enter_battle_result(battle_id=battle.pk, winner="defender", losses={})
    client = login(aussie)
    for url in ("turns/", "turns/1/"):
        page = words(client.get(f"/campaigns/{campaign.pk}/{url}"))
        assert "Korona (battle 1), Korona (battle 2)" in page, url
        assert "result in" not in page and "waiting for" not in page, url


def scheduled_waiting(aussie: Any, kind: str, unentered: str = "wait") -> Campaign:
    """Korona at the table as ``waiting`` makes it, on a schedule of ``kind`` (none, every
    24 hours, or every Friday at 19:00 in Sydney, the walk's) set before turn 1, so its
    battles have that schedule's deadline; ``unentered``: what becomes of a battle with
    no result by then."""
    campaign = new_campaign(
        f"Korona {kind}", doc=meeting_doc(), battle_mode="tabletop", unentered_tabletop=unentered
    )
    join(aussie, campaign, "australian")
    if kind == "every_hours":
        set_schedule(campaign=campaign, kind=kind, every_hours=24, timezone="Australia/Sydney")
    elif kind == "weekly":
        set_schedule(
            campaign=campaign,
            kind=kind,
            weekday=4,
            time_of_day=time(19, 0),
            timezone="Australia/Sydney",
        )
    advance_turn(campaign_id=campaign.pk)
    return campaign


def test_the_orders_page_says_when_the_next_deadline_will_be_on_each_schedule(
    db: Any, aussie: Any, login: Any
) -> None:
    """The walk's weekly campaign read "The deadline for turn 4 is set then, counted from
    the end of turn 3" while turns 2 to 5 were all due on the same Friday at 19:00: the
    end of the turn counts it only to the schedule's next weekday and time."""
    pages = {}
    for kind in ("none", "every_hours", "weekly"):
        campaign = scheduled_waiting(aussie, kind)
        page = said(login(aussie).get(f"/campaigns/{campaign.pk}/orders/"))
        assert "counted from the end" not in page and "is set then" not in page, kind
        friday = next_deadline_after(Schedule.of(campaign), timezone.now())
        pages[kind] = (page, friday)
    assert "The deadline for turn 2" not in pages["none"][0]
    assert "The deadline for turn 2 will be 24 hours after turn 1 ends." in pages["every_hours"][0]
    page, friday = pages["weekly"]
    assert friday is not None
    assert (
        "The deadline for turn 2 will be the first Friday at 19:00 (Australia/Sydney) after turn 1 "
        f"ends: {moment_words(friday, 'Australia/Sydney')} if it ends before then." in page
    )


@pytest.mark.parametrize(
    ("unentered", "then"),
    [
        ("wait", "if none is entered by then, the campaign waits for {whose} result, however long"),
        ("auto", "if none is entered by then, the computer fights it by the rules"),
    ],
)
def test_a_battle_at_the_table_says_by_when_its_result_is_wanted_and_what_follows(
    db: Any, aussie: Any, login: Any, django_user_model: Any, unentered: str, then: str
) -> None:
    """The walk's sheet said "Result due by Fri 11 Dec 2026, 19:00 AEDT", the GM's
    settings that such a battle "waits for the game master's result", and the GM's
    campaign page "Next deadline: none": nobody could tell whether the result was due.
    Every page now says by when it is wanted and what the campaign's setting does then."""
    campaign = scheduled_waiting(aussie, "weekly", unentered)
    battle = Battle.objects.filter(campaign=campaign).order_by("pk").first()
    assert battle is not None and battle.deadline is not None
    when = moment_words(battle.deadline, "Australia/Sydney")
    players = then.format(whose="the game master's")
    client = login(aussie)
    sheet = said(client.get(reverse("battle-sheet", args=[campaign.pk, battle.pk])))
    assert f"Result wanted by {when}: {players}." in sheet
    report = said(client.get(reverse("battle", args=[campaign.pk, battle.pk])))
    assert f"The result is wanted by {when}: {players}." in report
    listed = said(client.get(reverse("battles", args=[campaign.pk])))
    assert f"the game master enters its result, wanted by {when}: {players}." in listed
    for page in (sheet, report, listed):
        assert "due by" not in page
    orders = said(client.get(f"/campaigns/{campaign.pk}/orders/"))
    the_map = said(client.get(f"/campaigns/{campaign.pk}/"))
    fought = "or when the computer has fought by the rules those still without one at their "
    assert (fought in orders) == (fought in the_map) == (unentered == "auto")
    opens = f"Orders for turn 2 open when the game master has entered the results, {fought}"
    assert (opens in orders) == (unentered == "auto")

    gm = Client()
    gm.force_login(django_user_model.objects.create_superuser("gm", "gm@example.com", "pw"))
    change = html.unescape(
        gm.get(f"/admin/campaign/campaign/{campaign.pk}/change/").content.decode()
    )
    assert (
        "none: the turn is played once you enter its battles' results. Results wanted by "
        f"{when}: {then.format(whose='your')}. The deadline for turn 2 will be the first Friday at "
        "19:00 (Australia/Sydney) after turn 1 ends" in change
    )


def test_a_paused_campaigns_battle_at_the_table_says_it_is_fought_once_resumed(
    db: Any, aussie: Any, login: Any
) -> None:
    """The scheduler's sweep fights no battle of a paused campaign: the pages said "the
    computer fights it by the rules" at a deadline that would pass with nothing fought.
    They say it is fought once the game master resumes the campaign."""
    campaign = scheduled_waiting(aussie, "weekly", "auto")
    set_paused(campaign=campaign, paused=True, reason="holidays")
    battle = Battle.objects.filter(campaign=campaign).order_by("pk").first()
    assert battle is not None and battle.deadline is not None
    when = moment_words(battle.deadline, "Australia/Sydney")
    fought = "if none is entered by then, the computer fights it by the rules once "
    client = login(aussie)
    sheet = said(client.get(reverse("battle-sheet", args=[campaign.pk, battle.pk])))
    report = said(client.get(reverse("battle", args=[campaign.pk, battle.pk])))
    listed = said(client.get(reverse("battles", args=[campaign.pk])))
    for page in (sheet, report, listed):
        assert f"{when}: {fought}the game master resumes the campaign." in page
