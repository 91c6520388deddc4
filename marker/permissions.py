"""Who may do what: one table of predicates, checked on every object.

The roles are relations (captain of *this* team, referee of *this* frame, secretary), so
permissions are predicates over (user, object), in the style of django-rules. We can't use
django-rules itself: its import name, `rules`, is taken by our rules engine. This module is
the single place a permission is decided; views, the API and templates all ask
`user.has_perm(name, obj)`, which Django routes to `PredicateBackend`.

Each app registers its own predicates when it loads (`leagues/permissions.py`,
`frames/permissions.py`) with `register("frames.enter_event", predicate)`; services ask
`require(user, name, obj, ...)`, which raises the DomainError a refused command answers.

Leagues are tenants (docs/tenancy.md): the secretary predicates decide from **the league of
the object** (`league_id_of`), found by duck typing, and the user's roles in it, loaded once
per user object and cached on it. A site administrator (`is_superuser`) holds every role.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from django.core.exceptions import PermissionDenied
from rest_framework import permissions as drf_permissions

from marker.errors import DomainError

if TYPE_CHECKING:
    from rest_framework.request import Request
    from rest_framework.views import APIView

Predicate = Callable[[Any, Any], bool]

_PERMISSIONS: dict[str, Predicate] = {}


def register(name: str, predicate: Predicate) -> None:
    """Declare who holds permission `name` (predicate gets the user and the object)."""
    _PERMISSIONS[name] = predicate


def registered() -> dict[str, Predicate]:
    return dict(_PERMISSIONS)


def is_authenticated(user: Any, obj: Any = None) -> bool:
    return bool(user and user.is_authenticated and user.is_active)


# ------------------------------------------------------------------ leagues as tenants

SECRETARY = "secretary"
RESULTS_SECRETARY = "results_secretary"
COMPETITIONS_SECRETARY = "competitions_secretary"
TREASURER = "treasurer"
ROLES = (SECRETARY, RESULTS_SECRETARY, COMPETITIONS_SECRETARY, TREASURER)

#: The model label of a league (marker imports no app: it recognises one by its label).
LEAGUE_LABEL = "leagues.league"
#: The attributes that lead from an object towards its league, tried in this order.
LEAGUE_PATH = (
    "season",
    "division",
    "fixture",
    "match",
    "frame",
    "team",
    "competition",
    "publication",
)
_ROLE_CACHE = "_marker_league_roles"

# Who loads a user's roles: {league id: {role, ...}} (registered by leagues).
RoleLoader = Callable[[Any], dict[int, frozenset[str]]]
_role_loader: list[RoleLoader] = []
# Extra ways to find the league of an object (return None when they do not apply).
_league_resolvers: list[Callable[[Any], int | None]] = []


def set_role_loader(loader: RoleLoader) -> None:
    """The app that keeps league roles says how to load a user's (one query)."""
    _role_loader[:] = [loader]


def register_league_resolver(resolver: Callable[[Any], int | None]) -> None:
    """For an object none of the usual attributes lead from: resolver(obj) → league id."""
    _league_resolvers.append(resolver)


def league_id_of(obj: Any, _depth: int = 0) -> int | None:
    """The id of the league `obj` belongs to: a League itself, anything with a
    `league`/`league_id`, or a path through `season`, `division`, `fixture`, `match`,
    `frame`, `team`, `competition`, `publication`. None when it belongs to no league (a
    friendly game, a venue, a player)."""
    if obj is None or _depth > 8:
        return None
    for resolver in _league_resolvers:
        found = resolver(obj)
        if found is not None:
            return found
    meta = getattr(obj, "_meta", None)
    if meta is not None and meta.label_lower == LEAGUE_LABEL:
        return int(obj.pk)
    league_id = getattr(obj, "league_id", None)
    if league_id is not None:
        return int(league_id)
    if meta is None and getattr(obj, "league", None) is not None:
        return league_id_of(obj.league, _depth + 1)
    for attr in LEAGUE_PATH:
        # A model's foreign key: follow it only when set (no query for a null one).
        if meta is not None and hasattr(obj, f"{attr}_id"):
            if getattr(obj, f"{attr}_id") is None:
                continue
        elif meta is not None or getattr(obj, attr, None) is None:
            continue
        return league_id_of(getattr(obj, attr), _depth + 1)
    return None


def league_roles(user: Any) -> dict[int, frozenset[str]]:
    """The user's roles by league id, loaded once and kept on the user object (a request's
    user lives for the request, so a page asks the database once however many checks)."""
    if not is_authenticated(user):
        return {}
    cached = getattr(user, _ROLE_CACHE, None)
    if cached is None:
        cached = _role_loader[0](user) if _role_loader else {}
        setattr(user, _ROLE_CACHE, cached)
    return cached


def forget_league_roles(user: Any) -> None:
    """After a user's roles change, for the user object in hand."""
    if user is not None and hasattr(user, _ROLE_CACHE):
        delattr(user, _ROLE_CACHE)


def is_site_admin(user: Any, obj: Any = None) -> bool:
    """A site administrator (a superuser): creates leagues, holds every role everywhere."""
    return is_authenticated(user) and bool(user.is_superuser)


def _holds(user: Any, obj: Any, roles: frozenset[str]) -> bool:
    if not is_authenticated(user):
        return False
    if user.is_superuser:
        return True
    held = league_roles(user)
    if not held:  # no role anywhere: no need to find the league
        return False
    league_id = league_id_of(obj)
    if league_id is None:
        return False
    return bool(held.get(league_id, frozenset()) & roles)


_SECRETARY = frozenset({SECRETARY})
_RESULTS = frozenset({SECRETARY, RESULTS_SECRETARY})
_COMPETITIONS = frozenset({SECRETARY, COMPETITIONS_SECRETARY})
_TREASURY = frozenset({SECRETARY, TREASURER})


def is_secretary(user: Any, obj: Any = None) -> bool:
    """A secretary of the league of `obj` (or a site administrator). Without an object,
    no one but the site administrator: always pass the object (or its league)."""
    return _holds(user, obj, _SECRETARY)


def is_results_secretary(user: Any, obj: Any = None) -> bool:
    """A results secretary of the league of `obj`; its secretaries qualify too."""
    return _holds(user, obj, _RESULTS)


def is_competitions_secretary(user: Any, obj: Any = None) -> bool:
    """A competitions secretary of the league of `obj`; its secretaries qualify too."""
    return _holds(user, obj, _COMPETITIONS)


def is_treasurer(user: Any, obj: Any = None) -> bool:
    """A treasurer of the league of `obj` (its money); its secretaries qualify too."""
    return _holds(user, obj, _TREASURY)


def league_ids_where(user: Any, *roles: str) -> set[int] | None:
    """The leagues in which `user` holds one of `roles` (a secretary holds them all); None
    for a site administrator, meaning every league."""
    if is_site_admin(user):
        return None
    wanted = set(roles) | {SECRETARY}
    return {lid for lid, held in league_roles(user).items() if held & wanted}


def is_officer(user: Any, obj: Any = None) -> bool:
    """Holds any role in any league (or is a site administrator): for menus only."""
    return is_site_admin(user) or bool(league_roles(user))


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
    the system, which holds no permission). A site administrator holds every permission,
    as Django's `has_perm` says for a superuser."""
    predicate = _PERMISSIONS.get(name)
    if predicate is None:
        raise KeyError(f"no permission named {name!r} is registered")
    if user is None or not getattr(user, "is_active", False):
        return False
    return bool(getattr(user, "is_superuser", False) or predicate(user, obj))


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

    def has_permission(self, request: Request, view: APIView) -> bool:
        if request.method in drf_permissions.SAFE_METHODS:
            return True
        perm = getattr(view, "write_permission", None)
        if perm is None:
            return False
        if not is_authenticated(request.user):
            return False
        get_obj = getattr(view, "get_permission_object", None)
        if get_obj is not None:
            return bool(request.user.has_perm(perm, get_obj()))
        return True

    def has_object_permission(self, request: Request, view: APIView, obj: Any) -> bool:
        if request.method in drf_permissions.SAFE_METHODS:
            return True
        perm = getattr(view, "write_permission", None)
        return perm is not None and bool(request.user.has_perm(perm, obj))
