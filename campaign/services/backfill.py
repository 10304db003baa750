"""Why campaigns that finished before ``Campaign.end_causes`` was kept (migration 0011)
ended, filled in where the stored campaign tells it exactly (``backfill_end_causes``).

Not a data migration: the causes are read from the campaign's state, which only the
current code loads from its snapshot rows (``load_snapshot``); a migration's historical
models cannot. The GM or the admin runs the command once after upgrading; running it
again changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db import transaction
from django.utils import timezone

from campaign.models import Campaign
from campaign.services.snapshot import causes_of, load_snapshot
from rules.campaign.phases.end import end_reason_of


@dataclass(slots=True)
class Backfilled:
    """What ``backfill_end_causes`` did: the campaigns it filled in, and those it left
    with their reason as written (it could not be worked out exactly)."""

    filled: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)


def backfill_end_causes() -> Backfilled:
    """Fill in the end causes of each finished campaign that has none, where its final
    state gives causes the engine words exactly as its ``end_reason`` was written (the
    same causes, the same sides' names, the same length); any other (a scenario written
    as finished, a reason that does not match) keeps ``[]`` and its reason as written."""
    done = Backfilled()
    missing = Campaign.objects.filter(status=Campaign.Status.FINISHED, end_causes=[])
    for campaign_id in missing.order_by("pk").values_list("pk", flat=True):
        with transaction.atomic():
            campaign = Campaign.objects.select_for_update().filter(pk=campaign_id).first()
            if campaign is None or campaign.end_causes:
                continue  # gone, or filled in meanwhile
            _fill(campaign, done)
    return done


def _fill(campaign: Campaign, done: Backfilled) -> None:
    state = load_snapshot(campaign=campaign)
    causes = causes_of(state)
    if not causes or end_reason_of(state) != campaign.end_reason:
        done.kept.append(campaign.name)
        return
    # The map's stamp holds updated_at: its pages say why in the new words at once.
    Campaign.objects.filter(pk=campaign.pk, end_causes=[]).update(
        end_causes=causes, updated_at=timezone.now()
    )
    done.filled.append(campaign.name)
