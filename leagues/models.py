"""The league: seasons, divisions, venues, teams, players, registrations and fixtures.

Constraints live in the database first (the drafted-player rule is a conditional unique
index), then in `services.py`, which performs every write.
"""

from __future__ import annotations

import secrets
from decimal import Decimal

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse


class Weekday(models.IntegerChoices):
    MONDAY = 0, "Monday"
    TUESDAY = 1, "Tuesday"
    WEDNESDAY = 2, "Wednesday"
    THURSDAY = 3, "Thursday"
    FRIDAY = 4, "Friday"
    SATURDAY = 5, "Saturday"
    SUNDAY = 6, "Sunday"


class League(models.Model):
    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=60, unique=True)
    game_id = models.CharField(
        max_length=60,
        default="bar_billiards_4pin",
        help_text="The rules engine's game id for every frame of this league.",
    )
    match_night = models.PositiveSmallIntegerField(choices=Weekday.choices, default=Weekday.TUESDAY)
    confirm_after_hours = models.PositiveSmallIntegerField(
        default=48, help_text="A match result is confirmed automatically after this many hours."
    )

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Season(models.Model):
    class Status(models.TextChoices):
        REGISTRATION = "registration", "Open for registration"
        RUNNING = "running", "Running"
        FINISHED = "finished", "Finished"

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(max_length=60)
    slug = models.SlugField(max_length=60)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.REGISTRATION)
    start_date = models.DateField(null=True, blank=True)

    class Meta:
        ordering = ["-start_date", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["league", "slug"], name="season_slug_unique_in_league"),
        ]

    def __str__(self) -> str:
        return f"{self.league.name} {self.name}"

    def get_absolute_url(self) -> str:
        return reverse("season-detail", args=[self.pk])


class Division(models.Model):
    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="divisions")
    name = models.CharField(max_length=60)
    rank = models.PositiveSmallIntegerField(default=1, help_text="1 is the top division.")

    class Meta:
        ordering = ["season", "rank", "name"]
        constraints = [
            models.UniqueConstraint(fields=["season", "name"], name="division_name_unique_in_season"),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("division-detail", args=[self.pk])


class Venue(models.Model):
    name = models.CharField(max_length=120, unique=True)
    address = models.TextField(blank=True)
    tables = models.PositiveSmallIntegerField(default=1, help_text="Bar billiards tables.")

    class Meta:
        ordering = ["name"]
        constraints = [
            models.CheckConstraint(condition=Q(tables__gte=1), name="venue_has_a_table"),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("venue-detail", args=[self.pk])


class Player(models.Model):
    """A person who plays (and may referee). Linked to a login when they have one."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="player",
    )
    name = models.CharField(max_length=120)
    email = models.EmailField(blank=True)

    class Meta:
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("player-detail", args=[self.pk])


class Team(models.Model):
    """A team's entry in one season: its division, home venue, captain and vice-captain."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="teams")
    division = models.ForeignKey(
        Division, null=True, blank=True, on_delete=models.SET_NULL, related_name="teams"
    )
    name = models.CharField(max_length=120)
    venue = models.ForeignKey(Venue, on_delete=models.PROTECT, related_name="teams")
    captain = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="captained_teams",
    )
    vice_captain = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="vice_captained_teams",
    )

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["season", "name"], name="team_name_unique_in_season"),
            models.CheckConstraint(
                condition=Q(captain__isnull=True)
                | Q(vice_captain__isnull=True)
                | ~Q(captain=models.F("vice_captain")),
                name="team_captain_is_not_vice_captain",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("team-detail", args=[self.pk])

    def is_captain(self, user) -> bool:
        return bool(user and user.is_authenticated) and user.pk in (
            self.captain_id,
            self.vice_captain_id,
        )


class Registration(models.Model):
    """A player's registration with a team for a season (rule 8: one team a season).

    The unique index covers every active registration and every registration of a player
    who has played: a player who has played for one team can never play for another that
    season, and nobody is on two rosters at once.
    """

    class Kind(models.TextChoices):
        REGISTERED = "registered", "Registered"
        DRAFTED = "drafted", "Drafted"

    class Status(models.TextChoices):
        ACTIVE = "active", "On the roster"
        REMOVED = "removed", "Removed"

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="registrations")
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="registrations")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="registrations")
    kind = models.CharField(max_length=12, choices=Kind.choices, default=Kind.REGISTERED)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.ACTIVE)
    first_played_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    removed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["player__name"]
        constraints = [
            models.UniqueConstraint(
                fields=["player", "season"],
                condition=Q(status="active") | Q(first_played_at__isnull=False),
                name="one_team_per_player_per_season",
                violation_error_message="This player already plays for another team this season.",
            ),
        ]
        indexes = [models.Index(fields=["team", "status"])]

    def __str__(self) -> str:
        return f"{self.player} ({self.team})"


class Invitation(models.Model):
    """A captain's invitation, by email, to join a team's roster and make an account."""

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="invitations")
    name = models.CharField(max_length=120)
    email = models.EmailField()
    token = models.CharField(max_length=64, unique=True, default=secrets.token_urlsafe)
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    accepted_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.email} → {self.team}"

    def get_absolute_url(self) -> str:
        return reverse("invitation-accept", args=[self.token])


class Fixture(models.Model):
    class Status(models.TextChoices):
        SCHEDULED = "scheduled", "Scheduled"
        POSTPONED = "postponed", "Postponed"
        PLAYED = "played", "Played"

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="fixtures")
    division = models.ForeignKey(Division, on_delete=models.CASCADE, related_name="fixtures")
    round = models.PositiveSmallIntegerField()
    home = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="home_fixtures")
    away = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="away_fixtures")
    venue = models.ForeignKey(Venue, on_delete=models.PROTECT, related_name="fixtures")
    date = models.DateField(null=True, blank=True)
    original_date = models.DateField(null=True, blank=True)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.SCHEDULED)
    note = models.CharField(max_length=200, blank=True)
    # The result, written by the match-night service once both captains confirm.
    home_frames = models.DecimalField(max_digits=4, decimal_places=1, null=True, blank=True)
    away_frames = models.DecimalField(max_digits=4, decimal_places=1, null=True, blank=True)
    home_score = models.PositiveIntegerField(null=True, blank=True)
    away_score = models.PositiveIntegerField(null=True, blank=True)
    result_confirmed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["date", "division__rank", "id"]
        constraints = [
            models.CheckConstraint(condition=~Q(home=models.F("away")), name="fixture_two_teams"),
            models.UniqueConstraint(
                fields=["division", "home", "away"], name="fixture_pair_once_each_way"
            ),
        ]
        indexes = [models.Index(fields=["season", "date"])]

    def __str__(self) -> str:
        return f"{self.home} v {self.away}"

    def get_absolute_url(self) -> str:
        return reverse("fixture-detail", args=[self.pk])

    @property
    def has_result(self) -> bool:
        return self.result_confirmed_at is not None

    @property
    def frames_display(self) -> str:
        def fmt(value: Decimal | None) -> str:
            if value is None:
                return "–"
            return f"{value.normalize():f}".replace(".5", "½")

        return f"{fmt(self.home_frames)}–{fmt(self.away_frames)}"
