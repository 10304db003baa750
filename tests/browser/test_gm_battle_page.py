"""A tabletop battle's page in the GM's admin, in a real browser: "Fight it now (auto)"
is a round pill as the tools beside it (it was a square button among them)."""

from __future__ import annotations

from typing import Any

import pytest

from battles.models import Battle
from battles.services.results import enter_battle_result
from tests.admin.conftest import waiting_campaign
from tests.browser.test_safe_defaults import SIZES, sign_in

pytestmark = pytest.mark.django_db(transaction=True)

STYLE = """el => { const s = getComputedStyle(el); return {radius: s.borderTopLeftRadius,
  transform: s.textTransform, size: s.fontSize, height: el.getBoundingClientRect().height}; }"""


@pytest.mark.parametrize("size", SIZES, ids=["desktop", "phone"])
def test_fight_it_now_is_a_pill_among_the_pills(
    page: Any, live_server: Any, django_user_model: Any, shot: Any, size: tuple[int, int]
) -> None:
    tag = sign_in(page, live_server, django_user_model, size)
    _, battles = waiting_campaign()
    battle = next(iter(battles.values()))
    page.goto(f"{live_server.url}/admin/battles/battle/{battle.pk}/change/")
    shot(f"battle-page-pending-{tag}")
    fight = page.locator(".object-tools input[type=submit]").evaluate(STYLE)
    report = page.locator(".object-tools a", has_text="Report").evaluate(STYLE)
    assert fight["radius"] == report["radius"] == "15px"
    assert fight["transform"] == report["transform"] == "uppercase"
    assert fight["size"] == report["size"]
    assert abs(fight["height"] - report["height"]) <= 4, (fight, report)


# The title's box, the part of its text the page shows (an h1 narrower than its words
# cuts them, and a tool floated over it hides them), and each tool's box.
_TITLE_AND_TOOLS = """() => {
    const h1 = document.querySelector('#content h1');
    const range = document.createRange();
    range.selectNodeContents(h1);
    const box = r => ({x: r.left, y: r.top, width: r.width, height: r.height});
    return {
        title: box(h1.getBoundingClientRect()),
        words: box(range.getBoundingClientRect()),
        cut: h1.scrollWidth > h1.clientWidth + 1,
        tools: [...document.querySelectorAll('.object-tools li')].map(
            li => ({name: li.innerText.trim(), ...box(li.getBoundingClientRect())})),
    };
}"""

WIDTHS = [(1280, 800), (1024, 768), (390, 844)]


def assert_title_whole_and_clear_of_tools(page: Any, width: int) -> None:
    """The page's title is read whole, within the screen, and no tool lies on it."""
    seen = page.evaluate(_TITLE_AND_TOOLS)
    assert seen["tools"], "the page has its tools"
    assert not seen["cut"], seen["title"]
    words = seen["words"]
    assert words["x"] >= 0 and words["x"] + words["width"] <= width + 0.5, words
    for tool in seen["tools"]:
        for box in (seen["title"], words):
            assert not overlap(tool, box), (tool["name"], box)


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["x"] < b["x"] + b["width"]
        and b["x"] < a["x"] + a["width"]
        and a["y"] < b["y"] + b["height"]
        and b["y"] < a["y"] + a["height"]
    )


@pytest.mark.parametrize("size", WIDTHS, ids=["1280", "1024", "phone"])
def test_the_battles_title_is_whole_beside_or_above_its_tools(
    page: Any, live_server: Any, django_user_model: Any, shot: Any, size: tuple[int, int]
) -> None:
    """A walk-through read "Battle: Table Night, turn 1: battle 2 a" at 1280 px: the
    tools (Report, Battle sheet, Enter result, Fight it now, History) lay on the rest."""
    sign_in(page, live_server, django_user_model, size)
    _, battles = waiting_campaign("Table Night")
    battle = next(iter(battles.values()))
    page.goto(f"{live_server.url}/admin/battles/battle/{battle.pk}/change/")
    shot(f"battle-page-title-{size[0]}")
    assert page.locator(".object-tools li").count() == 5
    assert_title_whole_and_clear_of_tools(page, size[0])
    assert page.evaluate("document.documentElement.scrollWidth") <= size[0]


@pytest.mark.parametrize("size", SIZES, ids=["desktop", "phone"])
def test_the_result_forms_loss_boxes_are_all_one_height(
    page: Any, live_server: Any, django_user_model: Any, shot: Any, size: tuple[int, int]
) -> None:
    """The defender's boxes stretched to their labels of three lines, twice the height of
    the attacker's (a walk-through, gm-16): each box keeps its own height."""
    tag = sign_in(page, live_server, django_user_model, size)
    _, battles = waiting_campaign()
    battle = next(iter(battles.values()))
    page.goto(f"{live_server.url}/admin/battles/battle/{battle.pk}/result/")
    shot(f"battle-result-form-{tag}")
    boxes = page.locator("input[type=number]")
    heights = boxes.evaluate_all("els => els.map(el => el.getBoundingClientRect().height)")
    labels = page.locator(".form-row label").evaluate_all(
        "els => els.map(el => el.getBoundingClientRect().height)"
    )
    assert len(heights) >= 4, heights
    # Labels of differing lines, or the test proves nothing.
    assert max(labels) > 1.5 * min(labels), labels
    assert max(heights) - min(heights) <= 1, heights


@pytest.mark.parametrize("size", SIZES, ids=["desktop", "phone"])
def test_correct_the_result_from_the_battles_page(
    page: Any, live_server: Any, django_user_model: Any, shot: Any, size: tuple[int, int]
) -> None:
    """A complete turn's tabletop result corrected as the GM does it: the battle's tool,
    the form filled in with the result entered, the result in words, then corrected."""
    tag = sign_in(page, live_server, django_user_model, size)
    _, battles = waiting_campaign()
    for each in battles.values():
        enter_battle_result(battle_id=each.pk, winner="defender", losses={})
    battle = battles["1:Korona:2"]
    page.goto(f"{live_server.url}/admin/battles/battle/{battle.pk}/change/")
    shot(f"battle-page-correctable-{tag}")
    page.locator(".object-tools a", has_text="Correct the result").click()
    assert page.locator("select[name=winner]").input_value() == "defender"
    shot(f"correct-result-form-{tag}")
    page.select_option("select[name=winner]", "attacker")
    page.fill("input[name=defender__rifle_squad]", "3")
    page.fill("textarea[name=reason]", "the winner was typed wrong")
    page.locator("input[type=submit][value='Correct the result']").click()
    assert page.get_by_text("Nothing is corrected yet").is_visible()
    shot(f"correct-result-check-{tag}")
    page.locator("input[type=submit][value='Correct the result']").click()
    said = page.locator(".messagelist").inner_text()
    assert "was corrected; turn 1 was played again with the same dice" in said
    shot(f"correct-result-done-{tag}")
    assert Battle.objects.get(pk=battle.pk).result["winner"] == "attacker"
