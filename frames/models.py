"""Match nights: the draw, frames, shot events and scorecards.

A `Match` is the night of one league fixture. Its nine `Frame`s come from the draw. A
frame's shots are an append-only log of `FrameEvent`s: `UniqueConstraint(frame, seq)` and a
unique client `event_id` give optimistic concurrency (409) and idempotent retries; undo is
an event; nothing is updated or deleted. The frame keeps the engine's latest state as a
cache (`state`), rebuilt from the log whenever in doubt.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse

from frames.live import MATCH_NIGHT
from leagues.models import Division, Fixture, League, Player, Season, Team
from marker.formats import MatchFormat, effective_format
from marker.tracked import Tracked, TrackedManager
from rules.registry import default_game_id


class Side(models.TextChoices):
    HOME = "home", "Home"
    AWAY = "away", "Away"


SIDES = (Side.HOME.value, Side.AWAY.value)


def other_side(side: str) -> str:
    """The side that is not `side`."""
    return Side.AWAY if side == Side.HOME else Side.HOME


class Match(Tracked, models.Model):
    class Status(models.TextChoices):
        SETUP = "setup", "Squads being marked"
        DRAWN = "drawn", "Drawn"
        IN_PLAY = "in_play", "In play"
        COMPLETE = "complete", "Complete, awaiting confirmation"
        DISPUTED = "disputed", "Disputed"
        CONFIRMED = "confirmed", "Confirmed"

    fixture = models.OneToOneField(Fixture, on_delete=models.PROTECT, related_name="match")
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.SETUP)
    game_id = models.CharField(max_length=60, help_text="The season's game, fixed when opened.")
    match_format = models.JSONField(
        default=dict,
        blank=True,
        help_text="The division's match format, fixed when opened (empty: Norwich's).",
    )
    # Captains' nominations (blind or fixed order, docs/formats.md): kept server-side and
    # shown to nobody but their captain until both are in; each is committed to (SHA-256
    # of its canonical JSON and a salt) when submitted, so the reveal can be checked.
    home_nomination = models.JSONField(null=True, blank=True)
    away_nomination = models.JSONField(null=True, blank=True)
    home_nomination_salt = models.CharField(max_length=64, blank=True)
    away_nomination_salt = models.CharField(max_length=64, blank=True)
    home_nomination_commitment = models.CharField(max_length=64, blank=True)
    away_nomination_commitment = models.CharField(max_length=64, blank=True)
    # Commit–reveal seed: each party commits to a secret (SHA-256), then reveals it.
    home_commitment = models.CharField(max_length=64, blank=True)
    away_commitment = models.CharField(max_length=64, blank=True)
    server_commitment = models.CharField(max_length=64, blank=True)
    home_secret = models.CharField(max_length=128, blank=True)
    away_secret = models.CharField(max_length=128, blank=True)
    server_secret = models.CharField(max_length=128, blank=True)
    seed = models.BigIntegerField(null=True, blank=True)
    algorithm = models.CharField(max_length=40, blank=True)
    home_hat = models.JSONField(default=list, blank=True)
    away_hat = models.JSONField(default=list, blank=True)
    draw_notes = models.JSONField(default=list, blank=True)
    short_agreed_home = models.BooleanField(default=False)
    short_agreed_away = models.BooleanField(default=False)
    redraw_home_agreed = models.BooleanField(default=False)
    redraw_away_agreed = models.BooleanField(default=False)
    drawn_at = models.DateTimeField(null=True, blank=True)
    # Result: frames (a shared frame is half) and aggregate score, from the frames.
    home_frames = models.DecimalField(max_digits=4, decimal_places=1, default=0)
    away_frames = models.DecimalField(max_digits=4, decimal_places=1, default=0)
    home_score = models.IntegerField(default=0)
    away_score = models.IntegerField(default=0)
    completed_at = models.DateTimeField(null=True, blank=True)
    home_confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    home_confirmed_at = models.DateTimeField(null=True, blank=True)
    away_confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    away_confirmed_at = models.DateTimeField(null=True, blank=True)
    confirmed_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # A change to the order of play proposed by one captain, waiting for the other's
    # answer (rule 6: only with both captains' agreement).
    reorder_proposal = models.JSONField(
        default=list, blank=True, help_text="Frame numbers in the proposed order of play."
    )
    reorder_proposed_by = models.CharField(max_length=4, choices=Side.choices, blank=True)
    # The open dispute (a captain's reason), until the secretary settles it.
    disputed_by = models.CharField(max_length=4, choices=Side.choices, blank=True)
    dispute_reason = models.TextField(blank=True)
    disputed_at = models.DateTimeField(null=True, blank=True)

    tracking = MATCH_NIGHT  # writes move the live versions (frames.live)
    objects = TrackedManager()

    class Meta:
        verbose_name_plural = "matches"

    def __str__(self) -> str:
        return str(self.fixture)

    def get_absolute_url(self) -> str:
        return reverse("match-detail", args=[self.pk])

    def team(self, side: str) -> Team:
        return self.fixture.home if side == Side.HOME else self.fixture.away

    @property
    def format(self) -> MatchFormat:
        """The match format fixed when the match was opened (Norwich's when empty)."""
        return effective_format(self.match_format)


class MatchLog(models.Model):
    """Every step of a match night: who, what, when (the draw, reorders, confirmations)."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="log")
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    action = models.CharField(max_length=40)
    detail = models.JSONField(default=dict, blank=True)
    at = models.DateTimeField()

    class Meta:
        ordering = ["at", "id"]

    def __str__(self) -> str:
        return f"{self.at:%H:%M} {self.action}"

    @classmethod
    def add(cls, match: Match, actor: Any, action: str, at: datetime, **detail: Any) -> MatchLog:
        """Log a step (the system, or an anonymous actor, is logged as no one)."""
        return cls.objects.create(
            match=match,
            actor=actor if getattr(actor, "is_authenticated", False) else None,
            action=action,
            detail=detail,
            at=at,
        )


class Presence(Tracked, models.Model):
    """A player marked present for a side on the night (registered or drafted)."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="presences")
    side = models.CharField(max_length=4, choices=Side.choices)
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="presences")
    drafted = models.BooleanField(default=False)
    marked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    marked_at = models.DateTimeField()

    tracking = MATCH_NIGHT  # writes move the live versions (frames.live)
    objects = TrackedManager()

    class Meta:
        ordering = ["side", "player__name"]
        constraints = [
            models.UniqueConstraint(fields=["match", "player"], name="present_once_per_match"),
        ]

    def __str__(self) -> str:
        return f"{self.player} ({self.side})"


class Friendly(models.Model):
    """A game of anything outside a league: whoever started it names the game, the players
    and the options; its one frame is scored on the pad like a league frame (the same log,
    API and offline outbox), and anyone with the link can watch it live."""

    # Empty only in a league restored from a portable archive (no accounts): a cup tie's
    # frame keeps its shot log, scored by nobody's account.
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        on_delete=models.CASCADE,
        related_name="friendlies",
    )
    title = models.CharField(max_length=120, blank=True)
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return self.title or f"Friendly {self.pk}"

    def get_absolute_url(self) -> str:
        return reverse("friendly-detail", args=[self.pk])


class Frame(Tracked, models.Model):
    class Kind(models.TextChoices):
        SINGLES = "singles", "Singles"
        DOUBLES = "doubles", "Doubles"
        TRIPLES = "triples", "Triples"

    class Status(models.TextChoices):
        SCHEDULED = "scheduled", "Scheduled"
        IN_PLAY = "in_play", "In play"
        COMPLETE = "complete", "Complete"
        CONCEDED = "conceded", "Conceded"

    match = models.ForeignKey(
        Match, null=True, blank=True, on_delete=models.CASCADE, related_name="frames"
    )
    friendly = models.OneToOneField(
        Friendly, null=True, blank=True, on_delete=models.CASCADE, related_name="frame"
    )
    number = models.PositiveSmallIntegerField(
        help_text="Through the format's sections (Norwich: 1–6 singles, 7–9 doubles)."
    )
    order = models.PositiveSmallIntegerField(help_text="Order of play (changes only by agreement).")
    kind = models.CharField(max_length=8, choices=Kind.choices)
    game_id = models.CharField(max_length=60)
    rules_version = models.PositiveSmallIntegerField(
        default=1,
        help_text="The version of the game's rules the frame is played under; its log "
        "replays under this version for ever (docs/rules-governance.md).",
    )
    referee = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="refereed_frames"
    )
    referee_side = models.CharField(max_length=4, choices=Side.choices, blank=True)
    referee_note = models.CharField(max_length=200, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.SCHEDULED)
    conceded_by = models.CharField(
        max_length=4, blank=True, help_text="home, away, or blank; both sides can concede."
    )
    setup = models.JSONField(default=dict, help_text="The rules engine's setup for this frame.")
    parties = models.JSONField(
        default=dict,
        blank=True,
        help_text="Which side (home/away) each party of the engine's setup plays for.",
    )
    # The engine's latest state: `state` is Game.dump() (internal, loadable), `view` is
    # Game.view() (public). Both are caches of the log; `last_seq` is the log's head.
    state = models.JSONField(null=True, blank=True)
    view = models.JSONField(null=True, blank=True)
    last_seq = models.PositiveIntegerField(default=0)
    top_seq = models.PositiveIntegerField(
        default=0, help_text="The event whose state is current (0 = the initial state)."
    )
    # A league frame's result by side (a friendly game's parties' scores are in `view`).
    home_score = models.IntegerField(null=True, blank=True)
    away_score = models.IntegerField(null=True, blank=True)
    winner = models.CharField(max_length=4, blank=True)
    shared = models.BooleanField(default=False)
    result_source = models.CharField(
        max_length=10, blank=True, help_text="'pad' (shot by shot) or 'paper' (keyed in)."
    )
    started_at = models.DateTimeField(null=True, blank=True)
    completed_at = models.DateTimeField(null=True, blank=True)

    tracking = MATCH_NIGHT  # writes move the live versions (frames.live)
    objects = TrackedManager()

    class Meta:
        ordering = ["match", "order"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="frame_number_once"),
            models.UniqueConstraint(fields=["match", "order"], name="frame_order_once"),
            models.CheckConstraint(
                condition=Q(match__isnull=False, friendly__isnull=True)
                | Q(match__isnull=True, friendly__isnull=False),
                name="frame_of_a_match_or_a_friendly",
            ),
        ]

    def __str__(self) -> str:
        if self.friendly_id:
            return f"{self.friendly}"
        return f"Frame {self.number} of {self.match}"

    def get_absolute_url(self) -> str:
        return reverse("frame-pad", args=[self.pk])


class FramePlayer(Tracked, models.Model):
    """Who plays a frame for which side, in order (partners alternate visits in doubles)."""

    frame = models.ForeignKey(Frame, on_delete=models.CASCADE, related_name="players")
    side = models.CharField(max_length=4, choices=Side.choices)
    position = models.PositiveSmallIntegerField(default=1)
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="frame_slots")

    tracking = MATCH_NIGHT  # writes move the live versions (frames.live)
    objects = TrackedManager()

    class Meta:
        ordering = ["frame", "side", "position"]
        constraints = [
            models.UniqueConstraint(fields=["frame", "player"], name="player_once_per_frame"),
            models.UniqueConstraint(fields=["frame", "side", "position"], name="frame_slot_once"),
        ]

    def __str__(self) -> str:
        return f"{self.player} ({self.side})"


class FrameEvent(Tracked, models.Model):
    """One entry of a frame's append-only log: a game event, or an undo of the last one.

    `seq` runs 1, 2, 3… per frame with no gaps (the frame's `last_seq` advances by a
    conditional UPDATE in the same transaction). `top_after` is the seq of the event whose
    state is current after this entry (0 = initial), and `state_after` that state, so undo
    is one indexed read at any length of frame.
    """

    class Kind(models.TextChoices):
        EVENT = "event", "Game event"
        UNDO = "undo", "Undo"

    # No index of its own: the unique (frame, seq) index leads with the frame, and every
    # shot would pay for a second one.
    frame = models.ForeignKey(
        Frame, on_delete=models.PROTECT, related_name="events", db_index=False
    )
    seq = models.PositiveIntegerField()
    event_id = models.UUIDField(unique=True)
    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.EVENT)
    payload = models.JSONField(default=dict)
    schema_version = models.PositiveSmallIntegerField(default=1)
    top_before = models.PositiveIntegerField(default=0)
    top_after = models.PositiveIntegerField(default=0)
    state_after = models.JSONField(null=True, blank=True)
    view_after = models.JSONField(null=True, blank=True)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    device_id = models.CharField(max_length=64, blank=True)
    created_at = models.DateTimeField()

    tracking = MATCH_NIGHT  # writes move the live versions (frames.live)
    objects = TrackedManager()

    class Meta:
        ordering = ["frame", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["frame", "seq"], name="frame_event_seq_once"),
            models.CheckConstraint(condition=Q(seq__gte=1), name="frame_event_seq_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.frame_id}#{self.seq} {self.kind}"


# --------------------------------------------------------------------------- ratings


class Rating(models.Model):
    """A person's current rating in one game, across every league of the instance
    (OpenSkill's Plackett-Luce model: `frames.ratings.services`). Derived: rebuilt from
    the `RatingChange` history, which is rebuilt from confirmed frames."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="ratings")
    game_id = models.CharField(max_length=60)
    mu = models.FloatField(help_text="The estimated skill.")
    sigma = models.FloatField(help_text="The uncertainty of mu (one standard deviation).")
    ordinal = models.FloatField(help_text="The conservative rating: mu − 3σ.")
    frames = models.PositiveIntegerField(default=0, help_text="Rated frames so far.")
    last_played_on = models.DateField(null=True, blank=True)

    class Meta:
        ordering = ["game_id", "-ordinal", "player_id"]
        constraints = [
            models.UniqueConstraint(fields=["player", "game_id"], name="one_rating_per_game"),
        ]
        indexes = [models.Index(fields=["game_id", "-ordinal"], name="rating_game_rank")]

    def __str__(self) -> str:
        return f"{self.player_id} {self.game_id} {self.mu:.2f}±{self.sigma:.2f}"


class RatingChange(models.Model):
    """One person's rating after one rated frame (the history the chart draws and a
    recompute starts from). `seq` is the frame's place in its game's order of play
    (fixture date, fixture, frame order); the result fields are what was rated, so a
    frame corrected since is found by comparing them with the frame."""

    # Derived rows written 100,000 at a time: no foreign-key checks in the database (the
    # ORM still cascades) and no single-column indexes (the composite ones cover them).
    player = models.ForeignKey(
        Player,
        on_delete=models.CASCADE,
        related_name="rating_changes",
        db_constraint=False,
        db_index=False,
    )
    frame = models.ForeignKey(
        Frame,
        on_delete=models.CASCADE,
        related_name="rating_changes",
        db_constraint=False,
        db_index=False,
    )
    fixture = models.ForeignKey(
        Fixture, on_delete=models.CASCADE, related_name="+", db_constraint=False, db_index=False
    )
    league = models.ForeignKey(
        League, on_delete=models.CASCADE, related_name="+", db_constraint=False, db_index=False
    )
    game_id = models.CharField(max_length=60)
    seq = models.PositiveIntegerField()
    played_on = models.DateField()
    side = models.CharField(max_length=4, choices=Side.choices)
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField()
    delta = models.FloatField(help_text="The change of mu this frame made.")
    expected = models.FloatField(help_text="The side's chance of winning, before the frame.")
    frames = models.PositiveIntegerField(help_text="Rated frames so far, this one included.")
    winner = models.CharField(max_length=4, blank=True)
    shared = models.BooleanField(default=False)
    home_score = models.IntegerField(null=True, blank=True)
    away_score = models.IntegerField(null=True, blank=True)

    class Meta:
        ordering = ["game_id", "seq", "player_id"]
        constraints = [
            models.UniqueConstraint(fields=["frame", "player"], name="one_change_per_frame"),
        ]
        indexes = [
            models.Index(fields=["game_id", "played_on"], name="rating_change_cut"),
            models.Index(fields=["player", "game_id", "seq"], name="rating_change_history"),
            models.Index(fields=["league", "game_id", "player"], name="rating_change_league"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} after frame {self.frame_id}: {self.mu:.2f}"


class RatingRun(models.Model):
    """A recompute of one game's ratings from a date on (None: from scratch), and what it
    did. The row is the job's source of truth: the task claims it with a conditional
    UPDATE (queued → running, or running with a stale heartbeat → running); the beat
    sweeper re-queues stale rows and asks for runs the results need. A request while
    one is queued widens it (`since` goes back), so there is one queued run a game."""

    class State(models.TextChoices):
        QUEUED = "queued", "Queued"
        RUNNING = "running", "Running"
        DONE = "done", "Done"
        FAILED = "failed", "Failed"

    class Reason(models.TextChoices):
        CONFIRMATION = "confirmation", "a confirmed result"
        CORRECTION = "correction", "a correction"
        SETTLEMENT = "settlement", "a settlement"
        ERASURE = "erasure", "an erasure"
        HEAL = "heal", "a check of the results"
        REBUILD = "rebuild", "a rebuild"

    game_id = models.CharField(max_length=60)
    since = models.DateField(null=True, blank=True, help_text="Frames played from this day on.")
    reason = models.CharField(max_length=12, choices=Reason.choices)
    match = models.ForeignKey(
        Match, null=True, blank=True, on_delete=models.SET_NULL, related_name="rating_runs"
    )
    state = models.CharField(max_length=8, choices=State.choices, default=State.QUEUED)
    frames_replayed = models.PositiveIntegerField(default=0)
    players_changed = models.PositiveIntegerField(default=0)
    moved = models.JSONField(
        default=list,
        blank=True,
        help_text="The ids of the players whose μ, σ or rated frames this run changed.",
    )
    attempts = models.PositiveSmallIntegerField(default=0)
    error = models.TextField(blank=True)
    created_at = models.DateTimeField()
    started_at = models.DateTimeField(null=True, blank=True)
    heartbeat_at = models.DateTimeField()
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["game_id"],
                condition=Q(state="queued"),
                name="one_queued_rating_run_per_game",
            ),
        ]
        indexes = [models.Index(fields=["state", "heartbeat_at"], name="rating_run_sweep")]

    def __str__(self) -> str:
        return f"{self.game_id} since {self.since or 'the start'} ({self.state})"


class PlayerFrameStat(models.Model):
    """One player's line for one frame of a league match (or of a team cup tie).

    Derived from the frame's shot log by `frames.stats.record`, the way a match result is
    written onto its fixture: leaderboards, awards and the player page aggregate these
    rows in the database. `source_seq` is the log's head when the line was computed, so a
    stale line can be found and recomputed. The table keeps the name it had when the
    model lived in leagues (`leagues_playerframestat`).
    """

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="+")
    # None for a frame of a cup tie (its fixture has no division).
    division = models.ForeignKey(
        Division, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    fixture = models.ForeignKey(Fixture, on_delete=models.CASCADE, related_name="player_stats")
    frame_number = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="frame_stats")
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="+")
    side = models.CharField(max_length=4)
    doubles = models.BooleanField(default=False)
    played_on = models.DateField(null=True, blank=True)
    won = models.BooleanField(default=False)
    shared = models.BooleanField(default=False)
    score = models.IntegerField(default=0, help_text="The side's score in the frame.")
    opponent_score = models.IntegerField(default=0)
    has_shots = models.BooleanField(default=False, help_text="Scored shot by shot on the pad.")
    game_id = models.CharField(max_length=60, default=default_game_id)
    values = models.JSONField(
        default=dict,
        blank=True,
        help_text="The statistics the game declares (name → number), from the shot log.",
    )
    source_seq = models.PositiveIntegerField(default=0)

    class Meta:
        db_table = "leagues_playerframestat"
        ordering = ["fixture", "frame_number", "side"]
        constraints = [
            models.UniqueConstraint(
                fields=["fixture", "frame_number", "player"], name="one_line_per_player_frame"
            ),
            models.CheckConstraint(
                condition=~(Q(won=True) & Q(shared=True)), name="frame_line_won_or_shared"
            ),
        ]
        indexes = [
            models.Index(fields=["division", "player"], name="frame_stat_division"),
            models.Index(fields=["season", "player"], name="frame_stat_season"),
            models.Index(fields=["player", "played_on"], name="frame_stat_player_form"),
        ]

    def __str__(self) -> str:
        return f"{self.player} in frame {self.frame_number} of {self.fixture}"


class Award(models.Model):
    """A season award the secretary defines from the statistics, with its eligibility
    rules. Its standings are computed by the database on demand (`frames.stats.awards`).
    The table keeps the name it had when the model lived in leagues (`leagues_award`)."""

    class Measure(models.TextChoices):
        STAT = "stat", "A statistic the game declares (the best, or the most)"
        AT_LEAST = "at_least", "Frames in which a statistic reached a threshold"
        WIN_RATE = "win_rate", "Win rate"
        AVERAGE = "average", "Average score a frame"

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="awards")
    name = models.CharField(max_length=80)
    measure = models.CharField(max_length=10, choices=Measure.choices)
    stat = models.CharField(
        max_length=60, blank=True, help_text="The game's statistic (for 'stat' and 'at_least')."
    )
    threshold = models.PositiveIntegerField(
        null=True, blank=True, help_text="For 'at_least': the value a frame's statistic reaches."
    )
    min_fixtures_percent = models.PositiveSmallIntegerField(
        default=0, help_text="Eligible after playing in at least this share of the team's fixtures."
    )
    min_frames = models.PositiveSmallIntegerField(
        default=0, help_text="Eligible after at least this many frames."
    )
    order = models.PositiveSmallIntegerField(default=0)
    created_at = models.DateTimeField()

    class Meta:
        db_table = "leagues_award"
        ordering = ["season", "order", "id"]
        constraints = [
            models.UniqueConstraint(fields=["season", "name"], name="award_name_unique_in_season"),
            models.CheckConstraint(
                condition=Q(min_fixtures_percent__lte=100), name="award_percent_at_most_100"
            ),
            models.CheckConstraint(
                condition=~Q(measure__in=["stat", "at_least"]) | ~Q(stat=""),
                name="award_stat_named",
            ),
            models.CheckConstraint(
                condition=~Q(measure="at_least") | Q(threshold__isnull=False),
                name="award_threshold_set",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.season})"


# --------------------------------------------------------------------------- card photos


class CardPhoto(models.Model):
    """A photograph of the signed paper score card (front, back: several a match), as
    stored by `frames.matchnight.card_photos.card_photo_add`: re-encoded as JPEG without any
    metadata (no GPS), at most 2000 px a side, under an unguessable name in the default
    storage (the filesystem, or S3-compatible object storage), with a small thumbnail.
    Served only through a view that checks who may see it (docs/paper-card.md)."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="card_photos")
    image = models.FileField(max_length=200)
    thumbnail = models.FileField(max_length=200)
    width = models.PositiveIntegerField()
    height = models.PositiveIntegerField()
    size = models.PositiveIntegerField(help_text="The stored image's size in bytes.")
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    uploaded_at = models.DateTimeField()

    class Meta:
        ordering = ["match", "uploaded_at", "id"]
        indexes = [models.Index(fields=["match", "uploaded_at"], name="cardphoto_match_time")]

    def __str__(self) -> str:
        return f"Card photo {self.pk} of {self.match}"
