"""The league archive: export → restore into an emptied database gives the same rows,
table by table, and the same tables, statistics and ratings."""

from __future__ import annotations

import io
import json
import uuid
from datetime import timedelta
from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.utils import timezone

from competitions import selectors as cup_selectors
from competitions.models import Competition, Tie, TieFrame
from competitions.services.entries import entry_create
from competitions.services.pad import tie_confirm, tie_frame_open
from competitions.services.setup import competition_create, competition_set_eligible
from competitions.services.ties import tie_record_paper
from exchange import archive as archive_module
from exchange.archive import FORMAT, dumps, league_export, league_export_text, league_import
from exchange.sections import SECTIONS
from frames.matchnight import drawing, seeding, signoff, squads
from frames.models import Award, Frame, FrameEvent, PlayerFrameStat, Rating
from frames.pad.events import frame_confirm, frame_record_event
from frames.ratings.services import ratings_recompute
from frames.stats import awards, record
from frames.stats import selectors as stats_selectors
from leagues import honours, publication_job, publishing, standings
from leagues.fixtures import services as fixture_services
from leagues.models import (
    Fixture,
    League,
    PersonErasure,
    Player,
    Season,
    Venue,
)
from leagues.tables import services as table_services
from marker.errors import DomainError
from people.erasure import person_erase
from tests.competitions.helpers import NOW, registered_players
from tests.competitions.helpers import drawn as cup_drawn
from tests.competitions.test_cup_api import SHORT_FRAME
from tests.frames.matchnight_helpers import drawn, frames_of, key_all, later

pytestmark = pytest.mark.django_db

BAR_DOWN = {"type": "bar_down"}


@pytest.fixture
def league(league_of_the_module):
    """Built once for this module: its tests only read it, and their writes roll back."""
    return league_of_the_module


def shot(*pots, fouls=()):
    event = {"type": "shot"}
    if pots:
        event["pots"] = [{"ball": b, "hole": h} for b, h in pots]
    if fouls:
        event["fouls"] = list(fouls)
    return event


# A frame played to its end on the pad (as in tests/frames/stats/test_stats.py).
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
    fixture_services.fixture_record_result(
        fixture=other,
        home_frames=Decimal("4.5"),
        away_frames=Decimal("4.5"),
        home_score=5000,
        away_score=4900,
        confirmed_at=later(200),
    )
    table_services.point_deduction_add(
        team=league.teams[2], points=Decimal("1"), reason="Late result", by=league.secretary
    )
    publication = publishing.publication_request(season=league.season, actor=league.secretary)
    publication_job.publication_run(publication_id=publication.pk)
    # What the tasks queued after commit would do (on_commit does not fire in a test).
    record.stats_sync()
    ratings_recompute(game_id=match.game_id)
    return match


def canonical(archive: dict) -> dict:
    """The archive with every key replaced by the row's place in its model's list, so two
    archives of the same data made in different databases compare equal. (A model in two
    sections, a frame of a match night and one of a cup tie, is placed by section.)"""
    place: dict[str, dict[int, tuple[str, int]]] = {}
    for section in archive["sections"]:
        for label, rows in section["models"].items():
            place.setdefault(label, {}).update(
                {row["id"]: (section["name"], i) for i, row in enumerate(rows)}
            )
    place["auth.user"] = {a["id"]: ("accounts", i) for i, a in enumerate(archive["accounts"])}
    targets = {}
    for section in SECTIONS:
        for part in section.parts:
            for f in part.model._meta.concrete_fields:
                if f.is_relation:
                    targets[(part.label, f.attname)] = f.related_model._meta.label_lower
            for f in part.model._meta.many_to_many:
                targets[(part.label, f.name)] = f.related_model._meta.label_lower

    def key(label, name, value):
        if (label, name) == ("leagues.honour", "source"):  # "competition:5": a key in text
            prefix, _, pk = value.partition(":")
            model = {"division": "leagues.division", "competition": "competitions.competition"}
            return (prefix, place[model[prefix]].get(int(pk)))
        if (label, name) not in targets or value is None:
            return value
        found = place[targets[(label, name)]]
        if isinstance(value, list):
            return sorted(found.get(v) for v in value)
        return found.get(value)

    out = {"accounts": [{k: v for k, v in a.items() if k != "id"} for a in archive["accounts"]]}
    for section in archive["sections"]:
        for label, rows in section["models"].items():
            out[f"{section['name']} {label}"] = [
                {name: key(label, name, value) for name, value in row.items() if name != "id"}
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


@pytest.mark.parametrize("full", [True, False])
def test_the_streamed_export_is_the_same_text_a_chunk_at_a_time(league, monkeypatch, full):
    """The download and the command stream the archive (flat memory at a thousand
    leagues); the text is the one `dumps(league_export())` writes, byte for byte, even
    when every part spans several chunks."""
    played_league(league)
    table_services.subscription_create(league=league.season.league, user=league.outsider)
    monkeypatch.setattr(archive_module, "CHUNK", 3)
    now = timezone.now()
    whole = dumps(league_export(league=league.season.league, full=full, now=now))
    pieces = list(league_export_text(league=league.season.league, full=full, now=now))
    assert "".join(pieces) == whole and len(pieces) >= 2
    assert json.loads(whole)["sections"][0]["models"]


def test_a_portable_export_carries_no_account_or_email(league):
    played_league(league)
    table_services.subscription_create(league=league.season.league, user=league.outsider)
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


# ------------------------------------------------------------------------ competitions


def play_cup_tie_as_a_match(league, tie: Tie) -> None:
    """A team cup tie through the unchanged match night: both squads, the draw, paper
    scores (the away side wins every frame), both captains' sign-off."""
    captains = {league.teams[0].pk: league.captain, league.teams[1].pk: league.other_captain}
    home_captain, away_captain = captains[tie.home.team_id], captains[tie.away.team_id]
    when = NOW + timedelta(days=1)
    match = squads.match_open(fixture=tie.fixture, actor=home_captain, now=when)
    for side, team, who in (
        ("home", tie.home.team, home_captain),
        ("away", tie.away.team, away_captain),
    ):
        players = [r.player for r in team.registrations.filter(status="active").order_by("id")[:6]]
        squads.match_mark_present(match=match, side=side, players=players, actor=who, now=when)
        seeding.match_commit(match=match, side=side, actor=who, now=when)
    drawing.match_draw(match=match, actor=home_captain, now=when + timedelta(minutes=5))
    frames = Frame.objects.filter(match=match).exclude(status=Frame.Status.CONCEDED)
    done = when + timedelta(hours=2)
    signoff.match_key_in_paper(
        match=match, scores={f.number: (400, 900) for f in frames}, actor=home_captain, now=done
    )
    for side, who in (("home", home_captain), ("away", away_captain)):
        signoff.match_confirm(match=match, side=side, actor=who, now=done)


def play_tie_frame_on_the_pad(tie: Tie, actor) -> TieFrame:
    tie_frame = tie_frame_open(actor=actor, tie=tie, now=NOW)
    for seq, event in enumerate(SHORT_FRAME, start=1):
        frame_record_event(
            frame_id=tie_frame.frame_id,
            event_id=uuid.uuid4(),
            expected_seq=seq,
            payload=event,
            kind="event",
            user=actor,
            device_id="t",
            now=NOW,
        )
    frame_confirm(frame_id=tie_frame.frame_id, seq=len(SHORT_FRAME), user=actor, now=NOW)
    return tie_frame


def played_competitions(league) -> None:
    """A team knock-out (with a plate for its first-round losers) whose final is played
    as a real match; a singles event for a list of eligible players whose final is two
    frames on the pad, confirmed by both players; a group event decided on paper; and an
    erased player."""
    secretary = league.secretary
    plate = competition_create(
        actor=secretary, season=league.season, name="Plate", kind="team_knockout", now=NOW
    )
    cup = competition_create(
        actor=secretary,
        season=league.season,
        name="Cup",
        kind="team_knockout",
        plate_rule="first_round_losers",
        plate=plate,
        now=NOW,
    )
    for team in league.teams[:2]:
        entry_create(actor=secretary, competition=cup, team=team, now=NOW)
    cup_drawn(cup, secretary)
    play_cup_tie_as_a_match(league, Tie.objects.get(competition=cup))

    players = registered_players(league, 5)
    singles = competition_create(
        actor=secretary, season=league.season, name="Singles", kind="singles", now=NOW
    )
    competition_set_eligible(
        actor=secretary, competition=singles, label="Invited", players=players[:3], now=NOW
    )
    for player in players[:2]:
        entry_create(actor=secretary, competition=singles, player=player, now=NOW)
    cup_drawn(singles, secretary)
    final = Tie.objects.get(competition=singles)
    for _ in range(2):
        play_tie_frame_on_the_pad(final, secretary)
    tie_confirm(actor=secretary, tie=final, now=NOW)

    groups = competition_create(
        actor=secretary,
        season=league.season,
        name="Groups",
        kind="group_knockout",
        group_size=3,
        group_qualifiers=1,
        group_race_to=2,
        now=NOW,
    )
    for player in players[2:5]:
        entry_create(actor=secretary, competition=groups, player=player, now=NOW)
    cup_drawn(groups, secretary)
    for n, tie in enumerate(Tie.objects.filter(competition=groups).order_by("slot")):
        tie_record_paper(
            actor=secretary,
            tie=tie,
            frames=[{"home": 200 + n, "away": 100}, {"home": 300, "away": 150 + n}],
            now=NOW,
        )
    person_erase(player=players[4], actor=secretary, league=league.season.league, now=NOW)
    # The finals put their winners on the roll of honour; and a season award.
    awards.award_define(
        season=league.season, actor=secretary, name="Best win rate", measure="win_rate", now=NOW
    )
    # What the tasks queued after commit would do (on_commit does not fire in a test).
    record.stats_sync()
    ratings_recompute(game_id=league.season.game_id)


def competitions_seen(league_slug: str) -> dict:
    """Every competition as users see it, by names: its brackets, group tables, plate,
    eligible players, and its tie frames with their shot logs."""
    out = {}
    for comp in Competition.objects.filter(season__league__slug=league_slug).order_by("name"):
        bracket = cup_selectors.bracket(comp)
        out[comp.name] = {
            "stage": comp.stage,
            "plate": comp.plate.name if comp.plate else None,
            "eligible": sorted(p.name for p in comp.eligible_players.all()),
            "entries": sorted((e.name, e.source) for e in comp.entries.all()),
            "winner": bracket.winner.name if bracket.winner else None,
            "runner_up": bracket.runner_up.name if bracket.runner_up else None,
            "rounds": [
                (
                    r.round.name,
                    [
                        (t.slot, str(t), t.status, t.winner.name if t.winner else None)
                        + (t.home_frames, t.away_frames, t.home_score, t.away_score)
                        + ((t.fixture.home_frames, t.fixture.away_frames) if t.fixture else ())
                        for t in r.ties
                    ],
                )
                for r in bracket.rounds
            ],
            "groups": [
                (
                    table.group.name,
                    table.complete,
                    [
                        (row.entry.name, row.won, row.frame_difference, row.explanation)
                        for row in table.rows
                    ],
                )
                for table in cup_selectors.group_tables(comp)
            ],
            "tie frames": [
                (
                    str(tf.tie),
                    tf.number,
                    tf.winner,
                    tf.home_score,
                    tf.away_score,
                    tf.source,
                    tf.frame.status if tf.frame else None,
                    list(
                        FrameEvent.objects.filter(frame=tf.frame_id)
                        .order_by("seq")
                        .values_list("seq", "kind", "payload", "state_after", "view_after")
                    ),
                )
                for tf in TieFrame.objects.filter(tie__competition=comp).order_by("tie", "number")
            ],
            "log": list(comp.log.order_by("at", "id").values_list("action", flat=True)),
        }
    league = League.objects.get(slug=league_slug)
    out["roll of honour"] = [
        (
            season.season_name,
            [
                (
                    line.title,
                    line.winner.name,
                    line.winner.team.name if line.winner.team else None,
                    sorted(p.name for p in line.winner.players.all()),
                    line.runner_up.name if line.runner_up else None,
                )
                for line in season.lines
            ],
        )
        for season in honours.league_honours(league)
    ]
    out["awards"] = [
        (a.award.name, a.description, [(s.player, s.value, s.position) for s in a.leaders])
        for season in league.seasons.all()
        for a in awards.season_awards(season)
    ]
    out["erased"] = sorted(
        PersonErasure.objects.filter(league__slug=league_slug).values_list("number", "player__name")
    )
    return out


def test_a_league_with_its_competitions_round_trips(league):
    played_league(league)
    played_competitions(league)
    slug = league.season.league.slug
    seen, cups_seen = derived(slug), competitions_seen(slug)
    # what the round trip must carry is there to carry
    assert cups_seen["Cup"]["winner"] and cups_seen["Singles"]["winner"]
    assert cups_seen["Cup"]["plate"] == "Plate" and cups_seen["Plate"]["entries"]
    assert len(cups_seen["Singles"]["eligible"]) == 3
    assert [len(tf[-1]) for tf in cups_seen["Singles"]["tie frames"]] == [len(SHORT_FRAME)] * 2
    assert cups_seen["Groups"]["groups"][0][1] is True
    assert len(cups_seen["erased"]) == 1
    assert {line[0] for line in cups_seen["roll of honour"][0][1]} >= {"Cup", "Singles"}
    assert cups_seen["awards"][0][2]
    text = json.dumps(league_export(league=league.season.league, full=True))
    before = json.loads(text)

    empty_the_database()
    assert not Competition.objects.exists() and not Frame.objects.exists()
    restored = league_import(archive=json.loads(text))

    after = league_export(league=restored, full=True)
    for label in canonical(before):
        assert canonical(after)[label] == canonical(before)[label], label
    assert canonical(after) == canonical(before)
    assert competitions_seen(slug) == cups_seen
    assert derived(slug) == seen
    # the restored cup's final is still its cup fixture, out of the league tables
    cup_tie = Tie.objects.get(competition__name="Cup")
    assert cup_tie.fixture.kind == Fixture.Kind.CUP and cup_tie.fixture.division_id is None


def test_a_portable_export_of_competitions_restores_without_accounts(league):
    played_league(league)
    played_competitions(league)
    archive = league_export(league=league.season.league, full=False)
    assert "@" not in json.dumps(archive)
    slug = league.season.league.slug
    cups_seen = competitions_seen(slug)
    empty_the_database()
    league_import(archive=archive)
    assert competitions_seen(slug) == cups_seen
    assert not get_user_model().objects.exists()


def test_competitions_restored_beside_their_original_are_new_rows_with_new_numbers(league):
    """Into the instance that holds the original: every competition row is new, forward
    keys and links point at the copies, and the erased player is a new former player."""
    played_league(league)
    played_competitions(league)
    original = league.season.league
    seen = competitions_seen(original.slug)
    archive = league_export(league=original, full=True)
    League.objects.filter(pk=original.pk).update(slug="the-original")
    competitions = Competition.objects.count()
    restored = league_import(archive=archive)
    assert Competition.objects.count() == 2 * competitions
    copy = Competition.objects.get(season__league=restored, name="Cup")
    assert copy.plate.season.league == restored and copy.winner.competition == copy
    assert (
        Competition.objects.get(season__league=restored, name="Singles").eligible_players.count()
        == 3
    )
    erased = sorted(PersonErasure.objects.values_list("number", "player__name"))
    assert erased == [(1, "Former player 1"), (2, "Former player 2")]
    renamed = json.loads(
        json.dumps(seen, default=str).replace("Former player 1", "Former player 2")
    )
    now_seen = json.loads(json.dumps(competitions_seen(restored.slug), default=str))
    assert now_seen.pop("erased") == [[2, "Former player 2"]] and renamed.pop("erased")
    assert now_seen == renamed


def test_an_archive_written_before_awards_moved_to_frames_still_restores_them(league):
    """Awards were leagues' (`leagues.award`) before they moved to frames: an archive that
    holds its award rows under the old label restores them; a new one writes the new."""
    season, secretary = league.season, league.secretary
    for name, measure in (("Best win rate", "win_rate"), ("Best average", "average")):
        awards.award_define(season=season, actor=secretary, name=name, measure=measure, now=NOW)
    archive = league_export(league=season.league, full=True)
    honours_models = next(s for s in archive["sections"] if s["name"] == "honours")["models"]
    assert "leagues.award" not in honours_models
    written = honours_models["frames.award"]
    assert [r["name"] for r in written] == ["Best win rate", "Best average"]
    # the archive as the old Marker wrote it
    honours_models["leagues.award"] = honours_models.pop("frames.award")
    League.objects.filter(pk=season.league.pk).update(slug="the-original")

    restored = league_import(archive=json.loads(json.dumps(archive)))

    copies = Award.objects.filter(season__league=restored).order_by("order")
    assert [(a.name, a.measure, a.order) for a in copies] == [
        ("Best win rate", "win_rate", 0),
        ("Best average", "average", 1),
    ]
    assert {a.pk for a in copies}.isdisjoint(r["id"] for r in written)


def test_an_archive_with_awards_under_both_labels_is_refused(league):
    awards.award_define(
        season=league.season, actor=league.secretary, name="Best", measure="win_rate", now=NOW
    )
    archive = league_export(league=league.season.league, full=True)
    honours_models = next(s for s in archive["sections"] if s["name"] == "honours")["models"]
    honours_models["leagues.award"] = list(honours_models["frames.award"])
    League.objects.filter(pk=league.season.league.pk).update(slug="the-original")
    with pytest.raises(DomainError) as info:
        league_import(archive=archive)
    assert info.value.code == "bad_archive" and "frames.award" in info.value.message
    assert not League.objects.filter(slug=league.season.league.slug).exists()


def test_an_archive_with_an_impossible_shot_is_refused_naming_the_frame_and_shot(league, tmp_path):
    played_league(league)
    archive = league_export(league=league.season.league, full=True)
    events = next(
        rows
        for section in archive["sections"]
        for label, rows in section["models"].items()
        if label == "frames.frameevent"
    )
    # The red went down on the second shot: potting it again cannot have happened.
    tampered = next(e for e in events if e["seq"] == 3)
    tampered["payload"] = shot(("red", 200))
    frame_id = tampered["frame_id"]
    path = tmp_path / "league.json"
    path.write_text(json.dumps(archive), encoding="utf-8")
    empty_the_database()

    with pytest.raises(CommandError) as info:
        call_command("league_import", str(path), stdout=io.StringIO(), stderr=io.StringIO())
    message = str(info.value)
    assert f"frame {frame_id} in the archive" in message
    assert "frame 1" in message and "seq 3" in message and "not_on_table" in message
    assert "Traceback" not in message and "Nothing was restored" in message
    assert not League.objects.exists() and not Frame.objects.exists()
    assert not get_user_model().objects.exists()
