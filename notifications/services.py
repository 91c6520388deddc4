"""Writes: announce something (`notify`), and a person's choices.

`notify` is called by any app inside the transaction that writes what it announces; it
writes the outbox (a `Notification` per person, once per event and subject key, and its
deliveries, held through quiet hours or gathered for a digest) and hands the sending to
Celery once the transaction commits (`tasks.deliver`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Case, Q, Value, When
from django.utils import timezone

from marker.errors import DomainError

from .events import DEFAULT_ON, Event
from .models import Cadence, Choice, Delivery, Notification, PushSubscription, Recipient
from .vapid import push_available

#: When digests go out, in the person's time zone (weekly ones on Mondays).
DIGEST_AT = time(8, 0)


@dataclass(frozen=True)
class To:
    """Whom to tell: a login (its id), an email address, or both (a player with a login
    and an address on the roster). Neither: nobody to tell, skipped."""

    user_id: int | None = None
    email: str = ""


def zone_of(recipient: Recipient) -> ZoneInfo:
    try:
        return ZoneInfo(recipient.time_zone)
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo(settings.TIME_ZONE)


def quiet_until(recipient: Recipient, now: datetime) -> datetime | None:
    """The end of the quiet hours `now` falls in, or None when it is not in them. Quiet
    hours may run past midnight (22:00–08:00).

    >>> from datetime import timezone as tz
    >>> r = Recipient(quiet_start=time(22), quiet_end=time(8), time_zone="Europe/London")
    >>> quiet_until(r, datetime(2026, 11, 27, 23, 30, tzinfo=tz.utc)).isoformat()
    '2026-11-28T08:00:00+00:00'
    >>> quiet_until(r, datetime(2026, 11, 28, 12, 0, tzinfo=tz.utc)) is None
    True
    """
    start, end = recipient.quiet_start, recipient.quiet_end
    if start is None or end is None or start == end:
        return None
    zone = zone_of(recipient)
    local = now.astimezone(zone)
    clock = local.time()
    if start < end:
        inside = start <= clock < end
        end_day = local.date()
    else:  # past midnight
        inside = clock >= start or clock < end
        end_day = local.date() + timedelta(days=1) if clock >= start else local.date()
    if not inside:
        return None
    return datetime.combine(end_day, end, tzinfo=zone)


def next_digest_at(recipient: Recipient, now: datetime) -> datetime:
    """When the person's next digest goes: the next `DIGEST_AT` (daily) or the next
    Monday's (weekly), in their time zone, after `now`.

    >>> from datetime import timezone as tz
    >>> r = Recipient(cadence="weekly", time_zone="Europe/London")
    >>> next_digest_at(r, datetime(2026, 11, 28, 12, 0, tzinfo=tz.utc)).isoformat()
    '2026-11-30T08:00:00+00:00'
    """
    zone = zone_of(recipient)
    local = now.astimezone(zone)
    day = local.date()
    if local.time() >= DIGEST_AT:
        day += timedelta(days=1)
    if recipient.cadence == Cadence.WEEKLY:
        day += timedelta(days=(7 - day.weekday()) % 7)
    return datetime.combine(day, DIGEST_AT, tzinfo=zone)


def recipient_for(to: To, *, now: datetime) -> Recipient | None:
    """The person `to` names, made on first use (no choices yet: the defaults hold); None
    when `to` names nobody. One person, by `recipients_for`."""
    found = recipients_for([to], now=now)
    return found[0] if found else None


def wants(recipient: Recipient, event: str, league_id: int | None) -> bool:
    """Whether the person wants this event from this league (the most specific choice
    wins; see `Choice`)."""
    rows = {
        (c.league_id, c.event): c.enabled
        for c in Choice.objects.filter(recipient=recipient).filter(
            Q(league__isnull=True) | Q(league_id=league_id)
        )
    }
    return _wanted(rows, event, league_id)


def anyone_wants(event: str) -> bool:
    """Whether anybody at all may want `event`: it is on by default, or someone turned it
    (or everything) on somewhere. One query; an emitter on a hot path asks this before
    gathering whom to tell."""
    if event in DEFAULT_ON:
        return True
    return Choice.objects.filter(Q(event=event) | Q(event=""), enabled=True).exists()


def notify(
    *,
    event: str,
    to: Iterable[To],
    key: str,
    title: str,
    body: str,
    url: str,
    league_id: int | None = None,
    now: datetime | None = None,
) -> int:
    """Queue a message about `key` for each person in `to` who wants `event` (from this
    league): once per person, event and key, however often it is called. Returns how many
    were queued now. Call it inside the transaction that writes what it announces.

    A fixed number of queries however many people it tells (a match result reaches both
    squads): the people, their choices, what they were told already, the messages and
    their deliveries are each read or written at once."""
    if event not in Event.values:
        raise DomainError("unknown_event", f"{event!r} is not a kind of message Marker sends.")
    now = now or timezone.now()
    # Inside the caller's transaction (no savepoint of its own: a failure fails the write
    # it announces); atomic on its own when called outside one.
    with transaction.atomic(savepoint=False):
        recipients = recipients_for(list(to), now=now)
        if not recipients:
            return 0
        choices: dict[int, dict[tuple[int | None, str], bool]] = {}
        for c in Choice.objects.filter(recipient__in=recipients).filter(
            Q(league__isnull=True) | Q(league_id=league_id)
        ):
            choices.setdefault(c.recipient_id, {})[(c.league_id, c.event)] = c.enabled
        wanted = [r for r in recipients if _wanted(choices.get(r.pk, {}), event, league_id)]
        told = set(
            Notification.objects.filter(
                recipient__in=wanted, event=event, key=key[:200]
            ).values_list("recipient_id", flat=True)
        )
        fresh = [r for r in wanted if r.pk not in told]
        if not fresh:
            return 0
        rows = [
            Notification(
                recipient=r,
                event=event,
                key=key[:200],
                league_id=league_id,
                title=title[:200],
                body=body,
                url=url[:500],
                created_at=now,
            )
            for r in fresh
        ]
        try:
            with transaction.atomic():
                created = Notification.objects.bulk_create(rows)
        except IntegrityError:
            # A concurrent call told some of them meanwhile: one at a time, skipping those.
            created = []
            for row in rows:
                try:
                    with transaction.atomic():
                        row.save(force_insert=True)
                except IntegrityError:
                    continue
                created.append(row)
        _plan(created, now)
        queued = [n.pk for n in created]
        if queued:
            from . import tasks

            transaction.on_commit(lambda: tasks.deliver.delay(queued), robust=True)
    return len(queued)


def _address(to: To) -> str:
    email = (to.email or "").strip().lower()
    return email if "@" in email else ""


def recipients_for(people: list[To], *, now: datetime) -> list[Recipient]:
    """The people `people` name, each once, made on first use (three queries and a
    write of the new ones, however many).

    A person first reached by address alone (a roster email) who is now named with their
    login and that address stays one person: the address's recipient, with its choices and
    history, becomes the login's (one more query, only then)."""
    logins = {p.user_id: _address(p) for p in people if p.user_id is not None}
    addresses = {_address(p) for p in people if p.user_id is None} - {""}

    def load() -> tuple[dict[int, Recipient], dict[str, Recipient]]:
        by_user = {
            r.user_id: r
            for r in Recipient.objects.filter(user_id__in=logins).select_related("user")
            if r.user_id is not None
        }
        wanted = addresses | {a for uid, a in logins.items() if a and uid not in by_user}
        by_address = {
            r.email: r for r in Recipient.objects.filter(user__isnull=True, email__in=wanted)
        }
        return by_user, by_address

    by_user, by_address = load()
    adopt = {
        by_address[a].pk: uid
        for uid, a in logins.items()
        if uid not in by_user and a in by_address and a not in addresses
    }
    missing = [
        Recipient(user_id=uid, email=a, created_at=now)
        for uid, a in logins.items()
        if uid not in by_user and uid not in adopt.values()
    ] + [Recipient(user_id=None, email=a, created_at=now) for a in addresses if a not in by_address]
    if adopt:
        Recipient.objects.filter(pk__in=adopt, user__isnull=True).update(
            user_id=Case(*(When(pk=pk, then=Value(uid)) for pk, uid in adopt.items()))
        )
    if missing:
        Recipient.objects.bulk_create(missing, ignore_conflicts=True)
    if adopt or missing:
        by_user, by_address = load()
    found: dict[int, Recipient] = {}
    for p in people:
        r = by_user.get(p.user_id) if p.user_id is not None else by_address.get(_address(p))
        if r is not None:
            found.setdefault(r.pk, r)
    return list(found.values())


def _wanted(rows: dict[tuple[int | None, str], bool], event: str, league_id: int | None) -> bool:
    scopes: list[tuple[int | None, str]] = [(None, event), (None, "")]
    if league_id is not None:
        scopes = [(league_id, event), (league_id, ""), *scopes]
    for scope in scopes:
        if scope in rows:
            return rows[scope]
    return event in DEFAULT_ON


def _plan(notifications: list[Notification], now: datetime) -> None:
    """The deliveries of new messages: a digest entry, or email and a push per device,
    held until the quiet hours end (one read of the devices, one write)."""
    devices: dict[int, list[PushSubscription]] = {}
    if push_available():
        wants_push = [
            n.recipient_id
            for n in notifications
            if n.recipient.push_on and n.recipient.cadence == Cadence.IMMEDIATE
        ]
        for sub in PushSubscription.objects.filter(recipient_id__in=wants_push):
            devices.setdefault(sub.recipient_id, []).append(sub)
    rows: list[Delivery] = []
    for n in notifications:
        recipient = n.recipient
        if recipient.cadence != Cadence.IMMEDIATE:
            if recipient.email_on and recipient.address:
                rows.append(
                    Delivery(
                        notification=n,
                        channel=Delivery.Channel.DIGEST,
                        due_at=next_digest_at(recipient, now),
                    )
                )
            continue
        due = quiet_until(recipient, now) or now
        if recipient.email_on and recipient.address:
            rows.append(Delivery(notification=n, channel="email", due_at=due))
        if recipient.push_on:
            rows += [
                Delivery(notification=n, channel="push", subscription=sub, due_at=due)
                for sub in devices.get(recipient.pk, [])
            ]
    if rows:
        Delivery.objects.bulk_create(rows)


@transaction.atomic
def choice_set(
    *, recipient: Recipient, enabled: bool, event: str = "", league_id: int | None = None
) -> Choice:
    """Turn an event (blank: every event) on or off, in a league (None: everywhere).
    Turning something off also drops its messages not yet sent."""
    if event and event not in Event.values:
        raise DomainError("unknown_event", f"{event!r} is not a kind of message Marker sends.")
    choice, _ = Choice.objects.update_or_create(
        recipient=recipient, league_id=league_id, event=event, defaults={"enabled": enabled}
    )
    if not enabled:
        pending = Delivery.objects.filter(
            notification__recipient=recipient, status=Delivery.Status.PENDING
        )
        if event:
            pending = pending.filter(notification__event=event)
        if league_id is not None:
            pending = pending.filter(notification__league_id=league_id)
        pending.update(status=Delivery.Status.DROPPED, last_error="turned off")
    return choice


@transaction.atomic
def choice_clear(*, recipient: Recipient, event: str = "", league_id: int | None = None) -> None:
    """Forget a choice: the next less specific one (or the default) holds again. Clearing
    a league's mute or one of its overrides leaves that league like everywhere else."""
    scope = Q(league__isnull=True) if league_id is None else Q(league_id=league_id)
    Choice.objects.filter(scope, recipient=recipient, event=event).delete()
