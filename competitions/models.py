"""Competitions beside the league table: team cups and plates, singles, pairs, and
group-then-knock-out events (docs/competitions.md).

A `Competition` belongs to a season. Its `Entry`s are teams, players or pairs; the draw
(`competitions.draw`, a pure function of the entrants and a commit–reveal seed) places
them in the first `Round`'s `Tie`s (or in `Group`s first). A team tie is played as a real
league match (its `fixture`, a cup fixture with no division, through the usual match
night); an individual tie is best-of-N frames (`TieFrame`), scored on the pad or from
paper, and signed off. A confirmed tie's winner goes through to the next round.
"""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from typing import NamedTuple

from django.conf import settings
from django.db import models
from django.db.models import Q

from leagues.models import Fixture, Organisation, Player, Season, Team


class Competition(models.Model):
    class Kind(models.TextChoices):
        TEAM_KNOCKOUT = "team_knockout", "Team knock-out"
        SINGLES = "singles", "Singles knock-out"
        PAIRS = "pairs", "Pairs knock-out"
        GROUP_KNOCKOUT = "group_knockout", "Groups, then knock-out"

    class Entrant(models.TextChoices):
        TEAM = "team", "Teams"
        PLAYER = "player", "Players"
        PAIR = "pair", "Pairs"

    class EntryMode(models.TextChoices):
        SECRETARY = "secretary", "The secretary enters"
        OPEN = "open", "Players and captains enter until the closing date"

    class PlateRule(models.TextChoices):
        NONE = "none", "No plate"
        FIRST_ROUND_LOSERS = "first_round_losers", "First-round losers go to the plate"
        SECRETARY = "secretary", "The secretary enters the plate"

    class GroupOthers(models.TextChoices):
        OUT = "out", "Out"
        PLATE = "plate", "Into the plate"

    class HandicapRule(models.TextChoices):
        NONE = "none", "Level (no handicap)"
        FIXED = "fixed", "Starts set by the secretary"
        MOVING = "moving", "Starts moved after each result"

    class Stage(models.TextChoices):
        ENTRIES = "entries", "Taking entries"
        DRAWN = "drawn", "Drawn"
        KNOCKOUT = "knockout", "Knock-out drawn"
        FINISHED = "finished", "Finished"

    class SettleBy(models.TextChoices):
        FRAMES = "frames", "Frames won (level on frames: the aggregate)"
        AGGREGATE = "aggregate", "Aggregate score over all frames (level: frames won)"

    # A competition belongs to one league's season, or to an organisation above leagues
    # (a county), drawing entrants from its member leagues: exactly one of the two.
    season = models.ForeignKey(
        Season, null=True, blank=True, on_delete=models.CASCADE, related_name="competitions"
    )
    organisation = models.ForeignKey(
        Organisation,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="competitions",
    )
    game_id = models.CharField(
        max_length=40,
        blank=True,
        help_text="The game it plays: an organisation's competition names it; a season's "
        "plays the season's.",
    )
    settle_by = models.CharField(
        max_length=10,
        choices=SettleBy.choices,
        default=SettleBy.FRAMES,
        help_text="How a team tie is settled: frames won, or aggregate score over all frames "
        "('on total scores made').",
    )
    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=60)
    kind = models.CharField(max_length=16, choices=Kind.choices)
    entrant = models.CharField(
        max_length=8,
        choices=Entrant.choices,
        help_text="Who enters: teams (team knock-out), players (singles) or pairs; a group "
        "event's entrants are players or pairs.",
    )
    best_of = models.PositiveSmallIntegerField(
        default=3, help_text="Frames of an individual knock-out tie (best of N, N odd)."
    )
    final_best_of = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Frames of the final, when longer (e.g. best of 5)."
    )
    group_race_to = models.PositiveSmallIntegerField(
        default=2, help_text="A group match is a race to this many frames."
    )
    group_size = models.PositiveSmallIntegerField(null=True, blank=True)
    group_qualifiers = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="How many of each group go through to the knock-out."
    )
    group_others = models.CharField(
        max_length=8, choices=GroupOthers.choices, default=GroupOthers.OUT
    )
    plate_rule = models.CharField(max_length=20, choices=PlateRule.choices, default=PlateRule.NONE)
    plate = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="feeders",
        help_text="The competition first-round losers (or a group's others) go into.",
    )
    entry_mode = models.CharField(
        max_length=10, choices=EntryMode.choices, default=EntryMode.SECRETARY
    )
    entries_close_at = models.DateTimeField(null=True, blank=True)
    fee = models.DecimalField(max_digits=6, decimal_places=2, default=Decimal("0"))
    # Eligibility (docs/competitions.md): registered this season; a label the secretary
    # names ("ladies", "over 50s") enforced by the list of eligible players; cup-tied.
    require_registered = models.BooleanField(default=True)
    eligibility_label = models.CharField(max_length=60, blank=True)
    eligible_players = models.ManyToManyField(Player, blank=True, related_name="+")
    cup_tied = models.BooleanField(
        default=True, help_text="A player may play for only one team in this team event."
    )
    handicap_rule = models.CharField(
        max_length=8, choices=HandicapRule.choices, default=HandicapRule.NONE
    )
    handicap_step = models.PositiveSmallIntegerField(
        default=5, help_text="Points a frame a moving start changes by after each result."
    )
    handicap_min = models.IntegerField(default=-100)
    handicap_max = models.IntegerField(default=100)
    stage = models.CharField(max_length=10, choices=Stage.choices, default=Stage.ENTRIES)
    # The draw's commit–reveal seed (the secretary's and the server's secrets).
    secretary_commitment = models.CharField(max_length=64, blank=True)
    server_commitment = models.CharField(max_length=64, blank=True)
    secretary_secret = models.CharField(max_length=128, blank=True)
    server_secret = models.CharField(max_length=128, blank=True)
    seed = models.BigIntegerField(null=True, blank=True)
    algorithm = models.CharField(max_length=40, blank=True)
    draw_record = models.JSONField(
        default=dict, blank=True, help_text="The draw's inputs and result, to replay it."
    )
    drawn_at = models.DateTimeField(null=True, blank=True)
    knockout_seed = models.BigIntegerField(null=True, blank=True)
    # A group event's knock-out has its own commit–reveal, made once the groups are
    # decided: the group draw's secrets are public by then.
    knockout_secretary_commitment = models.CharField(max_length=64, blank=True)
    knockout_server_commitment = models.CharField(max_length=64, blank=True)
    knockout_secretary_secret = models.CharField(max_length=128, blank=True)
    knockout_server_secret = models.CharField(max_length=128, blank=True)
    winner = models.ForeignKey(
        "Entry", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    runner_up = models.ForeignKey(
        "Entry", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    finished_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["season", "organisation", "name"]
        constraints = [
            models.UniqueConstraint(
                fields=["season", "slug"], name="competition_slug_unique_in_season"
            ),
            models.UniqueConstraint(
                fields=["organisation", "slug"],
                condition=Q(organisation__isnull=False),
                name="competition_slug_unique_in_organisation",
            ),
            models.CheckConstraint(
                condition=Q(season__isnull=False, organisation__isnull=True)
                | Q(season__isnull=True, organisation__isnull=False),
                name="competition_of_a_season_or_an_organisation",
            ),
            models.CheckConstraint(
                condition=Q(best_of__gte=1) & Q(group_race_to__gte=1),
                name="competition_frames_positive",
            ),
            models.CheckConstraint(condition=Q(fee__gte=0), name="competition_fee_not_negative"),
            models.CheckConstraint(
                condition=Q(handicap_min__lte=models.F("handicap_max")),
                name="competition_handicap_bounds",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def league(self):
        """The league it belongs to; None for an organisation's competition."""
        return self.season.league if self.season is not None else None

    @property
    def owner_name(self) -> str:
        """Whose competition it is, for pages: the season's or the organisation's name."""
        if self.organisation_id is not None:
            return self.organisation.name  # type: ignore[union-attr]
        return str(self.season)

    @property
    def game_name(self) -> str:
        """The name of the game its ties are played at ('Bar billiards (4-pin)')."""
        from rules import registry

        try:
            return registry.get(self.played_game_id).name
        except registry.UnknownGame:
            return self.played_game_id

    @property
    def played_game_id(self) -> str:
        """The game its ties are played at."""
        if self.season is not None:
            return self.season.game_id
        return self.game_id

    @property
    def is_team_event(self) -> bool:
        return self.entrant == self.Entrant.TEAM

    @property
    def has_groups(self) -> bool:
        return self.kind == self.Kind.GROUP_KNOCKOUT


class Entry(models.Model):
    """A team, a player or a pair in one competition."""

    class Status(models.TextChoices):
        ENTERED = "entered", "Entered"
        WITHDRAWN = "withdrawn", "Withdrawn"

    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="entries")
    team = models.ForeignKey(
        Team, null=True, blank=True, on_delete=models.CASCADE, related_name="cup_entries"
    )
    player = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.CASCADE, related_name="cup_entries"
    )
    partner = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ENTERED)
    start = models.IntegerField(
        default=0, help_text="Handicap: points a frame this entrant starts on."
    )
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    entered_at = models.DateTimeField()
    withdrawn_at = models.DateTimeField(null=True, blank=True)
    source = models.CharField(
        max_length=120,
        blank=True,
        help_text="How the entry came, e.g. 'lost in round 1 of the Cup'.",
    )

    class Meta:
        ordering = ["competition", "id"]
        verbose_name_plural = "entries"
        constraints = [
            models.UniqueConstraint(
                fields=["competition", "team"],
                condition=Q(team__isnull=False),
                name="team_enters_once",
            ),
            models.UniqueConstraint(
                fields=["competition", "player"],
                condition=Q(player__isnull=False),
                name="player_enters_once",
            ),
            models.CheckConstraint(
                condition=Q(team__isnull=False, player__isnull=True, partner__isnull=True)
                | Q(team__isnull=True, player__isnull=False),
                name="entry_is_a_team_a_player_or_a_pair",
            ),
            models.CheckConstraint(
                condition=Q(partner__isnull=True) | ~Q(partner=models.F("player")),
                name="pair_of_two_players",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    # The fee, read from the league's ledger (`money.LedgerEntry.cup_entry`, related name
    # `fee_lines`: the charge raised when the entry was made, payments against it,
    # reversals). Prefetch `fee_lines` to read many entries in one query.
    @property
    def fee_owed(self) -> int | None:
        """Pence still owed on the entry's fee; None when no fee was charged."""
        lines = list(self.fee_lines.all())
        if not any(line.kind == "cup_entry" for line in lines):
            return None
        return sum(line.amount for line in lines)

    @property
    def paid(self) -> bool:
        """The entry's fee was charged and is settled (a free entry is not "paid")."""
        owed = self.fee_owed
        return owed is not None and owed <= 0

    @property
    def paid_at(self) -> datetime | None:
        """When the fee was settled: the last payment on it, if it is settled."""
        if not self.paid:
            return None
        times = [line.created_at for line in self.fee_lines.all() if line.amount < 0]
        return max(times) if times else None

    @property
    def name(self) -> str:
        if self.team is not None:
            return self.team.name
        if self.player is not None and self.partner is not None:
            return f"{self.player.public_name} & {self.partner.public_name}"
        return self.player.public_name if self.player is not None else f"Entry {self.pk}"


class Round(models.Model):
    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=60)
    date = models.DateField(null=True, blank=True, help_text="The night the round is played.")
    deadline = models.DateTimeField(
        null=True, blank=True, help_text="Ties not played by then may be awarded."
    )
    best_of = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Frames of an individual tie in this round."
    )

    class Meta:
        ordering = ["competition", "number"]
        constraints = [
            models.UniqueConstraint(fields=["competition", "number"], name="round_number_once"),
        ]

    def __str__(self) -> str:
        return f"{self.competition}: {self.name}"


class Group(models.Model):
    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="groups")
    number = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=30)
    deadline = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["competition", "number"]
        constraints = [
            models.UniqueConstraint(fields=["competition", "number"], name="group_number_once"),
        ]

    def __str__(self) -> str:
        return f"{self.competition}: {self.name}"


class GroupMember(models.Model):
    """An entry's place in its group: drawn order, and its lot (drawn from the seed at
    the draw, the last tie-breaker: lower wins)."""

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="members")
    entry = models.OneToOneField(Entry, on_delete=models.CASCADE, related_name="group_member")
    position = models.PositiveSmallIntegerField()
    lot = models.PositiveIntegerField()

    class Meta:
        ordering = ["group", "position"]
        constraints = [
            models.UniqueConstraint(fields=["group", "position"], name="group_position_once"),
        ]

    def __str__(self) -> str:
        return f"{self.entry} in {self.group}"


class TieResult(NamedTuple):
    """Frames won (a shared frame of a team match is half each) and aggregate score."""

    home_frames: Decimal | None
    away_frames: Decimal | None
    home_score: int | None
    away_score: int | None


class Tie(models.Model):
    """One tie: of a knock-out round (`round`, `slot`) or a group match (`group`). Its result
    is not stored on it: a team tie's is its cup fixture's, an individual tie's its frames'
    (`result`)."""

    class Status(models.TextChoices):
        PENDING = "pending", "Waiting for its entrants"
        SCHEDULED = "scheduled", "To be played"
        PLAYED = "played", "Played"
        AWARDED = "awarded", "Awarded"
        WALKOVER = "walkover", "Walkover"
        WITHDRAWN = "withdrawn", "Withdrawal"
        BYE = "bye", "Bye"

    DECIDED = ("played", "awarded", "walkover", "withdrawn", "bye")

    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="ties")
    round = models.ForeignKey(
        Round, null=True, blank=True, on_delete=models.CASCADE, related_name="ties"
    )
    group = models.ForeignKey(
        Group, null=True, blank=True, on_delete=models.CASCADE, related_name="ties"
    )
    slot = models.PositiveSmallIntegerField(help_text="1, 2, … within the round or group.")
    home = models.ForeignKey(
        Entry, null=True, blank=True, on_delete=models.PROTECT, related_name="home_ties"
    )
    away = models.ForeignKey(
        Entry, null=True, blank=True, on_delete=models.PROTECT, related_name="away_ties"
    )
    bye = models.BooleanField(default=False, help_text="The home entrant goes through unopposed.")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    winner = models.ForeignKey(
        Entry, null=True, blank=True, on_delete=models.PROTECT, related_name="won_ties"
    )
    award_reason = models.CharField(max_length=200, blank=True)
    best_of = models.PositiveSmallIntegerField(null=True, blank=True)
    race_to = models.PositiveSmallIntegerField(null=True, blank=True)
    home_start = models.IntegerField(default=0)
    away_start = models.IntegerField(default=0)
    fixture = models.OneToOneField(
        Fixture, null=True, blank=True, on_delete=models.SET_NULL, related_name="cup_tie"
    )
    home_confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    away_confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["competition", "round__number", "group__number", "slot"]
        constraints = [
            models.CheckConstraint(
                condition=Q(round__isnull=False, group__isnull=True)
                | Q(round__isnull=True, group__isnull=False),
                name="tie_of_a_round_or_a_group",
            ),
            models.UniqueConstraint(
                fields=["round", "slot"], condition=Q(round__isnull=False), name="tie_slot_once"
            ),
            models.UniqueConstraint(
                fields=["group", "slot"],
                condition=Q(group__isnull=False),
                name="group_tie_slot_once",
            ),
            models.CheckConstraint(
                condition=Q(status="played")
                | Q(status="bye")
                | Q(status="pending")
                | Q(status="scheduled")
                | ~Q(award_reason=""),
                name="tie_award_has_reason",
            ),
            models.CheckConstraint(
                condition=Q(home__isnull=True) | Q(away__isnull=True) | ~Q(home=models.F("away")),
                name="tie_two_entrants",
            ),
        ]

    def __str__(self) -> str:
        home = self.home.name if self.home is not None else "?"
        away = "bye" if self.bye else (self.away.name if self.away is not None else "?")
        return f"{home} v {away}"

    @property
    def decided(self) -> bool:
        return self.status in self.DECIDED

    @property
    def result(self) -> TieResult:
        """The tie's result, read where it is stored: a team tie's on its cup fixture, an
        individual tie's in its frames (frames won, aggregate score; nothing until a frame
        has a winner). `selectors.with_result` adds the frames' sums to a queryset, so a
        page of ties reads them in its own query; without them, the (prefetched) frames."""
        if self.fixture_id is not None:
            f = self.fixture
            assert f is not None
            return TieResult(f.home_frames, f.away_frames, f.home_score, f.away_score)
        won = getattr(self, "won_frames", None)
        if won is not None:
            sums = tuple(
                getattr(self, n) for n in ("home_won", "away_won", "home_total", "away_total")
            )
        else:
            frames = [tf for tf in self.frames.all() if tf.winner in ("home", "away")]
            won = len(frames)
            sums = (
                sum(1 for tf in frames if tf.winner == "home"),
                sum(1 for tf in frames if tf.winner == "away"),
                sum(tf.home_score or 0 for tf in frames),
                sum(tf.away_score or 0 for tf in frames),
            )
        if not won:
            return TieResult(None, None, None, None)
        return TieResult(Decimal(sums[0]), Decimal(sums[1]), sums[2] or 0, sums[3] or 0)

    @property
    def home_frames(self) -> Decimal | None:
        return self.result.home_frames

    @property
    def away_frames(self) -> Decimal | None:
        return self.result.away_frames

    @property
    def home_score(self) -> int | None:
        return self.result.home_score

    @property
    def away_score(self) -> int | None:
        return self.result.away_score

    @property
    def season(self):
        return self.competition.season


class TieFrame(models.Model):
    """One frame of an individual tie: its score from paper, or the pad's frame."""

    tie = models.ForeignKey(Tie, on_delete=models.CASCADE, related_name="frames")
    number = models.PositiveSmallIntegerField()
    frame = models.OneToOneField(
        "frames.Frame", null=True, blank=True, on_delete=models.SET_NULL, related_name="cup_frame"
    )
    home_score = models.IntegerField(null=True, blank=True)
    away_score = models.IntegerField(null=True, blank=True)
    winner = models.CharField(max_length=4, blank=True, help_text="home, away, or blank.")
    source = models.CharField(max_length=10, blank=True, help_text="'pad' or 'paper'.")

    class Meta:
        ordering = ["tie", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tie", "number"], name="tie_frame_once"),
        ]

    def __str__(self) -> str:
        return f"Frame {self.number} of {self.tie}"


class CompetitionLog(models.Model):
    """Every step of a competition: entries, the draw, awards, walkovers, results."""

    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="log")
    tie = models.ForeignKey(
        Tie, null=True, blank=True, on_delete=models.CASCADE, related_name="log"
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    action = models.CharField(max_length=40)
    detail = models.JSONField(default=dict, blank=True)
    at = models.DateTimeField()

    class Meta:
        ordering = ["at", "id"]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.action}"
