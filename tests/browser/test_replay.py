"""A battle's replay as a player uses it (issue 15): the keys step it from the moment the
page opens and after any button (First and Last included, which disable themselves), the
woods are drawn as trees that no one takes for a stand, and the log says where stands go
by the sheet's squares, not by coordinates."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from battles.models import Battle
from battles.web import battleview
from campaign.models import Campaign
from tests.browser.conftest import ARTIFACTS

pytestmark = pytest.mark.django_db(transaction=True)

SIZES = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}
COORDINATES = re.compile(r"\(\d+(\.\d+)?, \d+(\.\d+)?\)|square \d+,\d+")
MOVE = re.compile(
    r"moves \d+ inch(es)?, (from square [A-Z]\d+ to square [A-Z]\d+|within square [A-Z]\d+) "
    r"\([A-Za-z0-9 ]+, [a-z]+ going\)"
)


@pytest.fixture
def report(page: Any, live_server: Any, played: Campaign, aussie: Any) -> Any:
    """The battle report of the played campaign's first fought battle, signed in."""
    battle = Battle.objects.filter(campaign=played, status="fought").order_by("id").first()
    assert battle is not None
    client = Client()
    client.force_login(aussie)
    page.context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )

    def open_at(size: str) -> Any:
        page.set_viewport_size(SIZES[size])
        page.goto(live_server.url + reverse("battle", args=[played.pk, battle.pk]))
        return page

    return open_at


def step(page: Any) -> int:
    return int(page.locator('[data-replay="counter"]').inner_text().split()[1])


@pytest.mark.parametrize("size", SIZES)
def test_the_keys_step_the_replay_on_load_and_after_every_button(
    report: Any, shot: Any, size: str
) -> None:
    page = report(size)
    steps = int(page.locator('[data-replay="counter"]').inner_text().rsplit(" ", 1)[1])
    assert steps > 3
    page.keyboard.press("ArrowRight")  # nothing clicked, nothing focused
    assert step(page) == 2
    page.keyboard.press("End")
    assert step(page) == steps
    page.keyboard.press("Home")
    assert step(page) == 1
    for button, then, expected in (
        ("next", "ArrowRight", 3),
        ("last", "ArrowLeft", steps - 1),  # Last disables itself: the keys go on
        ("first", "ArrowRight", 2),  # and so does First
        ("prev", "ArrowRight", 2),
    ):
        page.click(f'[data-replay="{button}"]')
        page.keyboard.press(then)
        assert step(page) == expected, (button, then)
    page.click('[data-replay="last"]')
    page.keyboard.press("Home")
    assert step(page) == 1
    page.keyboard.press(" ")  # the space bar plays
    assert page.locator('[data-replay="play"]').get_attribute("aria-pressed") == "true"
    page.keyboard.press(" ")
    assert page.locator('[data-replay="play"]').get_attribute("aria-pressed") == "false"
    shot(f"replay-keys-{size}")


@pytest.mark.parametrize("size", SIZES)
def test_woods_are_trees_and_the_log_names_squares(report: Any, shot: Any, size: str) -> None:
    page = report(size)
    # A stand is a filled circle; woods are trees, in the picture and in its key.
    for woods in ("light", "heavy"):
        pattern = page.locator(f"#replay-field pattern#woods-{woods}")
        assert pattern.locator("circle").count() == 0
        assert pattern.locator("path").count() == 1
        key = page.locator(f'.legend svg.key[data-key="{woods}-woods"]')
        assert key.locator("circle").count() == 0
    assert page.locator("#replay-field g.stand circle").count() > 0
    # The replay's lines, every step of them, and the log below say squares, never
    # coordinates.
    frames = json.loads(page.locator("#replay-frames").text_content())
    lines = [line for frame in frames for line in frame["lines"]]
    assert not [line for line in lines if COORDINATES.search(line)]
    moves = [line for line in lines if " moves " in line]
    assert moves and not [line for line in moves if not MOVE.search(line)]
    assert not COORDINATES.search(page.locator("main").inner_text())
    page.keyboard.press("ArrowRight")
    page.locator("#replay").scroll_into_view_if_needed()
    shot(f"replay-woods-{size}")


@pytest.mark.parametrize("size", SIZES)
def test_the_sides_stands_differ_in_shape_not_only_in_colour(
    report: Any, shot: Any, size: str
) -> None:
    """Green and red of about the same lightness are one colour to a red-green colour-blind
    reader (and on a page printed in grey): an Australian stand is round, a Japanese one
    square, in the picture and in its key."""
    page = report(size)
    field = page.locator("#replay-field")
    for side, shape, other in (("australian", "circle", "rect"), ("japanese", "rect", "circle")):
        stands = field.locator(f"g.stand.side-{side}")
        assert stands.count() > 0, side
        assert stands.locator(f"{shape}.counter").count() == stands.count(), side
        assert stands.locator(other).count() == 0, side
    key = page.locator(".legend li", has_text="Japanese stand")
    assert key.locator("svg.key rect").count() == 1 and key.locator("circle").count() == 0
    assert "square" in key.inner_text()
    # The replay's steps still colour and hide the counters, whatever their shape.
    page.keyboard.press("End")
    lost = field.locator("g.stand.lost .counter").first
    assert lost.evaluate("e => getComputedStyle(e).fill") == "rgb(85, 85, 85)"
    page.locator("#replay").scroll_into_view_if_needed()
    shot(f"replay-shapes-{size}")


def test_a_touch_screen_is_told_of_the_buttons_a_desk_of_the_keys(
    browser: Any, live_server: Any, played: Campaign, aussie: Any, report: Any
) -> None:
    """A phone read "Left and right arrow keys step through the battle": it has none."""
    desk = report("desktop")
    help_text = desk.locator("#replay-help")
    assert "arrow keys" in help_text.inner_text() and "buttons above" not in help_text.inner_text()
    cookies = desk.context.cookies()
    phone = browser.new_context(
        viewport=SIZES["phone"], has_touch=True, is_mobile=True, device_scale_factor=2
    )
    try:
        phone.add_cookies(cookies)
        page = phone.new_page()
        page.goto(desk.url)
        said = page.locator("#replay-help").inner_text()
        assert "The buttons above step through the battle" in said, said
        assert "arrow keys" not in said and "Dashed arrows show this step" in said
    finally:
        phone.close()


@pytest.mark.parametrize("size", SIZES)
def test_a_stand_on_the_tables_edge_is_drawn_wholly_on_the_table(
    report: Any, played: Campaign, shot: Any, size: str
) -> None:
    """The engines put stands on the very edge (an edge entry, a move stopped by it): their
    counters hung half off the table, over the inch marks. Every counter, at every step
    (the server draws the first, replay.js the rest) and every move's arrow, is drawn on
    the table; the frames keep the true positions."""
    battle = Battle.objects.filter(campaign=played, status="fought").order_by("id").first()
    assert battle is not None
    log = battle.log
    deploy = next(r for r in log if r["kind"] == "deploy")
    edges = [[0, 0], [36, 36], [0, 36], [36, 0], [18, 0], [18, 36], [0, 18], [36, 18]]
    deploy["positions"].update(dict(zip(deploy["positions"], edges, strict=False)))
    move = next(r for r in log if r["kind"] == "move")
    move["to"] = [0, move["to"][1]]  # a move that stops at the left edge
    Battle.objects.filter(pk=battle.pk).update(log=log)
    page = report(size)
    frames = json.loads(page.locator("#replay-frames").text_content())
    assert list(frames[0]["positions"].values()).count([0, 0]) == 1  # the truth is kept
    # The table's box read with the counters, at one moment: on a phone the frame scrolls
    # to each step's action, so the table moves on the screen from step to step.
    table = "#replay-field rect.table-edge"
    outside = """(els, edge) => { const t = document.querySelector(edge).getBoundingClientRect();
        return els.filter((e) => getComputedStyle(e.closest('g.stand')).display
        !== 'none').map((e) => [e.closest('g.stand').dataset.stand, e.getBoundingClientRect()])
        .filter(([, b]) => b.left < t.x - .01 || b.top < t.y - .01
            || b.right > t.x + t.width + .01 || b.bottom > t.y + t.height + .01)
        .map(([id]) => id); }"""
    arrows = """(els, edge) => { const t = document.querySelector(edge).getBoundingClientRect();
        return els.map((e) => e.getBoundingClientRect())
        .filter((b) => b.left < t.x - .01 || b.top < t.y - .01
            || b.right > t.x + t.width + .01 || b.bottom > t.y + t.height + .01).length; }"""
    moves_seen = 0
    for index in range(len(frames)):
        if index:
            page.keyboard.press("ArrowRight")
        counters = page.locator("#replay-field g.stand .counter")
        assert counters.evaluate_all(outside, table) == [], (size, index)
        trails = page.locator("#replay-field g.trails line")
        moves_seen += trails.count()
        assert trails.evaluate_all(arrows, table) == 0, (size, index)
    assert moves_seen > 0
    page.keyboard.press("Home")
    page.locator("#replay").scroll_into_view_if_needed()
    shot(f"replay-edges-{size}")


def test_a_phone_reads_the_replay_its_names_the_buttons_and_every_line_of_the_step(
    report: Any, shot: Any
) -> None:
    """A walk-through at 390 px: the stands' names were about 8 px high, the help spoke of
    arrow keys and a space bar, and the step's dice sat in a small box that cut its lines
    off. The table is zoomed in a frame that scrolls sideways; the help names the
    buttons; every line of the step is shown. A desk keeps its box of whole lines."""
    page = report("phone")
    for _ in range(10):
        page.locator('[data-replay="next"]').click()
    assert step(page) == 11
    heights = page.locator("#replay-field .stand:not(.off) text").evaluate_all(
        "texts => texts.map(t => t.getBoundingClientRect().height)"
    )
    assert heights and min(heights) >= 11, heights
    squares = page.locator("#replay-field .cell-label").evaluate_all(
        "texts => texts.map(t => t.getBoundingClientRect().height)"
    )
    assert min(squares) >= 13, squares
    frame = page.locator(".field-frame")
    assert frame.evaluate("f => f.scrollWidth > f.clientWidth")  # it scrolls, not the page
    assert frame.evaluate("f => f.scrollLeft > 0")  # opened on the stands, not the left edge
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    said = page.locator("#replay-help").inner_text()
    assert "The buttons above step through the battle" in said and "arrow keys" not in said
    lines = page.locator('[data-replay="lines"]')
    assert lines.locator("li").count() > 3
    assert lines.evaluate("box => box.scrollHeight <= box.clientHeight"), "lines cut off"
    shot("replay-phone-step11")
    page.locator("#replay").screenshot(path=str(ARTIFACTS / "replay-phone-step11-figure.png"))

    desk = report("desktop")
    # The step with the most lines, which overflows a desk's box of 8.
    sizes = json.loads(desk.locator("#replay-frames").text_content())
    longest = max(range(len(sizes)), key=lambda i: len(sizes[i]["lines"]))
    assert len(sizes[longest]["lines"]) > 8
    for _ in range(longest):
        desk.locator('[data-replay="next"]').click()
    box = desk.locator('[data-replay="lines"]')
    assert box.evaluate("b => b.scrollHeight > b.clientHeight")
    # A box of whole lines: its inside (its top padding aside; none below, where the next
    # line would show cut) is a whole number of line heights.
    inner, line = box.evaluate(
        "b => { const s = getComputedStyle(b); return [b.clientHeight - parseFloat(s.paddingTop)"
        " - parseFloat(s.paddingBottom), parseFloat(s.lineHeight)]; }"
    )
    assert abs(inner / line - round(inner / line)) < 0.05, (inner, line)
    assert box.evaluate("b => getComputedStyle(b).paddingBottom") == "0px"
    assert "arrow keys" in desk.locator("#replay-help").inner_text()
    desk.locator("#replay").screenshot(path=str(ARTIFACTS / "replay-desktop-longest-figure.png"))


# At the step shown: the names of the squares painted under a counter that crosses them,
# how many names a counter crosses (the names drawn above it), the lost stands painted
# over a stand still fighting, and the stands still fighting whose counters are drawn
# so close that one hides most of the other's name (under 1.5 inches apart, a counter
# 2.4 across, its name 1.3).
LAYERS = """() => {
  const field = document.querySelector('#replay-field');
  const inch = field.getBoundingClientRect().width / field.viewBox.baseVal.width;
  const shown = [...field.querySelectorAll('g.stand')]
    .filter((g) => getComputedStyle(g).display !== 'none');
  const box = (e) => e.getBoundingClientRect();
  const meet = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom
    && b.top < a.bottom;
  const above = (a, b) => Boolean(b.compareDocumentPosition(a) & Node.DOCUMENT_POSITION_FOLLOWING);
  const counter = (g) => box(g.querySelector('.counter'));
  const lost = (g) => g.classList.contains('lost');
  const names = [...field.querySelectorAll('text.cell-label, text.cell-going')];
  const crossed = names.flatMap((t) => shown.filter((g) => meet(box(t), counter(g)))
    .map((g) => [t.textContent, g.dataset.stand, above(t, g)]));
  const pairs = shown.flatMap((g, i) => shown.slice(i + 1).map((h) => [g, h]));
  const centre = (b) => [(b.left + b.right) / 2, (b.top + b.bottom) / 2];
  const apart = (g, h) => {
    const [a, b] = [centre(counter(g)), centre(counter(h))];
    return Math.hypot(a[0] - b[0], a[1] - b[1]);
  };
  return {
    hidden: crossed.filter(([, , up]) => !up).map(([t, g]) => `${t} under ${g}`),
    crossed: crossed.length,
    veiled: pairs.filter(([g, h]) => lost(g) !== lost(h) && meet(counter(g), counter(h)))
      .filter(([g, h]) => (lost(g) ? above(g, h) : above(h, g)))
      .map(([g, h]) => `${g.dataset.stand} / ${h.dataset.stand}`),
    close: pairs.filter(([g, h]) => !lost(g) && !lost(h) && apart(g, h) < 1.5 * inch - 0.5)
      .map(([g, h]) => `${g.dataset.stand} / ${h.dataset.stand}`),
  };
}"""


@pytest.mark.parametrize("size", SIZES)
def test_the_squares_names_read_above_the_stands_and_no_stand_hides_another(
    report: Any, played: Campaign, shot: Any, size: str
) -> None:
    """Stands hid the names of the squares they stood in ("B3 flat"), and each other: two
    on one inch were one counter. At every step, in real battles, each name is drawn
    above any counter that crosses it, a lost stand beneath those still fighting, and
    no two of these so close that one hides the other's name."""
    crossed = 0
    fought = Battle.objects.filter(campaign=played, status="fought").order_by("id")[:2]
    for number, battle in enumerate(fought, start=1):
        page = report(size)
        page.goto(page.url.rsplit("/battles/", 1)[0] + f"/battles/{battle.pk}/")
        steps = len(json.loads(page.locator("#replay-frames").text_content()))
        for index in range(steps):
            if index:
                page.keyboard.press("ArrowRight")
            layers = page.evaluate(LAYERS)
            assert layers["hidden"] == [], (battle.pk, index, layers)
            assert layers["veiled"] == [], (battle.pk, index, layers)
            assert layers["close"] == [], (battle.pk, index, layers)
            crossed += layers["crossed"]
            if index in (1, steps - 1):
                page.locator("#replay").scroll_into_view_if_needed()
                shot(f"replay-names-battle-{number}-step-{index + 1}-{size}")
    assert crossed > 0  # stands did stand on the names: the test saw what it checks


# Each living counter shown, with the square its stand stands in (by the frame's true
# position), whether its drawing's centre is in that square (on its line counts, as a
# stand on the line is drawn: ``Table.square_bounds``), and its box.
COUNTERS_AND_SQUARES = """(els, frame) => {
    const cells = Array.from(document.querySelectorAll('#replay-field rect.cell'))
        .map((c) => [c.dataset.square, c.getBoundingClientRect()]);
    const width = Math.max(...cells.map(([n]) => n.charCodeAt(0) - 64));
    const depth = Math.max(...cells.map(([n]) => Number(n.slice(1))));
    const square = ([x, y]) => String.fromCharCode(65 + Math.min(Math.floor(x / 12), width - 1))
        + (Math.min(Math.floor(y / 12), depth - 1) + 1);
    return els.map((e) => e.closest('g.stand')).filter((g) => getComputedStyle(g).display
        !== 'none' && !frame.lost.includes(g.dataset.stand)).map((g) => {
        const b = g.querySelector('.counter').getBoundingClientRect();
        const [cx, cy] = [(b.left + b.right) / 2, (b.top + b.bottom) / 2];
        const own = square(frame.positions[g.dataset.stand]);
        const c = cells.find(([name]) => name === own)[1];
        const inside = c.left - .5 <= cx && cx <= c.right + .5 && c.top - .5 <= cy
            && cy <= c.bottom + .5;
        return {stand: g.dataset.stand, square: own, inside: inside,
            box: [b.left, b.top, b.right, b.bottom]};
    });
}"""


@pytest.mark.parametrize("size", SIZES)
def test_a_crowded_square_draws_every_counter_inside_it(
    report: Any, played: Campaign, shot: Any, size: str
) -> None:
    """A walk-through: with 14 stands or more in one square there was no free spot left,
    and a counter was drawn in the next square, where a player reads it as standing. At
    every step every counter of a stand still fighting is drawn in its own square (a
    crowded one's smaller, in a grid), none on another."""
    battle = Battle.objects.filter(campaign=played, status="fought").order_by("id").first()
    assert battle is not None
    log = battle.log
    deploy = next(r for r in log if r["kind"] == "deploy")
    crowd = sorted(deploy["positions"])[:22]
    assert len(crowd) >= 14
    deploy["positions"].update(
        {stand: [16 + (i * 7) % 5, 16 + (i * 3) % 5] for i, stand in enumerate(crowd)}
    )
    Battle.objects.filter(pk=battle.pk).update(log=log)
    page = report(size)
    frames = json.loads(page.locator("#replay-frames").text_content())
    smaller = 0
    for index, frame in enumerate(frames):
        if index:
            page.keyboard.press("ArrowRight")
        counters = page.locator("#replay-field g.stand .counter").evaluate_all(
            COUNTERS_AND_SQUARES, frame
        )
        for c in counters:
            assert c["inside"], (size, index, c)
        for i, a in enumerate(counters):
            for b in counters[i + 1 :]:
                (al, at, ar, ab), (bl, bt, br, bb) = a["box"], b["box"]
                overlap = min(ar, br) - max(al, bl), min(ab, bb) - max(at, bt)
                assert min(overlap) <= 0.5, (size, index, a["stand"], b["stand"])  # px
        smaller += sum(len(at) > 2 for at in frame["drawn"].values())
    assert smaller > 0  # the crowded square's counters were drawn smaller
    page.keyboard.press("Home")
    page.locator("#replay").scroll_into_view_if_needed()
    shot(f"replay-crowded-{size}")
    field = ARTIFACTS / f"replay-crowded-{size}-field.png"
    page.locator("#replay-field").screenshot(path=str(field))


@pytest.mark.parametrize("size", SIZES)
def test_a_phone_is_told_to_swipe_the_table_sideways(report: Any, shot: Any, size: str) -> None:
    """A walk-through: on a phone the table scrolls sideways in its frame, with no hint
    that it does (the campaign map says "Swipe the map sideways"). The same hint, the
    map's own, is shown right above the table where its frame scrolls, and not on a desk,
    where the whole table is in view."""
    page = report(size)
    hint = page.locator("#replay .swipe")
    frame = page.locator("#replay .field-frame")
    scrolls = frame.evaluate("f => f.scrollWidth > f.clientWidth")
    assert scrolls == (size == "phone")
    assert hint.is_visible() == scrolls
    assert hint.text_content() == (
        "Swipe the table sideways to see all of it; it opens on the stands, and each step "
        "brings its action into view."
    )
    if scrolls:
        hint_box, frame_box = hint.bounding_box(), frame.bounding_box()
        assert hint_box is not None and frame_box is not None
        assert 0 <= frame_box["y"] - (hint_box["y"] + hint_box["height"]) <= 24  # just above
    page.locator("#replay").scroll_into_view_if_needed()
    shot(f"replay-swipe-{size}")


IN_VIEW = """([frame, ids]) => {
  const box = frame.getBoundingClientRect();
  return ids.filter((id) => {
    const el = frame.querySelector(`g.stand[data-stand="${id}"]`);
    if (!el || el.classList.contains("off")) return false;
    const r = el.getBoundingClientRect();
    return r.left >= box.left - 0.5 && r.right <= box.right + 0.5;
  }).length;
}"""
SPAN = """([frame, ids]) => {
  const rects = ids.map((id) => frame.querySelector(`g.stand[data-stand="${id}"]`))
    .filter((el) => el && !el.classList.contains("off")).map((el) => el.getBoundingClientRect());
  if (!rects.length) return 0;
  return Math.max(...rects.map((r) => r.right)) - Math.min(...rects.map((r) => r.left));
}"""


def test_a_phone_opens_the_replay_on_the_stands_and_each_step_shows_its_action(
    report: Any, shot: Any
) -> None:
    """A walk-through: on a phone the replay opened on the table's middle, the deployed
    stands cut off at its edge (the swipe hint said only that the table scrolls), and a
    step's moves could happen out of view. It opens on the stands as deployed, every one
    in view where they fit, and each step brings the stands it moved or struck into view
    (all of them where they fit, else some), wherever the reader had swiped it; the hint
    says so."""
    page = report("phone")
    page.emulate_media(reduced_motion="reduce")  # no smooth scrolling to wait for
    page.reload()
    frames = json.loads(page.locator("#replay-frames").text_content())
    frame = page.locator("#replay .field-frame").element_handle()
    width = frame.evaluate("f => f.clientWidth")
    assert frame.evaluate("f => f.scrollWidth > f.clientWidth")
    deployed = [s for s, at in frames[0]["positions"].items() if at]
    assert page.evaluate(SPAN, [frame, deployed]) <= width  # they fit: every one in view
    assert page.evaluate(IN_VIEW, [frame, deployed]) == len(deployed)
    assert page.locator("#replay .swipe").text_content() == (
        "Swipe the table sideways to see all of it; it opens on the stands, and each step "
        "brings its action into view."
    )
    page.locator("#replay").scroll_into_view_if_needed()
    page.locator("#replay").screenshot(path=str(ARTIFACTS / "replay-phone-opened.png"))
    # The reader swipes to the table's left edge, then steps: each step's action comes
    # back into view.
    frame.evaluate("f => { f.scrollLeft = 0; }")
    followed = 0
    for index in range(1, len(frames)):
        before = frame.evaluate("f => f.scrollLeft")
        page.locator('[data-replay="next"]').click()
        acting = [move[0] for move in frames[index]["moves"]] + frames[index]["killed"]
        acting = [s for s in dict.fromkeys(acting) if frames[index]["positions"].get(s)]
        if not acting:
            assert frame.evaluate("f => f.scrollLeft") == before, index  # nothing to follow
            continue
        seen = page.evaluate(IN_VIEW, [frame, acting])
        if page.evaluate(SPAN, [frame, acting]) <= width:
            assert seen == len(acting), (index, seen, acting)
        else:
            assert seen > 0, (index, acting)
        followed += frame.evaluate("f => f.scrollLeft") != before
        if index in (1, len(frames) // 2):
            page.locator("#replay").screenshot(
                path=str(ARTIFACTS / f"replay-phone-step{index + 1}-followed.png")
            )
    assert followed > 0


# Each square (by its name line) whose name or going the picture leaves out at this step,
# and what is said under the picture.
LEFT_OUT = """() => {
    const labels = Array.from(document.querySelectorAll('#replay-field g.square-labels text'));
    const out = [];
    for (let k = 0; k + 1 < labels.length; k += 2) {
        if (labels[k].getAttribute('visibility') === 'hidden'
            || labels[k + 1].getAttribute('visibility') === 'hidden') {
            out.push(labels[k].textContent + ' – ' + labels[k + 1].textContent);
        }
    }
    const said = document.querySelector('[data-replay="unwritten"]');
    return {out: out, said: said.hidden ? '' : said.innerText};
}"""


@pytest.mark.parametrize("size", SIZES)
def test_a_squares_label_with_no_room_among_the_stands_is_said_under_the_picture(
    report: Any, played: Campaign, shot: Any, size: str
) -> None:
    """Stands stood where B3's going is written, so the picture left it out, and a reader
    took it for covered (a walk-through). At every step each square whose name or going
    has no room is said under the picture, whole; at a step with none, nothing is."""
    seen = 0
    fought = Battle.objects.filter(campaign=played, status="fought").order_by("id")[:2]
    for number, battle in enumerate(fought, start=1):
        page = report(size)
        page.goto(page.url.rsplit("/battles/", 1)[0] + f"/battles/{battle.pk}/")
        steps = len(json.loads(page.locator("#replay-frames").text_content()))
        for index in range(steps):
            if index:
                page.keyboard.press("ArrowRight")
            state = page.evaluate(LEFT_OUT)
            if not state["out"]:
                assert state["said"] == "", (battle.pk, index, state)
                continue
            seen += 1
            assert state["said"].startswith("Covered by stands at this step: "), state
            for item in state["out"]:
                assert item in state["said"], (battle.pk, index, item, state["said"])
            if seen == 1:
                page.locator("#replay").scroll_into_view_if_needed()
                shot(f"replay-unwritten-battle-{number}-step-{index + 1}-{size}")
    assert seen > 0  # some step had a label with no room: the test saw what it checks


@pytest.mark.parametrize("size", SIZES)
def test_at_the_last_step_no_stands_mark_runs_into_another(
    report: Any, shot: Any, size: str, played: Campaign
) -> None:
    """A walk-through: the last step drew lost stands faded where they fell, under the
    living and one another, and their marks ran together ("R18" beside two "R13" printed
    over each other; "R11" on two lost stands, their letters at both its sides). With two
    lost stands where a living one stands at the end, each mark written (a counter's text
    the page shows) lies clear of every other one, and a lost one's of every counter."""
    battle = Battle.objects.filter(campaign=played, status="fought").order_by("id").first()
    assert battle is not None
    last = battleview.replay_frames(battle.log)[-1]
    lost = last["lost"][:2]
    living = next(s for s in sorted(last["positions"]) if s not in last["lost"])
    assert len(lost) == 2
    end = next(i for i, r in enumerate(battle.log) if r["kind"] == "end")
    # Both moved onto the living stand's inch in the last step, as a melee leaves them.
    battle.log[end:end] = [
        {"turn": battle.log[end]["turn"], "phase": "end", "kind": "move", "dice": [],
         "stand": stand, "stand_type": "rifle_squad", "from": last["positions"][stand],
         "to": last["positions"][living], "going": "good", "purpose": "advance",
         "side": "japanese" if stand.startswith("a.") else "australian"}
        for stand in lost
    ]  # fmt: skip
    battle.save(update_fields=["log"])
    page = report(size)
    page.click('[data-replay="last"]')
    clashes = page.locator("#replay-field").evaluate(
        """svg => {
          const shown = (el) => el.getClientRects().length > 0
            && getComputedStyle(el).display !== "none";
          const stands = Array.from(svg.querySelectorAll("g.stand:not(.off)"));
          const marks = stands.map((g) => g.querySelector("text")).filter(shown);
          const meet = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5
            && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
          const out = [];
          marks.forEach((m) => {
            const box = m.getBoundingClientRect();
            const own = m.closest("g.stand");
            marks.forEach((o) => {
              if (o !== m && meet(box, o.getBoundingClientRect())) {
                out.push([own.dataset.stand, o.closest("g.stand").dataset.stand]);
              }
            });
            // A lost stand's mark, drawn beneath the living, must not lie under a counter.
            if (!own.classList.contains("lost")) return;
            stands.filter((g) => g !== own).forEach((g) => {
              if (meet(box, g.querySelector(".counter").getBoundingClientRect())) {
                out.push([own.dataset.stand, g.dataset.stand]);
              }
            });
          });
          return out;
        }"""
    )
    page.locator("#replay").scroll_into_view_if_needed()
    shot(f"replay-last-marks-{size}")
    figure = ARTIFACTS / f"replay-last-marks-{size}-figure.png"
    page.locator("#replay-field").screenshot(path=str(figure))
    assert clashes == []
