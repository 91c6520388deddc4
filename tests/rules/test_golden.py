"""Golden frames: whole frames under tests/rules/data/<game>/*.json, replayed in CI.

A golden file is ``{"game", "setup", "events", "expected"}`` (plus optional ``title``,
``notes`` and ``checkpoints``: ``[{"after": N, "expected": {...}}]`` checked after the
first N events). ``expected`` lists keys of the final view (every key given must match;
keys not given are not checked). A file whose frame must be refused gives ``"error":
{"error", "index"}`` instead of ``expected``. Files for any registered game are picked up.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from rules import RuleError, Timeline, get, replay

DATA = Path(__file__).resolve().parent / "data"
GOLDEN = sorted(DATA.glob("*/*.json"))


def _load(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


def _subset(view: dict[str, Any], expected: dict[str, Any]) -> dict[str, Any]:
    return {k: view.get(k, "<missing>") for k in expected}


def test_there_are_golden_frames_for_bar_billiards():
    names = {p.stem for p in GOLDEN if p.parent.name == "bar_billiards_4pin"}
    assert len(names) >= 6


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_golden_frame(path):
    doc = _load(path)
    game = get(doc["game"])
    assert path.parent.name == game.id, "golden files live under data/<game id>/"
    if "error" in doc:
        with pytest.raises(RuleError) as info:
            replay(game, doc.get("setup"), doc["events"])
        got = info.value.as_dict()
        assert {k: got[k] for k in doc["error"]} == doc["error"]
        return
    t = Timeline(game, doc.get("setup"))
    checkpoints = {c["after"]: c["expected"] for c in doc.get("checkpoints", [])}
    for n, event in enumerate(doc["events"], start=1):
        t.push(event)
        if n in checkpoints:
            assert _subset(t.view(), checkpoints[n]) == checkpoints[n], f"after {n} events"
    final = t.view()
    assert _subset(final, doc["expected"]) == doc["expected"]
    assert final["events"] == len(doc["events"])
    # the web app's path gives the same frame: load(dump(state)) before every event
    state = game.initial(doc.get("setup"))
    for event in doc["events"]:
        state = game.apply(game.load(json.loads(json.dumps(game.dump(state)))), event)
    assert game.view(state) == final
