"""The roll of honour: the winners and runners-up of every division and competition.

The roll of honour keeps the winners and runners-up of every division and competition of
a league, season after season:

- a division's honours are read from its final table when the secretary finishes the
  season (`season_finish`);
- a competition's are recorded by the competitions code when its final is confirmed
  (`honour_record`, also known as `record_honour`);
- each line stores the name the team (or the players' public names) had when it was won,
  so a team renamed since, or a season closed and rolled over, still shows the honour as
  it was won; a player who asks to be shown by initials (or no longer) after winning has
  their lines renamed (`honours_rename_player`), and an erased one too.

Recording is idempotent: an honour is keyed by its `source` ("division:12",
"competition:5") and position, so a final settled again replaces its line.

The season's awards (their model, `frames.models.Award`) are defined and computed next
to the statistics they rank, in `frames.stats.awards`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import Prefetch, Q
from django.db.models.expressions import RawSQL
from django.utils import timezone

from marker.errors import DomainError
from marker.permissions import require
from marker.personal_data import rewrite_rows, rewriter

from . import standings
from .models import (
    Division,
    Fixture,
    Honour,
    League,
    Player,
    Registration,
    Season,
    Team,
)

#: Who won: a team, or the players of an individual or pairs event.
Holder = Team | Sequence[Player]

MAX_MIN_FRAMES = 1000


def holder_name(holder: Holder) -> str:
    """The name shown on the roll: the team's, or the players' public names joined ('Ann
    & Bob'; initials for a player who asked not to be named)."""
    if isinstance(holder, Team):
        return holder.name
    return " & ".join(p.public_name for p in holder)


def honours_rename_player(*, player: Player, old: str, new: str) -> int:
    """A player's label in the names of their lines on the roll becomes `new` (they asked
    to be shown by initials, or no longer, after they won); the other players of a pair
    keep theirs. Returns how many lines changed."""
    rows = Honour.objects.filter(players=player).order_by("pk")
    others = {
        label
        for p in Player.objects.filter(honours__in=rows).exclude(pk=player.pk)
        for label in (" ".join(p.name.split()), p.public_name)
    }
    return rewrite_rows(rows.select_for_update(), ["name"], rewriter({old: new}, others))


def _write(
    *,
    season: Season,
    title: str,
    kind: str,
    source: str,
    position: str,
    holder: Holder,
    detail: str,
    order: int,
    now: datetime,
) -> Honour:
    name = holder_name(holder)
    if not name:
        raise DomainError("bad_value", "An honour needs a team or at least one player.")
    honour, _ = Honour.objects.update_or_create(
        source=source,
        position=position,
        defaults={
            "league_id": season.league_id,
            "season": season,
            "season_name": season.name,
            "title": title[:120],
            "kind": kind,
            "team": holder if isinstance(holder, Team) else None,
            "name": name[:250],
            "detail": detail[:200],
            "order": order,
            "recorded_at": now,
        },
    )
    # The players in the holder's own order (a pair as its bracket names it): one row at a
    # time, since the roll reads them back in the order their rows were written (`_honours`).
    honour.players.clear()
    for player in [] if isinstance(holder, Team) else holder:
        honour.players.add(player)
    return honour


@transaction.atomic
def honour_record(
    *,
    season: Season,
    title: str,
    kind: str,
    source: str,
    winner: Holder,
    runner_up: Holder | None = None,
    detail: str = "",
    order: int = 0,
    now: datetime | None = None,
) -> list[Honour]:
    """Put a winner (and a runner-up) on the league's roll of honour.

    Called by the competitions code when a final is confirmed (`kind="competition"`,
    `source=f"competition:{pk}"`, the competition's name as `title`), and by
    `season_finish` for each division. `winner`/`runner_up` is a Team or a list of
    Players (a pairs event: both). Recording the same `source` again replaces its lines
    (a final settled again); a runner-up no longer given is removed. The caller has
    checked who may do this (it is the system's write, after a confirmation).
    """
    if kind not in Honour.Kind.values:
        raise DomainError("bad_value", f"{kind!r} is not a kind of honour.", field="kind")
    if not title.strip() or not source.strip():
        raise DomainError("bad_value", "An honour needs a title and a source.", field="title")
    now = now or timezone.now()
    lines = [
        _write(
            season=season,
            title=title,
            kind=kind,
            source=source,
            position=Honour.Position.WINNER,
            holder=winner,
            detail=detail,
            order=order,
            now=now,
        )
    ]
    if runner_up is not None:
        lines.append(
            _write(
                season=season,
                title=title,
                kind=kind,
                source=source,
                position=Honour.Position.RUNNER_UP,
                holder=runner_up,
                detail="",
                order=order,
                now=now,
            )
        )
    else:
        Honour.objects.filter(source=source, position=Honour.Position.RUNNER_UP).delete()
    return lines


#: The name the brief of the competitions code uses.
record_honour = honour_record


def _division_detail(row: standings.Row) -> str:
    points = standings.number(row.points)
    shared = ", level on every tie-breaker" if row.shared else ""
    return f"{points} points from {row.played} matches{shared}"


@transaction.atomic
def season_finish(
    *, season: Season, actor, force: bool = False, now: datetime | None = None
) -> list[Honour]:
    """Finish a season: its status becomes finished and each division's winner and
    runner-up go on the roll of honour from the final tables. A season with fixtures
    still without a confirmed result is refused unless `force` (the secretary says the
    tables are final as they stand). Safe to run again: the honours are replaced."""
    require(
        actor,
        "leagues.manage_league",
        season,
        message="Only the league's secretary can finish a season.",
    )
    season = Season.objects.select_for_update().get(pk=season.pk)
    unfinished = Fixture.objects.filter(season=season, result_confirmed_at__isnull=True).count()
    if unfinished and not force:
        raise DomainError(
            "season_not_final",
            f"{unfinished} fixture{'s' * (unfinished != 1)} still without a confirmed result: "
            "finish the season anyway only if the tables are final as they stand.",
            field="force",
        )
    now = now or timezone.now()
    honours: list[Honour] = []
    teams = {t.pk: t for t in Team.objects.filter(season=season)}
    ranks = dict(Division.objects.filter(season=season).values_list("pk", "rank"))
    for table in standings.tables(season):
        rows = [r for r in table.rows if r.played]
        if not rows:
            continue
        honours += honour_record(
            season=season,
            title=table.division,
            kind=Honour.Kind.DIVISION,
            source=f"division:{table.division_id}",
            winner=teams[rows[0].team_id],
            runner_up=teams[rows[1].team_id] if len(rows) > 1 else None,
            detail=_division_detail(rows[0]),
            order=ranks[table.division_id],
            now=now,
        )
    if season.status != Season.Status.FINISHED:
        season.status = Season.Status.FINISHED
        season.save(update_fields=["status"])
    return honours


# -------------------------------------------------------------------------- reads


@dataclass
class HonourLine:
    """One title of one season on the roll: its winner and runner-up."""

    title: str
    kind: str
    detail: str
    winner: Honour | None = None
    runner_up: Honour | None = None


@dataclass
class HonourSeason:
    season_id: int | None
    season_name: str
    lines: list[HonourLine] = field(default_factory=list)


#: A line's players in the order they were written onto it (`_write`): the order of the
#: rows of the many-to-many table, which the prefetch joins under its own name.
_IN_HOLDER_ORDER = RawSQL(f'"{Honour.players.through._meta.db_table}"."id"', ())


def _honours() -> Any:
    return Honour.objects.select_related("team", "season").prefetch_related(
        Prefetch("players", queryset=Player.objects.order_by(_IN_HOLDER_ORDER))
    )


def league_honours(league: League) -> list[HonourSeason]:
    """The league's roll of honour, newest season first, each title with its winner and
    runner-up (two queries, however long the roll)."""
    seasons: dict[tuple[int | None, str], HonourSeason] = {}
    lines: dict[str, HonourLine] = {}
    for honour in (
        _honours()
        .filter(league=league)
        .order_by("-season__start_date", "-season_id", "-recorded_at", "order", "title", "position")
    ):
        key = (honour.season_id, honour.season_name)
        season = seasons.setdefault(key, HonourSeason(honour.season_id, honour.season_name))
        line = lines.get(honour.source)
        if line is None:
            line = lines[honour.source] = HonourLine(honour.title, honour.kind, honour.detail)
            season.lines.append(line)
        if honour.position == Honour.Position.WINNER:
            line.winner = honour
            line.detail = honour.detail
        else:
            line.runner_up = honour
    for season in seasons.values():
        season.lines.sort(key=lambda li: (li.kind != Honour.Kind.DIVISION, li.title))
    return list(seasons.values())


def team_honours(team: Team) -> list[Honour]:
    """What this team won (or was runner-up in), under the name it had then."""
    return list(_honours().filter(team=team).order_by("order", "title", "position"))


def player_honours(player: Player) -> list[Honour]:
    """The player's honours: their own (singles, pairs) and their teams' (a team the
    player was on the roster of, or played for)."""
    teams = Registration.objects.filter(player=player).filter(
        Q(status=Registration.Status.ACTIVE) | Q(first_played_at__isnull=False)
    )
    return list(
        _honours()
        .filter(Q(players=player) | Q(team__in=teams.values("team_id")))
        .distinct()
        .order_by("-season_id", "order", "title", "position")
    )
