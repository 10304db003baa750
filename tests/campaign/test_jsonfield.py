"""The JSON columns' encoder (config/jsonfield.py): orjson's text, the same values."""

from __future__ import annotations

import datetime
import json
from typing import Any

import pytest

from campaign.models import Turn
from campaign.services.scenarios import create_campaign
from config.jsonfield import JSONField, dumps
from tests.campaign.conftest import korona_doc

VALUES: list[Any] = [
    [{"turn": 0, "dice": [5, 2, 3], "square": [0, 0], "going": "good"}],
    {"name": "Kōkoda track", "odds": 0.1, "nothing": None, "yes": True, "seed": 2**63 - 1},
    {"nested": {"deep": [[], {}, "", -0.5, 1e300]}},
]


@pytest.mark.parametrize("value", VALUES)
def test_dumps_parses_as_json_dumps_writes(value: Any) -> None:
    assert json.loads(dumps(value)) == json.loads(json.dumps(value)) == value


def test_what_orjson_declines_is_written_by_json() -> None:
    # Beyond 64 bits, and keys that are not strings: json.dumps writes them.
    for value in [{"seed": 2**70}, {1: "one", 2.5: "x"}]:
        assert dumps(value) == json.dumps(value)
    # A date-time is refused, as json.dumps refuses it (orjson would write it).
    with pytest.raises(TypeError):
        dumps({"at": datetime.datetime(2026, 12, 6)})


def test_the_model_columns_use_it_and_migrations_see_django_s_field() -> None:
    field = Turn._meta.get_field("log")
    assert isinstance(field, JSONField)
    assert field.deconstruct()[1] == "django.db.models.JSONField"


@pytest.mark.django_db
def test_a_column_stores_and_reads_back_the_same_values() -> None:
    campaign = create_campaign(data=korona_doc(), name="JSON", seed=1)
    # (Not VALUES' 1e300: PostgreSQL's jsonb gives it back as an integer, whoever wrote it.)
    value = {"rolls": VALUES[:2], "big": 2**70, "keys": {"1": [1.5, None]}}
    turn = Turn.objects.create(campaign=campaign, number=1, seed=7, log=value)
    assert Turn.objects.get(pk=turn.pk).log == value
