"""Builders for hand-made campaign snapshots and scripted campaign dice.

``korona_state`` is the reference scenario of the rulings (sections 1-2), built by hand
from the dataclasses so that the turn tests do not depend on the scenario loader.
``line_state`` is a small custom map for a rule that is easier to see on a few areas.
``turn_dice`` scripts a whole turn's dice in the order the engine throws them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

import pytest

from rules.battlefield import Battlefield
from rules.battlespec import BattleSpec
from rules.campaign.state import (
    AirGroup,
    Area,
    CampaignState,
    Company,
    Order,
    Settings,
    Ship,
    Side,
)
from rules.campaign.turn import TurnPlan, start_turn
from rules.dice import Roller
from rules.korona import engine as korona_engine
from tests.rules.conftest import ScriptedRoller

AUSTRALIAN_RIFLE_COMPANY = {
    "commander": 1,
    "rifle_squad": 9,
    "small_mortar": 1,
    "forward_observer": 1,
}
JAPANESE_RIFLE_COMPANY = {"commander": 1, "rifle_squad": 9, "small_mortar": 1, "hmg": 1}
SUPPLY_COMPANY = {"carrier": 6}
ESTABLISHMENTS = {"australian": AUSTRALIAN_RIFLE_COMPANY, "japanese": JAPANESE_RIFLE_COMPANY}

KORONA_TRACK = "Korona track"
SOUTHERN_TRACK = "southern track"

# area: zone, track, vegetation, plains, features (rulings section 1)
KORONA_AREAS: dict[str, tuple[int, str, str, bool, tuple[str, ...]]] = {
    "Port Murray": (1, KORONA_TRACK, "light", False, ("port", "airfield")),
    "Uberi Ridge": (2, KORONA_TRACK, "jungle", False, ()),
    "Ioro": (3, KORONA_TRACK, "jungle", False, ()),
    "Isura": (4, KORONA_TRACK, "jungle", False, ()),
    "Korona": (5, KORONA_TRACK, "light", True, ("airstrip",)),
    "Oivi": (6, KORONA_TRACK, "jungle", False, ()),
    "Kilu": (7, KORONA_TRACK, "light", True, ("port", "hq")),
    "Erida": (3, SOUTHERN_TRACK, "jungle", False, ()),
    "Kerna": (4, SOUTHERN_TRACK, "jungle", False, ()),
    "Munara": (5, SOUTHERN_TRACK, "jungle", False, ()),
}
KORONA_LINKS = [
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
# The fighting companies sorted by (side, name): the order of the supply dice.
KORONA_FIGHTING = (
    "A Company",
    "B Company",
    "C Company (militia)",
    "1st Company",
    "2nd Company",
    "3rd Company",
)


def fighting_company(
    name: str,
    side: str,
    area: str,
    quality: str = "trained",
    *,
    stands: Mapping[str, int] | None = None,
    **fields: Any,
) -> Company:
    """A rifle company of ``side`` at full establishment unless ``stands`` says otherwise."""
    establishment = dict(ESTABLISHMENTS[side])
    held = {unit: 0 for unit in establishment}
    held.update(stands if stands is not None else establishment)
    return Company(
        name=name,
        side=side,
        kind="fighting",
        area=area,
        stands=held,
        establishment=establishment,
        quality=quality,
        **fields,
    )


def supply_company(name: str, side: str, area: str, **fields: Any) -> Company:
    return Company(
        name=name,
        side=side,
        kind="supply",
        area=area,
        stands=dict(SUPPLY_COMPANY),
        establishment=dict(SUPPLY_COMPANY),
        quality=None,
        **fields,
    )


def korona_sides() -> dict[str, Side]:
    return {
        "australian": Side("australian", "Australians", "Port Murray"),
        "japanese": Side("japanese", "Japanese", "Kilu"),
    }


def korona_state(seed: int = 1, **settings: Any) -> CampaignState:
    """The reference scenario: the Korona map, the starting forces, ships and the RAAF."""
    areas = {
        name: Area(
            name=name,
            zone=zone,
            track=track,
            vegetation=vegetation,
            plains=plains,
            features=features,
            controller="japanese" if name in ("Oivi", "Kilu") else "australian",
        )
        for name, (zone, track, vegetation, plains, features) in KORONA_AREAS.items()
    }
    companies = [
        fighting_company("A Company", "australian", "Korona", "trained"),
        fighting_company("B Company", "australian", "Korona", "trained"),
        fighting_company("C Company (militia)", "australian", "Isura", "raw"),
        supply_company("1st Supply Company", "australian", "Port Murray"),
        fighting_company("1st Company", "japanese", "Oivi", "veteran"),
        fighting_company("2nd Company", "japanese", "Oivi", "veteran"),
        fighting_company("3rd Company", "japanese", "Kilu", "trained"),
        supply_company("Supply Company", "japanese", "Kilu"),
    ]
    return CampaignState(
        name="Korona",
        seed=seed,
        settings=Settings(**settings),
        sides=korona_sides(),
        areas=areas,
        links=list(KORONA_LINKS),
        companies={c.name: c for c in companies},
        ships=[
            Ship("HMAS Pitcairn", "australian", "Port Murray"),
            Ship("IJN Uesugi", "japanese", "Kilu"),
        ],
        air=[AirGroup("australian", "Port Murray", buffalos=3, bombers=0)],
    )


def line_state(
    names: Sequence[str],
    companies: Iterable[Company] = (),
    *,
    links: Iterable[tuple[str, str]] | None = None,
    tracks: Mapping[str, str] | None = None,
    air: Iterable[AirGroup] = (),
    seed: int = 1,
    **settings: Any,
) -> CampaignState:
    """A small map: ``names`` linked in a line (or by ``links``), the Australian base the
    first area and the Japanese base the last; zones count 1, 2, ... along the line."""
    areas = {
        name: Area(
            name=name,
            zone=index + 1,
            track=(tracks or {}).get(name, KORONA_TRACK),
            vegetation="jungle",
        )
        for index, name in enumerate(names)
    }
    areas[names[0]].controller = "australian"
    areas[names[-1]].controller = "japanese"
    return CampaignState(
        name="Test map",
        seed=seed,
        settings=Settings(**settings),
        sides={
            "australian": Side("australian", "Australians", names[0]),
            "japanese": Side("japanese", "Japanese", names[-1]),
        },
        areas=areas,
        links=list(links) if links is not None else list(zip(names, names[1:], strict=False)),
        companies={c.name: c for c in companies},
        air=list(air),
    )


def move(state: CampaignState, **areas: str) -> CampaignState:
    """Put companies in other areas: ``move(state, A_Company="Oivi")``, spaces written as
    ``_``; a name may stop short (``C_Company`` is "C Company (militia)")."""
    for given, area in areas.items():
        start = given.replace("_", " ")
        (name,) = [n for n in state.companies if n == start] or [
            n for n in state.companies if n.startswith(start + " ")
        ]
        state.companies[name].area = area
    return state


def supply_dice(
    state: CampaignState, rolls: Mapping[str, int] | None = None, *, default: int = 6
) -> list[int]:
    """The supply dice of ``state``'s fighting companies in the order they are thrown:
    ``rolls`` by company name, ``default`` for the rest."""
    fighting = sorted(
        (c for c in state.companies.values() if c.fighting), key=lambda c: (c.side, c.name)
    )
    return [(rolls or {}).get(c.name, default) for c in fighting]


def turn_dice(
    supply: Sequence[int],
    *,
    naval: Sequence[int] = (1,),
    aerial: Sequence[int] = (1,),
    initiative: Sequence[int] = (6, 1),
) -> ScriptedRoller:
    """A turn's dice in the engine's order: the naval check (and table die), the aerial
    check (and table die), one supply die per fighting company sorted by (side, name),
    then initiative (Australian die, Japanese die, again on a tie). By default there is
    no event and the Australians win the initiative."""
    return ScriptedRoller([*naval, *aerial, *supply, *initiative])


def scripted_turn(
    state: CampaignState,
    supply: Sequence[int],
    orders: Mapping[str, Order] | None = None,
    **dice: Sequence[int],
) -> TurnPlan:
    """``start_turn`` on scripted dice, checking that the engine threw every one of them."""
    roller = turn_dice(supply, **dice)
    plan = start_turn(state, orders, roller=roller)  # type: ignore[arg-type]
    assert roller.unused == [], f"the engine left scripted dice unthrown: {roller.unused}"
    return plan


def records(log: Iterable[dict[str, Any]], kind: str, **match: Any) -> list[dict[str, Any]]:
    """The log records of ``kind`` whose fields equal ``match``."""
    return [r for r in log if r["kind"] == kind and all(r.get(k) == v for k, v in match.items())]


def supply_record(plan: TurnPlan, company: str) -> dict[str, Any]:
    (found,) = records(plan.log, "supply", company=company)
    return found


def counting_tables(monkeypatch: pytest.MonkeyPatch) -> Counter[int]:
    """The Korona tables rolled from here on, by the seed of the dice that rolled them."""
    rolled: Counter[int] = Counter()
    real = korona_engine.ENGINE

    def roll_terrain(spec: BattleSpec, roller: Roller) -> Battlefield:
        rolled[roller.seed] += 1
        return real.roll_terrain(spec, roller)

    monkeypatch.setattr(korona_engine, "ENGINE", replace(real, roll_terrain=roll_terrain))
    return rolled
