"""The battles' pages under the campaign's URLs (``battles.web.pages``)."""

from __future__ import annotations

from battles.web import pages

urlpatterns = [*pages.urlpatterns]
