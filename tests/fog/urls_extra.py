"""URL confs for the crawler's own tests: the project's, plus one route more."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.urls import path

from config.urls import urlpatterns as project


def extra(request: HttpRequest, **kwargs: object) -> HttpResponse:
    return HttpResponse(f"extra {sorted(kwargs.items())}")


with_campaign_page = [*project, path("campaigns/<int:campaign_id>/extra/", extra)]
with_unknown_parameter = [*project, path("widgets/<int:widget_id>/", extra)]
