"""Pages for the ways in that used to be bare: GET on the sign-out address, a page that
does not exist, a server error; each says what happened and gives a way back."""

from __future__ import annotations

from typing import Any

import pytest
from django.http import HttpRequest, HttpResponse
from django.urls import include, path

from tests.web.conftest import PASSWORD

pytestmark = pytest.mark.django_db(transaction=True)


def boom(request: HttpRequest) -> HttpResponse:
    raise RuntimeError("a bug")


urlpatterns = [path("boom/", boom), path("", include("config.urls"))]

SIZES = [(1280, 800), (390, 844)]


def sign_in(page: Any, live_server: Any, size: tuple[int, int]) -> str:
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", "aussie")
    page.fill("#id_password", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url("**/campaigns/")
    return "desktop" if size[0] > 600 else "phone"


@pytest.mark.parametrize("size", SIZES, ids=["desktop", "phone"])
def test_get_on_logout_asks_and_signs_nobody_out(
    page: Any, live_server: Any, aussie: Any, shot: Any, size: tuple[int, int]
) -> None:
    tag = sign_in(page, live_server, size)
    response = page.goto(f"{live_server.url}/accounts/logout/")
    assert response.status == 200
    assert page.locator("h1").text_content() == "Sign out?"
    shot(f"logout-get-{tag}")
    page.goto(f"{live_server.url}/campaigns/")  # still signed in
    assert "/accounts/login/" not in page.url
    page.goto(f"{live_server.url}/accounts/logout/")
    page.click("main button[type=submit]")
    page.wait_for_url("**/accounts/login/**")
    page.goto(f"{live_server.url}/accounts/logout/")
    assert page.locator("h1").text_content() == "You are signed out"


@pytest.mark.parametrize("size", SIZES, ids=["desktop", "phone"])
def test_not_found_and_server_error_pages_give_a_way_back(
    page: Any, live_server: Any, aussie: Any, shot: Any, settings: Any, size: tuple[int, int]
) -> None:
    tag = sign_in(page, live_server, size)
    response = page.goto(f"{live_server.url}/campaigns/999999/")
    assert response.status == 404
    assert page.locator("h1").text_content() == "There is nothing here"
    shot(f"not-found-{tag}")
    page.click("text=Back to your campaigns")
    page.wait_for_url("**/campaigns/")

    settings.ROOT_URLCONF = __name__
    response = page.goto(f"{live_server.url}/boom/")
    assert response.status == 500
    assert page.locator("h1").text_content() == "Something went wrong"
    shot(f"server-error-{tag}")
    page.click("text=Back to your campaigns")
    page.wait_for_url("**/campaigns/")
