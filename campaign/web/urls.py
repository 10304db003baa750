"""The players' pages. Each module of campaign/web/ owns its own ``urlpatterns``."""

from __future__ import annotations

from campaign.web import accounts, maps, orders, pastmaps, ready, reports, story

urlpatterns = [
    *accounts.urlpatterns,
    *maps.urlpatterns,
    *reports.urlpatterns,
    *orders.urlpatterns,
    *ready.urlpatterns,
    *pastmaps.urlpatterns,
    *story.urlpatterns,
]
