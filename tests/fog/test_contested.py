"""The map marks an area "contested" only where the viewer sees both sides' fighting
companies (docs/pages.md, "The map"): an enemy supply company standing with the viewer's
companies is never seen (rulings section 6), so it contests nothing on the viewer's map.
Twins: the Japanese Supply Company starts in Korona, with the Australians' A and B
Company, or in Kilu; the Australians' pages must be the same, byte for byte."""

from __future__ import annotations

import pytest

from tests.fog.noninterference import compare
from tests.fog.twins import Hidden, Pair

pytestmark = pytest.mark.django_db


def test_an_enemy_supply_company_beside_the_viewers_companies_contests_nothing() -> None:
    pair = Pair(
        viewer="australian",
        turns=0,
        twins=(Hidden(starts={"Supply Company": "Korona"}), Hidden()),
    )
    comparison = compare(pair, keep=True)
    assert comparison.twins, comparison.why_not
    assert not comparison.differences, comparison.report()
    map_page = comparison.seen[0][f"GET /campaigns/{comparison.campaign}/"].decode()
    assert "Korona" in map_page and ", contested" not in map_page
