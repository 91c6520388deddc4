"""Every write to the league. Each function is one transaction and raises DomainError."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, datetime

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from .errors import DomainError
from .models import (
    Division,
    Fixture,
    Invitation,
    Player,
    Registration,
    Season,
    Team,
    Venue,
)
from .scheduling import ScheduleError, TeamSlot, double_round_robin, match_nights

User = get_user_model()


def _other_team_of(player: Player, season: Season, team: Team) -> Team | None:
    reg = (
        Registration.objects.filter(player=player, season=season)
        .filter(Q(status=Registration.Status.ACTIVE) | Q(first_played_at__isnull=False))
        .exclude(team=team)
        .select_related("team")
        .first()
    )
    return reg.team if reg else None


def _drafted_rule_error(player: Player, other: Team) -> DomainError:
    return DomainError(
        "plays_for_another_team",
        f"{player.name} already plays for {other.name} this season; "
        "a player can play for only one team a season (rule 8).",
        field="player",
        extra={"other_team": other.name},
    )


@transaction.atomic
def team_register(
    *,
    season: Season,
    name: str,
    venue: Venue,
    captain: User,
    division: Division | None = None,
    captain_plays: bool = True,
) -> Team:
    """A captain registers a team for a season that is open for registration."""
    name = name.strip()
    if not name:
        raise DomainError("required", "A team needs a name.", field="name")
    if season.status != Season.Status.REGISTRATION:
        raise DomainError(
            "season_closed", f"{season} is not open for registration.", field="season"
        )
    if division is not None and division.season_id != season.pk:
        raise DomainError("bad_division", "That division is in another season.", field="division")
    if Team.objects.filter(season=season, name__iexact=name).exists():
        raise DomainError("name_taken", f"A team called {name} is already entered.", field="name")
    team = Team.objects.create(
        season=season, name=name, venue=venue, captain=captain, division=division
    )
    if captain_plays:
        player = Player.objects.filter(user=captain).first()
        if player is None:
            player = Player.objects.create(
                user=captain,
                name=captain.get_full_name() or captain.get_username(),
                email=captain.email,
            )
        roster_add_player(team=team, player=player)
    return team


@transaction.atomic
def team_update(
    *,
    team: Team,
    name: str | None = None,
    venue: Venue | None = None,
    vice_captain: User | None = None,
) -> Team:
    fields = []
    if name is not None:
        name = name.strip()
        if not name:
            raise DomainError("required", "A team needs a name.", field="name")
        if Team.objects.filter(season=team.season, name__iexact=name).exclude(pk=team.pk).exists():
            raise DomainError("name_taken", f"A team called {name} is already entered.", field="name")
        team.name = name
        fields.append("name")
    if venue is not None:
        team.venue = venue
        fields.append("venue")
    if vice_captain is not None:
        if vice_captain.pk == team.captain_id:
            raise DomainError(
                "captain_is_vice", "The captain cannot also be vice-captain.", field="vice_captain"
            )
        team.vice_captain = vice_captain
        fields.append("vice_captain")
    if fields:
        team.save(update_fields=fields)
    return team


@transaction.atomic
def roster_add_player(
    *,
    team: Team,
    player: Player | None = None,
    name: str = "",
    email: str = "",
    kind: str = Registration.Kind.REGISTERED,
) -> Registration:
    """Put a player (existing, or new by name) on a team's roster for its season.

    Refused when the player is on, or has played for, another team this season.
    """
    if kind not in Registration.Kind.values:
        raise DomainError("bad_value", f"Unknown registration kind {kind!r}.", field="kind")
    if team.season.status == Season.Status.FINISHED:
        raise DomainError("season_finished", f"{team.season} has finished.", field="season")
    if player is None:
        name = name.strip()
        if not name:
            raise DomainError("required", "Give the player's name.", field="name")
        player = Player.objects.create(name=name, email=email.strip())
    other = _other_team_of(player, team.season, team)
    if other is not None:
        raise _drafted_rule_error(player, other)
    existing = Registration.objects.filter(team=team, player=player).order_by("-id").first()
    if existing is not None:
        if existing.status == Registration.Status.ACTIVE:
            raise DomainError(
                "already_registered", f"{player.name} is already on the roster.", field="player"
            )
        existing.status = Registration.Status.ACTIVE
        existing.kind = kind
        existing.removed_at = None
        existing.save(update_fields=["status", "kind", "removed_at"])
        return existing
    try:
        with transaction.atomic():
            return Registration.objects.create(
                season=team.season, team=team, player=player, kind=kind
            )
    except IntegrityError:
        # Another request registered the player elsewhere at the same moment.
        other = _other_team_of(player, team.season, team)
        if other is not None:
            raise _drafted_rule_error(player, other) from None
        raise


@transaction.atomic
def roster_remove_player(*, registration: Registration, now: datetime | None = None) -> Registration:
    """Take a player off the roster. A player who has played stays bound to the team."""
    if registration.status == Registration.Status.REMOVED:
        raise DomainError("not_on_roster", f"{registration.player} is not on the roster.")
    registration.status = Registration.Status.REMOVED
    registration.removed_at = now or timezone.now()
    registration.save(update_fields=["status", "removed_at"])
    return registration


@transaction.atomic
def registration_mark_played(
    *, team: Team, player: Player, now: datetime | None = None, draft: bool = True
) -> Registration:
    """Record that a player has played for a team (match night calls this).

    A player not on the roster is drafted, if rule 8 allows it. From now on the
    player can never play for another team this season (the database holds it).
    """
    now = now or timezone.now()
    reg = (
        Registration.objects.select_for_update()
        .filter(team=team, player=player)
        .order_by("-id")
        .first()
    )
    if reg is None or reg.status != Registration.Status.ACTIVE:
        if not draft:
            raise DomainError("not_on_roster", f"{player.name} is not on {team.name}'s roster.")
        reg = roster_add_player(team=team, player=player, kind=Registration.Kind.DRAFTED)
    other = _other_team_of(player, team.season, team)
    if other is not None:
        raise _drafted_rule_error(player, other)
    if reg.first_played_at is None:
        reg.first_played_at = now
        reg.save(update_fields=["first_played_at"])
    return reg


@transaction.atomic
def invitation_create(*, team: Team, invited_by: User, name: str, email: str) -> Invitation:
    """Invite someone by email to the roster; the email is sent after the commit."""
    from . import tasks

    name, email = name.strip(), email.strip().lower()
    if not name:
        raise DomainError("required", "Give the player's name.", field="name")
    if "@" not in email:
        raise DomainError("bad_email", "Give a valid email address.", field="email")
    if Invitation.objects.filter(team=team, email=email, accepted_at__isnull=True).exists():
        raise DomainError(
            "already_invited", f"{email} has already been invited to {team.name}.", field="email"
        )
    invitation = Invitation.objects.create(team=team, name=name, email=email, invited_by=invited_by)
    tasks.send_invitation.delay_on_commit(invitation.pk)
    return invitation


@transaction.atomic
def invitation_accept(*, token: str, user: User, now: datetime | None = None) -> Registration:
    invitation = Invitation.objects.select_for_update().filter(token=token).first()
    if invitation is None:
        raise DomainError("not_found", "This invitation does not exist.", status=404)
    if invitation.accepted_at is not None:
        raise DomainError("already_accepted", "This invitation has already been accepted.")
    player = Player.objects.filter(user=user).first()
    if player is None:
        player = Player.objects.create(user=user, name=invitation.name, email=invitation.email)
    registration = roster_add_player(team=invitation.team, player=player)
    invitation.accepted_at = now or timezone.now()
    invitation.save(update_fields=["accepted_at"])
    return registration


@transaction.atomic
def fixtures_generate(
    *,
    season: Season,
    start_date: date,
    blackout_dates: Iterable[date] = (),
    seed: int = 0,
) -> list[Fixture]:
    """Generate every division's home-and-away round robin for the season.

    Replaces fixtures generated earlier, as long as none has a result.
    """
    if season.fixtures.filter(result_confirmed_at__isnull=False).exists():
        raise DomainError(
            "results_exist", "Fixtures with results exist; move fixtures one by one instead."
        )
    teams = list(
        Team.objects.filter(season=season, division__isnull=False).select_related("venue")
    )
    divisions: dict[int, list[TeamSlot]] = {}
    for team in teams:
        divisions.setdefault(team.division_id, []).append(TeamSlot(team.pk, team.venue_id, team.name))
    if not divisions:
        raise DomainError("no_teams", "No team has been placed in a division yet.")
    for slots in divisions.values():
        slots.sort(key=lambda s: s.name)
    tables = {team.venue_id: team.venue.tables for team in teams}
    half = max(len(s) + len(s) % 2 - 1 for s in divisions.values())
    nights = match_nights(start_date, season.league.match_night, 2 * half, blackout_dates)
    try:
        matches = double_round_robin(divisions, tables, nights, seed=seed)
    except ScheduleError as exc:
        raise DomainError(exc.code, exc.message) from None
    season.fixtures.all().delete()
    venue_of = {team.pk: team.venue_id for team in teams}
    fixtures = Fixture.objects.bulk_create(
        [
            Fixture(
                season=season,
                division_id=m.division,
                round=m.round,
                home_id=m.home,
                away_id=m.away,
                venue_id=venue_of[m.home],
                date=m.date,
            )
            for m in matches
        ]
    )
    if season.start_date != start_date:
        season.start_date = start_date
        season.save(update_fields=["start_date"])
    return fixtures


def _check_night_free(fixture: Fixture, night: date) -> None:
    clash = (
        Fixture.objects.filter(season=fixture.season, date=night)
        .exclude(pk=fixture.pk)
        .exclude(status=Fixture.Status.POSTPONED)
        .filter(
            Q(home__in=[fixture.home_id, fixture.away_id])
            | Q(away__in=[fixture.home_id, fixture.away_id])
        )
        .select_related("home", "away")
        .first()
    )
    if clash is not None:
        raise DomainError(
            "team_busy",
            f"{clash.home.name} v {clash.away.name} is already on {night:%d %b %Y}.",
            field="date",
        )
    at_venue = (
        Fixture.objects.filter(date=night, venue=fixture.venue)
        .exclude(pk=fixture.pk)
        .exclude(status=Fixture.Status.POSTPONED)
        .count()
    )
    if at_venue >= fixture.venue.tables:
        raise DomainError(
            "venue_full",
            f"{fixture.venue.name} has {fixture.venue.tables} table(s), all in use on "
            f"{night:%d %b %Y}.",
            field="date",
        )


@transaction.atomic
def fixture_postpone(*, fixture: Fixture, reason: str = "") -> Fixture:
    fixture = Fixture.objects.select_for_update().get(pk=fixture.pk)
    if fixture.result_confirmed_at is not None or fixture.status == Fixture.Status.PLAYED:
        raise DomainError("already_played", "A played fixture cannot be postponed.")
    if fixture.status == Fixture.Status.POSTPONED:
        raise DomainError("already_postponed", "This fixture is already postponed.")
    if fixture.original_date is None:
        fixture.original_date = fixture.date
    fixture.status = Fixture.Status.POSTPONED
    fixture.note = reason.strip()[:200]
    fixture.save(update_fields=["status", "note", "original_date"])
    return fixture


@transaction.atomic
def fixture_move(*, fixture: Fixture, new_date: date, reason: str = "") -> Fixture:
    """Move one fixture to another night without touching any other fixture."""
    fixture = Fixture.objects.select_for_update().select_related("venue").get(pk=fixture.pk)
    if fixture.result_confirmed_at is not None or fixture.status == Fixture.Status.PLAYED:
        raise DomainError("already_played", "A played fixture cannot be moved.")
    _check_night_free(fixture, new_date)
    if fixture.original_date is None:
        fixture.original_date = fixture.date
    fixture.date = new_date
    fixture.status = Fixture.Status.SCHEDULED
    if reason:
        fixture.note = reason.strip()[:200]
    fixture.save(update_fields=["date", "status", "original_date", "note"])
    return fixture


@transaction.atomic
def fixture_record_result(
    *,
    fixture: Fixture,
    home_frames,
    away_frames,
    home_score: int,
    away_score: int,
    confirmed_at: datetime,
) -> Fixture:
    """Write a confirmed match result onto its fixture (called by match night's service;
    tables are computed from fixtures alone). Safe to call twice with the same result."""
    fixture = Fixture.objects.select_for_update().get(pk=fixture.pk)
    fixture.home_frames = home_frames
    fixture.away_frames = away_frames
    fixture.home_score = home_score
    fixture.away_score = away_score
    fixture.result_confirmed_at = confirmed_at
    fixture.status = Fixture.Status.PLAYED
    fixture.save(
        update_fields=[
            "home_frames", "away_frames", "home_score", "away_score",
            "result_confirmed_at", "status",
        ]
    )
    return fixture
