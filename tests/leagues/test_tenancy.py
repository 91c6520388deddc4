"""Leagues as tenants: each league's officers manage only their league; the site
administrator creates leagues and appoints their first secretary (docs/tenancy.md)."""

from __future__ import annotations

import copy
import importlib

import pytest
from django.apps import apps
from django.core import mail
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from frames.pad.selectors import frames_for_user
from leagues import tenancy
from leagues.models import Invitation, League, LeagueRole
from leagues.teams import services as team_services
from marker.errors import DomainError
from marker.permissions import (
    allowed,
    is_competitions_secretary,
    is_results_secretary,
    is_secretary,
    league_id_of,
)
from rules import registry
from tests.conftest import built_once, make_league
from tests.factories import UserFactory, make_secretary, make_site_admin
from tests.frames.pad_helpers import make_frame, make_match, referee_player

pytestmark = pytest.mark.django_db

RESULTS = LeagueRole.Role.RESULTS_SECRETARY
COMPETITIONS = LeagueRole.Role.COMPETITIONS_SECRETARY


def make_two():
    """Two leagues, each with its secretary, teams, fixtures and a match with a frame."""
    a, b = make_league(2, 5), make_league(2, 5)
    for lg in (a, b):
        lg.match = make_match(lg, home=1, away=0)
        lg.frame = make_frame(lg.match, number=1, referee=referee_player(lg))
        lg.league = lg.season.league
    return a, b


@pytest.fixture(scope="module")
def two_built_once(django_db_setup, django_db_blocker):
    yield from built_once(django_db_blocker, make_two)


@pytest.fixture
def two(two_built_once, db):
    """The module's two leagues (its tests only read them, and their writes roll back); a
    deep copy of their objects for each test."""
    return copy.deepcopy(two_built_once)


def objects_of(lg):
    fixture = lg.match.fixture
    return [
        lg.league,
        lg.season,
        lg.premier,
        lg.teams[0],
        fixture,
        lg.match,
        lg.frame,
        lg.teams[0].registrations.first(),
    ]


def test_the_league_of_every_kind_of_object_is_found(two):
    a, _ = two
    for obj in objects_of(a):
        assert league_id_of(obj) == a.league.pk, obj
    assert league_id_of(None) is None
    assert league_id_of(a.teams[0].venue) is None  # venues are shared by the leagues


def test_a_secretary_is_a_secretary_of_their_league_only(two):
    a, b = two
    for obj in objects_of(a):
        assert is_secretary(a.secretary, obj), obj
        assert is_results_secretary(a.secretary, obj)  # a secretary holds every role
        assert is_competitions_secretary(a.secretary, obj)
    for obj in objects_of(b):
        assert not is_secretary(a.secretary, obj), obj
        assert not is_results_secretary(a.secretary, obj), obj
        assert not is_competitions_secretary(a.secretary, obj), obj


def test_results_and_competitions_secretaries_hold_their_role_only(two):
    a, b = two
    results = make_secretary(a.league, role=RESULTS)
    competitions = make_secretary(a.league, role=COMPETITIONS)
    assert is_results_secretary(results, a.match) and not is_secretary(results, a.season)
    assert not is_competitions_secretary(results, a.season)
    assert is_competitions_secretary(competitions, a.season)
    assert not is_results_secretary(competitions, a.match)
    assert not is_secretary(competitions, a.season)
    assert not is_results_secretary(results, b.match)
    # What each may do, by permission name.
    assert allowed(results, "frames.settle_dispute", a.match)
    assert allowed(results, "leagues.manage_fixtures", a.match.fixture)
    assert not allowed(results, "leagues.manage_league", a.season)
    assert allowed(competitions, "leagues.manage_competitions", a.season)
    assert not allowed(competitions, "frames.settle_dispute", a.match)
    assert not allowed(competitions, "frames.enter_event", a.frame)
    assert not allowed(b.secretary, "frames.enter_event", a.frame)
    assert allowed(results, "frames.enter_event", a.frame)


def test_staff_alone_grants_nothing_and_no_object_means_no(two):
    a, _ = two
    staff = UserFactory(is_staff=True)
    assert not is_secretary(staff, a.season)
    assert not allowed(staff, "leagues.manage_league", a.season)
    assert not is_secretary(a.secretary, None)  # always ask about an object
    assert not allowed(a.secretary, "leagues.create_league")


def test_the_site_administrator_holds_every_permission(two):
    a, b = two
    admin = make_site_admin()
    for lg in (a, b):
        for obj in objects_of(lg):
            assert is_secretary(admin, obj)
        assert allowed(admin, "frames.settle_dispute", lg.match)
        assert allowed(admin, "frames.captain_match", lg.match)
    assert allowed(admin, "leagues.create_league")


def test_roles_are_read_once_per_user_object(two, django_assert_num_queries):
    a, b = two
    results = make_secretary(a.league, role=RESULTS)
    match_a, match_b = a.match, b.match
    league_id_of(match_a), league_id_of(match_b)  # the objects' own rows, loaded once
    with django_assert_num_queries(1):
        for _ in range(20):
            assert allowed(results, "frames.settle_dispute", match_a)
            assert not allowed(results, "frames.settle_dispute", match_b)


def test_the_data_migration_makes_staff_secretaries_of_every_league(two):
    a, b = two
    staff = UserFactory(is_staff=True)
    plain = UserFactory()
    migration = importlib.import_module("leagues.migrations.0006_staff_become_secretaries")
    migration.staff_become_secretaries(apps, None)
    migration.staff_become_secretaries(apps, None)  # twice: nothing doubles
    for lg in (a, b):
        assert (
            LeagueRole.objects.filter(league=lg.league, user=staff, role="secretary").count() == 1
        )
    assert not LeagueRole.objects.filter(user=plain).exists()


# ------------------------------------------------------------------ creating leagues


def create(actor, **fields):
    return tenancy.league_create(
        actor=actor,
        **{
            "name": "Chester Bagatelle",
            "slug": "chester",
            "game_id": "english_bagatelle",
            "match_night": 3,
            "secretary": "",
        }
        | fields,
    )


def test_a_site_administrator_creates_a_league_for_an_existing_account():
    admin, sec = make_site_admin(), UserFactory(username="cass", email="cass@example.org")
    league, role = create(admin, secretary="CASS@example.org")
    assert (league.slug, league.game_id, league.match_night) == ("chester", "english_bagatelle", 3)
    assert isinstance(role, LeagueRole) and role.user == sec and role.role == "secretary"
    assert is_secretary(sec, league)


def test_a_first_secretary_without_an_account_is_invited_and_makes_one(
    client, django_capture_on_commit_callbacks
):
    admin = make_site_admin()
    with django_capture_on_commit_callbacks(execute=True):
        league, invitation = create(admin, secretary="new.sec@example.org")
    assert isinstance(invitation, Invitation) and invitation.kind == Invitation.Kind.OFFICER
    assert len(mail.outbox) == 1 and invitation.get_absolute_url() in mail.outbox[0].body
    response = client.post(
        invitation.get_absolute_url(), {"username": "newsec", "password": "a-long-pass-phrase-9"}
    )
    assert response.status_code == 302 and response["Location"] == league.get_absolute_url()
    role = LeagueRole.objects.get(league=league, user__username="newsec")
    assert role.role == "secretary" and role.user.email == "new.sec@example.org"
    assert client.get(reverse("league-officers", args=[league.slug])).status_code == 200


def test_an_invitation_is_accepted_only_at_the_address_of_its_kind(
    client, league, django_capture_on_commit_callbacks
):
    from leagues import invitations

    with django_capture_on_commit_callbacks(execute=True):
        _, officer = create(make_site_admin(), secretary="kind.sec@example.org")
        roster = invitations.invitation_create(
            team=league.teams[0],
            invited_by=league.captain,
            name="Kit Kind",
            email="kit.kind@example.org",
        )
    assert len(mail.outbox) == 2  # one task sends both kinds
    assert client.get(reverse("invitation-accept", args=[officer.token])).status_code == 404
    assert client.get(reverse("officer-invitation-accept", args=[roster.token])).status_code == 404
    with pytest.raises(DomainError):
        invitations.invitation_accept(token=officer.token, username="x", password="long-pass-9x")
    with pytest.raises(DomainError):
        tenancy.officer_invitation_accept(token=roster.token, username="y", password="long-pass-9y")


def test_an_invitation_is_to_a_roster_or_to_an_office_never_both(league):
    from django.db import IntegrityError, transaction

    for fields in (
        {"kind": "officer", "league": league.season.league, "role": "", "email": "a@example.org"},
        {"kind": "officer", "team": league.teams[0], "role": "secretary", "email": "b@e.org"},
        {"kind": "roster", "league": league.season.league, "email": "c@example.org"},
    ):
        with pytest.raises(IntegrityError), transaction.atomic():
            Invitation.objects.create(**fields)


@pytest.mark.parametrize(
    ("fields", "code"),
    [
        ({"slug": "admin"}, "slug_reserved"),
        ({"slug": "api"}, "slug_reserved"),
        ({"slug": "tonight"}, "slug_reserved"),
        ({"slug": "players"}, "slug_reserved"),
        ({"slug": "Bad Slug"}, "bad_slug"),
        ({"game_id": "tiddlywinks"}, "unknown_game"),
        ({"match_night": 9}, "bad_match_night"),
        ({"secretary": "nobody-here"}, "unknown_account"),
        ({"secretary": ""}, "required"),
    ],
)
def test_a_league_with_bad_details_is_refused_and_nothing_is_made(fields, code):
    admin = make_site_admin()
    UserFactory(username="cass")
    before = League.objects.count()
    with pytest.raises(DomainError) as exc:
        create(admin, **({"secretary": "cass"} | fields))
    assert exc.value.code == code
    assert League.objects.count() == before


def test_a_taken_slug_is_refused(two):
    a, _ = two
    with pytest.raises(DomainError) as exc:
        create(make_site_admin(), slug=a.league.slug, secretary=a.secretary.username)
    assert exc.value.code == "slug_taken"


def test_only_a_site_administrator_creates_leagues(two):
    a, _ = two
    with pytest.raises(DomainError) as exc:
        create(a.secretary, secretary=a.secretary.username)
    assert exc.value.status == 403


def test_every_top_level_path_is_a_reserved_slug():
    reserved = tenancy.reserved_slugs()
    for path in ("admin", "api", "accounts", "static", "pad", "tonight", "games", "players"):
        assert path in reserved


# ------------------------------------------------------------------ officers


def test_a_secretary_appoints_and_removes_officers_but_keeps_the_last_secretary(two):
    a, b = two
    newcomer = UserFactory(username="rhiannon")
    role = tenancy.officer_appoint(actor=a.secretary, league=a.league, who="rhiannon", role=RESULTS)
    assert is_results_secretary(newcomer, a.match)
    with pytest.raises(DomainError) as exc:
        tenancy.officer_appoint(actor=a.secretary, league=a.league, who="rhiannon", role=RESULTS)
    assert exc.value.code == "already_officer"
    with pytest.raises(DomainError) as exc:
        tenancy.officer_appoint(
            actor=b.secretary, league=a.league, who="rhiannon", role=COMPETITIONS
        )
    assert exc.value.status == 403
    tenancy.officer_remove(actor=a.secretary, role=role)
    own = LeagueRole.objects.get(league=a.league, user=a.secretary)
    with pytest.raises(DomainError) as exc:
        tenancy.officer_remove(actor=a.secretary, role=own)
    assert exc.value.code == "last_secretary" and exc.value.status == 409
    assert LeagueRole.objects.filter(pk=own.pk).exists()


def test_the_officers_page_appoints_by_username(two, client):
    a, b = two
    UserFactory(username="rhiannon")
    client.force_login(a.secretary)
    url = reverse("league-officers", args=[a.league.slug])
    response = client.post(url, {"action": "add", "who": "rhiannon", "role": RESULTS})
    assert response.status_code == 302
    assert LeagueRole.objects.filter(league=a.league, user__username="rhiannon").exists()
    client.force_login(b.secretary)
    assert client.get(url).status_code == 403


def test_the_api_creates_a_league_for_the_site_administrator_only(two):
    a, _ = two
    body = {
        "name": "Chester Bagatelle",
        "slug": "chester",
        "game_id": "english_bagatelle",
        "match_night": 3,
        "secretary": a.secretary.username,
    }
    secretary = Client()
    secretary.force_login(a.secretary)
    assert secretary.post("/api/leagues/", body, content_type="application/json").status_code == 403
    admin = Client()
    admin.force_login(make_site_admin())
    response = admin.post("/api/leagues/", body, content_type="application/json")
    assert response.status_code == 201, response.content
    assert response.json()["league"]["slug"] == "chester"
    assert response.json()["secretary"]["username"] == a.secretary.username
    again = admin.post("/api/leagues/", body, content_type="application/json")
    assert again.status_code == 400 and again.json()["error"] == "slug_taken"


def test_the_officers_api_lists_adds_and_keeps_the_last_secretary(two):
    a, b = two
    client = Client()
    client.force_login(a.secretary)
    url = f"/api/leagues/{a.league.pk}/officers/"
    assert [o["username"] for o in client.get(url).json()["officers"]] == [a.secretary.username]
    made = client.post(
        url, {"who": "x@example.org", "role": COMPETITIONS}, content_type="application/json"
    )
    assert made.status_code == 201 and made.json()["invitation"]["email"] == "x@example.org"
    own = LeagueRole.objects.get(league=a.league, user=a.secretary)
    gone = client.delete(f"{url}{own.pk}/")
    assert gone.status_code == 409 and gone.json()["error"] == "last_secretary"
    stranger = Client()
    stranger.force_login(b.secretary)
    assert stranger.get(url).status_code == 403
    assert stranger.delete(f"{url}{own.pk}/").status_code == 403


# ------------------------------------------------------------------ pages


def test_the_home_page_lists_each_league_with_its_game_and_current_season(two, client):
    a, b = two
    html = client.get("/").content.decode()
    for lg in (a, b):
        assert lg.league.name in html and lg.league.get_absolute_url() in html
        assert lg.season.get_absolute_url() in html
    assert "Bar billiards" in html or "bar billiards" in html.lower()


def test_the_home_page_names_the_game_each_league_plays_this_season(two, client):
    """A league's own game is the default for its new seasons; the lists name the game its
    current season plays."""
    a, b = two
    b.season.game_id = "northern_bagatelle"
    b.season.save(update_fields=["game_id"])
    bagatelle = registry.get("northern_bagatelle").name
    home = client.get("/").content.decode()
    card = home[home.index(b.league.name) :]
    assert bagatelle in card and bagatelle not in home[: home.index(b.league.name)]
    assert bagatelle in client.get(b.league.get_absolute_url()).content.decode()


def test_a_league_home_shows_its_season_and_fixtures_not_the_others(two, client):
    a, b = two
    html = client.get(a.league.get_absolute_url()).content.decode()
    assert a.season.get_absolute_url() in html and a.premier.get_absolute_url() in html
    assert b.season.get_absolute_url() not in html


def test_league_pages_live_under_the_league_and_old_addresses_redirect(two, client):
    a, b = two
    team = a.teams[0]
    assert team.get_absolute_url() == f"/{a.league.slug}/teams/{team.pk}/"
    response = client.get(f"/teams/{team.pk}/")
    assert response.status_code == 301 and response["Location"] == team.get_absolute_url()
    for old, obj in (
        ("seasons", a.season),
        ("divisions", a.premier),
        ("fixtures", a.match.fixture),
    ):
        response = client.get(f"/{old}/{obj.pk}/")
        assert response.status_code == 301 and response["Location"] == obj.get_absolute_url()
    assert client.get(f"/{b.league.slug}/teams/{team.pk}/").status_code == 404


def test_one_person_one_player_page_with_teams_in_every_league(two, client):
    a, b = two
    reg = a.teams[0].registrations.select_related("player").first()
    team_services.roster_add_player(team=b.teams[0], player=reg.player)
    html = client.get(reg.player.get_absolute_url()).content.decode()
    assert a.teams[0].get_absolute_url() in html and b.teams[0].get_absolute_url() in html


def test_the_pad_lists_a_results_secretary_the_frames_of_their_league_only(two):
    a, b = two
    results = make_secretary(a.league, role=RESULTS)
    frames = frames_for_user(results)
    assert a.frame in frames and b.frame not in frames
    assert {a.frame, b.frame} <= set(frames_for_user(make_site_admin()))
    assert b.frame not in frames_for_user(a.secretary)


def test_the_admin_refuses_a_reserved_slug_too():
    league = League(name="Sneaky", slug="admin")
    with pytest.raises(ValidationError) as exc:
        league.full_clean()
    assert "slug" in exc.value.message_dict
