from django.apps import AppConfig


class CampaignConfig(AppConfig):
    name = "campaign"
    verbose_name = "Campaign"

    def ready(self) -> None:
        # The cached signed-in user is dropped whenever a user is saved or deleted; the
        # signals must be connected in every process, before any request.
        # Registered under their names for config.enqueue, which sends them by name.
        import campaign.tasks  # noqa: F401
        import config.auth  # noqa: F401
