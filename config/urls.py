from django.contrib import admin
from django.urls import include, path
from django.views.decorators.http import require_safe
from django.views.generic import RedirectView

from config import views

urlpatterns = [
    # The front door is the player's list of campaigns (sign-in first); the GM has /admin/.
    path(
        "",
        require_safe(RedirectView.as_view(pattern_name="campaigns", permanent=False)),
        name="home",
    ),
    path("admin/", admin.site.urls),
    path("healthz", views.healthz, name="healthz"),
    path("favicon.ico", views.favicon, name="favicon"),
    path("api/", include("campaign.api.urls")),
    path("", include("campaign.web.urls")),
    path("", include("battles.web.urls")),
    path("", include("notifications.web")),
]
