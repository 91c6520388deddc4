"""Leagues as tenants (docs/tenancy.md): a site administrator creates a league and appoints
its first secretary; a league's secretary manages its officers (the invitation's email is
sent by a task, `tasks.py`)."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from marker.errors import DomainError
from marker.permissions import SECRETARY, forget_league_roles, require
from rules import registry

from . import tasks
from .invitations import _account_create
from .links import reserved_slugs
from .models import Invitation, League, LeagueRole, Weekday

SLUG_RE = re.compile(r"^[a-z0-9](?:[a-z0-9-]{0,58}[a-z0-9])?$")


def check_slug(slug: str, *, league: League | None = None) -> str:
    slug = (slug or "").strip().lower()
    if not SLUG_RE.match(slug):
        raise DomainError(
            "bad_slug",
            "A league's address is 1–60 lowercase letters, digits and hyphens.",
            field="slug",
        )
    if slug in reserved_slugs():
        raise DomainError(
            "slug_reserved", f"“{slug}” is one of Marker's own addresses.", field="slug"
        )
    taken = League.objects.filter(slug=slug)
    if league is not None:
        taken = taken.exclude(pk=league.pk)
    if taken.exists():
        raise DomainError("slug_taken", f"Another league's address is “{slug}”.", field="slug")
    return slug


def _check_role(role: str) -> str:
    if role not in LeagueRole.Role.values:
        raise DomainError(
            "bad_role", f"A role is one of {', '.join(LeagueRole.Role.values)}.", field="role"
        )
    return role


@transaction.atomic
def league_create(
    *,
    actor: Any,
    name: str,
    slug: str,
    game_id: str,
    match_night: int,
    secretary: str,
    town: str = "",
) -> tuple[League, LeagueRole | Invitation]:
    """A new league and its first secretary: `secretary` is an existing account's username
    or email address, or the email address of someone to invite (who makes an account)."""
    require(
        actor,
        "leagues.create_league",
        None,
        code="not_site_admin",
        message="Only a site administrator creates leagues.",
    )
    name = " ".join((name or "").split())
    if not name or len(name) > 120:
        raise DomainError("bad_name", "Give the league a name (at most 120 letters).", field="name")
    slug = check_slug(slug)
    try:
        game_id = registry.get(game_id).id
    except registry.UnknownGame as exc:
        raise DomainError("unknown_game", exc.message, field="game_id") from None
    if match_night not in Weekday.values:
        raise DomainError("bad_match_night", "Choose a day of the week.", field="match_night")
    if not (secretary or "").strip():
        raise DomainError(
            "required", "Name the league's first secretary (username or email).", field="secretary"
        )
    league = League.objects.create(
        name=name, slug=slug, town=town.strip(), game_id=game_id, match_night=match_night
    )
    appointment = officer_appoint(actor=actor, league=league, who=secretary, role=SECRETARY)
    return league, appointment


def _account(who: str) -> Any:
    user_model = get_user_model()
    who = who.strip()
    found = list(user_model.objects.filter(username__iexact=who, is_active=True)[:2])
    if not found and "@" in who:
        found = list(user_model.objects.filter(email__iexact=who, is_active=True)[:2])
    if len(found) > 1:
        raise DomainError(
            "ambiguous_account", "Several accounts have this email: give a username.", field="who"
        )
    return found[0] if found else None


@transaction.atomic
def officer_appoint(*, actor: Any, league: League, who: str, role: str) -> LeagueRole | Invitation:
    """Make someone an officer of `league`: an existing account (by username or email) at
    once, or anyone else by an emailed invitation (sent after the commit)."""
    require(
        actor,
        "leagues.manage_officers",
        league,
        code="not_secretary",
        message="Only the league's secretary appoints its officers.",
    )
    role = _check_role(role)
    who = (who or "").strip()
    if not who:
        raise DomainError("required", "Give a username or an email address.", field="who")
    user = _account(who)
    if user is not None:
        held, created = LeagueRole.objects.get_or_create(league=league, user=user, role=role)
        if not created:
            raise DomainError(
                "already_officer", f"{user.get_username()} is already {held.get_role_display()}."
            )
        forget_league_roles(user)
        return held
    if "@" not in who or len(who) > 254:
        raise DomainError(
            "unknown_account",
            "No account has this username: give an email address to invite someone new.",
            field="who",
        )
    email = who.lower()
    if Invitation.objects.filter(
        kind=Invitation.Kind.OFFICER,
        league=league,
        email=email,
        role=role,
        accepted_at__isnull=True,
    ).exists():
        raise DomainError("already_invited", f"{email} has already been invited.", field="who")
    invitation = Invitation.objects.create(
        kind=Invitation.Kind.OFFICER, league=league, email=email, role=role, invited_by=actor
    )
    tasks.send_invitation.delay_on_commit(invitation.pk)
    return invitation


@transaction.atomic
def officer_remove(*, actor: Any, role: LeagueRole) -> None:
    """Take a role away. A league keeps at least one secretary."""
    league = League.objects.select_for_update().get(pk=role.league_id)
    require(
        actor,
        "leagues.manage_officers",
        league,
        code="not_secretary",
        message="Only the league's secretary removes its officers.",
    )
    if (
        role.role == SECRETARY
        and LeagueRole.objects.filter(league=league, role=SECRETARY).count() <= 1
    ):
        raise DomainError(
            "last_secretary",
            "A league keeps at least one secretary: appoint another first.",
            status=409,
        )
    LeagueRole.objects.filter(pk=role.pk).delete()
    forget_league_roles(actor)


@transaction.atomic
def officer_invitation_cancel(*, actor: Any, invitation: Invitation) -> None:
    require(
        actor,
        "leagues.manage_officers",
        invitation.league,
        code="not_secretary",
        message="Only the league's secretary cancels an invitation.",
    )
    Invitation.objects.filter(
        pk=invitation.pk, kind=Invitation.Kind.OFFICER, accepted_at__isnull=True
    ).delete()


@transaction.atomic
def officer_invitation_accept(
    *,
    token: str,
    user: Any = None,
    username: str = "",
    password: str = "",
    now: datetime | None = None,
) -> LeagueRole:
    """Accept an officer's invitation: the signed-in `user` takes the role, or, with no one
    signed in, a new account is made for the invited address."""
    invitation = (
        Invitation.objects.select_for_update(of=("self",))
        .select_related("league")
        .filter(token=token, kind=Invitation.Kind.OFFICER)
        .first()
    )
    if invitation is None:
        raise DomainError("not_found", "This invitation does not exist.", status=404)
    if invitation.accepted_at is not None:
        raise DomainError("already_accepted", "This invitation has already been accepted.")
    if user is None or not user.is_authenticated:
        user = _account_create(username=username, password=password, email=invitation.email)
    held, _ = LeagueRole.objects.get_or_create(
        league=invitation.league, user=user, role=invitation.role
    )
    invitation.accepted_at = now or timezone.now()
    invitation.save(update_fields=["accepted_at"])
    forget_league_roles(user)
    return held
