"""Ranking series (docs/series.md): a run of events (a Grand Prix of six opens) scored by
round reached or placing, weighted by event, each player's best N counting.

A `Series` belongs to a league or to an organisation (a county). Its `SeriesEvent`s are
competitions of the competitions app (a finished singles or pairs event gives each
player's placing from its bracket) or events run off-system, whose placings the
secretary enters (`SeriesResult`). A series may be for a category (ladies, over-N,
under-N by date of birth on a given date), checked when a player enters one of its
events.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from django.db import models
from django.db.models import Q
from django.urls import reverse

from competitions.models import Competition
from leagues.models import League, Organisation, Player

from . import standings as calc


class Series(models.Model):
    class Basis(models.TextChoices):
        ROUND = calc.ROUND, "Points by round reached"
        PLACING = calc.PLACING, "Points by placing"

    class Category(models.TextChoices):
        OPEN = "open", "Open"
        LADIES = "ladies", "Ladies"
        OVER = "over", "Over an age"
        UNDER = "under", "Under an age"

    league = models.ForeignKey(
        League, null=True, blank=True, on_delete=models.CASCADE, related_name="series"
    )
    organisation = models.ForeignKey(
        Organisation, null=True, blank=True, on_delete=models.CASCADE, related_name="series"
    )
    name = models.CharField(max_length=120)
    game_id = models.CharField(max_length=40, blank=True)
    season = models.CharField(max_length=40, help_text="The season or year, e.g. 2026/27.")
    best_n = models.PositiveSmallIntegerField(
        default=4, help_text="How many of each player's best results count."
    )
    basis = models.CharField(max_length=8, choices=Basis.choices, default=Basis.ROUND)
    points_table = models.JSONField(
        default=list,
        help_text="Points by round reached (winner first) or by placing (1st first).",
    )
    appearance_points = models.DecimalField(
        max_digits=6,
        decimal_places=2,
        default=Decimal(0),
        help_text="Points for a result beyond the table (playing, and going out early).",
    )
    category = models.CharField(max_length=8, choices=Category.choices, default=Category.OPEN)
    category_age = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="The age of an over- or under-age category."
    )
    age_on = models.DateField(
        null=True,
        blank=True,
        help_text="The day ages are reckoned on; blank: the day a player enters.",
    )
    tie_breakers = models.JSONField(
        default=list, help_text="The tie-breakers, in order (then the place is shared)."
    )
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["-created_at", "name"]
        verbose_name_plural = "series"
        constraints = [
            models.CheckConstraint(
                condition=Q(league__isnull=False, organisation__isnull=True)
                | Q(league__isnull=True, organisation__isnull=False),
                name="series_of_a_league_or_an_organisation",
            ),
            models.CheckConstraint(condition=Q(best_n__gte=1), name="series_best_n_positive"),
            models.CheckConstraint(
                condition=Q(category__in=["open", "ladies"]) | Q(category_age__isnull=False),
                name="series_age_category_has_an_age",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("series-detail", args=[self.pk])

    @property
    def owner(self) -> League | Organisation:
        owner = self.league if self.league_id is not None else self.organisation
        assert owner is not None
        return owner

    @property
    def category_name(self) -> str:
        """'Open', 'Ladies', 'Over 50s', 'Under 30s'."""
        if self.category == self.Category.OVER:
            return f"Over {self.category_age}s"
        if self.category == self.Category.UNDER:
            return f"Under {self.category_age}s"
        return self.get_category_display()

    @property
    def rules(self) -> calc.Rules:
        return calc.Rules(
            best_n=self.best_n,
            basis=self.basis,
            table=tuple(Decimal(str(p)) for p in self.points_table),
            appearance=Decimal(self.appearance_points),
            tie_breakers=tuple(self.tie_breakers),
        )

    def age_reckoned_on(self, entered_on: date) -> date:
        return self.age_on or entered_on


class SeriesEvent(models.Model):
    """One event of a series: a competition of the competitions app, or an event run
    off-system whose placings the secretary enters."""

    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="events")
    number = models.PositiveSmallIntegerField(help_text="Its order in the series: 1, 2, …")
    name = models.CharField(max_length=120)
    date = models.DateField(null=True, blank=True)
    weight = models.DecimalField(
        max_digits=4,
        decimal_places=2,
        default=Decimal("1.00"),
        help_text="Its points are multiplied by this (1.5 for a major).",
    )
    competition = models.ForeignKey(
        Competition,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="series_events",
        help_text="The competition it is; blank: an event run off-system.",
    )
    complete = models.BooleanField(
        default=False,
        help_text="An off-system event's placings are all in (a competition's event is "
        "complete when the competition finishes).",
    )

    class Meta:
        ordering = ["series", "number"]
        constraints = [
            models.UniqueConstraint(fields=["series", "number"], name="series_event_number_once"),
            models.UniqueConstraint(
                fields=["series", "competition"],
                condition=Q(competition__isnull=False),
                name="series_competition_once",
            ),
            models.CheckConstraint(condition=Q(weight__gt=0), name="series_event_weight_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.series}: {self.name}"

    @property
    def played(self) -> bool:
        if self.competition_id is not None:
            assert self.competition is not None
            return self.competition.stage == Competition.Stage.FINISHED
        return self.complete


class SeriesResult(models.Model):
    """A player's placing in an event run off-system (1 the winner; a round's losers
    share its best placing: both semi-finalists 3rd)."""

    event = models.ForeignKey(SeriesEvent, on_delete=models.CASCADE, related_name="results")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="series_results")
    placing = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["event", "placing", "player__name"]
        constraints = [
            models.UniqueConstraint(fields=["event", "player"], name="series_result_once"),
            models.CheckConstraint(condition=Q(placing__gte=1), name="series_placing_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.player} {self.placing} in {self.event}"
