"""The battle sheet on paper (issue 15): every battle's sheet prints on at most two A4
pages, with or without background graphics, and its key to the picture prints without
them (each swatch is drawn, not a CSS background)."""

from __future__ import annotations

import dataclasses
import re
import zlib
from typing import Any

import pytest
from django.urls import reverse

from battles.models import Battle
from campaign.models import Campaign
from campaign.services.scenarios import create_campaign
from campaign.services.turns import advance_turn
from tests.browser.conftest import ARTIFACTS
from tests.web.conftest import join, meeting_doc

pytestmark = pytest.mark.django_db(transaction=True)

# The key's ground colours, as templates/battles/_legend.html draws them
# (battles.web.battleview.GROUND_COLOURS, named by rules.names).
GROUNDS = {
    "flat": "#ece3c6",
    "hill": "#d9b98a",
    "low ridge": "#cfa472",
    "high ridge": "#b3834f",
    "steep low ridge": "#95613d",
    "steep high ridge": "#74452a",
    "mud/rocks/swamp": "#8e9a63",
    "river/creek": "#86b8de",
}


def pdf_pages(pdf: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page[^s]", pdf))


def pdf_fill_colours(pdf: bytes) -> set[str]:
    """Every fill colour the PDF's content paints with (``r g b rg``), as #rrggbb."""
    colours = set()
    for found in re.finditer(rb"stream\r?\n", pdf):
        end = pdf.find(b"endstream", found.end())
        try:  # a decompressor object ignores the stream's end of line
            content = zlib.decompressobj().decompress(pdf[found.end() : end])
        except zlib.error:
            continue
        for rgb in re.findall(rb"([\d.]+) ([\d.]+) ([\d.]+) rg", content):
            colours.add("#" + "".join(f"{round(float(v) * 255):02x}" for v in rgb))
    return colours


@pytest.fixture
def sheets(played: Campaign, aussie: Any) -> list[Battle]:
    """Battles of every kind the sheet prints: Korona fought (the played campaign), and
    waiting for the table (a result box) under Korona and under Force on Force with the
    Old Breed options on (the longest rules)."""
    battles = list(Battle.objects.filter(campaign=played).order_by("id"))
    for ruleset, extra in (
        ("korona", {}),
        ("force_on_force", {"combat_events": True, "fog_of_war_cup": True}),
    ):
        campaign = create_campaign(data=meeting_doc(), name=f"On the table, {ruleset}", seed=3)
        settings = dataclasses.replace(
            campaign.get_settings(), battle_mode="tabletop", ruleset=ruleset, **extra
        )
        campaign.set_settings(settings)
        campaign.save()
        advance_turn(campaign_id=campaign.pk)
        join(aussie, campaign, "australian")
        battles += list(Battle.objects.filter(campaign=campaign, status="pending"))
    # The largest battle: every Japanese fighting company against A and B Company.
    doc = meeting_doc()
    for company in doc["companies"]:
        if company["name"] == "3rd Company":
            company["area"] = "Korona"
    campaign = create_campaign(data=doc, name="Korona, every company", seed=3)
    campaign.set_settings(dataclasses.replace(campaign.get_settings(), battle_mode="tabletop"))
    campaign.save()
    advance_turn(campaign_id=campaign.pk)
    join(aussie, campaign, "australian")
    largest = max(
        Battle.objects.filter(campaign=campaign),
        key=lambda b: b.attackers.count() + b.defenders.count(),
    )
    assert largest.attackers.count() + largest.defenders.count() >= 3
    return [*battles, largest]


def test_every_battle_sheet_prints_on_two_a4_pages_at_most_with_its_key(
    sheets: list[Battle], aussie: Any, signed_in: Any, live_server: Any, shot: Any
) -> None:
    page = signed_in(aussie)
    battles = sheets
    assert len({b.status for b in battles}) == 2 and len({b.ruleset for b in battles}) == 2
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for battle in battles:
        page.set_viewport_size({"width": 1000, "height": 1400})
        page.goto(live_server.url + reverse("battle-sheet", args=[battle.campaign_id, battle.pk]))
        page.emulate_media(media="print")
        shot(f"sheet-print-{battle.ruleset}-{battle.status}-{battle.pk}")
        # Nothing in the key is painted as a background: each swatch is an SVG.
        painted = page.eval_on_selector_all(
            ".sheet .legend, .sheet .legend *",
            """els => els.filter(el => { const s = getComputedStyle(el);
                return s.backgroundImage !== 'none' || s.backgroundColor !== 'rgba(0, 0, 0, 0)';
            }).length""",
        )
        assert painted == 0
        keys = page.locator(".sheet .legend li svg.key")
        assert keys.count() == 10  # eight grounds, light and heavy woods
        for background in (False, True):
            pdf = page.pdf(format="A4", print_background=background)
            pages = pdf_pages(pdf)
            assert 1 <= pages <= 2, (battle.pk, background, pages)
            (ARTIFACTS / f"sheet-{battle.pk}-{'bg' if background else 'plain'}.pdf").write_bytes(
                pdf
            )
        # Without background graphics the key still prints: a ground that is on no
        # square of this table is painted in the PDF by the key alone.
        on_table = set(
            page.eval_on_selector_all(
                "#sheet-field rect.cell", "cells => cells.map(c => getComputedStyle(c).fill)"
            )
        )
        colours = pdf_fill_colours(page.pdf(format="A4", print_background=False))
        absent = [
            colour
            for colour in GROUNDS.values()
            if "rgb({}, {}, {})".format(*(int(colour[i : i + 2], 16) for i in (1, 3, 5)))
            not in on_table
        ]
        assert absent, "every ground is on this table: the test proves nothing"
        assert set(absent) <= colours, (battle.pk, set(absent) - colours, sorted(colours))
        page.emulate_media(media="screen")
    page.emulate_media(media="print")
    shot("sheet-print-last")
