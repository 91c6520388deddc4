"""What match night tells people (issue 30), through the outbox (`notifications.notify`),
always inside the transaction that writes what it announces:

- RESULT_TO_CONFIRM: one side confirmed (or keyed in the paper sheet of) a result the
  other side must confirm → that side's captain and vice-captain (`confirm:{match}:{side}`);
- MATCH_RESULT: a result counts (both captains, after the league's period, or the
  secretary settling) → the registered players of both teams (`result:{match}`);
- DISPUTE: a result disputed → the league's secretaries and the other side's captains
  (`dispute:{match}`); settled → both sides' captains (`dispute:{match}:settled`).

The outbox keeps one message per person, event and key: a service run again (a retried
task, a double tap) tells nobody twice.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from decimal import Decimal

from django.urls import reverse

from frames.models import Match, Side
from leagues.models import LeagueRole, Registration, Team
from notifications.events import Event
from notifications.services import To, notify


def _frames(value: Decimal) -> str:
    text = f"{value:f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def score_line(match: Match) -> str:
    """'Kings Head 5–4 Red Lion' (frames; a shared frame counts a half)."""
    home, away = match.fixture.home, match.fixture.away
    return f"{home.name} {_frames(match.home_frames)}–{_frames(match.away_frames)} {away.name}"


def other(side: str) -> str:
    return Side.AWAY if side == Side.HOME else Side.HOME


def _captains(*teams: Team) -> list[To]:
    return [
        To(user_id=user_id)
        for team in teams
        for user_id in (team.captain_id, team.vice_captain_id)
        if user_id is not None
    ]


def _league_id(match: Match) -> int:
    return match.fixture.season.league_id


def _url(match: Match) -> str:
    return reverse("match-detail", args=[match.pk])


def result_to_confirm(match: Match, sides: Iterable[str], now: datetime) -> int:
    """Ask each of `sides` (those yet to confirm) to confirm the result."""
    told = 0
    for side in sides:
        if getattr(match, f"{side}_confirmed_at") is not None:
            continue
        team = match.team(side)
        told += notify(
            event=Event.RESULT_TO_CONFIRM,
            to=_captains(team),
            key=f"confirm:{match.pk}:{side}",
            title=f"Confirm the result: {score_line(match)}",
            body=(
                f"{match.team(other(side)).name} ask {team.name} to confirm the result "
                f"({score_line(match)}), or dispute it, on Marker."
            ),
            url=_url(match),
            league_id=_league_id(match),
            now=now,
        )
    return told


def match_result(match: Match, now: datetime) -> int:
    """The result counts: tell the players of both teams."""
    players = (
        Registration.objects.filter(
            team_id__in=[match.fixture.home_id, match.fixture.away_id],
            status=Registration.Status.ACTIVE,
        )
        .select_related("player")
        .order_by("id")
    )
    to = [
        To(user_id=r.player.user_id, email=r.player.email)
        for r in players
        if r.player.user_id or r.player.email
    ]
    return notify(
        event=Event.MATCH_RESULT,
        to=to,
        key=f"result:{match.pk}",
        title=f"Result: {score_line(match)}",
        body=f"The result of {match.fixture.home.name} v {match.fixture.away.name} counts: "
        f"{score_line(match)}.",
        url=_url(match),
        league_id=_league_id(match),
        now=now,
    )


def _officers(match: Match) -> list[To]:
    return [
        To(user_id=user_id)
        for user_id in LeagueRole.objects.filter(
            league_id=_league_id(match),
            role__in=[LeagueRole.Role.SECRETARY, LeagueRole.Role.RESULTS_SECRETARY],
        )
        .order_by("user_id")
        .values_list("user_id", flat=True)
        .distinct()
    ]


def dispute_raised(match: Match, side: str, reason: str, now: datetime) -> int:
    """A side disputes the result: the league's secretaries settle it; the other side's
    captains should know."""
    disputer = match.team(side).name
    return notify(
        event=Event.DISPUTE,
        to=_officers(match) + _captains(match.team(other(side))),
        key=f"dispute:{match.pk}",
        title=f"Result disputed: {score_line(match)}",
        body=f"{disputer} dispute the result: {reason[:300]}",
        url=_url(match),
        league_id=_league_id(match),
        now=now,
    )


def dispute_settled(match: Match, decision: str, now: datetime) -> int:
    """The secretary settled a disputed result: both sides' captains hear how."""
    how = "accepted as it stood" if decision == "accept" else "corrected"
    return notify(
        event=Event.DISPUTE,
        to=_captains(match.fixture.home, match.fixture.away),
        key=f"dispute:{match.pk}:settled",
        title=f"Dispute settled: {score_line(match)}",
        body=f"The secretary settled the disputed result ({how}): {score_line(match)}.",
        url=_url(match),
        league_id=_league_id(match),
        now=now,
    )
