"""Erasing a person (GDPR art. 17), keeping every result, table, statistic and rating.

The player's row stays, because results, frames, statistics lines and ratings hang on
it, but it becomes "Former player N" (N stable: the erasure's number) everywhere,
including the labels the draw and the rules engine stored for the frames they played
(the hats, each frame's setup, state and shot log, the match log). Their account is
deactivated and scrubbed (an opaque username; email, names and password cleared), their
contact details are deleted (email addresses, subscriptions, invitations, the sent-mail
ledger, login records). The erasure is logged (`PersonErasure`: who and when, never the
old name) and cannot be undone.

Ratings do not change: they are keyed by the player's id, and no frame's result, day or
players change, so `ratings.services.dirty_since` finds nothing to recompute (an
"erasure" there means a rated frame that no longer counts, which this is not). The same
holds for the tables (computed from fixtures) and the statistics (keyed by player).

One exception to the rule that a frame's log is never rewritten: the shot log's stored
states and payloads carry the players' labels, and an erased name must not survive in
them. The labels are replaced consistently (setup, parties, states, views and payloads
alike), so replaying the log (`manage.py frames_check`) gives the stored states again.
A match's draw can no longer be replayed from its page, though: the hats, whose sorted
names are the draw's input, now hold the new label.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.db import transaction
from django.db.models import Max, Q
from django.utils import timezone

from frames.models import Frame, FrameEvent, FramePlayer, Match, MatchLog, Presence
from leagues.models import (
    Invitation,
    League,
    PersonErasure,
    Player,
    SentNotification,
    Subscription,
)
from marker.errors import DomainError
from marker.permissions import require

Actor = Any


def former_name(number: int) -> str:
    return f"Former player {number}"


def _labels(player: Player, new: str) -> dict[str, str]:
    """The labels the draw and the engine may have stored for the player (their name,
    and their name with their id where two names read the same: `player_labels`), each
    with its replacement, longest first."""
    name = " ".join(player.name.split())
    labels = {}
    if name:
        labels[f"{name} #{player.pk}"] = f"{new} #{player.pk}"
        labels[name] = new
        if player.name != name:
            labels[player.name] = new
    return labels


def _rewriter(labels: dict[str, str], others: Iterable[str] = ()):
    """A function replacing the labels in a JSON value: exact strings and keys, and whole
    words in free text (a draw note, a log entry). `others` are the labels of the other
    players involved: they are left alone even where they contain one of the labels
    ("Al Smith" when "Al" is erased), because the longer alternative matches first."""
    if not labels:
        return lambda value: value
    keep = [o for o in others if o not in labels and any(old in o for old in labels)]
    alternatives = sorted([*labels, *keep], key=len, reverse=True)
    pattern = re.compile(
        "|".join(rf"(?<!\w){re.escape(alt)}(?!\w)" for alt in alternatives), flags=re.UNICODE
    )

    def text(value: str) -> str:
        if value in labels:
            return labels[value]
        return pattern.sub(lambda m: labels.get(m.group(0), m.group(0)), value)

    def rewrite(value: Any) -> Any:
        if isinstance(value, str):
            return text(value)
        if isinstance(value, list):
            return [rewrite(v) for v in value]
        if isinstance(value, dict):
            return {text(k) if isinstance(k, str) else k: rewrite(v) for k, v in value.items()}
        return value

    return rewrite


def _rewrite_rows(rows: Iterable[Any], fields: list[str], rewrite) -> int:
    changed = 0
    for row in rows:
        dirty = []
        for name in fields:
            before = getattr(row, name)
            after = rewrite(before)
            if after != before:
                setattr(row, name, after)
                dirty.append(name)
        if dirty:
            row.save(update_fields=dirty)
            changed += 1
    return changed


def _rename_in_match_night(player: Player, labels: dict[str, str]) -> None:
    """Replace the player's labels in what match night stored for the matches they were
    present at, played in or refereed."""
    match_ids = (
        set(Presence.objects.filter(player=player).values_list("match_id", flat=True))
        | set(
            FramePlayer.objects.filter(player=player, frame__match__isnull=False).values_list(
                "frame__match_id", flat=True
            )
        )
        | set(
            Frame.objects.filter(referee=player, match__isnull=False).values_list(
                "match_id", flat=True
            )
        )
    )
    frame_ids = set(
        Frame.objects.filter(
            Q(match_id__in=match_ids) | Q(players__player=player) | Q(referee=player)
        ).values_list("pk", flat=True)
    )
    others: set[str] = set()
    people = (
        Player.objects.filter(
            Q(presences__match_id__in=match_ids)
            | Q(frame_slots__frame_id__in=frame_ids)
            | Q(refereed_frames__id__in=frame_ids)
        )
        .exclude(pk=player.pk)
        .distinct()
    )
    for other in people:
        name = " ".join(other.name.split())
        others |= {name, f"{name} #{other.pk}"}
    rewrite = _rewriter(labels, others)
    _rewrite_rows(
        Match.objects.filter(pk__in=match_ids).select_for_update().order_by("pk"),
        ["home_hat", "away_hat", "draw_notes", "dispute_reason", "reorder_proposal"],
        rewrite,
    )
    _rewrite_rows(
        MatchLog.objects.filter(match_id__in=match_ids).order_by("pk"), ["detail"], rewrite
    )
    _rewrite_rows(
        Frame.objects.filter(pk__in=frame_ids).select_for_update().order_by("pk"),
        ["setup", "parties", "state", "view", "referee_note"],
        rewrite,
    )
    _rewrite_rows(
        FrameEvent.objects.filter(frame_id__in=frame_ids).order_by("frame_id", "seq"),
        ["payload", "state_after", "view_after"],
        rewrite,
    )


def _scrub_account(user: Any, number: int) -> list[str]:
    """Deactivate and scrub the login; returns the names it was known by (for the login
    records)."""
    if user is None:
        return []
    known = [user.get_username()]
    user.username = f"former-player-{number}"
    user.email = ""
    user.first_name = ""
    user.last_name = ""
    user.is_active = False
    user.is_staff = False
    user.is_superuser = False
    user.set_unusable_password()
    user.save()
    return known


@transaction.atomic
def person_erase(
    *, player: Player, actor: Actor, league: League | None = None, now: datetime | None = None
) -> PersonErasure:
    """Erase a person: see the module's docstring. Irreversible; refused for a person
    already erased. `league` is the league whose secretary asks (recorded)."""
    require(
        actor,
        "leagues.erase_person",
        player,
        code="forbidden",
        message="Only a secretary of a league this person played in (or the site "
        "administrator) can erase them.",
    )
    player = Player.objects.select_for_update(of=("self",)).select_related("user").get(pk=player.pk)
    if player.erased_number is not None:
        raise DomainError("already_erased", f"{player.name} was erased already.", status=409)
    now = now or timezone.now()
    number = (PersonErasure.objects.aggregate(n=Max("number"))["n"] or 0) + 1
    new = former_name(number)
    user = player.user
    emails = {
        e.strip().lower()
        for e in (player.email, getattr(user, "email", "") or "")
        if e and e.strip()
    }
    _rename_in_match_night(player, _labels(player, new))

    # Contact details.
    subscriptions = Subscription.objects.filter(email__in=emails)
    if user is not None:
        subscriptions = subscriptions | Subscription.objects.filter(user=user)
    subscriptions.delete()
    SentNotification.objects.filter(recipient__in=emails).delete()
    roster_invitations = Invitation.objects.filter(email__in=emails, kind=Invitation.Kind.ROSTER)
    roster_invitations.filter(accepted_at__isnull=True).delete()
    roster_invitations.update(name=new, email="")
    usernames = _scrub_account(user, number)
    if usernames:
        for model in (AccessAttempt, AccessLog, AccessFailureLog):
            model.objects.filter(username__in=usernames).delete()

    player.name = new
    player.email = ""
    player.private_name = False
    player.erased_number = number
    player.user = None
    player.save(update_fields=["name", "email", "private_name", "erased_number", "user"])
    return PersonErasure.objects.create(
        player=player,
        number=number,
        league=league,
        by=actor if getattr(actor, "is_authenticated", False) else None,
        at=now,
    )
