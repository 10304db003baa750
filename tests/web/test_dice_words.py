"""The dice of a turn in a player's words, on the turn's page and in the turn's e-mail:
whose seeds were checked, which dice could not be and why, the file to download under
the name the command uses, and no repository path or command a player cannot use."""

from __future__ import annotations

import re
from html import unescape
from typing import Any

from django.urls import reverse

from campaign.models import Campaign, Turn
from campaign.services.visibility import open_campaign
from notifications.services import turn_words


def text_of(response: Any) -> str:
    html = response.content.decode()
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    return unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)))


def test_the_dice_section_names_the_seeds_in_words_and_the_file_as_the_command_does(
    played: Campaign, aussie: Any, login: Any
) -> None:
    response = login(aussie).get(reverse("turn", args=[played.pk, 1]))
    page, html = text_of(response), response.content.decode()
    assert "the public tables' seed and your side's seed match their commitments" in page
    assert "(australian, public)" not in page and "seeds shown (" not in page
    # The initiative die, whose seed is kept to the end: said plainly.
    assert "1 die was rolled from the initiative seed (your initiative die)" in page
    assert "of this view" not in page
    # The link and the command name the same file.
    assert re.search(r'download="turn-1\.json">download turn-1\.json</a>', html)
    assert "python -m rules verify turn-1.json" in page
    assert "TURN.json" not in page and "docs/campaign.md" not in page
    # Folded away, for those who want them.
    details = html[html.index('<details class="dice-check">') :]
    assert "python -m rules verify" in details[: details.index("</details>")]


def test_the_turn_email_says_what_the_dice_commitment_is_without_a_command(
    played: Campaign, aussie: Any
) -> None:
    turn = Turn.objects.get(campaign=played, number=2)
    body = turn_words(open_campaign(user=aussie, campaign=played), turn).body
    assert "python -m rules" not in body
    assert "The dice of turn 3 are fixed before its orders" in body
    assert "its page shows the seeds and checks every die you may see" in body


def test_the_orders_page_says_where_the_seeds_are_shown_once_its_turn_is_played(
    played: Campaign, aussie: Any, login: Any
) -> None:
    """A walk-through: the orders page said the seeds "are shown here" once the turn is
    played, but by then the orders page is the next turn's: they are on the turn's page."""
    page = text_of(login(aussie).get(reverse("orders", args=[played.pk])))
    assert "shown here" not in page
    assert "then they are shown on the turn's page (Turns, in the top bar)" in page
    assert "Once the turn is played, its seeds are shown on the turn's page" in page


def test_once_every_die_is_checked_the_verdict_promises_nothing_for_the_end(
    db: Any, aussie: Any, login: Any
) -> None:
    """The solo walk of 7 December 2026: once the campaign had ended, every die of a
    turn was checked, yet the verdict still pointed below to "what waits for the end of
    the campaign", which nothing did. While it runs, a side's view still says so."""
    from dataclasses import replace

    from campaign.services.scenarios import create_campaign
    from campaign.services.turns import run_campaign
    from tests.web.conftest import join, korona_doc

    campaign = create_campaign(data=korona_doc(), name="Ended", seed=7)
    campaign.set_settings(replace(campaign.get_settings(), turn_limit=2))
    campaign.save(update_fields=["settings"])
    join(aussie, campaign, "australian")
    run_campaign(campaign_id=campaign.pk, turns=1)
    running = text_of(login(aussie).get(reverse("turn", args=[campaign.pk, 1])))
    assert "(below: what was checked, and what waits for the end of the campaign)" in running
    run_campaign(campaign_id=campaign.pk, turns=5)
    ended = text_of(login(aussie).get(reverse("turn", args=[campaign.pk, 1])))
    assert "and match (below: what was checked)." in ended
    assert "what waits for the end" not in ended
