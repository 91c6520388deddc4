"""The demo league's competitions, in progress (used by `make run`, after the match nights).

- a team **Cup** of every team, its first-round losers into the **Plate**: the Cup's first
  round is played as real match nights, scored shot by shot on the pad's services and
  signed off by both captains (the confirmed result sends the winners through); the Plate is
  drawn and waiting;
- a **Singles** in groups of three (races to 2), the winner of each group into the
  knock-out: most group matches scored frame by frame on the pad;
- a **Pairs** knock-out with its first round partly played on the pad;
- the Norfolk County Bar Billiards Association's **County Championship** across Norwich's
  and Great Yarmouth's leagues: their A and B teams drawn (two semi-finals between pubs of
  two leagues), settled on aggregate, left for the captains to play.

Every draw is the verifiable one (commit–reveal), every frame is a seeded simulation
entered in bulk through the engine and confirmed through the pad's services
(`frames.pad.events`), so the demo is the same each time.
A newcomer finds them from the home page ("Cups and competitions").
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.test.utils import override_settings
from django.utils import timezone

from competitions import draw as cupdraw
from competitions.models import Competition, Tie
from competitions.services.draws import draw_commit, draw_perform, draw_reveal
from competitions.services.entries import entry_create
from competitions.services.pad import tie_confirm, tie_frame_open
from competitions.services.setup import competition_create
from competitions.services.ties import round_set_dates
from frames.management.commands.demo_match_nights import enter_shots, play_match
from frames.models import Frame
from frames.pad import events
from leagues.models import League, Organisation, Registration, Team
from marker.errors import DomainError
from rules.simulate import simulate_game


class Command(BaseCommand):
    help = "Load the demo league's cups, singles and pairs, part-played on the pad."

    def handle(self, *args, **options):
        with override_settings(EMAIL_BACKEND="django.core.mail.backends.locmem.EmailBackend"):
            self._load()

    def _load(self) -> None:
        league = League.objects.filter(slug="norwich").first()
        if league is None:
            raise CommandError("Load the demo league first: manage.py demo_league")
        season = league.seasons.order_by("-start_date").first()
        organisation = Organisation.objects.filter(slug="norfolk").first()
        if organisation is not None and not organisation.competitions.exists():
            build_demo_county_championship(organisation)
            self.stdout.write("County Championship drawn (Norfolk, across two leagues).")
        if Competition.objects.filter(season=season).exists():
            self.stdout.write("Demo competitions already loaded.")
            return
        secretary = get_user_model().objects.get(username="secretary")
        build_demo_competitions(season, secretary, say=self._say)
        self.stdout.write(
            self.style.SUCCESS("Demo competitions loaded: Cup, Plate, Singles, Pairs.")
        )

    def _say(self, line: str) -> None:
        self.stdout.write(line)
        self.stdout.flush()


def _draw(competition: Competition, secretary, secret: str, now) -> Competition:
    draw_commit(
        actor=secretary, competition=competition, commitment=cupdraw.commitment(secret), now=now
    )
    draw_reveal(actor=secretary, competition=competition, secret=secret, now=now)
    return draw_perform(actor=secretary, competition=competition, now=now)


def play_tie_on_pad(tie: Tie, secretary, *, seed: int, now) -> Tie:
    """Score an individual tie frame by frame through the pad's services, then confirm."""
    clock = now
    for _ in range(9):
        try:
            tie_frame = tie_frame_open(actor=secretary, tie=tie, now=clock)
        except DomainError as exc:
            if exc.code == "tie_won":
                break
            raise
        assert tie_frame.frame_id is not None  # opened on the pad: its frame exists
        frame = Frame.objects.get(pk=tie_frame.frame_id)
        shots = simulate_game(frame.game_id, frame.setup, seed=seed * 10 + tie_frame.number)
        clock = enter_shots(frame.pk, shots, user=secretary, clock=clock, namespace="demo-cup")
        events.frame_confirm(frame_id=frame.pk, seq=len(shots), user=secretary, now=clock)
    return tie_confirm(actor=secretary, tie=tie, now=clock)


def _scheduled(competition: Competition, **filters) -> list[Tie]:
    return list(
        Tie.objects.filter(competition=competition, status="scheduled", **filters).order_by(
            "round__number", "group__number", "slot"
        )
    )


@transaction.atomic
def build_demo_competitions(
    season, secretary, *, say: Callable[[str], None] = lambda line: None
) -> dict[str, Competition]:
    """The Cup and Plate, the Singles and the Pairs, part-played; `say` hears the progress."""
    now = timezone.now()
    today = timezone.localdate()
    teams = list(Team.objects.filter(season=season).order_by("name"))
    players = [
        r.player
        for r in Registration.objects.filter(season=season, status="active")
        .select_related("player")
        .order_by("team__name", "id")
    ]

    # The team Cup and its Plate (first-round losers).
    plate = competition_create(
        actor=secretary, season=season, name="Plate", kind="team_knockout", now=now
    )
    cup = competition_create(
        actor=secretary,
        season=season,
        name="Cup",
        kind="team_knockout",
        plate_rule="first_round_losers",
        plate=plate,
        now=now,
    )
    for team in teams:
        entry_create(actor=secretary, competition=cup, team=team, now=now)
    cup = _draw(cup, secretary, "demo cup", now)
    first = cup.rounds.get(number=1)
    night = today - timedelta(days=2)
    round_set_dates(actor=secretary, round=first, date=night, deadline=None, now=now)
    for round_ in cup.rounds.filter(number__gt=1):
        round_set_dates(
            actor=secretary,
            round=round_,
            date=today + timedelta(weeks=3 * (round_.number - 1)),
            deadline=None,
            now=now,
        )
    cup_ties = _scheduled(cup, round__number=1)
    say(f"Cup: playing round one ({len(cup_ties)} match nights) …")
    for tie in cup_ties:
        tie.refresh_from_db()
        assert tie.fixture is not None  # a team tie's cup fixture, made when it was drawn
        play_match(tie.fixture, secretary, seed=1000 + tie.pk)
    plate.refresh_from_db()
    if plate.entries.count() >= 2:
        plate = _draw(plate, secretary, "demo plate", now)

    # The Singles: groups of three, races to two, each group's winner into the knock-out.
    singles = competition_create(
        actor=secretary,
        season=season,
        name="Singles",
        kind="group_knockout",
        entrant="player",
        group_size=3,
        group_qualifiers=1,
        group_race_to=2,
        best_of=3,
        final_best_of=5,
        now=now,
    )
    for player in players[::6][:12]:
        entry_create(actor=secretary, competition=singles, player=player, now=now)
    singles = _draw(singles, secretary, "demo singles", now)
    group_ties = _scheduled(singles)
    say(f"Singles: playing {len(group_ties) - 3} group matches …")
    for index, tie in enumerate(group_ties[: len(group_ties) - 3]):  # the last group to play
        play_tie_on_pad(tie, secretary, seed=2000 + index, now=now - timedelta(days=7))

    # The Pairs: a knock-out, its first round part-played.
    pairs = competition_create(
        actor=secretary, season=season, name="Pairs", kind="pairs", entrant="pair", now=now
    )
    pool = players[1::5][:12]
    for a, b in zip(pool[::2], pool[1::2], strict=False):
        entry_create(actor=secretary, competition=pairs, player=a, partner=b, now=now)
    pairs = _draw(pairs, secretary, "demo pairs", now)
    say("Pairs: playing two first-round ties …")
    for index, tie in enumerate(_scheduled(pairs, round__number=1)[:2]):
        play_tie_on_pad(tie, secretary, seed=3000 + index, now=now - timedelta(days=3))
    return {"cup": cup, "plate": plate, "singles": singles, "pairs": pairs}


@transaction.atomic
def build_demo_county_championship(organisation: Organisation) -> Competition:
    """The county's championship: the member leagues' A and B teams (Norwich's Kings Head,
    Great Yarmouth's Red Lion), entered by the county's competitions officer, drawn, and
    settled "on total scores made" when played."""
    officer = get_user_model().objects.get(username="county")
    now = timezone.now()
    championship = competition_create(
        actor=officer,
        organisation=organisation,
        game_id="bar_billiards_4pin",
        name="County Championship",
        kind="team_knockout",
        settle_by=Competition.SettleBy.AGGREGATE,
        now=now,
    )
    teams = Team.objects.filter(
        season__league__organisations=organisation,
        season__status__in=["registration", "running"],
        name__regex=r" [AB]$",
    ).order_by("season__league__name", "name")
    for team in teams:
        entry_create(actor=officer, competition=championship, team=team, now=now)
    championship = _draw(championship, officer, "demo county", now)
    today = timezone.localdate()
    for round_ in championship.rounds.order_by("number"):
        round_set_dates(
            actor=officer,
            round=round_,
            date=today + timedelta(weeks=2 * round_.number),
            deadline=None,
            now=now,
        )
    return championship
