"""The orders page's odds in words: a share and its likely range as a player reads them,
and what an estimate assumes of the side's own supply rolls.

A share is written as a whole percent, as ``floatformat:0`` writes it, but never a
rounded 100% or 0% that the battles fought did not show ("over 99%", "under 1%"), and a
range never as one value ("likely 100–100%" after 1000 battles won: "likely 99–100%").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from math import ceil, floor
from typing import Any

from django import template

from rules.names import join

register = template.Library()

COUNTS = {2: "both", 3: "all three", 4: "all four"}


def _whole(value: float) -> int:
    """Rounded half up, as ``floatformat:0`` rounds."""
    return int(Decimal(repr(value)).quantize(Decimal(1), rounding=ROUND_HALF_UP))


@register.filter
def percent(value: float) -> str:
    """A share in percent: "62%"; "100%" and "0%" only when exact."""
    if value >= 100:
        return "100%"
    if value <= 0:
        return "0%"
    whole = _whole(value)
    if whole >= 100:
        return "over 99%"
    if whole <= 0:
        return "under 1%"
    return f"{whole}%"


@register.filter
def likely(share: Mapping[str, float]) -> str:
    """A 95% range in percent: "likely 59–65%"; when rounding would make its ends one
    value, they are rounded outwards ("likely 99–100%"), which still holds the range."""
    low, high = _whole(share["low"]), _whole(share["high"])
    if low >= high:
        low, high = floor(share["low"]), ceil(share["high"])
    if low >= high:  # a range of no width: only with no battle fought
        low, high = (high - 1, high) if high > 0 else (0, 1)
    return f"likely {low}–{high}%"


@register.filter
def win_words(progress: Any, who: str = "you") -> str:
    """The side's chance to win one battle, from the battles fought so far
    (``planning.OddsProgress``): "so far you win 62% (likely 59–65%), 350 of 1,000
    battles fought"; every battle won so far, "so far you win every one: 100% (likely
    99–100%), ...". ``who``: the side as the reader is addressed
    (``CampaignView.addressed``), "the Australians" for the game master. It read "350 of
    1,000 battles — you win 47%", which the solo walk of 7 December 2026 found hard to
    read: a count, a dash, then the share."""
    fought = f"{thousands(progress.done)} of {thousands(progress.runs)} battles fought"
    return f"so far {_share_words(progress.side_win, who)}, {fought}"


@register.filter
def result_words(progress: Any, who: str = "you") -> str:
    """The side's chance to win one battle once every battle of the estimate is fought,
    said as a result: "you win 89% of 1,000 battles fought out (likely 86–91%)"; every
    one won, "you win every one of 1,000 battles fought out: 100% (likely 99–100%)" (the
    card starts its sentence with it, capitalised; a line of "Planned battles" after a
    colon).
    While they are fought the words keep the progress ("so far you win 62% (...), 350 of
    1,000 battles fought"): "1000 of 1000 battles — you win 89%" read as a count, not an
    answer."""
    return _share_words(
        progress.side_win, who, f" of {thousands(progress.runs)} battles fought out"
    )


def _share_words(share: dict[str, float], who: str, of: str = "") -> str:
    """ "you win 62%{of} (likely 59–65%)", every one won or lost said so."""
    if share["p"] >= 100:
        said = f"{who} win every one{of}: 100%"
    elif share["p"] <= 0:
        said = f"{who} lose every one{of}: 0%"
    else:
        said = f"{who} win {percent(share['p'])}{of}"
    return f"{said} ({likely(share)})"


@register.filter
def thousands(value: int) -> str:
    """A count with its thousands separated, as the pages write counts: "1,000"."""
    return f"{int(value):,}"


@register.filter
def addressed(view: Any, side: str) -> str:
    """``view.addressed(side)`` for a template: "you", or "the Australians" to the GM."""
    return str(view.addressed(side))


def _in(chance: Fraction) -> str:
    """1/4 as "1 in 4", 5/12 as "5 in 12"."""
    return f"{chance.numerator} in {chance.denominator}"


def _needs(rolls: Sequence[Any]) -> str:
    """What each roll needs: "4 or more on the d6" (each), or company by company."""
    if len({roll.need for roll in rolls}) == 1:
        need = rolls[0].need
        said = "no die can do it" if need > 6 else f"{need} or more on the d6"
        return said + (" each" if len(rolls) > 1 else "")
    parts = []
    for roll in rolls:
        if roll.need > 6:
            parts.append(f"no die can do it for {roll.company}")
        else:
            die = " on the d6" if not parts else ""
            parts.append(f"{roll.need} or more{die} for {roll.company}")
    return ", ".join(parts)


def _short_caveat(rolls: Sequence[Any], names: str) -> str:
    """The card's words: the one need when every roll needs the same ("4 or more on the
    d6 each"); else, rather than each company's need (a phone's card grew by four lines
    of them), the chance that they all pass, "Planned battles" giving each need."""
    if len(rolls) == 1:
        return (
            f"Only if {names} passes its supply roll ({_needs(rolls)}) and arrives: "
            '"Planned battles" says more.'
        )
    if len({roll.need for roll in rolls}) == 1:
        return (
            f"Only if {names} pass their supply rolls ({_needs(rolls)}) and arrive: "
            '"Planned battles" says more.'
        )
    return (
        f"Only if {names} pass their supply rolls and arrive ({_chance(rolls)}): "
        '"Planned battles" says more.'
    )


def _chance(rolls: Sequence[Any]) -> str:
    """The chance that every one of them is in supply (the turn's events aside)."""
    chance = Fraction(1)
    for roll in rolls:
        chance *= Fraction(roll.sixths, 6)
    every = COUNTS.get(len(rolls), f"all {len(rolls)}")
    if chance == 0:
        return "as things stand, no die can" if len(rolls) == 1 else f"{every} cannot make it"
    # A chance, not "the dice give both 1 time in 4", which a walk-through read as the
    # turn's own dice, fixed in advance, told: these are the odds of any dice.
    if len(rolls) == 1:
        return f"a chance of {_in(chance)}"
    return f"a chance of {_in(chance)} that {every} pass"


@register.filter
def arrival_condition(attack: Any) -> str:
    """The condition the chance of holding an area holds on, said before the figure: the
    odds are fought with every company advancing there arrived (``supply_caveat`` says
    why it may not). "If A Company arrives", "If both A Company and C Company arrive",
    "If A Company, B Company and C Company all arrive"; "" when no arrival waits on a
    roll. A walk-through read "Chance you take Oivi: 78%" as the chance of the orders,
    with the warning that it assumed both companies arrive only below it."""
    rolls = list(getattr(attack, "supply_rolls", ()))
    if not rolls:
        return ""
    names = join([roll.company for roll in rolls])
    if len(rolls) == 1:
        return f"If {names} arrives"
    if len(rolls) == 2:
        return f"If both {names} arrive"
    return f"If {names} all arrive"


# With several arrivals the odds cover only all of them: a solo walk's A Company, whose
# C Company failed its roll, met three companies alone and withdrew from a hopeless
# position, its page having said only "you win 48%" with both (7 December 2026).
# The area's companies are paired anew with those that arrive: the one left fights the
# whole enemy there (the walk's did: "11 stands fit to fight against 35").
_WITHOUT_IT = (
    "and the battles there are fought without it: these odds do not cover that, which is "
    "worse for you."
)


@register.filter
def supply_caveat(attack: Any, short: bool = False) -> str:
    """What the odds of a planned battle assume of the side's own supply rolls
    (``planning.PlannedAttack.supply_rolls``): that every company advancing there passes
    its roll and arrives. "" when no company's arrival waits on a roll. ``short``: the
    card's words, which point to "Planned battles"."""
    rolls = list(attack.supply_rolls)
    if not rolls:
        return ""
    names = join([roll.company for roll in rolls])
    one = len(rolls) == 1
    if short:
        return _short_caveat(rolls, names)
    who = "it" if one else "each"
    return (
        f"These odds assume {names} {'arrives' if one else 'arrive'}: {who} advances only "
        "if its supply roll at the start of the turn puts it in supply "
        f"({_needs(rolls)}; {_chance(rolls)}); out of supply, "
        f"{'it' if one else 'a company'} stays where it is"
        f"{', ' + _WITHOUT_IT if _ours_there(attack) > 1 else '.'}"
    )


def _ours_there(attack: Any) -> int:
    """How many of the planning side's companies fight in the area this turn: in this
    battle and in the area's others (``PlannedAttack.others``)."""
    return len(attack.friends) + sum(len(battle) for battle in attack.others)
