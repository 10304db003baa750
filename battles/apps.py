from django.apps import AppConfig


class BattlesConfig(AppConfig):
    name = "battles"
    verbose_name = "Battles"

    def ready(self) -> None:
        # Registered under their names for config.enqueue, which sends them by name.
        import battles.tasks  # noqa: F401
