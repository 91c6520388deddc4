"""What a competition tells its entrants through the notifications: the draw made
(CUP_DRAW: each entrant's ties, once per draw) and a tie's deadline near (TIE_DEADLINE:
both sides of a tie not played two days before its deadline, once per tie)."""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone

from leagues import audience
from notifications.events import Event
from notifications.services import To, notify

from ..models import Competition, Entry, Tie

#: How long before a tie's deadline its sides are told it is not played yet.
DEADLINE_NOTICE = timedelta(days=2)

_ENTRANTS = (
    "home__team",
    "home__player",
    "home__partner",
    "away__team",
    "away__player",
    "away__partner",
)


def entrant_people(entry: Entry) -> list[To]:
    """A team's registered players and its captains; a player, and their partner."""
    if entry.team_id is not None:
        return audience.team_people([entry.team_id])
    return [To(user_id=p.user_id, email=p.email) for p in (entry.player, entry.partner) if p]


def cup_draw_notify(*, competition: Competition, knockout: bool, now: datetime) -> int:
    """CUP_DRAW to each entrant of the draw just made (its groups, or the first round of
    the knock-out), with their ties; once per draw (`cup-draw:{pk}` and, for a group
    event's knock-out, `cup-draw:{pk}:knockout`). Called in the draw's transaction."""
    ties = Tie.objects.filter(competition=competition).select_related("round", "group", *_ENTRANTS)
    if competition.has_groups and not knockout:
        ties = ties.filter(group__isnull=False)
    else:
        ties = ties.filter(round__number=1)
    lines: dict[int, list[str]] = defaultdict(list)
    entries: dict[int, Entry] = {}
    for tie in ties.order_by("group__number", "slot"):
        where = tie.group.name if tie.group is not None else tie.round.name  # type: ignore[union-attr]
        for mine, other in ((tie.home, tie.away), (tie.away, tie.home)):
            if mine is None:
                continue
            entries[mine.pk] = mine
            against = "a bye into the next round" if tie.bye else (other.name if other else "?")
            lines[mine.pk].append(f"{where}: {mine.name} v {against}")
    stage = "knock-out draw" if knockout else "draw"
    key = f"cup-draw:{competition.pk}" + (":knockout" if knockout else "")
    url = reverse("competition-detail", args=[competition.pk])
    queued = 0
    for entry_id, entry in entries.items():
        queued += notify(
            event=Event.CUP_DRAW,
            to=entrant_people(entry),
            key=key,
            title=f"{competition.name}: the {stage} is made",
            body="\n".join(lines[entry_id]),
            url=url,
            league_id=competition.season.league_id if competition.season else None,
            now=now,
        )
    return queued


def _deadline_of(tie: Tie) -> datetime | None:
    if tie.round is not None:
        return tie.round.deadline
    return tie.group.deadline if tie.group is not None else None


def tie_deadlines_notify(*, now: datetime | None = None) -> int:
    """TIE_DEADLINE to both sides of each tie still to be played whose deadline is within
    two days: once per tie (`tie-deadline:{pk}`), however often it runs; each tie in its
    own transaction. Returns how many messages were queued now."""
    now = now or timezone.now()
    soon = now + DEADLINE_NOTICE
    ties = (
        Tie.objects.filter(status=Tie.Status.SCHEDULED)
        .filter(
            Q(round__deadline__gt=now, round__deadline__lte=soon)
            | Q(group__deadline__gt=now, group__deadline__lte=soon)
        )
        .select_related("competition__season", "round", "group", *_ENTRANTS)
        .order_by("id")
    )
    queued = 0
    for tie in ties:
        deadline = _deadline_of(tie)
        if deadline is None or tie.home is None or tie.away is None:
            continue
        when = timezone.localtime(deadline)
        with transaction.atomic():
            queued += notify(
                event=Event.TIE_DEADLINE,
                to=[*entrant_people(tie.home), *entrant_people(tie.away)],
                key=f"tie-deadline:{tie.pk}",
                title=f"{tie.competition.name}: play {tie.home.name} v {tie.away.name} "
                f"by {when:%a %-d %b}",
                body=f"The tie must be played by {when:%A %-d %B, %H:%M}, or it may be awarded.",
                url=reverse("tie-detail", args=[tie.pk]),
                league_id=(tie.competition.season.league_id if tie.competition.season else None),
                now=now,
            )
    return queued
