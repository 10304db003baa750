"""What a player is told when an order, a take-back or "ready" is not saved (a CSRF token
no longer good, the player signed out: config.views.csrf_failure, config.signedout) must
tell nothing the fog hides: twins that differ only in hidden enemy facts answer those
requests the same, byte for byte (rulings section 6)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings
from django.test import Client

from tests.fog import crawl
from tests.fog.crawl import Ids, Request, render
from tests.fog.noninterference import compare
from tests.fog.twins import Hidden, Pair

pytestmark = pytest.mark.django_db

STALE_TOKEN = "s" * 32  # a token of another CSRF secret: the cookie was renewed since


def not_saved(user: Any, ids: Ids) -> dict[str, bytes]:
    """Every order form's and "ready"'s answer to a page left behind: with a CSRF token no
    longer good (htmx and not), and signed out (htmx, from the orders page, and not)."""
    stale = Client(enforce_csrf_checks=True, raise_request_exception=False)
    stale.force_login(user)
    stale.cookies[settings.CSRF_COOKIE_NAME] = crawl.CRAWL_CSRF_SECRET
    signed_out = Client(raise_request_exception=False)
    orders = f"/campaigns/{ids.campaign}/orders/"
    page = {"Referer": f"http://testserver{orders}"}
    htmx = {"HX-Request": "true", "HX-Current-URL": f"http://testserver{orders}"}
    forms = [f"{orders}{pk}/" for pk in ids.companies] + [f"{orders}ready/", f"{orders}unready/"]
    data = {"action": "give", "order": "hold", "turn": "2", "seen": "-"}
    seen: dict[str, bytes] = {}
    for path in forms:
        for label, client, headers in (
            ("stale", stale, {"X-CSRFToken": STALE_TOKEN, **page}),
            ("stale htmx", stale, {"X-CSRFToken": STALE_TOKEN, **htmx}),
            ("signed out", signed_out, page),
            ("signed out htmx", signed_out, htmx),
        ):
            request = Request(f"POST {path} [{label}]", path, data, headers, method="post")
            seen[request.label] = render(client, request)
    return seen


@pytest.fixture
def producing() -> Iterator[None]:
    crawl.PRODUCERS.append(not_saved)
    try:
        yield
    finally:
        crawl.PRODUCERS.remove(not_saved)


@pytest.mark.parametrize("viewer", ["australian", "japanese"])
def test_an_answer_that_nothing_was_saved_tells_nothing_hidden(
    producing: None, viewer: str
) -> None:
    """The enemy's orders and starting places differ; the viewer's forms, sent from a page
    left behind, answer the same in both twins (a sampled crawl: the producer is the
    point)."""
    enemy_company = "3rd Company" if viewer == "australian" else "C Company (militia)"
    pair = Pair(
        viewer=viewer,
        turns=1,
        twins=(
            Hidden(starts={enemy_company: "Kilu" if viewer == "australian" else "Isura"}),
            Hidden(starts={enemy_company: "Munara" if viewer == "australian" else "Port Murray"}),
        ),
    )
    comparison = compare(pair, sample=0, keep=True)
    assert comparison.twins, comparison.why_not
    assert not comparison.differences, comparison.report()
    answers = {k: v for k, v in comparison.seen[0].items() if k.startswith("not_saved: ")}
    assert answers  # the producer ran, and its answers were compared
    stale_htmx = next(v for k, v in answers.items() if k.endswith("ready/ [stale htmx]"))
    assert stale_htmx.startswith(b"403\n")
    signed_out_htmx = next(v for k, v in answers.items() if k.endswith("ready/ [signed out htmx]"))
    assert b"HX-Redirect: /accounts/login/?next=" in signed_out_htmx
