"""The GM's view of a turn's log (the turn's admin page): a key of whose company is
whose, since its lines name companies, not sides, and a refused order says where it came
from (a walk-through read "C Company (militia)'s order to advance to Korona is refused"
for an order the campaign AI gave, and took it for a bug). The players' log keeps its
words."""

from __future__ import annotations

import json

from django.test import Client
from django.urls import reverse

from campaign.models import Turn
from campaign.services.scenarios import create_campaign
from campaign.services.turns import advance_turn
from campaign.web import turnlog
from tests.campaign.conftest import KORONA

# The walk-through's campaign: on turn 1 the AI orders C Company (militia), in supply
# when the turn begins, to advance; its supply roll (2 against distance 3) then puts it
# out of supply, and a company out of supply may not advance.
WALKTHROUGH_SEED = 5551039886387202619
REFUSED = (
    "C Company (militia)'s order to advance to Korona is refused: C Company (militia) is "
    "out of supply and may not advance; it holds"
)


def test_the_gms_log_says_whose_company_is_whose_and_where_a_refused_order_came_from(
    gm: Client,
) -> None:
    doc = json.loads(KORONA.read_text(encoding="utf-8"))
    campaign = create_campaign(data=doc, name="Korona", seed=WALKTHROUGH_SEED)
    advance_turn(campaign_id=campaign.pk)
    turn = Turn.objects.get(campaign=campaign, number=1)
    page = gm.get(reverse("admin:campaign_turn_change", args=[turn.pk])).content.decode()
    assert (
        "Companies: Australians: A Company, B Company, C Company (militia), 1st Supply "
        "Company; Japanese: 1st Company, 2nd Company, 3rd Company, Supply Company."
    ) in page.replace("&#x27;", "'")
    assert (
        f"{REFUSED} (no order given: the campaign AI chose it at the start of the turn, "
        "before the supply rolls)"
    ) in page.replace("&#x27;", "'")


def test_a_refused_players_order_says_it_was_the_players_not_as_ordered() -> None:
    """The GM's log gave a player's refused order as "... is refused: ...; it holds (as
    ordered)", which read as if the player had ordered it to hold."""
    record = {
        "kind": "order",
        "outcome": "refused",
        "source": "order",
        "company": "A Company",
        "target": "Oivi",
        "text": "A Company's order to advance to Oivi is refused: A Company is engaged by "
        "the enemy in Korona and may not move; it holds",
    }
    words = turnlog.gm_record_words(record)
    assert words.endswith("may not move; it holds (the player's order)")
    assert "as ordered" not in words
