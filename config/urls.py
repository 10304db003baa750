from django.contrib import admin
from django.urls import path
from django.views.generic import RedirectView

from config import views

urlpatterns = [
    # Until the players' pages exist, the front door leads to the GM's admin.
    path("", RedirectView.as_view(url="/admin/", permanent=False), name="home"),
    path("admin/", admin.site.urls),
    path("healthz", views.healthz, name="healthz"),
]
