"""campaign.api.negotiation answers Accept */* (or none) without parsing it: the same
renderer and media type as DRF's own negotiation, for every header and format."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import BrowsableAPIRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.test import APIRequestFactory

from campaign.api.negotiation import ContentNegotiation

ACCEPTS = [
    None,
    "*/*",
    " */* ",
    "application/json",
    "text/html",
    "*/*;q=0.8",
    "text/html,*/*",
    "application/json; indent=4",
]


def answer(negotiation: Any, accept: str | None, query: str) -> Any:
    factory = APIRequestFactory()
    path = f"/api/campaigns/{query}"
    made = factory.get(path) if accept is None else factory.get(path, HTTP_ACCEPT=accept)
    request = Request(made)
    try:
        renderer, media_type = negotiation.select_renderer(
            request, [JSONRenderer(), BrowsableAPIRenderer()]
        )
    except Exception as refused:  # noqa: BLE001 - the refusal is compared too
        return type(refused)
    return type(renderer), media_type


@pytest.mark.parametrize("accept", ACCEPTS)
@pytest.mark.parametrize("query", ["", "?format=api", "?format=json"])
def test_the_same_answer_as_drf(accept: str | None, query: str) -> None:
    assert answer(ContentNegotiation(), accept, query) == answer(
        DefaultContentNegotiation(), accept, query
    )
