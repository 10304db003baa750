"""What every page view shares (``config.pages``, which the battles' pages share too)."""

from __future__ import annotations

from config.pages import campaign_view, htmx, login_required, page_context

__all__ = ["campaign_view", "htmx", "login_required", "page_context"]
