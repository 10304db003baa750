"""A tabletop battle's page in the GM's admin, in a real browser: "Fight it now (auto)"
is a round pill as the tools beside it (it was a square button among them)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.admin.conftest import waiting_campaign
from tests.browser.test_safe_defaults import SIZES, sign_in

pytestmark = pytest.mark.django_db(transaction=True)

STYLE = """el => { const s = getComputedStyle(el); return {radius: s.borderTopLeftRadius,
  transform: s.textTransform, size: s.fontSize, height: el.getBoundingClientRect().height}; }"""


@pytest.mark.parametrize("size", SIZES, ids=["desktop", "phone"])
def test_fight_it_now_is_a_pill_among_the_pills(
    page: Any, live_server: Any, django_user_model: Any, shot: Any, size: tuple[int, int]
) -> None:
    tag = sign_in(page, live_server, django_user_model, size)
    _, battles = waiting_campaign()
    battle = next(iter(battles.values()))
    page.goto(f"{live_server.url}/admin/battles/battle/{battle.pk}/change/")
    shot(f"battle-page-pending-{tag}")
    fight = page.locator(".object-tools input[type=submit]").evaluate(STYLE)
    report = page.locator(".object-tools a", has_text="Report").evaluate(STYLE)
    assert fight["radius"] == report["radius"] == "15px"
    assert fight["transform"] == report["transform"] == "uppercase"
    assert fight["size"] == report["size"]
    assert abs(fight["height"] - report["height"]) <= 4, (fight, report)
