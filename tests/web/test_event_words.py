"""An event's line says what happened once: the table's text, and what came of it only
where that says more (the walk-through read "An air battle: two Buffalos have been
lost. 2 Buffalos lost.")."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from django.core import mail
from django.urls import reverse

from campaign.models import AirGroup, Campaign, Turn
from campaign.services.scenarios import create_campaign
from campaign.services.turns import advance_turn
from notifications.feeds import feed_urls
from tests.campaign.conftest import korona_doc
from tests.notifications.conftest import eager_tasks  # noqa: F401  (autouse: below)
from tests.web.conftest import join

pytestmark = pytest.mark.django_db

# ``eager_tasks``: the turn's emails are sent in this process, with or without Redis (with
# it, as in CI, they would wait in the broker for a worker and mail.outbox stay empty).

TWO_LOST = "An air battle: two Buffalos have been lost."


def air_battle_every_turn(count: int, aussie: Any) -> Campaign:
    """Korona with an aerial event every turn, every face an air battle costing the
    Australians ``count`` Buffalos (they have 3), its table's text saying two."""
    campaign = create_campaign(data=korona_doc(), name="Korona", seed=1)
    entry = {"effect": "planes_lost", "side": "australian", "count": count, "text": TWO_LOST}
    settings = campaign.get_settings()
    campaign.set_settings(
        replace(settings, aerial_trigger=1, aerial_table={face: entry for face in range(1, 7)})
    )
    campaign.save(update_fields=["settings"])
    join(aussie, campaign, "australian")
    advance_turn(campaign_id=campaign.pk)
    return campaign


def text_of(html: str) -> str:
    return " ".join(html.split())


def test_buffalos_lost_as_the_table_says_are_said_once(
    aussie: Any, login: Any, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        campaign = air_battle_every_turn(2, aussie)
    log = Turn.objects.get(campaign=campaign, number=1).log
    (event,) = [r for r in log if r["kind"] == "event"]
    assert event["text"].endswith(f"{TWO_LOST} (2 Buffalos lost)")  # the rules' own, kept
    client = login(aussie)
    for url in (reverse("turn", args=[campaign.pk, 1]), reverse("turns", args=[campaign.pk])):
        page = text_of(client.get(url).content.decode())
        assert TWO_LOST in page, url
        assert "2 Buffalos lost" not in page, url
    feed = client.get(feed_urls(aussie)["turns"].removeprefix("http://korona.test"))
    assert TWO_LOST in feed.content.decode() and "2 Buffalos lost" not in feed.content.decode()
    emails = [m.body for m in mail.outbox if "has been played" in m.body]
    assert emails and all(TWO_LOST in b and "2 Buffalos lost" not in b for b in emails)


def test_fewer_buffalos_lost_than_the_table_says_are_said_too(aussie: Any, login: Any) -> None:
    campaign = air_battle_every_turn(5, aussie)  # five asked, three there
    page = text_of(login(aussie).get(reverse("turn", args=[campaign.pk, 1])).content.decode())
    assert f"{TWO_LOST} Only 3 Buffalos were left, and all 3 are lost." in page


@pytest.mark.parametrize(
    ("left", "said"),
    [
        (1, "Only 1 Buffalo was left, and it is lost."),
        (0, "No Buffalo was left to lose."),
    ],
)
def test_an_air_battle_with_fewer_buffalos_left_says_so_once(
    aussie: Any, login: Any, django_capture_on_commit_callbacks: Any, left: int, said: str
) -> None:
    """The walk-through of 7 December 2026 read "An air battle: two Buffalos have been
    lost. 1 Buffalo lost." on the turn's page, its email and the feed: two counts, one
    line. Now the text, then that every Buffalo left was lost."""
    campaign = create_campaign(data=korona_doc(), name="Korona", seed=1)
    entry = {"effect": "planes_lost", "side": "australian", "count": 2, "text": TWO_LOST}
    settings = campaign.get_settings()
    campaign.set_settings(
        replace(settings, aerial_trigger=1, aerial_table={face: entry for face in range(1, 7)})
    )
    campaign.save(update_fields=["settings"])
    AirGroup.objects.filter(campaign=campaign, side="australian").update(buffalos=left)
    join(aussie, campaign, "australian")
    with django_capture_on_commit_callbacks(execute=True):
        advance_turn(campaign_id=campaign.pk)
    client = login(aussie)
    page = text_of(client.get(reverse("turn", args=[campaign.pk, 1])).content.decode())
    assert f"{TWO_LOST} {said}" in page
    assert "Buffalo lost" not in page and "Buffalos lost" not in page
    feed = client.get(feed_urls(aussie)["turns"].removeprefix("http://korona.test"))
    assert f"{TWO_LOST} {said}" in text_of(feed.content.decode())
    emails = [m.body for m in mail.outbox if "has been played" in m.body]
    assert emails and all(f"{TWO_LOST} {said}" in text_of(b) for b in emails)


def test_buffalos_lost_are_not_said_fewer_than_a_table_changed_since_asks(
    aussie: Any, login: Any
) -> None:
    """The pages read the campaign's table as it is now: an air battle that lost the 2
    Buffalos its face asked, the face since changed to 1, was "Only 2 Buffalos were left,
    and all 2 are lost." (the 3rd was never at risk). Now the rules' own count, as played."""
    campaign = air_battle_every_turn(2, aussie)
    settings = campaign.get_settings()
    entry = {"effect": "planes_lost", "side": "australian", "count": 1, "text": TWO_LOST}
    campaign.set_settings(replace(settings, aerial_table={face: entry for face in range(1, 7)}))
    campaign.save(update_fields=["settings"])
    page = text_of(login(aussie).get(reverse("turn", args=[campaign.pk, 1])).content.decode())
    assert f"{TWO_LOST} 2 Buffalos lost." in page
    assert "were left" not in page


HQ_ATTACKED = "An attack on the Japanese HQ: no Japanese company is in supply."


def test_an_outcome_the_tables_text_already_says_is_not_said_again(aussie: Any, login: Any) -> None:
    """The walk of 7 December 2026 read, on the list of turns: "An attack on the Japanese
    HQ: no Japanese company is in supply. No Japanese company is in supply this turn." The
    check for an outcome retelling its entry knew only the Buffalos lost."""
    campaign = create_campaign(data=korona_doc(), name="Korona", seed=1)
    entry = {"effect": "side_out_of_supply", "side": "japanese", "text": HQ_ATTACKED}
    settings = campaign.get_settings()
    campaign.set_settings(
        replace(settings, aerial_trigger=1, aerial_table={face: entry for face in range(1, 7)})
    )
    campaign.save(update_fields=["settings"])
    join(aussie, campaign, "australian")
    advance_turn(campaign_id=campaign.pk)
    (event,) = [
        r
        for r in Turn.objects.get(campaign=campaign, number=1).log
        if r.get("phase") == "aerial" and r["kind"] == "event"
    ]
    assert event["outcome"] == "no Japanese company is in supply this turn"  # the rules' own
    client = login(aussie)
    for url in (reverse("turn", args=[campaign.pk, 1]), reverse("turns", args=[campaign.pk])):
        page = text_of(client.get(url).content.decode())
        assert HQ_ATTACKED in page, url
        assert "in supply this turn" not in page.lower(), url


def test_an_outcome_that_says_more_than_the_tables_text_is_said() -> None:
    from rules.campaign.phases.events import outcome_retells_entry

    departs = {"effect": "ship_departs", "side": "australian", "text": "A convoy attacked."}
    assert not outcome_retells_entry(
        departs, "HMAS Pitcairn departs: no Australian company is in supply this turn"
    )
    # Words, not letters: "in supply" is not said by "in supplies".
    entry = {"effect": "side_out_of_supply", "text": "No Japanese company is in supplies."}
    assert not outcome_retells_entry(entry, "no Japanese company is in supply this turn")
