"""What frames holds of a person (`marker.personal_data`): presences, frames played and
refereed, the shots they entered, statistics lines, ratings, friendly games, and the
labels the draw and the rules engine stored for them.

Erasure renames those labels (the hats, each frame's setup, state and shot log, the
match log) consistently, so replaying a log (`manage.py frames_check`) gives its stored
states again; a match's draw can no longer be replayed from its page, as the hats'
sorted names were its input. Ratings, statistics and tables do not change: they are keyed
by the player's id.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from django.db.models import Q

from leagues.models import Player
from marker.personal_data import Erasure, Person, Relabel, Section, iso, rewrite_rows, rewriter

from .models import (
    SIDES,
    Frame,
    FrameEvent,
    FramePlayer,
    Friendly,
    Match,
    MatchLog,
    PlayerFrameStat,
    Presence,
    Rating,
    RatingChange,
)


def player_labels(players: Iterable[Player]) -> set[str]:
    """The labels the draw and the engine may have stored for these players (to be left
    alone by a rewrite of someone else's): their names, and the initials of those shown
    by them, each with and without their id."""
    out: set[str] = set()
    for p in players:
        names = [" ".join(p.name.split())] + ([p.initials] if p.private_name else [])
        out |= {label for name in names for label in (name, f"{name} #{p.pk}")}
    return out


def frames_rename(frame_ids: Iterable[int], rewrite: Callable[[Any], Any]) -> None:
    """Rewrite the labels stored by the engine for these frames: their setup, parties,
    state and view, each shot's payload and states, and their friendly game's title (a
    cup tie's frame is named after its tie)."""
    ids = sorted(set(frame_ids))
    if not ids:
        return
    rewrite_rows(
        Frame.objects.filter(pk__in=ids).select_for_update().order_by("pk"),
        ["setup", "parties", "state", "view", "referee_note"],
        rewrite,
    )
    rewrite_rows(
        FrameEvent.objects.filter(frame_id__in=ids).order_by("frame_id", "seq"),
        ["payload", "state_after", "view_after"],
        rewrite,
    )
    rewrite_rows(Friendly.objects.filter(frame__id__in=ids).order_by("pk"), ["title"], rewrite)


def frames_relabel(frame_ids: Iterable[int], relabel: Relabel) -> None:
    """Rename the person's label in these frames (`frames_rename`), each frame its own
    scope: their new label reads as no other party of the frame (`Relabel.labels_in`)."""
    for frame in Frame.objects.filter(pk__in=sorted(set(frame_ids))).order_by("pk"):
        taken = {label for label in frame.parties or {} if label not in SIDES}
        labels = relabel.labels_in(taken)
        if labels:
            frames_rename([frame.pk], rewriter(labels, taken - set(labels)))


def _match_night_relabel(relabel: Relabel) -> None:
    """The frames the person played: their setup, state, shot log (the hats, the draw's
    notes and the log are shown by public name when read: `frames.matchnight.common`)."""
    frames_relabel(
        FramePlayer.objects.filter(player=relabel.player).values_list("frame_id", flat=True),
        relabel,
    )


def _match_night_erase(erasure: Erasure) -> None:
    """Replace the player's labels in what match night stored for the matches they were
    present at, played in or refereed, and in the frames they played or refereed."""
    player = erasure.player
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
    # The friendly games their account started name them as they were typed in: those
    # are renamed too (a friendly where they were only typed by someone else is not
    # theirs to find).
    owned = Q(friendly__owner=erasure.person.user) if erasure.person.user is not None else Q()
    frame_ids = set(
        Frame.objects.filter(
            Q(match_id__in=match_ids) | Q(players__player=player) | Q(referee=player) | owned
        ).values_list("pk", flat=True)
    )
    people = (
        Player.objects.filter(
            Q(presences__match_id__in=match_ids)
            | Q(frame_slots__frame_id__in=frame_ids)
            | Q(refereed_frames__id__in=frame_ids)
        )
        .exclude(pk=player.pk)
        .distinct()
    )
    rewrite = erasure.rewriter(player_labels(people))
    rewrite_rows(
        Match.objects.filter(pk__in=match_ids).select_for_update().order_by("pk"),
        ["home_hat", "away_hat", "draw_notes", "dispute_reason", "reorder_proposal"],
        rewrite,
    )
    rewrite_rows(
        MatchLog.objects.filter(match_id__in=match_ids).order_by("pk"), ["detail"], rewrite
    )
    frames_rename(frame_ids, rewrite)


def _presences(person: Person) -> list[dict[str, Any]]:
    if person.player is None:
        return []
    return [
        {
            "match_id": p.match_id,
            "fixture": str(p.match.fixture),
            "date": iso(p.match.fixture.date),
            "side": p.side,
            "drafted": p.drafted,
            "marked_at": iso(p.marked_at),
        }
        for p in Presence.objects.filter(player=person.player)
        .select_related("match__fixture__home", "match__fixture__away")
        .order_by("marked_at", "id")
    ]


def _frames_played(person: Person) -> list[dict[str, Any]]:
    """The league frames the player played, with their side, partners, opponents (public
    names), the result and the referee's public name."""
    player = person.player
    if player is None:
        return []
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
    others: dict[int, list[FramePlayer]] = {}
    for fp in (
        FramePlayer.objects.filter(frame_id__in=[s.frame_id for s in slots])
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
                "date": iso(fixture.date),
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


def _frames_refereed(person: Person) -> list[dict[str, Any]]:
    if person.player is None:
        return []
    return [
        {
            "frame_id": f.pk,
            "match_id": f.match_id,
            "date": iso(f.match.fixture.date) if f.match else None,
            "fixture": str(f.match.fixture) if f.match else str(f),
            "number": f.number,
            "status": f.status,
        }
        for f in Frame.objects.filter(referee=person.player)
        .select_related("match__fixture__home", "match__fixture__away", "friendly")
        .order_by("id")
    ]


def _events_entered(person: Person) -> list[dict[str, Any]]:
    """The shots the person entered on the pad (as referee, captain or in a friendly
    game): which frame, when, from which device, and what was entered."""
    if person.user is None:
        return []
    return [
        {
            "frame_id": e.frame_id,
            "seq": e.seq,
            "kind": e.kind,
            "payload": e.payload,
            "device_id": e.device_id,
            "created_at": iso(e.created_at),
        }
        for e in FrameEvent.objects.filter(entered_by=person.user).order_by("created_at", "id")
    ]


def _statistics(person: Person) -> list[dict[str, Any]]:
    if person.player is None:
        return []
    return [
        {
            "fixture_id": s.fixture_id,
            "frame_number": s.frame_number,
            "team": s.team.name,
            "played_on": iso(s.played_on),
            "won": s.won,
            "shared": s.shared,
            "score": s.score,
            "opponent_score": s.opponent_score,
            "game_id": s.game_id,
            "values": s.values,
        }
        for s in PlayerFrameStat.objects.filter(player=person.player)
        .select_related("team")
        .order_by("played_on", "fixture_id", "frame_number")
    ]


def _ratings(person: Person) -> list[dict[str, Any]]:
    if person.player is None:
        return []
    return [
        {
            "game_id": r.game_id,
            "mu": r.mu,
            "sigma": r.sigma,
            "ordinal": r.ordinal,
            "frames": r.frames,
            "last_played_on": iso(r.last_played_on),
        }
        for r in Rating.objects.filter(player=person.player).order_by("game_id")
    ]


def _rating_changes(person: Person) -> list[dict[str, Any]]:
    if person.player is None:
        return []
    return [
        {
            "game_id": c.game_id,
            "frame_id": c.frame_id,
            "played_on": iso(c.played_on),
            "side": c.side,
            "mu": c.mu,
            "sigma": c.sigma,
            "ordinal": c.ordinal,
            "delta": c.delta,
            "expected": c.expected,
            "frames": c.frames,
        }
        for c in RatingChange.objects.filter(player=person.player).order_by("game_id", "seq")
    ]


def _friendly_games(person: Person) -> list[dict[str, Any]]:
    if person.user is None:
        return []
    return [
        {"id": f.pk, "title": f.title, "created_at": iso(f.created_at)}
        for f in Friendly.objects.filter(owner=person.user).order_by("created_at", "id")
    ]


SECTIONS: tuple[Section, ...] = (
    Section(
        "presences",
        ("frames.Presence.player",),
        export=_presences,
        description="match nights present at (kept)",
    ),
    Section(
        "frames_played",
        ("frames.FramePlayer.player",),
        export=_frames_played,
        description="league frames played, with partners, opponents and results (kept)",
    ),
    Section(
        "frames_refereed",
        ("frames.Frame.referee",),
        export=_frames_refereed,
        description="frames refereed (kept)",
    ),
    Section(
        "events_entered",
        ("frames.FrameEvent.entered_by",),
        export=_events_entered,
        description="shots entered on the pad (kept: the account is scrubbed)",
    ),
    Section(
        "statistics",
        ("frames.PlayerFrameStat.player",),
        export=_statistics,
        description="statistics lines (kept, keyed by the player)",
    ),
    Section(
        "ratings",
        ("frames.Rating.player",),
        export=_ratings,
        description="ratings (kept, keyed by the player)",
    ),
    Section(
        "rating_changes",
        ("frames.RatingChange.player",),
        export=_rating_changes,
        description="rating changes (kept, keyed by the player)",
    ),
    Section(
        "friendly_games",
        ("frames.Friendly.owner", "frames.Friendly.title"),
        export=_friendly_games,
        description="friendly games started (titles renamed where they name the player)",
    ),
    Section(
        "match_night_labels",
        (
            "frames.Match.home_hat",
            "frames.Match.away_hat",
            "frames.Match.draw_notes",
            "frames.Match.reorder_proposal",
            "frames.Match.dispute_reason",
            "frames.MatchLog.detail",
            "frames.Frame.setup",
            "frames.Frame.parties",
            "frames.Frame.state",
            "frames.Frame.view",
            "frames.Frame.referee_note",
            "frames.FrameEvent.payload",
            "frames.FrameEvent.state_after",
            "frames.FrameEvent.view_after",
        ),
        erase=_match_night_erase,
        relabel=_match_night_relabel,
        description="the labels the draw and the engine stored (renamed; in the frames "
        "played, as exported above)",
    ),
)

#: Fields that look personal by the rule and are not, with why.
NOT_PERSONAL: dict[str, str] = {
    "frames.Match.match_format": "a match format: frame kinds and counts",
    "frames.Match.home_nomination": "a captain's nomination: player ids, named when shown",
    "frames.Match.away_nomination": "a captain's nomination: player ids, named when shown",
    "frames.Match.home_confirmed_by": "the captain who confirmed (an account, scrubbed on theirs)",
    "frames.Match.away_confirmed_by": "the captain who confirmed (an account, scrubbed on theirs)",
    "frames.MatchLog.actor": "who acted (an account, scrubbed on theirs)",
    "frames.Presence.marked_by": "who marked the presence (an account, scrubbed on theirs)",
    "frames.PlayerFrameStat.values": "the game's statistics: name → number",
    "frames.Award.name": "an award's name",
    "frames.RatingRun.moved": "the ids of the players a ratings run moved: ids, no name",
    # The photo itself shows the names written on the signed card: the league's record of
    # the match, like its results (docs/paper-card.md, docs/privacy.md).
    "frames.CardPhoto.uploaded_by": "who added a card's photo (an account, scrubbed on theirs)",
}
