"""Background jobs of the league. Arguments are ids; every task is safe to run twice."""

from __future__ import annotations

from datetime import date, timedelta

from celery import shared_task
from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.utils import timezone

from . import services
from .models import Invitation


@shared_task(acks_late=True, max_retries=5, autoretry_for=(OSError,), retry_backoff=True)
def send_invitation(invitation_id: int) -> bool:
    """Email an invitation once: `sent_at` is claimed in the same transaction as the send."""
    with transaction.atomic():
        invitation = (
            Invitation.objects.select_for_update()
            .select_related("team", "team__season")
            .filter(pk=invitation_id, sent_at__isnull=True)
            .first()
        )
        if invitation is None:
            return False
        link = settings.SITE_URL.rstrip("/") + invitation.get_absolute_url()
        send_mail(
            subject=f"Join {invitation.team.name} on Marker",
            message=(
                f"Hello {invitation.name},\n\n"
                f"{invitation.team.name} has invited you to their roster for "
                f"{invitation.team.season}.\nAccept here: {link}\n"
            ),
            from_email=settings.DEFAULT_FROM_EMAIL,
            recipient_list=[invitation.email],
        )
        invitation.sent_at = timezone.now()
        invitation.save(update_fields=["sent_at"])
    return True


@shared_task(acks_late=True)
def publish_tables(publication_id: int) -> str:
    """Publish a season's tables (see services.publication_run): claims the publication
    row first, so a second delivery of the same message does nothing."""
    return services.publication_run(publication_id=publication_id)


@shared_task
def sweep_publications() -> list[int]:
    """Every minute (beat): re-queue publications whose worker vanished."""
    return services.publications_requeue_stale()


@shared_task(acks_late=True, max_retries=5, autoretry_for=(OSError,), retry_backoff=True)
def send_fixture_reminders(day: str | None = None) -> int:
    """Daily (beat): remind captains of tomorrow's fixtures (or of `day`, ISO format).
    Each reminder is sent once, however often this runs."""
    target = date.fromisoformat(day) if day else timezone.localdate() + timedelta(days=1)
    return services.reminders_send(day=target)
