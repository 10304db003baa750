"""BATTLE.json: the description of one battle, shared by every rule set.

``parse_battle`` checks the whole document and raises ``BattleSpecError`` listing every
problem with where it is, so a GM fixing a file sees all of them at once.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rules.battlefield import AREA_VEGETATION
from rules.units import STAND_TYPES, UNIT_TYPES, Quality

SIDES = ("australian", "japanese")
MAX_TABLE_FT = 12


class BattleSpecError(ValueError):
    """A BATTLE.json that cannot be fought; ``problems`` names each fault and its place."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__("invalid battle: " + "; ".join(problems))


@dataclass(frozen=True, slots=True)
class AreaSpec:
    name: str
    zone: int
    vegetation: str
    plains: bool


@dataclass(frozen=True, slots=True)
class ForceSpec:
    side: str
    name: str
    quality: Quality
    stands: dict[str, int]  # unit type -> count, in STAND_TYPES order, zero counts dropped
    sniper: bool = False  # one rifle squad fights as a sniper
    # Stands that join during the battle, drawn from the Fog of War cup (Old Breed 16.2).
    reinforcements: dict[str, int] = field(default_factory=dict)

    @property
    def total_stands(self) -> int:
        return sum(self.stands.values())


@dataclass(frozen=True, slots=True)
class SupportSpec:
    buffalos: int = 0
    hurricane: bool = False


@dataclass(frozen=True, slots=True)
class BattleSpec:
    area: AreaSpec
    width_ft: int
    depth_ft: int
    attacker: ForceSpec
    defender: ForceSpec
    support: SupportSpec
    ruleset: str = "korona"
    options: dict[str, Any] = field(default_factory=dict)  # rule-set options besides ruleset

    def to_json(self) -> dict[str, Any]:
        def force(f: ForceSpec) -> dict[str, Any]:
            return {
                "side": f.side,
                "name": f.name,
                "quality": str(f.quality),
                "stands": dict(f.stands),
                "sniper": f.sniper,
                **({"reinforcements": dict(f.reinforcements)} if f.reinforcements else {}),
            }

        return {
            "area": {
                "name": self.area.name,
                "zone": self.area.zone,
                "vegetation": self.area.vegetation,
                "plains": self.area.plains,
            },
            "table": {"width_ft": self.width_ft, "depth_ft": self.depth_ft},
            "attacker": force(self.attacker),
            "defender": force(self.defender),
            "support": {"buffalos": self.support.buffalos, "hurricane": self.support.hurricane},
            "options": {"ruleset": self.ruleset, **self.options},
        }


class Checker:
    """Collects problems instead of stopping at the first (shared with the scenario
    checks in ``rules.campaign.scenario``)."""

    def __init__(self) -> None:
        self.problems: list[str] = []

    def fail(self, where: str, message: str) -> None:
        self.problems.append(f"{where}: {message}")

    def mapping(self, value: Any, where: str) -> Mapping[str, Any]:
        if value is None:
            self.fail(where, "is missing")
            return {}
        if not isinstance(value, Mapping):
            self.fail(where, f"must be an object, not {type(value).__name__}")
            return {}
        return value

    def integer(
        self,
        value: Any,
        where: str,
        *,
        minimum: int,
        maximum: int | None = None,
        default: int | None = None,
    ) -> int:
        if value is None and default is not None:
            return default
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(where, f"must be a whole number, not {value!r}")
            return minimum
        if value < minimum or (maximum is not None and value > maximum):
            bound = f"from {minimum} to {maximum}" if maximum is not None else f"at least {minimum}"
            self.fail(where, f"must be {bound}, not {value}")
            return minimum
        return value

    def boolean(self, value: Any, where: str, *, default: bool) -> bool:
        if value is None:
            return default
        if not isinstance(value, bool):
            self.fail(where, f"must be true or false, not {value!r}")
            return default
        return value

    def text(self, value: Any, where: str) -> str:
        if not isinstance(value, str) or not value.strip():
            self.fail(where, "must be a non-empty string" if value is not None else "is missing")
            return "?"
        return value.strip()

    def choice(
        self, value: Any, where: str, choices: tuple[str, ...], default: str | None = None
    ) -> str:
        if value is None and default is not None:
            return default
        if value not in choices:
            self.fail(where, f"must be one of {', '.join(choices)}, not {value!r}")
            return choices[0]
        return value


def _force(check: Checker, data: Any, where: str) -> ForceSpec:
    raw = check.mapping(data, where)
    side = check.choice(raw.get("side"), f"{where}.side", SIDES)
    name = check.text(raw.get("name"), f"{where}.name")
    quality = Quality(check.choice(raw.get("quality"), f"{where}.quality", tuple(Quality)))
    stands = _stand_counts(check, raw.get("stands"), f"{where}.stands")
    reinforcements = (
        _stand_counts(check, raw["reinforcements"], f"{where}.reinforcements")
        if raw.get("reinforcements") is not None
        else {}
    )
    if raw.get("stands") is not None and not stands:
        check.fail(f"{where}.stands", "a force needs at least one stand")
    sniper = check.boolean(raw.get("sniper"), f"{where}.sniper", default=False)
    if sniper and not stands.get("rifle_squad"):
        check.fail(f"{where}.sniper", "a sniper replaces a rifle squad, and there is none")
    unknown = set(raw) - {"side", "name", "quality", "stands", "sniper", "reinforcements"}
    for key in sorted(unknown):
        check.fail(f"{where}.{key}", "is not a field of a force")
    return ForceSpec(
        side=side,
        name=name,
        quality=quality,
        stands=stands,
        sniper=sniper,
        reinforcements=reinforcements,
    )


def _stand_counts(check: Checker, data: Any, where: str) -> dict[str, int]:
    """A map of unit type to count, in STAND_TYPES order, zero counts dropped."""
    raw = check.mapping(data, where)
    counts: dict[str, int] = {}
    for unit, count in raw.items():
        spot = f"{where}.{unit}"
        if unit not in UNIT_TYPES:
            check.fail(spot, f"unknown unit type {unit!r} (known: {', '.join(STAND_TYPES)})")
        elif UNIT_TYPES[unit].off_table:
            check.fail(spot, "air support is not a stand: give it under support")
        elif unit == "carrier":
            check.fail(spot, "supply carriers never fight: leave them out of a battle")
        counts[unit] = check.integer(count, spot, minimum=0)
    return {unit: counts[unit] for unit in STAND_TYPES if counts.get(unit)}


def parse_battle(data: Any) -> BattleSpec:
    """Validate a decoded BATTLE.json document and build the spec."""
    check = Checker()
    doc = check.mapping(data, "battle")
    area_raw = check.mapping(doc.get("area"), "area")
    area = AreaSpec(
        name=check.text(area_raw.get("name"), "area.name"),
        zone=check.integer(area_raw.get("zone"), "area.zone", minimum=0),
        vegetation=check.choice(area_raw.get("vegetation"), "area.vegetation", AREA_VEGETATION),
        plains=check.boolean(area_raw.get("plains"), "area.plains", default=False),
    )
    table = check.mapping(doc.get("table", {}), "table")
    width = check.integer(
        table.get("width_ft"), "table.width_ft", minimum=1, maximum=MAX_TABLE_FT, default=3
    )
    depth = check.integer(
        table.get("depth_ft"), "table.depth_ft", minimum=1, maximum=MAX_TABLE_FT, default=3
    )
    attacker = _force(check, doc.get("attacker"), "attacker")
    defender = _force(check, doc.get("defender"), "defender")
    if attacker.sniper:
        check.fail("attacker.sniper", "only the defender may swap a squad for a sniper")
    sides = [
        force.get("side")
        for force in (doc.get("attacker"), doc.get("defender"))
        if isinstance(force, Mapping)
    ]
    if len(sides) == 2 and sides[0] in SIDES and sides[0] == sides[1]:
        check.fail("defender.side", f"both forces are {attacker.side}; a battle needs both sides")
    support_raw = check.mapping(doc.get("support", {}), "support")
    support = SupportSpec(
        buffalos=check.integer(
            support_raw.get("buffalos"), "support.buffalos", minimum=0, default=0
        ),
        hurricane=check.boolean(support_raw.get("hurricane"), "support.hurricane", default=False),
    )
    options = dict(check.mapping(doc.get("options", {}), "options"))
    ruleset = options.pop("ruleset", "korona")
    from rules.rulesets import RULESETS  # the registry imports the engines, which import this

    if not isinstance(ruleset, str) or ruleset not in RULESETS:
        check.fail(
            "options.ruleset", f"unknown rule set {ruleset!r} (known: {', '.join(RULESETS)})"
        )
    else:
        for problem in RULESETS[ruleset].check_options(options):
            check.fail("options", problem)
    for key in sorted(set(doc) - {"area", "table", "attacker", "defender", "support", "options"}):
        check.fail(key, "is not a field of a battle")
    if check.problems:
        raise BattleSpecError(check.problems)
    return BattleSpec(
        area=area,
        width_ft=width,
        depth_ft=depth,
        attacker=attacker,
        defender=defender,
        support=support,
        ruleset=ruleset,
        options=options,
    )


def load_battle(path: str | Path) -> BattleSpec:
    """Read and validate a BATTLE.json file."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise BattleSpecError([f"{path}: cannot read the file ({exc.strerror})"]) from exc
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise BattleSpecError(
            [f"{path}: not valid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}"]
        ) from exc
    return parse_battle(data)
