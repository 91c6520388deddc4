"""Ranking series against the database: the hand-worked six-event table through the page
and the API, placings read from a finished singles bracket, eligibility refused at entry
by date of birth (the date never shown), the date never in public HTML or the API, the
export and erasure, the secretary's pages, and the pages' query counts."""

from __future__ import annotations

import json
import re
from datetime import UTC, date, datetime
from decimal import Decimal

import pytest
from django.urls import reverse

from competitions.models import Competition, Tie
from competitions.services.entries import entry_create
from competitions.services.setup import competition_create
from competitions.services.ties import tie_walkover
from exchange import archive
from leagues.models import Player
from leagues.teams import services as team_services
from marker.errors import DomainError
from people import erasure, export
from series import selectors, services
from series import standings as calc
from series.models import Series
from tests.competitions.helpers import drawn, registered_players

from .test_standings import NAMES, PLACINGS

pytestmark = pytest.mark.django_db
NOW = datetime(2026, 10, 1, 19, 0, tzinfo=UTC)


def _grand_prix(league, played: int = 6) -> tuple[Series, dict[int, Player]]:
    """The hand-worked series of test_standings, its six events run off-system, with
    seven of the league's players as Ann … Gus."""
    series = services.series_create(
        actor=league.secretary,
        owner=league.season.league,
        name="Grand Prix",
        season="2026/27",
        best_n=4,
        points_table=[25, 18, 12, 8],
        appearance_points=Decimal(2),
        tie_breakers=[calc.MOST_WINS, calc.BEST_SINGLE, calc.HEAD_TO_HEAD],
        now=NOW,
    )
    players = {}
    for pid, player in zip(NAMES, registered_players(league, 7), strict=True):
        player.name = NAMES[pid]
        player.save(update_fields=["name"])
        players[pid] = player
    for n in range(1, 7):
        event = services.series_event_add(
            actor=league.secretary,
            series=series,
            name=f"Open {n}",
            weight=Decimal("1.5") if n == 6 else Decimal(1),
        )
        if n > played:
            continue
        for pid, row in PLACINGS.items():
            if row[n - 1] is not None:
                services.series_result_set(
                    actor=league.secretary, event=event, player=players[pid], placing=row[n - 1]
                )
        services.series_event_update(actor=league.secretary, event=event, complete=True)
    return series, players


def test_the_standings_page_shows_the_hand_worked_table(client, league, django_assert_num_queries):
    series, _ = _grand_prix(league)
    # the series, its events, the off-system placings (with the players), and the site's
    # notices (base.html): four queries, however many players and events
    with django_assert_num_queries(4):
        response = client.get(reverse("series-detail", args=[series.pk]))
    assert response.status_code == 200
    html = response.content.decode()
    rows = re.findall(
        r'<span class="rank">([^<]+)</span> <span class="who">([^<]+)</span> '
        r'<span class="total">([^<]+)</span>',
        html,
    )
    assert rows == [
        ("1", "Bob", "80"),
        ("2", "Cat", "80"),
        ("3", "Ann", "73"),
        ("4", "Dan", "50"),
        ("5", "Eve", "50"),
        ("=6", "Fay", "18"),
        ("=6", "Gus", "18"),
    ]
    assert "most wins decided" in html
    assert (
        "Best 4: 25 + 25 + 18 + 12 = <strong>80</strong>. Dropped: 12 (Open 4), 12 (Open 6)."
        in html
    )


def test_the_api_gives_the_same_table_with_the_explanations(client, league):
    series, players = _grand_prix(league, played=4)
    body = client.get(reverse("api-series-standings", args=[series.pk])).json()
    assert body["played"] == 4 and body["events"] == 6 and body["next_event"] == "Open 5"
    assert [(r["name"], r["total"], r["rank"]) for r in body["rows"]] == [
        ("Cat", "80", 1),
        ("Bob", "67", 2),
        ("Ann", "63", 3),
        ("Dan", "50", 4),
        ("Eve", "40", 5),
    ]
    ann = body["rows"][2]
    assert ann["player"] == players[1].pk
    assert ann["needs_above"].startswith("To pass Bob (67): runner-up or better in Open 5")
    assert [(r["event_name"], r["points"], r["counted"]) for r in ann["results"]] == [
        ("Open 1", "25", True),
        ("Open 2", "12", True),
        ("Open 3", "18", True),
        ("Open 4", "8", True),
    ]
    detail = client.get(reverse("api-series-detail", args=[series.pk])).json()
    assert [e["played"] for e in detail["events"]] == [True] * 4 + [False] * 2
    listed = client.get(reverse("api-series-list"), {"league": league.season.league_id}).json()
    assert [s["name"] for s in listed] == ["Grand Prix"]
    bad = client.get(reverse("api-series-list"), {"league": "x"})
    assert bad.status_code == 400 and bad.json()["error"] == "bad_parameter"


def _finished_singles(league, n: int = 8) -> tuple[Competition, list[Player]]:
    """A singles knock-out of n players, every tie a walkover to the home side."""
    players = registered_players(league, n)
    comp = competition_create(
        actor=league.secretary, season=league.season, name="Singles", kind="singles", now=NOW
    )
    for p in players:
        entry_create(actor=league.secretary, competition=comp, player=p, now=NOW)
    drawn(comp, league.secretary)
    while True:
        tie = Tie.objects.filter(competition=comp, status="scheduled").order_by("pk").first()
        if tie is None:
            break
        tie_walkover(actor=league.secretary, tie=tie, winner="home", reason="No show", now=NOW)
    comp.refresh_from_db()
    assert comp.stage == Competition.Stage.FINISHED
    return comp, players


def test_a_finished_competitions_bracket_gives_the_placings(client, league):
    comp, players = _finished_singles(league)
    series = services.series_create(
        actor=league.secretary,
        owner=league.season.league,
        name="Singles ranking",
        season="2026",
        best_n=2,
        points_table=[10, 7, 5, 3],
    )
    services.series_event_add(actor=league.secretary, series=series, competition=comp)
    table = selectors.series_standings(series)
    by_points = sorted(calc.fmt(r.total) for r in table.rows)
    # 8 players: a winner (10), a runner-up (7), two semi-finalists (5), four
    # quarter-finalists (3).
    assert by_points == sorted(["10", "7", "5", "5", "3", "3", "3", "3"])
    final = Tie.objects.filter(competition=comp).order_by("-round__number").first()
    assert final is not None and final.winner is not None
    assert table.rows[0].player_id == final.winner.player_id
    assert table.rows[0].results[0].label == "Winner"


@pytest.fixture
def over_50s(league):
    comp = competition_create(
        actor=league.secretary,
        season=league.season,
        name="Veterans Open",
        kind="singles",
        entry_mode=Competition.EntryMode.OPEN,
        now=NOW,
    )
    series = services.series_create(
        actor=league.secretary,
        owner=league.season.league,
        name="Over-50s Grand Prix",
        season="2026",
        best_n=4,
        points_table=[25, 18, 12],
        category=Series.Category.OVER,
        category_age=50,
        age_on=date(2027, 1, 1),
    )
    services.series_event_add(actor=league.secretary, series=series, competition=comp)
    return comp


def test_entry_to_a_category_series_event_is_refused_by_date_of_birth(league, over_50s):
    young, old, unknown = registered_players(league, 3)
    young.date_of_birth = date(1977, 1, 2)  # 49 on 1 January 2027
    young.save(update_fields=["date_of_birth"])
    old.date_of_birth = date(1977, 1, 1)  # 50 that day
    old.save(update_fields=["date_of_birth"])
    with pytest.raises(DomainError) as refused:
        entry_create(actor=league.secretary, competition=over_50s, player=young, now=NOW)
    assert refused.value.code == "series_not_eligible"
    assert "Over 50s" in refused.value.message
    assert "1977" not in refused.value.message and "Jan" not in refused.value.message
    with pytest.raises(DomainError) as no_date:
        entry_create(actor=league.secretary, competition=over_50s, player=unknown, now=NOW)
    assert no_date.value.code == "series_not_eligible"
    assert "none is recorded" in no_date.value.message
    assert entry_create(actor=league.secretary, competition=over_50s, player=old, now=NOW)


def test_a_player_entering_themself_is_refused_through_the_api(client, league, over_50s):
    rita = league.player_user.player
    rita.date_of_birth = date(1990, 5, 5)
    rita.save(update_fields=["date_of_birth"])
    client.force_login(league.player_user)
    response = client.post(
        reverse("api-competition-entries", args=[over_50s.pk]),
        {"player": rita.pk},
        content_type="application/json",
    )
    assert response.status_code == 400
    assert response.json()["error"] == "series_not_eligible"
    assert "1990" not in response.content.decode()
    assert not over_50s.entries.exists()


def test_ladies_and_under_age_categories(league):
    series = services.series_create(
        actor=league.secretary,
        owner=league.season.league,
        name="Ladies' ranking",
        season="2026",
        best_n=3,
        points_table=[10, 8],
        category=Series.Category.LADIES,
    )
    event = services.series_event_add(actor=league.secretary, series=series, name="Ladies 1")
    ann, bea = registered_players(league, 2)
    team_services.player_set_category_details(player=ann, date_of_birth=None, plays_ladies=True)
    services.series_result_set(actor=league.secretary, event=event, player=ann, placing=1)
    with pytest.raises(DomainError) as refused:
        services.series_result_set(actor=league.secretary, event=event, player=bea, placing=2)
    assert refused.value.code == "series_not_eligible" and "Ladies" in refused.value.message
    under = services.series_create(
        actor=league.secretary,
        owner=league.season.league,
        name="Under-30s",
        season="2026",
        best_n=3,
        points_table=[10],
        category=Series.Category.UNDER,
        category_age=30,
    )
    u_event = services.series_event_add(
        actor=league.secretary, series=under, name="U30 1", day=date(2026, 10, 1)
    )
    team_services.player_set_category_details(
        player=bea, date_of_birth=date(1996, 10, 2), plays_ladies=False
    )  # 29 on the event's day
    services.series_result_set(actor=league.secretary, event=u_event, player=bea, placing=1)
    team_services.player_set_category_details(
        player=ann, date_of_birth=date(1996, 10, 1), plays_ladies=True
    )  # 30 that day
    with pytest.raises(DomainError):
        services.series_result_set(actor=league.secretary, event=u_event, player=ann, placing=2)


def test_a_date_of_birth_is_never_in_public_html_or_the_api(client, league):
    series, players = _grand_prix(league, played=2)
    ann = players[1]
    ann.date_of_birth = date(1961, 7, 23)
    ann.save(update_fields=["date_of_birth"])
    pages = [
        reverse("series-detail", args=[series.pk]),
        reverse("series-events", args=[series.pk]),
        reverse("league-series", args=[league.season.league.slug]),
        reverse("player-detail", args=[ann.pk]),
        reverse("api-series-standings", args=[series.pk]),
        reverse("api-series-detail", args=[series.pk]),
        reverse("api-series-list"),
        reverse("api-player-detail", args=[ann.pk]),
    ]
    for url in pages:
        body = client.get(url).content.decode()
        assert "1961" not in body, url
        assert "23 July" not in body, url
    # The player sees it on their own pages, and so does the secretary.
    ann.user = league.outsider
    ann.save(update_fields=["user"])
    client.force_login(league.outsider)
    assert "23 July 1961" in client.get(reverse("player-detail", args=[ann.pk])).content.decode()
    assert 'value="1961-07-23"' in client.get(reverse("my-data")).content.decode()
    client.force_login(league.secretary)
    assert "23 July 1961" in client.get(reverse("player-detail", args=[ann.pk])).content.decode()


def test_the_player_records_their_date_of_birth_and_it_is_exported_and_erased(client, league):
    rita = league.player_user.player
    client.force_login(league.player_user)
    response = client.post(
        reverse("my-categories"), {"date_of_birth": "1970-02-03", "plays_ladies": "1"}
    )
    assert response.status_code == 302
    rita.refresh_from_db()
    assert rita.date_of_birth == date(1970, 2, 3) and rita.plays_ladies
    data = export.person_data(rita, league.player_user)
    assert data["player"]["date_of_birth"] == "1970-02-03"
    assert data["player"]["plays_ladies"] is True
    erasure.person_erase(player=rita, actor=league.secretary)
    rita.refresh_from_db()
    assert rita.date_of_birth is None and not rita.plays_ladies


def test_erased_and_private_players_are_shown_by_their_public_names(client, league):
    series, players = _grand_prix(league, played=1)
    team_services.player_set_private_name(player=players[2], private=True)  # Bob
    erasure.person_erase(player=players[1], actor=league.secretary)  # Ann
    body = json.loads(client.get(reverse("api-series-standings", args=[series.pk])).content)
    names = [r["name"] for r in body["rows"]]
    assert "Ann" not in names and any(n.startswith("Former player") for n in names)
    assert "Bob" not in names and "B." in names
    html = client.get(reverse("series-detail", args=[series.pk])).content.decode()
    assert ">Ann<" not in html and "Former player" in html


def test_the_secretary_makes_a_series_adds_events_and_enters_placings(client, league):
    comp, _ = _finished_singles(league, n=4)
    client.force_login(league.secretary)
    slug = league.season.league.slug
    response = client.post(
        reverse("series-create-league", args=[slug]),
        {
            "name": "Winter Grand Prix",
            "season": "2026/27",
            "best_n": "4",
            "basis": "round",
            "points_table": "25, 18, 12, 8",
            "appearance_points": "0",
            "category": "open",
            "tie_breaker_1": "head_to_head",
            "tie_breaker_2": "most_wins",
        },
    )
    series = Series.objects.get(name="Winter Grand Prix")
    assert response.status_code == 302 and series.tie_breakers == ["head_to_head", "most_wins"]
    assert series.points_table == ["25", "18", "12", "8"]
    response = client.post(
        reverse("series-event-add", args=[series.pk]),
        {"competition": str(comp.pk), "name": "", "weight": "1.5"},
    )
    assert response.status_code == 302
    response = client.post(
        reverse("series-event-add", args=[series.pk]), {"name": "Pub open", "weight": "1"}
    )
    event = series.events.get(name="Pub open")
    assert response.url == reverse("series-event-results", args=[event.pk])
    player = registered_players(league, 5)[4]
    url = reverse("series-event-results", args=[event.pk])
    assert client.post(url, {"action": "add", "player": player.pk, "placing": 1}).status_code == 302
    assert client.post(url, {"action": "complete"}).status_code == 302
    table = selectors.series_standings(series)
    assert table.rows[0].player_id == player.pk or table.rows[0].total == Decimal("37.5")
    assert {calc.fmt(r.total) for r in table.rows} >= {"37.5", "25"}
    # The league's page links to its series; the list names it.
    assert (
        reverse("league-series", args=[slug])
        in client.get(reverse("league-home", args=[slug])).content.decode()
    )
    listed = client.get(reverse("league-series", args=[slug]), {"panel": "1"}).content.decode()
    assert "Winter Grand Prix" in listed
    # Another league's secretary may not touch it.
    client.force_login(league.outsider)
    assert client.get(reverse("series-edit", args=[series.pk])).status_code == 403


def test_refusals_change_nothing(league):
    with pytest.raises(DomainError) as bad:
        services.series_create(
            actor=league.secretary,
            owner=league.season.league,
            name="X",
            season="2026",
            best_n=4,
            points_table=[25, "lots"],
        )
    assert bad.value.code == "bad_points_table"
    with pytest.raises(DomainError) as bad:
        services.series_create(
            actor=league.secretary,
            owner=league.season.league,
            name="X",
            season="2026",
            best_n=4,
            points_table=[25],
            tie_breakers=["coin_toss"],
        )
    assert bad.value.code == "bad_tie_breakers"
    with pytest.raises(DomainError) as bad:
        services.series_create(
            actor=league.captain,
            owner=league.season.league,
            name="X",
            season="2026",
            best_n=4,
            points_table=[25],
        )
    assert bad.value.status == 403
    assert not Series.objects.exists()


def test_the_events_page_query_count(client, league, django_assert_num_queries):
    series, _ = _grand_prix(league)
    with django_assert_num_queries(4):
        response = client.get(reverse("series-events", args=[series.pk]))
    assert response.status_code == 200 and "Open 6" in response.content.decode()


def test_a_competition_event_reads_its_bracket_in_two_more_queries(
    client, league, django_assert_num_queries
):
    comp, _ = _finished_singles(league)
    series, _ = _grand_prix(league, played=6)
    services.series_event_add(actor=league.secretary, series=series, competition=comp)
    # + the knock-out ties, the entries, the names of players with no off-system placing
    with django_assert_num_queries(7):
        response = client.get(reverse("series-detail", args=[series.pk]))
    assert response.status_code == 200


def test_a_shareable_league_archive_leaves_the_date_of_birth_out(league):
    rita = league.player_user.player
    team_services.player_set_category_details(
        player=rita, date_of_birth=date(1966, 6, 6), plays_ladies=True
    )
    shared = json.dumps(archive.league_export(league=league.season.league, full=False))
    assert "1966-06-06" not in shared
    backup = json.dumps(archive.league_export(league=league.season.league, full=True))
    assert "1966-06-06" in backup
