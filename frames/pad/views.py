"""HTML for the referee pad and the live match page, and the pad's service worker and web
app manifest (served from the site root so the worker's scope covers the pad pages)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import staticfiles_storage
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import NoReverseMatch, reverse
from django.utils.http import urlencode
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_safe

from frames.models import Frame, Match
from rules import registry

from . import selectors

ENTER = "frames.enter_event"

# What the service worker keeps for offline use (the pages themselves are cached as
# they are opened).
SW_ASSETS = (
    "css/marker.css",
    "frames/pad.css",
    "frames/pad.js",
    "frames/live.js",
    "vendor/htmx-2.0.8.min.js",
    "frames/icons/icon-192.png",
    "frames/icons/icon.svg",
)


def scorecard_url(match_id: int) -> str:
    """The match's scorecard (the match page), or its live page where there is none."""
    try:
        return reverse("match-detail", args=[match_id])
    except NoReverseMatch:
        return reverse("match-live", args=[match_id])


def _login_url(request) -> str:
    return f"{reverse('login')}?{urlencode({'next': request.get_full_path()})}"


@require_safe
@ensure_csrf_cookie
def frame_pad(request, pk: int):
    """The referee pad. Anyone may watch; the controls are for those who may score."""
    try:
        frame = selectors.frame_for_pad(pk)
    except Frame.DoesNotExist:
        raise Http404 from None
    game = registry.get(frame.game_id)
    can_enter = request.user.has_perm(ENTER, frame)
    pad = {
        "frame": frame.pk,
        "match": frame.match_id,
        "number": frame.number,
        "game_id": game.id,
        "family": game.family,
        "can_enter": can_enter,
        "user": request.user.get_username() if request.user.is_authenticated else None,
        "csrf_cookie": settings.CSRF_COOKIE_NAME,
        "urls": {
            "events": reverse("api-frame-events", args=[frame.pk]),
            "state": reverse("api-frame-state", args=[frame.pk]),
            "confirm": reverse("api-frame-confirm", args=[frame.pk]),
            "session": reverse("api-pad-session"),
            "login": _login_url(request),
            "scorecard": scorecard_url(frame.match_id),
            "live": reverse("match-live", args=[frame.match_id]),
            "sw": reverse("pad-sw"),
        },
        "state": {**selectors.frame_state(frame), "can_enter": can_enter},
    }
    return render(
        request,
        "frames/pad.html",
        {
            "frame": frame,
            "fixture": frame.match.fixture,
            "describe": game.describe(),
            "pad": pad,
            "can_enter": can_enter,
            "login_url": pad["urls"]["login"],
        },
    )


@require_safe
def pad_home(request):
    """The pad's start page (the home-screen app opens here): the frames I may score."""
    return render(
        request,
        "frames/pad_home.html",
        {"frames": selectors.frames_for_user(request.user), "login_url": _login_url(request)},
    )


@require_safe
def match_live(request, pk: int):
    """Every frame's scores and break, updating every couple of seconds (phones, the TV)."""
    try:
        live = selectors.match_live(pk)
    except Match.DoesNotExist:
        raise Http404 from None
    return render(
        request,
        "frames/live.html",
        {
            "live": live,
            "live_url": reverse("api-match-live", args=[pk]),
            "etag": selectors.body_etag(live),
            "tv": request.GET.get("tv") == "1",
        },
    )


def _static_bytes(path: str) -> bytes:
    found = finders.find(path)
    if found:
        return Path(found).read_bytes()
    with staticfiles_storage.open(path) as handle:  # collected only (no finders)
        return handle.read()


@require_safe
def service_worker(request):
    """static/frames/sw.js with its configuration: the assets to keep (their URLs as the
    storage names them) and a version that changes whenever any of them changes."""
    source = _static_bytes("frames/sw.js")
    digest = hashlib.blake2b(source, digest_size=8)
    for asset in SW_ASSETS:
        digest.update(_static_bytes(asset))
    config = {
        "version": digest.hexdigest(),
        "precache": [static(asset) for asset in SW_ASSETS],
        "static_url": settings.STATIC_URL,
    }
    body = f"self.MARKER_SW = {json.dumps(config)};\n".encode() + source
    response = HttpResponse(body, content_type="application/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    response["Cache-Control"] = "no-cache"
    return response


@require_safe
def manifest(request):
    """The web app manifest: add the pad to the home screen (which also keeps the
    browser from evicting the phone's outbox)."""
    data = {
        "name": "Marker referee pad",
        "short_name": "Marker",
        "description": "Score bar billiards frames shot by shot, online or not.",
        "start_url": reverse("pad-home"),
        "scope": "/",
        "display": "standalone",
        "orientation": "portrait",
        "background_color": "#f6f4ef",
        "theme_color": "#0e5a3c",
        "icons": [
            {"src": static("frames/icons/icon-192.png"), "sizes": "192x192", "type": "image/png"},
            {"src": static("frames/icons/icon-512.png"), "sizes": "512x512", "type": "image/png"},
            {
                "src": static("frames/icons/icon.svg"),
                "sizes": "any",
                "type": "image/svg+xml",
                "purpose": "any",
            },
        ],
    }
    return JsonResponse(data, content_type="application/manifest+json")
