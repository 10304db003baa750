"""The going of each landform on the GM's settings page, on a desktop and on a 390x844
phone: each landform's name whole on its line, the table's headings apart (a walk-through
read "LANDFORM" and "GOING" printed on each other, and "mud/r", "groun", "(plains")."""

from __future__ import annotations

from typing import Any

import pytest

from tests.admin.conftest import new_campaign
from tests.browser.conftest import ARTIFACTS
from tests.browser.test_safe_defaults import SIZES, sign_in

pytestmark = pytest.mark.django_db(transaction=True)

# Each landform's name as the table shows it: clipped (its text wider than its cell) or
# broken over lines (taller than one line of the row's select), and the headings' boxes.
_MEASURE = """table => ({
    names: [...table.querySelectorAll('tbody th')].map(th => {
        const range = document.createRange();
        range.selectNodeContents(th);
        const text = range.getBoundingClientRect();
        const cell = th.getBoundingClientRect();
        return {name: th.textContent.trim(), lines: range.getClientRects().length,
                inside: text.left >= cell.left - .5 && text.right <= cell.right + .5};
    }),
    heads: [...table.querySelectorAll('thead th')].map(th => {
        const range = document.createRange();
        range.selectNodeContents(th);
        const r = range.getBoundingClientRect();
        return {left: r.left, right: r.right, shown: r.width > 0};
    }),
})"""


@pytest.mark.parametrize("size", SIZES, ids=["desktop", "phone"])
def test_each_landform_is_named_whole_beside_its_going(
    page: Any, live_server: Any, django_user_model: Any, shot: Any, size: tuple[int, int]
) -> None:
    tag = sign_in(page, live_server, django_user_model, size)
    campaign = new_campaign()
    page.goto(f"{live_server.url}/admin/campaign/campaign/{campaign.pk}/settings/")
    table = page.locator("#setting-landform_going table")
    table.scroll_into_view_if_needed()
    shot(f"settings-going-{tag}")
    page.locator("#setting-landform_going").screenshot(
        path=str(ARTIFACTS / f"settings-going-table-{tag}.png")
    )
    seen = table.evaluate(_MEASURE)
    names = {row["name"].removeprefix("Landform: "): row for row in seen["names"]}
    assert "steep high ridge" in names and "mud/rocks/swamp" in names
    cut = [name for name, row in names.items() if not row["inside"] or row["lines"] != 1]
    assert cut == []
    heads = [head for head in seen["heads"] if head["shown"]]
    if tag == "desktop":  # on a phone each row names its columns itself, no headings
        assert len(heads) == 2
        assert heads[0]["right"] <= heads[1]["left"]
