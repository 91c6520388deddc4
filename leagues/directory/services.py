"""The directory's writes ("Where to play", docs/directory.md): a venue's details, tables
and league nights (a secretary of a league playing there); "Join a team" and "Looking for a
team" posts, their moderation by the league's secretary, their expiry, and answers sent
through the site (no email address ever shown to either side)."""

from __future__ import annotations

import re
from datetime import datetime, time, timedelta
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.utils import timezone

from leagues.models import (
    DirectoryPost,
    League,
    PostConversation,
    PostMessage,
    Season,
    Team,
    Venue,
    VenueNight,
    VenueTable,
    Weekday,
)
from marker.errors import DomainError
from marker.permissions import require
from notifications.events import Event
from notifications.services import To, notify
from rules import registry

EDIT_VENUE = "leagues.edit_venue"
POST_FOR_TEAM = "leagues.post_for_team"
POST_LOOKING = "leagues.post_looking"
ANSWER = "leagues.answer_post"
WITHDRAW = "leagues.withdraw_post"
MODERATE = "leagues.moderate_posts"
SEE_CONVERSATION = "leagues.see_conversation"

#: How long a post stays up unless its author chooses (days), and the longest it may.
DEFAULT_DAYS = 30
MAX_DAYS = 90
MAX_TITLE = 120
MAX_BODY = 2000
MAX_NOTES = 1000
MAX_REASON = 300
MAX_TABLE_NOTES = 200
MAX_NIGHT_NOTE = 120
MAX_TABLES = 50
#: An open post (waiting or published) per author, league, kind and team at a time.
OPEN = (DirectoryPost.Status.PENDING, DirectoryPost.Status.PUBLISHED)

#: Something that reads as an email address: refused in posts and messages, so that no
#: address is ever shown through the directory (answers come through the site).
EMAIL = re.compile(r"[^\s@<>()]+@[^\s@<>()]+\.[^\s@<>()]{2,}")


def _text(value: str, *, field: str, limit: int, code: str, what: str, required: bool) -> str:
    value = (value or "").strip()
    if required and not value:
        raise DomainError(code, f"Write the {what}.", field=field)
    if len(value) > limit:
        raise DomainError(code, f"The {what} has at most {limit} characters.", field=field)
    if EMAIL.search(value):
        raise DomainError(
            "email_in_text",
            "Leave email addresses out: answers come through the site, and neither side "
            "sees the other's address.",
            field=field,
        )
    return value


# ------------------------------------------------------------------------- venues


def _require_editor(actor: Any, venue: Venue) -> None:
    require(
        actor,
        EDIT_VENUE,
        venue,
        code="venue_not_yours",
        message="Only a secretary of a league whose teams play here keeps this venue's details.",
    )


def _locked(venue: Venue) -> Venue:
    return Venue.objects.select_for_update().get(pk=venue.pk)


@transaction.atomic
def venue_details_set(
    *,
    venue: Venue,
    actor: Any,
    town: str,
    address: str,
    notes: str = "",
    latitude: Decimal | None = None,
    longitude: Decimal | None = None,
) -> Venue:
    """A venue's town, address, public notes and coordinates (both, or neither)."""
    _require_editor(actor, venue)
    venue = _locked(venue)
    town = " ".join((town or "").split())
    if len(town) > 80:
        raise DomainError("venue_town", "A town has at most 80 characters.", field="town")
    notes = (notes or "").strip()
    if len(notes) > MAX_NOTES:
        raise DomainError(
            "venue_notes", f"Notes have at most {MAX_NOTES} characters.", field="notes"
        )
    if (latitude is None) != (longitude is None):
        raise DomainError(
            "venue_coordinates",
            "Give both the latitude and the longitude, or neither.",
            field="latitude" if latitude is None else "longitude",
        )
    if latitude is not None and longitude is not None:
        if not Decimal(-90) <= latitude <= Decimal(90):
            raise DomainError(
                "venue_coordinates", "A latitude is from -90 to 90.", field="latitude"
            )
        if not Decimal(-180) <= longitude <= Decimal(180):
            raise DomainError(
                "venue_coordinates", "A longitude is from -180 to 180.", field="longitude"
            )
        latitude = latitude.quantize(Decimal("0.00001"))
        longitude = longitude.quantize(Decimal("0.00001"))
    venue.town = town
    venue.address = (address or "").strip()
    venue.notes = notes
    venue.latitude = latitude
    venue.longitude = longitude
    venue.save(update_fields=["town", "address", "notes", "latitude", "longitude"])
    return venue


@transaction.atomic
def venue_table_set(
    *, venue: Venue, actor: Any, game_id: str, count: int, notes: str = ""
) -> VenueTable:
    """The venue's tables for one game (replacing what it said for that game)."""
    _require_editor(actor, venue)
    venue = _locked(venue)
    try:
        game_id = registry.get(game_id).id
    except registry.UnknownGame:
        raise DomainError("unknown_game", "Choose a game Marker knows.", field="game_id") from None
    if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= MAX_TABLES:
        raise DomainError("venue_table_count", f"From 1 to {MAX_TABLES} tables.", field="count")
    notes = " ".join((notes or "").split())
    if len(notes) > MAX_TABLE_NOTES:
        raise DomainError(
            "venue_table_notes", f"At most {MAX_TABLE_NOTES} characters.", field="notes"
        )
    table, _ = VenueTable.objects.update_or_create(
        venue=venue, game_id=game_id, defaults={"count": count, "notes": notes}
    )
    return table


@transaction.atomic
def venue_table_remove(*, venue: Venue, actor: Any, game_id: str) -> None:
    _require_editor(actor, venue)
    VenueTable.objects.filter(venue=venue, game_id=game_id).delete()


@transaction.atomic
def venue_night_set(
    *, venue: Venue, actor: Any, weekday: int, starts_at: time | None = None, note: str = ""
) -> VenueNight:
    """A night the venue hosts league play, with its time and a line ("Doors 7pm")."""
    _require_editor(actor, venue)
    venue = _locked(venue)
    if weekday not in Weekday.values:
        raise DomainError("venue_night_day", "Choose a day of the week.", field="weekday")
    note = " ".join((note or "").split())
    if len(note) > MAX_NIGHT_NOTE:
        raise DomainError("venue_night_note", f"At most {MAX_NIGHT_NOTE} characters.", field="note")
    night, _ = VenueNight.objects.update_or_create(
        venue=venue, weekday=weekday, defaults={"starts_at": starts_at, "note": note}
    )
    return night


@transaction.atomic
def venue_night_remove(*, venue: Venue, actor: Any, weekday: int) -> None:
    _require_editor(actor, venue)
    VenueNight.objects.filter(venue=venue, weekday=weekday).delete()


# -------------------------------------------------------------------------- posts


@transaction.atomic
def post_create(
    *,
    league: League,
    kind: str,
    actor: Any,
    title: str,
    body: str = "",
    team: Team | None = None,
    days: int = DEFAULT_DAYS,
    now: datetime | None = None,
) -> DirectoryPost:
    """A "Join a team" post (the team's captain, for a team of this league playing this
    season) or a "Looking for a team" post (anyone signed in): waiting for the league's
    secretary, up for `days` (1–90) once published."""
    now = now or timezone.now()
    if kind == DirectoryPost.Kind.JOIN_TEAM:
        if team is None:
            raise DomainError("post_team", "Choose the team the post is for.", field="team")
        require(
            actor,
            POST_FOR_TEAM,
            team,
            code="post_not_captain",
            message="Only the team's captain or vice-captain posts “Join a team” for it.",
        )
        season = Season.objects.only("league_id", "status").get(pk=team.season_id)
        if season.league_id != league.pk:
            raise DomainError("post_team", "That team plays in another league.", field="team")
        if season.status == Season.Status.FINISHED:
            raise DomainError(
                "post_team", "That team's season is finished: post for this season's.", field="team"
            )
    elif kind == DirectoryPost.Kind.LOOKING:
        require(
            actor,
            POST_LOOKING,
            league,
            code="not_authenticated",
            message="Sign in to post that you are looking for a team.",
        )
        team = None
    else:
        raise DomainError(
            "post_kind", "Choose “Join a team” or “Looking for a team”.", field="kind"
        )
    title = " ".join(
        _text(
            title, field="title", limit=MAX_TITLE, code="post_title", what="title", required=True
        ).split()
    )
    body = _text(body, field="body", limit=MAX_BODY, code="post_body", what="text", required=False)
    if not isinstance(days, int) or isinstance(days, bool) or not 1 <= days <= MAX_DAYS:
        raise DomainError("post_days", f"A post stays up from 1 to {MAX_DAYS} days.", field="days")
    open_posts = DirectoryPost.objects.select_for_update().filter(
        league=league, kind=kind, author=actor, status__in=OPEN, expires_at__gt=now
    )
    if team is not None:
        open_posts = open_posts.filter(team=team)
    if open_posts.exists():
        raise DomainError(
            "post_duplicate",
            "You have a post like this up or waiting already: withdraw it first.",
            status=409,
        )
    return DirectoryPost.objects.create(
        league=league,
        kind=kind,
        team=team,
        author=actor,
        title=title,
        body=body,
        status=DirectoryPost.Status.PENDING,
        created_at=now,
        expires_at=now + timedelta(days=days),
    )


def _locked_post(post: DirectoryPost) -> DirectoryPost:
    return (
        DirectoryPost.objects.select_for_update(of=("self",))
        .select_related("league")
        .get(pk=post.pk)
    )


def _require_moderator(actor: Any, post: DirectoryPost) -> None:
    require(
        actor,
        MODERATE,
        post.league,
        code="not_moderator",
        message=f"Only a secretary of {post.league.name} publishes or refuses its posts.",
    )


def _require_pending(post: DirectoryPost) -> None:
    if post.status != DirectoryPost.Status.PENDING:
        raise DomainError(
            "post_not_pending",
            f"This post is {post.get_status_display().lower()}, not waiting.",
            status=409,
        )


@transaction.atomic
def post_publish(*, post: DirectoryPost, actor: Any, now: datetime | None = None) -> DirectoryPost:
    """The secretary publishes a waiting post: it is up for the days its author chose,
    counted from now."""
    now = now or timezone.now()
    post = _locked_post(post)
    _require_moderator(actor, post)
    _require_pending(post)
    lasts = post.expires_at - post.created_at
    post.status = DirectoryPost.Status.PUBLISHED
    post.moderated_by = actor
    post.moderated_at = now
    post.expires_at = now + lasts
    post.save(update_fields=["status", "moderated_by", "moderated_at", "expires_at"])
    return post


@transaction.atomic
def post_refuse(
    *, post: DirectoryPost, actor: Any, reason: str, now: datetime | None = None
) -> DirectoryPost:
    """The secretary refuses a waiting post, saying why (its author reads the reason)."""
    now = now or timezone.now()
    post = _locked_post(post)
    _require_moderator(actor, post)
    reason = " ".join((reason or "").split())
    if not reason:
        raise DomainError("refusal_reason", "Say why the post is refused.", field="reason")
    if len(reason) > MAX_REASON:
        raise DomainError(
            "refusal_reason", f"A reason has at most {MAX_REASON} characters.", field="reason"
        )
    _require_pending(post)
    post.status = DirectoryPost.Status.REFUSED
    post.refusal_reason = reason
    post.moderated_by = actor
    post.moderated_at = now
    post.save(update_fields=["status", "refusal_reason", "moderated_by", "moderated_at"])
    return post


@transaction.atomic
def post_withdraw(*, post: DirectoryPost, actor: Any, now: datetime | None = None) -> DirectoryPost:
    """Its author takes a post down (waiting or up). Withdrawing again changes nothing."""
    now = now or timezone.now()
    post = _locked_post(post)
    require(
        actor, WITHDRAW, post, code="post_not_yours", message="Only its author withdraws a post."
    )
    if post.status == DirectoryPost.Status.WITHDRAWN:
        return post
    if post.status not in OPEN:
        raise DomainError(
            "post_closed", f"This post is {post.get_status_display().lower()} already.", status=409
        )
    post.status = DirectoryPost.Status.WITHDRAWN
    post.save(update_fields=["status"])
    return post


@transaction.atomic
def posts_expire(*, now: datetime | None = None) -> int:
    """Mark the posts past their time expired (the daily task). The public lists hide them
    by their `expires_at` already; this only names their state. Safe to run twice."""
    now = now or timezone.now()
    return DirectoryPost.objects.filter(status__in=OPEN, expires_at__lte=now).update(
        status=DirectoryPost.Status.EXPIRED
    )


# ------------------------------------------------------------------------ answers


def _tell(*, message: PostMessage, post: DirectoryPost, to_user_id: int, now: datetime) -> None:
    notify(
        event=Event.POST_ANSWERED,
        to=[To(user_id=to_user_id)],
        key=f"post-message:{message.pk}",
        title=f"An answer to “{post.title}”",
        body=message.body[:500],
        url=message.conversation.get_absolute_url(),
        league_id=post.league_id,
        now=now,
    )


@transaction.atomic
def post_answer(
    *, post: DirectoryPost, actor: Any, body: str, now: datetime | None = None
) -> PostMessage:
    """Someone signed in answers a published post through the site: the message opens (or
    continues) their conversation with its author, who is told (`POST_ANSWERED`)."""
    now = now or timezone.now()
    require(actor, ANSWER, post, code="not_authenticated", message="Sign in to answer a post.")
    post = _locked_post(post)
    if post.author_id == actor.pk:
        raise DomainError("post_own", "That is your own post.", status=409)
    if post.status != DirectoryPost.Status.PUBLISHED or post.expires_at <= now:
        raise DomainError("post_closed", "This post is no longer up.", status=409)
    body = _text(
        body, field="body", limit=MAX_BODY, code="message_body", what="message", required=True
    )
    conversation, _ = PostConversation.objects.get_or_create(
        post=post, answerer=actor, defaults={"created_at": now, "last_message_at": now}
    )
    return _add(conversation, post, actor, body, now, to_user_id=post.author_id)


def _add(
    conversation: PostConversation,
    post: DirectoryPost,
    actor: Any,
    body: str,
    now: datetime,
    *,
    to_user_id: int,
) -> PostMessage:
    message = PostMessage.objects.create(
        conversation=conversation, sender=actor, body=body, created_at=now
    )
    PostConversation.objects.filter(pk=conversation.pk).update(last_message_at=now)
    _tell(message=message, post=post, to_user_id=to_user_id, now=now)
    return message


@transaction.atomic
def conversation_reply(
    *, conversation: PostConversation, actor: Any, body: str, now: datetime | None = None
) -> PostMessage:
    """The post's author or its answerer writes again in their conversation; the other is
    told. It goes on after the post comes down (they may be arranging a night)."""
    now = now or timezone.now()
    conversation = (
        PostConversation.objects.select_for_update(of=("self",))
        .select_related("post__league")
        .get(pk=conversation.pk)
    )
    require(
        actor,
        SEE_CONVERSATION,
        conversation,
        code="not_in_conversation",
        message="Only the post's author and the person who answered it write here.",
    )
    body = _text(
        body, field="body", limit=MAX_BODY, code="message_body", what="message", required=True
    )
    post = conversation.post
    other = conversation.answerer_id if actor.pk == post.author_id else post.author_id
    return _add(conversation, post, actor, body, now, to_user_id=other)
