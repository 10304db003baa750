from __future__ import annotations

from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    name = "notifications"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from notifications import hooks

        hooks.connect()
        # Registered under their names for config.enqueue, which sends them by name.
        import notifications.tasks  # noqa: F401
