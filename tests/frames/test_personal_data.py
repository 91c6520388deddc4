"""Personal data: a person's download, the choice not to be named publicly, and erasure
("Former player N") keeping every table, leaderboard and rating as it was."""

from __future__ import annotations

import json
import uuid
from datetime import date, datetime
from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from frames.models import Frame, FrameEvent, Match, MatchLog, Rating, RatingChange
from frames.pad.events import frame_confirm, frame_rebuild, frame_record_event
from frames.ratings import services as ratings_services
from frames.stats import record
from frames.stats import selectors as stats_selectors
from leagues import standings
from leagues.fixtures import services as fixture_services
from leagues.models import (
    Fixture,
    Invitation,
    PersonErasure,
    Player,
    Subscription,
)
from leagues.teams import services as team_services
from marker import personal_data
from marker.errors import DomainError
from people import erasure
from tests.conftest import make_league
from tests.factories import (
    FrameFactory,
    FramePlayerFactory,
    MatchFactory,
    UserFactory,
    make_secretary,
)
from tests.frames.ratings_support import BB, confirmed_match
from tests.links import league_reverse

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 9, 1, 21, 0, tzinfo=timezone.get_current_timezone())
OLD = "Zebedee Quux"


def shot(*pots, fouls=()):
    event = {"type": "shot"}
    if pots:
        event["pots"] = [{"ball": b, "hole": h} for b, h in pots]
    if fouls:
        event["fouls"] = list(fouls)
    return event


# A whole frame of bar billiards (as in test_stats): it ends on the cut-off.
SCRIPT = [
    {"type": "bar_down"},
    shot(("white", 200), ("red", 200)),
    shot(("white", 200), ("white", 200)),
    shot(("white", 50)),
    shot(),
    shot(("white", 100)),
    shot(),
    shot(fouls=("miss",)),
    shot(("white", 30)),
]


def roster(team):
    return [r.player for r in team.registrations.select_related("player").order_by("id")]


def play_on_pad(frame):
    for seq, payload in enumerate(SCRIPT, start=1):
        frame_record_event(
            frame_id=frame.pk,
            event_id=uuid.uuid4(),
            expected_seq=seq,
            payload=payload,
            kind="event",
            user=None,
            device_id="test",
            now=NOW,
        )
    frame_confirm(frame_id=frame.pk, seq=len(SCRIPT), user=None, now=NOW)


@pytest.fixture
def world():
    """A league where Zebedee Quux (an account, an email, a subscription) played a frame
    on the pad and two paper frames, refereed one, and has statistics and ratings."""
    league = make_league(teams_per_division=4, players_per_team=3)
    home, away = league.teams[0], league.teams[1]
    victim = roster(home)[0]
    user = UserFactory(username="zeb", email="zeb@example.org", first_name="Zebedee")
    Player.objects.filter(pk=victim.pk).update(name=OLD, email="zeb.player@example.org", user=user)
    victim.refresh_from_db()
    opponent = roster(away)[0]
    Player.objects.filter(pk=opponent.pk).update(email="secret-opponent@example.org")
    Subscription.objects.create(league=league.season.league, email=user.email, created_at=NOW)
    Invitation.objects.create(team=home, name=OLD, email="zeb.player@example.org")

    fixtures = list(Fixture.objects.filter(division=league.premier).select_related("home", "away"))
    pad_fixture = next(f for f in fixtures if f.home_id == home.pk and f.away_id == away.pk)
    match = MatchFactory(fixture=pad_fixture, status=Match.Status.IN_PLAY, game_id=BB)
    match.home_hat = sorted(p.name for p in roster(home))
    match.away_hat = sorted(p.name for p in roster(away))
    match.draw_notes = [f"{OLD} referees frame 2."]
    match.save()
    MatchLog.add(match, None, "drawn", NOW, note=f"{OLD} drawn first")
    frame = FrameFactory(match=match, number=1, order=1, game_id=BB)
    FramePlayerFactory(frame=frame, side="home", player=victim)
    FramePlayerFactory(frame=frame, side="away", player=opponent)
    play_on_pad(frame)
    refereed = FrameFactory(match=match, number=2, order=2, game_id=BB, referee=victim)
    FramePlayerFactory(frame=refereed, side="home", player=roster(home)[1])
    FramePlayerFactory(frame=refereed, side="away", player=roster(away)[1])
    fixture_services.fixture_record_result(
        fixture=pad_fixture,
        home_frames=Decimal(1),
        away_frames=Decimal(0),
        home_score=250,
        away_score=0,
        confirmed_at=NOW,
    )
    Match.objects.filter(pk=match.pk).update(status=Match.Status.CONFIRMED, confirmed_at=NOW)
    others = [f for f in fixtures if home.pk in (f.home_id, f.away_id) and f != pad_fixture]
    for day, fixture in enumerate(others[:2], start=8):
        mine = roster(fixture.home)[0] if fixture.home_id == home.pk else roster(fixture.away)[0]
        theirs = roster(fixture.away if fixture.home_id == home.pk else fixture.home)[0]
        h, a = (mine, theirs) if fixture.home_id == home.pk else (theirs, mine)
        confirmed_match(fixture, date(2026, 9, day), [([h], [a], 900, 400)])
        Fixture.objects.filter(pk=fixture.pk).update(home_frames=1, away_frames=0)
    for f in Frame.objects.filter(status=Frame.Status.COMPLETE):
        record.frame_stats_record(frame_id=f.pk)
    run = ratings_services.ratings_request(game_id=BB, since=None, reason="rebuild")
    ratings_services.ratings_run(run_id=run.pk)
    league.victim, league.user, league.opponent, league.match = victim, user, opponent, match
    league.frame = frame
    return league


def public_pages(w) -> list[str]:
    return [
        reverse("player-detail", args=[w.victim.pk]),
        league_reverse("team-detail", args=[w.teams[0].pk]),
        reverse("match-detail", args=[w.match.pk]),
        league_reverse("season-leaderboard", args=[w.season.pk]),
        reverse("player-ratings", args=[w.victim.pk]),
        reverse("player-ratings", args=[w.opponent.pk]),
        league_reverse("league-ratings", args=[w.season.league_id]) + f"?game={BB}",
        reverse("api-player-detail", args=[w.victim.pk]),
        reverse("api-player-list"),
        reverse("api-team-roster", args=[w.teams[0].pk]),
    ]


def snapshot(w) -> dict:
    board = stats_selectors.leaderboard(season=w.season)
    return {
        "tables": [t.as_rows() for t in standings.tables(w.season)],
        "leaderboard": [{k: v for k, v in r.items() if k != "player__name"} for r in board],
        "ratings": sorted(
            Rating.objects.values_list("player_id", "game_id", "mu", "sigma", "frames")
        ),
        "changes": sorted(
            RatingChange.objects.values_list("player_id", "frame_id", "mu", "sigma", "delta")
        ),
        "dirty": ratings_services.dirty_since(),
    }


# ------------------------------------------------------------------------ erasure


def test_erasure_keeps_every_table_leaderboard_and_rating(world):
    before = snapshot(world)
    assert before["ratings"] and before["leaderboard"] and not before["dirty"]
    done = erasure.person_erase(player=world.victim, actor=world.secretary, now=NOW)
    after = snapshot(world)
    assert after == before
    world.victim.refresh_from_db()
    assert world.victim.name == f"Former player {done.number}"
    board = stats_selectors.leaderboard(season=world.season)
    assert f"Former player {done.number}" in [r["player__name"] for r in board]


def test_the_old_name_appears_nowhere_public_and_nowhere_stored(world):
    client = Client()
    pages = public_pages(world)
    assert any(OLD in client.get(url).content.decode() for url in pages)
    erasure.person_erase(player=world.victim, actor=world.secretary, now=NOW)
    for url in pages:
        response = client.get(url)
        assert response.status_code == 200, url
        assert OLD not in response.content.decode(), url
    # Nor in what match night and the pad stored: hats, notes, log, states, events.
    for model, fields in (
        (Match, ["home_hat", "away_hat", "draw_notes"]),
        (MatchLog, ["detail"]),
        (Frame, ["setup", "parties", "state", "view"]),
        (FrameEvent, ["payload", "state_after", "view_after"]),
    ):
        for row in model.objects.values(*fields):
            assert OLD not in json.dumps(row, default=str), model
    # The log still replays to the stored states (the labels were replaced consistently).
    report = frame_rebuild(frame_id=world.frame.pk)
    assert report.ok, report.problems


def test_erasure_scrubs_the_account_and_contact_details_and_is_logged(world):
    done = erasure.person_erase(player=world.victim, actor=world.secretary, now=NOW)
    user = get_user_model().objects.get(pk=world.user.pk)
    assert not user.is_active and not user.has_usable_password()
    assert (user.email, user.first_name, user.last_name) == ("", "", "")
    assert user.username == f"former-player-{done.number}"
    player = Player.objects.get(pk=world.victim.pk)
    assert (player.email, player.user_id, player.erased_number) == ("", None, done.number)
    assert not Subscription.objects.filter(email="zeb@example.org").exists()
    assert not Invitation.objects.filter(email="zeb.player@example.org").exists()
    log = PersonErasure.objects.get()
    assert (log.by, log.at, log.player_id) == (world.secretary, NOW, player.pk)
    assert OLD not in json.dumps(list(PersonErasure.objects.values()), default=str)
    for username in ("zeb", user.username):
        signin = Client().post(
            reverse("login"), {"username": username, "password": "pw-for-tests-1"}
        )
        assert signin.status_code == 200  # the form again, not a redirect: not signed in
    with pytest.raises(DomainError) as err:
        erasure.person_erase(player=player, actor=world.secretary)
    assert err.value.code == "already_erased"


def test_erasure_numbers_are_stable_and_distinct(world):
    first = erasure.person_erase(player=world.victim, actor=world.secretary)
    second = erasure.person_erase(player=world.opponent, actor=world.secretary)
    assert second.number == first.number + 1
    assert Player.objects.get(pk=world.victim.pk).name == f"Former player {first.number}"


def test_the_erase_page_confirms_before_it_erases(world):
    client = Client()
    client.force_login(world.secretary)
    url = reverse("person-erase", args=[world.victim.pk])
    page = client.get(url)
    assert page.status_code == 200 and "cannot be undone" in page.content.decode()
    assert client.post(url, {}).status_code == 400
    assert Player.objects.get(pk=world.victim.pk).name == OLD
    response = client.post(url, {"confirm": "1"})
    assert response.status_code == 302
    assert Player.objects.get(pk=world.victim.pk).erased_number is not None


def test_who_may_erase(world):
    api = APIClient()
    url = reverse("api-person-erase", args=[world.victim.pk])
    for user in (None, world.outsider, world.captain, world.user):
        api.force_authenticate(user)
        assert api.post(url, {"confirm": True}, format="json").status_code in (401, 403)
        page = Client()
        if user is not None:
            page.force_login(user)
        answer = page.post(reverse("person-erase", args=[world.victim.pk]), {"confirm": "1"})
        assert answer.status_code in (302, 403)
        assert answer.status_code == 403 or "/accounts/login/" in answer["Location"]
    assert Player.objects.get(pk=world.victim.pk).name == OLD
    api.force_authenticate(world.secretary)
    assert api.post(url, {"confirm": False}, format="json").status_code == 400
    answer = api.post(url, {"confirm": True}, format="json")
    assert answer.status_code == 201 and answer.json()["name"].startswith("Former player")


def test_a_secretary_of_another_league_may_not_erase(world, monkeypatch):
    """With leagues as tenants, `is_secretary` decides from the league of the object: the
    predicate passes each season the person played in, so another league's secretary is
    refused."""
    other = make_league(teams_per_division=2, players_per_team=1)

    theirs = make_secretary(other.season, username="their-secretary")
    ours = make_secretary(world.season, username="our-secretary")
    assert not theirs.has_perm("leagues.erase_person", world.victim)
    assert ours.has_perm("leagues.erase_person", world.victim)
    with pytest.raises(DomainError):
        erasure.person_erase(player=world.victim, actor=theirs)


# --------------------------------------------------------------- named or not publicly


def test_a_private_player_is_shown_by_initials_except_to_themself_and_officers(world):
    team_services.player_set_private_name(player=world.victim, private=True)
    anonymous, me, secretary, captain = Client(), Client(), Client(), Client()
    me.force_login(world.user)
    secretary.force_login(world.secretary)
    captain.force_login(world.other_captain)
    for url in public_pages(world):
        for client in (anonymous, captain):
            body = client.get(url).content.decode()
            assert OLD not in body, url
    assert "Z. Q." in anonymous.get(league_reverse("team-detail", args=[world.teams[0].pk])).text
    assert "Z. Q." in anonymous.get(reverse("match-detail", args=[world.match.pk])).text
    api = APIClient().get(reverse("api-player-detail", args=[world.victim.pk])).json()
    assert api["name"] == "Z. Q."
    board = stats_selectors.leaderboard(season=world.season)
    assert "Z. Q." in [r["player__name"] for r in board]
    for client in (me, secretary):
        assert OLD in client.get(reverse("player-detail", args=[world.victim.pk])).text
        assert OLD in client.get(league_reverse("team-detail", args=[world.teams[0].pk])).text
    # Asking again to be named brings the name back.
    me.post(reverse("my-data"), {"private_name": "0"})
    assert OLD in anonymous.get(league_reverse("team-detail", args=[world.teams[0].pk])).text


def test_the_player_chooses_on_their_data_page_and_by_the_api(world):
    me = Client()
    me.force_login(world.user)
    assert me.post(reverse("my-data"), {"private_name": "1"}).status_code == 302
    assert Player.objects.get(pk=world.victim.pk).private_name
    api = APIClient()
    api.force_authenticate(world.user)
    answer = api.post(reverse("api-my-privacy"), {"private_name": False}, format="json")
    assert answer.json() == {"private_name": False, "public_name": OLD}


# ------------------------------------------------------------------------ download


def test_the_download_holds_my_frames_and_no_one_elses_private_data(world):
    client = Client()
    client.force_login(world.user)
    response = client.get(reverse("my-data-download"))
    assert response.status_code == 200
    assert response["Content-Disposition"].startswith("attachment")
    body = response.content.decode()
    data = json.loads(body)
    assert data["account"]["email"] == "zeb@example.org"
    assert data["player"]["name"] == OLD
    frames = {f["frame_id"] for f in data["frames_played"]}
    assert world.frame.pk in frames and len(frames) == 3
    assert {f["frame_id"] for f in data["frames_refereed"]} == set(
        Frame.objects.filter(referee=world.victim).values_list("pk", flat=True)
    )
    assert len(data["statistics"]) == 3
    assert data["ratings"] and len(data["rating_changes"]) == 3
    assert data["subscriptions"][0]["email"] == "zeb@example.org"
    assert data["registrations"] and data["presences"] == []
    assert world.opponent.name in json.dumps(data["frames_played"])
    # Nothing of anyone else's private data: no other email, account or login.
    assert "secret-opponent@example.org" not in body
    for other in get_user_model().objects.exclude(pk=world.user.pk):
        assert f'"{other.get_username()}"' not in body
    # The API gives the same.
    api = APIClient()
    api.force_authenticate(world.user)
    assert api.get(reverse("api-my-data")).json()["frames_played"] == data["frames_played"]


def test_the_data_page_needs_an_account():
    assert "/accounts/login/" in Client().get(reverse("my-data-download"))["Location"]
    assert APIClient().get(reverse("api-my-data")).status_code in (401, 403)


def test_the_data_page_makes_the_same_queries_however_much_was_played(world):
    client = Client()
    client.force_login(world.user)

    def count() -> int:
        with CaptureQueriesContext(connection) as ctx:
            assert client.get(reverse("my-data")).status_code == 200
        return len(ctx.captured_queries)

    count()  # the first visit makes the person's calendar address (people.calendar), once
    before = count()
    more = Fixture.objects.filter(division=world.premier, result_confirmed_at__isnull=True)
    for day, fixture in enumerate(more[:2], start=20):
        confirmed_match(fixture, date(2026, 9, day), [([world.victim], [world.opponent], 9, 4)])
    assert count() == before


def test_the_rename_leaves_other_players_whose_names_contain_the_erased_one():
    rewrite = personal_data.rewriter(
        personal_data.labels_of("Al", 5, "Former player 1"), ["Al Smith", "Sal"]
    )
    before = {
        "Al": 1,
        "Al Smith": 2,
        "parties": ["Al #5", "Sal", "Al Smith"],
        "note": "Al Smith referees; Al plays Sal.",
    }
    assert rewrite(before) == {
        "Former player 1": 1,
        "Al Smith": 2,
        "parties": ["Former player 1 #5", "Sal", "Al Smith"],
        "note": "Al Smith referees; Former player 1 plays Sal.",
    }
