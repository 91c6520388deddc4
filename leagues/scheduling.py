"""Home-and-away round robins for every division of a season, as a pure function.

The circle method gives each division's pairings for the first half; the second half
mirrors it, so every team plays every other once at home and once away (perfect
home/away balance). An odd division gets a bye each round. Rounds of all divisions with
the same number share a match night, so teams that share a venue are scheduled together:
each match's orientation (who is at home) is chosen by backtracking so that on no night
does a venue have more home teams than tables — in the first half *and* in its mirror.
When an ordering of teams has no valid orientation, other orderings are tried (seeded,
so the schedule is reproducible).
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, timedelta


class ScheduleError(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class TeamSlot:
    id: int
    venue: int
    name: str = ""


@dataclass(frozen=True)
class Match:
    division: int
    round: int  # 1-based
    date: date
    home: int
    away: int


def match_nights(
    start: date, weekday: int, count: int, blackouts: Iterable[date] = ()
) -> list[date]:
    """The first `count` match nights on `weekday` from `start`, skipping blackout dates.

    >>> match_nights(date(2026, 1, 1), 1, 3, [date(2026, 1, 13)])
    [datetime.date(2026, 1, 6), datetime.date(2026, 1, 20), datetime.date(2026, 1, 27)]
    """
    blocked = set(blackouts)
    day = start + timedelta(days=(weekday - start.weekday()) % 7)
    nights: list[date] = []
    while len(nights) < count:
        if day not in blocked:
            nights.append(day)
        day += timedelta(days=7)
    return nights


def circle_pairings(teams: Sequence[int | None]) -> list[list[tuple[int | None, int | None]]]:
    """First-half rounds by the circle method (`None` is the bye).

    >>> [len(r) for r in circle_pairings([1, 2, 3, 4])]
    [2, 2, 2]
    """
    ring = list(teams)
    if len(ring) % 2:
        ring.append(None)
    n = len(ring)
    rounds = []
    for _ in range(n - 1):
        rounds.append([(ring[i], ring[n - 1 - i]) for i in range(n // 2)])
        ring = [ring[0], ring[-1], *ring[1:-1]]
    return rounds


def _orient_round(
    pairs: list[tuple[int, int]],
    venue_of: dict[int, int],
    tables: dict[int, int],
    last_home: dict[int, bool],
) -> list[tuple[int, int]] | None:
    """Choose home/away for each pair so no venue exceeds its tables, now or mirrored."""

    # Prefer the orientation that alternates each team's home/away run.
    def preferred(pair: tuple[int, int]) -> tuple[int, int]:
        a, b = pair
        if last_home.get(a, False) and not last_home.get(b, False):
            return (b, a)
        return (a, b)

    ordered = [preferred(p) for p in pairs]
    # Pairs touching a crowded venue go first: they are the constrained ones.
    crowded = {v for v, cap in tables.items() if sum(1 for t in venue_of if venue_of[t] == v) > cap}
    ordered.sort(key=lambda p: not (venue_of[p[0]] in crowded or venue_of[p[1]] in crowded))
    used: dict[int, int] = defaultdict(int)  # home matches per venue, first half
    mirror: dict[int, int] = defaultdict(int)  # home matches per venue, mirrored half
    chosen: list[tuple[int, int]] = []

    def place(i: int) -> bool:
        if i == len(ordered):
            return True
        a, b = ordered[i]
        for home, away in ((a, b), (b, a)):
            hv, av = venue_of[home], venue_of[away]
            if used[hv] + 1 > tables[hv] or mirror[av] + 1 > tables[av]:
                continue
            used[hv] += 1
            mirror[av] += 1
            chosen.append((home, away))
            if place(i + 1):
                return True
            chosen.pop()
            used[hv] -= 1
            mirror[av] -= 1
        return False

    return chosen if place(0) else None


def double_round_robin(
    divisions: Mapping[int, Sequence[TeamSlot]],
    tables: dict[int, int],
    nights: Sequence[date],
    *,
    seed: int = 0,
    attempts: int = 200,
) -> list[Match]:
    """Every division's home-and-away fixtures on the given match nights.

    Raises ScheduleError when there are too few nights or no ordering satisfies the
    venues' table limits.
    """
    if not divisions:
        return []
    venue_of = {t.id: t.venue for teams in divisions.values() for t in teams}
    for division, teams in divisions.items():
        if len(teams) < 2:
            raise ScheduleError("too_few_teams", f"Division {division} needs at least two teams.")
    rounds_needed = max(2 * (len(t) + len(t) % 2 - 1) for t in divisions.values())
    if len(nights) < rounds_needed:
        raise ScheduleError(
            "too_few_nights", f"{rounds_needed} match nights are needed, only {len(nights)} given."
        )
    rng = random.Random(seed)
    for attempt in range(attempts):
        orders = {}
        for division, teams in sorted(divisions.items()):
            ids: list[int | None] = [t.id for t in teams]
            if attempt:
                rng.shuffle(ids)
            orders[division] = circle_pairings(ids)
        first_half_rounds = max(len(r) for r in orders.values())
        last_home: dict[int, bool] = {}
        oriented: dict[int, list[list[tuple[int, int]]]] = defaultdict(list)
        ok = True
        for r in range(first_half_rounds):
            pairs: list[tuple[int, int]] = []
            owners: list[int] = []
            for division, rounds in sorted(orders.items()):
                if r < len(rounds):
                    for a, b in rounds[r]:
                        if a is not None and b is not None:
                            pairs.append((a, b))
                            owners.append(division)
            result = _orient_round(pairs, venue_of, tables, last_home)
            if result is None:
                ok = False
                break
            by_pair = {frozenset(p): p for p in result}
            per_div: dict[int, list[tuple[int, int]]] = defaultdict(list)
            for (a, b), division in zip(pairs, owners, strict=True):
                home, away = by_pair[frozenset((a, b))]
                per_div[division].append((home, away))
                last_home[home], last_home[away] = True, False
            for division in orders:
                if r < len(orders[division]):
                    oriented[division].append(per_div.get(division, []))
        if not ok:
            continue
        matches: list[Match] = []
        # Every division mirrors on the same nights, so the venue check above holds in
        # the second half too (a smaller division simply rests in between).
        half = first_half_rounds
        for division, oriented_rounds in sorted(oriented.items()):
            for r, pairs_in_round in enumerate(oriented_rounds):
                for host, guest in pairs_in_round:
                    matches.append(Match(division, r + 1, nights[r], host, guest))
                    matches.append(Match(division, half + r + 1, nights[half + r], guest, host))
        return sorted(matches, key=lambda m: (m.date, m.division, m.home))
    raise ScheduleError(
        "venue_clash",
        "No schedule keeps every shared venue within its tables: too many teams share a venue "
        "with too few tables. Add a table or move a team to another venue.",
    )
