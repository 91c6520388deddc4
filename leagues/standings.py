"""League tables: standings from confirmed results, computed by the database.

One aggregate query gives every team's played, won, drawn, lost, frames, aggregate score,
points and deductions: each confirmed fixture becomes two rows, one seen from each team
(home UNION ALL away), joined to the teams and grouped per team. Joining both sides onto
teams in one `annotate()` would multiply rows (teams × home × away) and give wrong sums;
the UNION never does. Nothing loops over fixtures in Python.

Ordering applies the season's tie-breakers in order. Head-to-head is a mini-league of the
teams still level when it is reached, from their mutual fixtures: one more aggregate
query, only when a tie gets that far. Teams level on every tie-breaker share a position.
Every row explains itself ("above Crown on aggregate score (4,310 to 3,980)").

The query count does not depend on the number of teams or divisions: a whole season is
built with the same queries as one division (see `tables`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from datetime import datetime
from decimal import Decimal
from typing import cast

from django.db import connection

from marker.formats import effective_format

from .models import TIE_BREAKERS, Division, Fixture, PointDeduction, Season, Team

ZERO = Decimal("0")


# ------------------------------------------------------------------------- the scheme


@dataclass(frozen=True)
class Scheme:
    """A season's points scheme and tie-breaker order."""

    points_per_frame: Decimal = Decimal("1")
    points_per_match_win: Decimal = ZERO
    points_per_match_draw: Decimal = ZERO
    bonus_margin: int | None = None
    bonus_margin_points: Decimal = Decimal("1")
    bonus_aggregate_points: Decimal = ZERO
    tie_breakers: tuple[str, ...] = ("points", "frames_won", "aggregate", "head_to_head")
    points_per_section: Decimal = ZERO

    @classmethod
    def of(cls, season: Season, division: Division | None = None) -> Scheme:
        """The season's scheme, with the match format's points (the division's format
        when it has its own): per frame and per match where the format sets them, and
        per section won."""
        fmt = effective_format(
            season.match_format, division.match_format if division is not None else None
        )
        points = fmt.points
        return cls(
            points_per_frame=season.points_per_frame if points.frame is None else points.frame,
            points_per_match_win=season.points_per_match_win
            if points.match is None
            else points.match,
            points_per_match_draw=season.points_per_match_draw,
            bonus_margin=season.bonus_margin,
            bonus_margin_points=season.bonus_margin_points,
            bonus_aggregate_points=season.bonus_aggregate_points,
            tie_breakers=tuple(season.tie_breakers),
            points_per_section=points.section,
        )

    def describe(self) -> list[str]:
        """The scheme in words, for the foot of the table."""
        parts = []
        if self.points_per_frame:
            parts.append(
                f"{number(self.points_per_frame)} point{'s' * (self.points_per_frame != 1)} "
                "per frame won (a shared frame counts half)"
            )
        if self.points_per_section:
            parts.append(
                f"{number(self.points_per_section)} per section won (a level section counts half)"
            )
        if self.points_per_match_win:
            parts.append(f"{number(self.points_per_match_win)} for a match won")
        if self.points_per_match_draw:
            parts.append(f"{number(self.points_per_match_draw)} for a match drawn")
        if self.bonus_margin and self.bonus_margin_points:
            parts.append(
                f"a bonus of {number(self.bonus_margin_points)} for winning by "
                f"{self.bonus_margin} frames or more"
            )
        if self.bonus_aggregate_points:
            parts.append(
                f"a bonus of {number(self.bonus_aggregate_points)} for the higher aggregate "
                "score in a match"
            )
        order = ", then ".join(TIE_BREAKERS[k] for k in self.tie_breakers)
        return [
            "Points: " + ("; ".join(parts) if parts else "none") + ".",
            f"Order: {order}; teams level on all of these share a position.",
        ]

    def as_dict(self) -> dict:
        data = asdict(self)
        data["tie_breakers"] = list(self.tie_breakers)
        return {k: (str(v) if isinstance(v, Decimal) else v) for k, v in data.items()}


def _points_sql(scheme: Scheme) -> tuple[str, list]:
    """SQL for one side's league points from one fixture (columns f, a, sf, sa of the
    `sides` rows below), per the scheme; terms the scheme does not use are left out.
    Decimal parameters are cast: SQLite binds them as text."""
    n = "CAST(%s AS NUMERIC)"
    sql, params = f"s.f * {n}", list[object]([scheme.points_per_frame])
    if scheme.points_per_match_win or scheme.points_per_match_draw:
        sql += f" + CASE WHEN s.f > s.a THEN {n} WHEN s.f = s.a THEN {n} ELSE 0 END"
        params += [scheme.points_per_match_win, scheme.points_per_match_draw]
    if scheme.bonus_margin and scheme.bonus_margin_points:
        sql += f" + CASE WHEN s.f - s.a >= %s THEN {n} ELSE 0 END"
        params += [int(scheme.bonus_margin), scheme.bonus_margin_points]
    if scheme.bonus_aggregate_points:
        sql += f" + CASE WHEN s.sf > s.sa THEN {n} ELSE 0 END"
        params += [scheme.bonus_aggregate_points]
    if scheme.points_per_section:
        sql += f" + COALESCE(s.secf, 0) * {n}"
        params += [scheme.points_per_section]
    return sql, params


# ------------------------------------------------------------------------------ rows


def number(value: Decimal | int) -> str:
    """A count of frames or points as people write it: 40½, 12, 4,310, and below zero
    (points after a deduction) with its sign in front: -1½, -½.

    >>> number(Decimal("40.5")), number(Decimal("12.0")), number(4310), number(Decimal("0.5"))
    ('40½', '12', '4,310', '½')
    >>> number(Decimal("-1.5")), number(Decimal("-0.5")), number(Decimal("-1234.0"))
    ('-1½', '-½', '-1,234')
    """
    value = Decimal(value)
    if value < 0:
        # divmod on a negative Decimal truncates towards zero (-1.5 → -1, -0.5): format the
        # size, then put the sign in front.
        return "-" + number(-value)
    whole, frac = divmod(value, 1)
    text = f"{int(whole):,}"
    if frac == Decimal("0.5"):
        return "½" if whole == 0 else f"{text}½"
    if frac:
        return f"{value.normalize():f}"
    return text


def signed(value: Decimal | int) -> str:
    """A difference with its sign.

    >>> signed(Decimal("3.5")), signed(0), signed(-2)
    ('+3½', '0', '-2')
    """
    if value > 0:
        return "+" + number(value)
    if value < 0:
        return "-" + number(-value)
    return "0"


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd...

    >>> [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22)]
    ['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd']
    """
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _exact(value: Decimal) -> str:
    """Frames and points to one decimal place, as stored (halves are exact)."""
    return str(Decimal(value).quantize(Decimal("0.1")))


@dataclass
class Row:
    """One team's line in a table."""

    team_id: int
    team: str
    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    frames_for: Decimal = ZERO
    frames_against: Decimal = ZERO
    score_for: int = 0
    score_against: int = 0
    earned: Decimal = ZERO
    deducted: Decimal = ZERO
    position: int = 0
    shared: bool = False
    explanation: str = ""
    notes: list[str] = field(default_factory=list)

    @property
    def points(self) -> Decimal:
        return self.earned - self.deducted

    @property
    def frame_difference(self) -> Decimal:
        return self.frames_for - self.frames_against

    def as_dict(self) -> dict:
        """JSON for the snapshot, the API and the templates: exact values as strings
        (frames may be halves), and the display forms beside them."""
        return {
            "team_id": self.team_id,
            "team": self.team,
            "position": self.position,
            "shared": self.shared,
            "position_display": f"{self.position}{'=' * self.shared}",
            "played": self.played,
            "won": self.won,
            "drawn": self.drawn,
            "lost": self.lost,
            "frames_for": _exact(self.frames_for),
            "frames_against": _exact(self.frames_against),
            "frame_difference": _exact(self.frame_difference),
            "score_for": self.score_for,
            "score_against": self.score_against,
            "earned": _exact(self.earned),
            "deducted": _exact(self.deducted),
            "points": _exact(self.points),
            "frames_for_display": number(self.frames_for),
            "frames_against_display": number(self.frames_against),
            "frame_difference_display": signed(self.frame_difference),
            "score_for_display": number(self.score_for),
            "score_against_display": number(self.score_against),
            "deducted_display": number(self.deducted) if self.deducted else "",
            "points_display": number(self.points),
            "explanation": self.explanation,
            "notes": list(self.notes),
        }


@dataclass
class Table:
    """One division's table: rows in order, with the notes shown beneath it."""

    division_id: int
    division: str
    season_id: int
    scheme: Scheme
    as_of: datetime | None
    rows: list[Row]
    notes: list[dict] = field(default_factory=list)  # {"team": name, "text": ...}

    def as_rows(self) -> list[dict]:
        return [row.as_dict() for row in self.rows]


# -------------------------------------------------------------------------- ranking

#: Deciders: (key, value of the team above, value of the team below, the tied group).
Decider = tuple[str, object, object, tuple[str, ...]]


def _value(key: str, row: Row) -> object:
    if key == "points":
        return row.points
    if key == "frames_won":
        return row.frames_for
    if key == "frame_difference":
        return row.frame_difference
    if key == "aggregate":
        return row.score_for
    raise KeyError(key)


def _h2h_groups(rows: list[Row], keys: tuple[str, ...]) -> list[list[Row]]:
    """The groups of teams still level when head-to-head is reached (keys before it are
    global values, so the groups are known before ranking)."""
    if "head_to_head" not in keys:
        return []
    before = keys[: keys.index("head_to_head")]
    groups: dict[tuple, list[Row]] = {}
    for row in rows:
        groups.setdefault(tuple(_value(k, row) for k in before), []).append(row)
    return [g for g in groups.values() if len(g) > 1]


def rank(
    rows: list[Row],
    keys: Iterable[str],
    head_to_head: Callable[[list[list[Row]]], dict[int, tuple[Decimal, Decimal]]] | None = None,
) -> list[Row]:
    """Order `rows` by the tie-breakers, set positions (shared when level on all) and
    write each row's explanation. `head_to_head(groups)` returns, per team of each group,
    (points, frames won) in the mini-league of its group; it is called at most once.
    """
    keys = tuple(keys)
    groups = _h2h_groups(rows, keys)
    mini = head_to_head(groups) if (groups and head_to_head) else {}

    def value(key: str, row: Row) -> object:
        if key == "head_to_head":
            return mini.get(row.team_id, (ZERO, ZERO))
        return _value(key, row)

    def split(group: list[Row], depth: int) -> tuple[list[list[Row]], list[Decider]]:
        if len(group) == 1 or depth == len(keys):
            return [sorted(group, key=lambda r: r.team.lower())], []
        key = keys[depth]
        by: dict[object, list[Row]] = {}
        for row in group:
            by.setdefault(value(key, row), []).append(row)
        ordered = sorted(by, reverse=True)  # type: ignore[type-var]
        names = tuple(sorted(r.team for r in group))
        bands: list[list[Row]] = []
        deciders: list[Decider] = []
        for i, v in enumerate(ordered):
            sub_bands, sub_deciders = split(by[v], depth + 1)
            if i:
                deciders.append((key, ordered[i - 1], v, names))
            bands += sub_bands
            deciders += sub_deciders
        return bands, deciders

    bands, deciders = split(list(rows), 0)
    ordered_rows: list[Row] = []
    for j, band in enumerate(bands):
        position = len(ordered_rows) + 1
        for row in band:
            row.position = position
            row.shared = len(band) > 1
            others = [r.team for r in band if r is not row]
            if row.shared:
                row.explanation = (
                    f"level with {_and(others)} on {_and([TIE_BREAKERS[k] for k in keys])} "
                    f"(shares {ordinal(position)})"
                )
            elif j + 1 < len(bands):
                row.explanation = "above " + _explain(bands[j + 1], deciders[j], mine_first=True)
            elif j > 0:
                row.explanation = "below " + _explain(
                    bands[j - 1], deciders[j - 1], mine_first=False
                )
            ordered_rows.append(row)
    return ordered_rows


def _and(items: list[str]) -> str:
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _fmt(key: str, value: object) -> str:
    if key == "frame_difference":
        return signed(value)  # type: ignore[arg-type]
    return number(value)  # type: ignore[arg-type]


def _explain(neighbours: list[Row], decider: Decider, *, mine_first: bool) -> str:
    key, above, below, group = decider
    mine, theirs = (above, below) if mine_first else (below, above)
    who = _and([r.team for r in neighbours])
    if key == "head_to_head":
        (mp, mf), (tp, tf) = (
            cast(tuple[Decimal, Decimal], mine),
            cast(tuple[Decimal, Decimal], theirs),
        )
        between = f"in matches between {_and(list(group))}"
        if mp != tp:
            return f"{who} on head-to-head ({number(mp)} to {number(tp)} points {between})"
        return (
            f"{who} on head-to-head ({number(mp)} to {number(tp)} points, "
            f"{number(mf)} to {number(tf)} frames {between})"
        )
    return f"{who} on {TIE_BREAKERS[key]} ({_fmt(key, mine)} to {_fmt(key, theirs)})"


# --------------------------------------------------------------------------- queries

# Every confirmed fixture gives two `sides` rows, one per team, each seen from that team
# (f: its frames, a: the other's, sf/sa: aggregate scores). Joined to the teams they are
# one row per team and fixture, so sums are right; grouped per team in SQL. Written as
# SQL because the ORM spent four times the query's own time compiling it (bench/).
_TOTALS = """
WITH sides AS (
    SELECT home_id AS team_id, home_frames AS f, away_frames AS a,
           home_score AS sf, away_score AS sa, outcome, home_sections AS secf
      FROM {fixture} WHERE {where}
    UNION ALL
    SELECT away_id, away_frames, home_frames, away_score, home_score, outcome, away_sections
      FROM {fixture} WHERE {where}
)
SELECT t.id, t.name, t.division_id,
       COUNT(s.team_id),
       COUNT(s.team_id) FILTER (WHERE s.f > s.a),
       COUNT(s.team_id) FILTER (WHERE s.f = s.a),
       COUNT(s.team_id) FILTER (WHERE s.f < s.a),
       COALESCE(SUM(s.f), 0), COALESCE(SUM(s.a), 0),
       COALESCE(SUM(s.sf), 0), COALESCE(SUM(s.sa), 0),
       COALESCE(SUM({points}), 0),
       COUNT(s.team_id) FILTER (WHERE s.outcome <> 'played'),
       (SELECT COALESCE(SUM(x.points), 0) FROM {deduction} x
         WHERE x.team_id = t.id{deduction_as_of})
  FROM {team} t LEFT JOIN sides s ON s.team_id = t.id
 WHERE {teams}
 GROUP BY t.id, t.name, t.division_id
"""


def _dec(value) -> Decimal:
    """A sum from the database as an exact decimal (SQLite answers floats)."""
    return Decimal(str(value)).quantize(Decimal("0.1"))


def _totals(
    scheme: Scheme,
    *,
    fixture_where: str,
    fixture_params: list,
    team_where: str,
    team_params: list,
    as_of: datetime | None,
) -> list[tuple]:
    where = f"({fixture_where}) AND result_confirmed_at IS NOT NULL"
    params = list(fixture_params)
    if as_of is not None:
        where += " AND result_confirmed_at <= %s"
        params.append(as_of)
    points, points_params = _points_sql(scheme)
    sql = _TOTALS.format(
        fixture=Fixture._meta.db_table,
        team=Team._meta.db_table,
        deduction=PointDeduction._meta.db_table,
        where=where,
        points=points,
        deduction_as_of="" if as_of is None else " AND x.at <= %s",
        teams=team_where,
    )
    all_params = params + params + points_params + ([] if as_of is None else [as_of])
    with connection.cursor() as cursor:
        cursor.execute(sql, all_params + list(team_params))
        return cursor.fetchall()


def _mini_leagues(
    scope: tuple[str, list], scheme: Scheme, as_of: datetime | None, groups: list[list[Row]]
) -> dict[int, tuple[Decimal, Decimal]]:
    """(points, frames won) of each tied team in the mini-league of its group: the same
    aggregate over the fixtures between teams of one group (one query for all groups)."""
    between, params = [], []
    for group in groups:
        ids = [r.team_id for r in group]
        marks = ", ".join(["%s"] * len(ids))
        between.append(f"(home_id IN ({marks}) AND away_id IN ({marks}))")
        params += ids + ids
    ids = [r.team_id for g in groups for r in g]
    rows = _totals(
        scheme,
        fixture_where=f"{scope[0]} AND ({' OR '.join(between)})",
        fixture_params=scope[1] + params,
        team_where=f"t.id IN ({', '.join(['%s'] * len(ids))})",
        team_params=ids,
        as_of=as_of,
    )
    return {r[0]: (_dec(r[11]), _dec(r[7])) for r in rows}


def tables(
    season: Season, *, division: Division | None = None, as_of: datetime | None = None
) -> list[Table]:
    """The tables of a season (or of one division), ordered by division rank.

    Queries, whatever the number of teams or divisions: the aggregate (every column and
    the deductions, for every team), plus the divisions when a whole season is asked
    for, and only when needed: the deduction notes, the walkover/concession notes, and
    the head-to-head mini-leagues. `as_of` limits the table to results and deductions
    recorded up to that moment (a publication's cut-off).
    """
    scheme = Scheme.of(season, division)
    divisions = (
        [division]
        if division is not None
        else list(Division.objects.filter(season=season).order_by("rank", "name"))
    )
    if division is None and any(
        Scheme.of(season, d) != scheme for d in divisions if d.match_format
    ):
        # A division with its own format's points: its table on its own scheme.
        return [tables(season, division=d, as_of=as_of)[0] for d in divisions]
    if division is None:
        scope = ("season_id = %s", [season.pk])
        teams = ("t.season_id = %s AND t.division_id IS NOT NULL", [season.pk])
    else:
        scope = ("division_id = %s", [division.pk])
        teams = ("t.division_id = %s", [division.pk])
    rows: dict[int, Row] = {}
    division_of: dict[int, int] = {}
    awarded = False
    for line in _totals(
        scheme,
        fixture_where=scope[0],
        fixture_params=scope[1],
        team_where=teams[0],
        team_params=teams[1],
        as_of=as_of,
    ):
        team_id, name, division_id, p, w, d, lost, ff, fa, sf, sa, earned, aw, ded = line
        rows[team_id] = Row(
            team_id=team_id,
            team=name,
            played=p,
            won=w,
            drawn=d,
            lost=lost,
            frames_for=_dec(ff),
            frames_against=_dec(fa),
            score_for=int(sf),
            score_against=int(sa),
            earned=_dec(earned),
            deducted=_dec(ded),
        )
        division_of[team_id] = division_id
        awarded = awarded or aw > 0
    deducted = any(r.deducted for r in rows.values())
    notes = _notes(season, division, as_of, rows, deductions=deducted, awards=awarded)

    by_division: dict[int, list[Row]] = {}
    for team_id, row in rows.items():
        by_division.setdefault(division_of[team_id], []).append(row)
    all_groups: list[list[Row]] = []
    for members in by_division.values():
        all_groups += _h2h_groups(members, scheme.tie_breakers)
    mini = _mini_leagues(scope, scheme, as_of, all_groups) if all_groups else {}

    result = []
    for d in divisions:
        ordered = rank(by_division.get(d.pk, []), scheme.tie_breakers, lambda _groups: mini)
        team_ids = {r.team_id for r in ordered}
        result.append(
            Table(
                division_id=d.pk,
                division=d.name,
                season_id=season.pk,
                scheme=scheme,
                as_of=as_of,
                rows=ordered,
                notes=[n for n in notes if n["team_id"] in team_ids],
            )
        )
    return result


def division_table(division: Division, *, as_of: datetime | None = None) -> Table:
    """One division's table (`division.season` should be selected with it)."""
    return tables(division.season, division=division, as_of=as_of)[0]


def _notes(
    season: Season,
    division: Division | None,
    as_of: datetime | None,
    rows: dict[int, Row],
    *,
    deductions: bool = True,
    awards: bool = True,
) -> list[dict]:
    """Deductions, walkovers and conceded matches, each with its reason, attached to the
    rows they concern (row.notes) and listed for the foot of the table. A query each,
    only when the aggregate says there is something to list."""
    notes: list[dict] = []
    scope = {"season": season} if division is None else {"division": division}
    if deductions:
        found = PointDeduction.objects.filter(**{f"team__{k}": v for k, v in scope.items()})
        if as_of is not None:
            found = found.filter(at__lte=as_of)
        for d in found.order_by("at", "id").values("team_id", "team__name", "points", "reason"):
            points = d["points"]
            text = f"{number(points)} point{'s' * (points != 1)} deducted: {d['reason']}"
            notes.append({"team_id": d["team_id"], "team": d["team__name"], "text": text})
    if awards:
        awarded = Fixture.objects.filter(result_confirmed_at__isnull=False, **scope).exclude(
            outcome=Fixture.Outcome.PLAYED
        )
        if as_of is not None:
            awarded = awarded.filter(result_confirmed_at__lte=as_of)
        for f in awarded.order_by("date", "id").values(
            "date",
            "outcome",
            "outcome_reason",
            "home_frames",
            "away_frames",
            "home_id",
            "home__name",
            "away_id",
            "away__name",
        ):
            what = "Walkover" if f["outcome"] == Fixture.Outcome.WALKOVER else "Match conceded"
            when = f" on {f['date']:%-d %b}" if f["date"] else ""
            text = (
                f"{what}, {f['home__name']} v {f['away__name']}{when}, awarded "
                f"{number(f['home_frames'] or 0)}–{number(f['away_frames'] or 0)}: "
                f"{f['outcome_reason']}"
            )
            for team_id, team_name in (
                (f["home_id"], f["home__name"]),
                (f["away_id"], f["away__name"]),
            ):
                notes.append({"team_id": team_id, "team": team_name, "text": text})
    for n in notes:
        if n["team_id"] in rows:
            rows[n["team_id"]].notes.append(n["text"])
    return notes


__all__ = [
    "Row",
    "Scheme",
    "Table",
    "division_table",
    "number",
    "rank",
    "signed",
    "tables",
]
