"""Everything Marker holds about one person, as JSON they can download (GDPR art. 15/20).

It reads league data (`leagues`) and match-night data (`frames`), so it lives in
`frames` (leagues knows nothing of frames). Other people appear only as what the public
already sees of them: a team's name, an opponent's public name; never another person's
email, account or private details.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Q
from django.utils import timezone

from frames.models import (
    Frame,
    FrameEvent,
    FramePlayer,
    Friendly,
    Presence,
    Rating,
    RatingChange,
)
from leagues.models import (
    Invitation,
    Player,
    PlayerFrameStat,
    Registration,
    Subscription,
    Team,
)

#: The export's format version: a field added is compatible, a field changed is not.
EXPORT_VERSION = 1


def _iso(value: Any) -> Any:
    return value.isoformat() if value is not None and hasattr(value, "isoformat") else value


def _account(user: Any) -> dict[str, Any] | None:
    if user is None:
        return None
    return {
        "username": user.get_username(),
        "email": user.email,
        "first_name": user.first_name,
        "last_name": user.last_name,
        "date_joined": _iso(user.date_joined),
        "last_login": _iso(user.last_login),
        "is_active": user.is_active,
    }


def _frames(player: Player) -> list[dict[str, Any]]:
    """The league frames the player played, with their side, partners, opponents (public
    names), the result and the referee's public name."""
    slots = list(
        FramePlayer.objects.filter(player=player, frame__match__isnull=False)
        .select_related(
            "frame__match__fixture__home",
            "frame__match__fixture__away",
            "frame__match__fixture__season",
            "frame__referee",
        )
        .order_by("frame__match__fixture__date", "frame__match_id", "frame__order")
    )
    frame_ids = [s.frame_id for s in slots]
    others: dict[int, list[FramePlayer]] = {}
    for fp in (
        FramePlayer.objects.filter(frame_id__in=frame_ids)
        .exclude(player=player)
        .select_related("player")
        .order_by("frame_id", "side", "position")
    ):
        others.setdefault(fp.frame_id, []).append(fp)
    rows = []
    for slot in slots:
        frame = slot.frame
        assert frame.match is not None  # filtered above
        fixture = frame.match.fixture
        mates = others.get(frame.pk, [])
        rows.append(
            {
                "frame_id": frame.pk,
                "match_id": frame.match_id,
                "season": fixture.season.name,
                "date": _iso(fixture.date),
                "fixture": f"{fixture.home.name} v {fixture.away.name}",
                "number": frame.number,
                "kind": frame.kind,
                "game_id": frame.game_id,
                "side": slot.side,
                "partners": [o.player.public_name for o in mates if o.side == slot.side],
                "opponents": [o.player.public_name for o in mates if o.side != slot.side],
                "status": frame.status,
                "home_score": frame.home_score,
                "away_score": frame.away_score,
                "winner": frame.winner,
                "shared": frame.shared,
                "result_source": frame.result_source,
                "referee": frame.referee.public_name if frame.referee else None,
            }
        )
    return rows


def _refereed(player: Player) -> list[dict[str, Any]]:
    return [
        {
            "frame_id": f.pk,
            "match_id": f.match_id,
            "date": _iso(f.match.fixture.date) if f.match else None,
            "fixture": str(f.match.fixture) if f.match else str(f),
            "number": f.number,
            "status": f.status,
        }
        for f in Frame.objects.filter(referee=player)
        .select_related("match__fixture__home", "match__fixture__away", "friendly")
        .order_by("id")
    ]


def _events_entered(user: Any) -> list[dict[str, Any]]:
    """The shots the person entered on the pad (as referee, captain or in a friendly
    game): which frame, when, from which device, and what was entered."""
    if user is None:
        return []
    return [
        {
            "frame_id": e.frame_id,
            "seq": e.seq,
            "kind": e.kind,
            "payload": e.payload,
            "device_id": e.device_id,
            "created_at": _iso(e.created_at),
        }
        for e in FrameEvent.objects.filter(entered_by=user).order_by("created_at", "id")
    ]


def person_data(player: Player | None, user: Any = None) -> dict[str, Any]:
    """Everything Marker holds about a person: their account, player record,
    registrations, teams captained, presences, frames played and refereed, the shots they
    entered, their statistics lines, ratings and rating changes, subscriptions and
    invitations."""
    user = user if user is not None else (player.user if player is not None else None)
    emails = {e.lower() for e in (getattr(user, "email", ""), getattr(player, "email", "")) if e}
    data: dict[str, Any] = {
        "format": "marker-personal-data",
        "version": EXPORT_VERSION,
        "exported_at": _iso(timezone.now()),
        "account": _account(user),
        "player": None,
        "registrations": [],
        "teams_captained": [],
        "presences": [],
        "frames_played": [],
        "frames_refereed": [],
        "events_entered": _events_entered(user),
        "statistics": [],
        "ratings": [],
        "rating_changes": [],
        "subscriptions": [],
        "invitations": [],
        "friendly_games": [],
    }
    if user is not None:
        data["teams_captained"] = [
            {
                "team": t.name,
                "season": t.season.name,
                "league": t.season.league.name,
                "role": "captain" if t.captain_id == user.pk else "vice-captain",
            }
            for t in Team.objects.filter(Q(captain=user) | Q(vice_captain=user))
            .select_related("season__league")
            .order_by("season_id", "name")
        ]
        data["friendly_games"] = [
            {"id": f.pk, "title": f.title, "created_at": _iso(f.created_at)}
            for f in Friendly.objects.filter(owner=user).order_by("created_at", "id")
        ]
    subscriptions = Subscription.objects.filter(
        Q(user=user) if user is not None else Q(pk__in=[])
    ) | Subscription.objects.filter(email__in=emails)
    data["subscriptions"] = [
        {
            "league": s.league.name,
            "email": s.email,
            "active": s.active,
            "created_at": _iso(s.created_at),
        }
        for s in subscriptions.select_related("league").distinct().order_by("id")
    ]
    data["invitations"] = [
        {
            "team": i.team.name if i.team else "",
            "name": i.name,
            "email": i.email,
            "created_at": _iso(i.created_at),
            "sent_at": _iso(i.sent_at),
            "accepted_at": _iso(i.accepted_at),
        }
        for i in Invitation.objects.filter(email__in=emails, kind=Invitation.Kind.ROSTER)
        .select_related("team")
        .order_by("id")
    ]
    if player is None:
        return data
    data["player"] = {
        "id": player.pk,
        "name": player.name,
        "public_name": player.public_name,
        "email": player.email,
        "private_name": player.private_name,
    }
    data["registrations"] = [
        {
            "season": r.season.name,
            "league": r.season.league.name,
            "team": r.team.name,
            "kind": r.kind,
            "status": r.status,
            "created_at": _iso(r.created_at),
            "first_played_at": _iso(r.first_played_at),
            "removed_at": _iso(r.removed_at),
        }
        for r in Registration.objects.filter(player=player)
        .select_related("season__league", "team")
        .order_by("id")
    ]
    data["presences"] = [
        {
            "match_id": p.match_id,
            "fixture": str(p.match.fixture),
            "date": _iso(p.match.fixture.date),
            "side": p.side,
            "drafted": p.drafted,
            "marked_at": _iso(p.marked_at),
        }
        for p in Presence.objects.filter(player=player)
        .select_related("match__fixture__home", "match__fixture__away")
        .order_by("marked_at", "id")
    ]
    data["frames_played"] = _frames(player)
    data["frames_refereed"] = _refereed(player)
    data["statistics"] = [
        {
            "fixture_id": s.fixture_id,
            "frame_number": s.frame_number,
            "team": s.team.name,
            "played_on": _iso(s.played_on),
            "won": s.won,
            "shared": s.shared,
            "score": s.score,
            "opponent_score": s.opponent_score,
            "game_id": s.game_id,
            "values": s.values,
        }
        for s in PlayerFrameStat.objects.filter(player=player)
        .select_related("team")
        .order_by("played_on", "fixture_id", "frame_number")
    ]
    data["ratings"] = [
        {
            "game_id": r.game_id,
            "mu": r.mu,
            "sigma": r.sigma,
            "ordinal": r.ordinal,
            "frames": r.frames,
            "last_played_on": _iso(r.last_played_on),
        }
        for r in Rating.objects.filter(player=player).order_by("game_id")
    ]
    data["rating_changes"] = [
        {
            "game_id": c.game_id,
            "frame_id": c.frame_id,
            "played_on": _iso(c.played_on),
            "side": c.side,
            "mu": c.mu,
            "sigma": c.sigma,
            "ordinal": c.ordinal,
            "delta": c.delta,
            "expected": c.expected,
            "frames": c.frames,
        }
        for c in RatingChange.objects.filter(player=player).order_by("game_id", "seq")
    ]
    return data
