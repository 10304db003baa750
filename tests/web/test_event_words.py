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
from campaign.services.campaigns import update_settings
from campaign.services.scenarios import create_campaign
from campaign.services.turns import advance_turn
from notifications.feeds import feed_urls
from notifications.services import turn_notices
from rules.campaign.scenario import settings_to_json
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


def test_buffalos_lost_read_against_the_face_as_it_was_rolled(aussie: Any, login: Any) -> None:
    """An air battle lost the 2 Buffalos its face asked, the face since changed to 1:
    the page read the table as it is now and said "2 Buffalos lost." beside the text
    (before that, "Only 2 Buffalos were left, and all 2 are lost."). Now it reads the
    face as the turn rolled it (its start state's table): the text alone, as it read
    before the change."""
    campaign = air_battle_every_turn(2, aussie)
    settings = campaign.get_settings()
    entry = {"effect": "planes_lost", "side": "australian", "count": 1, "text": TWO_LOST}
    campaign.set_settings(replace(settings, aerial_table={face: entry for face in range(1, 7)}))
    campaign.save(update_fields=["settings"])
    page = text_of(login(aussie).get(reverse("turn", args=[campaign.pk, 1])).content.decode())
    assert TWO_LOST in page
    assert "Buffalos lost" not in page and "were left" not in page


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


def test_a_past_turn_reads_its_event_as_the_table_stood_when_it_was_rolled(
    aussie: Any, admin_client: Any, login: Any
) -> None:
    """The GM edits a face after a turn rolled it: the turn's page, the list of turns,
    the GM's log, the feed and an email written since read the roll as it was played (its
    entry's words said what came of it: said once), not against the face as it is now
    (which would add "No Japanese company is in supply this turn.")."""
    campaign = create_campaign(data=korona_doc(), name="Korona", seed=1)
    entry = {"effect": "side_out_of_supply", "side": "japanese", "text": HQ_ATTACKED}
    settings = campaign.get_settings()
    campaign.set_settings(
        replace(settings, aerial_trigger=1, aerial_table={face: entry for face in range(1, 7)})
    )
    campaign.save(update_fields=["settings"])
    join(aussie, campaign, "australian")
    advance_turn(campaign_id=campaign.pk)
    turn = Turn.objects.get(campaign=campaign, number=1)
    table = settings_to_json(campaign.get_settings())
    for face in "123456":
        table["aerial_table"][face] = {**entry, "text": "The Japanese HQ is bombed."}
    update_settings(campaign=campaign, settings=table, reason="a new table")
    client, gm = login(aussie), admin_client
    pages = {
        where: text_of(reader.get(url).content.decode())
        for where, reader, url in (
            ("turn page", client, reverse("turn", args=[campaign.pk, 1])),
            ("turns", client, reverse("turns", args=[campaign.pk])),
            ("feed", client, feed_urls(aussie)["turns"].removeprefix("http://korona.test")),
            ("GM's turn page", gm, reverse("turn", args=[campaign.pk, 1])),
            ("GM's log", gm, f"/admin/campaign/turn/{turn.pk}/change/"),
        )
    }
    turn_notices(turn_id=turn.pk)  # written since, as by a worker that was late
    pages["email"] = text_of(next(m.body for m in mail.outbox if "has been played" in m.body))
    again = "No Japanese company is in supply this turn."  # the GM reads supply's own words
    said = {where: again in page for where, page in pages.items()}
    assert said == dict.fromkeys(pages, False)
    assert {where: HQ_ATTACKED in page for where, page in pages.items()} == dict.fromkeys(
        pages, True
    )


def test_a_turn_that_kept_no_start_state_reads_the_tables_as_they_are_now() -> None:
    from types import SimpleNamespace

    from campaign.web.turnlog import played_tables
    from rules.campaign.state import Settings

    now = Settings()
    bombed = {"effect": "none", "text": "Nothing."}
    kept = {"settings": {"aerial_table": {"3": bombed}}}
    assert played_tables(SimpleNamespace(start_state=None), now) == {
        "naval": now.naval_table,
        "aerial": now.aerial_table,
    }
    # The naval table missing from the settings kept: the one now.
    assert played_tables(SimpleNamespace(start_state=kept), now) == {
        "naval": now.naval_table,
        "aerial": {3: bombed},
    }
    annotated = SimpleNamespace(played_naval_table=None, played_aerial_table={"3": bombed})
    assert played_tables(annotated, now) == {"naval": now.naval_table, "aerial": {3: bombed}}
