"""Korona's project configuration: settings, URLs, the WSGI/ASGI entry points and the
Celery app (imported here so that ``shared_task`` binds to it)."""

from config.celery import app as celery_app

__all__ = ["celery_app"]
