"""Inviting someone to a roster by email, and their accepting it (with a new account when
they have none). The email goes out once, from a Celery task (`tasks.py`) after the commit."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from marker.errors import DomainError

from . import tasks
from .models import (
    Invitation,
    Player,
    Registration,
    Team,
)
from .teams.services import (
    Actor,
    _drafted_rule_error,
    _other_team_of,
    _same_name_error,
    player_name_key,
    players_named,
    roster_add_player,
)


@transaction.atomic
def invitation_create(
    *, team: Team, invited_by: Actor, name: str, email: str, someone_else: bool = False
) -> Invitation:
    """Invite someone by email to the roster; the email is sent after the commit.

    One person, one record: an email an existing player has, or a name one has (unless
    the captain confirms `someone_else`), is that player, so rule 8 applies to them now
    (`plays_for_another_team`) and again when they accept."""

    name, email = player_name_key(name), email.strip().lower()
    if not name:
        raise DomainError("required", "Give the player's name.", field="name")
    if "@" not in email:
        raise DomainError("bad_email", "Give a valid email address.", field="email")
    known = _player_by_email(email)
    if known is None and not someone_else and players_named(name).exists():
        raise _same_name_error(name, team.season, team)
    if known is not None:
        other = _other_team_of(known, team.season, team)
        if other is not None:
            raise _drafted_rule_error(known, other)
    if Invitation.objects.filter(team=team, email=email, accepted_at__isnull=True).exists():
        raise DomainError(
            "already_invited", f"{email} has already been invited to {team.name}.", field="email"
        )
    invitation = Invitation.objects.create(
        kind=Invitation.Kind.ROSTER, team=team, name=name, email=email, invited_by=invited_by
    )
    tasks.send_invitation.delay_on_commit(invitation.pk)
    return invitation


@transaction.atomic
def invitation_accept(
    *,
    token: str,
    user: Any = None,
    username: str = "",
    password: str = "",
    now: datetime | None = None,
) -> Registration:
    """Accept an invitation: the signed-in `user` joins the roster, or, with no one signed
    in, a new account (`username`, `password`, checked by the site's password validators)
    is made for the invited person (`registration.player.user`)."""
    invitation = (
        Invitation.objects.select_for_update()
        .filter(token=token, kind=Invitation.Kind.ROSTER)
        .first()
    )
    if invitation is None or invitation.team is None:
        raise DomainError("not_found", "This invitation does not exist.", status=404)
    if invitation.accepted_at is not None:
        raise DomainError("already_accepted", "This invitation has already been accepted.")
    if user is None or not user.is_authenticated:
        user = _account_create(username=username, password=password, email=invitation.email)
    player = Player.objects.filter(user=user).first()
    if player is None:
        # The invited person may already be a player (added by name, or drafted): the same
        # record, so rule 8 sees the team they already play for.
        player = _player_by_email(invitation.email, unlinked=True)
        if player is not None:
            player.user = user
            player.save(update_fields=["user"])
        else:
            player = Player.objects.create(user=user, name=invitation.name, email=invitation.email)
    registration = roster_add_player(team=invitation.team, player=player)
    invitation.accepted_at = now or timezone.now()
    invitation.save(update_fields=["accepted_at"])
    return registration


def _player_by_email(email: str, *, unlinked: bool = False) -> Player | None:
    email = (email or "").strip()
    if "@" not in email:
        return None
    players = Player.objects.filter(email__iexact=email)
    if unlinked:
        players = players.filter(user__isnull=True)
    return players.order_by("id").first()


def _account_create(*, username: str, password: str, email: str) -> Any:
    username = (username or "").strip()
    if not username or not password:
        raise DomainError("invalid", "Choose a username and a password.")
    user_model = get_user_model()
    if user_model.objects.filter(username__iexact=username).exists():
        raise DomainError("username_taken", "That username is taken.", field="username")
    candidate = user_model(username=username, email=email)
    try:
        validate_password(password, user=candidate)
    except ValidationError as exc:
        raise DomainError("weak_password", " ".join(exc.messages), field="password") from None
    return user_model.objects.create_user(username=username, email=email, password=password)
