"""Fog of war: one test per way a side could learn what it must not."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules.campaign.turn import play_turn
from rules.campaign.visibility import (
    Viewer,
    battle_visible,
    glimpse_handles,
    strength_band,
    visible_companies,
    visible_log,
    visible_orders,
    watched_areas,
)
from tests.campaign.builders import korona_state

AUSTRALIANS = Viewer("australian")
JAPANESE = Viewer("japanese")
GM = Viewer(None)
HIDDEN_FIELDS = (
    "stands",
    "establishment",
    "quality",
    "in_supply",
    "turns_out_of_supply",
    "standing_order",
)


def views(state, viewer):
    """Every company the viewer sees, by its real name (a glimpse's, from the server's
    own ``glimpse_handles``: the glimpse itself has none)."""
    shown = visible_companies(state, viewer)
    by_handle = {view.glimpse: view for view in shown if view.glimpse is not None}
    named = {view.name: view for view in shown if view.full}
    named.update(
        {name: by_handle[handle] for name, handle in glimpse_handles(state, viewer).items()}
    )
    return named


def test_the_game_master_sees_every_company_in_full() -> None:
    shown = views(korona_state(), GM)
    assert len(shown) == 8
    assert all(view.full for view in shown.values())


def test_a_side_sees_its_own_companies_in_full() -> None:
    shown = views(korona_state(), AUSTRALIANS)
    for name in ("A Company", "B Company", "C Company (militia)", "1st Supply Company"):
        assert shown[name].full
        assert (
            shown[name].stands is not None
            and shown[name].quality is not None
            or (shown[name].kind == "supply")
        )


def test_an_enemy_in_an_area_linked_to_ours_is_seen_only_as_a_band() -> None:
    """1st and 2nd Companies in Oivi, linked to Korona where A and B Companies stand."""
    shown = views(korona_state(), AUSTRALIANS)
    first = shown["1st Company"]
    assert not first.full
    assert (first.side, first.area, first.kind, first.strength_band) == (
        "japanese",
        "Oivi",
        "fighting",
        "strong",
    )
    for field in HIDDEN_FIELDS:
        assert getattr(first, field) is None, field
    assert first.strength is None


def test_a_glimpse_has_no_name_only_a_handle_of_the_turn() -> None:
    state = korona_state()
    glimpses = [view for view in visible_companies(state, AUSTRALIANS) if not view.full]
    assert [(g.name, g.glimpse, g.area) for g in glimpses] == [
        ("", f"{state.turn}-1", "Oivi"),
        ("", f"{state.turn}-2", "Oivi"),
    ]
    state.turn += 1
    assert [g.glimpse for g in visible_companies(state, AUSTRALIANS) if not g.full] == [
        f"{state.turn}-1",
        f"{state.turn}-2",
    ]


def test_glimpses_are_numbered_by_what_is_seen_never_by_name() -> None:
    """The 3rd Company (trained) in Ioro and the 1st (veteran) in Oivi, or the other way
    round: the reader's glimpses, handles and order are the same."""
    seen = []
    for ioro, oivi in (("3rd Company", "1st Company"), ("1st Company", "3rd Company")):
        state = korona_state()
        state.companies[ioro].area = "Ioro"
        state.companies[oivi].area = "Oivi"
        seen.append(visible_companies(state, AUSTRALIANS))
        assert glimpse_handles(state, AUSTRALIANS)[ioro] == f"{state.turn}-1"  # Ioro < Oivi
    assert seen[0] == seen[1]
    # A weak company sorts before a strong one in the same area, whatever its name.
    state = korona_state()
    first = state.companies["1st Company"]
    first.stands = {unit: 0 for unit in first.stands} | {"commander": 1}
    handles = glimpse_handles(state, AUSTRALIANS)
    assert strength_band(first) == "weak" and handles["1st Company"] == f"{state.turn}-1"
    state.companies["2nd Company"].stands = dict(first.stands)
    state.companies["1st Company"].stands = dict(korona_state().companies["1st Company"].stands)
    assert glimpse_handles(state, AUSTRALIANS)["2nd Company"] == f"{state.turn}-1"


def test_an_enemy_in_our_own_area_is_seen_only_as_a_band() -> None:
    state = korona_state()
    state.companies["1st Company"].area = "Korona"
    view = views(state, AUSTRALIANS)["1st Company"]
    assert not view.full and view.area == "Korona"


def test_an_enemy_out_of_sight_is_not_listed_at_all() -> None:
    """The 3rd Company and the Japanese supply company in Kilu: nothing of ours is near."""
    shown = views(korona_state(), AUSTRALIANS)
    assert "3rd Company" not in shown
    assert "Supply Company" not in shown
    assert watched_areas(korona_state(), "australian") == {
        "Korona",
        "Isura",
        "Oivi",
        "Ioro",
        "Port Murray",
        "Uberi Ridge",
    }


def test_the_japanese_see_by_the_same_rule() -> None:
    shown = views(korona_state(), JAPANESE)
    assert shown["1st Company"].full
    assert not shown["A Company"].full  # Korona is linked to Oivi
    assert "C Company (militia)" not in shown  # Isura is two links from Oivi
    assert "1st Supply Company" not in shown


def test_with_fog_of_war_off_everyone_sees_everything() -> None:
    state = korona_state(fog_of_war=False)
    shown = views(state, AUSTRALIANS)
    assert len(shown) == 8 and all(view.full for view in shown.values())


def test_once_the_campaign_has_ended_everything_is_revealed() -> None:
    state = replace(korona_state(), finished=True)
    assert all(view.full for view in visible_companies(state, JAPANESE))


@pytest.mark.parametrize(
    ("held", "band"), [(5, "weak"), (6, "average"), (10, "average"), (11, "strong"), (12, "strong")]
)
def test_strength_bands(held: int, band: str) -> None:
    company = korona_state().companies["A Company"]
    company.stands = {"rifle_squad": held}
    company.establishment = {"rifle_squad": 12}
    assert strength_band(company) == band


def test_the_turn_log_hides_the_enemys_supply_rolls_and_moves() -> None:
    state = korona_state()
    for company in state.companies.values():
        company.standing_order = "aggressive"
    outcome = play_turn(state)
    log = visible_log(outcome.log, outcome.state, AUSTRALIANS)
    enemy = {c.name for c in state.companies.values() if c.side == "japanese"}
    for record in log:
        if record["phase"] in ("supply", "movement"):
            assert record["company"] not in enemy, record["text"]
    own_supply = [r for r in log if r["kind"] == "supply"]
    assert {r["company"] for r in own_supply} == {"A Company", "B Company", "C Company (militia)"}
    # The naval and aerial records stay whole (but a strafing of an enemy company).
    public = [
        r
        for r in outcome.log
        if r["phase"] in ("naval", "aerial") and r.get("effect") != "strafe_company"
    ]
    assert all(r in log for r in public)
    # The initiative: the Australians' own roll and who moves first, not a tie.
    decided = [r for r in outcome.log if r["phase"] == "initiative" and r["outcome"] != "tie"]
    shown = [r for r in log if r["phase"] == "initiative"]
    own = [{"australian": r["rolls"]["australian"]} for r in decided]
    assert [r["rolls"] for r in shown] == own
    assert [r["outcome"] for r in shown] == [r["outcome"] for r in decided]
    assert all("japanese" not in r["totals"] and len(r["dice"]) == 1 for r in shown)


def test_battle_records_go_to_the_sides_that_fought() -> None:
    records = [
        {
            "phase": "battles",
            "kind": "battle_result",
            "side": "japanese",
            "battle": "1:X",
            "attacker_side": "japanese",
            "defender_side": "australian",
            "text": "",
        },
        {
            "phase": "battles",
            "kind": "losses",
            "side": "japanese",
            "battle": "1:Y",
            "attacker_side": "japanese",
            "defender_side": "dutch",
            "text": "",
        },
    ]
    state = korona_state()
    assert visible_log(records, state, AUSTRALIANS) == records[:1]
    assert visible_log(records, state, GM) == records
    assert battle_visible("japanese", "australian", state, AUSTRALIANS)
    assert not battle_visible("japanese", "dutch", state, AUSTRALIANS)
    assert battle_visible("japanese", "dutch", replace(state, finished=True), AUSTRALIANS)


def test_a_side_never_sees_enemy_orders() -> None:
    orders = [("A Company", "australian"), ("1st Company", "japanese")]
    side_of = lambda order: order[1]  # noqa: E731
    assert visible_orders(orders, AUSTRALIANS, side_of=side_of) == [orders[0]]
    assert visible_orders(orders, JAPANESE, side_of=side_of) == [orders[1]]
    assert visible_orders(orders, GM, side_of=side_of) == orders
