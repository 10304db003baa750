"""Fire and its effects: hits on 5-6, pinned / suppressed / killed, the 4-hit blast,
snipers, the knee mortar's impact fuse, and shooting at armour."""

from __future__ import annotations

from typing import Any

from rules.korona.state import (
    PINNED,
    STATUS_NAMES,
    SUPPORT_RADIUS_IN,
    SUPPRESSED,
    BattleState,
    Stand,
)
from rules.units import UnitType

KILLED = 3
EFFECT_NAMES = (*STATUS_NAMES, "killed")
HIT_ON = 5
SNIPER_HIT_ON = 6
ARMOUR_HIT_ON = 4
BLAST_HITS = 4
# "Heavy artillery 36" direct, no limit indirect": the on-table weapons that may also fire
# indirectly, at any range, at a target a spotter sees (rules.korona.ai.choose_indirect_target).
INDIRECT_FIRE = frozenset({"heavy_artillery"})


def effect_of_hits(status: int, hits: int, *, pin_only: bool = False) -> int:
    """The target's state after one fire action scoring ``hits`` on it.

    1 hit pins, 2 suppress, 3 or more kill; a pinned unit hit once stays pinned, and a
    suppressed unit suppressed again is killed. A pin never improves a worse state.
    """
    if hits <= 0:
        return status
    if pin_only or hits == 1:
        level = PINNED
    elif hits == 2:
        level = SUPPRESSED
    else:
        return KILLED
    if level == SUPPRESSED and status == SUPPRESSED:
        return KILLED
    return level if level > status else status  # (as max(status, level), without the call)


def dice_for(weapon: UnitType, obscured: bool) -> int:
    """An obscured target costs the firer one die."""
    count = weapon.fire_dice - 1 if obscured else weapon.fire_dice
    return count if count > 0 else 0  # (as max(count, 0), without the call)


def impact_fuse_applies(state: BattleState, side: str, weapon: UnitType, target: Stand) -> bool:
    """Japanese knee mortars can only pin troops in jungle or woods."""
    return (
        state.options["impact_fuse"]
        and side == "japanese"
        and weapon.name == "small_mortar"
        and state.in_woods(target)
    )


def _set_status(stand: Stand, new: int) -> None:
    if new == KILLED:
        stand.alive = False
    else:
        stand.status = new


def fire(
    state: BattleState,
    *,
    side: str,
    firer: str,
    firer_type: str,
    weapon: UnitType,
    target: Stand,
    obscured: bool,
    kind: str = "fire",
    extra: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """One fire action at one target, recorded in the log with its dice."""
    before = target.status
    if target.unit.armoured:
        dice, hits, effect, fields = _at_armour(state, weapon, target)
    else:
        dice, hits, effect, fields = _at_soft(state, side, weapon, target, obscured)
    return state.record(
        kind,
        side=side,
        firer=firer,
        firer_type=firer_type,
        target=target.id,
        target_type=target.unit.name,
        dice=dice,
        obscured=obscured,
        hits=hits,
        status_before=STATUS_NAMES[before],
        effect=effect,
        **{**(extra or {}), **fields},
    )


# What a fire did: its dice, its hits, its effect's name and the record's other fields.
_Outcome = tuple[list[int], int, str, dict[str, Any]]


def _at_soft(
    state: BattleState, side: str, weapon: UnitType, target: Stand, obscured: bool
) -> _Outcome:
    """The firing table's dice at a stand that is not armoured."""
    count = dice_for(weapon, obscured)
    dice = state.roller.roll(count)
    before = target.status
    fields: dict[str, Any] = {}
    if weapon.sniper:
        hits = sum(1 for d in dice if d >= SNIPER_HIT_ON)
        # Each 6 is a hit, but a sniper kills at most the one stand it aims at.
        after = KILLED if hits else before
    else:
        hits = sum(1 for d in dice if d >= HIT_ON)
        pin_only = impact_fuse_applies(state, side, weapon, target)
        if pin_only:
            fields["impact_fuse"] = True
        after = effect_of_hits(before, hits, pin_only=pin_only)
    _set_status(target, after)
    if after == KILLED and hits >= BLAST_HITS and not weapon.sniper:
        fields["blast"] = _blast(state, target)
    return list(dice), hits, "none" if hits == 0 else EFFECT_NAMES[after], fields


def _blast(state: BattleState, killed: Stand) -> list[dict[str, str]]:
    """Four hits also suppress every stand within 2" of the one killed, friend or foe."""
    caught = []
    for stand in state.stands_near(killed.x, killed.y, SUPPORT_RADIUS_IN):
        if stand.unit.armoured:
            continue  # small-arms blast does not trouble a tank
        after = effect_of_hits(stand.status, 2)
        before = stand.status
        _set_status(stand, after)
        caught.append(
            {
                "stand": stand.id,
                "status_before": STATUS_NAMES[before],
                "effect": EFFECT_NAMES[after],
            }
        )
    return caught


def _at_armour(state: BattleState, weapon: UnitType, target: Stand) -> _Outcome:
    """Guns roll one die hitting on 4+, then 2d6 + attack value against the defence value.

    Ruling: the one die is not lost to an obscured target (the text's "one less die" is
    for the firing table's dice), and weapons without a gun cannot hurt armour.
    """
    if weapon.gun_attack is None or target.unit.defence is None:
        raise ValueError(f"{weapon.label} cannot shoot at armour")
    to_hit = state.roller.d6()
    dice = [to_hit]
    penetration: list[int] = []
    destroyed = False
    if to_hit >= ARMOUR_HIT_ON:
        penetration = list(state.roller.roll(2))
        dice.extend(penetration)
        destroyed = sum(penetration) + weapon.gun_attack >= target.unit.defence
    if destroyed:
        target.alive = False
    armour = {
        "to_hit": to_hit,
        "penetration": penetration,
        "attack": weapon.gun_attack,
        "defence": target.unit.defence,
    }
    hits = 1 if to_hit >= ARMOUR_HIT_ON else 0
    return dice, hits, "killed" if destroyed else "none", {"armour": armour}


def can_harm(weapon: UnitType, target: Stand) -> bool:
    if target.unit.armoured:
        return weapon.gun_attack is not None
    return weapon.fire_dice > 0


def in_range(weapon: UnitType, distance: float) -> bool:
    if distance < weapon.min_range_in:
        return False
    return weapon.range_in is None or distance <= weapon.range_in
