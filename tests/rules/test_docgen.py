"""The game pages under docs/games: generated from the engine, never drifting from it."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

import rules
from rules import EventType, Field, Foul, Game, Option, Participants, Stat, docgen, games, get
from rules.__main__ import main
from rules.docgen import BEGIN, END, PageError, render, render_index, replace_block

ROOT = Path(__file__).resolve().parents[2]
WITH_PAGES = [g for g in games() if docgen.page_path(g).exists()]


def block_of(game: Game[Any]) -> str:
    return f"{BEGIN}\n{render(game)}{END}"


def test_the_docs_directory_is_the_repositorys():
    assert Path(rules.__file__).resolve().parent.parent / "docs" / "games" == docgen.DOCS_DIR
    assert ROOT / "docs" / "games" == docgen.DOCS_DIR


def test_bar_billiards_has_a_page():
    assert get("bar_billiards_4pin") in WITH_PAGES


@pytest.mark.parametrize("game", WITH_PAGES, ids=lambda g: g.id)
def test_every_page_holds_exactly_the_current_generated_part(game):
    text = docgen.page_path(game).read_text(encoding="utf-8")
    assert text.count(BEGIN) == 1 and text.count(END) == 1, "markers missing or repeated"
    assert block_of(game) in text, (
        f"{docgen.page_path(game).relative_to(ROOT)} has drifted from the engine: "
        f"run python -m rules docs --write {game.id}"
    )


def test_the_readme_holds_the_current_table_of_games():
    text = (docgen.DOCS_DIR / "README.md").read_text(encoding="utf-8")
    expected = f"{BEGIN}\n{render_index(games())}{END}"
    assert expected in text, "the table of games is stale: run python -m rules docs --index"


@pytest.mark.parametrize("game", games(), ids=lambda g: g.id)
def test_the_generated_part_names_everything_the_game_declares(game):
    text = render(game)
    assert render(game) == text  # deterministic
    for e in game.events:
        assert f"#### `{e.type}`" in text
        for f in e.fields:
            assert f"**`{f.name}`**" in text
    for opt in game.options:
        assert f"**`{opt.name}`**" in text
    for foul in game.fouls:
        assert f"| `{foul.code}` | {foul.penalty} |" in text
    for key in game.state_doc:
        assert f"| `{key}` |" in text
    for stat in game.statistics:
        assert f"| `{stat.name}` |" in text
    for key, label in game.display:
        assert f"| {label} | `{key}` |" in text
    assert BEGIN not in text and END not in text


class Sample(Game[Any]):
    """A game declaring each kind of field the generator renders."""

    id, name, family, players = "sample_game", "A sample game", "sample", "2 to 4"
    participants = Participants(("players", "sides"), min=2, max=4, count=True)
    options = (
        Option("target", "int", 50, "points to win", minimum=1),
        Option("leads", "str", None, "who leads", choices_from="players"),
    )
    events = (
        EventType(
            "pot",
            "a ball potted",
            (
                Field(
                    "ball",
                    "union",
                    "the ball",
                    required=True,
                    variants=(
                        Field("cue", "str", "the cue ball", choices=("cue",)),
                        Field("number", "int", "a numbered ball", minimum=1, maximum=15),
                    ),
                ),
                Field("cup", "int", "the cup", choices_from="cups"),
                Field(
                    "fouls",
                    "list",
                    "fouls",
                    default=(),
                    item=Field("f", "str", "a code", choices=rules.FOULS),
                ),
                Field(
                    "lives",
                    "object",
                    "per player",
                    item=Field("n", "int", "lives", maximum=3),
                    choices_from="players",
                ),
            ),
        ),
    )
    fouls = (Foul("scratch", "ball_in_hand", "the cue ball went down", True),)
    state_doc = {"scores": "player -> points"}
    statistics = (
        Stat("points", "Points", "sum", "points scored"),
        Stat("visits", "Visits", "sum", "visits"),
        Stat("average", "Average", "ratio", "points a visit", "points", "visits"),
        Stat("high", "High run", "max", "best run"),
        Stat("won", "Games with a run", "count", "games with a run"),
    )
    display = (("scores", "Score"),)
    choice_set_doc = {"cups": "the cups of this board"}


def test_unions_ranges_choice_sets_and_statistics_read_plainly():
    text = render(Sample())
    assert "- **`ball`** (string or integer; required): The ball." in text
    assert '  - as a string (one of `"cue"`): The cue ball.' in text
    assert "  - as an integer (from 1 to 15): A numbered ball." in text
    assert "one of the cups ([choice set](#choice-sets) `cups`)" in text
    assert "keys: the players ([choice set](#choice-sets) `players`)" in text
    assert "  - each value (integer; at most 3): Lives." in text
    assert "each element (string; a foul code (see [Fouls](#fouls))): A code." in text
    assert "- **`target`** (integer; default `50`; at least 1): Points to win." in text
    assert "- `cups`: The cups of this board." in text
    assert "ratio: total `points` / total `visits`" in text
    assert "max: highest in one game" in text
    assert "count: number of games in which it is not zero" in text
    assert "- **Parties** (players in the usual form): 2 to 4." in text
    assert "| `scratch` | ball_in_hand | one tap | The cue ball went down. |" in text


HAND_WRITTEN_TOP = "# My game\n\nWhat the game is.\n\n## Where the book differs\n\n1. a note\n\n"
HAND_WRITTEN_BOTTOM = "\n## After the generated part\n\nMore notes, kept.\n"


def test_write_replaces_only_the_generated_part(tmp_path):
    game = get("bar_billiards_4pin")
    page = tmp_path / f"{game.id}.md"
    page.write_text(f"{HAND_WRITTEN_TOP}{BEGIN}\nstale text\n{END}{HAND_WRITTEN_BOTTOM}", "utf-8")
    assert docgen.write_page(game, tmp_path) is True
    text = page.read_text("utf-8")
    assert text == f"{HAND_WRITTEN_TOP}{block_of(game)}{HAND_WRITTEN_BOTTOM}"
    assert docgen.write_page(game, tmp_path) is False  # already current: untouched
    assert page.read_text("utf-8") == text


def test_write_creates_a_page_with_a_heading_and_a_placeholder(tmp_path):
    game = get("three_cushion_carom")
    assert docgen.write_page(game, tmp_path / "games") is True
    text = docgen.page_path(game, tmp_path / "games").read_text("utf-8")
    assert text.startswith(f"# {game.name}\n\n*The hand-written part")
    assert "is to come" in text.split(BEGIN)[0]
    assert text.endswith(block_of(game) + "\n")


def test_a_page_without_markers_gets_the_block_appended(tmp_path):
    game = get("bar_billiards_4pin")
    page = tmp_path / f"{game.id}.md"
    page.write_text("# Bar billiards\n\nOur words.\n", "utf-8")
    docgen.write_page(game, tmp_path)
    assert page.read_text("utf-8") == f"# Bar billiards\n\nOur words.\n\n{block_of(game)}\n"


@pytest.mark.parametrize(
    "text",
    [f"{BEGIN}\nonly the start\n", f"{END}\n{BEGIN}\n", f"{BEGIN}\n{BEGIN}\n{END}\n"],
)
def test_broken_markers_are_refused_not_guessed(text):
    with pytest.raises(PageError):
        replace_block(text, "block\n")


def test_the_index_links_the_games_that_have_pages(tmp_path):
    (tmp_path / "bar_billiards_4pin.md").write_text("x", "utf-8")
    (tmp_path / "README.md").write_text(f"# Games\n\n{BEGIN}\n{END}\n\nThe end.\n", "utf-8")
    assert docgen.write_index(games(), tmp_path) is True
    text = (tmp_path / "README.md").read_text("utf-8")
    assert "| [`bar_billiards_4pin`](bar_billiards_4pin.md) | 4-pin bar billiards |" in text
    assert "| `three_cushion_carom` | Three-cushion carom | `carom` | 2 |" in text
    assert text.startswith("# Games\n\n") and text.endswith(f"{END}\n\nThe end.\n")


def run(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(args), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_cli_docs_prints_the_generated_part():
    code, out, _ = run("docs", "bar-billiards")
    assert code == 0 and out == render(get("bar_billiards_4pin"))


def test_cli_docs_check_passes_on_the_repository():
    code, out, err = run("docs", "--check")
    assert code == 0, err
    assert json.loads(out) == {"current": True}


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (("docs", "snooker"), "unknown_game"),
        (("docs", "--write", "snooker"), "unknown_game"),
        (("docs", "--index", "bar_billiards_4pin"), "usage"),
        (("docs", "--frobnicate"), "usage"),
        (("docs", "bar_billiards_4pin", "extra"), "usage"),
        (("docs",), "usage"),
    ],
)
def test_cli_docs_refusals(args, error):
    code, out, err = run(*args)
    assert code == 2 and out == ""
    assert json.loads(err)["error"] == error
