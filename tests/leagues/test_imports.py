"""Importing a season from a spreadsheet: loose headers, a preview with every problem by
row and column, all or nothing, the same file twice changes nothing, CSV and XLSX."""

from __future__ import annotations

import io
import re
import tracemalloc
import zipfile
from datetime import date
from decimal import Decimal

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from openpyxl import Workbook

from leagues import imports, standings
from leagues.models import Division, Fixture, Player, Registration, Team, Venue
from marker.errors import DomainError
from marker.formats import PRESETS
from tests.factories import SeasonFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def league(league_of_the_module):
    """Built once for this module: its tests only read it, and their writes roll back."""
    return league_of_the_module


def csv_bytes(rows: list[list]) -> bytes:
    return "\n".join(",".join(str(c) for c in row) for row in rows).encode()


def xlsx_bytes(rows: list[list]) -> bytes:
    book = Workbook()
    sheet = book.active
    for row in rows:
        sheet.append(row)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def counts() -> tuple:
    return (
        Venue.objects.count(),
        Team.objects.count(),
        Division.objects.count(),
        Player.objects.count(),
        Registration.objects.count(),
        Fixture.objects.count(),
        Fixture.objects.filter(result_confirmed_at__isnull=False).count(),
    )


@pytest.fixture
def season(league):
    return league.season


def run(season, secretary, kind, name, data, mapping=None):
    table = imports.read_table(name, data, kind)
    return imports.import_apply(
        season=season, actor=secretary, kind=kind, table=table, mapping=mapping
    )


# A draw sheet as a league might keep it: a title above the header, headers in its own
# words, an extra column, blank rows.
TEAMS = [
    ["Winter League 2026 — team list", "", "", ""],
    [],
    ["Team Name", "Home Venue", "Div.", "Captain's phone"],
    ["The Ship", "Ship Inn", "Premier", "01603 000000"],
    ["", "", "", ""],
    ["Red Lion A", "Red Lion", "Premier", ""],
    ["Red Lion B", "Red Lion", "Division Three", "07700 900000"],
]


@pytest.mark.parametrize("fmt", ["csv", "xlsx"])
def test_a_messy_team_sheet_imports_and_a_second_import_changes_nothing(league, fmt):
    season, secretary = league.season, league.secretary
    data = csv_bytes(TEAMS) if fmt == "csv" else xlsx_bytes(TEAMS)
    before = counts()
    table = imports.read_table(f"teams.{fmt}", data, "teams")
    assert table.headers[:3] == ["Team Name", "Home Venue", "Div."]
    assert [n for n, _ in table.rows] == [4, 6, 7]  # blank rows left out, numbers kept
    preview = imports.plan(season=season, kind="teams", table=table)
    assert preview.mapping == ["name", "venue", "division", ""]
    assert not preview.problems
    assert preview.counts["team"]["create"] == 3
    assert preview.counts["venue"]["create"] == 2  # Ship Inn and Red Lion, once each
    assert preview.counts["division"]["create"] == 1  # Division Three; Premier exists
    assert counts() == before  # the preview wrote nothing
    done = run(season, secretary, "teams", f"teams.{fmt}", data)
    assert done.changes == 6
    b = Team.objects.get(season=season, name="Red Lion B")
    assert (b.venue.name, b.division.name) == ("Red Lion", "Division Three")
    after = counts()
    again = run(season, secretary, "teams", f"teams.{fmt}", data)
    assert again.changes == 0 and counts() == after


def test_a_team_sheet_names_its_captains_by_account(league):
    """A captain is an account's username or email; one that names no account is a
    problem on its row and column, and nothing is saved."""
    season = league.season
    UserFactory(username="skipper1", email="skip@example.org")
    sheet = [["Team", "Venue", "Captain"], ["Anchor", "The Anchor", "SKIP@example.org"]]
    done = run(season, league.secretary, "teams", "t.csv", csv_bytes(sheet))
    assert done.changes == 2
    assert Team.objects.get(season=season, name="Anchor").captain.username == "skipper1"
    again = run(season, league.secretary, "teams", "t.csv", csv_bytes(sheet))
    assert again.changes == 0
    bad = [["Team", "Venue", "Captain"], ["Bell", "The Bell", "nobody@example.org"]]
    table = imports.read_table("t.csv", csv_bytes(bad), "teams")
    plan = imports.plan(season=season, kind="teams", table=table)
    assert [(p.row, p.column) for p in plan.problems] == [(2, "Captain")]
    with pytest.raises(DomainError):
        imports.import_apply(season=season, actor=league.secretary, kind="teams", table=table)
    assert not Team.objects.filter(season=season, name="Bell").exists()


def test_a_bad_row_is_reported_by_row_and_column_and_nothing_is_saved(league):
    season = league.season
    home, away = league.teams[0].name, league.teams[1].name
    rows = [
        ["Match date", "Home", "Away", "Home frames", "Away frames", "Notes"],
        ["08/09/2026", home, league.teams[2].name, "5", "4", "fine"],
        ["15/09/2026", home, "Nobody FC", "5", "4", ""],
        ["01/01/2020", league.teams[2].name, away, "5", "4", ""],
        ["22/09/2026", league.teams[3].name, league.teams[2].name, "five", "4", ""],
        ["08/09/2026", home, league.teams[2].name, "5", "4", "again"],
    ]
    # The generated fixtures are in the way of new ones between the same teams.
    Fixture.objects.filter(season=season).delete()
    data = csv_bytes(rows)
    before = counts()
    with pytest.raises(DomainError) as info:
        run(season, league.secretary, "results", "results.csv", data)
    assert info.value.code == "import_invalid"
    problems = {(p["row"], p["column"]) for p in info.value.extra["problems"]}
    assert (3, "Away") in problems  # an unknown team
    assert (4, "Match date") in problems  # a date outside the season
    assert (5, "Home frames") in problems  # a bad number
    assert (6, "Match date") in problems  # the same fixture twice
    assert (2, "Home") not in problems
    messages = " ".join(p["message"] for p in info.value.extra["problems"])
    assert "Nobody FC" in messages and "five" in messages and "outside" in messages
    assert counts() == before


def test_past_results_count_in_the_table_and_are_not_imported_twice(league):
    season = league.season
    Fixture.objects.filter(season=season).delete()
    t = [team.name for team in league.teams[:4]]
    rows = [
        ["Date", "Home team", "Away team", "HF", "AF", "Home agg", "Away agg"],
        ["8 Sep 2026", t[0], t[1], "6", "3", "9000", "7000"],
        ["15/09/2026", t[2], t[3], "4½", "4½", "8000", "8100"],
    ]
    run(season, league.secretary, "results", "r.csv", csv_bytes(rows))
    fixture = Fixture.objects.get(home__name=t[0], away__name=t[1])
    assert (fixture.home_frames, fixture.away_frames) == (Decimal(6), Decimal(3))
    assert fixture.date == date(2026, 9, 8) and fixture.result_confirmed_at is not None
    table = standings.tables(season)[0]
    top = table.rows[0]
    assert (top.team, top.frames_for) == (t[0], Decimal(6))
    assert run(season, league.secretary, "results", "r.csv", csv_bytes(rows)).changes == 0
    rows[1][3] = "5"
    with pytest.raises(DomainError) as info:
        run(season, league.secretary, "results", "r.csv", csv_bytes(rows))
    assert "already has a result" in info.value.extra["problems"][0]["message"]


def test_players_and_registrations_follow_rule_8(league):
    season = league.season
    elsewhere = league.teams[1].registrations.first().player
    rows = [
        ["Player name", "E-mail", "Team"],
        ["Nora Nobbs", "nora@example.org", league.teams[0].name],
        ["Walt Wise", "", ""],
        [elsewhere.name, elsewhere.email, league.teams[0].name],
    ]
    with pytest.raises(DomainError) as info:
        run(season, league.secretary, "players", "p.csv", csv_bytes(rows))
    [problem] = info.value.extra["problems"]
    assert (problem["row"], problem["column"]) == (4, "Team")
    assert f"already registered with {league.teams[1].name}" in problem["message"]
    del rows[3]
    done = run(season, league.secretary, "players", "p.csv", csv_bytes(rows))
    assert done.counts["player"]["create"] == 2 and done.counts["registration"]["create"] == 1
    nora = Player.objects.get(name="Nora Nobbs")
    assert nora.registrations.get().team == league.teams[0]
    assert run(season, league.secretary, "players", "p.csv", csv_bytes(rows)).changes == 0


def test_venues_fixtures_and_the_columns_mapped_by_hand(league):
    season = league.season
    venues = [["Pub", "Address", "Tables"], ["The Plough", "1 High St", "2"], ["Bad", "", "x"]]
    with pytest.raises(DomainError):
        run(season, league.secretary, "venues", "v.csv", csv_bytes(venues))
    del venues[2]
    run(season, league.secretary, "venues", "v.csv", csv_bytes(venues))
    assert Venue.objects.get(name="The Plough").tables == 2

    Fixture.objects.filter(season=season).delete()
    a, b = league.teams[0].name, league.teams[1].name
    # Headers the matcher does not know: the secretary says which column is which.
    rows = [["Wk", "Night", "Side 1", "Side 2"], ["3", "2026-09-22", a, b]]
    table = imports.read_table("f.csv", csv_bytes(rows), "fixtures")
    preview = imports.plan(season=season, kind="fixtures", table=table)
    assert {p.column for p in preview.problems} >= {"Date", "Home team", "Away team"}
    mapping = ["round", "date", "home", "away"]
    preview = imports.plan(season=season, kind="fixtures", table=table, mapping=mapping)
    assert not preview.problems and preview.counts["fixture"]["create"] == 1
    run(season, league.secretary, "fixtures", "f.csv", csv_bytes(rows), mapping)
    fixture = Fixture.objects.get(season=season)
    assert (fixture.round, fixture.venue, fixture.division) == (
        3,
        league.teams[0].venue,
        league.premier,
    )
    with pytest.raises(DomainError) as info:
        imports.plan(season=season, kind="fixtures", table=table, mapping=["date", "date", "", ""])
    assert info.value.code == "bad_mapping"


def test_only_the_leagues_secretary_may_import(league):
    table = imports.read_table("v.csv", csv_bytes([["Venue"], ["The Plough"]]), "venues")
    for user in (league.captain, league.outsider, None):
        with pytest.raises(DomainError) as info:
            imports.import_apply(season=league.season, actor=user, kind="venues", table=table)
        assert info.value.status == 403
    assert not Venue.objects.filter(name="The Plough").exists()


def test_a_file_that_is_not_a_spreadsheet_or_too_large_is_refused():
    with pytest.raises(DomainError) as info:
        imports.read_table("x.xlsx", b"PK\x03\x04 not a zip", "venues")
    assert info.value.code == "bad_file"
    with pytest.raises(DomainError) as info:
        imports.read_table("x.csv", b"a" * (imports.MAX_BYTES + 1), "venues")
    assert info.value.code == "too_large"


# ----------------------------------------------------------------------------- the page


def test_the_page_previews_maps_and_imports(league):
    client = Client()
    client.force_login(league.secretary)
    url = reverse("season-import", args=[league.season.pk])
    assert client.get(url).status_code == 200
    upload = io.BytesIO(csv_bytes([["Pub name", "Extra"], ["The Plough", "x"], ["", ""]]))
    upload.name = "venues.csv"
    response = client.post(url, {"kind": "venues", "file": upload})
    assert response.status_code == 400  # "Pub name" is not a name it knows
    assert "No column gives venue" in response.content.decode()
    payload = response.context["payload"]
    response = client.post(url, {"payload": payload, "map-0": "name", "action": "preview"})
    assert response.status_code == 200
    assert "The Plough" in response.content.decode()
    assert not Venue.objects.filter(name="The Plough").exists()
    response = client.post(url, {"payload": payload, "map-0": "name", "action": "import"})
    assert response.status_code == 302
    assert Venue.objects.filter(name="The Plough").exists()
    tampered = payload[:-3] + "abc"
    response = client.post(url, {"payload": tampered, "map-0": "name", "action": "import"})
    assert response.status_code == 400


def test_an_upload_for_another_season_cannot_be_replayed(league):
    client = Client()
    client.force_login(league.secretary)
    upload = io.BytesIO(csv_bytes([["Venue"], ["The Plough"]]))
    upload.name = "v.csv"
    response = client.post(
        reverse("season-import", args=[league.season.pk]), {"kind": "venues", "file": upload}
    )
    other = SeasonFactory(league=league.season.league)  # the secretary's too
    response = client.post(
        reverse("season-import", args=[other.pk]),
        {"payload": response.context["payload"], "map-0": "name", "action": "import"},
    )
    assert response.status_code == 400
    assert not Venue.objects.filter(name="The Plough").exists()


@pytest.mark.parametrize("kind", ["players", "results"])
def test_the_preview_reads_the_same_number_of_queries_for_any_number_of_rows(league, kind):
    teams = [t.name for t in league.teams]
    players = [r.player.name for t in league.teams for r in t.registrations.all()]

    def table(n: int) -> imports.Table:
        if kind == "players":
            rows = [["Name", "Team"]] + [[players[i], teams[i % 3]] for i in range(n)]
        else:
            rows = [["Date", "Home", "Away", "HF", "AF"]] + [
                [f"{1 + i % 28}/10/2026", teams[i % 4], teams[(i + 1) % 4], "5", "4"]
                for i in range(n)
            ]
        return imports.read_table("t.csv", csv_bytes(rows), kind)

    small, large = table(2), table(20)
    with CaptureQueriesContext(connection) as few:
        imports.plan(season=league.season, kind=kind, table=small)
    with CaptureQueriesContext(connection) as many:
        imports.plan(season=league.season, kind=kind, table=large)
    assert len(many) == len(few)


# ----------------------------------------------------------------------------- the API


def api_post(client, league, data: bytes, **fields):
    upload = io.BytesIO(data)
    upload.name = fields.pop("name", "venues.csv")
    return client.post(
        reverse("api-season-import", args=[league.season.pk]),
        {"kind": "venues", "file": upload, **fields},
    )


def test_the_api_dry_runs_then_imports(league):
    client = Client()
    client.force_login(league.secretary)
    data = csv_bytes([["Pub name", "Tables"], ["The Plough", "2"]])
    response = api_post(client, league, data)
    assert response.status_code == 200
    body = response.json()
    assert body["imported"] is False
    assert body["problems"] == [{"row": 0, "column": "Venue", "message": "No column gives venue."}]
    response = api_post(client, league, data, mapping=["name", "tables"])
    assert response.json()["counts"] == {"venue": {"create": 1, "change": 0, "same": 0}}
    assert not Venue.objects.filter(name="The Plough").exists()
    response = api_post(client, league, data, mapping=["name", "tables"], dry_run="false")
    assert response.status_code == 200 and response.json()["imported"] is True
    assert Venue.objects.get(name="The Plough").tables == 2
    again = api_post(client, league, data, mapping=["name", "tables"], dry_run="false")
    assert again.json()["changes"] == 0


def test_the_api_refuses_bad_rows_strangers_and_bad_input(league):
    secretary = Client()
    secretary.force_login(league.secretary)
    bad = csv_bytes([["Venue", "Tables"], ["The Plough", "many"]])
    response = api_post(secretary, league, bad, dry_run="false")
    assert response.status_code == 400
    assert response.json()["error"] == "import_invalid"
    assert response.json()["problems"][0] == {
        "row": 2,
        "column": "Tables",
        "message": "'many' is not a number.",
    }
    response = api_post(secretary, league, bad, kind="nonsense")
    assert response.status_code == 400 and response.json()["error"] == "invalid"
    response = api_post(secretary, league, b"PK\x03\x04junk", name="v.xlsx")
    assert response.status_code == 400 and response.json()["error"] == "bad_file"
    captain = Client()
    captain.force_login(league.captain)
    good = csv_bytes([["Venue"], ["The Plough"]])
    assert api_post(captain, league, good, dry_run="false").status_code == 403
    assert api_post(Client(), league, good).status_code in (401, 403)
    assert not Venue.objects.filter(name="The Plough").exists()


# ----------------------------------------------------------------------------- issue 28


def test_names_with_upper_case_non_ascii_letters_match_on_a_second_import(league):
    """Names are folded in Python on both sides (not by the database's LOWER(), which on
    SQLite folds ASCII only and on PostgreSQL keeps ß): the second import in other case
    finds the players and the venue the first created."""
    season = league.season
    team = league.teams[0].name
    first = [
        ["Player", "Team"],
        ["Łukasz Østergård", team],
        ["Åse Þórsdóttir", team],
        ["Hans Strauß", team],
        ["Ñaki Œuvray", ""],
    ]
    run(season, league.secretary, "players", "p.csv", csv_bytes(first))
    before = counts()
    second = [
        ["Player", "Team"],
        ["ŁUKASZ ØSTERGÅRD", team.upper()],
        ["åse þórsdóttir", team],
        ["HANS STRAUSS", team],
        ["ñaki  œuvray", ""],
    ]
    done = run(season, league.secretary, "players", "p.csv", csv_bytes(second))
    assert done.changes == 0 and counts() == before
    assert done.counts["registration"] == {"create": 0, "change": 0, "same": 3}
    run(season, league.secretary, "venues", "v.csv", csv_bytes([["Venue"], ["Ærø Arms"]]))
    again = run(season, league.secretary, "venues", "v.csv", csv_bytes([["Venue"], ["ÆRØ ARMS"]]))
    assert again.counts["venue"]["same"] == 1 and Venue.objects.filter(name="Ærø Arms").count() == 1
    # Two team rows naming one new venue in two cases create it once.
    teams = [["Team", "Venue"], ["Øl A", "Ølstue"], ["Øl B", "ØLSTUE"]]
    run(season, league.secretary, "teams", "t.csv", csv_bytes(teams))
    assert Venue.objects.filter(name__in=["Ølstue", "ØLSTUE"]).count() == 1


def test_names_are_matched_without_the_databases_lower(league, monkeypatch):
    """The matching is the same on every database: it asks the database for no case
    folding at all (so SQLite's ASCII-only LOWER() cannot split a name in two)."""
    from django.db.models import functions

    def refuse(*args, **kwargs):
        raise AssertionError("matched names with the database's LOWER()")

    monkeypatch.setattr(functions.Lower, "as_sql", refuse)
    monkeypatch.setattr(functions.Upper, "as_sql", refuse)
    rows = [["Player", "Team"], ["ŁUKASZ NOWAK", league.teams[0].name]]
    run(league.season, league.secretary, "players", "p.csv", csv_bytes(rows))
    rows[1][0] = "Łukasz Nowak"
    done = run(league.season, league.secretary, "players", "p.csv", csv_bytes(rows))
    assert done.changes == 0


def test_nicknames_in_single_quotes_read_as_written(league):
    team = league.teams[0].name
    text = (
        "Player,Team\n"
        f"Dai 'Dynamite' Davies,{team}\n"
        f'"Jim ""Jester"" Jowett",{team}\n'
        f"Tom 'Tiger' O'Neill,{team}\n"
    )
    table = imports.read_table("p.csv", text.encode(), "players")
    assert [cells[0] for _, cells in table.rows] == [
        "Dai 'Dynamite' Davies",
        'Jim "Jester" Jowett',
        "Tom 'Tiger' O'Neill",
    ]
    run(league.season, league.secretary, "players", "p.csv", text.encode())
    assert Player.objects.filter(name='Jim "Jester" Jowett').exists()
    semicolons = "Player;Team\nDai 'Dynamite' Davies;" + team + "\n"
    table = imports.read_table("p.csv", semicolons.encode(), "players")
    assert table.rows == [(2, ["Dai 'Dynamite' Davies", team])]


def test_a_result_that_cannot_be_under_the_format_is_a_problem(league):
    season = league.season
    Fixture.objects.filter(season=season).delete()
    t = [team.name for team in league.teams[:4]]
    frames = league.premier.format.frame_count  # nine: the default (Norwich) format
    rows = [
        ["Date", "Home team", "Away team", "HF", "AF"],
        ["8 Sep 2026", t[0], t[1], "6", "5"],
        ["8 Sep 2026", t[2], t[3], "10", "0"],
        ["15 Sep 2026", t[1], t[0], "5", "4"],
        ["15 Sep 2026", t[3], t[2], "4½", "4½"],
    ]
    table = imports.read_table("r.csv", csv_bytes(rows), "results")
    plan = imports.plan(season=season, kind="results", table=table)
    assert [(p.row, p.column) for p in plan.problems] == [(2, "HF"), (3, "HF")]
    assert f"has {frames}" in plan.problems[0].message and "6–5" in plan.problems[0].message
    # A division playing a format of its own is checked against that one.
    league.premier.match_format = {**PRESETS["snooker_blind"]}
    league.premier.save(update_fields=["match_format"])
    plan = imports.plan(season=season, kind="results", table=table)
    assert {p.row for p in plan.problems} == {2, 3, 4, 5}  # five frames: 5–4 is 9
    with pytest.raises(DomainError) as info:
        imports.import_apply(season=season, actor=league.secretary, kind="results", table=table)
    assert info.value.code == "import_invalid"
    assert not Fixture.objects.filter(season=season).exists()


def xlsx_with_formulas(rows: list[list], cached: dict[str, str]) -> bytes:
    """An XLSX file whose formula cells carry the value Excel cached (openpyxl writes
    none: the sheet's XML is given them)."""
    data = xlsx_bytes(rows)
    source = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for item in source.infolist():
            body = source.read(item.filename)
            if item.filename == "xl/worksheets/sheet1.xml":
                text = body.decode()
                for ref, value in cached.items():
                    text = re.sub(
                        rf'(<c r="{ref}"[^>]*>)<f>(.*?)</f><v\s*/?>(</v>)?',
                        rf"\1<f>\2</f><v>{value}</v>",
                        text,
                    )
                body = text.encode()
            target.writestr(item, body)
    return out.getvalue()


def test_xlsx_formula_cells_are_named_as_problems_not_read(league):
    """A formula cell is neither Excel's cached value (=4+4 as team "8") nor blank (an
    Address formula dropped): the file is refused, each formula cell named."""
    rows = [
        ["Team", "Venue", "Address"],
        ["=4+4", "The Ship", "1 Quay St"],
        ["Bell", "The Bell", '=CONCATENATE("2 ", "High St")'],
        ["Crown", "The Crown", "3 Market Pl"],
    ]
    data = xlsx_with_formulas(rows, {"A2": "8"})
    sheet = zipfile.ZipFile(io.BytesIO(data)).read("xl/worksheets/sheet1.xml")
    assert b"<f>4+4</f><v>8</v>" in sheet  # what Excel would have cached
    before = counts()
    with pytest.raises(DomainError) as info:
        imports.read_table("t.xlsx", data, "teams")
    assert info.value.code == "formula_cells"
    assert "A2" in info.value.message and "C3" in info.value.message
    problems = info.value.extra["problems"]
    assert [(p["row"], p["column"]) for p in problems] == [(2, "Team"), (3, "Address")]
    assert "=4+4" in problems[0]["message"] and "CONCATENATE" in problems[1]["message"]
    client = Client()
    client.force_login(league.secretary)
    response = api_post(client, league, data, name="t.xlsx", kind="teams", dry_run="false")
    assert response.status_code == 400
    assert response.json()["error"] == "formula_cells"
    assert [p["row"] for p in response.json()["problems"]] == [2, 3]
    page = client.post(
        reverse("season-import", args=[league.season.pk]),
        {"kind": "teams", "file": named(data, "t.xlsx")},
    )
    assert page.status_code == 400 and "A2" in page.content.decode()
    assert counts() == before
    # A formula in a title above the header is not data, and is no problem.
    titled = [["=TODAY()"], *rows[:1], ["Anchor", "The Anchor", "4 Dock Rd"]]
    table = imports.read_table("t.xlsx", xlsx_bytes(titled), "teams")
    assert table.rows == [(3, ["Anchor", "The Anchor", "4 Dock Rd"])]


def named(data: bytes, name: str) -> io.BytesIO:
    upload = io.BytesIO(data)
    upload.name = name
    return upload


def zip_bomb(inflated: int) -> bytes:
    """A small XLSX file whose sheet inflates to `inflated` bytes (blank space inside the
    sheet's XML, which a parser would read to the end)."""
    source = zipfile.ZipFile(io.BytesIO(xlsx_bytes([["Venue"], ["The Plough"]])))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for item in source.infolist():
            body = source.read(item.filename)
            if item.filename == "xl/worksheets/sheet1.xml":
                with target.open(item.filename, "w", force_zip64=True) as sheet:
                    head, tail = body.split(b"<sheetData>", 1)
                    sheet.write(head + b"<sheetData>")
                    chunk = b" " * (1024 * 1024)
                    for _ in range(inflated // len(chunk)):
                        sheet.write(chunk)
                    sheet.write(tail)
                continue
            target.writestr(item.filename, body)
    return out.getvalue()


@pytest.mark.parametrize("inflated_mb", [300, 8])
def test_a_zip_bomb_is_refused_before_it_is_parsed(league, monkeypatch, inflated_mb):
    """300 MB in all, or 8 MB from a few KB (the ratio): refused from the zip's directory,
    nothing inflated, in constant memory."""
    data = zip_bomb(inflated_mb * 1024 * 1024)
    assert len(data) < imports.MAX_BYTES

    def no_parsing(*args, **kwargs):
        raise AssertionError("the workbook was opened")

    monkeypatch.setattr(imports, "load_workbook", no_parsing)
    tracemalloc.start()
    try:
        with pytest.raises(DomainError) as info:
            imports.read_table("bomb.xlsx", data, "venues")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert info.value.code == "too_large" and "unpack" in info.value.message
    assert peak < 2 * 1024 * 1024
    client = Client()
    client.force_login(league.secretary)
    response = api_post(client, league, data, name="bomb.xlsx")
    assert response.status_code == 400 and response.json()["error"] == "too_large"


def test_a_large_real_sheet_is_not_taken_for_a_bomb(league):
    rows = [["Venue", "Address", "Tables"]] + [
        [f"Pub {i}", f"{i} High Street", 1 + i % 3] for i in range(imports.MAX_ROWS)
    ]
    table = imports.read_table("v.xlsx", xlsx_bytes(rows), "venues")
    assert len(table.rows) == imports.MAX_ROWS
