"""Play the demo league's past match nights shot by shot (used by `make run`).

Every fixture before today is played through the same services the app uses: squads
marked, both captains Ready, the draw, each frame confirmed, both captains confirming the
result. One match of tonight (or the next match night) is left in play, so the live page
has something to show. Frames come from rules.simulate (seeded), so the demo is the same
every time.

A frame's shots are entered in bulk (`enter_shots`): the engine replays the frame once,
checking every shot as the pad's service does, and the log is written in one insert with
the states the service would have cached; one transaction per match night. Entering them
one request at a time through `frames.pad.events.frame_record_event` writes the same rows
(tests/leagues/test_demo_build.py) but made the first `make run` take many minutes.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.db.models import DateTimeField, Value
from django.db.models.functions import Coalesce
from django.test.utils import override_settings
from django.utils import timezone

from frames.engine import frame_setup
from frames.matchnight import drawing, nominating, seeding, signoff, squads
from frames.models import Frame, FrameEvent, Match, RatingRun, Side
from frames.pad import events
from frames.ratings import services as ratings_services
from frames.results import match_update_result
from frames.stats import awards
from leagues import publication_job, publishing
from leagues.management.commands.demo_league import YARMOUTH_SLUG
from leagues.models import Fixture, League, Registration, Season
from marker.errors import DomainError
from rules import registry
from rules.simulate import simulate_game
from rules.vocabulary import RuleError

DEVICE = "demo-loader"


class Command(BaseCommand):
    help = "Play the demo league's past fixtures shot by shot and leave one match in play."

    def add_arguments(self, parser):
        parser.add_argument("--weeks", type=int, default=2, help="Match nights to play at most.")

    def handle(self, *args, weeks: int = 2, **options):
        # The demo's emails (published tables) would flood the console: keep them in memory.
        with override_settings(EMAIL_BACKEND="django.core.mail.backends.locmem.EmailBackend"):
            self._play(weeks)

    def _play(self, weeks: int) -> None:
        league = League.objects.filter(slug="norwich").first()
        if league is None:
            raise CommandError("Load the demo league first: manage.py demo_league")
        if Match.objects.filter(fixture__season__league=league).exists():
            self.stdout.write("Demo match nights already played.")
            return
        secretary = get_user_model().objects.get(username="secretary")
        season = league.seasons.order_by("-start_date").first()
        if season is None:
            raise CommandError("The demo league has no season: manage.py demo_league")
        define_demo_awards(season, secretary)
        played = play_nights(self.stdout, "Norwich", season, secretary, weeks, publish_last=True)
        self.stdout.write(self.style.SUCCESS(f"Played {played} demo matches; one left in play."))
        play_bagatelle_nights(self.stdout, secretary, weeks)
        play_yarmouth_nights(self.stdout, secretary, weeks)
        rate_demo_games(self.stdout)


def play_nights(
    stdout, name: str, season: Season, secretary, weeks: int, *, publish_last: bool = False
) -> int:
    """Play the season's last `weeks` match nights before today, one transaction a night,
    saying which night it is building; then leave tonight's first match in play. With
    `publish_last`, the secretary publishes the table before the last night is played."""
    today = timezone.localdate()
    nights = sorted(
        {
            d
            for d in season.fixtures.filter(date__lt=today).values_list("date", flat=True)
            if d is not None
        }
    )[-weeks:]
    played = 0
    for index, night in enumerate(nights):
        fixtures = list(season.fixtures.filter(date=night).select_related("home", "away"))
        stdout.write(
            f"{name}: building match night {index + 1} of {len(nights)} "
            f"({night:%a} {night.day} {night:%b}, {len(fixtures)} matches) …"
        )
        stdout.flush()
        with transaction.atomic():
            if publish_last and index == len(nights) - 1 and index > 0:
                # The secretary published the table before the last night: the public
                # sees that table, with the last night's results marked provisional.
                publish(season, secretary, at=_at(night, 10))
            for fixture in fixtures:
                play_match(fixture, secretary, seed=fixture.pk)
                played += 1
    tonight = season.fixtures.filter(date__gte=today).order_by("date", "id").first()
    if tonight is not None:
        stdout.write(f"{name}: a match in play ({tonight.home} v {tonight.away}) …")
        stdout.flush()
        with transaction.atomic():
            play_match(tonight, secretary, seed=tonight.pk, frames_to_finish=1)
    return played


def play_bagatelle_nights(stdout, secretary, weeks: int) -> None:
    """The second demo league (Chester bagatelle, fixed order): its past nights played
    through the same services, captains' lineups included, and one match left in play."""
    league = League.objects.filter(slug="chester").first()
    if league is None or Match.objects.filter(fixture__season__league=league).exists():
        return
    season = league.seasons.order_by("-start_date").first()
    if season is None:
        return
    played = play_nights(stdout, "Chester", season, secretary, weeks)
    stdout.write(f"Chester bagatelle: played {played} demo matches; one left in play.")


def play_yarmouth_nights(stdout, secretary, weeks: int) -> None:
    """The third demo league (Great Yarmouth 4-pin): its past nights played, so the
    Norfolk association's bar billiards ranking has players of both its member leagues."""
    league = League.objects.filter(slug=YARMOUTH_SLUG).first()
    if league is None or Match.objects.filter(fixture__season__league=league).exists():
        return
    season = league.seasons.order_by("-start_date").first()
    if season is None:
        return
    played = play_nights(stdout, "Great Yarmouth", season, secretary, weeks)
    stdout.write(f"Great Yarmouth: played {played} demo matches; one left in play.")


def rate_demo_games(stdout) -> None:
    """Every game the demo played rated now, whether or not a Celery worker is running
    (with one, the confirmations' runs may still be queued): a rebuild of each, run here."""
    games = sorted(
        set(Match.objects.filter(status=Match.Status.CONFIRMED).values_list("game_id", flat=True))
    )
    for game_id in games:
        run = ratings_services.ratings_request(
            game_id=game_id, since=None, reason=RatingRun.Reason.REBUILD
        )
        ratings_services.ratings_run(run_id=run.pk)
    stdout.write(f"Rated the demo's frames ({', '.join(games) or 'none'}).")


def nominate_lineups(match: Match, rosters: dict, seed: int) -> None:
    """A format with captains' nominations: each captain submits a lineup (fixed order)
    or every frame's players (blind), from the players present, in a seeded order."""
    fmt = match.format
    if fmt.uses_hat:
        return
    for side, (team, players) in rosters.items():
        order = sorted(players, key=lambda p: (p.pk * 7919 + seed) % 104729)
        if fmt.selection == "fixed":
            nominating.match_nominate(
                match=match, side=side, lineup=order[: fmt.lineup_size()], actor=team.captain
            )
            continue
        sections, cursor = [], 0
        for section in fmt.sections:
            frames = []
            for _ in range(section.frames):
                frames.append(order[cursor : cursor + section.size])
                cursor += section.size
            sections.append(frames)
            cursor = 0
        nominating.match_nominate(match=match, side=side, sections=sections, actor=team.captain)


def publish(season, secretary, *, at: datetime) -> None:
    publication = publishing.publication_request(season=season, actor=secretary, now=at)
    publication_job.publication_run(publication_id=publication.pk, now=at)


def _at(day, hour: int, minute: int = 0) -> datetime:
    return datetime.combine(day, time(hour, minute), tzinfo=ZoneInfo(settings.TIME_ZONE))


def play_match(fixture: Fixture, secretary, *, seed: int, frames_to_finish: int | None = None):
    """Run one match night; with `frames_to_finish`, stop part-way with a frame in play."""
    assert fixture.date is not None  # the demo's fixtures are all dated
    start = _at(fixture.date, 19, 30) if fixture.date <= timezone.localdate() else timezone.now()
    match = squads.match_open(fixture=fixture, actor=secretary, now=start)
    rosters = {}
    for side, team in ((Side.HOME, fixture.home), (Side.AWAY, fixture.away)):
        roster = [
            r.player
            for r in Registration.objects.filter(team=team, status="active").select_related(
                "player"
            )
        ]
        squads.match_mark_present(
            match=match, side=side, players=roster, actor=team.captain, now=start
        )
        seeding.match_commit(match=match, side=side, actor=team.captain, now=start)
        rosters[side] = (team, roster)
    nominate_lineups(match, rosters, seed)
    match = drawing.match_draw(match=match, actor=secretary, now=start)
    clock = start + timedelta(minutes=10)
    frames = Frame.objects.filter(match=match, status=Frame.Status.SCHEDULED).order_by("order")
    for index, frame in enumerate(frames):
        shots = simulate_game(frame.game_id, frame.setup, seed=seed * 10 + frame.number)
        if frames_to_finish is not None and index > frames_to_finish:
            break
        if frames_to_finish is not None and index == frames_to_finish:
            shots = shots[: len(shots) // 2]  # in play: half a frame entered
        clock = enter_shots(frame.pk, shots, user=secretary, clock=clock, namespace="demo")
        if frames_to_finish is None or index < frames_to_finish:
            events.frame_confirm(frame_id=frame.pk, seq=len(shots), user=secretary, now=clock)
    if frames_to_finish is None:
        match.refresh_from_db()
        for side, team in ((Side.HOME, fixture.home), (Side.AWAY, fixture.away)):
            signoff.match_confirm(match=match, side=side, actor=team.captain, now=clock)
    return match


def enter_shots(
    frame_id: int,
    shots: Sequence[dict[str, Any]],
    *,
    user,
    clock: datetime,
    namespace: str,
    step: timedelta = timedelta(seconds=20),
) -> datetime:
    """Enter a scheduled frame's shots as its referee would have, one every `step` from
    `clock`, in bulk: the engine replays the frame once and refuses what it would refuse
    shot by shot (a CommandError naming the shot), then the log goes in with one insert
    and the frame's caches with one update. The rows are those `frame_record_event` writes
    (event ids `uuid5("<namespace>/<frame>/<seq>")`, each event's state and view, who and
    when). The match is brought up to date as the first event does on the pad. Returns
    the clock after the last shot."""
    frame = Frame.objects.select_related("match").get(pk=frame_id)
    if not shots:
        return clock
    if frame.status != Frame.Status.SCHEDULED or frame.last_seq:
        raise CommandError(f"frame {frame.pk} has been started already")
    game = registry.get(frame.game_id)
    setup = frame_setup(frame)
    started = clock
    rows = []
    try:
        state = game.initial(setup)
        for seq, shot in enumerate(shots, start=1):
            state = game.apply(state, shot)
            rows.append(
                FrameEvent(
                    frame_id=frame.pk,
                    seq=seq,
                    event_id=uuid.uuid5(uuid.NAMESPACE_URL, f"{namespace}/{frame.pk}/{seq}"),
                    kind=FrameEvent.Kind.EVENT,
                    payload=dict(shot),
                    schema_version=events.SCHEMA_VERSION,
                    top_before=seq - 1,
                    top_after=seq,
                    state_after=game.dump(state),
                    view_after=game.view(state),
                    entered_by=user,
                    device_id=DEVICE,
                    created_at=clock,
                )
            )
            clock += step
    except RuleError as err:
        raise CommandError(f"frame {frame.pk}, shot {len(rows) + 1}: {err}") from None
    with transaction.atomic():
        FrameEvent.objects.bulk_create(rows)
        Frame.objects.filter(pk=frame.pk, last_seq=0).update(
            setup=setup,
            state=rows[-1].state_after,
            view=rows[-1].view_after,
            last_seq=len(rows),
            top_seq=len(rows),
            status=Frame.Status.IN_PLAY,
            started_at=Coalesce("started_at", Value(started, output_field=DateTimeField())),
        )  # the tracked manager moves the live versions of the frame and its match
        if frame.match is not None:
            match_update_result(match=frame.match)  # the first event puts the match in play
    return clock


def define_demo_awards(season: Season, secretary) -> None:
    """The season's awards, with the eligibility rules a league would set (docs/honours.md);
    those from statistics only when the season's game declares them."""
    half = {"min_fixtures_percent": 50}
    definitions: list[dict[str, Any]] = [
        {"name": "Highest break", "measure": "stat", "stat": "high_break", **half},
        {"name": "Most 200s", "measure": "stat", "stat": "pots_200", **half},
        {"name": "Best win rate", "measure": "win_rate", "min_frames": 4, **half},
        {"name": "Best average", "measure": "average", **half},
    ]
    for award in definitions:
        try:
            awards.award_define(season=season, actor=secretary, **award)
        except DomainError:
            continue  # a game without that statistic
