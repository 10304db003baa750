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
