"""Middleware: the live match poll, answered before the rest of the stack.

On league night every spectator's live page polls `/api/matches/<id>/live/` every 2 s:
most of the requests the server sees. `MatchLiveView` answers them from the version tokens
(a 304, or the body kept for this version) without a query, but only after a dozen
middlewares, the URL resolver and DRF's view set-up have run, which cost more than the
answer. This middleware, first in `MIDDLEWARE`, gives the same answer (`api.live_match_answer`)
straight away, with the headers the stack would add: it runs the response through the
same middlewares' `process_response` (those in `RESPONSE_HEADERS` that `MIDDLEWARE`
lists, in the stack's order). `tests/frames/pad/test_live_polls.py` compares the two paths
header for header.

It steps aside, and the request goes through the whole stack, for anything else:

- another path or method, or a browser asking for HTML (DRF's page);
- a host not in `ALLOWED_HOSTS` (the stack answers 400);
- plain HTTP when `SECURE_SSL_REDIRECT` is on (the stack redirects);
- when the versions cannot be trusted or the match is not found (the view builds from
  the database, or answers the API's 404).

`LIVE_FAST_POLLS = False` turns it off.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.exceptions import DisallowedHost
from django.core.signals import setting_changed
from django.http import HttpRequest, HttpResponse
from django.urls import get_script_prefix, reverse
from django.utils.module_loading import import_string

from frames.pad.api import live_match_answer, wants_html

# Middlewares that add response headers to a live poll's answer.
RESPONSE_HEADERS = (
    "django.middleware.security.SecurityMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    "marker.middleware.CSPMiddleware",
)


class LivePolls:
    # What every instance shares (tests build a handler, so an instance, per client):
    # the path's pattern and the header-adding middlewares, built once, forgotten when
    # settings change.
    _path: re.Pattern[str] | None = None
    _finish: list[Any] | None = None

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    @classmethod
    def forget(cls, **kwargs: Any) -> None:
        cls._path = cls._finish = None

    @classmethod
    def path(cls) -> re.Pattern[str]:
        if cls._path is None:
            url = reverse("api-match-live", args=[0])[len(get_script_prefix()) - 1 :]
            head, _, tail = url.rpartition("/0/")
            cls._path = re.compile(rf"{re.escape(head)}/([0-9]{{1,18}})/{re.escape(tail)}")
        return cls._path

    @classmethod
    def finishers(cls) -> list[Any]:
        """The header-adding middlewares, in the order a response meets them (only their
        `process_response` runs)."""
        if cls._finish is None:
            listed = [name for name in settings.MIDDLEWARE if name in RESPONSE_HEADERS]
            cls._finish = [import_string(name)(_unused) for name in reversed(listed)]
        return cls._finish

    def __call__(self, request: HttpRequest) -> HttpResponse:
        answer = None
        if request.method == "GET" and getattr(settings, "LIVE_FAST_POLLS", True):
            found = self.path().fullmatch(request.path_info)
            if found is not None:
                answer = self.answer(request, int(found[1]))
        if answer is None:
            return self.get_response(request)
        for middleware in self.finishers():
            answer = middleware.process_response(request, answer)
        return answer

    def answer(self, request: HttpRequest, match_id: int) -> HttpResponse | None:
        if wants_html(request):
            return None
        try:
            request.get_host()
        except DisallowedHost:
            return None
        if settings.SECURE_SSL_REDIRECT and not request.is_secure():
            return None
        request.live_answer_tried = True  # type: ignore[attr-defined]  # the view won't again
        return live_match_answer(request, match_id)


def _unused(request: HttpRequest) -> HttpResponse:
    raise AssertionError("only process_response runs")


setting_changed.connect(LivePolls.forget)
