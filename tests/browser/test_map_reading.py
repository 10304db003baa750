"""The map as a player reads it (issue 15): chips whose parts stand apart, a legend in the
reader's own colours that explains every mark, and one true line about the next turn."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from campaign.models import Campaign, Turn
from campaign.services.scenarios import create_campaign
from campaign.services.turns import advance_turn
from campaign.services.visibility import open_campaign
from campaign.web.mapdraw import CHIPS_SHOWN, SIDE_COLOURS, SUPPLY_MARK_WORDS, map_areas
from tests.browser.conftest import ARTIFACTS
from tests.web.conftest import PASSWORD, crowded_doc, join, meeting_doc

pytestmark = pytest.mark.django_db(transaction=True)

SIZES = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}


@pytest.fixture
def korona(django_user_model: Any) -> Campaign:
    """Korona after one turn (enemies in sight on both sides), a player on each side."""
    campaign = create_campaign(data=meeting_doc(), name="Korona read", seed=7)
    advance_turn(campaign_id=campaign.pk)
    campaign.refresh_from_db()
    for name, side in (("aussie", "australian"), ("japanese", "japanese")):
        join(django_user_model.objects.create_user(name, f"{name}@x.org", PASSWORD), campaign, side)
    return campaign


def sign_in(page: Any, live_server: Any, user: str, next_url: str) -> None:
    page.goto(f"{live_server.url}/accounts/login/?next={next_url}")
    page.fill("#id_username", user)
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(f"{live_server.url}{next_url}")


def boxes(page: Any, selector: str) -> list[dict[str, Any]]:
    """Each element's box and, for a chip, the boxes of its rectangle and its texts."""
    return page.evaluate(
        """(selector) => [...document.querySelectorAll(selector)].map(chip => {
            const box = (el) => { const b = el.getBoundingClientRect();
                return {x: b.left, y: b.top, right: b.right, bottom: b.bottom}; };
            const texts = {};
            chip.querySelectorAll("text").forEach(t => {
                const css = (t.getAttribute("class") || "text").split(" ")[0];
                texts[css] = {...box(t), words: t.textContent};
            });
            return {rect: box(chip.querySelector("rect")), texts: texts};
        })""",
        selector,
    )


def inside(inner: dict[str, float], outer: dict[str, float]) -> bool:
    return (
        inner["x"] >= outer["x"]
        and inner["right"] <= outer["right"]
        and inner["y"] >= outer["y"]
        and inner["bottom"] <= outer["bottom"]
    )


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["x"] < b["right"]
        and b["x"] < a["right"]
        and a["y"] < b["bottom"]
        and b["y"] < a["bottom"]
    )


@pytest.mark.parametrize("size", SIZES)
def test_every_chip_keeps_its_name_supply_and_figures_apart(
    page: Any, live_server: Any, korona: Campaign, shot: Any, size: str
) -> None:
    page.set_viewport_size(SIZES[size])
    sign_in(page, live_server, "aussie", f"/campaigns/{korona.pk}/")
    # The messages load into the page after it (htmx) and move the map down: measure after.
    page.locator("#messages-box section.latest-messages").wait_for()
    chips = boxes(page, "svg.campaign-map a.chip:not(.more)")
    assert len(chips) >= 5
    for chip in chips:
        texts = chip["texts"]
        name, figures = texts["chip-name"], texts["chip-figures"]
        assert name["words"] and figures["words"]
        for text in texts.values():  # nothing spills out of its chip
            assert inside(text, chip["rect"]), (text, chip["rect"])
        assert figures["y"] >= name["bottom"] - 1  # the figures on a line of their own
        if "chip-mark" in texts:  # the supply mark well clear of the name
            assert texts["chip-mark"]["x"] - name["right"] >= 4, texts
    for i, chip in enumerate(chips):  # no two chips cover each other
        for other in chips[i + 1 :]:
            assert not overlap(chip["rect"], other["rect"])
    names = page.eval_on_selector_all(
        "svg.campaign-map text.area-name",
        """els => els.map(el => { const b = el.getBoundingClientRect();
            return {x: b.left, y: b.top, right: b.right, bottom: b.bottom}; })""",
    )
    for chip in boxes(page, "svg.campaign-map a.chip"):  # nor an area's name
        assert not [name for name in names if overlap(chip["rect"], name)]
    own = [c["texts"] for c in chips if "company" not in c["texts"]["chip-name"]["words"]]
    assert any(t["chip-figures"]["words"].endswith((", trained", ", raw")) for t in own)
    # Every name of the scenario whole, "1st Supply Coy" too (it read "1st Supply…").
    assert "1st Supply Coy" in [t["chip-name"]["words"] for t in own]
    assert not [t for t in own if "…" in t["chip-name"]["words"]], own
    shot(f"map-chips-{size}")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.locator(".map-frame").screenshot(path=str(ARTIFACTS / f"map-chips-{size}-frame.png"))


@pytest.fixture
def crowded(django_user_model: Any) -> Campaign:
    """Korona crowded (``crowded_doc``) after two turns: chips under neighbouring areas
    along the main track for both sides, a player on each side and the GM."""
    campaign = create_campaign(data=crowded_doc(), name="Korona crowded", seed=1)
    for _ in range(2):
        advance_turn(campaign_id=campaign.pk)
    campaign.refresh_from_db()
    for name, side in (("aussie", "australian"), ("japanese", "japanese")):
        join(django_user_model.objects.create_user(name, f"{name}@x.org", PASSWORD), campaign, side)
    django_user_model.objects.create_user("gm", "gm@x.org", PASSWORD, is_staff=True)
    return campaign


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("reader", ["aussie", "japanese", "gm"])
def test_no_chip_touches_a_chip_of_another_area(
    page: Any, live_server: Any, crowded: Campaign, shot: Any, size: str, reader: str
) -> None:
    """A browser walk could not tell whose Isura's and Korona's chips were: they stood
    side by side, touching. As the browser draws them, chips of two areas stand apart,
    a clear gap between them (of a chip's border and more, at the map's scale)."""
    page.set_viewport_size(SIZES[size])
    sign_in(page, live_server, reader, f"/campaigns/{crowded.pk}/")
    user = get_user_model().objects.get(username=reader)
    rows = map_areas(open_campaign(user=user, campaign=crowded))
    owners = [row.name for row in rows for _ in range(min(len(row.companies), CHIPS_SHOWN + 1))]
    chips = [chip["rect"] for chip in boxes(page, "svg.campaign-map a.chip")]
    assert len(chips) == len(owners) and len(set(owners)) >= 3
    scale = page.eval_on_selector("svg.campaign-map", "svg => svg.getScreenCTM().a")
    clear = 8 * scale  # on the map 12 apart, 10 between the borders: 8 whatever the rounding
    near = [
        (owner, chip, other_owner, other)
        for i, (owner, chip) in enumerate(zip(owners, chips, strict=True))
        for other_owner, other in zip(owners[i + 1 :], chips[i + 1 :], strict=True)
        if owner != other_owner and gap(chip, other) < clear
    ]
    page.locator(".map-frame").screenshot(
        path=str(ARTIFACTS / f"map-chips-apart-{reader}-{size}-frame.png")
    )
    assert not near, near


def gap(a: dict[str, float], b: dict[str, float]) -> float:
    """How far apart two boxes are, across or down (0 or less: they touch)."""
    return max(a["x"] - b["right"], b["x"] - a["right"], a["y"] - b["bottom"], b["y"] - a["bottom"])


@pytest.mark.parametrize("size", SIZES)
def test_every_area_says_who_holds_it_in_words_beside_its_tint(
    page: Any, live_server: Any, korona: Campaign, shot: Any, size: str
) -> None:
    """A colour-blind reader could not tell the tints apart: each area's tag says who
    holds it, legibly, clear of the chips and names, and the legend says what it means."""
    page.set_viewport_size(SIZES[size])
    sign_in(page, live_server, "aussie", f"/campaigns/{korona.pk}/")
    page.locator("#messages-box section.latest-messages").wait_for()
    tags = boxes(page, "svg.campaign-map g.holder")
    assert len(tags) == 10
    words = {tag["texts"]["holder-words"]["words"] for tag in tags}
    assert words <= {"AUS", "JPN", "none", "AUS?", "JPN?", "none?"} and "JPN" in words
    chips = [chip["rect"] for chip in boxes(page, "svg.campaign-map a.chip")]
    names = page.eval_on_selector_all(
        "svg.campaign-map text.area-name",
        """els => els.map(el => { const b = el.getBoundingClientRect();
            return {x: b.left, y: b.top, right: b.right, bottom: b.bottom}; })""",
    )
    for tag in tags:
        text = tag["texts"]["holder-words"]
        assert inside(text, tag["rect"]), tag
        assert text["bottom"] - text["y"] >= 10  # as legible as a chip's words on a phone
        assert not [box for box in chips + names if overlap(tag["rect"], box)], tag
    legend = " ".join(page.locator(".map-legend .legend").first.text_content().split())
    for key in ("AUS held by the Australians", "JPN held by the Japanese", "none held by nobody"):
        assert key in legend
    shot(f"map-holders-{size}")


@pytest.mark.parametrize(
    "reader,own,enemy",
    [("japanese", "japanese", "australian"), ("aussie", "australian", "japanese")],
)
@pytest.mark.parametrize("size", SIZES)
def test_the_legend_draws_the_readers_side_in_its_own_colours_and_explains_every_mark(
    page: Any,
    live_server: Any,
    korona: Campaign,
    shot: Any,
    reader: str,
    own: str,
    enemy: str,
    size: str,
) -> None:
    page.set_viewport_size(SIZES[size])
    sign_in(page, live_server, reader, f"/campaigns/{korona.pk}/")
    legend = page.locator(".chips-legend")
    samples = legend.locator("svg.chip-sample")
    assert samples.count() == 2
    own_chip = samples.nth(0).locator("g.chip")
    assert own_chip.get_attribute("data-side") == own
    # Named as the reader's side names its companies (the Japanese by number).
    assert (own_chip.text_content() or "").startswith(
        {"australian": "X Company:", "japanese": "9th Company:"}[own]
    )
    assert own_chip.locator("rect").get_attribute("fill") == SIDE_COLOURS[own]
    enemy_chip = samples.nth(1).locator("g.chip.glimpse")
    assert enemy_chip.get_attribute("data-side") == enemy
    assert enemy_chip.locator("rect").get_attribute("stroke") == SIDE_COLOURS[enemy]
    # The reader's own chips on the map are in the colours of the legend's own sample.
    fills = page.eval_on_selector_all(
        "svg.campaign-map a.chip:not(.glimpse) rect",
        "rects => rects.map(r => r.getAttribute('fill'))",
    )
    assert fills and set(fills) == {SIDE_COLOURS[own]}
    # Every mark a chip can carry is explained in words.
    words = legend.text_content()
    for mark, meaning in SUPPLY_MARK_WORDS.items():
        assert f"{mark} {meaning}" in " ".join(words.split())
    marks = page.eval_on_selector_all(
        "svg.campaign-map text.chip-mark", "marks => marks.map(m => m.textContent)"
    )
    assert set(marks) <= set(SUPPLY_MARK_WORDS)
    symbols = page.locator(".legend").first.text_content()
    for glyph in ("⚓", "✈", "★", "⌂"):
        assert glyph in symbols
    assert "·" not in page.locator(".legend").first.text_content()  # no unexplained dot
    shot(f"map-legend-{reader}-{size}")


HOW_WON = (
    "To win, hold Korona when the campaign ends: after turn 20, or sooner if a side loses "
    "its base or its last fighting company."
)


@pytest.mark.parametrize("size", SIZES)
def test_a_paused_campaign_shows_no_countdown(
    page: Any, live_server: Any, korona: Campaign, shot: Any, size: str
) -> None:
    Campaign.objects.filter(pk=korona.pk).update(
        status=Campaign.Status.PAUSED, next_deadline=datetime(2031, 7, 5, 18, 0, tzinfo=UTC)
    )
    page.set_viewport_size(SIZES[size])
    sign_in(page, live_server, "aussie", f"/campaigns/{korona.pk}/")
    head = page.locator(".map-head")
    assert page.locator("[data-countdown]").count() == 0
    assert " ".join(head.text_content().split()) == (
        f"{korona.name} Turn 1 played · Turn 2 of 20 is next {HOW_WON} "
        "The game master has paused the campaign: no turn is played when every side is "
        "ready until they resume it; they may still play one by hand."
    )
    shot(f"map-head-paused-{size}")


@pytest.mark.parametrize("size", SIZES)
def test_a_tabletop_turn_waiting_for_results_has_one_line(
    page: Any, live_server: Any, django_user_model: Any, shot: Any, size: str
) -> None:
    campaign = create_campaign(data=meeting_doc(), name="Korona on the table", seed=7)
    settings = campaign.get_settings()
    campaign.set_settings(dataclasses.replace(settings, battle_mode="tabletop"))
    campaign.save()
    advance_turn(campaign_id=campaign.pk)
    assert Turn.objects.get(campaign=campaign, number=1).status == Turn.Status.BATTLES_PENDING
    join(
        django_user_model.objects.create_user("aussie", "a@x.org", PASSWORD), campaign, "australian"
    )
    page.set_viewport_size(SIZES[size])
    sign_in(page, live_server, "aussie", f"/campaigns/{campaign.pk}/")
    head = " ".join(page.locator(".map-head").text_content().split())
    assert head == (
        f"{campaign.name} Turn 1 of 20 is under way {HOW_WON} Turn 1 "
        "waits for its battles to be fought on the table: it ends when the game master has "
        "entered their results."
    )
    # Turn 1 has moved its companies, and the map shows them moved: not "after turn 0".
    title = "Map of Korona on the table during turn 1, waiting for its battles"
    assert page.locator("#map-title").text_content() == title
    shot(f"map-head-tabletop-{size}")
