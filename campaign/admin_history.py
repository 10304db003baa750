"""django-simple-history's admin, with a history page that answers a missing row (or an
id that is no id, ``/admin/campaign/company/x/history/``: simple-history filtered on the
raw id, a 500) inside the admin, as its change page does, and no Revert button; a change
of a campaign's settings is listed in words, not as the stored dictionary."""

from __future__ import annotations

import calendar
import dataclasses
from collections.abc import Callable
from datetime import datetime, time
from typing import Any

from django.contrib.admin.utils import unquote
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed
from django.template.response import TemplateResponse
from django.utils import timezone
from django.utils.html import conditional_escape
from simple_history import admin as simple_history_admin
from simple_history.models import ModelChange, ModelDelta
from simple_history.template_utils import HistoricalRecordContextHelper

from campaign.services.deadlines import moment_words, time_zone
from campaign.settings_doc import COMBAT_TABLES, DOCS, EVENT_TABLES, value_words
from config.adminpages import campaign_clock
from rules import names


def settings_sides(before: Any, after: Any) -> tuple[str, str]:
    """A settings change as two lines of words, the changed settings before and after
    ('Campaign length: 20.' -> 'Campaign length: 15.'); a table as changed or not."""
    before = before if isinstance(before, dict) else {}
    after = after if isinstance(after, dict) else {}
    old, new = [], []
    for key in DOCS:
        if before.get(key) == after.get(key):
            continue
        label = DOCS[key].label
        if key in (*EVENT_TABLES, *COMBAT_TABLES):
            old.append(f"{label}: the table before.")
            new.append(f"{label}: changed (the game master's adjustments log says which faces).")
            continue
        old.append(f"{label}: {value_words(key, before.get(key))}.")
        new.append(f"{label}: {value_words(key, after.get(key))}.")
    return " ".join(old) or "as now", " ".join(new) or "nothing in words"


# Fields whose stored value is a side's key: said as the side's people ("australian" ->
# "Australians"), as the campaign's pages name a side.
_SIDE_FIELDS = ("controller", "winner", "side")


# Fields only the turns move (a row's History does not list what the turns did: a line
# read "Turn: 0 -> 3" for three turns played before a schedule change).
_TURNS_FIELDS = ("turn",)

# A field's name as the GM's pages say it, where its model's differs.
_FIELD_WORDS = {"timezone": "Time zone"}


class WordsContextHelper(HistoricalRecordContextHelper):
    def context_for_delta_changes(self, delta: ModelDelta) -> list[dict[str, Any]]:
        kept = [change for change in delta.changes if change.field not in _TURNS_FIELDS]
        return super().context_for_delta_changes(dataclasses.replace(delta, changes=kept))

    def format_delta_change(self, change: ModelChange) -> ModelChange:
        if change.field != "settings":
            said = super().format_delta_change(change)
            if change.field in _FIELD_WORDS:
                return dataclasses.replace(said, field=_FIELD_WORDS[change.field])
            return said
        old, new = settings_sides(change.old, change.new)
        return ModelChange("Settings", conditional_escape(old), conditional_escape(new))

    def prepare_delta_change_value(self, change: ModelChange, value: Any) -> Any:
        """A stored value as the GM's pages say it: a side by its name, a choice in words
        ("every hours", not "every_hours"), a moment as "Tue 8 Dec 2026, 03:17 UTC" (on
        the campaign's clock when the row has one: "Sun 6 Dec 2026, 19:00 AEDT", as the
        campaign's page says it), a weekday by its name ("Sunday", not 6), a time of day
        as "19:00", an empty one as "none"."""
        if value is None or value == "":
            return "none"
        if isinstance(value, datetime):
            return moment_words(value, getattr(self.record, "timezone", "UTC"))
        if isinstance(value, time):
            return f"{value:%H:%M}"
        if change.field == "weekday" and isinstance(value, int) and 0 <= value <= 6:
            return calendar.day_name[value]
        if change.field in _SIDE_FIELDS and isinstance(value, str):
            return names.people(names.side_adjective(value))
        field = self.model._meta.get_field(change.field)
        if getattr(field, "choices", None) and isinstance(value, str):
            return names.words(value)
        return super().prepare_delta_change_value(change, value)


# What a row's History lists, and what it leaves to the turns' logs: a turn's own writes
# leave no history row (campaign.history), so each line's "before" is the line below it,
# not the moment before the change (a walk-through read "Turn: 0 -> 1" for a roll-back
# from turn 2 to turn 1, two turns having been played since the line below).
HISTORY_NOTE = (
    "Each change you (or another game master) made to this row: who, when, why, and what changed "
    "since the line below it. What the turns did in between (turns played, moves, losses, "
    "deadlines moving on) is not listed here: each turn's log says it."
)


class SimpleHistoryAdmin(simple_history_admin.SimpleHistoryAdmin):
    """A campaign's row and its History are on the campaign's clock: every time on the
    page (a turn's end, a GM change's, a History line's) in the time zone its deadlines
    are given in, not in UTC beside them; the History says which."""

    object_history_template = "admin/korona/object_history.html"
    object_history_list_template = "admin/korona/object_history_list.html"
    history_note = HISTORY_NOTE

    def _clock(self, request: HttpRequest, object_id: str | None) -> str | None:
        """The time zone of the campaign of the row ``object_id`` names, if any."""
        row = None if object_id is None else self.get_object(request, unquote(object_id))
        return None if row is None else campaign_clock(row)

    def _on_clock(self, clock: str | None, view: Callable[[], HttpResponse]) -> HttpResponse:
        """``view``'s page with its times on ``clock`` (rendered here: a TemplateResponse
        renders after the view returns, off the clock)."""
        if clock is None:
            return view()
        with timezone.override(time_zone(clock)):
            response = view()
            if isinstance(response, TemplateResponse):
                response.render()
        return response

    def changeform_view(
        self,
        request: HttpRequest,
        object_id: str | None = None,
        form_url: str = "",
        extra_context: Any = None,
    ) -> HttpResponse:
        return self._on_clock(
            self._clock(request, object_id),
            lambda: super(SimpleHistoryAdmin, self).changeform_view(
                request, object_id, form_url, extra_context
            ),
        )

    def get_historical_record_context_helper(
        self, request: HttpRequest, historical_record: Any
    ) -> HistoricalRecordContextHelper:
        return WordsContextHelper(self.model, historical_record)

    def revert_disabled(self, request: HttpRequest, obj: Any = None) -> bool:
        """The history is the record, to read: a row goes back to an earlier state only
        through a service (an adjustment, a roll-back), never by a Revert button."""
        return True

    def _has_history(self, object_id: str) -> bool:
        """The row is there, or has history rows; False for an id that is no id ("x")."""
        meta = self.model._meta
        try:
            pk = meta.pk.to_python(object_id)
        except ValidationError:
            return False
        history = getattr(self.model, meta.simple_history_manager_attribute)
        return bool(
            self.model._default_manager.filter(pk=pk).exists()
            or history.filter(**{meta.pk.attname: pk}).exists()
        )

    def history_form_view(
        self, request: HttpRequest, object_id: str, version_id: str, extra_context: Any = None
    ) -> HttpResponse:
        """A past version, to read; a POST (simple-history would save it back) is refused."""
        if request.method != "GET":
            return HttpResponseNotAllowed(["GET"])
        return super().history_form_view(request, object_id, version_id, extra_context)

    def history_view(
        self, request: HttpRequest, object_id: str, extra_context: Any = None
    ) -> HttpResponse:
        """A row's History; one that is not there (and left no history: a deleted row's
        is still read) said as the admin's change page says it, "campaign with ID “999”
        doesn’t exist", back on the admin's home, not by the players' "not found" page
        (simple-history raises Http404)."""
        if not self._has_history(unquote(object_id)):
            # The change page's own answer (Django's words).
            return self._get_obj_does_not_exist_redirect(request, self.model._meta, object_id)
        note = self.history_note
        clock = self._clock(request, object_id)
        if clock is not None:
            note += f" Times are on the campaign's clock ({clock})."
        extra_context = {"history_note": note, **(extra_context or {})}
        return self._on_clock(
            clock,
            lambda: super(SimpleHistoryAdmin, self).history_view(request, object_id, extra_context),
        )
