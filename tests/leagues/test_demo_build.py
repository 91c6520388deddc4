"""Issue 28, items 23 and 22: `make run`'s demo is built in bulk through the engine (the
same rows the pad's service writes, a fraction of the statements), says which match night
it is building, and the README names a login for every demo captain."""

from __future__ import annotations

import re
import uuid
from datetime import UTC, datetime, timedelta
from io import StringIO
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.test.utils import CaptureQueriesContext

from frames.friendly.services import friendly_start
from frames.management.commands.demo_match_nights import enter_shots
from frames.models import Frame, FrameEvent, Match
from frames.pad import events
from leagues.models import Fixture, LeagueRole, OrganisationRole, Team
from rules.simulate import simulate_game
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

README = Path(settings.BASE_DIR) / "README.md"


@pytest.mark.slow
def test_demo_match_nights_go_in_bulk_and_say_which_night_they_build():
    call_command("demo_league")
    out = StringIO()
    with CaptureQueriesContext(connection) as queries:
        call_command("demo_match_nights", weeks=2, stdout=out)
    said = out.getvalue()
    for league in ("Norwich", "Chester"):
        assert f"{league}: building match night 1 of 2 (" in said
        assert f"{league}: building match night 2 of 2 (" in said
        assert f"{league}: a match in play (" in said
    assert said.index("Norwich: building match night 1 of 2") < said.index(
        "Norwich: building match night 2 of 2"
    )

    shots = FrameEvent.objects.count()
    assert shots > 5000  # a season's last two nights of both leagues, shot by shot
    # Shot by shot through the pad's service took at least two statements a shot; in bulk
    # a shot costs under half a statement, beside each match night's own work (opening,
    # presence and its registration rules, the draw, sign-off, the messages it sends):
    # at most 40 statements a match.
    matches = Match.objects.count()
    assert len(queries) < shots / 2 + 40 * matches, (len(queries), shots, matches)

    # ...each frame's log whole, its caches those of its last shot.
    frames = Frame.objects.exclude(last_seq=0)
    assert frames.count() >= 60
    for frame in frames:
        last = frame.events.order_by("-seq").first()
        assert frame.events.count() == last.seq == frame.last_seq == frame.top_seq
        assert (last.state_after, last.view_after) == (frame.state, frame.view)
    first = FrameEvent.objects.filter(seq=1).select_related("frame").first()
    assert first.event_id == uuid.uuid5(uuid.NAMESPACE_URL, f"demo/{first.frame_id}/1")
    assert first.entered_by.username == "secretary" and first.device_id == "demo-loader"
    # Each league: its past nights confirmed with their frames' results, one match in play.
    for slug in ("norwich", "chester"):
        matches = Match.objects.filter(fixture__season__league__slug=slug)
        assert matches.exclude(status="confirmed").get().status == "in_play"
        confirmed = Fixture.objects.filter(
            season__league__slug=slug, result_confirmed_at__isnull=False
        )
        assert confirmed.count() == matches.filter(status="confirmed").count() > 0
        for match in matches.filter(status="confirmed"):
            assert not match.frames.exclude(status="complete").exists()


@pytest.mark.parametrize("game_id", ["bar_billiards_4pin", "northern_bagatelle"])
def test_shots_entered_in_bulk_are_the_rows_the_pad_writes_one_by_one(game_id):
    owner = UserFactory(username="secretary")
    one, bulk = (
        Frame.objects.get(friendly=friendly_start(owner=owner, game_id=game_id, players=["A", "B"]))
        for _ in range(2)
    )
    shots = simulate_game(game_id, one.setup, seed=5)
    clock = datetime(2026, 11, 2, 19, 30, tzinfo=UTC)
    for seq, shot in enumerate(shots, start=1):
        events.frame_record_event(
            frame_id=one.pk,
            event_id=uuid.uuid4(),
            expected_seq=seq,
            payload=shot,
            kind="event",
            user=owner,
            device_id="demo-loader",
            now=clock + timedelta(seconds=20 * (seq - 1)),
        )
    after = enter_shots(bulk.pk, shots, user=owner, clock=clock, namespace="demo")
    assert after == clock + timedelta(seconds=20 * len(shots))

    columns = [f.name for f in FrameEvent._meta.fields if f.name not in ("id", "frame", "event_id")]
    logged = [list(FrameEvent.objects.filter(frame=f).values(*columns)) for f in (one, bulk)]
    assert len(logged[0]) == len(shots) > 10
    assert logged[0] == logged[1]
    assert FrameEvent.objects.get(frame=bulk, seq=3).event_id == uuid.uuid5(
        uuid.NAMESPACE_URL, f"demo/{bulk.pk}/3"
    )
    cached = ["setup", "state", "view", "last_seq", "top_seq", "status", "started_at"]
    assert [Frame.objects.values(*cached).get(pk=f.pk) for f in (one, bulk)] == [
        Frame.objects.values(*cached).get(pk=one.pk)
    ] * 2
    for frame in (one, bulk):  # the referee confirms the same result
        events.frame_confirm(frame_id=frame.pk, seq=len(shots), user=owner, now=after)
    results = ["status", "winner", "shared", "completed_at"]
    assert Frame.objects.values(*results).get(pk=one.pk) == Frame.objects.values(*results).get(
        pk=bulk.pk
    )


def test_a_shot_the_engine_refuses_stops_the_bulk_entry_with_nothing_written():
    owner = UserFactory()
    frame = Frame.objects.get(
        friendly=friendly_start(owner=owner, game_id="northern_bagatelle", players=["A", "B"])
    )
    shots = simulate_game(frame.game_id, frame.setup, seed=5)
    shots.insert(3, {"type": "no_such_shot"})
    clock = datetime(2026, 11, 2, 19, 30, tzinfo=UTC)
    with pytest.raises(CommandError, match=f"frame {frame.pk}, shot 4"):
        enter_shots(frame.pk, shots, user=owner, clock=clock, namespace="demo")
    frame.refresh_from_db()
    assert not FrameEvent.objects.filter(frame=frame).exists()
    assert (frame.status, frame.last_seq, frame.state) == ("scheduled", 0, None)


def test_the_readme_names_a_login_for_every_demo_captain_and_officer(client):
    call_command("demo_league")
    readme = README.read_text(encoding="utf-8")
    captains = set(Team.objects.values_list("captain__username", flat=True))
    officers = set(LeagueRole.objects.values_list("user__username", flat=True))
    assert len(captains) == 11 + 4 + 4
    county = set(OrganisationRole.objects.values_list("user__username", flat=True))
    assert county == {"county"}
    for username in sorted(captains | officers | county | {"admin", "referee"}):
        named = re.search(rf"`{re.escape(username)}`", readme)
        assert named, f"README names no login {username}"
        response = client.post(
            "/accounts/login/", {"username": username, "password": "marker-demo"}
        )
        assert response.status_code == 302, username
        client.post("/accounts/logout/")
