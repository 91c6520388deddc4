"""Who may do what: one table of predicates, checked on every object.

The roles are relations (captain of *this* team, referee of *this* frame, secretary), so
permissions are predicates over (user, object), in the style of django-rules. We can't use
django-rules itself: its import name, `rules`, is taken by our rules engine. This module is
the single place a permission is decided; views, the API and templates all ask
`user.has_perm(name, obj)`, which Django routes to `PredicateBackend`.

Each app registers its own predicates when it loads (`leagues/permissions.py`,
`frames/permissions.py`) with `register("frames.enter_event", predicate)`; services ask
`require(user, name, obj, ...)`, which raises the DomainError a refused command answers.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.core.exceptions import PermissionDenied
from rest_framework import permissions as drf_permissions

from marker.errors import DomainError

Predicate = Callable[[Any, Any], bool]

_PERMISSIONS: dict[str, Predicate] = {}


def register(name: str, predicate: Predicate) -> None:
    """Declare who holds permission `name` (predicate gets the user and the object)."""
    _PERMISSIONS[name] = predicate


def registered() -> dict[str, Predicate]:
    return dict(_PERMISSIONS)


def is_authenticated(user: Any, obj: Any = None) -> bool:
    return bool(user and user.is_authenticated and user.is_active)


def is_secretary(user: Any, obj: Any = None) -> bool:
    """League secretaries are staff accounts."""
    return is_authenticated(user) and bool(user.is_staff)


def is_results_secretary(user: Any, obj: Any = None) -> bool:
    """Who may key in and settle results for obj's league (today: any secretary)."""
    return is_secretary(user, obj)


def is_competitions_secretary(user: Any, obj: Any = None) -> bool:
    """Who runs obj's league's competitions (today: any secretary)."""
    return is_secretary(user, obj)


def is_team_captain(user: Any, team: Any) -> bool:
    """Captain or vice-captain of this team."""
    return (
        is_authenticated(user)
        and team is not None
        and user.pk
        in (
            team.captain_id,
            team.vice_captain_id,
        )
    )


def is_registered_player(user: Any, obj: Any = None) -> bool:
    """Any player registered with a team (the referee role)."""
    if not is_authenticated(user):
        return False
    player = getattr(user, "player", None)
    return player is not None and player.registrations.filter(status="active").exists()


def either(*predicates: Predicate) -> Predicate:
    def check(user: Any, obj: Any) -> bool:
        return any(p(user, obj) for p in predicates)

    return check


def allowed(user: Any, name: str, obj: Any = None) -> bool:
    """`user.has_perm(name, obj)` without the backend round trip (and for `user=None`,
    the system, which holds no permission)."""
    predicate = _PERMISSIONS.get(name)
    if predicate is None:
        raise KeyError(f"no permission named {name!r} is registered")
    return bool(user is not None and getattr(user, "is_active", False) and predicate(user, obj))


def require_perm(user: Any, name: str, obj: Any = None) -> None:
    """For views: PermissionDenied (a 403 page) unless `user` holds `name` on `obj`."""
    if not user.has_perm(name, obj):
        raise PermissionDenied


def require(
    user: Any, name: str, obj: Any = None, *, message: str, code: str = "forbidden"
) -> None:
    """Raise DomainError(code, message, status=403) unless `user` holds `name` on `obj`."""
    if not allowed(user, name, obj):
        raise DomainError(code, message, status=403)


class PredicateBackend:
    """Django authentication backend that answers `has_perm` from the predicate table."""

    def authenticate(self, request: Any, **credentials: Any) -> None:
        return None

    def has_perm(self, user: Any, perm: str, obj: Any = None) -> bool:
        if perm not in _PERMISSIONS:
            return False
        return allowed(user, perm, obj)

    def has_module_perms(self, user: Any, app_label: str) -> bool:
        return False


class ReadOnlyOrPredicate(drf_permissions.BasePermission):
    """Anyone may read; writes need the view's `write_permission` on the object.

    A view sets `write_permission = "leagues.change_team"`; object-less writes (create)
    check it against `get_permission_object()` when the view defines one.
    """

    def has_permission(self, request, view) -> bool:
        if request.method in drf_permissions.SAFE_METHODS:
            return True
        perm = getattr(view, "write_permission", None)
        if perm is None:
            return False
        if not is_authenticated(request.user):
            return False
        get_obj = getattr(view, "get_permission_object", None)
        if get_obj is not None:
            return request.user.has_perm(perm, get_obj())
        return True

    def has_object_permission(self, request, view, obj) -> bool:
        if request.method in drf_permissions.SAFE_METHODS:
            return True
        perm = getattr(view, "write_permission", None)
        return perm is not None and request.user.has_perm(perm, obj)
