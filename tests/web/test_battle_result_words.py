"""A battle's result in the turn lists, the turn page, the turn's map and the e-mail: who
won, on which side, and why, in words, from the record's fields and the battle's reason
(the record's own text, "the defender (Australians) wins (withdrew)", is what replays
compare, so it stays as the rules wrote it)."""

from __future__ import annotations

import re
from html import unescape
from typing import Any

from django.contrib import admin
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from battles.models import Battle
from campaign.admin import TurnAdmin
from campaign.models import Campaign, Turn
from campaign.services.visibility import open_campaign
from notifications.feeds import feed_urls
from notifications.services import turn_words
from tests.web.test_battle_list import share

WON = (
    "At Korona the Australians' A Company, defending, beat the Japanese 1st Company: the "
    "Japanese withdrew."
)


def text_of(response: Any) -> str:
    html = response.content.decode()
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    return unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)))


def withdrawn(campaign: Campaign) -> Battle:
    """Turn 1's first battle (the Australians defended Korona and won), as if the
    Japanese had withdrawn of their own accord."""
    battle = Battle.objects.get(campaign=campaign, key="1:Korona:1")
    assert battle.result["winner"] == "defender"
    battle.result = {**battle.result, "reason": "withdrew"}
    battle.save(update_fields=["result"])
    return battle


def test_a_battle_result_says_who_won_on_which_side_and_who_withdrew(
    played: Campaign, aussie: Any, japanese: Any, login: Any
) -> None:
    withdrawn(played)
    for user in (aussie, japanese):
        client = login(user)
        for url in (
            reverse("turns", args=[played.pk]),
            reverse("turn", args=[played.pk, 1]),
            reverse("turn-map", args=[played.pk, 1]),
        ):
            page = text_of(client.get(url))
            assert WON in page, url
            assert "wins (withdrew)" not in page and "(a third lost)" not in page, url
        # The other battle of that turn, won by losses.
        assert (
            "At Korona the Japanese 2nd Company, attacking, beat the Australians' B Company: "
            f"the Australians lost a third or more of their stands ({share(played, '1:Korona:2')})."
            in text_of(client.get(reverse("turns", args=[played.pk])))
        )
        turn = Turn.objects.get(campaign=played, number=1)
        body = turn_words(open_campaign(user=user, campaign=played), turn).body
        assert f"- {WON}" in body


def test_a_battle_at_the_turn_limit_and_one_entered_from_the_table_say_so(
    played: Campaign, aussie: Any, login: Any
) -> None:
    battle = withdrawn(played)
    page = reverse("turns", args=[played.pk])
    battle.result = {**battle.result, "reason": "turn_limit"}
    battle.save(update_fields=["result"])
    assert (
        "At Korona the Australians' A Company, defending, beat the Japanese 1st Company: at "
        "the turn limit, the Japanese had lost the larger share of their stands"
        in text_of(login(aussie).get(page))
    )
    battle.result = {**battle.result, "reason": "entered"}
    battle.save(update_fields=["result"])
    assert (
        "At Korona the Australians' A Company, defending, beat the Japanese 1st Company (the "
        "game master entered the result from the table)." in text_of(login(aussie).get(page))
    )


HOPELESS = (
    f"{WON[:-1]} from a hopeless position: they faced more than three times their fighting "
    "strength, or had none left fit to fight."
)
CLOCK = (
    f"{WON[:-1]} beaten by the clock: attacking, they could not reach the enemy to assault "
    "in the turns left, and would have lost at the turn limit."
)


def test_a_withdrawal_says_why_on_the_turn_pages_and_in_the_email(
    played: Campaign, aussie: Any, japanese: Any, login: Any
) -> None:
    """Why the loser withdrew, from the result's ``withdrawal`` (a field, not the log's
    English): to both sides that fought, who read the battle's report in full."""
    battle = withdrawn(played)
    for withdrawal, words in (("hopeless", HOPELESS), ("beaten_by_the_clock", CLOCK)):
        battle.result = {**battle.result, "withdrawal": withdrawal}
        battle.save(update_fields=["result"])
        for user in (aussie, japanese):
            client = login(user)
            for url in (
                reverse("turns", args=[played.pk]),
                reverse("turn", args=[played.pk, 1]),
                reverse("turn-map", args=[played.pk, 1]),
            ):
                assert words in text_of(client.get(url)), url
            turn = Turn.objects.get(campaign=played, number=1)
            body = turn_words(open_campaign(user=user, campaign=played), turn).body
            assert f"- {words}" in body


def test_a_hopeless_withdrawal_says_which_reason_with_the_numbers_to_both_sides(
    played: Campaign, aussie: Any, japanese: Any, login: Any
) -> None:
    """The strengths then (the result's ``fit_to_fight``, the loser's first): the battle's
    own facts, which its report shows in full to both sides that fought."""
    battle = withdrawn(played)
    words = (
        f"{WON[:-1]} from a hopeless position: they had 3 stands fit to fight against 12, "
        "more than three times as many."
    )
    battle.result = {**battle.result, "withdrawal": "hopeless", "fit_to_fight": [3, 12]}
    battle.save(update_fields=["result"])
    for user in (aussie, japanese):
        client = login(user)
        for url in (
            reverse("turns", args=[played.pk]),
            reverse("turn", args=[played.pk, 1]),
            reverse("turn-map", args=[played.pk, 1]),
        ):
            assert words in text_of(client.get(url)), url
        report = text_of(client.get(reverse("battle", args=[played.pk, battle.pk])))
        assert (
            "the Japanese withdrew from a hopeless position: they had 3 stands fit to fight "
            "against 12, more than three times as many." in report
        )
        turn = Turn.objects.get(campaign=played, number=1)
        body = turn_words(open_campaign(user=user, campaign=played), turn).body
        assert f"- {words}" in body


def test_a_withdrawal_cause_beside_another_reason_or_unknown_adds_nothing(
    played: Campaign, aussie: Any, login: Any
) -> None:
    """A cause the pages do not know, or one beside a result that is no withdrawal (a
    result entered from the table says only who won), reads as before."""
    battle = withdrawn(played)
    page = reverse("turns", args=[played.pk])
    battle.result = {**battle.result, "withdrawal": "tired_of_the_rain"}
    battle.save(update_fields=["result"])
    assert f"{WON} " in text_of(login(aussie).get(page))
    battle.result = {**battle.result, "reason": "entered", "withdrawal": "hopeless"}
    battle.save(update_fields=["result"])
    text = text_of(login(aussie).get(page))
    assert "(the game master entered the result from the table)." in text
    assert "hopeless" not in text


def test_a_force_on_force_withdrawal_counts_units_wherever_it_is_worded(
    played: Campaign, aussie: Any, japanese: Any, login: Any
) -> None:
    """Force on Force's pieces are units, and its ``fit_to_fight`` counts them: the turn
    pages, the report, the email, the feed and the game master's turn log said "3 stands"
    of a Force on Force battle."""
    battle = withdrawn(played)
    battle.ruleset = "force_on_force"
    battle.result = {
        **battle.result,
        "ruleset": "force_on_force",
        "withdrawal": "hopeless",
        "fit_to_fight": [3, 12],
    }
    battle.save(update_fields=["ruleset", "result"])
    why = "from a hopeless position: they had 3 units fit to fight against 12, more than"
    words = f"{WON[:-1]} {why} three times as many."
    for user in (aussie, japanese):
        client = login(user)
        for url in (
            reverse("turns", args=[played.pk]),
            reverse("turn", args=[played.pk, 1]),
            reverse("turn-map", args=[played.pk, 1]),
        ):
            page = text_of(client.get(url))
            assert words in page and "stands fit to fight" not in page, url
        report = text_of(client.get(reverse("battle", args=[played.pk, battle.pk])))
        assert f"the Japanese withdrew {why} three times as many." in report
        turn = Turn.objects.get(campaign=played, number=1)
        body = turn_words(open_campaign(user=user, campaign=played), turn).body
        assert f"- {words}" in body
        feed = Client().get(feed_urls(user)["turns"].removeprefix("http://korona.test"))
        # Each line escaped in the entry's HTML, which the feed's XML escapes again.
        assert escape(words) in unescape(feed.content.decode())
    log = TurnAdmin(Turn, admin.site).log_text(Turn.objects.get(campaign=played, number=1))
    assert f"{why} three times as many" in log and "stands fit to fight" not in log
