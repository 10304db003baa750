"""A battle's input as the engines read it: the checked BATTLE.json (``rules.spec``
builds it from a document and checks its options through the rule sets' registry, so
the engines import these types from here, never the checker that imports them back).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rules.battlefield import RULINGS_LANDFORM_GOING, Going, Landform
from rules.units import Quality

SIDES = ("australian", "japanese")


@dataclass(frozen=True, slots=True)
class AreaSpec:
    name: str
    zone: int
    vegetation: str
    plains: bool


@dataclass(frozen=True, slots=True)
class CompanySpec:
    """One company of a force made of several: its stands, on the table and joining."""

    name: str
    stands: dict[str, int]  # unit type -> count, as ForceSpec.stands


@dataclass(frozen=True, slots=True)
class ForceSpec:
    side: str
    name: str
    quality: Quality
    stands: dict[str, int]  # unit type -> count, in STAND_TYPES order, zero counts dropped
    sniper: bool = False  # one rifle squad fights as a sniper
    # Stands that join during the battle, drawn from the Fog of War cup (Old Breed 16.2).
    reinforcements: dict[str, int] = field(default_factory=dict)
    # Several companies: whose each stand is (rulings section 4: each stand answers to its
    # own company's commander). Their stands add up to stands + reinforcements; the table's
    # stands go to the companies in order, then the reinforcements. Empty: one company.
    companies: tuple[CompanySpec, ...] = ()

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
    # The going of each landform where it differs from the rulings' (battlefield
    # RULINGS_LANDFORM_GOING): landform name -> going name (BATTLE.json table.landform_going).
    landform_going: dict[str, str] = field(default_factory=dict)

    def terrain(self) -> tuple[Any, ...]:
        """What the table rolled for this battle depends on, besides its seed: its size,
        its area's ground and trees, the going of its landforms."""
        return (
            self.width_ft,
            self.depth_ft,
            self.area.vegetation,
            self.area.plains,
            tuple(sorted(self.landform_going.items())),
        )

    def landform_going_map(self) -> dict[Landform, Going]:
        """Every landform's going for this battle: the rulings', with this battle's changes."""
        return {
            **RULINGS_LANDFORM_GOING,
            **{Landform(k): Going(v) for k, v in self.landform_going.items()},
        }

    def to_json(self) -> dict[str, Any]:
        def force(f: ForceSpec) -> dict[str, Any]:
            return {
                "side": f.side,
                "name": f.name,
                "quality": str(f.quality),
                "stands": dict(f.stands),
                "sniper": f.sniper,
                **({"reinforcements": dict(f.reinforcements)} if f.reinforcements else {}),
                **(
                    {"companies": [{"name": c.name, "stands": dict(c.stands)} for c in f.companies]}
                    if f.companies
                    else {}
                ),
            }

        return {
            "area": {
                "name": self.area.name,
                "zone": self.area.zone,
                "vegetation": self.area.vegetation,
                "plains": self.area.plains,
            },
            "table": {
                "width_ft": self.width_ft,
                "depth_ft": self.depth_ft,
                **({"landform_going": dict(self.landform_going)} if self.landform_going else {}),
            },
            "attacker": force(self.attacker),
            "defender": force(self.defender),
            "support": {"buffalos": self.support.buffalos, "hurricane": self.support.hurricane},
            "options": {"ruleset": self.ruleset, **self.options},
        }
