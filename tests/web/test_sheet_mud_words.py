"""The 2d6 table's "mud/rocks/swamp" square, named on the battle sheet by what it is read
as: our ruling reads it as the rulings' mud/rocks, rough (docs/rules.md), and a player
who read "A2 swamp / rough" against the rulings' "swamp = bad" was puzzled."""

from __future__ import annotations

import re
from html import unescape
from typing import Any

from django.urls import reverse

from battles.models import Battle
from battles.web.battleview import SquareView
from campaign.models import Campaign


def square(going: str) -> SquareView:
    return SquareView(0, 1, "mud_rocks_swamp", "none", going, (1, 4, 3), 36)


def test_a_mud_square_is_named_by_what_its_going_reads_it_as() -> None:
    assert square("rough").name_line == "A2 mud/rocks"
    assert square("rough").ground_words == "mud/rocks/swamp (read as mud/rocks)"
    # A GM who reads it as swamp sets it bad (the battle's landform_going).
    assert square("bad").name_line == "A2 swamp"
    assert square("bad").ground_words == "mud/rocks/swamp (read as swamp)"
    flat = SquareView(1, 0, "flat", "none", "good", (6, 2, 3), 36)
    assert (flat.name_line, flat.ground_words) == ("B1 flat", "flat")


def test_the_sheet_names_a_rough_mud_square_mud_rocks_and_says_why(
    played: Campaign, aussie: Any, login: Any
) -> None:
    client = login(aussie)
    sheets = [
        client.get(reverse("battle-sheet", args=[played.pk, battle.pk])).content.decode()
        for battle in Battle.objects.filter(campaign=played)
    ]
    sheet = next(s for s in sheets if "(read as" in s)
    words = unescape(" ".join(re.sub(r"<[^>]+>", " ", sheet.replace("<wbr>", "")).split()))
    assert "swamp rough" not in words and "A1 mud/rocks rough" in words  # the picture
    assert "A1: mud/rocks/swamp (read as mud/rocks), no woods, rough going" in words
    assert "mud/rocks/swamp (read as mud/rocks) no woods rough" in words  # the table
    assert (
        "The 2d6 table's \"mud/rocks/swamp\" is read as mud/rocks, rough going (Korona's "
        "ruling; where the game master has made it bad going, it is read as swamp)." in words
    )
    # A sheet with no such square says nothing of it (its key lists every ground).
    dry = next(s for s in sheets if "(read as" not in s)
    assert "is read as mud/rocks" not in dry
