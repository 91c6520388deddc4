"""Every non-trivial read of match night. Each owns its joins, so the match page makes a
fixed number of queries whatever the state of the night (asserted in tests)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from decimal import Decimal

from django.db.models import Exists, OuterRef, Prefetch, Q, QuerySet
from django.utils import timezone

from leagues.models import Fixture, League, Player, Registration, Season
from marker.formats import MatchFormat

from .models import SIDES, CardPhoto, Frame, FramePlayer, Match, MatchLog, Presence, Side
from .results import Tally, frame_winner, tally

#: How the match page names each MatchLog action.
LOG_LABELS = {
    "opened": "Match night opened",
    "presence": "Squad marked",
    "presence_from_availability": "Present list started from the players who said yes",
    "short_agreed": "Agreed to play short (rule 8)",
    "committed": "Ready (secret committed)",
    "nominated": "Nomination submitted (sealed: its commitment is shown)",
    "nominations_revealed": "Both nominations in: revealed together",
    "ready_restarted": "Ready started again for both sides (the server committed anew)",
    "revealed": "Secret revealed",
    "drawn": "Frames drawn",
    "redraw_requested": "Re-draw asked for",
    "redrawn": "Draw set aside for a re-draw",
    "reorder_proposed": "New order of play proposed",
    "reorder_accepted": "New order of play agreed",
    "reorder_rejected": "Proposed order turned down",
    "referee_changed": "Referee changed",
    "frame_confirmed": "Frame result confirmed on the pad",
    "paper_keyed": "Paper scores keyed in",
    "confirmations_cleared": "Confirmations cleared (the result changed)",
    "completed": "Every frame finished",
    "confirmed": "Result confirmed",
    "disputed": "Result disputed",
    "settled": "Settled by the secretary",
    "ineligible_decided": "Ineligible player decided by the secretary",
    "auto_confirmed": "Confirmed automatically",
    "result_recorded": "Result recorded on the fixture",
    "card_photo": "Photo of the signed card added",
    "card_photo_removed": "Photo of the signed card removed",
}


def match_qs() -> QuerySet[Match]:
    return Match.objects.select_related(
        "fixture__home",
        "fixture__away",
        "fixture__venue",
        "fixture__division",
        "fixture__season__league",
        "home_confirmed_by__player",
        "away_confirmed_by__player",
    )


def frames_qs() -> QuerySet[Frame]:
    return Frame.objects.select_related("referee").prefetch_related(
        Prefetch("players", queryset=FramePlayer.objects.select_related("player"))
    )


def match_for_fixture(fixture: Fixture) -> Match | None:
    return match_qs().filter(fixture=fixture).first()


@dataclass
class FrameRow:
    """One line of the scorecard, with the teams' names for what a side did."""

    frame: Frame
    home: list[Player]
    away: list[Player]
    winner: str
    names: dict[str, str] = field(default_factory=dict)
    section: str = ""

    @property
    def conceded_sides(self) -> list[str]:
        if self.frame.status != Frame.Status.CONCEDED:
            return []
        return list(SIDES) if self.frame.conceded_by == "both" else [self.frame.conceded_by]

    @property
    def conceded_by_name(self) -> str:
        return " and ".join(self.names.get(side, side) for side in self.conceded_sides)

    @property
    def winner_name(self) -> str:
        return self.names.get(self.winner, "")


@dataclass
class SideSquad:
    side: str
    team: object
    roster: list[Registration] = field(default_factory=list)
    present: list[Presence] = field(default_factory=list)

    @property
    def present_ids(self) -> set[int]:
        return {p.player_id for p in self.present}

    @property
    def extras(self) -> list[Presence]:
        """Present players who are not on the roster (drafted for the night)."""
        on_roster = {r.player_id for r in self.roster}
        return [p for p in self.present if p.player_id not in on_roster]


@dataclass
class MatchDetail:
    match: Match
    rows: list[FrameRow]
    squads: dict[str, SideSquad]
    log: list[MatchLog]
    tally: Tally
    secret_made_by: dict[str, str]
    format: MatchFormat | None = None
    sections: list[SectionScore] = field(default_factory=list)

    @property
    def drawn(self) -> bool:
        return bool(self.rows)

    @property
    def conceded(self) -> list[FrameRow]:
        return [row for row in self.rows if row.conceded_sides]


def scorecard_rows(
    frames: Iterable[Frame], fixture: Fixture | None = None, fmt: MatchFormat | None = None
) -> list[FrameRow]:
    names: dict[str, str] = {}
    if fixture is not None:
        names = {Side.HOME: fixture.home.name, Side.AWAY: fixture.away.name}
    rows = []
    for frame in frames:
        slots: dict[str, list[Player]] = {Side.HOME: [], Side.AWAY: []}
        for slot in frame.players.all():
            slots[slot.side].append(slot.player)
        section = ""
        if fmt is not None and 1 <= frame.number <= fmt.frame_count:
            section = fmt.sections[fmt.section_index(frame.number)].name
        rows.append(
            FrameRow(
                frame,
                slots[Side.HOME],
                slots[Side.AWAY],
                frame_winner(frame),
                names,
                section,
            )
        )
    return rows


@dataclass(frozen=True)
class SectionScore:
    """Frames won by each side in one section of the format (a shared frame is half)."""

    name: str
    kind: str
    frames: int
    home: Decimal
    away: Decimal


def section_scores(fmt: MatchFormat, rows: Iterable[FrameRow]) -> list[SectionScore]:
    """Each section's frames won so far, for the scorecard."""
    won = [[Decimal(0), Decimal(0)] for _ in fmt.sections]
    for row in rows:
        number = row.frame.number
        if not 1 <= number <= fmt.frame_count:
            continue
        index = fmt.section_index(number)
        if row.frame.status == Frame.Status.COMPLETE and row.frame.shared:
            won[index][0] += Decimal("0.5")
            won[index][1] += Decimal("0.5")
        elif row.winner in SIDES:
            won[index][SIDES.index(row.winner)] += 1
    return [
        SectionScore(s.name, s.kind, s.frames, h, a)
        for s, (h, a) in zip(fmt.sections, won, strict=True)
    ]


def blank_frames(fmt: MatchFormat) -> list[tuple[int, str, str]]:
    """(number, kind, section) of every frame of the format: the blank score sheet."""
    return [
        (number, section.kind, section.name)
        for index, section in enumerate(fmt.sections)
        for number in fmt.numbers(index)
    ]


def match_frames(match: Match) -> list[Frame]:
    return list(frames_qs().filter(match=match).order_by("order"))


def match_detail(match_id: int) -> MatchDetail:
    """Everything the match page shows, in a fixed number of queries."""
    match = match_qs().get(pk=match_id)
    frames = match_frames(match)
    presences = list(
        Presence.objects.filter(match=match).select_related("player").order_by("player__name")
    )
    fixture = match.fixture
    rosters = list(
        Registration.objects.filter(
            team__in=[fixture.home_id, fixture.away_id], status=Registration.Status.ACTIVE
        )
        .select_related("player")
        .order_by("player__name")
    )
    squads = {side: SideSquad(side, match.team(side)) for side in SIDES}
    team_side = {fixture.home_id: Side.HOME, fixture.away_id: Side.AWAY}
    for reg in rosters:
        squads[team_side[reg.team_id]].roster.append(reg)
    for presence in presences:
        squads[presence.side].present.append(presence)
    log = list(
        MatchLog.objects.filter(match=match).select_related("actor__player").order_by("at", "id")
    )
    made_by = {}
    for entry in log:
        label = LOG_LABELS.get(entry.action, entry.action.replace("_", " "))
        entry.label = label  # type: ignore[attr-defined]  # read by the template
        if entry.action == "committed":
            made_by[entry.detail.get("side", "")] = entry.detail.get("made_by", "")
    fmt = match.format
    rows = scorecard_rows(frames, fixture, fmt)
    return MatchDetail(
        match, rows, squads, log, tally(frames), made_by, fmt, section_scores(fmt, rows)
    )


def draftable_players(match: Match, side: str) -> QuerySet[Player]:
    """Players a side may draft for the night (rule 8): not on its roster, and neither on
    another team's roster this season nor played for another team this season."""
    team = match.team(side)
    season_id = match.fixture.season_id
    bound = Registration.objects.filter(season_id=season_id).filter(
        Q(status=Registration.Status.ACTIVE) | Q(first_played_at__isnull=False)
    )
    return (
        Player.objects.exclude(pk__in=bound.exclude(team=team).values("player_id"))
        .exclude(pk__in=bound.filter(team=team).values("player_id"))
        .order_by("name", "id")
    )


def matches_awaiting_confirmation() -> QuerySet[Match]:
    """Complete matches that no captain has disputed: the auto-confirm candidates."""
    return Match.objects.filter(
        status=Match.Status.COMPLETE, completed_at__isnull=False
    ).select_related("fixture__season__league")


#: Matches whose frames are being played, or about to be (a referee's pad, the live page).
PLAYING = (Match.Status.DRAWN, Match.Status.IN_PLAY)


def frames_refereed_by(user, *, match: Match | None = None) -> list[Frame]:
    """The frames this signed-in user referees and has still to finish: on a match being
    played (drawn or in play), in the order of play. One tap each to its pad."""
    if not getattr(user, "is_authenticated", False):
        return []
    qs = Frame.objects.filter(
        referee__user=user,
        status__in=[Frame.Status.SCHEDULED, Frame.Status.IN_PLAY],
        match__status__in=PLAYING,
    )
    if match is not None:
        qs = qs.filter(match=match)
    return list(
        qs.select_related("match__fixture__home", "match__fixture__away").order_by(
            "match__fixture__date", "match_id", "order"
        )[:20]
    )


def matches_playing(limit: int = 20) -> list[Match]:
    """Matches being played now (drawn or in play), the most recent fixtures first: each
    has a live page anyone may watch."""
    return list(
        Match.objects.filter(status__in=PLAYING)
        .select_related("fixture__home", "fixture__away", "fixture__venue")
        .order_by("-fixture__date", "-id")[:limit]
    )


# --------------------------------------------------------------------------- the paper card


def card_photos(match: Match) -> list[CardPhoto]:
    """The photos of the match's signed card, oldest first (one query)."""
    return list(CardPhoto.objects.filter(match=match).order_by("uploaded_at", "id"))


def fixtures_without_card(
    *, now: datetime, league_id: int | None = None, hours: int | None = None
) -> QuerySet[Fixture]:
    """Fixtures of running seasons, still scheduled, with neither a confirmed result nor a
    photo of their card `no_card_after_hours` (their league's) after the start of their
    date: "No card received". One league (`league_id`, with its `hours` when known) or
    every league (one query either way)."""
    if league_id is not None:
        if hours is None:
            hours = League.objects.values_list("no_card_after_hours", flat=True).get(pk=league_id)
        by_hours = {hours: [league_id]}
    else:
        by_hours = {}
        for pk, h in League.objects.values_list("pk", "no_card_after_hours"):
            by_hours.setdefault(h, []).append(pk)
    due = Q(pk__in=[])
    for h, ids in by_hours.items():
        # Overdue once the start of its date plus `h` hours has passed: its date is on or
        # before the local date `h` hours ago.
        cutoff = timezone.localdate(now - timedelta(hours=h))
        due |= Q(season__league_id__in=ids, date__lte=cutoff)
    photos = CardPhoto.objects.filter(match__fixture=OuterRef("pk"))
    return (
        Fixture.objects.filter(due)
        .filter(
            season__status=Season.Status.RUNNING,
            status=Fixture.Status.SCHEDULED,
            date__isnull=False,
            result_confirmed_at__isnull=True,
        )
        .exclude(Exists(photos))
        .select_related("home", "away", "division", "venue", "season")
        .order_by("date", "pk")
    )


def card_deadline_passed(fixture: Fixture, *, now: datetime) -> bool:
    """Is the fixture past its league's deadline for a result or a card, without either a
    result or a postponement (no query: its season and league loaded)? It is then "No card
    received" unless a photo of its card is in (`fixture_without_card` asks that too)."""
    if fixture.date is None or fixture.result_confirmed_at is not None:
        return False
    if fixture.status != Fixture.Status.SCHEDULED:
        return False
    season = fixture.season
    if season.status != Season.Status.RUNNING:
        return False
    hours = season.league.no_card_after_hours
    return fixture.date <= timezone.localdate(now - timedelta(hours=hours))


def fixture_without_card(fixture: Fixture, *, now: datetime) -> bool:
    """Is this fixture "No card received" (one query)?"""
    league = fixture.season.league
    return (
        fixtures_without_card(now=now, league_id=league.pk, hours=league.no_card_after_hours)
        .filter(pk=fixture.pk)
        .exists()
    )
