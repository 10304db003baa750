"""Phase 6, its pairing: the battles of every contested area, each with the BATTLE.json
it is fought from and its seed. (Their results come back through ``results``.)"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import replace
from typing import Any

from rules import names as naming
from rules.battlefield import SQUARE_IN, Battlefield
from rules.campaign.phases.common import (
    PlannedBattle,
    TurnInPlay,
    record,
    supply_companies_caught,
)
from rules.campaign.seeds import battle_seed
from rules.campaign.state import Area, CampaignState, Company, Order, Settings
from rules.dice import derive_seed
from rules.rulesets import RULESETS
from rules.spec import parse_battle


def _counts(group: list[Company]) -> dict[str, int]:
    """The stands of some companies together (carriers do not come to the table)."""
    stands: dict[str, int] = {}
    for company in group:
        for unit, count in company.stands.items():
            if count and unit != "carrier":
                stands[unit] = stands.get(unit, 0) + count
    return stands


def _force(state: CampaignState, companies: list[Company], *, cup: bool = False) -> dict[str, Any]:
    """A battle force from its companies: the first leads; with the Fog of War cup, the
    companies that joined this battle as extras come as cup reinforcements."""
    lead = companies[0]
    on_table, joining = (companies[:1], companies[1:]) if cup else (companies, [])
    force: dict[str, Any] = {
        "side": lead.side,
        "name": " and ".join(c.name for c in companies),
        # Ruling: several companies fight at the quality of the strongest among them (the
        # lead: the most stands, as the pairing ranks them).
        "quality": lead.quality or "trained",
        "stands": _counts(on_table),
    }
    if joining:
        force["reinforcements"] = _counts(joining)
    if len(companies) > 1 and RULESETS[state.settings.ruleset].reads_companies:
        # Each stand answers to its own company's commander (rulings section 4).
        force["companies"] = [{"name": c.name, "stands": _counts([c])} for c in companies]
    return force


def _faces(table: dict[int, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """An event table as BATTLE.json writes it (faces as strings)."""
    return {str(face): dict(entry) for face, entry in table.items()}


def _woods_in_deployment(field_: Battlefield) -> bool:
    """Has the defender's deployment third of this table woods?"""
    third = max(field_.depth_in // 3, 2)  # the defender's zone, as its deployment reads it
    return any(sq.wooded for row in field_.squares for sq in row if sq.row * SQUARE_IN < third)


def deployment_has_woods(spec: Mapping[str, Any], seed: int) -> bool:
    """Has the defender's deployment third woods on the table this battle will be fought
    on? The table is rolled as the engine rolls it (its rule set's ``roll_table``, from
    the battle's seed): no die of the turn or the battle is used up by asking."""
    parsed = parse_battle(spec)
    return _woods_in_deployment(RULESETS[parsed.ruleset].roll_table(parsed, seed).battlefield)


def _sniper_choice(
    force: Mapping[str, Any], on_table: list[Company], snipers: Mapping[str, bool | None]
) -> bool | None:
    """Does the defending force swap one rifle squad for a sniper? A company's own choice
    (its order's option) when it made one; None when a company with no choice (None: its
    side has no player) leaves it to the AI, which swaps when its deployment third has
    woods. The text gives a defender one sniper: one company choosing it is enough. Only
    a force with a rifle squad on the table can swap one."""
    if not force["stands"].get("rifle_squad"):
        return False
    choices = [snipers.get(c.name) for c in on_table]
    if any(choice is True for choice in choices):
        return True
    return None if any(choice is None for choice in choices) else False


def _sides(
    state: CampaignState, area_name: str, arrival: dict[str, dict[str, int]]
) -> tuple[str, str]:
    """(attacker, defender) in a contested area: the side there first defends; both there
    before movement, the side holding it."""
    sides = sorted({c.side for c in state.companies_in(area_name, fighting=True)})
    ranks = arrival.get(area_name, {})
    holder = state.areas[area_name].controller
    defender = min(sides, key=lambda s: (ranks.get(s, 10**6), s != holder, s))
    attacker = next(s for s in sides if s != defender)
    return attacker, defender


def _pairs(
    state: CampaignState, area_name: str, attacker: str, defender: str
) -> list[tuple[list[Company], list[Company]]]:
    """Strongest against strongest; a side's extra companies join its largest battle."""
    here = state.companies_in(area_name, fighting=True)
    att, dfn = (
        sorted((c for c in here if c.side == side), key=lambda c: (-c.strength, c.name))
        for side in (attacker, defender)
    )
    pairs = [([a], [d]) for a, d in zip(att, dfn, strict=False)]
    for extra in att[len(pairs) :]:
        max(pairs, key=lambda p: sum(c.strength for c in p[0]))[0].append(extra)
    for extra in dfn[len(pairs) :]:
        max(pairs, key=lambda p: sum(c.strength for c in p[1]))[1].append(extra)
    return pairs


def _table(settings: Settings) -> dict[str, Any]:
    return {
        "width_ft": settings.table_width_ft,
        "depth_ft": settings.table_depth_ft,
        **({"landform_going": dict(settings.landform_going)} if settings.landform_going else {}),
    }


def _options(settings: Settings) -> dict[str, Any]:
    combat_events = (
        {
            "combat_events": True,
            "combat_event_table": _faces(settings.combat_event_table),
            "japanese_event_table": _faces(settings.japanese_event_table),
        }
        if settings.combat_events
        else {}
    )
    return {
        "ruleset": settings.ruleset,
        "turn_limit": settings.tactical_turn_limit,
        **combat_events,
        **({"fog_of_war_cup": True} if settings.fog_of_war_cup else {}),
    }


def _spec(
    state: CampaignState, area: Area, a_cos: list[Company], d_cos: list[Company]
) -> dict[str, Any]:
    """The BATTLE.json of a battle between these companies in this area."""
    cup = state.settings.fog_of_war_cup
    support = {g.side: g for g in state.air}.get("australian")
    return {
        "area": {
            "name": area.name,
            "zone": area.zone,
            "vegetation": area.vegetation,
            "plains": area.plains,
        },
        "table": _table(state.settings),
        "attacker": _force(state, a_cos, cup=cup),
        "defender": {**_force(state, d_cos, cup=cup), "sniper": False},
        "support": {
            "buffalos": support.buffalos if support else 0,
            "hurricane": bool(support and support.bombers),
        },
        "options": _options(state.settings),
    }


def _plan_battle(
    state: CampaignState,
    key: str,
    area: Area,
    pair: tuple[list[Company], list[Company]],
    snipers: Mapping[str, bool | None],
    turn_seed: int | None,
    check: bool,
) -> PlannedBattle:
    a_cos, d_cos = pair
    spec = _spec(state, area, a_cos, d_cos)
    seed = (
        derive_seed(state.seed, "battle", key) if turn_seed is None else battle_seed(turn_seed, key)
    )
    on_table = d_cos[:1] if state.settings.fog_of_war_cup else d_cos
    # A battle the rules cannot fight is a bug here, not later. Checked before the sniper
    # is chosen, which only swaps a rifle squad the force has (``_sniper_choice``).
    parsed = parse_battle(spec) if check else None
    table = None
    sniper = _sniper_choice(spec["defender"], on_table, snipers)
    if sniper is None:
        # The AI's choice reads the table the battle is fought on: rolled here, and kept
        # for the fight, which would otherwise roll it again (issue 17).
        parsed = parsed or parse_battle(spec)
        table = RULESETS[parsed.ruleset].roll_table(parsed, seed)
        sniper = _woods_in_deployment(table.battlefield)
    if sniper:
        spec["defender"]["sniper"] = True
        if parsed is not None:
            parsed = replace(parsed, defender=replace(parsed.defender, sniper=True))
    return PlannedBattle(
        key=key,
        area=area.name,
        attacker_side=spec["attacker"]["side"],
        defender_side=spec["defender"]["side"],
        attackers=[c.name for c in a_cos],
        defenders=[c.name for c in d_cos],
        seed=seed,
        spec=spec,
        parsed=parsed,
        table=table,
    )


def _record_battle(log: list[dict[str, Any]], battle: PlannedBattle) -> None:
    spec = battle.spec
    record(
        log,
        "battles",
        "battle",
        f"battle at {battle.area}: {spec['attacker']['name']}"
        f" {naming.verb(spec['attacker']['name'], 'attacks', 'attack')}"
        f" {spec['defender']['name']}",
        side=battle.attacker_side,
        target=battle.area,
        outcome="to be fought",
        battle=battle.key,
        attacker_side=battle.attacker_side,
        defender_side=battle.defender_side,
        attackers=battle.attackers,
        defenders=battle.defenders,
    )


def pair_battles(
    state: CampaignState,
    arrival: dict[str, dict[str, int]],
    number: int,
    log: list[dict[str, Any]],
    snipers: Mapping[str, bool | None] | None = None,
    *,
    turn_seed: int | None = None,
    check: bool = True,
) -> list[PlannedBattle]:
    """Pair the battles of every contested area. ``snipers``: each company's sniper
    choice (True, False, None for the AI's); a company missing from it takes the AI's.
    Each battle is seeded from ``turn_seed``'s public branch (without one, a sketch's:
    from the campaign seed, never a real battle's seed). ``check``: each BATTLE.json is
    checked (``parse_battle``) as it is made; only a sketch whose caller checks the
    battle it fights itself (the AI's odds) goes without."""
    battles = []
    for area_name in sorted(state.areas):
        if len({c.side for c in state.companies_in(area_name, fighting=True)}) < 2:
            continue
        attacker, defender = _sides(state, area_name, arrival)
        pairs = _pairs(state, area_name, attacker, defender)
        for index, pair in enumerate(pairs):
            key = f"{number}:{area_name}" + (f":{index + 1}" if len(pairs) > 1 else "")
            battle = _plan_battle(
                state, key, state.areas[area_name], pair, snipers or {}, turn_seed, check
            )
            battles.append(battle)
            _record_battle(log, battle)
    return battles


def sniper_choices(
    state: CampaignState, orders: Mapping[str, Order], players: Collection[str] = ()
) -> dict[str, bool | None]:
    """Each fighting company's sniper choice for the turn: its order's option; with no
    order (or an order that leaves it open), the AI's (None) on a side with no player,
    none on a side with a player (it chose nothing)."""
    choices: dict[str, bool | None] = {}
    for company in state.companies.values():
        given = orders.get(company.name)
        if given is not None and given.sniper is not None:
            choices[company.name] = given.sniper
        else:
            choices[company.name] = False if company.side in players else None
    return choices


def battles_phase(turn: TurnInPlay) -> None:
    """Phase 6, before the battles: supply companies caught by the enemy give way, then
    the battles are paired (``turn.battles``)."""
    supply_companies_caught(turn.state, turn.mapping, turn.log)
    turn.battles = pair_battles(
        turn.state,
        turn.arrival,
        turn.number,
        turn.log,
        sniper_choices(turn.state, turn.orders, turn.players),
        turn_seed=turn.seed,
    )
