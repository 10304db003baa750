"""Where the rest of Korona tells the notices something happened. Importing this module
imports nothing of the campaign's services, so any of them may call it."""

from __future__ import annotations

from typing import Any

from config.enqueue import enqueue_adjustment_notices, enqueue_turn_notices


def turn_changed(turn: Any) -> None:
    """A turn is about to commit (played, or waiting for its battles): its notices are
    sent once it has (nothing, if it rolls back)."""
    enqueue_turn_notices(turn.pk)


def _adjustment_saved(sender: Any, instance: Any, created: bool, **_: Any) -> None:
    if created:
        enqueue_adjustment_notices(instance.pk)


def connect() -> None:
    from django.db.models.signals import post_save

    from campaign.models import GmAdjustment

    post_save.connect(_adjustment_saved, sender=GmAdjustment, dispatch_uid="notices-adjustment")
