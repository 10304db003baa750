"""Row history for the GM's changes (django-simple-history), quiet while a turn writes.

Every save through the ORM of a tracked row (a GM's edit in the admin, an adjustment)
leaves a full copy of the row with who, when and why. A turn's own writes are not
history: the turn keeps them itself (its log and the ``start_state`` it began from), and
a history row per company would make a turn's query count grow with the campaign. So the
turn service writes inside ``quiet_history()``.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from simple_history.models import HistoricalRecords

_quiet: ContextVar[bool] = ContextVar("korona_quiet_history", default=False)


@contextmanager
def quiet_history() -> Iterator[None]:
    """Within it, tracked rows saved or deleted leave no history row (this thread only)."""
    token = _quiet.set(True)
    try:
        yield
    finally:
        _quiet.reset(token)


class GmHistory(HistoricalRecords):
    """``HistoricalRecords`` that keeps still inside ``quiet_history()``."""

    def post_save(self, instance: Any, created: bool, using: Any = None, **kwargs: Any) -> None:
        if not _quiet.get():
            super().post_save(instance, created, using=using, **kwargs)

    def post_delete(self, instance: Any, using: Any = None, **kwargs: Any) -> None:
        if not _quiet.get():
            super().post_delete(instance, using=using, **kwargs)
