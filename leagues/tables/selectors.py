"""What the public pages show of a table nobody has published yet.

A division with confirmed results but no published table shows its table as the results
stand, marked provisional, rather than nothing (the secretary's published tables stay
the ones of record). A few queries for a whole season, whatever its size.
"""

from __future__ import annotations

from collections.abc import Iterable

from leagues import standings
from leagues.models import Division, Season


def _shown(table: standings.Table) -> dict:
    return {
        "division_id": table.division_id,
        "division": table.division,
        "rows": table.as_rows(),
        "notes": table.notes,
        "scheme_text": table.scheme.describe(),
        "results": sum(row.played for row in table.rows) // 2,
    }


def provisional_table(division: Division, *, published: bool, results: int) -> dict | None:
    """The division's table from its `results` confirmed results, for its public page,
    when no table is `published`; None when one is, or when nothing is confirmed yet.
    `division.season` should be selected with it."""
    if published or not results:
        return None
    return _shown(standings.division_table(division)) | {"results": results}


def provisional_tables(
    season: Season, divisions: Iterable[Division], *, published: Iterable[int]
) -> list[dict]:
    """The season's provisional tables, in division order, of its `divisions` without a
    `published` table (ids) that have a confirmed result: for the league's front page.
    No query when every division has a published table."""
    skip = set(published)
    if all(division.pk in skip for division in divisions):
        return []
    return [
        _shown(table)
        for table in standings.tables(season)
        if table.division_id not in skip and any(row.played for row in table.rows)
    ]
