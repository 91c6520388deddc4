"""Importing a season's data from a spreadsheet (CSV or XLSX): venues, teams, players,
registrations, fixtures and past results (docs/data.md).

Three steps, no state kept between them (a large import's third step runs as a background
job: `leagues.imports.job`, its task in `leagues.imports.tasks`):

1. `read_table(name, data)` reads the file into a `Table` (text cells; blank rows and
   rows above the header row dropped). The page carries it signed between requests.
2. `plan(season, kind, table, mapping)` matches each column to a field (loosely, or as
   the secretary chose), checks every row against the database and the rest of the file,
   and says what each row would create or change, with every problem by row and column.
   It writes nothing.
3. `import_apply(...)` plans again and, only when no row has a problem, writes it all in
   one transaction. Rows are found by natural keys (a venue by name, a team by name in
   the season, a player by name and email, a fixture by its teams and date), so importing
   the same file twice changes nothing the second time.
"""

from __future__ import annotations

import csv
import io
import re
import unicodedata
import zipfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from decimal import Decimal, InvalidOperation
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from openpyxl import load_workbook
from openpyxl.utils import get_column_letter

from leagues.models import (
    MAX_MATCH_SCORE,
    Division,
    Fixture,
    Player,
    Registration,
    Season,
    Team,
    Venue,
)
from marker import spreadsheet
from marker.errors import DomainError
from marker.formats import MatchFormat, effective_format
from marker.permissions import require

#: The largest file accepted, and the most rows and columns read from it.
MAX_BYTES = 512 * 1024
MAX_ROWS = 3000
MAX_COLUMNS = 40
#: How many rows from the top may sit above the header row (a title, a date).
HEADER_SEARCH = 10
#: An XLSX file is a zip: refused before it is parsed when its parts would inflate to more
#: than this in all, or when a part larger than `RATIO_FROM` inflates more than `MAX_RATIO`
#: times (a zip bomb: a small file whose sheet inflates to hundreds of megabytes). A real
#: sheet of `MAX_ROWS` rows of `MAX_COLUMNS` columns stays far below both.
MAX_UNCOMPRESSED = 32 * 1024 * 1024
MAX_RATIO = 100
RATIO_FROM = 1024 * 1024
MAX_PARTS = 200
#: How often (in steps written) an import tells its progress.
PROGRESS_EVERY = 100


# ----------------------------------------------------------------------------- reading


@dataclass
class Table:
    """A sheet as text: the header row's cells, and the data rows with their row
    numbers in the file (1 = the first line), blank rows left out."""

    headers: list[str]
    rows: list[tuple[int, list[str]]]
    filename: str = ""

    def as_data(self) -> dict:
        return {"headers": self.headers, "rows": self.rows, "filename": self.filename}

    @classmethod
    def from_data(cls, data: Any) -> Table:
        try:
            headers = [str(h)[:200] for h in data["headers"]][:MAX_COLUMNS]
            rows = [(int(n), [str(c)[:500] for c in cells]) for n, cells in data["rows"]]
        except (KeyError, TypeError, ValueError):
            raise DomainError("bad_upload", "The upload could not be read again.") from None
        return cls(headers, rows[:MAX_ROWS], str(data.get("filename", ""))[:200])


def _cell_text(value: Any) -> str:
    """A cell as text: a whole number without '.0', a date as YYYY-MM-DD."""
    if value is None:
        return ""
    if isinstance(value, datetime):
        return value.date().isoformat()
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return " ".join(str(value).split())


def _sheet_rows(name: str, data: bytes, formulas: Formulas) -> list[list[str]]:
    if len(data) > MAX_BYTES:
        raise DomainError(
            "too_large", f"The file is larger than {MAX_BYTES // 1024} KB.", field="file"
        )
    lowered = name.lower()
    if lowered.endswith((".xlsx", ".xlsm")) or data[:4] == b"PK\x03\x04":
        return _xlsx_rows(data, formulas)
    if not lowered.endswith((".csv", ".txt")) and lowered:
        raise DomainError("bad_file", "Upload a .csv or an .xlsx file.", field="file")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = data.decode("cp1252", errors="replace")
    # The sniffer chooses the delimiter only: the quote is always the double quote (a
    # doubled one inside a quoted cell), so "Dai 'Dynamite' Davies" is read as written
    # rather than taken for a quoted cell.
    try:
        delimiter = csv.Sniffer().sniff(text[:4096], delimiters=",;\t").delimiter
    except csv.Error:
        delimiter = ","
    rows = []
    reader = csv.reader(io.StringIO(text, newline=""), csv.excel, delimiter=delimiter)
    for cells in reader:
        # A cell the export made formula-safe ('=…) reads back as it was (=…).
        rows.append([_cell_text(spreadsheet.read_cell(c)) for c in cells[:MAX_COLUMNS]])
        if len(rows) > MAX_ROWS + HEADER_SEARCH:
            break
    return rows


def _check_zip(data: bytes) -> None:
    """Refuse a zip whose parts would inflate too far, from its directory alone (nothing
    is inflated: constant memory, whatever the parts hold). A part that claims a smaller
    size than it holds is read only up to its claim and fails its checksum."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            parts = archive.infolist()
    except (zipfile.BadZipFile, ValueError, OSError):
        raise DomainError("bad_file", "That is not a readable .xlsx file.", field="file") from None
    total = sum(p.file_size for p in parts)
    inflated = [p for p in parts if p.file_size > RATIO_FROM]
    if (
        len(parts) > MAX_PARTS
        or total > MAX_UNCOMPRESSED
        or any(p.file_size > MAX_RATIO * max(p.compress_size, 1) for p in inflated)
    ):
        raise DomainError(
            "too_large",
            f"The .xlsx file would unpack to {total // (1024 * 1024)} MB (at most "
            f"{MAX_UNCOMPRESSED // (1024 * 1024)} MB, and no part more than {MAX_RATIO} "
            "times its packed size): save the sheet again, or export it as CSV.",
            field="file",
        )


#: A formula cell of an XLSX file: (row, column) counted from 1, and its formula.
Formulas = dict[tuple[int, int], str]


def _xlsx_rows(data: bytes, formulas: Formulas) -> list[list[str]]:
    """The first sheet's rows as text. A formula cell is not read as Excel's cached value
    (which may be stale, or absent in a file no spreadsheet saved): it is left blank here
    and listed in `formulas`, and `read_table` names it as a problem."""
    _check_zip(data)
    try:
        book = load_workbook(io.BytesIO(data), read_only=True, data_only=False)
    except Exception:  # zipfile.BadZipFile, KeyError, InvalidFileException...
        raise DomainError("bad_file", "That is not a readable .xlsx file.", field="file") from None
    try:
        sheet = book.worksheets[0]
        rows: list[list[str]] = []
        for number, cells in enumerate(sheet.iter_rows(max_col=MAX_COLUMNS), start=1):
            texts = []
            for column, cell in enumerate(cells, start=1):
                value = getattr(cell, "value", None)
                if getattr(cell, "data_type", None) == "f":
                    formula = getattr(value, "text", value)  # an array formula's text
                    formulas[number, column] = str(formula or "=")[:100]
                    value = None
                texts.append(_cell_text(value))
            rows.append(texts)
            if len(rows) > MAX_ROWS + HEADER_SEARCH:
                break
        return rows
    finally:
        book.close()


def read_table(name: str, data: bytes, kind: str) -> Table:
    """The file's header row (the row near the top that names the most of `kind`'s
    fields) and the non-blank rows under it. A file with a formula in its header or its
    rows is refused (`formula_cells`), each such cell named as a problem."""
    formulas: Formulas = {}
    raw = _sheet_rows(name, data, formulas)
    numbered = [
        (n, cells)
        for n, cells in enumerate(raw, start=1)
        if any(cells) or any((n, c) in formulas for c in range(1, len(cells) + 1))
    ]
    if not numbered:
        raise DomainError("empty_file", "The file has no rows.", field="file")
    fields = KINDS[kind].fields
    best = 0
    best_score = -1
    for i, (_, cells) in enumerate(numbered[:HEADER_SEARCH]):
        score = len({f for c in cells if (f := match_header(c, fields)) is not None})
        if score > best_score:
            best, best_score = i, score
    headers = numbered[best][1]
    width = len(headers)
    while width and not headers[width - 1]:
        width -= 1
    rows = [
        (n, (cells + [""] * width)[:width])
        for n, cells in numbered[best + 1 :]
        if any(cells[:width])
    ]
    if len(rows) > MAX_ROWS:
        raise DomainError("too_many_rows", f"Import at most {MAX_ROWS} rows at a time.")
    header_row = numbered[best][0]
    found = sorted((r, c, f) for (r, c), f in formulas.items() if r >= header_row)
    if found:
        problems = [
            Problem(
                r,
                (headers[c - 1] if c <= len(headers) and headers[c - 1] else "")
                or get_column_letter(c),
                f"Cell {get_column_letter(c)}{r} holds a formula ({f}), not a value: "
                "paste the values in its place (Paste special → Values) and upload it again.",
            ).as_dict()
            for r, c, f in found
        ]
        raise DomainError(
            "formula_cells",
            f"{len(found)} cell(s) hold a formula, not a value: "
            + ", ".join(f"{get_column_letter(c)}{r}" for r, c, _ in found[:10])
            + (" …" if len(found) > 10 else "")
            + ". Paste their values instead and upload the file again.",
            field="file",
            extra={"problems": problems},
        )
    return Table(headers[:width], rows, name[:200])


# ----------------------------------------------------------------------------- fields


@dataclass(frozen=True)
class Field:
    key: str
    label: str
    required: bool = False
    aliases: tuple[str, ...] = ()


def fold(text: str) -> str:
    """A name as it is matched: spacing, case and Unicode forms aside, folded in Python
    the same way on both sides (the file's and the database's), whatever the database:
    SQLite's `LOWER()` folds ASCII only, so 'ŁUKASZ' and 'Łukasz' would be two players.

    >>> fold("  ŁUKASZ   Østergård ") == fold("łukasz østergård"), fold("STRAUSS") == fold("Strauß")
    (True, True)
    """
    return " ".join(unicodedata.normalize("NFKC", text or "").split()).casefold()


def normalise(text: str) -> str:
    """'Home Team:' → 'hometeam' (case, spaces and punctuation aside)."""
    return re.sub(r"[^a-z0-9]", "", (text or "").lower())


def match_header(text: str, fields: tuple[Field, ...]) -> str | None:
    """The field a column header names, if any."""
    key = normalise(text)
    if not key:
        return None
    for f in fields:
        if key in {normalise(f.key), normalise(f.label), *map(normalise, f.aliases)}:
            return f.key
    return None


def auto_mapping(table: Table, kind: str) -> list[str]:
    """Each column's field ('' for a column to ignore), each field used once."""
    used: set[str] = set()
    mapping = []
    for header in table.headers:
        key = match_header(header, KINDS[kind].fields)
        if key in used:
            key = None
        used.add(key or "")
        mapping.append(key or "")
    return mapping


# ----------------------------------------------------------------------------- the plan


@dataclass
class Problem:
    row: int  # the row number in the file (0: the file as a whole)
    column: str  # the column's header (or the field's name when it has no column)
    message: str

    def as_dict(self) -> dict:
        return {"row": self.row, "column": self.column, "message": self.message}


@dataclass
class Step:
    """What one row does: 'create', 'change' or 'same' (nothing to do)."""

    row: int
    action: str
    what: str
    text: str
    apply: Callable[[], None] | None = None

    def as_dict(self) -> dict:
        return {"row": self.row, "action": self.action, "what": self.what, "text": self.text}


@dataclass
class Plan:
    kind: str
    headers: list[str]
    mapping: list[str]
    steps: list[Step] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)

    @property
    def counts(self) -> dict[str, dict[str, int]]:
        out: dict[str, dict[str, int]] = {}
        for step in self.steps:
            by = out.setdefault(step.what, {"create": 0, "change": 0, "same": 0})
            by[step.action] += 1
        return out

    @property
    def changes(self) -> int:
        return sum(1 for s in self.steps if s.action != "same")

    def as_dict(self) -> dict:
        return {
            "kind": self.kind,
            "columns": [
                {"header": h, "field": m} for h, m in zip(self.headers, self.mapping, strict=True)
            ],
            "counts": self.counts,
            "changes": self.changes,
            "steps": [s.as_dict() for s in self.steps],
            "problems": [p.as_dict() for p in self.problems],
        }


class _Row:
    """One data row's values by field, reporting problems against its column."""

    def __init__(self, plan: Plan, number: int, cells: list[str]) -> None:
        self.plan = plan
        self.number = number
        self.values: dict[str, str] = {}
        self.columns: dict[str, str] = {}
        self.bad = False
        for header, key, cell in zip(plan.headers, plan.mapping, cells, strict=False):
            if key:
                self.values[key] = cell.strip()
                self.columns[key] = header or key
        unplayed = plan.kind == "results" and not (
            self.values.get("home_frames") or self.values.get("away_frames")
        )
        for f in KINDS[plan.kind].fields:
            if f.key in _RESULT_KEYS and unplayed:
                continue  # a fixture not played yet: no result to import
            if f.required and not self.values.get(f.key):
                self.problem(f.key, f"{f.label} is missing.")

    def get(self, key: str) -> str:
        return self.values.get(key, "")

    def problem(self, key: str, message: str) -> None:
        self.bad = True
        column = self.columns.get(key) or next(
            (f.label for f in KINDS[self.plan.kind].fields if f.key == key), key
        )
        self.plan.problems.append(Problem(self.number, column, message))

    def step(self, action: str, what: str, text: str, apply=None) -> None:
        self.plan.steps.append(Step(self.number, action, what, text, apply))


_DATE_FORMATS = (
    "%Y-%m-%d",
    "%d/%m/%Y",
    "%d/%m/%y",
    "%d-%m-%Y",
    "%d.%m.%Y",
    "%d %b %Y",
    "%d %B %Y",
    "%a %d %b %Y",
    "%A %d %B %Y",
    "%a %d/%m/%Y",
    "%Y-%m-%d %H:%M:%S",
)


def parse_date(text: str) -> date | None:
    """A date as leagues write them (day first): 2026-09-01, 1/9/2026, 1 Sep 2026."""
    text = " ".join(text.replace(",", " ").split())
    for fmt in _DATE_FORMATS:
        try:
            return datetime.strptime(text, fmt).date()  # noqa: DTZ007 (a date, no time)
        except ValueError:
            continue
    return None


def season_window(season: Season) -> tuple[date, date] | None:
    """The days a season's fixtures may fall on: from its start, up to the next season's
    start (or a year on). None when the season has no start date."""
    if season.start_date is None:
        return None
    following = (
        Season.objects.filter(league_id=season.league_id, start_date__gt=season.start_date)
        .order_by("start_date")
        .values_list("start_date", flat=True)
        .first()
    )
    return season.start_date, following or season.start_date + timedelta(days=365)


def _number(row: _Row, key: str, *, maximum: int, halves: bool = False) -> Decimal | None:
    text = row.get(key).replace("½", ".5")
    if text.startswith("."):
        text = "0" + text
    if not text:
        return None
    try:
        value = Decimal(text)
    except InvalidOperation:
        row.problem(key, f"{row.get(key)!r} is not a number.")
        return None
    if not value.is_finite() or value < 0 or value > maximum:
        row.problem(key, f"Give a number from 0 to {maximum}.")
        return None
    if value % 1 and not (halves and (value * 2) % 1 == 0):
        row.problem(key, "Give a whole number." + (" (or a half)" if halves else ""))
        return None
    return value


class _Context:
    """What the rows are checked against, read up front in a fixed number of queries
    (whatever the number of rows): the season's teams, divisions, fixtures and
    registrations, the venues and players the file names."""

    def __init__(self, season: Season, names: Iterable[str] = ()) -> None:
        self.season = season
        teams = Team.objects.filter(season=season).select_related("division", "venue")
        self.teams = {fold(t.name): t for t in teams.order_by("-id")}
        self.divisions = {
            fold(d.name): d for d in Division.objects.filter(season=season).order_by("-id")
        }
        self.formats: dict[int, MatchFormat] = {}
        self.window = season_window(season)
        self.fixtures: dict[tuple, Fixture] = {}
        self.pairs: dict[tuple, Fixture] = {}
        for f in Fixture.objects.filter(season=season).order_by("id"):
            self.fixtures.setdefault((f.home_id, f.away_id, f.date), f)
            self.pairs.setdefault((f.division_id, f.home_id, f.away_id), f)
        # The players the file names, their names folded here rather than by the
        # database's LOWER() (see `fold`): the names and keys first, then those rows.
        wanted = {fold(n) for n in names}
        ids = (
            [
                pk
                for pk, name in Player.objects.values_list("pk", "name").iterator(chunk_size=2000)
                if fold(name) in wanted
            ]
            if wanted
            else []
        )
        self.players: dict[str, list[Player]] = {}
        for player in Player.objects.filter(pk__in=ids).order_by("id"):
            self.players.setdefault(fold(player.name), []).append(player)
        self.registrations: dict[int, list[Registration]] = {}
        counted = Registration.objects.filter(season=season).filter(
            Q(status=Registration.Status.ACTIVE) | Q(first_played_at__isnull=False)
        )
        for reg in counted.select_related("team").order_by("id"):
            self.registrations.setdefault(reg.player_id, []).append(reg)
        # Venues are the instance's, a few hundred at most: folded here like the players.
        self.venues = {fold(v.name): v for v in Venue.objects.order_by("-id")}
        #: What the import creates, by folded name, so two rows naming one new venue or
        #: division in different cases create it once.
        self.created: dict[tuple[str, str], Any] = {}

    def venue(self, name: str) -> Venue | None:
        return self.venues.get(fold(name))

    def format_of(self, division: Division) -> MatchFormat:
        """The match format a division plays (its own, else the season's)."""
        if division.pk not in self.formats:
            self.formats[division.pk] = effective_format(
                self.season.match_format, division.match_format
            )
        return self.formats[division.pk]


# ----------------------------------------------------------------------------- kinds


def _plan_venues(plan: Plan, ctx: _Context, row: _Row, seen: dict) -> None:
    name = row.get("name")
    tables = _number(row, "tables", maximum=50)
    if row.bad:
        return
    if tables is not None and tables < 1:
        row.problem("tables", "A venue has at least one table.")
        return
    if fold(name) in seen:
        row.problem("name", f"{name} is also on row {seen[fold(name)]}.")
        return
    seen[fold(name)] = row.number
    address = row.get("address")
    venue = ctx.venue(name)
    if venue is None:

        def create() -> None:
            Venue.objects.create(name=name, address=address, tables=int(tables or 1))

        row.step("create", "venue", name, create)
        return
    changed: dict[str, Any] = {}
    if address and address != venue.address:
        changed["address"] = address
    if tables is not None and int(tables) != venue.tables:
        changed["tables"] = int(tables)
    if not changed:
        row.step("same", "venue", venue.name)
        return

    def change(venue=venue, changed=changed) -> None:
        Venue.objects.filter(pk=venue.pk).update(**changed)

    row.step("change", "venue", f"{venue.name}: {', '.join(changed)}", change)


def _plan_teams(plan: Plan, ctx: _Context, row: _Row, seen: dict) -> None:
    name, venue_name, division_name = row.get("name"), row.get("venue"), row.get("division")
    captain_name = row.get("captain")
    captain = None
    if captain_name:
        # An account's username or email: the captain signs in to run the team.
        captain = (
            get_user_model()
            .objects.filter(Q(username__iexact=captain_name) | Q(email__iexact=captain_name))
            .filter(is_active=True)
            .first()
        )
        if captain is None:
            row.problem(
                "captain",
                f"No account is {captain_name}: give a username or the email of an account "
                "(captains sign up from an invitation or the sign-up page first).",
            )
    if row.bad:
        return
    if fold(name) in seen:
        row.problem("name", f"{name} is also on row {seen[fold(name)]}.")
        return
    seen[fold(name)] = row.number
    season = ctx.season
    venue = ctx.venue(venue_name)
    new_venue = venue is None
    division = ctx.divisions.get(fold(division_name)) if division_name else None
    new_division = bool(division_name) and division is None
    if new_venue and ("venue", fold(venue_name)) not in seen:
        seen["venue", fold(venue_name)] = row.number
        row.step("create", "venue", venue_name)
    if new_division and ("division", fold(division_name)) not in seen:
        seen["division", fold(division_name)] = row.number
        row.step("create", "division", division_name)

    def venue_now() -> Venue:
        if venue is not None:
            return venue
        key = ("venue", fold(venue_name))
        if key not in ctx.created:
            ctx.created[key] = Venue.objects.create(name=venue_name)
        return ctx.created[key]

    def division_now() -> Division | None:
        if division is not None or not division_name:
            return division
        key = ("division", fold(division_name))
        if key not in ctx.created:
            rank = Division.objects.filter(season=season).count() + 1
            ctx.created[key] = Division.objects.create(season=season, name=division_name, rank=rank)
        return ctx.created[key]

    team = ctx.teams.get(fold(name))
    if team is None:

        def create() -> None:
            Team.objects.create(
                season=season,
                name=name,
                venue=venue_now(),
                division=division_now(),
                captain=captain,
            )

        row.step("create", "team", name, create)
        return
    changed = []
    if new_venue or team.venue_id != venue.pk:  # type: ignore[union-attr]
        changed.append("venue")
    if division_name and (new_division or team.division_id != division.pk):  # type: ignore[union-attr]
        changed.append("division")
    if captain is not None and team.captain_id != captain.pk:
        changed.append("captain")
    if not changed:
        row.step("same", "team", team.name)
        return

    def change(team=team, changed=changed) -> None:
        if "venue" in changed:
            team.venue = venue_now()
        if "division" in changed:
            team.division = division_now()
        if "captain" in changed:
            team.captain = captain
        team.save(update_fields=changed)

    row.step("change", "team", f"{team.name}: {', '.join(changed)}", change)


def _find_player(ctx: _Context, row: _Row, name: str, email: str) -> tuple[Player | None, bool]:
    """(the player the row names, whether the row adds their email); problems reported."""
    candidates = ctx.players.get(fold(name), [])
    if email:
        exact = [p for p in candidates if p.email.lower() == email.lower()]
        if exact:
            return exact[0], False
        blank = [p for p in candidates if not p.email]
        if len(blank) == 1 and len(candidates) == 1:
            return blank[0], True
        return None, False
    if len(candidates) > 1:
        row.problem("name", f"{len(candidates)} players are called {name}: give an email.")
    return (candidates[0] if candidates else None), False


def _plan_players(plan: Plan, ctx: _Context, row: _Row, seen: dict) -> None:
    name = " ".join(row.get("name").split())
    email = row.get("email").lower()
    team_name = row.get("team")
    if email and not re.fullmatch(r"[^@\s]+@[^@\s]+\.[^@\s]+", email):
        row.problem("email", f"{email!r} is not an email address.")
    team = ctx.teams.get(fold(team_name)) if team_name else None
    if team_name and team is None:
        row.problem("team", f"There is no team called {team_name} in {ctx.season.name}.")
    if row.bad:
        return
    key = (fold(name), email)
    if key in seen:
        row.problem("name", f"{name} is also on row {seen[key]}.")
        return
    seen[key] = row.number
    player, add_email = _find_player(ctx, row, name, email)
    if row.bad:
        return
    season = ctx.season
    if player is None:
        holder: dict[str, Player] = {}

        def create() -> None:
            holder["player"] = Player.objects.create(name=name, email=email)

        row.step("create", "player", name + (f" <{email}>" if email else ""), create)

        def the_player() -> Player:
            return holder["player"]
    else:
        found = player
        if add_email:

            def change() -> None:
                Player.objects.filter(pk=found.pk).update(email=email)

            row.step("change", "player", f"{found.name}: email", change)
        elif not team:
            row.step("same", "player", found.name)

        def the_player() -> Player:
            return found

    if team is None:
        return
    if player is not None:
        regs = ctx.registrations.get(player.pk, [])
        elsewhere = next((r for r in regs if r.team_id != team.pk), None)
        if elsewhere is not None:
            row.problem(
                "team",
                f"{player.name} is already registered with {elsewhere.team.name} this season.",
            )
            return
        if any(r.team_id == team.pk and r.status == Registration.Status.ACTIVE for r in regs):
            row.step("same", "registration", f"{player.name} → {team.name}")
            return
    if (fold(name), "team") in seen:
        row.problem("team", f"{name} is registered on row {seen[fold(name), 'team']} too.")
        return
    seen[fold(name), "team"] = row.number

    def register(team=team) -> None:
        player = the_player()
        old = Registration.objects.filter(team=team, player=player).order_by("-id").first()
        if old is not None:
            old.status = Registration.Status.ACTIVE
            old.removed_at = None
            old.save(update_fields=["status", "removed_at"])
        else:
            Registration.objects.create(season=season, team=team, player=player)

    row.step("create", "registration", f"{name} → {team.name}", register)


_RESULT_KEYS = ("home_frames", "away_frames", "home_score", "away_score")


def _plan_fixtures(plan: Plan, ctx: _Context, row: _Row, seen: dict) -> None:
    results = plan.kind == "results" and any(row.get(k) for k in _RESULT_KEYS[:2])
    season = ctx.season
    home = ctx.teams.get(fold(row.get("home")))
    away = ctx.teams.get(fold(row.get("away")))
    for side, team in (("home", home), ("away", away)):
        if row.get(side) and team is None:
            row.problem(side, f"There is no team called {row.get(side)} in {season.name}.")
    day = parse_date(row.get("date")) if row.get("date") else None
    if row.get("date") and day is None:
        row.problem("date", f"{row.get('date')!r} is not a date (write it as 21/09/2026).")
    window = ctx.window
    if day is not None and window is not None and not window[0] <= day < window[1]:
        row.problem(
            "date",
            f"{day:%d/%m/%Y} is outside {season.name} "
            f"({window[0]:%d/%m/%Y} to {window[1] - timedelta(days=1):%d/%m/%Y}).",
        )
    round_number = _number(row, "round", maximum=999)
    scores: dict[str, Decimal | None] = {}
    if results:
        for key in ("home_frames", "away_frames"):
            scores[key] = _number(row, key, maximum=99, halves=True)
        for key in ("home_score", "away_score"):
            scores[key] = _number(row, key, maximum=MAX_MATCH_SCORE)
    if home is not None and home == away:
        row.problem("away", "A team cannot play itself.")
    division = None
    if row.get("division"):
        division = ctx.divisions.get(fold(row.get("division")))
        if division is None:
            row.problem("division", f"There is no division called {row.get('division')}.")
    elif home is not None:
        division = home.division
        if division is None:
            row.problem("home", f"{home.name} is in no division: add a Division column.")
    if division is not None:
        for side, team in (("home", home), ("away", away)):
            if team is not None and team.division_id != division.pk:
                row.problem(side, f"{team.name} is not in {division.name}.")
    venue = home.venue if home is not None else None
    if row.get("venue"):
        venue = ctx.venue(row.get("venue"))
        if venue is None:
            row.problem("venue", f"There is no venue called {row.get('venue')}.")
    if results and division is not None:
        _check_result(row, ctx.format_of(division), scores)
    if row.bad or home is None or away is None or day is None or division is None:
        return
    assert venue is not None
    natural = (home.pk, away.pk, day)
    if natural in seen:
        row.problem("date", f"The same fixture is on row {seen[natural]}.")
        return
    if (division.pk, home.pk, away.pk) in seen:
        row.problem(
            "home",
            f"{home.name} are at home to {away.name} on row "
            f"{seen[division.pk, home.pk, away.pk]} too (once each way a season).",
        )
        return
    seen[natural] = seen[division.pk, home.pk, away.pk] = row.number
    label = f"{home.name} v {away.name}, {day:%d/%m/%Y}"
    fixture = ctx.fixtures.get(natural)
    if fixture is None:
        clash = ctx.pairs.get((division.pk, home.pk, away.pk))
        if clash is not None:
            when = f"{clash.date:%d/%m/%Y}" if clash.date else "no date"
            row.problem(
                "date",
                f"{home.name} are already at home to {away.name} in {division.name} "
                f"({when}): move that fixture instead.",
            )
            return
    numbered = int(round_number) if round_number is not None else None
    holder: dict[str, Fixture] = {}

    def fixture_now() -> Fixture:
        if fixture is not None:
            return fixture
        if "fixture" not in holder:
            holder["fixture"] = Fixture.objects.create(
                season=season,
                division=division,
                home=home,
                away=away,
                venue=venue,
                date=day,
                round=numbered or _round_of(division, day),
            )
        return holder["fixture"]

    if fixture is None:
        row.step("create", "fixture", label, fixture_now)
    elif not results:
        changed: dict[str, Any] = {}
        if row.get("venue") and fixture.venue_id != venue.pk:
            changed["venue"] = venue
        if numbered is not None and fixture.round != numbered:
            changed["round"] = numbered
        if changed:

            def change(fixture=fixture, changed=changed) -> None:
                for name, value in changed.items():
                    setattr(fixture, name, value)
                fixture.save(update_fields=list(changed))

            row.step("change", "fixture", f"{label}: {', '.join(changed)}", change)
        else:
            row.step("same", "fixture", label)
    if not results:
        return
    result = (
        scores["home_frames"],
        scores["away_frames"],
        int(scores["home_score"] or 0),
        int(scores["away_score"] or 0),
    )
    if fixture is not None and fixture.result_confirmed_at is not None:
        stored = (fixture.home_frames, fixture.away_frames, fixture.home_score, fixture.away_score)
        if stored == result:
            row.step("same", "result", label)
        else:
            row.problem(
                "home_frames",
                f"{label} already has a result ({fixture.frames_display}): correct it on the "
                "fixture's page.",
            )
        return

    def record() -> None:
        target = fixture_now()
        target.home_frames, target.away_frames, target.home_score, target.away_score = result
        target.result_confirmed_at = timezone.make_aware(datetime.combine(day, time(22, 0)))
        target.status = Fixture.Status.PLAYED
        target.save(
            update_fields=[
                "home_frames",
                "away_frames",
                "home_score",
                "away_score",
                "result_confirmed_at",
                "status",
            ]
        )

    text = f"{label}: {result[0].normalize():f}–{result[1].normalize():f}"  # type: ignore[union-attr]
    row.step("create", "result", text, record)


def _check_result(row: _Row, fmt: MatchFormat, scores: dict[str, Decimal | None]) -> None:
    """A result that cannot be under the division's format is a problem on its row: more
    frames between the sides than the format has (6–5 or 10–0 where nine are played).
    Fewer is a result (a night cut short, frames not played)."""
    home, away = scores.get("home_frames"), scores.get("away_frames")
    if home is None or away is None:
        return
    frames = fmt.frame_count
    if home + away > frames:
        row.problem(
            "home_frames",
            f"{home.normalize():f}–{away.normalize():f} is {(home + away).normalize():f} "
            f"frames, but {fmt.name} has {frames}: a result cannot have more.",
        )


def _round_of(division: Division, day: date) -> int:
    """A fixture's round when the file gives none: its date's place among the division's
    fixture dates."""
    earlier = (
        Fixture.objects.filter(division=division, date__lt=day).values("date").distinct().count()
    )
    return earlier + 1


@dataclass(frozen=True)
class Kind:
    key: str
    label: str
    fields: tuple[Field, ...]
    plan_row: Callable[[Plan, _Context, _Row, dict], None]


_NAME = ("name", "full name", "player", "player name")
_TEAM = ("team", "team name", "club")
_VENUE = ("venue", "pub", "home venue", "venue name", "ground", "location")
_DIVISION = ("division", "div", "league", "section", "group")
_DATE = ("date", "match date", "fixture date", "played on", "day", "when")
_HOME = ("home", "home team", "home side", "team 1", "home club")
_AWAY = ("away", "away team", "away side", "visitors", "team 2", "away club", "opponents")
_FIXTURE_FIELDS = (
    Field("date", "Date", True, _DATE),
    Field("home", "Home team", True, _HOME),
    Field("away", "Away team", True, _AWAY),
    Field("division", "Division", False, _DIVISION),
    Field("venue", "Venue", False, _VENUE[:2] + ("venue name", "played at", "at")),
    Field("round", "Round", False, ("round", "week", "rnd", "round number", "week number")),
)

KINDS: dict[str, Kind] = {
    k.key: k
    for k in (
        Kind(
            "venues",
            "Venues",
            (
                Field("name", "Venue", True, _VENUE + ("name",)),
                Field("address", "Address", False, ("address", "postcode", "street")),
                Field("tables", "Tables", False, ("tables", "number of tables", "no of tables")),
            ),
            _plan_venues,
        ),
        Kind(
            "teams",
            "Teams",
            (
                Field("name", "Team", True, _TEAM + ("name",)),
                Field("venue", "Venue", True, _VENUE),
                Field("division", "Division", False, _DIVISION),
                Field(
                    "captain",
                    "Captain",
                    False,
                    ("captain", "captain email", "captains email", "captain username", "skipper"),
                ),
            ),
            _plan_teams,
        ),
        Kind(
            "players",
            "Players",
            (
                Field("name", "Player", True, _NAME),
                Field("email", "Email", False, ("email", "e-mail", "email address", "mail")),
                Field("team", "Team", False, _TEAM),
            ),
            _plan_players,
        ),
        Kind(
            "registrations",
            "Registrations",
            (
                Field("name", "Player", True, _NAME),
                Field("team", "Team", True, _TEAM),
                Field("email", "Email", False, ("email", "e-mail", "email address", "mail")),
            ),
            _plan_players,
        ),
        Kind("fixtures", "Fixtures", _FIXTURE_FIELDS, _plan_fixtures),
        Kind(
            "results",
            "Past results",
            _FIXTURE_FIELDS
            + (
                Field(
                    "home_frames",
                    "Home frames",
                    True,
                    ("home frames", "frames home", "home frames won", "hf", "home result"),
                ),
                Field(
                    "away_frames",
                    "Away frames",
                    True,
                    ("away frames", "frames away", "away frames won", "af", "away result"),
                ),
                Field(
                    "home_score",
                    "Home aggregate",
                    False,
                    ("home score", "home aggregate", "home agg", "home points", "home total"),
                ),
                Field(
                    "away_score",
                    "Away aggregate",
                    False,
                    ("away score", "away aggregate", "away agg", "away points", "away total"),
                ),
            ),
            _plan_fixtures,
        ),
    )
}


#: What a file may hold (the API's `kind`).
KIND_CHOICES = [(k.key, k.label) for k in KINDS.values()]


def check_mapping(kind: str, headers: list[str], mapping: list[str] | None) -> list[str]:
    """The mapping given (one field name or '' per column), or the automatic one."""
    if kind not in KINDS:
        raise DomainError("bad_kind", f"Choose what to import: {', '.join(KINDS)}.", field="kind")
    keys = {f.key for f in KINDS[kind].fields}
    if mapping is None:
        return auto_mapping(Table(headers, []), kind)
    mapping = [m or "" for m in mapping][: len(headers)]
    mapping += [""] * (len(headers) - len(mapping))
    for m in mapping:
        if m and m not in keys:
            raise DomainError("bad_mapping", f"{m!r} is not a column of {kind}.", field="mapping")
    chosen = [m for m in mapping if m]
    if len(chosen) != len(set(chosen)):
        raise DomainError(
            "bad_mapping", "Each field may be given by one column only.", field="mapping"
        )
    return mapping


def plan(*, season: Season, kind: str, table: Table, mapping: list[str] | None = None) -> Plan:
    """What importing `table` as `kind` into `season` would do, and every problem. Reads
    only."""
    columns = check_mapping(kind, table.headers, mapping)
    result = Plan(kind, table.headers, columns)
    present = set(columns)
    for f in KINDS[kind].fields:
        if f.required and f.key not in present:
            result.problems.append(Problem(0, f.label, f"No column gives {f.label.lower()}."))
    if result.problems:
        return result
    names: set[str] = set()
    if "name" in columns and kind in ("players", "registrations"):
        at = columns.index("name")
        names = {" ".join(cells[at].split()) for _, cells in table.rows if at < len(cells)}
    ctx = _Context(season, names)
    seen: dict = {}
    for number, cells in table.rows:
        row = _Row(result, number, cells)
        if not row.bad:
            KINDS[kind].plan_row(result, ctx, row, seen)
    if not table.rows:
        result.problems.append(Problem(0, "", "The file has no rows under its header."))
    return result


def refuse_problems(result: Plan) -> Plan:
    """`result`, or `import_invalid` with its problems when it has any."""
    if result.problems:
        raise DomainError(
            "import_invalid",
            f"{len(result.problems)} problem(s) in the file: nothing was imported.",
            extra={"problems": [p.as_dict() for p in result.problems]},
        )
    return result


@transaction.atomic
def import_apply(
    *,
    season: Season,
    actor: Any,
    kind: str,
    table: Table,
    mapping: list[str] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Plan:
    """Import the rows: all of them, or (when any row has a problem) none
    (`import_invalid`, with the problems). Only the season's secretary may. `progress`
    is told (steps done, steps) as the rows are written (the background job's progress,
    `leagues.imports.job`)."""
    require(
        actor,
        "leagues.import_data",
        season,
        message="Only the league's secretary may import its data.",
    )
    season = Season.objects.select_for_update().get(pk=season.pk)
    result = refuse_problems(plan(season=season, kind=kind, table=table, mapping=mapping))
    total = len(result.steps)
    for done, step in enumerate(result.steps, start=1):
        if step.apply is not None:
            step.apply()
        if progress is not None and (done % PROGRESS_EVERY == 0 or done == total):
            progress(done, total)
    return result
