"""Lists and brackets in the players' words: "A, B and C" (never "A and B and C"), one
bracket at a time, a force's companies by name (the rules list the strongest first),
and a sentence where the rules put a bracket after a full stop."""

from __future__ import annotations

from typing import Any

from django.template import Context, Template

from campaign.web import pastmaps, turnlog

THREE = ["2nd Company", "1st Company", "3rd Company"]


def battle_record(**fields: Any) -> dict[str, Any]:
    return {
        "phase": "battles",
        "kind": "battle",
        "side": "japanese",
        "target": "Oivi",
        "battle": "3:Oivi",
        "attacker_side": "japanese",
        "defender_side": "australian",
        "attackers": THREE,
        "defenders": ["A Company"],
        # The rules' own text, kept in the record (replays compare it).
        "text": "battle at Oivi: 2nd Company and 1st Company and 3rd Company attack A Company",
        **fields,
    }


def test_a_battle_of_three_companies_lists_them_with_commas() -> None:
    words = turnlog.record_words(battle_record())
    assert words == "Battle at Oivi: 1st Company, 2nd Company and 3rd Company attack A Company"
    one = battle_record(attackers=["2nd Company"], text="")
    assert turnlog.record_words(one) == "Battle at Oivi: 2nd Company attacks A Company"


def test_a_battle_result_names_its_companies_from_the_battle_record() -> None:
    result = {
        "phase": "battles",
        "kind": "battle_result",
        "side": "australian",
        "target": "Oivi",
        "battle": "3:Oivi",
        "winner": "defender",
        "attacker_side": "japanese",
        "defender_side": "australian",
    }
    summary = turnlog.turn_summary([battle_record(), result], {}, {"3:Oivi": "a_third_lost"})
    assert summary == [
        "At Oivi the Australian A Company, defending, beat the Japanese 1st Company, 2nd "
        "Company and 3rd Company: the Japanese lost a third or more of their stands."
    ]
    # With the loser's count, as the battle's report gives it: "a third" alone read
    # alike for 4 of 12 and 13 of 36, five defeats in a row one line.
    counted = turnlog.turn_summary(
        [battle_record(), result], {}, {"3:Oivi": "a_third_lost"}, shares={"3:Oivi": "13 of 36"}
    )
    assert counted[0].endswith(": the Japanese lost a third or more of their stands (13 of 36).")
    # A Force on Force battle's pieces are units: its shares say so.
    clock = turnlog.turn_summary(
        [battle_record(), result], {}, {"3:Oivi": "turn_limit"}, {}, {"3:Oivi": "unit"}
    )
    assert clock[0].endswith(
        ": at the turn limit, the Japanese had lost the larger share of their units "
        "(on an equal share the defender wins)."
    )


def test_the_template_filter_joins_a_list_with_commas_and_one_and() -> None:
    template = Template("{% load names %}{{ names|and_list }}")
    assert template.render(Context({"names": THREE})) == (
        "2nd Company, 1st Company and 3rd Company"
    )


def test_a_turns_map_marks_a_battle_of_three_companies_with_commas() -> None:
    _, battles = pastmaps.moves_and_battles([battle_record()])
    # Each force after its side, as the turn's page names them (without the campaign's
    # names for its sides, each side's people).
    assert battles[0].words == [
        "Battle at Oivi: the Japanese 1st Company, 2nd Company and 3rd Company attack the "
        "Australians' A Company"
    ]


def test_a_strafed_company_out_of_supply_again_reads_one_bracket() -> None:
    record = {
        "phase": "supply",
        "kind": "supply",
        "side": "japanese",
        "company": "1st Company",
        "dice": [5],
        "modifiers": [],
        "outcome": "out of supply",
        "turns_out_of_supply": 1,
        "text": "1st Company: supply roll 5 = 5 against distance 1 to Kilu: out of supply "
        "(strafed)",
    }
    words = turnlog.record_words(record)
    assert words == (
        "1st Company: supply roll 5 against distance 1 to Kilu: out of supply this turn (strafed)"
    )
    assert ") (" not in words


def test_an_events_outcome_after_a_full_stop_is_a_sentence_not_a_bracket() -> None:
    outcome = "a Japanese fighting company (strong) in Oivi is strafed and out of supply"
    record = {
        "phase": "aerial",
        "kind": "event",
        "side": "australian",
        "dice": [5],
        "outcome": outcome,
        "effect": "strafe_company",
        "text": "aerial event 5: A strafing attack on the track: one Japanese company is out "
        f"of supply. ({outcome})",
    }
    assert turnlog.record_words(record) == (
        "Aerial event 5: A strafing attack on the track: one Japanese company is out of "
        "supply. A Japanese fighting company (strong) in Oivi is strafed and out of supply."
    )
    assert turnlog.turn_summary([record], {}) == [turnlog.record_words(record)]
    # A table text without a full stop keeps the rules' bracket.
    plain = {**record, "text": f"aerial event 5: strafe_company ({outcome})"}
    assert turnlog.record_words(plain) == "A" + plain["text"][1:]


def test_an_old_sighting_link_finds_the_not_found_page_explaining_it(
    played: Any, aussie: Any, login: Any
) -> None:
    """Sightings are numbered afresh each turn: an old link's handle names none now. The
    page says so, and is the same whether the handle once named a company or never did."""
    client = login(aussie)
    pages = []
    for handle in ("1-1", "1-99", "nonsense"):
        answer = client.get(f"/campaigns/{played.pk}/glimpses/{handle}/")
        assert answer.status_code == 404
        pages.append(answer.content.decode().split("<main", 1)[1])
    assert "sightings are numbered afresh every turn" in pages[0]
    assert pages[0] == pages[1] == pages[2]


def test_the_end_of_the_campaign_names_the_winner_as_a_side_is_named() -> None:
    """The walk of 7 December 2026 read, on the last turn's page and the list of turns,
    "The campaign ends: the turn limit (20) is reached. Japanese hold Korona and win.":
    the rules' record, whose side has no article. The pages say "The Japanese hold ..."."""
    reading = turnlog.Reading({"australian": "Australians", "japanese": "Japanese"})
    record = {
        "phase": "end",
        "kind": "campaign_end",
        "side": "japanese",
        "target": "Korona",
        "outcome": "ended",
        "winner": "japanese",
        "reason": "the turn limit (20) is reached",
        # The rules' own text, kept in the record (replays compare it).
        "text": "the campaign ends: the turn limit (20) is reached. Japanese hold Korona and win.",
    }
    assert turnlog.record_words(record, reading) == (
        "The campaign ends: the turn limit (20) is reached. The Japanese hold Korona and win."
    )
    assert turnlog.turn_summary([record], reading.side_names) == [
        "The campaign ends: the turn limit (20) is reached. The Japanese hold Korona and win."
    ]
    nobody = {**record, "side": None, "winner": None, "text": "... nobody holds Korona and wins."}
    assert turnlog.record_words(nobody, reading) == (
        "The campaign ends: the turn limit (20) is reached. Nobody holds Korona, so nobody wins."
    )


def test_the_end_of_the_campaign_says_whose_base_fell_to_whom() -> None:
    """The walk of 7 December 2026 read "The campaign ends: Australians' base Port Murray
    is held by the enemy. ...": the rules' reason, with no article, and "the enemy" to
    every side (the campaign has ended: the fog with it)."""
    reading = turnlog.Reading({"australian": "Australians", "japanese": "Japanese"})
    reason = "Australians' base Port Murray is held by the enemy"
    record = {
        "phase": "end",
        "kind": "campaign_end",
        "side": "japanese",
        "target": "Korona",
        "outcome": "ended",
        "winner": "japanese",
        "reason": reason,
        # The rules' own text, kept in the record (replays compare it).
        "text": f"the campaign ends: {reason}. Japanese hold Korona and win.",
    }
    said = (
        "The campaign ends: the Australians' base, Port Murray, is held by the Japanese. "
        "The Japanese hold Korona and win."
    )
    assert turnlog.record_words(record, reading) == said
    assert turnlog.turn_summary([record], reading.side_names) == [said]
    both = {
        **record,
        "reason": "Japanese' base Kilu is held by the enemy; Japanese have no fighting "
        "companies left; the turn limit (8) is reached",
        "winner": "australian",
    }
    assert turnlog.record_words(both, reading) == (
        "The campaign ends: the Japanese base, Kilu, is held by the Australians; the "
        "Japanese have no fighting companies left; the turn limit (8) is reached. The "
        "Australians hold Korona and win."
    )
