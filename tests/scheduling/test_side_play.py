"""Whose "ready" plays the turn (``deadlines.side_play``): the one rule the map's stamp,
the campaign list, the orders page and the emails read "solo" and "teammates" from."""

from __future__ import annotations

from typing import Any

import pytest

from campaign.models import SPECTATOR
from campaign.services.deadlines import SidePlay, side_play
from campaign.services.scenarios import create_campaign
from campaign.services.schedule import play_of_side
from campaign.services.visibility import campaign_stamp
from tests.web.conftest import join, meeting_doc


def test_a_side_is_solo_when_no_player_plays_another() -> None:
    assert side_play("australian", played=True, others_play=False, teammates=False) == SidePlay(
        solo=True, teammates=False
    )
    assert side_play("australian", played=True, others_play=False, teammates=True) == SidePlay(
        solo=True, teammates=True
    )


def test_a_side_is_not_solo_when_a_player_plays_another() -> None:
    play = side_play("australian", played=True, others_play=True, teammates=True)
    assert play == SidePlay(solo=False, teammates=True)  # "your side's orders are ready"


@pytest.mark.parametrize("side", [None, "", SPECTATOR])
def test_the_gm_and_a_spectator_play_no_side(side: str | None) -> None:
    play = side_play(side, played=True, others_play=False, teammates=True)
    assert play == SidePlay(solo=False, teammates=False)


def test_a_side_no_player_plays_is_not_solo() -> None:
    """A side's own webhook, with nobody playing it: the campaign AI's, not "you"."""
    play = side_play("japanese", played=False, others_play=False, teammates=False)
    assert play == SidePlay(solo=False, teammates=False)


@pytest.mark.django_db
@pytest.mark.parametrize(
    "others",
    [[], [("australian", "mate")], [("japanese", "foe")], [(SPECTATOR, "watcher")]],
)
def test_the_stamp_and_the_memberships_agree(django_user_model: Any, others: list) -> None:
    """The stamp's one query and the memberships read in Python say the same."""
    campaign = create_campaign(data=meeting_doc(), name="Korona solo", seed=7)
    reader = django_user_model.objects.create_user("reader")
    join(reader, campaign, "australian")
    for side, name in others:
        join(django_user_model.objects.create_user(name), campaign, side)
    stamp = campaign_stamp(user=reader, campaign_id=campaign.pk)
    assert stamp is not None
    play = play_of_side(campaign, "australian")
    assert (stamp["solo"], stamp["teammates"]) == (play.solo, play.teammates)
    assert play.solo == (others in ([], [("australian", "mate")], [(SPECTATOR, "watcher")]))
    assert play.teammates == (others == [("australian", "mate")])
