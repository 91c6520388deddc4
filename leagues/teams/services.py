"""Teams and their rosters: registering a team, adding and removing players, and a
player's registration (confirmed, played). Each function is one transaction and raises
DomainError."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from leagues import eligibility, honours
from leagues.models import (
    Division,
    Fixture,
    Player,
    PlayUp,
    Registration,
    Season,
    Team,
    Venue,
)
from marker.errors import DomainError

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
    now: datetime | None = None,
    check_window: bool = True,
) -> Registration:
    """Put a player (existing, or new by name) on a team's roster for its season.

    Refused when the player is on, or has played for, another team this season (rule 8),
    or when the season's registrations are not open on this day (`leagues.eligibility`;
    an approved transfer, decided by its own rules, passes `check_window=False`).
    A name that an existing player already has is refused (`same_name`, listing them)
    unless `someone_else` says the captain confirmed it is another person: otherwise a
    second record would let a player drafted elsewhere slip past rule 8.
    """
    if kind not in Registration.Kind.values:
        raise DomainError("bad_value", f"Unknown registration kind {kind!r}.", field="kind")
    if team.season.status == Season.Status.FINISHED:
        raise DomainError("season_finished", f"{team.season} has finished.", field="season")
    if check_window:
        refusal = eligibility.registration_refusal(
            season=team.season, on=eligibility.local_day(now)
        )
        if refusal is not None:
            raise refusal.error("player" if player is not None else "name")
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
        # Back on the roster is registered again: the notice period counts from now.
        existing.created_at = now or timezone.now()
        existing.save(update_fields=["status", "kind", "removed_at", "created_at"])
        return existing
    try:
        with transaction.atomic():
            reg = Registration.objects.create(
                season=team.season, team=team, player=player, kind=kind
            )
            if now is not None:  # the registration's day (the notice period counts from it)
                Registration.objects.filter(pk=reg.pk).update(created_at=now)
                reg.created_at = now
            return reg
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
        shown = player.public_name
        player.private_name = bool(private)
        player.save(update_fields=["private_name"])
        honours.honours_rename_player(player=player, old=shown, new=player.public_name)
    return player


@transaction.atomic
def player_set_category_details(
    *, player: Player, date_of_birth: date | None, plays_ladies: bool, today: date | None = None
) -> Player:
    """The player's (or an officer's) record of what age and ladies' categories are
    checked against: an optional date of birth, never shown publicly, and the player's own
    declaration that ladies' events are theirs. A birth date in the future, or more than
    120 years ago, is refused."""
    if player.erased_number is not None:
        raise DomainError("erased", "This person was erased.", status=409)
    today = today or timezone.localdate()
    if date_of_birth is not None and not (date(today.year - 120, 1, 1) <= date_of_birth <= today):
        raise DomainError(
            "bad_date_of_birth", "That date of birth is not a possible one.", field="date_of_birth"
        )
    player.date_of_birth = date_of_birth
    player.plays_ladies = bool(plays_ladies)
    player.save(update_fields=["date_of_birth", "plays_ladies"])
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
    refusal = eligibility.registration_refusal(
        season=registration.season, on=eligibility.local_day(None)
    )
    if refusal is not None:
        raise refusal.error("registration")
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
    *,
    team: Team,
    player: Player,
    now: datetime | None = None,
    draft: bool = True,
    fixture: Fixture | None = None,
) -> Registration | PlayUp:
    """Record that a player has played for a team (match night calls this, with the
    `fixture`).

    A player not on the roster is drafted, if rule 8 allows it. From now on the
    player can never play for another team this season (the database holds it). A
    player of a lower team of the club playing up, where the season allows it
    (`leagues.eligibility`), is not drafted: the fixture is one appearance up (`PlayUp`).
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
        if fixture is not None:
            answer = eligibility.may_play(
                team=team,
                player=player,
                on=fixture.date or eligibility.local_day(now),
                fixture=fixture,
            )
            if answer.play_up:
                return _play_up_record(team, player, fixture, now)
        reg = roster_add_player(team=team, player=player, kind=Registration.Kind.DRAFTED, now=now)
    other = _other_team_of(player, team.season, team)
    if other is not None:
        raise _drafted_rule_error(player, other)
    if reg.first_played_at is None:
        reg.first_played_at = now
        reg.save(update_fields=["first_played_at"])
    return reg


def _play_up_record(team: Team, player: Player, fixture: Fixture, now: datetime) -> PlayUp:
    """One appearance up (once a fixture: a re-draw records it again, unchanged)."""
    try:
        with transaction.atomic():
            up, _ = PlayUp.objects.get_or_create(
                player=player,
                fixture=fixture,
                defaults={"season": team.season, "team": team, "at": now},
            )
    except IntegrityError:
        up = PlayUp.objects.get(player=player, fixture=fixture)
    return up
