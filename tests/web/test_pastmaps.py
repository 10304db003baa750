"""Every past turn on the map, as the reader's side saw it then (campaign/web/pastmaps.py)."""

from __future__ import annotations

import re
from html import unescape
from typing import Any

import pytest

from campaign.models import Campaign, Turn
from campaign.services.scenarios import create_campaign
from campaign.services.turns import advance_turn, give_order
from campaign.services.visibility import as_it_stood, open_campaign
from campaign.web.pastmaps import moves_and_battles
from rules.campaign.scenario import parse_scenario
from tests.web.conftest import join, korona_doc, meeting_doc

pytestmark = pytest.mark.django_db


def page(client: Any, campaign: Campaign, suffix: str) -> str:
    answer = client.get(f"/campaigns/{campaign.pk}/{suffix}")
    assert answer.status_code == 200, answer.status_code
    return answer.content.decode()


def test_a_past_turn_shows_the_positions_at_its_start(
    played: Campaign, aussie: Any, login: Any
) -> None:
    html = page(login(aussie), played, "turns/1/map/")
    assert "Map of Korona played at the start of turn 1" in html
    turn = Turn.objects.get(campaign=played, number=1)
    then = as_it_stood(
        open_campaign(user=aussie, campaign=played), parse_scenario(turn.start_state)
    )
    for company in then.companies:
        if company.full:
            assert f"{company.name}:" in html  # the chip's title names own companies
    assert 'rel="next"' in html and "/turns/2/map/" in html


def test_a_past_map_hides_what_the_side_did_not_see_then(
    played: Campaign, aussie: Any, login: Any
) -> None:
    view = open_campaign(user=aussie, campaign=played)
    for number in (1, 2):
        html = page(login(aussie), played, f"turns/{number}/map/")
        turn = Turn.objects.get(campaign=played, number=number)
        then = parse_scenario(turn.start_state)
        seen = {c.name for c in as_it_stood(view, then).companies}
        hidden = {name for name, c in then.companies.items() if c.side == "japanese"}
        for name in hidden:  # enemies show as bands, never named
            assert f"<title>{name}" not in html and f">{name}<" not in html, (number, name)
        drawn = html.split('<div class="map-legend">')[0]  # not the legend's sample chip
        enemy_chips = drawn.count('class="chip glimpse" data-side="japanese"')
        in_sight = [c for c in as_it_stood(view, then).companies if c.side == "japanese"]
        assert enemy_chips == len(in_sight)
        assert len(seen) < len(then.companies)


def test_the_gm_sees_a_past_turn_whole(played: Campaign, gm_user: Any, login: Any) -> None:
    html = page(login(gm_user), played, "turns/1/map/")
    turn = Turn.objects.get(campaign=played, number=1)
    for name in parse_scenario(turn.start_state).companies:
        assert name in html


def test_moves_are_arrows_and_battles_are_marks(
    db: Any, aussie: Any, japanese: Any, login: Any
) -> None:
    campaign = create_campaign(data=korona_doc(), name="Moves", seed=2)
    join(aussie, campaign, "australian")
    join(japanese, campaign, "japanese")
    a_company = campaign.companies.get(name="A Company")
    target = campaign.areas.get(name="Isura")
    give_order(company=a_company, kind="withdraw", target=target, side="australian")
    advance_turn(campaign_id=campaign.pk)
    turn = Turn.objects.get(campaign=campaign, number=1)
    view = open_campaign(user=aussie, campaign=campaign)
    moves, _ = moves_and_battles(view.records(turn.log, number=turn.number))
    assert [(m.companies, m.target) for m in moves if m.side == "australian"] == [
        (["A Company"], "Isura")
    ]
    ours = page(login(aussie), campaign, "turns/1/map/")
    assert re.search(r'data-move="[^"]+\|Isura"', ours)
    theirs = page(login(japanese), campaign, "turns/1/map/")
    assert "A Company" not in theirs  # the enemy's move is not the Japanese side's to see


def test_a_battle_is_marked_where_it_was_fought(played: Campaign, aussie: Any, login: Any) -> None:
    html = page(login(aussie), played, "turns/1/map/")
    assert 'data-battle-area="Korona"' in html


def test_the_time_lapse_has_every_turn_then_now(played: Campaign, aussie: Any, login: Any) -> None:
    html = page(login(aussie), played, "timelapse/")
    labels = re.findall(r'data-label="([^"]+)"', html)
    assert labels == ["Turn 1", "Turn 2", "After turn 2 (now)"]


def test_no_map_of_a_turn_not_played_and_none_for_a_stranger(
    played: Campaign, aussie: Any, outsider: Any, login: Any
) -> None:
    assert login(aussie).get(f"/campaigns/{played.pk}/turns/9/map/").status_code == 404
    assert login(outsider).get(f"/campaigns/{played.pk}/turns/1/map/").status_code == 404
    assert login(outsider).get(f"/campaigns/{played.pk}/timelapse/").status_code == 404


def test_the_turn_pages_and_the_map_link_to_the_past_maps(
    played: Campaign, aussie: Any, login: Any
) -> None:
    client = login(aussie)
    assert f"/campaigns/{played.pk}/turns/1/map/" in page(client, played, "turns/1/")
    assert f"/campaigns/{played.pk}/turns/2/map/" in page(client, played, "turns/")
    assert f"/campaigns/{played.pk}/timelapse/" in page(client, played, "")


def test_a_past_map_has_the_live_maps_legend(played: Campaign, aussie: Any, login: Any) -> None:
    """A walk-through: a past turn's map drew hatched areas, dashed enemy chips ("company,
    strength: strong"), ✓ marks and zone numbers with no legend to read them by."""
    html = page(login(aussie), played, "turns/1/map/")
    assert '<ul class="legend" aria-label="Legend">' in html
    assert "hatched, the tag dashed with a ?: held by that side when you last saw it" in html
    assert "AUS</span> held by the Australians" in html  # the areas' tags, as on the map
    assert "a fighting company of the Japanese in sight" in html
    assert "its zone" in html
    # The live map keeps it, once.
    assert page(login(aussie), played, "").count('<ul class="legend" aria-label="Legend">') == 1


def test_the_time_lapse_has_the_maps_legend_once(
    played: Campaign, aussie: Any, gm_user: Any, login: Any
) -> None:
    """Its maps tag who holds each area ("AUS", "JPN", "none", dashed "AUS?" as last
    seen) with no legend to read them by (a review)."""
    html = page(login(aussie), played, "timelapse/")
    assert html.count('<ul class="legend" aria-label="Legend">') == 1
    legend = html.split('<div class="map-legend">', 1)[1]
    for tag, holder in (("AUS", "the Australians"), ("JPN", "the Japanese"), ("none", "nobody")):
        assert f"{tag}</span> held by {holder}" in legend
    assert "hatched, the tag dashed with a ?: held by that side when you last saw it" in legend
    assert "a fighting company of the Japanese in sight" in legend
    # Below the frames, not inside one: it does not step away with a map.
    assert html.index('<div class="map-legend">') > html.rindex('class="frame"')
    # The GM sees every area as it was: nothing hatched, no line for it.
    gm = page(login(gm_user), played, "timelapse/")
    assert "AUS</span> held by the Australians" in gm and "you last saw it" not in gm


def test_each_map_of_the_time_lapse_is_named_by_its_own_title(
    played: Campaign, aussie: Any, login: Any
) -> None:
    """Five maps on one page: each svg's aria-labelledby names its own <title> (with one
    id for all, every map was read out as the first's), and none is role="img", whose
    children, the area and company links, a screen reader may not reach."""
    html = page(login(aussie), played, "timelapse/")
    maps = re.findall(r'<svg[^>]*class="campaign-map"[^>]*>\s*<title id="([^"]+)">', html)
    labels = re.findall(r'<svg[^>]*class="campaign-map"[^>]*aria-labelledby="([^"]+)"', html)
    assert len(maps) >= 3 and len(set(maps)) == len(maps), maps
    assert labels == maps
    for svg in re.findall(r'<svg[^>]*class="campaign-map"[^>]*>', html):
        assert 'role="img"' not in svg, svg


def test_an_enemys_attack_shows_no_arrow_and_the_map_says_why(
    db: Any, aussie: Any, japanese: Any, gm_user: Any, login: Any
) -> None:
    """A walk-through: a battle in the reader's area showed ⚔ and no arrow for the
    enemy's attack into it. The enemy's moves are left out of the reader's log (rulings,
    section 6): a battle reveals the companies that fought it, not where the attackers
    came from, which may have been out of sight, or would tell which glimpse they were.
    So no arrow, and the words under the map's heading say why."""
    campaign = create_campaign(data=korona_doc(), name="Attack", seed=2)
    join(aussie, campaign, "australian")
    join(japanese, campaign, "japanese")
    first = campaign.companies.get(name="1st Company")
    korona = campaign.areas.get(name="Korona")
    give_order(company=first, kind="advance", target=korona, side="japanese")
    advance_turn(campaign_id=campaign.pk)
    said = (
        "An enemy's attack shows no arrow: your side learns of the battle, not where the "
        "attackers came from."
    )
    attack = 'data-move="Oivi|Korona"'
    ours = page(login(aussie), campaign, "turns/1/map/")
    assert 'data-battle-area="Korona"' in ours
    assert attack not in ours and "data-move=" not in ours
    assert said in ours.replace("&#x27;", "'")
    lapse = page(login(aussie), campaign, "timelapse/").replace("&#x27;", "'")
    assert f'<p class="frame-note">{said}</p>' in lapse
    # The attacker's side drew its own move, and was attacked by nobody: no such words;
    # the game master sees every side's moves.
    theirs = page(login(japanese), campaign, "turns/1/map/")
    assert attack in theirs and "shows no arrow" not in theirs
    assert "shows no arrow" not in page(login(japanese), campaign, "timelapse/")
    gm = page(login(gm_user), campaign, "turns/1/map/")
    assert attack in gm and "shows no arrow" not in gm


def test_a_turn_without_an_enemy_attack_says_nothing_of_its_arrow(
    db: Any, aussie: Any, login: Any
) -> None:
    """The walk-through: "An enemy's attack shows no arrow" under every map of a fogged
    side, turns where no enemy attacked it too. Only a turn with a battle the reader's
    side defended (one it fought, so it knows of it: rulings section 6) says it."""
    campaign = create_campaign(data=korona_doc(), name="Quiet", seed=2)
    join(aussie, campaign, "australian")
    advance_turn(campaign_id=campaign.pk)
    ours = page(login(aussie), campaign, "turns/1/map/")
    assert "data-battle-area=" not in ours
    assert "shows no arrow" not in ours
    lapse = page(login(aussie), campaign, "timelapse/")
    assert "shows no arrow" not in lapse and 'class="frame-note"' not in lapse


def battle_marks(html: str) -> list[tuple[str, str, str]]:
    """Each battle mark of a past map: its area, its title and its label, unescaped."""
    marks = re.findall(
        r'<g class="battle-mark" data-battle-area="([^"]+)"><title>(.*?)</title>.*?'
        r'<text class="battle-sides"[^>]*>(.*?)</text></g>',
        html,
        flags=re.S,
    )
    return [tuple(unescape(part) for part in mark) for mark in marks]


def test_a_battle_mark_says_who_fought_there_by_the_sides_names(
    played: Campaign, aussie: Any, japanese: Any, login: Any
) -> None:
    """A walk-through: the ⚔ said "Battle at Korona: 1st Company attacks A Company", and
    nothing of whose company was whose. Its title names each force after its side, as the
    turn's page does, battle by battle; beside it the sides' tags say who attacked whom,
    and the legend reads them."""
    for user in (aussie, japanese):
        html = page(login(user), played, "turns/1/map/")
        ((area, title, label),) = battle_marks(html)
        assert area == "Korona" and label == "JPN→AUS"
        assert title.startswith(
            "Battle at Korona: the Japanese 1st Company attacks the Australians' A Company. "
            "At Korona the Australians' A Company, defending, beat the Japanese 1st Company"
        )
        assert (
            "Battle at Korona: the Japanese 2nd Company attacks the Australians' B Company" in title
        )
        legend = re.search(r'<li data-legend="battles".*?</li>', html, flags=re.S)
        assert legend is not None
        assert "a battle your side fought" in legend.group()
        assert "JPN→AUS: the Japanese attacked the Australians" in legend.group()
    lapse = page(login(aussie), played, "timelapse/")
    assert ("Korona", title, "JPN→AUS") in battle_marks(lapse)


def test_a_reader_who_may_read_no_battle_sees_no_battle_mark(
    played: Campaign, django_user_model: Any, login: Any
) -> None:
    """A spectator reads no battle while the campaign runs: no mark, no words of one, as
    before the marks named sides, and no line of the legend for a mark it never sees."""
    watcher = django_user_model.objects.create_user("watcher", "w@example.com", "pw-watch-1")
    join(watcher, played, "spectator")
    html = page(login(watcher), played, "turns/1/map/")
    assert battle_marks(html) == [] and 'class="battle-mark"' not in html
    assert "JPN→AUS" not in html and 'data-legend="battles"' not in html


def arrows_of(html: str) -> dict[str, tuple[float, ...]]:
    """Each move's arrow on a past map, by its ``data-move``: x1, y1, x2, y2."""
    found = re.findall(
        r'data-move="([^"]+)"><title>[^<]*</title><line x1="([^"]+)" y1="([^"]+)" '
        r'x2="([^"]+)" y2="([^"]+)"',
        html,
    )
    return {move: tuple(float(n) for n in numbers) for move, *numbers in found}


def across(line: tuple[float, ...], point: tuple[float, float]) -> float:
    """How far ``point`` lies from the straight line through ``line`` (signed)."""
    x1, y1, x2, y2 = line
    return ((x2 - x1) * (point[1] - y1) - (y2 - y1) * (point[0] - x1)) / (
        (x2 - x1) ** 2 + (y2 - y1) ** 2
    ) ** 0.5


def test_opposite_moves_along_one_link_are_two_arrows_side_by_side(
    db: Any, aussie: Any, japanese: Any, login: Any
) -> None:
    """A Company withdrew Korona to Isura while C Company advanced Isura to Korona: they
    drew as one line with a head at each end (a walk-through, misc-07). Two parallel
    arrows, apart by more than their width (5), each its own way."""
    # Seed 1: C Company is in supply on turn 1, so its advance is not refused.
    campaign = create_campaign(data=korona_doc(), name="Both ways", seed=1)
    join(aussie, campaign, "australian")
    join(japanese, campaign, "japanese")
    isura, korona = campaign.areas.get(name="Isura"), campaign.areas.get(name="Korona")
    give_order(
        company=campaign.companies.get(name="A Company"),
        kind="withdraw",
        target=isura,
        side="australian",
    )
    give_order(
        company=campaign.companies.get(name="C Company (militia)"),
        kind="advance",
        target=korona,
        side="australian",
    )
    advance_turn(campaign_id=campaign.pk)
    arrows = arrows_of(page(login(aussie), campaign, "turns/1/map/"))
    there, back = arrows["Korona|Isura"], arrows["Isura|Korona"]
    # Each goes its own way: from near its origin to near its target.
    assert there[0] > there[2] and back[0] < back[2]  # Korona lies east of Isura
    # Parallel (the ends of the one the same distance from the other's line), apart.
    apart = [across(there, (back[0], back[1])), across(there, (back[2], back[3]))]
    assert abs(apart[0] - apart[1]) < 0.1, apart
    # Apart by more than an arrow head's half width (10) and a line's (2.5): the head of
    # one never lies on the other.
    assert abs(apart[0]) >= 12.5, apart
    # The Japanese see neither move: their map draws no arrow on that link.
    theirs = arrows_of(page(login(japanese), campaign, "turns/1/map/"))
    assert not {"Korona|Isura", "Isura|Korona"} & set(theirs)


def test_a_move_alone_on_its_link_is_drawn_on_the_link(
    db: Any, aussie: Any, japanese: Any, login: Any
) -> None:
    campaign = create_campaign(data=korona_doc(), name="One way", seed=2)
    join(aussie, campaign, "australian")
    give_order(
        company=campaign.companies.get(name="A Company"),
        kind="withdraw",
        target=campaign.areas.get(name="Isura"),
        side="australian",
    )
    advance_turn(campaign_id=campaign.pk)
    there = arrows_of(page(login(aussie), campaign, "turns/1/map/"))["Korona|Isura"]
    view = open_campaign(user=aussie, campaign=campaign)
    isura, korona = view.state.areas["Isura"], view.state.areas["Korona"]
    assert abs(across(there, (isura.x, isura.y))) < 0.1
    assert abs(across(there, (korona.x, korona.y))) < 0.1


def test_every_frame_of_the_time_lapse_is_drawn_in_one_box_that_holds_each_map(
    aussie: Any, gm_user: Any, login: Any
) -> None:
    """Each map of the time-lapse was drawn in its own box (a frame with chips raised
    above an area was taller), so stepping through them made the page jump: they share
    one, the least that holds each map's own, which a turn's map alone keeps."""
    campaign = create_campaign(data=meeting_doc(), name="Korona steady", seed=7)
    for _ in range(4):
        advance_turn(campaign_id=campaign.pk)
    join(aussie, campaign, "australian")
    for user in (aussie, gm_user):
        html = page(login(user), campaign, "timelapse/")
        boxes = re.findall(r'class="campaign-map" viewBox="([^"]+)"', html)
        assert len(boxes) == 5 and len(set(boxes)) == 1, (user, boxes)
        x, y, width, height = (float(n) for n in boxes[0].split())
        alone = []
        for number in range(1, 5):
            one = page(login(user), campaign, f"turns/{number}/map/")
            alone += re.findall(r'class="campaign-map" viewBox="([^"]+)"', one)
        assert len(set(alone)) > 1  # the maps alone differ: the shared box is needed
        for own in alone:
            left, top, w, h = (float(n) for n in own.split())
            assert x <= left and y <= top and left + w <= x + width and top + h <= y + height
        assert any(own.split()[1] == boxes[0].split()[1] for own in alone)  # the least


def test_once_it_has_ended_a_players_past_maps_say_they_are_whole(
    db: Any, aussie: Any, login: Any
) -> None:
    """The solo walk of 7 December 2026: once the campaign had ended, a turn's map and
    the time-lapse drew every enemy company by name, stands and quality, and still said
    "As the Australians saw it then" and "as the Australian side saw it when the turn
    began", which the side never did."""
    from dataclasses import replace

    from campaign.services.turns import run_campaign

    campaign = create_campaign(data=korona_doc(), name="Ended", seed=7)
    campaign.set_settings(replace(campaign.get_settings(), turn_limit=2))
    campaign.save(update_fields=["settings"])
    join(aussie, campaign, "australian")
    run_campaign(campaign_id=campaign.pk, turns=5)
    campaign.refresh_from_db()
    assert campaign.status == Campaign.Status.FINISHED
    client = login(aussie)
    turn_map = unescape(re.sub(r"<[^>]+>", "", page(client, campaign, "turns/1/map/")))
    assert "saw it then" not in turn_map
    assert "The whole map, as everyone may read it now that the campaign has ended." in turn_map
    lapse = unescape(re.sub(r"<[^>]+>", "", page(client, campaign, "timelapse/")))
    assert "saw it when the turn began" not in lapse
    assert (
        "Each turn's map whole, as everyone may read it now that the campaign has ended: "
        "its moves as arrows and its battles as ⚔, then the map as it stands now." in lapse
    )


def test_each_map_of_the_time_lapse_has_its_own_hatching(
    played: Campaign, aussie: Any, login: Any
) -> None:
    """The time-lapse shows one map at a time, the others hidden (display: none). Every
    map defined the hatching of areas as last seen under the same ids, and a browser
    reads the first: the first map's, hidden, which paints nothing, so a hatched area
    stepped to was drawn empty, a track line running through its circle. Each map's
    hatching has its own ids, each area's and chip's fill its own map's, and no id on the
    page is used twice."""
    html = page(login(aussie), played, "timelapse/")
    ids = re.findall(r'\sid="([^"]+)"', html)
    assert len(ids) == len(set(ids)), sorted(i for i in set(ids) if ids.count(i) > 1)
    maps = re.findall(r"<svg[^>]*campaign-map.*?</svg>", html, flags=re.S)
    hatched = 0
    for svg in maps:
        defined = set(re.findall(r'<pattern id="([^"]+)"', svg))
        used = set(re.findall(r'fill="url\(#([^)]+)\)"', svg))
        assert used <= defined, used - defined
        hatched += bool(used)
    assert hatched > 1  # several maps hatch an area
