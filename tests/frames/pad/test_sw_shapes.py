"""The service worker's URL shapes come from the URL patterns: the regular expressions it
is given match the pages and API reads it caches (as Django resolves them), and nothing
else; and JavaScript reads them as Python does. Also: every pad module is kept offline."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import Resolver404, resolve, reverse

from frames.pad import views

pytestmark = pytest.mark.django_db

# A URL of each name the worker caches.
SAMPLES = {
    "pad-home": reverse("pad-home"),
    "frame-pad": reverse("frame-pad", args=[7]),
    "match-live": reverse("match-live", args=[12]),
    "api-frame-state": reverse("api-frame-state", args=[7]),
    "api-frame-events": reverse("api-frame-events", args=[7]),
    "api-game-describe": reverse("api-game-describe", args=["bar_billiards_4pin"]),
    "api-match-live": reverse("api-match-live", args=[12]),
    # The league's rule book, one tap from the pad, offline too (issue 29).
    "league-rules": reverse("league-rules", args=["norwich"]),
    "season-rules": reverse("season-rules", args=["norwich", 7]),
}
# Near misses: not a page or read the worker keeps.
OTHERS = [
    "/norwich/seasons/7/rules/edit/",
    "/norwich/seasons/7/rules",
    "/frames/x/pad/",
    "/frames/7/pad/extra/",
    "/frames/7/pad",
    "/api/frames/7/confirm/",
    "/xpad/",
    "/pad/engine/abc.zip",
    "/sw.js",
    "/api/games/a/b/",
]


def worker_config() -> dict:
    body = Client().get(reverse("pad-sw")).content
    return json.loads(re.match(rb"self.MARKER_SW = (\{.*?\});", body).group(1))


def matching(shapes: list[str], path: str) -> bool:
    return any(re.search(shape, path) for shape in shapes)


def test_the_worker_gets_the_url_patterns_shapes():
    config = worker_config()
    assert config["pages"] == [s for n in views.SW_PAGES for s in views.url_shapes(n)]
    assert config["api"] == [s for n in views.SW_API for s in views.url_shapes(n)]
    assert set(SAMPLES) == set(views.SW_PAGES) | set(views.SW_API)
    for name, path in SAMPLES.items():
        assert resolve(path).url_name == name
        assert matching(config["pages"], path) == (name in views.SW_PAGES), path
        assert matching(config["api"], path) == (name in views.SW_API), path
    for path in OTHERS:
        assert not matching(config["pages"] + config["api"], path), path
        try:
            name = resolve(path).url_name
        except Resolver404:
            continue
        assert name not in SAMPLES, path


def test_each_shape_is_its_pattern():
    """A shape matches exactly its own pattern's URLs (and is no copy of a hand-written one)."""
    for name, path in SAMPLES.items():
        (shape,) = views.url_shapes(name)
        assert re.search(shape, path)
        others = [p for n, p in SAMPLES.items() if n != name]
        assert not any(re.search(shape, p) for p in others), name
        assert "(?P<" not in shape and r"\Z" not in shape  # Python-only syntax


@pytest.mark.skipif(not shutil.which("node"), reason="node is not installed")
def test_javascript_reads_the_shapes_as_python_does():
    config = worker_config()
    paths = list(SAMPLES.values()) + OTHERS
    script = (
        "const [shapes, paths] = JSON.parse(process.argv[1]);"
        "const res = shapes.map((s) => new RegExp(s));"
        "console.log(JSON.stringify(paths.map((p) => res.some((r) => r.test(p)))));"
    )
    shapes = config["pages"] + config["api"]
    out = subprocess.run(
        ["node", "-e", script, json.dumps([shapes, paths])],
        capture_output=True,
        text=True,
        check=True,
        timeout=30,
    )
    assert json.loads(out.stdout) == [matching(shapes, p) for p in paths]


def test_every_pad_module_is_kept_offline():
    here = Path(settings.BASE_DIR) / "static"
    modules = sorted(p.relative_to(here).as_posix() for p in (here / "frames/pad").glob("*.js"))
    assert modules == sorted(views.PAD_MODULES)
    precache = worker_config()["precache"]
    for module in modules:
        assert "/static/" + module in precache
