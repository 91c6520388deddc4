"""What the notifications hold of a person (marker/personal_data.py): their choices, their
devices' push subscriptions and the messages sent to them. An erasure deletes all of it."""

from __future__ import annotations

from typing import Any

from django.db.models import Q

from marker.personal_data import Erasure, Person, Section

from .models import Notification, Recipient


def _recipients(person: Person):
    by_user = Q(user=person.user) if person.user is not None else Q(pk__in=[])
    return Recipient.objects.filter(by_user | Q(user__isnull=True, email__in=person.emails))


def _export(person: Person) -> list[dict[str, Any]]:
    out = []
    for r in _recipients(person).prefetch_related("choices", "push_subscriptions"):
        out.append(
            {
                "address": r.address,
                "email": r.email_on,
                "push": r.push_on,
                "cadence": r.cadence,
                "quiet_hours": [str(r.quiet_start or ""), str(r.quiet_end or "")],
                "choices": [
                    {"event": c.event or "all", "league_id": c.league_id, "on": c.enabled}
                    for c in r.choices.all()
                ],
                "devices": [
                    {"user_agent": s.user_agent, "since": s.created_at.isoformat()}
                    for s in r.push_subscriptions.all()
                ],
                "messages": [
                    {"event": n.event, "title": n.title, "at": n.created_at.isoformat()}
                    for n in Notification.objects.filter(recipient=r).order_by("id")
                ],
            }
        )
    return out


def _erase(erasure: Erasure) -> None:
    # Messages, deliveries, choices and subscriptions go with the recipient (CASCADE).
    _recipients(erasure.person).delete()


SECTIONS = (
    Section(
        "notifications",
        (
            "notifications.Recipient.user",
            "notifications.Recipient.email",
            "notifications.PushSubscription.user_agent",
            "notifications.Notification.title",
        ),
        export=_export,
        erase=_erase,
        description="Your message choices, your devices' push subscriptions and the messages sent to you.",
    ),
)

NOT_PERSONAL: dict[str, str] = {}
