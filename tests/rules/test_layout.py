"""What the engine declares for the web app: a paper score's step, the statistic the
breaks chart bins, and the drawing of the table."""

from __future__ import annotations

import pytest

from rules import games, get
from rules.layout import POCKET_SPOTS, TableMap, bed_spots, pocket_map


@pytest.mark.parametrize("game", games(), ids=lambda g: g.id)
def test_every_games_declarations_hold_together(game):
    assert isinstance(game.score_step, int) and game.score_step >= 1
    if game.best_stat:
        (stat,) = [s for s in game.statistics if s.name == game.best_stat]
        assert stat.agg == "max"
    table = game.table_map()
    if table is not None:
        (event,) = [e for e in game.events if e.type == table.event]
        (field,) = [f for f in event.fields if f.name == table.field]
        assert field.type == "list" and field.item is not None
        (place,) = [f for f in field.item.fields if f.name == table.place]
        assert tuple(place.choices) == table.choices
        assert all(0 <= s.x <= 1 and 0 <= s.y <= 1 for s in table.spots)
        assert len({(s.x, s.y) for s in table.spots}) == len(table.spots)


def test_bar_billiards_scores_in_tens_on_a_bed_of_holes():
    bb = get("bar_billiards_4pin")
    assert bb.score_step == 10 and bb.best_stat == "high_break"
    table = bb.table_map()
    assert (table.event, table.field, table.place, table.shape) == ("shot", "pots", "hole", "bed")
    ys = [table.spot(h)[1] for h in (10, 20, 30, 50, 100, 200)]
    assert ys == sorted(ys, reverse=True)  # the 200 at the back, the 10 nearest the player


@pytest.mark.parametrize(
    ("game_id", "step", "best"),
    [
        ("english_bagatelle", 1, "best_turn"),
        ("three_cushion_carom", 1, "high_run"),
        ("american_pyramid_pool", 1, "high_run"),
        ("bouillotte", 1, "biggest_pot"),
        ("two_ball_pool", 1, ""),
        ("kelly_pool", 1, ""),
    ],
)
def test_games_declare_their_score_step_and_best_statistic(game_id, step, best):
    game = get(game_id)
    assert (game.score_step, game.best_stat) == (step, best)


def test_pocket_tables_are_drawn_from_the_pockets_the_game_declares():
    english = get("english_billiards").table_map()
    american = get("bbc_co_pool").table_map()
    assert english is not None and american is not None
    assert english.spot("baulk_left") == (0.0, 1.0) and english.spot("top_right") == (1.0, 0.0)
    assert american.spot("head_left") == (0.0, 0.0) and american.spot("side_right") == (1.0, 0.5)
    assert get("parisian_31_pool").table_map() is None  # cups named by the setup
    assert get("three_cushion_carom").table_map() is None  # no pockets
    with pytest.raises(KeyError):
        english.spot("corner")


def test_a_pocket_outside_the_known_tables_draws_nothing():
    from rules.vocabulary import EventType, Field

    pot = Field("pot", "object", "p", fields=(Field("pocket", "str", "q", choices=("corner",)),))
    event = EventType("stroke", "s", (Field("pots", "list", "p", item=pot),))
    assert pocket_map([event]) is None
    assert set(POCKET_SPOTS) >= set(get("english_pyramids").table_map().choices)


def test_bed_spots_put_the_highest_hole_at_the_back():
    spots = bed_spots((200, 10, 50))
    assert [s.name for s in spots] == [10, 50, 200]
    assert spots[-1].y < spots[0].y
    assert isinstance(TableMap("shot", "pots", "hole", "bed", spots).choices, tuple)
