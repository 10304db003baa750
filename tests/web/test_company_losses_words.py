"""The company page says what becomes of stands killed in battle as the campaign's
setting has it (a walk-through read "lost for good" on the page while the log said
"supply may replace them", the default)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from campaign.models import Campaign

REPLACED = "Stands killed in battle stay on the establishment: a turn in supply may replace"
LOST = "Stands killed in battle are lost for good"


def company_page(campaign: Campaign, user: Any, login: Any) -> str:
    company = campaign.companies.filter(side="australian", kind="fighting").first()
    answer = login(user).get(f"/campaigns/{campaign.pk}/companies/{company.pk}/")
    assert answer.status_code == 200
    return answer.content.decode()


def test_by_default_the_page_says_supply_may_replace_battle_losses(
    campaign: Campaign, aussie: Any, login: Any
) -> None:
    page = company_page(campaign, aussie, login)
    assert REPLACED in page and LOST not in page


@pytest.mark.django_db
def test_with_the_setting_off_the_page_says_they_are_lost_for_good(
    campaign: Campaign, aussie: Any, login: Any
) -> None:
    campaign.set_settings(replace(campaign.get_settings(), supply_replaces_battle_losses=False))
    campaign.save(update_fields=["settings"])
    page = company_page(campaign, aussie, login)
    assert LOST in page and REPLACED not in page
