"""Entries: entering a team, a player or a pair (checked against the eligibility rules),
withdrawing, fees and handicap starts."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from leagues.models import League, Player, Registration, Season, Team
from marker.errors import DomainError
from marker.permissions import allowed, require
from rules import registry

from ..common import (
    fee_charge,
    fee_settle,
    lock_competition,
    log,
    require_secretary,
    resolve_now,
    run_entry_checks,
)
from ..models import Competition, Entry, Tie
from ..permissions import enters_for_league
from ..results import tie_decide


def _registered(player: Player, season: Season) -> bool:
    return Registration.objects.filter(
        player=player, season=season, status=Registration.Status.ACTIVE
    ).exists()


def _game_name(game_id: str) -> str:
    try:
        return registry.get(game_id).name
    except registry.UnknownGame:
        return game_id


def _member_registrations(competition: Competition, player: Player):
    """A player's registrations that make them eligible for an organisation's
    competition: on a team's roster in a member league's current season of its game."""
    return Registration.objects.filter(
        player=player,
        status=Registration.Status.ACTIVE,
        season__league__organisations=competition.organisation_id,
        season__game_id=competition.game_id,
    ).exclude(season__status=Season.Status.FINISHED)


def check_team_eligible(competition: Competition, team: Team) -> None:
    """An organisation's competition takes a team of a member league's current season
    playing its game; the refusal names the team's own league."""
    organisation = competition.organisation
    assert organisation is not None
    season = team.season
    league = season.league
    if not organisation.leagues.filter(pk=league.pk).exists():
        raise DomainError(
            "not_member_league",
            f"{team.name} plays in {league.name}, which is not a member of "
            f"{organisation.name}: the {competition.name} is for its member leagues' teams.",
            field="team",
        )
    if season.status == Season.Status.FINISHED:
        raise DomainError(
            "not_current_season",
            f"{team.name} is a team of {league.name}'s {season.name}, which has finished: "
            "enter the team of its current season.",
            field="team",
        )
    if season.game_id != competition.game_id:
        raise DomainError(
            "wrong_game",
            f"{team.name} plays {_game_name(season.game_id)} in {league.name}; the "
            f"{competition.name} is {_game_name(competition.game_id)}.",
            field="team",
        )


def _check_member_player(competition: Competition, player: Player) -> None:
    organisation = competition.organisation
    assert organisation is not None
    if _member_registrations(competition, player).exists():
        return
    elsewhere = sorted(
        {
            reg.season.league.name
            for reg in Registration.objects.filter(
                player=player, status=Registration.Status.ACTIVE
            ).select_related("season__league")
        }
    )
    where = (
        f"registered in {', '.join(elsewhere)}, not with a team of a member league"
        if elsewhere
        else "not registered with a team of a member league"
    )
    raise DomainError(
        "not_registered",
        f"{player.name} is {where} of {organisation.name} playing "
        f"{_game_name(competition.game_id)} this season: the {competition.name} is for "
        "its member leagues' registered players.",
        field="player",
    )


def _league_secretary_enters(
    actor: Any, competition: Competition, team: Team | None, people: list[Player]
) -> bool:
    """In an organisation's competition, whether the actor is the secretary of the
    entrant's own league (who enters its teams and players like the officers)."""
    if competition.organisation_id is None:
        return False
    if team is not None:
        return enters_for_league(actor, competition, team.season.league)
    leagues = League.objects.filter(
        seasons__registrations__in=[
            reg.pk for p in people for reg in _member_registrations(competition, p)
        ]
    ).distinct()
    return any(enters_for_league(actor, competition, league) for league in leagues)


def check_eligible(competition: Competition, player: Player, now: datetime | None = None) -> None:
    """Refuse a player the competition's rules exclude, naming the rule (and the rules
    the apps above add: a ranking series' category, checked on the day of entry)."""
    if competition.organisation_id is not None:
        if competition.require_registered:
            _check_member_player(competition, player)
    elif (
        competition.require_registered
        and competition.season is not None
        and not _registered(player, competition.season)
    ):
        raise DomainError(
            "not_registered",
            f"{player.name} is not registered with a team this season: the "
            f"{competition.name} is for registered players.",
            field="player",
        )
    if (
        competition.eligibility_label
        and not competition.eligible_players.filter(pk=player.pk).exists()
    ):
        raise DomainError(
            "not_eligible",
            f"{player.name} is not on the {competition.eligibility_label} list: the "
            f"{competition.name} is for {competition.eligibility_label} only.",
            field="player",
        )
    run_entry_checks(competition, player, resolve_now(now))


def entries_closed(competition: Competition, now: datetime) -> bool:
    """Whether the competition's closing date has passed."""
    return competition.entries_close_at is not None and now >= competition.entries_close_at


def _closed_on(competition: Competition) -> str:
    assert competition.entries_close_at is not None
    return f"{timezone.localtime(competition.entries_close_at):%d %b %Y %H:%M}"


def _check_entry_open(
    competition: Competition, actor: Any, now: datetime, late: bool, league_secretary: bool
) -> bool:
    """Whether the actor enters as the secretary (of an organisation's competition, its
    officers or the entrant's own league's secretary); refuses a closed entry. After the
    closing date the secretary is refused too, unless they enter late on purpose."""
    secretary = league_secretary or allowed(actor, "competitions.manage", competition)
    if competition.stage != Competition.Stage.ENTRIES:
        raise DomainError(
            "entries_closed", f"The {competition.name} has been drawn: entries are closed."
        )
    if secretary:
        if entries_closed(competition, now) and not late:
            raise DomainError(
                "entries_closed",
                f"Entries for the {competition.name} closed on {_closed_on(competition)}. "
                "To enter this one anyway, enter it as a late entry (late: true); it is "
                "marked and logged as late.",
                field="late",
            )
        return True
    if competition.entry_mode != Competition.EntryMode.OPEN:
        who = "the secretary enters"
        if competition.organisation is not None:
            who = (
                f"{competition.organisation.name}'s officers, or the entrant's own league's "
                "secretary, enter"
            )
        raise DomainError("secretary_enters", f"Only {who} the {competition.name}.", status=403)
    if entries_closed(competition, now):
        raise DomainError(
            "entries_closed",
            f"Entries for the {competition.name} closed on {_closed_on(competition)}.",
        )
    return False


@transaction.atomic
def entry_create(
    *,
    actor: Any,
    competition: Competition,
    team: Team | None = None,
    player: Player | None = None,
    partner: Player | None = None,
    start: int | None = None,
    source: str = "",
    late: bool = False,
    now: datetime | None = None,
) -> Entry:
    """Enter a team, a player or a pair (the secretary, or the player or captain while
    entries are open), checked against the competition's eligibility rules. After the
    closing date only the secretary enters, and only with `late` (the entry's source
    says it came late, and the log keeps it)."""
    now = resolve_now(now)
    competition = lock_competition(competition)
    league_secretary = _league_secretary_enters(
        actor, competition, team, [p for p in (player, partner) if p is not None]
    )
    secretary = _check_entry_open(competition, actor, now, late, league_secretary)
    late = late and entries_closed(competition, now)
    if late:
        note = f"late entry, after the closing date ({_closed_on(competition)})"
        source = f"{note}: {source}" if source else note
    kind = competition.entrant
    if kind == Competition.Entrant.TEAM:
        if team is None or player is not None or partner is not None:
            raise DomainError(
                "bad_entry", "Teams enter this competition: name the team.", field="team"
            )
        if competition.organisation_id is not None:
            check_team_eligible(competition, team)
        elif team.season_id != competition.season_id:
            raise DomainError(
                "wrong_season", f"{team.name} is not a team of {competition.season}.", field="team"
            )
        if not secretary and not team.is_captain(actor):
            raise DomainError(
                "not_captain", f"Only {team.name}'s captain enters the team.", status=403
            )
    else:
        if team is not None or player is None:
            raise DomainError(
                "bad_entry", "Players enter this competition: name the player.", field="player"
            )
        if kind == Competition.Entrant.PAIR and partner is None:
            raise DomainError("bad_entry", "A pair: name the partner too.", field="partner")
        if kind == Competition.Entrant.PLAYER and partner is not None:
            raise DomainError("bad_entry", "A singles entry has no partner.", field="partner")
        if partner is not None and partner.pk == player.pk:
            raise DomainError("bad_entry", "A pair is two different players.", field="partner")
        people = [p for p in (player, partner) if p is not None]
        if not secretary and not any(p.user_id == actor.pk for p in people):
            raise DomainError(
                "not_yours",
                "Enter yourself (or a pair you play in); the secretary enters others.",
                status=403,
            )
        for p in people:
            check_eligible(competition, p, now)
            taken = Entry.objects.filter(
                Q(player=p) | Q(partner=p), competition=competition, status=Entry.Status.ENTERED
            ).exists()
            if taken:
                raise DomainError(
                    "already_entered",
                    f"{p.name} is already entered in the {competition.name}.",
                    field="player",
                )
    if start is not None and not competition.handicap_min <= start <= competition.handicap_max:
        raise DomainError(
            "bad_start",
            f"A start is from {competition.handicap_min} to {competition.handicap_max}.",
            field="start",
        )
    existing = Entry.objects.filter(
        competition=competition, **({"team": team} if team is not None else {"player": player})
    ).first()
    if existing is not None:
        if existing.status == Entry.Status.ENTERED:
            raise DomainError(
                "already_entered",
                f"{existing.name} is already entered.",
                field="team" if team else "player",
            )
        existing.status = Entry.Status.ENTERED
        existing.partner = partner
        existing.withdrawn_at = None
        fields = ["status", "partner", "withdrawn_at"]
        if late:
            existing.source = source[:120]
            fields.append("source")
        existing.save(update_fields=fields)
        entry = existing
    else:
        try:
            with transaction.atomic():
                entry = Entry.objects.create(
                    competition=competition,
                    team=team,
                    player=player,
                    partner=partner,
                    start=start or 0,
                    entered_by=actor if getattr(actor, "is_authenticated", False) else None,
                    entered_at=now,
                    source=source[:120],
                )
        except IntegrityError:
            raise DomainError("already_entered", "That entry is already in.") from None
    if late:
        log(competition, actor, "entered", now, entry=entry.pk, name=entry.name, late=True)
    else:
        log(competition, actor, "entered", now, entry=entry.pk, name=entry.name)
    fee_charge(entry, actor, now)  # once an entry, however often it is entered
    return entry


@transaction.atomic
def entry_withdraw(*, actor: Any, entry: Entry, now: datetime | None = None) -> Entry:
    """Withdraw an entry. Before the draw it simply leaves; after, its undecided tie is
    recorded as a withdrawal and the opponent goes through."""
    now = resolve_now(now)
    require(
        actor,
        "competitions.manage_entry",
        entry,
        message="Only the entrant or the secretary may withdraw it.",
    )
    lock_competition(entry.competition)
    entry = Entry.objects.select_for_update().get(pk=entry.pk)
    if entry.status == Entry.Status.WITHDRAWN:
        return entry
    entry.status = Entry.Status.WITHDRAWN
    entry.withdrawn_at = now
    entry.save(update_fields=["status", "withdrawn_at"])
    log(entry.competition, actor, "withdrawn", now, entry=entry.pk)
    for tie in Tie.objects.filter(Q(home=entry) | Q(away=entry)).exclude(status__in=Tie.DECIDED):
        if tie.home_id and tie.away_id:
            other = tie.away if tie.home_id == entry.pk else tie.home
            assert other is not None
            tie_decide(tie, other, Tie.Status.WITHDRAWN, f"{entry.name} withdrew", actor, now)
    return entry


@transaction.atomic
def entry_mark_paid(*, actor: Any, entry: Entry, paid: bool, now: datetime | None = None) -> Entry:
    """Record an entry's fee as paid (or not): in the league's ledger, a payment of what
    is owed on it, or its payments reversed (`competitions.common.fee_settle`)."""
    now = resolve_now(now)
    require_secretary(actor, entry.competition, "record fees")
    entry = Entry.objects.select_for_update().get(pk=entry.pk)
    if entry.paid != paid:
        fee_settle(entry, actor, paid, now)
        log(entry.competition, actor, "paid" if paid else "unpaid", now, entry=entry.pk)
    return Entry.objects.prefetch_related("fee_lines").get(pk=entry.pk)


@transaction.atomic
def entry_set_start(*, actor: Any, entry: Entry, start: int, now: datetime | None = None) -> Entry:
    """The secretary sets an entrant's handicap start (points a frame)."""
    now = resolve_now(now)
    competition = entry.competition
    require_secretary(actor, competition, "set starts")
    if competition.handicap_rule == Competition.HandicapRule.NONE:
        raise DomainError("not_handicap", f"The {competition.name} is played level.", field="start")
    if not competition.handicap_min <= start <= competition.handicap_max:
        raise DomainError(
            "bad_start",
            f"A start is from {competition.handicap_min} to {competition.handicap_max}.",
            field="start",
        )
    entry = Entry.objects.select_for_update().get(pk=entry.pk)
    entry.start = start
    entry.save(update_fields=["start"])
    # ties still to be played, with no frame yet, take the new start
    unplayed = Tie.objects.filter(status__in=[Tie.Status.PENDING, Tie.Status.SCHEDULED]).filter(
        frames__isnull=True
    )
    unplayed.filter(home=entry).update(home_start=start)
    unplayed.filter(away=entry).update(away_start=start)
    log(competition, actor, "start", now, entry=entry.pk, start=start)
    return entry
