"""Competition pages: the bracket and the group tables (query counts constant in the
number of entrants), a tie's page with the pad, the iCal feed, and the links to them."""

from __future__ import annotations

import pytest
from django.urls import reverse

from competitions.models import Competition, Tie
from competitions.services.entries import entry_create
from competitions.services.setup import competition_create
from competitions.services.ties import round_set_dates, tie_record_paper

from .helpers import NOW, drawn, registered_players

pytestmark = pytest.mark.django_db


@pytest.fixture
def league(league_of_the_module):
    """Built once for this module: its tests only read it, and their writes roll back."""
    return league_of_the_module


def singles(league, n, name="Singles", **kwargs):
    comp = competition_create(
        actor=league.secretary, season=league.season, name=name, kind="singles", now=NOW, **kwargs
    )
    for player in registered_players(league, n):
        entry_create(actor=league.secretary, competition=comp, player=player, now=NOW)
    return drawn(comp, league.secretary)


def groups(league, n, name="Group Singles"):
    comp = competition_create(
        actor=league.secretary,
        season=league.season,
        name=name,
        kind="group_knockout",
        entrant="player",
        group_size=3,
        group_qualifiers=1,
        now=NOW,
    )
    for player in registered_players(league, n):
        entry_create(actor=league.secretary, competition=comp, player=player, now=NOW)
    return drawn(comp, league.secretary)


def play_round(comp, secretary, rounds=1):
    """Decide `rounds` waves of scheduled ties from paper (home wins 2–0)."""
    for _ in range(rounds):
        for tie in Tie.objects.filter(competition=comp, status="scheduled").order_by("id"):
            tie_record_paper(
                actor=secretary,
                tie=tie,
                frames=[{"home": 300, "away": 200}, {"home": 250, "away": 100}],
                now=NOW,
            )


def test_the_bracket_page_makes_the_same_queries_for_five_or_twenty_four_entrants(
    client, league, django_assert_num_queries, django_assert_max_num_queries
):
    small = singles(league, 5, name="Small")
    play_round(small, league.secretary)
    big = singles(league, 24, name="Big")
    play_round(big, league.secretary)
    client.get(reverse("competition-detail", args=[small.pk]))
    with django_assert_max_num_queries(12) as few:
        page = client.get(reverse("competition-detail", args=[small.pk]))
    assert page.content.decode().count('class="tie ') == 4 + 2 + 1
    with django_assert_num_queries(len(few.captured_queries)):
        page = client.get(reverse("competition-detail", args=[big.pk]))
    assert page.content.decode().count('class="tie ') == 16 + 8 + 4 + 2 + 1


def test_the_bracket_shows_byes_scores_winners_and_links_to_each_tie(client, league):
    comp = singles(league, 5)
    play_round(comp, league.secretary)
    html = client.get(reverse("competition-detail", args=[comp.pk])).content.decode()
    assert html.count('<span class="name bye">bye</span>') == 3
    played = Tie.objects.get(competition=comp, round__number=1, status="played")
    assert f'href="{reverse("tie-detail", args=[played.pk])}"' in html
    assert f'<span class="entrant winner"><span class="name">{played.winner.name}</span>' in html
    assert "to be decided" in html  # the final's entrants are not known yet


def test_the_group_page_explains_its_tables_in_the_same_queries_at_any_size(
    client, league, django_assert_num_queries, django_assert_max_num_queries
):
    small = groups(league, 6, name="Six")
    big = groups(league, 18, name="Eighteen")
    for comp in (small, big):
        play_round(comp, league.secretary)
    client.get(reverse("competition-detail", args=[small.pk]))
    with django_assert_max_num_queries(14) as few:
        html = client.get(reverse("competition-detail", args=[small.pk])).content.decode()
    assert html.count('<table class="group-table">') == 2
    assert "Order: matches won, then frame difference" in html
    with django_assert_num_queries(len(few.captured_queries)):
        html = client.get(reverse("competition-detail", args=[big.pk])).content.decode()
    assert html.count('<table class="group-table">') == 6


def test_a_tie_page_shows_its_frames_and_sends_its_players_to_the_pad(client, league):
    rita = league.player_user.player
    other = league.teams[1].registrations.first().player
    comp = competition_create(
        actor=league.secretary, season=league.season, name="Duel", kind="singles", now=NOW
    )
    for player in (rita, other):
        entry_create(actor=league.secretary, competition=comp, player=player, now=NOW)
    drawn(comp, league.secretary)
    tie = Tie.objects.get(competition=comp, status="scheduled")
    url = reverse("tie-detail", args=[tie.pk])
    assert "Score the next frame on the pad" not in client.get(url).content.decode()
    client.force_login(league.player_user)
    assert "Score the next frame on the pad" in client.get(url).content.decode()
    response = client.post(reverse("tie-pad", args=[tie.pk]))
    tie_frame = tie.frames.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("frame-pad", args=[tie_frame.frame_id])
    html = client.get(url).content.decode()
    assert "pad: in play" in html
    client.force_login(league.captain)  # not a party to this tie
    assert client.post(reverse("tie-pad", args=[tie.pk])).status_code == 403


def test_a_players_ties_as_a_calendar(client, league):
    comp = singles(league, 2, name="Two")
    tie = Tie.objects.get(competition=comp, status="scheduled")
    round_set_dates(
        actor=league.secretary, round=tie.round, date=NOW.date(), deadline=None, now=NOW
    )
    player = tie.home.player
    body = client.get(reverse("player-ties-ical", args=[player.pk])).content.decode()
    assert "BEGIN:VEVENT" in body
    assert f"Two {tie.round.name}: {tie.home.name} v {tie.away.name}" in body.replace("\r\n ", "")
    assert f"/ties/{tie.pk}/" in body


def test_the_season_and_home_pages_lead_to_the_competitions(client, league):
    comp = singles(league, 3, name="Newcomers Cup")
    home = client.get(reverse("home")).content.decode()
    assert reverse("season-competitions", args=[league.season.pk]) in home
    panel = client.get(reverse("season-competitions", args=[league.season.pk]) + "?panel=1")
    assert reverse("competition-detail", args=[comp.pk]) in panel.content.decode()
    assert comp.stage == Competition.Stage.DRAWN
