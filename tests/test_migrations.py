"""Every change to the models has its migration: a model's words (a choice, a help text)
changed without one left `makemigrations` with work to do, which a fresh install would
never apply (the words in rules/names.py that the battles' modes show changed to "game
master" without a migration)."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command


@pytest.mark.django_db
def test_no_model_change_is_missing_its_migration() -> None:
    out = StringIO()
    try:
        call_command("makemigrations", "--check", "--dry-run", stdout=out)
    except SystemExit:
        pytest.fail(f"a model changed without its migration:\n{out.getvalue()}")
