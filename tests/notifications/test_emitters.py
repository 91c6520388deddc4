"""The events the apps announce through `notify`: whom each tells, its default, and that
running it again (a retried task, a second call) tells nobody twice and sends once.
(FIXTURE_TOMORROW's tests are beside the fixtures': tests/leagues/fixtures/.)"""

from __future__ import annotations

import uuid
from datetime import UTC, date, datetime, timedelta

import pytest
from django.core import mail
from django.utils import timezone

from competitions import tasks as competition_tasks
from competitions.models import Round, Tie
from competitions.services import notices
from competitions.services.entries import entry_create
from competitions.services.setup import competition_create
from frames.pad import events as pad_events
from frames.ratings import services as rating_services
from leagues import publication_job, publishing
from leagues.models import Player, Publication
from notifications import services, tasks
from notifications.events import Event
from notifications.models import Notification, Recipient
from notifications.services import To
from tests.competitions.helpers import drawn, registered_players
from tests.frames.pad_helpers import make_frame, make_match, referee_player, shot
from tests.frames.ratings_support import confirmed_match, fixtures_of, roster

pytestmark = pytest.mark.django_db

NOON = datetime(2026, 10, 6, 12, 0, tzinfo=UTC)  # outside everyone's quiet hours
LEAGUE_SIZE = {"teams_per_division": 2, "players_per_team": 3}


@pytest.fixture
def league(league_of_the_module):
    """Built once for this module; each test's writes roll back."""
    return league_of_the_module


def _turn_on(event, *, user=None, email=""):
    r = services.recipient_for(To(user_id=user.pk if user else None, email=email), now=NOON)
    services.choice_set(recipient=r, enabled=True, event=event)
    return r


def _queued(event, key=None):
    found = Notification.objects.filter(event=event)
    return found.filter(key=key) if key else found


def _send_twice(event) -> int:
    """Deliver what `event` queued, then again (a retried task): returns emails sent."""
    ids = list(_queued(event).values_list("id", flat=True))
    first = tasks.deliver(ids)
    assert tasks.deliver(ids) == 0
    assert tasks.sweep() == 0
    return first


# ------------------------------------------------------------------ TABLE_PUBLISHED


def _publish(league, capture):
    with capture(execute=True):
        publication = publishing.publication_request(season=league.season, actor=league.secretary)
    publication.refresh_from_db()
    assert publication.state == Publication.State.DONE
    return publication


def test_a_published_table_tells_those_who_chose_it_once(
    league, django_capture_on_commit_callbacks, monkeypatch
):
    me = _turn_on(Event.TABLE_PUBLISHED, user=league.player_user)
    officer = _turn_on(Event.TABLE_PUBLISHED, user=league.secretary)
    stranger = _turn_on(Event.TABLE_PUBLISHED, user=league.outsider)
    before = len(mail.outbox)
    publication = _publish(league, django_capture_on_commit_callbacks)
    told = _queued(Event.TABLE_PUBLISHED, f"table-published:{publication.pk}")
    assert {n.recipient for n in told} == {me, officer}  # not someone outside the league
    assert stranger not in {n.recipient for n in told}
    assert {n.league_id for n in told} == {league.season.league_id}
    # The job run again (a retry, the sweeper) and the delivery retried: sent once.
    assert publication_job.publication_run(publication_id=publication.pk) == "skipped"
    Publication.objects.filter(pk=publication.pk).update(state=Publication.State.RUNNING)
    publication_job.publication_run(publication_id=publication.pk, now=timezone.now())
    assert told.count() == 2
    assert any("tables" in m.subject for m in mail.outbox[before:])  # captains', as before
    # However often delivery runs (on commit, retried, the sweeper, after quiet hours):
    # each of the two gets one email of it.
    ids = list(told.values_list("id", flat=True))
    later = timezone.now() + timedelta(days=1)
    monkeypatch.setattr(timezone, "now", lambda: later)
    tasks.deliver(ids)
    tasks.deliver(ids)
    tasks.sweep()
    notices_sent = [m for m in mail.outbox if "List-Unsubscribe" in m.extra_headers]
    assert sorted(m.to[0] for m in notices_sent) == sorted([me.address, officer.address])


def test_a_published_table_is_off_by_default(league, django_capture_on_commit_callbacks):
    _publish(league, django_capture_on_commit_callbacks)
    assert not _queued(Event.TABLE_PUBLISHED).exists()
    assert not Recipient.objects.exists()  # nobody chose it: the league's people not gathered


# ------------------------------------------------------------------ FRAME_STARTED


def _shot(frame, seq, now=NOON):
    return pad_events.frame_record_event(
        frame_id=frame.pk,
        event_id=uuid.uuid4(),
        expected_seq=seq,
        payload=shot(("white", 50)),
        kind="event",
        user=None,
        device_id="d1",
        now=now,
    )


def test_a_frame_started_is_told_once_to_both_teams_players_who_chose_it(league):
    match = make_match(league)  # teams[1] v teams[0] (Rita plays for teams[0])
    frame = make_frame(match, referee=referee_player(league))
    rita = _turn_on(Event.FRAME_STARTED, user=league.player_user)
    _turn_on(Event.FRAME_STARTED, user=league.outsider)
    home_player = Player.objects.filter(registrations__team=league.teams[1]).first()
    home_player.email = "home.player@example.com"
    home_player.save(update_fields=["email"])
    _turn_on(Event.FRAME_STARTED, email="home.player@example.com")
    _shot(frame, 1)
    told = _queued(Event.FRAME_STARTED, f"frame-started:{frame.pk}")
    assert {n.recipient.address for n in told} == {
        rita.address,
        "home.player@example.com",
    }
    note = told.first()
    assert note.title.startswith(f"Frame {frame.number} started: ")
    assert note.url == f"/matches/{match.pk}/live/"
    # The next shots, and an explicit start of the frame, tell nobody again.
    _shot(frame, 2)
    pad_events.frame_start(frame_id=frame.pk, now=NOON)
    assert told.count() == 2
    assert _send_twice(Event.FRAME_STARTED) == 2
    assert len(mail.outbox) == 2


def test_a_frame_started_nobody_chose_costs_the_start_one_query_and_a_shot_none(league):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    frame = make_frame(make_match(league), referee=referee_player(league))
    with CaptureQueriesContext(connection) as start:
        _shot(frame, 1)
    with CaptureQueriesContext(connection) as later:
        _shot(frame, 2)
    assert not _queued(Event.FRAME_STARTED).exists()  # off by default
    assert sum("notifications_" in q["sql"] for q in start.captured_queries) == 1
    assert not any("notifications_" in q["sql"] for q in later.captured_queries)


# ------------------------------------------------------------------ CUP_DRAW


def _cup(league, n=4, **kwargs):
    comp = competition_create(
        actor=league.secretary,
        season=league.season,
        name="Singles Cup",
        kind=kwargs.pop("kind", "singles"),
        now=NOON,
        **kwargs,
    )
    players = registered_players(league, n)
    for i, player in enumerate(players):
        if not player.user_id:
            player.email = f"entrant{i}@example.com"
            player.save(update_fields=["email"])
        entry_create(actor=league.secretary, competition=comp, player=player, now=NOON)
    return comp, players


def test_a_cup_draw_tells_each_entrant_their_tie_once(league):
    comp, players = _cup(league, 4)
    comp = drawn(comp, league.secretary)
    told = _queued(Event.CUP_DRAW, f"cup-draw:{comp.pk}")
    assert told.count() == 4  # on by default: every entrant with an address or a login
    for n in told:
        assert n.title == "Singles Cup: the draw is made"
        assert " v " in n.body and n.body.startswith(comp.rounds.get(number=1).name)
    # Asked again (a retried request): nobody told twice; delivery retried: sent once.
    notices.cup_draw_notify(competition=comp, knockout=False, now=NOON)
    assert told.count() == 4
    assert _send_twice(Event.CUP_DRAW) == 4 == len(mail.outbox)


# ------------------------------------------------------------------ TIE_DEADLINE


def _deadline_cup(league, deadline):
    comp, _players = _cup(league, 4)
    comp = drawn(comp, league.secretary)
    Round.objects.filter(competition=comp, number=1).update(deadline=deadline)
    return comp


def test_a_ties_deadline_within_two_days_tells_both_sides_once(league, monkeypatch):
    now = timezone.now()
    comp = _deadline_cup(league, now + timedelta(days=1, hours=20))
    Notification.objects.filter(event=Event.CUP_DRAW).delete()
    ties = list(Tie.objects.filter(round__competition=comp, round__number=1, bye=False))
    played = ties[1]
    Tie.objects.filter(pk=played.pk).update(status=Tie.Status.PLAYED)
    assert competition_tasks.tie_deadlines() == 2  # the unplayed tie: both sides
    told = _queued(Event.TIE_DEADLINE)
    assert {n.key for n in told} == {f"tie-deadline:{ties[0].pk}"}
    assert "play " in told.first().title
    assert competition_tasks.tie_deadlines() == 0  # the next day's run, or a retry
    monkeypatch.setattr(timezone, "now", lambda: NOON.replace(year=now.year + 1))
    assert _send_twice(Event.TIE_DEADLINE) == 2


def test_a_deadline_further_off_or_past_tells_nobody(league):
    now = timezone.now()
    comp = _deadline_cup(league, now + timedelta(days=3))
    assert notices.tie_deadlines_notify(now=now) == 0
    Round.objects.filter(competition=comp).update(deadline=now - timedelta(hours=1))
    assert notices.tie_deadlines_notify(now=now) == 0
    assert not _queued(Event.TIE_DEADLINE).exists()


# ------------------------------------------------------------------ RATING_MOVED


def test_a_ratings_run_tells_each_moved_player_who_chose_it_once(league):
    fixture = fixtures_of(league)[0]
    home, away = roster(fixture.home), roster(fixture.away)
    for p in (*home, *away):
        p.email = f"p{p.pk}@example.com"
        p.save(update_fields=["email"])
    confirmed_match(fixture, date(2026, 9, 2), [([home[0]], [away[0]], 200, 100)])
    _turn_on(Event.RATING_MOVED, email=home[0].email)
    _turn_on(Event.RATING_MOVED, email=home[1].email)  # did not play: not moved
    run = rating_services.ratings_request(
        game_id="bar_billiards_4pin", since=None, reason="rebuild"
    )
    done = rating_services.ratings_run(run_id=run.pk, now=NOON)
    assert set(done.moved) >= {home[0].pk, away[0].pk}
    told = _queued(Event.RATING_MOVED, f"rating:{run.pk}")
    assert [n.recipient.address for n in told] == [home[0].email]  # off by default for away
    assert told.get().title.startswith("Your 4-pin bar billiards rating is now ")
    assert rating_services.ratings_run(run_id=run.pk) is None  # run again: done already
    assert _send_twice(Event.RATING_MOVED) == 1


# ------------------------------------------------------------------ personal data


def _frame_started_for_others(league):
    """A frame Rita plays in started, told to a home player who chose it."""
    match = make_match(league, home=1, away=0)
    frame = make_frame(match)
    rita = league.player_user.player
    frame.players.filter(side="away").update(player=rita)
    home_player = Player.objects.filter(registrations__team=league.teams[1]).first()
    home_player.email = "home.player@example.com"
    home_player.save(update_fields=["email"])
    _turn_on(Event.FRAME_STARTED, email="home.player@example.com")
    _shot(frame, 1)
    told = _queued(Event.FRAME_STARTED).get()
    assert "Rita Referee" in told.body
    return rita, told


def test_an_erasure_renames_the_person_in_messages_to_others(league):
    from people.erasure import person_erase

    rita, told = _frame_started_for_others(league)
    person_erase(player=rita, actor=league.secretary, now=NOON)
    told.refresh_from_db()
    rita.refresh_from_db()
    assert "Rita Referee" not in told.body
    assert rita.name in told.body  # "Former player N"


def test_choosing_initials_renames_the_person_in_messages_to_others(league):
    from people.naming import person_set_private_name

    rita, told = _frame_started_for_others(league)
    person_set_private_name(player=rita, private=True)
    told.refresh_from_db()
    assert "Rita Referee" not in told.body and "R. R." in told.body
