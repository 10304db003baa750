"""Supply explained where a player meets it (the company page, the orders page): the
campaign's own supply rules with its settings' numbers ("How supply works"), and what
a fighting company's coming supply roll needs as things stand.

Everything here comes from the campaign's settings, its map and the companies the
reader sees in full (``CampaignView.companies``): the coming roll of a company of the
reader's own side reads only that side's supply companies, so it tells nothing the fog
hides. The numbers are the rules' own (``rules.campaign``): the supply phase rolls
with the same ``supply_need``, and reads a Banzai! win and a ship away as its
``SupplyNeed`` does (``supply_verdict``).
"""

from __future__ import annotations

from dataclasses import dataclass

from campaign.services.visibility import CampaignView
from rules import names
from rules.campaign.turn import BANZAI_SIDE, LOSS_ORDER, REGAIN_ORDER, supply_need
from rules.campaign.visibility import CompanyView


@dataclass(frozen=True, slots=True)
class Airdrop:
    side: str  # its adjective: "Australian"
    zone: int
    base: str
    areas: str  # the zone's areas, in words: "Oivi"


@dataclass(frozen=True, slots=True)
class SupplyRules:
    """The numbers and names "How supply works" gives, from the campaign's settings."""

    bonus: int
    penalty: int
    rough_areas: str  # "Erida, Kerna and Munara"; "" with no rough track
    losses_from: int  # the turn out of supply in a row from which stands are lost
    losses_from_words: str  # "2nd"
    lost_first: str  # "rifle squads"
    regained_first: str  # "commander"
    battle_losses_replaced: bool
    ship_absence_blocks: bool
    airdrop: Airdrop | None  # for a reader whose side drops supplies (the GM: any)
    banzai: str | None  # the Banzai! side's adjective, for its reader (the GM: always)


def supply_rules(view: CampaignView) -> SupplyRules:
    state = view.state
    settings = state.settings
    side = view.side
    rough = [a.name for a in state.areas.values() if a.track in settings.rough_tracks]
    airdrop = None
    if (
        settings.airdrop_side in state.sides
        and settings.airdrop_base in state.areas
        and (side is None or side == settings.airdrop_side)
    ):
        zone = [a.name for a in state.areas.values() if a.zone == settings.airdrop_zone]
        if zone:
            airdrop = Airdrop(
                names.side_adjective(settings.airdrop_side),
                settings.airdrop_zone,
                settings.airdrop_base,
                names.join(zone),
            )
    return SupplyRules(
        bonus=settings.supply_company_bonus,
        penalty=settings.rough_track_penalty if rough else 0,
        rough_areas=names.join(rough),
        losses_from=settings.out_of_supply_turns_before_losses,
        losses_from_words=names.ordinal(settings.out_of_supply_turns_before_losses),
        lost_first=names.unit(LOSS_ORDER[0], 2),
        regained_first=names.unit(REGAIN_ORDER[0]),
        battle_losses_replaced=settings.supply_replaces_battle_losses,
        ship_absence_blocks=settings.ship_absence_blocks_supply,
        airdrop=airdrop,
        banzai=names.side_adjective(BANZAI_SIDE)
        if BANZAI_SIDE in state.sides and side in (None, BANZAI_SIDE)
        else None,
    )


@dataclass(frozen=True, slots=True)
class NextRoll:
    """A fighting company's coming supply roll, as things stand."""

    turn: int
    need: int  # the least die that puts it in supply (at most 1: any; above 6: none)
    distance: int
    base: str
    modifiers: tuple[str, ...]  # "the die +1 for the supply company"
    loses_if_out: bool  # out of supply on it, the company loses stands
    # What the supply phase reads besides the die (``rules.campaign.turn.SupplyNeed``):
    any_die: bool = False  # in supply whatever the die
    no_die: bool = False  # out of supply whatever the die
    by_banzai: bool = False  # in supply whatever the die by its Banzai! win alone
    forced: tuple[str, ...] = ()  # why no die can ("its side's ship is away")


def _modifier_words(reason: str, value: int) -> str:
    """A modifier of the die, after the distance it is rolled against: "the die +1 for
    the supply company", "the die -1 for a bastard of a track". The turn log's "+1
    (supply company)" follows the die there; after "distance 4" it read as a distance."""
    named = reason if reason.startswith(("a ", "an ", "the ")) else f"the {reason}"
    return f"the die {value:+d} for {named}"


def next_roll(view: CampaignView, company: CompanyView, turn: int) -> NextRoll | None:
    """The roll a fighting company seen in full makes at the start of ``turn``; None for
    a supply company, a glimpse, or once the campaign has ended."""
    if company.kind != "fighting" or not company.full or view.state.finished:
        return None
    depots = [
        c.area for c in view.companies if c.full and c.side == company.side and c.kind == "supply"
    ]
    # The company is the reader's to see in full: its Banzai! win is theirs to know.
    rules_company = view.state.companies.get(company.name)
    banzai = rules_company is not None and rules_company.banzai
    need = supply_need(
        view.state, side=company.side, area=company.area, depots=depots, banzai=banzai
    )
    return NextRoll(
        turn=turn,
        need=need.need,
        distance=need.distance,
        base=need.base,
        modifiers=tuple(_modifier_words(reason, value) for reason, value in need.modifiers),
        loses_if_out=(company.turns_out_of_supply or 0) + 1
        >= view.state.settings.out_of_supply_turns_before_losses,
        any_die=need.certain,
        no_die=need.hopeless,
        by_banzai=need.by_banzai,
        forced=need.forced,
    )
