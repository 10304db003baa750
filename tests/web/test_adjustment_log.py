"""The GM's adjustments are the campaign's public log: every player reads them on the turn
pages, with their reasons, but a change to an enemy company's stands without its numbers
(the fog of war hides the enemy's exact strength)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse

from campaign.models import Area, Campaign, Company, GmAdjustment
from campaign.services.adjustments import adjust_stands, set_control
from campaign.services.turns import advance_turn
from campaign.services.visibility import open_campaign
from notifications.services import adjustment_words
from rules.campaign import visibility as fog

pytestmark = pytest.mark.django_db


def turns_page(client: Any, campaign: Campaign) -> str:
    return client.get(reverse("turns", args=[campaign.pk])).content.decode()


def turn_page(client: Any, campaign: Campaign, number: int) -> str:
    return client.get(reverse("turn", args=[campaign.pk, number])).content.decode()


def cut_stands(campaign: Campaign, name: str, gm: Any) -> None:
    company = Company.objects.get(campaign=campaign, name=name)
    adjust_stands(
        company=company, unit_type="rifle_squad", held=5, reason="dysentery in the ranks", user=gm
    )


def test_a_control_change_is_read_before_and_after_the_turn(
    played: Campaign, gm_user: Any, aussie: Any, japanese: Any, login: Any
) -> None:
    """In full by the GM and by the side that has the area in sight; the other side reads
    that its holder was changed, and neither holder (section 6: it knows only the holder
    it last saw there)."""
    ioro = Area.objects.get(campaign=played, name="Ioro")
    state = open_campaign(user=gm_user, campaign=played).state
    assert "Ioro" in fog.watched_areas(state, "australian")
    assert "Ioro" not in fog.watched_areas(state, "japanese")
    set_control(area=ioro, side=None, reason="the villagers rose", user=gm_user)
    full = "Ioro: held by the Australian side, now by nobody"
    fogged = "Ioro: who holds it was changed, out of your sight"
    for user, line in ((aussie, full), (gm_user, full), (japanese, fogged)):
        page = turns_page(login(user), played)
        assert (
            "Before turn 3: the game master&#x27;s changes" in page
            or "Before turn 3: the game master's changes" in page
        )
        assert line in page and "the villagers rose" in page
        if line == fogged:
            assert "Australian side" not in page and "by nobody" not in page
    advance_turn(campaign_id=played.pk)
    for user, line in ((aussie, full), (japanese, fogged)):
        page = turn_page(login(user), played, 3)
        assert line in page
        assert "Before turn 4" not in turns_page(login(user), played)


@pytest.mark.parametrize("holder", ["australian", "japanese"])
def test_who_held_an_area_out_of_sight_never_shows_in_the_log_nor_the_mail(
    played: Campaign, gm_user: Any, japanese: Any, login: Any, holder: str | None
) -> None:
    """Whoever really held Ioro (hidden from the Japanese), the Japanese read one line,
    on the page, in the API and in the e-mail of the change."""
    ioro = Area.objects.get(campaign=played, name="Ioro")
    Area.objects.filter(pk=ioro.pk).update(controller=holder)
    change = set_control(area=ioro, side=None, reason="a patrol's report", user=gm_user)
    view = open_campaign(user=japanese, campaign=played)
    (line,) = [row.what for row in view.adjustments()]
    assert line == "Ioro: who holds it was changed, out of your sight"
    words = adjustment_words(view, change.pk)
    assert words is not None and "held by" not in words.subject + words.body
    api = login(japanese).get(f"/api/campaigns/{played.pk}/adjustments/").json()
    assert [row["what"] for row in api["results"]] == [line]


def game_master_changes(page: str) -> str:
    """The lists of the game master's changes on a page, alone."""
    lists = re.findall(r'<ul class="gm-adjustments">.*?</ul>', page, flags=re.S)
    assert lists
    return "".join(lists)


def test_a_change_to_a_companys_stands_shows_its_numbers_to_its_own_side_and_the_gm(
    played: Campaign, gm_user: Any, japanese: Any, login: Any
) -> None:
    cut_stands(played, "1st Company", gm_user)
    for user in (japanese, gm_user):
        page = turns_page(login(user), played)
        assert "1st Company: rifle squads from" in page and "to 5" in page


def test_a_change_to_a_hidden_enemys_stands_shows_without_its_name_or_numbers(
    played: Campaign, gm_user: Any, aussie: Any, login: Any
) -> None:
    view = open_campaign(user=aussie, campaign=played)
    assert view.company("1st Company") is None  # out of the Australians' sight
    cut_stands(played, "1st Company", gm_user)
    page = turns_page(login(aussie), played)
    assert "An enemy company (Japanese): stands adjusted" in page
    assert "dysentery in the ranks" in page
    # The page may name 1st Company where it fought the Australians' own battles (they
    # know those in full); the GM's change does not.
    changes = game_master_changes(page)
    assert "1st Company" not in changes and "to 5" not in page


def test_a_spectator_reads_a_hidden_companys_change_without_an_enemy(
    played: Campaign, gm_user: Any, outsider: Any, login: Any
) -> None:
    """A spectator plays no side, so no company is their enemy: "an enemy company
    (Japanese)" was addressed to a player. The numbers stay withheld all the same."""
    from tests.web.conftest import join

    join(outsider, played, "spectator")
    cut_stands(played, "1st Company", gm_user)
    page = turns_page(login(outsider), played)
    changes = game_master_changes(page)
    assert "A company (Japanese): stands adjusted" in changes
    assert "enemy" not in changes
    assert "1st Company" not in changes and "to 5" not in page


def test_a_change_to_a_glimpsed_enemys_stands_shows_as_one_out_of_sight_does(
    played: Campaign, gm_user: Any, aussie: Any, login: Any
) -> None:
    """Without its name (section 6: a glimpse has none), and without telling that the
    company is in sight: the same words as for one out of sight."""
    view = open_campaign(user=aussie, campaign=played)
    assert view.glimpse_of("2nd Company") is not None  # the Australians glimpse it
    cut_stands(played, "2nd Company", gm_user)
    page = turns_page(login(aussie), played)
    assert "An enemy company (Japanese): stands adjusted" in page
    assert "2nd Company" not in game_master_changes(page)
    assert "rifle squads from" not in page and "to 5" not in page


def test_once_the_campaign_has_ended_every_number_shows(
    played: Campaign, gm_user: Any, aussie: Any, login: Any
) -> None:
    cut_stands(played, "1st Company", gm_user)
    Campaign.objects.filter(pk=played.pk).update(status="finished")
    assert "1st Company: rifle squads from" in turns_page(login(aussie), played)


def test_a_change_to_an_enemy_since_gone_still_names_its_side(
    played: Campaign, gm_user: Any, aussie: Any
) -> None:
    """A company removed from the map since (its last stands lost out of sight) reads as
    any hidden enemy does: the line does not drop its side, which would tell it is gone."""
    cut_stands(played, "1st Company", gm_user)
    Company.objects.filter(campaign=played, name="1st Company").delete()
    view = open_campaign(user=aussie, campaign=played)
    assert [row.what for row in view.adjustments()] == [
        "An enemy company (Japanese): stands adjusted"
    ]


def test_every_change_reads_as_a_sentence_on_the_pages_the_api_and_the_mail(
    played: Campaign, gm_user: Any, aussie: Any, japanese: Any, login: Any
) -> None:
    """Each change stands as a line of its own, so it starts with a capital letter, as
    every line of a turn's log does: the fogged line of a hidden enemy's stands ("an enemy
    company (Japanese): stands adjusted" read as a fragment), and rows written in lower
    case before the rule (a roll-back, a new seed), which keep their stored words."""
    cut_stands(played, "1st Company", gm_user)
    for what in (
        "rolled back to the start of turn 2",
        "the seed of turn 3 was replaced: commitment 0123456789abcdef... is withdrawn",
    ):
        GmAdjustment.objects.create(
            campaign=played, before_turn=3, user=gm_user, what=what, reason="a test"
        )
    ids = list(GmAdjustment.objects.filter(campaign=played).values_list("pk", flat=True))
    for user in (aussie, japanese, gm_user):
        client = login(user)
        shown = re.findall(
            r"<li><strong>(.*?)</strong>", game_master_changes(turns_page(client, played))
        )
        api = client.get(f"/api/campaigns/{played.pk}/adjustments/").json()["results"]
        view = open_campaign(user=user, campaign=played)
        mails = [adjustment_words(view, pk) for pk in ids]
        lines = [
            *shown,
            *(row["what"] for row in api),
            *(mail.body.splitlines()[2] for mail in mails if mail is not None),
        ]
        assert len(lines) == 9, lines
        assert [line[:1] for line in lines] == [line[:1].upper() for line in lines], lines
        assert any(line.startswith("Rolled back to the start of turn 2") for line in lines)
    (mail,) = [adjustment_words(open_campaign(user=aussie, campaign=played), ids[0])]
    assert mail is not None
    assert mail.subject.endswith(
        "Game master's change: An enemy company (Japanese): stands adjusted"
    )
