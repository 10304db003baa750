"""EMAIL_URL, read by django-environ into Django's email settings (config/env.py)."""

from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured

from config.env import read_email_url


def test_no_email_url_leaves_the_console_default() -> None:
    assert read_email_url({}) == {}
    assert read_email_url({"EMAIL_URL": "  "}) == {}


def test_an_smtp_url_with_tls_gives_host_port_user_and_password() -> None:
    config = read_email_url({"EMAIL_URL": "smtp+tls://korona:s3cret@smtp.example.com:587"})
    assert config["EMAIL_BACKEND"] == "django.core.mail.backends.smtp.EmailBackend"
    assert (config["EMAIL_HOST"], config["EMAIL_PORT"]) == ("smtp.example.com", 587)
    assert (config["EMAIL_HOST_USER"], config["EMAIL_HOST_PASSWORD"]) == ("korona", "s3cret")
    assert config["EMAIL_USE_TLS"] is True


def test_an_unknown_scheme_stops_django_with_the_reason() -> None:
    with pytest.raises(ImproperlyConfigured, match="EMAIL_URL has scheme 'http'"):
        read_email_url({"EMAIL_URL": "http://smtp.example.com"})
    with pytest.raises(ImproperlyConfigured, match="scheme ''"):
        read_email_url({"EMAIL_URL": "smtp.example.com"})


def test_the_embedded_default_prints_emails() -> None:
    from config import settings as korona

    assert korona.EMAIL_BACKEND == "django.core.mail.backends.console.EmailBackend"


def test_a_file_url_writes_the_emails_where_its_absolute_path_says() -> None:
    """The walk of a group's server: ``filemail:///srv/korona/mail`` (as a file URL is
    written) wrote the emails under ``srv/korona/mail`` in whatever directory each
    process was started in, django-environ dropping the path's leading slash."""
    config = read_email_url({"EMAIL_URL": "filemail:///srv/korona/mail"})
    assert config["EMAIL_BACKEND"] == "django.core.mail.backends.filebased.EmailBackend"
    assert config["EMAIL_FILE_PATH"] == "/srv/korona/mail"


def test_a_file_url_without_an_absolute_path_stops_django_with_the_reason() -> None:
    with pytest.raises(ImproperlyConfigured, match="filemail:///srv/korona/mail"):
        read_email_url({"EMAIL_URL": "filemail://mail"})
