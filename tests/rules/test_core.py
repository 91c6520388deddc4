"""The core contract: errors, validation, describe, replay, Timeline, registry, purity."""

from __future__ import annotations

import ast
import doctest
import importlib
import json
import pkgutil
import sys
from pathlib import Path
from typing import Any

import pytest

import rules
from rules import (
    FOULS,
    EventType,
    Field,
    Foul,
    Game,
    IllegalEvent,
    InvalidEvent,
    Option,
    RuleError,
    Timeline,
    UnknownGame,
    games,
    get,
    replay,
    validate_event,
    validate_setup,
)

RULES_DIR = Path(rules.__file__).resolve().parent
ALLOWED_TOP = set(sys.stdlib_module_names) | {"rules", "__future__"}


# ------------------------------------------------------------------------ purity


def _rules_modules() -> list[str]:
    return sorted(m.name for m in pkgutil.walk_packages([str(RULES_DIR)], "rules."))


def test_rules_package_imports_no_django():
    offenders = []
    files = sorted(RULES_DIR.rglob("*.py"))
    assert RULES_DIR / "core.py" in files
    for path in files:
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                if name.split(".")[0] not in ALLOWED_TOP:
                    offenders.append(f"{path.name}:{node.lineno} imports {name}")
    assert offenders == []


def test_import_check_would_catch_a_django_import():
    tree = ast.parse("import json\nfrom django.db import models\n")
    tops = [
        (n.module if isinstance(n, ast.ImportFrom) else n.names[0].name).split(".")[0]
        for n in ast.walk(tree)
        if isinstance(n, (ast.Import, ast.ImportFrom))
    ]
    assert [t for t in tops if t not in ALLOWED_TOP] == ["django"]


@pytest.mark.parametrize("module_name", _rules_modules())
def test_doctests_pass(module_name):
    module = importlib.import_module(module_name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


def test_doctests_exist_in_core_and_bar_billiards():
    for name in ("rules.core", "rules.validate", "rules.registry", "rules.bar_billiards"):
        tests = doctest.DocTestFinder().find(importlib.import_module(name))
        assert sum(len(t.examples) for t in tests) >= 5, name


def test_public_functions_have_docstrings():
    missing = []
    for name in (
        "rules.core",
        "rules.vocabulary",
        "rules.validate",
        "rules.seating",
        "rules.layout",
        "rules.registry",
        "rules.bar_billiards",
        "rules.__main__",
    ):
        module = importlib.import_module(name)
        for attr in getattr(module, "__all__", dir(module)):
            if attr.startswith("_"):
                continue
            obj = getattr(module, attr)
            if callable(obj) and getattr(obj, "__module__", None) == name and not obj.__doc__:
                missing.append(f"{name}.{attr}")
    assert missing == []


# ------------------------------------------------------------------------ errors


def test_rule_error_as_dict_and_at_keep_class_and_code():
    err = IllegalEvent("not_on_table", "the red is not on the table")
    moved = err.at(5)
    assert isinstance(moved, IllegalEvent)
    assert moved.as_dict() == {
        "error": "not_on_table",
        "message": "the red is not on the table",
        "index": 5,
    }
    assert err.index is None
    assert isinstance(InvalidEvent("bad_value", "x"), RuleError)
    assert not isinstance(InvalidEvent("bad_value", "x"), IllegalEvent)


# --------------------------------------------------------------------- validation


class Toy(Game[int]):
    """A counter: ``add`` adds ``n``; the game is over at 10."""

    id = "toy_counter"
    name = "Toy counter"
    options = (Option("start", "int", 0, "the first value"),)
    events = (
        EventType(
            "add",
            "add n",
            (
                Field("n", "int", "how much", required=True),
                Field(
                    "fouls", "list", "fouls", default=(), item=Field("f", "str", "", choices=FOULS)
                ),
                Field(
                    "where", "object", "where", fields=(Field("x", "number", "x", required=True),)
                ),
                Field("tag", "str", "a tag", choices=("a", "b")),
            ),
        ),
    )
    fouls = (Foul("miss", "break", "missed"),)
    state_doc = {"value": "the count"}

    def initial(self, setup):
        return validate_setup(self, setup)["start"]

    def apply(self, state, event):
        validate_event(self, event)
        if state >= 10:
            raise IllegalEvent("game_over", "over")
        return state + event["n"]

    def view(self, state):
        return {"value": state}

    def dump(self, state):
        return {"value": state}

    def load(self, data):
        return data["value"]


TOY = Toy()


@pytest.mark.parametrize(
    ("event", "code"),
    [
        ([], "unknown_type"),
        ("add", "unknown_type"),
        ({}, "unknown_type"),
        ({"type": 3}, "unknown_type"),
        ({"type": "subtract"}, "unknown_type"),
        ({"type": "add", "n": 1, "colour": "red"}, "unknown_field"),
        ({"type": "add"}, "missing_field"),
        ({"type": "add", "n": True}, "bad_value"),
        ({"type": "add", "n": 1.0}, "bad_value"),
        ({"type": "add", "n": "1"}, "bad_value"),
        ({"type": "add", "n": None}, "bad_value"),
        ({"type": "add", "n": 1, "fouls": "miss"}, "bad_value"),
        ({"type": "add", "n": 1, "fouls": ["push"]}, "unknown_foul"),
        ({"type": "add", "n": 1, "where": {}}, "missing_field"),
        ({"type": "add", "n": 1, "where": {"x": 1, "y": 2}}, "unknown_field"),
        ({"type": "add", "n": 1, "where": {"x": False}}, "bad_value"),
        ({"type": "add", "n": 1, "where": {"x": float("nan")}}, "bad_value"),
        ({"type": "add", "n": 1, "tag": "c"}, "bad_value"),
    ],
)
def test_validate_event_codes(event, code):
    with pytest.raises(InvalidEvent) as info:
        validate_event(TOY, event)
    assert info.value.code == code
    assert info.value.index is None


def test_validate_event_accepts_well_formed_events():
    validate_event(TOY, {"type": "add", "n": 2, "fouls": ["miss"], "where": {"x": 1.5}})
    validate_event(TOY, {"type": "add", "n": 2, "tag": None})


@pytest.mark.parametrize(
    "setup",
    [[], {"start": "1"}, {"start": True}, {"finish": 3}],
)
def test_bad_setup_is_refused_with_index_minus_one(setup):
    with pytest.raises(InvalidEvent) as info:
        replay(TOY, setup, [])
    assert info.value.code == "bad_setup"
    assert info.value.index == -1


def test_option_puts_default_before_doc():
    opt = Option("start", "int", 3, "the first value")
    assert (opt.default, opt.doc, opt.required) == (3, "the first value", False)


def test_field_refuses_unknown_json_type():
    with pytest.raises(ValueError, match="unknown type"):
        Field("x", "float", "no such type")


def test_describe_is_complete_json():
    d = TOY.describe()
    assert json.loads(json.dumps(d)) == d
    (add,) = d["events"]
    fouls_field = add["fields"][1]
    assert fouls_field["default"] == []
    assert fouls_field["item"]["choices"] == ["miss"]
    assert set(add["fields"][0]) == {
        "name",
        "type",
        "doc",
        "required",
        "nullable",
        "default",
        "choices",
        "choices_from",
        "minimum",
        "maximum",
        "item",
        "fields",
        "variants",
        "drawn_by_service",
    }
    assert d["setup"][0]["default"] == 0
    assert d["state"] == {"value": "the count"}


# -------------------------------------------------------------- replay, Timeline


def test_replay_sets_the_index_of_the_refused_event():
    with pytest.raises(InvalidEvent) as info:
        replay(TOY, {}, [{"type": "add", "n": 1}, {"type": "add", "n": 1}, {"type": "add"}])
    assert info.value.index == 2
    with pytest.raises(IllegalEvent) as info2:
        replay(TOY, {"start": 10}, [{"type": "add", "n": 1}])
    assert info2.value.as_dict()["index"] == 0


def test_replay_finds_games_by_name():
    state = replay("bar-billiards", {}, [{"type": "bar_down"}])
    assert get("bar_billiards_4pin").view(state)["bar_down"] is True


def test_timeline_push_undo_and_refusal():
    t = Timeline(TOY, {"start": 1})
    assert len(t) == 0
    assert t.state == 1
    t.push({"type": "add", "n": 4})
    t.push({"type": "add", "n": 5})
    assert (len(t), t.state, t.view()) == (2, 10, {"value": 10})
    with pytest.raises(IllegalEvent) as info:
        t.push({"type": "add", "n": 1})
    assert info.value.index == 2
    assert (len(t), t.state) == (2, 10)
    assert t.undo() == 5
    assert t.events == ({"type": "add", "n": 4},)
    assert t.undo() == 1
    with pytest.raises(IndexError):
        t.undo()


# ------------------------------------------------------------------- registry


def test_registry_finds_by_id_and_alias():
    bb = get("bar_billiards_4pin")
    assert get("Bar-Billiards") is bb
    assert get("bar_billiards") is bb


def test_unknown_game_is_a_key_error_with_a_clear_message():
    with pytest.raises(KeyError) as info:
        get("tiddlywinks")
    assert isinstance(info.value, UnknownGame)
    assert "tiddlywinks" in str(info.value)
    assert "bar_billiards_4pin" in str(info.value)


def test_games_are_sorted_by_id_and_include_bar_billiards():
    ids = [g.id for g in games()]
    assert ids == sorted(ids)
    assert "bar_billiards_4pin" in ids


@pytest.mark.parametrize("game", games(), ids=lambda g: g.id)
def test_every_game_describes_itself_completely(game):
    d = game.describe()
    assert json.loads(json.dumps(d)) == d
    assert d["id"] == game.id
    assert d["name"]
    assert d["players"]
    assert d["family"]
    assert d["events"], "a game needs events"

    def walk(field: dict[str, Any]) -> None:
        assert field["doc"], f"{game.id}: field {field['name']} has no doc"
        if field["item"]:
            walk(field["item"])
        for sub in field["fields"]:
            walk(sub)

    for option in d["setup"]:
        walk(option)
    for event in d["events"]:
        assert event["doc"]
        for f in event["fields"]:
            walk(f)
    for foul in d["fouls"]:
        assert foul["doc"]
        assert foul["penalty"]
    assert d["state"]


def test_registry_is_complete_for_concurrent_first_callers():
    """The first lookups of a fresh process, from many threads at once, all find the game."""
    import subprocess
    import sys

    code = (
        "import threading\n"
        "from rules import registry\n"
        "found = []\n"
        "barrier = threading.Barrier(16)\n"
        "def look():\n"
        "    barrier.wait()\n"
        "    try:\n"
        "        found.append(registry.get('three_cushion_carom').id)\n"
        "    except Exception as exc:\n"
        "        found.append(repr(exc))\n"
        "threads = [threading.Thread(target=look) for _ in range(16)]\n"
        "[t.start() for t in threads]; [t.join() for t in threads]\n"
        "print(sorted(set(found)))\n"
    )
    for _ in range(5):
        out = subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            check=True,
            cwd=str(__import__("pathlib").Path(__file__).parents[2]),
        )
        assert out.stdout.strip() == "['three_cushion_carom']", out.stdout + out.stderr
