"""The settings in the GM's words (campaign.settings_doc): every setting labelled,
explained, in one group and with its rule quoted word for word; a change said in words."""

from __future__ import annotations

import html
import re
import subprocess
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from campaign.models import GmAdjustment
from campaign.services.visibility import open_campaign
from campaign.settings_doc import (
    DOCS,
    FACE_QUOTES,
    GROUPS,
    LANDFORM_QUOTES,
    SOURCE_FILES,
    adjustment_what,
    change_words,
    value_words,
)
from rules.campaign.scenario import SETTING_NAMES, settings_to_json
from rules.campaign.state import Settings
from tests.admin.conftest import new_campaign


def shared_texts() -> Path | None:
    """The rulings and their sources: ``shared/`` beside the main checkout (README:
    ``../shared/korona-rulings.md``), or None where this checkout has none."""
    top = Path(__file__).resolve().parents[2]
    candidates = [top.parent / "shared"]
    common = subprocess.run(
        ["git", "-C", str(top), "rev-parse", "--path-format=absolute", "--git-common-dir"],
        capture_output=True,
        text=True,
        check=False,
    ).stdout.strip()
    if common:
        candidates.append(Path(common).parent.parent / "shared")
    return next((c for c in candidates if (c / "korona-rulings.md").exists()), None)


def test_every_setting_has_its_words_and_one_place_on_the_page() -> None:
    assert set(DOCS) == set(SETTING_NAMES)
    placed = [key for _, _, keys in GROUPS for key in keys]
    assert sorted(placed) == sorted(SETTING_NAMES)
    for key, doc in DOCS.items():
        assert doc.label and doc.explain, key
        assert doc.quotes or doc.no_rule, f"{key} quotes no rule and says none applies"
        assert "_" not in doc.label + doc.explain, key


def test_every_quote_is_word_for_word_in_its_source() -> None:
    shared = shared_texts()
    if shared is None:
        pytest.skip("no ../shared/ beside this checkout: the rulings are not here to read")

    def flat(text: str) -> str:
        return re.sub(r"\s+", " ", text)

    sources = {name: flat((shared / path).read_text()) for name, path in SOURCE_FILES.items()}
    quotes = [(q.source, q.text) for doc in DOCS.values() for q in doc.quotes]
    quotes += [("Korona campaign rules", text) for t in FACE_QUOTES.values() for text in t.values()]
    quotes += [("Korona rulings", text) for text in LANDFORM_QUOTES.values()]
    missing = [text for source, text in quotes if flat(text) not in sources[source]]
    assert missing == []


def test_every_quote_reads_as_a_sentence() -> None:
    """A quote that begins mid-sentence ("roll d10: 1 the firer's side rolls ...", "a
    side's extra companies join ...") read as a fragment: each begins as its source's
    sentence does, with a capital, or our words lead into it (``Quote.lead``)."""
    fragments = [
        q.text
        for doc in DOCS.values()
        for q in doc.quotes
        if not q.lead and not (q.text[0].isupper() or q.text[0] == '"')
    ]
    assert fragments == []


def test_a_table_change_names_the_table_and_the_face_in_words() -> None:
    before = settings_to_json(Settings())
    after = settings_to_json(Settings())
    after["aerial_table"]["3"] = {"effect": "none", "text": "The Buffalos stay."}
    after["japanese_event_table"]["6"] = {"effect": "sniper_shot"}
    assert change_words(before, after) == (
        "Settings changed. Japanese Event Table: face 6: a sniper of the rolling side fires "
        "once and vanishes. Aerial event table: face 3: The Buffalos stay."
    )
    assert change_words(before, before) == ""


def test_a_setting_holding_a_map_is_said_without_its_keys() -> None:
    """A setting that maps keys to values (a landform's going, say) reads as words."""
    assert value_words("landform_going", {"steep_high_ridge": "rough", "river_creek": "bad"}) == (
        "steep high ridge rough and river/creek bad"
    )
    assert value_words("landform_going", {}) == "as the rulings say"


@pytest.mark.django_db
def test_an_old_settings_line_is_read_in_words_by_the_players(django_user_model: Any) -> None:
    """A line written before the settings were said in words ('settings changed:
    battle_mode') keeps its values in its details: the log says them in words."""
    aussie = django_user_model.objects.create_user("aussie", "a@example.com", "pw")
    campaign = new_campaign()
    row = GmAdjustment.objects.create(
        campaign=campaign,
        before_turn=1,
        what="settings changed: battle_mode, ruleset",
        reason="we play at the club",
        details={
            "before": {"battle_mode": "auto", "ruleset": "korona"},
            "after": {"battle_mode": "tabletop", "ruleset": "force_on_force"},
        },
    )
    campaign.memberships.create(user=aussie, side="australian")
    [line] = open_campaign(user=aussie, campaign=campaign).adjustments()
    assert line.what == (
        "Settings changed. How battles are fought: fought on the table (the game master "
        "enters each result) (before: fought by the rules at once). Rule set of the "
        "battles: Force on Force (before: Korona (WWII in the Pacific))."
    )
    assert adjustment_what(row.what, row.details) == line.what
    assert adjustment_what("A Company: rifle squads from 6 to 4", {}) == (
        "A Company: rifle squads from 6 to 4"
    )


@pytest.mark.django_db
def test_the_roll_back_page_says_an_old_settings_line_in_words() -> None:
    from campaign.services.rollback import rollback_preview
    from campaign.services.turns import advance_turn

    campaign = new_campaign()
    advance_turn(campaign_id=campaign.pk)
    GmAdjustment.objects.create(
        campaign=campaign,
        before_turn=2,
        what="settings changed: fog_of_war",
        reason="open play",
        details={"before": {"fog_of_war": True}, "after": {"fog_of_war": False}},
    )
    assert rollback_preview(campaign=campaign, number=1)[-1] == (
        'Your change "Settings changed. Fog of war: off (before: on)." (open play): undone.'
    )


def test_a_faces_text_box_has_the_lines_its_words_take(gm: Any) -> None:
    """A walk-through read "... has had to depart" hidden on a two-line box's third line:
    where the box cannot grow to its words by itself (no CSS field-sizing), it has as
    many lines as its words take at some 40 letters a line (a phone's)."""
    campaign = new_campaign()
    settings = campaign.get_settings()
    long = "A convoy has been attacked at sea by aircraft and the ship has had to depart. " * 3
    table = {**settings.naval_table, 1: {**settings.naval_table[1], "text": long.strip()}}
    campaign.set_settings(replace(settings, naval_table=table))
    campaign.save(update_fields=["settings"])
    page = gm.get(f"/admin/campaign/campaign/{campaign.pk}/settings/").content.decode()
    rows = {
        face: int(found)
        for face, found in re.findall(
            r'<textarea name="naval_table__(\d)__text" [^>]*rows="(\d+)"', page
        )
    }
    assert rows["1"] * 40 >= len(long.strip()) > 80
    assert rows["2"] == 2  # a short line: two lines, as before


def test_the_going_of_each_landform_is_named_as_the_battle_pages_name_it() -> None:
    """The change log said "mud rocks swamp" and "river creek" where the settings page
    and the battle's key say "mud/rocks/swamp" and "river/creek"."""
    assert value_words("landform_going", {"mud_rocks_swamp": "bad", "river_creek": "bad"}) == (
        "mud/rocks/swamp bad and river/creek bad"
    )
    assert "Force on Force battles keep their own, with mud/rocks/swamp bad." in (
        DOCS["landform_going"].explain
    )


def test_the_going_settings_read_the_rules_names_of_the_landforms(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """One list of the landforms' names (rules.names), not a second one here to drift."""
    from campaign.forms import SettingFields
    from rules import names

    monkeypatch.setitem(names.LANDFORM_NAMES, "hill", "hillock")
    form = SettingFields()
    form.add_settings(("landform_going",), {"landform_going": {}}, areas=[], tracks=[])
    labels = {key: field.label for key, field in form.fields.items()}
    assert labels["landform_going__hill"] == "Going of hillock"
    assert labels["landform_going__mud_rocks_swamp"] == "Going of mud/rocks/swamp"
    assert value_words("landform_going", {"hill": "bad"}) == "hillock bad"


# The rulings' notes to the developers, which a walk-through read on the Settings page
# as rules: "(setting: the trigger number)", "ship original entries of our own".
DEVELOPERS_NOTES = ["(setting", "setting:", "(default", "a setting makes", "of our own", "GM"]


def test_the_settings_quote_no_note_to_the_developers_and_say_each_default() -> None:
    for key, doc in DOCS.items():
        said = [doc.explain, doc.no_rule, *(q.text for q in doc.quotes)]
        for note in DEVELOPERS_NOTES:
            assert not any(note in text for text in said), (key, note)
    defaults = {
        "table_width_ft": "Default: 3.",
        "table_depth_ft": "Default: 3.",
        "supply_replaces_battle_losses": "Default: on.",
        "naval_trigger": "Default: 6",
        "aerial_trigger": "Default: 6",
        "ship_absence_blocks_supply": "Default: off.",
    }
    for key, default in defaults.items():
        assert default in DOCS[key].explain, key


@pytest.mark.django_db
def test_an_event_table_is_quoted_whole_or_not_at_all(gm: Any) -> None:
    """The naval table's rule quoted only its faces 2 and 5 (a walk-through): each event
    table quotes the campaign rules' whole table, a face under each row, and nothing of
    it besides."""
    campaign = new_campaign()
    page = gm.get(f"/admin/campaign/campaign/{campaign.pk}/settings/").content.decode()
    for key, faces in FACE_QUOTES.items():
        assert sorted(faces) == [1, 2, 3, 4, 5, 6]
        assert not DOCS[key].quotes
        section = page.split(f'id="setting-{key}"')[1].split('id="setting-')[0]
        for face, quote in faces.items():
            rule = f"The rule for {face}:</span> <q>{html.escape(quote)}</q>"
            assert rule in section, (key, face)
        assert "The campaign rules&#x27; table is quoted below" in section


@pytest.mark.django_db
def test_a_ruling_is_labelled_as_koronas_not_by_a_section_of_a_file_the_gm_never_reads(
    gm: Any,
) -> None:
    """The book and the campaign rules are named with their section, where the GM can
    open them; a ruling was labelled "Korona rulings, §4", a section of the developers'
    rulings file: it reads "Korona's ruling", as what the program plays by."""
    campaign = new_campaign()
    page = gm.get(f"/admin/campaign/campaign/{campaign.pk}/settings/").content.decode()
    assert "Korona rulings" not in page and "§" not in page
    section = page.split('id="setting-tactical_turn_limit"')[1].split('id="setting-')[0]
    assert (
        '<span class="rule-source">Korona&#x27;s ruling:</span> <q>After 12 turns the side '
        "with the smaller fraction lost wins; a tie goes to the defender.</q>"
    ) in section
    supply = page.split('id="setting-out_of_supply_turns_before_losses"')[1]
    assert '<span class="rule-source">Korona campaign rules, 3) Company supply:</span>' in supply
    assert '<span class="rule-source">Old Breed South Pacific, 17.0:</span>' in page


def test_the_unentered_tabletop_help_says_a_battle_without_a_schedule_has_no_deadline() -> None:
    """The help spoke of "the next deadline" only: with no schedule a tabletop battle has
    none, and waits for the game master's result whichever is chosen."""
    assert DOCS["unentered_tabletop"].explain.endswith(
        "With no schedule there is no deadline: the battle waits for your result either way."
    )
