"""The one naming helper (rules/names.py), and every record a campaign writes read through
it: no raw identifier, no article or agreement slip, for every record kind."""

from __future__ import annotations

import re

import pytest

from campaign.web.turnlog import record_words
from rules import names, rulesets
from rules.campaign.turn import play_turn
from rules.narrate import describe_record
from rules.units import STAND_TYPES
from tests.campaign.builders import korona_state


def test_units_counts_and_lists() -> None:
    assert names.unit("rifle_squad") == "rifle squad"
    assert names.unit("forward_observer") == "forward observer"
    assert names.count(3, "rifle_squad") == "3 rifle squads"
    assert names.count(1, "hmg") == "1 HMG"
    assert names.count(0, "hmg") == "0 HMGs"
    assert names.stands({"rifle_squad": 3, "hmg": 0, "commander": 1}) == (
        "3 rifle squads and 1 commander"
    )
    assert names.stands({"rifle_squad": 3, "hmg": 1, "sniper": 2}) == (
        "3 rifle squads, 1 HMG and 2 snipers"
    )
    assert names.stands({}) == "nothing"
    for key in STAND_TYPES:  # every unit type has words of its own
        assert "_" not in names.unit(key) and "_" not in names.unit(key, 2)


# A Japanese rifle company as PostgreSQL's jsonb gives it back: shortest key first.
JSONB_ORDER = {"hmg": 1, "commander": 1, "rifle_squad": 9, "small_mortar": 1}


def test_stands_are_listed_in_the_units_own_order_whatever_the_mapping() -> None:
    in_order = names.in_unit_order(JSONB_ORDER)
    assert names.stands(in_order) == "1 commander, 9 rifle squads, 1 HMG and 1 small mortar"
    assert in_order == JSONB_ORDER  # the same counts
    assert list(names.in_unit_order(dict(reversed(JSONB_ORDER.items())))) == list(in_order)
    # The order the rules define the units in (rules.units), an unknown type last.
    scrambled = ["mystery", *reversed(STAND_TYPES)]
    assert sorted(scrambled, key=names.unit_rank) == [*STAND_TYPES, "mystery"]


@pytest.mark.parametrize(
    ("phrase", "expected"),
    [
        ("Australian fighting company", "an Australian fighting company"),
        ("Japanese fighting company", "a Japanese fighting company"),
        ("average company", "an average company"),
        ("weak company", "a weak company"),
        ("strong company", "a strong company"),
        ("HMG", "an HMG"),
        ("unit", "a unit"),
        ("8th Company", "an 8th Company"),
        ("2nd Company", "a 2nd Company"),
    ],
)
def test_articles(phrase: str, expected: str) -> None:
    assert names.article(phrase) == expected


def test_sides_and_agreement() -> None:
    assert names.side_adjective("australian") == "Australian"
    assert names.side_companies("australian") == "Australian companies"
    assert names.side_companies("japanese", 1) == "1 Japanese company"
    assert names.people("Australian") == "Australians"
    assert names.people("Japanese") == "Japanese"
    assert names.verb("2nd Company", "attacks", "attack") == "attacks"
    assert names.verb("1st Company and 2nd Company", "attacks", "attack") == "attack"


RAW = re.compile(
    "|".join([*(re.escape(key) for key in STAND_TYPES if "_" in key), r"\bhmg\b", r"->", r"\w_\w"])
)
SLIPS = re.compile(
    r"\ba [AEIOaeio]\w|\ban [BCDFGJKLNPQRSTVWYZbcdfgjklnpqrstvwyz]\w"
    r"|Australians (fighting|compan)|(?<!and )\b\w+ Company attack\b"
    r"|\b(?:[2-9]|\d\d+) (rifle squad|commander|sniper|mortar|HMG)\b(?!s)"
)


def test_every_record_kind_reads_in_plain_words() -> None:
    """Three Korona campaigns to their end, both sides aggressive, the Old Breed options
    and events on: every record of every turn and of every battle fought, in words."""
    kinds: dict[str, int] = {}
    battle_kinds: set[str] = set()
    for seed in (1, 2, 3):
        state = korona_state(seed=seed)
        for company in state.companies.values():
            company.standing_order = "aggressive"
        while not state.finished and state.turn < 20:
            outcome = play_turn(state)
            for record in outcome.log:
                kinds[record["kind"]] = kinds.get(record["kind"], 0) + 1
                words = record_words(record)
                assert not RAW.search(words), words
                assert not SLIPS.search(words), words
            for result in outcome.results.values():
                for record in result.get("log", []):
                    battle_kinds.add(record["kind"])
                    words = describe_record(record)
                    assert not RAW.search(words), words
                    assert not SLIPS.search(words), words
            state = outcome.state
    # The kinds these campaigns reach; a new kind shows up here to be read too.
    assert {"supply", "initiative", "battle", "battle_result", "control"} <= set(kinds), kinds
    assert battle_kinds, "no battle was fought"


def test_a_hopeless_withdrawal_says_which_reason_applied_with_the_numbers() -> None:
    """The report said "they faced more than three times their fighting strength, or had
    none left fit to fight" whichever it was."""
    assert names.withdrawal_words("hopeless", [9, 35]) == (
        "from a hopeless position: they had 9 stands fit to fight against 35, more than "
        "three times as many"
    )
    assert names.withdrawal_words("hopeless", [1, 4]) == (
        "from a hopeless position: they had 1 stand fit to fight against 4, more than "
        "three times as many"
    )
    assert names.withdrawal_words("hopeless", [0, 7]) == (
        "from a hopeless position: they had no stand left fit to fight"
    )
    # A result from before the strengths were kept (or a malformed one) reads as before.
    for kept in (None, [], [3], ["3", 9], [True, 9], [-1, 4]):
        assert names.withdrawal_words("hopeless", kept) == names.WITHDRAWAL_NAMES["hopeless"]
    assert (
        names.withdrawal_words("beaten_by_the_clock", [3, 9])
        == (names.WITHDRAWAL_NAMES["beaten_by_the_clock"])
    )
    assert names.withdrawal_words("tired_of_the_rain", [3, 9]) == ""
    assert names.withdrawal_words(None) == ""


def test_a_hopeless_withdrawal_counts_in_its_rule_sets_pieces() -> None:
    """Force on Force's ``fit_to_fight`` counts units (its word for its pieces), not
    Korona's stands: the report said "3 stands" of a Force on Force battle."""
    assert rulesets.piece("korona") == "stand"
    assert rulesets.piece("force_on_force") == "unit"
    assert rulesets.piece(None) == rulesets.piece("no_such_rules") == "stand"
    unit = rulesets.piece("force_on_force")
    assert names.withdrawal_words("hopeless", [3, 12], piece=unit) == (
        "from a hopeless position: they had 3 units fit to fight against 12, more than "
        "three times as many"
    )
    assert names.withdrawal_words("hopeless", [1, 4], piece=unit) == (
        "from a hopeless position: they had 1 unit fit to fight against 4, more than "
        "three times as many"
    )
    assert names.withdrawal_words("hopeless", [0, 7], piece=unit) == (
        "from a hopeless position: they had no unit left fit to fight"
    )
