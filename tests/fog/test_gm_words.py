"""The GM's own words under the fog: what the players read is what the GM knowingly wrote.

The non-interference tests compare twins whose GM wrote the same words: a reason reaches
every reader as written, the same bytes in both twins, so the crawl cannot tell whether
those words state a hidden fact. What keeps them from doing so is the check the GM's
forms run before saving (``campaign.services.fogwords``): here, for twins that differ
only in what the Australians may not know (``twins.knowledge`` says they are twins,
independently of the code under test), every sentence stating one twin's hidden fact
is caught in that twin before it reaches the Australians, and a sentence that states
nothing hidden is caught in neither."""

from __future__ import annotations

import pytest

from campaign.models import Campaign
from campaign.services.fogwords import hidden_in_text
from campaign.services.scenarios import create_campaign
from tests.fog.twins import Hidden, Pair, knowledge, scenario_doc

pytestmark = pytest.mark.django_db

# The Japanese 3rd Company out of the Australians' sight, in Kilu or in Munara; in the
# second twin with fewer rifle squads.
PAIR = Pair(
    viewer="australian",
    twins=(
        Hidden(starts={"3rd Company": "Kilu"}),
        Hidden(starts={"3rd Company": "Munara"}, rifles={"3rd Company": 4}),
    ),
)
STATED = {
    0: ["3rd Company is in Kilu.", "the japanese 3rd company is at full strength"],
    1: [
        "3rd Company holds Munara with 4 rifle squads.",
        "The Japanese at Munara were strafed.",
    ],
}
NOTHING_HIDDEN = [
    "dysentery (house rule)",
    "A Company fought well at Korona.",  # the Australians' own company, where they are
    "The Japanese in Oivi were strafed.",  # in the Australians' sight: glimpsed there
]


def twin(index: int) -> Campaign:
    doc = scenario_doc(PAIR, PAIR.twins[index])
    return create_campaign(data=doc, name=f"twin {index}", seed=PAIR.seed)


def readers_told(campaign: Campaign, text: str) -> set[str]:
    return {
        reader for item in hidden_in_text(campaign=campaign, text=text) for reader in item.readers
    }


def test_a_sentence_stating_a_twins_hidden_fact_is_caught_before_the_viewer_reads_it() -> None:
    campaigns = [twin(0), twin(1)]
    assert knowledge(campaigns[0], "australian") == knowledge(campaigns[1], "australian")

    for index, campaign in enumerate(campaigns):
        for text in STATED[index]:
            assert "the Australians" in readers_told(campaign, text), (index, text)


def test_a_sentence_stating_nothing_hidden_from_the_viewer_is_caught_in_neither_twin() -> None:
    for campaign in (twin(0), twin(1)):
        for text in NOTHING_HIDDEN:
            assert "the Australians" not in readers_told(campaign, text), text
