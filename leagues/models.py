"""The league: seasons, divisions, venues, teams, players, registrations and fixtures.

Constraints live in the database first (the drafted-player rule is a conditional unique
index), then in the sub-domains' `services.py` (teams, fixtures, seasons, tables), which
perform every write.
"""

from __future__ import annotations

import secrets
from decimal import Decimal

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.urls import reverse

from leagues import links
from marker.formats import FormatError, default_format, effective_format, parse_format
from marker.formats import MatchFormat as MatchFormatSpec
from marker.jobs import Job
from marker.tracked import Fixed, Tracked, TrackedManager
from marker.versions import EVERYTHING
from rules import registry
from rules.registry import default_game_id
from rules.validate import validate_setup
from rules.vocabulary import RuleError


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
    town = models.CharField(
        max_length=80,
        blank=True,
        help_text="Where the league plays, as people would search for it (the league list's "
        "search looks at the name and the town).",
    )
    game_id = models.CharField(
        max_length=60,
        default=default_game_id,
        help_text="The game a new season of this league plays (the rules engine's game id).",
    )
    match_night = models.PositiveSmallIntegerField(choices=Weekday.choices, default=Weekday.TUESDAY)
    confirm_after_hours = models.PositiveSmallIntegerField(
        default=48, help_text="A match result is confirmed automatically after this many hours."
    )
    no_card_after_hours = models.PositiveSmallIntegerField(
        default=48,
        help_text="A fixture with neither a confirmed result nor a photo of its signed card "
        "this many hours after its date shows 'No card received' and its captains are "
        "reminded (docs/paper-card.md).",
    )
    provisional_frames = models.PositiveSmallIntegerField(
        default=10,
        help_text="A player's rating counts as provisional until they have played this many "
        "rated frames.",
    )

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("league-home", args=[self.slug])

    def clean(self) -> None:
        """A league's address may not be one of the site's own paths (`/admin/`, `/api/`)."""
        if self.slug in links.reserved_slugs():
            raise ValidationError({"slug": f"“{self.slug}” is one of Marker's own addresses."})


class LeagueRole(models.Model):
    """An officer of one league (docs/tenancy.md). A secretary manages everything of the
    league, officers included; a results secretary its results, fixtures and disputes; a
    competitions secretary its competitions. A site administrator (`is_superuser`) needs
    no role."""

    class Role(models.TextChoices):
        SECRETARY = "secretary", "Secretary"
        RESULTS_SECRETARY = "results_secretary", "Results secretary"
        COMPETITIONS_SECRETARY = "competitions_secretary", "Competitions secretary"
        # The league's money (the `money` app): fees, fines, payments, statements.
        TREASURER = "treasurer", "Treasurer"

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="roles")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="league_roles"
    )
    role = models.CharField(max_length=24, choices=Role.choices)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["league", "role", "user_id"]
        constraints = [
            models.UniqueConstraint(
                fields=["league", "user", "role"], name="league_role_once_per_user"
            ),
        ]
        indexes = [models.Index(fields=["user", "league"], name="league_role_user")]

    def __str__(self) -> str:
        return f"{self.user} — {self.get_role_display()} of {self.league}"


#: Rankings (docs/ratings.md): the rated frames in the last twelve months a player needs
#: to be ranked, unless an organisation sets its own (the site-wide ranking uses this).
DEFAULT_RANKING_MIN_FRAMES = 10
MAX_RANKING_MIN_FRAMES = 1000


class Organisation(models.Model):
    """A county or association above leagues (docs/organisations.md): its officers run
    competitions, ranking series and rankings that draw on its member leagues, each entrant
    eligible by its own league's registrations."""

    class Kind(models.TextChoices):
        COUNTY = "county", "County association"
        ASSOCIATION = "association", "Association"

    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=60, unique=True)
    kind = models.CharField(max_length=12, choices=Kind.choices, default=Kind.COUNTY)
    about = models.TextField(blank=True)
    leagues = models.ManyToManyField(League, blank=True, related_name="organisations")
    # Its rankings (docs/ratings.md, *Rankings*): who is ranked, in which games.
    ranking_min_frames = models.PositiveSmallIntegerField(
        default=DEFAULT_RANKING_MIN_FRAMES,
        validators=[MinValueValidator(1), MaxValueValidator(MAX_RANKING_MIN_FRAMES)],
        help_text="Rated frames in its member leagues in the last twelve months a player "
        "needs to be ranked.",
    )
    ranked_games = models.JSONField(
        default=list,
        blank=True,
        help_text="The games it ranks (ids); empty: every game its member leagues play.",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.CheckConstraint(
                condition=Q(ranking_min_frames__gte=1),
                name="organisation_ranks_from_one_frame",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("organisation-home", args=[self.slug])


class OrganisationRole(models.Model):
    """An officer of an organisation: its secretary runs everything of it (competitions,
    series, rankings, members); a competitions officer its competitions, series and
    ranking rules."""

    class Role(models.TextChoices):
        SECRETARY = "secretary", "Secretary"
        COMPETITIONS_OFFICER = "competitions_officer", "Competitions officer"

    organisation = models.ForeignKey(Organisation, on_delete=models.CASCADE, related_name="roles")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="organisation_roles"
    )
    role = models.CharField(max_length=24, choices=Role.choices)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["organisation", "role", "user_id"]
        constraints = [
            models.UniqueConstraint(
                fields=["organisation", "user", "role"], name="organisation_role_once_per_user"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} — {self.get_role_display()} of {self.organisation}"


#: The largest score a frame may be given (on paper, or when settled), and the largest
#: aggregate awarded for a match: real scores are thousands, and a match of nine frames at
#: the bound still fits the integer columns (2³¹ − 1) several times over.
MAX_FRAME_SCORE = 1_000_000
MAX_MATCH_SCORE = 10 * MAX_FRAME_SCORE

#: The tie-breakers a season may choose from, in the words the table uses to explain itself.
TIE_BREAKERS: dict[str, str] = {
    "points": "points",
    "frames_won": "frames won",
    "frame_difference": "frame difference",
    "aggregate": "aggregate score",
    "head_to_head": "head-to-head",
}
#: One point per frame won; then frames won, aggregate score, head-to-head.
DEFAULT_TIE_BREAKERS: tuple[str, ...] = ("points", "frames_won", "aggregate", "head_to_head")


def default_tie_breakers() -> list[str]:
    return list(DEFAULT_TIE_BREAKERS)


def validate_tie_breakers(value) -> None:
    """An ordered, non-empty list of distinct keys of TIE_BREAKERS."""
    if not isinstance(value, list) or not value:
        raise ValidationError("Choose at least one tie-breaker, as a list.", code="tie_breakers")
    unknown = [key for key in value if key not in TIE_BREAKERS]
    if unknown:
        raise ValidationError(
            f"Unknown tie-breaker(s): {', '.join(map(str, unknown))}; choose from "
            f"{', '.join(TIE_BREAKERS)}.",
            code="tie_breakers",
        )
    if len(set(value)) != len(value):
        raise ValidationError("Each tie-breaker may appear once.", code="tie_breakers")


def validate_match_format(value: object) -> None:
    """A stored match format must check (marker.formats lists every problem)."""
    try:
        parse_format(value)
    except FormatError as exc:
        raise ValidationError([f"{field}: {message}" for field, message in exc.problems]) from None


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
    game_id = models.CharField(
        max_length=60,
        default=default_game_id,
        help_text="The game every frame of this season is played in (the rules engine's id).",
    )
    rules_version = models.PositiveSmallIntegerField(
        default=1,
        help_text="The version of the game's rules the season plays (rules.registry): its "
        "frames are played and replayed under it.",
    )
    game_options = models.JSONField(
        default=dict,
        blank=True,
        help_text="The season's house rules: the game's own setup options where the league "
        "chooses (rules.house: e.g. a target score); the game's defaults otherwise.",
    )
    # The points scheme (docs/tables.md). A match's points for a side are
    # frames won × points_per_frame (a shared frame is half a frame)
    # + points_per_match_win / points_per_match_draw
    # + bonus_margin_points when it won by bonus_margin frames or more
    # + bonus_aggregate_points when its aggregate score was the higher.
    points_per_frame = models.DecimalField(max_digits=4, decimal_places=1, default=Decimal("1"))
    points_per_match_win = models.DecimalField(max_digits=4, decimal_places=1, default=Decimal("0"))
    points_per_match_draw = models.DecimalField(
        max_digits=4, decimal_places=1, default=Decimal("0")
    )
    bonus_margin = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="A match won by this many frames or more earns a bonus."
    )
    bonus_margin_points = models.DecimalField(max_digits=4, decimal_places=1, default=Decimal("1"))
    bonus_aggregate_points = models.DecimalField(
        max_digits=4,
        decimal_places=1,
        default=Decimal("0"),
        help_text="Points to the side with the higher aggregate score in a match.",
    )
    tie_breakers = models.JSONField(
        default=default_tie_breakers,
        validators=[validate_tie_breakers],
        help_text="Ordered keys from: " + ", ".join(TIE_BREAKERS) + ".",
    )
    match_format = models.JSONField(
        default=default_format,
        validators=[validate_match_format],
        help_text="The match format (docs/formats.md): sections, how players are put into "
        "frames, substitution, referees and points. A division may override it.",
    )
    rolled_from = models.OneToOneField(
        "self",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="rolled_into",
        help_text="The season this one was started from (season rollover); a season is "
        "rolled over once.",
    )

    class Meta:
        ordering = ["-start_date", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["league", "slug"], name="season_slug_unique_in_league"),
            models.CheckConstraint(
                condition=Q(points_per_frame__gte=0)
                & Q(points_per_match_win__gte=0)
                & Q(points_per_match_draw__gte=0)
                & Q(bonus_margin_points__gte=0)
                & Q(bonus_aggregate_points__gte=0),
                name="season_points_not_negative",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.league.name} {self.name}"

    def get_absolute_url(self) -> str:
        league = self._state.fields_cache.get("league")
        slug = league.slug if league is not None else links.league_slug(self.league_id)
        return reverse("season-detail", args=[slug, self.pk])

    def clean(self) -> None:
        """The game must be one the engine knows, at a version it knows, and its options
        ones that version accepts."""
        try:
            game = registry.get(self.game_id)
        except registry.UnknownGame as exc:
            raise ValidationError({"game_id": exc.message}) from None
        try:
            game = registry.get(self.game_id, self.rules_version)
        except registry.UnknownVersion as exc:
            raise ValidationError({"rules_version": exc.message}) from None
        if not isinstance(self.game_options, dict):
            raise ValidationError({"game_options": "Give the options as an object."})
        try:
            validate_setup(game, self.game_options)
        except RuleError as exc:
            raise ValidationError({"game_options": exc.message}) from None


class Division(models.Model):
    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="divisions")
    name = models.CharField(max_length=60)
    rank = models.PositiveSmallIntegerField(default=1, help_text="1 is the top division.")
    match_format = models.JSONField(
        null=True,
        blank=True,
        validators=[validate_match_format],
        help_text="This division's own match format; empty: the season's.",
    )

    class Meta:
        ordering = ["season", "rank", "name"]
        constraints = [
            models.UniqueConstraint(
                fields=["season", "name"], name="division_name_unique_in_season"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return links.season_url("division-detail", self.season_id, self.pk, obj=self)

    @property
    def format(self) -> MatchFormatSpec:
        """The format this division plays: its own, else its season's."""
        return effective_format(self.season.match_format, self.match_format)


class Venue(models.Model):
    name = models.CharField(max_length=120, unique=True)
    address = models.TextField(blank=True)
    tables = models.PositiveSmallIntegerField(
        default=1, help_text="Tables the venue has for the league's game."
    )
    # The public directory ("Where to play", docs/directory.md): where it is and what it
    # offers; its tables by game are `VenueTable`s, its league nights `VenueNight`s.
    town = models.CharField(max_length=80, blank=True)
    latitude = models.DecimalField(max_digits=8, decimal_places=5, null=True, blank=True)
    longitude = models.DecimalField(max_digits=8, decimal_places=5, null=True, blank=True)
    notes = models.TextField(
        max_length=1000, blank=True, help_text="Public notes: parking, steps, food."
    )

    class Meta:
        ordering = ["name"]
        constraints = [
            models.CheckConstraint(condition=Q(tables__gte=1), name="venue_has_a_table"),
            models.CheckConstraint(
                condition=(Q(latitude__isnull=True) & Q(longitude__isnull=True))
                | (
                    Q(latitude__gte=-90)
                    & Q(latitude__lte=90)
                    & Q(longitude__gte=-180)
                    & Q(longitude__lte=180)
                ),
                name="venue_coordinates_both_and_on_earth",
            ),
        ]
        indexes = [models.Index(fields=["town"], name="venue_town")]

    def __str__(self) -> str:
        return self.name


def initials_of(name: str) -> str:
    """What a player who asked not to be named is shown as.

    >>> initials_of("Nora Nobbs"), initials_of("jean-luc  picard"), initials_of("")
    ('N. N.', 'J. L. P.', 'Player')
    """
    parts = [p for p in (name or "").replace("-", " ").split() if p[:1].isalpha()]
    return " ".join(f"{p[0].upper()}." for p in parts) or "Player"


def public_name_of(name: str, private: bool) -> str:
    """A player's public name from its parts (for reads that select columns, not rows)."""
    return initials_of(name) if private else name


class Player(Tracked, models.Model):
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
    private_name = models.BooleanField(
        default=False,
        help_text="The player asked not to be named publicly: public pages show their "
        "initials; they and the league's officers still see the full name.",
    )
    erased_number = models.PositiveIntegerField(
        null=True,
        blank=True,
        unique=True,
        help_text="Set when the person was erased: their name is now 'Former player N'.",
    )
    # Private: only an age category's entry is checked against them (docs/series.md). Shown
    # to the player and the league's officers, never on a public page or the public API;
    # in the person's export, wiped by their erasure.
    date_of_birth = models.DateField(
        null=True,
        blank=True,
        help_text="Optional: checked when entering an age category (over-50s, under-30s).",
    )
    plays_ladies = models.BooleanField(
        default=False,
        help_text="The player's own declaration that ladies' events are theirs to enter.",
    )

    tracking = Fixed(EVERYTHING)  # a write moves every live version (frames.live)
    objects = TrackedManager()

    class Meta:
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("player-detail", args=[self.pk])

    @property
    def initials(self) -> str:
        return initials_of(self.name)

    @property
    def public_name(self) -> str:
        """The name every public page, the API's public reads and the exports show: the
        initials of a player who asked not to be named, else the name (an erased person's
        name is already 'Former player N')."""
        return public_name_of(self.name, self.private_name)

    @property
    def is_erased(self) -> bool:
        return self.erased_number is not None


class Team(Tracked, models.Model):
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
    previous = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="The same team's entry in the season this one was rolled over from.",
    )
    vice_captain = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="vice_captained_teams",
    )

    tracking = Fixed(EVERYTHING)  # a write moves every live version (frames.live)
    objects = TrackedManager()

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
        return links.season_url("team-detail", self.season_id, self.pk, obj=self)

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
        # Copied from last season's roster by a rollover: on the roster once a captain or
        # the secretary confirms it (rule 8 counts only active registrations).
        PENDING = "pending", "Awaiting confirmation"

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


class PersonErasure(models.Model):
    """The record that a person was erased: who did it and when, never the old name.

    The player's row stays (results, frames, statistics and ratings hang on it) under
    the name 'Former player N', N being `number`."""

    player = models.OneToOneField(Player, on_delete=models.PROTECT, related_name="erasure")
    number = models.PositiveIntegerField(unique=True)
    league = models.ForeignKey(
        League,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="The league whose secretary asked for it (none: the site administrator).",
    )
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    at = models.DateTimeField()

    class Meta:
        ordering = ["-at", "-id"]

    def __str__(self) -> str:
        return f"Former player {self.number} (erased {self.at:%d %b %Y})"


class Invitation(models.Model):
    """An invitation by email, with a new account when the person has none: a captain's,
    to join a team's roster (`team`, `name`), or a league's, to become one of its officers
    (`league`, `role`; a new league's first secretary is invited by a site administrator)."""

    class Kind(models.TextChoices):
        ROSTER = "roster", "Team roster"
        OFFICER = "officer", "League officer"

    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.ROSTER)
    team = models.ForeignKey(
        Team, null=True, blank=True, on_delete=models.CASCADE, related_name="invitations"
    )
    name = models.CharField(max_length=120, blank=True)
    league = models.ForeignKey(
        League,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="officer_invitations",
    )
    role = models.CharField(max_length=24, choices=LeagueRole.Role.choices, blank=True)
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
        constraints = [
            models.CheckConstraint(
                condition=(
                    Q(kind="roster", team__isnull=False, league__isnull=True, role="")
                    | (Q(kind="officer", league__isnull=False, team__isnull=True) & ~Q(role=""))
                ),
                name="invitation_to_a_roster_or_an_office",
            ),
        ]

    def __str__(self) -> str:
        if self.kind == self.Kind.OFFICER:
            return f"{self.email} → {self.get_role_display()} of {self.league}"
        return f"{self.email} → {self.team}"

    def get_absolute_url(self) -> str:
        if self.kind == self.Kind.OFFICER:
            return reverse("officer-invitation-accept", args=[self.token])
        return reverse("invitation-accept", args=[self.token])


class Fixture(Tracked, models.Model):
    class Status(models.TextChoices):
        SCHEDULED = "scheduled", "Scheduled"
        POSTPONED = "postponed", "Postponed"
        PLAYED = "played", "Played"

    class Outcome(models.TextChoices):
        PLAYED = "played", "Played"
        WALKOVER = "walkover", "Walkover"
        CONCEDED = "conceded", "Conceded"

    class Kind(models.TextChoices):
        LEAGUE = "league", "League"
        CUP = "cup", "Cup tie"

    class Side(models.TextChoices):
        HOME = "home", "Home team"
        AWAY = "away", "Away team"

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="fixtures")
    # A cup tie's fixture (`kind` cup, written by the competitions app) has no division:
    # the tables, which count a division's fixtures, never see it.
    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.LEAGUE)
    division = models.ForeignKey(
        Division, null=True, blank=True, on_delete=models.CASCADE, related_name="fixtures"
    )
    round = models.PositiveSmallIntegerField()
    home = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="home_fixtures")
    away = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="away_fixtures")
    venue = models.ForeignKey(Venue, on_delete=models.PROTECT, related_name="fixtures")
    date = models.DateField(null=True, blank=True)
    original_date = models.DateField(null=True, blank=True)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.SCHEDULED)
    note = models.CharField(max_length=200, blank=True)
    # Which side asked for the postponement (blank: not said). A league's rule may fine
    # the side that postponed without a new date (the `money` app reads it).
    postponed_by = models.CharField(max_length=4, choices=Side.choices, blank=True)
    # The result, written by the match-night service once both captains confirm.
    home_frames = models.DecimalField(max_digits=4, decimal_places=1, null=True, blank=True)
    away_frames = models.DecimalField(max_digits=4, decimal_places=1, null=True, blank=True)
    home_score = models.IntegerField(null=True, blank=True)
    away_score = models.IntegerField(null=True, blank=True)
    result_confirmed_at = models.DateTimeField(null=True, blank=True)
    # Sections won (a level section is half each), for a format's points per section.
    home_sections = models.DecimalField(max_digits=4, decimal_places=1, null=True, blank=True)
    away_sections = models.DecimalField(max_digits=4, decimal_places=1, null=True, blank=True)
    # A walkover or conceded match is recorded by the secretary, with awarded frames and a
    # reason the table shows.
    outcome = models.CharField(max_length=10, choices=Outcome.choices, default=Outcome.PLAYED)
    outcome_reason = models.CharField(max_length=200, blank=True)

    tracking = Fixed(EVERYTHING)  # a write moves every live version (frames.live)
    objects = TrackedManager()

    class Meta:
        ordering = ["date", "division__rank", "id"]
        constraints = [
            models.CheckConstraint(condition=~Q(home=models.F("away")), name="fixture_two_teams"),
            models.CheckConstraint(
                condition=Q(kind="cup") | Q(division__isnull=False),
                name="league_fixture_has_division",
            ),
            models.CheckConstraint(
                condition=Q(outcome="played") | ~Q(outcome_reason=""),
                name="fixture_award_has_reason",
            ),
            models.UniqueConstraint(
                fields=["division", "home", "away"], name="fixture_pair_once_each_way"
            ),
        ]
        indexes = [
            models.Index(fields=["season", "date"]),
            models.Index(
                fields=["division", "result_confirmed_at"], name="fixture_division_results"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.home} v {self.away}"

    def get_absolute_url(self) -> str:
        return links.season_url("fixture-detail", self.season_id, self.pk, obj=self)

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


# ----------------------------------------------------------------------------- tables


class PointDeduction(models.Model):
    """Points taken from a team by the secretary, with the reason the table shows."""

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="deductions")
    points = models.DecimalField(max_digits=5, decimal_places=1)
    reason = models.CharField(max_length=200)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    at = models.DateTimeField()

    class Meta:
        ordering = ["at", "id"]
        constraints = [
            models.CheckConstraint(condition=Q(points__gt=0), name="deduction_points_positive"),
            models.CheckConstraint(condition=~Q(reason=""), name="deduction_has_reason"),
        ]

    def __str__(self) -> str:
        return f"−{self.points} {self.team}: {self.reason}"


class Publication(Job):
    """The secretary's request to publish a season's tables, and the job's progress.

    The row is the job's source of truth (outbox): the task claims it with a conditional
    UPDATE (queued → running, or running with a stale heartbeat → running), and a
    periodic sweeper re-queues rows whose heartbeat has gone stale, so a lost message or
    a killed worker costs latency, never a publication.
    """

    class State(models.TextChoices):
        QUEUED = "queued", "Queued"
        RUNNING = "running", "Running"
        DONE = "done", "Published"
        FAILED = "failed", "Failed"

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="publications")
    state = models.CharField(max_length=8, choices=State.choices, default=State.QUEUED)
    as_of = models.DateTimeField(help_text="Results confirmed up to this moment are included.")
    emails_sent = models.PositiveIntegerField(default=0)
    csv = models.TextField(blank=True, help_text="Every division's table, as CSV.")
    printable_html = models.TextField(blank=True, help_text="The printable page, as rendered.")

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["season"],
                condition=Q(state__in=["queued", "running"]),
                name="one_active_publication_per_season",
            ),
            models.CheckConstraint(condition=Q(progress__lte=100), name="publication_progress"),
        ]
        indexes = [models.Index(fields=["state", "heartbeat_at"], name="publication_sweep")]

    def __str__(self) -> str:
        return f"{self.season} tables as of {self.as_of:%d %b %Y %H:%M} ({self.state})"

    def get_absolute_url(self) -> str:
        return links.season_url("publication-detail", self.season_id, self.pk, obj=self)


class ImportJob(Job):
    """A large spreadsheet import run by a worker (docs/data.md): the rows it holds, and
    the job's progress. Claimed like a publication (queued → running by a conditional
    UPDATE, a stale heartbeat taken over); the rows are written all or nothing. The
    upload (`table`) is kept only while the job may still run: emptied when it ends."""

    class State(models.TextChoices):
        QUEUED = "queued", "Queued"
        RUNNING = "running", "Running"
        DONE = "done", "Imported"
        FAILED = "failed", "Not imported"

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="import_jobs")
    kind = models.CharField(max_length=20)
    filename = models.CharField(max_length=200, blank=True)
    table = models.JSONField(default=dict, blank=True, help_text="The rows, while the job runs.")
    mapping = models.JSONField(default=list, blank=True)
    rows = models.PositiveIntegerField(default=0)
    state = models.CharField(max_length=8, choices=State.choices, default=State.QUEUED)
    result = models.JSONField(
        default=dict, blank=True, help_text="Counts, changes and problems, once it ends."
    )

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["season"],
                condition=Q(state__in=["queued", "running"]),
                name="one_active_import_per_season",
            ),
            models.CheckConstraint(condition=Q(progress__lte=100), name="import_job_progress"),
        ]

    def __str__(self) -> str:
        return f"{self.season}: import of {self.filename or self.kind} ({self.state})"


class TableSnapshot(models.Model):
    """One division's published table: written once by the publishing job, never changed."""

    publication = models.ForeignKey(Publication, on_delete=models.PROTECT, related_name="snapshots")
    division = models.ForeignKey(Division, on_delete=models.CASCADE, related_name="snapshots")
    as_of = models.DateTimeField()
    rows = models.JSONField(help_text="The table's rows, positions and explanations.")
    notes = models.JSONField(default=list, help_text="Deductions, walkovers, concessions.")
    scheme = models.JSONField(default=dict, help_text="Points scheme and tie-breakers used.")
    html = models.TextField(help_text="The public table as rendered at publication.")
    csv = models.TextField()
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["division__rank", "-as_of"]
        constraints = [
            models.UniqueConstraint(
                fields=["publication", "division"], name="one_snapshot_per_division"
            ),
        ]
        indexes = [models.Index(fields=["division", "-as_of"], name="snapshot_latest")]

    def __str__(self) -> str:
        return f"{self.division} as of {self.as_of:%d %b %Y}"


class Subscription(models.Model):
    """Someone who asked to receive a league's tables by email when they are published."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="subscriptions")
    email = models.EmailField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    token = models.CharField(max_length=64, unique=True, default=secrets.token_urlsafe)
    active = models.BooleanField(default=True)
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["email"]
        constraints = [
            models.UniqueConstraint(fields=["league", "email"], name="subscribe_once_per_league"),
        ]

    def __str__(self) -> str:
        return f"{self.email} ({self.league})"


class SentNotification(models.Model):
    """An email sent once per key: the row is inserted, under a unique index, in the same
    transaction as the send, so a task run twice never mails anyone twice."""

    class Kind(models.TextChoices):
        REMINDER = "reminder", "Fixture reminder"
        TABLES = "tables", "Published tables"

    kind = models.CharField(max_length=10, choices=Kind.choices)
    fixture = models.ForeignKey(
        Fixture, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    publication = models.ForeignKey(
        Publication, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    recipient = models.EmailField()
    sent_at = models.DateTimeField()

    class Meta:
        ordering = ["-sent_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["kind", "fixture", "recipient"],
                condition=Q(fixture__isnull=False),
                name="notify_once_per_fixture",
            ),
            models.UniqueConstraint(
                fields=["kind", "publication", "recipient"],
                condition=Q(publication__isnull=False),
                name="notify_once_per_publication",
            ),
            models.CheckConstraint(
                condition=Q(fixture__isnull=False) | Q(publication__isnull=False),
                name="notification_has_subject",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} → {self.recipient}"


# ---------------------------------------------------------------- honours
# (A season's awards, defined from the statistics, are frames': `frames.models.Award`.)


class Honour(models.Model):
    """A line on the league's roll of honour: the winner or the runner-up of a division
    (from its final table, when the season finishes) or of a competition (when its final
    is confirmed). Kept after the season closes, and shown under the name the team (or
    the players) had when it was won (`name`), whatever they are called since."""

    class Kind(models.TextChoices):
        DIVISION = "division", "Division"
        COMPETITION = "competition", "Competition"
        AWARD = "award", "Award"

    class Position(models.TextChoices):
        WINNER = "winner", "Winner"
        RUNNER_UP = "runner_up", "Runner-up"

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="honours")
    season = models.ForeignKey(
        Season, null=True, blank=True, on_delete=models.SET_NULL, related_name="honours"
    )
    season_name = models.CharField(max_length=60, help_text="The season's name when won.")
    title = models.CharField(max_length=120, help_text="What was won: 'Premier Division', 'Cup'.")
    kind = models.CharField(max_length=12, choices=Kind.choices)
    source = models.CharField(
        max_length=60,
        help_text="What the honour was recorded from ('division:12', 'competition:5'): "
        "recording it again replaces it.",
    )
    position = models.CharField(max_length=10, choices=Position.choices)
    team = models.ForeignKey(
        Team, null=True, blank=True, on_delete=models.SET_NULL, related_name="honours"
    )
    players = models.ManyToManyField(Player, blank=True, related_name="honours")
    name = models.CharField(
        max_length=250, help_text="The team's (or the players') name when it was won."
    )
    detail = models.CharField(max_length=200, blank=True, help_text="'won the final 5–3'.")
    order = models.PositiveSmallIntegerField(default=0, help_text="Where it sits in its season.")
    recorded_at = models.DateTimeField()

    class Meta:
        ordering = ["-season_id", "order", "title", "position"]
        constraints = [
            models.UniqueConstraint(fields=["source", "position"], name="honour_once_per_source"),
            models.CheckConstraint(condition=~Q(name=""), name="honour_has_a_name"),
        ]
        indexes = [models.Index(fields=["league", "season"], name="honour_roll")]

    def __str__(self) -> str:
        return f"{self.season_name} {self.title}: {self.name} ({self.get_position_display()})"


# ---- calendar feeds
# A person's own calendar (docs/calendar.md): one private address per player, read by
# calendar apps without a login, so the token is the key. `people.calendar` assembles it.


def calendar_token() -> str:
    """A new private calendar token: 32 random bytes, URL-safe (43 characters)."""
    return secrets.token_urlsafe(32)


class CalendarFeed(models.Model):
    """A player's private calendar address. A player has at most one live address;
    revoking it (or erasing the person) stamps `revoked_at`, and the address answers 404
    from then on. The rows stay as the record of which addresses were handed out."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="calendar_feeds")
    token = models.CharField(max_length=64, unique=True, default=calendar_token)
    created_at = models.DateTimeField()
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["player"],
                condition=Q(revoked_at__isnull=True),
                name="one_live_calendar_feed_per_player",
            ),
            models.CheckConstraint(
                condition=Q(revoked_at__isnull=True) | Q(revoked_at__gte=models.F("created_at")),
                name="calendar_feed_revoked_after_created",
            ),
        ]

    def __str__(self) -> str:
        state = "revoked" if self.revoked_at else "live"
        return f"Calendar of {self.player} ({state})"

    @property
    def is_live(self) -> bool:
        return self.revoked_at is None


class CalendarEventVersion(models.Model):
    """What a calendar event looked like when a feed last served it, so an event keeps
    its UID across refreshes while its SEQUENCE and LAST-MODIFIED move when it changes
    (a fixture moved or postponed, a tie's night set). Keyed by the event's UID; holds a
    digest of the event, never its text."""

    uid = models.CharField(max_length=120, unique=True)
    digest = models.CharField(max_length=64)
    sequence = models.PositiveIntegerField(default=0)
    modified_at = models.DateTimeField()

    class Meta:
        ordering = ["uid"]

    def __str__(self) -> str:
        return f"{self.uid} #{self.sequence}"


# ---------------------------------------------------------------- availability
# (docs/availability.md: a captain asks the squad, players answer from a signed link or
# the app, match night starts its present list from the yeses.)


class AvailabilityAnswer(models.TextChoices):
    YES = "yes", "Yes"
    MAYBE = "maybe", "Maybe"
    NO = "no", "No"


class AvailabilityRequest(models.Model):
    """A captain's ask: "who is playing?", for one team's side of one fixture. Asked once
    (asking again reaches only players added since); chased at most once every 12 hours."""

    fixture = models.ForeignKey(
        Fixture, on_delete=models.CASCADE, related_name="availability_requests"
    )
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="availability_requests")
    asked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    asked_at = models.DateTimeField()
    answer_by = models.DateTimeField(help_text="Answer by: the day before the fixture at noon.")
    chased_at = models.DateTimeField(null=True, blank=True)
    chases = models.PositiveSmallIntegerField(default=0, help_text="How many times chased.")

    class Meta:
        ordering = ["fixture", "team"]
        constraints = [
            models.UniqueConstraint(fields=["fixture", "team"], name="availability_ask_once"),
            models.CheckConstraint(
                condition=Q(chases=0, chased_at__isnull=True)
                | Q(chases__gt=0, chased_at__isnull=False),
                name="availability_chase_has_time",
            ),
        ]

    def __str__(self) -> str:
        return f"Availability of {self.team} for {self.fixture}"


class Availability(models.Model):
    """A player's answer for one fixture and team: yes, maybe or no (with a short note),
    from their link, the app, their captain, or their away dates (always "no")."""

    class Via(models.TextChoices):
        LINK = "link", "Their link"
        APP = "app", "The app"
        CAPTAIN = "captain", "The captain"
        AWAY = "away", "Away dates"

    fixture = models.ForeignKey(Fixture, on_delete=models.CASCADE, related_name="availabilities")
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="availabilities")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="availabilities")
    answer = models.CharField(max_length=5, choices=AvailabilityAnswer.choices)
    note = models.CharField(max_length=140, blank=True)
    answered_at = models.DateTimeField()
    via = models.CharField(max_length=8, choices=Via.choices)

    class Meta:
        ordering = ["fixture", "team", "player__name"]
        constraints = [
            models.UniqueConstraint(
                fields=["fixture", "team", "player"], name="availability_one_answer"
            ),
            models.CheckConstraint(
                condition=Q(answer__in=["yes", "maybe", "no"]), name="availability_answer_known"
            ),
            models.CheckConstraint(
                condition=Q(via__in=["link", "app", "captain", "away"]),
                name="availability_via_known",
            ),
            models.CheckConstraint(
                condition=~Q(via="away") | Q(answer="no"), name="availability_away_is_no"
            ),
        ]
        indexes = [models.Index(fields=["player", "fixture"], name="availability_player")]

    def __str__(self) -> str:
        return f"{self.player}: {self.answer} for {self.fixture}"


class AvailabilityClosed(models.Model):
    """The fixture's match night opened (frames' `match_open` says so): its answers are
    final from `closed_at`."""

    fixture = models.OneToOneField(
        Fixture, on_delete=models.CASCADE, primary_key=True, related_name="availability_closed"
    )
    closed_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"Availability for {self.fixture} closed at {self.closed_at:%d %b %Y %H:%M}"


class AwayDates(models.Model):
    """Dates a player is away for the whole season: every fixture of theirs in the range is
    answered "no (away)" when their captain asks."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="away_dates")
    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="away_dates")
    start = models.DateField()
    end = models.DateField()
    note = models.CharField(max_length=140, blank=True)
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["player", "start", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(end__gte=models.F("start")), name="away_end_after_start"
            ),
        ]
        indexes = [models.Index(fields=["season", "player", "start"], name="away_dates_of_player")]

    def __str__(self) -> str:
        return f"{self.player} away {self.start:%d %b}–{self.end:%d %b %Y}"


# ---------------------------------------------------------------- site notices


class Notice(models.Model):
    """A notice shown on every page (planned maintenance, a league announcement): site-wide
    when `league` is empty (posted by a site administrator), else on the league's pages
    (posted by its secretary); the referee pad shows it too when online. Shown from
    `starts_at` until `ends_at` (open-ended when empty); ending one sets `ends_at`."""

    class Level(models.TextChoices):
        INFO = "info", "Information"
        WARNING = "warning", "Warning"

    league = models.ForeignKey(
        League, null=True, blank=True, on_delete=models.CASCADE, related_name="notices"
    )
    title = models.CharField(max_length=120)
    body = models.TextField(max_length=1000, blank=True)
    level = models.CharField(max_length=8, choices=Level.choices, default=Level.INFO)
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField(null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["-starts_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(ends_at__isnull=True) | Q(ends_at__gt=models.F("starts_at")),
                name="notice_ends_after_it_starts",
            ),
        ]
        indexes = [models.Index(fields=["league", "starts_at"], name="notice_league_start")]

    def __str__(self) -> str:
        return self.title


# ---- registration rules
# (Registration windows, notice, playing up and transfers: docs/eligibility.md. The one
# function that applies them is `leagues.eligibility`.)


class SeasonRegistrationRules(models.Model):
    """A season's registration rules, as its handbook states them. No row, or empty
    fields, means no such rule: only rule 8 (one team a season) applies."""

    class Penalty(models.TextChoices):
        FORFEIT_FRAME = "forfeit_frame", "The frame is forfeited to the opponents"

    season = models.OneToOneField(
        Season, on_delete=models.CASCADE, related_name="registration_rules"
    )
    registrations_open = models.DateField(
        null=True, blank=True, help_text="No registration before this day."
    )
    registrations_close = models.DateField(
        null=True, blank=True, help_text="No new registration from this day on."
    )
    close_at_first_match_after = models.DateField(
        null=True,
        blank=True,
        help_text="No new registration from the season's first match on or after this day "
        "(1 January: 'no new registrations after the first match of the New Year').",
    )
    min_notice_days = models.PositiveSmallIntegerField(
        default=0,
        help_text="A newly registered player may play only this many days after registering "
        "(0: at once).",
    )
    play_up_allowed = models.BooleanField(
        default=False,
        help_text="A registered player may play for a team of the same club (home venue) "
        "in a higher division without leaving their own team.",
    )
    play_up_cap = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="At most this many appearances for teams in a higher division (empty: no cap).",
    )
    play_up_divisions = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="How many divisions above their own count as 'higher' (1: only the "
        "division directly above; empty: every division above).",
    )
    transfers_allowed = models.BooleanField(default=True)
    transfers_only_while_open = models.BooleanField(
        default=False, help_text="Transfers only while registrations are open."
    )
    transfers_need_approval = models.BooleanField(
        default=False, help_text="A transfer the rules allow still waits for the secretary."
    )
    penalty = models.CharField(
        max_length=16, choices=Penalty.choices, default=Penalty.FORFEIT_FRAME
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name_plural = "season registration rules"
        constraints = [
            models.CheckConstraint(
                condition=Q(registrations_open__isnull=True)
                | Q(registrations_close__isnull=True)
                | Q(registrations_open__lt=models.F("registrations_close")),
                name="registration_window_opens_before_it_closes",
            ),
            models.CheckConstraint(
                condition=Q(play_up_divisions__isnull=True) | Q(play_up_divisions__gte=1),
                name="play_up_at_least_one_division",
            ),
        ]

    def __str__(self) -> str:
        return f"Registration rules of {self.season}"


class Transfer(models.Model):
    """A request to move a player from one team's roster to another's this season,
    decided by the season's rules, or waiting for the secretary's approval."""

    class Status(models.TextChoices):
        PENDING = "pending", "Awaiting the secretary"
        APPROVED = "approved", "Approved"
        REFUSED = "refused", "Refused"

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="transfers")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="transfers")
    from_team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="transfers_out")
    to_team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="transfers_in")
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    reason = models.CharField(max_length=300, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    rule = models.CharField(max_length=40, blank=True, help_text="The rule that decided it.")
    rule_message = models.CharField(max_length=300, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=~Q(from_team=models.F("to_team")), name="transfer_between_two_teams"
            ),
            models.UniqueConstraint(
                fields=["player", "season"],
                condition=Q(status="pending"),
                name="one_pending_transfer_per_player",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player}: {self.from_team} → {self.to_team} ({self.status})"


class PlayUp(models.Model):
    """One appearance of a player for a team of their club in a higher division than
    their own (a fixture in which they played a frame for it)."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="play_ups")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="play_ups")
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="play_ups")
    fixture = models.ForeignKey(Fixture, on_delete=models.CASCADE, related_name="play_ups")
    at = models.DateTimeField()

    class Meta:
        ordering = ["at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["player", "fixture"], name="play_up_once_a_fixture"),
        ]
        indexes = [models.Index(fields=["season", "player"], name="play_up_count")]

    def __str__(self) -> str:
        return f"{self.player} up for {self.team}"


class EligibilityLog(models.Model):
    """Every step of the registration rules: a refusal, a transfer requested, decided or
    applied, a frame flagged at sign-off and the secretary's decision on it (who, when,
    which rule)."""

    class Action(models.TextChoices):
        TRANSFER_REQUESTED = "transfer_requested", "Transfer requested"
        TRANSFER_PENDING = "transfer_pending", "Transfer awaits the secretary"
        TRANSFER_APPROVED = "transfer_approved", "Transfer approved"
        TRANSFER_REFUSED = "transfer_refused", "Transfer refused"
        FORFEIT_APPLIED = "forfeit_applied", "Frame forfeited"
        FORFEIT_WAIVED = "forfeit_waived", "Forfeit waived"
        RULES_CHANGED = "rules_changed", "Rules changed"

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="eligibility_log")
    action = models.CharField(max_length=20, choices=Action.choices)
    player = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    team = models.ForeignKey(
        Team, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    transfer = models.ForeignKey(
        Transfer, null=True, blank=True, on_delete=models.CASCADE, related_name="log"
    )
    fixture = models.ForeignKey(
        Fixture, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    frame_number = models.PositiveSmallIntegerField(null=True, blank=True)
    rule = models.CharField(max_length=40, blank=True)
    message = models.CharField(max_length=400, blank=True)
    note = models.CharField(max_length=500, blank=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    at = models.DateTimeField()

    class Meta:
        ordering = ["-at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["fixture", "frame_number", "player"],
                condition=Q(action__in=["forfeit_applied", "forfeit_waived"]),
                name="one_decision_per_ineligible_frame",
            ),
        ]
        indexes = [models.Index(fields=["season", "-at"], name="eligibility_log_season")]

    def __str__(self) -> str:
        return f"{self.get_action_display()}: {self.rule} ({self.at:%d %b %Y})"


# ---- the directory ("Where to play", docs/directory.md)


class VenueTable(models.Model):
    """The tables a venue has for one game ("Bar billiards, 2 tables, one in the back
    room"); the game is the rules engine's id."""

    venue = models.ForeignKey(Venue, on_delete=models.CASCADE, related_name="game_tables")
    game_id = models.CharField(max_length=60)
    count = models.PositiveSmallIntegerField(default=1)
    notes = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["venue", "game_id"]
        constraints = [
            models.UniqueConstraint(fields=["venue", "game_id"], name="venue_table_once_per_game"),
            models.CheckConstraint(
                condition=Q(count__gte=1) & Q(count__lte=50), name="venue_table_count_1_to_50"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.venue}: {self.count} × {self.game_id}"


class VenueNight(models.Model):
    """A night the venue hosts league play (or opens its tables), with its time and a
    line of text ("Doors 7pm, first frame 7.30pm")."""

    venue = models.ForeignKey(Venue, on_delete=models.CASCADE, related_name="nights")
    weekday = models.PositiveSmallIntegerField(choices=Weekday.choices)
    starts_at = models.TimeField(null=True, blank=True)
    note = models.CharField(max_length=120, blank=True)

    class Meta:
        ordering = ["venue", "weekday", "starts_at"]
        constraints = [
            models.UniqueConstraint(fields=["venue", "weekday"], name="venue_night_once_a_day"),
        ]

    def __str__(self) -> str:
        return f"{self.venue}: {self.get_weekday_display()}"


class DirectoryPost(models.Model):
    """A "Join a team" post (a captain, for their team) or a "Looking for a team" post (a
    signed-in player), in a league: its secretary publishes or refuses it; it vanishes
    from the public lists at `expires_at` (by query; a daily task marks it expired), or
    when its author withdraws it."""

    class Kind(models.TextChoices):
        JOIN_TEAM = "join_team", "Join a team"
        LOOKING = "looking_for_team", "Looking for a team"

    class Status(models.TextChoices):
        PENDING = "pending", "Waiting for the secretary"
        PUBLISHED = "published", "Published"
        REFUSED = "refused", "Refused"
        WITHDRAWN = "withdrawn", "Withdrawn"
        EXPIRED = "expired", "Expired"

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="directory_posts")
    kind = models.CharField(max_length=16, choices=Kind.choices)
    team = models.ForeignKey(
        Team, null=True, blank=True, on_delete=models.CASCADE, related_name="directory_posts"
    )
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="directory_posts"
    )
    title = models.CharField(max_length=120)
    body = models.TextField(max_length=2000, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    refusal_reason = models.CharField(max_length=300, blank=True)
    moderated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    moderated_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField()
    expires_at = models.DateTimeField()

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=(Q(kind="join_team") & Q(team__isnull=False))
                | (Q(kind="looking_for_team") & Q(team__isnull=True)),
                name="directory_post_team_iff_join_team",
            ),
            models.CheckConstraint(
                condition=Q(expires_at__gt=models.F("created_at")),
                name="directory_post_expires_after_created",
            ),
            models.CheckConstraint(
                condition=~Q(status="refused") | ~Q(refusal_reason=""),
                name="directory_post_refusal_has_reason",
            ),
        ]
        indexes = [
            models.Index(fields=["status", "expires_at"], name="directory_post_live"),
            models.Index(fields=["league", "status"], name="directory_post_league"),
        ]

    def __str__(self) -> str:
        return self.title

    def get_absolute_url(self) -> str:
        return reverse("directory-post", args=[self.pk])


class PostConversation(models.Model):
    """One person's exchange with a post's author, on the site: neither sees the other's
    email address."""

    post = models.ForeignKey(DirectoryPost, on_delete=models.CASCADE, related_name="conversations")
    answerer = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="post_conversations"
    )
    created_at = models.DateTimeField()
    last_message_at = models.DateTimeField()

    class Meta:
        ordering = ["-last_message_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["post", "answerer"], name="post_conversation_once_per_answerer"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.post} — {self.answerer_id}"

    def get_absolute_url(self) -> str:
        return reverse("directory-conversation", args=[self.pk])


class PostMessage(models.Model):
    conversation = models.ForeignKey(
        PostConversation, on_delete=models.CASCADE, related_name="messages"
    )
    sender = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    body = models.TextField(max_length=2000)
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["conversation", "created_at", "id"]

    def __str__(self) -> str:
        return f"{self.conversation_id}: {self.body[:40]}"
