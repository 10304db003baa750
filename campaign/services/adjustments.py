"""The GM's adjustments by hand: a company's stands, control of an area, a ship.

Each one needs a reason, is written in one transaction with the campaign row locked, and
leaves a ``GmAdjustment`` row (the players' public log of GM changes) besides the
changed row's history (who, when, the whole row before and after)."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import Model

from campaign.models import SIDE_CHOICES, Area, Campaign, Company, CompanyStands, GmAdjustment, Ship


class AdjustmentRefused(ValueError):
    """An adjustment that is not allowed; the message says why."""


def check_reason(reason: str | None) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise AdjustmentRefused("a GM adjustment needs a reason")
    return reason


def record(
    *, campaign: Campaign, what: str, reason: str, user: Any, details: dict[str, Any]
) -> GmAdjustment:
    """The public line of a GM change, dated before the campaign's next turn."""
    return GmAdjustment.objects.create(
        campaign=campaign,
        before_turn=campaign.turn + 1,
        user=user if getattr(user, "pk", None) else None,
        what=what,
        reason=reason,
        details=details,
    )


def _open_campaign(campaign_id: int) -> Campaign:
    campaign = Campaign.objects.select_for_update().get(pk=campaign_id)
    if campaign.status == Campaign.Status.FINISHED:
        raise AdjustmentRefused(f"{campaign.name} has ended: its state is final")
    return campaign


def _save(row: Model, fields: list[str], *, reason: str, user: Any) -> None:
    row._change_reason = reason  # type: ignore[attr-defined]  # kept on the history row
    if getattr(user, "pk", None):
        row._history_user = user  # type: ignore[attr-defined]
    row.save(update_fields=fields)


def adjust_stands(
    *, company: Company, unit_type: str, held: int, reason: str, user: Any = None
) -> GmAdjustment:
    """Set how many stands of ``unit_type`` the company holds (0 to its establishment)."""
    reason = check_reason(reason)
    with transaction.atomic():
        campaign = _open_campaign(company.campaign_id)
        row = (
            CompanyStands.objects.select_for_update()
            .filter(company=company, unit_type=unit_type)
            .first()
        )
        if row is None:
            raise AdjustmentRefused(f"{company.name} has no {unit_type} stands")
        if (
            isinstance(held, bool)
            or not isinstance(held, int)
            or not (0 <= held <= row.establishment)
        ):
            raise AdjustmentRefused(
                f"{company.name} holds 0 to {row.establishment} {unit_type} stands, not {held!r}"
            )
        before = row.held
        row.held = held
        _save(row, ["held"], reason=reason, user=user)
        return record(
            campaign=campaign,
            what=f"{company.name}: {unit_type} stands {before} -> {held}",
            reason=reason,
            user=user,
            details={
                "company": company.name,
                "unit_type": unit_type,
                "before": before,
                "after": held,
            },
        )


def set_control(*, area: Area, side: str | None, reason: str, user: Any = None) -> GmAdjustment:
    """Give the area to ``side`` (a side key), or to nobody (None)."""
    reason = check_reason(reason)
    sides = [key for key, _ in SIDE_CHOICES]
    if side is not None and side not in sides:
        raise AdjustmentRefused(f"{side!r} is not a side ({', '.join(sides)})")
    with transaction.atomic():
        campaign = _open_campaign(area.campaign_id)
        row = Area.objects.select_for_update().get(pk=area.pk)
        before = row.controller
        row.controller = side
        _save(row, ["controller"], reason=reason, user=user)
        area.controller = side
        return record(
            campaign=campaign,
            what=f"{row.name}: control {before or 'nobody'} -> {side or 'nobody'}",
            reason=reason,
            user=user,
            details={"area": row.name, "before": before, "after": side},
        )


def set_ship_present(*, ship: Ship, present: bool, reason: str, user: Any = None) -> GmAdjustment:
    """Put the ship in its port, or send it away."""
    reason = check_reason(reason)
    if not isinstance(present, bool):
        raise AdjustmentRefused(f"a ship is present or not (true or false), not {present!r}")
    with transaction.atomic():
        campaign = _open_campaign(ship.campaign_id)
        row = Ship.objects.select_for_update().get(pk=ship.pk)
        before = row.present
        row.present = present
        _save(row, ["present"], reason=reason, user=user)
        ship.present = present
        where = "in port" if present else "away"
        return record(
            campaign=campaign,
            what=f"{row.name}: {where}",
            reason=reason,
            user=user,
            details={"ship": row.name, "before": before, "after": present},
        )
