"""The admin is the GM's desk, in the GM's words (a walk-through as a GM who is not a
programmer read "Django administration", "AXES" and "AUTH TOKEN" and could not tell what
they were)."""

from __future__ import annotations

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
