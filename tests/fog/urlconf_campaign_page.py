from tests.fog.urls_extra import with_campaign_page as urlpatterns  # noqa: F401
