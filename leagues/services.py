"""Every write to the league. Each function is one transaction and raises DomainError."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from datetime import date, datetime
from decimal import Decimal, InvalidOperation
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.db.models import ProtectedError, Q
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.text import slugify

from marker.errors import DomainError
from marker.formats import PRESETS, parse_format
from marker.permissions import require
from rules import registry

from .models import (
    MAX_MATCH_SCORE,
    Division,
    Fixture,
    League,
    Player,
    PlayerFrameStat,
    PointDeduction,
    Publication,
    Registration,
    Season,
    SentNotification,
    Subscription,
    Team,
    Venue,
    validate_tie_breakers,
)
from .scheduling import ScheduleError, TeamSlot, double_round_robin, match_nights

User = get_user_model()
Actor = Any  # an account (settings.AUTH_USER_MODEL): typed loosely, the model is swappable


def _other_team_of(player: Player, season: Season, team: Team) -> Team | None:
    reg = (
        Registration.objects.filter(player=player, season=season)
        .filter(Q(status=Registration.Status.ACTIVE) | Q(first_played_at__isnull=False))
        .exclude(team=team)
        .select_related("team")
        .first()
    )
    return reg.team if reg else None


def player_name_key(name: str) -> str:
    """A name as typed, with its spacing tidied: 'Nora  Nobbs ' → 'Nora Nobbs'."""
    return " ".join((name or "").split())


def players_named(name: str):
    """Players already in the league whose name reads the same (case and spacing aside):
    one person, one record, so a name typed again is the same person until a captain
    says otherwise."""
    return Player.objects.filter(
        name__iexact=player_name_key(name), erased_number__isnull=True
    ).order_by("id")


def _same_name_error(name: str, season: Season, team: Team) -> DomainError:
    found = []
    for player in players_named(name)[:5]:
        other = _other_team_of(player, season, team)
        found.append(
            {
                "id": player.pk,
                "name": player.name,
                "team": other.name if other is not None else "",
            }
        )
    where = "; ".join(
        f"{p['name']}{' (plays for ' + p['team'] + ' this season)' if p['team'] else ''}"
        for p in found
    )
    return DomainError(
        "same_name",
        f"There is already a player called {player_name_key(name)} in the league: {where}. "
        "Choose them from the list (one person, one record), or confirm this is someone "
        "else with the same name.",
        field="name",
        extra={"players": found},
    )


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
    captain: Actor,
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
    vice_captain: Actor | None = None,
) -> Team:
    fields = []
    if name is not None:
        name = name.strip()
        if not name:
            raise DomainError("required", "A team needs a name.", field="name")
        if Team.objects.filter(season=team.season, name__iexact=name).exclude(pk=team.pk).exists():
            raise DomainError(
                "name_taken", f"A team called {name} is already entered.", field="name"
            )
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
    someone_else: bool = False,
) -> Registration:
    """Put a player (existing, or new by name) on a team's roster for its season.

    Refused when the player is on, or has played for, another team this season (rule 8).
    A name that an existing player already has is refused (`same_name`, listing them)
    unless `someone_else` says the captain confirmed it is another person: otherwise a
    second record would let a player drafted elsewhere slip past rule 8.
    """
    if kind not in Registration.Kind.values:
        raise DomainError("bad_value", f"Unknown registration kind {kind!r}.", field="kind")
    if team.season.status == Season.Status.FINISHED:
        raise DomainError("season_finished", f"{team.season} has finished.", field="season")
    if player is None:
        name = player_name_key(name)
        if not name:
            raise DomainError("required", "Give the player's name.", field="name")
        if not someone_else and players_named(name).exists():
            raise _same_name_error(name, team.season, team)
        player = Player.objects.create(name=name, email=email.strip())
    if player.erased_number is not None:
        raise DomainError("erased", "This person was erased.", field="player")
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
def roster_remove_player(
    *, registration: Registration, actor: Actor = None, now: datetime | None = None
) -> Registration:
    """Take a player off the roster. A player who has played stays bound to the team.
    A captain (or vice-captain) cannot take themself off (`remove_self`): they would lose
    the team they run; the roster page offers Undo for everyone else."""
    if registration.status == Registration.Status.REMOVED:
        raise DomainError("not_on_roster", f"{registration.player} is not on the roster.")
    if (
        actor is not None
        and getattr(actor, "pk", None) is not None
        and registration.player.user_id == actor.pk
    ):
        raise DomainError(
            "remove_self",
            "You cannot take yourself off the roster you captain: ask the secretary.",
            field="player",
        )
    registration.status = Registration.Status.REMOVED
    registration.removed_at = now or timezone.now()
    registration.save(update_fields=["status", "removed_at"])
    return registration


@transaction.atomic
def player_set_private_name(*, player: Player, private: bool) -> Player:
    """A player asks (or stops asking) not to be named publicly: public pages, the API's
    public reads and the exports show their initials instead."""
    if player.erased_number is not None:
        raise DomainError("erased", "This person was erased.", status=409)
    if player.private_name != bool(private):
        player.private_name = bool(private)
        player.save(update_fields=["private_name"])
    return player


@transaction.atomic
def registration_confirm(*, registration: Registration, accept: bool = True) -> Registration:
    """Answer a pending registration (last season's roster, copied by a rollover): put
    the player on the roster, or (`accept=False`) leave them off it. Putting them on is
    refused when they are on another team's roster this season (rule 8)."""
    registration = (
        Registration.objects.select_for_update()
        .select_related("player", "team__season")
        .get(pk=registration.pk)
    )
    if registration.status != Registration.Status.PENDING:
        raise DomainError(
            "not_pending",
            f"{registration.player.name}'s registration is not awaiting confirmation.",
            field="registration",
        )
    if not accept:
        registration.status = Registration.Status.REMOVED
        registration.save(update_fields=["status"])
        return registration
    other = _other_team_of(registration.player, registration.season, registration.team)
    if other is not None:
        raise _drafted_rule_error(registration.player, other)
    registration.status = Registration.Status.ACTIVE
    try:
        with transaction.atomic():
            registration.save(update_fields=["status"])
    except IntegrityError:
        other = _other_team_of(registration.player, registration.season, registration.team)
        raise _drafted_rule_error(registration.player, other or registration.team) from None
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
def fixtures_generate(
    *,
    season: Season,
    start_date: date,
    blackout_dates: Iterable[date] = (),
    seed: int = 0,
) -> list[Fixture]:
    """Generate every division's home-and-away round robin for the season.

    Replaces fixtures generated earlier, as long as none has a result or a match night.
    """
    if season.fixtures.filter(result_confirmed_at__isnull=False).exists():
        raise DomainError(
            "results_exist", "Fixtures with results exist; move fixtures one by one instead."
        )
    teams = list(Team.objects.filter(season=season, division__isnull=False).select_related("venue"))
    divisions: dict[int, list[TeamSlot]] = {}
    for team in teams:
        assert team.division_id is not None  # filtered above
        divisions.setdefault(team.division_id, []).append(
            TeamSlot(team.pk, team.venue_id, team.name)
        )
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
    try:
        season.fixtures.all().delete()
    except ProtectedError:  # a match night was opened for one (frames protects it)
        raise DomainError(
            "fixtures_in_use",
            "A match night has been opened for some fixtures; move fixtures one by one instead.",
        ) from None
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
    home_sections=None,
    away_sections=None,
) -> Fixture:
    """Write a confirmed match result onto its fixture (called by match night's service;
    tables are computed from fixtures alone). Safe to call twice with the same result.
    `home_sections`/`away_sections`: sections won under the match format (a level section
    is half each), for a format's points per section."""
    fixture = Fixture.objects.select_for_update().get(pk=fixture.pk)
    fixture.home_frames = home_frames
    fixture.away_frames = away_frames
    fixture.home_score = home_score
    fixture.away_score = away_score
    fixture.home_sections = home_sections
    fixture.away_sections = away_sections
    fixture.result_confirmed_at = confirmed_at
    fixture.status = Fixture.Status.PLAYED
    fixture.save(
        update_fields=[
            "home_frames",
            "away_frames",
            "home_score",
            "away_score",
            "home_sections",
            "away_sections",
            "result_confirmed_at",
            "status",
        ]
    )
    return fixture


# ----------------------------------------------------------------------------- tables

logger = logging.getLogger(__name__)


_SCHEME_FIELDS = (
    "points_per_frame",
    "points_per_match_win",
    "points_per_match_draw",
    "bonus_margin_points",
    "bonus_aggregate_points",
)


def _decimal(
    value, field: str, *, halves: bool = False, maximum: Decimal = Decimal("999.9")
) -> Decimal:
    """A number of zero or more, in halves or tenths, at most `maximum` (its column's
    digits: `max_digits=4, decimal_places=1` unless said otherwise)."""
    try:
        number = Decimal(str(value))
    except (InvalidOperation, ValueError):
        raise DomainError(
            "bad_value", f"{str(value)[:40]!r} is not a number.", field=field
        ) from None
    if not number.is_finite() or number < 0:
        raise DomainError("bad_value", "Give a number of zero or more.", field=field)
    if number > maximum:
        raise DomainError("bad_value", f"Give a number of at most {maximum}.", field=field)
    if (number * 2) % 1 or (not halves and number * 10 % 1):
        raise DomainError(
            "bad_value",
            "Use whole or half numbers." if halves else "Use at most one decimal place.",
            field=field,
        )
    return number


@transaction.atomic
def season_set_points_scheme(
    *,
    season: Season,
    points_per_frame=None,
    points_per_match_win=None,
    points_per_match_draw=None,
    bonus_margin: int | None | str = "",
    bonus_margin_points=None,
    bonus_aggregate_points=None,
    tie_breakers: list[str] | None = None,
) -> Season:
    """Set a season's points scheme and tie-breaker order (fields not given are kept).
    `bonus_margin=None` turns the winning-margin bonus off."""
    given = {
        "points_per_frame": points_per_frame,
        "points_per_match_win": points_per_match_win,
        "points_per_match_draw": points_per_match_draw,
        "bonus_margin_points": bonus_margin_points,
        "bonus_aggregate_points": bonus_aggregate_points,
    }
    fields = []
    for name, value in given.items():
        if value is not None:
            setattr(season, name, _decimal(value, name))
            fields.append(name)
    if bonus_margin != "":
        if bonus_margin is not None and (not isinstance(bonus_margin, int) or bonus_margin < 1):
            raise DomainError(
                "bad_value",
                "The bonus margin is a number of frames, 1 or more.",
                field="bonus_margin",
            )
        season.bonus_margin = bonus_margin
        fields.append("bonus_margin")
    if tie_breakers is not None:
        try:
            validate_tie_breakers(tie_breakers)
        except ValidationError as exc:
            raise DomainError("bad_tie_breakers", exc.messages[0], field="tie_breakers") from None
        season.tie_breakers = list(tie_breakers)
        fields.append("tie_breakers")
    if fields:
        season.save(update_fields=fields)
    return season


@transaction.atomic
def point_deduction_add(
    *, team: Team, points, reason: str, by=None, now: datetime | None = None
) -> PointDeduction:
    """Deduct points from a team; the reason is shown on the table."""
    reason = reason.strip()
    if not reason:
        raise DomainError("required", "Give the reason for the deduction.", field="reason")
    amount = _decimal(points, "points", halves=True, maximum=Decimal("9999.5"))
    if amount <= 0:
        raise DomainError("bad_value", "Deduct at least half a point.", field="points")
    if team.division_id is None:
        raise DomainError("no_division", f"{team.name} is not in a division.", field="team")
    return PointDeduction.objects.create(
        team=team, points=amount, reason=reason[:200], by=by, at=now or timezone.now()
    )


@transaction.atomic
def fixture_award(
    *,
    fixture: Fixture,
    outcome: str,
    home_frames,
    away_frames,
    reason: str,
    home_score: int = 0,
    away_score: int = 0,
    now: datetime | None = None,
) -> Fixture:
    """Record a walkover or a conceded match: the awarded frames (and scores, if any)
    count in the table like a played result, and the reason is shown beneath it."""
    if fixture.kind == Fixture.Kind.CUP:
        raise DomainError(
            "cup_fixture",
            "This fixture is a cup tie: award it, or record the walkover, in its competition.",
        )
    if outcome not in (Fixture.Outcome.WALKOVER, Fixture.Outcome.CONCEDED):
        raise DomainError("bad_value", "Choose walkover or conceded.", field="outcome")
    reason = reason.strip()
    if not reason:
        raise DomainError("required", "Give the reason; the table shows it.", field="reason")
    home = _decimal(home_frames, "home_frames", halves=True)
    away = _decimal(away_frames, "away_frames", halves=True)
    if home == away:
        raise DomainError(
            "no_winner",
            "Award the match to one side: the frames cannot be level.",
            field="home_frames",
        )
    for name, score in (("home_score", home_score), ("away_score", away_score)):
        if isinstance(score, bool) or not isinstance(score, int):
            raise DomainError("bad_value", "A score is a whole number.", field=name)
        if score < 0:
            raise DomainError("bad_value", "Scores cannot be negative.", field=name)
        if score > MAX_MATCH_SCORE:
            raise DomainError(
                "bad_value", f"A match's score is at most {MAX_MATCH_SCORE}.", field=name
            )
    fixture = Fixture.objects.select_for_update().get(pk=fixture.pk)
    if fixture.result_confirmed_at is not None and fixture.outcome == Fixture.Outcome.PLAYED:
        raise DomainError(
            "has_result", "This match has a confirmed result from the night; it was played."
        )
    fixture.outcome = outcome
    fixture.outcome_reason = reason[:200]
    fixture.home_frames, fixture.away_frames = home, away
    fixture.home_score, fixture.away_score = home_score, away_score
    fixture.result_confirmed_at = now or timezone.now()
    fixture.status = Fixture.Status.PLAYED
    fixture.save(
        update_fields=[
            "outcome",
            "outcome_reason",
            "home_frames",
            "away_frames",
            "home_score",
            "away_score",
            "result_confirmed_at",
            "status",
        ]
    )
    return fixture


# ------------------------------------------------------------------------- publishing


# ---------------------------------------------------------------------- subscriptions


@transaction.atomic
def subscription_create(*, league: League, user, now: datetime | None = None) -> Subscription:
    """Email the league's tables to this user's address whenever they are published."""
    email = (getattr(user, "email", "") or "").strip().lower()
    if "@" not in email:
        raise DomainError(
            "no_email",
            "Your account has no email address to send the tables to.",
            field="email",
        )
    subscription, created = Subscription.objects.get_or_create(
        league=league,
        email=email,
        defaults={"user": user, "created_at": now or timezone.now()},
    )
    if not created and not subscription.active:
        subscription.active = True
        subscription.save(update_fields=["active"])
    return subscription


@transaction.atomic
def subscription_cancel(*, token: str) -> Subscription:
    subscription = Subscription.objects.select_for_update().filter(token=token).first()
    if subscription is None:
        raise DomainError("not_found", "This subscription does not exist.", status=404)
    if subscription.active:
        subscription.active = False
        subscription.save(update_fields=["active"])
    return subscription


def send_once(
    *,
    kind: str,
    recipient: str,
    subject: str,
    body: str,
    now: datetime,
    fixture: Fixture | None = None,
    publication: Publication | None = None,
    connection=None,
) -> bool:
    """Send one email at most once per (kind, subject object, recipient): the row is
    inserted under a unique index in the same transaction as the send, so a second run
    (or a concurrent one, which waits on the index) sends nothing. If the send fails the
    row rolls back and a retry sends it."""
    try:
        with transaction.atomic():
            SentNotification.objects.create(
                kind=kind,
                fixture=fixture,
                publication=publication,
                recipient=recipient,
                sent_at=now,
            )
            send_mail(
                subject=subject,
                message=body,
                from_email=settings.DEFAULT_FROM_EMAIL,
                recipient_list=[recipient],
                connection=connection,
            )
    except IntegrityError:
        return False  # already sent (by an earlier or a concurrent run)
    return True


# -------------------------------------------------------------------------- reminders


def reminders_send(*, day: date, now: datetime | None = None) -> int:
    """Remind each captain (and vice-captain) of the fixtures on `day`; once per fixture
    and person however often it runs. Returns the number of emails sent now."""
    now = now or timezone.now()
    fixtures = (
        Fixture.objects.filter(
            date=day, status=Fixture.Status.SCHEDULED, result_confirmed_at__isnull=True
        )
        .select_related(
            "home__captain",
            "home__vice_captain",
            "away__captain",
            "away__vice_captain",
            "venue",
            "division",
            "season__league",
        )
        .order_by("id")
    )
    site = settings.SITE_URL.rstrip("/")
    sent = 0
    for fixture in fixtures:
        for team in (fixture.home, fixture.away):
            for user in (team.captain, team.vice_captain):
                email = (getattr(user, "email", "") or "").strip().lower()
                if "@" not in email:
                    continue
                body = render_to_string(
                    "leagues/email/reminder.txt",
                    {"fixture": fixture, "team": team, "user": user, "site": site},
                )
                sent += send_once(
                    kind=SentNotification.Kind.REMINDER,
                    recipient=email,
                    subject=f"Tomorrow: {fixture.home.name} v {fixture.away.name}",
                    body=body,
                    fixture=fixture,
                    now=now,
                )
    return sent


# ------------------------------------------------------------------- player statistics

STAT_FIELDS = ("won", "shared", "score", "opponent_score", "has_shots", "game_id", "values")


@transaction.atomic
def player_frame_stats_replace(
    *, fixture: Fixture, frame_number: int, lines: list[dict], source_seq: int = 0
) -> list[PlayerFrameStat]:
    """Replace the players' lines for one frame of a fixture (written by `frames.stats`
    from the shot log, as a result is written onto its fixture). Each line is a dict with
    player_id, side ("home"/"away"), doubles, and STAT_FIELDS (`values`: the statistics the
    game declares, name → number)."""
    teams = {"home": fixture.home_id, "away": fixture.away_id}
    new = []
    for line in lines:
        side = line["side"]
        if side not in teams:
            raise DomainError("bad_value", f"{side!r} is not a side.", field="side")
        values = line.get("values") or {}
        if not all(
            isinstance(k, str) and isinstance(v, int | float) and not isinstance(v, bool)
            for k, v in values.items()
        ):
            raise DomainError("bad_value", "Statistics are numbers by name.", field="values")
        new.append(
            PlayerFrameStat(
                season_id=fixture.season_id,
                division_id=fixture.division_id,
                fixture=fixture,
                frame_number=frame_number,
                player_id=line["player_id"],
                team_id=teams[side],
                side=side,
                doubles=bool(line.get("doubles")),
                played_on=line.get("played_on") or fixture.date,
                source_seq=source_seq,
                **{k: line[k] for k in STAT_FIELDS if k in line},
            )
        )
    PlayerFrameStat.objects.filter(fixture=fixture, frame_number=frame_number).delete()
    return PlayerFrameStat.objects.bulk_create(new)


MAX_DIVISIONS = 20


def _division_names(divisions: Iterable[str]) -> list[str]:
    names = [" ".join((d or "").split()) for d in divisions or []]
    names = [n for n in names if n]
    if not names:
        raise DomainError(
            "no_divisions", "Give the season at least one division.", field="divisions"
        )
    if len(names) > MAX_DIVISIONS:
        raise DomainError(
            "too_many_divisions",
            f"A season has at most {MAX_DIVISIONS} divisions.",
            field="divisions",
        )
    if too_long := [n for n in names if len(n) > 60]:
        raise DomainError(
            "bad_division", f"“{too_long[0][:60]}…” is too long (60 letters).", field="divisions"
        )
    seen: set[str] = set()
    for name in names:
        if name.lower() in seen:
            raise DomainError("duplicate_division", f"“{name}” is named twice.", field="divisions")
        seen.add(name.lower())
    return names


@transaction.atomic
def season_create(
    *,
    league: League,
    actor: Actor,
    name: str,
    slug: str = "",
    game_id: str,
    game_options: dict | None = None,
    start_date: date | None = None,
    divisions: list[str],
    match_format_preset: str = "",
) -> Season:
    """A new season of `league` with its divisions (ranked in the order given), playing
    `game_id` with `game_options`, and optionally a match-format preset (the default
    format otherwise). The season opens for registration."""
    require(
        actor,
        "leagues.manage_league",
        league,
        code="not_secretary",
        message="Only the league's secretary starts a season.",
    )
    name = " ".join((name or "").split())
    if not name or len(name) > 60:
        raise DomainError("bad_name", "Give the season a name (at most 60 letters).", field="name")
    slug_field = "slug" if (slug or "").strip() else "name"
    slug = slugify((slug or "").strip() or name)[:60].strip("-")
    if not slug:
        raise DomainError(
            "bad_slug", "The season's address needs letters or digits.", field=slug_field
        )
    if Season.objects.filter(league=league, slug=slug).exists():
        raise DomainError(
            "slug_taken",
            f"The league already has a season at “{slug}”: choose another name or address.",
            field=slug_field,
        )
    try:
        game_id = registry.get(game_id or "").id
    except registry.UnknownGame as exc:
        raise DomainError("unknown_game", exc.message, field="game_id") from None
    names = _division_names(divisions)
    if match_format_preset and match_format_preset not in PRESETS:
        raise DomainError(
            "unknown_preset",
            f"No preset is called {match_format_preset!r}: choose one of {', '.join(PRESETS)}.",
            field="match_format_preset",
        )
    season = Season(
        league=league,
        name=name,
        slug=slug,
        start_date=start_date,
        game_id=game_id,
        game_options=game_options if game_options is not None else {},
    )
    if match_format_preset:
        season.match_format = parse_format(PRESETS[match_format_preset]).to_json()
    try:
        season.clean()
    except ValidationError as exc:
        field, problems = next(iter(exc.message_dict.items()))
        raise DomainError("bad_game_options", problems[0], field=field) from None
    season.save()
    Division.objects.bulk_create(
        Division(season=season, name=div, rank=rank) for rank, div in enumerate(names, start=1)
    )
    return season


@transaction.atomic
def division_add(*, season: Season, actor: Actor, name: str) -> Division:
    """One more division of `season`, ranked below its others."""
    require(
        actor,
        "leagues.manage_league",
        season,
        code="not_secretary",
        message="Only the league's secretary adds a division.",
    )
    name = " ".join((name or "").split())
    if not name or len(name) > 60:
        raise DomainError(
            "bad_name", "Give the division a name (at most 60 letters).", field="name"
        )
    existing = list(Division.objects.select_for_update().filter(season=season))
    if any(d.name.lower() == name.lower() for d in existing):
        raise DomainError("duplicate_division", f"“{name}” is already a division.", field="name")
    if len(existing) >= MAX_DIVISIONS:
        raise DomainError(
            "too_many_divisions", f"A season has at most {MAX_DIVISIONS} divisions.", field="name"
        )
    return Division.objects.create(
        season=season, name=name, rank=max((d.rank for d in existing), default=0) + 1
    )
