"""Player-facing words in templates, through the one naming helper (``rules.names``)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django import template

from rules.names import aircraft, area_vegetation, article, join, ordinal, side_adjective

register = template.Library()


@register.filter
def a_company_of(side: str, kind: str) -> str:
    """``{{ side|a_company_of:kind }}``: 'an Australian fighting company', 'a Japanese
    fighting company' (a glimpse's words: its side and kind, never its name)."""
    return article(f"{side_adjective(side)} {kind} company")


@register.filter
def vegetation(key: str) -> str:
    """``{{ area.vegetation|vegetation }}``: 'light' -> 'light woods' (as a battle's
    heading says it)."""
    return area_vegetation(key)


@register.filter
def and_list(items: Iterable[object]) -> str:
    """``{{ names|and_list }}``: 'A Company', 'A Company and B Company', 'A Company, B
    Company and C Company' (``|join:" and "`` read "A and B and C")."""
    return join(str(item) for item in items)


@register.filter
def planes(group: Any) -> str:
    """``{{ group|planes }}``: an air group's planes, a kind with none left out."""
    return aircraft(int(group.buffalos), int(group.bombers))


@register.filter(name="ordinal")
def ordinal_words(number: int) -> str:
    """``{{ 5|ordinal }}``: '5th'; '1st', '2nd', '22nd'."""
    return ordinal(int(number))
