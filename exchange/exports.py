"""A season's spreadsheets for the secretary: fixtures and results, the tables, and the
players' averages, as CSV or XLSX (docs/data.md). A team called `=HYPERLINK(...)` stays
text in both: in CSV its cell goes through `marker.spreadsheet.safe_cell` (a leading
apostrophe, which the import takes off again); in XLSX it is a text cell marked as text
(Excel's quote prefix), its value exactly the name, with no apostrophe.

The fixtures sheet's headers are ones the import reads (`leagues.imports`), so a season
exported can be imported as past results elsewhere, every name as it was."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from frames.stats import selectors as stats_selectors
from leagues import publication_job, standings
from leagues.models import Fixture, Season
from marker import spreadsheet

FIXTURES_HEADER = [
    "Date",
    "Round",
    "Division",
    "Home team",
    "Away team",
    "Venue",
    "Status",
    "Outcome",
    "Home frames",
    "Away frames",
    "Home aggregate",
    "Away aggregate",
]


def _number(value: Any) -> Any:
    """A Decimal as an int or a float (a spreadsheet's number), None as blank."""
    if value is None:
        return ""
    if hasattr(value, "as_integer_ratio") and not isinstance(value, int | float):
        return int(value) if value == int(value) else float(value)
    return value


def fixtures_rows(season: Season) -> list[list]:
    fixtures = (
        Fixture.objects.filter(season=season)
        .select_related("division", "home", "away", "venue")
        .order_by("date", "division__rank", "round", "id")
    )
    rows: list[list] = [FIXTURES_HEADER]
    for f in fixtures:
        played = f.result_confirmed_at is not None
        rows.append(
            [
                f.date.isoformat() if f.date else "",
                f.round,
                f.division.name if f.division else (f.note or "Cup"),
                f.home.name,
                f.away.name,
                f.venue.name,
                f.get_status_display(),
                f.get_outcome_display() if played else "",
                _number(f.home_frames) if played else "",
                _number(f.away_frames) if played else "",
                _number(f.home_score) if played else "",
                _number(f.away_score) if played else "",
            ]
        )
    return rows


def tables_rows(season: Season) -> list[list]:
    rows: list[list] = [publication_job.CSV_HEADER]
    for table in standings.tables(season):
        rows += publication_job.table_csv_rows(table.division, table.as_rows())
    return rows


def averages_rows(season: Season) -> list[list]:
    board = stats_selectors.leaderboard(season=season, sort="average")
    cols = stats_selectors.columns(season.game_id)
    header = ["Player", "Team", "Played", "Won", "Shared", "Lost", "Win %", "Average"]
    rows: list[list] = [header + [c.label for c in cols]]
    for r in board:
        rows.append(
            [
                r["player__name"],
                r["team__name"],
                r["played"],
                r["frames_won"],
                r["frames_shared"],
                r["frames_lost"],
                round(r["win_rate"], 1),
                round(r["average"], 1),
                *[r.get(c.key) if r.get(c.key) is not None else "" for c in cols],
            ]
        )
    return rows


#: What a season exports: name → (title, rows).
SHEETS: dict[str, tuple[str, Callable[[Season], list[list]]]] = {
    "fixtures": ("Fixtures and results", fixtures_rows),
    "tables": ("Tables", tables_rows),
    "averages": ("Players' averages", averages_rows),
}
FORMATS = ("csv", "xlsx")


def as_csv(rows: list[list]) -> bytes:
    return spreadsheet.write_rows(rows).encode("utf-8-sig")


def as_xlsx(rows: list[list], title: str) -> bytes:
    return spreadsheet.xlsx_bytes(rows, title)


def season_export(*, season: Season, sheet: str, fmt: str) -> tuple[bytes, str, str]:
    """(the file's bytes, its content type, its name)."""
    title, rows_of = SHEETS[sheet]
    rows = rows_of(season)
    name = f"{season.league.slug}-{season.slug}-{sheet}.{fmt}"
    if fmt == "xlsx":
        return (
            as_xlsx(rows, title),
            "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
            name,
        )
    return as_csv(rows), "text/csv; charset=utf-8", name
