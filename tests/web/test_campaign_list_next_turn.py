"""The campaign list's "Next turn" line in every case, in words a player understands: a
campaign whose every side the campaign AI plays said "once every side is ready", though
no "ready" plays its turn (only the game master's button does), and, paused, that
resuming it would; the game master read "Your side: game master"."""

from __future__ import annotations

import html
import re
from datetime import UTC, datetime
from typing import Any
from unittest.mock import patch

import pytest

from campaign.models import Campaign, Membership
from campaign.services.campaigns import set_paused
from campaign.services.scenarios import create_campaign
from campaign.services.schedule import set_schedule
from tests.campaign.conftest import korona_doc

pytestmark = pytest.mark.django_db


def listed(client: Any) -> dict[str, str]:
    """Each campaign's entry on the list, as words: name -> the rest."""
    page = client.get("/campaigns/").content.decode()
    entries = {}
    for item in re.findall(r"<li class=[^>]*data-campaign.*?</li>", page, re.S):
        words = re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", item))).strip()
        name, _, rest = words.partition(" ")
        entries[name] = rest
    return entries


def new(name: str, **sides: Any) -> Campaign:
    campaign = create_campaign(data=korona_doc(), name=name, seed=1)
    for side, users in sides.items():
        for user in users:
            Membership.objects.create(campaign=campaign, user=user, side=side)
    return campaign


def test_each_case_of_the_next_turn_reads_plainly(
    django_user_model: Any, gm_user: Any, login: Any
) -> None:
    watcher, alice, kenji = (
        django_user_model.objects.create_user(name, f"{name}@example.com", "a long password")
        for name in ("watcher", "alice", "kenji")
    )
    new("AllAI", spectator=[watcher])
    set_paused(campaign=new("PausedAI", spectator=[watcher]), paused=True, reason="holidays")
    scheduled = new("ScheduledAI", spectator=[watcher])
    set_schedule(campaign=scheduled, kind="every_hours", every_hours=48)
    set_paused(campaign=scheduled, paused=True, reason="holidays")
    new("Solo", australian=[alice], spectator=[watcher])
    new("Two", australian=[alice], japanese=[kenji], spectator=[watcher])
    set_paused(
        campaign=new("PausedTwo", australian=[alice], japanese=[kenji]),
        paused=True,
        reason="holidays",
    )
    ended = new("Ended", australian=[alice], spectator=[watcher])
    ended.status = Campaign.Status.FINISHED
    ended.save()

    by_button = (
        'Next turn Turn 1 is played when the game master presses "Advance turn now" (no '
        'player plays a side, so no side\'s "ready" plays it).'
    )
    every_side = (
        "Next turn Turn 1 is played once every side is ready, or when the game master plays it."
    )
    resumes = "Next turn none until the game master resumes the campaign or plays one by hand"
    by_hand = "Next turn none until the game master plays one by hand (no player plays a side)"
    for reader in (gm_user, watcher):
        entries = listed(login(reader))
        assert entries["AllAI"].endswith(by_button)
        assert by_hand in entries["PausedAI"]
        assert resumes in entries["ScheduledAI"]  # its schedule plays on, resumed
        # The Japanese are the campaign AI's, always ready: the Australians' "ready"
        # plays it ("once every side is ready" said so only to the Australians' player).
        assert entries["Solo"].endswith(
            "Next turn Turn 1 is played when the Australians mark their orders ready (the "
            "campaign AI plays the other side, always ready), or when the game master "
            "plays it."
        )
        assert entries["Two"].endswith(every_side)
        assert entries["Ended"].endswith("Status ended Outcome Nobody won.")
    assert listed(login(gm_user))["AllAI"].startswith("You the game master Turn 1 of 20")
    assert listed(login(watcher))["AllAI"].startswith("You follow it as a spectator, on no side")
    mine = listed(login(alice))
    assert mine["Solo"].endswith(
        "Next turn Turn 1 is played when you mark your orders ready, or when the game master "
        "plays it."
    )
    assert mine["Two"].endswith(every_side) and resumes in mine["PausedTwo"]
    assert mine["Solo"].startswith("Your side Australians Turn 1 of 20")


def test_the_list_says_since_when_and_why_a_campaign_is_paused(
    django_user_model: Any, gm_user: Any, login: Any
) -> None:
    alice = django_user_model.objects.create_user("alice", "alice@example.com", "a long pw")
    watcher = django_user_model.objects.create_user("watcher", "w@example.com", "a long pw")
    paused = new("Paused", australian=[alice], spectator=[watcher])
    Campaign.objects.filter(pk=paused.pk).update(timezone="Europe/Berlin")
    paused.refresh_from_db()
    new("Running", australian=[alice], spectator=[watcher])
    with patch("django.utils.timezone.now", return_value=datetime(2026, 7, 1, 16, tzinfo=UTC)):
        set_paused(campaign=paused, paused=True, reason="summer: most of us are away")
    for reader in (alice, watcher, gm_user):
        entries = listed(login(reader))
        # (The tags' spaces taken out: "<time>...</time>." reads "...CEST.")
        assert (
            entries["Paused"]
            .replace(" .", ".")
            .endswith(
                "Paused since Wed 1 Jul 2026, 18:00 CEST. The game master's reason: summer: most "
                "of us are away"
            )
        )
        assert "Paused since" not in entries["Running"]
    set_paused(campaign=paused, paused=False)
    assert "Paused since" not in listed(login(alice))["Paused"]


def test_a_paused_campaign_no_player_plays_says_so_on_its_map(
    django_user_model: Any, login: Any
) -> None:
    watcher = django_user_model.objects.create_user("watcher", "w@example.com", "a long password")
    campaign = new("PausedAI", spectator=[watcher])
    set_paused(campaign=campaign, paused=True, reason="holidays")
    page = login(watcher).get(f"/campaigns/{campaign.pk}/").content.decode()
    words = re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page)))
    assert (
        "The game master has paused the campaign: a turn is played only when they play one "
        "by hand (no player plays a side)."
    ) in words
    assert "when every side is ready" not in words


def test_the_list_puts_ended_campaigns_after_those_played_and_says_who_won(
    django_user_model: Any, gm_user: Any, login: Any
) -> None:
    """The walk of 7 December 2026: finished campaigns were mixed with running ones, and a
    player was not told in words whether their side won or lost."""
    watcher, alice, kenji = (
        django_user_model.objects.create_user(name, f"{name}@example.com", "a long password")
        for name in ("watcher", "alice", "kenji")
    )
    everyone = {"australian": [alice], "japanese": [kenji], "spectator": [watcher]}
    for name, winner in (("Won", "australian"), ("Playing", None), ("Lost", "japanese")):
        campaign = new(name, **everyone)
        if name != "Playing":
            campaign.status = Campaign.Status.FINISHED
            campaign.winner = winner
            campaign.end_causes = [{"kind": "turn_limit", "side": None, "area": None, "turns": 8}]
            campaign.save()
    drawn = new("Drawn", **everyone)
    drawn.status = Campaign.Status.FINISHED
    drawn.save()
    new("Later", **everyone)

    def page(user: Any) -> str:
        body = login(user).get("/campaigns/").content.decode()
        return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", body)))

    for reader in (alice, kenji, watcher, gm_user):
        words = page(reader)
        played, _, ended = words.partition(" Ended ")
        assert "Being played" in played and "Playing" in played and "Later" in played
        assert all(name in ended for name in ("Won", "Lost", "Drawn")), reader
        assert not any(f" {name} " in played for name in ("Won", "Lost", "Drawn")), reader
    mine = listed(login(alice))
    assert mine["Won"].endswith(
        "Outcome Your side won. They held Korona when the 8 turns were up."
    )  # said once: "Your side won. The Australians won: they held..." repeated it
    assert mine["Lost"].startswith("Your side Australians")
    assert "Outcome Your side lost. The Japanese won" in mine["Lost"]
    assert mine["Drawn"].endswith("Outcome Nobody won.")
    assert "Outcome Your side won. They held" in listed(login(kenji))["Lost"]
    assert "The Japanese won" not in listed(login(kenji))["Lost"]
    for reader in (watcher, gm_user):
        theirs = listed(login(reader))
        assert theirs["Won"].endswith(
            "Outcome The Australians won: they held Korona when the 8 turns were up."
        )
        assert "Your side" not in " ".join(theirs.values())
