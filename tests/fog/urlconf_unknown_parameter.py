from tests.fog.urls_extra import with_unknown_parameter as urlpatterns  # noqa: F401
