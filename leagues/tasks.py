"""Background jobs of the league (tables publications, invitations' emails). Arguments are
ids; every task is safe to run twice. A task keeps the name it was first registered under,
so messages already queued and the beat schedule still find it."""

from __future__ import annotations

from celery import shared_task
from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.utils import timezone

from . import publication_job
from .models import Invitation


@shared_task(name="leagues.publishing.publish_tables", acks_late=True)
def publish_tables(publication_id: int) -> str:
    """Publish a season's tables (see publication_job.publication_run): claims the
    publication row first, so a second delivery of the same message does nothing."""
    return publication_job.publication_run(publication_id=publication_id)


def publication_queue(publication_id: int) -> None:
    """Send the job to the workers once the row is committed. The row is the intent: if
    the broker is down (Redis stopped), the request still succeeds, the failure is logged,
    and the sweeper sends the job again once its heartbeat is stale and Redis is back."""

    def send_publication_job() -> None:  # named: Django logs a robust hook's failure by name
        publish_tables.delay(publication_id)

    transaction.on_commit(send_publication_job, robust=True)


@shared_task(name="leagues.publishing.sweep_publications")
def sweep_publications() -> list[int]:
    """Every minute (beat): re-queue publications whose worker vanished."""
    with transaction.atomic():
        stale = publication_job.publications_mark_stale(now=timezone.now())
        for pk in stale:
            publication_queue(pk)
    return stale


@shared_task(
    name="leagues.invitations.send_invitation",
    acks_late=True,
    max_retries=5,
    autoretry_for=(OSError,),
    retry_backoff=True,
)
def send_invitation(invitation_id: int) -> bool:
    """Email an invitation (to a roster or to an office) once: `sent_at` is claimed in the
    same transaction as the send."""
    with transaction.atomic():
        invitation = (
            Invitation.objects.select_for_update(of=("self",))
            .select_related("team", "team__season", "league")
            .filter(pk=invitation_id, sent_at__isnull=True)
            .first()
        )
        if invitation is None:
            return False
        link = settings.SITE_URL.rstrip("/") + invitation.get_absolute_url()
        # The check constraint gives an officer's invitation a league, a roster's a team.
        league, team = invitation.league, invitation.team
        if league is not None:
            subject = f"{league.name} on Marker: you are invited"
            message = (
                f"Hello,\n\nYou are invited to be {invitation.get_role_display().lower()} of "
                f"{league.name} on Marker.\nAccept here: {link}\n"
            )
        elif team is not None:
            subject = f"Join {team.name} on Marker"
            message = (
                f"Hello {invitation.name},\n\n"
                f"{team.name} has invited you to their roster for "
                f"{team.season}.\nAccept here: {link}\n"
            )
        else:
            return False
        send_mail(
            subject=subject,
            message=message,
            from_email=settings.DEFAULT_FROM_EMAIL,
            recipient_list=[invitation.email],
        )
        invitation.sent_at = timezone.now()
        invitation.save(update_fields=["sent_at"])
    return True
