"""A player's reports in a real browser: a battle report and its replay, the printable
battle sheet, and the turn history, on a desk and on a phone."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse

from battles.models import Battle
from battles.web import battleview
from campaign.models import Campaign, Membership
from tests.admin.conftest import waiting_campaign
from tests.browser.conftest import ARTIFACTS

pytestmark = pytest.mark.django_db(transaction=True)


PHONE = {"width": 390, "height": 844}


def fought_battle(campaign: Campaign) -> Battle:
    battle = Battle.objects.filter(campaign=campaign, status="fought").order_by("id").first()
    assert battle is not None
    return battle


def stand_moved_in_a_later_step(battle: Battle) -> str:
    move = next(r for r in battle.log if r["kind"] == "move")
    return move["stand"]


def fits_the_width(page: Any) -> bool:
    return page.evaluate(
        "document.documentElement.scrollWidth <= document.documentElement.clientWidth + 1"
    )


def test_a_player_steps_through_and_plays_a_battle_replay(
    played: Campaign, aussie: Any, signed_in: Any, live_server: Any, shot: Any
) -> None:
    battle = fought_battle(played)
    page = signed_in(aussie)
    page.goto(live_server.url + reverse("battle", args=[played.pk, battle.pk]))
    counter = page.locator('[data-replay="counter"]')
    assert counter.inner_text().startswith("Step 1 of ")
    steps = int(counter.inner_text().rsplit(" ", 1)[1])
    assert page.locator('[data-replay="prev"]').is_disabled()
    mover = page.locator(f'g.stand[data-stand="{stand_moved_in_a_later_step(battle)}"]')
    start = mover.get_attribute("transform")
    shot("report-1-deployment")

    page.click('[data-replay="next"]')
    assert counter.inner_text() == f"Step 2 of {steps}"
    assert page.locator('[data-replay="where"]').inner_text().startswith("Battle turn 1: ")
    for _ in range(6):
        if mover.get_attribute("transform") != start:
            break
        page.click('[data-replay="next"]')
    assert mover.get_attribute("transform") != start  # the stand has moved on the table
    assert page.locator("g.trails line").count() >= 0
    assert page.locator(".replay-lines li").count() >= 1
    shot("report-2-next")

    page.click('[data-replay="play"]')
    assert page.locator('[data-replay="play"]').get_attribute("aria-pressed") == "true"
    reached = counter.inner_text()
    page.wait_for_function(
        "(seen) => document.querySelector('[data-replay=\"counter\"]').textContent !== seen",
        arg=reached,
    )
    page.click('[data-replay="play"]')  # pause
    assert page.locator('[data-replay="play"]').get_attribute("aria-pressed") == "false"
    shot("report-3-played")

    # The keyboard: focus the replay, End goes to the last step, Left steps back.
    page.focus("#replay")
    page.keyboard.press("End")
    assert counter.inner_text() == f"Step {steps} of {steps}"
    assert page.locator('[data-replay="next"]').is_disabled()
    assert page.locator("g.stand.lost").count() == sum(
        sum(v.values()) for v in battle.result["losses"].values()
    )
    shot("report-4-end")
    page.keyboard.press("ArrowLeft")
    assert counter.inner_text() == f"Step {steps - 1} of {steps}"
    page.keyboard.press("Home")
    assert counter.inner_text() == f"Step 1 of {steps}"
    assert mover.get_attribute("transform") == start


def test_the_battle_report_reads_on_a_phone(
    played: Campaign, japanese: Any, signed_in: Any, live_server: Any, shot: Any
) -> None:
    battle = fought_battle(played)
    page = signed_in(japanese)
    page.set_viewport_size(PHONE)
    page.goto(live_server.url + reverse("battle", args=[played.pk, battle.pk]))
    # The table is drawn larger than a phone (its names readable) in a frame that
    # scrolls sideways: the frame fits the phone, and so does the page.
    assert page.locator(".field-frame").first.bounding_box()["width"] <= PHONE["width"]
    assert fits_the_width(page)
    # The squares' names are haloed with a stroke: mitred, its corners stuck out of the
    # letters as white spikes ("A3 swamp", "heavy woods"; a walk-through).
    for label in ("text.cell-label", "text.cell-going"):
        joins = page.eval_on_selector(label, "e => getComputedStyle(e).strokeLinejoin")
        assert joins == "round"
    shot("report-5-phone")


def test_the_tables_edge_and_its_inch_marks_caption_are_two_labels_apart(
    played: Campaign, japanese: Any, signed_in: Any, live_server: Any, shot: Any
) -> None:
    """The walk-through read "defender's edge (inches from the left corner)" as one
    caption: the edge's name and the inch marks' caption are two labels, apart."""
    battle = fought_battle(played)
    page = signed_in(japanese)
    for size, viewport in (("phone", PHONE), ("desktop", {"width": 1280, "height": 900})):
        page.set_viewport_size(viewport)
        page.goto(live_server.url + reverse("battle", args=[played.pk, battle.pk]))
        field = page.locator("svg.field").first
        edge = field.locator("text.edge-label", has_text="defender's edge")
        caption = field.locator("text.axis-label")
        assert edge.text_content() == "defender's edge"
        assert caption.text_content() == "inches from the left corner"
        a, b = edge.bounding_box(), caption.bounding_box()
        assert b["x"] + b["width"] < a["x"], (size, a, b)  # the caption left, a gap between
        table = field.locator("rect.table-edge").bounding_box()
        assert a["y"] > table["y"] + table["height"] and b["y"] > table["y"] + table["height"]
        # Both inside the picture, not cut off at its foot.
        whole = field.bounding_box()
        assert max(a["y"] + a["height"], b["y"] + b["height"]) <= whole["y"] + whole["height"]
        field.screenshot(path=str(ARTIFACTS / f"edge-labels-{size}.png"))


def test_the_battle_sheet_prints_without_the_navigation(
    played: Campaign, aussie: Any, signed_in: Any, live_server: Any, shot: Any
) -> None:
    battle = fought_battle(played)
    page = signed_in(aussie)
    page.set_viewport_size({"width": 1000, "height": 1400})
    page.goto(live_server.url + reverse("battle-sheet", args=[played.pk, battle.pk]))
    assert page.locator("header.top").is_visible()
    assert page.locator("table.squares-table tbody tr").count() == 9
    shot("sheet-1-screen")
    page.emulate_media(media="print")
    assert not page.locator("header.top").is_visible()
    assert not page.locator(".print-button").is_visible()
    shot("sheet-2-print")
    # Headless Chromium prints to PDF: the sheet fits on one or two A4 pages.
    pdf = page.pdf(format="A4", print_background=True)
    pages = len(re.findall(rb"/Type\s*/Page[^s]", pdf))
    assert 1 <= pages <= 2, pages
    (ARTIFACTS / "sheet.pdf").write_bytes(pdf)


def test_the_turn_history_and_a_turn_page(
    played: Campaign, aussie: Any, signed_in: Any, live_server: Any, shot: Any
) -> None:
    page = signed_in(aussie)
    page.goto(live_server.url + reverse("turns", args=[played.pk]))
    assert page.locator("ol.turns > li").count() == 2
    shot("turns-1-list")
    page.click("text=Turn 1")
    page.wait_for_url("**/turns/1/")
    # The turn's phases, in order, after the dice's commitment (issue 18) above them.
    phases = page.locator("section.phase h2", has_text=re.compile(r"^\d+\. "))
    assert phases.first.inner_text() == "1. Naval events"
    assert page.locator(".rolls .die").count() >= 3
    shot("turns-2-turn")
    page.set_viewport_size(PHONE)
    assert fits_the_width(page)
    shot("turns-3-phone")
    page.locator("a", has_text="battle report").first.click()
    page.wait_for_url("**/battles/*/")
    assert page.locator("#replay").is_visible()


def heading_lines(page: Any, selector: str) -> int:
    """How many lines the element's text takes, from its height and line height."""
    return page.eval_on_selector(
        selector,
        "e => Math.round(e.getBoundingClientRect().height"
        " / parseFloat(getComputedStyle(e).lineHeight))",
    )


def test_the_battle_sheets_title_reads_on_a_phone(
    aussie: Any, gm_user: Any, signed_in: Any, live_server: Any, shot: Any
) -> None:
    """A walk-through: on a phone the sheet's title, "Battle sheet: Korona, in the
    campaign Korona 1", took four lines of heading type. The heading names the battle,
    the campaign is named in the line below it, in smaller type."""
    campaign, battles = waiting_campaign("Kokoda table, second run")
    Membership.objects.create(user=aussie, campaign=campaign, side="australian")
    battle = battles["1:Korona:1"]
    for user, who in ((aussie, "player"), (gm_user, "gm")):
        page = signed_in(user)
        for size, viewport in (("phone", PHONE), ("desktop", {"width": 1280, "height": 900})):
            page.set_viewport_size(viewport)
            page.goto(live_server.url + reverse("battle-sheet", args=[campaign.pk, battle.pk]))
            shot(f"sheet-3-title-{who}-{size}")
            assert page.locator("h1").inner_text().startswith("Battle sheet: Korona")
            assert heading_lines(page, "h1 .title") == 1, (who, size)
            detail = page.locator("h1 .detail")
            assert detail.inner_text() == "in the campaign Kokoda table, second run"
            assert heading_lines(page, "h1 .detail") <= (2 if size == "phone" else 1)
            below = detail.bounding_box()["y"] >= page.locator("h1 .title").bounding_box()["y"] + 1
            assert below, (who, size)
            assert fits_the_width(page)


# Every step of a replay, measured in the page: each square's name or going against each
# stand's counter (its letters inside it), and each counter of a stand still fighting
# against every other. Returns the overlaps found, in words.
MEASURE_EVERY_STEP = """() => {
  const next = document.querySelector('[data-replay="next"]');
  const box = (el) => el.getBoundingClientRect();
  const meet = (a, b) => a.left < b.right - .01 && b.left < a.right - .01
    && a.top < b.bottom - .01 && b.top < a.bottom - .01;
  const found = [];
  let steps = 0;
  for (;;) {
    steps += 1;
    const stands = Array.from(document.querySelectorAll("#replay g.stand:not(.off)"));
    const names = Array.from(document.querySelectorAll("#replay g.square-labels text"))
      .filter((t) => t.getAttribute("visibility") !== "hidden");
    for (const name of names) {
      for (const stand of stands) {
        for (const part of [stand.querySelector(".counter"), stand.querySelector("text")]) {
          if (meet(box(name), box(part))) {
            found.push(`step ${steps}: "${name.textContent}" over ${stand.dataset.stand}`);
          }
        }
      }
    }
    const living = stands.filter((s) => !s.classList.contains("lost"));
    living.forEach((a, i) => living.slice(i + 1).forEach((b) => {
      if (meet(box(a.querySelector(".counter")), box(b.querySelector(".counter")))) {
        found.push(`step ${steps}: ${a.dataset.stand} on ${b.dataset.stand}`);
      }
    }));
    if (next.disabled) return {steps, found};
    next.click();
  }
}"""


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_no_square_name_covers_a_stand_and_no_counter_another_at_any_step(
    played: Campaign, gm_user: Any, signed_in: Any, live_server: Any, size: str
) -> None:
    """A walk-through: on a phone "B3 hill" was written over an MG and R4, and in tight
    clusters counters overlapped a little. At every step of every battle's replay, no
    square's name or going touches a stand's counter, and no counter of a stand still
    fighting touches another's (the records keep the engine's positions: only the
    drawing moves)."""
    battles = list(Battle.objects.filter(campaign=played, status="fought").order_by("id"))
    assert len(battles) >= 2
    page = signed_in(gm_user)
    page.set_viewport_size(PHONE if size == "phone" else {"width": 1280, "height": 900})
    for battle in battles:
        page.goto(live_server.url + reverse("battle", args=[played.pk, battle.pk]))
        field = page.locator("#replay .field-frame")
        field.screenshot(path=str(ARTIFACTS / f"replay-labels-{size}-{battle.pk}-first.png"))
        measured = page.evaluate(MEASURE_EVERY_STEP)
        assert measured["steps"] == len(frames_of(battle)), battle.pk
        assert measured["found"] == [], (battle.pk, measured["found"][:10])
        field.screenshot(path=str(ARTIFACTS / f"replay-labels-{size}-{battle.pk}-last.png"))


def frames_of(battle: Battle) -> list[Any]:
    table = battleview.table_of(battle.spec, battle.seed, battle.log, battle.result)
    return battleview.replay_frames(battle.log, ruleset=battle.ruleset, table=table)


def test_the_battle_sheets_squares_table_fits_a_phone(
    played: Campaign, aussie: Any, signed_in: Any, live_server: Any, shot: Any
) -> None:
    """A walk-through: on a phone the squares' table cut its dice column off at the
    screen's edge, with nothing to say it scrolled. Every column fits, the dice too."""
    battle = fought_battle(played)
    page = signed_in(aussie)
    for size, viewport in (("phone", PHONE), ("desktop", {"width": 1280, "height": 900})):
        page.set_viewport_size(viewport)
        page.goto(live_server.url + reverse("battle-sheet", args=[played.pk, battle.pk]))
        squares = page.locator("table.squares-table")
        squares.scroll_into_view_if_needed()
        shot(f"sheet-4-squares-{size}")
        squares.screenshot(path=str(ARTIFACTS / f"sheet-4-squares-{size}-table.png"))
        frame = page.locator("section[aria-labelledby=sheet-squares] .table-scroll")
        fits = frame.evaluate("e => e.scrollWidth <= e.clientWidth")
        assert fits, size
        assert fits_the_width(page), size
        dice = squares.locator("tbody tr").first.locator("td").last
        assert dice.inner_text().startswith("2d6 ")
        box, frame_box = dice.bounding_box(), frame.bounding_box()
        assert box["x"] + box["width"] <= frame_box["x"] + frame_box["width"] + 0.5, size


# Each square's name and going written in the sheet's picture, and its square, on screen.
LABELS_IN_SQUARES = """() => {
  const svg = document.querySelector('#sheet-field');
  const cells = {};
  svg.querySelectorAll('rect.cell').forEach((c) => { cells[c.dataset.square] = c; });
  const out = [];
  svg.querySelectorAll('g.square-labels text').forEach((t) => {
    if (t.getAttribute('visibility') === 'hidden') return;
    const square = t.textContent.split(' ')[0];
    const cell = (cells[square] || [...svg.querySelectorAll('rect.cell')].find((c) =>
      Number(c.getAttribute('x')) === Number(t.dataset.x)
      && Number(c.getAttribute('y')) === Number(t.dataset.y))).getBoundingClientRect();
    const b = t.getBoundingClientRect();
    out.push([t.textContent, b.left >= cell.left - .5 && b.right <= cell.right + .5]);
  });
  return out;
}"""


def test_the_battle_sheets_longest_square_names_fit_a_phone(
    played: Campaign, aussie: Any, signed_in: Any, live_server: Any, shot: Any
) -> None:
    """A walk-through saw a square's name ("C3 steep high") cut off on a phone: with the
    longest names and goings on every square, each is written within its square in the
    picture, and the squares' table fits the screen."""
    battle = fought_battle(played)
    grounds = ["steep_high_ridge", "mud_rocks_swamp", "steep_low_ridge"]
    log = [
        {**r, "landform": grounds[i % 3], "vegetation": "heavy_woods", "going": "bad"}
        | {"dice": [6, 6, 6]}
        if r.get("kind") == "terrain"
        else r
        for i, r in enumerate(battle.log)
    ]
    Battle.objects.filter(pk=battle.pk).update(log=log)
    page = signed_in(aussie)
    for size, viewport in (("phone", PHONE), ("desktop", {"width": 1280, "height": 900})):
        page.set_viewport_size(viewport)
        page.goto(live_server.url + reverse("battle-sheet", args=[played.pk, battle.pk]))
        labels = page.evaluate(LABELS_IN_SQUARES)
        assert any(text.endswith("steep high") for text, _ in labels)
        assert len(labels) == 18 and all(inside for _, inside in labels), (size, labels)
        assert fits_the_width(page), size
        frame = page.locator("section[aria-labelledby=sheet-squares] .table-scroll")
        assert frame.evaluate("e => e.scrollWidth <= e.clientWidth"), size
        page.locator("#sheet-field").screenshot(
            path=str(ARTIFACTS / f"sheet-5-longest-names-{size}-field.png")
        )
        page.locator("section[aria-labelledby=sheet-squares]").screenshot(
            path=str(ARTIFACTS / f"sheet-5-longest-names-{size}-squares.png")
        )


# Every step of a replay (or the one picture of a sheet), measured in the page: each tree
# drawn against each square's name or going written, and each wooded square's trees.
MEASURE_TREES = """(selector) => {
  const box = (el) => el.getBoundingClientRect();
  const meet = (a, b) => a.left < b.right - .01 && b.left < a.right - .01
    && a.top < b.bottom - .01 && b.top < a.bottom - .01;
  const shown = (el) => el.getAttribute("visibility") !== "hidden";
  const svg = document.querySelector(selector);
  const next = document.querySelector('[data-replay="next"]');
  const found = [];
  let steps = 0;
  let woods = 0;
  for (;;) {
    steps += 1;
    const names = Array.from(svg.querySelectorAll("g.square-labels text")).filter(shown);
    svg.querySelectorAll("g.woods").forEach((square) => {
      woods += 1;
      const trees = Array.from(square.querySelectorAll(".tree")).filter(shown);
      if (trees.length === 0) found.push(`step ${steps}: no tree in ${square.dataset.square}`);
      for (const name of names) {
        if (trees.some((tree) => meet(box(name), box(tree)))) {
          found.push(`step ${steps}: "${name.textContent}" over a tree`);
        }
      }
    });
    if (!next || !svg.closest("#replay") || next.disabled) return {steps, woods, found};
    next.click();
  }
}"""


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_no_square_name_is_written_over_a_tree(
    played: Campaign, aussie: Any, signed_in: Any, live_server: Any, size: str
) -> None:
    """A walk-through: on the table's picture "C3 flat" and "rough, light woods" were
    written over the woods' trees, each hiding the other. The trees are drawn one by one,
    none where a square's name or going is, on the sheet and at every step of the
    replay, where the names move; a wooded square keeps trees."""
    page = signed_in(aussie)
    page.set_viewport_size(PHONE if size == "phone" else {"width": 1280, "height": 900})
    woods = 0
    for battle in Battle.objects.filter(campaign=played, status="fought").order_by("id"):
        for name, selector in (("battle-sheet", "#sheet-field"), ("battle", "#replay-field")):
            page.goto(live_server.url + reverse(name, args=[played.pk, battle.pk]))
            field = page.locator(selector)
            field.screenshot(path=str(ARTIFACTS / f"trees-{name}-{size}-{battle.pk}.png"))
            measured = page.evaluate(MEASURE_TREES, selector)
            assert measured["found"] == [], (name, battle.pk, measured["found"][:10])
            woods += measured["woods"]
    assert woods > 0  # the played campaign's battles have woods
