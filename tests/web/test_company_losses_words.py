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


def losses_record(lost: dict[str, int], text: str) -> dict[str, Any]:
    return {
        "phase": "battles",
        "kind": "losses",
        "dice": [],
        "side": "japanese",
        "company": "1st Company",
        "outcome": "losses",
        "stands_lost": lost,
        "text": text,
    }


def test_one_stand_lost_is_it_and_several_are_them() -> None:
    """The walk-through read "1st Company loses 1 rifle squad (supply may replace them)".
    The rules' words stay in the record (replays compare records): the page words it."""
    from campaign.web.turnlog import record_words

    one = losses_record({"rifle_squad": 1}, "1st Company loses 1 rifle squad (supply may "
                        "replace them)")  # fmt: skip
    assert record_words(one) == "1st Company loses 1 rifle squad (supply may replace it)"
    three = losses_record({"rifle_squad": 2, "hmg": 1}, "1st Company loses 2 rifle squads "
                          "and 1 HMG (supply may replace them)")  # fmt: skip
    assert record_words(three).endswith("(supply may replace them)")
    gone = losses_record({"rifle_squad": 1}, "1st Company loses 1 rifle squad for good")
    assert record_words(gone) == "1st Company loses 1 rifle squad for good"
