"""DRF's content negotiation with its commonest answer found without parsing.

Nearly every API client (curl, requests, wrk, a browser's ``fetch``) sends ``Accept:
*/*`` or no Accept header at all, and asks for no ``?format=``. DRF's negotiation then
parses the header into media types and matches each renderer against them, and always
comes to the same answer: the first renderer, with its own media type. That parsing was
about a tenth of a kept API list's time in process (issue 17). Here that one case is
answered at once; every other header, and any format asked for, goes through DRF's own
negotiation, unchanged. Nothing is cached: DRF keeps no process-wide store of what
clients send, and neither does this.
"""

from __future__ import annotations

from typing import Any

from rest_framework.negotiation import DefaultContentNegotiation


class ContentNegotiation(DefaultContentNegotiation):
    def select_renderer(
        self, request: Any, renderers: Any, format_suffix: Any = None
    ) -> tuple[Any, str]:
        format_param = self.settings.URL_FORMAT_OVERRIDE
        if (
            renderers
            and not format_suffix
            and not (format_param and request.query_params.get(format_param))
            and request.headers.get("accept", "*/*").strip() == "*/*"
        ):
            # What DRF answers for */*: the first renderer matches it, and being the more
            # specific, its own media type is the one accepted.
            return renderers[0], renderers[0].media_type
        return super().select_renderer(request, renderers, format_suffix)
