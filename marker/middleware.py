"""Request limits that hold before any view runs."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse

from marker.api_errors import is_api_request, json_error

# How much of an oversized body is read (and dropped) before answering 413: a client that
# is still sending would otherwise see the connection reset instead of the answer.
DRAIN_LIMIT = 16 * 1024 * 1024
DRAIN_CHUNK = 64 * 1024


class RequestSizeLimit:
    """Refuse a body larger than `DATA_UPLOAD_MAX_MEMORY_SIZE` with 413, whatever reads it.

    Django checks the limit only where it reads a form (`request.POST`, `request.body`);
    DRF's parsers read the stream directly, so a JSON body of any size would be parsed.
    This middleware looks at Content-Length first: under `/api/` the answer is the API's
    error (`{"error": "too_large", ...}`), elsewhere a plain 413.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        if limit is not None:
            try:
                length = int(request.META.get("CONTENT_LENGTH") or 0)
            except ValueError:
                length = 0
            if length > limit:
                _drain(request, length)
                return _too_large(request, limit)
        return self.get_response(request)


def _drain(request: HttpRequest, length: int) -> None:
    stream = getattr(request, "_stream", None)
    if stream is None:
        return
    left = min(length, DRAIN_LIMIT)
    try:
        while left > 0:
            chunk = stream.read(min(DRAIN_CHUNK, left))
            if not chunk:
                break
            left -= len(chunk)
    except OSError:
        pass


def _too_large(request: HttpRequest, limit: int) -> HttpResponse:
    message = f"The request body is larger than {limit} bytes."
    if is_api_request(request):
        response: HttpResponse = json_error("too_large", message, 413, limit=limit)
    else:
        response = HttpResponse(message, status=413, content_type="text/plain; charset=utf-8")
    return response
