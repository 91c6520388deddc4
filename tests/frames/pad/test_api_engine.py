"""The pad's offline engine on the server side: the engine zip (the rules' source, named
by its content hash), what the pad page tells pad.js about it, the service worker's
configuration; and the pad page for a friendly game (a frame with no match)."""

from __future__ import annotations

import io
import json
import re
import zipfile
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import timezone

import rules
from frames.models import Frame, Friendly
from frames.pad import views
from rules import registry
from rules.seating import setup_for
from tests.frames.pad.test_api import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def league(league_of_the_module):
    """Built once for this module: its tests only read it, and their writes roll back."""
    return league_of_the_module


def pad_context(html: str) -> dict:
    return json.loads(
        re.search(r'id="pad-context" type="application/json">(.*?)</script>', html).group(1)
    )


def test_the_engine_zip_holds_the_rules_source_under_its_content_hash(league):
    digest, data = views.engine_bundle()
    assert views.engine_bundle() == (digest, data)  # built once per process
    url = reverse("pad-engine", args=[digest])
    response = client_for().get(url)
    assert response.status_code == 200 and response["Content-Type"] == "application/zip"
    assert "immutable" in response["Cache-Control"]
    names = zipfile.ZipFile(io.BytesIO(response.content)).namelist()
    root = Path(rules.__file__).parent
    expected = {"rules/" + p.relative_to(root).as_posix() for p in root.rglob("*.py")}
    expected = {n for n in expected if "__pycache__" not in n}
    assert set(names) == expected and "rules/core.py" in names and "rules/__init__.py" in names
    archive = zipfile.ZipFile(io.BytesIO(response.content))
    assert archive.read("rules/core.py") == (root / "core.py").read_bytes()
    # another hash (an old engine) is not served: caches never mix versions
    assert client_for().get(reverse("pad-engine", args=["0" * 16])).status_code == 404


def test_the_pad_page_names_the_engine_and_pyodide(league):
    from tests.frames.pad_helpers import make_frame, make_match, referee_player

    frame = make_frame(make_match(league), referee=referee_player(league))
    html = client_for(league.player_user).get(reverse("frame-pad", args=[frame.pk])).content
    context = pad_context(html.decode())
    engine = context["engine"]
    if not views.pyodide_available():
        assert engine is None  # the pad then shows queued shots as waiting
        return
    assert engine["zip"] == reverse("pad-engine", args=[views.engine_bundle()[0]])
    assert engine["worker"].endswith("frames/engine/worker.js")
    assert engine["pyodide"].endswith("/vendor/pyodide/")
    assert {Path(f).name for f in engine["files"]} >= {"pyodide.js", "pyodide.asm.wasm"}
    sw = client_for().get(reverse("pad-sw")).content
    config = json.loads(re.match(rb"self.MARKER_SW = (\{.*?\});", sw).group(1))
    assert config["engine_zip"] == engine["zip"] and config["engine_prefix"] == "/pad/engine/"
    assert config["pyodide_prefix"] == engine["pyodide"] and config["pyodide_version"] != "none"
    assert any(p.endswith("frames/engine/worker.js") for p in config["precache"])


def test_without_pyodide_the_pad_says_so(league, monkeypatch):
    from tests.frames.pad_helpers import make_frame, make_match

    monkeypatch.setattr(views, "pyodide_available", lambda: False)
    frame = make_frame(make_match(league))
    html = client_for(league.secretary).get(reverse("frame-pad", args=[frame.pk])).content
    assert pad_context(html.decode())["engine"] is None


def test_a_friendly_game_has_a_pad(league):
    game = registry.get("three_cushion_carom")
    friendly = Friendly.objects.create(
        owner=league.secretary, title="Ann v Bob at the Crown", created_at=timezone.now()
    )
    frame = Frame.objects.create(
        friendly=friendly,
        number=1,
        order=1,
        kind="singles",
        game_id=game.id,
        setup=setup_for(game, ["Ann", "Bob"], {"target": 3}),
    )
    response = client_for(league.secretary).get(reverse("frame-pad", args=[frame.pk]))
    assert response.status_code == 200
    html = response.content.decode()
    context = pad_context(html)
    assert context["match"] is None and context["friendly"] == friendly.pk
    assert {"Ann", "Bob"} <= set(context["parties"])
    assert "Ann v Bob at the Crown" in html
    try:
        page = reverse("friendly-detail", args=[friendly.pk])
    except Exception:  # the lead's page is not in this branch yet
        page = reverse("pad-home")
    assert context["urls"]["scorecard"] == context["urls"]["live"] == page
    assert f'href="{page}"' in html
