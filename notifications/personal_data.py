"""What the notifications hold of a person (marker/personal_data.py): their choices, their
devices' push subscriptions and the messages sent to them. An erasure deletes all of it,
and renames the person in the messages sent to others (a frame started names its players)."""

from __future__ import annotations

from typing import Any

from django.db.models import Q

from marker.personal_data import Erasure, Person, Relabel, Section, rewrite_rows, rewriter

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
                    {
                        "event": n.event,
                        "title": n.title,
                        "body": n.body,
                        "at": n.created_at.isoformat(),
                    }
                    for n in Notification.objects.filter(recipient=r).order_by("id")
                ],
            }
        )
    return out


def _naming(labels: dict[str, str]):
    """Messages to others whose title or body names one of `labels` (a frame started
    names its players; a cup draw its entrants)."""
    where = Q(pk__in=[])
    for label in labels:
        where |= Q(title__contains=label) | Q(body__contains=label)
    return Notification.objects.filter(where).select_for_update()


def _erase(erasure: Erasure) -> None:
    # Messages, deliveries, choices and subscriptions go with the recipient (CASCADE).
    _recipients(erasure.person).delete()
    # Messages to others keep what they said, with the person's new name.
    if erasure.labels:
        rewrite_rows(_naming(erasure.labels), ["title", "body"], erasure.rewriter())


def _relabel(relabel: Relabel) -> None:
    """The person chose initials (or their name again): messages naming them follow."""
    if relabel.old and relabel.old != relabel.new:
        labels = {relabel.old: relabel.new}
        rewrite_rows(_naming(labels), ["title", "body"], rewriter(labels))


SECTIONS = (
    Section(
        "notifications",
        (
            "notifications.Recipient.user",
            "notifications.Recipient.email",
            "notifications.PushSubscription.user_agent",
            "notifications.Notification.title",
            "notifications.Notification.body",
        ),
        export=_export,
        erase=_erase,
        relabel=_relabel,
        description="Your message choices, your devices' push subscriptions and the messages sent to you.",
    ),
)

NOT_PERSONAL: dict[str, str] = {}
