"""The tabletop result form says every box out of bounds at once, each beside its box
and in its own words: a walk-through entered 99 rifle squads lost (of 9) and -1 HMGs
lost, and saw only "Ensure this value is greater than or equal to 0." beside the HMGs;
the rifle squads were said only once the rest was right."""

from __future__ import annotations

import pytest
from django.test import Client

from battles.models import Battle
from tests.admin.conftest import entered, waiting_campaign

pytestmark = pytest.mark.django_db


def test_every_box_out_of_bounds_is_said_at_once_in_plain_words(gm: Client) -> None:
    _, battles = waiting_campaign()
    battle = battles["1:Korona:1"]
    had = battle.spec["attacker"]["stands"]
    assert had["rifle_squad"] == 9 and had["hmg"] == 1
    response = gm.post(
        f"/admin/battles/battle/{battle.pk}/result/",
        {"winner": "defender", "attacker__rifle_squad": "99", "attacker__hmg": "-1"},
    )
    assert response.status_code == 200
    errors = response.context["form"].errors
    assert errors["attacker__rifle_squad"] == [
        "The attacker had only 9 rifle squads: it cannot have lost more."
    ]
    assert errors["attacker__hmg"] == ["A number of stands lost cannot be below 0."]
    page = response.content.decode()
    assert "Ensure this value" not in page
    assert Battle.objects.get(pk=battle.pk).status == Battle.Status.PENDING


def test_losses_within_bounds_are_entered(gm: Client) -> None:
    _, battles = waiting_campaign()
    battle = battles["1:Korona:1"]
    response = entered(
        gm,
        f"/admin/battles/battle/{battle.pk}/result/",
        {"winner": "defender", "attacker__rifle_squad": "9", "attacker__hmg": "1"},
    )
    assert response.status_code == 302
    assert Battle.objects.get(pk=battle.pk).result["losses"]["attacker"] == {
        "rifle_squad": 9,
        "hmg": 1,
    }
