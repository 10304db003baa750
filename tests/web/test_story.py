"""The campaign's story, told when it has ended (campaign/web/story.py)."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

import pytest

from battles.models import Battle
from campaign.models import Campaign, Turn
from campaign.services.scenarios import create_campaign
from campaign.services.turns import run_campaign
from campaign.services.visibility import open_campaign
from campaign.web.story import Point, Story, control_words, tell, turning_points
from rules.campaign.scenario import parse_scenario
from tests.web.conftest import join, meeting_doc

pytestmark = pytest.mark.django_db


@pytest.fixture
def ended(db: Any, aussie: Any, japanese: Any) -> Campaign:
    campaign = create_campaign(data=meeting_doc(), name="Korona told", seed=7)
    campaign.set_settings(replace(campaign.get_settings(), turn_limit=4))
    campaign.save(update_fields=["settings"])
    run_campaign(campaign_id=campaign.pk, turns=10)
    campaign.refresh_from_db()
    assert campaign.status == "finished"
    join(aussie, campaign, "australian")
    join(japanese, campaign, "japanese")
    return campaign


def test_the_story_names_the_winner_and_why(ended: Campaign, aussie: Any, login: Any) -> None:
    html = login(aussie).get(f"/campaigns/{ended.pk}/story/").content.decode()
    winner = {"australian": "Australians", "japanese": "Japanese"}[ended.winner]
    assert f"The {winner} won</strong> after {ended.turn} turns" in html
    # Why, from the end's fields: the campaign ran its 4 turns (never the engine's words).
    assert ended.end_causes == [{"kind": "turn_limit", "side": None, "area": None, "turns": 4}]
    assert "<p>They held Korona when the 4 turns were up.</p>" in html
    assert ended.end_reason not in html


def test_control_of_each_area_is_charted_turn_by_turn(
    ended: Campaign, aussie: Any, login: Any
) -> None:
    html = login(aussie).get(f"/campaigns/{ended.pk}/story/").content.decode()
    turns = list(Turn.objects.filter(campaign=ended).order_by("number"))
    start = parse_scenario(turns[0].start_state)
    expected = {(name, 0): area.controller or "" for name, area in start.areas.items()}
    for turn in turns:
        for name, side in turn.report["control"].items():
            expected[(name, turn.number)] = side or ""
    cells = {
        (area, int(number)): side
        for area, number, side in re.findall(
            r'data-area="([^"]+)" data-turn="(\d+)" data-side="([^"]*)"', html
        )
    }
    assert cells == expected


def test_each_cell_of_the_control_chart_names_its_holder_in_words(
    ended: Campaign, aussie: Any, login: Any
) -> None:
    """The map's tags, not the colour alone: a reader who cannot tell the colours apart
    reads who held the area."""
    html = login(aussie).get(f"/campaigns/{ended.pk}/story/").content.decode()
    chart = html.split('class="story-chart control-chart"', 1)[1].split("</svg>", 1)[0]
    cells = re.findall(r'data-side="([^"]*)">.*?<text class="tag"[^>]*>([^<]*)</text>', chart)
    assert len(cells) == len(re.findall(r"data-side=", chart)) > 0
    tags = {"australian": "AUS", "japanese": "JPN", "": "none"}
    assert [tag for _, tag in cells] == [tags[side] for side, _ in cells]
    # The legend says what each tag stands for.
    for tag, name in (("AUS", "Australians"), ("JPN", "Japanese"), ("none", "nobody")):
        assert re.search(rf'data-holder-key="{tag}">.*?{tag}</span>held by (the )?{name}', html)


def test_who_held_each_area_is_told_in_words_too(ended: Campaign, aussie: Any, login: Any) -> None:
    """A screen reader reads nothing inside the chart: each area's row in words, below it."""
    sides = {"australian": "Australians", "japanese": "Japanese"}
    points = [
        Point(0, {"Oivi": "japanese", "Kilu": "australian"}, {}),
        Point(1, {"Oivi": "japanese", "Kilu": "australian"}, {}),
        Point(2, {"Oivi": None, "Kilu": "australian"}, {}),
        Point(3, {"Oivi": "australian", "Kilu": "australian"}, {}),
    ]
    story = Story("Australians", "", points, ["Oivi", "Kilu"], sides, [])
    assert control_words(story, "Oivi") == (
        "the Japanese (JPN) at the start, nobody (none) after turn 2, "
        "the Australians (AUS) after turn 3"
    )
    assert control_words(story, "Kilu") == "the Australians (AUS) from the start to the end"
    html = login(aussie).get(f"/campaigns/{ended.pk}/story/").content.decode()
    told = dict(re.findall(r'<li data-area="([^"]+)">[^:]+: ([^<]+)</li>', html))
    story = tell(ended, open_campaign(user=aussie, campaign=ended))
    assert told == {area: control_words(story, area) for area in story.areas}


def test_each_sides_strength_is_charted_turn_by_turn(
    ended: Campaign, aussie: Any, login: Any
) -> None:
    html = login(aussie).get(f"/campaigns/{ended.pk}/story/").content.decode()
    for side in ("australian", "japanese"):
        line = html.split(f'data-side="{side}"><title>', 1)[1].split("</g>", 1)[0]
        drawn = [int(n) for n in re.findall(r'data-stands="(\d+)"', line)]
        turns = list(Turn.objects.filter(campaign=ended).order_by("number"))
        start = parse_scenario(turns[0].start_state)
        # Fighting stands: a supply company's carriers are not counted.
        fighting = {name for name, c in start.companies.items() if c.fighting and c.side == side}
        expected = [sum(start.companies[name].strength for name in fighting)]
        expected += [
            sum(c["stands"] for name, c in t.report["companies"].items() if name in fighting)
            for t in turns
        ]
        assert drawn == expected


def test_strength_counts_fighting_stands_not_supply_carriers(
    ended: Campaign, aussie: Any, login: Any
) -> None:
    """The walk-through read 42 stands a side at the start, 36 of them fighting and 6 a
    supply company's carriers, with nothing saying so: the story counts fighting stands,
    and says it."""
    start = parse_scenario(Turn.objects.get(campaign=ended, number=1).start_state)
    supply = sum(c.strength for c in start.companies.values() if not c.fighting)
    assert supply > 0  # each side has a supply company
    story = tell(ended, open_campaign(user=aussie, campaign=ended))
    first = {t.key: t.start for t in story.tallies}
    assert first == {"australian": 36, "japanese": 36}
    assert story.points[0].strength == first
    html = login(aussie).get(f"/campaigns/{ended.pk}/story/").content.decode()
    assert "Fighting stands, start → end" in html
    assert "a supply company's stands carry supplies, never fight, and are not counted" in html


def test_battles_won_and_lost_and_the_losses(ended: Campaign, aussie: Any) -> None:
    story = tell(ended, open_campaign(user=aussie, campaign=ended))
    battles = list(Battle.objects.filter(campaign=ended))
    assert battles
    for tally in story.tallies:
        won = lost = stands_lost = 0
        for b in battles:
            role = "attacker" if b.attacker_side == tally.key else "defender"
            if tally.key not in (b.attacker_side, b.defender_side):
                continue
            won += b.result["winner"] == role
            lost += b.result["winner"] not in (role, None) and b.result["winner"] != "draw"
            stands_lost += sum(b.result["losses"].get(role, {}).values())
        assert (tally.won, tally.lost, tally.stands_lost) == (won, lost, stands_lost)
    assert sum(t.won for t in story.tallies) == len(battles)


def test_the_stands_each_side_took_name_whose_stands_they_were(
    ended: Campaign, aussie: Any, login: Any
) -> None:
    """The column "Enemy stands taken" read as well as the stands the enemy took from a
    side: each row says whose stands that side took, by the other side's name."""
    story = tell(ended, open_campaign(user=aussie, campaign=ended))
    taken = {t.key: t.stands_taken for t in story.tallies}
    assert sum(taken.values()) > 0
    html = login(aussie).get(f"/campaigns/{ended.pk}/story/").content.decode()
    assert "Enemy stands taken" not in html
    assert '<th scope="col">Stands taken</th>' in html
    for side, other in (("australian", "Japanese"), ("japanese", "Australians")):
        row = html.split(f'<tr data-side="{side}">', 1)[1].split("</tr>", 1)[0]
        assert f"<td>{taken[side]} from the {other}</td>" in row


def test_a_player_reads_the_story_only_when_the_campaign_has_ended(
    played: Campaign, aussie: Any, gm_user: Any, outsider: Any, login: Any
) -> None:
    html = login(aussie).get(f"/campaigns/{played.pk}/story/").content.decode()
    assert "told when it ends" in html
    assert "<svg" not in html and "Turning points" not in html
    gm = login(gm_user).get(f"/campaigns/{played.pk}/story/").content.decode()
    assert "story so far" in gm and "<svg" in gm
    assert login(outsider).get(f"/campaigns/{played.pk}/story/").status_code == 404


def test_the_map_of_an_ended_campaign_links_its_story(
    ended: Campaign, aussie: Any, login: Any
) -> None:
    html = login(aussie).get(f"/campaigns/{ended.pk}/").content.decode()
    assert f"/campaigns/{ended.pk}/story/" in html


def test_turning_points_the_objective_a_base_and_the_lead(ended: Campaign, aussie: Any) -> None:
    state = open_campaign(user=aussie, campaign=ended).state
    sides = {"australian": "Australians", "japanese": "Japanese"}
    points = [
        Point(
            0,
            {"Korona": "australian", "Port Murray": "australian"},
            {"australian": 30, "japanese": 28},
        ),
        Point(
            1,
            {"Korona": "australian", "Port Murray": "australian"},
            {"australian": 26, "japanese": 28},
        ),
        Point(
            2,
            {"Korona": "japanese", "Port Murray": "australian"},
            {"australian": 20, "japanese": 27},
        ),
        Point(
            3, {"Korona": "japanese", "Port Murray": "japanese"}, {"australian": 20, "japanese": 27}
        ),
    ]
    story = Story("Japanese", "", points, ["Korona", "Port Murray"], sides, [])
    words = [(p.turn, p.words) for p in turning_points(story, state, [])]
    assert words == [
        (1, "the Japanese overtook the Australians in fighting stands"),
        (2, "the Japanese took Korona, the objective"),
        (3, "the Japanese took Port Murray, the Australians' base"),
    ]


def test_the_lead_in_stands_is_said_once_per_change_of_leader(ended: Campaign, aussie: Any) -> None:
    """Even, ahead, even, ahead again, even, the other side ahead: the first lead once
    (the walk-through read it after every tie), in words for sides level at the start
    ("had more fighting stands ... for the first time" read oddly there), then the
    overtaking. Every side reads
    the story: the other side by its name (the walk of 7 December 2026 read "than the
    enemy", to the Australians and the Japanese alike)."""
    state = open_campaign(user=aussie, campaign=ended).state
    sides = {"australian": "Australians", "japanese": "Japanese"}
    strengths = [(30, 30), (30, 28), (28, 28), (27, 25), (25, 25), (20, 25)]
    points = [
        Point(turn, {}, {"australian": aussies, "japanese": japanese})
        for turn, (aussies, japanese) in enumerate(strengths)
    ]
    story = Story("Japanese", "", points, [], sides, [])
    words = [(p.turn, p.words) for p in turning_points(story, state, [])]
    assert words == [
        (1, "the Australians pulled ahead of the Japanese in fighting stands, level until then"),
        (5, "the Japanese overtook the Australians in fighting stands"),
    ]
