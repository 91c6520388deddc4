"""The live versions move with the writes themselves (frames.live, marker.tracked): every
match-night write service bumps the versions of the match and frames it changed, and a
team's, a player's or a fixture's write the version of everything, each exactly once, in
one trip when its transaction commits; a write that rolls back bumps nothing; no model
signal does it; and the only SQL that writes the tracked tables behind the ORM's back
records what it wrote."""

from __future__ import annotations

import re
import uuid
import weakref
from datetime import date
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.db import models, transaction
from django.db.models.signals import post_delete, post_save

from frames import live
from frames.matchnight import drawing, ordering, signoff, squads
from frames.models import Frame, FrameEvent, FramePlayer, Match, Presence
from frames.pad import events
from leagues.fixtures import services as fixture_services
from leagues.models import Fixture, Player, Team
from leagues.teams import services as team_services
from marker import tracked, versions
from people.erasure import person_erase
from tests.frames.matchnight_helpers import (
    NIGHT,
    captain,
    fixture_of,
    frames_of,
    later,
    mark,
    ready,
    roster,
)
from tests.frames.pad_helpers import shot

# Autocommit, as in production: the versions are bumped when a write commits.
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def stored(monkeypatch):
    """Every trip that stores bumps, as the set of keys it stored."""
    trips: list[set[str]] = []
    real = versions._store

    def spy(keys: set[str]) -> bool:
        trips.append(set(keys))
        return real(keys)

    monkeypatch.setattr(versions, "_store", spy)
    return trips


def bumps(stored: list[set[str]], call):
    """(what `call` answered, the trips its commit made)."""
    stored.clear()
    answer = call()
    return answer, list(stored)


def keys(match: Match, frames=()) -> set[str]:
    return {live.match_key(match.pk)} | {live.frame_key(f.pk) for f in frames}


def short_frame() -> list[dict]:
    """Bar billiards: bar down, then home pots every white; over when one ball is left."""
    return [
        {"type": "bar_down"},
        shot(("white", 200), ("red", 200)),
        *[shot(("white", 200)) for _ in range(5)],
    ]


def record(frame: Frame, payload, *, seq: int, kind: str = "event"):
    return events.frame_record_event(
        frame_id=frame.pk,
        event_id=uuid.uuid4(),
        expected_seq=seq,
        payload=payload,
        kind=kind,
        user=None,
        device_id="walk",
        now=later(30),
    )


def test_every_match_night_write_bumps_its_versions_once_per_commit(league, stored):
    match, trips = bumps(
        stored,
        lambda: squads.match_open(fixture=fixture_of(league), actor=league.captain, now=NIGHT),
    )
    assert trips == [keys(match)]

    for side in ("home", "away"):
        _, trips = bumps(
            stored,
            lambda side=side: squads.match_mark_present(
                match=match,
                side=side,
                players=roster(league, side)[:6],
                actor=captain(league, side),
                now=NIGHT,
            ),
        )
        assert trips == [keys(match)], side

    ready(league, match)
    match, trips = bumps(
        stored, lambda: drawing.match_draw(match=match, actor=league.captain, now=later(5))
    )
    first_draw = frames_of(match)
    assert trips == [keys(match, first_draw)]

    # A re-draw: both captains ask; the second request throws the frames away.
    _, trips = bumps(
        stored,
        lambda: drawing.match_request_redraw(match=match, side="home", actor=league.captain),
    )
    assert trips == [keys(match)]
    _, trips = bumps(
        stored,
        lambda: drawing.match_request_redraw(match=match, side="away", actor=league.other_captain),
    )
    assert trips == [keys(match, first_draw)]
    assert not Frame.objects.filter(match=match).exists()
    ready(league, match)
    match = drawing.match_draw(match=match, actor=league.captain, now=later(6))
    frames = frames_of(match)

    # The order of play: a proposal, then its acceptance (every frame's order moves).
    order = [f.number for f in reversed(frames)]
    _, trips = bumps(
        stored,
        lambda: ordering.match_reorder(match=match, side="home", order=order, actor=league.captain),
    )
    assert trips == [keys(match)]
    _, trips = bumps(
        stored,
        lambda: ordering.match_reorder_accept(match=match, side="away", actor=league.other_captain),
    )
    assert trips == [keys(match, frames)]

    # The pad: a shot (the first puts the match in play too), an undo, the frame played
    # out, its confirmation.
    played = frames_of(match)[0]
    _, trips = bumps(stored, lambda: record(played, short_frame()[0], seq=1))
    assert trips == [keys(match, [played])]
    _, trips = bumps(stored, lambda: record(played, {}, seq=2, kind="undo"))
    assert trips == [keys(match, [played])]
    for seq, event in enumerate(short_frame(), start=3):
        answer = record(played, event, seq=seq)
    assert answer.body["view"]["over"] is True
    _, trips = bumps(
        stored,
        lambda: events.frame_confirm(
            frame_id=played.pk, seq=answer.body["seq"], user=league.player_user, now=later(40)
        ),
    )
    assert trips == [keys(match, [played])]

    # Paper scores: one frame, then the rest of the sheet.
    rest = [f for f in frames_of(match) if f.pk != played.pk and f.status != Frame.Status.CONCEDED]
    _, trips = bumps(
        stored,
        lambda: signoff.frame_key_in_paper(
            frame=rest[0], home_score=500, away_score=300, actor=league.captain, now=later(60)
        ),
    )
    assert trips == [keys(match, rest[:1])]
    _, trips = bumps(
        stored,
        lambda: signoff.match_key_in_paper(
            match=match,
            scores={f.number: (1000, 500) for f in rest[1:]},
            actor=league.captain,
            now=later(70),
        ),
    )
    assert trips == [keys(match, rest[1:])]

    # Sign-off: one captain confirms, the other disputes, the secretary settles. A result
    # that counts is written onto the fixture too, whose names every page shows.
    _, trips = bumps(
        stored,
        lambda: signoff.match_confirm(
            match=match, side="home", actor=league.captain, now=later(80)
        ),
    )
    assert trips == [keys(match)]
    _, trips = bumps(
        stored,
        lambda: signoff.match_dispute(
            match=match,
            side="away",
            actor=league.other_captain,
            reason="Frame 2 was ours",
            now=later(81),
        ),
    )
    assert trips == [keys(match)]
    _, trips = bumps(
        stored,
        lambda: signoff.match_settle(
            match=match,
            actor=league.secretary,
            decision=signoff.SETTLE_CORRECT,
            scores={rest[0].number: (300, 500)},
            now=later(90),
        ),
    )
    assert trips == [keys(match, rest[:1]) | {live.EVERYTHING}]
    assert Match.objects.get(pk=match.pk).status == Match.Status.CONFIRMED


def test_a_write_that_rolls_back_bumps_nothing(league, stored):
    match = mark(league, squads.match_open(fixture=fixture_of(league), now=NIGHT))
    ready(league, match)
    match = drawing.match_draw(match=match, actor=league.captain, now=later(5))
    frame = frames_of(match)[0]

    class Abandoned(Exception):
        pass

    @transaction.atomic
    def abandoned() -> None:
        ordering.match_reorder(
            match=match,
            side="home",
            order=[f.number for f in reversed(frames_of(match))],
            actor=league.captain,
        )
        record(frame, short_frame()[0], seq=1)
        Presence.objects.filter(match=match).delete()
        raise Abandoned

    stored.clear()
    with pytest.raises(Abandoned):
        abandoned()
    assert stored == []
    assert Presence.objects.filter(match=match).exists()  # rolled back

    # A savepoint that rolls back takes its bumps with it; the rest are stored, once.
    with transaction.atomic():
        try:
            with transaction.atomic():
                FramePlayer.objects.filter(frame=frames_of(match)[1]).update(position=1)
                raise Abandoned
        except Abandoned:
            pass
        record(frame, short_frame()[0], seq=1)
    assert stored == [keys(match, [frame])]


def test_queryset_writes_bump_the_rows_they_touch(league, stored):
    match = mark(league, squads.match_open(fixture=fixture_of(league), now=NIGHT))
    ready(league, match)
    match = drawing.match_draw(match=match, actor=league.captain, now=later(5))
    first, second = frames_of(match)[:2]

    _, trips = bumps(stored, lambda: Frame.objects.filter(pk=first.pk).update(referee_note="moved"))
    assert trips == [keys(match, [first])]
    _, trips = bumps(stored, lambda: Frame.objects.filter(pk=-1).update(referee_note="x"))
    assert trips == []  # nothing touched, nothing bumped
    player = FramePlayer.objects.filter(frame=second).first()
    _, trips = bumps(stored, lambda: FramePlayer.objects.filter(pk=player.pk).delete())
    assert trips == [keys(match, [second])]
    _, trips = bumps(stored, lambda: FramePlayer.objects.bulk_create([player]))
    assert trips == [keys(match, [second])]
    _, trips = bumps(stored, lambda: Match.objects.filter(pk=match.pk).update(dispute_reason=""))
    assert trips == [keys(match)]


# SQL that writes a table the ORM tracks, outside the ORM.
_RAW_WRITE = re.compile(
    r"\b(UPDATE|INSERT\s+INTO|DELETE\s+FROM)\s+\"?"
    r"(frames_(match|presence|frame|frameplayer|frameevent)|leagues_(team|player|fixture))\b",
    re.IGNORECASE,
)


def test_the_only_raw_write_of_match_night_is_the_shots_append_which_records_it():
    root = Path(__file__).resolve().parents[2]
    writers = {
        str(path.relative_to(root))
        for app in (
            "frames",
            "leagues",
            "competitions",
            "exchange",
            "people",
            "marker",
            "bench",
            "deploy",
        )
        for path in (root / app).rglob("*.py")
        if "migrations" not in path.parts and _RAW_WRITE.search(path.read_text())
    }
    assert writers == {"frames/pad/events.py"}
    source = (root / "frames/pad/events.py").read_text()
    append = source.split("def _append(", 1)[1].split("\ndef ", 1)[0]
    assert "frame_written(" in append


@pytest.mark.django_db(transaction=False)
def test_the_rows_a_poll_shows_are_tracked_through_every_manager():
    """A model a poll reads keeps `Tracked` and a tracked default manager: a custom
    manager that replaced it would let writes through without a bump."""
    for model, tracking in (
        (Match, live.MATCH_NIGHT),
        (Presence, live.MATCH_NIGHT),
        (Frame, live.MATCH_NIGHT),
        (FramePlayer, live.MATCH_NIGHT),
        (FrameEvent, live.MATCH_NIGHT),
        (Team, None),
        (Player, None),
        (Fixture, None),
    ):
        assert issubclass(model, tracked.Tracked), model
        if tracking is None:
            assert list(model.tracking.rows(())) == [live.EVERYTHING], model
        else:
            assert model.tracking is tracking, model
        for manager in model._meta.managers:
            assert isinstance(manager.get_queryset(), tracked.TrackedQuerySet), (model, manager)
    # The related managers (match.frames, frame.players, ...) derive from the default one.
    assert isinstance(Match(pk=1).frames.all(), tracked.TrackedQuerySet)
    assert isinstance(Frame(pk=1).players.all(), tracked.TrackedQuerySet)
    assert isinstance(Team(pk=1).home_fixtures.all(), tracked.TrackedQuerySet)


@pytest.mark.django_db(transaction=False)
def test_no_cascade_of_an_untracked_row_takes_a_row_a_poll_shows():
    """Django's collector deletes a cascade with SQL of its own, which records nothing: a
    row a poll shows is protected from an untracked parent's delete (a season's, a
    league's) by the protected links it hangs from."""
    for model, field in (
        (Match, "fixture"),
        (Presence, "player"),
        (FramePlayer, "player"),
        (Frame, "referee"),
        (FrameEvent, "frame"),
    ):
        assert model._meta.get_field(field).remote_field.on_delete is models.PROTECT, (
            model,
            field,
        )


def test_no_model_signal_moves_the_live_versions():
    """The writes record their keys themselves: no post_save or post_delete receiver is
    left for the live versions (nor any on the rows a poll shows, or on accounts)."""
    ours = ("frames", "leagues", "marker")
    for signal in (post_save, post_delete):
        for model in (Match, Presence, Frame, FramePlayer, FrameEvent, Team, Player, Fixture):
            assert not signal.has_listeners(model), (signal, model)
        for receiver in signal._live_receivers(get_user_model())[0]:
            assert not receiver.__module__.startswith(ours), receiver
        for entry in signal.receivers:
            ref = entry[1]
            receiver = ref() if isinstance(ref, weakref.ReferenceType) else ref
            assert receiver is None or not receiver.__module__.startswith(ours), receiver


def test_a_team_player_or_fixture_write_bumps_everything_once_per_commit(league, stored):
    team = league.teams[0]
    player = Player.objects.filter(registrations__team=team).first()
    fixture = fixture_of(league)
    everything = [{live.EVERYTHING}]

    _, trips = bumps(stored, lambda: team_services.team_update(team=team, name="The Renamed"))
    assert trips == everything
    _, trips = bumps(
        stored, lambda: team_services.player_set_private_name(player=player, private=True)
    )
    assert trips == everything

    def rename_player() -> None:
        player.name = "Renamed Player"
        player.save(update_fields=["name"])

    _, trips = bumps(stored, rename_player)
    assert trips == everything
    _, trips = bumps(
        stored, lambda: fixture_services.fixture_move(fixture=fixture, new_date=date(2026, 12, 9))
    )
    assert trips == everything
    # Queryset writes too; several in one transaction: one trip, the key once.
    with transaction.atomic():
        stored.clear()
        Team.objects.filter(pk=team.pk).update(name="Renamed Again")
        Player.objects.filter(pk=player.pk).update(name="Renamed Once More")
        Fixture.objects.filter(pk=fixture.pk).update(note="moved")
        team.name = "And Again"
        team.save()
        assert stored == []  # not before the commit
    assert stored == everything
    _, trips = bumps(stored, lambda: Team.objects.filter(pk=-1).update(name="nobody"))
    assert trips == []  # nothing touched, nothing bumped


def test_a_team_player_or_fixture_write_that_rolls_back_bumps_nothing(league, stored):
    team = league.teams[0]
    player = Player.objects.filter(registrations__team=team).first()
    fixture = fixture_of(league)

    class Abandoned(Exception):
        pass

    @transaction.atomic
    def abandoned() -> None:
        team_services.team_update(team=team, name="Never Was")
        player.name = "Never Named"
        player.save(update_fields=["name"])
        fixture_services.fixture_move(fixture=fixture, new_date=date(2026, 12, 9))
        raise Abandoned

    stored.clear()
    with pytest.raises(Abandoned):
        abandoned()
    assert stored == []
    assert Team.objects.get(pk=team.pk).name != "Never Was"


def test_an_account_write_bumps_nothing_and_an_erasure_bumps_through_the_player(league, stored):
    """No poll shows anything of an account (the names are players' and teams'): a
    password, a flag, a sign-in move no version. Erasing a person, the one service that
    disables an account, renames the player: that bumps everything, once."""
    user = league.player_user

    def change_account() -> None:
        user.set_password("another-secret-9")
        user.is_staff = True
        user.save()

    _, trips = bumps(stored, change_account)
    assert trips == []
    _, trips = bumps(
        stored,
        lambda: person_erase(
            player=user.player, actor=league.secretary, league=league.season.league
        ),
    )
    assert trips == [{live.EVERYTHING}]
    assert Player.objects.get(pk=user.player.pk).erased_number is not None
