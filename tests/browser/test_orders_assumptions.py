"""The orders page in a real browser, phone and desktop, with an attack planned by two
companies from different areas: "Planned battles" and both cards say the odds assume each
company passes its supply roll, and the page's title is its largest heading ("Planned
battles" was drawn larger than "Orders for turn 1")."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.core.cache import cache

from campaign.models import Membership
from campaign.services import odds, planning
from campaign.services.scenarios import create_campaign
from campaign.services.turns import give_order
from tests.browser.conftest import ARTIFACTS
from tests.campaign.conftest import korona_doc

pytestmark = pytest.mark.django_db(transaction=True)

HEADINGS = """() => {
  const size = el => parseFloat(getComputedStyle(el).fontSize);
  const title = document.querySelector('h1');
  return [size(title),
          [...document.querySelectorAll('main h2, main h3, h2, h3')]
            .filter(el => el.offsetParent !== null)
            .map(el => [el.innerText.trim(), size(el)])];
}"""


LINES = """el => {
  const style = getComputedStyle(el);
  const inner = el.clientHeight - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom);
  return Math.round(inner / parseFloat(style.lineHeight === 'normal'
    ? parseFloat(style.fontSize) * 1.2 : style.lineHeight));
}"""


@pytest.fixture
def two_areas(
    settings: Any, monkeypatch: pytest.MonkeyPatch, django_user_model: Any
) -> Iterator[Any]:
    """A Company (in Korona) and C Company (moved to Munara) both advance into Oivi."""
    cache.clear()
    settings.KORONA_ODDS_BACKEND = "pool"
    monkeypatch.setattr(planning, "ODDS_RUNS", 40)  # the page's words, not its 1,000
    monkeypatch.setattr(planning, "ODDS_CHUNK", 20)
    doc = korona_doc()
    for company in doc["companies"]:
        if company["name"] == "C Company (militia)":
            company["area"] = "Munara"
    campaign = create_campaign(data=doc, name="Korona", seed=5)
    aussie = django_user_model.objects.create_user("aussie", password="a long password")
    Membership.objects.create(user=aussie, campaign=campaign, side="australian")
    oivi = campaign.areas.get(name="Oivi")
    for name in ("A Company", "C Company (militia)"):
        give_order(
            company=campaign.companies.get(name=name),
            kind="advance",
            target=oivi,
            side="australian",
        )
    try:
        yield campaign, aussie
    finally:
        odds.shutdown()


@pytest.mark.parametrize(
    "screen", [("phone", 390, 844), ("desktop", 1280, 900)], ids=lambda s: s[0]
)
def test_an_attack_from_two_areas_says_it_waits_on_both_supply_rolls(
    two_areas: tuple[Any, Any],
    signed_in: Any,
    live_server: Any,
    shot: Any,
    screen: tuple[str, int, int],
) -> None:
    campaign, aussie = two_areas
    name, width, height = screen
    page = signed_in(aussie)
    page.set_viewport_size({"width": width, "height": height})
    page.goto(f"{live_server.url}/campaigns/{campaign.pk}/orders/")
    planned = page.locator("#planned-battles")
    page.wait_for_function(
        "() => !document.querySelector('#planned-battles .take-chance').innerText"
        ".includes('being worked out')",
        timeout=240_000,
    )
    text = planned.inner_text()
    assert "If both A Company and C Company (militia) arrive, chance you take Oivi:" in text
    assert "100–100" not in text
    assert (
        "These odds assume A Company and C Company (militia) arrive: each advances only if "
        "its supply roll at the start of the turn puts it in supply (4 or more on the d6 for "
        "A Company, 5 or more for C Company (militia); a chance of 1 in 6 that both pass)"
    ) in text
    for company in ("A Company", "C Company (militia)"):
        pk = campaign.companies.get(name=company).pk
        assert "Only if A Company and C Company (militia) pass their supply rolls" in (
            page.locator(f"#company-{pk} .odds").inner_text()
        )
        # Short on a phone too: each company's need (under "Planned battles") made it five
        # lines of the card's width; the chance that both pass, four.
        caveat = page.locator(f"#company-{pk} .odds .supply-caveat")
        assert page.evaluate(LINES, caveat.element_handle()) <= 4
    a = campaign.companies.get(name="A Company").pk
    page.locator(f"#company-{a}").screenshot(
        path=str(ARTIFACTS / f"orders-supply-assumed-{name}-card.png")
    )
    title, headings = page.evaluate(HEADINGS)
    assert any(words.startswith("Planned battles") for words, _ in headings)
    assert all(size < title for _, size in headings), (title, headings)
    shot(f"orders-supply-assumed-{name}")
    # The page's head and "Planned battles" alone, to read on a phone's width.
    page.screenshot(
        path=str(ARTIFACTS / f"orders-supply-assumed-{name}-top.png"),
        full_page=True,
        clip={"x": 0, "y": 0, "width": width, "height": 1000},
    )
