"""The pages of a person's messages: their choices (with a login, or from the link in
every message), and the one-tap unsubscribe (RFC 8058)."""

from __future__ import annotations

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
from .models import Recipient


def _choices_page(request: HttpRequest, recipient: Recipient, action: str) -> HttpResponse:
    if request.method == "POST":
        form = ChoicesForm(request.POST, recipient=recipient)
        if form.is_valid():
            form.save()
            messages.success(request, "Your choices are saved.")
            return redirect(action)
    else:
        form = ChoicesForm(recipient=recipient)
    return render(
        request,
        "notifications/choices.html",
        {
            "form": form,
            "recipient": recipient,
            "action": action,
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


@login_required
@require_http_methods(["GET", "POST"])
def my_choices(request: HttpRequest) -> HttpResponse:
    user = request.user
    recipient = services.recipient_for(
        services.To(user_id=user.pk, email=getattr(user, "email", "")), now=timezone.now()
    )
    assert recipient is not None  # a login is always reachable
    return _choices_page(request, recipient, request.path)


@require_http_methods(["GET", "POST"])
def token_choices(request: HttpRequest, token: str) -> HttpResponse:
    recipient = get_object_or_404(Recipient, token=token)
    return _choices_page(request, recipient, request.path)


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
