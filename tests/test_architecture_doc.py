"""docs/architecture.md's diagrams are drawn from the code (tools/architecture.py): the
import graph from grimp, the turn's phases from rules.campaign.turn's phase tables. A
change to either without redrawing them fails here."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]


def load_tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "architecture_under_test", ROOT / "tools/architecture.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


tool = load_tool()


def test_the_docs_diagrams_are_those_the_code_draws() -> None:
    doc = (ROOT / "docs/architecture.md").read_text(encoding="utf-8")
    assert tool.with_diagrams(doc, tool.diagrams()) == doc, (
        "docs/architecture.md's diagrams are stale: run python tools/architecture.py"
    )


def test_a_new_import_between_parts_is_a_new_arrow() -> None:
    pairs = [("campaign.services.turns", "rules.campaign.turn")]
    before = tool.import_diagram(pairs)
    after = tool.import_diagram([*pairs, ("rules.campaign.turn", "campaign.models")])
    assert "    rules_campaign --> models" in after
    assert "    rules_campaign --> models" not in before
    assert "    services --> rules_campaign" in before


def test_imports_within_a_part_and_from_migrations_draw_no_arrow() -> None:
    labels, edges = tool.import_edges(
        [
            ("campaign.web.orders", "campaign.api.views"),  # both ways in
            ("campaign.migrations.0001_initial", "rules.units"),
            ("rules.campaign.phases.supply", "rules.campaign.phases.common"),
        ]
    )
    assert edges == set()
    assert set(labels) == {"ways_in", "rules_campaign"}


def test_a_module_in_no_part_gets_its_packages_part_not_dropped() -> None:
    labels, edges = tool.import_edges([("campaign.brand_new", "campaign.services.turns")])
    assert edges == {("campaign_other", "services")}
    assert labels["campaign_other"] == "campaign (other)"


def test_a_phase_added_to_the_table_is_drawn(monkeypatch: pytest.MonkeyPatch) -> None:
    from rules.campaign import turn

    def weather_phase(_: object) -> None: ...

    monkeypatch.setattr(turn, "START_PHASES", (*turn.START_PHASES, ("weather", weather_phase)))
    drawn = "\n".join(tool.phase_diagram())
    assert f's{len(turn.START_PHASES) - 1}["weather<br/>' in drawn
    last = len(turn.START_PHASES) - 1
    assert f"s{last - 1} --> s{last}" in drawn


def test_the_check_fails_on_a_stale_doc_and_says_how_to_redraw(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = tmp_path / "architecture.md"
    doc.write_text(f"# Title\n\n{tool.BEGIN}\nan old drawing\n{tool.END}\n\nProse.\n")
    monkeypatch.setattr(tool, "DOC", doc)
    monkeypatch.setattr(tool, "ROOT", tmp_path)
    assert tool.main(["--check"]) == 1
    assert "run python tools/architecture.py" in capsys.readouterr().err
    assert tool.main([]) == 0  # redrawn, the prose around it kept
    assert tool.main(["--check"]) == 0
    text = doc.read_text()
    assert text.startswith("# Title\n\n") and text.endswith("\n\nProse.\n")
    assert "an old drawing" not in text
