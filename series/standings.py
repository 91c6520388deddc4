"""A ranking series' standings, worked out from its events' placings (docs/series.md).

Pure: no database. `series.selectors` reads the series, its events and every player's
placings, and hands them here. Each player's results are turned into points (the points
table for the placing or round reached, times the event's weight); the best `best_n`
count and the rest are dropped; players level on points are split by the secretary's
tie-breakers, in order, each split explained; then, for each player, what they need in
the next event to pass the player above and the leader, or that it is out of reach.

Placings are whole numbers: 1 the winner, 2 the runner-up; a knock-out's losers share the
best placing of their round (both semi-finalists are 3rd, the quarter-finalists 5th, …).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal

ROUND = "round"
PLACING = "placing"

#: The rounds reached, best first: index i covers placings 2**(i-1)+1 .. 2**i.
ROUND_NAMES = (
    "Winner",
    "Runner-up",
    "Semi-final",
    "Quarter-final",
    "Last 16",
    "Last 32",
    "Last 64",
    "Last 128",
)

MOST_WINS = "most_wins"
BEST_SINGLE = "best_single"
MOST_EVENTS = "most_events"
LATEST_EVENT = "latest_event"
HEAD_TO_HEAD = "head_to_head"

#: The tie-breakers a secretary chooses from, in the order they are offered.
TIE_BREAKERS: dict[str, str] = {
    MOST_WINS: "Most wins (then most runner-up places, and so on)",
    BEST_SINGLE: "Best single result",
    MOST_EVENTS: "Most events played",
    LATEST_EVENT: "Better result in the latest event (then the one before, and so on)",
    HEAD_TO_HEAD: "Head-to-head: finished ahead more often where they met",
}
SHORT: dict[str, str] = {
    MOST_WINS: "most wins",
    BEST_SINGLE: "best single result",
    MOST_EVENTS: "most events played",
    LATEST_EVENT: "the latest event",
    HEAD_TO_HEAD: "head-to-head",
}


def fmt(value: Decimal) -> str:
    """Points as a person writes them.

    >>> fmt(Decimal("25.00")), fmt(Decimal("37.50")), fmt(Decimal("0"))
    ('25', '37.5', '0')
    """
    text = f"{value.normalize():f}"
    return text


def ordinal(n: int) -> str:
    """
    >>> [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 23)]
    ['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd', '23rd']
    """
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th') }"


@dataclass(frozen=True)
class Rules:
    """How a series scores: `basis` ROUND (the table's points by round reached, winner
    first) or PLACING (by placing, 1st first); `appearance` for a result beyond the table;
    the best `best_n` results count; `tie_breakers` in the secretary's order."""

    best_n: int
    basis: str
    table: tuple[Decimal, ...]
    appearance: Decimal = Decimal(0)
    tie_breakers: tuple[str, ...] = ()

    def band(self, placing: int) -> int:
        """The row of the points table a placing scores (may be past its end).

        >>> r = Rules(4, ROUND, ())
        >>> [r.band(p) for p in (1, 2, 3, 4, 5, 8, 9, 16, 17)]
        [0, 1, 2, 2, 3, 3, 4, 4, 5]
        >>> Rules(4, PLACING, ()).band(3)
        2
        """
        if self.basis == ROUND:
            return (placing - 1).bit_length()
        return placing - 1

    def band_label(self, placing: int) -> str:
        """'Semi-final' (by round) or '3rd' (by placing).

        >>> Rules(4, ROUND, ()).band_label(5), Rules(4, PLACING, ()).band_label(5)
        ('Quarter-final', '5th')
        """
        if self.basis == ROUND:
            band = self.band(placing)
            return ROUND_NAMES[band] if band < len(ROUND_NAMES) else f"Last {2**band}"
        return ordinal(placing)

    def band_placings(self) -> list[int]:
        """The best placing of each row of the table, best first, and one past it."""
        if self.basis == ROUND:
            bands = [1] + [2 ** (i - 1) + 1 for i in range(1, len(self.table) + 1)]
        else:
            bands = list(range(1, len(self.table) + 2))
        return bands

    def base_points(self, placing: int) -> Decimal:
        band = self.band(placing)
        return self.table[band] if band < len(self.table) else self.appearance

    def points(self, placing: int, weight: Decimal) -> Decimal:
        return self.base_points(placing) * weight


@dataclass(frozen=True)
class Event:
    id: int
    number: int
    name: str
    weight: Decimal
    played: bool


@dataclass
class Result:
    event: Event
    placing: int
    label: str
    points: Decimal
    counted: bool = False

    @property
    def points_text(self) -> str:
        return fmt(self.points)


@dataclass
class Row:
    player_id: int
    name: str
    results: list[Result]
    total: Decimal = Decimal(0)
    rank: int = 0
    shared: bool = False
    tie_break: str = ""
    needs_above: str = ""
    needs_leader: str = ""
    keys: dict[str, tuple] = field(default_factory=dict, repr=False)

    @property
    def counted(self) -> list[Result]:
        return [r for r in self.results if r.counted]

    @property
    def counted_by_points(self) -> list[Result]:
        return sorted(self.counted, key=lambda r: (-r.points, r.event.number))

    @property
    def dropped(self) -> list[Result]:
        return [r for r in self.results if not r.counted]

    @property
    def total_text(self) -> str:
        return fmt(self.total)

    @property
    def rank_label(self) -> str:
        return f"={self.rank}" if self.shared else str(self.rank)


def best_total(points: Iterable[Decimal], best_n: int) -> Decimal:
    """The sum of the best `best_n`.

    >>> best_total([Decimal(5), Decimal(9), Decimal(1), Decimal(7)], 2)
    Decimal('16')
    """
    return sum(sorted(points, reverse=True)[:best_n], Decimal(0))


def _count(row: Row, rules: Rules) -> None:
    order = sorted(row.results, key=lambda r: (-r.points, r.event.number))
    for i, result in enumerate(order):
        result.counted = i < rules.best_n
    row.total = sum((r.points for r in row.counted), Decimal(0))
    row.results.sort(key=lambda r: r.event.number)


# ------------------------------------------------------------------ the tie-breakers


def _key(code: str, row: Row, group: Sequence[Row], played: Sequence[Event]) -> tuple:
    """A tuple, larger better, for tie-breaker `code` among `group`."""
    if code == MOST_WINS:
        worst = max((r.placing for g in group for r in g.results), default=1)
        return tuple(sum(1 for r in row.results if r.placing == p) for p in range(1, worst + 1))
    if code == BEST_SINGLE:
        return (max((r.points for r in row.results), default=Decimal(0)),)
    if code == MOST_EVENTS:
        return (len(row.results),)
    if code == LATEST_EVENT:
        by_event = {r.event.id: r.points for r in row.results}
        return tuple(
            by_event.get(e.id, Decimal(0)) for e in sorted(played, key=lambda e: -e.number)
        )
    if code == HEAD_TO_HEAD:
        mine = {r.event.id: r.placing for r in row.results}
        ahead = 0
        for other in group:
            if other is row:
                continue
            for r in other.results:
                if r.event.id in mine and mine[r.event.id] < r.placing:
                    ahead += 1
        return (ahead,)
    raise ValueError(f"unknown tie-breaker {code!r}")


def _describe(code: str, row: Row, key: tuple, played: Sequence[Event]) -> str:
    if code == MOST_WINS:
        parts = [f"{ordinal(i + 1)}×{n}" for i, n in enumerate(key) if n]
        return ", ".join(parts) or "no placings"
    if code == BEST_SINGLE:
        return f"best {fmt(key[0])}"
    if code == MOST_EVENTS:
        return f"{key[0]} event{'s' if key[0] != 1 else ''}"
    if code == LATEST_EVENT:
        latest = sorted(played, key=lambda e: -e.number)
        for event, points in zip(latest, key, strict=False):
            return f"{fmt(points)} in {event.name}"
        return "none"
    if code == HEAD_TO_HEAD:
        return f"ahead {key[0]} time{'s' if key[0] != 1 else ''}"
    return ""


def _break(group: list[Row], codes: Sequence[str], played: Sequence[Event]) -> list[list[Row]]:
    """Split a group level on points into ranked sub-groups (a sub-group of more than one
    shares its place), writing on each row the reason the tie was broken."""
    if len(group) == 1:
        return [group]
    for i, code in enumerate(codes):
        keys = {id(row): _key(code, row, group, played) for row in group}
        if len(set(keys.values())) == 1:
            continue
        ordered = sorted(group, key=lambda row: keys[id(row)], reverse=True)
        says = "; ".join(
            f"{row.name}: {_describe(code, row, keys[id(row)], played)}" for row in ordered
        )
        for row in group:
            others = ", ".join(o.name for o in ordered if o is not row)
            reason = f"Level on {fmt(row.total)} with {others}: {SHORT[code]} decided ({says})."
            row.tie_break = f"{row.tie_break} {reason}".strip()
        parts: list[list[Row]] = []
        for row in ordered:
            if parts and keys[id(parts[-1][0])] == keys[id(row)]:
                parts[-1].append(row)
            else:
                parts.append([row])
        result: list[list[Row]] = []
        for part in parts:
            result.extend(_break(part, codes[i + 1 :], played))
        return result
    for row in group:
        others = ", ".join(o.name for o in group if o is not row)
        reason = f"Level on {fmt(row.total)} with {others}, and on every tie-breaker: shared."
        row.tie_break = f"{row.tie_break} {reason}".strip()
    return [group]


# ------------------------------------------------------------------ what each needs


def _needs(row: Row, target: Row, rules: Rules, remaining: Sequence[Event], aim: str) -> str:
    if not remaining:
        return ""
    mine = [r.points for r in row.results]
    goal = target.total
    nxt = remaining[0]
    passing = None
    for placing in rules.band_placings():  # best first: keep the worst that is enough
        if best_total([*mine, rules.points(placing, nxt.weight)], rules.best_n) > goal:
            passing = placing
    if passing is not None:
        if rules.band(passing) >= len(rules.table):
            what = "any result"
        else:
            best = "" if passing == 1 else " or better"
            what = f"{rules.band_label(passing).lower()}{best}"
        new = best_total([*mine, rules.points(passing, nxt.weight)], rules.best_n)
        return (
            f"To {aim} {target.name} ({fmt(goal)}): {what} in {nxt.name} "
            f"(would make {fmt(new)}), if {target.name} scores no more."
        )
    ceiling = best_total([*mine, *(rules.points(1, e.weight) for e in remaining)], rules.best_n)
    if ceiling > goal:
        return (
            f"To {aim} {target.name} ({fmt(goal)}): more than {nxt.name} alone; winning all "
            f"{len(remaining)} events left would make {fmt(ceiling)}."
        )
    return (
        f"Out of reach of {target.name} ({fmt(goal)}): winning every event left makes "
        f"at most {fmt(ceiling)}."
    )


# ------------------------------------------------------------------ the table


def standings(
    rules: Rules,
    events: Sequence[Event],
    placings: Mapping[int, Mapping[int, int]],
    names: Mapping[int, str],
) -> list[Row]:
    """The standings: `placings[player_id][event_id]` is a player's placing in a played
    event; `names` the names to show. Rows best first, each with its counted and
    dropped results, rank (shared where every tie-breaker is level), the reason its tie
    was broken, and what it needs in the next event."""
    by_id = {e.id: e for e in events}
    played = [e for e in events if e.played]
    remaining = sorted((e for e in events if not e.played), key=lambda e: e.number)
    rows = []
    for player_id, theirs in placings.items():
        results = [
            Result(
                event=by_id[event_id],
                placing=placing,
                label=rules.band_label(placing),
                points=rules.points(placing, by_id[event_id].weight),
            )
            for event_id, placing in theirs.items()
            if event_id in by_id and by_id[event_id].played
        ]
        if not results:
            continue
        row = Row(
            player_id=player_id, name=names.get(player_id, f"Player {player_id}"), results=results
        )
        _count(row, rules)
        rows.append(row)
    rows.sort(key=lambda r: (-r.total, r.name, r.player_id))
    ranked: list[Row] = []
    i = 0
    while i < len(rows):
        j = i
        while j < len(rows) and rows[j].total == rows[i].total:
            j += 1
        for part in _break(rows[i:j], rules.tie_breakers, played):
            rank = len(ranked) + 1
            for row in part:
                row.rank = rank
                row.shared = len(part) > 1
                ranked.append(row)
        i = j
    for k, row in enumerate(ranked):
        ahead = [r for r in ranked[:k] if r.rank < row.rank]
        if not ahead:
            continue
        above = ahead[-1]
        row.needs_above = _needs(row, above, rules, remaining, "pass")
        leader = ranked[0]
        if leader is not above:
            row.needs_leader = _needs(row, leader, rules, remaining, "overtake the leader,")
    return ranked
