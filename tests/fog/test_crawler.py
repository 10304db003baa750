"""The crawler itself: every route of the URL conf, a new one without editing the test,
and a loud failure for a parameter it cannot fill."""

from __future__ import annotations

import pytest
from django.test import override_settings
from django.urls import Resolver404, resolve

from tests.fog.crawl import (
    Ids,
    UnfilledParameter,
    normalise,
    normalise_commitments,
    query_parameters,
    requests_for,
    url_patterns,
)

IDS = Ids(
    campaign=1,
    areas=[1, 2],
    companies=[3, 4],
    turns=[1, 2],
    battles=[5],
    orders=[6],
    sides=["australian", "japanese"],
    names=["A Company"],
    tokens=["t"],
)


def test_every_route_of_the_url_conf_is_crawled() -> None:
    routes = url_patterns()
    assert len(routes) > 150  # the admin's, the API's and the pages'
    crawled: set[str] = set()
    for request in requests_for(IDS, routes):
        try:
            match = resolve(request.path)
        except Resolver404:
            continue
        crawled.add(match.route)
    missing = {r.text for r in routes} - crawled
    # Django's admin writes its app index as a regex route: resolve() names it so too.
    assert not {m for m in missing if "(?P<" not in m and "^" not in m}, missing


def test_ids_fill_the_routes_that_take_them() -> None:
    paths = {request.path for request in requests_for(IDS)}
    assert "/campaigns/1/areas/2/" in paths
    assert "/api/campaigns/1/companies/4/" in paths
    assert "/api/campaigns/1/turns/2/" in paths
    assert "/campaigns/1/battles/5/sheet/" in paths
    assert "/api/campaigns/1/orders/6/" in paths
    assert "/campaigns/1/orders/3/" in paths


def test_variants_and_query_parameters() -> None:
    labels = {request.label for request in requests_for(IDS)}
    assert "GET /campaigns/1/ [htmx]" in labels
    assert "GET /api/campaigns/1/areas/?format=api" in labels
    assert "GET /api/campaigns/1/areas/?controller=japanese" in labels
    assert "GET /api/campaigns/1/companies/?in_supply=false" in labels
    assert "GET /campaigns/1/map/live/?seen=t" in labels
    assert "GET /campaigns/1/orders/?side=japanese" in labels
    assert "GET /campaigns/1/orders/area/1/odds/?cards=3,4" in labels
    assert "OPTIONS /api/campaigns/1/orders/6/" in labels
    company_list = next(r for r in url_patterns() if r.name == "company-list")
    assert {"quality", "in_supply", "strength_band", "ordering", "page"} <= set(
        query_parameters(company_list)
    )


@override_settings(ROOT_URLCONF="tests.fog.urlconf_campaign_page")
def test_a_new_route_is_crawled_without_editing_the_test() -> None:
    paths = {request.path for request in requests_for(IDS)}
    assert "/campaigns/1/extra/" in paths


@override_settings(ROOT_URLCONF="tests.fog.urlconf_unknown_parameter")
def test_a_parameter_the_crawler_cannot_fill_fails_loudly() -> None:
    with pytest.raises(UnfilledParameter, match="widget_id"):
        requests_for(IDS)


def test_only_csrf_tokens_are_normalised() -> None:
    token = b"a" * 32 + b"B" * 32
    page = b'<input type="hidden" name="csrfmiddlewaretoken" value="' + token + b'">'
    assert normalise(page) == b'<input type="hidden" name="csrfmiddlewaretoken" value="<csrf>">'
    header = b'hx-headers=\'{"X-CSRFToken": "' + token + b"\"}'"
    assert token not in normalise(header)
    assert normalise(b'"seed": "' + token + b'"') == b'"seed": "' + token + b'"'


def test_only_the_twins_own_commitment_digests_are_normalised() -> None:
    ours, branch, other = "ab" * 32, "cd" * 32, "ef" * 32
    digests = {ours: "<commitment of turn 2>", branch: "<commitment of turn 2, public>"}
    seen = {
        "page": f"<code>{ours}</code> {branch} {other} {ours[:16]}...".encode(),
        "api": f'{{"commitment": "{ours}", "salt": "{other}"}}'.encode(),
    }
    assert normalise_commitments(seen, digests) == {
        "page": f"<code><commitment of turn 2></code> <commitment of turn 2, public> {other} "
        f"{ours[:16]}...".encode(),
        "api": f'{{"commitment": "<commitment of turn 2>", "salt": "{other}"}}'.encode(),
    }
    assert normalise_commitments(seen, {}) == seen
