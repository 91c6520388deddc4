"""Each match format drawn and scored end to end: open the match, mark who is present,
draw or nominate, score frames on the pad API or from paper, confirm, and the table's
points right. And the blind nomination's secrecy, refusals that name the substitution
rule, and the pure draw for every format (Norwich's unchanged, bit for bit)."""

from __future__ import annotations

import json
import random
import uuid
from collections import Counter
from decimal import Decimal

import pytest
from django.test import Client
from django.urls import reverse

from frames.draw import DrawError, draw_format, draw_match, validate_draw
from frames.matchnight import drawing, nominating, seeding, signoff, squads
from frames.models import Frame, FramePlayer, Match
from leagues import formats
from leagues.models import Fixture
from leagues.standings import division_table
from leagues.teams import services as team_services
from marker.formats import PRESETS, parse_format
from rules.simulate import simulate_game
from tests.factories import PlayerFactory
from tests.frames.matchnight_helpers import (
    NIGHT,
    captain,
    fixture_of,
    frames_of,
    key_all,
    later,
    refused,
    roster,
)
from tests.links import league_reverse

NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo"]
OTHERS = ["Kim", "Lou", "Max", "Ned", "Oli", "Pam", "Quin", "Roy", "Sam", "Tom"]


@pytest.fixture
def league(league_of_the_module):
    """Built once for this module: its tests only read it, and their writes roll back."""
    return league_of_the_module


# --------------------------------------------------------------------------- pure draw


@pytest.mark.parametrize("home_size", [4, 5, 6, 8])
def test_norwich_format_draws_exactly_the_original_draw(home_size):
    fmt = parse_format(PRESETS["norwich"])
    rng = random.Random(home_size)
    for _ in range(40):
        seed = rng.randrange(2**63)
        home, away = NAMES[:home_size], OTHERS[: rng.choice([5, 6, 7])]
        agreed = home_size < 5
        assert draw_match(home, away, seed, agreed=agreed, match_format=fmt) == draw_match(
            home, away, seed, agreed=agreed
        )


def hat_format(**changes) -> dict:
    data = {
        "name": "Triples league",
        "sections": [
            {"name": "Singles", "kind": "singles", "frames": 4},
            {"name": "Triples", "kind": "triples", "frames": 2},
        ],
        "selection": "hat",
        "substitution": "max_per_section",
        "max_per_section": 2,
        "referee": "norwich_rotation",
        "min_players": 3,
    }
    data.update(changes)
    return data


def test_a_hat_format_spreads_frames_and_keeps_the_limit():
    fmt = parse_format(hat_format())
    for seed in range(60):
        home, away = NAMES[: 3 + seed % 4], OTHERS[:4]
        draw = draw_match(home, away, seed, match_format=fmt)
        assert [f.kind for f in draw.frames] == ["singles"] * 4 + ["triples"] * 2
        assert validate_draw(draw, home, away, fmt) == []
        singles = Counter(f.home[0] for f in draw.frames[:4])
        # nobody plays a second singles before everyone present has played one
        assert max(singles.values()) - min(singles.get(n, 0) for n in home) <= 1
        assert draw == draw_match(list(reversed(home)), away, seed, match_format=fmt)


def test_a_blind_nomination_over_the_limit_is_refused_naming_the_rule():
    fmt = parse_format(PRESETS["snooker_blind"])
    nominations = {
        "home": [[["Ann"], ["Bob"], ["Ann"], ["Dan"]], [["Eve", "Fay"]]],
        "away": [[["Kim"], ["Lou"], ["Max"], ["Ned"]], [["Oli", "Pam"]]],
    }
    with pytest.raises(DrawError) as info:
        draw_format(fmt, NAMES[:6], OTHERS[:6], 1, nominations=nominations)
    assert info.value.code == "too_many_frames"
    assert "max_per_section" in info.value.message and "Ann (home)" in info.value.message


def test_the_cli_replays_a_fixed_order_night(tmp_path):
    from tests.frames.draw.test_draw import run_cli

    nominations = {"home": ["Cat", "Ann", "Bob"], "away": ["Max", "Kim", "Lou"]}
    path = tmp_path / "nominations.json"
    path.write_text(json.dumps(nominations))
    fmt = parse_format(PRESETS["bagatelle_fixed"])
    expected = draw_match(NAMES[:4], OTHERS[:3], 99, match_format=fmt, nominations=nominations)
    fmt_path = tmp_path / "format.json"
    fmt_path.write_text(json.dumps(expected.to_json()["format"]))
    result = run_cli(
        "--home",
        ",".join(NAMES[:4]),
        "--away",
        ",".join(OTHERS[:3]),
        "--seed",
        "99",
        "--format",
        str(fmt_path),
        "--nominations",
        str(path),
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == expected.to_json()


# --------------------------------------------------------------------------- the night


def use_format(league, key: str, players: int = 6):
    formats.season_set_format(season=league.season, actor=league.secretary, preset=key)
    for team in league.teams[:2]:
        while team.registrations.filter(status="active").count() < players:
            team_services.roster_add_player(team=team, player=PlayerFactory())


def opened(league, present: int = 6) -> Match:
    match = squads.match_open(fixture=fixture_of(league), actor=league.captain, now=NIGHT)
    for side in ("home", "away"):
        squads.match_mark_present(
            match=match,
            side=side,
            players=roster(league, side)[:present],
            actor=captain(league, side),
            now=NIGHT,
        )
        seeding.match_commit(match=match, side=side, actor=captain(league, side), now=NIGHT)
    return match


def confirm_both(league, match: Match) -> Match:
    for side in ("home", "away"):
        signoff.match_confirm(match=match, side=side, actor=captain(league, side), now=later(150))
    match.refresh_from_db()
    return match


def play_on_pad(client: Client, frame: Frame) -> None:
    frame.refresh_from_db()
    shots = simulate_game(frame.game_id, frame.setup, seed=frame.pk)
    for seq, shot in enumerate(shots, start=1):
        response = client.post(
            reverse("api-frame-events", args=[frame.pk]),
            data=json.dumps(
                {
                    "event_id": str(uuid.uuid4()),
                    "expected_seq": seq,
                    "kind": "event",
                    "payload": shot,
                    "device_id": "test",
                }
            ),
            content_type="application/json",
        )
        assert response.status_code in (200, 201), response.content
    response = client.post(
        reverse("api-frame-confirm", args=[frame.pk]),
        {"seq": len(shots)},
        content_type="application/json",
    )
    assert response.status_code == 200, response.content


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    return client


def test_pool_fixed_order_night_end_to_end(league):
    use_format(league, "pool_captains_order", players=8)
    match = opened(league, present=8)
    lineups = {side: roster(league, side)[:8] for side in ("home", "away")}
    lineups["away"].reverse()
    for side in ("home", "away"):
        nominating.match_nominate(
            match=match, side=side, lineup=lineups[side], actor=captain(league, side), now=NIGHT
        )
    match = drawing.match_draw(match=match, actor=league.captain, now=later(5))
    frames = frames_of(match)
    assert [f.number for f in frames] == list(range(1, 9))
    for i, frame in enumerate(frames):
        slots = {fp.side: fp.player for fp in FramePlayer.objects.filter(frame=frame)}
        assert slots == {"home": lineups["home"][i], "away": lineups["away"][i]}  # i v i
        assert frame.referee is None  # pool: no referee
    proposal = logged_in(league.captain).post(
        reverse("api-match-reorder", args=[match.pk]),
        {"side": "home", "order": [8, 7, 6, 5, 4, 3, 2, 1]},
        content_type="application/json",
    )
    assert proposal.status_code == 200, proposal.content  # eight frames, not Norwich's nine
    scores = {f.number: (1000, 500) if f.number <= 5 else (400, 900) for f in frames}
    key_all(league, match, scores)
    match = confirm_both(league, match)
    fixture = Fixture.objects.get(pk=match.fixture_id)
    assert (fixture.home_frames, fixture.away_frames) == (5, 3)
    table = {r.team: r.points for r in division_table(league.premier).rows}
    assert table[league.teams[0].name] == 5 + 1  # a point a frame, one for the match
    assert table[league.teams[1].name] == 3


def test_snooker_blind_nomination_is_sealed_until_both_are_in(league):
    use_format(league, "snooker_blind")
    match = opened(league)
    home, away = roster(league, "home"), roster(league, "away")
    home_nom = [[[home[0]], [home[1]], [home[2]], [home[3]]], [[home[4], home[5]]]]
    away_nom = [[[away[3]], [away[2]], [away[1]], [away[0]]], [[away[4], away[5]]]]
    nominating.match_nominate(
        match=match, side="home", sections=home_nom, actor=league.captain, now=NIGHT
    )
    url = reverse("match-detail", args=[match.pk])
    api = reverse("api-match-detail", args=[match.pk])
    secret_name = home[0].name
    # The away captain (and anyone else) sees that it is in, and its commitment only.
    for user in (league.other_captain, league.outsider):
        page = logged_in(user).get(url).content.decode()
        assert "not in yet" in page  # the away side's
        assert Match.objects.get(pk=match.pk).home_nomination_commitment in page
        assert f"Singles, frame 1: {secret_name}" not in page
    body = logged_in(league.other_captain).get(api).json()["nominations"]
    assert body["home"] == {
        "submitted": True,
        "commitment": Match.objects.get(pk=match.pk).home_nomination_commitment,
        "nomination": None,
        "salt": "",
    }
    # Its own captain sees it.
    assert f"Singles, frame 1: {secret_name}" in logged_in(league.captain).get(url).content.decode()
    # Drawing before both are in is refused.
    refused("not_all_nominated", drawing.match_draw, match=match, actor=league.captain)

    nominating.match_nominate(
        match=match, side="away", sections=away_nom, actor=league.other_captain, now=NIGHT
    )
    match.refresh_from_db()
    page = logged_in(league.other_captain).get(url).content.decode()
    assert f"Singles, frame 1: {secret_name}" in page  # revealed together
    body = logged_in(league.outsider).get(api).json()["nominations"]
    for side in ("home", "away"):
        state = body[side]
        assert (
            nominating.nomination_commitment(state["nomination"], state["salt"])
            == (state["commitment"])
        )
    # Final once both are in.
    refused(
        "nomination_final",
        nominating.match_nominate,
        match=match,
        side="home",
        sections=[[[home[1]], [home[0]], [home[2]], [home[3]]], [[home[4], home[5]]]],
        actor=league.captain,
    )

    match = drawing.match_draw(match=match, actor=league.captain, now=later(5))
    frames = frames_of(match)
    assert [f.kind for f in frames] == ["singles"] * 4 + ["doubles"]
    assert all(f.referee is None for f in frames)  # named: the captains name them
    drawing.match_set_referee(frame=frames[0], player=home[5], actor=league.captain)
    # Frame 1 on the pad API (the captain enters it), the rest from paper.
    play_on_pad(logged_in(league.captain), frames[0])
    frames[0].refresh_from_db()
    assert frames[0].status == "complete" and frames[0].result_source == "pad"
    rest = {f.number: (500, 1000) for f in frames[1:]}  # away wins 2, 3, 4 and the doubles
    signoff.match_key_in_paper(match=match, scores=rest, actor=league.captain, now=later(100))
    match = confirm_both(league, match)
    fixture = Fixture.objects.get(pk=match.fixture_id)
    home_won = 1 if frames[0].winner == "home" else 0
    assert fixture.home_frames == home_won and fixture.away_frames == 5 - home_won
    assert (fixture.home_sections, fixture.away_sections) == (Decimal(0), Decimal(2))
    table = {r.team: r.points for r in division_table(league.premier).rows}
    # a point a frame, a point a section, nothing for the match
    assert table[league.teams[1].name] == (5 - home_won) + 2
    assert table[league.teams[0].name] == home_won


def test_blind_nomination_refusals_name_the_rule_and_change_nothing(league):
    use_format(league, "snooker_blind")
    match = opened(league)
    home = roster(league, "home")
    twice = [[[home[0]], [home[1]], [home[0]], [home[3]]], [[home[4], home[5]]]]
    error = refused(
        "too_many_frames",
        nominating.match_nominate,
        match=match,
        side="home",
        sections=twice,
        actor=league.captain,
    )
    assert "substitution rule (max_per_section)" in error.message
    absent = [[[home[0]], [home[1]], [home[2]], [home[3]]], [[home[4], roster(league, "away")[0]]]]
    refused(
        "not_present",
        nominating.match_nominate,
        match=match,
        side="home",
        sections=absent,
        actor=league.captain,
    )
    good = [[[home[0]], [home[1]], [home[2]], [home[3]]], [[home[4], home[5]]]]
    refused(
        "not_captain",
        nominating.match_nominate,
        match=match,
        side="home",
        sections=good,
        actor=league.other_captain,
    )


def test_norwich_match_has_nothing_to_nominate_and_five_rule_names_rule_8(league):
    match = opened(league, present=4)
    refused(
        "not_nominated_format",
        nominating.match_nominate,
        match=match,
        side="home",
        lineup=roster(league, "home")[:4],
        actor=league.captain,
    )
    error = refused("too_few_players", drawing.match_draw, match=match, actor=league.captain)
    assert "rule 8" in error.message


def test_bagatelle_fixed_order_with_referee_rotation_end_to_end(league):
    use_format(league, "bagatelle_fixed")
    match = opened(league, present=4)
    home, away = roster(league, "home")[:3], roster(league, "away")[:3]
    for side, lineup in (("home", home), ("away", away)):
        nominating.match_nominate(
            match=match, side=side, lineup=lineup, actor=captain(league, side)
        )
    match = drawing.match_draw(match=match, actor=league.captain, now=later(5))
    frames = frames_of(match)
    pairs = [
        (
            FramePlayer.objects.get(frame=f, side="home").player,
            FramePlayer.objects.get(frame=f, side="away").player,
        )
        for f in frames
    ]
    assert pairs[:3] == list(zip(home, away, strict=True))
    assert pairs[3:] == [(home[0], away[1]), (home[1], away[2]), (home[2], away[0])]
    assert all(f.referee is not None for f in frames)  # the Norwich rotation
    assert frames[0].referee_side == "home" and frames[1].referee_side == "away"
    # First leg to home 3-0, second leg to away 1-2: a section each, 4-2 on frames.
    scores = {1: (90, 10), 2: (90, 10), 3: (90, 10), 4: (90, 10), 5: (10, 90), 6: (10, 90)}
    key_all(league, match, scores)
    match = confirm_both(league, match)
    fixture = Fixture.objects.get(pk=match.fixture_id)
    assert (fixture.home_sections, fixture.away_sections) == (Decimal(1), Decimal(1))
    table = {r.team: r.points for r in division_table(league.premier).rows}
    assert table[league.teams[0].name] == 4 + 1 + 2
    assert table[league.teams[1].name] == 2 + 1


def test_a_lineup_too_long_or_too_short_is_refused(league):
    use_format(league, "bagatelle_fixed")
    match = opened(league, present=5)
    players = roster(league, "home")
    for lineup in (players[:4], players[:2]):
        refused(
            "bad_nomination",
            nominating.match_nominate,
            match=match,
            side="home",
            lineup=lineup,
            actor=league.captain,
        )


def test_secretary_format_page_shows_errors_and_saves(league):
    client = logged_in(league.secretary)
    url = league_reverse("season-format", args=[league.season.pk])
    page = client.get(url)
    assert page.status_code == 200 and "Norwich bar billiards" in page.content.decode()
    bad = dict(PRESETS["snooker_blind"], referee="coin")
    response = client.post(url, {"format": json.dumps(bad)})
    assert response.status_code == 400
    assert "norwich_rotation" in response.content.decode()
    response = client.post(url, {"preset": "snooker_blind"})
    assert response.status_code == 302
    season_page = client.get(
        league_reverse("season-detail", args=[league.season.pk])
    ).content.decode()
    assert PRESETS["snooker_blind"]["name"] in season_page
    api = client.post(
        reverse("api-division-format", args=[league.premier.pk]),
        {"format": dict(PRESETS["pool_captains_order"], min_players=2)},
        content_type="application/json",
    )
    assert api.status_code == 400 and api.json()["error"] == "invalid_format"
    assert api.json()["problems"][0]["field"] == "min_players"
    assert logged_in(league.captain).post(url, {"preset": "norwich"}).status_code == 403


def test_a_nominated_player_no_longer_present_stops_the_draw_by_name(league):
    use_format(league, "bagatelle_fixed")
    match = opened(league, present=4)
    home, away = roster(league, "home")[:4], roster(league, "away")[:3]
    nominating.match_nominate(match=match, side="home", lineup=home[:3], actor=league.captain)
    nominating.match_nominate(match=match, side="away", lineup=away, actor=league.other_captain)
    squads.match_mark_present(
        match=match, side="home", players=home[1:], actor=league.captain, now=later(1)
    )
    for side in ("home", "away"):
        seeding.match_commit(match=match, side=side, actor=captain(league, side), now=later(2))
    error = refused("not_present", drawing.match_draw, match=match, actor=league.captain)
    assert home[0].name in error.message


def test_norwich_shape_with_named_referees_keeps_rule_8_and_draws_no_referee():
    data = dict(PRESETS["norwich"], referee="named", name="Norwich, named referees")
    fmt = parse_format(data)
    assert not fmt.rule_draw
    home, away = NAMES[:5], OTHERS[:6]
    draw = draw_match(home, away, 11, match_format=fmt)
    original = draw_match(home, away, 11)
    assert [(f.home, f.away) for f in draw.frames] == [(f.home, f.away) for f in original.frames]
    assert all(f.referee is None for f in draw.frames)
    assert validate_draw(draw, home, away, fmt) == []
