"""Reads for ratings and pictures: a player's ratings and ranks, a league's table, the
expectation of a match, head to head, and the figures behind each picture (a frame's
worm, a player's hole map and breaks, a division's positions week by week).

Each read is a fixed number of queries however large the league grows (the pages assert
it); the geometry is in `frames.ratings.pictures`.
"""

from __future__ import annotations

import itertools
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from typing import Any

from django.db.models import Count, Exists, OuterRef, Q, Subquery
from django.db.models.fields.json import KeyTextTransform, KeyTransform
from django.utils import timezone
from openskill.models import PlackettLuceRating

from frames.engine import side_setup
from frames.models import (
    Frame,
    FrameEvent,
    FramePlayer,
    Match,
    PlayerFrameStat,
    Presence,
    Rating,
    RatingChange,
    RatingRun,
    Side,
)
from frames.stats.record import setup_names
from leagues.models import (
    Division,
    Fixture,
    League,
    Player,
    Registration,
    Team,
    public_name_of,
)
from rules import registry
from rules.layout import TableMap
from rules.vocabulary import RuleError

from .services import DEFAULT_PROVISIONAL, counted_frames, last_states, model, played_on_expr

#: Reasons a player page mentions ("ratings updated after a correction on …").
NOTED = (RatingRun.Reason.CORRECTION, RatingRun.Reason.SETTLEMENT, RatingRun.Reason.ERASURE)


def game_name(game_id: str) -> str:
    try:
        return registry.get(game_id).name
    except registry.UnknownGame:
        return game_id


def _rated_in(league_id: int, game_id: str) -> Exists:
    return Exists(
        RatingChange.objects.filter(
            league_id=league_id, game_id=game_id, player_id=OuterRef("player_id")
        )
    )


# --------------------------------------------------------------------- a player


@dataclass
class LeagueRank:
    league_id: int
    name: str
    rank: int
    players: int
    provisional: bool
    threshold: int


@dataclass
class PlayerRating:
    game_id: str
    game: str
    mu: float
    sigma: float
    ordinal: float
    frames: int
    provisional: bool
    rank: int
    players: int
    leagues: list[LeagueRank] = field(default_factory=list)
    history: list[dict[str, Any]] = field(default_factory=list)
    note: RatingRun | None = None


def player_ratings(player: Player) -> list[PlayerRating]:
    """The player's rating in each game they have played, with their rank across the
    instance and in each league they played it in, their history, and the last
    correction that moved it. 3 queries, plus 2 for each league and game they played."""
    higher = (
        Rating.objects.filter(game_id=OuterRef("game_id"), ordinal__gt=OuterRef("ordinal"))
        .order_by()
        .values("game_id")
        .annotate(n=Count("pk"))
        .values("n")
    )
    everyone = (
        Rating.objects.filter(game_id=OuterRef("game_id"))
        .order_by()
        .values("game_id")
        .annotate(n=Count("pk"))
        .values("n")
    )
    rows = list(
        Rating.objects.filter(player=player)
        .annotate(above=Subquery(higher), everyone=Subquery(everyone))
        .order_by("game_id")
    )
    if not rows:
        return []
    history: dict[str, list[dict[str, Any]]] = defaultdict(list)
    leagues: dict[str, dict[int, tuple[str, int]]] = defaultdict(dict)
    for change in (
        RatingChange.objects.filter(player=player)
        .select_related("league", "fixture__home", "fixture__away")
        .order_by("game_id", "seq")
    ):
        fixture = change.fixture
        opponent = fixture.away if change.side == Side.HOME else fixture.home
        result = (
            "shared"
            if change.shared
            else "won"
            if change.winner == change.side
            else "lost"
            if change.winner
            else ""
        )
        history[change.game_id].append(
            {
                "played_on": change.played_on,
                "mu": change.mu,
                "sigma": change.sigma,
                "ordinal": change.ordinal,
                "delta": change.delta,
                "expected": change.expected,
                "result": result,
                "opponent": opponent.name,
                "frame_id": change.frame_id,
                "frames": change.frames,
            }
        )
        leagues[change.game_id][change.league_id] = (
            change.league.name,
            change.league.provisional_frames,
        )
    games = [r.game_id for r in rows]
    notes: dict[str, RatingRun] = {}
    for run in RatingRun.objects.filter(
        game_id__in=games, state=RatingRun.State.DONE, reason__in=NOTED, since__isnull=False
    ).order_by("-finished_at", "-pk")[:20]:
        # Only a run that moved this player's rating (μ, σ or frames) is theirs to note.
        if player.pk in run.moved and run.game_id not in notes:
            notes[run.game_id] = run
    out = []
    for r in rows:
        ranks = []
        for league_id, (name, threshold) in sorted(leagues[r.game_id].items()):
            in_league = Rating.objects.filter(game_id=r.game_id).filter(
                _rated_in(league_id, r.game_id)
            )
            ranks.append(
                LeagueRank(
                    league_id,
                    name,
                    in_league.filter(ordinal__gt=r.ordinal).count() + 1,
                    in_league.count(),
                    r.frames < threshold,
                    threshold,
                )
            )
        out.append(
            PlayerRating(
                game_id=r.game_id,
                game=game_name(r.game_id),
                mu=r.mu,
                sigma=r.sigma,
                ordinal=r.ordinal,
                frames=r.frames,
                provisional=r.frames < DEFAULT_PROVISIONAL,
                rank=(getattr(r, "above", None) or 0) + 1,
                players=getattr(r, "everyone", None) or 1,
                leagues=ranks,
                history=history[r.game_id],
                note=notes.get(r.game_id),
            )
        )
    return out


# --------------------------------------------------------------------- a league


def league_games(league: League) -> list[str]:
    """The games a league's seasons play (its current game first)."""
    games = [league.game_id]
    for game_id in league.seasons.order_by("-start_date", "-id").values_list("game_id", flat=True):
        if game_id not in games:
            games.append(game_id)
    return games


def league_table(
    league: League, game_id: str, *, min_frames: int = 0, provisional: bool = True
) -> list[dict[str, Any]]:
    """The ratings of everyone who has played the game in the league, best conservative
    rating first, with their frames in this league (two queries: who played it here, on the
    changes' league index, then their ratings by key; one query filtering the game's
    ratings by an EXISTS read every rating of the game, in every league, at a thousand
    leagues)."""
    players = list(
        RatingChange.objects.filter(league=league, game_id=game_id)
        .order_by()
        .values_list("player_id", flat=True)
        .distinct()
    )
    in_league = (
        RatingChange.objects.filter(league=league, game_id=game_id, player_id=OuterRef("player_id"))
        .order_by()
        .values("player_id")
        .annotate(n=Count("pk"))
        .values("n")
    )
    qs = (
        Rating.objects.filter(game_id=game_id, player_id__in=players)
        .annotate(league_frames=Subquery(in_league))
        .select_related("player")
        .order_by("-ordinal", "player_id")  # ties by id: a name never reorders them
    )
    if min_frames:
        qs = qs.filter(frames__gte=min_frames)
    if not provisional:
        qs = qs.filter(frames__gte=league.provisional_frames)
    out = []
    rank, previous = 0, None
    for i, r in enumerate(qs, start=1):
        if r.ordinal != previous:  # tied ordinals share a rank (54, 54, 56), as in the API
            rank, previous = i, r.ordinal
        out.append(
            {
                "rank": rank,
                "tied": False,
                "player_id": r.player_id,
                "name": r.player.public_name,
                "mu": r.mu,
                "sigma": r.sigma,
                "ordinal": r.ordinal,
                "frames": r.frames,
                "league_frames": r.league_frames or 0,
                "provisional": r.frames < league.provisional_frames,
                "last_played_on": r.last_played_on,
            }
        )
    for row, after in zip(out, out[1:], strict=False):
        if row["rank"] == after["rank"]:
            row["tied"] = after["tied"] = True
    return out


# --------------------------------------------------------------------- a match


def ratings_before(game_id: str, player_ids: Iterable[int], day: date | None) -> dict[int, Any]:
    """Each player's (μ, σ) before a day (their current rating without a day): one query."""
    ids = list(set(player_ids))
    if day is None:
        rows = Rating.objects.filter(game_id=game_id, player_id__in=ids)
        return {pid: (mu, sigma) for pid, mu, sigma in rows.values_list("player_id", "mu", "sigma")}
    return {pid: (mu, sigma) for pid, mu, sigma, *_ in last_states(game_id, day, ids)}


def _chance(rater, states: Mapping[int, Any], home: list[int], away: list[int]) -> float:
    def team(ids: list[int]) -> list[PlackettLuceRating]:
        return [PlackettLuceRating(*states.get(pid, (rater.mu, rater.sigma))) for pid in ids]

    return float(rater.predict_win([team(home), team(away)])[0])


def match_expectation(match: Match) -> dict[str, Any]:
    """The frames each side should win, from the ratings before the match's day: frame
    by frame once drawn, else from the two squads (those marked present, or the
    rosters: the mean chance over every pairing, and every pair of pairs in doubles).
    After the night, how it went against it. 4 queries."""
    fixture = match.fixture
    day = fixture.date or timezone.localdate()
    slots = list(
        FramePlayer.objects.filter(frame__match=match)
        .order_by("frame__order", "side", "position")
        .values_list("frame_id", "frame__number", "frame__kind", "side", "player_id")
    )
    rater = model()
    frames: dict[int, dict[str, Any]] = {}
    for frame_id, number, kind, side, player_id in slots:
        f = frames.setdefault(
            frame_id, {"number": number, "kind": kind, Side.HOME: [], Side.AWAY: []}
        )
        f[side].append(player_id)
    drawn = [f for f in frames.values() if f[Side.HOME] and f[Side.AWAY]]
    rows: list[dict[str, Any]] = []
    if drawn:
        ids = [pid for f in drawn for pid in f[Side.HOME] + f[Side.AWAY]]
        states = ratings_before(match.game_id, ids, day)
        for f in drawn:
            chance = _chance(rater, states, f[Side.HOME], f[Side.AWAY])
            rows.append({"number": f["number"], "kind": f["kind"], "home": chance})
        basis = "the draw"
    else:
        squads = _squads(match)
        states = ratings_before(match.game_id, squads[Side.HOME] + squads[Side.AWAY], day)
        home, away = squads[Side.HOME], squads[Side.AWAY]
        if not home or not away:
            return {"basis": "", "rows": [], "home": None, "away": None}
        singles = [_chance(rater, states, [h], [a]) for h in home for a in away]
        # Every pair of pairs (a roster of 12 a side: 66 × 66 = 4,356 chances, a few ms).
        doubles = [
            _chance(rater, states, list(h), list(a))
            for h in itertools.combinations(home, 2)
            for a in itertools.combinations(away, 2)
        ] or singles
        s_mean, d_mean = sum(singles) / len(singles), sum(doubles) / len(doubles)
        rows = [{"number": n, "kind": "singles", "home": s_mean} for n in range(1, 7)]
        rows += [{"number": n, "kind": "doubles", "home": d_mean} for n in range(7, 10)]
        basis = "the squads"
    home_expected = sum(r["home"] for r in rows)
    away_expected = len(rows) - home_expected
    after = None
    if match.status in (Match.Status.COMPLETE, Match.Status.CONFIRMED, Match.Status.DISPUTED):
        actual = float(match.home_frames)
        after = {
            "home": actual,
            "away": float(match.away_frames),
            "difference": actual - home_expected,
        }
    return {
        "basis": basis,
        "rows": rows,
        "home": home_expected,
        "away": away_expected,
        "after": after,
        "rated": len(states),
    }


def _squads(match: Match) -> dict[str, list[int]]:
    squads: dict[str, list[int]] = {Side.HOME: [], Side.AWAY: []}
    # By player, not by the order they were marked present: the same squads give the
    # same expectation to the last bit.
    for side, player_id in (
        Presence.objects.filter(match=match).order_by("player_id").values_list("side", "player_id")
    ):
        squads[side].append(player_id)
    if squads[Side.HOME] and squads[Side.AWAY]:
        return squads
    teams = {match.fixture.home_id: Side.HOME, match.fixture.away_id: Side.AWAY}
    squads = {Side.HOME: [], Side.AWAY: []}
    for team_id, player_id in (
        Registration.objects.filter(team_id__in=teams, status=Registration.Status.ACTIVE)
        .order_by("player_id")
        .values_list("team_id", "player_id")
    ):
        squads[teams[team_id]].append(player_id)
    return squads


# --------------------------------------------------------------------- head to head


def _frame_rows(qs: Iterable[Frame], sides: Mapping[int, str]) -> list[dict[str, Any]]:
    out = []
    for f in qs:
        mine = sides[f.pk]
        result = "shared" if f.shared else "won" if f.winner == mine else "lost"
        fixture = f.match.fixture if f.match else None
        out.append(
            {
                "frame_id": f.pk,
                "number": f.number,
                "kind": f.kind,
                "played_on": getattr(f, "played", None),
                "fixture": str(fixture) if fixture else "",
                "fixture_id": fixture.pk if fixture else None,
                "side": mine,
                "result": result,
                "home_score": f.home_score,
                "away_score": f.away_score,
            }
        )
    return out


def _record(rows: list[dict[str, Any]]) -> dict[str, int]:
    c = Counter(r["result"] for r in rows)
    return {"won": c["won"], "lost": c["lost"], "shared": c["shared"], "played": len(rows)}


def head_to_head_players(a: Player, b: Player) -> dict[str, Any]:
    """Every counted (league) frame in which a and b played on opposite sides (from a's side),
    a's record, and their ratings with a's chance in a singles frame now (3 queries)."""
    b_other_side = FramePlayer.objects.filter(frame_id=OuterRef("frame_id"), player=b).exclude(
        side=OuterRef("side")
    )
    sides = dict(
        FramePlayer.objects.filter(player=a, frame__in=counted_frames())
        .filter(Exists(b_other_side))
        .values_list("frame_id", "side")
    )
    frames = (
        Frame.objects.filter(pk__in=list(sides))
        .annotate(played=played_on_expr())
        .select_related("match__fixture__home", "match__fixture__away")
        .order_by("played", "match__fixture_id", "order")
    )
    rows = _frame_rows(frames, sides)
    ratings: dict[str, dict[int, tuple[float, float]]] = defaultdict(dict)
    for game_id, pid, mu, sigma in Rating.objects.filter(player__in=[a, b]).values_list(
        "game_id", "player_id", "mu", "sigma"
    ):
        ratings[game_id][pid] = (mu, sigma)
    chances = []
    rater = model()
    for game_id, states in sorted(ratings.items()):
        if a.pk in states and b.pk in states:
            chances.append(
                {
                    "game_id": game_id,
                    "game": game_name(game_id),
                    "chance": _chance(rater, states, [a.pk], [b.pk]),
                }
            )
    return {"frames": rows, "record": _record(rows), "chances": chances}


def head_to_head_teams(a: Team, b: Team) -> dict[str, Any]:
    """Every confirmed league fixture between two teams, with its frames, and a's record
    in matches and frames (2 queries)."""
    fixtures = list(
        Fixture.objects.filter(
            Q(home=a, away=b) | Q(home=b, away=a),
            kind=Fixture.Kind.LEAGUE,  # cup ties are not in head to head (nor rated)
            result_confirmed_at__isnull=False,
        )
        .select_related("home", "away")
        .order_by("date", "id")
    )
    frames = (
        Frame.objects.filter(match__fixture__in=fixtures, status=Frame.Status.COMPLETE)
        .annotate(played=played_on_expr())
        .select_related("match__fixture__home", "match__fixture__away")
        .order_by("played", "match__fixture_id", "order")
    )
    side_of = {f.pk: (Side.HOME if f.home_id == a.pk else Side.AWAY) for f in fixtures}
    frame_list = list(frames)
    sides = {f.pk: side_of[f.match.fixture_id] for f in frame_list if f.match is not None}
    rows = _frame_rows(frame_list, sides)
    matches: Counter[str] = Counter()
    for f in fixtures:
        mine, theirs = (
            (f.home_frames, f.away_frames) if f.home_id == a.pk else (f.away_frames, f.home_frames)
        )
        mine, theirs = mine or Decimal(0), theirs or Decimal(0)
        matches["won" if mine > theirs else "lost" if mine < theirs else "drawn"] += 1
    return {
        "fixtures": fixtures,
        "frames": rows,
        "record": _record(rows),
        "matches": {k: matches[k] for k in ("won", "lost", "drawn")},
    }


# --------------------------------------------------------------------- a frame's worm


def frame_worm(frame: Frame) -> list[dict[str, Any]]:
    """Each side's score after every shot still in the frame's history (undone ones left
    out), from the stored `FrameEvent.view_after` (one query)."""
    parties: dict[str, str] = dict(frame.parties or {})
    if not parties:
        parties = {s: s for s in (Side.HOME, Side.AWAY)}
        for side, name in FramePlayer.objects.filter(frame=frame).values_list(
            "side", "player__name"
        ):
            parties[name] = side
    undone = FrameEvent.objects.filter(
        frame_id=OuterRef("frame_id"), kind=FrameEvent.Kind.UNDO, top_before=OuterRef("seq")
    )
    points: list[dict[str, Any]] = [{"shot": 0, Side.HOME: 0.0, Side.AWAY: 0.0}]
    for shot, (seq, scores) in enumerate(
        FrameEvent.objects.filter(frame=frame, kind=FrameEvent.Kind.EVENT)
        .exclude(Exists(undone))
        .annotate(scores=KeyTransform("scores", "view_after"))
        .order_by("seq")
        .values_list("seq", "scores"),
        start=1,
    ):
        totals: dict[str, float] = {Side.HOME: 0.0, Side.AWAY: 0.0}
        for party, value in (scores or {}).items():
            scored_by = parties.get(party)
            if scored_by in totals and isinstance(value, int | float):
                totals[scored_by] += float(value)
        points.append({"shot": shot, "seq": seq, **totals})
    return points


# --------------------------------------------------------------------- hole map


def drawable(game_id: str) -> TableMap | None:
    """What the game declares can be drawn of its table (its :class:`TableMap`: the
    event, list field and place field its pots name, and where each place sits); None:
    nothing to draw."""
    try:
        return registry.get(game_id).table_map()
    except registry.UnknownGame:
        return None


def _shooter(view: Mapping[str, Any] | None, after: Mapping[str, Any] | None) -> Any:
    """Who made an event: `last.player` of the view after it, else the player (or the
    party) at the table before it."""
    last = (after or {}).get("last")
    if isinstance(last, Mapping) and last.get("player"):
        return last["player"]
    view = view or {}
    return view.get("player") or view.get("at_table")


def hole_map(player: Player, game_id: str, *, frames: int = 100) -> dict[str, Any] | None:
    """Where the player's pots went in their last `frames` counted frames of the game
    scored shot by shot (frames keyed in from paper have no pots to draw, and are not
    counted), by place (None when the game declares nothing to draw). 3 queries."""
    spec = drawable(game_id)
    if spec is None:
        return None
    game = registry.get(game_id)
    mine = list(
        counted_frames()
        .filter(game_id=game_id, players__player=player, last_seq__gt=0)
        .exclude(result_source="paper")  # shots replaced by a paper result: as statistics do
        .annotate(played=played_on_expr())
        .order_by("-played", "-pk")
        .values_list("pk", "setup", "kind")[:frames]
    )
    ids = [pk for pk, _s, _k in mine]
    slots: dict[int, list[FramePlayer]] = defaultdict(list)
    names: dict[int, dict[str, list[str]]] = defaultdict(lambda: {Side.HOME: [], Side.AWAY: []})
    for fp in (
        FramePlayer.objects.filter(frame_id__in=ids)
        .select_related("player")
        .order_by("frame_id", "side", "position")
    ):
        slots[fp.frame_id].append(fp)
        names[fp.frame_id][fp.side].append(fp.player.name)
    events: dict[int, list[tuple]] = defaultdict(list)
    for row in (
        FrameEvent.objects.filter(frame_id__in=ids)
        .annotate(
            pots=KeyTransform(spec.field, "payload"),
            etype=KeyTextTransform("type", "payload"),
            last=KeyTransform("last", "view_after"),
            vplayer=KeyTextTransform("player", "view_after"),
            vtable=KeyTextTransform("at_table", "view_after"),
        )
        .order_by("frame_id", "seq")
        .values_list(
            "frame_id", "seq", "kind", "top_before", "etype", "pots", "last", "vplayer", "vtable"
        )
    ):
        events[row[0]].append(row[1:])
    counts: Counter[Any] = Counter()
    for pk, setup, _kind in mine:
        try:
            setup = setup or side_setup(game_id, names[pk], None)[0]
            first = game.view(game.initial(setup))
        except RuleError:
            continue
        by_name = setup_names(setup, slots[pk])
        sides = {fp.side for fp in slots[pk] if fp.player_id == player.pk}
        side_players = {
            s: [fp.player_id for fp in slots[pk] if fp.side == s] for s in (Side.HOME, Side.AWAY)
        }
        rows = events[pk]
        undone = {top for _seq, kind, top, *_ in rows if kind == FrameEvent.Kind.UNDO}
        views = {0: first}
        for seq, kind, _top, _t, _p, last, vplayer, vtable in rows:
            if kind == FrameEvent.Kind.EVENT:
                views[seq] = {"player": vplayer, "at_table": vtable, "last": last}
        for seq, kind, top, etype, pots, last, _vp, _vt in rows:
            if kind != FrameEvent.Kind.EVENT or seq in undone or etype != spec.event:
                continue
            who = _shooter(views.get(top), {"last": last})
            if who in by_name:
                ours = by_name[who] == player.pk
            elif who in side_players and len(side_players[who]) == 1:
                ours = who in sides
            else:
                ours = False
            if not ours or not isinstance(pots, list):
                continue
            for pot in pots:
                if isinstance(pot, Mapping) and pot.get(spec.place) in spec.choices:
                    counts[pot[spec.place]] += 1
    return {
        "place": spec.place,
        "shape": spec.shape,
        "places": [
            {"place": p.name, "pots": counts.get(p.name, 0), "x": p.x, "y": p.y} for p in spec.spots
        ],
        "total": sum(counts.values()),
        "frames": len(mine),
    }


# --------------------------------------------------------------------- breaks


def break_statistic(game_id: str) -> tuple[str, str] | None:
    """The statistic the game declares the breaks chart bins (its ``best_stat``: a
    break, run or turn), as (name, label), else None."""
    try:
        game = registry.get(game_id)
    except registry.UnknownGame:
        return None
    for s in game.statistics:
        if s.name == game.best_stat:
            return s.name, s.label
    return None


def break_values(player: Player, game_id: str) -> dict[str, Any]:
    """The values the breaks chart bins: the declared high-break-like statistic per frame
    (frames scored shot by shot), else the side's score per frame (one query)."""
    stat = break_statistic(game_id)
    lines = PlayerFrameStat.objects.filter(
        player=player, game_id=game_id, fixture__result_confirmed_at__isnull=False
    )
    if stat is not None:
        values = [
            float(v[stat[0]])
            for v in lines.filter(has_shots=True).values_list("values", flat=True)
            if isinstance(v, Mapping) and isinstance(v.get(stat[0]), int | float)
        ]
        if values:
            return {"label": stat[1], "values": sorted(values)}
    return {
        "label": "Frame score",
        "values": sorted(float(s) for s in lines.values_list("score", flat=True)),
    }


# --------------------------------------------------------------------- positions


def division_positions(division: Division) -> dict[str, Any]:
    """Each team's position after every round with a confirmed result, by points (the
    season's points per frame, per match won or drawn, margin and aggregate bonuses),
    then frames won, then name; deductions are left out (2 queries)."""
    season = division.season
    teams = list(Team.objects.filter(division=division).order_by("name", "pk"))
    points: dict[int, Decimal] = {t.pk: Decimal(0) for t in teams}
    won: dict[int, Decimal] = {t.pk: Decimal(0) for t in teams}
    rounds: list[int] = []
    positions: dict[int, list[int]] = {t.pk: [] for t in teams}
    fixtures = list(
        Fixture.objects.filter(division=division, result_confirmed_at__isnull=False)
        .order_by("round", "id")
        .values_list(
            "round", "home_id", "away_id", "home_frames", "away_frames", "home_score", "away_score"
        )
    )
    for rnd, group in itertools.groupby(fixtures, key=lambda f: f[0]):
        for _r, home, away, hf, af, hs, as_ in group:
            if home not in points or away not in points:
                continue
            hf, af = hf or Decimal(0), af or Decimal(0)
            for me, mine, theirs, sm, st in ((home, hf, af, hs, as_), (away, af, hf, as_, hs)):
                p = mine * season.points_per_frame
                if mine > theirs:
                    p += season.points_per_match_win
                elif mine == theirs:
                    p += season.points_per_match_draw
                if season.bonus_margin is not None and mine - theirs >= season.bonus_margin:
                    p += season.bonus_margin_points
                if (sm or 0) > (st or 0):
                    p += season.bonus_aggregate_points
                points[me] += p
                won[me] += mine
        rounds.append(rnd)
        order = sorted(teams, key=lambda t: (-points[t.pk], -won[t.pk], t.name, t.pk))
        for position, team in enumerate(order, start=1):
            positions[team.pk].append(position)
    return {
        "rounds": rounds,
        "teams": [
            {"team_id": t.pk, "name": t.name, "positions": positions[t.pk], "points": points[t.pk]}
            for t in teams
        ],
    }


def opponents(player: Player, count: int = 5) -> list[dict[str, Any]]:
    """The players this player has met most often across the table in rated frames, for
    head-to-head links (two queries)."""
    mine = FramePlayer.objects.filter(player=player, frame__rating_changes__player=player)
    sides = dict(mine.values_list("frame_id", "side"))
    faced: dict[int, dict[str, Any]] = {}
    for frame_id, side, pid, name, private in FramePlayer.objects.filter(
        frame_id__in=mine.values("frame_id")
    ).values_list("frame_id", "side", "player_id", "player__name", "player__private_name"):
        if side != sides.get(frame_id, side):
            entry = faced.setdefault(
                pid, {"player_id": pid, "name": public_name_of(name, private), "frames": 0}
            )
            entry["frames"] += 1
    return sorted(faced.values(), key=lambda e: (-e["frames"], e["player_id"]))[:count]
