"""The orders page: a side's companies and their legal orders, giving and taking back
orders (with and without htmx), the odds of planned attacks, ready, closed orders, and
every way fog of war could leak through it."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client
from django.utils import timezone

from campaign.models import Campaign, Company, CompanyStands, Order, SideReady
from campaign.services import odds, planning
from campaign.services.campaigns import set_paused, update_settings
from campaign.services.scenarios import create_campaign
from campaign.services.schedule import process_turn, set_schedule, sweep_due
from campaign.services.turns import give_order
from campaign.services.visibility import open_campaign
from rules.campaign.turn import OrderError
from tests.admin.conftest import waiting_campaign
from tests.campaign.conftest import korona_doc
from tests.web.conftest import join

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture(autouse=True)
def empty_cache() -> None:
    cache.clear()


@pytest.fixture
def quick_odds(monkeypatch: pytest.MonkeyPatch) -> None:
    """20 battles in chunks of 10: the page's 1,000 take seconds."""
    monkeypatch.setattr(planning, "ODDS_RUNS", 20)
    monkeypatch.setattr(planning, "ODDS_CHUNK", 10)


def url(campaign: Campaign, *rest: Any) -> str:
    return "/".join([f"/campaigns/{campaign.pk}/orders", *(str(r) for r in rest)]) + "/"


def company(campaign: Campaign, name: str) -> Company:
    return campaign.companies.get(name=name)


def area_id(campaign: Campaign, name: str) -> int:
    return campaign.areas.get(name=name).pk


def orders_of(campaign: Campaign) -> set[tuple[str, str, str | None]]:
    return set(
        Order.objects.filter(campaign=campaign).values_list("company__name", "kind", "target__name")
    )


def text_of(response: Any) -> str:
    """The page's words, tags stripped, spaces squeezed."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


def card(html: str, company_id: int) -> str:
    """The company's row on the page."""
    match = re.search(
        rf'<article class="order-card" id="company-{company_id}".*?</article>', html, re.S
    )
    assert match, f"no row for company {company_id}"
    return match.group(0)


# --- who sees what ------------------------------------------------------------------------


def test_a_player_sees_their_companies_with_only_the_legal_orders(
    campaign: Campaign, aussie: Any, login: Any
) -> None:
    response = login(aussie).get(url(campaign))
    assert response.status_code == 200
    html = response.content.decode()
    assert "Orders for turn 1" in html
    for name in ("A Company", "B Company", "C Company (militia)", "1st Supply Company"):
        assert name in html
    a = card(html, company(campaign, "A Company").pk)
    assert "no order given, so it holds in Korona." in a
    options = re.findall(r'<option value="([^"]+)"[^>]*>([^<]+)</option>', a)
    assert options == [
        ("hold", "Hold in Korona"),
        (f"advance:{area_id(campaign, 'Oivi')}", "Advance to Oivi"),
        (f"withdraw:{area_id(campaign, 'Isura')}", "Withdraw to Isura"),
    ]
    # No enemy company has a row or a form.
    assert 'id="company-{}"'.format(company(campaign, "1st Company").pk) not in html
    assert "Japanese: not ready yet" in html and "Australians: not ready yet" in html
    assert (
        "No deadline: the turn is played once every side is ready, or when the game master "
        "plays it." in html
    )


def test_areas_a_company_may_not_move_to_are_listed_with_the_reason(
    played: Campaign, aussie: Any, login: Any
) -> None:
    # The 3rd Company comes into A Company's area: A Company is engaged, and may not move.
    a_company = company(played, "A Company")
    Company.objects.filter(pk=company(played, "3rd Company").pk).update(area=a_company.area)
    html = login(aussie).get(url(played)).content.decode()
    reasons = re.findall(r"<li>Not to ([^:]+): ([^<]+)</li>", html)
    assert reasons, "the played campaign has refusals to show"
    # Each is check_order's own message for that company and area.
    texts = " ".join(r for _, r in reasons)
    assert any(
        phrase in texts
        for phrase in (
            "is engaged by the enemy",
            "out of supply",
            "not an advance",
            "not a withdrawal",
        )
    )


def test_the_gm_picks_a_side(campaign: Campaign, gm_user: Any, login: Any) -> None:
    client = login(gm_user)
    html = client.get(url(campaign)).content.decode()
    assert "Australians" in html and card(html, company(campaign, "A Company").pk)
    japanese = client.get(url(campaign) + "?side=japanese").content.decode()
    assert card(japanese, company(campaign, "3rd Company").pk)
    assert f'id="company-{company(campaign, "A Company").pk}"' not in japanese
    refused = client.get(url(campaign) + "?side=americans")
    assert refused.status_code == 400
    # A page of the campaign, the refusal in words (escaped as every page's text).
    assert "&#x27;americans&#x27; is not a side" in refused.content.decode()


def test_a_player_may_not_look_at_the_enemys_orders_page(
    campaign: Campaign, aussie: Any, login: Any
) -> None:
    response = login(aussie).get(url(campaign) + "?side=japanese")
    assert response.status_code == 403
    assert b"only their orders are yours" in response.content


def test_strangers_get_404_and_the_anonymous_sign_in(
    campaign: Campaign, outsider: Any, login: Any
) -> None:
    a = company(campaign, "A Company").pk
    stranger = login(outsider)
    assert stranger.get(url(campaign)).status_code == 404
    assert stranger.post(url(campaign, a), {"order": "hold"}).status_code == 404
    oivi = area_id(campaign, "Oivi")
    assert stranger.get(url(campaign, "area", oivi, "odds")).status_code == 404
    assert stranger.post(url(campaign, "ready")).status_code == 404
    for response in (Client().get(url(campaign)), Client().post(url(campaign, a), {})):
        assert response.status_code == 302 and response.url.startswith("/accounts/login/")
    assert not Order.objects.exists() and not SideReady.objects.exists()


# --- giving and taking back ---------------------------------------------------------------


def test_an_order_given_without_javascript_redirects_back_to_the_page(
    campaign: Campaign, aussie: Any, login: Any
) -> None:
    a = company(campaign, "A Company").pk
    client = login(aussie)
    response = client.post(
        url(campaign, a), {"action": "give", "order": f"withdraw:{area_id(campaign, 'Isura')}"}
    )
    assert response.status_code == 302
    assert response.url == f"{url(campaign)}#company-{a}"
    assert orders_of(campaign) == {("A Company", "withdraw", "Isura")}
    assert Order.objects.get().given_by == aussie
    row = card(client.get(url(campaign)).content.decode(), a)
    assert "<strong>withdraw to Isura</strong>" in row and "Take back" in row

    assert client.post(url(campaign, a), {"action": "withdraw"}).status_code == 302
    assert orders_of(campaign) == set()


def test_an_order_given_with_htmx_answers_with_its_row(
    campaign: Campaign, aussie: Any, login: Any
) -> None:
    a = company(campaign, "A Company").pk
    client = login(aussie)
    response = client.post(url(campaign, a), {"action": "give", "order": "hold"}, **HTMX)
    assert response.status_code == 200
    html = response.content.decode()
    assert html.strip().startswith(f'<article class="order-card" id="company-{a}"')
    assert "<strong>hold in Korona</strong>" in html
    assert '<option value="hold" selected>' in html
    assert orders_of(campaign) == {("A Company", "hold", None)}
    # Changing it replaces it.
    client.post(url(campaign, a), {"order": f"advance:{area_id(campaign, 'Oivi')}"}, **HTMX)
    assert orders_of(campaign) == {("A Company", "advance", "Oivi")}


def test_an_order_the_rules_refuse_shows_the_reason_and_changes_nothing(
    campaign: Campaign, aussie: Any, login: Any
) -> None:
    a = company(campaign, "A Company").pk
    client = login(aussie)
    give_order(company=company(campaign, "A Company"), kind="hold")
    before = orders_of(campaign)
    oivi = area_id(campaign, "Oivi")
    for data in (
        {"order": f"withdraw:{oivi}"},  # Oivi is not closer to Port Murray
        {"order": f"advance:{area_id(campaign, 'Kilu')}"},  # not linked to Korona
        {"order": "charge"},
        {"action": "surrender"},
    ):
        htmx = client.post(url(campaign, a), data, **HTMX)
        assert htmx.status_code == 422
        assert 'role="alert">Refused:' in card(htmx.content.decode(), a)
        plain = client.post(url(campaign, a), data)
        assert plain.status_code == 422
        assert 'role="alert">Refused:' in card(plain.content.decode(), a)
        assert orders_of(campaign) == before
    refused = client.post(url(campaign, a), {"order": f"withdraw:{oivi}"}, **HTMX)
    assert "Oivi is not closer to A Company&#x27;s base: that is not a withdrawal" in (
        refused.content.decode()
    )
    # A form's button edited: said in words, not as the raw value posted ('surrender').
    refused = card(
        client.post(url(campaign, a), {"action": "surrender"}, **HTMX).content.decode(), a
    )
    assert "surrender" not in refused
    assert (
        "the form asked neither to give an order nor to take one back: press "
        "&quot;Give order&quot; or &quot;Take back&quot;. Nothing was changed."
    ) in refused


def test_a_player_may_not_order_an_enemy_company(
    campaign: Campaign, aussie: Any, login: Any
) -> None:
    client = login(aussie)
    korona = area_id(campaign, "Korona")
    # At Oivi, in sight of Korona: a glimpse, whose company's id is as unknown as one out
    # of sight (the answer must not tell which company the glimpse is).
    seen = company(campaign, "1st Company")
    response = client.post(url(campaign, seen.pk), {"order": f"advance:{korona}"})
    assert response.status_code == 404
    assert b"1st Company" not in response.content
    hidden = company(campaign, "3rd Company")  # at Kilu: out of sight
    assert client.post(url(campaign, hidden.pk), {"order": "hold"}).status_code == 404
    give_order(company=seen, kind="hold")
    assert client.post(url(campaign, seen.pk), {"action": "withdraw"}).status_code == 404
    assert orders_of(campaign) == {("1st Company", "hold", None)}


def test_the_gm_orders_any_company(campaign: Campaign, gm_user: Any, login: Any) -> None:
    third = company(campaign, "3rd Company")
    response = login(gm_user).post(
        url(campaign, third.pk), {"order": f"advance:{area_id(campaign, 'Oivi')}"}
    )
    assert response.status_code == 302
    assert response.url == f"{url(campaign)}?side=japanese#company-{third.pk}"
    assert orders_of(campaign) == {("3rd Company", "advance", "Oivi")}


# --- closed orders ------------------------------------------------------------------------


def test_a_finished_campaign_shows_why_and_no_forms(
    campaign: Campaign, aussie: Any, login: Any
) -> None:
    Campaign.objects.filter(pk=campaign.pk).update(
        status="finished", winner="australian", end_reason="turn limit"
    )
    client = login(aussie)
    html = client.get(url(campaign)).content.decode()
    assert "Orders are closed:</strong> the campaign has ended, so no more orders are given" in html
    assert "<form" not in html.split("<main ")[1]
    a = company(campaign, "A Company").pk
    response = client.post(url(campaign, a), {"order": "hold"})
    assert response.status_code == 422
    assert b"the campaign has ended" in response.content
    assert client.post(url(campaign, "ready")).status_code == 409
    assert not Order.objects.exists() and not SideReady.objects.exists()


def test_a_turn_waiting_for_tabletop_battles_closes_orders(
    db: Any, aussie: Any, login: Any
) -> None:
    waiting, _ = waiting_campaign()
    join(aussie, waiting, "australian")
    client = login(aussie)
    html = client.get(url(waiting)).content.decode()
    assert "Turn 1 is under way.</strong>" in html
    assert "Orders for turn 2 open when the game master has entered the results." in html
    assert "order-company" not in html and 'name="order"' not in html
    assert "are ready</button>" not in html
    a = company(waiting, "A Company").pk
    assert client.post(url(waiting, a), {"order": "hold"}).status_code == 422
    assert client.post(url(waiting, "ready")).status_code == 409
    assert not Order.objects.filter(campaign=waiting, turn_number=2).exists()


# --- ready --------------------------------------------------------------------------------


def test_ready_marks_the_side_and_orders_may_still_change(
    campaign: Campaign, aussie: Any, japanese: Any, login: Any
) -> None:
    client = login(aussie)
    response = client.post(url(campaign, "ready"), **HTMX)
    assert response.status_code == 200
    html = response.content.decode()
    assert html.strip().startswith('<section class="ready-box" id="ready"')
    assert "Australians: <strong>ready</strong>" in html
    assert "You may still change them until the turn is played" in html
    assert set(SideReady.objects.values_list("side", "turn_number")) == {("australian", 1)}
    a = company(campaign, "A Company").pk
    assert client.post(url(campaign, a), {"order": "hold"}).status_code == 302
    # The Japanese ready too: the turn is due at once.
    assert login(japanese).post(url(campaign, "ready")).status_code == 302
    campaign.refresh_from_db()
    assert campaign.next_deadline is not None
    page = client.get(url(campaign)).content.decode()
    assert "Japanese: <strong>ready</strong>" in page and "The turn is due now" in page


def test_the_last_ready_says_the_turn_is_being_played_then_that_it_was_with_links(
    campaign: Campaign, aussie: Any, japanese: Any, login: Any
) -> None:
    """The last side's "ready" makes the turn due, and the scheduler plays it within
    seconds: the answer no longer offers changes "until the turn is played" as if nothing
    were happening; it says the turn is being played and polls, and the poll says once it
    has been, with links to the turn and to the next turn's orders (the page went on
    offering "Change order" for a turn already played)."""
    assert login(japanese).post(url(campaign, "ready")).status_code == 302
    client = login(aussie)
    answer = client.post(url(campaign, "ready"), {"turn": "1"}, **HTMX).content.decode()
    assert "turn 1 is being played now" in answer
    assert "You may still change them until the turn is played" not in answer
    poll = f'hx-get="/campaigns/{campaign.pk}/orders/turn/?turn=1" hx-trigger="every 2s"'
    assert poll in answer and 'hx-target="#turn-watch"' in answer
    assert client.get(url(campaign, "turn") + "?turn=1", **HTMX).status_code == 204
    # The scheduler's sweep claims the turn, and a worker plays it.
    assert sweep_due(now=timezone.now() + timedelta(seconds=1), enqueue=False).claimed
    assert process_turn(campaign_id=campaign.pk, turn_number=1)
    campaign.refresh_from_db()
    assert campaign.turn == 1
    played = client.get(url(campaign, "turn") + "?turn=1", **HTMX).content.decode()
    assert "turn 1 has been played" in played
    assert f'href="/campaigns/{campaign.pk}/turns/1/"' in played
    assert f'href="/campaigns/{campaign.pk}/orders/"' in played and "orders for turn 2" in played
    assert 'id="order-cards" hx-swap-oob="true"></div>' in played  # no forms for turn 1


def test_a_solo_players_ready_plays_the_turn_against_the_campaign_ai(
    aussie: Any, login: Any
) -> None:
    """The Japanese have no player: the campaign AI plays them, always ready, and the
    page says so; the Australians' "ready" makes the turn due at once."""
    solo = create_campaign(data=korona_doc(), name="Korona solo", seed=1)
    join(aussie, solo, "australian")
    client = login(aussie)
    page = client.get(url(solo)).content.decode()
    assert "Japanese: played by the campaign AI, always ready" in page
    assert "Australians: not ready yet" in page
    assert client.post(url(solo, "ready")).status_code == 302
    solo.refresh_from_db()
    assert solo.next_deadline is not None  # due at once
    assert "The turn is due now" in client.get(url(solo)).content.decode()


def test_the_last_turns_ready_promises_the_story_not_the_next_turns_orders(
    aussie: Any, login: Any
) -> None:
    """The solo walk of 7 December 2026: the last turn's "ready" said the page would link
    "the orders for turn 5" once it was played, a turn the campaign never plays."""
    solo = create_campaign(data=korona_doc(), name="Korona solo", seed=1)
    update_settings(campaign=solo, settings={**solo.settings, "turn_limit": 1}, reason="short")
    join(aussie, solo, "australian")
    client = login(aussie)
    answer = text_of(client.post(url(solo, "ready"), {"turn": "1"}, **HTMX))
    page = text_of(client.get(url(solo)))
    for words in (answer, page):
        assert (
            "Your orders are ready: turn 1 is being played now. It is the last turn: this "
            "page says so once it has been played, with links to it and to the story of "
            "the campaign." in words
        )
        assert "orders for turn 2" not in words


def test_a_solo_player_is_told_their_ready_plays_the_turn_not_every_sides(
    aussie: Any, japanese: Any, login: Any
) -> None:
    """Every other side played by the campaign AI (always ready), "once every side is
    ready" read oddly: the solo player's own "ready" plays the turn (mark_side_ready).
    With a second player the page keeps the words of several players."""
    solo = create_campaign(data=korona_doc(), name="Korona solo", seed=1)
    join(aussie, solo, "australian")
    client = login(aussie)
    page = text_of(client.get(url(solo)))
    assert (
        "No deadline: the turn is played when you mark your orders ready, or when the game "
        "master plays it." in page
    )
    # The walk's solo turn took 4-8 s (the scheduler's next sweep): not "at once".
    assert "When you mark your orders ready the turn is played within seconds" in page
    assert "at once" not in page
    assert "every side is ready" not in page.lower()
    client.post(url(solo, "ready"), **HTMX)
    page = text_of(client.get(url(solo)))
    assert "Your orders are ready: turn 1 is being played now." in page
    assert "every side is ready" not in page.lower()
    # Paused, the ready box says the same in solo terms.
    paused = create_campaign(data=korona_doc(), name="Korona solo paused", seed=2)
    join(aussie, paused, "australian")
    set_paused(campaign=paused, paused=True, reason="holidays")
    page = text_of(client.get(url(paused)))
    assert (
        "The campaign is paused: no turn is played when your orders are ready until the game "
        "master resumes it; the game master may still play one by hand." in page
    )
    # A second player: every side's ready, as before.
    two = create_campaign(data=korona_doc(), name="Korona for two", seed=3)
    join(aussie, two, "australian")
    join(japanese, two, "japanese")
    page = text_of(client.get(url(two)))
    assert (
        "No deadline: the turn is played once every side is ready, or when the game master "
        "plays it." in page
    )
    assert "When every side is ready the turn is played within seconds" in page
    assert "when you mark your orders ready" not in page


def test_the_ready_box_speaks_of_a_deadline_only_when_there_is_one(
    campaign: Campaign, aussie: Any, login: Any
) -> None:
    """The page said "No deadline: the turn is played once every side is ready ..." and,
    under the button, "When every side is ready the turn is played within seconds, without
    waiting for the deadline": a deadline it had just said there was not. Each state's
    words, true of it: no deadline, a deadline, due now, being played, paused, and a turn
    waiting for its battles."""
    client = login(aussie)

    def ready_box() -> str:
        before, heading, box = text_of(client.get(url(campaign))).partition("Turn 1 Australians: ")
        assert heading, before
        return box

    at_once = "When every side is ready the turn is played within seconds"
    box = ready_box()
    assert "No deadline: the turn is played once every side is ready" in box
    assert f"{at_once} (a side no player plays is played by the campaign AI" in box
    assert "waiting for the deadline" not in box and "any deadline" not in box

    set_schedule(campaign=campaign, kind="every_hours", every_hours=24)
    box = ready_box()
    assert "Next deadline:" in box and "No deadline" not in box
    assert f"{at_once}, without waiting for the deadline (a side no player plays" in box

    Campaign.objects.filter(pk=campaign.pk).update(
        next_deadline=timezone.now() - timedelta(minutes=1)
    )
    box = ready_box()
    assert "The turn is due now: it is played within seconds." in box
    assert at_once not in box and "deadline" not in box.lower()

    Campaign.objects.filter(pk=campaign.pk).update(due_turn=1)
    box = ready_box()
    assert "Turn 1 is being played now." in box
    assert at_once not in box and "deadline" not in box.lower()

    Campaign.objects.filter(pk=campaign.pk).update(due_turn=None)
    set_paused(campaign=campaign, paused=True, reason="holidays")
    box = ready_box()
    assert "The campaign is paused: no turn is played on its schedule or when every side" in box
    assert at_once not in box and "deadline" not in box.lower()

    waiting, _ = waiting_campaign("Korona at the table")
    join(aussie, waiting, "australian")
    set_schedule(campaign=waiting, kind="every_hours", every_hours=24)
    Campaign.objects.filter(pk=waiting.pk).update(next_deadline=None)
    page = text_of(client.get(url(waiting)))
    assert (
        "Orders for turn 2 are not open yet: turn 1 ends when the game master has entered its "
        "battles' results. The deadline for turn 2 will be 24 hours after turn 1 ends." in page
    )
    assert "No deadline" not in page and "waiting for the deadline" not in page


def test_a_solo_players_ready_box_speaks_of_a_deadline_only_when_there_is_one(
    aussie: Any, login: Any
) -> None:
    solo = create_campaign(data=korona_doc(), name="Korona solo", seed=1)
    join(aussie, solo, "australian")
    client = login(aussie)
    at_once = "When you mark your orders ready the turn is played within seconds"
    page = text_of(client.get(url(solo)))
    assert f"{at_once} (every other side is played by the campaign AI" in page
    assert "waiting for the deadline" not in page and "any deadline" not in page
    set_schedule(campaign=solo, kind="every_hours", every_hours=24)
    page = text_of(client.get(url(solo)))
    assert "Next deadline:" in page
    assert f"{at_once}, without waiting for the deadline (every other side" in page


def test_a_player_with_a_teammate_against_the_campaign_ai_reads_that_either_ready_plays(
    aussie: Any, django_user_model: Any, login: Any
) -> None:
    """Two players on the Australians, the Japanese the campaign AI's: the page said "the
    turn is played when you mark your orders ready", and a teammate's "ready" (the
    side's, whoever marks it) played it too, with the orders as they stood. Now it says
    so."""
    mate = django_user_model.objects.create_user("mate", "m@example.com", "pw-mate-123")
    team = create_campaign(data=korona_doc(), name="Korona, two Australians", seed=1)
    join(aussie, team, "australian")
    join(mate, team, "australian")
    client = login(aussie)
    page = text_of(client.get(url(team)))
    assert (
        "No deadline: the turn is played when you or a teammate marks your side's orders "
        "ready, or when the game master plays it." in page
    )
    assert (
        "When you or a teammate marks your side's orders ready, the turn is played within seconds, "
        "with the side's orders as they stand then (every other side is played by the "
        "campaign AI, always ready)" in page
    )
    assert "when you mark your orders ready" not in page.lower()
    assert "every side is ready" not in page.lower() and "deadline (" not in page
    login(mate).post(url(team, "ready"), **HTMX)
    page = text_of(client.get(url(team)))
    assert "Your side's orders are ready: turn 1 is being played now." in page
    assert "Your orders are ready" not in page
    # Paused: the side's orders, marked ready by the teammate, wait for the game master.
    paused = create_campaign(data=korona_doc(), name="Korona, two paused", seed=2)
    join(aussie, paused, "australian")
    join(mate, paused, "australian")
    set_paused(campaign=paused, paused=True, reason="holidays")
    page = text_of(client.get(url(paused)))
    assert (
        "no turn is played when your side's orders are ready until the game master resumes it"
        in page
    )
    login(mate).post(url(paused, "ready"), **HTMX)
    page = text_of(client.get(url(paused)))
    assert "Your side's orders are marked ready by mate. You may still change them" in page


def test_while_paused_the_ready_box_says_only_the_game_master_plays_a_turn(
    campaign: Campaign, aussie: Any, login: Any
) -> None:
    """It said no turn was played until the game master resumed the campaign, "even once
    every side is ready"; but the game master may play one by hand while it is paused
    (advance_turn), and does not resume it by that. Said once, not again under the button."""
    set_schedule(campaign=campaign, kind="every_hours", every_hours=24, timezone="UTC")
    set_paused(campaign=campaign, paused=True, reason="holidays")
    page = text_of(login(aussie).get(url(campaign)))
    assert (
        "The campaign is paused: no turn is played on its schedule or when every side is ready "
        "until the game master resumes it; the game master may still play one by hand." in page
    )
    assert page.count("The campaign is paused") == 1
    assert "even once" not in page
    assert "When every side is ready the turn is played within seconds" not in page


def test_ready_and_unready_answer_without_reading_the_odds(
    campaign: Campaign,
    aussie: Any,
    login: Any,
    monkeypatch: pytest.MonkeyPatch,
    held_odds: list[odds.OddsJob],
) -> None:
    """Their answer is the ready box and the line below it: no card, no odds. It read
    every planned battle's odds from the cache (and sent the missing chunks off) for a
    page context it never drew."""
    give_order(
        company=company(campaign, "A Company"),
        kind="advance",
        target=campaign.areas.get(name="Oivi"),
    )
    reads: list[odds.OddsJob] = []
    real = odds.fought
    monkeypatch.setattr(odds, "fought", lambda job: reads.append(job) or real(job))
    client = login(aussie)
    assert "of 20 battles" in client.get(url(campaign)).content.decode()
    assert reads and held_odds  # the page reads the planned battle's odds
    reads.clear()
    held_odds.clear()
    for action in ("ready", "unready"):
        answer = client.post(url(campaign, action), {"turn": "1"}, **HTMX)
        assert answer.status_code == 200, action
        assert 'id="ready"' in answer.content.decode()
    assert reads == [] and held_odds == []


def test_the_gm_does_not_mark_a_side_ready(campaign: Campaign, gm_user: Any, login: Any) -> None:
    response = login(gm_user).post(url(campaign, "ready"), **HTMX)
    assert response.status_code == 422
    assert b"ready is the players&#x27; word" in response.content
    assert not SideReady.objects.exists()


# --- odds ---------------------------------------------------------------------------------


@pytest.fixture
def held_odds(monkeypatch: pytest.MonkeyPatch, quick_odds: None) -> list[odds.OddsJob]:
    """The workers have not got to the odds yet: what the pages ask for is recorded, and
    the test fights its chunks as a worker would (``odds.fight_chunk``). The backends
    themselves: tests/campaign/test_odds.py and tests/scheduling/test_odds_worker.py."""
    asked: list[odds.OddsJob] = []
    monkeypatch.setattr(odds, "request", lambda job, seen=None: asked.append(job))
    return asked


def test_a_planned_attack_shows_its_odds_growing_to_done(
    campaign: Campaign, aussie: Any, login: Any, held_odds: list[odds.OddsJob]
) -> None:
    a = company(campaign, "A Company").pk
    client = login(aussie)
    client.post(url(campaign, a), {"order": f"advance:{area_id(campaign, 'Oivi')}"})
    row = card(client.get(url(campaign)).content.decode(), a)
    # The enemy in sight is not named (rulings 6: a strength band, no name).
    assert 'Battle at Oivi: A Company against the enemy there. See "Planned battles".' in row
    assert "1st Company" not in row and "2nd Company" not in row
    assert "0 of 20 battles fought so far" in row
    # The card does not poll by itself: its area under "Planned battles" does, for both.
    assert "hx-get" not in row.split('class="odds"', 1)[1]
    oivi = area_id(campaign, "Oivi")
    # It names the cards it drew fighting there.
    poll_url = f"/campaigns/{campaign.pk}/orders/area/{oivi}/odds/?cards={a}"
    assert f'hx-get="{poll_url}"' in client.get(url(campaign)).content.decode()
    assert "Only an estimate, of the enemy as you see it now" in row
    # Named for a screen reader: the bar by its battle, the buttons by their company.
    assert 'aria-label="Battles fought for the odds at Oivi"' in row
    assert (
        'aria-label="Change order: A Company"' in row and 'aria-label="Take back: A Company"' in row
    )
    # The page sent the battles off to be fought (no battle is fought in the request).
    (job,) = {j.key: j for j in held_odds}.values()
    seen = []
    for index in range(2):
        assert odds.fight_chunk(job, index)  # a worker's chunk comes in
        poll = client.get(poll_url, **HTMX)
        assert poll.status_code == 200
        seen.append(poll.content.decode())
    assert '<progress max="20" value="10"' in seen[0] and "load delay" in seen[0]
    assert '<progress max="20" value="20"' in seen[1] and "load delay" not in seen[1]
    done = re.search(r"You win (\d+)% of 20 battles fought out \(likely (\d+)–(\d+)%\)\.", seen[1])
    assert done, seen[1]
    low, p, high = int(done.group(2)), int(done.group(1)), int(done.group(3))
    assert low <= p <= high
    # Done: the page shows them from the cache, and nothing more is asked for.
    asked = len(held_odds)
    assert "of 20 battles fought out" in card(client.get(url(campaign)).content.decode(), a)
    assert client.get(poll_url, **HTMX).content.decode() == seen[1]
    assert len(held_odds) == asked
    assert not odds.fight_chunk(job, 0)  # a chunk delivered twice is not fought again


def test_odds_without_javascript_are_sent_off_and_the_page_reloaded(
    campaign: Campaign, aussie: Any, gm_user: Any, login: Any, held_odds: list[odds.OddsJob]
) -> None:
    a = company(campaign, "A Company").pk
    client = login(aussie)
    client.post(url(campaign, a), {"order": f"advance:{area_id(campaign, 'Oivi')}"})
    html = client.get(url(campaign)).content.decode()
    (job,) = {j.key: j for j in held_odds}.values()  # the page sent the battles off
    assert '<progress max="20" value="0"' in html
    # The card's link reloads the page at the card (the page sends the missing battles
    # off to be fought as the card's own endpoint did, which the page no longer polls).
    link = f"{url(campaign)}#company-{a}"
    assert f'<noscript><a href="{link}">See how far they are</a>' in html
    assert client.get(url(campaign, a, "odds")).status_code == 404  # no such endpoint
    gm_page = login(gm_user).get(url(campaign) + "?side=australian").content.decode()
    assert f'<a href="{url(campaign)}?side=australian#company-{a}">See how far' in gm_page
    # The area's link under "Planned battles" reloads the page too (it showed the area
    # alone, without its cards), where both read the estimate once.
    oivi = area_id(campaign, "Oivi")
    area_link = f"/campaigns/{campaign.pk}/orders/area/{oivi}/odds/"
    assert f'<noscript><a href="{area_link}">See how far they are</a>' in html
    response = client.get(area_link)
    assert response.status_code == 302 and response.url == f"{url(campaign)}#area-odds-{oivi}"
    odds.fight_chunk(job, 1)  # chunks come in in any order
    assert '<progress max="20" value="10"' in client.get(url(campaign)).content.decode()


def test_an_order_that_leads_to_no_battle_has_no_odds(
    campaign: Campaign, aussie: Any, login: Any
) -> None:
    a = company(campaign, "A Company").pk
    client = login(aussie)
    client.post(url(campaign, a), {"order": f"withdraw:{area_id(campaign, 'Isura')}"})
    assert 'class="odds"' not in card(client.get(url(campaign)).content.decode(), a)


def test_joining_an_attack_updates_the_other_attackers_row(
    campaign: Campaign, aussie: Any, login: Any, quick_odds: None
) -> None:
    a, b = company(campaign, "A Company").pk, company(campaign, "B Company").pk
    oivi = area_id(campaign, "Oivi")
    client = login(aussie)
    client.post(url(campaign, a), {"order": f"advance:{oivi}"})
    html = client.post(url(campaign, b), {"order": f"advance:{oivi}"}, **HTMX).content.decode()
    assert f'<article class="order-card" id="company-{a}" hx-swap-oob="true">' in html
    # Two enemy companies there: the turn pairs them into two battles, one each. Each
    # card names the other's battle too (it read as if its company attacked alone).
    assert (
        "Battle at Oivi: A Company against the enemy there. B Company fights another "
        'battle there. See "Planned battles".'
    ) in html
    assert (
        "Battle at Oivi: B Company against the enemy there. A Company fights another "
        'battle there. See "Planned battles".'
    ) in html


# --- fog of war: one test per way it could leak -------------------------------------------


def test_enemy_orders_are_never_shown(campaign: Campaign, aussie: Any, login: Any) -> None:
    give_order(
        company=company(campaign, "1st Company"),
        kind="advance",
        target=campaign.areas.get(name="Korona"),
        side="japanese",
    )
    html = login(aussie).get(url(campaign)).content.decode()
    assert "1st Company" not in html  # not its row, not its order
    assert "advance to Korona" not in html
    first = company(campaign, "1st Company").pk
    assert login(aussie).post(url(campaign, first), {"order": "hold"}).status_code == 404


def test_hidden_enemy_strength_does_not_leak_through_the_odds(
    campaign: Campaign, aussie: Any, login: Any, quick_odds: None
) -> None:
    a = company(campaign, "A Company").pk
    client = login(aussie)
    client.post(url(campaign, a), {"order": f"advance:{area_id(campaign, 'Oivi')}"})

    def shown() -> str:
        cache.clear()
        # The page's poll: the area's battles and, out of band, A's card.
        oivi = area_id(campaign, "Oivi")
        poll = f"{url(campaign, 'area', oivi, 'odds')}?cards={a}"
        return client.get(poll, **HTMX).content.decode()

    before = shown()
    # Both Japanese companies lose stands and quality, within their band (still strong).
    CompanyStands.objects.filter(
        company__campaign=campaign,
        company__name__in=["1st Company", "2nd Company"],
        unit_type="rifle_squad",
    ).update(held=8)
    Company.objects.filter(campaign=campaign, side="japanese", kind="fighting").update(
        quality="raw"
    )
    assert shown() == before


def test_a_hidden_enemy_company_is_never_an_odds_target(
    played: Campaign, aussie: Any, login: Any, quick_odds: None
) -> None:
    """Whatever the side orders, the battles it plans are against companies it sees."""
    client = login(aussie)
    view = open_campaign(user=aussie, campaign=played)
    seen = {c.name for c in view.companies if c.full}
    seen |= {name for name in view.state.companies if view.glimpse_of(name) is not None}
    hidden = set(view.state.companies) - seen
    assert hidden, "the played campaign hides some Japanese companies"
    for row in planning.plan_side(view=view, side="australian").companies:
        # Every legal move, an advance last when there is one: as many attacks as may be.
        for target in row.moves.withdrawals + row.moves.advances:
            kind = "advance" if target in row.moves.advances else "withdraw"
            client.post(url(played, row.company_id), {"order": f"{kind}:{view.area_id(target)}"})
    plan = planning.plan_side(view=open_campaign(user=aussie, campaign=played), side="australian")
    attacks = [row.attack for row in plan.companies if row.attack]
    assert attacks, "some Australian company plans an attack"
    for attack in attacks:
        assert set(attack.enemies) <= seen
    texts = [client.get(url(played)).content.decode()] + [
        client.get(url(played, "area", area.area_id, "odds"), **HTMX).content.decode()
        for area in planning.planned_areas(plan)
    ]
    own = [c.name for c in view.companies if c.side == "australian"]
    for text in texts:
        for name in own:  # "1st Supply Company" is not the hidden "Supply Company"
            text = text.replace(name, "")
        assert not [name for name in hidden if name in text]


# --- queries ------------------------------------------------------------------------------


def test_the_orders_page_queries_are_pinned(
    big_campaign: Campaign, aussie: Any, gm_user: Any, login: Any, django_assert_num_queries: Any
) -> None:
    client = login(aussie)
    # user (the session comes from the cache), campaign, membership, the snapshot's 7
    # (sides, areas, links, companies, stands, ships, air groups), the side's orders, the
    # orders-closed check (a turn waiting for battles), the sides ready, the sides a
    # player plays (the others are the campaign AI's, always ready), the turns' start
    # states (the fog of war), the coming turn's dice commitment, and the slow poll's
    # token (the stamp with the digest of the side's orders): 17, whatever the companies.
    with django_assert_num_queries(17):
        assert client.get(url(big_campaign)).status_code == 200
    gm = login(gm_user)
    # The GM needs no membership and sees through the fog: 15.
    with django_assert_num_queries(15):
        assert gm.get(url(big_campaign) + "?side=japanese").status_code == 200


def test_the_odds_poll_queries_are_pinned(
    big_campaign: Campaign,
    aussie: Any,
    login: Any,
    django_assert_num_queries: Any,
    held_odds: list[odds.OddsJob],
) -> None:
    for row in big_campaign.companies.filter(side="australian", kind="fighting"):
        for target in ("Oivi", "Korona"):
            try:
                give_order(company=row, kind="advance", target=big_campaign.areas.get(name=target))
            except OrderError:  # whichever companies may attack
                continue
    client = login(aussie)
    html = client.get(url(big_campaign)).content.decode()
    match = re.search(r'hx-get="(/campaigns/\d+/orders/area/\d+/odds/\?cards=[\d,]+)"', html)
    assert match, "some company of the big campaign plans an attack"
    # campaign, membership, the snapshot's 7, the side's orders, the orders-closed check,
    # the sides ready, the turns' start states (the fog of war): 13 (the user, read for
    # the page before, comes from the cache); the battles themselves are no query.
    with django_assert_num_queries(13):
        assert client.get(match.group(1), **HTMX).status_code == 200


def test_an_advance_says_it_goes_ahead_only_in_supply(
    campaign: Campaign, aussie: Any, login: Any
) -> None:
    """The turn rolls supply before the moves, and out of supply an advance is refused
    (a walk-through gave an advance, read "supply not yet rolled", and then saw it
    refused in the log): the card says so for an advance, and only for one."""
    a = company(campaign, "A Company").pk
    client = login(aussie)
    give_order(company=company(campaign, "A Company"), kind="hold")
    assert "It advances only if it is in supply" not in card(
        client.get(url(campaign)).content.decode(), a
    )
    give_order(
        company=company(campaign, "A Company"),
        kind="advance",
        target=campaign.areas.get(name="Oivi"),
    )
    assert "It advances only if it is in supply this turn" in card(
        client.get(url(campaign)).content.decode(), a
    )


def test_a_fighting_companys_advance_says_an_enemy_moving_in_first_holds_it(
    campaign: Campaign, aussie: Any, login: Any
) -> None:
    """The solo walk of 7 December 2026: each turn A Company was ordered to advance to
    Oivi, the campaign AI won the initiative, moved into Korona first, and the log read
    "A Company is engaged by the enemy in Korona and may not move; it holds". The card
    had said only that supply could stop it."""
    a = company(campaign, "A Company")
    give_order(company=a, kind="advance", target=campaign.areas.get(name="Oivi"))
    words = card(login(aussie).get(url(campaign)).content.decode(), a.pk)
    assert "It advances only if it is in supply this turn" in words
    assert (
        "nor if an enemy fighting company is in its area when it moves: the side that "
        "moves first may come in before it, and then it holds and fights there" in words
    )


def test_a_supply_companys_advance_says_nothing_of_supply(
    campaign: Campaign, aussie: Any, login: Any
) -> None:
    """A supply company never rolls for supply (rulings section 2): its advance is not
    held back by it. What may stop it is an enemy fighting company in its area when it
    moves (rules.campaign.phases.movement.check_order), and the card says that."""
    supply = company(campaign, "1st Supply Company")
    give_order(company=supply, kind="advance", target=campaign.areas.get(name="Uberi Ridge"))
    words = card(login(aussie).get(url(campaign)).content.decode(), supply.pk)
    assert "advance to Uberi Ridge" in words
    assert "supply this turn" not in words and "rolls supply" not in words
    assert "unless an enemy fighting company is in its area when it moves" in words


def test_a_cards_supply_is_the_last_turns_roll_and_says_so(
    played: Campaign, aussie: Any, login: Any
) -> None:
    """A walk-through: the orders for turn 2 said "out of supply" of a company, which a
    player read as this turn's supply (so no advance); it was turn 1's roll, and turn 2
    rolls again before anything moves."""
    a = company(played, "A Company")
    client = login(aussie)
    Company.objects.filter(pk=a.pk).update(in_supply=False, turns_out_of_supply=2)
    words = " ".join(
        re.sub(r"<[^>]+>", " ", card(client.get(url(played)).content.decode(), a.pk)).split()
    )
    assert (
        "out of supply in turn 2 (2 turns running) · supply will be rolled again at the start "
        "of turn 3" in words
    )
    Company.objects.filter(pk=a.pk).update(in_supply=True, turns_out_of_supply=0)
    words = " ".join(
        re.sub(r"<[^>]+>", " ", card(client.get(url(played)).content.decode(), a.pk)).split()
    )
    assert "in supply in turn 2 · supply will be rolled again at the start of turn 3" in words


def test_the_orders_of_an_ended_campaign_name_no_turn_to_come(
    played: Campaign, aussie: Any, login: Any
) -> None:
    """A walk-through, from the turn email's "Orders:" link after the last turn: "Orders
    for turn 21", "Japanese: not ready yet", each card "Turn 21: no order given, so it
    holds" and "supply rolled again in turn 21", of a turn that is never played."""
    Campaign.objects.filter(pk=played.pk).update(
        status="finished", winner="australian", end_reason="turn limit"
    )
    html = login(aussie).get(url(played)).content.decode()
    # (The dice commitment of turn 3 stays: made up here, a campaign ends with its turn.)
    main = re.sub(r'<section class="phase commitment".*?</section>', "", html, flags=re.S)
    words = " ".join(re.sub(r"<[^>]+>", " ", main.split("<main ")[1]).split())
    assert "Orders: Australians" in words
    assert "turn 3" not in words.lower() and "not ready yet" not in words
    assert "rolled again" not in words and "no order given" not in words
    assert "Its last turn was turn 2: the story of the campaign" in words
    assert f'href="/campaigns/{played.pk}/story/"' in html
    assert "<title>Orders" in html and "turn 3</title>" not in html


def test_the_game_master_of_a_solo_campaign_reads_whose_ready_plays_the_turn(
    aussie: Any, gm_user: Any, login: Any
) -> None:
    """Looking at either side of a campaign only the Australians play, the GM read "the
    turn is played once every side is ready": the Japanese are the campaign AI's, always
    ready, so the Australians' "ready" plays it."""
    solo = create_campaign(data=korona_doc(), name="Korona solo", seed=1)
    join(aussie, solo, "australian")
    gm = login(gm_user)
    for side in ("australian", "japanese"):
        page = text_of(gm.get(url(solo) + f"?side={side}"))
        assert (
            "No deadline: the turn is played when the Australians mark their orders ready "
            "(the campaign AI plays the other side, always ready), or when the game master "
            "plays it." in page
        ), side
        assert "once every side is ready" not in page
    set_paused(campaign=solo, paused=True, reason="holidays")
    page = text_of(gm.get(url(solo) + "?side=japanese"))
    assert "no turn is played when the Australians are ready until the game master" in page
