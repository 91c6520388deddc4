"""4-pin bar billiards, one named test per rule (the 4-pin bar billiards scoring language)."""

from __future__ import annotations

from typing import Any

import pytest

from rules import IllegalEvent, InvalidEvent, RuleError, Timeline, replay

try:  # the tests directory may or may not be a package
    from .conftest import (
        BAR_DOWN,
        BB,
        INVOKE,
        MISS,
        TO_CUTOFF,
        TO_ENDGAME,
        R,
        W,
        play,
        position,
        refused,
        run,
        shot,
    )
except ImportError:
    from conftest import (  # type: ignore[no-redef]
        BAR_DOWN,
        BB,
        INVOKE,
        MISS,
        TO_CUTOFF,
        TO_ENDGAME,
        R,
        W,
        play,
        position,
        refused,
        run,
        shot,
    )

SINGLES = {"players": {"home": ["Ann"], "away": ["Bob"]}}
BREAK_FOULS = [f.code for f in BB.fouls if f.penalty == "break" and f.code != "red_not_played"]
ENTIRE_FOULS = ["pin_200", "deliberate", "unsporting"]


def view(state: Any) -> dict[str, Any]:
    return BB.view(state)


# ------------------------------------------------------------------- the start


def test_initial_state_has_every_key_the_spec_fixes():
    v = play([], SINGLES)
    assert {
        k: v[k]
        for k in (
            "game",
            "over",
            "winner",
            "shared",
            "scores",
            "break",
            "at_table",
            "player",
            "phase",
            "bar_down",
            "balls_in_play",
            "on_table",
            "red",
            "next",
            "events",
        )
    } == {
        "game": "bar_billiards_4pin",
        "over": False,
        "winner": None,
        "shared": False,
        "scores": {"home": 0, "away": 0},
        "break": 0,
        "at_table": "home",
        "player": "Ann",
        "phase": "play",
        "bar_down": False,
        "balls_in_play": 8,
        "on_table": 0,
        "red": "trough",
        "next": "break_off",
        "events": 0,
    }
    assert set(v) <= set(BB.state_doc)


def test_breaks_first_and_custom_side_names():
    v = play([], {"sides": ["Crown", "Anchor"], "breaks_first": "Anchor"})
    assert v["at_table"] == "Anchor"
    assert v["scores"] == {"Crown": 0, "Anchor": 0}
    assert v["player"] is None


# --------------------------------------------------------------------- break-offs


def test_break_off_brings_the_red_and_a_white_onto_the_table():
    v = play([MISS])
    assert (v["on_table"], v["trough"], v["red"]) == (2, 6, "table")
    assert v["last"]["brought"] == ["red", "white"]
    assert v["last"]["break_off"] is True
    assert (v["at_table"], v["next"]) == ("away", "play")


def test_both_break_off_balls_potted_means_break_off_again():
    v = play([shot(W(50), R(100))])
    assert v["break"] == 250  # 50 + 2 x 100
    assert v["next"] == "break_off"
    assert (v["on_table"], v["at_table"]) == (0, "home")


def test_break_off_potting_one_ball_leaves_the_other_on_the_table():
    v = play([shot(W(50), R(100)), shot(W(200))])
    assert v["break"] == 450
    assert v["red"] == "table"
    assert v["next"] == "play"
    after = play([shot(W(50), R(100)), shot(W(200)), shot(W(10))])
    assert after["last"]["brought"] == ["white"]  # the red is on the table: a white comes on


def test_potting_every_ball_on_the_table_means_a_break_off():
    # the break-off pots the white only (the red stays on the table); then a white is
    # played from the D and both it and the red go down: the table is empty again.
    v = play([shot(W(20)), shot(R(50), W(30))])
    assert v["on_table"] == 0
    assert v["next"] == "break_off"
    assert v["break"] == 20 + 100 + 30


def test_break_off_with_the_red_gone_uses_two_whites():
    s = position(bar=True, red="out", w_table=0, w_trough=4)
    s = run(s, MISS)
    v = view(s)
    assert v["last"]["brought"] == ["white", "white"]
    assert (v["on_table"], v["trough"]) == (2, 2)


def test_break_off_with_one_white_and_the_red_in_the_trough_brings_both():
    s = position(bar=True, red="trough", w_table=0, w_trough=1, scores=(0, 0))
    assert view(s)["next"] == "break_off"
    assert view(run(s, MISS))["last"]["brought"] == ["red", "white"]


# ----------------------------------------------------------------- red first rule


def test_red_in_the_trough_must_be_played_next():
    s = replay(BB, {}, [shot(R(50))])  # break-off: the red goes down, the white stays
    assert view(s)["next"] == "play_red"
    v = view(run(s, MISS))
    assert v["last"]["brought"] == ["red"]
    assert v["red"] == "table"


def test_red_not_played_foul_brings_a_white_and_loses_the_break():
    s = replay(BB, {}, [shot(R(50))])  # break 100, red back in the trough
    v = view(run(s, shot(W(100), fouls=["red_not_played"])))
    assert v["last"]["brought"] == ["white"]
    assert v["red"] == "trough"
    assert v["scores"] == {"home": 0, "away": 0}
    assert v["last"]["lost"] == 100
    assert v["last"]["pots"] == [{"ball": "white", "hole": 100, "points": 0}]
    assert v["at_table"] == "away"
    assert v["next"] == "play_red"


def test_red_not_played_is_refused_when_the_red_is_not_in_the_trough():
    s = replay(BB, {}, [MISS])  # red on the table
    err = refused(s, shot(fouls=["red_not_played"]))
    assert err.code == "not_now"


# ---------------------------------------------------------------------- banking


def test_break_is_banked_when_the_visit_ends_on_a_shot_that_pots_nothing():
    s = replay(BB, {}, [shot(W(50), R(100)), shot(W(200))])
    assert view(s)["scores"]["home"] == 0  # not banked while the visit goes on
    v = view(run(s, MISS))
    assert v["scores"] == {"home": 450, "away": 0}
    assert v["last"]["banked"] == 450
    assert (v["break"], v["at_table"]) == (0, "away")
    assert v["breaks"] == {"home": 1, "away": 0}
    assert v["high_break"] == {"home": 450, "away": 0}


def test_visits_alternate_and_scores_accumulate():
    v = play([shot(W(50)), MISS, shot(W(30)), MISS, shot(W(20)), MISS])
    assert v["scores"] == {"home": 70, "away": 30}
    assert v["visits"] == {"home": 2, "away": 2}
    assert v["at_table"] == "away"


# ------------------------------------------------------------------------- fouls


def _home_banked_600_then(*events: dict[str, Any]) -> dict[str, Any]:
    # home: break-off W200 + R100 (400), break-off again W200 (600), miss: banks 600.
    # away misses (banks 0). home is back at the table with 600 banked.
    prelude = [shot(W(200), R(100)), shot(W(200)), MISS, MISS]
    return play([*prelude, *events])


def test_foul_loses_the_break_only():
    v = _home_banked_600_then(shot(R(50)), shot(fouls=["pin_50"]))
    assert v["scores"] == {"home": 600, "away": 0}
    assert v["last"]["lost"] == 100
    assert v["last"]["wiped"] == 0
    assert v["last"]["penalty"] == "break"
    assert v["at_table"] == "away"


def test_pin_200_wipes_banked_score():
    v = _home_banked_600_then(shot(W(200)), shot(W(100)), shot(fouls=["pin_200"]))
    assert v["scores"] == {"home": 0, "away": 0}
    assert v["last"]["foul"] == "pin_200"
    assert (v["last"]["lost"], v["last"]["wiped"]) == (300, 600)
    assert v["high_break"]["home"] == 600  # the banked break still counts for statistics


@pytest.mark.parametrize("code", ENTIRE_FOULS)
def test_entire_score_fouls_wipe_the_banked_score(code):
    v = _home_banked_600_then(shot(fouls=[code]))
    assert v["scores"]["home"] == 0
    assert v["last"]["penalty"] == "entire_score"


@pytest.mark.parametrize("code", BREAK_FOULS)
def test_break_fouls_keep_the_banked_score(code):
    v = _home_banked_600_then(shot(W(50)), shot(W(10), fouls=[code]))
    assert v["scores"]["home"] == 600
    assert (v["last"]["penalty"], v["last"]["lost"]) == ("break", 50)
    assert v["at_table"] == "away"


def test_heaviest_foul_wins():
    v = _home_banked_600_then(shot(W(100)), shot(fouls=["pin_50", "pin_200"]))
    assert v["scores"]["home"] == 0
    assert (v["last"]["foul"], v["last"]["penalty"]) == ("pin_200", "entire_score")
    assert v["last"]["fouls"] == ["pin_50", "pin_200"]


def test_heaviest_foul_ties_go_to_the_first_declared_code():
    v = _home_banked_600_then(shot(fouls=["deliberate", "pin_200"]))
    assert v["last"]["foul"] == "pin_200"


def test_pin_penalties_follow_the_hole():
    penalties = {f.code: f.penalty for f in BB.fouls}
    assert penalties["pin_200"] == "entire_score"
    assert penalties["pin_100"] == penalties["pin_50"] == "break"


def test_foul_shot_pots_never_score_but_the_balls_still_move():
    v = play([MISS, shot(R(200), W(200), fouls=["pin_50"])])  # away fouls potting both
    assert v["scores"] == {"home": 0, "away": 0}
    assert v["last"]["points"] == 0
    assert [p["points"] for p in v["last"]["pots"]] == [0, 0]
    assert v["red"] == "trough"
    assert v["next"] == "play_red"
    assert v["at_table"] == "home"
    assert v["fouls"] == {"home": 0, "away": 1}


def test_to_trough_returns_a_ball_from_the_table():
    v = play([shot(to_trough=["white"], fouls=["ball_in_baulk"])])
    assert (v["on_table"], v["trough"]) == (1, 7)


# ------------------------------------------------------------------------ the bar


def test_bar_down_keeps_the_visit_going():
    v = play([shot(W(50)), BAR_DOWN, shot(W(50))])
    assert v["bar_down"] is True
    assert v["break"] == 100
    assert v["at_table"] == "home"
    assert v["last"]["type"] == "shot"


def test_after_bar_down_potted_balls_leave_play():
    before = play([shot(W(50)), shot(W(50))])
    assert before["balls_in_play"] == 8
    after = play([BAR_DOWN, shot(W(50)), shot(W(50))])
    assert after["balls_in_play"] == 6
    assert after["whites"] == {"table": 0, "trough": 5, "out": 2}


def test_red_potted_after_bar_down_leaves_play():
    v = play([BAR_DOWN, shot(R(100))])
    assert v["red"] == "out"
    assert v["next"] == "play"  # not play_red: the red is gone
    assert v["break"] == 200


def test_balls_sent_to_the_trough_stay_in_play_after_bar_down():
    v = play([BAR_DOWN, shot(to_trough=["red"], fouls=["off_table"])])
    assert v["red"] == "trough"
    assert v["balls_in_play"] == 8


def test_bar_cannot_drop_twice():
    s = replay(BB, {}, [BAR_DOWN])
    assert refused(s, BAR_DOWN).code == "not_now"


# --------------------------------------------------------------- last ball, cut-off


def test_frame_ends_when_no_ball_is_left_and_the_running_break_is_banked():
    s = position(
        bar=True,
        red="out",
        w_table=1,
        w_trough=0,
        scores=(300, 250),
        at=1,
        visits=(1, 1),
        phase="endgame",
        brk=0,
    )
    v = view(run(s, shot(W(100), cushion=True)))
    assert v["over"]
    assert v["phase"] == "over"
    assert v["end"] == "no_balls"
    assert v["scores"] == {"home": 300, "away": 350}
    assert v["winner"] == "away"
    assert v["at_table"] is None
    assert v["next"] == "none"


def test_last_white_with_a_gap_over_200_ends_the_frame():
    v = play(TO_CUTOFF)
    assert v["over"]
    assert v["end"] == "cutoff"
    assert v["scores"] == {"home": 600, "away": 50}
    assert v["winner"] == "home"
    assert v["can_invoke_endgame"] is True
    assert v["last"]["banked"] == 50


def test_last_ball_with_a_gap_within_the_cutoff_starts_endgame_play():
    v = play(TO_ENDGAME)
    assert (v["phase"], v["next"], v["at_table"]) == ("endgame", "endgame", "home")
    assert v["scores"] == {"home": 150, "away": 120}
    assert v["break"] == 20
    assert (v["balls_in_play"], v["cutoff"], v["gap"]) == (1, 200, 50)


@pytest.mark.parametrize(
    ("ball", "home", "away", "phase"),
    [
        ("white", 1200, 1000, "endgame"),  # 200 is within the cut-off (inclusive)
        ("white", 1210, 1000, "over"),
        ("red", 1400, 1000, "endgame"),  # 400 for the red
        ("red", 1410, 1000, "over"),
    ],
)
def test_last_ball_cutoff_is_200_or_400_for_the_red(ball, home, away, phase):
    # two balls left (the last ball and a white); away pots the white with a foul
    red = "table" if ball == "red" else "out"
    w = 1 if ball == "red" else 2
    s = position(bar=True, red=red, w_table=w, w_trough=0, scores=(home, away), at=1, visits=(1, 1))
    v = view(run(s, shot(W(10), fouls=["miss"])))
    assert v["phase"] == phase
    assert v["balls_in_play"] == 1


def test_cutoff_gap_counts_the_break_of_the_side_at_the_table():
    # banked 970 v 1200 is a gap of 230 > 200; home is at the table and pots a white into
    # the 30, leaving one ball: with its running break 970 + 30 = 1000 v 1200, the gap is 200.
    s = position(
        bar=True, red="out", w_table=2, w_trough=0, scores=(970, 1200), at=0, visits=(1, 1)
    )
    v = view(run(s, shot(W(30))))
    assert v["phase"] == "endgame"
    assert v["break"] == 30
    assert v["gap"] == 200


# -------------------------------------------------------------------- the endgame


def _endgame(home: int, away: int, at: int, ball: str = "white", brk: int = 0) -> Any:
    red = "table" if ball == "red" else "out"
    return position(
        bar=True,
        red=red,
        w_table=0 if ball == "red" else 1,
        w_trough=0,
        scores=(home, away),
        at=at,
        visits=(1, 1),
        phase="endgame",
        brk=brk,
    )


def test_endgame_pot_off_a_cushion_into_the_200_scores_and_ends_the_frame():
    v = view(run(_endgame(1200, 1050, 1), shot(W(200), cushion=True)))
    assert v["scores"] == {"home": 1200, "away": 1250}
    assert v["winner"] == "away"
    assert v["last"]["banked"] == 200
    assert v["last"]["endgame"] is True


def test_endgame_pot_off_a_cushion_into_the_100():
    v = view(run(_endgame(1000, 800, 1), shot(W(100), cushion=True)))
    assert v["scores"] == {"home": 1000, "away": 900}
    assert v["winner"] == "home"


def test_endgame_continues_the_break_of_the_side_at_the_table():
    v = play([*TO_ENDGAME, shot(W(100), cushion=True)])
    assert v["scores"] == {"home": 150 + 20 + 100, "away": 120}
    assert v["last"]["banked"] == 120
    assert v["over"]


def test_endgame_legal_miss_banks_the_break_and_passes():
    v = play([*TO_ENDGAME, shot(cushion=True)])
    assert v["scores"] == {"home": 170, "away": 120}
    assert v["last"]["banked"] == 20
    assert (v["at_table"], v["phase"], v["break"]) == ("away", "endgame", 0)


def test_endgame_pot_without_a_cushion_loses_the_entire_score():
    v = view(run(_endgame(1200, 1050, 1, brk=40), shot(W(200), cushion=False)))
    assert v["scores"] == {"home": 1200, "away": 0}
    assert v["last"]["foul"] == "endgame_no_cushion"
    assert (v["last"]["lost"], v["last"]["wiped"]) == (40, 1050)
    assert v["over"]
    assert v["winner"] == "home"


def test_endgame_miss_without_a_cushion_loses_the_break_and_passes():
    v = view(run(_endgame(1200, 1050, 1, brk=40), shot(cushion=False)))
    assert v["scores"] == {"home": 1200, "away": 1050}
    assert (v["last"]["penalty"], v["last"]["foul"], v["last"]["lost"]) == ("break", None, 40)
    assert v["at_table"] == "home"
    assert v["phase"] == "endgame"


def test_endgame_pin_foul_with_a_pot_scores_nothing_and_ends_the_frame():
    v = view(run(_endgame(1000, 900, 1), shot(W(200), cushion=True, fouls=["pin_100"])))
    assert v["scores"] == {"home": 1000, "away": 900}
    assert v["over"]


def test_endgame_goes_on_when_a_foul_opens_the_gap_past_the_cutoff():
    # rule 2i: once endgame play has begun, play swaps until the ball is potted
    s = run(_endgame(1000, 900, 1), shot(cushion=True, fouls=["pin_200"]))
    v = view(s)
    assert v["scores"] == {"home": 1000, "away": 0}
    assert v["over"] is False
    assert (v["phase"], v["at_table"], v["gap"]) == ("endgame", "home", 1000)
    assert v["can_invoke_endgame"] is False
    v2 = view(run(s, shot(cushion=True, fouls=["pin_200"]), shot(W(100), cushion=True)))
    assert v2["scores"] == {"home": 0, "away": 100}
    assert v2["winner"] == "away"


def test_endgame_sides_alternate_until_the_ball_is_potted():
    s = _endgame(500, 450, 0)
    s = run(s, shot(cushion=True), shot(cushion=True), shot(cushion=True))
    assert view(s)["at_table"] == "away"
    v = view(run(s, shot(W(100), cushion=True)))
    assert v["scores"] == {"home": 500, "away": 550}
    assert v["winner"] == "away"


# --------------------------------------------------------------- invoke_endgame


def test_invoke_endgame_reopens_a_frame_won_on_the_cutoff():
    v = play([*TO_CUTOFF, INVOKE])
    assert (v["over"], v["phase"], v["next"], v["endgame_invoked"]) == (
        False,
        "endgame",
        "endgame",
        True,
    )
    # rule 2i(b), page revised: the break banked at the cut-off (away's 50) continues
    assert v["scores"] == {"home": 600, "away": 0}
    assert v["break"] == 50
    assert v["at_table"] == "away"  # the side that was at the table plays first
    # the cut-off no longer ends the frame; only potting the ball does
    v2 = play([*TO_CUTOFF, INVOKE, shot(cushion=True), shot(cushion=True, fouls=["pin_50"])])
    assert not v2["over"]
    assert v2["at_table"] == "away"
    v3 = play([*TO_CUTOFF, INVOKE, shot(cushion=True), shot(W(200), cushion=True)])
    assert v3["over"]
    assert v3["scores"] == {"home": 800, "away": 50}


def test_invoke_endgame_puts_the_break_banked_at_the_cutoff_at_risk_again():
    v = play([*TO_CUTOFF, INVOKE, shot(cushion=True, fouls=["pin_50"])])
    assert v["scores"] == {"home": 600, "away": 0}  # the 50 was lost with the break
    assert v["last"]["lost"] == 50
    assert (v["breaks"]["away"], v["high_break"]["away"]) == (0, 0)


def test_invoke_endgame_break_is_banked_again_by_a_legal_miss():
    v = play([*TO_CUTOFF, INVOKE])
    assert v["last"]["banked"] == -50  # taken back off the score
    v = play([*TO_CUTOFF, INVOKE, shot(cushion=True)])
    assert v["scores"] == {"home": 600, "away": 50}
    assert v["breaks"]["away"] == 1


def test_invoke_endgame_statistics_do_not_count_the_break_twice():
    setup = {"players": {"home": ["Ann"], "away": ["Bob"]}}
    lines = BB.player_statistics(setup, [*TO_CUTOFF, INVOKE, shot(cushion=True)])
    plain = BB.player_statistics(setup, TO_CUTOFF)
    assert lines["Bob"]["points_banked"] == plain["Bob"]["points_banked"]
    assert lines["Bob"]["breaks"] == plain["Bob"]["breaks"]


def test_at_table_and_player_are_null_once_the_frame_is_over():
    v = play(TO_CUTOFF)
    assert (v["over"], v["at_table"], v["player"]) == (True, None, None)


def test_endgame_shot_potting_nothing_without_a_cushion_loses_the_break():
    v = play([*TO_ENDGAME, shot(cushion=False)])
    assert (v["scores"], v["break"], v["at_table"]) == ({"home": 150, "away": 120}, 0, "away")
    assert (v["last"]["penalty"], v["last"]["foul"], v["last"]["lost"]) == ("break", None, 20)


def test_invoke_endgame_then_leader_wipes_out():
    v = play(
        [
            *TO_CUTOFF,
            INVOKE,
            shot(cushion=True),
            shot(cushion=True, fouls=["pin_200"]),
            shot(W(200), cushion=True),
        ]
    )
    assert v["scores"] == {"home": 0, "away": 250}
    assert v["winner"] == "away"


# -------------------------------------------------------------------- shared frame


def test_equal_scores_share_the_frame():
    v = view(run(_endgame(1000, 900, 1), shot(W(100), cushion=True)))
    assert v["scores"] == {"home": 1000, "away": 1000}
    assert (v["over"], v["shared"], v["winner"]) == (True, True, None)


# -------------------------------------------------------------------------- doubles


def test_doubles_partners_alternate_within_a_side():
    setup = {"players": {"home": ["Ann", "Cat"], "away": ["Bob", "Dan"]}}
    t = Timeline(BB, setup)
    seen = [t.view()["player"]]
    for _ in range(5):
        t.push(MISS)
        seen.append(t.view()["player"])
    assert seen == ["Ann", "Bob", "Cat", "Dan", "Ann", "Bob"]


def test_doubles_player_keeps_the_table_while_potting():
    setup = {"players": {"home": ["Ann", "Cat"], "away": ["Bob", "Dan"]}}
    v = play([shot(W(50)), shot(W(50))], setup)
    assert v["player"] == "Ann"
    assert v["last"]["player"] == "Ann"


def test_unnamed_players_are_null():
    assert play([MISS])["player"] is None
    v = play([MISS], {"players": {"home": ["Ann"]}})
    assert v["player"] is None
    assert v["last"]["player"] == "Ann"


# ------------------------------------------------------------------------ six whites


def test_six_white_set_has_seven_balls():
    v = play([], {"white_balls": 6})
    assert (v["balls_in_play"], v["trough"], v["whites"]["trough"]) == (7, 7, 6)


def test_six_white_set_runs_out_one_ball_sooner():
    # bar down; home pots the red and five whites one break-off at a time, leaving one
    events = [BAR_DOWN, shot(R(10), W(10)), shot(W(10), W(10)), shot(W(10), W(10))]
    v = play(events, {"white_balls": 6})
    # 20+10 + 20 + 20 = 70 running: one white left, gap 70 <= 200 -> endgame
    assert v["balls_in_play"] == 1
    assert v["phase"] == "endgame"
    assert v["break"] == 70
    v7 = play(events)
    assert v7["balls_in_play"] == 2
    assert v7["phase"] == "play"


# ------------------------------------------------------------------------- setups


@pytest.mark.parametrize(
    "setup",
    [
        {"sides": ["home"]},
        {"sides": ["home", "home"]},
        {"sides": ["home", ""]},
        {"breaks_first": "visitors"},
        {"white_balls": 5},
        {"white_balls": "7"},
        {"players": {"visitors": ["Ann"]}},
        {"players": {"home": ["Ann", "Cat", "Eve"]}},
        {"players": {"home": "Ann"}},
        {"referee": "Zed"},
        ["home", "away"],
    ],
)
def test_bad_setup_is_refused(setup):
    with pytest.raises(InvalidEvent) as info:
        BB.initial(setup)
    assert (info.value.code, info.value.index) == ("bad_setup", -1)


# ------------------------------------------------------------------ refused input


def _refused_after(prelude: list[dict[str, Any]], bad: Any, setup: Any = None) -> RuleError:
    t = Timeline(BB, setup or {})
    for ev in prelude:
        t.push(ev)
    before = BB.dump(t.state)
    with pytest.raises(RuleError) as info:
        t.push(bad)
    assert BB.dump(t.state) == before
    assert len(t) == len(prelude)
    assert info.value.index == len(prelude)
    with pytest.raises(RuleError) as again:
        replay(BB, setup or {}, [*prelude, bad])
    assert again.value.as_dict() == info.value.as_dict()
    return info.value


def test_refuses_an_unknown_event_type():
    err = _refused_after([MISS], {"type": "pot", "ball": "white"})
    assert (err.code, type(err)) == ("unknown_type", InvalidEvent)


def test_refuses_an_unknown_foul_code():
    assert _refused_after([MISS], shot(fouls=["pin_150"])).code == "unknown_foul"


def test_refuses_a_hole_that_does_not_exist():
    assert _refused_after([MISS], shot(W(40))).code == "bad_value"


def test_refuses_an_unknown_field():
    assert _refused_after([], {"type": "shot", "spin": "top"}).code == "unknown_field"


def test_refuses_a_pot_without_its_hole():
    err = _refused_after([], {"type": "shot", "pots": [{"ball": "white"}]})
    assert err.code == "missing_field"


def test_refuses_more_balls_potted_than_could_be_on_the_table():
    # break-off: only the red and one white can be potted
    err = _refused_after([], shot(R(50), W(50), W(50)))
    assert (err.code, type(err)) == ("not_on_table", IllegalEvent)


def test_refuses_potting_the_red_when_it_is_not_on_the_table():
    # after the bar: the red is gone
    err = _refused_after([BAR_DOWN, shot(R(100)), MISS], shot(R(50)))
    assert err.code == "not_on_table"


def test_refuses_potting_the_red_when_a_white_was_played_instead():
    # the red waits in the trough; red_not_played brings a white, so the red is not in play
    err = _refused_after([shot(R(50))], shot(R(100), fouls=["red_not_played"]))
    assert err.code == "not_on_table"


def test_refuses_a_second_red():
    err = _refused_after([], shot(R(50), R(100)))
    assert err.code == "not_on_table"
    assert err.message == "2 reds potted but the set has one red"


def test_refuses_two_reds_to_the_trough_saying_why():
    err = _refused_after([], shot(W(50), to_trough=["red", "red"]))
    assert err.code == "not_on_table"
    assert err.message == "to_trough: 2 reds given but the set has one red"


def test_refuses_a_closed_hole_in_the_endgame():
    err = _refused_after(TO_ENDGAME, shot(W(50), cushion=True))
    assert (err.code, type(err)) == ("closed_hole", IllegalEvent)


def test_refuses_an_endgame_shot_without_cushion():
    err = _refused_after(TO_ENDGAME, shot(W(100)))
    assert (err.code, type(err)) == ("missing_field", InvalidEvent)


def test_refuses_a_to_trough_ball_that_is_not_on_the_table():
    assert _refused_after([], shot(W(50), R(50), to_trough=["white"])).code == "not_on_table"
    # the red was potted after the bar dropped: it is out of play
    err = _refused_after([BAR_DOWN, shot(R(100)), MISS], shot(to_trough=["red"]))
    assert err.code == "not_on_table"


def test_refuses_invoke_endgame_when_it_does_not_apply():
    assert _refused_after([MISS], INVOKE).code == "not_now"
    assert _refused_after(TO_ENDGAME, INVOKE).code == "not_now"
    ended = [*TO_ENDGAME, shot(W(100), cushion=True)]  # over with no ball left
    assert _refused_after(ended, INVOKE).code == "not_now"
    assert _refused_after([*TO_CUTOFF, INVOKE], INVOKE).code == "not_now"


def test_refuses_any_event_after_the_frame_is_over():
    assert _refused_after(TO_CUTOFF, shot(cushion=True)).code == "game_over"
    assert _refused_after(TO_CUTOFF, BAR_DOWN).code == "game_over"


def test_refuses_endgame_no_cushion_outside_the_endgame():
    assert _refused_after([], shot(W(50), fouls=["endgame_no_cushion"])).code == "not_now"


def test_refuses_endgame_no_cushion_without_a_pot_off_no_cushion():
    err = _refused_after(TO_ENDGAME, shot(cushion=True, fouls=["endgame_no_cushion"]))
    assert err.code == "impossible"


def test_refuses_a_cushion_that_is_not_a_bool():
    assert _refused_after([], {"type": "shot", "cushion": "yes"}).code == "bad_value"


# ------------------------------------------------------------------- dump and load


def test_dump_is_json_and_loads_back():
    import json

    s = replay(BB, SINGLES, [*TO_CUTOFF, INVOKE])
    data = json.loads(json.dumps(BB.dump(s)))
    assert BB.load(data) == s
    assert BB.view(BB.load(data)) == BB.view(s)


def test_load_refuses_garbage():
    with pytest.raises(ValueError, match="state"):
        BB.load({"v": 1})
    with pytest.raises(ValueError, match="version"):
        BB.load({"v": 99})


def test_no_visit_is_counted_after_the_last_ball_goes_down_on_a_foul():
    s = position(
        bar=True,
        red="out",
        w_table=1,
        w_trough=0,
        scores=(300, 250),
        at=1,
        visits=(3, 3),
        phase="endgame",
    )
    v = view(run(s, shot(W(200), cushion=False)))
    assert v["visits"] == {"home": 3, "away": 3}
    assert v["over"]
    assert v["scores"] == {"home": 300, "away": 0}
