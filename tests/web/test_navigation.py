"""Getting around: one "battle report" link per battle in a turn's log, a company's
battle lines linked to the battle, the top bar's link named for its page, and a word
that one has signed out."""

from __future__ import annotations

from typing import Any

from django.test import Client
from django.urls import reverse

from battles.models import Battle
from campaign.models import Campaign, Company


def test_a_turns_log_links_each_battle_report_once(
    played: Campaign, aussie: Any, login: Any
) -> None:
    html = login(aussie).get(reverse("turn", args=[played.pk, 1])).content.decode()
    battles = Battle.objects.filter(campaign=played, turn__number=1)
    assert battles.count() == 2
    for battle in battles:
        url = reverse("battle", args=[played.pk, battle.pk])
        assert html.count(f'<a href="{url}">battle report</a>') == 1


def test_a_companys_battle_lines_link_the_battle(played: Campaign, aussie: Any, login: Any) -> None:
    a = Company.objects.get(campaign=played, name="A Company")
    html = login(aussie).get(reverse("company", args=[played.pk, a.pk])).content.decode()
    fought = Battle.objects.filter(campaign=played, defender_side="australian")
    linked = [b for b in fought if reverse("battle", args=[played.pk, b.pk]) in html]
    assert linked and ">battle report</a>" in html
    assert ">turn report</a>" not in html


def test_the_top_bar_names_the_email_and_feeds_page_for_what_it_is(
    played: Campaign, aussie: Any, login: Any
) -> None:
    client = login(aussie)
    html = client.get(reverse("turns", args=[played.pk])).content.decode()
    url = reverse("notice-preferences")
    # It keeps the campaign the player came from, for that page's campaign menu.
    assert f'<a href="{url}?campaign={played.pk}">Email and feeds</a>' in html
    assert ">Notices</a>" not in html
    assert "<h1>Email and feeds</h1>" in client.get(url).content.decode()


def test_signing_out_says_so(aussie: Any, login: Any) -> None:
    client: Client = login(aussie)
    page = client.post(reverse("logout"), follow=True)
    assert page.redirect_chain[-1][0] == reverse("login")
    assert "You are signed out." in page.content.decode()
    # Said once: the next page does not repeat it.
    assert "You are signed out." not in client.get(reverse("login")).content.decode()
