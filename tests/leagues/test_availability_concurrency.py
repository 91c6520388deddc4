"""Availability under real concurrency (PostgreSQL, real transactions, real threads): the
fixture's row lock orders an answer and match night's opening, and two asks at once."""

from __future__ import annotations

import pytest

from frames.matchnight import squads
from frames.models import Presence
from leagues.availability import links, services
from leagues.models import Availability, AvailabilityRequest
from marker.errors import DomainError
from tests.conftest import make_league
from tests.frames.matchnight.test_concurrency import at_once
from tests.leagues.availability_helpers import asked, soon, squad

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_an_answer_racing_match_nights_opening_is_either_counted_or_refused():
    league = make_league(teams_per_division=2, players_per_team=5)
    fixture = soon(league)
    rita = squad(league.teams[0])[-1]
    token = links.answer_token(player_id=rita.pk, fixture_id=fixture.pk, team_id=league.teams[0].pk)
    refused: list[DomainError] = []

    def answer():
        try:
            services.availability_answer_by_link(token=token, answer="yes")
        except DomainError as exc:
            refused.append(exc)

    at_once(answer, lambda: squads.match_open(fixture=fixture, actor=league.captain))
    present = Presence.objects.filter(match__fixture=fixture, player=rita).exists()
    answered = Availability.objects.filter(player=rita, answer="yes").exists()
    if answered:
        assert present and not refused  # in before the list was drawn up: on it
    else:
        assert [e.code for e in refused] == ["answers_closed"] and not present


def test_two_asks_at_once_make_one_ask_and_one_message_each():
    league = make_league(teams_per_division=2, players_per_team=5)
    fixture = soon(league)
    players = squad(league.teams[0])
    team = league.teams[0]
    at_once(
        lambda: services.availability_ask(fixture=fixture, team=team, actor=league.captain),
        lambda: services.availability_ask(fixture=fixture, team=team, actor=league.vice_captain),
    )
    assert AvailabilityRequest.objects.filter(fixture=fixture, team=team).count() == 1
    assert sorted(n.recipient.email for n in asked()) == sorted(p.email for p in players)
