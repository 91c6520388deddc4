"""The pages of a person's messages: their choices (with a login, or from the link in
every message), and the one-tap unsubscribe (RFC 8058).

The choices page is served by `people.views` (which knows the leagues a person plays or
officiates in, and passes them in): this app imports no other."""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core import signing
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST

from marker.errors import DomainError

from . import push, services, vapid
from .delivery import UNSUBSCRIBE_SALT
from .events import Event
from .forms import ChoicesForm
from .models import Delivery, Notification, Recipient


def recent_messages(recipient: Recipient, limit: int = 30) -> list[Notification]:
    """The person's last messages with their deliveries (two queries), each with a
    `status` line: what became of it."""
    found = list(
        Notification.objects.filter(recipient=recipient)
        .prefetch_related("deliveries")
        .order_by("-created_at", "-id")[:limit]
    )
    zone = services.zone_of(recipient)
    for n in found:
        n.status = delivery_status(list(n.deliveries.all()), zone)  # type: ignore[attr-defined]
    return found


def delivery_status(deliveries: list[Delivery], zone) -> str:
    """One line on what became of a message: sent (by which channels), waiting (until
    when: quiet hours, a digest, a provider's back-off), turned off, or given up."""
    if not deliveries:
        return "Not sent: no email address or phone to send it to"
    sent = sorted({d.get_channel_display() for d in deliveries if d.status == "sent"})
    pending = [d for d in deliveries if d.status == Delivery.Status.PENDING]
    if sent:
        return "Sent: " + ", ".join(sent).replace("Digest", "in a digest")
    if pending:
        due = min(d.due_at for d in pending).astimezone(zone)
        what = "In the digest of" if pending[0].channel == "digest" else "Waiting until"
        return f"{what} {due:%a %-d %b %H:%M}"
    if any(d.status == Delivery.Status.DROPPED for d in deliveries):
        return "Not sent: turned off, or the phone unsubscribed"
    return "Not sent: gave up after several tries"


def choices_page(
    request: HttpRequest,
    recipient: Recipient,
    *,
    action: str,
    leagues: Sequence[tuple[int, str]] = (),
) -> HttpResponse:
    """The choices page of `recipient`, with a mute and overrides for each of `leagues`
    ((id, name): the leagues the person plays or officiates in, found by the caller)."""
    if request.method == "POST":
        form = ChoicesForm(request.POST, recipient=recipient, leagues=leagues)
        if form.is_valid():
            form.save()
            messages.success(request, "Your choices are saved.")
            return redirect(action)
    else:
        form = ChoicesForm(recipient=recipient, leagues=leagues)
    return render(
        request,
        "notifications/choices.html",
        {
            "form": form,
            "recipient": recipient,
            "action": action,
            "recent": recent_messages(recipient),
            "push": _push_context(request, recipient),
        },
    )


def _push_context(request: HttpRequest, recipient: Recipient) -> dict:
    """The choices page's push part: the server's key and the person's phones (with a
    login only: the push API is the signed-in person's)."""
    pair = vapid.keys()
    mine = request.user.is_authenticated and recipient.user_id == request.user.pk
    devices = push.devices_of(recipient) if mine else []
    return {
        "available": pair is not None,
        "public_key": pair.public if pair else "",
        "signed_in": mine,
        "devices": [(d, push.device_label(d.user_agent)) for d in devices],
    }


@login_required
@require_POST
def push_remove(request: HttpRequest, pk: int) -> HttpResponse:
    """Remove one of the signed-in person's phones (another person's: 404)."""
    recipient = services.recipient_for(
        services.To(user_id=request.user.pk, email=getattr(request.user, "email", "")),
        now=timezone.now(),
    )
    assert recipient is not None
    try:
        push.push_unsubscribe(recipient=recipient, pk=pk)
    except DomainError as exc:
        raise Http404(exc.message) from exc
    messages.success(request, "That phone no longer receives push messages.")
    return redirect("notifications-choices")


def recipient_of_user(user) -> Recipient:
    recipient = services.recipient_for(
        services.To(user_id=user.pk, email=getattr(user, "email", "")), now=timezone.now()
    )
    assert recipient is not None  # a login is always reachable
    return recipient


def recipient_of_token(token: str) -> Recipient:
    return get_object_or_404(Recipient.objects.select_related("user"), token=token)


@csrf_exempt  # RFC 8058: the mail client POSTs without cookies; the signed token is the key
@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """GET: a page with one button (link checkers follow GETs: they must not unsubscribe).
    POST (the button, or a mail client's one-click): turn it off."""
    try:
        data = signing.loads(token, salt=UNSUBSCRIBE_SALT)
        recipient = Recipient.objects.get(pk=data["r"])
    except (signing.BadSignature, KeyError, TypeError, Recipient.DoesNotExist):
        return HttpResponseBadRequest(
            "This unsubscribe link is not valid (it may have been cut short). "
            "Open your choices from Marker's menu instead."
        )
    event, league_id = data.get("e") or "", data.get("l")
    what = Event(event).label if event in Event.values else "every message from Marker"
    done = False
    if request.method == "POST":
        services.choice_set(recipient=recipient, enabled=False, event=event, league_id=league_id)
        done = True
    return render(
        request,
        "notifications/unsubscribe.html",
        {"recipient": recipient, "what": what, "done": done, "token": token},
    )
