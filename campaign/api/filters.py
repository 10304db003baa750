"""Query filters of the API lists. None of them may tell a player anything the fog of war
hides, so each filters only on what every viewer of a row may see.

Companies are filtered on the rows the ``CampaignView`` shows, on side, kind, area and
strength band (a glimpse shows all of these). ``name``, ``name_contains``, ``quality``,
``in_supply`` and ``standing_order`` are seen only in full (a glimpse has no name,
section 6), so they keep only companies the viewer sees in full whose value matches: a
glimpsed enemy is left out whatever its value, and the answer cannot depend on a hidden
one.
"""

from __future__ import annotations

from typing import Any

import django_filters
from django import forms
from django.db.models import QuerySet
from django_filters.rest_framework import DjangoFilterBackend
from drf_spectacular.utils import extend_schema_field

from campaign.models import Area, Campaign, Company, Order, Turn
from campaign.services.visibility import CampaignView
from rules.campaign.state import COMPANY_KINDS, SIDE_KEYS, STANDING_ORDERS
from rules.campaign.visibility import CompanyView
from rules.units import Quality

SIDES = [(key, key) for key in SIDE_KEYS]
# The largest row id and turn number a database column holds: a larger number is refused
# (400), not sent to the database to overflow there.
LARGEST = 2**31 - 1


@extend_schema_field({"type": "integer", "minimum": 0, "maximum": LARGEST})
class IntegerFilter(django_filters.NumberFilter):
    """A whole number from 0 to ``LARGEST``."""

    field_class = forms.IntegerField  # type: ignore[assignment]  # a whole number, not Decimal

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("min_value", 0)
        kwargs.setdefault("max_value", LARGEST)
        super().__init__(*args, **kwargs)


class CampaignFilterBackend(DjangoFilterBackend):
    """django-filter, handing the filter set the view's ``CampaignView`` when it has one."""

    def get_filterset_kwargs(self, request: Any, queryset: QuerySet, view: Any) -> dict[str, Any]:
        kwargs = super().get_filterset_kwargs(request, queryset, view)
        filterset_class = self.get_filterset_class(view, queryset)
        if filterset_class is not None and issubclass(filterset_class, ViewFilterSet):
            kwargs["campaign_view"] = view.campaign_view
        return kwargs


class ViewFilterSet(django_filters.FilterSet):
    def __init__(self, *args: Any, campaign_view: CampaignView | None = None, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.campaign_view = campaign_view


class CampaignFilter(django_filters.FilterSet):
    status = django_filters.ChoiceFilter(choices=Campaign.Status.choices)

    class Meta:
        model = Campaign
        fields = ["status"]


class AreaFilter(ViewFilterSet):
    zone = IntegerFilter()
    track = django_filters.CharFilter()
    vegetation = django_filters.CharFilter()
    # Control as the reader knows it (out of sight: as last seen), never the rows' own.
    controller = django_filters.ChoiceFilter(choices=SIDES, method="filter_controller")
    uncontrolled = django_filters.BooleanFilter(method="filter_uncontrolled")

    class Meta:
        model = Area
        fields = ["zone", "track", "vegetation"]

    def _areas_where(self, keep: Any) -> list[int]:
        view = self.campaign_view
        assert view is not None, "AreaFilter needs the CampaignView"
        return [view.ids.areas[n] for n, area in view.state.areas.items() if keep(area)]

    def filter_controller(self, queryset: QuerySet, name: str, value: str) -> QuerySet:
        return queryset.filter(pk__in=self._areas_where(lambda area: area.controller == value))

    def filter_uncontrolled(self, queryset: QuerySet, name: str, value: bool) -> QuerySet:
        return queryset.filter(
            pk__in=self._areas_where(lambda area: (area.controller is None) == value)
        )


def _ids_where(view: CampaignView, keep: Any) -> list[int]:
    return [pk for pk, company in view.listed() if keep(company)]


class CompanyFilter(ViewFilterSet):
    name = django_filters.CharFilter(
        method="filter_name", help_text="Exact name; only companies you see in full."
    )
    name_contains = django_filters.CharFilter(
        method="filter_name_contains", help_text="Only companies you see in full."
    )
    side = django_filters.ChoiceFilter(choices=SIDES)
    kind = django_filters.ChoiceFilter(choices=[(k, k) for k in COMPANY_KINDS])
    area = IntegerFilter(field_name="area_id", help_text="The area's id.")
    strength_band = django_filters.ChoiceFilter(
        choices=[(b, b) for b in ("weak", "average", "strong")], method="filter_band"
    )
    full = django_filters.BooleanFilter(method="filter_full", help_text="Seen in full or not.")
    quality = django_filters.ChoiceFilter(
        choices=[(str(q), str(q)) for q in Quality],
        method="filter_full_only",
        help_text="Only companies you see in full.",
    )
    in_supply = django_filters.BooleanFilter(
        method="filter_full_only", help_text="Only companies you see in full."
    )
    standing_order = django_filters.ChoiceFilter(
        choices=[(o, o) for o in STANDING_ORDERS],
        method="filter_full_only",
        help_text="Only companies you see in full.",
    )

    class Meta:
        model = Company
        fields = ["side", "kind", "area"]

    def _view(self) -> CampaignView:
        assert self.campaign_view is not None, "CompanyFilter needs the CampaignView"
        return self.campaign_view

    def filter_name(self, queryset: QuerySet, name: str, value: str) -> QuerySet:
        # Read from the view, and only from a full one: a glimpse has no name.
        view = self._view()
        return queryset.filter(pk__in=_ids_where(view, lambda c: c.full and c.name == value))

    def filter_name_contains(self, queryset: QuerySet, name: str, value: str) -> QuerySet:
        view = self._view()
        needle = value.casefold()
        return queryset.filter(
            pk__in=_ids_where(view, lambda c: c.full and needle in c.name.casefold())
        )

    def filter_band(self, queryset: QuerySet, name: str, value: str) -> QuerySet:
        view = self._view()
        return queryset.filter(pk__in=_ids_where(view, lambda c: c.strength_band == value))

    def filter_full(self, queryset: QuerySet, name: str, value: bool) -> QuerySet:
        view = self._view()
        return queryset.filter(pk__in=_ids_where(view, lambda c: c.full == value))

    def filter_full_only(self, queryset: QuerySet, name: str, value: Any) -> QuerySet:
        # The value is read from the CompanyView, and only from a full one: a glimpse has
        # None there, so it is never kept, whatever the company's real value.
        def keep(company: CompanyView) -> bool:
            return company.full and getattr(company, name) == value

        return queryset.filter(pk__in=_ids_where(self._view(), keep))


class TurnFilter(django_filters.FilterSet):
    status = django_filters.ChoiceFilter(choices=Turn.Status.choices)

    class Meta:
        model = Turn
        fields = ["status"]


class OrderFilter(django_filters.FilterSet):
    kind = django_filters.ChoiceFilter(
        choices=[("hold", "hold"), ("advance", "advance"), ("withdraw", "withdraw")]
    )
    company = IntegerFilter(field_name="company_id", help_text="The company's id.")
    side = django_filters.ChoiceFilter(field_name="company__side", choices=SIDES)

    class Meta:
        model = Order
        fields = ["kind", "company", "side"]
