"""django-simple-history's admin, with a history page that answers 404 for an id that is
no id (``/admin/campaign/company/x/history/``) instead of a 500 (simple-history filters
on the raw id before it asks whether the object exists), and no Revert button."""

from __future__ import annotations

from typing import Any

from django.contrib.admin.utils import unquote
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotAllowed
from simple_history import admin as simple_history_admin


class SimpleHistoryAdmin(simple_history_admin.SimpleHistoryAdmin):
    def revert_disabled(self, request: HttpRequest, obj: Any = None) -> bool:
        """The history is the record, to read: a row goes back to an earlier state only
        through a service (an adjustment, a roll-back), never by a Revert button."""
        return True

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
        try:
            self.model._meta.pk.to_python(unquote(object_id))
        except ValidationError:
            raise Http404(f"No {self.model._meta.verbose_name} with that id.") from None
        return super().history_view(request, object_id, extra_context)
