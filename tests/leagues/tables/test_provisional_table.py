"""Issue 28, item 21: a division with confirmed results and no published table shows a
visitor its table as the results stand, marked provisional (Chester was the case: "No
table has been published yet" and nothing else), on its page and the league's front page;
a published table stays the one shown once there is one."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from leagues.models import TableSnapshot
from tests.factories import make_secretary
from tests.leagues.test_publish import publish
from tests.leagues.test_standings import make_division, play
from tests.links import league_reverse

pytestmark = pytest.mark.django_db


def _table(html: str) -> str:
    found = re.findall(r'<table class="league-table">.*?</table>', html, re.S)
    assert len(found) == 1, found
    return found[0]


def _teams(table: str) -> list[str]:
    return re.findall(r'<td class="team"><a href="[^"]+">([^<]+)</a>', table)


def _played(division):
    play(division, "Ash", "Birch", 6, 3)
    play(division, "Cedar", "Ash", 2, 7)
    play(division, "Birch", "Cedar", 5, 4)


def test_division_page_shows_the_provisional_table_when_none_is_published():
    division = make_division(["Ash", "Birch", "Cedar"])
    _played(division)
    page = Client().get(league_reverse("division-detail", args=[division.pk])).content.decode()
    assert "No table has been published yet." in page
    assert "Provisional table." in page
    assert "Worked out from the 3 results confirmed so far" in page
    table = _table(page)
    assert '<caption>Division 1 <span class="tag">provisional</span></caption>' in table
    assert _teams(table) == ["Ash", "Birch", "Cedar"]  # 2 wins, 1 win (9–10), 0 wins
    assert TableSnapshot.objects.count() == 0  # shown, not published


def test_division_page_without_results_shows_no_table():
    division = make_division(["Ash", "Birch", "Cedar"])
    page = Client().get(league_reverse("division-detail", args=[division.pk])).content.decode()
    assert "No table has been published yet." in page
    assert "Provisional table." not in page
    assert 'class="league-table"' not in page


def test_a_published_table_replaces_the_provisional_one(django_capture_on_commit_callbacks):
    division = make_division(["Ash", "Birch", "Cedar"])
    _played(division)
    publish(division.season, make_secretary(division.season), django_capture_on_commit_callbacks)
    play(division, "Birch", "Ash", 9, 0)
    page = Client().get(league_reverse("division-detail", args=[division.pk])).content.decode()
    snapshot = TableSnapshot.objects.get(division=division)
    assert snapshot.html in page
    assert "Provisional table." not in page
    assert _teams(_table(page)) == ["Ash", "Birch", "Cedar"]  # as published, before 9–0


def test_league_front_page_shows_each_unpublished_division_provisionally(
    django_capture_on_commit_callbacks,
):
    premier = make_division(["Ash", "Birch", "Cedar"])
    second = make_division(["Elm", "Fir", "Gorse"], season=premier.season, rank_=2)
    _played(premier)
    play(second, "Fir", "Elm", 7, 2)
    url = reverse("league-home", args=[premier.season.league.slug])
    page = Client().get(url).content.decode()
    tables = re.findall(r'<table class="league-table">.*?</table>', page, re.S)
    assert [_teams(t) for t in tables] == [["Ash", "Birch", "Cedar"], ["Fir", "Elm", "Gorse"]]
    assert all('<span class="tag">provisional</span></caption>' in t for t in tables)
    assert page.count("Provisional table.") == 2

    # Once the tables are published, the front page shows them instead.
    publish(premier.season, make_secretary(premier.season), django_capture_on_commit_callbacks)
    page = Client().get(url).content.decode()
    for division in (premier, second):
        assert TableSnapshot.objects.get(division=division).html in page
    assert "Provisional table." not in page
