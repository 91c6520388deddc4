"""The roll of honour, the awards and the competition pages on a phone, walked like every
other main page (tests/e2e/test_every_page.py): nothing wider than the screen, tap targets
of 44 × 44 px, no serious axe-core violation."""

from __future__ import annotations

import pytest
from django.urls import reverse

from competitions.models import Tie
from competitions.services.entries import entry_create
from competitions.services.setup import competition_create
from frames.stats import awards
from leagues import honours
from tests.competitions.helpers import NOW, drawn, registered_players
from tests.conftest import make_league
from tests.links import league_reverse

from .test_every_page import visit

pytestmark = pytest.mark.django_db(transaction=True)


def test_honours_awards_and_competition_pages_fit_a_phone_and_pass_axe(phone):
    problems: list[str] = []
    league = make_league(teams_per_division=4, players_per_team=4)
    sec = league.secretary
    honours.record_honour(
        season=league.season,
        title="Premier",
        kind="division",
        source="division:x",
        winner=league.teams[0],
        runner_up=league.teams[1],
        detail="30 points from 6 matches",
    )
    awards.award_define(
        season=league.season, actor=sec, name="Highest break", measure="stat", stat="high_break"
    )
    groups = competition_create(
        actor=sec,
        season=league.season,
        name="Singles",
        kind="group_knockout",
        entrant="player",
        group_size=3,
        group_qualifiers=1,
        now=NOW,
    )
    for player in registered_players(league, 6):
        entry_create(actor=sec, competition=groups, player=player, now=NOW)
    drawn(groups, sec)
    cup = competition_create(
        actor=sec, season=league.season, name="Cup", kind="team_knockout", now=NOW
    )
    for team in league.teams[:5]:
        entry_create(actor=sec, competition=cup, team=team, now=NOW)
    drawn(cup, sec)
    group_tie = Tie.objects.filter(competition=groups).first()
    team_tie = Tie.objects.filter(competition=cup, status="scheduled").first()

    anyone = phone().new_page()
    slug = league.season.league.slug
    visit(anyone, reverse("league-honours", args=[slug]), "honours", problems)
    visit(anyone, league_reverse("season-awards", args=[league.season.pk]), "awards", problems)
    visit(anyone, reverse("season-competitions", args=[league.season.pk]), "competitions", problems)
    visit(anyone, reverse("competition-detail", args=[groups.pk]), "groups", problems)
    visit(anyone, reverse("competition-detail", args=[cup.pk]), "bracket", problems)
    visit(anyone, reverse("tie-detail", args=[group_tie.pk]), "tie-singles", problems)
    visit(anyone, reverse("tie-detail", args=[team_tie.pk]), "tie-team", problems)
    secretary = phone(sec).new_page()
    visit(
        secretary, league_reverse("season-awards", args=[league.season.pk]), "awards-sec", problems
    )
    visit(secretary, league_reverse("season-finish", args=[league.season.pk]), "finish", problems)
    assert problems == [], "\n".join(problems)
