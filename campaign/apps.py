from django.apps import AppConfig


class CampaignConfig(AppConfig):
    name = "campaign"
    verbose_name = "Campaign"

    def ready(self) -> None:
        # The cached signed-in user is dropped whenever a user is saved or deleted; the
        # signals must be connected in every process, before any request.
        # Registered under their names for config.enqueue, which sends them by name.
        # Two third-party apps in the GM's words on the admin's desk (a walk-through read
        # "AXES" and "AUTH TOKEN" there and could not tell what they were).
        from django.apps import apps

        import campaign.tasks  # noqa: F401

        apps.get_app_config("axes").verbose_name = "Sign-in lockouts (too many wrong passwords)"
        apps.get_app_config("authtoken").verbose_name = "Players' API tokens"
        import config.auth  # noqa: F401
        from config.adminpages import capitalise_missing_rows, check_selected_rows

        check_selected_rows()  # a changelist action on rows that are none: no 500
        capitalise_missing_rows()
