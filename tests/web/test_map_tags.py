"""Where the map's tags go: who holds each area ("AUS", "JPN?", "AUS, contested") and,
on a past turn's map, who attacked whom beside a battle's mark ("JPN→AUS"). Each is
clear of every other tag, of every area's name and circle, and of the track lines, on
every fixture scenario's map through several turns of play, for each side and the GM
(campaign/web/mapdraw.py, pastmaps.py)."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from campaign.models import Campaign, Turn
from campaign.services.scenarios import create_campaign
from campaign.services.turns import advance_turn
from campaign.services.visibility import CampaignView, open_campaign
from campaign.web.mapdraw import AREA_RADIUS, BATTLE_CHAR, NAME_CHAR, TRACK_CLEARANCE, draw_map
from campaign.web.maplayout import Box, Segment, around
from campaign.web.pastmaps import BattleMark, overlay, reading_of, turn_frame
from tests.web.conftest import join

pytestmark = pytest.mark.django_db
SVG = "{http://www.w3.org/2000/svg}"
SCENARIOS = sorted((Path(__file__).resolve().parents[2] / "fixtures" / "scenarios").glob("*.json"))


def _float(element: ET.Element, name: str) -> float:
    return float(element.get(name) or 0)


def drawn_boxes(markup: str) -> dict[str, Any]:
    """What the map draws, read back from its SVG: each tag's box by what it is ("tag
    Oivi", "battle Korona"), each area's name and circle, and the track lines."""
    svg = ET.fromstring(markup)
    tags: dict[str, Box] = {}
    fixed: dict[str, Box] = {}
    for link in svg.iter(f"{SVG}a"):
        circle = link.find(f"{SVG}circle")
        if circle is None:
            continue
        area = circle.get("data-area") or ""
        x, y = _float(circle, "cx"), _float(circle, "cy")
        fixed[f"circle {area}"] = Box(
            x - AREA_RADIUS, y - AREA_RADIUS, x + AREA_RADIUS, y + AREA_RADIUS
        )
        rect = link.find(f"{SVG}g[@class='holder']/{SVG}rect")
        assert rect is not None
        left, top = _float(rect, "x"), _float(rect, "y")
        tags[f"tag {area}"] = Box(
            left, top, left + _float(rect, "width"), top + _float(rect, "height")
        )
        name = link.find(f"{SVG}text[@class='area-name']")
        assert name is not None
        half = len(name.text or "") * NAME_CHAR / 2
        nx, ny = _float(name, "x"), _float(name, "y")
        fixed[f"name {area}"] = Box(nx - half, ny - 16, nx + half, ny + 5)
    for mark in svg.iter(f"{SVG}g"):
        if mark.get("class") != "battle-mark":
            continue
        label = mark.find(f"{SVG}text[@class='battle-sides']")
        assert label is not None
        # One line, or a pair a line (a tspan each): the box around every line.
        lines = label.findall(f"{SVG}tspan") or [label]
        boxes = []
        for line in lines:
            lx, ly = _float(line, "x"), _float(line, "y")
            width = len(line.text or "") * BATTLE_CHAR
            left = lx - width if label.get("text-anchor") == "end" else lx
            boxes.append(Box(left, ly - 10, left + width, ly + 3))
        tags[f"battle {mark.get('data-battle-area')}"] = around(boxes)
    lines = [
        Segment(*(_float(line, k) for k in ("x1", "y1", "x2", "y2")))
        for line in svg.iter(f"{SVG}line")
        if "link" in (line.get("class") or "").split()
    ]
    return {"tags": tags, "fixed": fixed, "lines": lines}


def collisions(markup: str) -> list[str]:
    """Every tag that overlaps another tag, a name or circle (its own circle aside: a
    holder's tag sits on the foot of its circle, a battle's mark on its rim), or that a
    track line runs through; every area's name that a track line runs through."""
    boxes = drawn_boxes(markup)
    tags, fixed = boxes["tags"], boxes["fixed"]
    found = []
    names = sorted(tags)
    for i, one in enumerate(names):
        found += [
            f"{one} on {other}" for other in names[i + 1 :] if tags[one].overlaps(tags[other])
        ]
        own = one.split(" ", 1)[1]
        found += [
            f"{one} on {what}"
            for what, box in fixed.items()
            if what != f"circle {own}" and tags[one].overlaps(box)
        ]
        clear = TRACK_CLEARANCE / 2
        if any(line.crosses(tags[one].grown(clear)) for line in boxes["lines"]):
            found.append(f"{one} on a track")
    for what, box in fixed.items():
        if what.startswith("name ") and any(
            line.crosses(box.grown(TRACK_CLEARANCE / 2)) for line in boxes["lines"]
        ):
            found.append(f"{what} on a track")
    return found


def maps_of(campaign: Campaign, view: CampaignView) -> list[tuple[str, str]]:
    """The live map and every past turn's map, as ``view``'s reader sees them."""
    maps = [("now", str(draw_map(view)))]
    reading = reading_of(view)
    for turn in Turn.objects.filter(campaign=campaign, start_state__isnull=False).order_by(
        "number"
    ):
        maps.append((f"turn {turn.number}", str(turn_frame(view, turn, reading).svg)))
    return maps


def met(doc: dict[str, Any]) -> dict[str, Any]:
    """The scenario with the second side's fighting companies in the area of the first
    side's first fighting company: battles from the first turn, areas contested."""
    first, second = (side["key"] for side in doc["sides"][:2])
    fighting = [c for c in doc["companies"] if c.get("kind", "fighting") == "fighting"]
    where = next(c["area"] for c in fighting if c["side"] == first)
    for company in fighting:
        if company["side"] == second:
            company["area"] = where
    return doc


@pytest.mark.parametrize("start", ["as shipped", "met"])
@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda path: path.stem)
def test_no_tag_overlaps_another_a_name_or_a_track_through_the_campaign(
    scenario: Path, start: str, aussie: Any, japanese: Any, gm_user: Any
) -> None:
    """Three campaigns of each scenario played five turns (the AI's orders move the
    companies about; "met", the sides meet at once), each side's maps and the GM's, the
    live map and every past turn's: no tag on another, a name, a circle or a track."""
    found = []
    doc = json.loads(scenario.read_text(encoding="utf-8"))
    doc = met(doc) if start == "met" else doc
    for seed in (1, 2, 3):
        campaign = create_campaign(data=doc, name=f"{scenario.stem} {seed}", seed=seed)
        join(aussie, campaign, "australian")
        join(japanese, campaign, "japanese")
        for _ in range(5):
            advance_turn(campaign_id=campaign.pk)
            campaign.refresh_from_db()
        for user in (aussie, japanese, gm_user):
            view = open_campaign(user=user, campaign=campaign)
            for which, markup in maps_of(campaign, view):
                found += [f"seed {seed}, {view.side}, {which}: {c}" for c in collisions(markup)]
    assert not found


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda path: path.stem)
def test_a_contested_areas_long_tag_finds_a_clear_place_in_every_area(
    scenario: Path, gm_user: Any
) -> None:
    """ "AUS, contested" is 138 wide: at Oivi and Uberi Ridge a track leaves downwards
    through the foot of the circle and their neighbours' circles and chips leave no room
    to slide it off, so it goes above the circle, under the name (nothing is marked
    there). Each area in turn holds a fighting company of each side, as the GM sees it."""
    found = []
    doc = json.loads(scenario.read_text(encoding="utf-8"))
    first, second = (side["key"] for side in doc["sides"][:2])
    for area in [a["name"] for a in doc["areas"]]:
        changed = json.loads(scenario.read_text(encoding="utf-8"))
        for side in (first, second):
            company = next(
                c for c in changed["companies"] if c["side"] == side and c.get("kind") == "fighting"
            )
            company["area"] = area
        campaign = create_campaign(data=changed, name=f"{scenario.stem} at {area}", seed=1)
        markup = str(draw_map(open_campaign(user=gm_user, campaign=campaign)))
        assert "contested" in markup
        found += [f"{area}: {c}" for c in collisions(markup)]
    assert not found


def tag_middles(markup: str) -> dict[str, float]:
    """Each area's tag's middle, less the middle of its circle."""
    svg = ET.fromstring(markup)
    middles = {}
    for link in svg.iter(f"{SVG}a"):
        circle = link.find(f"{SVG}circle")
        words = link.find(f"{SVG}g[@class='holder']/{SVG}text")
        if circle is not None and words is not None:
            middles[circle.get("data-area") or ""] = _float(words, "x") - _float(circle, "cx")
    return middles


def test_a_tag_a_track_runs_through_slides_off_it_and_the_others_stay_centred(
    campaign: Campaign, gm_user: Any
) -> None:
    """Korona's map: the tracks to Erida and Munara leave Uberi Ridge and Oivi
    downwards through the foot of their circles, and the southern track passes Erida's
    and Munara's tags. Each of those slides the least way off it, still under its circle;
    every other tag stays centred, as it was drawn before tags were placed."""
    markup = str(draw_map(open_campaign(user=gm_user, campaign=campaign)))
    middles = tag_middles(markup)
    moved = {name: off for name, off in middles.items() if off}
    assert set(moved) == {"Uberi Ridge", "Oivi", "Erida", "Munara"}, moved
    assert moved["Uberi Ridge"] < 0 < moved["Oivi"]  # away from the track, either way
    assert all(abs(off) <= AREA_RADIUS for off in moved.values()), moved
    assert not collisions(markup)


def test_a_battles_sides_move_off_a_track_that_runs_beside_its_mark(
    campaign: Campaign, gm_user: Any
) -> None:
    """Kerna's mark sits at its circle's top right, where the track to Munara leaves it:
    "JPN→AUS" written to the right of the mark lay on the track. They go where nothing
    is drawn, beside the mark; at Korona, clear already, they stay to its right."""
    view = open_campaign(user=gm_user, campaign=campaign)
    for area, moves in (("Kerna", True), ("Korona", False)):
        mark = BattleMark(area, sides=[("japanese", "australian")])
        markup = str(draw_map(view, overlay=overlay(view, [], [mark])))
        assert not collisions(markup), area
        label = next(
            t for t in ET.fromstring(markup).iter(f"{SVG}text") if t.get("class") == "battle-sides"
        )
        centre = view.state.areas[area]
        mark_x, mark_y = centre.x + AREA_RADIUS * 0.8, centre.y - AREA_RADIUS * 0.8
        at = (_float(label, "x"), _float(label, "y"), label.get("text-anchor"))
        assert (at != (mark_x + 16, mark_y + 4, None)) == moves, (area, at)
        # Beside its mark: level with it, at one side of it.
        assert abs(at[1] - 4 - mark_y) <= 16 and abs(at[0] - mark_x) <= 20, (area, at)


@pytest.mark.parametrize("area", ["Oivi", "Uberi Ridge", "Korona", "Kerna", "Kilu", "Port Murray"])
def test_battles_both_ways_at_an_area_are_labelled_clear_of_everything(
    campaign: Campaign, gm_user: Any, area: str
) -> None:
    """ "JPN→AUS, AUS→JPN" (battles both ways at one area in a turn) is 128 wide: at
    Oivi, to the right of its mark, it ran into Kilu's circle, where no place beside the
    mark on one line was clear. Wherever it goes, it lies on no circle, name, tag or
    track, and on no other battle's sides (Korona's, beside it)."""
    view = open_campaign(user=gm_user, campaign=campaign)
    both = BattleMark(area, sides=[("japanese", "australian"), ("australian", "japanese")])
    neighbour = "Korona" if area != "Korona" else "Oivi"
    marks = [both, BattleMark(neighbour, sides=[("japanese", "australian")])]
    markup = str(draw_map(view, overlay=overlay(view, [], marks)))
    assert not collisions(markup)


def test_an_areas_name_a_track_runs_through_moves_off_it_over_its_circle(
    campaign: Campaign, gm_user: Any, aussie: Any
) -> None:
    """Korona's map: the track from Uberi Ridge runs through the left of Erida's name,
    written centred above its circle, and the track from Oivi through the right of
    Munara's. Each slides the least way off it, still over its circle; every other
    name stays centred."""
    for user in (gm_user, aussie):
        markup = str(draw_map(open_campaign(user=user, campaign=campaign)))
        assert not collisions(markup)
        svg = ET.fromstring(markup)
        moved = {}
        for link in svg.iter(f"{SVG}a"):
            circle, name = link.find(f"{SVG}circle"), link.find(f"{SVG}text[@class='area-name']")
            if circle is not None and name is not None:
                off = _float(name, "x") - _float(circle, "cx")
                if off:
                    moved[name.text] = off
        assert set(moved) == {"Erida", "Munara"}, moved
        # Away from the track, each its own way; the name's middle still over its circle.
        assert moved["Munara"] < 0 < moved["Erida"], moved
        assert all(abs(off) <= AREA_RADIUS for off in moved.values()), moved


def chips_on_tracks(markup: str) -> list[str]:
    """Each chip (a company's or a "+N more") that a track line runs through."""
    svg = ET.fromstring(markup)
    lines = drawn_boxes(markup)["lines"]
    found = []
    for chip in svg.iter(f"{SVG}a"):
        if "chip" not in (chip.get("class") or "").split():
            continue
        rect = chip.find(f"{SVG}rect")
        assert rect is not None
        left, top = _float(rect, "x"), _float(rect, "y")
        box = Box(left, top, left + _float(rect, "width"), top + _float(rect, "height"))
        if any(line.crosses(box.grown(TRACK_CLEARANCE / 2)) for line in lines):
            title = chip.find(f"{SVG}title")
            found.append(title.text if title is not None and title.text else "+N more")
    return found


@pytest.mark.parametrize("where", ["Uberi Ridge", "Oivi", "Erida", "Munara", "Kerna", "Ioro"])
def test_chips_of_both_sides_in_an_area_sit_off_the_track_lines(
    where: str, aussie: Any, japanese: Any, gm_user: Any
) -> None:
    """A walk-through: with both sides' companies at Uberi Ridge, their chips hung on the
    track to Erida, which leaves the circle downwards. Two companies of each side in an
    area a track leaves downwards: each side's map and the GM's, no chip on a track."""
    doc = json.loads(SCENARIOS[0].read_text(encoding="utf-8"))
    for side in ("australian", "japanese"):
        for company in [c for c in doc["companies"] if c["side"] == side][:2]:
            company["area"] = where
    campaign = create_campaign(data=doc, name=f"Both at {where}", seed=1)
    join(aussie, campaign, "australian")
    join(japanese, campaign, "japanese")
    found = []
    for user in (aussie, japanese, gm_user):
        view = open_campaign(user=user, campaign=campaign)
        found += [f"{view.side}: {chip}" for chip in chips_on_tracks(str(draw_map(view)))]
    assert not found
