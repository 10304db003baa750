"""The server-side SVG: where things are drawn, in which style, and what each viewer's
SVG holds and does not hold."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

import pytest

from campaign.models import SPECTATOR, Area, Campaign, Company, Ship
from campaign.services.scenarios import create_campaign
from campaign.services.turns import advance_turn
from campaign.services.visibility import CampaignView, open_campaign
from campaign.web.mapdraw import (
    AREA_RADIUS,
    CHIPS_SHOWN,
    COLUMN_DEPTH,
    SIDE_COLOURS,
    SIDE_TINTS,
    SMALL_SHORT_NAME,
    StandsPoint,
    chip_name,
    draw_map,
    draw_stands_chart,
    link_track,
    map_areas,
    sample_chip,
    short_name,
    side_tag,
    track_styles,
)
from rules.campaign.scenario import load_scenario
from tests.campaign.conftest import KORONA, korona_doc
from tests.web.conftest import crowded_doc, join, meeting_doc

pytestmark = pytest.mark.django_db
SVG = "{http://www.w3.org/2000/svg}"


def parse(markup: str) -> ET.Element:
    return ET.fromstring(markup)


def drawn(user: Any, campaign: Campaign) -> tuple[CampaignView, ET.Element, str]:
    view = open_campaign(user=user, campaign=campaign)
    markup = str(draw_map(view))
    return view, parse(markup), markup


def circles(svg: ET.Element) -> dict[str, ET.Element]:
    return {c.get("data-area"): c for c in svg.iter(f"{SVG}circle")}


def chips(svg: ET.Element) -> list[ET.Element]:
    return [a for a in svg.iter(f"{SVG}a") if "chip" in (a.get("class") or "").split()]


def chip_words(chip: ET.Element) -> list[str]:
    return [t.text or "" for t in chip.iter(f"{SVG}text")]


def test_every_area_is_drawn_at_its_map_position(campaign: Campaign, gm_user: Any) -> None:
    view, svg, _ = drawn(gm_user, campaign)
    drawn_areas = circles(svg)
    assert set(drawn_areas) == set(view.state.areas)
    for name, area in view.state.areas.items():
        assert float(drawn_areas[name].get("cx")) == area.x
        assert float(drawn_areas[name].get("cy")) == area.y


def test_the_viewbox_holds_every_area_and_scales(campaign: Campaign, gm_user: Any) -> None:
    view, svg, _ = drawn(gm_user, campaign)
    x, y, width, height = map(float, svg.get("viewBox").split())
    for area in view.state.areas.values():
        assert x < area.x < x + width and y < area.y < y + height
    assert svg.get("width") is None and svg.get("height") is None  # the page sizes it


def test_every_link_is_drawn_between_its_two_areas(campaign: Campaign, gm_user: Any) -> None:
    view, svg, _ = drawn(gm_user, campaign)
    lines = {line.get("data-link"): line for line in svg.iter(f"{SVG}line")}
    assert len(lines) == len(view.state.links)
    for a, b in view.state.links:
        line = lines[f"{a}|{b}"]
        assert (float(line.get("x1")), float(line.get("y1"))) == (
            view.state.areas[a].x,
            view.state.areas[a].y,
        )
        assert (float(line.get("x2")), float(line.get("y2"))) == (
            view.state.areas[b].x,
            view.state.areas[b].y,
        )


def test_each_track_has_its_own_style_for_links_and_area_borders(
    campaign: Campaign, gm_user: Any
) -> None:
    view, svg, markup = drawn(gm_user, campaign)
    styles = track_styles(view.state)
    main, southern = styles["Korona track"], styles["southern track"]
    assert (main.colour, main.dash) != (southern.colour, southern.dash)
    assert f".{main.css_class}{{stroke:{main.colour}}}" in markup
    assert f".{southern.css_class}{{stroke:{southern.colour};stroke-dasharray:" in markup
    drawn_areas = circles(svg)
    assert main.css_class in drawn_areas["Korona"].get("class").split()
    assert southern.css_class in drawn_areas["Kerna"].get("class").split()
    lines = {line.get("data-link"): line.get("class").split() for line in svg.iter(f"{SVG}line")}
    assert main.css_class in lines["Korona|Oivi"]
    assert southern.css_class in lines["Erida|Kerna"]
    # A link joining the two tracks belongs to the branch, the smaller one.
    assert southern.css_class in lines["Uberi Ridge|Erida"]
    assert southern.css_class in lines["Munara|Oivi"]


def test_link_track_and_track_styles_on_their_own(campaign: Campaign, gm_user: Any) -> None:
    state = open_campaign(user=gm_user, campaign=campaign).state
    assert link_track(state, "Ioro", "Isura") == "Korona track"
    assert link_track(state, "Oivi", "Munara") == "southern track"
    assert list(track_styles(state)) == ["Korona track", "southern track"]  # longest first


def test_areas_are_filled_by_their_controller(played: Campaign, gm_user: Any) -> None:
    view, svg, _ = drawn(gm_user, played)
    for name, circle in circles(svg).items():
        controller = view.state.areas[name].controller
        assert circle.get("data-controller") == (controller or "")
        assert circle.get("fill") == SIDE_TINTS[controller]
    assert circles(svg)["Korona"].get("fill") == SIDE_TINTS["japanese"]  # taken on turn 2


def test_areas_and_companies_link_to_their_pages(played: Campaign, gm_user: Any) -> None:
    view, svg, _ = drawn(gm_user, played)
    hrefs = {a.get("href") for a in svg.iter(f"{SVG}a")}
    for pk in view.ids.areas.values():
        assert f"/campaigns/{played.pk}/areas/{pk}/" in hrefs
    for pk in view.ids.companies.values():
        assert f"/campaigns/{played.pk}/companies/{pk}/" in hrefs


def test_a_full_company_chip_shows_strength_quality_and_supply(
    played: Campaign, aussie: Any
) -> None:
    view, svg, _ = drawn(aussie, played)
    b = view.company("B Company")
    assert b is not None and b.full
    chip = next(c for c in chips(svg) if chip_words(c)[0] == "B Coy")
    strength = f"{b.strength}/{sum(b.establishment.values())}"
    # name and supply mark (out of supply), then stands and quality: three texts apart
    assert chip_words(chip) == ["B Coy", "✗", f"{strength}, trained"]
    rect = chip.find(f"{SVG}rect")
    assert rect.get("fill") == SIDE_COLOURS["australian"]
    title = chip.find(f"{SVG}title").text
    # Its first turn out: no run yet ("1 turn running", the solo walk of 7 December 2026).
    assert title == f"B Company: {strength} stands, trained, out of supply this turn"


def test_a_glimpsed_company_chip_shows_its_band_and_nothing_else(
    played: Campaign, aussie: Any
) -> None:
    view, svg, markup = drawn(aussie, played)
    glimpses = [c for c in view.companies if not c.full]
    drawn_glimpses = [c for c in chips(svg) if "glimpse" in c.get("class").split()]
    assert len(drawn_glimpses) == len(glimpses) > 0
    for chip, company in zip(drawn_glimpses, glimpses, strict=True):
        assert chip_words(chip) == ["company", f"strength: {company.strength_band}"]
        assert (
            chip.find(f"{SVG}title").text == f"Japanese fighting company, {company.strength_band}"
        )
        assert chip.find(f"{SVG}rect").get("fill") == "url(#glimpse-japanese)"
        assert company.name == ""  # a glimpse has no name (section 6)
        assert chip.get("href") == f"/campaigns/{played.pk}/glimpses/{company.glimpse}/"
    for name in view.state.companies:
        if view.glimpse_of(name) is not None:
            assert name not in markup


def test_hidden_companies_are_not_in_the_svg_at_all(played: Campaign, aussie: Any) -> None:
    view, svg, markup = drawn(aussie, played)
    assert len(chips(svg)) == len(view.companies)
    hidden = [name for name in view.state.companies if view.company(name) is None]
    assert hidden
    for name in hidden:
        pk = Company.objects.get(campaign=played, name=name).pk
        assert f"/companies/{pk}/" not in markup
    assert "veteran" not in markup  # no Japanese quality, in full or in a title


def test_the_gm_sees_every_company_in_full(played: Campaign, gm_user: Any) -> None:
    view, svg, markup = drawn(gm_user, played)
    assert len(chips(svg)) == len(view.state.companies)
    assert not [c for c in chips(svg) if "glimpse" in c.get("class").split()]
    assert "2nd Company: " in markup and "veteran" in markup


def test_ships_are_drawn_at_their_port_present_or_away(campaign: Campaign, aussie: Any) -> None:
    Ship.objects.filter(campaign=campaign, name="IJN Uesugi").update(present=False)
    view, svg, _ = drawn(aussie, campaign)
    ships = {t.get("data-ship"): t for t in svg.iter(f"{SVG}text") if t.get("data-ship")}
    assert ships["HMAS Pitcairn"].get("data-present") == "true"
    assert ships["HMAS Pitcairn"].text == "HMAS Pitcairn in port"
    assert ships["IJN Uesugi"].get("data-present") == "false"
    assert ships["IJN Uesugi"].text == "IJN Uesugi away"
    assert float(ships["IJN Uesugi"].get("x")) == view.state.areas["Kilu"].x


def test_the_buffalos_and_the_hurricane_are_drawn_at_their_base(
    campaign: Campaign, aussie: Any
) -> None:
    campaign.air_groups.update(buffalos=2, bombers=1)
    view, svg, _ = drawn(aussie, campaign)
    air = [t for t in svg.iter(f"{SVG}text") if t.get("data-air")]
    assert [t.text for t in air] == ["✈ 2 Buffalos and 1 Hurricane-bomber"]
    assert float(air[0].get("x")) == view.state.areas["Port Murray"].x


def test_a_crowded_area_shows_a_few_chips_and_a_count_of_the_rest(
    big_campaign: Campaign, gm_user: Any
) -> None:
    view = open_campaign(user=gm_user, campaign=big_campaign)
    rows = {row.name: row for row in map_areas(view)}
    crowded = max(rows.values(), key=lambda row: len(row.companies))
    assert len(crowded.companies) > CHIPS_SHOWN + 1
    svg = parse(str(draw_map(view)))
    more = [a for a in svg.iter(f"{SVG}a") if "more" in (a.get("class") or "").split()]
    counts = sorted(int(chip_words(a)[0].split()[0].lstrip("+")) for a in more)
    expected = sorted(
        len(row.companies) - CHIPS_SHOWN
        for row in rows.values()
        if len(row.companies) > CHIPS_SHOWN + 1
    )
    assert counts == expected


def test_names_are_escaped_in_the_svg(campaign: Campaign, gm_user: Any) -> None:
    Company.objects.filter(campaign=campaign, name="A Company").update(
        name='<script>alert("x")</script>'
    )
    _, _, markup = drawn(gm_user, campaign)
    assert "<script>" not in markup
    assert "&lt;script&gt;" in markup


def test_short_names_fit_on_a_chip() -> None:
    assert short_name("A Company") == "A Coy"
    assert short_name("C Company (militia)") == "C Coy"
    assert short_name("1st Supply Company") == "1st Supp…"
    assert short_name("1st Supply Company", 12) == "1st Supply…"
    assert len(short_name("A very long company name indeed")) == 9


def test_a_name_too_long_for_its_chip_is_written_smaller_and_whole() -> None:
    """A walk-through read "1st Supply…" on the map: a name that does not fit in the
    chip's type is written in the smaller one, whole when it fits there."""
    assert chip_name("1st Supply Company", beside_a_mark=False) == ("1st Supply Coy", True)
    assert chip_name("Supply Company", beside_a_mark=False) == ("Supply Coy", False)
    assert chip_name("A Company", beside_a_mark=True) == ("A Coy", False)
    assert chip_name("11th Company", beside_a_mark=True) == ("11th Coy", False)
    name, small = chip_name("A very long company name indeed", beside_a_mark=True)
    assert small and name.endswith("…") and len(name) == SMALL_SHORT_NAME


def test_the_stands_chart_stacks_each_turns_stands_by_unit_type() -> None:
    points = [
        StandsPoint(0, {"commander": 1, "rifle_squad": 9}, {"commander": 1, "rifle_squad": 9}),
        StandsPoint(1, {"commander": 0, "rifle_squad": 5}, {"commander": 1, "rifle_squad": 7}),
    ]
    svg = parse(str(draw_stands_chart(points)))
    bars = [g for g in svg.iter(f"{SVG}g") if g.get("class") == "bar"]
    assert [(g.get("data-turn"), g.get("data-held"), g.get("data-full")) for g in bars] == [
        ("0", "10", "10"),
        ("1", "5", "8"),
    ]
    first = {r.get("data-unit"): r for r in bars[0].iter(f"{SVG}rect")}
    second = {r.get("data-unit"): r for r in bars[1].iter(f"{SVG}rect")}
    assert set(first) == {"commander", "rifle_squad"}
    assert set(second) == {"rifle_squad"}  # no commander left: no empty segment
    # Heights are in proportion to the stands: 9 rifle squads are 9 times a commander.
    assert float(first["rifle_squad"].get("height")) == pytest.approx(
        9 * float(first["commander"].get("height"))
    )
    assert float(second["rifle_squad"].get("height")) == pytest.approx(
        5 / 9 * float(first["rifle_squad"].get("height"))
    )
    assert [t.text for t in bars[1].iter(f"{SVG}text")] == ["turn 1", "5/8"]


def test_no_points_draw_no_chart() -> None:
    assert str(draw_stands_chart([])) == ""


def test_the_legends_sample_chips_name_no_company_of_the_scenario() -> None:
    """Its figures are made up: named as a real company, they read as that company's."""
    state = load_scenario(KORONA)
    for side in ("australian", "japanese"):
        for glimpse in (False, True):
            chip = str(sample_chip(side, glimpse=glimpse))
            for company in state.companies:
                assert short_name(company) not in chip, (side, company)


# --- who holds an area, in words -----------------------------------------------------------


def holder_tags(svg: ET.Element) -> dict[str, tuple[str, bool]]:
    """Each area's tag, by the area of the link it is in: (words, dashed)."""
    tags = {}
    for link in svg.iter(f"{SVG}a"):
        circle = link.find(f"{SVG}circle")
        holder = link.find(f"{SVG}g[@class='holder']")
        if circle is None or holder is None:
            continue
        rect, words = holder.find(f"{SVG}rect"), holder.find(f"{SVG}text")
        assert rect is not None and words is not None
        assert holder.get("data-holder") == circle.get("data-controller")
        dashed = rect.get("stroke-dasharray") is not None
        tags[circle.get("data-area") or ""] = (words.text or "", dashed)
    return tags


def test_every_area_says_who_holds_it_in_words_not_only_in_its_tint(
    played: Campaign, gm_user: Any
) -> None:
    """A colour-blind reader cannot tell the tints apart: each area's tag says it."""
    Area.objects.filter(campaign=played, name="Erida").update(controller=None)
    view, svg, _ = drawn(gm_user, played)
    tags = holder_tags(svg)
    assert set(tags) == set(view.state.areas)
    expected = {None: "none", "australian": "AUS", "japanese": "JPN"}
    for name, area in view.state.areas.items():
        assert tags[name] == (expected[area.controller], False), name  # the GM sees it as is
    assert tags["Korona"] == ("JPN", False) and tags["Erida"] == ("none", False)
    assert {words for words, _ in tags.values()} == {"AUS", "JPN", "none"}
    assert {side_tag(key) for key in view.state.sides} == {"AUS", "JPN"}


def test_an_areas_tag_says_only_what_its_tint_says_under_the_fog(
    played: Campaign, aussie: Any
) -> None:
    """The tag is drawn from what the tint is: the holder as the reader sees it, asked
    ("AUS?", dashed) where that is only as the reader last saw it, hatched."""
    view, svg, _ = drawn(aussie, played)
    tags = holder_tags(svg)
    fills = {name: circle.get("fill") or "" for name, circle in circles(svg).items()}
    seen = {name for name in view.state.areas if view.last_seen(name) is not None}
    assert seen and seen != set(view.state.areas)
    for name, area in view.state.areas.items():
        side = {"australian": "AUS", "japanese": "JPN"}.get(area.controller or "", "none")
        assert tags[name] == (side + ("?" if name in seen else ""), name in seen), name
        if area.controller:  # hatched exactly where the tag asks
            assert fills[name].startswith("url(#glimpse-") == tags[name][1], name


# --- chips off the track lines --------------------------------------------------------------


Box = tuple[float, float, float, float]  # left, top, right, bottom


def chip_boxes(svg: ET.Element) -> list[Box]:
    """Each chip's rectangle, in the order drawn."""
    boxes = []
    for chip in chips(svg):
        rect = chip.find(f"{SVG}rect")
        assert rect is not None
        x, y = float(rect.get("x") or 0), float(rect.get("y") or 0)
        boxes.append((x, y, x + float(rect.get("width") or 0), y + float(rect.get("height") or 0)))
    return boxes


def line_crosses(line: ET.Element, box: Box, pad: float) -> bool:
    x1, y1, x2, y2 = (float(line.get(k) or 0) for k in ("x1", "y1", "x2", "y2"))
    left, top, right, bottom = box[0] - pad, box[1] - pad, box[2] + pad, box[3] + pad
    steps = 400  # a line is drawn 6 wide: checked every few units along it
    return any(
        left <= x1 + (x2 - x1) * i / steps <= right and top <= y1 + (y2 - y1) * i / steps <= bottom
        for i in range(steps + 1)
    )


@pytest.fixture
def meeting(db: Any, aussie: Any, japanese: Any) -> Campaign:
    """The browser tests' Korona: one turn played, the Japanese in Oivi in the
    Australians' sight, their chips hanging across the Oivi-Munara track."""
    campaign = create_campaign(data=meeting_doc(), name="Korona met", seed=7)
    advance_turn(campaign_id=campaign.pk)
    join(aussie, campaign, "australian")
    join(japanese, campaign, "japanese")
    return campaign


def test_chips_move_sideways_off_a_track_line_where_the_map_has_room(aussie: Any) -> None:
    """Four Australian companies in Ioro: the Uberi Ridge-Erida track runs through the
    foot of their column, and Isura beside it has no chips, so they move right, off the
    line, still under Ioro."""
    doc = korona_doc()
    for company in doc["companies"]:
        if company["side"] == "australian":
            company["area"] = "Ioro"
    campaign = create_campaign(data=doc, name="Korona in Ioro", seed=7)
    join(aussie, campaign, "australian")
    view, svg, _ = drawn(aussie, campaign)
    lines = list(svg.iter(f"{SVG}line"))
    ioro = view.state.areas["Ioro"]
    boxes = chip_boxes(svg)
    assert len(boxes) == len(view.companies) == 4  # no enemy in sight yet
    under_ioro = [box for box in boxes if box[0] <= ioro.x <= box[2]]
    assert len(under_ioro) == 4
    assert all((box[0] + box[2]) / 2 > ioro.x for box in under_ioro)  # moved right
    for box in under_ioro:  # off every line (3 either side of its middle is its stroke)
        assert not [ln.get("data-link") for ln in lines if line_crosses(ln, box, 3)], box
    for i, box in enumerate(boxes):  # and on no other chip
        for other in boxes[i + 1 :]:
            assert not (
                box[0] < other[2] and other[0] < box[2] and box[1] < other[3] and other[1] < box[3]
            )


def test_chips_stay_under_their_area_when_a_move_would_take_them_under_another(
    meeting: Campaign, aussie: Any
) -> None:
    """The Japanese in Oivi hang across the Oivi-Munara track, which leaves Oivi's middle
    right above them: only a move of most of a chip's width takes them off it, which
    hung them under Kilu (a walk-through read them as Kilu's). They stay centred."""
    view, svg, _ = drawn(aussie, meeting)
    oivi = view.state.areas["Oivi"]
    middles = [(box[0] + box[2]) / 2 for box in chip_boxes(svg)]
    assert middles.count(oivi.x) == len([c for c in view.companies if c.area == "Oivi"]) == 2


def test_chips_no_sideways_move_takes_off_a_track_go_above_their_area(
    meeting: Campaign, aussie: Any
) -> None:
    """...and off the track: the glimpse of the Japanese in Oivi sat on the Munara-Oivi
    track (a walk-through, solo-t10-desk-map). With no room beside it, the column goes
    above Oivi, over its name, centred on it, on no line, no other chip, name or note,
    and inside the map."""
    view, svg, _ = drawn(aussie, meeting)
    oivi = view.state.areas["Oivi"]
    lines = list(svg.iter(f"{SVG}line"))
    boxes = chip_boxes(svg)
    ours = [box for box in boxes if (box[0] + box[2]) / 2 == oivi.x]
    assert len(ours) == 2
    for box in ours:
        assert not [ln.get("data-link") for ln in lines if line_crosses(ln, box, 3)], box
        assert box[3] < oivi.y - AREA_RADIUS  # above the circle
    names = [t for t in svg.iter(f"{SVG}text") if (t.text or "").strip() == "Oivi"]
    assert names and all(box[3] < float(names[0].get("y") or 0) - 14 for box in ours)
    for i, box in enumerate(boxes):
        for other in boxes[i + 1 :]:
            assert not (
                box[0] < other[2] and other[0] < box[2] and box[1] < other[3] and other[1] < box[3]
            )
    left, top, width, height = (float(n) for n in (svg.get("viewBox") or "").split())
    assert all(top <= box[1] and box[3] <= top + height for box in boxes)


def chips_by_area(view: CampaignView, svg: ET.Element) -> list[tuple[str, Box]]:
    """Each chip drawn (a "+N more" chip too) with the name of its area: the map draws
    them area by area, in ``map_areas``'s order."""
    boxes = iter(chip_boxes(svg))
    return [
        (row.name, next(boxes))
        for row in map_areas(view)
        for _ in range(min(len(row.companies), CHIPS_SHOWN + 1))
    ]


def misread_chips(view: CampaignView, svg: ET.Element) -> list[str]:
    """The chips that read as another area's: a chip hangs straight down from its area,
    so it reads as the one of the areas it could hang under (centre above it, at most a
    column's depth) that it is nearest across the map. Its middle must be nearer its own
    area than its nearest edge is to any other such area."""
    areas = view.state.areas
    misread = []
    for name, (left, top, right, bottom) in chips_by_area(view, svg):
        off = abs((left + right) / 2 - areas[name].x)
        for other in areas.values():
            if other.name == name or not bottom - COLUMN_DEPTH < other.y < top:
                continue
            if max(left - other.x, other.x - right, 0.0) <= off:
                misread.append(f"{name}'s chip at {left}-{right} reads as {other.name}'s")
    return misread


@pytest.mark.parametrize("doc", ["met", "sensible"])
def test_every_chip_reads_as_its_own_areas_over_many_maps(
    doc: str, aussie: Any, japanese: Any, gm_user: Any
) -> None:
    """Campaigns played a few turns (the AI's orders move them about), each side's map
    and the GM's after every turn: no chip is moved so far that it reads as another
    area's (the Australians' glimpse of the Japanese in Oivi read as Kilu's)."""
    misread = []
    for seed in (1, 2, 3):
        data = meeting_doc() if doc == "met" else korona_doc(standing_order=None)
        campaign = create_campaign(data=data, name=f"Korona {doc} {seed}", seed=seed)
        join(aussie, campaign, "australian")
        join(japanese, campaign, "japanese")
        for _ in range(4):
            advance_turn(campaign_id=campaign.pk)
            campaign.refresh_from_db()
            for user in (aussie, japanese, gm_user):
                view, svg, _ = drawn(user, campaign)
                misread += [
                    f"seed {seed}, turn {campaign.turn}, {view.side}: {m}"
                    for m in misread_chips(view, svg)
                ]
    assert not misread


def test_chips_stay_under_their_area_when_no_move_takes_them_off_the_line(
    meeting: Campaign, japanese: Any
) -> None:
    """The Japanese see their own in Kilu, right beside Oivi's: no room to move them."""
    view, svg, _ = drawn(japanese, meeting)
    oivi, kilu = view.state.areas["Oivi"], view.state.areas["Kilu"]
    middles = {(box[0] + box[2]) / 2 for box in chip_boxes(svg)}
    assert oivi.x in middles and kilu.x in middles


# Chips of two areas keep at least this far apart on the map (in its own units): a map
# on a phone is drawn about three quarters size, and each chip's border takes 1 of it,
# so this leaves a gap of some 7 pixels there that a reader sees. Isura's and Korona's
# chips, 140 apart, stood 4 apart (2 between their borders): they read as one row.
CLEAR = 12


def box_gap(a: Box, b: Box) -> float:
    """How far apart two boxes are: the wider of the gaps across and down (0 or less:
    they touch or overlap)."""
    return max(a[0] - b[2], b[0] - a[2], a[1] - b[3], b[1] - a[3])


def chips_too_near(view: CampaignView, svg: ET.Element) -> list[str]:
    """The pairs of chips of two areas nearer each other than ``CLEAR``."""
    placed = chips_by_area(view, svg)
    assert len(placed) == len(chip_boxes(svg))  # every chip drawn is one of an area's
    return [
        f"{name}'s chip {box} and {other}'s {other_box}: {box_gap(box, other_box)} apart"
        for i, (name, box) in enumerate(placed)
        for other, other_box in placed[i + 1 :]
        if other != name and box_gap(box, other_box) < CLEAR
    ]


MAPS = {"start": korona_doc, "met": meeting_doc, "crowded": crowded_doc}


@pytest.mark.parametrize("doc", MAPS)
def test_no_chip_touches_a_chip_of_another_area_in_any_view(
    doc: str, aussie: Any, japanese: Any, gm_user: Any, django_user_model: Any
) -> None:
    """The scenario's map as each side, the GM and a spectator see it, at the start and
    after each of a few turns (the AI's orders move the companies about and stack
    them): no chip comes within ``CLEAR`` of a chip of another area (a browser walk
    could not tell whose Isura's and Korona's chips were, side by side)."""
    watcher = django_user_model.objects.create_user("watcher", "w@example.com", "a long pass")
    near = []
    for seed in (1, 2, 3):
        campaign = create_campaign(data=MAPS[doc](), name=f"Korona {doc} {seed}", seed=seed)
        join(aussie, campaign, "australian")
        join(japanese, campaign, "japanese")
        join(watcher, campaign, SPECTATOR)
        for turn in range(4):
            if turn:
                advance_turn(campaign_id=campaign.pk)
                campaign.refresh_from_db()
            for user in (aussie, japanese, gm_user, watcher):
                view, svg, _ = drawn(user, campaign)
                near += [
                    f"seed {seed}, turn {campaign.turn}, {view.side or 'GM'}: {n}"
                    for n in chips_too_near(view, svg)
                ]
    assert not near, "\n".join(near)
