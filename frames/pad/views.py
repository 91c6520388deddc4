"""HTML for the referee pad and the live match page, and the pad's service worker and web
app manifest (served from the site root so the worker's scope covers the pad pages)."""

from __future__ import annotations

import hashlib
import io
import json
import re
import threading
import zipfile
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import staticfiles_storage
from django.core.exceptions import ImproperlyConfigured
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import NoReverseMatch, get_resolver, get_script_prefix, reverse
from django.utils.http import urlencode
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_safe

import rules
from frames import live as live_versions
from frames.engine import drawn_options, game_of
from frames.models import Frame, Match
from leagues import links
from leagues.seasons.selectors import shown
from rules.house import in_force

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
    "frames/engine/worker.js",
)
# The pad's ES modules (pad.js imports them by relative, unhashed URLs): kept under both
# the name the storage gives them and their plain one.
PAD_MODULES = (
    "frames/pad/awake.js",
    "frames/pad/controls.js",
    "frames/pad/dom.js",
    "frames/pad/engine.js",
    "frames/pad/notices.js",
    "frames/pad/outbox.js",
    "frames/pad/sync.js",
    "frames/pad/view.js",
)


# Pyodide's files (scripts/fetch-pyodide puts them in static/vendor/pyodide/, ignored by
# git): the service worker keeps them once the pad has loaded them.
PYODIDE_DIR = "vendor/pyodide/"
PYODIDE_FILES = (
    "pyodide.js",
    "pyodide.asm.js",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
ENGINE_WORKER = "frames/engine/worker.js"

# What the service worker serves from its caches when offline, by URL name: the pad and
# live pages (navigations) and the pad's API reads; network first for both.
SW_PAGES = ("pad-home", "frame-pad", "match-live", "league-rules", "season-rules")
SW_API = ("api-frame-state", "api-frame-events", "api-game-describe", "api-match-live")


def url_shapes(name: str) -> list[str]:
    """The paths of the URL pattern `name` as regular expressions that JavaScript and
    Python read alike: the resolver's own patterns, anchored at the site's root, with their
    named groups made plain groups."""
    entries = get_resolver().reverse_dict.getlist(name)
    if not entries:
        raise ImproperlyConfigured(f"No URL pattern is named {name!r}.")
    shapes = []
    for _bits, pattern, _defaults, _converters in entries:
        body = re.sub(r"\(\?P<\w+>", "(?:", pattern)
        end = body.endswith(r"\Z")
        root = "^" + re.escape(get_script_prefix())
        shapes.append(root + body.removesuffix(r"\Z") + ("$" if end else ""))
    return shapes


def scorecard_url(match_id: int) -> str:
    """The match's scorecard (the match page), or its live page where there is none."""
    try:
        return reverse("match-detail", args=[match_id])
    except NoReverseMatch:
        return reverse("match-live", args=[match_id])


def friendly_url(friendly_id: int) -> str | None:
    """A friendly game's page (the lead's `friendly-detail`), None until that URL exists."""
    try:
        return reverse("friendly-detail", args=[friendly_id])
    except NoReverseMatch:
        return None


# ------------------------------------------------------------------ the offline engine

_engine_lock = threading.Lock()
_engine: tuple[str, bytes] | None = None


def engine_bundle() -> tuple[str, bytes]:
    """The rules engine's source as a zip (`rules/**/*.py`, fixed timestamps, sorted) and
    a hash of its content, built once per process. The pad runs it in the browser on
    Pyodide when it is offline; the hash is in its URL so caches never mix versions."""
    global _engine
    with _engine_lock:
        if _engine is None:
            root = Path(rules.__file__).resolve().parent
            files = sorted(
                p
                for p in root.rglob("*.py")
                if "__pycache__" not in p.parts and "tests" not in p.relative_to(root).parts
            )
            digest = hashlib.blake2b(digest_size=8)
            buffer = io.BytesIO()
            with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
                for path in files:
                    name = "rules/" + path.relative_to(root).as_posix()
                    data = path.read_bytes()
                    digest.update(name.encode() + b"\0" + data + b"\0")
                    info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
                    info.compress_type = zipfile.ZIP_DEFLATED
                    archive.writestr(info, data)
            _engine = (digest.hexdigest(), buffer.getvalue())
        return _engine


def engine_url() -> str:
    return reverse("pad-engine", args=[engine_bundle()[0]])


@require_safe
def engine_zip(request, digest: str):
    """The engine's source, at a URL naming its content: cached for good (a new engine
    has a new URL; an old URL is 404 so no cache keeps a mix of versions)."""
    current, data = engine_bundle()
    if digest != current:
        raise Http404("No engine with this hash.")
    response = HttpResponse(data, content_type="application/zip")
    response["Cache-Control"] = "public, max-age=31536000, immutable"
    response["Content-Disposition"] = f'inline; filename="rules-{digest}.zip"'
    return response


_pyodide_found = False


def pyodide_available() -> bool:
    """Pyodide's files are among the static files (once found, remembered: a server
    started before scripts/fetch-pyodide ran finds them on the next page)."""
    global _pyodide_found
    if not _pyodide_found:
        _pyodide_found = all(finders.find(PYODIDE_DIR + n) for n in PYODIDE_FILES) or all(
            staticfiles_storage.exists(PYODIDE_DIR + n) for n in PYODIDE_FILES
        )
    return _pyodide_found


def _pyodide_version() -> str:
    found = finders.find(PYODIDE_DIR + ".version")
    return Path(found).read_text().strip() if found else "none"


def _engine_context() -> dict[str, Any] | None:
    """What pad.js needs to run the engine offline, or None without Pyodide (the pad then
    shows queued shots as waiting)."""
    if not pyodide_available():
        return None
    return {
        "worker": static(ENGINE_WORKER),
        # Pyodide finds its files next to pyodide.js: their unhashed names.
        "pyodide": settings.STATIC_URL.rstrip("/") + "/" + PYODIDE_DIR,
        "zip": engine_url(),
        "files": [settings.STATIC_URL.rstrip("/") + "/" + PYODIDE_DIR + n for n in PYODIDE_FILES],
    }


def _parties(frame, state: dict) -> dict[str, dict]:
    """party -> {label, players, team} for the board: a league frame's sides (its teams
    and players) and, for games between players, each player with the team he plays for;
    a friendly game's parties are its players."""
    sides = state.get("sides") or {}
    parties: dict[str, dict] = {}
    for side, info in sides.items():
        parties[side] = {"label": info.get("team") or side, "players": info.get("players", [])}
        for name in info.get("players", []):
            parties.setdefault(name, {"label": name, "players": [name], "team": info.get("team")})
    for name in (state.get("view") or {}).get("scores") or {}:
        parties.setdefault(name, {"label": name, "players": []})
    return parties


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
    game = game_of(frame)
    can_enter = request.user.has_perm(ENTER, frame)
    state = {**selectors.frame_state(frame), "can_enter": can_enter}
    if frame.match_id is not None and frame.match is not None:
        home_url = reverse("match-live", args=[frame.match_id])
        scorecard, live = scorecard_url(frame.match_id), home_url
        title = f"{frame.match.fixture.home.name} v {frame.match.fixture.away.name}"
        season_id = frame.match.fixture.season_id
        rules_url = links.season_url("season-rules", season_id, season_id)
    else:  # a friendly game: its own page, once the lead's URL is there
        friendly = frame.friendly
        found = friendly_url(frame.friendly_id) if frame.friendly_id is not None else None
        home_url = found or reverse("pad-home")
        scorecard = live = home_url
        title = str(friendly) if friendly is not None else game.name
        rules_url = None
        season_id = None
    pad = {
        "frame": frame.pk,
        "match": frame.match_id,
        "friendly": frame.friendly_id,
        "number": frame.number,
        "game_id": game.id,
        "rules_version": game.version,
        "family": game.family,
        "can_enter": can_enter,
        "user": request.user.get_username() if request.user.is_authenticated else None,
        "csrf_cookie": settings.CSRF_COOKIE_NAME,
        "parties": _parties(frame, state),
        "engine": _engine_context(),
        "urls": {
            "events": reverse("api-frame-events", args=[frame.pk]),
            "state": reverse("api-frame-state", args=[frame.pk]),
            "confirm": reverse("api-frame-confirm", args=[frame.pk]),
            "session": reverse("api-pad-session"),
            "login": _login_url(request),
            "scorecard": scorecard,
            "live": live,
            "sw": reverse("pad-sw"),
            "rules": rules_url,  # the season's rule book, kept for offline use
            # The site's notices (and the league's), polled while online.
            "notices": reverse("api-notices")
            + (f"?league={links.season_slug(season_id)}" if season_id is not None else ""),
        },
        "state": state,
    }
    return render(
        request,
        "frames/pad.html",
        {
            "frame": frame,
            "title": title,
            "home_url": home_url,
            "game": game,
            "describe": game.describe(),
            "pad": pad,
            "can_enter": can_enter,
            "login_url": pad["urls"]["login"],
            "rules_url": rules_url,
            # The house rules this frame is played under where they differ from the book.
            "house": [
                (rule.label, shown(value))
                for rule, value, changed in in_force(game, frame.setup or {})
                if changed
            ],
            "private_balls": bool(drawn_options(frame.game_id)),
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
    tag = selectors.live_tokens(live_versions.match_key(pk))
    try:
        if tag is not None:  # the body the polls share, and their ETag
            live = json.loads(selectors.match_live_json(pk, tag)[0])
            etag = selectors.match_live_etag(pk, tag)
        else:
            live = selectors.match_live(pk)
            etag = selectors.body_etag(live)
    except Match.DoesNotExist:
        raise Http404 from None
    return render(
        request,
        "frames/live.html",
        {
            "live": live,
            "live_url": reverse("api-match-live", args=[pk]),
            "etag": etag,
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
    for asset in SW_ASSETS + PAD_MODULES:
        digest.update(_static_bytes(asset))
    engine = _engine_context()
    plain = settings.STATIC_URL.rstrip("/") + "/"
    precache = [static(asset) for asset in SW_ASSETS + PAD_MODULES]
    precache += [plain + m for m in PAD_MODULES if plain + m not in precache]
    config = {
        "version": digest.hexdigest(),
        "precache": precache,
        "static_url": settings.STATIC_URL,
        # The offline engine: Pyodide's files (kept once the pad has loaded them, in a
        # cache named by Pyodide's version) and the engine zip's path prefix.
        "pyodide_prefix": settings.STATIC_URL.rstrip("/") + "/" + PYODIDE_DIR,
        "pyodide_version": _pyodide_version(),
        "engine_prefix": reverse("pad-engine", args=["x"]).rsplit("/", 1)[0] + "/",
        "engine_zip": engine["zip"] if engine else None,
        # The URL shapes it caches (its regular expressions), from the URL patterns.
        "pages": [shape for name in SW_PAGES for shape in url_shapes(name)],
        "api": [shape for name in SW_API for shape in url_shapes(name)],
        # Web Push (docs/notifications.md): where a renewed subscription is posted.
        "push_api": reverse("api-notifications-push"),
        "session_api": reverse("api-pad-session"),
        "push_icon": static("frames/icons/icon-192.png"),
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
        "description": "Score any game shot by shot, online or not.",
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
