from __future__ import annotations

from django.contrib import admin

from notifications.models import Notice, Preference, Webhook


@admin.register(Webhook)
class WebhookAdmin(admin.ModelAdmin):
    list_display = ["campaign", "side", "url", "active"]
    list_filter = ["active", "campaign"]


@admin.register(Notice)
class NoticeAdmin(admin.ModelAdmin):
    """Every notice sent or tried: read-only, the record that keeps them once each."""

    list_display = ["created_at", "kind", "campaign", "turn", "user", "webhook", "status"]
    list_filter = ["status", "kind", "campaign"]
    search_fields = ["subject", "user__username"]

    def has_add_permission(self, request, obj=None) -> bool:  # noqa: ANN001
        return False

    def has_change_permission(self, request, obj=None) -> bool:  # noqa: ANN001
        return False


@admin.register(Preference)
class PreferenceAdmin(admin.ModelAdmin):
    list_display = ["user", "email", "reminder_hours", "time_zone"]
