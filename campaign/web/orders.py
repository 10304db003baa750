"""Placeholder until the pages of this module are written."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.urls import path


def _not_yet(request: HttpRequest, **kwargs: object) -> HttpResponse:
    return HttpResponse("not written yet", status=501, content_type="text/plain")


urlpatterns = [
    path("campaigns/<int:campaign_id>/orders/", _not_yet, name="orders"),
]
