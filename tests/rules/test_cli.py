"""``python -m rules`` run as a subprocess with a bare ``python3`` from the repository root."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from rules import get

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "rules" / "data" / "bar_billiards_4pin" / "shared_frame.json"
PYTHON = shutil.which("python3") or "python3"


def cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    return subprocess.run(
        [PYTHON, "-m", "rules", *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
        check=False,
    )


def error_of(proc: subprocess.CompletedProcess[str]) -> dict[str, Any]:
    assert proc.returncode == 2
    assert proc.stdout == ""
    err = json.loads(proc.stderr)
    assert set(err) == {"error", "message", "index"}
    assert err["message"]
    return err


def test_list_prints_the_games():
    proc = cli("list")
    assert proc.returncode == 0, proc.stderr
    games = json.loads(proc.stdout)
    bb = next(g for g in games if g["id"] == "bar_billiards_4pin")
    assert bb == {
        "id": "bar_billiards_4pin",
        "name": "4-pin bar billiards",
        "aliases": ["bar_billiards", "bar-billiards", "4-pin"],
        "players": "2 sides, singles or doubles",
        "family": "bar_billiards",
    }
    assert [g["id"] for g in games] == sorted(g["id"] for g in games)


def test_describe_prints_the_vocabulary():
    proc = cli("describe", "bar-billiards")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == get("bar_billiards_4pin").describe()


def test_describe_an_unknown_game_fails_with_status_2():
    err = error_of(cli("describe", "tiddlywinks"))
    assert err["error"] == "unknown_game"
    assert "tiddlywinks" in err["message"]


def test_replay_a_file_prints_the_state():
    proc = cli("replay", str(GOLDEN.relative_to(ROOT)))
    assert proc.returncode == 0, proc.stderr
    view = json.loads(proc.stdout)
    expected = json.loads(GOLDEN.read_text())["expected"]
    assert {k: view[k] for k in expected} == expected


def test_replay_reads_standard_input():
    doc = {"game": "bar_billiards_4pin", "setup": {}, "events": [{"type": "shot"}]}
    proc = cli("replay", "-", stdin=json.dumps(doc))
    assert proc.returncode == 0, proc.stderr
    view = json.loads(proc.stdout)
    assert (view["at_table"], view["events"], view["on_table"]) == ("away", 1, 2)


def test_replay_of_a_refused_event_names_code_and_index():
    doc = {
        "game": "bar_billiards_4pin",
        "events": [{"type": "shot"}, {"type": "shot", "fouls": ["pin_300"]}],
    }
    err = error_of(cli("replay", "-", stdin=json.dumps(doc)))
    assert (err["error"], err["index"]) == ("unknown_foul", 1)


def test_replay_of_an_impossible_event():
    doc = {
        "game": "bar_billiards_4pin",
        "events": [
            {"type": "bar_down"},
            {"type": "shot", "pots": [{"ball": "red", "hole": 50}]},
            {"type": "shot"},
            {"type": "shot", "pots": [{"ball": "red", "hole": 50}]},
        ],
    }
    err = error_of(cli("replay", "-", stdin=json.dumps(doc)))
    assert (err["error"], err["index"]) == ("not_on_table", 3)


def test_replay_of_a_bad_setup_answers_index_minus_one():
    doc = {"game": "bar_billiards_4pin", "setup": {"white_balls": 9}, "events": []}
    err = error_of(cli("replay", "-", stdin=json.dumps(doc)))
    assert (err["error"], err["index"]) == ("bad_setup", -1)


@pytest.mark.parametrize(
    ("stdin", "code"),
    [
        ("{not json", "bad_json"),
        ("[1, 2]", "bad_document"),
        ('{"game": "tiddlywinks", "events": []}', "unknown_game"),
        ('{"events": []}', "bad_document"),
        ('{"game": "bar_billiards_4pin", "events": {}}', "bad_document"),
        ('{"game": "bar_billiards_4pin", "event": []}', "bad_document"),
    ],
)
def test_replay_of_a_bad_document_fails_with_status_2(stdin, code):
    assert error_of(cli("replay", "-", stdin=stdin))["error"] == code


def test_replay_of_a_missing_file_fails_with_status_2():
    err = error_of(cli("replay", "no/such/file.json"))
    assert err["error"] == "unreadable"


def test_bad_usage_fails_with_status_2():
    assert error_of(cli())["error"] == "usage"
    assert error_of(cli("frobnicate"))["error"] == "usage"
