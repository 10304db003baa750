"""The battles' services: fighting one (``fighting``) and its result (``results``)."""
