"""Request limits that hold before any view runs, and the security policy's header."""

from __future__ import annotations

import re
from collections.abc import Callable

from csp import middleware as csp_middleware
from csp.constants import HEADER, HEADER_REPORT_ONLY
from csp.utils import build_policy
from django.conf import settings
from django.core.signals import setting_changed
from django.http import HttpRequest, HttpResponse, HttpResponseBase

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
    error (`{"error": "too_large", ...}`), elsewhere a plain 413. The few paths that take one
    large file (`LARGE_UPLOAD_PATHS`: a score card's photo) have `LARGE_UPLOAD_MAX_SIZE`.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        large = getattr(settings, "LARGE_UPLOAD_PATHS", ())
        if large and any(re.match(pattern, request.path_info) for pattern in large):
            limit = settings.LARGE_UPLOAD_MAX_SIZE
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


class CSPMiddleware(csp_middleware.CSPMiddleware):
    """django-csp's middleware, with the site's policy built once per process.

    django-csp builds the Content-Security-Policy header afresh for every response (the
    policy's dataclass copied, every directive joined): about a tenth of a live poll's
    CPU. A response that brings no policy of its own (no decorator's config, update or
    replace) to a request that used no nonce gets the header built once; anything else
    goes to django-csp as before. A change of settings (in tests) builds it again."""

    _OWN = (
        "_csp_config",
        "_csp_update",
        "_csp_replace",
        "_csp_config_ro",
        "_csp_update_ro",
        "_csp_replace_ro",
    )
    _built: tuple[str, str] | None = None

    @classmethod
    def policies(cls) -> tuple[str, str]:
        if cls._built is None:
            cls._built = (build_policy(), build_policy(report_only=True))
        return cls._built

    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        if getattr(request, "_csp_nonce", None) is not None or any(
            getattr(response, name, None) is not None for name in self._OWN
        ):
            return super().process_response(request, response)
        if response.status_code in (500, 404) and settings.DEBUG:
            return response
        policy, policy_ro = self.policies()
        for header, value, exempt, setting in (
            (HEADER, policy, "_csp_exempt", "CONTENT_SECURITY_POLICY"),
            (
                HEADER_REPORT_ONLY,
                policy_ro,
                "_csp_exempt_ro",
                "CONTENT_SECURITY_POLICY_REPORT_ONLY",
            ),
        ):
            if not value or header in response or getattr(response, exempt, False):
                continue
            prefixes = (getattr(settings, setting, None) or {}).get("EXCLUDE_URL_PREFIXES") or ()
            if not request.path_info.startswith(tuple(prefixes)):
                response[header] = value
        # As django-csp does: a nonce asked for after the header is written is an error.
        request.csp_nonce = csp_middleware.CheckableLazyObject(  # type: ignore[attr-defined]
            self._csp_nonce_post_response
        )
        return response


def _csp_settings_changed(setting: str, **kwargs: object) -> None:
    if setting.startswith("CONTENT_SECURITY_POLICY"):
        CSPMiddleware._built = None


setting_changed.connect(_csp_settings_changed)
