"""The campaign's battles (``/campaigns/<id>/battles/``): every battle the reader may
read, newest turn first, who attacked whom and how it ended, each linked to its report;
reached from the top bar; its query count pinned."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from battles.models import Battle
from battles.services.results import enter_battle_result
from campaign.models import SPECTATOR, Campaign, Company
from campaign.services.scenarios import create_campaign
from campaign.services.turns import advance_turn
from campaign.web import turnlog
from tests.admin.conftest import waiting_campaign
from tests.campaign.conftest import korona_doc
from tests.web.conftest import join, whole_json_read
from tests.web.test_reports import text_of

pytestmark = pytest.mark.django_db

Login = Callable[[Any], Client]


def battles_page(client: Client, campaign: Campaign) -> str:
    response = client.get(reverse("battles", args=[campaign.pk]))
    assert response.status_code == 200
    return response.content.decode()


def report_links(html: str, campaign: Campaign) -> list[int]:
    """The battle reports the page links to, in the page's order."""
    return [int(pk) for pk in re.findall(rf'href="/campaigns/{campaign.pk}/battles/(\d+)/"', html)]


# --- who may open it --------------------------------------------------------------------


def test_a_signed_out_reader_is_sent_to_sign_in(played: Campaign, client: Client) -> None:
    response = client.get(reverse("battles", args=[played.pk]))
    assert response.status_code == 302 and response.url.startswith(reverse("login"))


def test_a_stranger_and_a_player_of_another_campaign_get_404(
    played: Campaign, login: Login, outsider: Any, django_user_model: Any
) -> None:
    assert login(outsider).get(reverse("battles", args=[played.pk])).status_code == 404
    other = create_campaign(data=korona_doc(), name="Another", seed=2)
    player = django_user_model.objects.create_user("elsewhere", "e@example.com", "x")
    join(player, other, "australian")
    assert login(player).get(reverse("battles", args=[played.pk])).status_code == 404
    assert login(player).get(reverse("battles", args=[other.pk])).status_code == 200


# --- what it lists --------------------------------------------------------------------


@pytest.mark.parametrize("who", ["aussie", "japanese", "gm_user"])
def test_every_battle_is_linked_newest_turn_first(
    played: Campaign, login: Login, who: str, request: pytest.FixtureRequest
) -> None:
    """With two sides every battle is fought by both, so both players and the GM read all
    of them: turn 2's first, then turn 1's in the order the turn fought them."""
    html = battles_page(login(request.getfixturevalue(who)), played)
    rows = Battle.objects.filter(campaign=played).select_related("turn")
    expected = [b.pk for b in sorted(rows, key=lambda b: (-b.turn.number, b.pk))]
    assert len(expected) == 3
    assert report_links(html, played) == expected
    page = text_of_html(html)
    assert page.index("Turn 2") < page.index("Turn 1")
    assert f'href="{reverse("turn", args=[played.pk, 2])}"' in html


def text_of_html(html: str) -> str:
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def share(campaign: Campaign, key: str) -> str:
    """How many stands the loser of the battle ``key`` lost, of how many it brought, as
    its report's table of the forces counts them: "4 of 12"."""
    result = Battle.objects.get(campaign=campaign, key=key).result
    loser = "defender" if result["winner"] == "attacker" else "attacker"
    lost, present = result["losses"][loser], result["stands_present"][loser]
    return f"{sum(lost.values())} of {sum(present.values())}"


def test_each_battle_says_where_who_attacked_whom_and_who_won(
    played: Campaign, login: Login, aussie: Any
) -> None:
    page = text_of(login(aussie).get(reverse("battles", args=[played.pk])))
    # Turn 1 saw two battles at Korona, told apart by their number; turn 2 one.
    assert (
        "Korona (battle 1) The Japanese 1st Company attacked the Australians' A Company. "
        "The Australians won: the Japanese lost a third or more of their stands "
        f"({share(played, '1:Korona:1')})." in page
    )
    assert (
        "Korona (battle 2) The Japanese 2nd Company attacked the Australians' B Company. "
        "The Japanese won: the Australians lost a third or more of their stands "
        f"({share(played, '1:Korona:2')})." in page
    )
    assert "Turn 2 Korona The Japanese 2nd Company attacked the Australians' A Company." in page
    assert "3 battles: the Australians won 1 and the Japanese won 2." in page
    assert "Fog of war: only the battles your side fought are listed." in page
    assert "australian" not in page and "japanese" not in page  # the sides' names, not keys


def test_the_sides_are_named_as_the_campaign_names_them(
    played: Campaign, login: Login, japanese: Any
) -> None:
    side = played.sides.get(key="australian")
    side.name = "Diggers"
    side.save()
    page = text_of(login(japanese).get(reverse("battles", args=[played.pk])))
    assert "The Japanese 1st Company attacked the Diggers' A Company." in page
    assert (
        "The Diggers won: the Japanese lost a third or more of their stands "
        f"({share(played, '1:Korona:1')})." in page
    )
    assert "the Diggers won 1 and the Japanese won 2" in page


def test_a_company_gone_since_is_still_named(played: Campaign, login: Login, aussie: Any) -> None:
    """Who fought comes from the battle's own record, not the companies as they stand: a
    company destroyed later (its row deleted) still reads in its old battles."""
    Company.objects.filter(campaign=played, name="1st Company").delete()
    page = text_of(login(aussie).get(reverse("battles", args=[played.pk])))
    assert "Korona (battle 1) The Japanese 1st Company attacked the Australians' A Company." in page


def test_a_spectator_reads_no_battle_while_the_campaign_is_played(
    played: Campaign, login: Login, django_user_model: Any
) -> None:
    watcher = django_user_model.objects.create_user("watcher", "w@example.com", "x")
    join(watcher, played, SPECTATOR)
    html = battles_page(login(watcher), played)
    assert report_links(html, played) == []
    page = text_of_html(html)
    assert "None to show while the campaign is played." in page
    assert "a spectator reads the battles once the campaign has ended" in page
    for name in played.companies.values_list("name", flat=True):
        assert name not in page
    # Once it has ended, nothing is hidden: every battle.
    played.status = Campaign.Status.FINISHED
    played.save(update_fields=["status"])
    assert len(report_links(battles_page(login(watcher), played), played)) == 3


def test_a_campaign_with_no_battle_yet_says_so(
    campaign: Campaign, login: Login, aussie: Any, gm_user: Any
) -> None:
    player = text_of(login(aussie).get(reverse("battles", args=[campaign.pk])))
    assert "Your side has fought no battle yet." in player
    assert "battles:" not in player and "Newest turn first" not in player  # nothing to order
    assert "No battle has been fought yet." in text_of(
        login(gm_user).get(reverse("battles", args=[campaign.pk]))
    )


def test_battles_waiting_for_the_table_say_so_with_their_deadline(
    login: Login, aussie: Any
) -> None:
    campaign, battles = waiting_campaign()
    join(aussie, campaign, "australian")
    first, second = battles["1:Korona:1"], battles["1:Korona:2"]
    Battle.objects.filter(pk=first.pk).update(deadline=datetime(2031, 7, 5, 18, 0, tzinfo=UTC))
    client = login(aussie)
    html = battles_page(client, campaign)
    page = text_of_html(html)
    assert (
        "Still to be fought on the table: the game master enters its result, wanted by "
        '<time class="deadline" datetime="2031-07-05T18:00:00+00:00">Sat 5 Jul 2031, 18:00 UTC'
        "</time>: if none is entered by then, the campaign waits for the game master&#x27;s "
        "result, however long." in html
    )
    assert "the game master enters its result.</p>" in html  # the one with no deadline
    assert "2 battles, all still to be fought." in page
    assert html.count('class="waiting"') == 2

    enter_battle_result(
        battle_id=second.pk,
        winner="defender",
        losses={"attacker": {"rifle_squad": 4}, "defender": {"rifle_squad": 1}},
    )
    page = text_of(client.get(reverse("battles", args=[campaign.pk])))
    assert "The Australians won (the game master entered the result from the table)." in page
    assert "the Australians won 1 and the Japanese won none; 1 is still to be fought." in page


def test_a_battle_the_rules_are_fighting_says_so(login: Login, aussie: Any) -> None:
    campaign, battles = waiting_campaign()
    join(aussie, campaign, "australian")
    Battle.objects.filter(campaign=campaign).update(mode="auto")
    page = text_of(login(aussie).get(reverse("battles", args=[campaign.pk])))
    assert page.count("Still to be fought: the rules fight it with the turn, in a moment.") == 2


# --- getting there --------------------------------------------------------------------


def test_the_top_bar_links_the_battles_on_every_campaign_page(
    played: Campaign, login: Login, aussie: Any, django_user_model: Any
) -> None:
    url = reverse("battles", args=[played.pk])
    client = login(aussie)
    for page in (reverse("campaign-map", args=[played.pk]), reverse("turns", args=[played.pk])):
        assert f'<a href="{url}">Battles</a>' in client.get(page).content.decode(), page
    # An account page keeps the campaign's menu, and so its battles.
    account = client.get(reverse("account") + f"?campaign={played.pk}").content.decode()
    assert f'<a href="{url}">Battles</a>' in account
    # A spectator has it too: they read every battle once the campaign has ended.
    watcher = django_user_model.objects.create_user("watcher", "w@example.com", "x")
    join(watcher, played, SPECTATOR)
    map_page = login(watcher).get(reverse("campaign-map", args=[played.pk])).content.decode()
    assert f'<a href="{url}">Battles</a>' in map_page


# --- queries --------------------------------------------------------------------------


def test_battle_list_queries_do_not_grow_with_companies_or_battles(
    big_campaign: Campaign, login: Login, aussie: Any, django_assert_num_queries: Any
) -> None:
    client = login(aussie)
    url = reverse("battles", args=[big_campaign.pk])
    # The user (1), the campaign and the membership (2), the snapshot (7), the turns'
    # start states (the fog of war: 1); then the readable battles (1) and the turns they
    # were fought in, with their battle records out of their logs, for who fought (1).
    with django_assert_num_queries(13):
        assert client.get(url).status_code == 200
    # A turn more, with battles of its own: the same.
    advance_turn(campaign_id=big_campaign.pk)
    assert Battle.objects.filter(campaign=big_campaign).values("turn").distinct().count() == 2
    with django_assert_num_queries(12):  # the user is kept now
        assert client.get(url).status_code == 200


def test_battle_list_reads_each_battles_winner_column_and_no_whole_json(
    played: Campaign, login: Login, aussie: Any
) -> None:
    """The list reads who won from the winner column and only the few keys of the result
    it words (why the battle ended, why the loser withdrew), never a battle's whole
    spec, result or log."""
    client = login(aussie)
    with CaptureQueriesContext(connection) as queries:
        assert client.get(reverse("battles", args=[played.pk])).status_code == 200
    reads = [q["sql"] for q in queries.captured_queries if '"battles_battle"' in q["sql"]]
    assert len(reads) == 1
    assert '"battles_battle"."winner"' in reads[0]
    assert whole_json_read(reads[0], "battles_battle", ("spec", "result", "log")) == []
    assert "'$.\"winner\"'" not in reads[0] and "'winner'" not in reads[0]


def test_battle_list_reads_only_the_battle_records_of_the_turn_logs(
    played: Campaign, login: Login, aussie: Any
) -> None:
    """Who fought each battle comes from its record in its turn's log; the rest of the
    log (every roll, supply check and move of the turn: after months of play, hundreds
    of kilobytes) is never read, only the battle records, out of the log by the
    database."""
    client = login(aussie)
    with CaptureQueriesContext(connection) as queries:
        page = text_of(client.get(reverse("battles", args=[played.pk])))
    reads = [q["sql"] for q in queries.captured_queries if "campaign_turn" in q["sql"]]
    # What each query brings back (its select list, before its first FROM): no log.
    selected = [sql[: sql.index(" FROM ")] for sql in reads]
    assert reads and [column for column in selected if "log" in column] == []
    # The records were read all the same: each force by its companies.
    assert "The Japanese 2nd Company attacked the Australians' A Company." in page


# --- the words, alone -----------------------------------------------------------------


def _reading(**fields: Any) -> turnlog.Reading:
    return turnlog.Reading({"australian": "Australians", "japanese": "Japanese"}, **fields)


RECORD = {"battle": "3:Oivi:1", "attacker_side": "australian", "defender_side": "japanese"}


def test_attack_words_name_the_forces_by_company_and_side() -> None:
    forces = {
        "3:Oivi:1": {
            "attacker": ["C Company (militia)"],
            "defender": ["3rd Company", "1st Company"],
        }
    }
    assert (
        turnlog.attack_words(RECORD, _reading(forces=forces))
        == "The Australians' C Company (militia) attacked the Japanese 1st Company and 3rd Company"
    )
    # Without the battle's record: the sides alone.
    assert turnlog.attack_words(RECORD, _reading()) == "The Australians attacked the Japanese"


def test_won_words_say_why_the_loser_lost() -> None:
    reading = _reading(reasons={"3:Oivi:1": "turn_limit"}, pieces={"3:Oivi:1": "unit"})
    assert turnlog.won_words({**RECORD, "winner": "defender"}, reading) == (
        "The Japanese won: at the turn limit, the Australians had lost the larger share of "
        "their units (on an equal share the defender wins)."
    )
    assert turnlog.won_words({**RECORD, "winner": None}, reading) == "No winner was recorded."
