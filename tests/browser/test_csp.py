"""The Content-Security-Policy in a real browser: every players' page, the GM's admin,
the API's Swagger UI and browsable pages load and work under it, and Chromium reports no
violation (a blocked script, style, image or request) on any of them."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from battles.models import Battle
from campaign.models import Area, Campaign, Company
from campaign.services.scenarios import create_campaign
from campaign.services.turns import advance_turn
from tests.api.test_bad_input import addresses
from tests.web.conftest import PASSWORD, join, meeting_doc

pytestmark = pytest.mark.django_db(transaction=True)

# Recorded in the page before any of its own scripts run; the policy cannot block it.
LISTEN = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__violations.push(`${e.violatedDirective} blocked ${e.blockedURI || "inline"}`
    + ` at ${e.sourceFile || document.location.pathname}:${e.lineNumber}`);
});
window.print = () => { window.__printed = true; };
"""


@pytest.fixture
def korona(django_user_model: Any) -> Campaign:
    campaign = create_campaign(data=meeting_doc(), name="Korona under CSP", seed=7)
    advance_turn(campaign_id=campaign.pk)
    campaign.refresh_from_db()
    player = django_user_model.objects.create_user("aussie", "a@example.com", PASSWORD)
    join(player, campaign, "australian")
    django_user_model.objects.create_superuser("gm", "gm@example.com", PASSWORD)
    return campaign


class Watch:
    """A page whose CSP violations, from the console and from the event, are collected."""

    def __init__(self, page: Any, base: str) -> None:
        self.page, self.base = page, base
        self.console: list[str] = []
        self.checked: set[str] = set()
        page.add_init_script(LISTEN)
        page.on("console", self._console)

    def _console(self, message: Any) -> None:
        if "Content Security Policy" in message.text or "Content-Security-Policy" in message.text:
            self.console.append(message.text)

    def visit(self, path: str, *, only_pages: bool = False, settle: bool = True) -> None:
        """Open the page and check it. ``settle``: wait, too, until the page's own requests
        after it loaded (htmx's polls and first answers) have gone quiet ("network idle"), to
        check what they brought; an admin page makes none, so it is checked once loaded
        (``goto`` waits for the load event: every script, style and image asked for, each
        blocked one reported), and never waits for a quiet that a slow machine's admin list
        page did not reach in 60 s."""
        try:
            response = self._goto(path)
        except PlaywrightError:
            if only_pages:
                return  # an answer with no body to show (an empty 405, say)
            raise
        assert response is not None
        html = response.headers.get("content-type", "").startswith("text/html")
        if only_pages and (response.status != 200 or not html):
            return  # a redirect, a 404 or 405, JSON: not a page to check
        assert response.status == 200, (path, response.status)
        policy = response.headers.get("content-security-policy", "")
        assert "script-src 'self'" in policy and "'unsafe-eval'" not in policy, (path, policy)
        assert "'unsafe-inline'" not in policy.split("script-src", 1)[1].split(";")[0]
        if settle:
            self.page.wait_for_load_state("networkidle")
        self.check(path)
        self.checked.add(path)

    def _goto(self, path: str) -> Any:
        """Go to the page; once more if the error page of the last answer with no body (which
        Chromium shows a moment later) interrupted the navigation."""
        try:
            return self.page.goto(self.base + path)
        except PlaywrightError as error:
            if "interrupted by another navigation" not in str(error):
                raise
            self.page.wait_for_load_state("load")
            return self.page.goto(self.base + path)

    def check(self, where: str) -> None:
        violations = self.page.evaluate("window.__violations") + self.console
        assert violations == [], (where, violations)

    def sign_in(self, username: str, login: str = "/accounts/login/") -> None:
        self.visit(login, settle=False)
        self.page.fill("#id_username", username)
        self.page.fill("#id_password", PASSWORD)
        # Until the page signing in leads to has loaded (its load event): it is the one
        # checked here.
        with self.page.expect_navigation():
            self.page.locator("[type=submit]").first.click()
        self.check(login)


def test_the_players_pages_work_under_the_policy(
    page: Any, live_server: Any, korona: Campaign, shot: Any
) -> None:
    watch = Watch(page, live_server.url)
    watch.sign_in("aussie")
    c = korona.pk
    area = Area.objects.get(campaign=korona, name="Korona").pk
    company = Company.objects.get(campaign=korona, name="A Company").pk
    battle = Battle.objects.filter(turn__campaign=korona).order_by("pk").first()
    assert battle is not None
    for path in [
        "/campaigns/",
        f"/campaigns/{c}/",
        f"/campaigns/{c}/areas/{area}/",
        f"/campaigns/{c}/companies/{company}/",
        f"/campaigns/{c}/turns/",
        f"/campaigns/{c}/turns/1/",
        f"/campaigns/{c}/battles/",
        f"/campaigns/{c}/battles/{battle.pk}/",
        f"/campaigns/{c}/orders/",
    ]:
        watch.visit(path)
    shot("csp-1-orders")
    # And every other page in the URL conf (a new one is covered without editing this).
    for path in addresses(korona, bogus=False):
        if not path.startswith(("/api/", "/accounts/logout/")):
            watch.visit(path, only_pages=True)
    print(f"{len(watch.checked)} pages checked under the policy: {sorted(watch.checked)}")
    assert len(watch.checked) >= 10

    # The scripts run: the map's countdown ticks...
    watch.visit(f"/campaigns/{c}/")
    countdown = page.locator("[data-countdown]")
    if countdown.count():
        first = countdown.first.text_content()
        # Waits for the next tick (each second): a busy machine may run the timer late.
        expect(countdown.first).not_to_have_text(first or "")
    # ...htmx swaps a part of the orders page (mark the orders ready)...
    watch.visit(f"/campaigns/{c}/orders/")
    ready = page.locator("form[action$='/orders/ready/'] button").first
    if ready.count():
        ready.click()
        # The answer swapped in (the box says the side is ready), not only sent: checked
        # before it, the page had nothing new to break the policy with.
        page.locator("#ready li.side-australian", has_text="ready").locator("strong").wait_for()
        page.wait_for_load_state("networkidle")
        watch.check("orders: ready")
    # ...the battle report's replay steps, and the sheet's print button prints.
    watch.visit(f"/campaigns/{c}/battles/{battle.pk}/")
    watch.visit(f"/campaigns/{c}/battles/{battle.pk}/sheet/")
    page.locator("[data-print]").click()
    assert page.evaluate("window.__printed") is True
    watch.check("sheet: print")
    shot("csp-2-sheet")


def test_the_api_docs_and_browsable_api_work_under_the_policy(
    page: Any, live_server: Any, korona: Campaign, shot: Any
) -> None:
    watch = Watch(page, live_server.url)
    watch.sign_in("aussie")
    watch.visit("/api/docs/")
    # Swagger UI drew the operations from the schema: its start-up script ran.
    page.locator(".swagger-ui .opblock").first.wait_for()
    assert page.locator(".swagger-ui .opblock").count() >= 20
    page.locator(".swagger-ui .opblock-summary").first.click()
    page.wait_for_load_state("networkidle")
    watch.check("/api/docs/ (an operation opened)")
    shot("csp-3-swagger")
    # The bar above Swagger UI leads back to Korona's pages (it was a dead end).
    page.get_by_role("link", name="Back to your campaigns").click()
    page.wait_for_url(f"{live_server.url}/campaigns/**")
    watch.check("/api/docs/ → campaigns")
    watch.visit(f"/api/campaigns/{korona.pk}/?format=api")
    watch.visit(f"/api/campaigns/{korona.pk}/adjustments/?format=api")


def test_the_admin_works_under_the_policy(
    page: Any, live_server: Any, korona: Campaign, shot: Any
) -> None:
    watch = Watch(page, live_server.url)
    watch.sign_in("gm", login="/admin/login/")
    c = korona.pk
    for path in [
        "/admin/",
        "/admin/campaign/campaign/",
        f"/admin/campaign/campaign/{c}/change/",
        "/admin/campaign/campaign/create/",
        f"/admin/campaign/campaign/{c}/rollback/",  # htmx refreshes its preview
        "/admin/campaign/company/",
        "/admin/battles/battle/",
        "/admin/auth/user/add/",
    ]:
        watch.visit(path, settle=False)
    shot("csp-4-admin")
