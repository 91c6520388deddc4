"""Whom Marker tells what, and how: the people it reaches with their choices, their push
subscriptions, and the outbox of messages with one delivery per channel."""

from __future__ import annotations

import secrets
from datetime import time

from django.conf import settings
from django.db import models
from django.db.models import Q

from .events import Event


class Cadence(models.TextChoices):
    IMMEDIATE = "immediate", "As it happens"
    DAILY = "daily", "A daily digest"
    WEEKLY = "weekly", "A weekly digest (Mondays)"


class Recipient(models.Model):
    """A person Marker sends messages to, with their choices: a login, or (for a player
    without one) an email address alone. `token` opens their choices page without a login
    (every message links it) and signs nothing else."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="notification_recipient",
    )
    email = models.EmailField(
        blank=True,
        help_text="Where email goes when the login has no address, or there is no login.",
    )
    token = models.CharField(max_length=64, unique=True, default=secrets.token_urlsafe)
    email_on = models.BooleanField("Email", default=True)
    push_on = models.BooleanField("Push to my phone", default=True)
    cadence = models.CharField(max_length=10, choices=Cadence.choices, default=Cadence.IMMEDIATE)
    quiet_start = models.TimeField(
        null=True, blank=True, default=time(22, 0), help_text="Nothing is sent from…"
    )
    quiet_end = models.TimeField(null=True, blank=True, default=time(8, 0), help_text="…until.")
    time_zone = models.CharField(max_length=64, default=settings.TIME_ZONE)
    created_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["email"],
                condition=Q(user__isnull=True),
                name="one_recipient_per_address_without_login",
            ),
            models.CheckConstraint(
                condition=Q(user__isnull=False) | ~Q(email=""),
                name="recipient_is_reachable",
            ),
        ]

    def __str__(self) -> str:
        return self.address or f"recipient {self.pk}"

    @property
    def address(self) -> str:
        """The address email goes to: the login's, else the one given."""
        found = (getattr(self.user, "email", "") or "").strip() if self.user_id else ""
        return found or self.email


class Choice(models.Model):
    """One of a person's choices: an event (blank: every event) in a league (null: every
    league) on or off. The most specific choice wins: (league, event), (league, any),
    (any league, event), then the default (`events.DEFAULT_ON`)."""

    recipient = models.ForeignKey(Recipient, on_delete=models.CASCADE, related_name="choices")
    league = models.ForeignKey(
        "leagues.League", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    event = models.CharField(max_length=24, blank=True, choices=Event.choices)
    enabled = models.BooleanField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["recipient", "league", "event"],
                condition=Q(league__isnull=False),
                name="one_choice_per_league_event",
            ),
            models.UniqueConstraint(
                fields=["recipient", "event"],
                condition=Q(league__isnull=True),
                name="one_choice_per_event",
            ),
        ]

    def __str__(self) -> str:
        return (
            f"{self.recipient}: {self.event or 'all'} in {self.league_id or 'all'} {self.enabled}"
        )


class PushSubscription(models.Model):
    """A browser's Web Push subscription (the endpoint and its keys, RFC 8291), dropped
    when the push service says it is gone (404/410)."""

    recipient = models.ForeignKey(
        Recipient, on_delete=models.CASCADE, related_name="push_subscriptions"
    )
    endpoint = models.URLField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=200)
    auth = models.CharField(max_length=100)
    user_agent = models.CharField(max_length=300, blank=True)
    created_at = models.DateTimeField()
    last_sent_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"push for {self.recipient}"


class Notification(models.Model):
    """One message for one person (the outbox): written in the transaction of what it
    announces, once per (person, event, subject key), whatever retries."""

    recipient = models.ForeignKey(Recipient, on_delete=models.CASCADE, related_name="notifications")
    event = models.CharField(max_length=24, choices=Event.choices)
    key = models.CharField(max_length=200, help_text="The subject: one message per key.")
    league = models.ForeignKey(
        "leagues.League", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    title = models.CharField(max_length=200)
    body = models.TextField()
    url = models.CharField(max_length=500)
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["recipient", "event", "key"], name="one_message_per_subject"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.event} → {self.recipient}: {self.title}"


class Delivery(models.Model):
    """A message on one channel (to one push subscription, for push): sent once. Held
    (`due_at`) through the person's quiet hours and the provider's back-off."""

    class Channel(models.TextChoices):
        EMAIL = "email", "Email"
        PUSH = "push", "Web Push"
        DIGEST = "digest", "Digest"

    class Status(models.TextChoices):
        PENDING = "pending", "Waiting"
        SENT = "sent", "Sent"
        FAILED = "failed", "Gave up"
        DROPPED = "dropped", "Dropped (subscription gone or turned off)"

    notification = models.ForeignKey(
        Notification, on_delete=models.CASCADE, related_name="deliveries"
    )
    channel = models.CharField(max_length=8, choices=Channel.choices)
    subscription = models.ForeignKey(
        PushSubscription, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    due_at = models.DateTimeField()
    attempts = models.PositiveSmallIntegerField(default=0)
    sent_at = models.DateTimeField(null=True, blank=True)
    last_error = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(
                fields=["notification", "channel"],
                condition=~Q(channel="push"),
                name="one_delivery_per_channel",
            ),
            models.UniqueConstraint(
                fields=["notification", "subscription"],
                condition=Q(channel="push"),
                name="one_push_per_subscription",
            ),
        ]
        indexes = [
            models.Index(
                fields=["due_at"], condition=Q(status="pending"), name="delivery_pending_due"
            )
        ]

    def __str__(self) -> str:
        return f"{self.channel} {self.status}: {self.notification_id}"
