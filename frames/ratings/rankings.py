"""Rankings across leagues (docs/ratings.md, *Rankings*): the players of a group of leagues
(an organisation's member leagues, or every league) ranked by their rating in one game.

Who is ranked: a player with at least `min_frames` rated frames in those leagues in the
last twelve months (after the day a year before today, up to today), not erased. Their
rating is their one rating in the game (`Rating`, across every league). Movement compares
the ranking with the one as it stood a calendar month ago, built by the same rules on that
day: the frames in the twelve months before it, each player's conservative rating after
their last frame on or before it (`RatingChange`), erased players left out of both.

Everything is aggregated in SQL, so a page costs the same queries however many players
there are: the page of rows with their rank now and then and the counts (one query: one
pass over the thirteen months of history counts each player's frames in both windows),
and the leagues each player of the page played in (one query; when the page is empty,
the counts alone instead). The months' frames are one range of the history's
`rating_change_cut` index (game, day), which the planner leaves for a scan of the table
when the months are a large part of it (bench/bench_rankings.py: two years of history);
each ranked player's rating a month ago is read by `rating_change_history` (the player's
changes newest first, stopping at the first on or before the day).
"""

from __future__ import annotations

import calendar
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from django.db import connection

from frames.models import RatingChange
from leagues.models import public_name_of

#: Rows a page shows (the API's default page too).
PAGE_SIZE = 50


def months_before(day: date, months: int) -> date:
    """The same day `months` calendar months before, or that month's last day.

    >>> months_before(date(2026, 3, 31), 1), months_before(date(2028, 2, 29), 12)
    (datetime.date(2026, 2, 28), datetime.date(2027, 2, 28))
    """
    total = day.year * 12 + day.month - 1 - months
    year, month = divmod(total, 12)
    month += 1
    return date(year, month, min(day.day, calendar.monthrange(year, month)[1]))


@dataclass
class RankingRow:
    rank: int
    tied: bool
    player_id: int
    name: str
    leagues: list[str]
    ordinal: float
    mu: float
    sigma: float
    frames: int
    previous_rank: int | None
    previous_ordinal: float | None

    @property
    def new(self) -> bool:
        """Not ranked a month ago (too few frames then, or no frames at all)."""
        return self.previous_rank is None

    @property
    def movement(self) -> int | None:
        """Places gained since a month ago (negative: lost); None for a new entry."""
        return None if self.previous_rank is None else self.previous_rank - self.rank

    @property
    def places(self) -> int:
        """How many places it moved, up or down."""
        return abs(self.movement or 0)

    @property
    def rating_change(self) -> float | None:
        return None if self.previous_ordinal is None else self.ordinal - self.previous_ordinal


@dataclass
class Ranking:
    game_id: str
    min_frames: int
    today: date
    since: date  # frames after this day count (twelve months before today)
    compared_with: date  # the day the movement is measured from
    ranked: int  # players ranked
    unranked: int  # players with a rated frame in the window, but too few
    offset: int
    limit: int
    rows: list[RankingRow] = field(default_factory=list)

    @property
    def page(self) -> int:
        return self.offset // self.limit + 1

    @property
    def pages(self) -> int:
        return max(1, -(-self.ranked // self.limit))


def _leagues_sql(league_ids: Sequence[int] | None) -> tuple[str, list[Any]]:
    if league_ids is None:
        return "", []
    if not league_ids:
        return " AND 1 = 0", []
    return f" AND league_id IN ({', '.join(['%s'] * len(league_ids))})", list(league_ids)


# Each player's rated frames in the leagues in both windows, in one pass over the history
# (the month before's window starts first and its end is before today's), erased players
# left out.
_COUNTED = """
SELECT c.player_id,
       SUM(CASE WHEN c.played_on > %s THEN 1 ELSE 0 END) AS n_now,
       SUM(CASE WHEN c.played_on <= %s THEN 1 ELSE 0 END) AS n_then
  FROM frames_ratingchange c
  JOIN leagues_player p ON p.id = c.player_id
 WHERE c.game_id = %s AND c.played_on > %s AND c.played_on <= %s{leagues}
   AND p.erased_number IS NULL
 GROUP BY c.player_id
"""

_SUMMARY = """
WITH counted AS ({counted})
SELECT COALESCE(SUM(CASE WHEN n_now >= %s THEN 1 ELSE 0 END), 0),
       COALESCE(SUM(CASE WHEN n_now > 0 AND n_now < %s THEN 1 ELSE 0 END), 0)
  FROM counted
"""

_PAGE = """
WITH counted AS ({counted}),
ranked_now AS (
  SELECT r.player_id, r.ordinal, r.mu, r.sigma, n.n_now AS n,
         RANK() OVER (ORDER BY r.ordinal DESC) AS rnk
    FROM counted n
    JOIN frames_rating r ON r.player_id = n.player_id AND r.game_id = %s
   WHERE n.n_now >= %s
),
then_ordinal AS (
  SELECT t.player_id,
         (SELECT c.ordinal FROM frames_ratingchange c
           WHERE c.player_id = t.player_id AND c.game_id = %s AND c.played_on <= %s
           ORDER BY c.seq DESC LIMIT 1) AS ordinal
    FROM counted t
   WHERE t.n_then >= %s
),
ranked_then AS (
  SELECT player_id, ordinal, RANK() OVER (ORDER BY ordinal DESC) AS rnk FROM then_ordinal
),
tied AS (
  SELECT rnk FROM ranked_now GROUP BY rnk HAVING COUNT(*) > 1
)
SELECT rn.player_id, p.name, p.private_name, rn.ordinal, rn.mu, rn.sigma, rn.n, rn.rnk,
       CASE WHEN rn.rnk IN (SELECT rnk FROM tied) THEN 1 ELSE 0 END,
       rt.rnk, rt.ordinal,
       COUNT(*) OVER (),
       (SELECT COUNT(*) FROM counted WHERE n_now > 0 AND n_now < %s)
  FROM ranked_now rn
  JOIN leagues_player p ON p.id = rn.player_id
  LEFT JOIN ranked_then rt ON rt.player_id = rn.player_id
 ORDER BY rn.rnk, rn.player_id
 LIMIT %s OFFSET %s
"""


def ranking(
    game_id: str,
    *,
    league_ids: Sequence[int] | None,
    min_frames: int,
    today: date,
    offset: int = 0,
    limit: int = PAGE_SIZE,
) -> Ranking:
    """One page of the ranking of `game_id` over `league_ids` (None: every league), as it
    stands on `today`, with each row's movement since a calendar month before: two
    queries, whatever the number of players (the page, with the counts in each row; the
    leagues of its players, or the counts alone when the page is empty)."""
    since = months_before(today, 12)
    then = months_before(today, 1)
    then_since = months_before(then, 12)
    leagues, league_params = _leagues_sql(league_ids)
    counted = _COUNTED.format(leagues=leagues)
    counted_params = [since, then, game_id, then_since, today, *league_params]
    result = Ranking(
        game_id=game_id,
        min_frames=min_frames,
        today=today,
        since=since,
        compared_with=then,
        ranked=0,
        unranked=0,
        offset=offset,
        limit=limit,
    )
    with connection.cursor() as cursor:
        cursor.execute(
            _PAGE.format(counted=counted),
            [
                *counted_params,
                game_id,
                min_frames,
                game_id,
                then,
                min_frames,
                min_frames,
                limit,
                offset,
            ],
        )
        rows = cursor.fetchall()
        if not rows:  # past the last page, or nobody ranked: the counts alone
            cursor.execute(
                _SUMMARY.format(counted=counted), [*counted_params, min_frames, min_frames]
            )
            ranked, unranked = cursor.fetchone()
            result.ranked, result.unranked = int(ranked), int(unranked)
            return result
    result.ranked, result.unranked = int(rows[0][11]), int(rows[0][12])
    played_in = _leagues_played(game_id, [r[0] for r in rows], league_ids, since, today)
    result.rows = [
        RankingRow(
            rank=rank,
            tied=bool(tied),
            player_id=pid,
            name=public_name_of(name, bool(private)),
            leagues=played_in.get(pid, []),
            ordinal=ordinal,
            mu=mu,
            sigma=sigma,
            frames=n,
            previous_rank=then_rank,
            previous_ordinal=then_ordinal,
        )
        for (
            pid,
            name,
            private,
            ordinal,
            mu,
            sigma,
            n,
            rank,
            tied,
            then_rank,
            then_ordinal,
            *_,
        ) in (rows)
    ]
    return result


def _leagues_played(
    game_id: str,
    player_ids: list[int],
    league_ids: Sequence[int] | None,
    since: date,
    today: date,
) -> dict[int, list[str]]:
    """The leagues (of those ranked over) each player played a rated frame in during the
    twelve months, by name: one query."""
    changes = RatingChange.objects.filter(
        game_id=game_id, player_id__in=player_ids, played_on__gt=since, played_on__lte=today
    )
    if league_ids is not None:
        changes = changes.filter(league_id__in=league_ids)
    out: dict[int, list[str]] = defaultdict(list)
    for pid, name in (
        changes.order_by("player_id", "league__name")
        .values_list("player_id", "league__name")
        .distinct()
    ):
        out[pid].append(name)
    return out
