"""Personal data pages: a person's own data (download, and the choice not to be named
publicly), and the secretary's erasure of a person, with its confirmation page."""

from __future__ import annotations

import hashlib
import json
from datetime import date

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.serializers.json import DjangoJSONEncoder
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.cache import get_conditional_response
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from leagues import audience
from leagues.models import CalendarFeed, Player
from leagues.teams import services as team_services
from marker.errors import DomainError
from marker.permissions import require_perm
from notifications import views as notification_views

from . import erasure, export, naming
from .calendar import feed as calendar_feed
from .calendar import services as calendar_services
from .calendar.addresses import address_of


def _own_player(user) -> Player | None:
    return Player.objects.filter(user=user).first()


@login_required
@require_http_methods(["GET", "POST"])
def my_data(request):
    """What Marker holds about me, the download, and whether I am named publicly."""
    player = _own_player(request.user)
    status = 200
    if request.method == "POST":
        if player is None:
            messages.error(request, "Your account has no player record to name or not.")
            status = 400
        else:
            try:
                player = naming.person_set_private_name(
                    player=player, private=request.POST.get("private_name") == "1"
                )
            except DomainError as exc:
                messages.error(request, exc.message)
                status = 400
            else:
                messages.success(
                    request,
                    f"Public pages now show you as {player.public_name}."
                    if player.private_name
                    else "Public pages now show your name.",
                )
                return redirect("my-data")
    calendar = None
    if player is not None and not player.is_erased:
        calendar = address_of(request, calendar_services.calendar_feed_ensure(player=player))
    data = export.person_data(player, request.user)
    counts = {
        key: len(value)
        for key, value in data.items()
        if isinstance(value, list) and key != "friendly_games"
    }
    return render(
        request,
        "people/my_data.html",
        {"player": player, "counts": counts, "data": data, "calendar": calendar},
        status=status,
    )


@login_required
@require_POST
def my_calendar_renew(request):
    """Revoke my calendar address and make a new one."""
    player = _own_player(request.user)
    if player is None:
        messages.error(request, "Your account has no player record, so no calendar.")
        return redirect("my-data")
    try:
        calendar_services.calendar_feed_renew(player=player)
    except DomainError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(
            request,
            "Your calendar has a new address; the old one no longer works. "
            "Subscribe again with the new one.",
        )
    return redirect("my-data")  # the message shows at the top, the card just below


@login_required
@require_POST
def my_categories(request):
    """My date of birth (checked by age categories, never shown publicly) and whether
    ladies' events are mine to enter."""
    player = _own_player(request.user)
    if player is None:
        messages.error(request, "Your account has no player record to enter events with.")
        return redirect("my-data")
    raw = request.POST.get("date_of_birth", "").strip()
    try:
        born = date.fromisoformat(raw) if raw else None
    except ValueError:
        messages.error(request, "A date of birth is written 1975-04-30.")
        return redirect("my-data")
    try:
        team_services.player_set_category_details(
            player=player, date_of_birth=born, plays_ladies=request.POST.get("plays_ladies") == "1"
        )
    except DomainError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, "Saved: only you and your league's officers see these.")
    return redirect("my-data")


@require_safe
def person_calendar(request, token: str):
    """A person's calendar at its private address (no login: the token is the key);
    404 for an unknown or revoked address."""
    feed = (
        CalendarFeed.objects.filter(token=token, revoked_at__isnull=True)
        .select_related("player")
        .first()
    )
    if feed is None:
        raise Http404("No such calendar.")
    body = calendar_feed.person_calendar(feed.player)
    response = HttpResponse(body, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = 'inline; filename="marker.ics"'
    response["Cache-Control"] = "private, no-cache"
    response["X-Robots-Tag"] = "noindex"
    response["Referrer-Policy"] = "no-referrer"
    # The body is the same until an event changes (its DTSTAMPs are the events' versions):
    # a calendar app refreshing with If-None-Match gets a 304.
    response["ETag"] = f'"{hashlib.sha256(body).hexdigest()[:32]}"'
    return get_conditional_response(request, etag=response["ETag"], response=response)


@login_required
@require_safe
def my_data_download(request):
    """Everything Marker holds about me, as a JSON file."""
    data = export.person_data(_own_player(request.user), request.user)
    body = json.dumps(data, cls=DjangoJSONEncoder, indent=2, ensure_ascii=False)
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="marker-my-data.json"'
    response["Cache-Control"] = "no-store"
    return response


@login_required
@require_http_methods(["GET", "POST"])
def person_erase(request, pk: int):
    """The secretary erases a person: a confirmation page, then the irreversible act."""
    player = get_object_or_404(Player, pk=pk)
    require_perm(request.user, "leagues.erase_person", player)
    status = 200
    error = ""
    if request.method == "POST":
        if request.POST.get("confirm") != "1":
            error, status = "Tick the box: erasing a person cannot be undone.", 400
        else:
            try:
                done = erasure.person_erase(player=player, actor=request.user)
            except DomainError as exc:
                error, status = exc.message, exc.status
            else:
                messages.success(
                    request, f"Erased. The player is now {erasure.former_name(done.number)}."
                )
                return redirect("player-detail", pk=player.pk)
    return render(
        request,
        "people/erase.html",
        {"player": player, "error": error},
        status=status,
    )


# ---------------------------------------------------------------- messages (notifications)


def _messages_page(request, recipient):
    """The notifications' choices page, with the leagues the person plays or officiates
    in (found here: `people` reads every app; `notifications` reads none)."""
    user_id = recipient.user_id
    leagues = audience.leagues_of(user_id=user_id, email="" if user_id else recipient.email)
    return notification_views.choices_page(request, recipient, action=request.path, leagues=leagues)


@login_required
@require_http_methods(["GET", "POST"])
def my_messages(request):
    """My choices of messages (the account menu's "Messages")."""
    return _messages_page(request, notification_views.recipient_of_user(request.user))


@require_http_methods(["GET", "POST"])
def token_messages(request, token: str):
    """The same page from the link in every message, without a login: the token is the key."""
    return _messages_page(request, notification_views.recipient_of_token(token))
