"""League tables: standings from confirmed results, computed by the database.

One grouped aggregate gives every team's played, won, drawn, lost, frames, aggregate score
and points: the fixtures grouped by home team UNION ALL the fixtures grouped by away team.
Joining both sides onto teams in one `annotate()` would multiply rows (teams × home ×
away) and give wrong sums; two groupings never do. The two rows a team has (home, away)
are added up here, per team; nothing loops over fixtures in Python.

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

from django.db.models import (
    Case,
    Count,
    DecimalField,
    ExpressionWrapper,
    F,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Sum,
    Value,
    When,
)
from django.db.models.functions import Coalesce

from .models import TIE_BREAKERS, Division, Fixture, PointDeduction, Season, Team

ZERO = Decimal("0")
_DEC = DecimalField(max_digits=9, decimal_places=1)


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

    @classmethod
    def of(cls, season: Season) -> Scheme:
        return cls(
            points_per_frame=season.points_per_frame,
            points_per_match_win=season.points_per_match_win,
            points_per_match_draw=season.points_per_match_draw,
            bonus_margin=season.bonus_margin,
            bonus_margin_points=season.bonus_margin_points,
            bonus_aggregate_points=season.bonus_aggregate_points,
            tie_breakers=tuple(season.tie_breakers),
        )

    def describe(self) -> list[str]:
        """The scheme in words, for the foot of the table."""
        parts = []
        if self.points_per_frame:
            parts.append(
                f"{number(self.points_per_frame)} point{'s' * (self.points_per_frame != 1)} "
                "per frame won (a shared frame counts half)"
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


def _points(scheme: Scheme, mine: str, theirs: str, my_score: str, their_score: str):
    """SQL for one side's league points from one fixture, per the scheme."""
    expr = ExpressionWrapper(F(mine) * Value(scheme.points_per_frame), output_field=_DEC)
    whens = []
    if scheme.points_per_match_win:
        whens.append(When(**{f"{mine}__gt": F(theirs)}, then=Value(scheme.points_per_match_win)))
    if scheme.points_per_match_draw:
        whens.append(When(**{mine: F(theirs)}, then=Value(scheme.points_per_match_draw)))
    if whens:
        expr = expr + Case(*whens, default=Value(ZERO), output_field=_DEC)
    if scheme.bonus_margin and scheme.bonus_margin_points:
        lead = F(theirs) + Value(Decimal(scheme.bonus_margin))
        expr = expr + Case(
            When(**{f"{mine}__gte": lead}, then=Value(scheme.bonus_margin_points)),
            default=Value(ZERO),
            output_field=_DEC,
        )
    if scheme.bonus_aggregate_points:
        expr = expr + Case(
            When(**{f"{my_score}__gt": F(their_score)}, then=Value(scheme.bonus_aggregate_points)),
            default=Value(ZERO),
            output_field=_DEC,
        )
    return expr


# ------------------------------------------------------------------------------ rows


def number(value: Decimal | int) -> str:
    """A count of frames or points as people write it: 40½, 12, 4,310.

    >>> number(Decimal("40.5")), number(Decimal("12.0")), number(4310), number(Decimal("0.5"))
    ('40½', '12', '4,310', '½')
    """
    value = Decimal(value)
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
                row.explanation = "below " + _explain(bands[j - 1], deciders[j - 1], mine_first=False)
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
        (mp, mf), (tp, tf) = mine, theirs  # type: ignore[misc]
        between = f"in matches between {_and(list(group))}"
        if mp != tp:
            return f"{who} on head-to-head ({number(mp)} to {number(tp)} points {between})"
        return (
            f"{who} on head-to-head ({number(mp)} to {number(tp)} points, "
            f"{number(mf)} to {number(tf)} frames {between})"
        )
    return f"{who} on {TIE_BREAKERS[key]} ({_fmt(key, mine)} to {_fmt(key, theirs)})"


# --------------------------------------------------------------------------- queries


def _confirmed(scope: Q, as_of: datetime | None) -> QuerySet[Fixture]:
    qs = Fixture.objects.filter(scope, result_confirmed_at__isnull=False)
    if as_of is not None:
        qs = qs.filter(result_confirmed_at__lte=as_of)
    return qs.order_by()


def _side_totals(fixtures: QuerySet[Fixture], scheme: Scheme, side: str) -> QuerySet:
    mine, theirs = ("home", "away") if side == "home" else ("away", "home")
    win = Q(**{f"{mine}_frames__gt": F(f"{theirs}_frames")})
    draw = Q(**{f"{mine}_frames": F(f"{theirs}_frames")})
    loss = Q(**{f"{mine}_frames__lt": F(f"{theirs}_frames")})
    return fixtures.values(team=F(f"{mine}_id")).annotate(
        played=Count("id"),
        won=Count("id", filter=win),
        drawn=Count("id", filter=draw),
        lost=Count("id", filter=loss),
        frames_for=Coalesce(Sum(f"{mine}_frames"), Value(ZERO), output_field=_DEC),
        frames_against=Coalesce(Sum(f"{theirs}_frames"), Value(ZERO), output_field=_DEC),
        score_for=Coalesce(Sum(f"{mine}_score"), 0),
        score_against=Coalesce(Sum(f"{theirs}_score"), 0),
        earned=Coalesce(
            Sum(
                _points(
                    scheme, f"{mine}_frames", f"{theirs}_frames", f"{mine}_score",
                    f"{theirs}_score",
                ),
                output_field=_DEC,
            ),
            Value(ZERO),
            output_field=_DEC,
        ),
    )


def totals_query(scope: Q, scheme: Scheme, as_of: datetime | None = None) -> QuerySet:
    """The one aggregate: per team and side, grouped in SQL; UNION ALL of the two sides."""
    fixtures = _confirmed(scope, as_of)
    return _side_totals(fixtures, scheme, "home").union(
        _side_totals(fixtures, scheme, "away"), all=True
    )


def _mini_leagues(
    scope: Q, scheme: Scheme, as_of: datetime | None, groups: list[list[Row]]
) -> dict[int, tuple[Decimal, Decimal]]:
    """(points, frames won) of each tied team in the mini-league of its group: the same
    aggregate, over the fixtures between teams of one group (one query for all groups)."""
    between = Q()
    for group in groups:
        ids = [r.team_id for r in group]
        between |= Q(home_id__in=ids, away_id__in=ids)
    result: dict[int, tuple[Decimal, Decimal]] = {}
    for line in totals_query(scope & between, scheme, as_of):
        points, frames = result.get(line["team"], (ZERO, ZERO))
        result[line["team"]] = (points + line["earned"], frames + line["frames_for"])
    return result


def tables(
    season: Season, *, division: Division | None = None, as_of: datetime | None = None
) -> list[Table]:
    """The tables of a season (or of one division), ordered by division rank.

    Queries, whatever the number of teams or divisions: divisions, teams (with their
    deductions summed in SQL), the UNION ALL aggregate, deduction notes, award notes, and
    one more when a tie reaches head-to-head. `as_of` limits the table to results and
    deductions recorded up to that moment (a publication's cut-off).
    """
    scheme = Scheme.of(season)
    scope = Q(season=season) if division is None else Q(division=division)
    divisions = (
        [division]
        if division is not None
        else list(Division.objects.filter(season=season).order_by("rank", "name"))
    )
    deductions = PointDeduction.objects.filter(team=OuterRef("pk"))
    if as_of is not None:
        deductions = deductions.filter(at__lte=as_of)
    deducted = (
        deductions.order_by().values("team").annotate(total=Sum("points")).values("total")
    )
    team_scope = Q(season=season, division__isnull=False) if division is None else Q(
        division=division
    )
    teams = Team.objects.filter(team_scope).annotate(
        deducted=Coalesce(Subquery(deducted, output_field=_DEC), Value(ZERO), output_field=_DEC)
    )
    rows: dict[int, Row] = {}
    division_of: dict[int, int] = {}
    for t in teams.values("id", "name", "division_id", "deducted"):
        rows[t["id"]] = Row(team_id=t["id"], team=t["name"], deducted=t["deducted"])
        division_of[t["id"]] = t["division_id"]
    for line in totals_query(scope, scheme, as_of):
        row = rows.get(line["team"])
        if row is None:  # a fixture of a team since moved out of the division
            continue
        row.played += line["played"]
        row.won += line["won"]
        row.drawn += line["drawn"]
        row.lost += line["lost"]
        row.frames_for += line["frames_for"]
        row.frames_against += line["frames_against"]
        row.score_for += line["score_for"]
        row.score_against += line["score_against"]
        row.earned += line["earned"]
    notes = _notes(season, division, as_of, rows)

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
    season: Season, division: Division | None, as_of: datetime | None, rows: dict[int, Row]
) -> list[dict]:
    """Deductions, walkovers and conceded matches, each with its reason, attached to the
    rows they concern (row.notes) and listed for the foot of the table."""
    notes: list[dict] = []
    deductions = PointDeduction.objects.filter(
        team__season=season, **({"team__division": division} if division else {})
    ).select_related("team")
    if as_of is not None:
        deductions = deductions.filter(at__lte=as_of)
    for d in deductions.order_by("at", "id"):
        text = f"{number(d.points)} point{'s' * (d.points != 1)} deducted: {d.reason}"
        notes.append({"team_id": d.team_id, "team": d.team.name, "text": text})
    scope = Q(season=season) if division is None else Q(division=division)
    awarded = (
        _confirmed(scope, as_of)
        .exclude(outcome=Fixture.Outcome.PLAYED)
        .select_related("home", "away")
        .order_by("date", "id")
    )
    for f in awarded:
        what = "Walkover" if f.outcome == Fixture.Outcome.WALKOVER else "Match conceded"
        when = f" on {f.date:%-d %b}" if f.date else ""
        text = (
            f"{what}, {f.home.name} v {f.away.name}{when}, awarded "
            f"{number(f.home_frames or 0)}–{number(f.away_frames or 0)}: {f.outcome_reason}"
        )
        for team in (f.home, f.away):
            notes.append({"team_id": team.pk, "team": team.name, "text": text})
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
    "totals_query",
]
