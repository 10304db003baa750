"""The REST API under /api/ (docs/api.md). Anything else under /api/ is a JSON 404."""

from __future__ import annotations

from django.urls import URLPattern, path, re_path
from drf_spectacular.views import SpectacularAPIView

from battles import api as battles
from campaign.api import views

app_name = "api"

CAMPAIGN = "campaigns/<int:campaign_pk>/"

urlpatterns: list[URLPattern] = [
    path("", views.root, name="root"),
    path("token/", views.TokenView.as_view(), name="token"),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", views.DocsView.as_view(url_name="api:schema"), name="docs"),
    path("campaigns/", views.CampaignList.as_view(), name="campaign-list"),
    path(CAMPAIGN, views.CampaignDetail.as_view(), name="campaign-detail"),
    path(CAMPAIGN + "areas/", views.AreaList.as_view(), name="area-list"),
    path(CAMPAIGN + "areas/<int:pk>/", views.AreaDetail.as_view(), name="area-detail"),
    path(CAMPAIGN + "companies/", views.CompanyList.as_view(), name="company-list"),
    path(CAMPAIGN + "companies/<int:pk>/", views.CompanyDetail.as_view(), name="company-detail"),
    path(CAMPAIGN + "glimpses/<str:handle>/", views.GlimpseDetail.as_view(), name="glimpse-detail"),
    path(CAMPAIGN + "turns/", views.TurnList.as_view(), name="turn-list"),
    path(CAMPAIGN + "turns/<int:number>/", views.TurnDetail.as_view(), name="turn-detail"),
    path(CAMPAIGN + "turns/<int:number>/file/", views.TurnFile.as_view(), name="turn-file"),
    path(CAMPAIGN + "commitments/", views.CommitmentList.as_view(), name="commitment-list"),
    path(CAMPAIGN + "adjustments/", views.AdjustmentList.as_view(), name="adjustment-list"),
    path(CAMPAIGN + "battles/", battles.BattleList.as_view(), name="battle-list"),
    path(CAMPAIGN + "battles/<int:pk>/", battles.BattleDetail.as_view(), name="battle-detail"),
    path(CAMPAIGN + "orders/", views.OrderList.as_view(), name="order-list"),
    path(CAMPAIGN + "orders/<int:pk>/", views.OrderDetail.as_view(), name="order-detail"),
    path(CAMPAIGN + "ready/", views.Ready.as_view(), name="ready"),
    re_path(r"^.*$", views.not_found, name="not-found"),
]
