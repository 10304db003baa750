"""Scenario files: the Korona file is the rulings, and every fault is named with its place."""

from __future__ import annotations

import copy
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.campaign.scenario import (
    EVENT_EFFECTS,
    ScenarioError,
    dump_scenario,
    load_scenario,
    parse_scenario,
    read_scenario,
    settings_from_json,
    settings_to_json,
)
from rules.campaign.state import (
    DEFAULT_AERIAL_TABLE,
    DEFAULT_NAVAL_TABLE,
    AirGroup,
    Settings,
    Ship,
    Side,
)
from tests.campaign.conftest import KORONA, RULINGS_FORCES, korona_doc

AUSTRALIAN_RIFLES = {"commander": 1, "forward_observer": 1, "rifle_squad": 9, "small_mortar": 1}
JAPANESE_RIFLES = {"commander": 1, "rifle_squad": 9, "small_mortar": 1, "hmg": 1}


def problems_of(doc: Any) -> list[str]:
    with pytest.raises(ScenarioError) as caught:
        parse_scenario(doc)
    return caught.value.problems


def company(doc: dict[str, Any], name: str) -> dict[str, Any]:
    return next(c for c in doc["companies"] if c["name"] == name)


def area(doc: dict[str, Any], name: str) -> dict[str, Any]:
    return next(a for a in doc["areas"] if a["name"] == name)


# --- the Korona scenario ----------------------------------------------------------------


def test_the_korona_map_is_the_rulings_reconstruction() -> None:
    state = load_scenario(KORONA)
    rows = {
        a.name: (a.zone, a.track, a.vegetation, a.plains, set(a.features))
        for a in state.areas.values()
    }
    korona, southern = "Korona track", "southern track"
    assert rows == {
        "Port Murray": (1, korona, "light", False, {"port", "airfield"}),
        "Uberi Ridge": (2, korona, "jungle", False, set()),
        "Ioro": (3, korona, "jungle", False, set()),
        "Isura": (4, korona, "jungle", False, set()),
        "Korona": (5, korona, "light", True, {"airstrip"}),
        "Oivi": (6, korona, "jungle", False, set()),
        "Kilu": (7, korona, "light", True, {"port", "hq"}),
        "Erida": (3, southern, "jungle", False, set()),
        "Kerna": (4, southern, "jungle", False, set()),
        "Munara": (5, southern, "jungle", False, set()),
    }
    assert {frozenset(link) for link in state.links} == {
        frozenset(pair)
        for pair in [
            ("Port Murray", "Uberi Ridge"),
            ("Uberi Ridge", "Ioro"),
            ("Ioro", "Isura"),
            ("Isura", "Korona"),
            ("Korona", "Oivi"),
            ("Oivi", "Kilu"),
            ("Uberi Ridge", "Erida"),
            ("Erida", "Kerna"),
            ("Kerna", "Munara"),
            ("Munara", "Oivi"),
        ]
    }
    assert state.neighbours("Oivi") == ["Kilu", "Korona", "Munara"]
    controlled = {name: a.controller for name, a in state.areas.items()}
    assert {name for name, side in controlled.items() if side == "japanese"} == {"Oivi", "Kilu"}
    assert {name for name, side in controlled.items() if side == "australian"} == set(
        state.areas
    ) - {"Oivi", "Kilu"}


def test_the_korona_map_draws_the_tracks_apart() -> None:
    state = load_scenario(KORONA)
    track = ["Port Murray", "Uberi Ridge", "Ioro", "Isura", "Korona", "Oivi", "Kilu"]
    xs = [state.areas[name].x for name in track]
    assert xs == sorted(xs) and len(set(xs)) == len(xs)  # left to right
    lowest_on_track = max(state.areas[name].y for name in track)
    for name in ("Erida", "Kerna", "Munara"):  # the southern loop below it
        assert state.areas[name].y > lowest_on_track
        assert state.areas["Uberi Ridge"].x < state.areas[name].x < state.areas["Oivi"].x


# The shipped file's qualities, tuned for balance (docs/campaign.md, "The reference
# scenario's balance"); everything else is the rulings' section 2.
TUNED_QUALITIES = {
    "A Company": "veteran",
    "B Company": "veteran",
    "C Company (militia)": "trained",
}


def test_the_korona_forces_differ_from_the_rulings_only_in_the_tuned_qualities() -> None:
    state = load_scenario(KORONA)
    for name, (quality, area) in RULINGS_FORCES.items():
        company = state.companies[name]
        assert company.area == area
        assert company.quality == TUNED_QUALITIES.get(name, quality)
    assert all(RULINGS_FORCES[name][0] != q for name, q in TUNED_QUALITIES.items())


def test_the_korona_forces_are_the_rulings_starting_forces_tuned() -> None:
    state = load_scenario(KORONA)
    assert state.sides == {
        "australian": Side("australian", "Australians", "Port Murray"),
        "japanese": Side("japanese", "Japanese", "Kilu"),
    }
    rows = {
        c.name: (c.side, c.kind, c.quality, c.area, c.stands, c.standing_order)
        for c in state.companies.values()
    }
    assert rows == {
        "A Company": ("australian", "fighting", "veteran", "Korona", AUSTRALIAN_RIFLES, "sensible"),
        "B Company": ("australian", "fighting", "veteran", "Korona", AUSTRALIAN_RIFLES, "sensible"),
        "C Company (militia)": (
            "australian",
            "fighting",
            "trained",
            "Isura",
            AUSTRALIAN_RIFLES,
            "sensible",
        ),
        "1st Supply Company": (
            "australian",
            "supply",
            None,
            "Port Murray",
            {"carrier": 6},
            "sensible",
        ),
        "1st Company": ("japanese", "fighting", "veteran", "Oivi", JAPANESE_RIFLES, "sensible"),
        "2nd Company": ("japanese", "fighting", "veteran", "Oivi", JAPANESE_RIFLES, "sensible"),
        "3rd Company": ("japanese", "fighting", "trained", "Kilu", JAPANESE_RIFLES, "sensible"),
        "Supply Company": ("japanese", "supply", None, "Kilu", {"carrier": 6}, "sensible"),
    }
    for c in state.companies.values():
        assert c.establishment == c.stands  # at full strength
        assert c.strength == (12 if c.fighting else 6)
        assert (c.turns_out_of_supply, c.banzai, c.in_supply) == (0, False, None)
    assert state.ships == [
        Ship("HMAS Pitcairn", "australian", "Port Murray", True),
        Ship("IJN Uesugi", "japanese", "Kilu", True),
    ]
    assert state.air == [AirGroup("australian", "Port Murray", buffalos=3, bombers=0)]
    assert (state.name, state.turn, state.finished, state.winner) == ("Korona", 0, False, None)
    assert state.settings == Settings()  # the rulings are the defaults


def test_the_korona_scenario_survives_a_round_trip() -> None:
    state = load_scenario(KORONA)
    dumped = dump_scenario(state)
    assert parse_scenario(dumped) == state
    assert parse_scenario(json.loads(json.dumps(dumped))) == state
    assert dump_scenario(parse_scenario(dumped)) == dumped


def test_a_changed_snapshot_survives_a_round_trip() -> None:
    state = load_scenario(KORONA)
    state.turn = 7
    state.finished, state.winner, state.end_reason = True, "japanese", "base_taken"
    state.settings = replace(state.settings, turn_limit=12, rough_tracks=(), objective="Kilu")
    a = state.companies["A Company"]
    a.stands["rifle_squad"] = 4
    a.area, a.turns_out_of_supply, a.in_supply, a.standing_order = "Ioro", 2, False, "aggressive"
    state.companies["1st Company"].banzai = True
    state.areas["Korona"].controller = "japanese"
    state.areas["Erida"].controller = None
    state.ships[0].present = False
    state.air[0].buffalos, state.air[0].bombers = 0, 1
    assert parse_scenario(json.loads(json.dumps(dump_scenario(state)))) == state


def test_dump_writes_every_field() -> None:
    dumped = dump_scenario(load_scenario(KORONA))
    assert set(dumped) == {
        "name",
        "seed",
        "turn",
        "settings",
        "sides",
        "areas",
        "links",
        "companies",
        "ships",
        "air",
        "finished",
        "winner",
        "end_reason",
    }
    assert set(dumped["settings"]) == set(Settings.__slots__)
    assert dumped["settings"]["naval_table"]["1"] == DEFAULT_NAVAL_TABLE[1]
    assert set(dumped["companies"][0]) >= {"establishment", "in_supply", "banzai"}


# --- defaults ---------------------------------------------------------------------------


def test_absent_settings_take_the_defaults_and_given_ones_are_kept() -> None:
    doc = korona_doc()
    doc["settings"] = {"turn_limit": 12, "fog_of_war": False, "rough_tracks": []}
    got = parse_scenario(doc).settings
    assert got == replace(Settings(), turn_limit=12, fog_of_war=False, rough_tracks=())


def test_event_tables_are_read_with_string_or_number_faces() -> None:
    table = {str(face): entry for face, entry in DEFAULT_AERIAL_TABLE.items()}
    doc = korona_doc()
    doc["settings"] = {"aerial_table": table, "naval_table": DEFAULT_NAVAL_TABLE}
    got = parse_scenario(doc).settings
    assert got.aerial_table == DEFAULT_AERIAL_TABLE
    assert got.naval_table == DEFAULT_NAVAL_TABLE


def test_establishment_defaults_to_the_starting_stands() -> None:
    doc = korona_doc()
    company(doc, "A Company")["stands"] = {"commander": 1, "rifle_squad": 5}
    got = parse_scenario(doc).companies["A Company"]
    assert got.establishment == {"commander": 1, "rifle_squad": 5}


def test_a_company_below_establishment_holds_every_type_it_should_have() -> None:
    doc = korona_doc()
    company(doc, "A Company")["stands"] = {"commander": 1, "rifle_squad": 5}
    company(doc, "A Company")["establishment"] = AUSTRALIAN_RIFLES
    got = parse_scenario(doc).companies["A Company"]
    assert got.stands == {
        "commander": 1,
        "forward_observer": 0,
        "rifle_squad": 5,
        "small_mortar": 0,
    }
    assert got.establishment == AUSTRALIAN_RIFLES
    assert list(got.stands) == list(got.establishment)


def test_optional_company_fields_take_their_defaults() -> None:
    doc = korona_doc()
    del company(doc, "A Company")["standing_order"]
    got = parse_scenario(doc).companies["A Company"]
    assert (got.standing_order, got.turns_out_of_supply, got.banzai, got.in_supply) == (
        "sensible",
        0,
        False,
        None,
    )


def test_the_seed_and_turn_are_read() -> None:
    doc = korona_doc()
    doc["seed"], doc["turn"] = 1234, 3
    state = parse_scenario(doc)
    assert (state.seed, state.turn) == (1234, 3)


# --- one problem each -------------------------------------------------------------------


def test_a_link_to_an_unknown_area_is_named() -> None:
    doc = korona_doc()
    doc["links"][3] = ["Isura", "Kokoda"]
    problems = problems_of(doc)
    assert problems[0] == "links[3]: unknown area 'Kokoda'"


def test_a_map_that_is_not_connected_names_the_areas_cut_off() -> None:
    doc = korona_doc()
    doc["links"].remove(["Uberi Ridge", "Erida"])
    doc["links"].remove(["Munara", "Oivi"])
    assert problems_of(doc) == [
        "links: the map is not connected: Erida, Kerna, Munara cannot be reached from Port Murray"
    ]


def test_a_side_without_a_base_is_refused() -> None:
    doc = korona_doc()
    del doc["sides"][1]["base"]
    assert problems_of(doc) == ["sides[1] (japanese).base: is missing"]


def test_a_base_that_is_not_an_area_is_refused() -> None:
    doc = korona_doc()
    doc["sides"][0]["base"] = "Sydney"
    assert problems_of(doc) == ["sides[0] (australian).base: unknown area 'Sydney'"]


def test_duplicate_area_names_are_refused() -> None:
    doc = korona_doc()
    doc["areas"].append({**area(doc, "Ioro"), "zone": 9})
    assert problems_of(doc) == [
        "areas[10] (Ioro).name: duplicate area 'Ioro' (first at areas[2] (Ioro).name)"
    ]


def test_duplicate_company_names_are_refused() -> None:
    doc = korona_doc()
    doc["companies"][1]["name"] = "A Company"
    assert problems_of(doc) == [
        "companies[1] (A Company).name: duplicate company 'A Company' "
        "(first at companies[0] (A Company).name)"
    ]


def test_duplicate_ship_names_are_refused() -> None:
    doc = korona_doc()
    doc["ships"][1]["name"] = "HMAS Pitcairn"
    assert problems_of(doc) == [
        "ships[1] (HMAS Pitcairn).name: duplicate ship 'HMAS Pitcairn' "
        "(first at ships[0] (HMAS Pitcairn).name)"
    ]


def test_a_bad_side_key_is_refused() -> None:
    doc = korona_doc()
    doc["sides"][0]["key"] = "allies"
    assert problems_of(doc) == [
        "sides[0].key: must be one of australian, japanese, not 'allies'",
        "sides: a campaign needs both sides: no australian",
    ]


def test_duplicate_sides_are_refused() -> None:
    doc = korona_doc()
    doc["sides"][1] = {"key": "australian", "name": "Australians", "base": "Kilu"}
    assert problems_of(doc) == [
        "sides[1] (australian).name: duplicate side name 'Australians' "
        "(first at sides[0] (australian).name)",
        "sides[1] (australian).key: duplicate side 'australian'",
        "sides: a campaign needs both sides: no japanese",
    ]


def test_a_company_in_an_unknown_area_is_refused() -> None:
    doc = korona_doc()
    company(doc, "B Company")["area"] = "Kokoda"
    assert problems_of(doc) == ["companies[1] (B Company).area: unknown area 'Kokoda'"]


def test_an_unknown_unit_type_is_refused() -> None:
    doc = korona_doc()
    company(doc, "B Company")["stands"]["bren_carrier"] = 1
    [problem] = problems_of(doc)
    assert problem.startswith(
        "companies[1] (B Company).stands.bren_carrier: unknown unit type 'bren_carrier' (known: "
    )
    assert "carrier" in problem


def test_air_support_is_not_a_stand_of_a_company() -> None:
    doc = korona_doc()
    company(doc, "B Company")["stands"]["air_bombing"] = 1
    assert problems_of(doc) == [
        "companies[1] (B Company).stands.air_bombing: air support is not a stand: "
        "give planes under air"
    ]


def test_negative_stands_are_refused() -> None:
    doc = korona_doc()
    company(doc, "B Company")["stands"]["rifle_squad"] = -1
    assert problems_of(doc) == [
        "companies[1] (B Company).stands.rifle_squad: must be from 0 to 1000, not -1"
    ]


def test_held_above_establishment_is_refused() -> None:
    doc = korona_doc()
    company(doc, "B Company")["establishment"] = dict(AUSTRALIAN_RIFLES)
    company(doc, "B Company")["stands"]["rifle_squad"] = 10
    company(doc, "B Company")["stands"]["hmg"] = 1
    assert problems_of(doc) == [
        "companies[1] (B Company).stands.rifle_squad: held 10 is above establishment 9",
        "companies[1] (B Company).stands.hmg: held 1 is above establishment 0",
    ]


def test_a_fighting_company_above_the_settings_establishment_is_refused() -> None:
    doc = korona_doc()
    company(doc, "B Company")["stands"]["rifle_squad"] = 10
    assert problems_of(doc) == [
        "companies[1] (B Company).establishment: 13 stands is above a fighting company's "
        "establishment of 12 (settings.establishment)"
    ]
    doc["settings"] = {"establishment": 13}
    assert parse_scenario(doc).companies["B Company"].strength == 13


def test_a_company_with_no_stands_is_refused() -> None:
    doc = korona_doc()
    company(doc, "Supply Company")["stands"] = {"carrier": 0}
    assert problems_of(doc) == [
        "companies[7] (Supply Company).stands: a company needs at least one stand"
    ]


@pytest.mark.parametrize(
    ("place", "value", "problem"),
    [
        (
            ("companies", 0, "side"),
            "american",
            "companies[0] (A Company).side: must be one of australian, japanese, not 'american'",
        ),
        (
            ("companies", 0, "kind"),
            "engineer",
            "companies[0] (A Company).kind: must be one of fighting, supply, not 'engineer'",
        ),
        (
            ("companies", 0, "quality"),
            "elite",
            "companies[0] (A Company).quality: must be one of raw, trained, veteran, not 'elite'",
        ),
        (
            ("companies", 0, "standing_order"),
            "charge",
            "companies[0] (A Company).standing_order: must be one of hold, aggressive, "
            "sensible, not 'charge'",
        ),
        (
            ("areas", 1, "vegetation"),
            "light (plantation)",
            "areas[1] (Uberi Ridge).vegetation: must be one of jungle, light, clearing, "
            "not 'light (plantation)'",
        ),
        (
            ("areas", 1, "features"),
            ["port", "harbour"],
            "areas[1] (Uberi Ridge).features[1]: must be one of port, airfield, airstrip, hq, "
            "not 'harbour'",
        ),
        (
            ("areas", 1, "controller"),
            "dutch",
            "areas[1] (Uberi Ridge).controller: must be one of australian, japanese, not 'dutch'",
        ),
        (
            ("ships", 0, "side"),
            "british",
            "ships[0] (HMAS Pitcairn).side: must be one of australian, japanese, not 'british'",
        ),
        (
            ("air", 0, "side"),
            None,
            "air[0].side: must be one of australian, japanese, not None",
        ),
        (
            ("companies", 0, "in_supply"),
            "yes",
            "companies[0] (A Company).in_supply: must be true, false or null, not 'yes'",
        ),
        (
            ("companies", 0, "turns_out_of_supply"),
            -1,
            "companies[0] (A Company).turns_out_of_supply: must be from 0 to 1000, not -1",
        ),
        (
            ("areas", 1, "x"),
            1200,
            "areas[1] (Uberi Ridge).x: must be from 0 to 1000, not 1200",
        ),
        (
            ("areas", 1, "zone"),
            "two",
            "areas[1] (Uberi Ridge).zone: must be a whole number, not 'two'",
        ),
        (
            ("ships", 1, "port"),
            "Oivi",
            "ships[1] (IJN Uesugi).port: Oivi has no port (features)",
        ),
        (
            ("air", 0, "base"),
            "Ioro",
            "air[0].base: Ioro has no airfield or airstrip (features)",
        ),
        (
            ("air", 0, "bombers"),
            2,
            "air[0].bombers: must be from 0 to 1, not 2",
        ),
        ("seed", -1, f"seed: must be from 0 to {2**63 - 1}, not -1"),
        ("seed", 2**63, f"seed: must be from 0 to {2**63 - 1}, not {2**63}"),
        ("name", "  ", "name: must be a non-empty string, not '  '"),
        ("name", " Korona", "name: must not begin or end with spaces: ' Korona'"),
    ],
)
def test_a_bad_value_is_named_with_its_place(place: Any, value: Any, problem: str) -> None:
    doc = korona_doc()
    path = place if isinstance(place, tuple) else (place,)
    node: Any = doc
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    assert problems_of(doc) == [problem]


def test_a_fighting_company_needs_a_quality() -> None:
    doc = korona_doc()
    del company(doc, "A Company")["quality"]
    assert problems_of(doc) == [
        "companies[0] (A Company).quality: a fighting company needs a quality "
        "(raw, trained, veteran)"
    ]


def test_a_supply_company_has_no_quality() -> None:
    doc = korona_doc()
    company(doc, "Supply Company")["quality"] = "veteran"
    assert problems_of(doc) == [
        "companies[7] (Supply Company).quality: a supply company never fights and has no quality"
    ]


def test_a_link_from_an_area_to_itself_is_refused() -> None:
    doc = korona_doc()
    doc["links"].append(["Ioro", "Ioro"])
    assert problems_of(doc) == ["links[10]: links 'Ioro' to itself"]


def test_a_duplicated_link_is_refused_either_way_round() -> None:
    doc = korona_doc()
    doc["links"] += [["Ioro", "Uberi Ridge"], ["Uberi Ridge", "Ioro"]]
    assert problems_of(doc) == [
        "links[10]: duplicates links[1] (Ioro - Uberi Ridge)",
        "links[11]: duplicates links[1] (Uberi Ridge - Ioro)",
    ]


@pytest.mark.parametrize("link", ["Ioro", ["Ioro"], ["Ioro", "Isura", "Korona"], ["Ioro", 3]])
def test_a_link_must_be_a_pair_of_names(link: Any) -> None:
    doc = korona_doc()
    doc["links"].append(link)
    assert problems_of(doc) == [f"links[10]: must be a pair of area names, not {link!r}"]


def test_an_event_table_must_cover_every_face() -> None:
    doc = korona_doc()
    table = {str(face): entry for face, entry in DEFAULT_NAVAL_TABLE.items() if face != 4}
    table["7"] = DEFAULT_NAVAL_TABLE[4]
    doc["settings"] = {"naval_table": table}
    assert problems_of(doc) == [
        "settings.naval_table.7: is not a face of a d6 (1 to 6)",
        "settings.naval_table: no entry for face 4: every face 1-6 needs one",
    ]


def test_an_event_table_may_not_give_a_face_twice() -> None:
    table: dict[Any, Any] = dict(DEFAULT_NAVAL_TABLE)
    table["3"] = {"effect": "none"}
    with pytest.raises(ScenarioError) as caught:
        settings_from_json({"naval_table": table})
    assert caught.value.problems == ["settings.naval_table.3: face 3 is given twice"]


def test_an_unknown_event_effect_is_refused() -> None:
    doc = korona_doc()
    table = {str(face): dict(entry) for face, entry in DEFAULT_AERIAL_TABLE.items()}
    table["4"]["effect"] = "typhoon"
    doc["settings"] = {"aerial_table": table}
    [problem] = problems_of(doc)
    assert problem == (
        "settings.aerial_table.4.effect: unknown effect 'typhoon' (known: "
        + ", ".join(EVENT_EFFECTS)
        + ")"
    )


def test_an_event_needs_the_fields_of_its_effect_and_no_others() -> None:
    doc = korona_doc()
    table = {str(face): dict(entry) for face, entry in DEFAULT_AERIAL_TABLE.items()}
    del table["1"]["count"]
    table["3"]["count"] = 2
    table["5"]["track"] = "Burma road"
    doc["settings"] = {"aerial_table": table}
    assert problems_of(doc) == [
        "settings.aerial_table.1.count: is missing",
        "settings.aerial_table.3.count: is not a field of a planes_recalled event",
        "settings.aerial_table.5.track: no area is on track 'Burma road'",
    ]


@pytest.mark.parametrize(
    ("setting", "value", "problem"),
    [
        ("turn_limit", "20", "must be a whole number, not '20'"),
        ("turn_limit", 0, "must be from 1 to 1000, not 0"),
        ("turn_limit", None, "must be a whole number, not null"),
        ("naval_trigger", 7, "must be from 1 to 6, not 7"),
        ("aerial_trigger", 5.5, "must be a whole number, not 5.5"),
        ("ship_absence_blocks_supply", "no", "must be true or false, not 'no'"),
        ("fog_of_war", 1, "must be true or false, not 1"),
        ("rough_tracks", "southern track", "must be a list, not str"),
        ("battle_mode", "hotseat", "must be one of auto, tabletop, not 'hotseat'"),
        ("unentered_tabletop", "forfeit", "must be one of wait, auto, not 'forfeit'"),
        ("ruleset", "bolt_action", "must be one of korona, force_on_force, not 'bolt_action'"),
        ("objective", 5, "must be a non-empty string, not 5"),
        ("naval_table", [], "must be an object with an entry for each face 1-6, not []"),
        ("max_bombers", True, "must be a whole number, not True"),
    ],
)
def test_a_setting_of_the_wrong_type_is_refused(setting: str, value: Any, problem: str) -> None:
    doc = korona_doc()
    doc["settings"] = {setting: value}
    assert problems_of(doc) == [f"settings.{setting}: {problem}"]


def test_settings_that_name_places_must_name_places_on_the_map() -> None:
    doc = korona_doc()
    doc["settings"] = {"objective": "Kokoda", "rough_tracks": ["Kokoda track"]}
    assert problems_of(doc) == [
        "settings.objective: unknown area 'Kokoda'",
        "settings.rough_tracks[0]: no area is on track 'Kokoda track'",
    ]


def test_another_map_must_replace_the_korona_defaults() -> None:
    doc = korona_doc()
    for a in doc["areas"]:
        if a["name"] == "Korona":
            a["name"] = "Kokoda"
    doc["links"] = [[n.replace("Korona", "Kokoda") for n in link] for link in doc["links"]]
    for c in doc["companies"]:
        c["area"] = c["area"].replace("Korona", "Kokoda")
    problems = problems_of(doc)
    assert problems == [
        "settings.airdrop_base: unknown area 'Korona' "
        "(the default; give settings.airdrop_base for this map)",
        "settings.objective: unknown area 'Korona' (the default; give settings.objective "
        "for this map)",
    ]
    doc["settings"] = {"airdrop_base": None, "objective": "Kokoda"}
    assert parse_scenario(doc).settings.objective == "Kokoda"


@pytest.mark.parametrize(
    ("place", "what"),
    [
        ((), "a scenario"),
        (("sides", 0), "a side"),
        (("areas", 0), "an area"),
        (("companies", 0), "a company"),
        (("ships", 0), "a ship"),
        (("air", 0), "an air group"),
    ],
)
def test_unknown_keys_are_reported_at_every_level(place: tuple[Any, ...], what: str) -> None:
    doc = korona_doc()
    node: Any = doc
    for key in place:
        node = node[key]
    node["morale"] = 3
    [problem] = problems_of(doc)
    assert problem.endswith(f"morale: is not a field of {what}")
    assert problem.startswith(str(place[0]) if place else "morale")


def test_an_empty_key_is_reported_with_its_place() -> None:
    """A key that is the empty string is named ``''``: the problem keeps its place (it
    read "is not a field of a scenario" with no place, which hypothesis found)."""
    doc = korona_doc()
    doc[""] = 1
    doc["sides"][0][""] = 1
    assert sorted(problems_of(doc)) == [
        "'': is not a field of a scenario",
        "sides[0] (australian).'': is not a field of a side",
    ]


def test_unknown_settings_and_event_fields_are_reported() -> None:
    doc = korona_doc()
    table = {str(face): dict(entry) for face, entry in DEFAULT_NAVAL_TABLE.items()}
    table["2"]["colour"] = "red"
    doc["settings"] = {"naval_table": table, "turnlimit": 20}
    assert problems_of(doc) == [
        "settings.turnlimit: is not a setting",
        "settings.naval_table.2.colour: is not a field of a no_supply_support event",
    ]


def test_a_missing_side_is_reported_once_not_at_everything_of_that_side() -> None:
    doc = korona_doc()
    doc["sides"].pop()
    assert problems_of(doc) == ["sides: a campaign needs both sides: no japanese"]


def test_only_a_finished_campaign_has_a_winner_and_end_reason() -> None:
    doc = korona_doc()
    doc["winner"], doc["end_reason"] = "japanese", "turn_limit"
    assert problems_of(doc) == [
        "winner: a campaign that is not finished has no winner",
        "end_reason: a campaign that is not finished has no end reason",
    ]
    doc["finished"] = True
    state = parse_scenario(doc)
    assert (state.finished, state.winner, state.end_reason) == (True, "japanese", "turn_limit")


def test_a_side_may_have_one_air_group() -> None:
    doc = korona_doc()
    doc["air"].append({"side": "australian", "base": "Korona", "buffalos": 1})
    assert problems_of(doc) == [
        "air[1].side: duplicate air group 'australian' (first at air[0].side)"
    ]


def test_missing_sections_are_reported() -> None:
    problems = problems_of({"name": "Empty"})
    assert problems == [
        "sides: is missing",
        "areas: is missing",
        "links: is missing",
        "companies: is missing",
    ]


def test_an_empty_map_is_refused() -> None:
    doc = korona_doc()
    doc.update(areas=[], links=[], companies=[], ships=[], air=[])
    assert "areas: a map needs at least one area" in problems_of(doc)


def test_a_document_that_is_not_an_object_is_refused() -> None:
    assert problems_of([1, 2])[0] == "scenario: must be an object, not list"


def test_several_problems_are_reported_at_once() -> None:
    doc = korona_doc()
    doc["links"].append(["Korona", "Kokoda"])
    doc["sides"][0]["base"] = "Sydney"
    company(doc, "A Company")["stands"]["tiger_tank"] = 1
    company(doc, "C Company (militia)")["quality"] = "green"
    area(doc, "Kerna")["vegetation"] = "swamp"
    doc["ships"][0]["name"] = "IJN Uesugi"
    doc["settings"] = {"turn_limit": "twenty"}
    doc["weather"] = "rain"
    places = [problem.split(": ")[0] for problem in problems_of(doc)]
    assert places == [
        "settings.turn_limit",
        "areas[8] (Kerna).vegetation",
        "sides[0] (australian).base",
        "links[10]",
        "companies[0] (A Company).stands.tiger_tank",
        "companies[2] (C Company (militia)).quality",
        "ships[1] (IJN Uesugi).name",
        "weather",
    ]


def test_the_error_lists_every_problem() -> None:
    error = ScenarioError(["a: one", "b: two"])
    assert isinstance(error, ValueError)
    assert str(error) == "invalid scenario: a: one; b: two"


# --- settings on their own --------------------------------------------------------------


def test_settings_survive_a_round_trip_through_json() -> None:
    custom = replace(Settings(), turn_limit=8, rough_tracks=("a", "b"), airdrop_base=None)
    assert settings_from_json(json.loads(json.dumps(settings_to_json(custom)))) == custom
    assert settings_from_json({}) == Settings()


# --- files ------------------------------------------------------------------------------


def test_bad_json_names_the_file_and_the_place(tmp_path: Path) -> None:
    path = tmp_path / "scenario.json"
    path.write_text('{"name": "Korona",\n  "sides": [,]\n}', encoding="utf-8")
    with pytest.raises(ScenarioError) as caught:
        load_scenario(path)
    assert caught.value.problems == [
        f"{path}: not valid JSON at line 2, column 13: Expecting value"
    ]


def test_a_missing_file_is_a_scenario_error(tmp_path: Path) -> None:
    path = tmp_path / "nowhere.json"
    with pytest.raises(ScenarioError) as caught:
        read_scenario(path)
    assert caught.value.problems == [f"{path}: cannot read the file (No such file or directory)"]


# --- any change at all ------------------------------------------------------------------

JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 20)
    | st.integers()
    | st.floats()
    | st.text(max_size=6)
    | st.sampled_from(
        [
            "Korona",
            "Kilu",
            "Port Murray",
            "australian",
            "japanese",
            "fighting",
            "supply",
            "carrier",
            "rifle_squad",
            "veteran",
            "hold",
            "port",
            "jungle",
            "none",
            "southern track",
        ]
    ),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=6,
)
FULL_KORONA = dump_scenario(load_scenario(KORONA))


def _places(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [path]
    if isinstance(node, dict):
        for key, value in node.items():
            found += _places(value, (*path, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            found += _places(value, (*path, i))
    return found


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_change_is_parsed_or_refused_with_a_scenario_error(data: st.DataObject) -> None:
    doc = copy.deepcopy(data.draw(st.sampled_from([korona_doc(), FULL_KORONA]), label="doc"))
    for _ in range(data.draw(st.integers(1, 3), label="changes")):
        path = data.draw(st.sampled_from(_places(doc)), label="place")
        how = data.draw(st.sampled_from(["replace", "delete", "add"]), label="how")
        if not path:
            doc = data.draw(JSON, label="document") if how == "replace" else doc
            continue
        parent: Any = doc
        for key in path[:-1]:
            parent = parent[key]
        key = path[-1]
        if how == "replace":
            parent[key] = data.draw(JSON, label="value")
        elif how == "delete":
            del parent[key]
        elif isinstance(parent, dict):
            parent[data.draw(st.text(max_size=6), label="new key")] = data.draw(JSON)
        else:
            parent.insert(key, data.draw(JSON, label="new item"))
    try:
        state = parse_scenario(doc)
    except ScenarioError as error:
        assert error.problems
        assert all(isinstance(p, str) and ": " in p for p in error.problems)
    else:
        assert parse_scenario(dump_scenario(state)) == state


def test_old_breed_options_combine_with_force_on_force() -> None:
    doc = korona_doc()
    doc["settings"] = {"ruleset": "force_on_force", "combat_events": True, "fog_of_war_cup": True}
    settings = parse_scenario(doc).settings
    assert (settings.ruleset, settings.combat_events, settings.fog_of_war_cup) == (
        "force_on_force",
        True,
        True,
    )


def test_the_combat_event_tables_are_settings_that_survive_a_round_trip() -> None:
    from rules.campaign.scenario import dump_scenario, parse_scenario
    from rules.korona.events import DEFAULT_COMBAT_EVENT_TABLE

    doc = korona_doc()
    table = {str(face): dict(entry) for face, entry in DEFAULT_COMBAT_EVENT_TABLE.items()}
    table["5"] = {"effect": "pin_own_squad", "text": "Mud in the breech."}
    doc["settings"] = {"combat_events": True, "combat_event_table": table}
    state = parse_scenario(doc)
    assert state.settings.combat_event_table[5]["effect"] == "pin_own_squad"
    assert parse_scenario(dump_scenario(state)) == state


def test_a_combat_event_table_with_a_missing_face_is_refused() -> None:
    doc = korona_doc()
    doc["settings"] = {"combat_event_table": {"1": {"effect": "nothing"}}}
    [problem] = problems_of(doc)
    assert problem.startswith("settings.combat_event_table: must have exactly the faces 1-6")
