"""The admin is the GM's desk, in the GM's words (a walk-through as a GM who is not a
programmer read "Django administration", "AXES" and "AUTH TOKEN" and could not tell what
they were)."""

from __future__ import annotations

import html
import re
from typing import Any

from django.test import Client


def test_the_desk_is_korona_s_not_django_s(gm: Client) -> None:
    page = gm.get("/admin/").content.decode()
    assert "Korona: the game master&#x27;s desk" in page or "Korona: the game master's desk" in page
    assert "Django administration" not in page and "Django site admin" not in page
    assert "Sign-in lockouts (too many wrong passwords)" in page
    assert "Players&#x27; API tokens" in page or "Players' API tokens" in page
    assert ">Axes<" not in page and ">Auth Token<" not in page


def test_the_gm_pages_name_no_developer_file(gm: Client, db: None) -> None:
    """The GM has no docs folder: no page of theirs sends them to one, and the battle's
    input file is folded away under a plain label."""
    from battles.models import Battle
    from tests.admin.conftest import waiting_campaign

    campaign, _ = waiting_campaign()
    battle = Battle.objects.filter(campaign=campaign).first()
    assert battle is not None
    battle_page = gm.get(f"/admin/battles/battle/{battle.pk}/change/").content.decode()
    assert "Technical detail: the battle&#x27;s input file" in battle_page
    create_page = gm.get("/admin/campaign/campaign/create/").content.decode()
    assert "Export scenario" in create_page
    for page in (battle_page, create_page):
        assert "docs/" not in page and ".md" not in page and "BATTLE.json" not in page


def test_the_home_page_says_a_turn_without_deadline_is_also_played_by_the_players_ready(
    gm: Client, db: None, django_user_model: Any
) -> None:
    """With players and no deadline, a turn is played once every player is ready, not
    only "when you press 'Advance turn now'" (which a GM read as: nothing happens until
    I press it); with no player at all, only the GM's button plays it."""
    from campaign.models import Membership
    from tests.admin.conftest import new_campaign

    played = new_campaign("Korona with players")
    for side in ("australian", "japanese"):
        player = django_user_model.objects.create_user(side, password="pw")
        Membership.objects.create(campaign=played, user=player, side=side)
    new_campaign("Korona with nobody")
    rows = {
        name: " ".join(row.split())
        for name, row in re.findall(r'<tr>\s*<th scope="row"><a [^>]*>([^<]+)</a>(.*?)</tr>',
                                    gm.get("/admin/").content.decode(), re.S)
    }  # fmt: skip
    assert 'none: once every player is ready, or when you press "Advance turn now"' in (
        html.unescape(rows["Korona with players"])
    )
    nobody = html.unescape(rows["Korona with nobody"])
    assert 'none: when you press "Advance turn now"' in nobody and "player is ready" not in nobody


def test_the_campaign_page_says_who_plays_a_turn_that_has_no_deadline(
    gm: Client, db: None, django_user_model: Any
) -> None:
    """ "Once every side is ready" read, for a campaign nobody has joined, as if the AI's
    always-ready sides would play it at once; only the GM's button does."""
    from campaign.models import Membership
    from tests.admin.conftest import new_campaign

    campaign = new_campaign()
    url = f"/admin/campaign/campaign/{campaign.pk}/change/"
    alone = html.unescape(gm.get(url).content.decode())
    assert 'none: a turn is played when you press "Advance turn now"' in alone
    assert "every side is ready" not in alone
    player = django_user_model.objects.create_user("solo", password="pw")
    Membership.objects.create(campaign=campaign, user=player, side="australian")
    joined = html.unescape(gm.get(url).content.decode())
    assert 'played once every player is ready, or when you press "Advance turn now"' in joined
