"""Every player page and partial that only shows something answers a POST, PUT, PATCH or
DELETE with 405 and an Allow header, as any read-only page does (the turns and battles
pages answered a POST as if it were a GET). The test walks every URL of the players'
pages, so a page added later without the check fails here; the pages that take a form
are listed by name, each with what it takes."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import URLPattern, URLResolver, get_resolver

from campaign.models import Campaign

# The addresses that take a write (a form, a button), by URL name: checked by their own
# tests, not here.
WRITES = {
    "login",  # Django's sign-in form
    "logout",  # the "Sign out" button
    "password-change",
    "password_reset",
    "password_reset_confirm",
    "email-change",
    "revoke-token",
    "order-company",  # "Give order"
    "orders-ready",
    "orders-unready",
    "messages",  # "Send"
    "invitation",  # "Join"
    "notice-preferences",
    "unsubscribe",  # RFC 8058's one-click POST
}
# Not the players' pages: the GM's and the programs' own answers.
ELSEWHERE = ("admin/", "api/")


def player_patterns() -> list[tuple[str, URLPattern]]:
    found: list[tuple[str, URLPattern]] = []

    def walk(patterns: list[Any], prefix: str) -> None:
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                if str(pattern.pattern) not in ELSEWHERE:
                    walk(pattern.url_patterns, prefix + str(pattern.pattern))
            else:
                found.append((prefix + str(pattern.pattern), pattern))

    walk(get_resolver().url_patterns, "")
    return found


def address(route: str, campaign: Campaign) -> str:
    """The route with its parts filled: the campaign's own id, and values for the rest
    (a read-only page refuses the method before it looks anything up)."""
    filled = route.replace("<int:campaign_id>", str(campaign.pk))
    for part, value in (
        ("<int:area_id>", "1"),
        ("<int:company_id>", "1"),
        ("<int:battle_id>", "1"),
        ("<int:number>", "1"),
        ("<int:user_id>", "1"),
        ("<str:handle>", "x"),
        ("<str:token>", "x"),
        ("<uidb64>", "x"),
        ("<token>", "x"),
    ):
        filled = filled.replace(part, value)
    assert "<" not in filled, f"fill the parts of {route}"
    return "/" + filled


def test_the_walk_finds_the_pages_and_every_write_it_skips_exists(campaign: Campaign) -> None:
    names = {pattern.name for _, pattern in player_patterns()}
    assert {"turns", "battles", "campaign-map", "story", "battle"} <= names
    assert names >= WRITES


@pytest.mark.parametrize("method", ["post", "put", "patch", "delete"])
def test_every_read_only_player_page_refuses_a_write_with_405(
    campaign: Campaign, aussie: Any, login: Any, method: str
) -> None:
    client = login(aussie)
    wrong = []
    for route, pattern in player_patterns():
        if pattern.name in WRITES:
            continue
        url = address(route, campaign)
        answer = getattr(client, method)(url)
        if answer.status_code != 405 or "GET" not in answer.get("Allow", ""):
            wrong.append(f"{url} ({pattern.name}): {answer.status_code}")
    assert wrong == [], "\n".join(wrong)
