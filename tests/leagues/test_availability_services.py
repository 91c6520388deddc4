"""Availability's services: asking the squad (once per player, away players answered for
them), chasing only those who have not answered, answering, away dates, and the
deadlines the personal calendar reads."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from leagues.availability import links, selectors, services
from leagues.models import Availability, AvailabilityRequest, AwayDates, Registration
from marker.errors import DomainError
from tests.factories import PlayerFactory, UserFactory
from tests.leagues.availability_helpers import asked, at, fixture_on, link_path, squad, token_of

DAY = date(2026, 12, 1)  # a Tuesday
NOW = at(DAY - timedelta(days=7), 18)


@pytest.fixture
def fixture(league):
    return fixture_on(league, DAY)


@pytest.fixture
def players(league):
    return squad(league.teams[0])


def refused(code: str, call, **kwargs) -> DomainError:
    with pytest.raises(DomainError) as exc:
        call(**kwargs)
    assert exc.value.code == code, exc.value.message
    return exc.value


def answer(fixture, team, player, value: str, now=NOW, via="link"):
    token = links.answer_token(player_id=player.pk, fixture_id=fixture.pk, team_id=team.pk)
    return services.availability_answer_by_link(token=token, answer=value, now=now)


def test_asking_sends_each_player_their_own_link_and_asking_again_sends_nothing_more(
    league, fixture, players
):
    team = league.teams[0]
    result = services.availability_ask(fixture=fixture, team=team, actor=league.captain, now=NOW)
    assert result.asked == len(players) == 7
    sent = asked()
    assert len(sent) == 7
    assert {n.key for n in sent} == {f"availability:{fixture.pk}:{team.pk}"}
    assert sent[0].title == "Are you playing on Tue 1 Dec?"
    by_email = {p.email: p for p in players}
    for notification in sent:
        subject = links.read_token(token_of(link_path(notification)))
        player = by_email[notification.recipient.email]
        assert (subject.player_id, subject.fixture_id, subject.team_id) == (
            player.pk,
            fixture.pk,
            team.pk,
        )
    ask = AvailabilityRequest.objects.get(fixture=fixture, team=team)
    assert ask.answer_by == at(DAY - timedelta(days=1), 12)  # the day before, at noon
    assert ask.asked_by == league.captain

    again = services.availability_ask(
        fixture=fixture, team=team, actor=league.vice_captain, now=NOW
    )
    assert again.asked == 0
    assert len(asked()) == 7
    assert AvailabilityRequest.objects.get(pk=ask.pk).asked_by == league.captain


def test_a_player_added_since_is_asked_when_the_captain_asks_again(league, fixture, players):
    team = league.teams[0]
    services.availability_ask(fixture=fixture, team=team, actor=league.captain, now=NOW)
    newcomer = PlayerFactory(email="new@example.org")
    Registration.objects.create(team=team, season=team.season, player=newcomer)
    again = services.availability_ask(fixture=fixture, team=team, actor=league.captain, now=NOW)
    assert again.asked == 1
    assert asked()[-1].recipient.email == "new@example.org"


def test_a_player_away_on_the_day_is_answered_no_and_not_asked(league, fixture, players):
    team, away, player = league.teams[0], players[0], players[1]
    services.away_add(
        player=away,
        season=fixture.season,
        start=DAY - timedelta(days=2),
        end=DAY + timedelta(days=5),
        note="Tenerife",
        actor=league.secretary,
        now=NOW,
    )
    player.email = ""
    player.save(update_fields=["email"])  # no login, no email: cannot be asked
    result = services.availability_ask(fixture=fixture, team=team, actor=league.captain, now=NOW)
    assert result.away == [away]
    assert result.unreachable == [player]
    assert result.asked == 5
    assert {n.recipient.email for n in asked()} == {
        p.email for p in players if p not in (away, player)
    }
    auto = Availability.objects.get(fixture=fixture, team=team, player=away)
    assert (auto.answer, auto.via) == ("no", "away")


def test_away_dates_marked_after_the_ask_answer_no_and_removing_them_waits_again(
    league, fixture, players
):
    team, rita = league.teams[0], players[-1]
    assert rita.user == league.player_user
    services.availability_ask(fixture=fixture, team=team, actor=league.captain, now=NOW)
    away = services.away_add(
        player=rita, season=fixture.season, start=DAY, end=DAY, actor=league.player_user, now=NOW
    )
    sheet = selectors.availability_sheet(fixture, team)
    assert [r.player for r in sheet.no] == [rita]
    services.away_remove(away=away, actor=league.player_user)
    sheet = selectors.availability_sheet(fixture, team)
    assert rita in [r.player for r in sheet.waiting]
    assert not AwayDates.objects.filter(player=rita).exists()


def test_away_dates_are_checked(league, fixture, players):
    rita = players[-1]
    kwargs = {"player": rita, "season": fixture.season, "actor": league.player_user, "now": NOW}
    refused("bad_range", services.away_add, start=DAY, end=DAY - timedelta(days=1), **kwargs)
    refused("bad_range", services.away_add, start=DAY, end=DAY + timedelta(days=400), **kwargs)
    refused("note_too_long", services.away_add, start=DAY, end=DAY, note="x" * 141, **kwargs)
    error = refused(
        "forbidden",
        services.away_add,
        player=rita,
        season=fixture.season,
        actor=league.captain,  # her captain does not keep her diary
        start=DAY,
        end=DAY,
        now=NOW,
    )
    assert error.status == 403
    assert not AwayDates.objects.exists()


def test_chasing_reaches_only_those_who_have_not_answered_once_in_12_hours(
    league, fixture, players
):
    team = league.teams[0]
    services.availability_ask(fixture=fixture, team=team, actor=league.captain, now=NOW)
    answer(fixture, team, players[0], "yes")
    answer(fixture, team, players[1], "no")
    answer(fixture, team, players[2], "maybe")

    chased = services.availability_chase(fixture=fixture, team=team, actor=league.captain, now=NOW)
    assert chased.chased == players[3:]
    first = asked(f"availability-chase:{fixture.pk}:{team.pk}:1")
    assert {n.recipient.email for n in first} == {p.email for p in players[3:]}
    assert first[0].title.startswith("Reminder: are you playing")

    error = refused(
        "chased_recently",
        services.availability_chase,
        fixture=fixture,
        team=team,
        actor=league.captain,
        now=NOW + timedelta(hours=11),
    )
    assert error.status == 409
    assert len(asked("availability-chase:")) == 4

    answer(fixture, team, players[3], "yes")
    later = NOW + timedelta(hours=12)
    chased = services.availability_chase(
        fixture=fixture, team=team, actor=league.captain, now=later
    )
    assert chased.chased == players[4:]
    second = asked(f"availability-chase:{fixture.pk}:{team.pk}:2")
    assert {n.recipient.email for n in second} == {p.email for p in players[4:]}
    ask = AvailabilityRequest.objects.get(fixture=fixture, team=team)
    assert (ask.chases, ask.chased_at) == (2, later)


def test_chasing_needs_an_ask_and_someone_to_chase(league, fixture, players):
    team = league.teams[0]
    kwargs = {"fixture": fixture, "team": team, "actor": league.captain, "now": NOW}
    refused("not_asked", services.availability_chase, **kwargs)
    services.availability_ask(**kwargs)
    for p in players:
        answer(fixture, team, p, "yes")
    refused("all_answered", services.availability_chase, **kwargs)
    assert AvailabilityRequest.objects.get(fixture=fixture, team=team).chases == 0


def test_only_the_teams_captains_and_the_leagues_officers_ask(league, fixture, players):
    team = league.teams[0]
    for outsider in (league.other_captain, league.outsider, league.player_user):
        error = refused(
            "forbidden",
            services.availability_ask,
            fixture=fixture,
            team=team,
            actor=outsider,
            now=NOW,
        )
        assert error.status == 403
    assert not AvailabilityRequest.objects.exists() and not asked()
    # The other team's captain asks their own squad; the secretary asks either.
    services.availability_ask(
        fixture=fixture, team=league.teams[1], actor=league.other_captain, now=NOW
    )
    services.availability_ask(fixture=fixture, team=team, actor=league.secretary, now=NOW)
    assert AvailabilityRequest.objects.count() == 2


def test_a_team_not_in_the_fixture_or_a_fixture_without_a_date_is_refused(league, fixture):
    refused(
        "not_in_fixture",
        services.availability_ask,
        fixture=fixture,
        team=league.teams[2],
        actor=league.secretary,
        now=NOW,
    )
    fixture.__class__.objects.filter(pk=fixture.pk).update(date=None)
    refused(
        "fixture_undated",
        services.availability_ask,
        fixture=fixture,
        team=league.teams[0],
        actor=league.captain,
        now=NOW,
    )
    assert not AvailabilityRequest.objects.exists()


def test_the_answer_by_time_is_settable_and_checked(league, fixture, players):
    team = league.teams[0]
    kwargs = {"fixture": fixture, "team": team, "actor": league.captain, "now": NOW}
    refused(
        "bad_answer_by", services.availability_ask, answer_by=NOW - timedelta(hours=1), **kwargs
    )
    refused(
        "bad_answer_by",
        services.availability_ask,
        answer_by=at(DAY + timedelta(days=1), 9),
        **kwargs,
    )
    services.availability_ask(answer_by=at(DAY - timedelta(days=2), 20), **kwargs)
    assert AvailabilityRequest.objects.get().answer_by == at(DAY - timedelta(days=2), 20)
    assert "by Sun 29 Nov, 20:00" in asked()[0].body


def test_asked_on_the_day_the_answer_by_moves_to_that_days_noon(league, fixture, players):
    services.availability_ask(
        fixture=fixture, team=league.teams[0], actor=league.captain, now=at(DAY, 9)
    )
    assert AvailabilityRequest.objects.get().answer_by == at(DAY, 12)


def test_answering_again_changes_the_answer_and_the_same_answer_changes_nothing(
    league, fixture, players
):
    team, player = league.teams[0], players[0]
    first = answer(fixture, team, player, "maybe")
    again = answer(fixture, team, player, "maybe", now=NOW + timedelta(hours=1))
    assert again.answered_at == first.answered_at == NOW
    changed = answer(fixture, team, player, "yes", now=NOW + timedelta(hours=2))
    assert (changed.pk, changed.answer, changed.answered_at) == (
        first.pk,
        "yes",
        NOW + timedelta(hours=2),
    )
    assert Availability.objects.count() == 1
    refused("bad_answer", answer, fixture=fixture, team=team, player=player, value="perhaps")


def test_a_signed_in_player_answers_for_their_own_team(league, fixture, players):
    made = services.availability_answer_as_player(
        actor=league.player_user, fixture=fixture, answer="yes", note=" late,  about 8 ", now=NOW
    )
    assert (made.team, made.player.user, made.via, made.note) == (
        league.teams[0],
        league.player_user,
        "app",
        "late, about 8",
    )
    refused(
        "not_a_player",
        services.availability_answer_as_player,
        actor=league.outsider,
        fixture=fixture,
        answer="yes",
        now=NOW,
    )
    stranger = UserFactory()
    PlayerFactory(user=stranger)
    refused(
        "not_on_roster",
        services.availability_answer_as_player,
        actor=stranger,
        fixture=fixture,
        answer="yes",
        now=NOW,
    )


def test_answers_close_when_match_night_opens(league, fixture, players):
    team = league.teams[0]
    answer(fixture, team, players[0], "yes")
    services.availability_close(fixture=fixture, now=NOW)
    error = refused(
        "answers_closed", answer, fixture=fixture, team=team, player=players[0], value="no"
    )
    assert error.status == 409
    assert Availability.objects.get().answer == "yes"


def test_the_deadlines_for_a_players_calendar(league, fixture, players):
    rita = players[-1]
    assert selectors.availability_deadlines_for_player(rita, NOW) == []
    services.availability_ask(fixture=fixture, team=league.teams[0], actor=league.captain, now=NOW)
    services.availability_ask(
        fixture=fixture, team=league.teams[1], actor=league.other_captain, now=NOW
    )
    found = selectors.availability_deadlines_for_player(rita, NOW.date())
    assert found == [(fixture, league.teams[0], at(DAY - timedelta(days=1), 12))]
    assert selectors.availability_deadlines_for_player(rita, at(DAY, 0)) == []
    # Off the roster, no longer asked: no deadline.
    Registration.objects.filter(player=rita).update(status=Registration.Status.REMOVED)
    assert selectors.availability_deadlines_for_player(rita, NOW) == []
