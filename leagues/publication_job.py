"""The publishing job: claims a publication's row with a conditional update, writes
immutable snapshots, a CSV and a printable page, and emails captains and subscribers once
each. `tasks.publish_tables` runs it; `publishing` asks for it and re-queues it."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.core.mail import EmailMessage, get_connection
from django.db import IntegrityError, transaction
from django.template.loader import render_to_string
from django.utils import timezone

from marker import spreadsheet
from notifications.events import Event
from notifications.services import anyone_wants, notify

from . import audience, links, standings
from .models import (
    Division,
    Publication,
    Season,
    SentNotification,
    Subscription,
    TableSnapshot,
    Team,
)

logger = logging.getLogger(__name__)

#: A running publication whose heartbeat is older than this is presumed dead.
PUBLICATION_STALE_AFTER = timedelta(seconds=getattr(settings, "PUBLICATION_STALE_SECONDS", 120))


def publication_claim(*, publication_id: int, now: datetime) -> bool:
    """Take the job (`marker.jobs.Job.claim`): queued → running, or running with a stale
    heartbeat (its worker died) → running; two workers never both win."""
    return Publication.claim(publication_id, now=now, stale_after=PUBLICATION_STALE_AFTER, error="")


def _beat(publication_id: int, *, progress: int, step: str, **extra) -> None:
    Publication.objects.filter(pk=publication_id, state=Publication.State.RUNNING).update(
        progress=min(progress, 100), step=step[:200], heartbeat_at=timezone.now(), **extra
    )


CSV_HEADER = [
    "Division",
    "Pos",
    "Team",
    "P",
    "W",
    "D",
    "L",
    "Frames for",
    "Frames against",
    "Frame difference",
    "Aggregate for",
    "Aggregate against",
    "Deducted",
    "Points",
    "Explanation",
    "Notes",
]


def table_csv_rows(division: str, rows: list[dict]) -> list[list]:
    return [
        [
            division,
            r["position_display"],
            r["team"],
            r["played"],
            r["won"],
            r["drawn"],
            r["lost"],
            r["frames_for"],
            r["frames_against"],
            r["frame_difference"],
            r["score_for"],
            r["score_against"],
            r["deducted"],
            r["points"],
            r["explanation"],
            "; ".join(r["notes"]),
        ]
        for r in rows
    ]


def _csv(lines: list[list]) -> str:
    """The CSV of the tables; a team name like `=HYPERLINK(...)` is written as text, never
    as a formula a spreadsheet would run (`marker.spreadsheet`)."""
    return spreadsheet.write_rows([CSV_HEADER, *lines])


def _snapshot(publication: Publication, table: standings.Table, now: datetime) -> TableSnapshot:
    rows = table.as_rows()
    context = {
        "season_id": publication.season_id,
        "division_name": table.division,
        "rows": rows,
        "notes": table.notes,
        "scheme_text": table.scheme.describe(),
        "as_of": publication.as_of,
        "provisional": False,
    }
    snapshot, _ = TableSnapshot.objects.get_or_create(
        publication=publication,
        division_id=table.division_id,
        defaults={
            "as_of": publication.as_of,
            "rows": rows,
            "notes": [{"team": n["team"], "text": n["text"]} for n in table.notes],
            "scheme": table.scheme.as_dict() | {"text": table.scheme.describe()},
            "html": render_to_string("leagues/table.html", context),
            "csv": _csv(table_csv_rows(table.division, rows)),
            "created_at": now,
        },
    )
    return snapshot


def table_recipients(season: Season) -> list[tuple[str, str]]:
    """(email, unsubscribe token or "") of the captains and vice-captains of the season's
    teams and of the league's subscribers, each address once."""
    users = Team.objects.filter(season=season).values_list("captain__email", "vice_captain__email")
    recipients = {e.strip().lower(): "" for pair in users for e in pair if e and e.strip()}
    for email, token in Subscription.objects.filter(
        league_id=season.league_id, active=True
    ).values_list("email", "token"):
        recipients.setdefault(email.strip().lower(), token)
    return sorted(recipients.items())


def captain_divisions(season: Season) -> dict[str, set[int]]:
    """email -> the divisions whose tables a captain (or vice-captain) gets."""
    out: dict[str, set[int]] = {}
    for division_id, *emails in Team.objects.filter(season=season).values_list(
        "division_id", "captain__email", "vice_captain__email"
    ):
        for email in emails:
            if email and email.strip() and division_id is not None:
                out.setdefault(email.strip().lower(), set()).add(division_id)
    return out


#: Emails claimed and sent per transaction (one INSERT of their rows, then the sends).
EMAIL_BATCH = 50


def _send_batch(publication: Publication, mailer, batch: list[tuple[str, EmailMessage]]) -> None:
    """Send a batch over the open connection, each email once: each message's row is
    inserted under the unique index and committed with its send (a worker killed
    mid-batch has committed the rows of what it sent, so the retry sends only the rest;
    a failed send rolls its row back and raises, and a retry sends it). A row already
    there (an earlier or a concurrent run sent it) means that email is skipped."""
    for email, message in batch:
        try:
            with transaction.atomic():
                SentNotification.objects.create(
                    kind=SentNotification.Kind.TABLES,
                    publication=publication,
                    recipient=email,
                    sent_at=timezone.now(),
                )
                mailer.send_messages([message])
        except IntegrityError:
            continue  # already sent


def publication_run(*, publication_id: int, now: datetime | None = None) -> str:
    """The publishing job: snapshot every division's table as of the publication's
    cut-off, render the season's CSV and printable page, then email the captains and the
    subscribers. Safe to run twice or to resume after a crash: each step checks what is
    already done (snapshots are unique per division, emails per recipient). Returns
    "published", "skipped" (not claimable: done, or running elsewhere) or "failed"."""
    now = now or timezone.now()
    if not publication_claim(publication_id=publication_id, now=now):
        return "skipped"
    try:
        _publish(publication_id)
    except Exception as exc:
        logger.exception("publication %s failed", publication_id)
        Publication.objects.filter(pk=publication_id, state=Publication.State.RUNNING).update(
            state=Publication.State.FAILED,
            error=f"{type(exc).__name__}: {exc}"[:2000],
            step="Failed",
            finished_at=timezone.now(),
        )
        return "failed"
    return "published"


def _publish(publication_id: int) -> None:
    publication = Publication.objects.select_related("season", "season__league").get(
        pk=publication_id
    )
    season = publication.season
    done = set(publication.snapshots.values_list("division_id", flat=True))
    division_count = Division.objects.filter(season=season).count()
    if len(done) < division_count:
        _beat(publication_id, progress=5, step="Building the tables")
        built = standings.tables(season, as_of=publication.as_of)
        for i, table in enumerate(built, start=1):
            if table.division_id not in done:
                _snapshot(publication, table, timezone.now())
            _beat(
                publication_id,
                progress=5 + 60 * i // len(built),
                step=f"Table {i} of {len(built)}: {table.division}",
            )
    snapshots = list(publication.snapshots.select_related("division").order_by("division__rank"))
    lines: list[list] = []
    for snap in snapshots:
        lines += table_csv_rows(snap.division.name, snap.rows)
    printable = render_to_string(
        "leagues/publication_print.html",
        {"publication": publication, "season": season, "snapshots": snapshots},
    )
    _beat(
        publication_id,
        progress=70,
        step="Emailing captains and subscribers",
        csv=_csv(lines),
        printable_html=printable,
    )
    recipients = table_recipients(season)
    divisions_of = captain_divisions(season)
    site = settings.SITE_URL.rstrip("/")
    subject = f"{season}: tables as of {timezone.localtime(publication.as_of):%-d %b %Y}"
    # Each part rendered once: a captain's email holds the tables of the divisions they
    # captain in, a subscriber's every table; so the work grows with the recipients, not
    # with the divisions times the recipients.
    context = {"publication": publication, "season": season, "site": site}
    intro = render_to_string("leagues/email/tables_intro.txt", context)
    links = render_to_string("leagues/email/tables_links.txt", context)
    blocks = {
        snap.division_id: render_to_string(
            "leagues/email/tables_division.txt", {**context, "snap": snap}
        )
        for snap in snapshots
    }
    every_table = "".join(blocks.values())
    captain_footer = render_to_string("leagues/email/tables_footer.txt", {"site": site})

    def message_for(email: str, token: str) -> EmailMessage:
        if token:
            tables = every_table
            footer = render_to_string(
                "leagues/email/tables_footer.txt", {"site": site, "unsubscribe_token": token}
            )
        else:
            mine = divisions_of.get(email)
            tables = "".join(b for d, b in blocks.items() if mine is None or d in mine)
            footer = captain_footer
        return EmailMessage(
            subject=subject,
            body=intro + tables + links + footer,
            from_email=settings.DEFAULT_FROM_EMAIL,
            to=[email],
        )

    already = set(
        SentNotification.objects.filter(publication=publication).values_list("recipient", flat=True)
    )
    todo = [(email, token) for email, token in recipients if email not in already]
    emailed = len(recipients) - len(todo)
    with get_connection() as mailer:  # one connection for the lot (SMTP: one handshake)
        for start in range(0, len(todo), EMAIL_BATCH):
            batch = todo[start : start + EMAIL_BATCH]
            _send_batch(publication, mailer, [(e, message_for(e, t)) for e, t in batch])
            emailed += len(batch)
            _beat(
                publication_id,
                progress=70 + 29 * emailed // max(1, len(recipients)),
                step=f"Emailed {emailed} of {len(recipients)}",
            )
    sent = SentNotification.objects.filter(publication=publication).count()
    with transaction.atomic():  # done, and its announcement, together
        finished = Publication.objects.filter(
            pk=publication_id, state=Publication.State.RUNNING
        ).update(
            state=Publication.State.DONE,
            progress=100,
            step=f"Published {len(snapshots)} table(s); {sent} email(s) sent",
            emails_sent=sent,
            finished_at=timezone.now(),
            heartbeat_at=timezone.now(),
        )
        if finished:
            table_published_notify(publication, subject)


def table_published_notify(publication: Publication, title: str) -> int:
    """TABLE_PUBLISHED (off by default) to the season's registered players, captains and
    the league's officers, once per publication (`table-published:{pk}`). The captains'
    tables email and the public subscriptions (`Subscription`) go on as before: they carry
    the tables themselves, to addresses that chose them."""
    if not anyone_wants(Event.TABLE_PUBLISHED):  # off by default: skip gathering everyone
        return 0
    season = publication.season
    return notify(
        event=Event.TABLE_PUBLISHED,
        to=audience.season_people(season.pk, season.league_id),
        key=f"table-published:{publication.pk}",
        title=title,
        body=f"The {season.league.name} published its tables ({season.name}).",
        url=links.season_url("publication-detail", season.pk, publication.pk),
        league_id=season.league_id,
    )


def publications_mark_stale(*, now: datetime) -> list[int]:
    """Publications queued or running whose heartbeat is stale (a lost message, a killed
    worker) go back to queued with a fresh heartbeat. Returns their ids; the caller sends
    them to the workers again after its commit."""
    stale = list(
        Publication.objects.select_for_update(skip_locked=True)
        .filter(
            state__in=[Publication.State.QUEUED, Publication.State.RUNNING],
            heartbeat_at__lt=now - PUBLICATION_STALE_AFTER,
        )
        .values_list("pk", flat=True)
    )
    if stale:
        Publication.objects.filter(pk__in=stale).update(
            state=Publication.State.QUEUED, heartbeat_at=now, step="Re-queued by the sweeper"
        )
    return stale
