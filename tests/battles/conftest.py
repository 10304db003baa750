"""The battles' tests share the players' pages' fixtures (tests/web/conftest.py)."""

from __future__ import annotations

from tests.web.conftest import (  # noqa: F401 - fixtures, found by name
    aussie,
    big_campaign,
    campaign,
    gm_user,
    japanese,
    login,
    outsider,
    played,
)
