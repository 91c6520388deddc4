"""The registration rules on match night and at sign-off (docs/eligibility.md): a player
inside the notice period (Chester), over the play-up cap (Alby), or unregistered (Alby:
the frame is forfeited) — each refused or flagged with its rule named, through the pages
and the API."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from frames.matchnight import drawing, signoff, squads
from frames.models import Frame, Match, MatchLog, Presence
from leagues.models import EligibilityLog, Fixture, PlayUp, Registration
from leagues.teams import eligibility_services
from leagues.teams import services as team_services
from tests.frames.matchnight_helpers import (
    NIGHT,
    captain,
    drawn,
    fixture_of,
    later,
    open_match,
    ready,
    roster,
)

pytestmark = pytest.mark.django_db

NOT_REGISTERED = "Only a registered player may play; an unregistered player forfeits the frame"


@pytest.fixture
def league(league_of_the_module):
    return league_of_the_module


def login(client, user):
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    return client


def api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def set_rules(league, **values):
    return eligibility_services.season_rules_update(
        season=league.season, actor=league.secretary, **values
    )


# ---------------------------------------------------------------- Chester


@pytest.fixture
def chester(league):
    """Players are registered three days before they play: the night is tomorrow, the
    roster was registered a month ago, and New Face only today."""
    today = timezone.localdate()
    Fixture.objects.filter(pk=fixture_of(league).pk).update(date=today + timedelta(days=1))
    Registration.objects.filter(season=league.season).update(
        created_at=timezone.now() - timedelta(days=30)
    )
    set_rules(league, min_notice_days=3)
    newbie = team_services.roster_add_player(team=league.teams[0], name="New Face").player
    return open_match(league), newbie


def test_chester_a_player_inside_the_notice_period_is_refused_on_the_page(league, client, chester):
    match, newbie = chester
    home = login(client, league.captain)
    players = [p.pk for p in roster(league, "home")[:5]]
    response = home.post(
        reverse("match-presence", args=[match.pk]),
        {"side": "home", "players": [*players, newbie.pk]},
    )
    assert response.status_code == 400
    page = response.content.decode()
    assert "Players are registered 3 days before they play" in page
    assert "New Face was registered on" in page
    assert not Presence.objects.filter(match=match).exists()
    ok = home.post(reverse("match-presence", args=[match.pk]), {"side": "home", "players": players})
    assert ok.status_code == 302


def test_chester_notice_is_refused_by_the_api_for_a_roster_player_and_a_newcomer(league, chester):
    match, newbie = chester
    client = api(league.captain)
    url = reverse("api-match-presence", args=[match.pk])
    players = [p.pk for p in roster(league, "home")[:5]]
    response = client.post(url, {"side": "home", "players": [*players, newbie.pk]}, format="json")
    body = response.json()
    assert (response.status_code, body["error"], body["rule"]) == (
        400,
        "notice_period",
        "notice_period",
    )
    assert body["rule_name"] == "Players are registered 3 days before they play"
    drafted = client.post(
        url, {"side": "home", "players": players, "new_players": ["Walk In"]}, format="json"
    )
    assert drafted.json()["error"] == "notice_period"
    assert not Registration.objects.filter(player__name="Walk In").exists()
    assert not Presence.objects.filter(match=match).exists()


# ---------------------------------------------------------------- Alby: the play-up cap


def alby(league, appearances: int):
    """Second Team 1 shares Premier Team 1's pub (one club): a player of it plays up,
    having already played up `appearances` times this season."""
    set_rules(league, play_up_allowed=True, play_up_cap=6)
    lower = league.teams[4]
    assert (lower.venue_id, lower.division.rank) == (league.teams[0].venue_id, 2)
    player = Registration.objects.filter(team=lower, status="active").first().player
    others = Fixture.objects.filter(season=league.season).exclude(pk=fixture_of(league).pk)
    for n, fixture in enumerate(others[:appearances]):
        PlayUp.objects.create(
            season=league.season,
            player=player,
            team=league.teams[0],
            fixture=fixture,
            at=NIGHT - timedelta(days=n + 1),
        )
    return open_match(league), player


def test_alby_at_the_cap_playing_up_is_refused_on_the_page_and_by_the_api(league, client):
    match, player = alby(league, 6)
    home = login(client, league.captain)
    page = home.get(match.get_absolute_url()).content.decode()
    assert f"{player.name} (Second Team 1)" in page  # offered to play up
    players = [p.pk for p in roster(league, "home")[:5]]
    response = home.post(
        reverse("match-presence", args=[match.pk]),
        {"side": "home", "players": players, "draft": [player.pk]},
    )
    assert response.status_code == 400
    assert "At most 6 appearances in a higher division" in response.content.decode()
    body = (
        api(league.captain)
        .post(
            reverse("api-match-presence", args=[match.pk]),
            {"side": "home", "players": [*players, player.pk]},
            format="json",
        )
        .json()
    )
    assert (body["error"], body["rule_name"]) == (
        "play_up_cap",
        "At most 6 appearances in a higher division",
    )
    assert not Presence.objects.filter(match=match).exists()


def test_alby_under_the_cap_plays_up_without_leaving_their_team(league):
    match, player = alby(league, 5)
    players = [*roster(league, "home")[:5], player]
    squads.match_mark_present(
        match=match, side="home", players=players, actor=league.captain, now=NIGHT
    )
    squads.match_mark_present(
        match=match,
        side="away",
        players=roster(league, "away")[:6],
        actor=captain(league, "away"),
        now=NIGHT,
    )
    ready(league, match)
    drawing.match_draw(match=match, actor=league.captain, now=later(5))
    assert PlayUp.objects.filter(player=player, season=league.season).count() == 6
    assert PlayUp.objects.get(player=player, fixture=match.fixture).team == league.teams[0]
    own = Registration.objects.get(player=player, status="active")
    assert own.team == league.teams[4]
    assert not Registration.objects.filter(player=player, team=league.teams[0]).exists()


def test_without_play_up_rule_8_still_refuses_a_lower_team_player(league):
    match = open_match(league)
    player = Registration.objects.filter(team=league.teams[4], status="active").first().player
    body = (
        api(league.captain)
        .post(
            reverse("api-match-presence", args=[match.pk]),
            {"side": "home", "players": [player.pk]},
            format="json",
        )
        .json()
    )
    assert body["error"] == "plays_for_another_team"


# ---------------------------------------------------------------- Alby: unregistered forfeits


def played_unregistered(league) -> tuple[Match, Frame, object]:
    """A finished match whose frame 1 home player turns out not to be registered."""
    match = drawn(league)
    signoff.match_key_in_paper(
        match=match, scores={n: (900, 100) for n in range(1, 10)}, actor=league.captain
    )
    frame = Frame.objects.get(match=match, number=1)
    player = frame.players.get(side="home").player
    Registration.objects.filter(team=league.teams[0], player=player).delete()
    return Match.objects.get(pk=match.pk), frame, player


def test_alby_an_unregistered_player_forfeits_the_frame_through_the_page(league, client):
    match, frame, player = played_unregistered(league)
    home = login(client, league.captain)
    page = home.get(match.get_absolute_url()).content.decode()
    assert NOT_REGISTERED in page
    assert "Penalty: the frame is forfeited to the opponents." in page
    decide = reverse("match-ineligible", args=[match.pk])
    data = {"frame": 1, "player": player.pk, "decision": "forfeit", "note": "Not on the form"}
    assert home.post(decide, data).status_code == 403
    assert not EligibilityLog.objects.filter(fixture=match.fixture).exists()

    secretary = login(client.__class__(), league.secretary)
    assert secretary.post(decide, data).status_code == 302
    fixture = Fixture.objects.get(pk=match.fixture_id)
    assert (fixture.home_frames, fixture.away_frames) == (8, 1)
    frame.refresh_from_db()
    assert (frame.home_score, frame.away_score, frame.winner) == (0, 900, "away")
    entry = EligibilityLog.objects.get(fixture=match.fixture, frame_number=1)
    assert (entry.action, entry.rule, entry.actor, entry.note) == (
        "forfeit_applied",
        "not_registered",
        league.secretary,
        "Not on the form",
    )
    assert MatchLog.objects.filter(match=match, action="ineligible_decided").exists()
    again = secretary.post(decide, data)
    assert again.status_code == 409
    assert (
        "Forfeit applied by the secretary"
        in secretary.get(match.get_absolute_url()).content.decode()
    )


def test_alby_an_unregistered_player_is_flagged_and_decided_through_the_api(league):
    match, frame, player = played_unregistered(league)
    url = reverse("api-match-eligibility", args=[match.pk])
    flags = api(league.other_captain).get(url).json()
    first = next(f for f in flags if f["frame"] == 1)
    assert (first["rule"], first["rule_name"], first["player"]) == (
        "not_registered",
        NOT_REGISTERED,
        player.pk,
    )
    assert first["penalty"] == "The frame is forfeited to the opponents"
    assert first["decision"] is None
    assert api(league.outsider).get(url).status_code == 403
    forfeit = {"frame": 1, "player": player.pk, "decision": "forfeit", "note": ""}
    refused = api(league.captain).post(url, forfeit, format="json")
    assert refused.status_code == 403
    waived = api(league.secretary).post(
        url, {**forfeit, "decision": "waive", "note": "Registered by post, late"}, format="json"
    )
    assert waived.status_code == 200
    first = next(f for f in waived.json() if f["frame"] == 1)
    assert first["decision"]["action"] == "forfeit_waived"
    match.refresh_from_db()
    assert match.status == "complete"  # a waiver leaves the result as it stands
    assert (match.home_frames, match.away_frames) == (9, 0)
    bad = api(league.secretary).post(url, {**forfeit, "frame": 9, "player": 1}, format="json")
    assert bad.status_code in (400, 404)


def test_the_sign_off_flags_cost_the_same_queries_for_one_or_more_players(
    league, client, django_assert_num_queries
):
    match, frame, player = played_unregistered(league)
    home = login(client, league.captain)
    home.get(match.get_absolute_url())
    with django_assert_num_queries(22) as one:  # with the notices and the availability
        page = home.get(match.get_absolute_url()).content.decode()
    flagged = page.count("not_registered")
    other = Frame.objects.get(match=match, number=2).players.get(side="away").player
    Registration.objects.filter(team=league.teams[1], player=other).delete()
    with django_assert_num_queries(len(one.captured_queries)):
        page = home.get(match.get_absolute_url()).content.decode()
    assert page.count("not_registered") > flagged


def test_huddersfield_drafting_on_the_night_after_registrations_closed_is_refused(league):
    """A draft is a registration on the night: once registrations have closed (at the
    night's own fixture, the first of the New Year here), a newcomer is refused by name."""
    fixture = fixture_of(league)
    set_rules(league, close_at_first_match_after=fixture.date - timedelta(days=1))
    match = open_match(league)
    players = [p.pk for p in roster(league, "home")[:5]]
    body = (
        api(league.captain)
        .post(
            reverse("api-match-presence", args=[match.pk]),
            {"side": "home", "players": players, "new_players": ["Walk In"]},
            format="json",
        )
        .json()
    )
    assert body["error"] == "registration_closed"
    assert body["rule_name"].startswith("Registrations closed at the first match on or after")
    assert not Registration.objects.filter(player__name="Walk In").exists()
