"""Spectators: members who play no side. While the campaign runs they see what it makes
public (what both sides know: rulings 6); once it has ended, everything."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from battles.models import Battle
from campaign.models import SPECTATOR, Campaign, Membership
from campaign.services.scenarios import create_campaign
from campaign.services.turns import run_campaign
from campaign.services.visibility import open_campaign
from notifications import services
from tests.admin.conftest import every_48_hours
from tests.web.conftest import join, meeting_doc

pytestmark = pytest.mark.django_db


@pytest.fixture
def watcher(django_user_model: Any) -> Any:
    return django_user_model.objects.create_user("watcher", "w@example.com", "a long password")


def test_a_spectator_sees_no_company_and_no_battle_while_it_runs(
    played: Campaign, watcher: Any, login: Any
) -> None:
    join(watcher, played, SPECTATOR)
    view = open_campaign(user=watcher, campaign=played)
    assert view.companies == [] and not view.sees_everything
    assert not view.battles().exists() and not view.orders().exists()
    client = login(watcher)
    page = client.get(f"/campaigns/{played.pk}/").content.decode()
    for name in played.companies.values_list("name", flat=True):
        assert f">{name}<" not in page and f"<title>{name}" not in page
    battle = Battle.objects.filter(campaign=played).first()
    assert client.get(f"/campaigns/{played.pk}/battles/{battle.pk}/").status_code == 404
    turn = client.get(f"/campaigns/{played.pk}/turns/1/").content.decode()
    assert ": supply roll" not in turn  # a side's own rolls are not public
    assert "watcher · Spectator" in page


def test_a_spectator_gives_no_orders_and_writes_on_no_board(
    played: Campaign, watcher: Any, login: Any
) -> None:
    join(watcher, played, SPECTATOR)
    client = login(watcher)
    assert client.get(f"/campaigns/{played.pk}/orders/").status_code == 403
    assert (
        f"/campaigns/{played.pk}/orders/"
        not in client.get(f"/campaigns/{played.pk}/").content.decode()
    )
    refused = client.post(
        f"/campaigns/{played.pk}/messages/", {"channel": "public", "side": "", "text": "hi"}
    )
    assert refused.status_code == 400


def test_a_spectator_sees_everything_once_it_has_ended(db: Any, watcher: Any, login: Any) -> None:
    campaign = create_campaign(data=meeting_doc(), name="Watched", seed=7)
    campaign.set_settings(replace(campaign.get_settings(), turn_limit=2))
    campaign.save(update_fields=["settings"])
    run_campaign(campaign_id=campaign.pk, turns=5)
    campaign.refresh_from_db()
    join(watcher, campaign, SPECTATOR)
    view = open_campaign(user=watcher, campaign=campaign)
    assert view.sees_everything and len(view.companies) == len(view.state.companies)
    assert not view.spectating  # the map's words are everyone's now
    story = login(watcher).get(f"/campaigns/{campaign.pk}/story/").content.decode()
    assert "won</strong>" in story
    # The walk of 7 December 2026 read "As the spectator saw it then." on a turn's map:
    # once the campaign has ended the map is whole, for everyone.
    turn_map = login(watcher).get(f"/campaigns/{campaign.pk}/turns/1/map/").content.decode()
    assert "As the spectator" not in turn_map
    assert "The whole map, as everyone may read it now that the campaign has ended." in (turn_map)


def test_a_spectator_gets_no_deadline_reminder(campaign: Campaign, watcher: Any) -> None:
    from datetime import timedelta

    from django.core import mail
    from django.utils import timezone

    from campaign.services.schedule import set_schedule

    join(watcher, campaign, SPECTATOR)
    now = timezone.now()
    set_schedule(campaign=campaign, kind="every_hours", every_hours=2, now=now)
    services.deadline_reminders(now=now + timedelta(hours=1, minutes=5))
    assert "w@example.com" not in [m.to[0] for m in mail.outbox]
    assert len(mail.outbox) == 2  # the two players


def test_the_gm_adds_a_spectator_in_the_admin(campaign: Campaign, watcher: Any) -> None:
    membership = Membership(campaign=campaign, user=watcher, side=SPECTATOR)
    membership.full_clean()
    membership.save()
    assert open_campaign(user=watcher, campaign=campaign).side == SPECTATOR


def test_a_spectators_turn_pages_speak_to_a_reader_with_no_side(
    played: Campaign, watcher: Any, aussie: Any, gm_user: Any, login: Any
) -> None:
    """A spectator read "Fog of war: the enemy's supply rolls..." and "the dice your side
    may see were recomputed": they have no side, and no enemy. The player reads as before;
    the GM, who sees every die, reads "the turn's dice"."""
    join(watcher, played, SPECTATOR)
    pages = {
        who: (
            login(user)
            .get(f"/campaigns/{played.pk}/turns/1/")
            .content.decode()
            .replace("&#x27;", "'"),
            login(user)
            .get(f"/campaigns/{played.pk}/turns/")
            .content.decode()
            .replace("&#x27;", "'"),
        )
        for who, user in (("spectator", watcher), ("player", aussie), ("gm", gm_user))
    }
    turn, turns = pages["spectator"]
    for text in (turn, turns):
        assert "Fog of war: each side's supply rolls, orders and moves are not shown." in text
        assert "the enemy" not in text and "your side" not in text
    assert "Verified</strong>: the dice open to every side (a spectator sees no side's own)" in turn
    assert "a spectator's view: each side's moves and rolls are checked when" in turn
    turn, turns = pages["player"]
    for text in (turn, turns):
        assert "Fog of war: the enemy's supply rolls, orders and moves are not shown." in text
    assert "Verified</strong>: the dice your side may see were recomputed" in turn
    assert "your side's view: the enemy's moves and rolls are checked when" in turn
    turn, turns = pages["gm"]
    assert "Fog of war" not in turn + turns
    assert "Verified</strong>: the turn's dice were recomputed" in turn


def test_no_page_a_spectator_opens_speaks_to_them_as_a_side(
    played: Campaign, watcher: Any, login: Any
) -> None:
    """A spectator has no side, no companies, no enemy and no initiative die: no page
    they may open says "your side", "your companies" or "the Spectator side" (the turn's
    map, the time-lapse, an area, the campaigns list and the feeds' page did), nor that
    an area was "last seen" held by a side: a spectator sees none held (the walk of 7
    December 2026 read "held by the Australians (last seen at the start)")."""
    import html
    import re

    join(watcher, played, SPECTATOR)
    client = login(watcher)
    base = f"/campaigns/{played.pk}"
    pages = [
        f"{base}/",
        f"{base}/turns/",
        f"{base}/turns/1/",
        f"{base}/turns/1/map/",
        f"{base}/timelapse/",
        f"{base}/battles/",
        f"{base}/story/",
        f"{base}/messages/",
        "/campaigns/",
        "/accounts/notices/",
        *(f"{base}/areas/{pk}/" for pk in played.areas.values_list("pk", flat=True)),
    ]
    wrong = []
    for page in pages:
        answer = client.get(page)
        assert answer.status_code == 200, page
        body = re.sub(r"<(script|style)\b.*?</\1>", " ", answer.content.decode(), flags=re.S)
        words = re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", body)))
        for found in re.finditer(
            r"[^.]{0,40}\b(your (side|companies|company|initiative|orders)|spectator side|"
            r"your side spectator|enemy|last seen)\b[^.]{0,40}",
            words,
            re.I,
        ):
            wrong.append(f"{page}: {found[0].strip()}")
    assert wrong == [], "\n".join(wrong)


def test_a_spectators_turn_map_and_turn_list_do_not_speak_of_their_side(
    played: Campaign, watcher: Any, aussie: Any, login: Any
) -> None:
    """The walk of 7 December 2026, as a spectator: the turn's map read "As the Spectator
    side saw it then: the enemy only where your companies were, or next to them. Arrows
    are the turn's moves (your side's)" and "No move or battle of this turn that your side
    could see."; the list of turns, "Nothing you can see happened beyond the supply rolls
    and orders.", rolls and orders a spectator never sees."""
    join(watcher, played, SPECTATOR)
    client = login(watcher)

    def words(url: str, user_client: Any = client) -> str:
        page = user_client.get(url).content.decode().replace("&#x27;", "'")
        return " ".join(page.split())

    turn_map = words(f"/campaigns/{played.pk}/turns/1/map/")
    assert "As a spectator saw it then: no company of either side" in turn_map
    assert "Spectator side" not in turn_map
    assert "your side" not in turn_map and "your companies" not in turn_map
    assert "No move or battle of this turn is shown to a spectator." in turn_map
    turns = words(f"/campaigns/{played.pk}/turns/")
    assert "beyond the supply rolls and orders" not in turns
    # The list of campaigns read "Your side: Spectator".
    listed = words("/campaigns/")
    assert "<dt>You</dt><dd>follow it as a spectator, on no side</dd>" in listed
    assert "Nothing a spectator sees happened in this turn." in turns
    # A player reads their own side's words, by its name.
    player_map = words(f"/campaigns/{played.pk}/turns/1/map/", login(aussie))
    assert "As the Australians saw it then: the enemy only where your companies were" in (
        player_map
    )


def test_a_spectator_who_opens_the_orders_page_reads_a_page_not_a_bare_line(
    played: Campaign, watcher: Any, login: Any
) -> None:
    """The walk of 7 December 2026: a spectator following an orders link (an email, a
    bookmark from before) got "a spectator gives no orders: they watch" as plain text, no
    page round it, too small to read on a phone and with no way back to the campaign."""
    join(watcher, played, SPECTATOR)
    answer = login(watcher).get(f"/campaigns/{played.pk}/orders/")
    assert answer.status_code == 403
    assert answer["Content-Type"].startswith("text/html")
    page = " ".join(answer.content.decode().replace("&#x27;", "'").split())
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in page
    assert f"You follow {played.name} as a spectator: a spectator gives no orders." in page
    assert f'href="/campaigns/{played.pk}/">' in page.split("<main", 1)[1]  # back to the map


def test_a_spectators_map_legend_explains_only_what_their_map_can_show(
    played: Campaign, watcher: Any, aussie: Any, login: Any
) -> None:
    """The walk of 7 December 2026: a spectator's legend explained "a fighting company of
    the Australians in sight" and an area "held by that side when you last saw it (out of
    your sight since)", though no company is on a spectator's map while the campaign is
    played, and they see no area: the hatched ones are as they stood at the start."""
    join(watcher, played, SPECTATOR)
    client = login(watcher)
    for url in (
        f"/campaigns/{played.pk}/",
        f"/campaigns/{played.pk}/turns/1/map/",
        f"/campaigns/{played.pk}/timelapse/",
    ):
        page = " ".join(client.get(url).content.decode().replace("&#x27;", "'").split())
        assert "What a company's chip says" not in page, url
        assert "in sight (their supply companies are never seen)" not in page, url
        assert "when you last saw it" not in page, url
        assert "held by that side at the start: a spectator sees who holds an area" in page, url
        # No area of theirs has a solid tag: the solo walk read "AUS held by the
        # Australians" explained in a legend whose map shows only "AUS?".
        assert 'data-holder-key="AUS"' not in page and 'data-holder-key="none"' not in page, url
        assert 'data-holder-key="last-seen"' in page, url
    # A player's legend keeps its chips and its words for what they last saw.
    player = login(aussie).get(f"/campaigns/{played.pk}/").content.decode()
    assert 'data-holder-key="AUS"' in player and 'data-holder-key="JPN"' in player
    player = " ".join(player.replace("&#x27;", "'").split())
    assert "a fighting company of the Japanese in sight" in player
    assert (
        "held by that side when you last saw it (out of your companies' sight since: your own "
        "areas too, which the enemy may have taken unseen)"
    ) in player


def test_the_not_found_page_speaks_to_every_reader_and_tells_nothing(
    played: Campaign, watcher: Any, aussie: Any, login: Any, django_user_model: Any
) -> None:
    """The walk of 7 December 2026: the shared "page not found" page said "a battle your
    side did not fight" and "an enemy company your side sighted" to a spectator and the
    game master too, who have no side. It is one page for a battle kept from the reader
    and for one that never was: it must not tell them apart."""
    import html
    import re

    join(watcher, played, SPECTATOR)
    gm = django_user_model.objects.create_user("gm2", "gm2@example.com", "pw", is_staff=True)
    battle = Battle.objects.filter(campaign=played).first()
    for user in (watcher, gm, aussie):
        client = login(user)
        pages = []
        for url in (
            f"/campaigns/{played.pk}/battles/{battle.pk}/",  # kept from the spectator
            f"/campaigns/{played.pk}/battles/999999/",  # no such battle
        ):
            answer = client.get(url)
            if answer.status_code == 404:
                pages.append(answer.content.decode().split("<main", 1)[1])
        words = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", pages[-1])).split())
        assert "your side" not in words, user
        assert "a battle the fog of war keeps from you while the campaign is played" in words
        assert len(set(pages)) == 1, user  # hidden or missing: the same page


def test_a_spectators_turn_email_speaks_to_a_reader_with_no_side(
    campaign: Campaign, watcher: Any
) -> None:
    """The solo walk of 7 December 2026: a spectator's email of a turn said "Nothing your
    side could see happened." and linked the orders page, which refuses them (403)."""
    from campaign.models import Turn
    from campaign.services.turns import advance_turn

    join(watcher, campaign, SPECTATOR)
    advance_turn(campaign_id=campaign.pk)
    campaign.refresh_from_db()
    turn = Turn.objects.get(campaign=campaign, number=1)
    body = services.turn_words(open_campaign(user=watcher, campaign=campaign), turn).body
    assert "your side" not in body.lower()
    assert "- Nothing a spectator sees happened in this turn." in body
    assert f"/campaigns/{campaign.pk}/orders/" not in body
    assert f"The map: {services.absolute(f'/campaigns/{campaign.pk}/')}" in body
    # A player's email still links their orders.
    player = open_campaign(user=campaign.memberships.get(side="australian").user, campaign=campaign)
    body = services.turn_words(player, turn).body
    assert f"Orders: {services.absolute(f'/campaigns/{campaign.pk}/orders/')}" in body


def test_a_spectators_turn_email_on_a_schedule_asks_no_orders_of_them(
    campaign: Campaign, watcher: Any
) -> None:
    """The walk of 7 December 2026 (a two-player campaign, a turn an hour): the
    spectator's email said "Orders for turn 4 are due by ...", and a spectator gives none."""
    from campaign.models import Turn
    from campaign.services.turns import advance_turn

    join(watcher, campaign, SPECTATOR)
    every_48_hours(campaign, None)
    advance_turn(campaign_id=campaign.pk)
    campaign.refresh_from_db()
    turn = Turn.objects.get(campaign=campaign, number=1)
    body = services.turn_words(open_campaign(user=watcher, campaign=campaign), turn).body
    assert "Orders for turn" not in body
    assert "Turn 2 is played by " in body
    player = open_campaign(user=campaign.memberships.get(side="australian").user, campaign=campaign)
    assert "Orders for turn 2 are due by " in services.turn_words(player, turn).body


def test_a_spectators_turn_feed_speaks_to_a_reader_with_no_side(
    campaign: Campaign, watcher: Any, client: Any
) -> None:
    from campaign.services.turns import advance_turn
    from notifications.feeds import TurnsFeed

    join(watcher, campaign, SPECTATOR)
    advance_turn(campaign_id=campaign.pk)
    feed = TurnsFeed()
    items = feed.items(watcher)
    assert items
    description = feed.item_description(items[0])
    assert "your side" not in description.lower()
    assert "Nothing a spectator sees happened in this turn." in description


def test_who_holds_an_area_out_of_sight_is_told_each_reader_their_own_way(
    played: Campaign, watcher: Any, aussie: Any, gm_user: Any
) -> None:
    """The map's holder of each area (``mapdraw.control_words``): a spectator's says
    "(at the start)", never "last seen" (they see no area held until the end: the walk of
    7 December 2026 read "the Australians (last seen at the start)"); a player's says when
    their side last saw an area out of sight; the GM's, who sees every area, neither.
    The same check of "a spectator" (``CampaignView.spectating``) as the map's legend."""
    from campaign.web.mapdraw import map_areas

    join(watcher, played, SPECTATOR)

    def holders(user: Any) -> dict[str, str]:
        view = open_campaign(user=user, campaign=played)
        return {row.area.name: row.controller_name for row in map_areas(view)}

    spectator, player, gm = holders(watcher), holders(aussie), holders(gm_user)
    readers = (watcher, aussie, gm_user)
    assert [open_campaign(user=u, campaign=played).spectating for u in readers] == [
        True,
        False,
        False,
    ]
    # Seed 13 after two turns: the Japanese took Korona, out of a spectator's sight.
    assert spectator["Korona"] == "the Australians (at the start)"
    assert spectator["Oivi"] == "the Japanese (at the start)"
    assert all(words.endswith(" (at the start)") for words in spectator.values())
    assert player["Korona"] == "the Japanese"
    assert player["Oivi"] == "the Japanese (last seen after turn 1)"
    assert player["Erida"] == "the Australians (last seen at the start)"
    assert gm["Korona"] == "the Japanese" and gm["Erida"] == "the Australians"
    assert not any("(" in words for words in gm.values())
