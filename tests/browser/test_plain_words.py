"""A player's turn pages in a real browser read in plain words: no unit identifier, no
"->", and the battle line's verb agrees with its attackers."""

from __future__ import annotations

import re
from typing import Any

import pytest

from campaign.models import Company, GmAdjustment
from campaign.services.adjustments import adjust_stands
from rules.units import STAND_TYPES
from tests.web.conftest import PASSWORD

pytestmark = pytest.mark.django_db(transaction=True)

RAW = re.compile("|".join([*(k for k in STAND_TYPES if "_" in k), r"\bhmg\b", "->"]))


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)], ids=["desktop", "phone"])
@pytest.mark.parametrize("who", ["aussie", "japanese"])
def test_turn_pages_read_in_plain_words(
    page: Any, live_server: Any, played: Any, shot: Any, size: tuple[int, int], who: str
) -> None:
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", who)
    page.fill("#id_password", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url("**/campaigns/")
    for number in (1, 2):
        page.goto(f"{live_server.url}/campaigns/{played.pk}/turns/{number}/")
        text = page.locator("main").inner_text()
        assert not RAW.search(text), RAW.search(text)
        assert not re.search(r"(?<!and )\b\w+ Company attack\b", text)
        assert not re.search(r"\ba [AEIO]\w", text)
    shot(f"plain-words-turn-{who}-{'desktop' if size[0] > 600 else 'phone'}")


def test_a_gm_change_of_stands_is_written_in_words(played: Any) -> None:
    company = Company.objects.get(campaign=played, name="A Company")
    row = company.stand_counts.get(unit_type="rifle_squad")
    adjust_stands(company=company, unit_type="rifle_squad", held=row.held - 1, reason="ruling")
    what = GmAdjustment.objects.get().what
    assert what == f"A Company: rifle squads from {row.held} to {row.held - 1}"
