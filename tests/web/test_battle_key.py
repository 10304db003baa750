"""The key beside a battle's picture names its grounds and woods as the rules name them
(``rules.names``), built from those names, so it cannot drift from the set-up's terrain
rolls and the squares' titles."""

from __future__ import annotations

import re

import pytest
from django.template.loader import render_to_string

from rules import names


def key_names(html: str) -> list[str]:
    return re.findall(r"</svg>([^<]*)</li>", html)


def test_the_key_names_every_ground_and_woods_in_the_rules_order() -> None:
    grounds = list(names.LANDFORM_NAMES.values())
    woods = [names.vegetation("light_woods"), names.vegetation("heavy_woods")]
    assert key_names(render_to_string("battles/_legend.html", {})) == grounds + woods


@pytest.mark.parametrize("landform", ["river_creek", "mud_rocks_swamp", "steep_high_ridge"])
def test_the_key_names_a_ground_as_the_set_ups_terrain_roll_does(landform: str) -> None:
    """Moved from tests/rules/test_narrate.py, which read the template's text: the walk-
    through's set-up said "mud rocks swamp" where the key says "mud/rocks/swamp"."""
    named = names.landform(landform)
    assert named == names.LANDFORM_NAMES[landform]  # the narration's words (test_narrate)
    assert f"</svg>{named}</li>" in render_to_string("battles/_legend.html", {})


def test_the_key_follows_a_renamed_ground(monkeypatch: pytest.MonkeyPatch) -> None:
    """Typed by hand, the key kept its old words when a name changed."""
    monkeypatch.setitem(names.LANDFORM_NAMES, "mud_rocks_swamp", "swamp")
    monkeypatch.setitem(names.VEGETATION_NAMES, "heavy_woods", "dense woods")
    html = render_to_string("battles/_legend.html", {})
    assert '<rect width="10" height="10" fill="#8e9a63"/></svg>swamp</li>' in html
    assert "</svg>dense woods</li>" in html


def test_the_key_draws_the_counters_only_when_asked() -> None:
    assert "pinned" not in render_to_string("battles/_legend.html", {"counters": None})
    assert "</svg>pinned</li>" in render_to_string("battles/_legend.html", {"counters": [1]})
