"""Availability's writes (docs/availability.md): a captain asks the squad and chases, a
player answers (from their signed link, the app, or through their captain), away dates are
added and removed, and match night closes the answers. Each function is one transaction
and raises DomainError; messages go out through `notifications.notify` in it."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format

from leagues.models import (
    Availability,
    AvailabilityAnswer,
    AvailabilityClosed,
    AvailabilityRequest,
    AwayDates,
    Fixture,
    Player,
    Registration,
    Season,
    Team,
)
from marker.errors import DomainError
from marker.permissions import allowed, require
from notifications.events import Event
from notifications.services import To, notify

from . import links

Actor = Any  # an account (settings.AUTH_USER_MODEL)

#: A captain chases at most once in this long.
CHASE_GAP = timedelta(hours=12)
MAX_NOTE = Availability._meta.get_field("note").max_length or 140
#: The longest stretch of away dates, and how many stretches a player keeps in a season.
MAX_AWAY_DAYS = 366
MAX_AWAY_RANGES = 50
ANSWERS = {choice.value for choice in AvailabilityAnswer}


def day_label(day: date) -> str:
    """'Tue 1 Dec', as a message says it."""
    return date_format(day, "D j M")


def moment_label(when: datetime) -> str:
    """'Mon 30 Nov, 12:00' in the site's time zone."""
    return date_format(timezone.localtime(when), "D j M, H:i")


def default_answer_by(fixture: Fixture, now: datetime) -> datetime:
    """The day before the fixture at noon; asked later than that, the fixture's own day at
    noon, then at 6 pm; asked later still, the end of its day."""
    assert fixture.date is not None
    for day, hour in (
        (fixture.date - timedelta(days=1), 12),
        (fixture.date, 12),
        (fixture.date, 18),
    ):
        when = timezone.make_aware(datetime.combine(day, time(hour)))
        if when > now:
            return when
    return _end_of(fixture.date)


def _end_of(day: date) -> datetime:
    return timezone.make_aware(datetime.combine(day, time(23, 59)))


def _check_team(fixture: Fixture, team: Team) -> None:
    if team.pk not in (fixture.home_id, fixture.away_id):
        raise DomainError(
            "not_in_fixture", f"{team.name} does not play in this fixture.", field="team"
        )


def _check_open(fixture: Fixture, now: datetime) -> None:
    """Answers may change until the fixture's match night opens (or its day passes)."""
    if fixture.result_confirmed_at is not None or fixture.status == Fixture.Status.PLAYED:
        raise DomainError(
            "fixture_played", "This fixture has been played: answers are closed.", status=409
        )
    if AvailabilityClosed.objects.filter(fixture=fixture).exists():
        raise DomainError(
            "answers_closed",
            "Match night has started for this fixture, so answers can no longer change. "
            "Tell your captain in person.",
            status=409,
        )
    if fixture.date is not None and fixture.date < timezone.localdate(now):
        raise DomainError(
            "fixture_passed",
            f"This fixture was on {day_label(fixture.date)}: answers are closed.",
            status=410,
        )


def _locked_fixture(fixture: Fixture) -> Fixture:
    """The fixture's row, locked: an answer and match night's opening (which locks it too)
    happen one after the other, so no answer slips in after the present list is drawn up."""
    return (
        Fixture.objects.select_for_update(of=("self",))
        .select_related("home", "away", "venue", "season")
        .get(pk=fixture.pk)
    )


def _roster(team: Team) -> list[Registration]:
    return list(
        Registration.objects.filter(team=team, status=Registration.Status.ACTIVE)
        .select_related("player__user")
        .order_by("player__name", "player_id")
    )


def away_player_ids(season_id: int, player_ids: list[int], day: date) -> set[int]:
    """Which of the players have away dates covering `day` in the season."""
    return set(
        AwayDates.objects.filter(
            season_id=season_id, player_id__in=player_ids, start__lte=day, end__gte=day
        ).values_list("player_id", flat=True)
    )


def _recipient(player: Player) -> To | None:
    email = player.email or (player.user.email if player.user is not None else "")
    if player.user_id is None and not email:
        return None
    return To(user_id=player.user_id, email=email)


def _message(
    fixture: Fixture, team: Team, player: Player, ask: AvailabilityRequest, *, chase: bool
):
    assert fixture.date is not None
    token = links.answer_token(player_id=player.pk, fixture_id=fixture.pk, team_id=team.pk)
    first = "Reminder: are" if chase else "Are"
    title = f"{first} you playing on {day_label(fixture.date)}?"
    body = (
        f"{fixture.home.name} v {fixture.away.name} at {fixture.venue.name}, "
        f"{day_label(fixture.date)}.\n"
        f"{team.name}'s captain asks who is playing: answer yes, maybe or no by "
        f"{moment_label(ask.answer_by)} (no login needed):\n{links.answer_url(token)}"
    )
    return title, body, links.answer_path(token)


def _send_asks(
    fixture: Fixture,
    team: Team,
    ask: AvailabilityRequest,
    players: list[Player],
    *,
    key: str,
    now: datetime,
    chase: bool = False,
) -> tuple[int, list[Player], list[Player]]:
    """Ask (or chase) each player with their own signed link, under one subject `key`:
    how many messages were queued, the players reached and those with no way to reach."""
    queued, reached, unreachable = 0, [], []
    for player in players:
        to = _recipient(player)
        if to is None:
            unreachable.append(player)
            continue
        title, body, url = _message(fixture, team, player, ask, chase=chase)
        reached.append(player)
        queued += notify(
            event=Event.AVAILABILITY_ASKED,
            to=[to],
            key=key,
            title=title,
            body=body,
            url=url,
            league_id=fixture.season.league_id,
            now=now,
        )
    return queued, reached, unreachable


@dataclass
class AskResult:
    request: AvailabilityRequest
    asked: int = 0  # messages queued now (a second ask queues none for the same players)
    away: list[Player] = field(default_factory=list)  # answered "no (away)" for them
    unreachable: list[Player] = field(default_factory=list)  # no account and no email
    answered: int = 0  # had answered already: not asked again
    first: bool = True  # the first ask for this fixture and team


def _answer_away(fixture: Fixture, team: Team, players: list[Player], now: datetime) -> None:
    Availability.objects.bulk_create(
        [
            Availability(
                fixture=fixture,
                team=team,
                player=player,
                answer=AvailabilityAnswer.NO,
                note="Away",
                answered_at=now,
                via=Availability.Via.AWAY,
            )
            for player in players
        ]
    )


@transaction.atomic
def availability_ask(
    *,
    fixture: Fixture,
    team: Team,
    actor: Actor,
    answer_by: datetime | None = None,
    now: datetime | None = None,
) -> AskResult:
    """Ask every player on the team's roster whether they play: each gets a message with
    their own signed link. A player away on the date is answered "no (away)" and not asked;
    one who has answered already is not asked. Asking again reaches only players added
    since (one message per player per fixture, ever); `answer_by` changes the deadline."""
    now = now or timezone.now()
    require(
        actor,
        "leagues.ask_availability",
        team,
        message="Only the team's captain or vice-captain, or a league officer, asks the squad.",
    )
    fixture = _locked_fixture(fixture)
    _check_team(fixture, team)
    if fixture.date is None or fixture.status == Fixture.Status.POSTPONED:
        raise DomainError(
            "fixture_undated",
            "This fixture has no date yet: ask the squad once it has one.",
            status=409,
        )
    _check_open(fixture, now)
    if answer_by is not None:
        if answer_by <= now:
            raise DomainError(
                "bad_answer_by", "Give an answer-by time in the future.", field="answer_by"
            )
        if answer_by > _end_of(fixture.date):
            raise DomainError(
                "bad_answer_by",
                f"Give an answer-by time no later than the fixture's day ({day_label(fixture.date)}).",
                field="answer_by",
            )
    ask, created = AvailabilityRequest.objects.select_for_update().get_or_create(
        fixture=fixture,
        team=team,
        defaults={
            "asked_by": actor,
            "asked_at": now,
            "answer_by": answer_by or default_answer_by(fixture, now),
        },
    )
    if not created and answer_by is not None and answer_by != ask.answer_by:
        ask.answer_by = answer_by
        ask.save(update_fields=["answer_by"])
    result = AskResult(request=ask, first=created)
    roster = _roster(team)
    answered = set(
        Availability.objects.filter(fixture=fixture, team=team).values_list("player_id", flat=True)
    )
    away = away_player_ids(fixture.season_id, [r.player_id for r in roster], fixture.date)
    to_ask: list[Player] = []
    for reg in roster:
        player = reg.player
        if player.pk in answered:
            result.answered += 1
            continue
        if player.pk in away:
            result.away.append(player)
            continue
        to_ask.append(player)
    result.asked, _, result.unreachable = _send_asks(
        fixture, team, ask, to_ask, key=f"availability:{fixture.pk}:{team.pk}", now=now
    )
    _answer_away(fixture, team, result.away, now)
    return result


@dataclass
class ChaseResult:
    request: AvailabilityRequest
    chased: list[Player] = field(default_factory=list)
    queued: int = 0
    unreachable: list[Player] = field(default_factory=list)


def next_chase_at(ask: AvailabilityRequest) -> datetime | None:
    """When the captain may chase again (None: now)."""
    return ask.chased_at + CHASE_GAP if ask.chased_at is not None else None


@transaction.atomic
def availability_chase(
    *, fixture: Fixture, team: Team, actor: Actor, now: datetime | None = None
) -> ChaseResult:
    """Ask again only the players who have not answered: a new message each time (the key
    names the chase), at most once in 12 hours."""
    now = now or timezone.now()
    require(
        actor,
        "leagues.ask_availability",
        team,
        message="Only the team's captain or vice-captain, or a league officer, chases the squad.",
    )
    fixture = _locked_fixture(fixture)
    _check_team(fixture, team)
    _check_open(fixture, now)
    ask = (
        AvailabilityRequest.objects.select_for_update()
        .filter(fixture=fixture, team=team)
        .order_by("pk")
        .first()
    )
    if ask is None:
        raise DomainError("not_asked", "Ask the squad first; then chase who has not answered.")
    again = next_chase_at(ask)
    if again is not None and now < again:
        raise DomainError(
            "chased_recently",
            f"You chased at {moment_label(ask.chased_at or now)}: chase again from "
            f"{moment_label(again)}.",
            status=409,
            extra={"next_chase_at": again.isoformat()},
        )
    roster = _roster(team)
    answered = set(
        Availability.objects.filter(fixture=fixture, team=team).values_list("player_id", flat=True)
    )
    waiting = [r.player for r in roster if r.player_id not in answered]
    assert fixture.date is not None
    away = away_player_ids(fixture.season_id, [p.pk for p in waiting], fixture.date)
    _answer_away(fixture, team, [p for p in waiting if p.pk in away], now)
    waiting = [p for p in waiting if p.pk not in away]
    if not waiting:
        raise DomainError(
            "all_answered", "Everyone has answered: there is nobody to chase.", status=409
        )
    ask.chases += 1
    ask.chased_at = now
    ask.save(update_fields=["chases", "chased_at"])
    result = ChaseResult(request=ask)
    result.queued, result.chased, result.unreachable = _send_asks(
        fixture,
        team,
        ask,
        waiting,
        key=f"availability-chase:{fixture.pk}:{team.pk}:{ask.chases}",
        chase=True,
        now=now,
    )
    return result


def _clean_answer(answer: str, note: str) -> tuple[str, str]:
    if answer not in ANSWERS:
        raise DomainError("bad_answer", "Answer yes, maybe or no.", field="answer")
    note = " ".join((note or "").split())
    if len(note) > MAX_NOTE:
        raise DomainError("note_too_long", f"Keep the note to {MAX_NOTE} characters.", field="note")
    return answer, note


def _answer(
    *,
    fixture: Fixture,
    team: Team,
    player: Player,
    answer: str,
    note: str,
    via: str,
    now: datetime,
) -> Availability:
    answer, note = _clean_answer(answer, note)
    fixture = _locked_fixture(fixture)
    _check_team(fixture, team)
    if not Registration.objects.filter(
        team=team, player=player, status=Registration.Status.ACTIVE
    ).exists():
        raise DomainError(
            "not_on_roster", f"{player.name} is not on {team.name}'s roster.", status=403
        )
    _check_open(fixture, now)
    existing = (
        Availability.objects.select_for_update()
        .filter(fixture=fixture, team=team, player=player)
        .order_by("pk")
        .first()
    )
    if existing is not None:
        if (existing.answer, existing.note) == (answer, note):
            return existing  # the same answer again (a double tap, a retry): nothing changes
        existing.answer, existing.note, existing.via, existing.answered_at = answer, note, via, now
        existing.save(update_fields=["answer", "note", "via", "answered_at"])
        return existing
    return Availability.objects.create(
        fixture=fixture,
        team=team,
        player=player,
        answer=answer,
        note=note,
        via=via,
        answered_at=now,
    )


@dataclass(frozen=True)
class LinkTarget:
    """What a valid link names, loaded."""

    player: Player
    fixture: Fixture
    team: Team


def link_target(token: str, *, now: datetime | None = None) -> LinkTarget:
    """The player, fixture and team a signed link names, or DomainError: `link_invalid`
    (400) for a changed token, `link_expired` (410) for an old one or once the fixture's
    date has passed or the fixture is gone."""
    now = now or timezone.now()
    subject = links.read_token(token)
    fixture = (
        Fixture.objects.select_related("home", "away", "venue", "season__league")
        .filter(pk=subject.fixture_id)
        .first()
    )
    player = Player.objects.filter(pk=subject.player_id).first()
    team = None
    if fixture is not None:
        team = {fixture.home_id: fixture.home, fixture.away_id: fixture.away}.get(subject.team_id)
    if fixture is None or player is None or team is None or player.is_erased:
        raise DomainError(
            "link_expired", "This link no longer leads anywhere: the fixture has gone.", status=410
        )
    if fixture.date is not None and fixture.date < timezone.localdate(now):
        raise DomainError(
            "link_expired",
            f"This link has expired: the fixture was on {day_label(fixture.date)}.",
            status=410,
        )
    return LinkTarget(player, fixture, team)


@transaction.atomic
def availability_answer_by_link(
    *, token: str, answer: str, note: str = "", now: datetime | None = None
) -> Availability:
    """A player answers from their signed link, without logging in."""
    now = now or timezone.now()
    target = link_target(token, now=now)
    return _answer(
        fixture=target.fixture,
        team=target.team,
        player=target.player,
        answer=answer,
        note=note,
        via=Availability.Via.LINK,
        now=now,
    )


def player_of(actor: Actor) -> Player:
    authenticated = actor is not None and actor.is_authenticated
    player = Player.objects.filter(user_id=actor.pk).first() if authenticated else None
    if player is None:
        raise DomainError(
            "not_a_player",
            "Only a player answers for themselves: your account has no player.",
            status=403,
        )
    return player


def _team_of(player: Player, fixture: Fixture) -> Team:
    reg = (
        Registration.objects.filter(
            player=player,
            team_id__in=(fixture.home_id, fixture.away_id),
            status=Registration.Status.ACTIVE,
        )
        .select_related("team")
        .first()
    )
    if reg is None:
        raise DomainError(
            "not_on_roster", "You are on neither team's roster for this fixture.", status=403
        )
    return reg.team


@transaction.atomic
def availability_answer_as_player(
    *,
    actor: Actor,
    fixture: Fixture,
    answer: str,
    note: str = "",
    team: Team | None = None,
    now: datetime | None = None,
) -> Availability:
    """A signed-in player answers for themselves (their team in the fixture, unless named)."""
    now = now or timezone.now()
    player = player_of(actor)
    return _answer(
        fixture=fixture,
        team=team or _team_of(player, fixture),
        player=player,
        answer=answer,
        note=note,
        via=Availability.Via.APP,
        now=now,
    )


@transaction.atomic
def availability_answer_for(
    *,
    actor: Actor,
    fixture: Fixture,
    team: Team,
    player: Player,
    answer: str,
    note: str = "",
    now: datetime | None = None,
) -> Availability:
    """The captain (or an officer) records a player's answer given another way (a text,
    at the bar)."""
    now = now or timezone.now()
    require(
        actor,
        "leagues.ask_availability",
        team,
        message="Only the team's captain or vice-captain, or a league officer, answers for a player.",
    )
    return _answer(
        fixture=fixture,
        team=team,
        player=player,
        answer=answer,
        note=note,
        via=Availability.Via.CAPTAIN,
        now=now,
    )


@transaction.atomic
def availability_close(*, fixture: Fixture, now: datetime | None = None) -> None:
    """Match night opened: the fixture's answers are final (safe to call again)."""
    AvailabilityClosed.objects.get_or_create(
        fixture=fixture, defaults={"closed_at": now or timezone.now()}
    )


# ------------------------------------------------------------------------- away dates


def _require_self_or_officer(actor: Actor, player: Player, season: Season) -> None:
    if getattr(actor, "is_authenticated", False) and player.user_id == actor.pk:
        return
    if allowed(actor, "leagues.manage_league", season):
        return
    raise DomainError(
        "forbidden",
        "Only the player (or the league's secretary) keeps their away dates.",
        status=403,
    )


def _open_asks_in(player: Player, season: Season, start: date, end: date):
    """The asks already made for this player's teams' fixtures in the range, still open."""
    return (
        AvailabilityRequest.objects.filter(
            team__registrations__player=player,
            team__registrations__status=Registration.Status.ACTIVE,
            fixture__season=season,
            fixture__date__gte=start,
            fixture__date__lte=end,
            fixture__availability_closed__isnull=True,
            fixture__result_confirmed_at__isnull=True,
        )
        .select_related("fixture", "team")
        .distinct()
    )


@transaction.atomic
def away_add(
    *,
    player: Player,
    season: Season,
    start: date,
    end: date,
    actor: Actor,
    note: str = "",
    now: datetime | None = None,
) -> AwayDates:
    """The player is away from `start` to `end` (both included). A captain's ask already
    made for a fixture in the range is answered "no (away)" for them, unless they answered."""
    now = now or timezone.now()
    _require_self_or_officer(actor, player, season)
    note = " ".join((note or "").split())
    if len(note) > MAX_NOTE:
        raise DomainError("note_too_long", f"Keep the note to {MAX_NOTE} characters.", field="note")
    if end < start:
        raise DomainError("bad_range", "The last day away is before the first.", field="end")
    if (end - start).days >= MAX_AWAY_DAYS:
        raise DomainError("bad_range", f"Mark at most {MAX_AWAY_DAYS} days at a time.", field="end")
    if not Registration.objects.filter(
        player=player, season=season, status=Registration.Status.ACTIVE
    ).exists():
        raise DomainError(
            "not_in_season", f"{player.name} is on no team's roster in {season}.", field="season"
        )
    if AwayDates.objects.filter(player=player, season=season).count() >= MAX_AWAY_RANGES:
        raise DomainError(
            "too_many", f"At most {MAX_AWAY_RANGES} stretches of away dates a season."
        )
    away = AwayDates.objects.create(
        player=player, season=season, start=start, end=end, note=note, created_at=now
    )
    for ask in _open_asks_in(player, season, start, end):
        Availability.objects.get_or_create(
            fixture=ask.fixture,
            team=ask.team,
            player=player,
            defaults={
                "answer": AvailabilityAnswer.NO,
                "note": "Away",
                "via": Availability.Via.AWAY,
                "answered_at": now,
            },
        )
    return away


@transaction.atomic
def away_remove(*, away: AwayDates, actor: Actor) -> None:
    """The away dates go, and the "no (away)" answers they made for fixtures still open
    (and not covered by other away dates) with them: those players are waited for again."""
    away = AwayDates.objects.select_related("player", "season").get(pk=away.pk)
    _require_self_or_officer(actor, away.player, away.season)
    others = list(
        AwayDates.objects.filter(player=away.player, season=away.season).exclude(pk=away.pk)
    )
    made = Availability.objects.filter(
        player=away.player,
        via=Availability.Via.AWAY,
        fixture__season=away.season,
        fixture__date__gte=away.start,
        fixture__date__lte=away.end,
        fixture__availability_closed__isnull=True,
        fixture__result_confirmed_at__isnull=True,
    ).select_related("fixture")
    gone = [
        a.pk
        for a in made
        if a.fixture.date is not None
        and not any(o.start <= a.fixture.date <= o.end for o in others)
    ]
    Availability.objects.filter(pk__in=gone).delete()
    away.delete()
