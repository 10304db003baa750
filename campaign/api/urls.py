"""Placeholder until the API is written."""

from __future__ import annotations

urlpatterns: list = []
