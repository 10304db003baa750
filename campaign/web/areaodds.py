"""The orders page's "planned battles": each area the side's orders lead to battle in, every
battle there as the turn will pair it, the odds of each, and the chance the side holds
the area after them -- with the pairing said in one line.

The odds are the rows' own (``planning.OddsReader``, the same cached chunks, fought off
the request, each estimate read once an answer); this section polls ``order-area-odds``
(``campaign.web.orders``) until every battle's are in, and the poll's answer brings the
odds of the companies' cards too (the cards do not poll), so a card and its battle's line
say the same.
The enemy is named only as the viewer may see it: a glimpsed company is "a strong
company", never its name.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import urlencode

from campaign.services import planning
from campaign.services.planning import AreaPlan, CompanyPlan, OddsProgress, OddsReader, SidePlan
from campaign.services.visibility import CampaignView
from config.numbers import whole_number
from rules import names as naming

TEMPLATE = "campaign/_area_odds.html"


@dataclass(frozen=True, slots=True)
class Battle:
    friends: str
    enemies: str
    progress: OddsProgress


@dataclass(frozen=True, slots=True)
class Card:
    """The odds on a company's card, sent with its area's poll."""

    company_id: int
    progress: OddsProgress


@dataclass(frozen=True, slots=True)
class AreaOdds:
    plan: AreaPlan
    battles: list[Battle]
    pairing: str
    chance: dict[str, float] | None
    # The side's companies whose cards show a battle there, which its poll names
    # (``cards``): when the answer finds others, the page is out of date.
    companies: tuple[int, ...] = ()
    query: str = ""  # its poll's query: the GM's side, and those cards
    # Who takes or keeps the area, as the reader is addressed: "you" (the side's player),
    # "the Australians" (the game master looking at that side).
    who: str = "you"

    @property
    def finished(self) -> bool:
        return all(battle.progress.finished for battle in self.battles)

    @property
    def estimated(self) -> bool:
        """The enemy is an estimate (fog of war) in some battle of the area."""
        return any(attack.estimated for attack in self.plan.attacks)


def _named_with_stands(name: str, strength: int | None) -> str:
    """ "A Company (12 stands)"; a name with its own bracket shares it: "C Company
    (militia, 12 stands)", not "C Company (militia) (12 stands)"."""
    stands = f"{strength} stand{'' if strength == 1 else 's'}"
    if name.endswith(")"):
        return f"{name[:-1]}, {stands})"
    return f"{name} ({stands})"


def _who(view: CampaignView, names: list[str], *, own: bool) -> str:
    """Companies in words: one's own by name and stands, the enemy as the viewer sees it."""
    words = []
    unnamed: dict[str, int] = {}  # "strong company": how many, for a glimpse (no name)
    for name in names:
        seen = view.company(name) or view.glimpse_of(name)
        if seen is not None and seen.full and (own or view.sees_everything):
            words.append(_named_with_stands(seen.name, seen.strength))
        else:
            kind = f"{seen.strength_band} company" if seen is not None else "company"
            unnamed[kind] = unnamed.get(kind, 0) + 1
    # The unnamed in the order of what is seen of them, never in the order of their names:
    # "a strong company", "2 average companies".
    for kind, n in sorted(unnamed.items()):
        words.append(naming.article(kind) if n == 1 else f"{n} {kind.removesuffix('y')}ies")
    return naming.join(words)


def pairing_line(area: AreaPlan, count: int, *, side_name: str | None = None) -> str:
    """How the turn pairs the battles of the area, and what holding it takes, in a line:
    to the side's player ("Your company in Korona ... you take Korona if you win it"), or,
    given ``side_name``, to the game master looking at that side ("The Australians'
    company in Korona ... the Australians take Korona if they win it")."""
    name = area.area
    # "Your company" when the side has one there: with one company, "companies" read as
    # if more were going than the player ordered.
    one = sum(len(attack.friends) for attack in area.attacks) == 1
    companies = "company" if one else "companies"
    whose = "Your" if side_name is None else "T" + naming.owners(side_name)[1:]
    they = "you" if side_name is None else f"the {side_name}"
    win, lose = ("you win", "you lose") if side_name is None else ("they win", "they lose")
    if area.present and area.arriving:
        yours = f"{whose} companies in {name} and those going there"
    elif area.present:
        yours = f"{whose} {companies} in {name}"
    else:
        yours = f"{whose} {companies} going to {name}"
    if count == 1:
        paired = f"{yours} and all the enemy companies there fight one battle"
        need = (
            f"{they} take {name} if {win} it"
            if area.attacking
            else f"{they} keep {name} if {win} it"
        )
    else:
        paired = (
            f"The turn pairs the companies in {name} strongest against strongest into "
            f"{count} battles, each side's extra companies joining its largest"
        )
        # Why winning some is not enough: the winners of each side stay in the area, and
        # it changes hands only when one side is left there alone (rulings section 3).
        every = "both" if count == 2 else f"all {count}"
        need = (
            f"{they} take {name} only by winning {every}"
            if area.attacking
            else f"{they} keep {name} unless {lose} {every}"
        )
        need += (
            f": each battle's winners stay in {name}, and it changes hands only when one "
            "side is left there alone"
        )
    return f"{paired}; {need}."


def fighting_there(plan: SidePlan, area_id: int) -> tuple[int, ...]:
    """The side's companies whose cards show a battle in the area: those ordered there and
    those standing there with the enemy."""
    return tuple(
        row.company_id
        for row in plan.companies
        if row.attack is not None and row.attack.target_id == area_id
    )


def shown_cards(raw: str) -> frozenset[int]:
    """The cards a page showed fighting in an area when it drew it (its poll's ``cards``,
    "3,4"); what is not a company's number is left out."""
    return frozenset(
        number for part in raw.split(",") if (number := whole_number(part)) is not None
    )


def drawn_card(row: CompanyPlan) -> str:
    """What a company's card shows that another tab or a teammate may change, as the
    page carries it in the card (``name=drawn``) for the page's slow poll: its order (the
    form's choice and the sniper) and the area of its battle, "3.advance:12.0.12" ("3.-.0.-":
    no order, no battle)."""
    sniper = int(bool(row.order is not None and row.order.sniper))
    battle = "-" if row.attack is None else str(row.attack.target_id)
    return f"{row.company_id}.{row.current_choice or '-'}.{sniper}.{battle}"


@dataclass(frozen=True, slots=True)
class Following:
    """What a page must draw again to show the side's orders as they stand now."""

    cards: frozenset[int]  # the cards to draw again, whole
    areas: frozenset[int]  # the areas whose battles changed (drawn then or now)


def cards_to_follow(plan: SidePlan, drawn: Iterable[str]) -> Following:
    """The cards a page drew (``drawn``: its cards' ``drawn_card``) that no longer say
    what they would now (an order changed in another tab, or by a teammate), and with
    them every card fighting in an area where one of them fought then or fights now: a
    company joining, leaving or changing its sniper changes the battle of the others
    there. A card the page did not draw is drawn; what names no company of the side
    is left out, as in ``shown_cards``."""
    shown: dict[int, str] = {}
    for value in drawn:
        number = whole_number(value.split(".", 1)[0])
        if number is not None:
            shown[number] = value
    changed: set[int] = set()
    areas: set[int] = set()
    for row in plan.companies:
        before, now = shown.get(row.company_id), drawn_card(row)
        if before == now:
            continue
        changed.add(row.company_id)
        if row.attack is not None:
            areas.add(row.attack.target_id)
        if before is not None and (then := whole_number(before.rsplit(".", 1)[-1])) is not None:
            areas.add(then)
    changed.update(
        row.company_id
        for row in plan.companies
        if row.attack is not None and row.attack.target_id in areas
    )
    return Following(cards=frozenset(changed), areas=frozenset(areas))


def area_odds(
    view: CampaignView,
    area: AreaPlan,
    odds: OddsReader | None = None,
    *,
    companies: tuple[int, ...] = (),
) -> AreaOdds:
    """The area's battles and their odds so far (``odds``: the answer's one read of each
    estimate, a new one by default); those missing are sent off to be fought.
    ``companies``: the cards fighting there (``fighting_there``), which its poll names."""
    odds = OddsReader() if odds is None else odds
    query = {"side": area.side} if view.game_master else {}
    # The game master plays no side: the side they look at is named, not "you".
    seen = view.state.sides.get(area.side) if view.game_master else None
    side_name = seen.name if seen is not None else None
    battles = [
        Battle(
            friends=_who(view, attack.friends, own=True),
            enemies=_who(view, attack.enemies, own=False),
            progress=odds.progress(attack),
        )
        for attack in area.attacks
    ]
    return AreaOdds(
        plan=area,
        battles=battles,
        pairing=pairing_line(area, len(area.attacks), side_name=side_name),
        chance=planning.take_chance([b.progress for b in battles], attacking=area.attacking),
        companies=companies,
        query=urlencode({**query, "cards": ",".join(str(pk) for pk in companies)}, safe=","),
        who=view.addressed(area.side),
    )


def planned(view: CampaignView, plan: SidePlan, odds: OddsReader) -> list[AreaOdds]:
    """For the orders page: every area's battles with the odds so far (``odds``: the
    page's one read of each estimate, which its cards read too)."""
    return [
        area_odds(view, area, odds, companies=fighting_there(plan, area.area_id))
        for area in planning.planned_areas(plan)
    ]
