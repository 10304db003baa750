"""Celery tasks of the battles: thin, ids in, the services do the work (as
``campaign.tasks``: sent by name once the transaction commits, retried on a transient
database error only, idempotent). The name stays ``campaign.fight_battle``, the name
``config.enqueue`` sends and queued messages carry."""

from __future__ import annotations

from celery import shared_task

from battles.services.results import fight_pending_battle, resolve_unentered
from campaign.tasks import RETRY


@shared_task(name="campaign.fight_battle", **RETRY)
def fight_battle(battle_id: int) -> bool:
    """An auto battle of a turn in progress, or a tabletop one past its deadline."""
    if fight_pending_battle(battle_id=battle_id) is not None:
        return True
    return resolve_unentered(battle_id=battle_id)
