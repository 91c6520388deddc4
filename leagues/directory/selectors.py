"""The directory's reads: venues with their tables, league nights and the leagues and teams
playing there now (from the teams' venues in seasons not finished: not stored twice);
posts shown now (published, not expired: by query, no job needed); a person's posts and
conversations. Each list is a fixed number of queries however many rows."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from typing import Any

from django.core.exceptions import ObjectDoesNotExist
from django.db.models import Prefetch, Q, QuerySet

from leagues.models import (
    DirectoryPost,
    League,
    PostConversation,
    PostMessage,
    Season,
    Team,
    Venue,
)
from rules import registry

#: The seasons whose teams "play there now".
CURRENT = (Season.Status.REGISTRATION, Season.Status.RUNNING)


def osm_url(latitude: Decimal | None, longitude: Decimal | None) -> str:
    """A plain link to the place on OpenStreetMap (no tiles or scripts served here).

    >>> osm_url(Decimal("52.63241"), Decimal("1.29650"))
    'https://www.openstreetmap.org/?mlat=52.63241&mlon=1.29650#map=18/52.63241/1.29650'
    >>> osm_url(None, None)
    ''
    """
    if latitude is None or longitude is None:
        return ""
    lat, lon = f"{latitude:.5f}", f"{longitude:.5f}"
    return f"https://www.openstreetmap.org/?mlat={lat}&mlon={lon}#map=18/{lat}/{lon}"


def game_name(game_id: str) -> str:
    try:
        return registry.get(game_id).name
    except registry.UnknownGame:
        return game_id


def user_label(user: Any) -> str:
    """How the directory names a person: their player's public name (initials when they
    asked), else their first name; never a username or an email address."""
    if user is None:
        return "Someone"
    try:
        player = user.player
    except ObjectDoesNotExist:  # no player record
        player = None
    if player is not None:
        return player.public_name
    first = (user.first_name or "").strip()
    if first and "@" not in first:
        return first
    return "A Marker user"


def _current_teams() -> Prefetch:
    return Prefetch(
        "teams",
        queryset=Team.objects.filter(season__status__in=CURRENT)
        .select_related("season__league", "division")
        .order_by("season__league__name", "name"),
        to_attr="current_teams",
    )


def _venues() -> QuerySet[Venue]:
    return Venue.objects.prefetch_related("game_tables", "nights", _current_teams())


@dataclass(frozen=True)
class TableLine:
    game_id: str
    game: str  # the game's name
    count: int
    notes: str


@dataclass
class VenueEntry:
    venue: Venue
    tables: list[TableLine]
    leagues: list[League]
    teams: list[Team]
    map_url: str


def _entry(venue: Venue) -> VenueEntry:
    teams: list[Team] = list(getattr(venue, "current_teams", []))
    leagues: dict[int, League] = {}
    for team in teams:
        leagues.setdefault(team.season.league_id, team.season.league)
    return VenueEntry(
        venue=venue,
        tables=[
            TableLine(t.game_id, game_name(t.game_id), t.count, t.notes)
            for t in venue.game_tables.all()
        ],
        leagues=sorted(leagues.values(), key=lambda league: league.name),
        teams=teams,
        map_url=osm_url(venue.latitude, venue.longitude),
    )


def venues_queryset(
    *, q: str = "", town: str = "", game: str = "", league: str = ""
) -> QuerySet[Venue]:
    """Venues by name or town (`q`), in a town, with a table for a game, or where a
    league's teams play now: by name."""
    qs = _venues()
    q = " ".join(q.split())
    if q:
        qs = qs.filter(Q(name__icontains=q) | Q(town__icontains=q))
    if town:
        qs = qs.filter(town__iexact=town.strip())
    if game:
        qs = qs.filter(game_tables__game_id=game)
    if league:
        qs = qs.filter(
            pk__in=Team.objects.filter(
                season__league__slug=league, season__status__in=CURRENT
            ).values("venue_id")
        )
    return qs.distinct().order_by("name")


def venue_entries(venues: Any) -> list[VenueEntry]:
    return [_entry(v) for v in venues]


def venue_entry(pk: int) -> VenueEntry:
    """One venue's directory entry (Venue.DoesNotExist when none)."""
    return _entry(_venues().get(pk=pk))


def towns() -> list[str]:
    return list(
        Venue.objects.exclude(town="").order_by("town").values_list("town", flat=True).distinct()
    )


def games_with_tables() -> list[tuple[str, str]]:
    """(game id, name) of the games some venue has a table for."""
    ids = (
        Venue.objects.filter(game_tables__isnull=False)
        .values_list("game_tables__game_id", flat=True)
        .distinct()
    )
    return sorted(((g, game_name(g)) for g in set(ids)), key=lambda pair: pair[1].lower())


# -------------------------------------------------------------------------- posts


def _posts() -> QuerySet[DirectoryPost]:
    return DirectoryPost.objects.select_related("league", "team__venue", "author__player")


def live(now: datetime) -> Q:
    """Published and not yet expired: what the public sees."""
    return Q(status=DirectoryPost.Status.PUBLISHED, expires_at__gt=now)


def posts_shown(
    *, now: datetime, league_slug: str = "", kind: str = "", venue_id: int | None = None
) -> QuerySet[DirectoryPost]:
    """The posts up now (a league's, of a kind, for teams at a venue), newest first."""
    qs = _posts().filter(live(now))
    if league_slug:
        qs = qs.filter(league__slug=league_slug)
    if kind:
        qs = qs.filter(kind=kind)
    if venue_id is not None:
        qs = qs.filter(team__venue_id=venue_id)
    return qs.order_by("-moderated_at", "-id")


def post_visible(pk: int, *, user: Any, now: datetime) -> DirectoryPost | None:
    """A post as `user` may see it: up now for anyone; in any state for its author and the
    league's secretary. None otherwise."""
    post = _posts().filter(pk=pk).first()
    if post is None:
        return None
    if post.status == DirectoryPost.Status.PUBLISHED and post.expires_at > now:
        return post
    if user.is_authenticated and (
        post.author_id == user.pk or user.has_perm("leagues.moderate_posts", post.league)
    ):
        return post
    return None


def posts_waiting(*, league: League) -> QuerySet[DirectoryPost]:
    """A league's posts waiting for its secretary, oldest first."""
    return (
        _posts()
        .filter(league=league, status=DirectoryPost.Status.PENDING)
        .order_by("created_at", "id")
    )


def posts_moderated(*, league: League, limit: int = 20) -> list[DirectoryPost]:
    """The league's latest published or refused posts (what the secretary decided)."""
    return list(
        _posts()
        .filter(league=league, moderated_at__isnull=False)
        .order_by("-moderated_at", "-id")[:limit]
    )


def my_posts(user: Any) -> QuerySet[DirectoryPost]:
    return _posts().filter(author=user).order_by("-created_at", "-id")


def my_conversations(user: Any) -> QuerySet[PostConversation]:
    """The conversations `user` is in: as the post's author or as who answered."""
    return (
        PostConversation.objects.filter(Q(answerer=user) | Q(post__author=user))
        .select_related("post__league", "post__team", "answerer__player", "post__author__player")
        .order_by("-last_message_at", "-id")
    )


def conversation(pk: int) -> PostConversation:
    """A conversation with its post (PostConversation.DoesNotExist when none)."""
    return PostConversation.objects.select_related(
        "post__league", "post__team", "answerer__player", "post__author__player"
    ).get(pk=pk)


def messages_of(conversation: PostConversation) -> list[PostMessage]:
    return list(conversation.messages.select_related("sender__player").order_by("created_at", "id"))
