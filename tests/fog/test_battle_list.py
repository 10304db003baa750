"""The campaign's list of battles (``/campaigns/<id>/battles/``) under the fog of war: a
side reads its own battles in full (rulings section 6), both forces by name, and nothing
of the enemy beyond them. The crawler requests the page in every pair of twins (it walks
the URL conf); here, a pair in which the viewer has battles to list, fought and waiting
for the table, whose twins differ in an enemy company out of sight."""

from __future__ import annotations

import html
import re

import pytest

from tests.fog.noninterference import compare
from tests.fog.twins import Hidden, Pair

pytestmark = pytest.mark.django_db

# The Japanese of Oivi start in Korona, where the Australians' A and B Company stand: two
# battles on turn 1. The 3rd Company, in Kilu, is out of the Australians' sight.
MEETING = {"1st Company": "Korona", "2nd Company": "Korona"}
OUT_OF_SIGHT = Hidden(rifles={"3rd Company": 5}, quality={"3rd Company": "veteran"})


@pytest.mark.parametrize("mode", ["auto", "tabletop"])
def test_a_sides_battle_list_tells_nothing_of_the_enemy_out_of_sight(mode: str) -> None:
    pair = Pair(
        viewer="australian",
        turns=1,
        settings={"battle_mode": mode},
        starts=MEETING,
        twins=(Hidden(), OUT_OF_SIGHT),
    )
    comparison = compare(pair, keep=True)
    assert comparison.twins, comparison.why_not
    assert not comparison.differences, comparison.report()
    url = f"/campaigns/{comparison.campaign}/battles/"
    for label in (f"GET {url}", f"GET {url} [htmx]"):
        page = comparison.seen[0][label].decode()
        # The page lists the side's two battles, each linked to its report.
        reports = re.findall(rf'href="{url}(\d+)/"', page)
        assert len(reports) == 2, label
        assert "attacked the Australians' A Company" in html.unescape(page)
        assert "3rd Company" not in page
        fought = "Still to be fought on the table" not in page
        assert fought == (mode == "auto"), label
