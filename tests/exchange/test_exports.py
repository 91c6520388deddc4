"""A season's spreadsheets (CSV and XLSX) and the secretary's archive download."""

from __future__ import annotations

import csv
import io
import json
from decimal import Decimal

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from openpyxl import load_workbook

from exchange import exports
from leagues import imports
from leagues.fixtures import services as fixture_services
from leagues.models import Division, Fixture, Team, Venue
from marker.errors import DomainError
from tests.factories import LeagueFactory, SeasonFactory

from .test_archive import played_league

pytestmark = pytest.mark.django_db


@pytest.fixture
def league(league_of_the_module):
    """Built once for this module: its tests only read it, and their writes roll back."""
    return league_of_the_module


def secretary_client(league) -> Client:
    client = Client()
    client.force_login(league.secretary)
    return client


def read(response) -> list[list]:
    body = b"".join(response.streaming_content) if response.streaming else response.content
    if response["Content-Type"].startswith("text/csv"):
        return list(csv.reader(io.StringIO(body.decode("utf-8-sig"))))
    sheet = load_workbook(io.BytesIO(body), read_only=True).worksheets[0]
    return [["" if c is None else c for c in row] for row in sheet.iter_rows(values_only=True)]


@pytest.mark.parametrize("fmt", ["csv", "xlsx"])
def test_fixtures_tables_and_averages_export_formula_safe(league, fmt):
    played_league(league)
    Team.objects.filter(pk=league.teams[0].pk).update(name='=HYPERLINK("http://x")')
    client = secretary_client(league)
    sheets = {}
    for sheet in exports.SHEETS:
        url = reverse("season-export", args=[league.season.pk, sheet, fmt])
        response = client.get(url)
        assert response.status_code == 200
        assert f".{fmt}" in response["Content-Disposition"]
        sheets[sheet] = read(response)
    fixtures = sheets["fixtures"]
    assert fixtures[0] == exports.FIXTURES_HEADER
    assert len(fixtures) == 1 + Fixture.objects.filter(season=league.season).count()
    names = [cell for row in fixtures for cell in row if "HYPERLINK" in str(cell)]
    # CSV: the apostrophe keeps it text; XLSX: a text cell, the name exactly.
    safe = "'" if fmt == "csv" else ""
    assert names and all(n == safe + '=HYPERLINK("http://x")' for n in names)
    drawn = [r for r in fixtures if r[8] not in ("", None) and str(r[8]) == "4.5"]
    assert drawn  # the half frames of the keyed-in draw
    assert sheets["tables"][1][2] != ""  # a team's row under the header
    averages = sheets["averages"]
    assert averages[0][:2] == ["Player", "Team"] and len(averages) > 1


def test_the_fixtures_sheet_reads_back_as_past_results(league):
    fixture_services.fixture_record_result(
        fixture=Fixture.objects.filter(season=league.season).order_by("id").first(),
        home_frames=Decimal(5),
        away_frames=Decimal(4),
        home_score=100,
        away_score=90,
        confirmed_at=timezone.now(),
    )
    body, _, name = exports.season_export(season=league.season, sheet="fixtures", fmt="csv")
    table = imports.read_table(name, body, "results")
    plan = imports.plan(season=league.season, kind="results", table=table)
    assert plan.mapping[:5] == ["date", "round", "division", "home", "away"]
    assert not plan.problems
    assert plan.counts["result"]["same"] == 1  # the one played
    assert plan.counts["fixture"]["same"] == len(table.rows) - 1  # the rest, not played yet
    assert plan.changes == 0


def test_the_secretary_downloads_a_portable_archive(league):
    played_league(league)
    response = secretary_client(league).get(
        reverse("league-archive", args=[league.season.league.slug])
    )
    assert response.status_code == 200
    body = b"".join(response.streaming_content).decode()  # streamed: flat memory
    archive = json.loads(body)
    assert archive["full_backup"] is False and archive["accounts"] == []
    assert "@" not in body
    page = secretary_client(league).get(reverse("season-data", args=[league.season.pk]))
    assert reverse("league-archive", args=[league.season.league.slug]) in page.content.decode()


def test_an_unknown_sheet_or_format_is_not_found(league):
    client = secretary_client(league)
    assert (
        client.get(reverse("season-export", args=[league.season.pk, "x", "csv"])).status_code == 404
    )
    assert (
        client.get(reverse("season-export", args=[league.season.pk, "tables", "pdf"])).status_code
        == 404
    )


def test_a_secretary_of_another_league_is_refused_everything(league):
    """A secretary of one league is refused the other league's imports and exports."""
    mine = league.season.league
    other = SeasonFactory(league=LeagueFactory(), start_date=league.season.start_date)
    client = secretary_client(league)
    theirs = [
        reverse("season-import", args=[other.pk]),
        reverse("season-data", args=[other.pk]),
        reverse("season-export", args=[other.pk, "fixtures", "csv"]),
        reverse("league-archive", args=[other.league.slug]),
    ]
    ours = [
        reverse("season-import", args=[league.season.pk]),
        reverse("season-data", args=[league.season.pk]),
        reverse("season-export", args=[league.season.pk, "fixtures", "csv"]),
        reverse("league-archive", args=[mine.slug]),
    ]
    assert [client.get(url).status_code for url in theirs] == [403] * 4
    assert [client.get(url).status_code for url in ours] == [200] * 4
    table = imports.read_table("v.csv", b"Venue\nThe Plough\n", "venues")
    with pytest.raises(DomainError) as info:
        imports.import_apply(season=other, actor=league.secretary, kind="venues", table=table)
    assert info.value.status == 403


def test_the_data_page_reads_a_fixed_number_of_queries(league, django_assert_num_queries):
    client = secretary_client(league)
    url = reverse("season-data", args=[league.season.pk])
    client.get(url)
    # Session, user, season, the user's league roles (one query, however many checks), the
    # page's two reads, and the site notices.
    with django_assert_num_queries(7):
        assert client.get(url).status_code == 200


#: Names a spreadsheet would run as formulas, names that start with an apostrophe, and
#: ordinary names (with what CSV quotes).
TRICKY_NAMES = [
    '=HYPERLINK("http://x")',
    "+Plus Club",
    "-Minus Arms",
    "@Home",
    "'=Already quoted",
    "''-Two apostrophes",
    "'Allo 'Allo",
    'The "Jester", Norwich',
]


def xlsx_cells(body: bytes) -> list:
    sheet = load_workbook(io.BytesIO(body), read_only=True).worksheets[0]
    return [cell for row in sheet.iter_rows() for cell in row]


@pytest.mark.parametrize("fmt", ["csv", "xlsx"])
def test_every_name_reads_back_from_the_export(league, fmt):
    """The fixtures export imports back into the season as past results with nothing to
    change: every team, division and venue name read as it was stored, whatever it
    starts with."""
    teams = list(Team.objects.filter(season=league.season).order_by("id"))
    for team, name in zip(teams, TRICKY_NAMES, strict=False):
        Team.objects.filter(pk=team.pk).update(name=name)
    Venue.objects.filter(pk=teams[1].venue_id).update(name="-Minus Pub")
    Division.objects.filter(pk=league.premier.pk).update(name="@Premier")
    fixture_services.fixture_record_result(
        fixture=Fixture.objects.filter(season=league.season).order_by("id").first(),
        home_frames=Decimal(5),
        away_frames=Decimal(4),
        home_score=100,
        away_score=90,
        confirmed_at=timezone.now(),
    )
    body, _, name = exports.season_export(season=league.season, sheet="fixtures", fmt=fmt)
    if fmt == "xlsx":
        texts = {c.value for c in xlsx_cells(body) if isinstance(c.value, str)}
        assert {"-Minus Pub", "@Premier", *TRICKY_NAMES} <= texts  # no apostrophe added
        formulas = [c.coordinate for c in xlsx_cells(body) if c.data_type == "f"]
        assert formulas == []  # and none of them a formula
    table = imports.read_table(name, body, "results")
    read = {cell for _, cells in table.rows for cell in cells}
    assert {"-Minus Pub", "@Premier", *TRICKY_NAMES} <= read
    plan = imports.plan(season=league.season, kind="results", table=table)
    assert not plan.problems
    assert plan.changes == 0
    assert plan.counts["result"]["same"] == 1
    assert plan.counts["fixture"]["same"] == len(table.rows) - 1
