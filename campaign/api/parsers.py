"""The API's JSON parser: a request body is read within the bounds every Korona document
has (``rules.spec.decode_json``), so a deeply nested or huge body is a 400 naming the
fault, never a RecursionError."""

from __future__ import annotations

from typing import Any

from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

from rules.spec import DocumentError, decode_json

MAX_BODY_BYTES = 64 * 1024  # an order or a sign-in is a few dozen bytes


class BoundedJSONParser(JSONParser):
    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        body = stream.read(MAX_BODY_BYTES + 1)
        if len(body) > MAX_BODY_BYTES:
            raise ParseError(f"the body is larger than {MAX_BODY_BYTES} bytes")
        try:
            return decode_json(body, "the body")
        except DocumentError as bad:
            raise ParseError(str(bad)) from None
