"""The GM's adjustments by hand: a company's stands, control of an area, a ship.

Each one needs a reason, is written in one transaction with the campaign row locked, and
leaves a ``GmAdjustment`` row (the players' public log of GM changes) besides the
changed row's history (who, when, the whole row before and after).

A GM page that changes the campaign carries what it showed (``campaign_version``); the
change is refused, with nothing changed, when the campaign has moved on since
(``StaleChange``): a second tab, or a turn played meanwhile, must not have the GM change
a state they never saw. The refusal names the GM changes made since, in the log's words,
and carries the campaign as it is now, so a page shown again with the GM's entries
(the admin's ``shown_again``) applies them once the GM has read what changed."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.db.models import Max, Model

from battles.models import Battle
from campaign.models import (
    SIDE_CHOICES,
    Area,
    Campaign,
    Company,
    CompanyStands,
    GmAdjustment,
    Ship,
    Turn,
)
from campaign.services.deadlines import moment_words
from campaign.services.snapshot import load_snapshot
from campaign.settings_doc import adjustment_what
from rules import names
from rules.campaign import visibility as fog
from rules.refusals import Refusal

# The details' kind of a tabletop result's correction (``battles.services.correction``):
# its line names the battle's place and result, which only the battle's readers see.
CORRECTION = "correction"


def _holder(side: str | None) -> str:
    return f"the {names.side_adjective(side)} side" if side else "nobody"


class AdjustmentRefused(Refusal):
    """An adjustment that is not allowed; the message says why."""


class NothingChanged(AdjustmentRefused):
    """An adjustment to what the row already is: refused, so the players' log never
    reads "from 9 to 9" (a settings save that changes nothing records nothing too)."""


class ReasonMissing(AdjustmentRefused):
    """A change given with no reason: the players' log says why each change was made."""


class StaleChange(AdjustmentRefused):
    """The page the change came from showed the campaign as it no longer is. ``changes``:
    the GM changes made since (oldest first), which the message names; ``version``: the
    campaign as it is now (``campaign_version``, read with the row locked), for the page
    shown again: a change made after it refuses that page too."""

    def __init__(
        self, message: str, *, changes: Sequence[GmAdjustment] = (), version: str = ""
    ) -> None:
        super().__init__(message)
        self.changes = list(changes)
        self.version = version


def campaign_version(campaign_id: int) -> str:
    """What a GM page showed of the campaign, as a token it sends back with a change: the
    turns played, the last turn row and its state, the battle results in, and the last GM
    change. Any turn played or rolled back, battle result or adjustment changes it."""
    turn = Campaign.objects.values_list("turn", flat=True).get(pk=campaign_id)
    last = (
        Turn.objects.filter(campaign_id=campaign_id)
        .order_by("-number")
        .values_list("pk", "status")
        .first()
    ) or (0, "none")
    results = (
        Battle.objects.filter(campaign_id=campaign_id).exclude(status=Battle.Status.PENDING).count()
    )
    adjusted = GmAdjustment.objects.filter(campaign_id=campaign_id).aggregate(last=Max("pk"))
    return f"{turn}.{last[0]}.{last[1]}.{results}.{adjusted['last'] or 0}"


def check_seen(campaign: Campaign, seen: str | None) -> None:
    """Refuse the change (``StaleChange``) unless the campaign is as the page showed it
    (``seen``, from ``campaign_version``); None: no page, nothing to compare (commands).
    Call it with the campaign row locked."""
    if seen is None:
        return
    now = campaign_version(campaign.pk)
    if seen == now:
        return
    try:
        seen_turn = int(seen.split(".", 1)[0])
    except ValueError:
        seen_turn = None
    changes = changes_since(campaign, seen)
    if seen_turn is not None and seen_turn != campaign.turn:
        since = (
            f"the page showed {turns_words(seen_turn)}; {campaign.name} has "
            f"{turns_words(campaign.turn)}: turns were played or rolled back since"
        )
    elif seen.rsplit(".", 1)[-1] != now.rsplit(".", 1)[-1]:
        since = (
            f"another change by a game master was made to {campaign.name} since the page was opened"
        )
    else:
        since = f"{campaign.name} has changed since the page was opened (a turn or a battle result)"
    said = " ".join(change_words(change, campaign.timezone) for change in changes)
    raise StaleChange(
        f"Nothing was changed: {since}." + (f" {said}" if said else ""),
        changes=changes,
        version=now,
    )


def turns_words(played: int) -> str:
    """The turns as the campaign's page counts them ("2 played; next: turn 3"): "2 turns
    played (next: turn 3)". A stale page's message said "the page showed turn 3" for 3
    played, beside a roll-back's "Korona is back at the start of turn 3" for 2 played."""
    return f"{played} turn{'' if played == 1 else 's'} played (next: turn {played + 1})"


def changes_since(campaign: Campaign, seen: str) -> list[GmAdjustment]:
    """The GM changes made to the campaign after the page ``seen`` showed (its last GM
    change is the token's last part), oldest first; none when the token says nothing."""
    try:
        last = int(seen.rsplit(".", 1)[-1])
    except ValueError:
        return []
    return list(
        GmAdjustment.objects.filter(campaign=campaign, pk__gt=last)
        .select_related("user")
        .order_by("pk")
    )


def change_words(change: GmAdjustment, clock: str) -> str:
    """A GM change as a stale page's message names it: who, when on the campaign's clock,
    the log's line and the reason ('Made meanwhile by gm at Sun 6 Dec 2026, 22:17 AEDT:
    Settings changed. Battle table width, in feet: 8 (before: 6) (reason: a bigger
    table).')."""
    when = moment_words(change.created_at, clock)
    who = f" by {change.user.get_username()}" if change.user else ""
    what = adjustment_what(change.what, change.details).strip().rstrip(".")
    reason = change.reason.strip().rstrip(".")
    return f"Made meanwhile{who} at {when}: {what} (reason: {reason})."


def check_reason(reason: str | None) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise ReasonMissing("a game master's adjustment needs a reason")
    return reason


def record(
    *, campaign: Campaign, what: str, reason: str, user: Any, details: dict[str, Any]
) -> GmAdjustment:
    """The public line of a GM change, dated before the campaign's next turn. A change made
    while that turn is being played (waiting for its battles) says so (``during_turn``):
    it is not in the state the turn began from."""
    started = Turn.objects.filter(
        campaign=campaign, number=campaign.turn + 1, start_state__isnull=False
    ).exists()
    if started:
        details = {**details, "during_turn": campaign.turn + 1}
    return GmAdjustment.objects.create(
        campaign=campaign,
        before_turn=campaign.turn + 1,
        user=user if getattr(user, "pk", None) else None,
        what=what,
        reason=reason,
        details=details,
    )


def _open_campaign(campaign_id: int, seen: str | None = None) -> Campaign:
    campaign = Campaign.objects.select_for_update().get(pk=campaign_id)
    check_seen(campaign, seen)
    if campaign.status == Campaign.Status.FINISHED:
        raise AdjustmentRefused(f"{campaign.name} has ended: its state is final")
    return campaign


def save_with_history(row: Model, fields: list[str], *, reason: str, user: Any) -> None:
    """Save ``fields`` of ``row`` so that its History lists the change, with the GM's
    reason and name."""
    row._change_reason = reason  # type: ignore[attr-defined]  # kept on the history row
    if getattr(user, "pk", None):
        row._history_user = user  # type: ignore[attr-defined]
    row.save(update_fields=fields)


def adjust_stands(
    *,
    company: Company,
    unit_type: str,
    held: int,
    reason: str,
    user: Any = None,
    seen: str | None = None,
) -> GmAdjustment:
    """Set how many stands of ``unit_type`` the company holds (0 to its establishment)."""
    reason = check_reason(reason)
    with transaction.atomic():
        campaign = _open_campaign(company.campaign_id, seen)
        row = (
            CompanyStands.objects.select_for_update()
            .filter(company=company, unit_type=unit_type)
            .first()
        )
        if row is None:
            raise AdjustmentRefused(f"{company.name} has no {names.unit(unit_type, 2)}")
        if (
            isinstance(held, bool)
            or not isinstance(held, int)
            or not (0 <= held <= row.establishment)
        ):
            raise AdjustmentRefused(
                f"{company.name} can hold 0 to {row.establishment} {names.unit(unit_type, 2)}, "
                f"not {held!r}"
            )
        before = row.held
        if held == before:
            raise NothingChanged(
                f"Nothing changed: {company.name} already holds {names.count(held, unit_type)}."
            )
        row.held = held
        save_with_history(row, ["held"], reason=reason, user=user)
        return record(
            campaign=campaign,
            what=f"{company.name}: {names.unit(unit_type, 2)} from {before} to {held}",
            reason=reason,
            user=user,
            details={
                "company": company.name,
                "side": company.side,
                "unit_type": unit_type,
                "before": before,
                "after": held,
            },
        )


def set_control(
    *, area: Area, side: str | None, reason: str, user: Any = None, seen: str | None = None
) -> GmAdjustment:
    """Give the area to ``side`` (a side key), or to nobody (None)."""
    reason = check_reason(reason)
    sides = [key for key, _ in SIDE_CHOICES]
    if side is not None and side not in sides:
        raise AdjustmentRefused(f"{side!r} is not a side ({', '.join(sides)})")
    with transaction.atomic():
        campaign = _open_campaign(area.campaign_id, seen)
        row = Area.objects.select_for_update().get(pk=area.pk)
        before = row.controller
        if side == before:
            raise NothingChanged(f"Nothing changed: {row.name} is already held by {_holder(side)}.")
        # Which sides have the area in sight as the GM changes it: the others' public log
        # says neither who held it nor who holds it now (rulings section 6).
        state = load_snapshot(campaign=campaign)
        in_sight_of = [key for key in state.sides if row.name in fog.control_sight(state, key)]
        row.controller = side
        save_with_history(row, ["controller"], reason=reason, user=user)
        area.controller = side
        return record(
            campaign=campaign,
            what=f"{row.name}: held by {_holder(before)}, now by {_holder(side)}",
            reason=reason,
            user=user,
            details={"area": row.name, "before": before, "after": side, "in_sight_of": in_sight_of},
        )


def set_ship_present(
    *, ship: Ship, present: bool, reason: str, user: Any = None, seen: str | None = None
) -> GmAdjustment:
    """Put the ship in its port, or send it away."""
    reason = check_reason(reason)
    if not isinstance(present, bool):
        raise AdjustmentRefused(f"a ship is present or not (true or false), not {present!r}")
    with transaction.atomic():
        campaign = _open_campaign(ship.campaign_id, seen)
        row = Ship.objects.select_for_update().get(pk=ship.pk)
        before = row.present
        where = "in port" if present else "away"
        if present == before:
            raise NothingChanged(f"Nothing changed: {row.name} is already {where}.")
        row.present = present
        save_with_history(row, ["present"], reason=reason, user=user)
        ship.present = present
        return record(
            campaign=campaign,
            what=f"{row.name}: {where}",
            reason=reason,
            user=user,
            details={"ship": row.name, "before": before, "after": present},
        )
