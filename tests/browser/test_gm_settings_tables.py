"""The event tables on the GM's settings page (one row per die face: an effect chosen
from a list, its side, Buffalos, track, and what the players read), on a desktop and on a
390x844 phone: no list and no box is cut. A walk-through read "the side's ship departs:
none of its" in the effect lists and "An Australian convoy has been attacked and the
ship has had to depart" cut at "depart" in the text boxes."""

from __future__ import annotations

from typing import Any

import pytest

from tests.admin.conftest import new_campaign
from tests.browser.conftest import ARTIFACTS
from tests.browser.test_safe_defaults import sign_in

pytestmark = pytest.mark.django_db(transaction=True)

# Each list, box and number field of the tables whose rows are die faces, as cut:
# - a list narrower than its chosen effect needs (the same list holding that effect
#   alone, at its own width, is how wide it must be);
# - a text box whose words reach past it (scrolled inside it, out of sight);
# - any of them past the screen's edge, or past an ancestor that hides its overflow,
#   unless inside a frame that scrolls sideways (``frame``: then it must say so).
_CUT = """width => {
    const cut = [];
    const frames = new Set();
    // The event tables' fields (id_naval_table__1__effect...), not the going's.
    for (const el of document.querySelectorAll(
            '.setting-table :is(select, textarea, input)[id*="_table__"]')) {
        const box = el.getBoundingClientRect();
        const name = el.id;
        if (el.tagName === 'SELECT') {
            const alone = el.cloneNode(false);
            alone.append(el.selectedOptions[0].cloneNode(true));
            alone.removeAttribute('id');
            alone.style.cssText = 'position:absolute; left:0; top:0; width:auto; '
                + 'min-width:0; max-width:none; visibility:hidden';
            el.parentElement.append(alone);
            const needs = alone.getBoundingClientRect().width;
            alone.remove();
            if (box.width + .5 < needs) cut.push(`${name}: ${box.width} of ${needs}`);
        } else if (el.scrollHeight > el.clientHeight + 1 || el.scrollWidth > el.clientWidth + 1) {
            cut.push(`${name}: its words scroll inside it`);
        }
        let frame = null;
        for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
            const style = getComputedStyle(up);
            if (['auto', 'scroll'].includes(style.overflowX)) { frame = up; break; }
            if (['hidden', 'clip'].includes(style.overflowX)) {
                const r = up.getBoundingClientRect();
                if (box.left < r.left - .5 || box.right > r.right + .5) cut.push(`${name}: hidden`);
            }
        }
        if (frame) {
            if (frame.scrollWidth > frame.clientWidth) frames.add(frame);
            const r = frame.getBoundingClientRect();
            if (r.left < -.5 || r.right > width + .5) cut.push(`${name}: frame off screen`);
        } else if (box.left < -.5 || box.right > width + .5) {
            cut.push(`${name}: past the screen's edge`);
        }
    }
    return {cut, frames: frames.size, controls: document.querySelectorAll(
        '.setting-table select[id*="_table__"]').length};
}"""


@pytest.mark.parametrize(
    "size", [(1280, 800), (1024, 768), (390, 844)], ids=["1280", "1024", "phone"]
)
def test_no_effect_list_or_text_box_of_the_event_tables_is_cut(
    page: Any, live_server: Any, django_user_model: Any, shot: Any, size: tuple[int, int]
) -> None:
    sign_in(page, live_server, django_user_model, size)
    campaign = new_campaign()
    page.goto(f"{live_server.url}/admin/campaign/campaign/{campaign.pk}/settings/")
    for key in ("naval_table", "aerial_table"):
        page.locator(f"#setting-{key}").screenshot(
            path=str(ARTIFACTS / f"settings-{key}-{size[0]}.png")
        )
    shot(f"settings-tables-{size[0]}")
    seen = page.evaluate(_CUT, size[0])
    assert seen["controls"] >= 12  # the naval and aerial tables' effects, at least
    assert seen["cut"] == []
    if seen["frames"]:  # a list wider than the screen scrolls sideways in its frame...
        hint = page.locator(".face-table-hint").first
        assert hint.is_visible()  # ... and the page says so
