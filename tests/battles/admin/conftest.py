"""The battles' admin tests share the GM admin's fixtures (tests/admin/conftest.py)."""

from __future__ import annotations

from tests.admin.conftest import gm, gm_user, player  # noqa: F401 - fixtures, found by name
