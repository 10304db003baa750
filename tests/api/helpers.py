"""Small helpers of the API tests: row ids by name, and URLs under a campaign."""

from __future__ import annotations

from campaign.models import Area, Campaign, Company


def company_id(of: Campaign, name: str) -> int:
    return Company.objects.get(campaign=of, name=name).pk


def area_id(of: Campaign, name: str) -> int:
    return Area.objects.get(campaign=of, name=name).pk


def url(of: Campaign, rest: str = "") -> str:
    return f"/api/campaigns/{of.pk}/{rest}"
