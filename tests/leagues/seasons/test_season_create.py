"""A league's secretary starts a season (name, game, divisions, format) on its page or
through the API; and issue 17's "Done when": a site administrator creates a league and
hands it to a secretary, who starts a season, imports last season's spreadsheets, chooses
a game and a format and runs a night, without touching any other league."""

from __future__ import annotations

from datetime import date

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from frames.matchnight import drawing, nominating, seeding, signoff, squads
from frames.models import Frame, Match
from leagues.models import Division, Fixture, League, LeagueRole, Registration, Season, Team
from leagues.seasons import services as season_services
from marker.errors import DomainError
from tests.conftest import make_league
from tests.factories import UserFactory, make_secretary, make_site_admin

pytestmark = pytest.mark.django_db


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


LEAGUE_SIZE = {"teams_per_division": 2, "players_per_team": 5}


@pytest.fixture
def league(league_of_the_module):
    """Built once for this module: its tests only read it, and their writes roll back."""
    return league_of_the_module


def create(lg, **changes):
    data = {
        "league": lg.season.league,
        "actor": lg.secretary,
        "name": "Winter 2027",
        "game_id": "northern_bagatelle",
        "divisions": ["Premier", "First"],
    }
    data.update(changes)
    return season_services.season_create(**data)


# --------------------------------------------------------------------------- the service


def test_a_secretary_starts_a_season_with_its_divisions_in_order(league):
    season = create(
        league,
        divisions=["Premier", " First  Division ", "Second"],
        start_date=date(2027, 1, 5),
        match_format_preset="bagatelle_fixed",
    )
    assert season.league == league.season.league
    assert (season.slug, season.status, season.game_id) == (
        "winter-2027",
        Season.Status.REGISTRATION,
        "northern_bagatelle",
    )
    assert season.start_date == date(2027, 1, 5)
    assert season.match_format["name"] == "Bagatelle: 6 singles, fixed order"
    assert list(season.divisions.order_by("rank").values_list("name", "rank")) == [
        ("Premier", 1),
        ("First Division", 2),
        ("Second", 3),
    ]
    added = season_services.division_add(season=season, actor=league.secretary, name="Third")
    assert added.rank == 4


def refused(code: str, field: str | None, lg, **changes) -> DomainError:
    seasons, divisions = Season.objects.count(), Division.objects.count()
    with pytest.raises(DomainError) as err:
        create(lg, **changes)
    assert err.value.code == code
    if field is not None:
        assert err.value.field == field
    assert (Season.objects.count(), Division.objects.count()) == (seasons, divisions)
    return err.value


@pytest.mark.parametrize(
    ("changes", "code", "field"),
    [
        ({"game_id": "snooker_on_the_moon"}, "unknown_game", "game_id"),
        ({"game_id": ""}, "unknown_game", "game_id"),
        ({"game_options": {"no_such_option": 3}}, "bad_game_options", "game_options"),
        ({"game_options": ["not", "an", "object"]}, "bad_game_options", "game_options"),
        ({"divisions": []}, "no_divisions", "divisions"),
        ({"divisions": ["", "   "]}, "no_divisions", "divisions"),
        ({"divisions": ["Premier", "premier"]}, "duplicate_division", "divisions"),
        ({"divisions": [f"D{i}" for i in range(21)]}, "too_many_divisions", "divisions"),
        ({"name": "  "}, "bad_name", "name"),
        ({"name": "!!!"}, "bad_slug", "name"),
        ({"match_format_preset": "tiddlywinks"}, "unknown_preset", "match_format_preset"),
    ],
)
def test_bad_input_is_refused_by_field_and_changes_nothing(league, changes, code, field):
    refused(code, field, league, **changes)


def test_a_season_address_is_unique_in_its_league_only(league):
    create(league, name="Summer")
    refused("slug_taken", "name", league, name="Summer")
    refused("slug_taken", "slug", league, name="Summer again", slug="summer")
    other = make_league(2, 1)
    assert create(other, name="Summer").slug == "summer"  # another league's address


def test_only_this_leagues_secretary_starts_a_season(league):
    other = make_league(2, 1)
    for actor in (other.secretary, league.captain, league.outsider):
        error = refused("not_secretary", None, league, actor=actor)
        assert error.status == 403
    results = make_secretary(league.season.league, role=LeagueRole.Role.RESULTS_SECRETARY)
    refused("not_secretary", None, league, actor=results)
    assert create(league, actor=make_site_admin()).name == "Winter 2027"


def test_a_division_added_twice_or_by_a_stranger_is_refused(league):
    with pytest.raises(DomainError) as err:
        season_services.division_add(season=league.season, actor=league.secretary, name="premier")
    assert err.value.code == "duplicate_division"
    with pytest.raises(DomainError) as err:
        season_services.division_add(season=league.season, actor=league.captain, name="Third")
    assert err.value.code == "not_secretary"
    assert league.season.divisions.count() == 2


# --------------------------------------------------------------------------- the page


def test_the_league_home_offers_start_a_season_to_its_secretary_only(league):
    slug = league.season.league.slug
    url = reverse("season-create", args=[slug])
    assert url in logged_in(league.secretary).get(reverse("league-home", args=[slug])).text
    assert url not in Client().get(reverse("league-home", args=[slug])).text
    assert url not in logged_in(league.captain).get(reverse("league-home", args=[slug])).text


def test_the_page_starts_a_season_and_opens_it(league, django_assert_max_num_queries):
    slug = league.season.league.slug
    client = logged_in(league.secretary)
    url = reverse("season-create", args=[slug])
    with django_assert_max_num_queries(8):
        page = client.get(url)
    assert page.status_code == 200
    assert 'value="northern_bagatelle"' in page.text and "Bagatelle: 6 singles" in page.text
    response = client.post(
        url,
        {
            "name": "Spring 2027",
            "game_id": "northern_bagatelle",
            "start_date": "2027-03-02",
            "divisions": "Premier\r\nFirst\r\n",
            "match_format_preset": "bagatelle_fixed",
        },
    )
    season = Season.objects.get(league__slug=slug, slug="spring-2027")
    assert response.status_code == 302
    assert response["Location"] == reverse("season-detail", args=[slug, season.pk])
    assert [d.name for d in season.divisions.all()] == ["Premier", "First"]
    assert season.game_id == "northern_bagatelle"
    assert "Spring 2027" in client.get(response["Location"]).text


def test_the_page_shows_what_is_wrong(league):
    slug = league.season.league.slug
    client = logged_in(league.secretary)
    url = reverse("season-create", args=[slug])
    before = Season.objects.count()
    response = client.post(
        url, {"name": "Spring", "game_id": "northern_bagatelle", "divisions": "A\nA"}
    )
    assert response.status_code == 400
    assert "is named twice" in response.text
    response = client.post(url, {"name": "", "game_id": "no-such-game", "divisions": ""})
    assert response.status_code == 400
    assert Season.objects.count() == before


def test_the_page_is_refused_to_others_and_404_for_an_unknown_league(league):
    other = make_league(2, 1)
    url = reverse("season-create", args=[league.season.league.slug])
    assert logged_in(other.secretary).get(url).status_code == 403
    assert logged_in(league.captain).post(url, {"name": "X"}).status_code == 403
    assert Client().get(url).status_code == 302  # to sign in
    missing = reverse("season-create", args=["no-such-league"])
    assert logged_in(league.secretary).get(missing).status_code == 404


# --------------------------------------------------------------------------- the API


def test_the_api_starts_a_season(league):
    lg = league.season.league
    client = logged_in(league.secretary)
    url = reverse("api-league-seasons", args=[lg.pk])
    response = client.post(
        url,
        {
            "name": "Autumn 2027",
            "game_id": "northern_bagatelle",
            "start_date": "2027-09-07",
            "divisions": ["Premier", "First"],
            "match_format_preset": "bagatelle_fixed",
        },
        content_type="application/json",
    )
    assert response.status_code == 201, response.content
    body = response.json()
    assert (body["league"], body["slug"], body["game_id"]) == (
        lg.pk,
        "autumn-2027",
        "northern_bagatelle",
    )
    assert [(d["name"], d["rank"]) for d in body["divisions"]] == [("Premier", 1), ("First", 2)]
    assert Season.objects.get(pk=body["id"]).league == lg


def test_the_api_refuses_in_its_error_shape(league):
    lg = league.season.league
    url = reverse("api-league-seasons", args=[lg.pk])
    data = {"name": "Autumn", "game_id": "nope", "divisions": ["A"]}
    other = make_league(2, 1)
    before = Season.objects.count()
    response = logged_in(league.secretary).post(url, data, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["error"] == "unknown_game" and response.json()["field"] == "game_id"
    response = logged_in(league.secretary).post(
        url, dict(data, game_id="northern_bagatelle", divisions=[]), content_type="application/json"
    )
    assert response.status_code == 400 and "error" in response.json()
    data["game_id"] = "northern_bagatelle"
    response = logged_in(other.secretary).post(url, data, content_type="application/json")
    assert response.status_code == 403 and response.json()["error"]
    assert Client().post(url, data, content_type="application/json").status_code in (401, 403)
    missing = reverse("api-league-seasons", args=[League.objects.order_by("-pk")[0].pk + 1])
    assert (
        logged_in(league.secretary).post(missing, data, content_type="application/json").status_code
        == 404
    )
    assert Season.objects.count() == before


# --------------------------------------------------------------------------- Done when


def league_state(lg: League) -> dict:
    """Everything of a league another league's secretary must not touch."""
    return {
        "league": list(League.objects.filter(pk=lg.pk).values()),
        "seasons": list(Season.objects.filter(league=lg).order_by("pk").values()),
        "divisions": list(Division.objects.filter(season__league=lg).order_by("pk").values()),
        "teams": list(Team.objects.filter(season__league=lg).order_by("pk").values()),
        "fixtures": list(Fixture.objects.filter(season__league=lg).order_by("pk").values()),
        "registrations": list(
            Registration.objects.filter(season__league=lg).order_by("pk").values()
        ),
        "roles": list(LeagueRole.objects.filter(league=lg).order_by("pk").values()),
        "matches": list(Match.objects.filter(fixture__season__league=lg).values()),
    }


def csv_file(name: str, text: str) -> SimpleUploadedFile:
    return SimpleUploadedFile(name, text.encode(), content_type="text/csv")


def api_import(client: Client, season: Season, kind: str, text: str) -> dict:
    response = client.post(
        reverse("api-season-import", args=[season.pk]),
        {"kind": kind, "file": csv_file(f"{kind}.csv", text), "dry_run": "false"},
    )
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["imported"] is True, body
    return body


TEAMS = (
    "Team,Venue,Division,Captain\n"
    "Red Lion,The Red Lion,Premier,lion@example.org\n"
    "Bull,The Bull,Premier,bullcaptain\n"
)
PLAYERS = "Player,Team\n" + "".join(
    f"{who} {n},{team}\n" for team, who in (("Red Lion", "Lion"), ("Bull", "Bull")) for n in "ABCD"
)
FIXTURES = (
    "Date,Home team,Away team,Division\n"
    "2027-01-12,Red Lion,Bull,Premier\n"
    "2027-02-09,Bull,Red Lion,Premier\n"
)


def test_done_when_a_new_league_is_handed_to_a_secretary_who_runs_a_night():
    other = make_league(2, 5)  # a league already on the site, with its own officers
    other_league = other.season.league
    before = league_state(other_league)
    admin = make_site_admin()
    newcomer = UserFactory(username="margaret")

    # The site administrator creates the league and appoints an existing account.
    response = logged_in(admin).post(
        reverse("site-leagues"),
        {
            "name": "Chester Bagatelle League",
            "slug": "chester",
            "game_id": "northern_bagatelle",
            "match_night": 2,
            "secretary": "margaret",
        },
    )
    assert response.status_code == 302
    lg = League.objects.get(slug="chester")
    assert LeagueRole.objects.filter(league=lg, user=newcomer, role="secretary").exists()

    # The secretary starts a season from the league's home page.
    sec = logged_in(newcomer)
    home = sec.get(reverse("league-home", args=["chester"]))
    assert reverse("season-create", args=["chester"]) in home.text
    response = sec.post(
        reverse("season-create", args=["chester"]),
        {
            "name": "Winter 2027",
            "game_id": "northern_bagatelle",
            "start_date": "2027-01-05",
            "divisions": "Premier",
        },
    )
    assert response.status_code == 302
    season = Season.objects.get(league=lg)
    assert season.game_id == "northern_bagatelle"

    # Last season's spreadsheets: teams on the import page (upload, preview, import), with
    # their captains' accounts (by email or username) …
    captains = {
        "home": UserFactory(username="lioncaptain", email="lion@example.org"),
        "away": UserFactory(username="bullcaptain"),
    }
    url = reverse("season-import", args=[season.pk])
    preview = sec.post(url, {"kind": "teams", "file": csv_file("teams.csv", TEAMS)})
    assert preview.status_code == 200 and "Red Lion" in preview.text
    mapping = {f"map-{i}": field for i, (_, field) in enumerate(preview.context["columns"])}
    assert list(mapping.values()) == ["name", "venue", "division", "captain"]
    done = sec.post(url, {"payload": preview.context["payload"], "action": "import", **mapping})
    assert done.status_code == 302
    assert sorted(season.teams.values_list("name", "venue__name")) == [
        ("Bull", "The Bull"),
        ("Red Lion", "The Red Lion"),
    ]
    # … players and fixtures through the API.
    api_import(sec, season, "registrations", PLAYERS)
    api_import(sec, season, "fixtures", FIXTURES)
    home_team, away_team = season.teams.get(name="Red Lion"), season.teams.get(name="Bull")
    assert home_team.registrations.filter(status="active").count() == 4
    fixture = Fixture.objects.get(season=season, home=home_team, away=away_team)
    assert Fixture.objects.filter(season=season).count() == 2

    # The format: a fixed order of six singles.
    response = sec.post(
        reverse("api-season-format", args=[season.pk]),
        {"preset": "bagatelle_fixed"},
        content_type="application/json",
    )
    assert response.status_code == 200, response.content

    assert (home_team.captain, away_team.captain) == (captains["home"], captains["away"])

    # Match night: opened, players present, Ready, line-ups, the draw, paper scores, confirm.
    match = squads.match_open(fixture=fixture, actor=captains["home"])
    assert match.game_id == "northern_bagatelle"
    for side, team in (("home", home_team), ("away", away_team)):
        players = [r.player for r in team.registrations.filter(status="active").order_by("id")]
        squads.match_mark_present(match=match, side=side, players=players[:3], actor=newcomer)
        seeding.match_commit(match=match, side=side, actor=captains[side])
        nominating.match_nominate(match=match, side=side, lineup=players[:3], actor=captains[side])
    match = drawing.match_draw(match=match, actor=captains["home"])
    frames = list(Frame.objects.filter(match=match).order_by("number"))
    assert [f.game_id for f in frames] == ["northern_bagatelle"] * 6
    scores = {1: (90, 10), 2: (90, 10), 3: (90, 10), 4: (90, 10), 5: (10, 90), 6: (90, 10)}
    signoff.match_key_in_paper(match=match, scores=scores, actor=captains["home"])
    for side in ("home", "away"):
        signoff.match_confirm(match=match, side=side, actor=captains[side])
    fixture.refresh_from_db()
    assert fixture.result_confirmed_at is not None
    assert (fixture.home_frames, fixture.away_frames) == (5, 1)

    # The table shows it (the secretary's provisional table).
    division = season.divisions.get()
    table = sec.get(reverse("api-division-table-live", args=[division.pk])).json()
    rows = {row["team"]: row for row in table["rows"]}
    assert rows["Red Lion"]["position"] == 1 and rows["Red Lion"]["won"] == 1
    assert rows["Bull"]["lost"] == 1 and rows["Bull"]["played"] == 1

    # The other league is untouched, and its pages are closed to this secretary.
    assert league_state(other_league) == before
    oslug, oseason = other_league.slug, other.season
    for url in (
        reverse("season-create", args=[oslug]),
        reverse("league-officers", args=[oslug]),
        reverse("season-format", args=[oslug, oseason.pk]),
        reverse("season-tables", args=[oslug, oseason.pk]),
        reverse("season-import", args=[oseason.pk]),
        reverse("fixture-edit", args=[oslug, Fixture.objects.filter(season=oseason)[0].pk]),
    ):
        assert sec.get(url).status_code in (403, 404), url
    for url, data in (
        (
            reverse("api-league-seasons", args=[other_league.pk]),
            {"name": "X", "game_id": "northern_bagatelle", "divisions": ["A"]},
        ),
        (reverse("api-season-format", args=[oseason.pk]), {"preset": "norwich"}),
    ):
        assert sec.post(url, data, content_type="application/json").status_code in (403, 404)
    response = sec.post(
        reverse("api-season-import", args=[oseason.pk]),
        {"kind": "teams", "file": csv_file("teams.csv", TEAMS), "dry_run": "false"},
    )
    assert response.status_code in (403, 404)
    assert league_state(other_league) == before
