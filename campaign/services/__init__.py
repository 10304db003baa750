"""Use cases of the campaign app, one module per domain; views, admin and tasks call these."""
