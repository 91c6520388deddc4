"""Availability's reads: the captain's sheet for a fixture, a player's coming fixtures with
their answers, the yeses match night starts from, the answer-by deadlines for a calendar.
Each owns its joins: a fixed number of queries however large the squad."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime, time
from typing import Any

from django.db.models import F, Q
from django.utils import timezone

from leagues.models import (
    Availability,
    AvailabilityAnswer,
    AvailabilityClosed,
    AvailabilityRequest,
    AwayDates,
    Fixture,
    Player,
    Registration,
    Team,
)
from marker.permissions import allowed

from .services import CHASE_GAP


@dataclass
class SheetRow:
    registration: Registration
    answer: Availability | None

    @property
    def player(self) -> Player:
        return self.registration.player


@dataclass
class Sheet:
    """Who is in, maybe, out, and not answered, for one team's side of a fixture."""

    fixture: Fixture
    team: Team
    request: AvailabilityRequest | None
    closed: bool
    rows: list[SheetRow] = field(default_factory=list)

    def _with(self, answer: str | None) -> list[SheetRow]:
        return [r for r in self.rows if (r.answer.answer if r.answer else None) == answer]

    @property
    def yes(self) -> list[SheetRow]:
        return self._with(AvailabilityAnswer.YES)

    @property
    def maybe(self) -> list[SheetRow]:
        return self._with(AvailabilityAnswer.MAYBE)

    @property
    def no(self) -> list[SheetRow]:
        return self._with(AvailabilityAnswer.NO)

    @property
    def waiting(self) -> list[SheetRow]:
        return self._with(None)

    @property
    def counts(self) -> dict[str, int]:
        return {
            "yes": len(self.yes),
            "maybe": len(self.maybe),
            "no": len(self.no),
            "waiting": len(self.waiting),
        }

    def next_chase_at(self) -> datetime | None:
        if self.request is None or self.request.chased_at is None:
            return None
        return self.request.chased_at + CHASE_GAP

    def can_chase(self, now: datetime) -> bool:
        again = self.next_chase_at()
        return (
            self.request is not None
            and not self.closed
            and bool(self.waiting)
            and (again is None or now >= again)
        )


def availability_sheet(fixture: Fixture, team: Team) -> Sheet:
    """The sheet (four queries): the ask, the closure, the roster, the answers. Answers of
    players no longer on the roster are left out."""
    request = AvailabilityRequest.objects.filter(fixture=fixture, team=team).first()
    closed = AvailabilityClosed.objects.filter(fixture=fixture).exists()
    roster = list(
        Registration.objects.filter(team=team, status=Registration.Status.ACTIVE)
        .select_related("player")
        .order_by("player__name", "player_id")
    )
    answers = {a.player_id: a for a in Availability.objects.filter(fixture=fixture, team=team)}
    sheet = Sheet(fixture, team, request, closed)
    sheet.rows = [SheetRow(reg, answers.get(reg.player_id)) for reg in roster]
    return sheet


def teams_to_ask(user: Any, fixture: Fixture) -> list[Team]:
    """The fixture's teams whose availability `user` may see and ask for (no query: the
    teams are loaded with the fixture, the roles once per user)."""
    return [
        team
        for team in (fixture.home, fixture.away)
        if allowed(user, "leagues.ask_availability", team)
    ]


def answers_for_match(fixture: Fixture) -> dict[int, dict[str, list[int]]]:
    """Match night's starting point (one query): for each team of the fixture, the players
    still on its roster who answered yes, and those who answered maybe, by player id."""
    found: dict[int, dict[str, list[int]]] = {
        team_id: {"yes": [], "maybe": []} for team_id in (fixture.home_id, fixture.away_id)
    }
    rows = (
        Availability.objects.filter(
            fixture=fixture,
            answer__in=[AvailabilityAnswer.YES, AvailabilityAnswer.MAYBE],
            player__registrations__team=F("team"),
            player__registrations__status=Registration.Status.ACTIVE,
        )
        .order_by("player__name", "player_id")
        .values_list("team_id", "player_id", "answer")
    )
    for team_id, player_id, answer in rows:
        if team_id in found:
            found[team_id][answer].append(player_id)
    return found


@dataclass
class Upcoming:
    """One coming fixture of a player's, with their answer and their link's token."""

    fixture: Fixture
    team: Team
    answer: Availability | None
    request: AvailabilityRequest | None
    closed: bool


def player_upcoming(
    player: Player, *, today: date | None = None, limit: int = 20
) -> list[Upcoming]:
    """The player's coming fixtures (their teams' this season and on, from today, no result
    yet), each with their answer: four queries."""
    today = today or timezone.localdate()
    team_ids = list(
        Registration.objects.filter(player=player, status=Registration.Status.ACTIVE).values_list(
            "team_id", flat=True
        )
    )
    fixtures = list(
        Fixture.objects.filter(Q(home_id__in=team_ids) | Q(away_id__in=team_ids))
        .filter(date__gte=today, result_confirmed_at__isnull=True)
        .exclude(status=Fixture.Status.POSTPONED)
        .select_related("home", "away", "venue", "season__league")
        .order_by("date", "id")[:limit]
    )
    ids = [f.pk for f in fixtures]
    answers = {
        (a.fixture_id, a.team_id): a
        for a in Availability.objects.filter(player=player, fixture_id__in=ids)
    }
    asks = {
        (r.fixture_id, r.team_id): r
        for r in AvailabilityRequest.objects.filter(fixture_id__in=ids, team_id__in=team_ids)
    }
    closed = set(
        AvailabilityClosed.objects.filter(fixture_id__in=ids).values_list("fixture_id", flat=True)
    )
    rows = []
    for fixture in fixtures:
        team = fixture.home if fixture.home_id in team_ids else fixture.away
        key = (fixture.pk, team.pk)
        rows.append(Upcoming(fixture, team, answers.get(key), asks.get(key), fixture.pk in closed))
    return rows


def away_dates_of(player: Player) -> list[AwayDates]:
    return list(
        AwayDates.objects.filter(player=player)
        .select_related("season__league")
        .order_by("-season__start_date", "start", "id")
    )


def seasons_of(player: Player) -> list:
    """The seasons the player is on a roster in (for away dates), newest first."""
    regs = (
        Registration.objects.filter(player=player, status=Registration.Status.ACTIVE)
        .select_related("season__league", "team")
        .order_by("-season__start_date", "-season_id")
    )
    return [(reg.season, reg.team) for reg in regs]


def availability_deadlines_for_player(
    player: Player, since: datetime | date
) -> list[tuple[Fixture, Team, datetime]]:
    """The answer-by deadlines of the asks made to this player (their teams' asks, while on
    the roster) from `since` on, soonest first: (fixture, team, deadline). For the personal
    calendar feed; one query."""
    if not isinstance(since, datetime):
        since = timezone.make_aware(datetime.combine(since, time.min))
    asks = (
        AvailabilityRequest.objects.filter(
            answer_by__gte=since,
            team__registrations__player=player,
            team__registrations__status=Registration.Status.ACTIVE,
        )
        .select_related("fixture__home", "fixture__away", "fixture__venue", "team__season__league")
        .order_by("answer_by", "id")
        .distinct()
    )
    return [(ask.fixture, ask.team, ask.answer_by) for ask in asks]


def next_fixtures(team: Team, *, today: date | None = None, limit: int = 3) -> list[Fixture]:
    """The team's next fixtures without a result (for the roster page's links)."""
    today = today or timezone.localdate()
    return list(
        Fixture.objects.filter(Q(home=team) | Q(away=team))
        .filter(date__gte=today, result_confirmed_at__isnull=True)
        .select_related("home", "away")
        .order_by("date", "id")[:limit]
    )


def asked_team_ids(fixture: Fixture, teams: list[Team]) -> set[int]:
    """Which of the teams have been asked for this fixture (no query without teams)."""
    if not teams:
        return set()
    return set(
        AvailabilityRequest.objects.filter(
            fixture=fixture, team_id__in=[t.pk for t in teams]
        ).values_list("team_id", flat=True)
    )
