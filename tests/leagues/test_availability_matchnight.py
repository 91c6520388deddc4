"""Match night starts each side's present list from the players who answered yes (maybes
are suggestions beside the list), and from then on the answers are final."""

from __future__ import annotations

import pytest
from django.utils import timezone

from frames.matchnight import squads
from frames.models import MatchLog, Presence
from leagues.availability import services
from leagues.models import Availability, AvailabilityClosed, Registration
from marker.errors import DomainError
from people.erasure import person_erase
from people.export import person_data
from tests.leagues.availability_helpers import soon, squad


@pytest.fixture
def fixture(league):
    return soon(league)


def answer(fixture, team, player, value: str) -> None:
    Availability.objects.create(
        fixture=fixture,
        team=team,
        player=player,
        answer=value,
        via="link",
        answered_at=timezone.now(),
    )


def test_match_night_opens_with_the_players_who_said_yes_present(league, fixture, client):
    home, away = squad(league.teams[0]), squad(league.teams[1])
    for player in home[:3]:
        answer(fixture, league.teams[0], player, "yes")
    answer(fixture, league.teams[0], home[3], "maybe")
    answer(fixture, league.teams[0], home[4], "no")
    answer(fixture, league.teams[1], away[0], "yes")
    # A yes from someone since taken off the roster does not count.
    answer(fixture, league.teams[0], home[5], "yes")
    Registration.objects.filter(player=home[5]).update(status=Registration.Status.REMOVED)

    match = squads.match_open(fixture=fixture, actor=league.captain)

    present = Presence.objects.filter(match=match)
    assert {p.player for p in present if p.side == "home"} == set(home[:3])
    assert {p.player for p in present if p.side == "away"} == {away[0]}
    assert not any(p.drafted for p in present)
    logged = MatchLog.objects.filter(match=match, action="presence_from_availability")
    assert {entry.detail["side"] for entry in logged} == {"home", "away"}
    assert AvailabilityClosed.objects.filter(fixture=fixture).exists()

    # Opening again (a second tap) changes nothing.
    squads.match_open(fixture=fixture, actor=league.captain)
    assert Presence.objects.filter(match=match).count() == 4

    client.force_login(league.captain)
    page = client.get(match.get_absolute_url()).content.decode()
    assert page.count("said maybe") == 1
    maybe_label = page[page.index("said maybe") - 300 : page.index("said maybe")]
    assert home[3].name in maybe_label


def test_without_answers_match_night_opens_with_nobody_present(league, fixture):
    match = squads.match_open(fixture=fixture, actor=league.captain)
    assert not Presence.objects.filter(match=match).exists()


def test_a_refused_opening_leaves_the_answers_open(league, fixture):
    squad(league.teams[0])
    with pytest.raises(DomainError):
        squads.match_open(fixture=fixture, actor=league.outsider)
    assert not AvailabilityClosed.objects.exists()


def test_answers_and_away_dates_are_the_persons_exported_and_erased(league, fixture):
    rita = squad(league.teams[0])[-1]
    answer(fixture, league.teams[0], rita, "yes")
    services.away_add(
        player=rita,
        season=league.season,
        start=fixture.date,
        end=fixture.date,
        note="Wedding",
        actor=league.player_user,
    )
    data = person_data(rita)
    assert [(a["answer"], a["via"]) for a in data["availability"]] == [("yes", "link")]
    assert data["away_dates"][0]["note"] == "Wedding"
    person_erase(player=rita, actor=league.secretary)
    assert not Availability.objects.filter(player=rita).exists()
    assert not rita.away_dates.exists()
