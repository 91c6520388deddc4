"""What Django's and the libraries' tables hold of a person (`marker.personal_data`):
the account, the login records (django-axes) and the admin's log of changes."""

from __future__ import annotations

from typing import Any

from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.contrib.admin.models import LogEntry
from django.contrib.contenttypes.models import ContentType
from django.db.models import Q

from leagues.models import Player
from marker.personal_data import Erasure, Person, Section, iso, rewrite_rows, rewriter

LOGIN_RECORDS = (AccessAttempt, AccessLog, AccessFailureLog)


def _account(person: Person) -> dict[str, Any] | None:
    user = person.user
    if user is None:
        return None
    return {
        "username": user.get_username(),
        "email": user.email,
        "first_name": user.first_name,
        "last_name": user.last_name,
        "date_joined": iso(user.date_joined),
        "last_login": iso(user.last_login),
        "is_active": user.is_active,
    }


def _account_erase(erasure: Erasure) -> None:
    """The account is deactivated and scrubbed, not deleted (what it did stays linked
    to it): an opaque username; email, names and password cleared."""
    user = erasure.person.user
    if user is None:
        return
    user.username = f"former-player-{erasure.number}"
    user.email = ""
    user.first_name = ""
    user.last_name = ""
    user.is_active = False
    user.is_staff = False
    user.is_superuser = False
    user.set_unusable_password()
    user.save()


def _login_records(person: Person) -> list[dict[str, Any]]:
    if person.user is None:
        return []
    username = person.user.get_username()
    rows: list[dict[str, Any]] = []
    for model in LOGIN_RECORDS:
        rows += [
            {
                "kind": model._meta.verbose_name,
                "ip_address": r.ip_address,
                "user_agent": r.user_agent,
                "at": iso(r.attempt_time),
            }
            for r in model.objects.filter(username=username).order_by("attempt_time", "id")
        ]
    return rows


def _login_records_erase(erasure: Erasure) -> None:
    for model in LOGIN_RECORDS:
        model.objects.filter(username__in=erasure.usernames).delete()


def _admin_log_erase(erasure: Erasure) -> None:
    """The admin's log names a changed row by its text at the time (`object_repr`):
    the player's and the account's are renamed."""
    about = Q(
        content_type=ContentType.objects.get_for_model(Player),
        object_id=str(erasure.player.pk),
    )
    user = erasure.person.user
    labels = dict(erasure.labels)
    if user is not None:
        about |= Q(content_type=ContentType.objects.get_for_model(user), object_id=str(user.pk))
        labels.update({old: f"former-player-{erasure.number}" for old in erasure.usernames})
    rewrite = rewriter(labels)
    rewrite_rows(LogEntry.objects.filter(about).order_by("pk"), ["object_repr"], rewrite)


SECTIONS: tuple[Section, ...] = (
    Section(
        "account",
        ("auth.User.username", "auth.User.first_name", "auth.User.last_name", "auth.User.email"),
        export=_account,
        erase=_account_erase,
        description="the account (deactivated and scrubbed)",
    ),
    Section(
        "login_records",
        (
            *(f"axes.{m.__name__}.username" for m in LOGIN_RECORDS),
            *(f"axes.{m.__name__}.ip_address" for m in LOGIN_RECORDS),
        ),
        export=_login_records,
        erase=_login_records_erase,
        description="sign-in attempts and logins: address and browser (removed)",
    ),
    Section(
        "admin_log",
        ("admin.LogEntry.object_repr",),
        erase=_admin_log_erase,
        description="the admin's log of changes to the player and the account (renamed)",
    ),
)

#: Fields that look personal by the rule and are not, with why.
NOT_PERSONAL: dict[str, str] = {
    "auth.Group.name": "a group of permissions",
    "auth.Permission.name": "a permission's name",
    "auth.Permission.codename": "a permission's code",
    "admin.LogEntry.user": "the administrator who acted (an account, scrubbed on theirs)",
}
