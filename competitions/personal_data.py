"""What competitions hold of a person (`marker.personal_data`): their entries (alone or
as a pair's partner), the cup-tie frames they played, the competitions whose list of
eligible players holds them, and the names the draw, the log and the pad stored.

Erasure keeps the entries and results (the player's row is renamed, so an entry's name
follows) and renames what was stored as text: the draw record's entrants, the
competition log, each cup-tie frame's setup, state and shot log and its title.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Q, QuerySet

from frames.personal_data import frames_relabel, frames_rename, player_labels
from leagues.models import Player
from marker.personal_data import Erasure, Person, Relabel, Section, iso, rewrite_rows, rewriter

from .models import Competition, CompetitionLog, Entry, TieFrame


def _entries_of(player: Any) -> QuerySet[Entry]:
    return Entry.objects.filter(Q(player=player) | Q(partner=player))


def _public(entry: Entry | None) -> str | None:
    """An entrant as the public sees it: a team's name, or the players' public names."""
    if entry is None:
        return None
    if entry.team is not None:
        return entry.team.name
    players = [p for p in (entry.player, entry.partner) if p is not None]
    return " & ".join(p.public_name for p in players) or f"Entry {entry.pk}"


def _partner(entry: Entry, player: Any) -> str | None:
    """The other player of a pair, as the public sees them."""
    other = entry.partner if entry.player_id == player.pk else entry.player
    return other.public_name if entry.partner_id is not None and other is not None else None


def _entries(person: Person) -> list[dict[str, Any]]:
    player = person.player
    if player is None:
        return []
    rows = (
        _entries_of(player)
        .select_related(
            "competition__season__league", "competition__organisation", "player", "partner"
        )
        .order_by("entered_at", "id")
    )
    return [
        {
            "competition": e.competition.name,
            "season": e.competition.season.name if e.competition.season else "",
            "league": (
                e.competition.season.league.name
                if e.competition.season
                else e.competition.owner_name
            ),
            "partner": _partner(e, player),
            "status": e.status,
            "paid": e.paid,
            "start": e.start,
            "source": e.source,
            "entered_at": iso(e.entered_at),
            "withdrawn_at": iso(e.withdrawn_at),
        }
        for e in rows
    ]


def _cup_frames(person: Person) -> list[dict[str, Any]]:
    """The frames of the player's individual or pairs ties: the tie (entrants as the
    public sees them), the frame's number, its score and who won it."""
    if person.player is None:
        return []
    mine = _entries_of(person.player)
    related = [
        "tie__competition",
        *(f"tie__{side}__{who}" for side in ("home", "away") for who in ("player", "partner")),
        "frame",
    ]
    rows = (
        TieFrame.objects.filter(Q(tie__home__in=mine) | Q(tie__away__in=mine))
        .select_related(*related)
        .order_by("tie__competition_id", "tie_id", "number")
    )
    return [
        {
            "competition": tf.tie.competition.name,
            "tie": f"{_public(tf.tie.home)} v {_public(tf.tie.away)}",
            "number": tf.number,
            "frame_id": tf.frame_id,
            "home_score": tf.frame.home_score if tf.frame else tf.home_score,
            "away_score": tf.frame.away_score if tf.frame else tf.away_score,
            "winner": tf.winner or (tf.frame.winner if tf.frame else ""),
            "source": tf.source,
        }
        for tf in rows
    ]


def _eligibility(person: Person) -> list[dict[str, Any]]:
    if person.player is None:
        return []
    through = Competition.eligible_players.through.objects.filter(player=person.player)
    return [
        {
            "competition": c.name,
            "season": c.season.name if c.season else "",
            "label": c.eligibility_label,
        }
        for c in Competition.objects.filter(pk__in=through.values("competition_id"))
        .select_related("season")
        .order_by("id")
    ]


def _erase(erasure: Erasure) -> None:
    """Rename the player in the draw records and logs of the competitions they entered,
    and in the frames (setup, state, shot log, title) of their ties."""
    player = erasure.player
    mine = _entries_of(player)
    competitions = Competition.objects.filter(pk__in=mine.values("competition_id"))
    entrants = Entry.objects.filter(competition__in=competitions)
    others = Player.objects.filter(
        Q(pk__in=entrants.values("player_id")) | Q(pk__in=entrants.values("partner_id"))
    ).exclude(pk=player.pk)
    rewrite = erasure.rewriter(player_labels(others))
    rewrite_rows(competitions.select_for_update().order_by("pk"), ["draw_record"], rewrite)
    rewrite_rows(
        CompetitionLog.objects.filter(competition__in=competitions).order_by("pk"),
        ["detail"],
        rewrite,
    )
    frame_ids = TieFrame.objects.filter(
        Q(tie__home__in=mine) | Q(tie__away__in=mine), frame__isnull=False
    ).values_list("frame_id", flat=True)
    frames_rename([pk for pk in frame_ids if pk is not None], rewrite)


def _relabel(relabel: Relabel) -> None:
    """The person's public name changed: rename them in the draw records and logs of the
    competitions they entered (their id added where the new name reads as another
    entrant's), and in the frames of their ties (each frame its own scope)."""
    player = relabel.player
    mine = _entries_of(player)
    for competition in (
        Competition.objects.filter(pk__in=mine.values("competition_id"))
        .select_for_update()
        .order_by("pk")
    ):
        entrants = Entry.objects.filter(competition=competition)
        others = set(
            player_labels(
                Player.objects.filter(
                    Q(pk__in=entrants.values("player_id")) | Q(pk__in=entrants.values("partner_id"))
                ).exclude(pk=player.pk)
            )
        )
        others |= {e.name for e in entrants.select_related("team", "player", "partner")}
        others -= {relabel.new, relabel.old}
        labels = relabel.labels_in({relabel.old, *others})
        rewrite = rewriter(labels, others - set(labels))
        rewrite_rows([competition], ["draw_record"], rewrite)
        rewrite_rows(
            CompetitionLog.objects.filter(competition=competition).order_by("pk"),
            ["detail"],
            rewrite,
        )
    frame_ids = TieFrame.objects.filter(
        Q(tie__home__in=mine) | Q(tie__away__in=mine), frame__isnull=False
    ).values_list("frame_id", flat=True)
    frames_relabel([pk for pk in frame_ids if pk is not None], relabel)


SECTIONS: tuple[Section, ...] = (
    Section(
        "competition_entries",
        ("competitions.Entry.player", "competitions.Entry.partner"),
        export=_entries,
        description="competitions entered, alone or in a pair (kept)",
    ),
    Section(
        "cup_frames",
        (),
        export=_cup_frames,
        description="frames of the player's cup ties (kept)",
    ),
    Section(
        "competition_eligibility",
        ("competitions.Competition.eligible_players",),
        export=_eligibility,
        description="competitions whose list of eligible players holds the player (kept)",
    ),
    Section(
        "competition_labels",
        ("competitions.Competition.draw_record", "competitions.CompetitionLog.detail"),
        erase=_erase,
        relabel=_relabel,
        description="the names the draw, the log and the pad stored (renamed)",
    ),
)

#: Fields that look personal by the rule and are not, with why.
NOT_PERSONAL: dict[str, str] = {
    "competitions.Competition.name": "a competition's name",
    "competitions.Round.name": "a round's name",
    "competitions.Group.name": "a group's name",
    "competitions.Entry.entered_by": "who entered it (an account, scrubbed on theirs)",
    "competitions.Tie.home_confirmed_by": "who confirmed (an account, scrubbed on theirs)",
    "competitions.Tie.away_confirmed_by": "who confirmed (an account, scrubbed on theirs)",
    "competitions.Tie.decided_by": "the officer who decided (an account, scrubbed on theirs)",
    "competitions.CompetitionLog.actor": "who acted (an account, scrubbed on theirs)",
}
