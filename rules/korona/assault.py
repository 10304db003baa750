"""Assault: a die each plus modifiers, highest wins, ties rolled again; the loser's stands
in the assault are removed. Commanders, snipers and FOs caught without support die."""

from __future__ import annotations

from typing import Any

from rules.korona.state import PINNED, SUPPORT_RADIUS_IN, SUPPRESSED, BattleState, Force, Stand
from rules.units import QUALITY_ASSAULT, Quality

MAX_ROUNDS = 100  # ties are rolled again; this only guards against an impossible loop


def modifiers(force: Force, lead: Stand, in_contact: list[Stand]) -> list[dict[str, Any]]:
    """The modifiers of one side of an assault, each with its reason.

    Ruling: the stand that makes (or receives) the contact leads; its type and state
    give the type and state modifiers, and each further stand in contact adds +1.
    """
    mods: list[dict[str, Any]] = []
    unit = lead.unit
    if unit.crew_served:
        mods.append({"reason": "crew served weapon", "value": -2})
    quality = force.quality
    if quality is not Quality.TRAINED:
        mods.append({"reason": f"{quality} troops", "value": QUALITY_ASSAULT[quality]})
    extra = len(in_contact) - 1
    if extra > 0:
        mods.append({"reason": "additional squads in contact", "value": extra})
    # Each stand answers to its own company's commander; one +1 however many support.
    # A pinned or suppressed commander still supports (Force.commander_near).
    for stand in in_contact:
        commander = force.commander_of(stand)
        if (
            commander is not None
            and commander not in in_contact
            and commander.distance(stand) <= SUPPORT_RADIUS_IN
        ):
            mods.append({"reason": "commander adding support", "value": 1})
            break
    if unit.defence is not None:
        mods.append({"reason": "tank", "value": 3})
    elif unit.move_class in ("wheeled", "tracked"):
        mods.append({"reason": "other vehicle", "value": 1})
    if lead.status == PINNED:
        mods.append({"reason": "pinned", "value": -1})
    elif lead.status == SUPPRESSED:
        mods.append({"reason": "suppressed", "value": -2})
    return mods


def supported(stand: Stand) -> bool:
    """Is a friendly stand within 2" of ``stand``?"""
    return any(
        other is not stand and other.alive and other.distance(stand) <= SUPPORT_RADIUS_IN
        for other in stand.force.stands
    )


def catch_unsupported(state: BattleState, stands: list[Stand]) -> list[Stand]:
    """Remove commanders, snipers and FOs in contact with no friend within 2"; return the rest."""
    standing = []
    for stand in stands:
        if stand.unit.fragile_in_contact and not supported(stand):
            stand.alive = False
            state.record_stand(
                "caught",
                stand,
                outcome="destroyed",
                reason=f'{stand.unit.label} in contact with no supporting stand within 2"',
            )
        else:
            standing.append(stand)
    return standing


def assault(state: BattleState, attackers: list[Stand], defenders: list[Stand]) -> str:
    """Fight one assault; returns the key of the winning force. Logs one record."""
    attacking = attackers[0].force
    defending = defenders[0].force
    ids = {"attackers": [s.id for s in attackers], "defenders": [s.id for s in defenders]}
    attackers = catch_unsupported(state, attackers)
    defenders = catch_unsupported(state, defenders)
    if not defenders or not attackers:
        winner = attacking if attackers else defending
        state.record(
            "assault",
            side=attacking.side,
            by=attacking.key,
            **ids,
            dice=[],
            rolls=[],
            modifiers={},
            outcome=f"{winner.key} wins: no one left to fight",
            winner=winner.key,
            removed=[],
        )
        return winner.key
    mods_a = modifiers(attacking, attackers[0], attackers)
    mods_d = modifiers(defending, defenders[0], defenders)
    total_a = sum(m["value"] for m in mods_a)
    total_d = sum(m["value"] for m in mods_d)
    rolls: list[dict[str, int]] = []
    dice: list[int] = []
    for _ in range(MAX_ROUNDS):
        die_a, die_d = state.roller.d6(), state.roller.d6()
        dice += [die_a, die_d]
        rolls.append({attacking.key: die_a, defending.key: die_d})  # keyed by force, as totals
        if die_a + total_a != die_d + total_d:
            break
    attacker_won = die_a + total_a > die_d + total_d
    losers = defenders if attacker_won else attackers
    for stand in losers:
        stand.alive = False
    winner = attacking if attacker_won else defending
    state.record(
        "assault",
        side=attacking.side,
        by=attacking.key,
        **ids,
        dice=dice,
        rolls=rolls,
        modifiers={attacking.key: mods_a, defending.key: mods_d},
        totals={attacking.key: die_a + total_a, defending.key: die_d + total_d},
        outcome=f"{winner.key} wins",
        winner=winner.key,
        removed=[s.id for s in losers],
    )
    return winner.key
