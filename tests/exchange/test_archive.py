"""The league archive: export → restore into an emptied database gives the same rows,
table by table, and the same tables, statistics and ratings."""

from __future__ import annotations

import io
import json
import uuid
from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.utils import timezone

from exchange.archive import FORMAT, league_export, league_import
from exchange.sections import SECTIONS
from frames.matchnight import signoff
from frames.models import Frame, FrameEvent, Rating
from frames.pad.events import frame_confirm, frame_record_event
from frames.ratings.services import ratings_recompute
from frames.stats import record
from frames.stats import selectors as stats_selectors
from leagues import publishing, services, standings
from leagues.models import Fixture, League, Player, PlayerFrameStat, Season, Venue
from marker.errors import DomainError
from tests.frames.matchnight_helpers import drawn, frames_of, key_all, later

pytestmark = pytest.mark.django_db

BAR_DOWN = {"type": "bar_down"}


def shot(*pots, fouls=()):
    event = {"type": "shot"}
    if pots:
        event["pots"] = [{"ball": b, "hole": h} for b, h in pots]
    if fouls:
        event["fouls"] = list(fouls)
    return event


# A frame played to its end on the pad (as in tests/frames/test_stats.py).
SCRIPT = [
    BAR_DOWN,
    shot(("white", 200), ("red", 200)),
    shot(("white", 200), ("white", 200)),
    shot(("white", 50)),
    shot(),
    shot(fouls=("pin_200",)),
    "undo",
    shot(("white", 100)),
    shot(),
    shot(fouls=("miss",)),
    shot(("white", 30)),
]


def play_on_the_pad(frame: Frame) -> None:
    for seq, item in enumerate(SCRIPT, start=1):
        frame_record_event(
            frame_id=frame.pk,
            event_id=uuid.uuid4(),
            expected_seq=seq,
            payload={} if item == "undo" else item,
            kind="undo" if item == "undo" else "event",
            user=None,
            device_id="test",
            now=later(30 + seq),
        )
    frame_confirm(frame_id=frame.pk, seq=len(SCRIPT), user=None, now=later(60))


def played_league(league):
    """The small league with a match night played (one frame shot by shot, the rest on
    paper) and confirmed, a past result keyed in, a deduction and a publication."""
    match = drawn(league)
    first = frames_of(match)[0]
    play_on_the_pad(first)
    scores = {
        f.number: (1000, 500 + 10 * f.number)
        for f in frames_of(match)
        if f.status != Frame.Status.COMPLETE
    }
    match = key_all(league, match, scores)
    for side, user in (("home", league.captain), ("away", league.other_captain)):
        signoff.match_confirm(match=match, side=side, actor=user, now=later(130))
    other = Fixture.objects.filter(division=league.second).order_by("id").first()
    services.fixture_record_result(
        fixture=other,
        home_frames=Decimal("4.5"),
        away_frames=Decimal("4.5"),
        home_score=5000,
        away_score=4900,
        confirmed_at=later(200),
    )
    services.point_deduction_add(
        team=league.teams[2], points=Decimal("1"), reason="Late result", by=league.secretary
    )
    publication = publishing.publication_request(season=league.season, actor=league.secretary)
    publishing.publication_run(publication_id=publication.pk)
    # What the tasks queued after commit would do (on_commit does not fire in a test).
    record.stats_sync()
    ratings_recompute(game_id=match.game_id)
    return match


def canonical(archive: dict) -> dict:
    """The archive with every key replaced by the row's place in its model's list, so two
    archives of the same data made in different databases compare equal."""
    place: dict[str, dict[int, int]] = {}
    for section in archive["sections"]:
        for label, rows in section["models"].items():
            place[label] = {row["id"]: i for i, row in enumerate(rows)}
    place["auth.user"] = {a["id"]: i for i, a in enumerate(archive["accounts"])}
    targets = {}
    for section in SECTIONS:
        for part in section.parts:
            for f in part.model._meta.concrete_fields:
                if f.is_relation:
                    targets[(part.label, f.attname)] = f.related_model._meta.label_lower
    out = {"accounts": [{k: v for k, v in a.items() if k != "id"} for a in archive["accounts"]]}
    for section in archive["sections"]:
        for label, rows in section["models"].items():
            out[label] = [
                {
                    key: (
                        place[targets[(label, key)]].get(value)
                        if (label, key) in targets and value is not None
                        else value
                    )
                    for key, value in row.items()
                    if key != "id"
                }
                for row in rows
            ]
    return out


def derived(league_slug: str) -> dict:
    """What users see that is computed: the tables, the leaderboards, players' lines and
    ratings, with names instead of keys."""
    league = League.objects.get(slug=league_slug)
    out = {}
    for season in Season.objects.filter(league=league):
        out[f"tables {season.slug}"] = [
            [{k: v for k, v in row.items() if k != "team_id"} for row in table.as_rows()]
            for table in standings.tables(season)
        ]
        out[f"leaderboard {season.slug}"] = [
            {k: v for k, v in row.items() if k not in ("player_id", "team_id")}
            for row in stats_selectors.leaderboard(season=season)
        ]
    out["lines"] = sorted(
        PlayerFrameStat.objects.filter(season__league=league).values_list(
            "player__name",
            "team__name",
            "frame_number",
            "side",
            "won",
            "shared",
            "score",
            "opponent_score",
            "has_shots",
            "values",
            "source_seq",
        ),
        key=repr,
    )
    out["ratings"] = sorted(
        Rating.objects.values_list("player__name", "game_id", "mu", "sigma", "frames"), key=repr
    )
    out["events"] = list(
        FrameEvent.objects.order_by(
            "frame__match__fixture__date", "frame__number", "seq"
        ).values_list("frame__number", "seq", "kind", "payload", "state_after", "view_after")
    )
    return out


def empty_the_database() -> None:
    """Every table emptied (the deferred foreign-key checks run first: PostgreSQL will
    not truncate a table with checks pending)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    call_command("flush", interactive=False, verbosity=0)


def test_export_then_restore_into_an_empty_database_is_equal_table_by_table(league):
    played_league(league)
    slug = league.season.league.slug
    before = league_export(league=league.season.league, full=True)
    seen = derived(slug)
    assert FrameEvent.objects.count() == len(SCRIPT)
    assert seen["lines"] and seen["ratings"] and seen["tables " + league.season.slug]
    text = json.dumps(before)

    empty_the_database()
    assert not League.objects.exists() and not FrameEvent.objects.exists()
    restored = league_import(archive=json.loads(text))

    after = league_export(league=restored, full=True)
    assert canonical(after) == canonical(before)
    for label in canonical(before):
        assert canonical(after)[label] == canonical(before)[label], label
    assert derived(slug) == seen
    assert FrameEvent.objects.count() == len(SCRIPT)
    # Restored accounts can act again (the captain of the first team is still its captain),
    # but none has a usable password.
    captain = get_user_model().objects.get(username=league.captain.username)
    assert not captain.has_usable_password()
    assert restored.seasons.get().teams.filter(captain=captain).exists()


def test_a_portable_export_carries_no_account_or_email(league):
    played_league(league)
    services.subscription_create(league=league.season.league, user=league.outsider)
    archive = league_export(league=league.season.league, full=False)
    text = json.dumps(archive)
    assert archive["accounts"] == []
    assert "@" not in text
    labels = {label for s in archive["sections"] for label in s["models"]}
    assert "leagues.subscription" not in labels and "leagues.invitation" not in labels
    empty_the_database()
    restored = league_import(archive=archive)
    assert Frame.objects.filter(match__fixture__season__league=restored).count() == 9
    assert not get_user_model().objects.exists()


def test_the_commands_write_and_restore_an_archive(league, tmp_path):
    played_league(league)
    slug = league.season.league.slug
    out = io.StringIO()
    call_command("league_export", slug, stdout=out)
    archive = json.loads(out.getvalue())
    assert archive["format"] == FORMAT and archive["full_backup"] is True
    path = tmp_path / "league.json"
    path.write_text(out.getvalue(), encoding="utf-8")
    with pytest.raises(CommandError, match="already has a league"):
        call_command("league_import", str(path), stdout=io.StringIO())
    empty_the_database()
    said = io.StringIO()
    call_command("league_import", str(path), stdout=said)
    assert "Restored" in said.getvalue()
    assert League.objects.filter(slug=slug).exists()
    with pytest.raises(CommandError, match="No league"):
        call_command("league_export", "no-such-league", stdout=io.StringIO())


@pytest.mark.parametrize(
    ("change", "code"),
    [
        (lambda a: a.update(format="something else"), "bad_archive"),
        (lambda a: a.update(version=99), "bad_archive"),
        (lambda a: a["sections"].append({"name": "mystery", "models": {}}), "bad_archive"),
        (lambda a: a["sections"][0]["models"]["leagues.season"].append({"x": 1}), "bad_archive"),
    ],
)
def test_a_broken_archive_is_refused_and_nothing_is_written(league, change, code):
    archive = league_export(league=league.season.league, full=True)
    League.objects.filter(pk=league.season.league.pk).update(slug="renamed")
    change(archive)
    counts = (League.objects.count(), Season.objects.count())
    with pytest.raises(DomainError) as info:
        league_import(archive=archive)
    assert info.value.code == code
    assert (League.objects.count(), Season.objects.count()) == counts


def test_restoring_a_league_that_exists_is_refused(league):
    archive = league_export(league=league.season.league, full=True)
    with pytest.raises(DomainError) as info:
        league_import(archive=archive)
    assert info.value.code == "league_exists"


def test_exported_times_are_kept(league):
    archive = league_export(league=league.season.league, full=True, now=timezone.now())
    created = [
        r["created_at"]
        for s in archive["sections"]
        for r in s["models"].get("leagues.registration", [])
    ]
    empty_the_database()
    restored = league_import(archive=archive)
    again = league_export(league=restored, full=True)
    assert [
        r["created_at"]
        for s in again["sections"]
        for r in s["models"].get("leagues.registration", [])
    ] == created


def test_a_league_restored_beside_others_shares_venues_and_people(league):
    """Into an instance that has other leagues: venues are found by name and players by
    their accounts (one person, one record); everything else is new."""
    played_league(league)
    original = league.season.league
    archive = league_export(league=original, full=True)
    League.objects.filter(pk=original.pk).update(slug="the-original")
    venues, fixtures = Venue.objects.count(), Fixture.objects.count()
    players = Player.objects.count()
    linked = Player.objects.filter(user__isnull=False).count()
    restored = league_import(archive=archive)
    assert restored.pk != original.pk and restored.slug == archive["league"]
    assert Venue.objects.count() == venues
    assert Fixture.objects.count() == 2 * fixtures
    assert Player.objects.count() == 2 * players - linked
    rita = league.player_user.player
    assert rita.registrations.count() == 2  # one in each league's season
    old = [r.as_rows() for r in standings.tables(league.season)]
    new = [r.as_rows() for r in standings.tables(restored.seasons.get())]

    def strip(tables):
        return [[{k: v for k, v in row.items() if k != "team_id"} for row in t] for t in tables]

    assert strip(new) == strip(old)
