"""``python -m rules`` with the pocket games, run as a subprocess with a bare ``python3``
from the repository root: list, describe, replay of each golden game, and a refusal
(exit 2, the error on standard error)."""

from __future__ import annotations

import json

import pytest

from tests.rules.test_cli import ROOT, cli, error_of

POCKET = [
    "continuous_pool",
    "fifteen_ball_pool",
    "american_pyramid_pool",
    "rotation_pool",
    "high_low_jack",
    "bbc_co_pool",
    "two_ball_pool",
    "color_ball_life_pool",
    "golf_pool",
]


def test_list_shows_every_game_of_the_page():
    proc = cli("list")
    assert proc.returncode == 0, proc.stderr
    listed = {g["id"]: g for g in json.loads(proc.stdout)}
    for gid in POCKET:
        assert listed[gid]["family"] == "pocket"


@pytest.mark.parametrize("gid", POCKET)
def test_replay_scores_the_golden_game_as_the_page_says(gid):
    for path in sorted((ROOT / "tests" / "rules" / "data" / gid).glob("*.json")):
        doc = json.loads(path.read_text(encoding="utf-8"))
        proc = cli("replay", str(path))
        assert proc.returncode == 0, proc.stderr
        view = json.loads(proc.stdout)
        assert {k: view[k] for k in doc["expected"]} == doc["expected"]


def test_describe_and_a_refused_event_exit_2_with_its_index():
    proc = cli("describe", "golf")
    assert proc.returncode == 0 and json.loads(proc.stdout)["id"] == "golf_pool"
    doc = {
        "game": "fifteen_ball_pool",
        "events": [
            {"type": "stroke", "pots": [{"ball": 15}]},
            {"type": "stroke", "pots": [{"ball": 15}]},
        ],
    }
    err = error_of(cli("replay", "-", stdin=json.dumps(doc)))
    assert (err["error"], err["index"]) == ("not_on_table", 1)
    assert "pots[0].ball" in err["message"]
    err = error_of(
        cli("replay", "-", stdin=json.dumps({"game": "golf_pool", "setup": {"players": ["A"]}}))
    )
    assert (err["error"], err["index"]) == ("bad_setup", -1)
