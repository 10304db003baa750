"""Phase 5: orders and movement. The initiative winner's companies move first; each
follows its order, else its standing order (hold, aggressive, or the AI's sensible)."""

from __future__ import annotations

from collections.abc import Collection, Mapping

from rules.campaign.phases.common import OrderError, TurnInPlay, _Map, engaged, record
from rules.campaign.state import CampaignState, Company, Order
from rules.campaign.visibility import watched_areas

ORDER_KINDS = ("hold", "advance", "withdraw")


def check_order(
    state: CampaignState, order: Order, *, side: str | None = None, in_supply: bool | None = None
) -> None:
    """Raise OrderError with the reason if the rules forbid ``order`` now.

    ``side`` is the side giving the order (None: the GM, who may order anyone).
    ``in_supply`` is the company's supply this turn, once the turn has rolled it. None:
    not rolled yet (an order is given before its turn), and an advance is not refused
    for supply, since the turn rolls supply before anything moves and checks the advance
    again against that roll (out of supply then, the company holds). Refusing it on the
    last turn's roll would bar a company (a player's, or the campaign AI's) from an
    advance the coming roll may well allow.
    """
    company = state.companies.get(order.company)
    if company is None:
        raise OrderError(f"there is no company {order.company!r}")
    if side is not None and company.side != side:
        raise OrderError(f"{company.name} belongs to the other side")
    if order.kind not in ORDER_KINDS:
        raise OrderError(f"{order.kind!r} is not an order (hold, advance or withdraw)")
    if order.kind == "hold":
        if order.target is not None:
            raise OrderError("a hold order names no area")
        return
    _check_move(state, company, order, in_supply)


def _check_move(
    state: CampaignState, company: Company, order: Order, in_supply: bool | None
) -> None:
    """An advance or a withdrawal: to a linked area, not engaged, the right way."""
    if order.target is None:
        raise OrderError(f"an {order.kind} order must name the area to move to")
    if order.target not in state.areas:
        raise OrderError(f"there is no area {order.target!r}")
    if order.target not in state.neighbours(company.area):
        raise OrderError(f"{order.target} is not linked to {company.area}")
    unsupplied = order.kind == "advance" and company.fighting and in_supply is False
    if engaged(state, company):
        if unsupplied:  # both: the supply phase said "out of supply", so say it here too
            raise OrderError(
                f"{company.name} is out of supply, and is engaged by the enemy in "
                f"{company.area}: it may not move"
            )
        raise OrderError(
            f"{company.name} is engaged by the enemy in {company.area} and may not move"
        )
    mapping = _Map(state)
    if order.kind == "advance":
        if unsupplied:
            raise OrderError(f"{company.name} is out of supply and may not advance")
        if mapping.enemy_base(company.side, order.target) > mapping.enemy_base(
            company.side, company.area
        ):
            raise OrderError(
                f"{order.target} is farther from the enemy base: that is not an advance"
            )
    elif mapping.home(company.side, order.target) >= mapping.home(company.side, company.area):
        raise OrderError(
            f"{order.target} is not closer to {company.name}'s base: that is not a withdrawal"
        )


def standing_order(state: CampaignState, mapping: _Map, company: Company) -> Order:
    """The order a company follows when given none: hold, or aggressive.

    Aggressive: a fighting company in supply advances toward the enemy base; one out of
    supply withdraws toward its own base. Supply companies follow their side's front.
    """
    if company.standing_order != "aggressive" or engaged(state, company):
        return Order(company.name, "hold")
    if not company.fighting:
        return _supply_follow(state, mapping, company)
    # Out of supply, it cannot advance, and a second turn out would cost it stands.
    if company.in_supply is False:
        return _fall_back(state, mapping, company)
    if company.in_supply:
        return _advance(state, mapping, company)
    return Order(company.name, "hold")


def _fall_back(state: CampaignState, mapping: _Map, company: Company) -> Order:
    """Withdraw toward its own base (the first such area by name), or hold."""
    back = [
        a
        for a in state.neighbours(company.area)
        if mapping.home(company.side, a) < mapping.home(company.side, company.area)
    ]
    if back:
        return Order(company.name, "withdraw", min(back))
    return Order(company.name, "hold")


def _advance(state: CampaignState, mapping: _Map, company: Company) -> Order:
    """Advance toward the enemy base, or hold with nowhere forward."""
    here = mapping.enemy_base(company.side, company.area)
    forward = [
        a for a in state.neighbours(company.area) if mapping.enemy_base(company.side, a) < here
    ]
    if not forward:
        return Order(company.name, "hold")
    # Nearest the enemy base first; between equal routes, toward the enemy's fighting
    # companies its side can see, then off the rough tracks, then by name.
    enemies = _seen_enemy_areas(state, company.side)

    def preference(area: str) -> tuple[int, int, bool, str]:
        nearest = min((mapping.distance(area, e) for e in enemies), default=0)
        rough = state.areas[area].track in state.settings.rough_tracks
        return (mapping.enemy_base(company.side, area), nearest, rough, area)

    return Order(company.name, "advance", min(forward, key=preference))


def _seen_enemy_areas(state: CampaignState, side: str) -> list[str]:
    """The areas of the enemy fighting companies ``side`` can see now: under the fog of
    war only those in the areas its companies watch. A standing order breaks ties on no
    more than the side knows, or its player would learn from their own company's move
    where an enemy out of sight stands."""
    watched = watched_areas(state, side) if state.settings.fog_of_war else None
    return [
        c.area
        for c in state.companies.values()
        if c.fighting and c.side != side and (watched is None or c.area in watched)
    ]


def _supply_follow(state: CampaignState, mapping: _Map, company: Company) -> Order:
    """An aggressive supply company moves one area toward its side's forward fighting
    companies, keeping an area behind the front and never entering an enemy's area."""
    friends = [c for c in state.companies.values() if c.side == company.side and c.fighting]
    if not friends:
        return Order(company.name, "hold")
    front = min(friends, key=lambda c: (mapping.enemy_base(c.side, c.area), c.name))
    if mapping.distance(company.area, front.area) <= 1:
        return Order(company.name, "hold")
    here = mapping.distance(company.area, front.area)
    steps = [
        a
        for a in state.neighbours(company.area)
        if mapping.distance(a, front.area) < here
        and not any(c.fighting and c.side != company.side for c in state.companies_in(a))
    ]
    if not steps:
        return Order(company.name, "hold")
    target = min(steps)
    kind = (
        "advance"
        if mapping.enemy_base(company.side, target)
        <= mapping.enemy_base(company.side, company.area)
        else "withdraw"
    )
    if kind == "withdraw" and mapping.home(company.side, target) >= mapping.home(
        company.side, company.area
    ):
        return Order(company.name, "hold")
    return Order(company.name, kind, target)


def ai_orders(
    state: CampaignState, orders: Mapping[str, Order], players: Collection[str]
) -> dict[str, dict[str, Order]]:
    """The AI's orders (``rules.campaign.ai.plan_side``) for each side with no player
    that has ``sensible`` companies without an order, planned at the start of the turn,
    before its events, supply rolls, initiative and movement: a side's player gives its
    orders then, so the AI knows no more than a player would (not the enemy's moves of
    the turn, nor this turn's rolls)."""
    from rules.campaign import ai  # ai reads planning, which reads the turn's modules

    return {
        side: ai.plan_side(state, side)
        for side in sorted(state.sides)
        if side not in players
        and any(
            c.side == side and c.standing_order == "sensible" and c.name not in orders
            for c in state.companies.values()
        )
    }


def _order_of(
    turn: TurnInPlay, company: Company, planned: Mapping[str, Order]
) -> tuple[Order, str]:
    """The company's order this turn and where it came from, in words."""
    given = turn.orders.get(company.name)
    if given is not None:
        return given, "order"
    if company.standing_order == "sensible":
        order = planned.get(company.name, Order(company.name, "hold"))
    else:
        order = standing_order(turn.state, turn.mapping, company)
    if company.standing_order == "sensible" and company.side in turn.players:
        return order, "no order; its side has a player"
    return order, f"standing order ({company.standing_order})"


def _misfiled(turn: TurnInPlay, company: Company) -> bool:
    """An order filed under another company is ignored, and the company holds."""
    given = turn.orders.get(company.name)
    if given is None or given.company == company.name:
        return False
    _order_record(
        turn,
        company,
        f"an order for {given.company} was filed under {company.name} and is ignored; it holds",
        kind=given.kind,
        outcome="refused",
        source="order",
        reason="the order names another company",
    )
    return True


def _order_record(
    turn: TurnInPlay,
    company: Company,
    text: str,
    *,
    kind: str,
    outcome: str,
    source: str,
    target: str | None = None,
    reason: str | None = None,
    moved_from: str | None = None,
) -> None:
    """A company's order as it was played (moved, held or refused), in the log."""
    fields: dict[str, str] = {} if reason is None else {"reason": reason}
    fields["source"] = source
    if moved_from is not None:
        fields["from"] = moved_from
    record(
        turn.log,
        "movement",
        "order",
        text,
        side=company.side,
        company=company.name,
        target=target,
        outcome=outcome,
        order=kind,
        **fields,
    )


def _hold(turn: TurnInPlay, company: Company, source: str) -> None:
    text = f"{company.name} holds in {company.area} ({source})"
    _order_record(
        turn, company, text, kind="hold", outcome="hold", source=source, target=company.area
    )


def _refused(turn: TurnInPlay, company: Company, order: Order, source: str) -> bool:
    """Is the order against the rules now? Then it is refused, in words, and it holds."""
    try:
        check_order(turn.state, order, in_supply=company.in_supply)
    except OrderError as refused:
        _order_record(
            turn,
            company,
            f"{company.name}'s order to {order.kind} to "
            f"{order.target} is refused: {refused}; it holds",
            kind=order.kind,
            outcome="refused",
            source=source,
            target=order.target,
            reason=str(refused),
        )
        return True
    return False


def _move(turn: TurnInPlay, company: Company, order: Order, source: str) -> None:
    origin, target = company.area, order.target
    if target is None:
        raise AssertionError("check_order let a move through with no area")  # a bug
    company.area = target
    text = f"{company.name} {order.kind}s from {origin} to {order.target} ({source})"
    _order_record(
        turn,
        company,
        text,
        kind=order.kind,
        outcome="moved",
        source=source,
        target=order.target,
        moved_from=origin,
    )


def _arrival_before(state: CampaignState) -> dict[str, dict[str, int]]:
    """Rank 0 in its area for every side with a fighting company there before movement."""
    arrival: dict[str, dict[str, int]] = {}
    for company in state.companies.values():
        if company.fighting:
            arrival.setdefault(company.area, {}).setdefault(company.side, 0)
    return arrival


def movement_phase(turn: TurnInPlay) -> None:
    """Phase 5: move the companies, the initiative winner's first; ``turn.arrival`` is
    each area's arrival rank per side (0 = there before movement), which decides who
    defends.

    ``turn.players``: the sides a player plays. A company with no order follows its
    standing order; ``sensible`` is the AI (``rules.campaign.ai``): ``turn.planned``
    holds its orders, planned for each whole side at the start of the turn
    (``ai_orders``); a side with a player is played by its player, so there its
    ``sensible`` companies with no order hold (the rulings: "a company with no order
    holds")."""
    state = turn.state
    arrival = _arrival_before(state)
    rank = 0
    for side in [turn.first] + [s for s in sorted(state.sides) if s != turn.first]:
        planned = turn.planned.get(side, {})
        for company in sorted(
            (c for c in state.companies.values() if c.side == side), key=lambda c: c.name
        ):
            if _misfiled(turn, company):
                continue
            order, source = _order_of(turn, company, planned)
            if order.kind == "hold":
                _hold(turn, company, source)
                continue
            if _refused(turn, company, order, source):
                continue
            _move(turn, company, order, source)
            rank += 1
            if company.fighting:
                arrival.setdefault(company.area, {}).setdefault(side, rank)
    turn.arrival = {area: ranks for area, ranks in arrival.items()}
