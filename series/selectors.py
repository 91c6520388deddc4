"""Reads of ranking series: the lists on a league's or organisation's page, and a
series' standings in a fixed handful of queries (the series, its events, the off-system
placings, the competitions' knock-out ties and entries, the players' names)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.db.models import QuerySet

from competitions.models import Competition, Entry, Tie
from leagues.models import League, Organisation, Player

from . import standings as calc
from .models import Series, SeriesEvent, SeriesResult


def series_of(owner: League | Organisation) -> QuerySet[Series]:
    if isinstance(owner, League):
        return Series.objects.filter(league=owner).order_by("-created_at", "name")
    return Series.objects.filter(organisation=owner).order_by("-created_at", "name")


def series_with_owner() -> QuerySet[Series]:
    return Series.objects.select_related("league", "organisation")


def events_of(series: Series) -> list[SeriesEvent]:
    return list(
        SeriesEvent.objects.filter(series=series)
        .select_related("competition__season__league", "competition__organisation")
        .order_by("number")
    )


def competition_placings(competition_ids: list[int]) -> dict[int, dict[int, int]]:
    """Each finished competition's placings by player: the winner 1st, the runner-up
    2nd, a round's losers sharing its best placing (semi-finalists 3rd, quarter-finalists
    5th, …), the group stage's others after the knock-out's last round; a pair's two
    players each. Two queries, whatever the number of competitions."""
    if not competition_ids:
        return {}
    ties = list(
        Tie.objects.filter(competition_id__in=competition_ids, round__isnull=False)
        .exclude(bye=True)
        .values("competition_id", "round__number", "home_id", "away_id", "winner_id", "status")
    )
    rounds: dict[int, int] = defaultdict(int)
    for t in ties:
        rounds[t["competition_id"]] = max(rounds[t["competition_id"]], t["round__number"])
    by_entry: dict[int, int] = {}
    for t in ties:
        if t["winner_id"] is None or t["status"] not in Tie.DECIDED:
            continue
        to_go = rounds[t["competition_id"]] - t["round__number"]
        loser = t["away_id"] if t["winner_id"] == t["home_id"] else t["home_id"]
        if loser is not None:
            by_entry[loser] = 2**to_go + 1
        if to_go == 0:
            by_entry[t["winner_id"]] = 1
    placings: dict[int, dict[int, int]] = defaultdict(dict)
    entries = Entry.objects.filter(
        competition_id__in=competition_ids,
        status=Entry.Status.ENTERED,
        player__isnull=False,
    ).values("id", "competition_id", "player_id", "partner_id")
    for e in entries:
        placing = by_entry.get(e["id"], 2 ** rounds[e["competition_id"]] + 1)
        for player_id in (e["player_id"], e["partner_id"]):
            if player_id is not None:
                placings[e["competition_id"]][player_id] = placing
    return placings


@dataclass
class SeriesStandings:
    series: Series
    events: list[SeriesEvent]
    rows: list[calc.Row]
    manual: dict[int, list[SeriesResult]]

    @property
    def next_event(self) -> SeriesEvent | None:
        return next((e for e in self.events if not e.played), None)

    @property
    def played_count(self) -> int:
        return sum(1 for e in self.events if e.played)


def series_standings(series: Series) -> SeriesStandings:
    """The series' standings with their explanations (`series.standings`)."""
    events = events_of(series)
    manual: dict[int, list[SeriesResult]] = defaultdict(list)
    for r in (
        SeriesResult.objects.filter(event__series=series)
        .select_related("player")
        .order_by("event_id", "placing", "player__name")
    ):
        manual[r.event_id].append(r)
    finished = [e.competition_id for e in events if e.competition_id is not None and e.played]
    from_competitions = competition_placings(finished)
    placings: dict[int, dict[int, int]] = defaultdict(dict)
    names: dict[int, str] = {}
    for event in events:
        if not event.played:
            continue
        if event.competition_id is not None:
            for player_id, placing in from_competitions.get(event.competition_id, {}).items():
                placings[player_id][event.pk] = placing
        else:
            for r in manual.get(event.pk, []):
                placings[r.player_id][event.pk] = r.placing
                names[r.player_id] = r.player.public_name
    missing = [pid for pid in placings if pid not in names]
    if missing:
        for p in Player.objects.filter(pk__in=missing).only("name", "private_name"):
            names[p.pk] = p.public_name
    rows = calc.standings(
        series.rules,
        [
            calc.Event(id=e.pk, number=e.number, name=e.name, weight=e.weight, played=e.played)
            for e in events
        ],
        placings,
        names,
    )
    return SeriesStandings(series=series, events=events, rows=rows, manual=dict(manual))


def competitions_for(series: Series) -> QuerySet[Competition]:
    """The individual competitions a series may take as events: its league's seasons'
    (or its organisation's) singles and pairs events."""
    qs = Competition.objects.exclude(entrant=Competition.Entrant.TEAM)
    if series.league_id is not None:
        qs = qs.filter(season__league_id=series.league_id)
    else:
        qs = qs.filter(organisation_id=series.organisation_id or 0)
    return qs.select_related("season").order_by("-created_at", "name")


def players_for(series: Series) -> QuerySet[Player]:
    """Whom an off-system event's placings may name: players registered in the league's
    (or the organisation's member leagues') seasons."""
    if series.league_id is not None:
        qs = Player.objects.filter(registrations__season__league_id=series.league_id)
    else:
        qs = Player.objects.filter(
            registrations__season__league__organisations__id=series.organisation_id or 0
        )
    return qs.filter(erased_number__isnull=True).distinct().order_by("name")
