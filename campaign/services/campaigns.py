"""The GM's campaign-wide changes: pause and resume, the settings."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from campaign.models import Campaign, GmAdjustment
from campaign.services.adjustments import AdjustmentRefused, check_reason, check_seen, record
from campaign.services.deadlines import Schedule, next_deadline_after
from campaign.services.snapshot import load_snapshot
from campaign.settings_doc import change_words
from rules.campaign.scenario import dump_scenario, parse_scenario, settings_to_json
from rules.refusals import Refusal


class CampaignRefused(Refusal):
    """A change the campaign's state does not allow; the message says why."""


def set_paused(*, campaign: Campaign, paused: bool) -> Campaign:
    """Pause a campaign (no turn is played on schedule) or resume it; not once it ended.

    Resuming a scheduled campaign counts its next deadline from now, so the deadlines
    missed while it was paused do not play a turn the moment it resumes."""
    with transaction.atomic():
        row = Campaign.objects.select_for_update().get(pk=campaign.pk)
        if row.status == Campaign.Status.FINISHED:
            raise CampaignRefused(f"{row.name} has ended: it can be neither paused nor resumed")
        fields = ["status", "updated_at"]
        if not paused and row.status == Campaign.Status.PAUSED and row.schedule_kind != "none":
            row.next_deadline = next_deadline_after(Schedule.of(row), timezone.now())
            fields.append("next_deadline")
        row.status = Campaign.Status.PAUSED if paused else Campaign.Status.ACTIVE
        row.save(update_fields=fields)
    campaign.status = row.status
    campaign.next_deadline = row.next_deadline
    return campaign


def update_settings(
    *,
    campaign: Campaign,
    settings: dict[str, Any],
    reason: str,
    user: Any = None,
    seen: str | None = None,
) -> GmAdjustment | None:
    """Replace the campaign's settings, checked as a scenario's are (area and track names
    against the map included): a ``ScenarioError`` lists every problem, nothing changes.
    ``seen``: the page's ``campaign_version`` (``StaleChange`` if it has moved on).

    The players' log gets the change in words (campaign.settings_doc.change_words: the
    settings' names and values as the settings page gives them, never their keys); a
    save that changes nothing records nothing and returns None."""
    reason = check_reason(reason)
    with transaction.atomic():
        row = Campaign.objects.select_for_update().get(pk=campaign.pk)
        check_seen(row, seen)
        if row.status == Campaign.Status.FINISHED:
            raise AdjustmentRefused(f"{row.name} has ended: its settings are kept as they were")
        document = dump_scenario(load_snapshot(campaign=row))
        document["settings"] = settings
        checked = parse_scenario(document).settings
        # As read (a setting added since the campaign was saved counts at its default).
        before = settings_to_json(row.get_settings())
        after = settings_to_json(checked)
        changed = sorted(key for key in after if before.get(key) != after[key])
        if not changed:
            return None
        row.settings = after
        row._change_reason = reason  # type: ignore[attr-defined]  # simple_history's
        row._history_user = user  # type: ignore[attr-defined]
        row.save(update_fields=["settings", "updated_at"])
        campaign.settings = after
        return record(
            campaign=row,
            what=change_words(before, after),
            reason=reason,
            user=user,
            details={
                "before": {k: before.get(k) for k in changed},
                "after": {k: after[k] for k in changed},
            },
        )
